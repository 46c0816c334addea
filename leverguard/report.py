"""Findings to text, JSON and markdown: the shared shape every guard reports in."""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Sequence

FORMATS = ("text", "json", "markdown")


class Finding(NamedTuple):
    """One violation: printed `path:line: rule-id: message`, the same data in JSON."""

    rule: str  # the rule id, e.g. "co-author"
    name: str  # the rule's human name
    path: str
    line: int
    message: str
    severity: str = "error"

    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


def to_text(findings: Sequence[Finding]) -> str:
    return "\n".join(f"{f.location()}: {f.rule}: {f.message}" for f in findings)


def to_json(payload: Any) -> str:
    """One JSON document; dataclasses become objects with their field names (a NamedTuple, like `Finding`,
    would be an array: pass its `_asdict()`)."""
    return json.dumps(payload, default=_encode, indent=2, ensure_ascii=False)


def _encode(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        from dataclasses import asdict  # the lever engine's records; a check-revert imports no dataclasses

        return asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


def markdown_escape(text: str) -> str:
    """Text safe inside a markdown table cell or list item."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("\n", " ")


def to_markdown(findings: Sequence[Finding], title: str) -> str:
    if not findings:
        return f"### {title}\n\nNo findings."
    rows = [f"| `{markdown_escape(f.location())}` | {f.rule} | {markdown_escape(f.message)} |" for f in findings]
    return "\n".join([f"### {title}", "", "| where | rule | message |", "| --- | --- | --- |", *rows])
