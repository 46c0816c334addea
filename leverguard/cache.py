"""Small `marshal` caches inside the git directory, each keyed by the identity of what it was built from.

Hooks run on every commit; parsing TOML or importing pathspec costs several times the
interpreter's start-up, so what they derive from the configuration is stored here, keyed by
the (mtime, size, inode) of both configuration files.
"""

from __future__ import annotations

import marshal
import os
import time

from leverguard import __version__

TYPE_CHECKING = False  # typing costs ~5-9 ms of a hook's start-up
if TYPE_CHECKING:
    from typing import Any

CACHE_FORMAT = 2
CONFIG_FILES = (".leverguard.toml", "pyproject.toml")


def file_identity(path: str) -> tuple[object, ...]:
    """(path, mtime, size, inode) of a file, or (path, None) when it does not exist."""
    try:
        st = os.stat(path)
    except OSError:
        return (path, None)
    return (path, st.st_mtime_ns, st.st_size, st.st_ino)


def config_identity(root: str) -> tuple[object, ...]:
    return (CACHE_FORMAT, __version__, *(file_identity(os.path.join(root, name)) for name in CONFIG_FILES))


def path(git_dir: str, name: str) -> str:
    return os.path.join(git_dir, "leverguard", name)


def read(cache_path: str, key: Any, max_age: float | None = None) -> Any:
    """The cached value stored under `key`, or None (absent, stale, too old, or from another version)."""
    try:
        with open(cache_path, "rb") as fh:
            stored_key, stamp, value = marshal.load(fh)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if stored_key != key or (max_age is not None and time.time() - stamp > max_age):
        return None
    return value


def write(cache_path: str, key: Any, value: Any) -> None:
    try:
        os.makedirs(os.path.dirname(cache_path), exist_ok=True)
        temporary = f"{cache_path}.{os.getpid()}"
        with open(temporary, "wb") as fh:
            marshal.dump((key, time.time(), value), fh)
        os.replace(temporary, cache_path)
    except OSError:
        pass  # a read-only git directory only costs speed
