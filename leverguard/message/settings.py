"""The configuration keys the message guard reads, cached in the git directory for the hook path.

The commit-msg hook runs on every commit: parsing TOML and importing the config module
costs more than the whole check of a plain message, so the few values the guard reads are
stored with `marshal`, keyed by the identity of both configuration files (like `rulecache`).
"""

from __future__ import annotations

from leverguard.errors import ConfigError
from leverguard import cache
from leverguard.records import NamedTuple

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Any

SECTION_KEYS = ("hard_wired", "reverted", "diagnostics", "abi", "verification", "pre_merge_gate")
CO_AUTHOR_MODES = ("levers", "required", "validate")
PITFALL_KINDS = ("WIN-BODY-MISSING", "STALE-INJECTION", "PARTIAL", "ORPHANED-FUNCTION")
# The rule ids `[message] disable` and `Leverguard-Skip` may name, in the order `rules.RULES` runs them
# (a test pins the two together): known here, so that validating a configuration imports no rule.
RULE_IDS = ("co-author", "subject", "lever-sections", "lever-delta", "lever-coverage", "pre-merge-gate",
            "lever-pitfalls", "ledger-delta")
KEYS = {  # Settings field -> dotted configuration key
    "disable": "message.disable", "co_author": "message.co_author", "co_authors": "message.co_authors",
    "co_author_paths": "message.co_author_paths", "bot_authors": "message.bot_authors",
    "pitfall_errors": "message.pitfall_errors",
    "sections": "message.sections", "not_run_words": "message.not_run_words",
    "lever_prefixes": "levers.lever_prefixes", "lever_patterns": "levers.lever_patterns",
    "abi_files": "levers.abi_files", "source_extensions": "levers.source_extensions",
    "max_file_size": "max_file_size",
}


class Settings(NamedTuple):
    """What the message guard reads from `[tool.leverguard.message]` and `[...levers]`."""

    disable: tuple[str, ...] = ()
    co_author: str = "levers"
    co_authors: tuple[str, ...] = ()
    co_author_paths: tuple[str, ...] = ()
    bot_authors: tuple[str, ...] = ()
    pitfall_errors: tuple[str, ...] = ()
    sections: dict[str, str] = {}
    not_run_words: tuple[str, ...] = ()
    lever_prefixes: tuple[str, ...] = ()
    lever_patterns: tuple[str, ...] = ()
    abi_files: tuple[str, ...] = ()
    source_extensions: tuple[str, ...] = ()  # with `.py`: the files whose changes can move a lever
    max_file_size: int = 8 << 20  # a lever source over it is never read (issue #11)
    lever_regex: str = ""  # lever_patterns as one extended regex for `git diff -G` (levers.quick.lever_regex)
    source: str = ".leverguard.toml"  # where a user would change them


def from_values(values: dict[str, Any], source: str | None) -> Settings:
    """Settings from the dotted values of a loaded `Config`; a clear error for a bad value."""
    fields = {name: values[key] for name, key in KEYS.items()}
    sections = dict(fields["sections"])
    unknown = sorted(set(sections) - set(SECTION_KEYS))
    where = source or ".leverguard.toml"
    if unknown or not all(isinstance(v, str) and v.strip() for v in sections.values()):
        raise ConfigError(f"{where}: [message] sections: keys must be among {', '.join(SECTION_KEYS)} "
                          f"and values non-empty names (got {', '.join(unknown) or 'an empty name'})")
    _check_rule_ids(fields["disable"], where)
    if fields["co_author"] not in CO_AUTHOR_MODES:
        raise ConfigError(f"{where}: [message] co_author must be 'levers', 'required' or 'validate', "
                          f"not {fields['co_author']!r}")
    wrong = sorted(set(fields["pitfall_errors"]) - set(PITFALL_KINDS))
    if wrong:
        raise ConfigError(f"{where}: [message] pitfall_errors: unknown kind {wrong[0]!r}: known kinds are "
                          f"{', '.join(PITFALL_KINDS)}")
    return Settings(
        disable=tuple(fields["disable"]), co_author=fields["co_author"], co_authors=tuple(fields["co_authors"]),
        co_author_paths=tuple(fields["co_author_paths"]), bot_authors=tuple(fields["bot_authors"]),
        pitfall_errors=tuple(fields["pitfall_errors"]),
        sections=sections, not_run_words=tuple(fields["not_run_words"]),
        lever_prefixes=tuple(fields["lever_prefixes"]), lever_patterns=tuple(fields["lever_patterns"]),
        abi_files=tuple(fields["abi_files"]), source_extensions=tuple(fields["source_extensions"]),
        max_file_size=int(fields["max_file_size"]), lever_regex=str(values.get("lever_regex", "")), source=where,
    )


def _check_rule_ids(disable: list[str], where: str) -> None:
    unknown = sorted(set(disable) - set(RULE_IDS))
    if unknown:
        raise ConfigError(f"{where}: [message] disable: unknown rule {', '.join(map(repr, unknown))}: "
                          f"known rules are {', '.join(RULE_IDS)}")


def load_config_values(root: str) -> tuple[dict[str, Any], str | None]:
    """The dotted values the guard reads; a partial `sections` table keeps the other default names."""
    from leverguard import config

    return values_from_config(config.load(root))


def values_from_config(cfg: Any) -> tuple[dict[str, Any], str | None]:
    """The guard's values from a loaded `Config` (the file's, or BASE's for the PR bot)."""
    from leverguard import config
    from leverguard.levers.model.quick import lever_regex

    values = {key: cfg.get(key) for key in KEYS.values()}
    defaults = config.defaults().get("message.sections")
    values["message.sections"] = {**defaults, **values["message.sections"]}
    values["lever_regex"] = lever_regex(list(values["levers.lever_patterns"]))
    return values, cfg.source


def load(root: str, git_dir: str) -> Settings:
    """The repository's settings, from the cache when both configuration files are unchanged."""
    key = cache.config_identity(root)
    cache_path = cache.path(git_dir, "message-settings.marshal")
    cached = cache.read(cache_path, key)
    if isinstance(cached, tuple) and len(cached) == 2 and isinstance(cached[0], dict):
        try:
            return from_values(*cached)
        except (KeyError, TypeError, ValueError, AttributeError, ConfigError):
            pass  # a hand-damaged cache: rebuild it from the configuration files
    values, source = load_config_values(root)
    settings = from_values(values, source)  # validate before caching
    cache.write(cache_path, key, (values, source))
    return settings
