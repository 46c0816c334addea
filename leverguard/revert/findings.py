"""One finding per undone commit: counts, kinds, evidence and a severity chosen for precision."""

from __future__ import annotations

from typing import Any, NamedTuple

SEVERITIES = ("info", "notice", "warning", "error")
EXACT_KINDS = ("rollback", "resurrected")
MIN_LINES = 3  # fewer undone lines than this (and one text file) is a notice: cleanups, debug lines
ERROR_SHARE = 0.5  # an exact rollback is an error when it undoes at least half of the commit ...
ERROR_PATHS = 3  # ... or at least this many of its files
INVERSE_SHARE = 0.5  # inverse hunks alone are strong when they undo half of the commit's lines


class Evidence(NamedTuple):
    """What happened to one path of the undone commit."""

    path: str
    kind: str
    lines: int
    total: int
    detail: str


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

    def to_dict(self) -> dict[str, Any]:
        tally = self.tally
        return {
            "commit": self.commit, "pr": self.pr, "subject": self.subject, "author": self.author,
            "severity": self.severity, "declared": self.declared, "paths": list(self.paths),
            "undone_paths": tally.undone_paths, "touched_paths": tally.touched_paths,
            "undone_lines": tally.undone_lines, "touched_lines": tally.touched_lines,
            "kinds": list(tally.kinds),
            "evidence": [{"path": e.path, "kind": e.kind, "lines": e.lines, "total": e.total, "detail": e.detail}
                         for e in self.evidence],
            "time": self.time, "silent_severity": self.silent_severity, "explanation": self.explanation,
            "whole_folders": list(tally.whole_folders),
        }


def silent_severity(tally: Tally, own: bool) -> str:
    """The severity of an undeclared finding; own work is one tier lower (debug lines, own rework)."""
    exact = any(kind in EXACT_KINDS for kind in tally.kinds)
    substantial = tally.undone_lines >= MIN_LINES or tally.exact_paths >= 2 or tally.exact_binary
    if exact and substantial:
        level = 3 if _share(tally) >= ERROR_SHARE or tally.exact_paths >= ERROR_PATHS else 2
    elif tally.whole_folders or _inverse_strong(tally) or _corroborated(tally):
        level = 2
    else:
        level = 1
    return SEVERITIES[max(level - 1, 0) if own else level]


def _share(tally: Tally) -> float:
    """The undone share of the commit: by lines, or by paths when lines cannot tell (binary, huge)."""
    if tally.touched_lines > 0 and not tally.exact_binary:
        return tally.undone_lines / tally.touched_lines
    return tally.undone_paths / max(tally.touched_paths, 1)


def _inverse_strong(tally: Tally) -> bool:
    return tally.inverse_files > 0 and tally.undone_lines >= MIN_LINES and _share(tally) >= INVERSE_SHARE


def _corroborated(tally: Tally) -> bool:
    """Deleting files a commit added is strong when other signals hit the same commit."""
    return "deleted-added" in tally.kinds and len(tally.kinds) > 1 and tally.undone_lines >= MIN_LINES


def blocks(finding: RevertFinding, strict: bool) -> bool:
    """Whether the finding fails the check: silent errors, or silent warnings too with --strict."""
    if finding.declared:
        return False
    return finding.severity == "error" or (strict and finding.severity == "warning")
