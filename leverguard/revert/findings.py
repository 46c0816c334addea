"""One finding per undone commit: counts, kinds, evidence, the severity its evidence deserves, the repair."""

from __future__ import annotations

from leverguard.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SEVERITIES = ("info", "notice", "warning", "error")
NOTICE, WARNING, ERROR = 1, 2, 3
EXACT_KINDS = ("rollback", "resurrected")
MIN_HUNK_LINES = 2  # an undone hunk below this many non-trivial lines proves little (a lone import, a name)


class Evidence(NamedTuple):
    """What happened to one path of the undone commit."""

    path: str
    kind: str
    lines: int
    total: int
    detail: str
    level: int = NOTICE  # the severity this path's evidence deserves on its own
    hunks: tuple[int, int] = (0, 0)  # the commit's hunks on the path: undone, all
    newer_kept: int = 0  # later commits to the path whose change is kept


class Tally(NamedTuple):
    """Measured facts about one candidate, before any judgement."""

    kinds: tuple[str, ...]
    undone_paths: int
    touched_paths: int
    undone_lines: int
    touched_lines: int
    exact_paths: int
    exact_binary: bool  # an exact rollback of a binary file or submodule pointer
    whole_folders: tuple[str, ...]
    inverse_files: int
    undone_hunks: int = 0


class RevertFinding(NamedTuple):
    """An earlier commit (or PR) that the checked change undoes; the JSON contract's finding object."""

    commit: str
    pr: int | None
    subject: str
    author: str
    severity: str
    declared: bool
    paths: tuple[str, ...]
    tally: Tally
    evidence: tuple[Evidence, ...]
    time: int
    silent_severity: str  # the severity it would have without a declaration or explanation
    explanation: str  # why it is declared or informational; empty when silent
    reason: str = ""  # what set the severity, in a few words
    repair: str = ""  # the command that puts the undone work back
    acknowledge: str = ""  # how to say it is intended
    repair_note: str = ""  # what running the repair does besides putting the work back, when it matters
    title: str = ""  # what it calls itself: a merged PR's title (the merge's body), else its subject

    def to_dict(self) -> dict[str, Any]:
        tally = self.tally
        return {
            "commit": self.commit, "undone_commit": self.commit, "pr": self.pr, "subject": self.subject,
            "author": self.author, "severity": self.severity, "declared": self.declared,
            "paths": list(self.paths), "undone_paths": tally.undone_paths, "touched_paths": tally.touched_paths,
            "undone_lines": tally.undone_lines, "touched_lines": tally.touched_lines,
            "undone_hunks": tally.undone_hunks, "kinds": list(tally.kinds),
            "evidence": [{"path": e.path, "kind": e.kind, "lines": e.lines, "total": e.total, "detail": e.detail,
                          "severity": SEVERITIES[e.level], "hunks_undone": e.hunks[0], "hunks": e.hunks[1],
                          "newer_kept": e.newer_kept} for e in self.evidence],
            "time": self.time, "silent_severity": self.silent_severity, "explanation": self.explanation,
            "reason": self.reason, "whole_folders": list(tally.whole_folders),
            "repair": self.repair, "acknowledge": self.acknowledge, "repair_note": self.repair_note,
            "title": self.title or self.subject,
        }


def blocks(finding: RevertFinding, strict: bool) -> bool:
    """Whether the finding fails the check: silent errors, or silent warnings too with --strict."""
    if finding.declared:
        return False
    return finding.severity == "error" or (strict and finding.severity == "warning")
