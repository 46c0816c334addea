"""Signals that a landing change undoes earlier commits, per path: whole files first, then hunks.

Whole-file signals compare object ids only (gitlinks included, so a stale submodule pointer
counts); hunk signals judge git's `-U0` patches (hunks.py). Neither reads a blob.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from leverguard import git
from leverguard.patterns import lazy
from leverguard.records import NamedTuple
from leverguard.revert.declared import cites_commit, is_revert, repairs_the_last_commit
from leverguard.revert.hunks import MIN_MOVED_BLOCK, MOVED_SHARE, RELAND_COMMITS, TEXT_LINE, HunkUndo, PathUndo, Written, judge, moved  # one re-land rule for files and hunks
from leverguard.revert.index import PathIndex
from leverguard.revert.model import Change
from leverguard.revert.patch import (CATALOGS, FilePatch, translation_catalog, xml_catalog, reading_views, debug_only, modifiers_reordered, imports_only, lint_markers_only, names_pruned, prose, reordered_only, set_back, widens_to_major,
                                     unpunctuated, version_pairs)
from leverguard.revert.remerge import Resolutions
from leverguard.revert.rules import Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterable, Mapping, Sequence

    from leverguard.git import Submodules

    PatchOf = Callable[[int, bytes], FilePatch | None]  # a candidate's patch of a path, by position

MAX_POINTER_CHECKS = 5  # a submodule's latest bumps asked about (one git process each)
BACK_SHARE = 0.5  # of a re-added file's lines, the old lines of the file of its name a commit deleted: brought back
MIN_BACK_LINES = 3  # fewer lines back prove nothing (a license header, a docstring)
MARKERS_REPAIRED = "a merge that committed conflict markers, repaired"
CATALOG_TOOLS_ONLY = "only what a translation catalog's tools write (comments, references, its header)"
COMMENT_LINE = lazy(rb"(#|//|/\*|\*|--|<!--)")  # a comment-only line, as the patches hold it (spaces squeezed out)
BARE_TAG = lazy(rb"<(/?[\w:.-]+/?|\?xml.*\?)>$")  # `</filter>`, `<message_arguments>`, `<?xml ...?>`: markup's skeleton


class PathHit(NamedTuple):
    """One path of one candidate that the landing change undoes, and how."""

    position: int  # the candidate's position in the path index
    path: bytes
    kind: str  # "rollback", "resurrected", "kept-by-merge", "deleted-added", "deleted-changed", "inverse-hunk" or
    # "version-set-back"
    lines: int  # the candidate's non-trivial lines on this path that are undone
    total: int  # the candidate's non-trivial lines on this path
    text: bool  # False for binary files and submodules: object ids only
    before: int | None = None  # position of the commit the path was rolled back to before
    quiet: str = ""  # why this hit is weak by nature: "built or scratch file", "formatting only", "imports only"
    undo: PathUndo | None = None  # the hunk-level detail of an inverse-hunk hit
    normalized: bool = False  # a rollback seen through whitespace (CRLF, trailing spaces)
    # a normalized rollback whose file is not that old version whole, formatting aside: its change is taken
    # out hunk by hunk, and other lines of the file differ (`_rollbacks_seen_whole`)
    other_lines: bool = False
    additions_only: bool = False  # the candidate only added lines here: undoing it only deletes them
    newer_kept: int = 0  # later commits that changed the path and whose change HEAD keeps: no stale copy
    text_undone: tuple[bytes, ...] = ()  # the candidate's lines HEAD undoes here (normalized)
    text_replaced: tuple[bytes, ...] = ()  # of a rollback's, the lines the candidate took out (what it wrote over)
    moves: tuple[tuple[str, str], ...] = ()  # a version-set-back hit's versions, (`0.11-dev`, `0.10.1`)
    resolution: str = ""  # the merge whose modify/delete conflict kept the edited copy (kept-by-merge)
    # a pointer-dropped hit's (commit it set, commit now, how: "back" along the submodule's line, "lost" off
    # it without that commit's changes, "rebased" off it with them, "off" when that is not known)
    pointer: tuple[str, str, str] = ("", "", "")

    def undone_text(self) -> tuple[bytes, ...]:
        if self.undo is not None:
            return tuple(line for u in self.undo.undone for line in u.text)
        return self.text_undone

    def replaced_text(self) -> tuple[bytes, ...]:
        """The lines the candidate took out, which HEAD puts back."""
        if self.undo is not None:
            return tuple(line for u in self.undo.undone for line in u.removed)
        return self.text_replaced


def collect(landing: Sequence[FilePatch], index: PathIndex, lo: int, hi: int, patch_of: PatchOf,
            rules: Rules, resolutions: Resolutions | None = None, pointers: Submodules | None = None) -> list[PathHit]:
    """Every path hit of the LANDING patches against the candidates at positions [lo, hi); RESOLUTIONS
    tells what the merges inside the landing change dropped from their automatic re-merge, POINTERS
    whether a submodule's new commit still holds the one it replaces."""
    def relands(position: int, older: int) -> bool:
        """Undoing the candidate at POSITION, which had silently undone OLDER's change a few commits before,
        puts OLDER's back: a re-land. Not when OLDER was a declared revert (the candidate re-landed the
        original), nor when the candidate is one (undoing a revert re-lands only when the change says so:
        attribution judges that; rq's stale test file undoing `Revert "Jobs that are run synchronously..."`
        says nothing), nor when the candidate names OLDER as what it repairs (`restore ... (reverted in
        e59f7fe)`, flask's `Fixed last commit and added test`): HEAD then repeats the accident (commonly's
        twice-overwritten tools.ts)."""
        later, earlier = index.commits[position], index.commits[older]
        if is_revert(earlier) or is_revert(later):
            return False
        return not (cites_commit(f"{later.subject}\n{later.body}", earlier.sha) or repairs_the_last_commit(later.subject))

    def written_before(position: int, older: int) -> bool:
        """Whether the candidate at POSITION was written (its author date, which a rebase keeps) before OLDER
        landed: its tree never held OLDER's work."""
        later = index.commits[position]
        return not later.is_merge and 0 < later.authored < index.commits[older].time

    added_anywhere = Written(_added_lines(landing), _added_lines(landing, "removed"))
    outside: dict[int, Elsewhere] = {}

    def added_outside(position: int) -> Elsewhere:
        """What the landing adds to files other than the candidate's (once per candidate: a stale tree puts back
        hundreds of one commit's files), and to its files, less what it had taken out of each."""
        if position not in outside:
            touched = {c.path for c in index.commits[position].changes}
            outside[position] = Elsewhere(
                _added_lines(p for p in landing if p.change.path not in touched),
                [p for p in landing if p.change.path in touched and any(h.added for h in p.hunks)],
                lambda path: patch_of(position, path))
        return outside[position]

    # (a renamed file's old content leaves its old path as a deleted file's does)
    deleted_oids = frozenset(p.change.old.oid for p in landing if p.change.old is not None and
                             (p.change.new is None or p.renamed_from is not None))
    hits: list[PathHit] = []
    for head, path in reading_views(landing):
        if not rules.reported(path):
            continue
        entries = index.touching(path, lo, hi)
        if not entries:
            continue
        if _moves_forward(head, entries, pointers, index.commits[entries[0][0]].sha):
            continue  # a submodule pointer moved on undoes nothing
        regenerated = rules.regenerated(path)
        exact = [h for h in _exact(head, path, entries, patch_of, regenerated, relands, deleted_oids, rules.built(path))
                 if not _moved_out(h, patch_of(h.position, path), head, added_outside)]
        if exact and _reformats_only(head):  # the file was that text already, formatting aside
            exact = [h._replace(quiet=h.quiet or _formatting_only(path)) for h in exact]
        hits += exact
        if not exact and pointers is not None:
            hits += _pointer_dropped(head, path, entries, pointers)
        added = head.change.old is None
        kept = _kept_by_merge(head, path, entries, patch_of, resolutions) \
            if added and not exact and resolutions is not None else []
        hits += kept
        if added and not exact and not kept and head.text and rules.line_level(path):
            hits += _brought_back_edited(head, path, entries, patch_of, landing)
        elif added and not exact and not kept and regenerated and not rules.built(path):
            hits += _lock_brought_back(path, entries)
        if not exact and head.text and head.change.old is not None and head.change.new is not None \
                and rules.line_level(path):
            lost = None if resolutions is None else partial(_lost_at, resolutions, path, index)
            hits += _inverse(head, path, entries, patch_of, added_anywhere, relands, lost, written_before)
        if not exact and head.text and rules.line_level(path) and not regenerated:
            hits += _versions_set_back(head, path, entries, patch_of, {h.position for h in hits if h.path == path})
    broken = {h.position for h in hits if _left_markers(patch_of(h.position, h.path))}
    hits = [h._replace(quiet=MARKERS_REPAIRED) if not h.quiet and h.position in broken else
            h._replace(quiet=TIDY_ONLY) if not h.quiet and _indirect_only(h) else h for h in hits]
    # go.sum follows its go.mod: the checksums of the requirements tidy wrote (minio-go's release bot's)
    tidied = {(h.position, h.path.rpartition(b"/")[0]) for h in hits if h.quiet == TIDY_ONLY}
    return [h._replace(quiet=TIDY_ONLY) if not h.quiet and h.path.rpartition(b"/")[2] == b"go.sum" and
            (h.position, h.path.rpartition(b"/")[0]) in tidied else h for h in hits]


TIDY_ONLY = "only go.mod's indirect requirements, which go mod tidy writes"


def _indirect_only(hit: PathHit) -> bool:
    """Evidence in a go.mod that is only `// indirect` requirements, or a requirement moved between the direct
    and the indirect ones at its version: `go mod tidy` writes them from the direct ones and the imports
    (minimal version selection), and the next tidy writes them again (kratos', buildah's, thanos' tidies after
    a bump, lnd's `golang/protobuf` made indirect again, minio-go's release bot's lines taken out). A version
    set back is not judged so: a stale go.mod lowers indirect ones too (woodpecker's `golang.org/x/mod` 0.40.0
    to 0.39.0, bumped again two minutes later)."""
    if hit.path.rpartition(b"/")[2] != b"go.mod":
        return False
    if hit.kind == "inverse-hunk" and hit.undo is not None:
        if any(u.kind == "replaced" for u in hit.undo.undone):  # (a requirement's version changed back)
            return False
        lines = hit.undone_text()
    elif hit.kind == "rollback" and hit.undo is None and hit.text:
        lines = hit.text_undone
        if _requirements_moved(hit.text_replaced, (Counter(lines) - Counter(hit.text_replaced)).elements()):
            return False
    else:
        return False
    written = set(lines)
    return bool(lines) and all(line.endswith(INDIRECT) or line + INDIRECT in written for line in lines)


INDIRECT = b"//indirect"
# a squeezed requirement's module path: `github.com/golang/protobufv1.5.2`, `require(go.etcd.io/bboltv1.3.11`
_REQUIREMENT = lazy(rb"(?:require)?\(?(.+?)v\d")


def required_module(line: bytes) -> bytes | None:
    """The module a go.mod requirement line (squeezed) names."""
    found = _REQUIREMENT.match(line)
    return found.group(1) if found is not None else None


def _requirements_moved(removed: Iterable[bytes], added: Iterable[bytes]) -> bool:
    """Whether a module required on both sides has another version on one (a version changed, not tidied)."""
    def versions(lines: Iterable[bytes]) -> dict[bytes, bytes]:
        return {module: line.removesuffix(INDIRECT) for line in lines if (module := required_module(line))}
    before, after = versions(removed), versions(added)
    return any(after[module] != line for module, line in before.items() if module in after)


def _lost_at(resolutions: Resolutions, path: bytes, index: PathIndex, position: int) -> Mapping[bytes, str]:
    """The lines of PATH that merges' resolutions dropped, as the candidate at POSITION can have lost them:
    not through a merge whose parents' merge base already held the candidate. Both sides had its lines then,
    and the side that took them out since did so knowingly (pydicom's `Merge experimental speed branch`
    taking its rewrite of `filereader.py` over lines both sides had for months)."""
    lines = resolutions.dropped(path)
    return {line: merge for line, merge in lines.items()
            if not any((held := index.position(base)) is not None and held <= position for base in resolutions.bases(merge))}


def _left_markers(patch: FilePatch | None) -> bool:
    """The candidate wrote git's conflict markers into the file (mongoose's `Merge branch '7.x'` committing
    `<<<<<<< HEAD` beside a mangled `branches:` line in another file): a broken merge, whose changes a later
    commit takes back as a repair, whatever else it put back."""
    return patch is not None and any(h.markers for h in patch.hunks)


def _exact(head: FilePatch, path: bytes, entries: list[tuple[int, Change]], patch_of: PatchOf,
           regenerated: bool, relands: Callable[[int, int], bool],
           added_anywhere_files: frozenset[str] = frozenset(), built: bool = False) -> list[PathHit]:
    """Rollback, resurrection, deletion of an added file: HEAD's entry equals one from before a candidate.

    A candidate that had exactly undone the path's previous change a few commits before is re-landed,
    not undone, by HEAD putting that change back (RELANDS says when it is not: a declared revert on
    either side, a named repair; attribution explains declared re-lands), and "absent" is no state to
    re-land at all (REVERTS.md, signal 2). A lock file's lines are regeneration churn, but the whole file
    put back byte for byte is the pinned dependencies of the commit that moved them on, undone like any file;
    a BUILT file (a bundle, a snapshot) put back is rebuilt from the sources, which carry the evidence.
    """
    target = head.change.new
    if head.renamed_from is not None and target is None:
        return []
    for k, (position, change) in enumerate(entries):
        if change.old != target:
            continue
        if _relanded(change, position, entries[k + 1:k + 2]) and relands(position, entries[k + 1][0]) \
                and not _gitlink(change):  # a pointer's direction tells which move repairs (`_moves_forward`)
            return []
        # a deletion a later commit already took back, the deleted content with it, is not HEAD's to undo: HEAD
        # changes only what came after (lefthook's wrapper, brought back, then its mode). Brought back older,
        # the file HEAD turns into the deleted version is still that deletion undone (liferea's replayed rebase)
        deletion_undone = change.new is None and head.change.old is not None and change.old is not None and \
            head.change.old.oid == change.old.oid
        undone: list[tuple[int, Change, int | None]] = [] if deletion_undone else [(position, change, None)]
        if target is not None:  # every later change to the path is gone with the rollback
            undone += [(p, c, position) for p, c in _uncancelled(entries[:k])]
        if not undone:
            return []
        if head.change.old is None and _moved_in(head, added_anywhere_files):
            return []  # the same content deleted elsewhere by this change: a move back, not a resurrection
        patches = {p: patch_of(p, path) for p, _, _ in undone}
        return [_exact_hit(head, path, p, c, before, patches[p], built) for p, c, before in _blamed(head, undone, patches)]
    if target is None and entries[0][1].old is not None and entries[0][1].new is not None and not regenerated:
        # a file deleted right after a commit edited it takes that edit with it (kombu's tox.ini)
        position, change = entries[0]
        patch = patch_of(position, path)
        lines = patch.lines if patch is not None else 0
        text = patch is not None and patch.text
        gone = tuple(line for h in patch.hunks for line in h.added) if text and patch is not None else ()
        return [PathHit(position, path, "deleted-changed", lines, lines, text, text_undone=gone)]
    return []


def _blamed(head: FilePatch, undone: list[tuple[int, Change, int | None]],
            patches: dict[int, FilePatch | None]) -> list[tuple[int, Change, int | None]]:
    """The candidates of a rollback chain whose work HEAD takes out: not two of which the later took the
    earlier's change back line for line, nor one whose work was already gone (`_already_gone`), nor one
    whose lines HEAD's own patch leaves alone (`_taken_out`); all of them when that would leave none (the
    chain's oldest change is what HEAD equals the old side of)."""
    if len(undone) <= 1:
        return undone
    deleted_later = _purely_deleted(patches)
    inverted = _inverted_pairs(patches)
    taken = _taken_out(head, patches)
    kept = [entry for entry in undone if entry[0] not in inverted and
            not _already_gone(head, patches[entry[0]], deleted_later.get(entry[0], frozenset())) and
            (taken is None or entry[0] in taken)]
    return kept or undone


def _taken_out(head: FilePatch, patches: dict[int, FilePatch | None]) -> set[int] | None:
    """The candidates of a rollback chain whose work HEAD's own patch takes out: a line HEAD deletes was
    written by them, or rewritten from one they wrote (a line rewritten later still counts as its work), or
    HEAD brings back a line they took out. Not the older commit whose lines a declared revert had already
    replaced (rustlings' `Revert "Add CodeCrafters"` takes out two lines, which returns the README to before
    that commit), nor that revert. Lines compared as a formatter leaves them (a trailing comma added when the
    next entry came). None without both sides' text, or when HEAD brings the file back whole: an old copy
    of a deleted file undoes every change of the chain, the ones the deletion took with it too."""
    texts = {position: patch for position, patch in patches.items() if patch is not None and patch.text}
    if not head.text or len(texts) < len(patches) or head.change.old is None:
        return None
    owners: dict[bytes, frozenset[int]] = {}  # a line of the file -> the candidates whose work it carries
    for position in sorted(texts, reverse=True):  # oldest first
        for hunk in texts[position].hunks:
            carried = frozenset({position}).union(*(owners.get(unpunctuated(line), frozenset()) for line in hunk.removed))
            owners.update((unpunctuated(line), carried) for line in hunk.added)
    taken = {position for hunk in head.hunks for line in hunk.removed if unpunctuated(line)
             for position in owners.get(unpunctuated(line), frozenset())}
    back = {unpunctuated(line) for hunk in head.hunks for line in hunk.added} - {b""}
    return taken | {position for position, patch in texts.items()
                    if any(unpunctuated(line) in back for hunk in patch.hunks for line in hunk.removed)}


def _purely_deleted(patches: dict[int, FilePatch | None]) -> dict[int, frozenset[bytes]]:
    """Per candidate of a rollback chain: the lines that later candidates of the chain deleted outright (a
    hunk taking lines out and writing none in their place)."""
    gone: dict[int, frozenset[bytes]] = {}
    later: set[bytes] = set()
    for position in sorted(patches):  # newest first
        gone[position] = frozenset(later)
        patch = patches[position]
        if patch is not None and patch.text:
            later.update(line for h in patch.hunks if not h.added for line in h.removed)
    return gone


def _inverted_pairs(patches: dict[int, FilePatch | None]) -> set[int]:
    """Candidates of a rollback chain whose change to the path a later one took back line for line (Pillow's
    `(10, [])` made `(9, [...])` and back again, another commit between them): the rollback undoes neither."""
    def sides(patch: FilePatch | None) -> tuple[Counter[bytes], Counter[bytes]] | None:
        if patch is None or not patch.text:
            return None
        return (Counter(line for h in patch.hunks for line in h.removed),
                Counter(line for h in patch.hunks for line in h.added))
    found = {position: side for position, patch in patches.items() if (side := sides(patch)) is not None and any(side)}
    order = sorted(found, reverse=True)  # oldest first
    inverted: set[int] = set()
    for i, older in enumerate(order):
        for newer in order[i + 1:]:
            if older not in inverted and newer not in inverted and found[older] == found[newer][::-1]:
                inverted |= {older, newer}
    return inverted


def _already_gone(head: FilePatch, patch: FilePatch | None, deleted_later: frozenset[bytes]) -> bool:
    """A candidate of a rollback chain whose work the rollback does not take out, because it is no longer
    there: a change that only deleted lines the rollback does not bring back, or one that only added lines
    later candidates deleted outright (pyperf's `TODO.rst`: items added, then struck off one by one, then the
    last one struck off by the change). A line rewritten later still counts as its work, undone."""
    if patch is None or not patch.text or not head.text or not patch.hunks:
        return False
    added = [line for h in patch.hunks for line in h.added]
    removed = [line for h in patch.hunks for line in h.removed]
    if added and removed:
        return False
    if removed:
        back = {line for h in head.hunks for line in h.added}
        return back.isdisjoint(removed)
    return bool(added) and all(line in deleted_later for line in added)


def _uncancelled(later: list[tuple[int, Change]]) -> list[tuple[int, Change]]:
    """LATER (newest first) without the changes a later one had already taken back: one that puts the path
    back as it was before another (typeshed's `ephem` entry added, then removed) cancels it and the changes
    between, and a rollback past both undoes neither."""
    kept: list[tuple[int, Change]] = []
    for position, change in reversed(later):
        undid = next((i for i, (_, earlier) in enumerate(kept) if earlier.old == change.new), None)
        if undid is None:
            kept.append((position, change))
        else:
            del kept[undid:]
    return kept[::-1]


def _moves_forward(head: FilePatch, entries: list[tuple[int, Change]], pointers: Submodules | None, rev: str) -> bool:
    """HEAD moves a submodule pointer forward, to a commit holding the one it replaces or, without the
    submodule's history at hand, to one the superproject (REV's history) first recorded after it: a stale
    checkout holds an older pointer, never a newer one, so HEAD repairs the commit that had set it back
    (zwave-js's `chore: update specs` the day after `chore: update changelog` committed a stale `specs`). A
    pointer put back to an older one stays a rollback, however often the two alternated. Asked only of a
    pointer put back to one a candidate replaced."""
    old, new = head.change.old, head.change.new
    if pointers is None or old is None or new is None or not (old.is_gitlink and new.is_gitlink) or \
            not any(c.old is not None and c.old.oid == new.oid for _, c in entries):
        return False
    path = head.renamed_from or head.change.path
    holds = pointers.contains(path, old.oid, new.oid)
    if holds is not None:
        return holds
    first = pointers.first_recorded(path, rev)
    return new.oid in first and old.oid in first and first[new.oid] < first[old.oid]


def _pointer_dropped(head: FilePatch, path: bytes, entries: list[tuple[int, Change]],
                     pointers: Submodules) -> list[PathHit]:
    """A submodule pointer a candidate set, moved to a commit that does not hold it: back along the
    submodule's line (a stale pointer that no superproject commit recorded) or off it (commonly's
    `bump submodule`, which lost three bumps of the other session, or a rebased line that kept their
    changes). Asked only when the submodule's own history is at hand (a working repository with the
    submodule initialised)."""
    old, new = head.change.old, head.change.new
    if old is None or new is None or not (old.is_gitlink and new.is_gitlink) or entries[0][1].new != old:
        return []  # no pointer, or the one BASE has is no window commit's
    hits = []
    for position, change in entries[:MAX_POINTER_CHECKS]:  # the latest bumps, newest first
        if change.new is None or not change.new.is_gitlink or pointers.contains(path, change.new.oid, new.oid) is not False:
            break  # the new commit holds this bump, and so the ones before it
        hits.append(PathHit(position, path, "pointer-dropped", 0, 0, False,
                            pointer=(change.new.oid, new.oid, _pointer_move(pointers, path, change.new.oid, new.oid))))
    return hits


def _pointer_move(pointers: Submodules, path: bytes, dropped: str, new: str) -> str:
    """How the submodule's pointer left DROPPED for NEW, which does not hold it (see `PathHit.pointer`)."""
    if pointers.contains(path, new, dropped):
        return "back"
    lacks = pointers.lacks_changes(path, dropped, new)
    return "off" if lacks is None else "lost" if lacks else "rebased"


def _kept_by_merge(head: FilePatch, path: bytes, entries: list[tuple[int, Change]], patch_of: PatchOf,
                   resolutions: Resolutions) -> list[PathHit]:
    """A file a candidate deleted, back in an edited copy because a merge's modify/delete conflict kept the
    side that edited it: an outdated branch merged, the deletion undone (requests' `config.py`). Not a file
    of that name written anew, sharing few of the old one's lines (hypothesis' `RELEASE.rst`, each PR's own
    note, which the release deletes: a branch that rewrote it meets the release's deletion; nor an empty
    file where one with lines was: the conflict resolved by emptying the file, not `git rm`, none of its
    lines back (privacyidea's 0-byte component templates). Asked only when the landing adds a path whose
    last change in the window deleted it."""
    position, change = entries[0]
    if change.new is not None or change.old is None:
        return []
    patch = patch_of(position, path)
    if head.change.new is not None and head.change.new.oid == git.EMPTY_BLOB and patch is not None and patch.lines:
        return []
    if patch is not None and patch.text and head.text and not _mostly_old(*_deleted_and_added(patch, head)):
        return []
    merge = resolutions.kept_deleted(path)
    if not merge:
        return []
    lines = patch.lines if patch is not None else 0
    return [PathHit(position, path, "kept-by-merge", lines, lines, patch is not None and patch.text, resolution=merge)]


def _brought_back_edited(head: FilePatch, path: bytes, entries: list[tuple[int, Change]], patch_of: PatchOf,
                         landing: Sequence[FilePatch]) -> list[PathHit]:
    """A file the latest commit to touch it deleted, added back with other content, most of it the old
    file's lines and most of the old file's lines in it: a stale copy of the file (an old branch's edited copy,
    r2modmanPlus' `DownloadMixin.vue`), not a new file. Lines the change takes out elsewhere coming here are a
    move back (structlog's `Frameworks deserves an own chapter`)."""
    position, change = entries[0]
    patch = patch_of(position, path)
    if change.new is not None or change.old is None or patch is None or not patch.text:
        return []
    old, new = _deleted_and_added(patch, head)
    back = _back(old, new)
    # (and most of the old file back: a template's few lines in a file written anew are no copy of it,
    # nilearn's post-release `latest.rst`, 14 of the 112 lines the release moved into its own notes)
    if back < MIN_BACK_LINES or not _mostly_old(old, new) or back < BACK_SHARE * _back(old, old):
        return []
    elsewhere = Counter(line for p in landing if p.change.path != path for h in p.hunks for line in h.removed)
    if moved(list(new.elements()), elsewhere):
        return []
    return [PathHit(position, path, "resurrected", back, sum(old.values()), True, normalized=True,
                    text_undone=tuple((old & new).elements()))]


def _lock_brought_back(path: bytes, entries: list[tuple[int, Change]]) -> list[PathHit]:
    """A lock file the latest commit to touch it deleted, added back regenerated: that deletion undone, whatever
    the lock now pins (Flux's stale branch putting back the `Manifest.toml` #1527 had stopped committing). Its
    lines are no evidence, so none is compared."""
    position, change = entries[0]
    if change.new is not None or change.old is None:
        return []
    return [PathHit(position, path, "resurrected", 0, 0, False, normalized=True)]


def _reformats_only(head: FilePatch) -> bool:
    """Does the landing only reformat this file (autofix.ci's prettier re-wrapping a type's arguments)? Then
    its text, formatting aside, is what it was: whatever older version it equals, an earlier commit made
    it so, and putting it back is formatting only."""
    return head.text and head.change.old is not None and head.change.new is not None and bool(head.hunks) and \
        all(h.cosmetic for h in head.hunks)


def _back(old: Counter[bytes], new: Counter[bytes]) -> int:
    """The lines of NEW the old file held; comments back (a license header every file of the project opens
    with) prove no copy of the old file, nor markup's bare tags (jgit's `.api_filters`, deleted and written
    anew with other filters: only the XML skeleton alike)."""
    return sum(count for line, count in (old & new).items() if not COMMENT_LINE.match(line) and not BARE_TAG.match(line))


def _deleted_and_added(deleted: FilePatch, head: FilePatch) -> tuple[Counter[bytes], Counter[bytes]]:
    """The lines the deletion took out, and the lines HEAD's file of that name holds."""
    return Counter(line for h in deleted.hunks for line in h.removed), Counter(line for h in head.hunks for line in h.added)


def _mostly_old(old: Counter[bytes], new: Counter[bytes]) -> bool:
    """Whether NEW (the file added) is mostly lines of OLD (the file deleted), MIN_BACK_LINES of them at least
    (or all, in a smaller file): a copy of it, edited; not a note of the same template written anew. Markup's
    bare tags count on neither side: they are the format's, not the file's."""
    total = sum(count for line, count in new.items() if not BARE_TAG.match(line))
    back = _back(old, new)
    return back >= BACK_SHARE * total and back >= min(MIN_BACK_LINES, total)


def _moved_in(head: FilePatch, deleted_oids: frozenset[str]) -> bool:
    return head.change.new is not None and head.change.new.oid in deleted_oids


class Elsewhere:
    """The lines a landing adds outside one candidate's files, and into them less what it had taken out there
    (built when first asked: the candidate's patches are read then)."""

    def __init__(self, untouched: Counter[bytes], theirs: list[FilePatch],
                 patch_of: Callable[[bytes], FilePatch | None]) -> None:
        self.untouched = untouched  # added to files the candidate did not change
        self._theirs, self._patch_of = theirs, patch_of
        self._raw: set[bytes] | None = None
        self._written: dict[bytes, Counter[bytes]] | None = None
        self._everywhere: Counter[bytes] | None = None

    def block_into_its_files(self, lines: Sequence[bytes]) -> bool:
        """Whether most of LINES, 3 or more, are written into the candidate's own files at all (before anything
        is subtracted): a block can have moved there."""
        if self._raw is None:
            self._raw = {line for patch in self._theirs for h in patch.hunks for line in h.added}
        raw = self._raw
        return len(lines) >= MIN_MOVED_BLOCK and sum(1 for line in lines if line in raw) >= MOVED_SHARE * len(lines)

    @property
    def everywhere(self) -> Counter[bytes]:
        """UNTOUCHED, and what the landing adds to the candidate's files less what it took out of each."""
        if self._everywhere is None:
            self._written = {p.change.path: _written_over(p, self._patch_of(p.change.path)) for p in self._theirs}
            self._everywhere = self.untouched.copy()
            for lines in self._written.values():
                self._everywhere.update(lines)
        return self._everywhere

    def besides(self, path: bytes) -> Counter[bytes]:
        """EVERYWHERE but for PATH's own lines."""
        everywhere = self.everywhere
        own = self._written.get(path) if self._written is not None else None
        return everywhere - own if own else everywhere


def _written_over(landed: FilePatch, theirs: FilePatch | None) -> Counter[bytes]:
    """The lines LANDED adds to a file that the candidate (THEIRS, its patch there) had not taken out of it."""
    taken = Counter(line for h in theirs.hunks for line in h.removed) if theirs is not None else Counter()
    return _added_lines([landed]) - taken


def _moved_out(hit: PathHit, patch: FilePatch | None, head: FilePatch, added_outside: Callable[[int], Elsewhere]) -> bool:
    """A rollback whose removed lines HEAD adds in another file: code moved out, not undone. The lines are
    the commit's own, or the block HEAD takes out of the file (3 lines or more), which later commits may
    have edited since (LLaMA-Factory's generation-config check, renamed after its PR and then moved whole
    into `patcher.py`). Lines put back into a file the undone commit took them out of do not count: that is
    the same commit undone there too (a stale copy of a refactoring puts its code back where it came from).
    Into another file the commit changed, only a block moves (NuGet's release moving `PublicAPI.Unshipped.txt`
    entries into `PublicAPI.Shipped.txt`): a line or two written there again (`if (result?.confirmed)`) is that
    commit's own pattern, found anywhere it wrote."""
    if hit.kind != "rollback" or patch is None:
        return False
    added = [line for h in patch.hunks for line in h.added]
    taken = [line for h in head.hunks for line in h.removed]
    listed = bool(added) and any(_BULLET.match(line) for line in added)

    def moved_into(elsewhere: Counter[bytes]) -> bool:
        if (bool(added) and moved(added, elsewhere)) or (len(taken) >= MIN_MOVED_BLOCK and moved(taken, elsewhere)):
            return True
        # release notes moved into the version's own file, their list markers dropped on the way (envoy
        # gateway's `release-notes/current.yaml` emptied into `v1.6.0.yaml`)
        unlisted = Counter({_unbulleted(line): n for line, n in elsewhere.items()}) if listed else Counter()
        return listed and moved([_unbulleted(line) for line in added], unlisted)
    found = added_outside(hit.position)
    # (the larger pools first: fewer lines move less; a stale tree's rollbacks move nowhere, and its candidates'
    # patches stay unread)
    return moved_into(found.untouched) or (found.block_into_its_files(added) and moved_into(found.everywhere) and
                                           moved_into(found.besides(hit.path)))


_BULLET = lazy(rb"[-*+](?![-*+\d])")  # a list item's marker, as a squeezed line opens with it (not `---`, `-1`)


def _unbulleted(line: bytes) -> bytes:
    found = _BULLET.match(line)
    return line[found.end():] if found else line


def _relanded(change: Change, position: int, previous: list[tuple[int, Change]]) -> bool:
    """The candidate had exactly undone the path's previous change, a few commits before: a silent
    revert itself, so HEAD restoring that change repairs it (REVERTS.md, traps: re-lands)."""
    return bool(previous) and change.new is not None and previous[0][1].old == change.new \
        and previous[0][1].new == change.old and previous[0][0] - position <= RELAND_COMMITS


def _exact_hit(head: FilePatch, path: bytes, position: int, change: Change, before: int | None,
               patch: FilePatch | None, built: bool) -> PathHit:
    if head.change.new is None:
        kind = "deleted-added"
    elif change.new is None and before is None:
        kind = "resurrected"
    else:
        kind = "rollback"
    mode_only = _mode_only(change) or _mode_only(head.change)  # HEAD's mode alone takes no line back either
    text = patch is not None and patch.text and not _gitlink(change) and not mode_only
    lines = patch.lines if patch is not None and not mode_only else 0
    # a file deleted or brought back is no cosmetic change, but a built one is rebuilt from the sources either
    # way (bagisto's content-hashed bundles, deleted and written anew by every build); a lock file's patch is never read
    quiet = "built or scratch file" if built else "" if kind != "rollback" else MODE_ONLY if mode_only else \
        _weak_change(patch) if patch is not None else ""
    additions = text and patch is not None and all(not h.removed for h in patch.hunks)
    undone = tuple(line for h in patch.hunks for line in h.added + h.removed) if text and patch is not None else ()
    replaced = tuple(line for h in patch.hunks for line in h.removed) if text and patch is not None else ()
    return PathHit(position, path, kind, lines, lines, text, before, quiet, additions_only=additions,
                   text_undone=undone, text_replaced=replaced)


MODE_ONLY = "its file mode only, the content never changed"
# a catalog entry with no text (`showing: ''`, `"title": "",`) or a key opening a group of them (`record:`):
# a translation platform adds them for untranslated strings and its clean-up hook takes them out again
# (archivesspace's Weblate `Remove blank strings`), squeezed as the patches hold them
EMPTY_ENTRY = lazy(rb"[\"']?[\w.@-]+[\"']?[:=](''|\"\")?,?")
EMPTY_TRANSLATIONS = "empty translations only (entries with no text yet)"
TRANSLATIONS_BLANKED = "translations taken out only (their units left to translate again)"
_TRANSLATION_UNIT = (b"<translation", b"<target")  # (squeezed, the unit's state left out)


def _mode_only(change: Change) -> bool:
    """A change of a file's mode alone (discord.js' scripts losing their executable bit, set again by `fix
    executable file permissions`): no line of work to lose, whichever mode comes back."""
    return change.old is not None and change.new is not None and change.old.oid == change.new.oid and \
        change.old.mode != change.new.mode and not change.new.is_gitlink


def _formatting_only(path: bytes) -> str:
    """Why a change of formatting alone is weak: in a gettext catalog, what its tools write is left out too."""
    return CATALOG_TOOLS_ONLY if path.endswith(CATALOGS) else "formatting only"


def _weak_change(patch: FilePatch) -> str:
    """Why a commit's change to a file loses nothing when undone whole, if it does: whitespace, punctuation
    and lint-silencing comments (`# noqa: E721`), a documentation file's lines only reordered (in code,
    order is meaning: an initialization moved before its use), or import lines only added or only taken out (a tool's
    prune, pycln's or ruff's, and an unused import brought back, a name or two of a `from` import included).
    An import replaced (`Fix the build: speeling error`) is a fix like any other."""
    if not patch.text or not patch.hunks:
        return ""
    if all(h.cosmetic or lint_markers_only(h) for h in patch.hunks):
        return _formatting_only(patch.change.path)
    if all(h.cosmetic or modifiers_reordered(h) for h in patch.hunks):
        return "modifiers reordered only"
    if debug_only([line for h in patch.hunks for line in h.removed + h.added]):
        return "debug output only"
    if translation_catalog(patch.change.path) and \
            all(EMPTY_ENTRY.fullmatch(line) for h in patch.hunks for line in h.removed + h.added):
        return EMPTY_TRANSLATIONS
    if xml_catalog(patch.change.path) and _translations_blanked(patch):
        return TRANSLATIONS_BLANKED
    if prose(patch.change.path) and reordered_only(patch):  # fastify's maintainers list sorted again
        return "lines reordered only"
    one_sided = all(not h.removed or not h.added or names_pruned(h.removed, h.added) for h in patch.hunks)
    # (a document's import lines are an example's, for readers to copy: `Add missing import` fixes it)
    return "imports only" if one_sided and not prose(patch.change.path) and \
        imports_only([line for h in patch.hunks for line in h.removed + h.added]) else ""


def _translations_blanked(patch: FilePatch) -> bool:
    """Whether PATCH, an XML catalog's, only takes translations out, writing nothing new: Qt's lupdate leaving
    a unit to translate again when its source text changed (lxqt-panel's `Translation update`, after `When a
    device is connected :` lost its space). Putting them back is a translator filling the units in, no work lost."""
    live = [h for h in patch.hunks if not h.cosmetic]
    return bool(live) and all(_blanks(h.added, h.removed) for h in live)


def _blanks(added: tuple[bytes, ...], removed: tuple[bytes, ...]) -> bool:
    """Whether a catalog hunk (squeezed, its empty units left out) takes translations out and writes nothing new."""
    taken_out = Counter(removed) - Counter(added)
    return bool(taken_out) and not Counter(added) - Counter(removed) and \
        all(line.startswith(_TRANSLATION_UNIT) for line in taken_out)


def _gitlink(change: Change) -> bool:
    return any(state is not None and state.is_gitlink for state in (change.old, change.new))


def _inverse(head: FilePatch, path: bytes, entries: list[tuple[int, Change]], patch_of: PatchOf,
             added_anywhere: Written, relands: Callable[[int, int], bool],
             dropped: Callable[[int], Mapping[bytes, str]] | None = None,
             written_before: Callable[[int, int], bool] = lambda position, older: False) -> list[PathHit]:
    """Candidates some of whose hunks HEAD undoes; a complete undo is a rollback seen through whitespace."""
    patches = [(p, found) for p, _ in entries if (found := patch_of(p, path)) is not None and found.text]
    undos = judge(head, patches, added_anywhere, relands, dropped, placed=len(patches) == len(entries),
                  written_before=written_before)
    if xml_catalog(path):  # translations a tool left to do again, filled in
        undos = _units_dropped(undos, lambda _, u: _blanks(u.added, u.removed))
    if path.endswith(CATALOGS):
        undos = _moves_undone(_confirmations_dropped(undos), dict(patches))
        # its header's fields: the tool that last wrote it (Weblate, pybabel), dates, the team (ihatemoney's
        # `X-Generator: Weblate 4.1-dev` dropped by each `pybabel update`): bookkeeping, no translation
        undos = _units_dropped(undos, lambda _, u: _header_fields(u.text))
    if path.endswith(b".ipynb"):
        # the kernel that last ran a notebook and its cells' run counts: each run writes its own (cleanlab's
        # `3.10.12` back to `3.10.8` by whoever ran the tutorial last), no content
        undos = _units_dropped(undos, lambda _, u: all(NOTEBOOK_STAMP.match(line) for line in u.text))
    # a stale copy of the file undoes every later change to it too; a deliberate edit keeps them
    changed = [p for p, patch in patches if any(not h.cosmetic and (h.removed or h.added) for h in patch.hunks)]
    hits = []
    by_position = dict(patches)
    carried = {p for undo in undos.values() for p in undo.carried}  # later edits taken out with the lines they edited
    for position, undo in undos.items():
        lines = sum(u.lines for u in undo.undone)
        kind = "rollback" if undo.complete else "inverse-hunk"
        kept = sum(1 for p in changed if p < position and p not in undos and p not in carried)
        quiet = _weak_change(by_position[position]) if undo.complete else \
            "debug output only" if debug_only([line for u in undo.undone for line in u.text]) else ""
        hits.append(PathHit(position, path, kind, lines, undo.lines, True, quiet=quiet, undo=undo,
                            normalized=undo.complete, newer_kept=kept))
    return hits


NOTEBOOK_STAMP = lazy(rb'^"(version|execution_count)":("[\w.+-]*"|\d+|null),?$')  # (squeezed)
PO_HEADER_FIELD = lazy(rb'"?(Project-Id-Version|Report-Msgid-Bugs-To|POT-Creation-Date|PO-Revision-Date|Last-Translator|'
                       rb'Language-Team|Language|MIME-Version|Content-Type|Content-Transfer-Encoding|Plural-Forms|'
                       rb'Generated-By|X-[\w-]+):')  # (squeezed)


def _header_fields(lines: tuple[bytes, ...]) -> bool:
    """Whether LINES (a catalog hunk's, squeezed) are its header's fields, with the wrapped rest of one (each
    field ends in an escaped newline: `"i-hate-money/pl/>\\n"`)."""
    return any(PO_HEADER_FIELD.match(line) for line in lines) and \
        all(PO_HEADER_FIELD.match(line) or line.endswith((b'\\n"', b"\\n")) for line in lines)


def _confirmations_dropped(undos: dict[int, PathUndo]) -> dict[int, PathUndo]:
    """A catalog's `#, fuzzy` flag that a template update set, taken out, with the translation msgmerge guessed
    under it: a translator confirming the entry (easyeffects' Weblate merges after each `Updated translation
    template`; picard's translators writing the new text over msgmerge's fuzzy match), no work undone. A flag
    put back on a confirmed entry stays evidence (penpot's stale squash), as does a translation taken out
    that no fuzzy flag marked as a guess."""
    def confirmed(added: tuple[bytes, ...]) -> bool:  # (an entry's source text and tool comments are left out)
        flags = [line for line in added if line.startswith(b"#,")]
        return bool(flags) and (len(flags) == len(added) or any(b"fuzzy" in line for line in flags) and
                                all(line in flags or not line.startswith(b"#") for line in added))

    def unflagged(line: bytes) -> bytes:  # (squeezed: `#,fuzzy,python-format`)
        return line.replace(b"fuzzy,", b"").replace(b",fuzzy", b"")

    def flag_cleared(u: HunkUndo) -> bool:  # `#, fuzzy, python-format` back to `#, python-format`
        return bool(u.added) and all(line.startswith(b"#,") for line in (*u.added, *u.removed)) and \
            sorted(map(unflagged, u.added)) == sorted(u.removed) != sorted(u.added)
    return _units_dropped(undos, lambda _, u: u.kind == "deleted" and confirmed(u.added) or
                          u.kind == "replaced" and flag_cleared(u))


def _moves_undone(undos: dict[int, PathUndo], patches: Mapping[int, FilePatch]) -> dict[int, PathUndo]:
    """A catalog's entries the commit only moved (each line it takes out it writes in another hunk: msgmerge
    re-sorting entries after the sources moved, easyeffects' `Small changes to the main window widgets layout`),
    moved back: a catalog's order is its tools', no translation undone."""
    moved = {position: Counter(line for h in patches[position].hunks for line in h.removed) &
             Counter(line for h in patches[position].hunks for line in h.added) for position in undos}
    return _units_dropped(undos, lambda position, u: bool(u.added or u.removed) and
                          all(moved[position][line] for line in (*u.added, *u.removed)))


def _units_dropped(undos: dict[int, PathUndo], drop: Callable[[int, HunkUndo], bool]) -> dict[int, PathUndo]:
    """UNDOS without the undone hunks DROP says undo nothing (by candidate position); a candidate left with none
    undoes nothing there."""
    kept = {}
    for position, undo in undos.items():
        undone = tuple(u for u in undo.undone if not drop(position, u))
        if len(undone) == len(undo.undone):
            kept[position] = undo
        elif undone:
            kept[position] = undo._replace(undone=undone, complete=False)
    return kept


def _versions_set_back(head: FilePatch, path: bytes, entries: list[tuple[int, Change]], patch_of: PatchOf,
                       hit: set[int]) -> list[PathHit]:
    """Version numbers HEAD sets back a minor version or more (`0.11-dev` to `0.10.1`, `checkout@v4` to
    `@v3`), against the candidate that moved each on: a stale file or a one-sided merge resolution writes
    an old value that need not equal any recorded line. Patch-level moves and dev markers are left to the
    exact signals, since releases write `8.3.dev` after `8.3.1` on purpose."""
    if _major_moved_on(head):  # the lower parts start again from zero
        return []
    # (a line HEAD writes again elsewhere in the file was moved, not set back: msgpack's reordered matrix)
    written = {line for hunk in head.hunks for line in hunk.added}
    # (nor is a caret range taken to its major's floor, `^15.7.2` to `^15.0.0`: widened, still met by the newer)
    gone = {line: (old, new) for hunk in head.hunks for line, now, old, new in version_pairs(hunk.removed, hunk.added)
            if set_back(old, new) and line not in written and not widens_to_major(now, old, new)}
    # a notebook's metadata records the kernel that last ran it, and jupytext's front matter the jupytext that
    # last saved it (plotly's docs): a tool's stamp, no requirement
    gone = {line: move for line, move in gone.items() if not line.startswith(b"jupytext_version:") and
            not (path.endswith(b".ipynb") and line.startswith(b'"version":'))}
    found: dict[int, list[tuple[bytes, tuple[str, str]]]] = {}
    for line, move in gone.items():
        for position, _ in entries:
            patch = patch_of(position, path)
            if patch is not None and any(line in h.added for h in patch.hunks):
                if position not in hit and _moved_on(patch, line):
                    found.setdefault(position, []).append((line, move))
                break
    return [PathHit(position, path, "version-set-back", len(moves), len(moves), True,
                    text_undone=tuple(line for line, _ in moves), moves=tuple(move for _, move in moves))
            for position, moves in found.items()]


def _major_moved_on(head: FilePatch) -> bool:
    """Whether HEAD moves a major version on in a line of its own (zencart's `PROJECT_VERSION_MAJOR` from '2' to
    '3', `PROJECT_VERSION_MINOR` from '2.1' to '0.0-dev' beside it): the same line but for a higher number."""
    for hunk in head.hunks:
        for old in (line for line in hunk.removed if MAJOR_KEY.search(line)):
            shape, before = NUMBER.sub(b"#", old), [int(n) for n in NUMBER.findall(old)]
            if any(NUMBER.sub(b"#", new) == shape and [int(n) for n in NUMBER.findall(new)] > before for new in hunk.added):
                return True
    return False


MAJOR_KEY = lazy(rb"(?i)major")
NUMBER = lazy(rb"\d+")


def _moved_on(patch: FilePatch, line: bytes) -> bool:
    """Whether PATCH wrote LINE over the same line with a lower minor version: it moved the version on."""
    return any(written == line and set_back(new, old) for h in patch.hunks if line in h.added
               for _, written, old, new in version_pairs(h.removed, h.added))


def _added_lines(landing: Iterable[FilePatch], side: str = "added") -> Counter[bytes]:
    """The lines the LANDING patches add (or, with SIDE "removed", take out), counted."""
    found: Counter[bytes] = Counter()
    for patch in landing:
        for hunk in patch.hunks:
            found.update(getattr(hunk, side))
    return found


def moved_away(deleted: Change, landing: Sequence[FilePatch]) -> bool:
    """A file HEAD deletes whose content it adds elsewhere, as is or mostly (a move, with edits, that
    git's rename detection did not pair: audit reads without it)."""
    if deleted.old is None:
        return False
    if any(p.change.old is None and p.change.new is not None and p.change.new.oid == deleted.old.oid
           for p in landing):
        return True
    gone = next((p for p in landing if p.change == deleted), None)
    if gone is None or not gone.text:
        return False
    lines = [line for hunk in gone.hunks for line in hunk.removed]
    others = [p for p in landing if p is not gone]
    return moved(lines, _added_lines(others)) or (prose(deleted.path) and _rewrapped_into(lines, others))


def _rewrapped_into(lines: list[bytes], landing: Sequence[FilePatch]) -> bool:
    """Most of a prose file's LINES found inside the lines LANDING adds, read as one text: its text moved, wrapped
    anew (envoy gateway's wrapped release-note fragments, each one line of `v1.9.0.yaml`)."""
    text = [line for line in lines if len(line) >= TEXT_LINE]
    if not text:
        return False
    written = b"".join(line for p in landing if prose(p.change.path) or p.change.path.endswith((b".yaml", b".yml"))
                         for h in p.hunks for line in h.added)
    return sum(1 for line in text if line in written) >= MOVED_SHARE * len(text)
