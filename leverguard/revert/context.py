"""Per-run state shared by check-revert and audit: object reader, path rules, per-commit facts."""

from __future__ import annotations

from leverguard import git
from leverguard.revert.model import Commit
from leverguard.revert.patch import FilePatch, parse_commits
from leverguard.revert.rules import Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable

MAX_COUNTED_FILES = 50  # candidates touching more files: their changed lines are not counted (touched_lines 0):
# the count is shown, never graded, and git would read every blob of a large commit for it


class Context:
    """Reader, rules and caches that live for one command run (audit reuses them across commits).

    A plain slotted class, not a dataclass: dataclasses generate their methods through `exec`
    at import, a cost every CI run pays.
    """

    __slots__ = ("repo", "reader", "rules", "isolation", "_touched", "_inner", "_subjects")

    def __init__(self, repo: str, reader: git.ObjectReader, rules: Rules, isolation: tuple[str, ...] = ()) -> None:
        self.repo = repo
        self.isolation = isolation  # git options that keep the working tree's attributes out of patches
        self.reader = reader
        self.rules = rules
        self._touched: dict[str, int] = {}
        self._inner: dict[str, list[tuple[str, str, str]]] = {}
        self._subjects: dict[str, list[str]] = {}

    def reported(self, path: bytes) -> bool:
        return self.rules.reported(path)

    def known_lines(self, sha: str, lines: int) -> None:
        """Record a commit's changed lines when its whole patch was already read (audit's stream)."""
        self._touched[sha] = lines

    def count_lines(self, commits: Iterable[Commit]) -> None:
        """The non-trivial changed lines of COMMITS, from one `diff-tree --stdin -p -U0` call."""
        wanted = [c for c in commits if c.sha not in self._touched]
        for commit in wanted:
            self._touched[commit.sha] = 0
        counted = [c.sha for c in wanted if c.parents and len(c.changes) <= MAX_COUNTED_FILES]
        for header, files in parse_commits(git.commit_patches(counted, (), self.repo, self.isolation)):
            sha = header.decode("ascii", "replace").strip()
            self._touched[sha] = self.reported_lines(files)

    def reported_lines(self, files: Iterable[FilePatch]) -> int:
        """A commit's non-trivial changed lines on the paths that are reported."""
        return sum(f.lines for f in files if self.rules.reported(f.change.path))

    def touched_lines(self, commit: Commit) -> int:
        if len(commit.changes) > MAX_COUNTED_FILES:  # audit's stream has them all: one rule for both commands
            return 0
        if commit.sha not in self._touched:
            self.count_lines([commit])
        return self._touched[commit.sha]

    def inner(self, commit: Commit) -> list[tuple[str, str, str]]:
        """(sha, email, name) of the commits a merge brought in; the commit itself otherwise."""
        if commit.sha not in self._inner:
            if commit.is_merge:
                records = git.range_log(f"{commit.parents[0]}..{commit.sha}", "%H%x1f%aE%x1f%aN%x1f%s", self.repo)
                rows = [tuple(r.decode("utf-8", "replace").strip().split("\x1f", 3)) for r in records]
                # the merge itself is left out: its author merged the work, did not write it
                rows = [r for r in rows if len(r) == 4 and r[0] != commit.sha]
                self._inner[commit.sha] = [(r[0], r[1].lower(), r[2]) for r in rows]
                self._subjects[commit.sha] = [r[3] for r in rows]
            else:
                self._inner[commit.sha] = [(commit.sha, commit.author_email, commit.author_name)]
                self._subjects[commit.sha] = [commit.subject]
        return self._inner[commit.sha]

    def inner_subjects(self, commit: Commit) -> list[str]:
        """The subjects of the commits a merge brought in (`inner`'s); the commit's own otherwise."""
        self.inner(commit)
        return self._subjects[commit.sha]

    def folder_existed(self, commit: Commit, folder: bytes) -> bool:
        """Whether FOLDER existed in the commit's first parent (a module folder the commit created)."""
        return bool(commit.parents) and self.exists(commit.parents[0], folder)

    def exists(self, revision: str, path: bytes) -> bool:
        """Whether PATH is in REVISION's tree."""
        if b"\n" in path:  # cat-file's request protocol is line-based: assume it is (no warning)
            return True
        return self.reader.read(f"{revision}:{git.fsdecode(path)}") is not None
