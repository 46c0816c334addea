"""Forbidden/allowed path patterns compiled once per configuration, cached in the git directory.

Parsing TOML and importing pathspec cost about five times the interpreter's start-up, and
the path hook runs on every commit; so the regular expressions pathspec compiles are stored
with `marshal`, keyed by the identity (mtime, size, inode) of both configuration files.
"""

from __future__ import annotations

import marshal
import os
import re

from leverguard import __version__

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; the path hook runs on every commit
if TYPE_CHECKING:
    from typing import Any

CACHE_FORMAT = 1
CONFIG_FILES = (".leverguard.toml", "pyproject.toml")


class Pattern:
    __slots__ = ("pattern", "origin", "regex")

    def __init__(self, pattern: str, origin: str, regex: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.origin = origin
        self.regex = regex


class Rules:
    """Compiled forbidden and allowed patterns (slotted classes keep typing off the hook path)."""

    __slots__ = ("forbidden", "allowed_patterns", "config_name")

    def __init__(self, forbidden: tuple[Pattern, ...], allowed: tuple[Pattern, ...], config_name: str) -> None:
        self.forbidden = forbidden
        self.allowed_patterns = allowed
        self.config_name = config_name  # where a user would allow a path

    def forbidden_match(self, path: str) -> Pattern | None:
        return next((p for p in self.forbidden if p.regex.match(path)), None)

    def allowed(self, path: str) -> bool:
        return any(p.regex.match(path) for p in self.allowed_patterns)


def _identity(root: str) -> tuple[object, ...]:
    stamps: list[object] = [CACHE_FORMAT, __version__]
    for name in CONFIG_FILES:
        try:
            st = os.stat(os.path.join(root, name))
            stamps.append((name, st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            stamps.append((name, None))
    return tuple(stamps)


def _compile(root: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]], str]:
    """(forbidden, allowed, config name) as plain data: (pattern, origin, regex source)."""
    from pathspec import GitIgnoreSpec

    from leverguard import config as config_module

    cfg = config_module.load(root)
    forbidden: list[tuple[str, str, str]] = []
    allowed: list[tuple[str, str, str]] = []
    allowed_rules = [(p, cfg.origin("allowed_paths")) for p in cfg.get("allowed_paths")]
    for group, target, negate in ((config_module.forbidden_rules(cfg), forbidden, allowed),
                                  (allowed_rules, allowed, forbidden)):
        for pattern, origin in group:
            compiled = GitIgnoreSpec.from_lines([pattern]).patterns
            for item in compiled:
                if item.include is None or item.regex is None:  # a comment or blank line
                    continue
                (target if item.include else negate).append((pattern, origin, item.regex.pattern))
    name = cfg.source or ".leverguard.toml"
    return forbidden, allowed, name


def _build(data: tuple[list[tuple[str, str, str]], list[tuple[str, str, str]], str]) -> Rules:
    forbidden, allowed, name = data
    return Rules(
        tuple(Pattern(p, o, re.compile(r)) for p, o, r in forbidden),
        tuple(Pattern(p, o, re.compile(r)) for p, o, r in allowed),
        name,
    )


def load(root: str, git_dir: str) -> Rules:
    """The compiled rules for the repository at `root`, from the cache when it is current."""
    identity = _identity(root)
    cache_path = os.path.join(git_dir, "leverguard", "path-rules.marshal")
    try:
        with open(cache_path, "rb") as fh:
            cached_identity, data = marshal.load(fh)
        if cached_identity == identity:
            return _build(data)
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no cache yet, or one written by another version: rebuild it
    data = _compile(root)
    _store(cache_path, (identity, data))
    return _build(data)


def _store(cache_path: str, payload: Any) -> None:
    try:
        os.makedirs(os.path.dirname(cache_path), exist_ok=True)
        temporary = f"{cache_path}.{os.getpid()}"
        with open(temporary, "wb") as fh:
            marshal.dump(payload, fh)
        os.replace(temporary, cache_path)
    except OSError:
        pass  # a read-only git directory only costs speed
