"""Both sides of a change (BASE and HEAD or the index), read through one `cat-file --batch-command` process."""

from __future__ import annotations

from dataclasses import dataclass, field

from leverguard import git
from leverguard.levers.text import ctext
from leverguard.levers.model.quick import unread_note


@dataclass(frozen=True)
class Sides:
    root: str
    reader: git.ObjectReader
    base: str
    head: str | None  # None: the index
    limit: int = git.MAX_FILE_SIZE  # max_file_size: a blob over it is never read
    unread: dict[tuple[str | None, str], int] = field(default_factory=dict)  # (rev, path) -> size left unread

    def raw(self, rev: str | None, path: str) -> bytes | None:
        """The blob at REV, None when absent or over the limit (then recorded in `unread`)."""
        spec = git.blob_spec(rev, path)
        found = self.reader.info(spec)
        if found is None or found[0] != "blob":
            return None
        if found[1] > self.limit:
            self.unread[(rev, path)] = found[1]
            return None
        blob = self.reader.read(spec)
        return blob[1] if blob is not None and blob[0] == "blob" else None

    def text(self, rev: str | None, path: str) -> str | None:
        """The file at REV with comments and literals blanked (line numbers kept), None when absent."""
        data = self.raw(rev, path)
        return None if data is None else ctext.clean(ctext.decode(path, data)[0])

    def notes(self) -> list[str]:
        """One note per file a read left unread, whatever the side."""
        sizes: dict[str, int] = {}
        for (_, path), size in self.unread.items():
            sizes[path] = max(size, sizes.get(path, 0))
        return [unread_note(path, size, self.limit) for path, size in sorted(sizes.items())]
