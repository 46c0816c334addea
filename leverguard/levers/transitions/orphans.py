"""ORPHANED-FUNCTION: a function whose every call site sat in a branch the change deleted."""

from __future__ import annotations

from typing import Mapping

from leverguard import git
from leverguard.config import Config
from leverguard.levers.text import cfuncs, cpp
from leverguard.levers.model.hunks import FileChange
from leverguard.levers.model.scan import c_pathspecs, is_c_source, source_suffixes
from leverguard.levers.model.lever import Scanned
from leverguard.levers.transitions.results import LeverFinding
from leverguard.levers.model.sides import Sides


def _candidates(sides: Sides, config: Config, before: Scanned, changed: list[FileChange]) -> set[str]:
    """Functions called on a removed line that lay inside a conditional branch in BASE."""
    names: set[str] = set()
    for change in changed:
        if not change.old_path or not is_c_source(change.old_path, config) or not change.removed:
            continue
        cfile = before.cfiles.get(change.old_path)
        if cfile is None:
            data = sides.raw(sides.base, change.old_path)
            cfile = cpp.scan(change.old_path, data or b"")
        for name, line in cfuncs.calls(cfile.text):
            if line in change.removed and cpp.enclosing(cfile.conditionals, line):
                names.add(name)
    return names


def orphaned_functions(sides: Sides, config: Config, before: Scanned, changed: list[FileChange],
                       unread: Mapping[str, int] | None = None) -> list[LeverFinding]:
    """Candidates still defined in HEAD (static, __device__, __global__, inline) and used nowhere.

    UNREAD (path -> size) are HEAD's sources over `max_file_size`: `git grep` never loads them
    (issue #11); a function used only there may then be reported, and the diff's warnings name them.
    """
    candidates = _candidates(sides, config, before, changed)
    if not candidates:
        return []
    if unread is None:
        unread = git.large_files(sides.head, source_suffixes(config), sides.limit, sides.root)
    hits = git.grep_words(sorted(candidates), sides.head, [*c_pathspecs(config), *git.excluding(unread)], sides.root)
    definitions: dict[str, tuple[str, int, str]] = {}
    used: set[str] = set()
    for path in sorted({hit[0] for hit in hits}):
        text = sides.text(sides.head, path) or ""
        for fn in cfuncs.definitions(text):
            if fn.name in candidates:
                definitions.setdefault(fn.name, (path, fn.line, fn.qualifiers))
        used.update(name for name in candidates if cfuncs.mentions(text, name))
    return [LeverFinding("ORPHANED-FUNCTION", name, path, line,
                         f"{quals} {name} was only called from a deleted branch: delete it too")
            for name, (path, line, quals) in sorted(definitions.items()) if name not in used]
