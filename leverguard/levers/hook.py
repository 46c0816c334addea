"""Lean hook entry points for `leverguard-default-build` (commit-msg) and `leverguard-abi` (pre-commit).

They run on every commit, so they skip click: arguments are read by hand and the engine is
only imported when the staged change can matter.
"""

from __future__ import annotations

import os
import sys

from leverguard.errors import EXIT_CLEAN, guarded

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; these hooks run on every commit
if TYPE_CHECKING:
    from typing import Sequence

USAGE = {
    "default-build-hook": "usage: leverguard hook leverguard-default-build COMMIT_MSG_FILE",
    "abi-hook": "usage: leverguard hook leverguard-abi [FILE...]",
}


def main(command: str, argv: Sequence[str]) -> int:
    def run() -> int:
        if command == "default-build-hook":
            return _default_build(argv)
        return _abi()

    return guarded(run)


def _default_build(argv: Sequence[str]) -> int:
    from leverguard.levers import api

    if len(argv) != 1 or argv[0].startswith("-"):
        print(USAGE["default-build-hook"], file=sys.stderr)
        return 2
    text, code = api.default_build_report(".", None, argv[0], "text")
    if text:
        print(text, file=sys.stderr if code else sys.stdout)
    if code:  # the report ends with what waives the gate
        print("leverguard: the default build must stay unchanged while levers are explored "
              "(skip once: SKIP=leverguard-default-build)", file=sys.stderr)
    return code


def _abi() -> int:
    # The pre-commit framework passes staged file names; the guard reads the index itself.
    from leverguard import git

    root, git_dir = git.locate(os.getcwd())
    if not _abi_files(root, git_dir):
        return EXIT_CLEAN  # not configured: no TOML parser, no engine, no git call
    from leverguard.levers import api

    base = "HEAD" if git.has_commits(root) else git.EMPTY_TREE
    text, code = api.abi_report(root, base, None, "text")
    if code:
        print(text, file=sys.stderr)
        print("leverguard: the ABI surface changed: review it, or skip once with SKIP=leverguard-abi", file=sys.stderr)
    return code


def _abi_files(root: str, git_dir: str) -> list[str]:
    """`levers.abi_files`, cached by the configuration files' identity like the other hooks' settings."""
    from leverguard import cache

    key = cache.config_identity(root)
    cache_path = cache.path(git_dir, "abi-files.marshal")
    files = cache.read(cache_path, key)
    if not isinstance(files, list):
        from leverguard import config

        files = list(config.load(root).get("levers.abi_files"))
        cache.write(cache_path, key, files)
    return files
