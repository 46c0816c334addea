"""Lean entry points of the commit-msg and prepare-commit-msg hooks: no click, no lever engine unless needed."""

from __future__ import annotations

import os
import sys

from leverguard.errors import LeverguardError, guarded
from leverguard.message import parse

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Sequence

COMMIT_MSG_USAGE = "usage: leverguard hook leverguard-commit-msg MSGFILE (git passes MSGFILE)"
PREPARE_USAGE = "usage: leverguard hook leverguard-template MSGFILE [SOURCE [SHA]] (git passes them)"


def _commit_msg(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        raise LeverguardError(f"{COMMIT_MSG_USAGE}; got {len(argv)} arguments")
    started = parse.start_reads(".")  # git runs while the checker is imported
    from leverguard.message import run

    # git sets GIT_EDITOR=: for the hook when no editor ran (builtin/commit.c, run_commit_hook).
    edited = os.environ.get("GIT_EDITOR") != ":"
    text, code = run.check_msg(".", argv[0], None, "text", edited=edited, index_file=_index_file(),
                               amend=bool(_amending()), author=_author(), started=started)
    if text:
        print(text)
    return code


def _prepare(argv: Sequence[str]) -> int:
    if not 1 <= len(argv) <= 3:
        raise LeverguardError(f"{PREPARE_USAGE}; got {len(argv)} arguments")
    # The pre-commit framework passes only the file and puts git's SOURCE in its environment.
    source = argv[1] if len(argv) > 1 else os.environ.get("PRE_COMMIT_COMMIT_MSG_SOURCE", "")
    started = parse.start_reads(".") if source != "merge" else None  # git runs while the checker is imported
    from leverguard.message import run

    sha = argv[2] if len(argv) > 2 else os.environ.get("PRE_COMMIT_COMMIT_OBJECT_NAME", "")
    amend = _amending()
    if amend is None:  # no /proc: an editor-amend is SOURCE `commit` with SHA `HEAD` (so is `-c HEAD`)
        amend = (source, sha) == ("commit", "HEAD")
    return run.prepare_commit_msg(".", argv[0], source, _index_file(), amend, started)


def _amending(levels: int = 6) -> bool | None:
    """Does the `git commit` that runs this hook amend HEAD? Its diff then starts at HEAD's parent.

    git tells hooks only through prepare-commit-msg's SOURCE/SHA, and not at all with `-m`/`-F`;
    the nearest git ancestor's command line tells (Linux /proc). None: there is no /proc to ask.
    """
    if not os.path.isdir("/proc/self"):
        return None
    pid = os.getppid()
    for _ in range(levels):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
            with open(f"/proc/{pid}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if os.path.basename(argv[0]) == b"git":
            return b"--amend" in argv
        if ppid <= 1:
            return False
        pid = ppid
    return False


def _author() -> tuple[str, str] | None:
    """The author of the commit being made: `git commit` exports it to its hooks (builtin/commit.c)."""
    name, email = os.environ.get("GIT_AUTHOR_NAME"), os.environ.get("GIT_AUTHOR_EMAIL")
    return (name, email) if name is not None and email is not None else None


def _index_file() -> str | None:
    """The index git hands its hooks: a temporary one for `git commit PATH` (relative to the root)."""
    return os.environ.get("GIT_INDEX_FILE") or None


OPTIONS = {"--range": "range", "--format": "format", "--repo": "repo"}


def parse_check_msg(argv: Sequence[str]) -> dict[str, str] | None:
    """`check-msg [MSGFILE] [--range A..B] [--format text|json] [--repo DIR]` without click.

    None for anything else (help, an unknown option, a bad value): click then parses it and
    prints its usual help or usage error.
    """
    found: dict[str, str] = {}
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name in OPTIONS and (eq or rest):
            found[OPTIONS[name]] = value if eq else rest.pop(0)
        elif arg == "-" or not arg.startswith("-"):
            if "msgfile" in found:
                return None
            found["msgfile"] = arg
        else:
            return None
    return found if found.get("format", "text") in ("text", "json", "markdown") else None


def check_msg_main(argv: Sequence[str]) -> int | None:
    """`leverguard check-msg ...` on the lean path; None: let the click CLI handle these arguments."""
    options = parse_check_msg(argv)
    if options is None:
        return None

    def body() -> int:
        from leverguard.message import run

        msgfile = options.get("msgfile")
        text, code = run.check_msg(options.get("repo", "."), msgfile, options.get("range"),
                                   options.get("format", "text"), author=_author() if msgfile else None)
        if text:
            print(text)
        return code

    return guarded(body)


def main(command: str, argv: Sequence[str] | None = None) -> int:
    """`commit-msg-hook MSGFILE` or `prepare-commit-msg-hook MSGFILE [SOURCE [SHA]]`."""
    args = list(sys.argv[1:] if argv is None else argv)
    body = _commit_msg if command == "commit-msg-hook" else _prepare
    return guarded(lambda: body(args))
