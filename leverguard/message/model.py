"""What the rules see: the parsed message, git's trailers, the sections and the diff's lever changes."""

from __future__ import annotations

import re
from functools import lru_cache

from leverguard.records import NamedTuple

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Sequence

    from leverguard.message.parse import Message
    from leverguard.message.sections import Section
    from leverguard.message.settings import Settings
    from leverguard.message.trailers import Trailers

# The section a lever belongs in, by the lever engine's transition kind (issue #4).
SECTION_OF = {"HARD-WIRED": "hard_wired", "REVERTED": "reverted", "DIAGNOSTIC-DELETED": "diagnostics",
              "WIN-BODY-MISSING": "reverted"}
CHANGING = (*SECTION_OF, "PARTIAL")  # STILL-GATED is no change
# What the template writes when no co-author is configured; the co-author rule rejects it until filled in.
CO_AUTHOR_PLACEHOLDER = "<co-author name> <email>"


class Change(NamedTuple):
    """What the diff did to one lever: a transition of the lever engine, as plain data."""

    lever: str
    kind: str  # HARD-WIRED, REVERTED, DIAGNOSTIC-DELETED, STILL-GATED, PARTIAL, WIN-BODY-MISSING
    evidence: tuple[str, ...] = ()
    ledger: str = ""  # the measured delta its ledger row records, e.g. `-3.1%`; "" when none does
    ledger_at: str = ""  # where: `experiment_history/ledger.csv:4`


class Pitfall(NamedTuple):
    """A lever finding the change leaves behind (the lever engine's WIN-BODY-MISSING, STALE-INJECTION, ...)."""

    kind: str
    name: str  # the lever, or the orphaned function
    path: str
    line: int
    message: str


class LeverWork(NamedTuple):
    """What the lever engine found in one change: each lever's transition, and the pitfalls left behind."""

    changes: tuple[Change, ...] = ()
    pitfalls: tuple[Pitfall, ...] = ()
    unread: tuple[str, ...] = ()  # one note per changed lever source over max_file_size, never read


class Violation(NamedTuple):
    line: int
    message: str
    severity: str = "error"


class Context(NamedTuple):
    """One message and everything a rule may look at; rules are pure functions of it."""

    message: Message
    trailers: Trailers
    sections: tuple[Section, ...]
    changes: tuple[Change, ...]
    settings: Settings
    separators: str = ":"
    pitfalls: tuple[Pitfall, ...] = ()
    scoped: bool = False  # the change touches `message.co_author_paths`

    @property
    def patterns(self) -> tuple[re.Pattern[str], ...]:
        return compile_patterns(self.settings.lever_patterns)

    @property
    def not_run(self) -> re.Pattern[str]:
        return words_pattern(self.settings.not_run_words)


@lru_cache(maxsize=None)  # compiled on first use: a plain message never pays for them
def compile_patterns(patterns: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    from leverguard.errors import ConfigError

    try:
        return tuple(re.compile(p) for p in patterns)
    except re.error as exc:
        raise ConfigError(f"[levers] lever_patterns: invalid regular expression ({exc}): fix it") from exc


@lru_cache(maxsize=None)
def words_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """Any of `words` as whole words (a hyphen joins words: `blocked-attention` is not `blocked`)."""
    alternatives = [r"\s+".join(re.escape(part) for part in word.split()) for word in words if word.strip()]
    if not alternatives:
        return re.compile(r"(?!x)x")  # matches nothing
    return re.compile(rf"(?<![\w-])(?:{'|'.join(alternatives)})(?![\w-])", re.IGNORECASE)
