"""Inverse hunks, judged hunk by hunk: which of a candidate's hunks does the landing change undo?

An undone hunk puts back exactly the old text: the candidate's added lines go and its removed
lines return. A rewrite writes new text instead. So a candidate hunk counts as undone when one
hunk of the landing patch (or, for a hunk split by later edits, the file's patch as a whole)
removes what it added and adds back what it removed; lines are claimed once, newest candidate
first, so re-landed and repeated changes are not undone twice (REVERTS.md, signal 3).
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from functools import partial

from leverguard.patterns import lazy
from leverguard.records import NamedTuple
from leverguard.revert.patch import CATALOGS, FilePatch, Hunk, imports_only, prose, xml_catalog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterable, Iterator, Mapping, Sequence

RELAND_COMMITS = 10  # an undo this close to the change it undid was itself an accident: restoring that re-lands
ENTRY_REF = lazy(rb"(?:#|/pull/|/issues/)\d+\b")  # what a changelog entry cites
CHANGELOG = lazy(rb"(changes|changelog|history|news|release[-_ ]?notes)(\.\w+)?$", re.IGNORECASE)
REWRITE_OVERLAP = 0.4  # new lines sharing this much of the removed lines' trigrams are a rewrite of them
REWRITTEN_BESIDE = 2  # older lines rewritten beside deleted ones, at most: a local edit that takes over their job
BESIDE_LINES = 1  # old lines between two `-U0` hunks that still make one edit: a line replaced by an unlike one
CONTEXT = 3  # git's default context lines: what makes two -U0 hunks one hunk of an ordinary diff
CODE_NAME = lazy(rb"_|[a-z][A-Z]")  # a name shaped like code (`use_write_str`, `useWriteStr`), not a word
MIN_RENAMED = 4  # a name this long or longer can be renamed (`use_write_str`); shorter ones are keywords, `i`
SLIDE = CONTEXT  # lines git's diff may slide a hunk of repeated text: where a small hunk's undo may sit
SMALL_HUNK = 2  # non-trivial lines: a hunk this small is common text, whose undo must sit where it was
SHARE = 0.8  # share of a candidate hunk's lines (each side) that must come back undone
MOVED_SHARE, MOVED_EDITED_SHARE = 0.5, 0.25  # of deleted lines added elsewhere: moved, and moved with edits
TEXT_LINE = 16  # a prose line this long (whitespace squeezed out) carries text, not a word: found inside another, moved
REWORDED_SIMILARITY = 0.5  # trigram Jaccard of two lines: one reads as the other edited (a renamed argument, a reworded note)
REWORDED_SHARE = 0.5  # of a removed addition's lines found edited among the lines the change writes: reworked, not lost
MIN_REWORDED_LINE = 8  # non-blank characters a line needs to be told apart from others (`});`, `end` are everywhere)
MAX_REWORDED_POOL = 20000  # distinct lines written, at most, compared that way (a larger change is a rewrite anyway)
MIN_MOVED_BLOCK = 3  # non-trivial lines a replaced block needs for its lines elsewhere to say it moved (a value is everywhere)
# a line that names what it defines (normalized: no whitespace), the part of moved code edits keep
# (PHP's and Kotlin's methods open with their modifiers: `publicfunctionwriting_a_file(`, `privatefunload(`)
MODIFIERS = rb"(?:(?:public|private|protected|internal|static|final|abstract|override|open|suspend)(?=\w))+"
DEFINITION = lazy(rb"(async)?def\w|class\w|(export(default)?)?(async)?function\w|func\w|(pub)?fn\w|"
                  + MODIFIERS + rb"fun(ction)?\w+[(<]")
# the name a definition line defines, followed by what opens its parameters or body (no `deferred=x`)
DEFINED = lazy(rb"(?:async)?def(\w+)\(|class(\w+)[(:{<]|(?:export(?:default)?)?(?:async)?function\*?(\w+)\("
               rb"|func(?:\([^)]*\))?(\w+)[(\[]|(?:pub(?:\([\w:]+\))?)?(?:async)?fn(\w+)[(<]|"
               + MODIFIERS + rb"fun(?:ction)?(\w+)\(")
WORD = lazy(rb"\w+")
Signature = tuple[tuple[bytes, ...], tuple[bytes, ...]]


class Written(Counter[bytes]):
    """The lines a landing change writes (normalized), counted, and read for edited copies of given lines
    through trigram columns of its new lines, built on first use (only a removed addition no exact move
    explains asks)."""

    _columns: _Columns | None = None
    _new: list[bytes]
    _defined: set[tuple[bytes | None, ...]] | None = None  # what the written lines define, by name

    def __init__(self, added: Counter[bytes], removed: Counter[bytes]) -> None:
        super().__init__(added)
        self._removed = removed

    def reworded(self, lines: Sequence[bytes], old: frozenset[bytes]) -> bool:
        """Whether most of LINES reappear edited among the change's new lines (none it also takes out, as
        re-indenting or line endings do, and none of the OLD text a candidate replaced, which a stale copy
        writes back): code reworked or moved with edits, prose reworded. A definition must come back under
        its name (another function with the same body lines is no rework of this one)."""
        wanted = [line for line in lines if len(line) >= MIN_REWORDED_LINE]
        if not wanted or len(self) > MAX_REWORDED_POOL:
            return False
        first = next((match for line in wanted if (match := DEFINED.match(line))), None)
        if first is not None:
            if self._defined is None:
                self._defined = {defined.groups() for line in self if (defined := DEFINED.match(line))}
            if first.groups() not in self._defined:
                return False
        if self._columns is None:
            self._new = [line for line, n in self.items() if len(line) >= MIN_REWORDED_LINE and n > self._removed[line]]
            self._columns = _Columns([_trigrams((line,)) for line in self._new])
        columns = self._columns
        found = sum(1 for line in wanted
                    if any(self._new[k] not in old for k in columns.similar(_trigrams((line,)))))
        return found >= REWORDED_SHARE * len(wanted)


class _Columns:
    """Lines' trigram sets as bit columns (bit K of a trigram's column: line K holds it), to find the lines
    a given line is similar to (trigram Jaccard >= REWORDED_SIMILARITY) for all lines at once: the shared
    trigrams are counted in bit-sliced counters over Python ints, where intersecting sets line by line cost
    a large change 50 ms a line (ExpressLRS' 19,000 written lines, texstudio's translation catalogs)."""

    def __init__(self, lines: Sequence[set[bytes]]) -> None:
        self._postings: dict[bytes, list[int]] = {}
        by_size: dict[int, list[int]] = {}
        for k, grams in enumerate(lines):
            for gram in grams:
                self._postings.setdefault(gram, []).append(k)
            by_size.setdefault(len(grams), []).append(k)
        self._bytes = (len(lines) + 7) // 8
        self._all = (1 << len(lines)) - 1
        self._columns: dict[bytes, int] = {}
        self._sizes = sorted(by_size)
        self._of_size = [self._mask(by_size[size]) for size in self._sizes]

    def similar(self, grams: set[bytes]) -> Iterator[int]:
        """The lines (ascending) that share at least REWORDED_SIMILARITY of their and GRAMS' trigrams."""
        counts: list[int] = []  # counts[i]: bit i of every line's number of trigrams shared with GRAMS
        for gram in grams:
            carry, i = self._column(gram), 0
            while carry:  # add one to the count of every line holding GRAM, bit by bit
                if i == len(counts):
                    counts.append(0)
                counts[i], carry = counts[i] ^ carry, counts[i] & carry
                i += 1
        a, hits = len(grams), 0
        at_least: dict[int, int] = {}
        # a line of B trigrams shares at most min(A, B): B from REWORDED_SIMILARITY * A to A / REWORDED_SIMILARITY
        low = bisect.bisect_left(self._sizes, math.floor(REWORDED_SIMILARITY * a))
        high = bisect.bisect_right(self._sizes, math.ceil(a / REWORDED_SIMILARITY))
        for size, lines in zip(self._sizes[low:high], self._of_size[low:high]):
            need = _shared_needed(a, size)
            if need is not None:
                if need not in at_least:
                    at_least[need] = _at_least(counts, need, self._all)
                hits |= lines & at_least[need]
        while hits:
            lowest = hits & -hits
            yield lowest.bit_length() - 1
            hits ^= lowest

    def _column(self, gram: bytes) -> int:
        column = self._columns.get(gram)
        if column is None:
            column = self._columns[gram] = self._mask(self._postings.get(gram, ()))
        return column

    def _mask(self, positions: Iterable[int]) -> int:
        bits = bytearray(self._bytes)
        for k in positions:
            bits[k >> 3] |= 1 << (k & 7)
        return int.from_bytes(bits, "little")


def _shared_needed(a: int, b: int) -> int | None:
    """The fewest trigrams two lines of A and B trigrams must share to be similar (Jaccard n / (a + b - n) >=
    REWORDED_SIMILARITY), or None when even min(A, B) is too few."""
    n = max(1, math.ceil(REWORDED_SIMILARITY * (a + b) / (1 + REWORDED_SIMILARITY)) - 1)
    while n <= min(a, b) and not n >= REWORDED_SIMILARITY * (a + b - n):
        n += 1
    return n if n <= min(a, b) else None


def _at_least(counts: Sequence[int], need: int, every: int) -> int:
    """The lines whose bit-sliced count in COUNTS is NEED or more, as a mask (EVERY: all lines)."""
    if need >> len(counts):
        return 0
    above, equal = 0, every
    for i in reversed(range(len(counts))):
        if need >> i & 1:
            equal &= counts[i]
        else:
            above |= equal & counts[i]
            equal &= ~counts[i]
    return above | equal


class HunkUndo(NamedTuple):
    """One candidate hunk the landing change undoes."""

    kind: str  # "replaced" (both sides restored), "restored" (its deletion undone), "deleted" (its addition removed)
    lines: int  # non-trivial lines undone
    merge: str = ""  # the merge whose conflict resolution dropped its lines, when one did
    added: tuple[bytes, ...] = ()  # the candidate hunk's added lines
    removed: tuple[bytes, ...] = ()  # and its removed ones
    amid_new: bool = False  # the landing hunk that undoes it also writes new lines: that region was edited
    # and keeps none of its own removed lines (re-indented): new text written where the lines stood, not a
    # block re-wrapped without them (crossbeam's rebased `pop` losing `guard.unlinked(head)` inside it)
    in_place: bool = False
    # new lines written right beside it (at most a line between), as `-U0` splits a line replaced by an unlike
    # one into two hunks: rules_go's `tags = tags,` taken out a line above each `**common_attrs`
    written_beside: bool = False

    @property
    def text(self) -> tuple[bytes, ...]:
        """The candidate hunk's changed lines: does the change's message name them?"""
        return self.added + self.removed


class PathUndo(NamedTuple):
    """What the landing change does to one candidate's change of one path, line by line."""

    undone: tuple[HunkUndo, ...]
    hunks: int  # the candidate's hunks with content on this path
    lines: int  # the candidate's non-trivial changed lines on this path
    complete: bool  # every hunk undone and nothing else changed: a rollback, ignoring formatting
    groups: int = 0  # its hunks as an ordinary (3-line context) diff shows them: nearby ones make one
    groups_undone: int = 0
    # its other hunks here whose lines the change edits where they sit, without undoing them: a stale copy
    # holds none of the commit's lines to edit, so the change was made with that work in view
    edited: int = 0
    # its own re-formatting of lines (whitespace, quotes) kept by a change that re-formats nothing: no copy
    # from before it holds that
    formatting_kept: bool = False
    # the newer candidates whose in-place edits of its lines went with them (a stale copy lacks those too)
    carried: frozenset[int] = frozenset()


class _Pool:
    """One landing hunk's lines not yet explained: (removed, added), whitespace-only changes cancelled;
    REGION is the hunk of an ordinary diff it belongs to (-U0 splits one edit into several)."""

    __slots__ = ("removed", "added", "claimed", "region", "start", "end", "values", "rewrapped")

    def __init__(self, hunk: Hunk, region: int) -> None:
        removed, added = Counter(hunk.removed), Counter(hunk.added)
        same = removed & added
        self.removed, self.added = removed - same, added - same
        self.rewrapped = bool(same)  # some of its lines only re-indented: a block kept, wrapped anew
        self.values = frozenset(hunk.short[1]) - frozenset(hunk.short[0])  # short value lines it writes (`| 3.8`)
        self.claimed = 0
        self.region = region
        self.start, self.end = hunk.old_start, hunk.old_start + hunk.old_count

    def empty(self) -> bool:
        return not self.removed and not self.added


def judge(head: FilePatch, entries: Sequence[tuple[int, FilePatch]], elsewhere_added: Written,
          relands: Callable[[int, int], bool] = lambda position, older: True,
          dropped: Callable[[int], Mapping[bytes, str]] | None = None, placed: bool = True,
          written_before: Callable[[int, int], bool] = lambda position, older: False) -> dict[int, PathUndo]:
    """Per candidate position (newest first in ENTRIES): the hunks of its patch that HEAD undoes.

    ELSEWHERE_ADDED holds the lines the landing change adds anywhere: a deletion whose lines
    reappear there is a move, not an undo. RELANDS(position, older) tells whether undoing a candidate's
    hunk that had itself undone an older commit's re-lands that one (not when either is a declared
    revert, nor when the candidate names the older one as what it repairs); within RELAND_COMMITS, or at any
    distance when WRITTEN_BEFORE(position, older) says the candidate was written before the older one landed
    (a stale branch's undo of work it never saw, notepad++'s month-old `Add plugin deactivation ability`
    repaired by `Update localization files`). DROPPED gives the
    path's lines that a merge's conflict resolution threw away, as the candidate at a position can have
    lost them: an addition removed that way is lost
    work whatever else the landing hunk does (asked only when such a hunk exists). PLACED tells that ENTRIES
    hold every later change to the path, so where a line sits can be told within what they moved.
    """
    changelog = is_changelog(head.change.path)
    catalog = head.change.path.endswith(CATALOGS) or xml_catalog(head.change.path)
    # a document's lines the change takes out anywhere: one put back where it was is moved back (prose only)
    taken_out = Counter(line for hunk in head.hunks for line in hunk.removed) if prose(head.change.path) else None

    other_files: list[Counter[bytes]] = []

    def elsewhere() -> Counter[bytes]:  # what the change adds to its other files (asked of a few hunks, once)
        if not other_files:
            other_files.append(elsewhere_added - Counter(line for hunk in head.hunks for line in hunk.added))
        return other_files[0]
    live = [h for h in head.hunks if not h.cosmetic]
    regions = _groups(live)
    pools = [_Pool(h, regions[id(h)]) for h in live]
    # a change that re-formats no line keeps a candidate's own re-formatting: its file holds that work, no copy
    # from before it does (lodestar's workflow: the blanks its commit trimmed stay, one step of it goes back)
    keeps_formatting = not any(h.cosmetic for h in head.hunks) and not any(p.rewrapped for p in pools)
    pools = [p for p in pools if not p.empty()]
    if not pools:
        return {}
    by_removed, by_added = _index(pools)
    older: dict[Signature, list[int]] | None = None  # read once a hunk is claimed (most candidates have none)
    found: dict[int, list[tuple[HunkUndo, list[int], Hunk]]] = {}
    live_of: dict[int, list[Hunk]] = {}
    drift: int | None = 0 if placed else None  # how far later commits can have moved a line: the lines they span
    first_removed = [(p, frozenset(p.removed)) for p in pools]  # each landing hunk's removed lines, before any claim
    edited: dict[int, int] = {}
    later = _LaterEdits(entries)
    carried: dict[int, set[int]] = {}
    as_left: dict[int, Hunk] = {}  # (by id) a candidate hunk claimed as later commits left its lines
    for index, (position, patch) in enumerate(entries):
        hunks = live_of[position] = [h for h in patch.hunks if not h.cosmetic and (h.removed or h.added)]
        shared: Counter[bytes] | None = None  # (asked only of hunks sharing a line with the change)
        reindented: frozenset[bytes] = frozenset()
        for hunk in hunks:
            if by_removed.keys().isdisjoint(hunk.added) and by_added.keys().isdisjoint(hunk.removed):
                continue  # most candidate hunks: no landing hunk shares a line with them (one C-level pass)
            if shared is None:
                shared = Counter(line for h in hunks for line in {*h.removed, *h.added})
                # (a move the change makes back, both sides, still undoes it: order is meaning in code)
                reindented = frozenset(line for line in _reindented_apart(hunks)
                                       if line not in by_removed or line not in by_added)
            if _boilerplate_only(hunk, shared, by_removed, by_added):
                continue
            own = _without(hunk, reindented) if reindented else hunk
            if own is None:
                continue  # lines the commit only re-indented, across two hunks
            claim = _match(own, pools, by_removed, by_added, drift)
            if claim is None and (edited_later := later.left(index, hunk)) is not None and \
                    not by_removed.keys().isdisjoint(set(edited_later[0].added) - set(hunk.added)):
                claim = _match(edited_later[0], pools, by_removed, by_added, drift)
                if claim is not None:
                    carried.setdefault(position, set()).update(edited_later[1])
                    as_left[id(hunk)] = edited_later[0]
            if claim is None and dropped is not None:
                claim = _dropped(hunk, pools, by_removed, partial(dropped, position), elsewhere_added)
            if claim is None:
                continue
            if older is None:
                older = _inverse_positions(entries)
            # the newest older candidate whose hunk, as written or as newer candidates left its lines, this one undid
            undid_at = min((i for i in older.get(_signature(hunk), ()) if i > index), default=None)
            undid_at = later.undone(index, hunk, undid_at)
            undid = None if undid_at is None else entries[undid_at][0]
            if undid is not None and (undid - position <= RELAND_COMMITS or written_before(position, undid)) and \
                    relands(position, undid):
                continue  # the hunk itself had just undone an older one: HEAD re-lands that, it undoes nothing
            found.setdefault(position, []).append((*claim, hunk))
        if drift is not None and position in found:
            undone_ids = {id(h) for _, _, h in found[position]}
            edited[position] = sum(1 for h in hunks if id(h) not in undone_ids and
                                   _edited_in_place(h, first_removed, by_removed, drift))
        if drift is not None:
            drift += sum(h.old_count + h.new_count for h in patch.hunks)
    def resolved_away(undo: HunkUndo, hunk: Hunk, position: int, replaced: frozenset[bytes]) -> HunkUndo | None:
        if dropped is None or undo.kind == "restored" or not hunk.added:
            return None
        if moved(hunk.added, elsewhere_added) or (changelog and _changelog_loses_nothing(undo, hunk, elsewhere_added, replaced)):
            return None  # the resolution moved those lines (a changelog section re-ordered): nothing lost
        lost = dropped(position)
        merges = [lost[line] for line in hunk.added if line in lost]
        return undo._replace(merge=merges[0]) if len(merges) >= SHARE * len(hunk.added) else None

    writers = [pool for pool in pools if pool.added]
    beside_of: dict[int, bool] = {}

    def written_next_to(k: int) -> bool:  # (asked per claimed landing hunk, once: a rebuild claims thousands)
        if k not in beside_of:
            beside_of[k] = any(_next_to(pool, pools[k]) for pool in writers)
        return beside_of[k]

    standing: dict[int, list[tuple[HunkUndo, Hunk]]] = {}
    patches = dict(entries)
    # a document's lines a candidate wrote twice, one copy taken out and the other kept, lose nothing
    # (active_merchant's entry); code's twice-written lines do a job in each place (rq's fix in two methods)
    document = changelog or taken_out is not None
    taken: Counter[bytes] = Counter()
    if document:
        taken.update(line for h in live for line in h.removed)
        taken.subtract(line for h in live for line in h.added)
    within: list[Counter[bytes]] = []

    def moved_within() -> Counter[bytes]:  # lines the change both takes out and writes in this file (asked rarely)
        if not within:
            within.append(Counter(line for h in head.hunks for line in h.removed) &
                          Counter(line for h in head.hunks for line in h.added))
        return within[0]
    for position, claims in found.items():
        kept = standing.setdefault(position, [])
        replaced = frozenset(line for h in patches[position].hunks for line in h.removed)
        wrote = Counter(line for h in patches[position].hunks for line in h.added) if document else Counter()
        for undo, used, hunk in claims:
            seen = as_left.get(id(hunk), hunk)  # its lines as the change found them
            by_merge = resolved_away(undo, seen, position, replaced)
            if by_merge is not None:
                kept.append((by_merge, hunk))
            elif document and undo.kind == "deleted" and all(wrote[line] > taken[line] for line in hunk.added):
                continue  # one copy of the two taken out
            elif not document and undo.kind == "restored" and imports_only(hunk.removed) and \
                    _moved_back(hunk.removed, moved_within()) and _imports_moved(hunk.removed, patches[position]):
                # imports put back where they stood and taken out where the commit had moved them among imports:
                # the file's imports sorted otherwise (AppFlowy's `package:flutter/*` imports, placed by each one's
                # IDE); not an import the commit moved under a guard (`if TYPE_CHECKING:`), which is work
                continue
            elif _stands(undo, used, seen, pools, elsewhere_added, replaced, taken_out, elsewhere) and \
                    not (changelog and _changelog_loses_nothing(undo, seen, elsewhere_added, replaced)):
                amid_new = any(pools[k].added for k in used)
                in_place = amid_new and not any(pools[k].rewrapped for k in used)
                beside = not any(pools[k].rewrapped for k in used) and any(written_next_to(k) for k in used)
                kept.append((undo._replace(amid_new=amid_new, in_place=in_place, written_beside=beside), hunk))
    # a rollback seen through whitespace: every landing line explained by an undo that stands, and (per
    # candidate) its values too short to compare (`- 1.4`) undone as well
    complete = all(p.empty() for p in pools) and all(len(standing[p]) == len(c) for p, c in found.items())
    unseen = _short_unseen(live, entries) if any(standing.values()) else frozenset()
    result = {}
    for position, undone in standing.items():
        if undone:
            hunks = live_of[position]
            count, lines = len(hunks), sum(len(h.removed) + len(h.added) for h in hunks)
            groups = _groups(hunks)
            # (each hunk inverted whole: a replaced line only deleted leaves the file short of its old text,
            # kamal's reworded `say` taken out with the block around it, no rollback)
            # (a catalog's hunk of tool-written lines alone, emptied, is no formatting of anyone's)
            formatting_kept = keeps_formatting and any(h.cosmetic and (h.removed or h.added or not catalog)
                                                       for h in patches[position].hunks)
            # (and a file the commit added has no version before it to be rolled back to: pychess' `api.html`,
            # emptied of every line but its tags, is its lines deleted)
            whole = complete and len(undone) == count and position not in unseen and \
                all(_inverted(undo, hunk) for undo, hunk in undone) and not formatting_kept and \
                patches[position].change.old is not None
            result[position] = PathUndo(tuple(u for u, _ in undone), count, lines, whole,
                                        len(set(groups.values())), len({groups[id(hunk)] for _, hunk in undone}),
                                        edited.get(position, 0), formatting_kept,
                                        frozenset(carried.get(position, ())))
    return result


class _LaterEdits:
    """A candidate's added lines as the newer candidates left them: a line another commit edited in place (a
    replacement hunk's lines, pair by pair, each reading as an edit of the other) goes on as its edit. A stale
    copy from before a block was added lacks the block as later commits polished it too (notepad++'s
    `<NetworkPathWarning>` block, its title and two items reworded a day later, all of it gone)."""

    def __init__(self, entries: Sequence[tuple[int, FilePatch]]) -> None:
        self._entries = entries
        # a replaced line: the indexes (ascending) of the candidates replacing it, and by what in each; built
        # once per path, and only once a hunk is asked about
        self._pairs: dict[bytes, tuple[list[int], dict[int, bytes]]] | None = None
        self._edit: dict[tuple[bytes, bytes], bool] = {}  # (old, new): reads as an edit (asked once a pair)
        self._by_removed: dict[tuple[bytes, ...], list[tuple[int, Hunk]]] | None = None  # hunks by their removed side

    def left(self, index: int, hunk: Hunk) -> tuple[Hunk, list[int]] | None:
        """HUNK (of the candidate at INDEX) with its added lines as the newer candidates edited them, and the
        positions of those that did, or None when none did."""
        pairs = self._pairs if self._pairs is not None else self._index()
        lines, by, below = hunk.added, [], index
        while True:
            # the oldest of the newer candidates replacing one of LINES, then the next one on from it
            step = max((found[0][at - 1] for line in lines if (found := pairs.get(line)) is not None
                        and (at := bisect.bisect_left(found[0], below))), default=None)
            if step is None:
                break
            edits = {old: new for old in lines if (found := pairs.get(old)) is not None
                     and (new := found[1].get(step)) is not None and self._edited(old, new)}
            if edits:
                lines = tuple(edits.get(line, line) for line in lines)
                by.append(self._entries[step][0])
            below = step
        return (hunk._replace(added=lines), by) if by else None

    def undone(self, index: int, hunk: Hunk, before: int | None) -> int | None:
        """The index (past INDEX, below BEFORE when given) of the newest older candidate whose hunk HUNK takes
        back as newer candidates left it (its added lines, edited since, are the ones HUNK removes), else BEFORE."""
        if self._by_removed is None:
            self._by_removed = {}
            for k, (_, patch) in enumerate(self._entries):
                for older in patch.hunks:
                    self._by_removed.setdefault(tuple(sorted(older.removed)), []).append((k, older))
        removed, added = _signature(hunk)
        for k, older in self._by_removed.get(added, ()):  # (ascending: the newest older first)
            if k <= index:
                continue
            if before is not None and k >= before:
                break
            edited = self.left(k, older)
            if edited is not None and tuple(sorted(edited[0].added)) == removed:
                return k
        return before

    def _index(self) -> dict[bytes, tuple[list[int], dict[int, bytes]]]:
        pairs: dict[bytes, tuple[list[int], dict[int, bytes]]] = {}
        for k, (_, patch) in enumerate(self._entries):
            for edit in patch.hunks:
                if not edit.cosmetic and len(edit.removed) == len(edit.added):
                    for old, new in zip(edit.removed, edit.added):
                        indexes, by_index = pairs.setdefault(old, ([], {}))
                        if k not in by_index:
                            indexes.append(k)
                        by_index[k] = new
        self._pairs = pairs
        return pairs

    def _edited(self, old: bytes, new: bytes) -> bool:
        if (old, new) not in self._edit:
            self._edit[old, new] = similar([new], [old])
        return self._edit[old, new]


def _imports_moved(lines: Sequence[bytes], patch: FilePatch) -> bool:
    """Whether PATCH wrote LINES again among imports only: hunks adding nothing but import lines hold them."""
    moved_to = {line for hunk in patch.hunks if hunk.added and imports_only(hunk.added) for line in hunk.added}
    return all(line in moved_to for line in lines)


def _next_to(pool: _Pool, other: _Pool) -> bool:
    """Whether two landing hunks are the same or at most one old line apart."""
    gap = pool.start - other.end if pool.start >= other.end else other.start - pool.end
    return pool is other or gap <= BESIDE_LINES


def _inverted(undo: HunkUndo, hunk: Hunk) -> bool:
    """Whether UNDO takes HUNK back whole: both sides of a replacement, an addition removed, a deletion restored."""
    return undo.kind == "replaced" or (undo.kind == "deleted" and not hunk.removed) or \
        (undo.kind == "restored" and not hunk.added)


def _edited_in_place(hunk: Hunk, landing: Sequence[tuple[_Pool, frozenset[bytes]]],
                     by_removed: dict[bytes, list[int]], drift: int) -> bool:
    """Whether a landing hunk where HUNK left its file (DRIFT lines give or take) removes some of HUNK's added
    lines but not all: that work edited (superagent's `if (this._noDelay)` guard cut to its call), which
    no stale copy does; a copy from before the commit lacks every line of it. Only the landing hunks that
    remove one of those lines (BY_REMOVED, indexed before any claim) are looked at."""
    added = set(hunk.added) - set(hunk.removed)
    if not added or not hunk.new_start:
        return False
    near = {k for line in added for k in by_removed.get(line, ())}
    return any(0 < len(added & landing[k][1]) < len(added) for k in near if _sits_at(landing[k][0], hunk, drift))


def _short_unseen(live: Sequence[Hunk], entries: Sequence[tuple[int, FilePatch]]) -> set[int] | frozenset[int]:
    """The candidates whose short value lines (`- 1.4`: too short to match hunks by) HEAD does not undo, every
    candidate when HEAD changes such a line none of them did: a file with those left is not equal to an older one
    (lib/pq's `Restore Tip` put `- tip` back and kept `- 1.7`, which replaced it)."""
    head_added = Counter(line for h in live for line in h.short[1])
    head_removed = Counter(line for h in live for line in h.short[0])
    back, gone = head_added - head_removed, head_removed - head_added  # (a line only re-spaced is on both sides)
    unseen: set[int] = set()
    wrote: Counter[bytes] = Counter()
    took: Counter[bytes] = Counter()
    for position, patch in entries:
        removed = Counter(line for h in patch.hunks for line in h.short[0])
        added = Counter(line for h in patch.hunks for line in h.short[1])
        if removed - back or added - gone:
            unseen.add(position)
        wrote, took = wrote + added, took + removed
    if back - took or gone - wrote:
        return frozenset(position for position, _ in entries)
    return unseen


def _groups(hunks: Sequence[Hunk]) -> dict[int, int]:
    """Each hunk's group (by id): hunks with at most 2 x CONTEXT lines between them make one hunk of an
    ordinary diff, the unit people (and a stale copy) think in."""
    groups: dict[int, int] = {}
    group, end = -1, None
    for hunk in sorted(hunks, key=lambda h: h.old_start):
        # an addition's old start is the line it follows: that line lies between it and the hunk before
        between = None if end is None else hunk.old_start - end + (0 if hunk.old_count else 1)
        if between is None or between > 2 * CONTEXT:
            group += 1
        groups[id(hunk)] = group
        end = hunk.old_start + (hunk.old_count or 1)  # the first old line after it
    return groups


def _index(pools: list[_Pool]) -> tuple[dict[bytes, list[int]], dict[bytes, list[int]]]:
    by_removed: dict[bytes, list[int]] = {}
    by_added: dict[bytes, list[int]] = {}
    for k, pool in enumerate(pools):
        for line in pool.removed:
            by_removed.setdefault(line, []).append(k)
        for line in pool.added:
            by_added.setdefault(line, []).append(k)
    return by_removed, by_added


def _match(hunk: Hunk, pools: list[_Pool], by_removed: dict[bytes, list[int]],
           by_added: dict[bytes, list[int]], drift: int | None = None) -> tuple[HunkUndo, list[int]] | None:
    """Claim the lines of the one landing hunk that undoes HUNK best (or of several, for a split one).
    A hunk of a line or two is common text (`#[cfg(feature = "client")]`, `}`, an import): its undo must
    sit where it was, DRIFT lines (what later commits changed in the file) give or take. Asked only of a hunk
    sharing a line with a landing hunk."""
    near = {k for line in hunk.added for k in by_removed.get(line, ())} | \
        {k for line in hunk.removed for k in by_added.get(line, ())}
    if near and drift is not None and len(hunk.removed) + len(hunk.added) <= SMALL_HUNK and hunk.new_start:
        placed = {k for k in near if _sits_at(pools[k], hunk, drift, SLIDE)}
        # (a line replaced needs one side where it was: the other may have moved with its region)
        near = (near if placed else set()) if hunk.removed and hunk.added else placed
    if not near:  # none where the hunk left its file
        return None
    gone, back = Counter(hunk.added), Counter(hunk.removed)
    if not gone.keys().isdisjoint(back):
        same = gone & back  # a line only re-indented (a block unwrapped) is in no pool either
        gone, back = gone - same, back - same
        if not gone and not back:
            return None  # a block only re-ordered or re-indented: nothing of it to undo
    need_gone, need_back = SHARE * sum(gone.values()), SHARE * sum(back.values())
    hit_gone, hit_back = _hits(gone, by_removed, pools, near, "removed"), _hits(back, by_added, pools, near, "added")
    best, best_score = None, 0
    for k in sorted(near):
        score = hit_gone.get(k, 0) + hit_back.get(k, 0) \
            if hit_gone.get(k, 0) >= need_gone and hit_back.get(k, 0) >= need_back else 0
        if score > best_score:
            best, best_score = [k], score
    if best is None and len(near) > 1 and sum(hit_gone.values()) >= need_gone and sum(hit_back.values()) >= need_back:
        # later edits split the hunk: the file's patch as a whole (the sums bound what the pools hold together)
        if _together(gone, by_removed, pools, near, "removed") >= need_gone and \
                _together(back, by_added, pools, near, "added") >= need_back:
            best = sorted(near)
    if best is None:
        return None
    kind = "replaced" if gone and back else "deleted" if gone else "restored"
    lines = _claim(gone, back, [pools[k] for k in best])
    return HunkUndo(kind, lines, added=hunk.added, removed=hunk.removed), best


def _reindented_apart(hunks: Sequence[Hunk]) -> frozenset[bytes]:
    """Lines a commit's patch of a file takes out in one hunk and writes in the next, the two one edit:
    re-indented where git's diff paired the lines apart (scalatest's `if (... != "2.13") {` wrapped around a
    test's body: its old lines one hunk, the guard with the lines indented the one before). A change writing
    them again beside the kept copy (scalatest's `} else {` branch) restores nothing the commit took out, nor
    does one deleting them take out its work; moving them back, both sides, undoes it. A block moved far (rq's
    `requeue` into the base class) is a move of its own: its old place written again counts."""
    ordered = sorted(hunks, key=lambda h: h.old_start)
    moved: set[bytes] = set()
    for first, second in zip(ordered, ordered[1:]):
        if second.old_start - (first.old_start + first.old_count) <= BESIDE_LINES:  # one edit, split by git's diff
            moved.update(set(first.removed) & set(second.added))
            moved.update(set(first.added) & set(second.removed))
    return frozenset(moved)


def _without(hunk: Hunk, moved: frozenset[bytes]) -> Hunk | None:
    """HUNK without the lines its commit only re-indented (MOVED), None when nothing else is left."""
    if moved.isdisjoint(hunk.removed) and moved.isdisjoint(hunk.added):
        return hunk
    removed = tuple(line for line in hunk.removed if line not in moved)
    added = tuple(line for line in hunk.added if line not in moved)
    return hunk._replace(removed=removed, added=added) if removed or added else None


def _boilerplate_only(hunk: Hunk, shared: Counter[bytes], by_removed: dict[bytes, list[int]],
                      by_added: dict[bytes, list[int]]) -> bool:
    """Whether the landing touches none of HUNK's own lines, only those its commit's other hunks in the file
    hold too (SHARED: in how many of them each line is): a new block sharing boilerplate with one the commit
    took out (openhab's `<dependency>` with its groupId, version and scope, another artifactId), which a stale
    copy would put back with the line that made it that block."""
    own_removed = [line for line in hunk.removed if shared[line] == 1]
    own_added = [line for line in hunk.added if shared[line] == 1]
    return 0 < len(own_removed) + len(own_added) < len(hunk.removed) + len(hunk.added) and \
        not any(line in by_added for line in own_removed) and not any(line in by_removed for line in own_added)


def _sits_at(pool: _Pool, hunk: Hunk, drift: int, play: int = 2 * CONTEXT) -> bool:
    """Whether the landing hunk of POOL lies where HUNK left its file, DRIFT lines and PLAY give or take."""
    slack = drift + play
    return pool.start <= hunk.new_start + hunk.new_count + slack and pool.end >= hunk.new_start - slack


def _dropped(hunk: Hunk, pools: list[_Pool], by_removed: dict[bytes, list[int]],
             dropped: Callable[[], Mapping[bytes, str]], elsewhere_added: Counter[bytes]) -> tuple[HunkUndo, list[int]] | None:
    """Claim HUNK's added lines when the landing removes them and a merge's conflict resolution threw them
    away: lost work whatever took their place, even the other side's new text (REVERTS.md, signal 5: a
    resolution that took one side). The re-merge is read only once the landing removes those lines."""
    gone = Counter(hunk.added)
    near = sorted({k for line in gone for k in by_removed.get(line, ())})
    if not near:
        return None
    removed: Counter[bytes] = Counter()
    for k in near:
        removed += pools[k].removed
    if sum((gone & removed).values()) < SHARE * sum(gone.values()) or moved(hunk.added, elsewhere_added):
        return None
    if _survives(hunk, [line for k in near for line in pools[k].added]):
        return None
    lost = dropped()
    if sum(1 for line in hunk.added if line in lost) < SHARE * len(hunk.added):
        return None
    lines = _claim(gone, Counter(), [pools[k] for k in near])
    return HunkUndo("deleted", lines, added=hunk.added, removed=hunk.removed), near


def _survives(hunk: Hunk, text: Sequence[bytes]) -> bool:
    """Whether the words HUNK brought in are all in TEXT and the words it took out are not: the side a
    resolution kept carries that change already (`Pypi` made `PyPI` on both sides of a conflict)."""
    added = {w for line in hunk.added for w in WORD.findall(line)}
    removed = {w for line in hunk.removed for w in WORD.findall(line)}
    kept = {w for line in text for w in WORD.findall(line)}
    return added - removed <= kept and not (removed - added) & kept


def _hits(want: Counter[bytes], index: dict[bytes, list[int]], pools: list[_Pool], near: set[int],
          side: str) -> dict[int, int]:
    """Per landing hunk of NEAR: how many lines of WANT its SIDE ("removed" or "added") still holds. Counted
    from the candidate hunk's few lines through INDEX (built before any claim, so it holds every line a pool
    still has): a file whose hundreds of landing hunks share lines (`},`) with each candidate hunk stays linear."""
    hits: dict[int, int] = {}
    for line, n in want.items():
        for k in index.get(line, ()):
            if k in near and (have := getattr(pools[k], side).get(line, 0)):
                hits[k] = hits.get(k, 0) + min(n, have)
    return hits


def _together(want: Counter[bytes], index: dict[bytes, list[int]], pools: list[_Pool], near: set[int], side: str) -> int:
    """How many lines of WANT the landing hunks of NEAR hold on SIDE between them (a hunk later edits split)."""
    return sum(min(n, sum(getattr(pools[k], side).get(line, 0) for k in index.get(line, ()) if k in near))
               for line, n in want.items())


def _claim(gone: Counter[bytes], back: Counter[bytes], pools: list[_Pool]) -> int:
    """Take the undone lines out of POOLS (each line explains one candidate only)."""
    taken = 0
    for pool in pools:
        for want, side in ((gone, pool.removed), (back, pool.added)):
            n = 0
            for line in [line for line in want if line in side]:  # the candidate's few lines, not the pool's
                hit = min(want[line], side[line])
                want[line] -= hit
                side[line] -= hit
                if not want[line]:
                    del want[line]
                if not side[line]:
                    del side[line]
                n += hit
            pool.claimed += n
            taken += n
    return taken


def _stands(undo: HunkUndo, used: list[int], hunk: Hunk, pools: list[_Pool], elsewhere_added: Written,
            replaced_by_it: frozenset[bytes], taken_out: Counter[bytes] | None = None,
            other_files: Callable[[], Counter[bytes]] = Counter) -> bool:
    """An undo counts only when the landing hunk did little else: lines put back (a replacement restored
    on both sides, or a deletion undone) must not sit in mostly new text, which is a rewrite of that
    region that happens to hold old lines; a removed addition must leave no new text in its place
    (a rewrite), take no larger cut of older code with it, and not reappear elsewhere (a move)."""
    if undo.kind == "restored" and taken_out is not None and _moved_back(hunk.removed, taken_out):
        return False
    if undo.kind == "replaced" and len(hunk.added) >= MIN_MOVED_BLOCK and moved(hunk.added, other_files()):
        # the old text back where a block stood that the change writes into another file: moved on (the
        # OpenTelemetry bot's `Post release` emptying `apidiffs/current_vs_latest/*.txt` into the release's own;
        # lines written back into the same file are that file edited, judged as they are)
        return False
    if undo.kind in ("replaced", "restored"):  # old lines amid mostly new text: a rewrite, or common lines
        return all(sum(pools[k].added.values()) <= pools[k].claimed for k in used)
    if moved(hunk.added, elsewhere_added) or elsewhere_added.reworded(hunk.added, replaced_by_it):
        return False  # moved, or reworked: its lines written again edited (as a stale copy writes nothing)
    if any(sum(pools[k].removed.values()) > pools[k].claimed for k in used):
        return False  # a deliberate cut of older code with it
    if any(pools[k].values - frozenset(hunk.short[0]) for k in used):
        return False  # a short value written in its place (rubocop's release writing `| 3.8` over `| <<next>>`)
    # its lines edited into new ones in that region (in the hunk, or a few lines off: axios' bare call made
    # an `if` guard, rich's try/except import swapped): a rewrite; unrelated new lines are new work
    region = {pools[k].region for k in used}
    written = [line for pool in pools if pool.region in region for line in pool.added.elements()]
    # (or an older line beside them rewritten to do their job: joblib's `nrows=1000` read written over the read
    # and the `data.iloc[:int(1e6)]` cut after it; not a larger rewrite around them, which drops a line as a
    # stale rebase does: crossbeam's reworked `pop` losing the `guard.unlinked(head)` of the day before)
    replaced = [line for pool in pools if pool.region in region for line in pool.removed.elements()]
    beside = 0 < len(replaced) <= REWRITTEN_BESIDE and len(written) <= REWRITTEN_BESIDE and similar(written, replaced)
    # (a document's entries share their shape: one written for another is no rename of it)
    return not (written and (beside or similar(written, hunk.added) or
                             (taken_out is None and _renamed(written, hunk.added))))


def _moved_back(lines: Sequence[bytes], taken_out: Counter[bytes]) -> bool:
    """Whether the lines put back are TAKEN_OUT elsewhere in the file by the same change: a line of a
    document moved back where it was (fastify's maintainers list in alphabetical order again), nothing
    restored (asked of prose only: in code, an order is meaning)."""
    return bool(lines) and not Counter(lines) - taken_out


def similar(new: Sequence[bytes], old: Sequence[bytes]) -> bool:
    """Whether NEW reads as an edit of OLD: enough shared character trigrams (renames, re-tuned arguments)."""
    grams_new, grams_old = _trigrams(new), _trigrams(old)
    if not grams_new or not grams_old:
        return False
    return len(grams_new & grams_old) >= REWRITE_OVERLAP * min(len(grams_new), len(grams_old))


def _renamed(new: Sequence[bytes], old: Sequence[bytes]) -> bool:
    """Whether NEW reads as an edit of OLD once the code-shaped name OLD uses most and NEW never (thiserror's
    `use_write_str`) and the name NEW uses most and OLD never (`requires_fmt_machinery`) read as one mark: a
    rename, whose long new name hides the shared text from trigrams."""
    old_names = Counter(w for line in old for w in WORD.findall(line) if len(w) >= MIN_RENAMED)
    new_names = Counter(w for line in new for w in WORD.findall(line) if len(w) >= MIN_RENAMED)
    gone = [w for w, _ in old_names.most_common() if w not in new_names and CODE_NAME.search(w)]
    came = [w for w, _ in new_names.most_common() if w not in old_names]
    if not gone or not came:
        return False
    # (both names read as one mark: the shared text must lie around them, not in the name written in)
    return similar([line.replace(came[0], b"\0") for line in new], [line.replace(gone[0], b"\0") for line in old])


def _trigrams(lines: Sequence[bytes]) -> set[bytes]:
    text = b"\n".join(lines)
    return {text[i:i + 3] for i in range(len(text) - 2)}


def is_changelog(path: bytes) -> bool:
    """Whether PATH names a changelog by its file name (`CHANGES.rst`, `docs/HISTORY.md`, `release-notes.md`)."""
    return CHANGELOG.match(path.rpartition(b"/")[2]) is not None


def _changelog_loses_nothing(undo: HunkUndo, hunk: Hunk, elsewhere_added: Written, replaced: frozenset[bytes]) -> bool:
    """A changelog's lines coming back (the release cycle re-adds the `Unreleased` template that preparing
    a release stripped, or its placeholder over the entries it files elsewhere; also where the release's own
    heading it replaced stays, edited: ioBroker's
    `## 7.1.2 (2026-05-07) - Milla` below a new `## __WORK IN PROGRESS__`; none of the lines the commit
    REPLACED, which a stale copy writes back), or entries taken out whose
    references (`#4318`, `pull/4318`) all reappear in what the change adds (moved to another section or reworded)."""
    if undo.kind == "restored":
        return True
    if undo.kind == "replaced":
        # (its entries written again whole, moved under the release's heading: RobustToolbox's `Version: 288.1.0`
        # putting `*None yet*` back over the entries it files under `## 288.1.0`; a stale copy writes none)
        entries = [line for line in hunk.added if line]
        return bool(entries) and all(elsewhere_added[line] for line in entries) or \
            elsewhere_added.reworded(hunk.added, replaced)
    refs = {ref for line in hunk.added for ref in ENTRY_REF.findall(line)}
    return undo.kind == "deleted" and bool(refs) and \
        refs <= {ref for line in elsewhere_added for ref in ENTRY_REF.findall(line)}


def moved(lines: Sequence[bytes], elsewhere_added: Counter[bytes]) -> bool:
    """Most of LINES are added elsewhere by the landing change: code moved, not removed. A move often
    edits the body on the way (a test re-targeted at another transport), so when a definition among
    them (`def test_x(self):`) is written again as it was, or the first one with a new signature
    (aiohttp's `close()` gaining `abort_ssl`, 40 lines higher), a smaller share will do."""
    if not lines:
        return False
    found = sum(1 for line in lines if elsewhere_added[line])
    if found >= MOVED_SHARE * len(lines):
        return True
    # the first definition is what moved (a nested `go()` helper of one test is in any other test too)
    first = next((line for line in lines if DEFINED.match(line)), None)
    redefined = first is not None and not elsewhere_added[first] and _defined_again(first, elsewhere_added)
    again = any(elsewhere_added[line] for line in lines if DEFINITION.match(line)) or redefined
    return again and found + redefined >= MOVED_EDITED_SHARE * len(lines)


def _defined_again(line: bytes, added: Counter[bytes]) -> bool:
    """Whether LINE defines a name (normalized: `asyncdefclose(self)->None:`) that an added line defines too."""
    found = DEFINED.match(line)
    if found is None:
        return False
    name = next(group for group in found.groups() if group)
    return any(name in other and (again := DEFINED.match(other)) is not None and name in again.groups()
               for other in added)


def _signature(hunk: Hunk) -> Signature:
    return tuple(sorted(hunk.removed)), tuple(sorted(hunk.added))


def _inverse_positions(entries: Sequence[tuple[int, FilePatch]]) -> dict[Signature, list[int]]:
    """The inverse signature of each candidate hunk on the path, with the indexes in ENTRIES (newest first) of
    the candidates holding one: the first index past a candidate's own is the newest older one."""
    found: dict[Signature, list[int]] = {}
    for index, (_, patch) in enumerate(entries):
        for hunk in patch.hunks:
            removed, added = _signature(hunk)
            found.setdefault((added, removed), []).append(index)
    return found
