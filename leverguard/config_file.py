"""The configuration file's names and the one committed at a commit; light, for cached checks."""

from __future__ import annotations

TYPE_CHECKING = False  # a check whose configuration is cached imports this, not config.py (dataclasses, ~9 ms)
if TYPE_CHECKING:
    from typing import Callable

DEDICATED_FILE = ".leverguard.toml"
PYPROJECT = "pyproject.toml"


def committed_file(read: Callable[[str], tuple[str, bytes] | None], commit: str) -> tuple[str | None, bytes]:
    """(file name, content) of the configuration file committed at COMMIT (`.leverguard.toml` wins), or
    (None, b""); READ is an object reader's `read`. The one way every engine and the bot find it."""
    for name in (DEDICATED_FILE, PYPROJECT):
        found = read(f"{commit}:{name}")
        if found is not None and found[0] == "blob":
            return name, found[1]
    return None, b""
