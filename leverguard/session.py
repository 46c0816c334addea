"""One repository session: where the repository is, one object reader, its configuration snapshots.

Every engine (check-revert, audit and the pre-push guard; the lever engine and its hooks; the
message guard) and the bot take a Session instead of a path string: the repository is located once (one `git rev-parse`, which also resolves the
revisions asked first), objects come through one long-lived `git cat-file --batch-command`,
and "the configuration at BASE" is one reading per commit, the same for every guard that runs
on a change (a change can never switch its own check off).

    with Session(repo) as session:
        base_sha, head_sha = session.resolve([base, head])
        report = check_range(session, base_sha, head_sha, options)
"""

from __future__ import annotations

from leverguard import git

TYPE_CHECKING = False  # the commit-msg hook imports this module: typing costs ~5 ms of its start-up
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Sequence

    from leverguard.config import Config


class Session:
    """A repository (a working tree, a bare mirror, the bot's blobless cache) and what is read from it."""

    def __init__(self, repo: str = ".") -> None:
        self.repo = repo
        self._where: git.Repository | None = None
        self._reader: git.ObjectReader | None = None
        self._committed: dict[str, Config] = {}
        self._ranges: dict[tuple[str, str], tuple[str, str, list[str] | None]] = {}

    def resolve(self, revs: Sequence[str]) -> list[str]:
        """Full commit ids of REVS; the first call locates the repository in the same git process."""
        if self._where is not None:
            return git.rev_parse_all(revs, self.repo)
        self._where, shas = git.rev_parse_repository(revs, self.repo)
        return shas

    def resolve_range(self, base: str, head: str) -> tuple[str, str, list[str] | None]:
        """`resolve([BASE, HEAD])` and, when the same git process could tell, their merge bases (None: ask);
        asked again, the same answer without a git call."""
        if (base, head) not in self._ranges:
            if self._where is not None:
                base_sha, head_sha = git.rev_parse_all([base, head], self.repo)
                self._ranges[(base, head)] = base_sha, head_sha, None
            else:
                self._where, shas, bases = git.rev_parse_range(base, head, self.repo)
                self._ranges[(base, head)] = shas[0], shas[1], bases
        return self._ranges[(base, head)]

    @property
    def where(self) -> git.Repository:
        if self._where is None:
            self.resolve([])
        assert self._where is not None
        return self._where

    @property
    def work_git_dir(self) -> str | None:
        """The git dir of a repository with a working tree, None for a bare one: where caches may go and
        what hides the working tree's `.gitattributes` from patches (a bare one has none)."""
        return None if self.where.bare else self.where.git_dir

    @property
    def reader(self) -> git.ObjectReader:
        """The session's object reader, started on first use (a run that reads no object starts no
        `cat-file`) and stopped with the session."""
        if self._reader is None:
            self._reader = git.ObjectReader(self.repo)
        return self._reader

    def config_at(self, commit: str) -> Config:
        """The validated configuration committed at COMMIT (an id: one snapshot per commit)."""
        if commit not in self._committed:
            from leverguard import config

            self._committed[commit] = config.at_commit(self.reader.read, commit)
        return self._committed[commit]

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
