"""The pre-push guard: what each pushed ref would land on the remote's default branch."""

from __future__ import annotations

import os
import sys

from leverguard import git
from leverguard.errors import guarded
from leverguard.records import NamedTuple
from leverguard.revert import render
from leverguard.revert.engine import RevertOptions, RevertReport, check_range

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Mapping, Sequence

HOOK_ID = "leverguard-revert"
FALLBACK_BRANCHES = ("main", "master")


class Update(NamedTuple):
    """One line git feeds a pre-push hook: what would replace what on the remote."""

    local_ref: str
    local_sha: str
    remote_ref: str
    remote_sha: str


def parse_updates(lines: Iterable[str]) -> list[Update]:
    """`<local ref> <local sha> <remote ref> <remote sha>` lines; deletions (null local sha) dropped."""
    updates = []
    for line in lines:
        parts = line.split()
        if len(parts) == 4 and parts[1] != git.NULL_OID:
            updates.append(Update(*parts))
    return updates


def from_environment(environ: Mapping[str, str]) -> list[Update]:
    """The pre-commit framework passes the push in PRE_COMMIT_* variables instead of stdin."""
    to_ref = environ.get("PRE_COMMIT_TO_REF", "")
    if not to_ref or to_ref == git.NULL_OID:
        return []
    return [Update(environ.get("PRE_COMMIT_LOCAL_BRANCH", to_ref), to_ref,
                   environ.get("PRE_COMMIT_REMOTE_BRANCH", ""), environ.get("PRE_COMMIT_FROM_REF", git.NULL_OID))]


def default_branch(remote: str, repo: str) -> str | None:
    """The remote-tracking ref of the remote's default branch (origin/HEAD, else main or master)."""
    target = git.symbolic_ref(f"refs/remotes/{remote}/HEAD", repo)
    if target:
        return target
    for name in FALLBACK_BRANCHES:
        if git.ref_exists(f"refs/remotes/{remote}/{name}", repo):
            return f"refs/remotes/{remote}/{name}"
    return None


def check_push(repo: str, remote: str, updates: Sequence[Update]) -> list[tuple[Update, RevertReport]]:
    """A check of every pushed ref against the default branch it would eventually land on."""
    base = default_branch(remote, repo)
    if base is None:
        print(f"leverguard: {HOOK_ID}: no default branch known for remote {remote!r}, nothing checked: "
              f"name it with git remote set-head {remote} main (the branch PRs land on; --auto needs a remote "
              f"HEAD, which a fresh bare remote lacks)", file=sys.stderr)
        return []
    from leverguard.session import Session

    with Session(repo) as session:  # one reader and one configuration snapshot for every pushed ref
        return [(update, check_range(session, base, update.local_sha, RevertOptions())) for update in updates]


def main(argv: Sequence[str] | None = None) -> int:
    """Hook entry point: `pre-push-revert REMOTE [URL]`, the updates on stdin (or PRE_COMMIT_*)."""
    args = list(sys.argv[1:] if argv is None else argv)

    def run() -> int:
        remote = args[0] if args else os.environ.get("PRE_COMMIT_REMOTE_NAME", "origin")
        updates = from_environment(os.environ) if "PRE_COMMIT_TO_REF" in os.environ else parse_updates(sys.stdin)
        status = 0
        for update, report in check_push(".", remote, updates):
            if report.exit_code() or report.findings:
                print(f"leverguard: pushing {update.local_ref} ({update.local_sha[:7]}), landed on "
                      f"{remote}'s default branch:\n" + render.to_text(report), file=sys.stderr)
            status |= report.exit_code()
        if status:
            print(f"leverguard: push refused. Declare an intended revert in a commit message "
                  f"(This reverts commit SHA, or a Leverguard-Revert-Ack: #N trailer), or skip once with "
                  f"SKIP={HOOK_ID} git push", file=sys.stderr)
        return status

    return guarded(run)
