"""What a change did to each lever: both inventories, the diff, and the fate of every removed body."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from leverguard import git
from leverguard.config import Config
from leverguard.levers.model import hunks
from leverguard.levers.classify.inventory import classify_levers
from leverguard.levers.model.scan import scan_tree, source_suffixes
from leverguard.levers.transitions.judge import judge
from leverguard.levers.model.lever import Lever, LeverNames, Scanned, build_levers
from leverguard.levers.transitions.orphans import orphaned_functions
from leverguard.levers.model.quick import unread_note
from leverguard.levers.transitions.results import FINDING_KINDS, KINDS, LeverFinding, Transition
from leverguard.levers.model.sides import Sides
from leverguard.session import Session

__all__ = ["compute_diff", "LeverDiff", "LeverFinding", "Transition", "KINDS", "FINDING_KINDS"]


@dataclass(frozen=True)
class LeverDiff:
    range: str
    transitions: list[Transition]
    findings: list[LeverFinding]
    warnings: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # lever sources over max_file_size: path -> size
    limit: int = git.MAX_FILE_SIZE

    @property
    def unread(self) -> list[str]:
        """One note per lever source left unread (also among the warnings)."""
        return [unread_note(path, size, self.limit) for path, size in sorted(self.skipped.items())]

    def to_dict(self) -> dict[str, Any]:
        """The stable `levers diff --format json` schema (issue #4); added fields never rename old ones."""
        return {
            "range": self.range,
            "transitions": [{"lever": t.lever, "kind": t.kind, "class_before": t.class_before,
                             "evidence": list(t.evidence)} for t in self.transitions],
            "findings": [{"kind": f.kind, "name": f.name, "path": f.path, "line": f.line, "message": f.message}
                         for f in self.findings],
            "warnings": list(self.warnings),
            "skipped": [{"path": path, "size": size, "reason": "max_file_size", "max_file_size": self.limit}
                        for path, size in sorted(self.skipped.items())],
        }

    @property
    def failing(self) -> bool:
        """Exit 1: WIN-BODY-MISSING, ORPHANED-FUNCTION, STALE-INJECTION or PARTIAL was found."""
        return bool(self.findings)


def compute_diff(session: Session, config: Config, base: str, head: str | None) -> LeverDiff:
    """Transitions and findings of BASE..HEAD; HEAD None means the index (the commit being made).

    Every object comes through the session's reader; its repo is the working tree's top (or a
    bare repository's git dir), since the pathspecs are relative to it.
    """
    root = session.repo
    base_id = _resolve(base, root)
    head_id = git.rev_parse(head, root) if head is not None else None
    limit = config.get("max_file_size")
    sides = Sides(root, session.reader, base_id, head_id, limit)
    sized = git.start(git.SIZED_TREE + (base_id,), root)  # BASE's sizes, listed while the diff is read
    changed = hunks.changes(root, base_id, head_id, limit, session.reader)
    before_scan = scan_tree(session, config, base_id, large=git.sized_tree(sized, source_suffixes(config), limit))
    large = {c.path: c.size for c in changed if c.size and c.path.endswith(source_suffixes(config))}
    after_scan = scan_tree(session, config, head_id, before_scan, frozenset(c.path for c in changed), large)
    names = LeverNames(config)
    before, after = build_levers(before_scan, names), build_levers(after_scan, names)
    # a lever with a site in a file read on one side only would seem moved: it is not judged, and said
    one_sided = _one_sided(before_scan, after_scan)
    blind = {n: paths for n in {*before, *after} if (paths := _sites(before.get(n), after.get(n)) & one_sided)}
    for name in blind:
        before.pop(name, None)
        after.pop(name, None)
    # Classify only the levers the change touched: the WIN check costs a `git log -S` each.
    moved = {n: lever for n, lever in before.items() if _moved(lever, after.get(n), changed)}
    history = base_id if base_id != git.EMPTY_TREE else None
    transitions, findings = [], []
    for entry in classify_levers(root, config, moved, history):
        transition, found = judge(sides, entry, after.get(entry.lever.name))
        transitions.append(transition)
        findings.extend(found)
    findings += _stale(before, after)
    findings += orphaned_functions(sides, config, before_scan, changed, after_scan.unread)
    label = f"{base}..{head}" if head is not None else f"{base}..index"
    warnings = [*before_scan.warnings, *after_scan.warnings]
    warnings += [f"{name}: not judged: {', '.join(sorted(paths))} holds some of its sites and was over "
                 "max_file_size on one side only, so read on the other alone" for name, paths in sorted(blind.items())]
    warnings += [note for note in sides.notes() if note not in warnings]
    skipped = {**before_scan.unread}
    for path, size in [*after_scan.unread.items(), *((p, s) for (_, p), s in sides.unread.items())]:
        skipped[path] = max(size, skipped.get(path, 0))
    return LeverDiff(label, transitions, findings, warnings, skipped, limit)


def _one_sided(before: Scanned, after: Scanned) -> set[str]:
    """Paths unread (over max_file_size) on one side and parsed on the other."""
    parsed_before, parsed_after = {*before.cfiles, *before.pyfiles}, {*after.cfiles, *after.pyfiles}
    return {p for p in after.unread if p in parsed_before} | {p for p in before.unread if p in parsed_after}


def _sites(*levers: Lever | None) -> set[str]:
    paths: set[str] = set()
    for lever in levers:
        if lever is not None:
            paths |= {g.path for g in lever.gates} | {i.path for i in lever.injections} | {r.path for r in lever.reads}
    return paths


def _resolve(rev: str, root: str) -> str:
    return git.EMPTY_TREE if rev == git.EMPTY_TREE else git.rev_parse(rev, root)


def _touched(lever: Lever, changed: list[hunks.FileChange]) -> bool:
    """Whether the change removed a line of one of the lever's chains, or a line naming it."""
    by_path = {c.old_path: c for c in changed if c.old_path}
    for gate in lever.gates:
        change = by_path.get(gate.path)
        lines = {gate.line} | {n for _, s, e in gate.spans for n in range(s, e + 2)}
        if change and lines & set(change.removed):
            return True
    return any(lever.name in text for c in changed for text in [*c.removed.values(), *c.added.values()])


def _moved(lever: Lever, after: Lever | None, changed: list[hunks.FileChange]) -> bool:
    same = after is not None and len(after.gates) == len(lever.gates) and len(after.injections) == len(lever.injections)
    return not same or _touched(lever, changed)


def _stale(before: dict[str, Lever], after: dict[str, Lever]) -> list[LeverFinding]:
    """Python still injects or reads a macro whose every gate is gone."""
    found = []
    for name, lever in before.items():
        now = after.get(name)
        if not lever.gates or now is None or now.gates:
            continue
        sites = [(i.path, i.line, "injects") for i in now.injections] + [(r.path, r.line, "reads") for r in now.reads]
        for path, line, verb in sites:
            found.append(LeverFinding("STALE-INJECTION", name, path, line,
                                      f"Python still {verb} {name} but no gate uses it any more: remove it"))
    return found
