"""Measured deltas as messages and ledger rows write them: `-3.1 us`, `+4.2%`, `27.4 -> 24.9 us`.

No imports beyond `re`: the commit-msg hook reads these patterns on every lever cleanup.
"""

from __future__ import annotations

import re

_NUMBER = r"\d+(?:[.,]\d+)?"
_UNIT = r"(?:%|[A-Za-zµμ]+(?:/[A-Za-z]+)?)(?!\w)"
_SIGNED = rf"(?<![\w.])(?P<sign>[+\-−±])\s?(?P<value>{_NUMBER})\s?(?P<unit>{_UNIT})"
_ARROW = rf"(?<![\w.])(?P<a>{_NUMBER})\s?(?:{_UNIT})?\s*(?:->|→|=>)\s*(?P<b>{_NUMBER})\s?(?P<bunit>{_UNIT})"
# A measured delta: `-3.1 us`, `+4.2%`, `−0.8 ms/step`, or `27.4 -> 24.9 us` (issue #5). Compiled on first use.
DELTA = f"{_SIGNED}|{_ARROW}"


class Delta:
    """One measured delta (a slotted class: the hook path imports neither typing nor dataclasses)."""

    __slots__ = ("text", "before", "after", "change", "unit")

    def __init__(self, text: str, before: float | None, after: float | None, change: float | None,
                 unit: str) -> None:
        self.text = text
        self.before, self.after = before, after  # the arrow form's two sides; None for a signed delta
        self.change = change  # the signed form's value (± counts as +)
        self.unit = unit


def deltas(text: str) -> list[Delta]:
    """Every measured delta written in TEXT, in order."""
    found = []
    for match in re.finditer(DELTA, text):
        if match.group("value") is not None:
            sign = -1.0 if match.group("sign") in "-−" else 1.0
            found.append(Delta(match.group(0), None, None, sign * _number(match.group("value")), match.group("unit")))
        else:
            found.append(Delta(match.group(0), _number(match.group("a")), _number(match.group("b")), None,
                               match.group("bunit")))
    return found


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def agrees(recorded: Delta, written: Delta) -> bool:
    """Does a delta written in a message say what the ledger recorded (the same numbers, or the same change)?

    `27.4 -> 24.9 us` agrees with `-2.5 us` and with `-9.1%`; the rounding of the written form is allowed.
    """
    if recorded.change is None and written.change is None:
        return _close(recorded.before, written.before, 0) and _close(recorded.after, written.after, 0)
    if recorded.change is not None and written.change is not None:
        return _close(recorded.change, written.change, 0) and (recorded.unit == "%") == (written.unit == "%")
    arrow, signed = (recorded, written) if recorded.change is None else (written, recorded)
    assert arrow.before is not None and arrow.after is not None and signed.change is not None
    if signed.unit == "%":
        return bool(arrow.before) and _close(100 * (arrow.after - arrow.before) / arrow.before, signed.change, 0.51)
    return _close(arrow.after - arrow.before, signed.change, 0.051)


def _close(a: float | None, b: float | None, tolerance: float) -> bool:
    return a is not None and b is not None and abs(a - b) <= tolerance + 1e-9
