"""The landing change: what merging or squashing HEAD into BASE would change in BASE's tree."""

from __future__ import annotations

from leverguard import git
from leverguard.errors import GitError
from leverguard.records import NamedTuple
from leverguard.revert.model import Change
from leverguard.revert.patch import FilePatch, parse_changes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    SizeOf = Callable[[str], "int | None"]  # an object id's size, None when missing
    Listed = Callable[[list[FilePatch], str, bool], None]  # (the raw records, merge base, approximate)

MAX_RENAME_PATHS = 2000  # more added and deleted paths than this: no rename pairing (git's own limit is 1000)
SHALLOW_ADVICE = "fetch the full history: git fetch --unshallow (in GitHub Actions: actions/checkout with fetch-depth: 0)"


class Landing(NamedTuple):
    """BASE, HEAD, their merge base, and the tree change landing HEAD would make to BASE."""

    base: str
    head: str
    merge_base: str
    approximate: bool  # merge-tree conflicted: the three-dot diff stands in for the landing
    empty: bool  # HEAD is already contained in BASE: nothing would land
    changes: tuple[Change, ...]  # per path, renames as a deletion and an addition
    patches: tuple[FilePatch, ...] = ()  # the same change with its `-U0` hunks, renames paired


def split_range(text: str) -> tuple[str, str]:
    """`BASE..HEAD` or `BASE...HEAD` (both mean: what landing HEAD on BASE changes)."""
    for separator in ("...", ".."):
        if separator in text:
            base, _, head = text.partition(separator)
            return base or "HEAD", head or "HEAD"
    raise GitError(f"not a range: {text!r}: give BASE..HEAD, e.g. origin/main..HEAD")


def resolved(repo: str, base_rev: str, head_rev: str, base: str, head: str,
             isolation: tuple[str, ...] = (), size_of: SizeOf | None = None,
             merge_bases: list[str] | None = None, listed: Listed | None = None) -> Landing:
    """The landing change of HEAD onto BASE, revisions already resolved to commit ids (the names are for errors);
    a clear error for unrelated or shallow histories.

    SIZE_OF (object id -> size, e.g. through the check's running object reader) lets the change
    leave added and deleted blobs over the `core.bigFileThreshold` in ISOLATION unread. MERGE_BASES,
    when the caller already has them (`git.rev_parse_range`), spare a `merge-base` call. LISTED is
    told the raw records (read first with SIZE_OF) before git diffs the change, so that the caller can
    start work that needs only the paths, e.g. the candidates' patches."""
    bases = git.merge_bases(base, head, repo) if merge_bases is None else merge_bases
    if not bases:
        if git.is_shallow(repo):
            raise GitError(f"{base_rev} and {head_rev} share no commit in this shallow clone: {SHALLOW_ADVICE}")
        raise GitError(f"{base_rev} and {head_rev} have unrelated histories: check the range (BASE..HEAD)")
    merge_base = bases[0]
    if merge_base == head:
        return Landing(base, head, merge_base, False, True, ())
    if merge_base == base:  # fast-forward: a merge or squash commit on top of BASE, or a PR that is current
        return Landing(base, head, merge_base, False, False,
                       *_diff(repo, base, head, isolation, size_of, _told(listed, merge_base, False)))
    tree = git.merge_tree(base, head, repo)
    if tree is None:  # conflicts: the branch's own change stands in for what landing would do
        return Landing(base, head, merge_base, True, False,
                       *_diff(repo, merge_base, head, isolation, size_of, _told(listed, merge_base, True)))
    return Landing(base, head, merge_base, False, False,
                   *_diff(repo, base, tree, isolation, size_of, _told(listed, merge_base, False)))


def _told(listed: Listed | None, merge_base: str, approximate: bool) -> Callable[[list[FilePatch]], None] | None:
    return None if listed is None else lambda raw: listed(raw, merge_base, approximate)


def _diff(repo: str, old: str, new: str, isolation: tuple[str, ...], size_of: SizeOf | None = None,
          listed: Callable[[list[FilePatch]], None] | None = None) -> tuple[tuple[Change, ...], tuple[FilePatch, ...]]:
    """`diff-tree --raw -p -U0`: the paths changed and their hunks; moves paired by git (`-M`) in a second
    call over the added and deleted paths only, when there are both (rename detection costs every check).

    git loads an added or deleted blob whole even when `core.bigFileThreshold` makes it binary (its
    fast path needs a file on both sides): with SIZE_OF, the `--raw` records come first, and the
    patch leaves out the added and deleted blobs over the threshold, which keep their raw record
    (issue #11: a PR adding a 200 MB model cost its size in memory)."""
    large: set[bytes] = set()
    if size_of is not None:
        limit = git.threshold(isolation)
        raw = parse_changes(git.change_patch(old, new, repo, isolation=isolation, patch=False))
        large = {p.change.path for p in raw if (p.change.old is None) != (p.change.new is None)
                 and _blob_size(p.change, size_of) > limit}
        if listed is not None:
            listed(raw)
    patches = tuple(parse_changes(git.change_patch(old, new, repo, isolation=isolation, excludes=sorted(large))))
    if large:  # in git's order, each large path with its raw record alone
        read = {p.change.path: p for p in patches}
        patches = tuple(p if p.change.path in large else read.get(p.change.path, p) for p in raw)
    added = [p.change.path for p in patches if p.change.added and p.change.path not in large]
    deleted = [p.change.path for p in patches if p.change.deleted and p.change.path not in large]
    if added and deleted and len(added) + len(deleted) <= MAX_RENAME_PATHS:
        paired = parse_changes(git.change_patch(old, new, repo, renames=True, isolation=isolation,
                                                paths=added + deleted))
        moved = {path for p in paired if p.renamed_from is not None for path in (p.renamed_from, p.change.path)}
        if moved:
            patches = tuple([p for p in patches if p.change.path not in moved] +
                            [p for p in paired if p.renamed_from is not None])
    return tuple(split_renames(patches)), patches


def _blob_size(change: Change, size_of: SizeOf) -> int:
    state = change.new or change.old
    if state is None or not state.is_blob:
        return 0
    return size_of(state.oid) or 0


def split_renames(patches: tuple[FilePatch, ...]) -> list[Change]:
    """Per-path changes: a rename is its source deleted and its target added."""
    changes = []
    for patch in patches:
        change = patch.change
        if patch.renamed_from is not None:
            changes.append(Change(patch.renamed_from, change.old, None))
            changes.append(Change(change.path, None, change.new))
        else:
            changes.append(change)
    return changes
