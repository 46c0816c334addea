"""Small `marshal` caches inside the git directory, each keyed by the identity of what it was built from.

Hooks run on every commit; parsing TOML or importing pathspec costs several times the
interpreter's start-up, so what they derive from the configuration is stored here, keyed by
the (mtime, size, inode) of both configuration files.
"""

from __future__ import annotations

import marshal
import os
import stat
import time

from leverguard import __version__

TYPE_CHECKING = False  # typing costs ~5-9 ms of a hook's start-up
if TYPE_CHECKING:
    from typing import Any

CACHE_FORMAT = 2
MAX_BYTES = 4 << 20  # far above any cache leverguard writes; a larger file is not one of them
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


def user_folder() -> str | None:
    """`$XDG_CACHE_HOME/leverguard` (else `~/.cache/leverguard`): the user's own, never a checked repository;
    None when neither is an absolute path (a relative one would land in the current directory)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "leverguard") if os.path.isabs(base) else None


def read(cache_path: str, key: Any, max_age: float | None = None) -> Any:
    """The cached value stored under `key`, or None (absent, stale, too old, or from another version).

    A cache is trusted only when it validates (issue #11): it must be a regular file (a FIFO put
    in its place would hang the hook; O_NONBLOCK opens it without waiting), at most MAX_BYTES,
    and hold a (key, stamp, value) record; anything else is ignored and rebuilt by the caller.
    Callers still check the value's shape, since a hand-edited cache can hold any marshal data.
    """
    data = _read_regular(cache_path)
    if data is None:
        return None
    try:
        record = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(record, tuple) or len(record) != 3 or not isinstance(record[1], (int, float)):
        return None
    stored_key, stamp, value = record
    if stored_key != key or (max_age is not None and not 0 <= time.time() - stamp <= max_age):
        return None
    return value


def _read_regular(cache_path: str) -> bytes | None:
    try:
        fd = os.open(cache_path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        return os.read(fd, MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def write(cache_path: str, key: Any, value: Any) -> None:
    temporary = f"{cache_path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(cache_path), exist_ok=True)
        with open(temporary, "wb") as fh:
            marshal.dump((key, time.time(), value), fh)
        os.replace(temporary, cache_path)  # replaces a damaged cache, or a FIFO put in its place
    except (OSError, ValueError):  # ValueError: a value marshal cannot store
        try:  # a read-only git directory only costs speed; a full disk leaves no stray file
            os.unlink(temporary)
        except OSError:
            pass
