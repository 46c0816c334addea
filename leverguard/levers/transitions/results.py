"""The transitions and findings a lever diff reports (stable JSON, see transitions.LeverDiff.to_dict)."""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("HARD-WIRED", "REVERTED", "DIAGNOSTIC-DELETED", "STILL-GATED", "PARTIAL", "WIN-BODY-MISSING")
FINDING_KINDS = ("ORPHANED-FUNCTION", "STALE-INJECTION", "PARTIAL", "WIN-BODY-MISSING")


@dataclass(frozen=True)
class Transition:
    """What the change did to one lever, with the facts that show it."""

    lever: str
    kind: str  # one of KINDS
    class_before: str
    evidence: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LeverFinding:
    """A problem the change leaves behind, at the line to look at."""

    kind: str  # one of FINDING_KINDS
    name: str
    path: str
    line: int
    message: str = ""
