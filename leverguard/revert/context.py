"""Per-run state shared by check-revert and audit: object reader, caches, exclusion rules."""

from __future__ import annotations

from typing import Callable, Sequence

from leverguard import git
from leverguard.revert.background import Background
from leverguard.revert.lines import LineCache, changed_lines
from leverguard.revert.model import Commit

MAX_COUNTED_FILES = 400  # candidates touching more files: count their lines on undone paths only


class Context:
    """Reader and caches that live for one command run (audit reuses them across commits).

    A plain slotted class, not a dataclass: dataclasses generate their methods through `exec`
    at import, a cost every CI run pays.
    """

    __slots__ = ("repo", "reader", "cache", "reported", "line_level", "_touched", "_inner", "_counting")

    def __init__(self, repo: str, reader: git.ObjectReader, cache: LineCache,
                 reported: Callable[[bytes], bool], line_level: Callable[[bytes], bool]) -> None:
        self.repo = repo
        self.reader = reader
        self.cache = cache
        self.reported = reported  # False for excluded and generated paths
        self.line_level = line_level  # False for `-diff` / binary-attributed paths
        self._touched: dict[str, int] = {}
        self._inner: dict[str, list[tuple[str, str, str]]] = {}
        self._counting: Background[dict[str, int]] | None = None

    def count_ahead(self, commits: Sequence[Commit]) -> None:
        """Start `touched_lines` of COMMITS on a thread, while the caller reads and compares blobs.

        check-revert passes the few candidates sharing a path with the change: the ones that
        can be undone. A failure there is dropped; `touched_lines` then redoes it and reports it.
        """
        wanted = [c for c in commits if c.sha not in self._touched]
        if wanted and self._counting is None:
            self._counting = Background(lambda: {c.sha: _count(c, self.repo) for c in wanted})

    def settle(self) -> None:
        """Wait for the lines counted ahead, and keep them."""
        if self._counting is not None:
            counted = self._counting.result_or_none() or {}
            self._counting = None
            for sha, total in counted.items():
                self._touched.setdefault(sha, total)

    def touched_lines(self, commit: Commit) -> int:
        """The commit's non-trivial changed lines, from one `-U0` patch (cached by commit).

        A patch costs what the commit changed, where reading both blobs of every file would
        cost what the files hold: a 1-file PR undoing part of a 200-file commit stays cheap.
        """
        self.settle()
        if commit.sha not in self._touched:
            self._touched[commit.sha] = _count(commit, self.repo)
        return self._touched[commit.sha]

    def inner(self, commit: Commit) -> list[tuple[str, str, str]]:
        """(sha, email, name) of the commits a merge brought in; the commit itself otherwise."""
        if commit.sha not in self._inner:
            if commit.is_merge:
                records = git.range_log(f"{commit.parents[0]}..{commit.sha}", "%H%x1f%ae%x1f%an", self.repo)
                rows = [tuple(r.decode("utf-8", "replace").strip().split("\x1f")) for r in records]
                # the merge itself is left out: its author merged the work, did not write it
                self._inner[commit.sha] = [(r[0], r[1].lower(), r[2]) for r in rows
                                           if len(r) == 3 and r[0] != commit.sha]
            else:
                self._inner[commit.sha] = [(commit.sha, commit.author_email, commit.author_name)]
        return self._inner[commit.sha]

    def folder_existed(self, commit: Commit, folder: bytes) -> bool:
        """Whether FOLDER existed in the commit's first parent (a module folder the commit created)."""
        if not commit.parents:
            return False
        if b"\n" in folder:  # cat-file's request protocol is line-based: assume it existed (no warning)
            return True
        found = self.reader.read(f"{commit.parents[0]}:{git.fsdecode(folder)}")
        return found is not None


def _count(commit: Commit, repo: str) -> int:
    """The commit's non-trivial changed lines (0 for a root or a commit above MAX_COUNTED_FILES)."""
    if commit.parents and len(commit.changes) <= MAX_COUNTED_FILES:
        return changed_lines(git.commit_patch(commit.parents[0], commit.sha, repo))
    return 0
