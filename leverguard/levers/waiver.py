"""The default-build waiver: a lever-cleanup message (lever sections) or `Leverguard-Default-Build: intentional`."""

from __future__ import annotations

import re
from typing import Iterable

TRAILER = "Leverguard-Default-Build"


def _lines(message: str) -> list[str]:
    # git strips comment lines (core.commentChar '#') before the message is used.
    return [line.rstrip() for line in message.splitlines() if not line.startswith("#")]


def waiver(message: str | None, sections: Iterable[str]) -> str | None:
    """Why the default-build gate is waived, or None when the message does not waive it."""
    if not message:
        return None
    lines = _lines(message)
    trailer = re.compile(rf"^{TRAILER}\s*:\s*(\S.*)$", re.IGNORECASE)
    for line in lines:
        match = trailer.match(line)
        if match and match.group(1).strip().lower() == "intentional":
            return f"waived by the trailer {TRAILER}: intentional"
    names = {s.lower() for s in sections}
    for line in lines:
        head, colon, _ = line.partition(":")
        if colon and head.strip().lower() in names and not line.startswith((" ", "\t")):
            return f"waived: the message has the lever section {head.strip()}:"
    return None
