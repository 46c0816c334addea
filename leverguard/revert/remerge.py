"""Merge resolutions: the lines a merge's recorded tree dropped from git's own automatic re-merge.

A "merge main into the branch" whose conflict was resolved by taking one side throws the other
side's lines away, and the landing then carries the loss (REVERTS.md, signal 5: about a third of
the real incidents). `git log --diff-merges=remerge` re-merges each merge's parents and diffs that
against what was recorded: the lines it removes are exactly the ones the resolution dropped.
Read once per checked range, and only when a hunk asks.
"""

from __future__ import annotations


from leverguard import git
from leverguard.revert.patch import parse_commits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

MARKERS = (b"<<<<<<<", b">>>>>>>", b"|||||||")  # conflict markers git writes (normalized: no spaces)


class Resolutions:
    """What the merges of one range dropped, per path: normalized line -> the merge that dropped it."""

    def __init__(self, repo: str, rev_range: str, isolation: tuple[str, ...] = ()) -> None:
        self._repo, self._range, self._isolation = repo, rev_range, isolation
        self._dropped: dict[bytes, dict[bytes, str]] | None = None

    def dropped(self, path: bytes) -> Mapping[bytes, str]:
        if self._dropped is None:
            self._dropped = self._read()
        return self._dropped.get(path, {})

    def _read(self) -> dict[bytes, dict[bytes, str]]:
        found: dict[bytes, dict[bytes, str]] = {}
        for header, files in parse_commits(git.remerge_patches(self._range, self._repo, self._isolation)):
            merge = header.decode("ascii", "replace").strip()
            for patch in files:
                lines = found.setdefault(patch.change.path, {})
                for hunk in patch.hunks:
                    for line in hunk.removed:
                        if not line.startswith(MARKERS):
                            lines.setdefault(line, merge)
        return found
