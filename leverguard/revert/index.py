"""A path index over a newest-first list of first-parent commits, for window queries."""

from __future__ import annotations

from bisect import bisect_left


from leverguard.revert.model import Change, Commit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence


class PathIndex:
    """path -> positions of the commits that changed it; position 0 is the newest commit.

    Parentless commits are not indexed: an initial import (or the boundary of a shallow clone)
    lists every file as added, and cleaning up scaffolding is not a revert.
    """

    def __init__(self, commits: Sequence[Commit]) -> None:
        self.commits = list(commits)
        self._by_path: dict[bytes, list[tuple[int, Change]]] = {}
        self._positions = {commit.sha: position for position, commit in enumerate(self.commits)}
        for position, commit in enumerate(commits):
            if not commit.parents:  # a root or a shallow boundary: its "change" is the whole tree
                continue
            for change in commit.changes:
                self._by_path.setdefault(change.path, []).append((position, change))

    def append(self, commit: Commit) -> None:
        """Index the next older commit (audit reads its history as a stream)."""
        position = len(self.commits)
        self.commits.append(commit)
        self._positions[commit.sha] = position
        if commit.parents:
            for change in commit.changes:
                self._by_path.setdefault(change.path, []).append((position, change))

    def position(self, sha: str) -> int | None:
        """Where the commit SHA stands (0 the newest), None when it is not one of them."""
        return self._positions.get(sha)

    def touching(self, path: bytes, lo: int, hi: int) -> list[tuple[int, Change]]:
        """(position, change) of the commits in positions [lo, hi) that changed PATH, newest first."""
        entries = self._by_path.get(path)
        if not entries:
            return []
        start = bisect_left(entries, lo, key=lambda entry: entry[0])
        stop = bisect_left(entries, hi, key=lambda entry: entry[0])
        return entries[start:stop]
