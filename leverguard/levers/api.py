"""Command bodies shared by the click CLI and the lean hook entry: options in, (text, exit code) out.

Each opens the one repository session of its run: every object the engine reads comes through
its reader, which starts only when a first object is read.
"""

from __future__ import annotations

from leverguard import git
from leverguard.config import Config, load
from leverguard.errors import EXIT_CLEAN, EXIT_FINDINGS
from leverguard.session import Session


def _setup(repo: str) -> tuple[str, Config]:
    root = git.toplevel(repo)
    return root, load(root)


def inventory_report(repo: str, rev: str | None, fmt: str) -> tuple[str, int]:
    """`levers`: the inventory at REV (None: the index) in the chosen format; exit 0."""
    from leverguard.levers.classify import inventory
    from leverguard.levers import render

    root, config = _setup(repo)
    with Session(root) as session:
        doc = inventory.to_dict(inventory.inventory_at(session, config, _commit(root, rev)))
    return render.inventory_as(doc, fmt), EXIT_CLEAN


def _commit(root: str, rev: str | None) -> str | None:
    from leverguard.errors import GitError, LeverguardError

    if rev is None:
        return None
    try:
        return git.rev_parse(rev, root)
    except GitError:
        if rev == "HEAD" and not git.has_commits(root):
            raise LeverguardError("the repository has no commit yet: inventory the staged files with --rev index") from None
        raise


def parse_range(root: str, spec: str | None) -> tuple[str, str | None]:
    """`A..B` -> (A, B); `A..` -> (A, HEAD); `REV` -> (REV^, REV); nothing -> (HEAD, index)."""
    from leverguard.errors import LeverguardError

    if spec is None:
        return ("HEAD" if git.has_commits(root) else git.EMPTY_TREE), None
    if "..." in spec:
        raise LeverguardError(f"range {spec!r}: use BASE..HEAD (two dots), or one revision")
    if ".." in spec:
        base, _, head = spec.partition("..")
        if not base:
            raise LeverguardError(f"range {spec!r} has no base: write BASE..HEAD")
        return base, head or "HEAD"
    commit = git.rev_parse(spec, root)
    parent = git.run(["rev-parse", "--verify", "-q", f"{commit}^1"], root, ok_codes=(0, 1)).stdout.decode().strip()
    return parent or git.EMPTY_TREE, commit


def diff_report(repo: str, spec: str | None, fmt: str) -> tuple[str, int]:
    """`levers diff`: transitions and findings; exit 1 when a finding is left behind."""
    from leverguard.levers import render
    from leverguard.levers.transitions.diff import compute_diff

    root, config = _setup(repo)
    base, head = parse_range(root, spec)
    with Session(root) as session:
        result = compute_diff(session, config, base, head)
    return render.diff_as(result.to_dict(), fmt), EXIT_FINDINGS if result.failing else EXIT_CLEAN


def abi_report(repo: str, against: str, head: str | None, fmt: str) -> tuple[str, int]:
    """`abi --against REV`: exit 1 when an ABI file changed or holds a forbidden token."""
    from leverguard.levers.gates import abi
    from leverguard.report import to_json

    root, config = _setup(repo)
    base = git.rev_parse(against, root) if against != git.EMPTY_TREE else against
    statuses = abi.abi_status(root, config, base, git.rev_parse(head, root) if head else None)
    code = EXIT_FINDINGS if any(s.failing for s in statuses) else EXIT_CLEAN
    if fmt == "json":
        return to_json({"against": against, "files": statuses}), code
    return abi.to_text(statuses, against), code


def default_build_report(repo: str, spec: str | None, message_file: str | None, fmt: str) -> tuple[str, int]:
    """`default-build`: violations exit 1, unless the message waives the gate (then gains and losses)."""
    from leverguard.levers.gates import gate

    root, config = _setup(repo)
    base, head = parse_range(root, spec)
    if message_file is not None:
        messages = [("", _read_message(message_file) or "")]
    else:  # a waiver in any commit message of the range counts (issue #12)
        messages = _range_messages(root, base, head) if head is not None else []
    with Session(root) as session:
        result = gate.run(session, config, base, head, messages)
    return gate.render(result, fmt), EXIT_FINDINGS if result.violations and not result.waiver else EXIT_CLEAN


def _range_messages(root: str, base: str, head: str) -> list[tuple[str, str]]:
    """(commit id, message) of every commit of BASE..HEAD (of HEAD's history when BASE is the empty tree)."""
    spec = head if base == git.EMPTY_TREE else f"{base}..{head}"
    records = git.range_log(spec, "%H%n%B", root)
    return [(sha, body) for sha, _, body in (git.fsdecode(r).partition("\n") for r in records)]


def _read_message(message_file: str | None) -> str | None:
    from leverguard.errors import LeverguardError

    if message_file is None:
        return None
    try:
        with open(message_file, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError as exc:
        raise LeverguardError(f"cannot read the message file {message_file}: {exc.strerror}: "
                              "pass the commit message file git gives the commit-msg hook") from exc
