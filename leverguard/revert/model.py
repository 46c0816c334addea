"""Immutable records the revert engine passes around: tree entries, changes, commits."""

from __future__ import annotations

from leverguard.records import NamedTuple

ABSENT_MODE = "000000"
GITLINK_MODE = "160000"


class State(NamedTuple):
    """One path's entry in a tree: its mode and object id (a gitlink's id is the submodule commit)."""

    mode: str
    oid: str

    @property
    def is_gitlink(self) -> bool:
        return self.mode == GITLINK_MODE

    @property
    def is_blob(self) -> bool:
        return self.mode.startswith("10") or self.mode == "120000"


class Change(NamedTuple):
    """A path's change between two trees; `None` stands for an absent path."""

    path: bytes
    old: State | None
    new: State | None

    @property
    def added(self) -> bool:
        return self.old is None and self.new is not None

    @property
    def deleted(self) -> bool:
        return self.old is not None and self.new is None


class Commit(NamedTuple):
    """A first-parent commit with its change against its first parent."""

    sha: str
    parents: tuple[str, ...]
    author_name: str
    author_email: str
    time: int
    subject: str
    body: str
    changes: tuple[Change, ...]
    authored: int = 0  # its author date: a rebase or a cherry-pick keeps it

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1

    @property
    def short(self) -> str:
        return self.sha[:7]


class RangeCommit(NamedTuple):
    """A commit of the checked change. A merge's author is whoever pressed the button, not who wrote the
    work: its e-mail is empty."""

    sha: str
    email: str
    name: str
    message: str
    authored: int  # its author date: a rebase or a cherry-pick keeps it
    parents: tuple[str, ...] = ()


def parse_raw(meta: bytes, path: bytes) -> Change:
    """One `--raw` record (`:old_mode new_mode old_oid new_oid STATUS`, path) as a Change."""
    old_mode, new_mode, old_oid, new_oid, _status = meta.lstrip(b"\n:").decode().split(" ")
    old = None if old_mode == ABSENT_MODE else State(old_mode, old_oid)
    new = None if new_mode == ABSENT_MODE else State(new_mode, new_oid)
    return Change(path, old, new)


def display(path: bytes) -> str:
    """A path for people and JSON: non-UTF-8 bytes shown as `\\xNN` escapes."""
    return path.decode("utf-8", "backslashreplace")
