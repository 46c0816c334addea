"""Configuration, ack file and `.gitattributes` read from a commit (bare, blobless repos included)."""

from __future__ import annotations

import os

from leverguard import git
from leverguard.records import NamedTuple
from leverguard.revert import rules
from leverguard.revert.declared import Declarations, parse_acks

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any
    from leverguard.config import Config
    from leverguard.session import Session

CACHE_NAME = "revert-config"


class Values:
    """Configuration values read back from the cache: `Config.get` without importing TOML or config."""

    __slots__ = ("values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    def get(self, dotted: str) -> Any:
        return self.values[dotted]


class Settings(NamedTuple):
    """Everything the engine reads from the checked-against commit."""

    config: Config | Values
    rules: rules.Rules
    acks: Declarations


def read_text(reader: git.ObjectReader, commit: str, path: str) -> str | None:
    found = reader.read(f"{commit}:{path}")
    if found is None or found[0] != "blob":
        return None
    return found[1].decode("utf-8", "replace")


def cached_config_at(reader: git.ObjectReader, commit: str, git_dir: str) -> Values:
    """The configuration committed at COMMIT, its values cached in the git dir by the file's content:
    a CI check skips tomllib.

    The key holds the config module's file identity too, so a leverguard with other keys never
    reads values it does not know.
    """
    from leverguard import __file__ as package_file
    from leverguard import cache
    from leverguard.config_file import committed_file

    name, data = committed_file(reader.read, commit)
    key = (CACHE_NAME, cache.file_identity(os.path.join(os.path.dirname(package_file), "config.py")), name, data)
    path = cache.path(git_dir, CACHE_NAME)
    values = cache.read(path, key)
    if not isinstance(values, dict):
        from leverguard import config as config_module  # dataclasses and TOML: only when the cache misses

        parsed = config_module.defaults() if name is None else config_module.parse(data, name)  # read once
        values = dict(parsed.values)
        cache.write(path, key, values)
    return Values(values)


def load(session: Session, commit: str, config: Config | None, git_dir: str | None = None) -> Settings:
    """Settings at COMMIT; an explicit CONFIG replaces the committed one (the ack file is still read).

    With GIT_DIR, the committed configuration's values come from a cache there when it is unchanged.
    """
    reader = session.reader
    effective: Config | Values
    if config is not None:
        effective = config
    else:
        effective = cached_config_at(reader, commit, git_dir) if git_dir else session.config_at(commit)
    attributes = read_text(reader, commit, ".gitattributes") or ""
    path_rules = rules.build(effective.get("revert.exclude"), attributes, effective.get("revert.lock_files"),
                             effective.get("revert.built_files"), effective.get("revert.fragments"))
    ack_file = effective.get("revert.ack_file")
    acks = parse_acks(read_text(reader, commit, ack_file) or "") if ack_file else Declarations()
    return Settings(effective, path_rules, acks)
