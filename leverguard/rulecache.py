"""Forbidden/allowed path patterns compiled once per configuration, cached in the git directory.

The regular expressions pathspec compiles are stored through `leverguard.cache`, keyed by the
identity of both configuration files, so a warm hook imports neither tomllib nor pathspec.
"""

from __future__ import annotations

import re

from leverguard import cache

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; the path hook runs on every commit



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
    key = cache.config_identity(root)
    cache_path = cache.path(git_dir, "path-rules.marshal")
    cached = cache.read(cache_path, key)
    if cached is not None:
        try:
            return _build(cached)
        except (ValueError, TypeError, re.error):
            pass  # a cache written by another version: rebuild it
    data = _compile(root)
    cache.write(cache_path, key, data)
    return _build(data)
