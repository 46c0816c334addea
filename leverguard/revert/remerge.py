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
# what the re-merge says of a file one side deleted and the other edited; the edited copy stays in its tree
MODIFY_DELETE = b"\nremerge CONFLICT (modify/delete): "


class Resolutions:
    """What the merges of one range dropped, per path: normalized line -> the merge that dropped it."""

    def __init__(self, repo: str, rev_range: str, isolation: tuple[str, ...] = ()) -> None:
        self._repo, self._range, self._isolation = repo, rev_range, isolation
        self._dropped: dict[bytes, dict[bytes, str]] | None = None
        self._kept: dict[bytes, str] = {}

    def dropped(self, path: bytes) -> Mapping[bytes, str]:
        if self._dropped is None:
            self._dropped = self._read()
        return self._dropped.get(path, {})

    def kept_deleted(self, path: bytes) -> str:
        """The merge whose re-merge found PATH deleted on one side and edited on the other (a modify/delete
        conflict), or "": a resolution that keeps the edited copy brings back a file the other side deleted."""
        if self._dropped is None:
            self._dropped = self._read()
        return self._kept.get(path, "")

    def _read(self) -> dict[bytes, dict[bytes, str]]:
        found: dict[bytes, dict[bytes, str]] = {}
        data = git.remerge_patches(self._range, self._repo, self._isolation)
        for part in data.split(b"\x1e")[1:]:  # `remerge CONFLICT` lines sit in the patch text, one per path
            merge = part[:part.find(b"\0")].decode("ascii", "replace").strip()
            for line in part.split(MODIFY_DELETE)[1:]:
                path, deleted, _ = line.partition(b" deleted in ")
                if deleted:
                    self._kept.setdefault(path, merge)
        for header, files in parse_commits(data):
            merge = header.decode("ascii", "replace").strip()
            for patch in files:
                lines = found.setdefault(patch.change.path, {})
                for hunk in patch.hunks:
                    for line in hunk.removed:
                        if not line.startswith(MARKERS):
                            lines.setdefault(line, merge)
        return found
