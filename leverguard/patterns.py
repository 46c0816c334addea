"""`lazy`: `re.compile` deferred to a pattern's first use, its compiled program kept between runs.

The revert engine holds some 170 module-level patterns, most of which read only the messages and
lines of commits a change undoes; compiling them all at import cost every `check-revert` about 6 ms,
a clean one included. Compiled lazily, a check with findings still compiles some seventy, about 20 ms
of pure-Python parsing and code generation, a fifth of the whole check. So the programs the compiler
writes for them are kept in the user's cache folder (never a checked repository), keyed by the
Python build, and handed to `_sre.compile` as `re.compile` itself hands them (under 1 ms for the
seventy; `_sre` validates every program it is given). Any surprise (another interpreter's internals,
a damaged or foreign file) falls back to `re.compile`. Type checkers see `re.compile` itself.
"""

from __future__ import annotations

import re
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_PROGRAMS = 1000  # more kept than this (patterns of older versions piling up): keep only this run's
FORMAT = 1


class _Programs:
    """Compiled programs by (pattern, flags): read from the cache at the first compile of a run, written
    back when the run exits if it compiled a pattern the cache did not hold."""

    def __init__(self) -> None:
        self._table: dict[tuple[Any, int], tuple[Any, ...]] | None = None
        self._used: set[tuple[Any, int]] = set()
        self._added = False

    def compile(self, pattern: str | bytes, flags: int) -> re.Pattern[Any]:
        try:
            return _internal("_sre").compile(pattern, *self._program(pattern, int(flags)))  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001 - another interpreter's internals, a damaged entry: compile as usual
            return re.compile(pattern, flags)

    def _program(self, pattern: str | bytes, flags: int) -> tuple[Any, ...]:
        if self._table is None:
            self._table = _load()
        key = (pattern, flags)
        self._used.add(key)
        program = self._table.get(key)
        if program is None:
            program = self._table[key] = _generate(pattern, flags)
            if not self._added:
                import atexit

                atexit.register(self._save)
                self._added = True
        return program

    def _save(self) -> None:
        from leverguard import cache

        path = _path()
        if path is None or self._table is None:
            return
        table = self._table if len(self._table) <= MAX_PROGRAMS else {k: self._table[k] for k in self._used}
        cache.write(path, _key(), table)


def _generate(pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """The arguments `re.compile` hands `_sre.compile` after the pattern (CPython 3.10 to 3.13 alike)."""
    new = sys.version_info >= (3, 11)  # 3.10 names the same modules sre_parse and sre_compile
    tree = _internal("re._parser" if new else "sre_parse").parse(pattern, flags)
    code = [int(op) for op in _internal("re._compiler" if new else "sre_compile")._code(tree, flags)]  # opcodes are int subclasses: plain ints marshal
    names = dict(tree.state.groupdict)
    index: list[str | None] = [None] * tree.state.groups
    for name, number in names.items():
        index[number] = name
    return int(flags | tree.state.flags), code, tree.state.groups - 1, names, tuple(index)


def _internal(name: str) -> Any:
    """One of CPython's private regular-expression modules (already loaded by `re`)."""
    import importlib

    return importlib.import_module(name)


def _key() -> tuple[object, ...]:
    sre = _internal("_sre")
    return (FORMAT, sys.implementation.name, sys.version, sre.MAGIC, sre.CODESIZE)


def _path() -> str | None:
    import os

    from leverguard.cache import user_folder

    folder = user_folder()
    return None if folder is None else os.path.join(folder, f"regex-{sys.implementation.cache_tag}.marshal")


def _load() -> dict[tuple[Any, int], tuple[Any, ...]]:
    from leverguard import cache

    path = _path()
    table = cache.read(path, _key()) if path is not None else None
    return table if isinstance(table, dict) else {}


PROGRAMS = _Programs()

if TYPE_CHECKING:
    lazy = re.compile
else:
    class lazy:  # noqa: N801 - stands in for re.compile
        __slots__ = ("_args", "search", "match", "fullmatch", "finditer", "findall", "sub", "split", "pattern")

        def __init__(self, pattern, flags=0):
            self._args = (pattern, flags)

        def __getattr__(self, name):  # the first use: compile, then every method answers directly
            compiled = PROGRAMS.compile(*self._args)
            for method in lazy.__slots__[1:]:
                setattr(self, method, getattr(compiled, method))
            return getattr(compiled, name)
