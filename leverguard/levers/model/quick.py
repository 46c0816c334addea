"""Does a change touch any lever-like token? One `git diff -G` call, so lever-free commits pay nothing more."""

from __future__ import annotations

from leverguard import git

# Without lever_patterns: any conditional directive, environment access or -D flag may matter.
_BROAD = r"#[[:space:]]*(if|elif)|environ|getenv|-D[A-Za-z_]"
BROAD_PYTHON = r"#\s*(?:if|elif)|environ|getenv|-D[A-Za-z_]"  # the same, for Python's re


def unread_note(path: str, size: int, limit: int) -> str:
    """What the lever engine says of a source it left unread (issue #11): never a silent "no lever change"."""
    return (f"{path}: {git.size_text(size)}, over max_file_size ({git.size_text(limit)}): not read, "
            "so its levers are not checked")


def lever_regex(patterns: list[str]) -> str:
    """The lever patterns as one POSIX extended regex (a superset of the Python ones is fine)."""
    if not patterns:
        return _BROAD
    import re

    converted = []
    for pattern in patterns:
        pattern = re.sub(r"\(\?P<\w+>", "(", pattern)  # a named group: ERE groups have no names
        for python, ere in (("(?:", "("), (r"\d", "[0-9]"), (r"\w", "[A-Za-z0-9_]"), (r"\b", "")):
            pattern = pattern.replace(python, ere)
        converted.append(f"({pattern})")
    return "|".join(converted)

