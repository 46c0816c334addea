"""A `git diff -U0` patch as changed line numbers per file, on both sides."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from leverguard import git

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass
class FileChange:
    """Lines removed (numbered as in BASE) and added (numbered as in HEAD) in one file."""

    old_path: str | None  # None: the file is new
    new_path: str | None  # None: the file is deleted
    removed: dict[int, str] = field(default_factory=dict)
    added: dict[int, str] = field(default_factory=dict)
    size: int = 0  # over max_file_size: its larger side's size; no line of it was read

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""


def _path(raw: bytes) -> str | None:
    raw = raw.rstrip(b"\n").split(b"\t")[0]
    if raw == b"/dev/null":
        return None
    if raw.startswith(b'"'):  # core.quotePath quoting of unusual names
        raw = raw[1:-1].decode("unicode_escape").encode("latin-1")
    return git.fsdecode(raw[2:])


def parse(patch: bytes) -> list[FileChange]:
    """Parse the output of `git diff -U0 --no-renames` (see git.diff_patch)."""
    changes: list[FileChange] = []
    current: FileChange | None = None
    old_line = new_line = 0
    in_hunk = False
    for raw in patch.split(b"\n"):
        if raw.startswith(b"diff --git "):
            current, in_hunk = FileChange(None, None), False
            changes.append(current)
        elif current is None:
            continue
        elif raw.startswith(b"--- ") and not in_hunk:
            current.old_path = _path(raw[4:])
        elif raw.startswith(b"+++ ") and not in_hunk:
            current.new_path = _path(raw[4:])
        elif raw.startswith(b"@@"):
            match = _HUNK.match(raw)
            if match:
                old_line, new_line, in_hunk = int(match.group(1)), int(match.group(3)), True
        elif not in_hunk:
            continue
        elif raw.startswith(b"-"):
            current.removed[old_line] = git.fsdecode(raw[1:]).rstrip("\r")
            old_line += 1
        elif raw.startswith(b"+"):
            current.added[new_line] = git.fsdecode(raw[1:]).rstrip("\r")
            new_line += 1
    return [c for c in changes if c.old_path or c.new_path]


def changes(repo: str, base: str, head: str | None, limit: int = git.MAX_FILE_SIZE,
            reader: git.ObjectReader | None = None) -> list[FileChange]:
    """Every changed file with its changed lines, read as text whatever the diff attributes say.

    A file with a side over LIMIT bytes (`max_file_size`) is compared by id and size only (issue #11:
    a 200 MB binary cost 16.6 s and 966 MB, and a 200 MB lever source is no better): it is listed
    with no lines and its size, and left out of the text patch. Callers say so; none reads it.
    The sizes come from READER, the run's object reader, when there is one.
    """
    large = _large_paths(repo, base, head, limit, reader)
    found = parse(git.diff_patch(base, head, git.excluding(large), repo))  # only excludes: everything else
    for path, (status, size) in sorted(large.items()):
        found.append(FileChange(None if status == "A" else path, None if status == "D" else path, size=size))
    return found


def _large_paths(repo: str, base: str, head: str | None, limit: int,
                 reader: git.ObjectReader | None) -> dict[str, tuple[str, int]]:
    """path -> (status letter, larger size) of each changed file with a side over LIMIT."""
    rows = git.diff_raw(base, head, repo)
    ids = sorted({oid for old, new, _, _ in rows for oid in (old, new) if oid.strip("0")})
    sizes = reader.sizes(ids) if reader is not None else git.object_sizes(ids, repo)
    large = {}
    for old, new, status, path in rows:
        size = max(sizes.get(oid, ("", 0))[1] for oid in (old, new))
        if size > limit:
            large[path] = (status, size)
    return large
