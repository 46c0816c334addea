"""Configuration, ack file and `.gitattributes` read from a commit (bare, blobless repos included)."""

from __future__ import annotations

from typing import NamedTuple

from leverguard import config as config_module
from leverguard import git
from leverguard.config import Config
from leverguard.revert import rules
from leverguard.revert.declared import Declarations, parse_acks


class Settings(NamedTuple):
    """Everything the engine reads from the checked-against commit."""

    config: Config
    rules: rules.Rules
    acks: Declarations


def read_text(reader: git.ObjectReader, commit: str, path: str) -> str | None:
    found = reader.read(f"{commit}:{path}")
    if found is None or found[0] != "blob":
        return None
    return found[1].decode("utf-8", "replace")


def config_at(reader: git.ObjectReader, commit: str) -> Config:
    """The repository's configuration as committed at COMMIT (`.leverguard.toml` wins)."""
    for name in (config_module.DEDICATED_FILE, config_module.PYPROJECT):
        text = read_text(reader, commit, name)
        if text is not None:
            return config_module.parse(text.encode("utf-8"), name)
    return config_module.defaults()


def load(reader: git.ObjectReader, commit: str, config: Config | None) -> Settings:
    """Settings at COMMIT; an explicit CONFIG replaces the committed one (the ack file is still read)."""
    effective = config if config is not None else config_at(reader, commit)
    attributes = read_text(reader, commit, ".gitattributes") or ""
    path_rules = rules.build(effective.get("revert.exclude"), attributes)
    ack_file = effective.get("revert.ack_file")
    acks = parse_acks(read_text(reader, commit, ack_file) or "") if ack_file else Declarations()
    return Settings(effective, path_rules, acks)
