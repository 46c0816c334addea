"""The check-revert command body shared by the click CLI and the click-free fast path."""

from __future__ import annotations

import sys

from leverguard.errors import guarded

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Sequence
    from leverguard.session import Session

FORMATS = ("text", "json", "markdown")
VALUED = {"--repo": "repo", "--format": "fmt", "--window": "window", "--since": "since", "--pr-body": "pr_body"}


def run_check(repo: str, fmt: str, window: int | None, since: str | None, strict: bool,
              pr_body: str | None, rev_range: str) -> int:
    """Check RANGE, print the report in FMT on stdout, return the exit code.

    Offline: a partial clone's missing blob is a one-line error naming the fetch, never a
    silent network call. A repository that is not the user's own (`--repo` of another, a
    mirror) or not writable gets nothing written into it: merge-tree's trees go to a scratch
    object directory and the configuration cache is not written.
    """
    from leverguard import git
    from leverguard.revert import render
    from leverguard.revert.engine import RevertOptions, check_range
    from leverguard.revert.landing import split_range
    from leverguard.session import Session

    base, head = split_range(rev_range)
    with git.offline(), Session(repo) as session:
        own, objects = _own_and_writable(session, base, head)
        options = RevertOptions(window=window, since=since, strict=strict, pr_body=pr_body, write_cache=own)
        if own:
            report = check_range(session, base, head, options)
        else:
            with git.scratch_objects(objects):
                report = check_range(session, base, head, options)
    if fmt == "json":
        from leverguard.report import to_json

        print(to_json(report.to_dict()))
    else:
        print(render.to_markdown(report) if fmt == "markdown" else render.to_text(report))
    return report.exit_code()


def _own_and_writable(session: Session, base: str, head: str) -> tuple[bool, str]:
    """(REPO is the cwd's repository and leverguard may write into it, its object directory).

    The common case (`--repo .` in a writable working tree) costs no git call; otherwise the range's
    resolution, which the check reuses, locates the repository in the same `git rev-parse`.
    """
    import os

    from leverguard import git

    plain = not any(name in os.environ for name in ("GIT_DIR", "GIT_OBJECT_DIRECTORY"))
    found = git.find_root(session.repo) if session.repo == "." and plain else None
    if found is not None and os.path.isdir(os.path.join(found[1], "objects")):
        objects = os.path.join(found[1], "objects")
        if os.access(found[1], os.W_OK) and os.access(objects, os.W_OK):
            return True, objects
    session.resolve_range(base, head)
    git_dir, objects = session.where.git_dir, session.where.objects
    writable = os.access(git_dir, os.W_OK) and os.access(objects, os.W_OK)
    return writable and git.is_own_repository(git_dir), objects


def parse_fast(args: Sequence[str]) -> dict[str, object] | None:
    """Options of a plain `check-revert` call; None for anything else (help, odd input): click handles it."""
    opts: dict[str, object] = {"repo": ".", "fmt": "text", "window": None, "since": None, "strict": False,
                               "pr_body": None}
    positional: list[str] = []
    items = list(args)
    while items:
        arg = items.pop(0)
        name, eq, value = arg.partition("=")
        if arg == "--strict":
            opts["strict"] = True
        elif name in VALUED and (eq or items):
            opts[VALUED[name]] = value if eq else items.pop(0)
        elif arg.startswith("-"):
            return None
        else:
            positional.append(arg)
    window = opts["window"]
    if len(positional) != 1 or opts["fmt"] not in FORMATS or (window is not None and not str(window).isdigit()):
        return None
    opts["window"] = int(str(window)) if window is not None else None
    opts["rev_range"] = positional[0]
    return opts


def fast_main(args: Sequence[str]) -> int | None:
    """`leverguard check-revert ...` without importing click (CI start-up); None: let click parse it."""
    opts = parse_fast(args)
    if opts is None:
        return None

    def run() -> int:
        body = opts["pr_body"]
        return run_check(str(opts["repo"]), str(opts["fmt"]), opts["window"], opts["since"],  # type: ignore[arg-type]
                         bool(opts["strict"]), _read_body(str(body)) if body is not None else None,
                         str(opts["rev_range"]))

    return guarded(run)


def _read_body(path: str) -> str:
    from leverguard.errors import LeverguardError

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError as exc:
        raise LeverguardError(f"--pr-body {path}: cannot read it ({exc.strerror}): pass an existing file or -") from exc
