"""Merge resolutions: the lines a merge's recorded tree dropped from git's own automatic re-merge.

A "merge main into the branch" whose conflict was resolved by taking one side throws the other
side's lines away, and the landing then carries the loss (REVERTS.md, signal 5: about a third of
the real incidents). `git log --diff-merges=remerge` re-merges each merge's parents and diffs that
against what was recorded: the lines it removes are exactly the ones the resolution dropped.
Read once per checked range, and only when a hunk asks.
"""

from __future__ import annotations


from collections import Counter

from leverguard import git
from leverguard.patterns import lazy
from leverguard.revert.patch import parse_commits, squeeze

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterator, Mapping, Sequence

REWRITE_SHARE = 0.5  # of a file's lines at the merge base the merged branch took out: it rewrote the file
MIN_REWRITTEN_LINES = 10  # a smaller file is rewritten by any edit
MIN_OWN_LINE = 8  # dropped lines shorter than this (squeezed: `});`, `returnnil`) are found in any version
QUALIFIER = lazy(rb"(?<![\w.>:])\w+(?:\.|::|->)(?=\w)")  # a qualifier opening a name's path: `FC.`, `this.`, `Foo::`
MAX_QUALIFIED_LINE = 1000  # a line longer than this (normalized) is not looked for written again with a qualifier
MARKERS = (b"<<<<<<<", b">>>>>>>", b"|||||||")  # conflict markers git writes (normalized: no spaces)
# the re-merge's note on each path in conflict, one line in the patch text: `(content): Merge conflict in PATH`
# (add/add too), or `(modify/delete): PATH deleted in ...` for a file one side deleted and the other edited
CONFLICT_NOTE = b"\nremerge CONFLICT ("
CONTENT_CONFLICT = b"): Merge conflict in "
MODIFY_DELETE = b"modify/delete): "
# each merge's header in the stream (`%x1e%H %P`, NUL-ended): the merge's id, then its parents'
MERGE_HEADER = lazy(rb"\x1e([0-9a-f]{40}(?:[0-9a-f]{24})?)(?: [0-9a-f]{40,64})+\0")


class Resolutions:
    """What the merges of one range dropped, per path: normalized line -> the merge that dropped it."""

    def __init__(self, repo: str, rev_range: str, reader: git.ObjectReader, isolation: tuple[str, ...] = (),
                 merges: Callable[[], bool] | None = None) -> None:
        """MERGES, when given, tells whether the range holds a merge at all (from a log the caller reads anyway):
        none, and git is not asked to re-merge anything."""
        self._repo, self._range, self._reader, self._isolation = repo, rev_range, reader, isolation
        self._merges = merges
        self._dropped: dict[bytes, dict[bytes, str]] | None = None
        self._kept: dict[bytes, str] = {}
        self._bases: dict[str, tuple[str, ...]] = {}  # per merge that dropped lines, its parents' merge bases

    def dropped(self, path: bytes) -> Mapping[bytes, str]:
        if self._dropped is None:
            self._dropped = self._read()
        return self._dropped.get(path, {})

    def bases(self, merge: str) -> tuple[str, ...]:
        """The merge bases of the parents of MERGE, one of the merges `dropped` names."""
        return self._bases.get(merge, ())

    def kept_deleted(self, path: bytes) -> str:
        """The merge whose re-merge found PATH deleted on one side and edited on the other (a modify/delete
        conflict), or "": a resolution that keeps the edited copy brings back a file the other side deleted."""
        if self._dropped is None:
            self._dropped = self._read()
        return self._kept.get(path, "")

    def _read(self) -> dict[bytes, dict[bytes, str]]:
        found: dict[bytes, dict[bytes, str]] = {}
        if self._merges is not None and not self._merges():
            return found
        data = git.remerge_patches(self._range, self._repo, self._isolation)
        conflicted: dict[str, set[bytes] | None] = {}  # per merge: its paths in conflict (None: some note unread)
        for merge, part in _merges(data):
            conflicted[merge], edited_copies = _conflicts(part)
            for path in edited_copies:
                self._kept.setdefault(path, merge)
        for header, files in parse_commits(data):
            merge, *parents = header.decode("ascii", "replace").split()
            dropped = {patch.change.path: {line for hunk in patch.hunks for line in _dropped(hunk.removed, hunk.added)}
                       for patch in files}
            # a file git re-merges without conflict had nothing to resolve: lines the merge commit drops there are
            # an edit made in it (msgpack's and idna's merges), judged as any change is
            paths = conflicted.get(merge)
            dropped = {path: lines for path, lines in dropped.items() if lines and (paths is None or path in paths)}
            if not dropped:
                continue
            bases = git.merge_bases(parents[0], parents[-1], self._repo)
            self._bases[merge] = tuple(bases)
            if set(bases) & set(parents):
                # one parent already held the other: git's re-merge is that parent's tree, nothing was there to
                # resolve, and what the commit changed is its own edit (smol's `Refactor`, committed as a merge
                # of old master with new), judged as any change is
                continue
            rewritten = self._rewritten(parents, bases, dropped)
            for path, lines in dropped.items():
                if path in rewritten:
                    continue  # one side's rewrite of the file, taken whole: the other side's lines went with the old text
                kept = found.setdefault(path, {})
                for line in lines:
                    kept.setdefault(line, merge)
        return found

    def _rewritten(self, parents: list[str], bases: list[str], dropped: dict[bytes, set[bytes]]) -> set[bytes]:
        """The paths of DROPPED (path -> the lines the resolution dropped) that one parent rewrote since the
        merge base, taking out at least REWRITE_SHARE of their lines, and whose resolution kept that parent's
        text, most dropped lines the other side's: dotenv's 1.0 rewrite of `lib/main.js` merged over seven
        fixes of the old one. A stale side changed little of what it is merged with (axios' `Fixed merge
        conflict`: 22 of 404 lines), and a rewrite whose own lines were dropped is lost work, not excused.
        BASES are the merge bases of its PARENTS."""
        if len(bases) != 1:
            return set()
        rewritten = set()
        for path, lines in dropped.items():
            base = self._blob(f"{bases[0]}:{git.fsdecode(path)}").split(b"\n")
            if len(base) <= MIN_REWRITTEN_LINES:
                continue
            lost = [line for line in lines if len(line) >= MIN_OWN_LINE]
            for parent in parents:
                text = self._blob(f"{parent}:{git.fsdecode(path)}").split(b"\n")
                # the base's lines the side no longer holds: what it took out since
                taken_out = sum((Counter(base) - Counter(text)).values())
                own = {squeeze(line) for line in text}
                if taken_out >= REWRITE_SHARE * (len(base) - 1) and sum(1 for line in lost if line in own) * 2 < len(lost):
                    rewritten.add(path)
        return rewritten

    def _blob(self, spec: str) -> bytes:
        """A file's content at `REV:PATH`, empty when it does not exist there."""
        found = self._reader.read(spec)
        return found[1] if found is not None and found[0] == "blob" else b""


def _dropped(removed: Sequence[bytes], added: Sequence[bytes]) -> list[bytes]:
    """The lines of one re-merge hunk the resolution dropped: its REMOVED lines (normalized) but conflict markers
    and those the resolution wrote again with a name qualified (inav-configurator's `EZ_TUNE.snappiness = ...`
    as `FC.EZ_TUNE.snappiness = ...` in the branch that moved its globals into a module): that side's line kept."""
    dropped = [line for line in removed if not line.startswith(MARKERS)]
    lengths = {len(line) for line in dropped if MIN_OWN_LINE <= len(line) <= MAX_QUALIFIED_LINE}
    if not added or not lengths:
        return dropped
    # each added line without one of its qualifiers, built only where that is as long as a dropped line: a
    # minified bundle's line holds thousands (krayin's compiled assets: every copy kept took gigabytes)
    unqualified = {line[:found.start()] + line[found.end():] for line in added if len(line) <= 2 * MAX_QUALIFIED_LINE
                   for found in QUALIFIER.finditer(line) if len(line) - (found.end() - found.start()) in lengths}
    return [line for line in dropped if not (len(line) in lengths and line in unqualified)]


def _merges(data: bytes) -> Iterator[tuple[str, bytes]]:
    """(merge id, its part of the patch stream) per merge of DATA. A part ends at the next header, not at
    the next record separator: a file's bytes may hold one (a binary asset's re-merge in Rocket.Chat.Electron)."""
    heads = list(MERGE_HEADER.finditer(data))
    for head, after in zip(heads, heads[1:] + [None]):
        yield head.group(1).decode("ascii"), data[head.end():after.start() if after is not None else len(data)]


def _conflicts(part: bytes) -> tuple[set[bytes] | None, list[bytes]]:
    """From the notes of git's re-merge of one merge (PART of the patch stream): the paths left in conflict
    (None when a note names its path some other way, a rename conflict: then every path counts as resolved by
    hand), and the paths of modify/delete conflicts, whose edited copy stays in the re-merged tree."""
    paths: set[bytes] | None = set()
    kept = []
    for note in part.split(CONFLICT_NOTE)[1:]:
        line = note.split(b"\n", 1)[0]
        kind, found, path = line.partition(CONTENT_CONFLICT)
        if found and paths is not None:
            paths.add(path)
        elif line.startswith(MODIFY_DELETE):
            deleted, found, _ = line[len(MODIFY_DELETE):].partition(b" deleted in ")
            if found:
                kept.append(deleted)
        elif not found:
            paths = None
    return paths, kept
