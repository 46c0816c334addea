"""The lever changes a message is held to, from the lever engine; its cost is paid only when needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, cast

from leverguard.message.model import Change
from leverguard.message.settings import Settings

if TYPE_CHECKING:
    from leverguard.config import Config


class _ConfigView(NamedTuple):
    """The two keys `mentions_levers` reads, without importing the config module (TOML, dataclasses)."""

    values: Mapping[str, Any]

    def get(self, dotted: str) -> Any:
        return self.values[dotted]


def lever_changes(root: str, settings: Settings, base: str, head: str | None) -> tuple[Change, ...]:
    """What BASE..HEAD (HEAD None: the index) does to each lever, as plain data for the rules.

    A commit that touches no lever-like token never imports the lever engine: the cheap
    `mentions_levers` look (one `git diff -G`) comes first, the commit-msg hook's budget (issue #5).
    """
    from leverguard.levers.quick import mentions_levers

    view = _ConfigView({"levers.lever_patterns": list(settings.lever_patterns)})
    if not mentions_levers(root, cast("Config", view), base, head):
        return ()
    from leverguard import config
    from leverguard.levers.transitions import compute_diff

    diff = compute_diff(root, config.load(root), base, head)
    return tuple(Change(t.lever, t.kind, tuple(t.evidence)) for t in diff.transitions)


def abi_status(root: str, base: str, head: str | None) -> list[tuple[str, int, list[str]]] | None:
    """(path, changed lines or -1 for binary, forbidden tokens present) per ABI file; None when none is configured."""
    from leverguard import config
    from leverguard.levers.abi import abi_status as engine_abi_status

    cfg = config.load(root)
    if not cfg.get("levers.abi_files"):
        return None
    return [(s.path, s.changed_lines, list(s.forbidden_tokens)) for s in engine_abi_status(root, cfg, base, head)]
