"""Lean entry points of the commit-msg and prepare-commit-msg hooks: no click, no lever engine unless needed."""

from __future__ import annotations

import os
import sys

from leverguard.errors import LeverguardError, guarded

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see records.py)
if TYPE_CHECKING:
    from typing import Sequence

COMMIT_MSG_USAGE = "usage: leverguard hook leverguard-commit-msg MSGFILE (git passes MSGFILE)"
PREPARE_USAGE = "usage: leverguard hook leverguard-template MSGFILE [SOURCE [SHA]] (git passes them)"


def _commit_msg(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        raise LeverguardError(f"{COMMIT_MSG_USAGE}; got {len(argv)} arguments")
    from leverguard.message import run

    # git sets GIT_EDITOR=: for the hook when no editor ran (builtin/commit.c, run_commit_hook).
    edited = os.environ.get("GIT_EDITOR") != ":"
    text, code = run.check_msg(".", argv[0], None, "text", edited=edited, index_file=_index_file())
    if text:
        print(text)
    return code


def _prepare(argv: Sequence[str]) -> int:
    if not 1 <= len(argv) <= 3:
        raise LeverguardError(f"{PREPARE_USAGE}; got {len(argv)} arguments")
    # The pre-commit framework passes only the file and puts git's SOURCE in its environment.
    source = argv[1] if len(argv) > 1 else os.environ.get("PRE_COMMIT_COMMIT_MSG_SOURCE", "")
    from leverguard.message import run

    return run.prepare_commit_msg(".", argv[0], source, _index_file())


def _index_file() -> str | None:
    """The index git hands its hooks: a temporary one for `git commit PATH` (relative to the root)."""
    return os.environ.get("GIT_INDEX_FILE") or None


def main(command: str, argv: Sequence[str] | None = None) -> int:
    """`commit-msg-hook MSGFILE` or `prepare-commit-msg-hook MSGFILE [SOURCE [SHA]]`."""
    args = list(sys.argv[1:] if argv is None else argv)
    body = _commit_msg if command == "commit-msg-hook" else _prepare
    return guarded(lambda: body(args))
