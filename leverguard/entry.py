"""The `leverguard` console script: hook commands take a lean path, the rest goes to click.

Hooks run on every commit, so `check-paths` (and `hook ...`) must not pay for click's import;
every other command is parsed by the click CLI in `cli.py`.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; hooks run on every commit
if TYPE_CHECKING:
    from typing import Sequence

# hook id -> the command it runs, as used by .pre-commit-hooks.yaml and hooks/.
HOOKS: dict[str, tuple[str, ...]] = {
    "leverguard-paths": ("check-paths",),
    "leverguard-commit-msg": ("commit-msg-hook",),
    "leverguard-template": ("prepare-commit-msg-hook",),
    "leverguard-default-build": ("default-build-hook",),  # issue #4, commit-msg stage
    "leverguard-abi": ("abi-hook",),  # issue #4, pre-commit stage
    "leverguard-revert": ("pre-push-revert",),  # issue #3, pre-push stage
}


def skipped(hook_id: str, environ: dict[str, str] | os._Environ[str]) -> bool:
    """SKIP=id1,id2 as the pre-commit framework reads it, honoured by the plain hooks too."""
    return hook_id in {part.strip() for part in environ.get("SKIP", "").split(",")}


def _run_hook(args: Sequence[str]) -> int:
    """`hook ID[,ID...] ARGS`: run each hook of one stage in this process; the worst exit code wins."""
    ids = args[0].split(",") if args else [""]
    unknown = [hook_id for hook_id in ids if hook_id not in HOOKS]
    if unknown:
        print(f"leverguard: error: unknown hook id {unknown[0]!r}: known ids are {', '.join(HOOKS)}", file=sys.stderr)
        return 2
    worst = 0
    for hook_id in ids:
        if skipped(hook_id, os.environ):
            print(f"leverguard: {hook_id} skipped (SKIP)", file=sys.stderr)
            continue
        worst = max(worst, main([*HOOKS[hook_id], *args[1:]]))
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch one command; whatever escapes it (a crash, a closed stdout) still maps to one exit code."""
    from leverguard.errors import finish, guarded

    args = list(sys.argv[1:] if argv is None else argv)
    return finish(guarded(lambda: _dispatch(args)))


def _dispatch(args: list[str]) -> int:
    command = args[0] if args else ""
    if command == "--version" and len(args) == 1:  # no click for a version check either
        from leverguard import __version__

        print(f"leverguard {__version__}")
        return 0
    if command == "hook":
        return _run_hook(args[1:])
    if command == "check-paths":
        from leverguard import paths

        return paths.main(args[1:])
    if command in ("commit-msg-hook", "prepare-commit-msg-hook"):  # issue #5: lean message hooks
        from leverguard.message import hook

        return hook.main(command, args[1:])
    if command == "check-msg":  # issue #5: plain calls skip click; help and odd input go to click
        from leverguard.message import hook

        code = hook.check_msg_main(args[1:])
        if code is not None:
            return code
    if command in ("default-build-hook", "abi-hook"):  # issue #4: lean lever hooks
        from leverguard.levers import hook as lever_hook

        return lever_hook.main(command, args[1:])
    if command == "pre-push-revert":  # issue #3: the pre-push guard skips click
        from leverguard.revert import prepush

        return prepush.main(args[1:])
    if command == "check-revert":  # issue #3: CI start-up; anything unusual falls through to click
        from leverguard.revert.command import fast_main

        fast = fast_main(args[1:])
        if fast is not None:
            return fast
    from leverguard import cli

    return cli.main(args)
