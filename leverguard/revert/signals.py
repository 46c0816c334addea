"""Signals that a landing change undoes earlier commits: exact blob rollbacks and inverse hunks."""

from __future__ import annotations

from collections import Counter
from typing import Callable, NamedTuple, Sequence

from leverguard.revert.index import PathIndex
from leverguard.revert.lines import LineCache, Text, size
from leverguard.revert.model import Change, State

FILE_SHARE = 0.8  # inverse-hunk: share of a candidate's change to a file that must be undone
MIN_FILE_LINES = 3  # inverse-hunk: fewest undone lines for a file to count
EXPLAINED_SHARE = 2 / 3  # rewrite guard: share of HEAD's net change in a file explained by undoing


class PathHit(NamedTuple):
    """One path of one candidate that the landing change undoes, and how."""

    position: int  # the candidate's position in the path index
    path: bytes
    kind: str  # "rollback", "resurrected", "deleted-added" or "inverse-hunk"
    lines: int  # the candidate's non-trivial lines on this path that are undone
    total: int  # the candidate's non-trivial lines on this path
    text: bool  # False for binary, huge, symlink-less gitlink objects: blob comparison only
    before: int | None = None  # position of the commit the path was rolled back to before
    change: Change | None = None  # the candidate's change to the path


class HeadLines(NamedTuple):
    """The landing change's line model after cancelling what it merely moves."""

    net_added: dict[bytes, Counter[bytes]]
    net_deleted: dict[bytes, Counter[bytes]]
    all_added: Counter[bytes]


def exact_hits(path: bytes, head: Change, entries: list[tuple[int, Change]],
               cache: LineCache) -> list[PathHit] | None:
    """Rollback, resurrection, deletion of an added file: HEAD's entry equals one from before a candidate.

    None when the candidate had itself rolled the path back: HEAD re-lands older work there.
    """
    target = head.new
    for k, (position, change) in enumerate(entries):
        if change.old != target:
            continue
        if any(older.old == change.new for _, older in entries[k + 1:]):
            return None
        undone: list[tuple[int, Change, int | None]] = [(position, change, None)]
        if target is not None:  # every later change to the path is gone with the rollback
            undone += [(p, c, position) for p, c in entries[:k]]
        # formatting-only changes rolled back are true but cosmetic: not reported (REVERTS.md)
        return [_exact(path, head, p, c, cache, before) for p, c, before in undone if not cache.cosmetic(c.old, c.new)]
    return []


def _exact(path: bytes, head: Change, position: int, change: Change, cache: LineCache, before: int | None) -> PathHit:
    if head.new is None:
        kind = "deleted-added"
    elif head.old is None and change.new is None and before is None:
        kind = "resurrected"
    else:
        kind = "rollback"
    total, text = change_lines(change, cache)
    return PathHit(position, path, kind, total, total, text, before, change)


def change_lines(change: Change, cache: LineCache) -> tuple[int, bool]:
    """(non-trivial lines a change adds plus deletes, whether both sides are text)."""
    found = cache.delta(change.old, change.new)
    if found is None:
        return 0, False
    return size(found[0]) + size(found[1]), True


def head_lines(changes: Sequence[Change], cache: LineCache, line_level: Callable[[bytes], bool]) -> HeadLines:
    """Cancel lines HEAD deletes in one place and adds in another (moves, re-indentation) globally."""
    added: dict[bytes, Counter[bytes]] = {}
    deleted: dict[bytes, Counter[bytes]] = {}
    for change in changes:
        found = cache.delta(change.old, change.new) if line_level(change.path) else None
        if found is not None:
            added[change.path], deleted[change.path] = found
    all_added: Counter[bytes] = Counter()
    all_deleted: Counter[bytes] = Counter()
    for counter in added.values():
        all_added.update(counter)
    for counter in deleted.values():
        all_deleted.update(counter)
    net_added = {p: _minus(c, all_deleted) for p, c in added.items()}
    net_deleted = {p: _minus(c, all_added) for p, c in deleted.items()}
    return HeadLines(net_added, net_deleted, all_added)


def _minus(counter: Counter[bytes], other: Counter[bytes]) -> Counter[bytes]:
    """COUNTER - OTHER visiting COUNTER's keys only (Counter's own `-` walks OTHER too: quadratic here)."""
    return Counter({line: n - other[line] for line, n in counter.items() if n > other[line]})


def inverse_hits(path: bytes, head: Change, entries: list[tuple[int, Change]], model: HeadLines,
                 cache: LineCache) -> list[PathHit]:
    """Candidates whose lines in PATH HEAD removes again (and whose removed lines come back)."""
    new_text = cache.text(head.new)
    if path not in model.net_added or new_text is None:
        return []
    net_deleted, net_added = model.net_deleted[path], model.net_added[path]
    if not net_deleted and not net_added:
        return []
    reflow = _Reflow(new_text)
    deltas = [(p, found) for p, c in entries
              if (found := cache.delta(c.old, c.new)) is not None and not cache.cosmetic(c.old, c.new)]
    scored, explained = _undone(deltas, net_deleted, net_added, reflow)
    changed = size(net_deleted) - reflow.survivors(net_deleted) + size(net_added)
    if size(explained) < EXPLAINED_SHARE * changed and not _undone_in_place(head, explained, cache):
        return []  # a rewrite, not a revert: the guard of REVERTS.md
    return [PathHit(position, path, "inverse-hunk", undone, total, True)
            for position, undone, total in scored
            if undone >= MIN_FILE_LINES and undone >= FILE_SHARE * total]


def _undone_in_place(head: Change, explained: Counter[bytes], cache: LineCache) -> bool:
    """The rewrite guard, hunk by hunk: do the hunks that undo lines mostly only undo them?

    A stale copy committed together with new work elsewhere in the same file leaves the undone
    hunks pure (lines go back to what they were) and the new work in hunks of its own; a rewrite
    replaces a candidate's lines with different ones in the same hunk. New work in other hunks
    therefore does not argue against a revert (the whole-file guard alone missed every stale copy
    that also added code).
    """
    import difflib  # only this rare second look needs it

    old, new = cache.sequence(head.old), cache.sequence(head.new)
    if not old or new is None or not explained:
        return False
    undone = replaced = 0
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        hunk = Counter(old[i1:i2]) + Counter(new[j1:j2])
        hit = size(hunk & explained)
        if hit:
            undone += hit
            replaced += size(hunk) - hit
    return undone >= MIN_FILE_LINES and undone >= EXPLAINED_SHARE * (undone + replaced)


Delta = tuple[Counter[bytes], Counter[bytes]]


def _undone(deltas: list[tuple[int, Delta]], net_deleted: Counter[bytes], net_added: Counter[bytes],
            reflow: _Reflow) -> tuple[list[tuple[int, int, int]], Counter[bytes]]:
    """(position, undone lines, candidate lines) per candidate, and every line explained by undoing.

    A line HEAD removes undoes the newest commit that added it (a re-landed change is not undone
    twice). When HEAD keeps everything a candidate added, the lines it removed that an older window
    commit had added come back as a re-land (fixing a silent revert), not as an undo.
    """
    prior: dict[int, Counter[bytes]] = {}
    acc: Counter[bytes] = Counter()
    for position, (c_added, _) in reversed(deltas):
        prior[position] = Counter(acc)
        acc |= c_added
    gone, back = Counter(net_deleted), Counter(net_added)
    explained: Counter[bytes] = Counter()
    scored = []
    for position, (c_added, c_deleted) in deltas:  # newest first: the newest claim wins
        removed, returned = c_added & gone, c_deleted & back
        if not reflow.gone(removed):  # HEAD keeps what it added: restoring what it removed re-lands
            relanded = returned & prior[position]
            explained |= relanded
            returned -= relanded
        gone, back = gone - removed, back - returned
        undone = reflow.gone(removed) + returned
        explained |= undone
        scored.append((position, size(undone), size(c_added) + size(c_deleted)))
    return scored, explained


class _Reflow:
    """Deleted lines whose text survives in the new file re-wrapped (formatters join/split lines).

    Only lines some candidate added are searched for, and each once: a substring search per
    deleted line of a big file would cost more than the rest of the check.
    """

    def __init__(self, new_text: Text) -> None:
        self._joined = new_text.joined
        self._seen: dict[bytes, bool] = {}

    def _survives(self, line: bytes) -> bool:
        if line not in self._seen:
            self._seen[line] = line in self._joined
        return self._seen[line]

    def gone(self, lines: Counter[bytes]) -> Counter[bytes]:
        return Counter({line: n for line, n in lines.items() if not self._survives(line)})

    def survivors(self, lines: Counter[bytes]) -> int:
        return sum(n for line, n in lines.items() if self._seen.get(line))


def collect(changes: Sequence[Change], index: PathIndex, lo: int, hi: int, cache: LineCache,
            line_level: Callable[[bytes], bool]) -> tuple[list[PathHit], HeadLines | None]:
    """Every path hit of the landing CHANGES against the candidates at positions [lo, hi).

    The line model (HEAD's moves cancelled) is built only when some path has a candidate, and
    returned for the move checks that follow.
    """
    touched = [(change, index.touching(change.path, lo, hi)) for change in changes]
    touched = [(change, entries) for change, entries in touched if entries]
    if not touched:
        return [], None
    cache.prefetch(_states([c for c in changes if line_level(c.path)], touched))
    hits: list[PathHit] = []
    pending: list[tuple[Change, list[tuple[int, Change]]]] = []
    for change, entries in touched:
        exact = exact_hits(change.path, change, entries, cache)
        if exact is None:
            continue
        hits += exact
        if not exact and change.old is not None and change.new is not None and line_level(change.path):
            pending.append((change, entries))
    if not hits and not pending:
        return [], None
    model = head_lines(changes, cache, line_level)
    for change, entries in pending:
        hits += inverse_hits(change.path, change, entries, model, cache)
    return hits, model


def _states(changes: Sequence[Change], touched: list[tuple[Change, list[tuple[int, Change]]]]) -> list[State | None]:
    """Every blob the line work may read: both sides of HEAD's changes and of the candidates' changes."""
    states = [state for change in changes for state in (change.old, change.new)]
    return states + [state for _, entries in touched for _, change in entries for state in (change.old, change.new)]


def moved_away(change: Change, cache: LineCache, all_added: Counter[bytes], added_oids: set[str]) -> bool:
    """A file HEAD deletes whose content it adds elsewhere (a move), exactly or mostly."""
    if change.old is not None and change.old.oid in added_oids:
        return True
    text = cache.text(change.old)
    if text is None or not text.lines:
        return False
    return size(text.lines & all_added) >= 0.5 * size(text.lines)


def moved_out(hit: PathHit, model: HeadLines, cache: LineCache) -> bool:
    """A rollback whose removed lines HEAD adds elsewhere: code moved to another file, not undone."""
    if hit.kind != "rollback" or hit.change is None or not hit.text:
        return False
    found = cache.delta(hit.change.old, hit.change.new)
    if found is None:
        return False
    added = found[0]
    return size(added) > 0 and size(added & model.all_added) >= 0.5 * size(added)
