"""Outcomes as linter text (`MSGFILE:LINE: rule-id: message` and a summary) or as one JSON document."""

from __future__ import annotations

from leverguard.message.check import Outcome

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Any, Sequence

SEVERITIES = ("error", "warning", "note")


def counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    tally = {severity: 0 for severity in SEVERITIES}
    for outcome in outcomes:
        for finding in outcome.findings:
            tally[finding.severity] = tally.get(finding.severity, 0) + 1
    return tally


def summary(outcomes: Sequence[Outcome]) -> str:
    tally = counts(outcomes)
    parts = [f"{n} {severity}{'s'[:n != 1]}" for severity, n in tally.items() if n]
    checked = f"{len(outcomes)} message{'s'[:len(outcomes) != 1]}"
    return f"leverguard check-msg: {', '.join(parts) or 'no findings'} in {checked}"


def to_text(outcomes: Sequence[Outcome], *, always_summary: bool = False, hint: str = "") -> str:
    """One line per finding, then a summary; nothing at all for a clean message unless asked."""
    lines = []
    for outcome in outcomes:
        for f in outcome.findings:
            label = "" if f.severity == "error" else f"{f.severity}: "
            lines.append(f"{f.location()}: {f.rule}: {label}{f.message}")
    if lines or always_summary:
        lines.append(summary(outcomes))
    if hint and counts(outcomes)["error"]:
        lines.append(hint)
    return "\n".join(lines)


def to_json(outcomes: Sequence[Outcome]) -> str:
    """The `check-msg --format json` document: one entry per message, then the totals."""
    import json

    messages: list[dict[str, Any]] = []
    for outcome in outcomes:
        messages.append({
            "path": outcome.path,
            "commit": outcome.commit,
            "special": outcome.special,
            "levers": [{"lever": c.lever, "kind": c.kind} for c in outcome.changes],
            "skipped": list(outcome.skipped),
            "findings": [{"rule": f.rule, "name": f.name, "path": f.path, "line": f.line,
                          "message": f.message, "severity": f.severity} for f in outcome.findings],
        })
    totals = {f"{severity}s": n for severity, n in counts(outcomes).items()}
    return json.dumps({"messages": messages, "summary": {"messages": len(outcomes), **totals}},
                      indent=2, ensure_ascii=False)


def to_markdown(outcomes: Sequence[Outcome]) -> str:
    """The findings as a markdown table (for the PR bot), with the summary line under it."""
    from leverguard.report import to_markdown as table

    findings = [f for outcome in outcomes for f in outcome.findings]
    return f"{table(findings, 'Commit messages')}\n\n{summary(outcomes)}"
