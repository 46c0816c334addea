"""The landing change: what merging or squashing HEAD into BASE would change in BASE's tree."""

from __future__ import annotations

from typing import NamedTuple

from leverguard import git
from leverguard.errors import GitError
from leverguard.revert.model import Change
from leverguard.revert.patch import FilePatch, parse_changes

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


def compute(repo: str, base_rev: str, head_rev: str) -> Landing:
    """The landing change of HEAD onto BASE; a clear error for unrelated or shallow histories."""
    base, head = git.rev_parse_all([base_rev, head_rev], repo)
    return resolved(repo, base_rev, head_rev, base, head)


def resolved(repo: str, base_rev: str, head_rev: str, base: str, head: str,
             isolation: tuple[str, ...] = ()) -> Landing:
    """`compute` for revisions already resolved to the commit ids BASE and HEAD (the names are for errors)."""
    bases = git.merge_bases(base, head, repo)
    if not bases:
        if git.is_shallow(repo):
            raise GitError(f"{base_rev} and {head_rev} share no commit in this shallow clone: {SHALLOW_ADVICE}")
        raise GitError(f"{base_rev} and {head_rev} have unrelated histories: check the range (BASE..HEAD)")
    merge_base = bases[0]
    if merge_base == head:
        return Landing(base, head, merge_base, False, True, ())
    if merge_base == base:  # fast-forward: a merge or squash commit on top of BASE, or a PR that is current
        return Landing(base, head, merge_base, False, False, *_diff(repo, base, head, isolation))
    tree = git.merge_tree(base, head, repo)
    if tree is None:  # conflicts: the branch's own change stands in for what landing would do
        return Landing(base, head, merge_base, True, False, *_diff(repo, merge_base, head, isolation))
    return Landing(base, head, merge_base, False, False, *_diff(repo, base, tree, isolation))


def _diff(repo: str, old: str, new: str,
          isolation: tuple[str, ...]) -> tuple[tuple[Change, ...], tuple[FilePatch, ...]]:
    """`diff-tree --raw -p -U0`: the paths changed and their hunks; moves paired by git (`-M`) in a second
    call over the added and deleted paths only, when there are both (rename detection costs every check)."""
    patches = tuple(parse_changes(git.change_patch(old, new, repo, isolation=isolation)))
    added = [p.change.path for p in patches if p.change.added]
    deleted = [p.change.path for p in patches if p.change.deleted]
    if added and deleted and len(added) + len(deleted) <= MAX_RENAME_PATHS:
        paired = parse_changes(git.change_patch(old, new, repo, renames=True, isolation=isolation,
                                                paths=added + deleted))
        moved = {path for p in paired if p.renamed_from is not None for path in (p.renamed_from, p.change.path)}
        if moved:
            patches = tuple([p for p in patches if p.change.path not in moved] +
                            [p for p in paired if p.renamed_from is not None])
    return tuple(split_renames(patches)), patches


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
