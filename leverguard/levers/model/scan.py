"""Scan a revision (or the index): one `git grep` pre-filter, then parse only the files that can matter."""

from __future__ import annotations

from typing import Mapping

from leverguard import git
from leverguard.config import Config
from leverguard.levers.model.lever import LeverNames, Scanned
from leverguard.levers.model.quick import unread_note
from leverguard.levers.text import cpp, pyscan
from leverguard.session import Session


def c_pathspecs(config: Config) -> list[str]:
    return [f"*{ext}" for ext in config.get("levers.source_extensions")]


def source_suffixes(config: Config) -> tuple[str, ...]:
    """The endings of every file the lever engine parses: C-family sources and Python."""
    return (*config.get("levers.source_extensions"), ".py")


def is_c_source(path: str, config: Config) -> bool:
    return path.endswith(tuple(config.get("levers.source_extensions")))


def scan_tree(session: Session, config: Config, rev: str | None, reuse: Scanned | None = None,
              changed: frozenset[str] = frozenset(), large: Mapping[str, int] | None = None) -> Scanned:
    """Parse every C-family and Python file at REV (None: the index) that mentions a lever-like token.

    With `reuse` (the other side of a diff), files outside `changed` are taken from it unparsed
    and only the changed files are read: the second side of `levers diff` needs no `git grep`.
    Sources over `max_file_size` (LARGE: those known already, path -> size) are never read, and
    never handed to `git grep`, which would load each one whole (issue #11): each gets a note.
    """
    repo, reader = session.repo, session.reader
    limit = config.get("max_file_size")
    scanned = Scanned(rev)
    if reuse is None:
        if large is None:
            large = git.large_files(rev, source_suffixes(config), limit, repo)
        _unread(scanned, large, limit)
        # Parse each file while git grep is still searching the rest of the tree.
        specs = [*c_pathspecs(config), "*.py", *git.excluding(large)]
        for path in git.grep_files_stream(LeverNames(config).grep_patterns(), rev, specs, repo):
            _read_into(scanned, config, reader, rev, path)
        return scanned
    # Unchanged files parse the same on both sides; changed ones are few, so parse them all.
    for path in [*reuse.cfiles, *reuse.pyfiles]:
        if path not in changed:
            _copy(reuse, scanned, path)
    scanned.unread.update((path, size) for path, size in reuse.unread.items() if path not in changed)
    fresh_large = {path: size for path, size in (large or {}).items() if path not in reuse.unread}
    _unread(scanned, fresh_large, limit)  # said once: those unread on the other side already were
    scanned.unread.update(large or {})
    fresh = sorted(p for p in changed if (p.endswith(".py") or is_c_source(p, config)) and p not in scanned.unread)
    for path in fresh:
        _read_into(scanned, config, reader, rev, path)
    return scanned


def _unread(scanned: Scanned, large: Mapping[str, int], limit: int) -> None:
    scanned.unread.update(large)
    scanned.notes.extend(unread_note(path, size, limit) for path, size in sorted(large.items()))


def _read_into(scanned: Scanned, config: Config, reader: git.ObjectReader, rev: str | None, path: str) -> None:
    blob = reader.read(git.blob_spec(rev, path))
    if blob is not None and blob[0] == "blob":
        _parse_into(scanned, config, path, blob[1])


def _parse_into(scanned: Scanned, config: Config, path: str, data: bytes) -> None:
    if path.endswith(".py"):
        scanned.pyfiles[path] = pyscan.scan(path, data)
    elif is_c_source(path, config):
        scanned.cfiles[path] = cpp.scan(path, data)


def _copy(source: Scanned, target: Scanned, path: str) -> None:
    if path in source.pyfiles:
        target.pyfiles[path] = source.pyfiles[path]
    elif path in source.cfiles:
        target.cfiles[path] = source.cfiles[path]
