"""The commit-message template pre-filled from the diff's lever changes, and writing it for git."""

from __future__ import annotations

from leverguard.message.model import CHANGING, CO_AUTHOR_PLACEHOLDER, SECTION_OF


TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Sequence

    from leverguard.message.model import Change
    from leverguard.message.settings import Settings

    AbiStatus = Sequence[tuple[str, int, Sequence[str]]]  # (path, changed lines, forbidden tokens) per ABI file

DELTA_PLACEHOLDER = "<measured delta, e.g. 27.4 -> 24.9 us or -3.1%>"
VERIFICATION_PROMPT = "<what ran and what it showed; write not run or blocked if a check could not run>"
GATE_PROMPT = "<what must run before merging, or none>"
# The engine's kinds that need a word to the author, written as comment lines git strips.
WARNINGS = {"WIN-BODY-MISSING": "its #if body is gone too: a win deleted by mistake? see leverguard levers diff",
            "PARTIAL": "only partly changed: finish it or leave it out; see leverguard levers diff"}


def build(changes: Sequence[Change], abi: AbiStatus | str | None, settings: Settings, *,
          comment: str = "#", marker: str = "-", scoped: bool = False) -> str:
    """The template text: blank subject, the lever sections when levers change, the trailers.

    The trailers are the configured co-authors, or, when this change needs one (co_author mode,
    a lever change, SCOPED: it touches `co_author_paths`), a placeholder the co-author rule
    rejects until it is filled in. Empty when there is nothing to pre-fill, so that a plain
    commit keeps git's own file.
    """
    changing = [c for c in changes if c.kind in CHANGING]
    trailers = [f"Co-Authored-By: {value}" for value in settings.co_authors]
    needed = settings.co_author == "required" or (settings.co_author == "levers" and (scoped or bool(changing)))
    if not trailers and needed:
        trailers = [f"Co-Authored-By: {CO_AUTHOR_PLACEHOLDER}"]
    if not changing and not trailers:
        return ""
    lines = ["", ""]
    if changing:
        lines += _sections(changing, abi, settings, comment, marker) + [""]
    lines += trailers
    return "\n".join(lines).rstrip("\n") + "\n"


def _sections(changes: Sequence[Change], abi: AbiStatus | str | None, settings: Settings,
              comment: str, marker: str) -> list[str]:
    names = settings.sections
    lines: list[str] = []
    for key in ("hard_wired", "reverted", "diagnostics"):
        listed = [c for c in changes if SECTION_OF.get(c.kind) == key]
        if not listed:
            lines.append(f"{names[key]}: none")
            continue
        lines.append(f"{names[key]}:")
        for change in listed:
            suffix = f": {change.ledger or DELTA_PLACEHOLDER}" if key == "hard_wired" else ""
            lines.append(f"{marker} {change.lever}{suffix}")
            if key == "hard_wired" and change.ledger:
                lines.append(f"{comment} leverguard: {change.lever}'s delta is its ledger row's ({change.ledger_at})")
    lines += [f"{comment} leverguard: {c.lever} {WARNINGS[c.kind]}" for c in changes if c.kind in WARNINGS]
    lines.append(f"{names['abi']}: {abi_line(abi)}")
    lines.append(f"{names['verification']}: {VERIFICATION_PROMPT}")
    lines.append(f"{names['pre_merge_gate']}: {GATE_PROMPT}")
    return lines


def abi_line(abi: AbiStatus | str | None) -> str:
    """The ABI answer from the configured ABI files' status against the base (a str: why there is none)."""
    if isinstance(abi, str):
        return abi
    if abi is None:
        return "<unchanged, or what changed and why (no abi_files configured)>"
    changed = [f"{path} ({'binary change' if lines < 0 else f'{lines} lines changed'})"
               for path, lines, _ in abi if lines]
    forbidden = [f"{token} in {path}" for path, _, tokens in abi for token in tokens]
    if not changed and not forbidden:
        return f"unchanged ({', '.join(path for path, _, _ in abi)})"
    parts = ([f"changed: {', '.join(changed)}"] if changed else []) + (
        [f"forbidden tokens: {', '.join(forbidden)}"] if forbidden else [])
    return "; ".join(parts) + " <restore it, or say why it must change>"


def list_marker(comment: str) -> str:
    """`-` for list items, unless the comment character is `-` (git would strip the items)."""
    return "*" if comment.startswith("-") else "-"
