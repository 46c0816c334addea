"""Run the default-build gate with its waiver, and say what a waived change gains and loses.

The waiver: a lever-cleanup message (a lever section) or the trailer `Leverguard-Default-Build: intentional`.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from leverguard.config import Config
from leverguard.levers.gates import defaultbuild
from leverguard.levers.gates.defaultbuild import GateResult
from leverguard.report import to_json, to_text
from leverguard.session import Session

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


# What waives the gate, said whenever it fails (issue #12).
HOW_TO_WAIVE = ("gate the change behind a default-off lever, or waive the gate with a lever-cleanup message (a "
                "section such as `Hard-wired:` or `Reverted:`) or the trailer `Leverguard-Default-Build: "
                "intentional`, in a commit message of the range or the --message-file")


def run(session: Session, config: Config, base: str, head: str | None, messages: Sequence[tuple[str, str]]) -> GateResult:
    """The gate, waived by any of MESSAGES: (label, text) pairs, the label a commit id or ""."""
    sections = config.get("message.sections").values()
    reason = next((_labelled(label, found) for label, text in messages
                   if (found := waiver(text, sections)) is not None), None)
    violations, notes = defaultbuild.check(session, config, base, head)
    if reason is None:
        return GateResult(violations, notes=notes)
    gains, loses = gains_and_losses(session, config, base, head)
    return GateResult(violations, reason, gains, loses, notes)


def _labelled(label: str, reason: str) -> str:
    return f"{reason} (commit {label[:12]})" if label else reason


def gains_and_losses(session: Session, config: Config, base: str, head: str | None) -> tuple[list[str], list[str]]:
    """What the default build (no lever set) gains and loses, lever by lever."""
    from leverguard.levers.transitions.diff import compute_diff

    gains, loses = [], []
    for t in compute_diff(session, config, base, head).transitions:
        if t.kind == "HARD-WIRED":
            gains.append(f"{t.lever}: its #if body is now compiled in every build")
            if any("#else gone" in e for e in t.evidence):
                loses.append(f"{t.lever}: the legacy #else path")
        elif t.kind in ("REVERTED", "DIAGNOSTIC-DELETED", "WIN-BODY-MISSING") and t.class_before == "ALREADY-ON":
            loses.append(f"{t.lever}: it was injected in every build ({t.kind})")
        elif t.kind == "WIN-BODY-MISSING":
            loses.append(f"{t.lever}: its win body (deleted with the gate)")
        elif t.kind in ("REVERTED", "DIAGNOSTIC-DELETED"):
            loses.append(f"{t.lever}: nothing of the default build (it was off by default; {t.kind})")
    return gains, loses


def render(result: GateResult, fmt: str) -> str:
    if fmt == "json":
        return to_json({"waiver": result.waiver, "violations": [v._asdict() for v in result.violations],
                        "gains": result.gains, "loses": result.loses,
                        "how_to_waive": HOW_TO_WAIVE if result.violations and result.waiver is None else None,
                        "notes": result.notes})
    notes = "".join(f"\nnote: {note}" for note in result.notes)  # never a silent pass over an unread source
    if result.waiver is None:
        if not result.violations:
            return (to_text(result.violations) + notes).strip("\n")
        count = f"{len(result.violations)} changed line{'s'[:len(result.violations) != 1]}"
        return (f"{to_text(result.violations)}{notes}\n"
                f"leverguard default-build: {count} reach the default build: {HOW_TO_WAIVE}")
    lines = [f"default-build: {result.waiver} ({len(result.violations)} changed lines reach the default build)"]
    lines += [f"  gains: {g}" for g in result.gains] or ["  gains: nothing"]
    lines += [f"  loses: {item}" for item in result.loses] or ["  loses: nothing"]
    return "\n".join(lines) + notes
