"""Both sides of a change (BASE and HEAD or the index), read through one `cat-file --batch` process."""

from __future__ import annotations

from dataclasses import dataclass

from leverguard import git
from leverguard.levers import ctext


@dataclass(frozen=True)
class Sides:
    root: str
    reader: git.ObjectReader
    base: str
    head: str | None  # None: the index

    def raw(self, rev: str | None, path: str) -> bytes | None:
        blob = self.reader.read(git.blob_spec(rev, path))
        return blob[1] if blob is not None and blob[0] == "blob" else None

    def text(self, rev: str | None, path: str) -> str | None:
        """The file at REV with comments and literals blanked (line numbers kept), None when absent."""
        data = self.raw(rev, path)
        return None if data is None else ctext.clean(ctext.decode(path, data)[0])
