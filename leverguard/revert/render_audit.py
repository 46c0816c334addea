"""The audit report for people: findings per audited commit, then a summary table."""

from __future__ import annotations

from leverguard.report import markdown_escape
from leverguard.revert.audit import AuditReport, AuditResult
from leverguard.revert.findings import SEVERITIES, blocks
from leverguard.revert.render import finding_markdown, finding_text

SUBJECT_WIDTH = 50
MAX_UNCHECKED_SHOWN = 20  # a blobless clone leaves hundreds: JSON lists them all


def _name(result: AuditResult) -> str:
    return f"#{result.pr}" if result.pr is not None else result.commit[:7]


def _worst(result: AuditResult) -> str:
    return max((f.severity for f in result.findings), key=SEVERITIES.index)


def to_text(report: AuditReport) -> str:
    parts = []
    for result in report.results:
        landed = f" (#{result.pr})" if result.pr is not None and f"(#{result.pr})" not in result.subject else ""
        header = f"== {result.commit[:7]}{landed} {result.subject}"
        body = [finding_text(f, result.time, who="it", anchor="it") for f in result.findings]
        parts.append("\n".join([header, *body]))
    parts += [f"note: {note}" for note in report.notes]
    if report.unchecked:
        parts.append(unchecked_text(report))
    parts.append(summary_table(report))
    return "\n\n".join(parts)


def unchecked_text(report: AuditReport) -> str:
    """The commits not checked, each with its reason and fix; the first MAX_UNCHECKED_SHOWN of them."""
    rows = [f"not checked ({len(report.unchecked)}):"]
    for gap in report.unchecked[:MAX_UNCHECKED_SHOWN]:
        subject = f" {_cut(gap.subject)}" if gap.subject else ""  # a missing commit has none
        rows.append(f"  {gap.commit[:7]}{subject}: {gap.reason}; {gap.fix}")
    hidden = len(report.unchecked) - MAX_UNCHECKED_SHOWN
    if hidden > 0:
        rows.append(f"  ... and {hidden} more (--format json lists every one)")
    return "\n".join(rows)


def _cut(subject: str) -> str:
    return subject if len(subject) <= SUBJECT_WIDTH else subject[:SUBJECT_WIDTH - 3] + "..."


def summary_table(report: AuditReport) -> str:
    """One row per audited commit with findings, then the totals."""
    rows = [f"{'commit':<8} {'landed as':<10} {'worst':<8} {'undoes':<28} subject"]
    for result in report.results:
        undone = ", ".join(f"#{f.pr}" if f.pr is not None else f.commit[:7] for f in result.findings)
        subject = _cut(result.subject)
        landed = f"#{result.pr}" if result.pr is not None else "-"
        rows.append(f"{result.commit[:7]:<8} {landed:<10} {_worst(result):<8} {undone[:28]:<28} {subject}")
    failing = sum(1 for r in report.results if any(blocks(f, report.strict) for f in r.findings))
    rows.append(summary_line(report.checked, report.branch, failing, len(report.results) - failing,
                             len(report.unchecked)))
    return "\n".join(rows) if report.results else rows[-1]


def summary_line(checked: int, branch: str, failing: int, others: int, unchecked: int = 0) -> str:
    """`checked 8 commits on main: 1 landed a silent revert that fails the check; 2 more have warnings`,
    with `(3 not checked: objects missing)` after the branch when some could not be read."""
    gap = f" ({unchecked} not checked: objects missing)" if unchecked else ""
    head = f"checked {checked} commit{'' if checked == 1 else 's'} on {branch}{gap}: "
    failed = ("no commit landed a silent revert that fails the check" if not failing else
              f"{failing} landed a silent revert that fails the check" if failing == 1 else
              f"{failing} landed silent reverts that fail the check")
    more = f"; {others} more {'has' if others == 1 else 'have'} findings worth a look" if others else ""
    return head + failed + more


def to_markdown(report: AuditReport) -> str:
    parts = [f"### leverguard audit of `{markdown_escape(report.branch)}`", ""]
    for result in report.results:
        parts.append(f"#### `{result.commit[:7]}` {_name(result)} {markdown_escape(result.subject)}\n")
        parts += [finding_markdown(f, result.time, anchor="it") + "\n" for f in result.findings]
    parts.append("| commit | landed as | worst | subject |\n| --- | --- | --- | --- |")
    parts += [f"| `{r.commit[:7]}` | {_name(r)} | {_worst(r)} | {markdown_escape(r.subject)} |" for r in report.results]
    parts += [f"\n> note: {markdown_escape(note)}" for note in report.notes]
    if report.unchecked:
        parts.append(f"\n#### Not checked ({len(report.unchecked)})\n\n| commit | subject | reason | fix |\n"
                     "| --- | --- | --- | --- |")
        parts += [f"| `{u.commit[:7]}` | {markdown_escape(u.subject)} | {markdown_escape(u.reason)} | "
                  f"{markdown_escape(u.fix)} |" for u in report.unchecked[:MAX_UNCHECKED_SHOWN]]
        hidden = len(report.unchecked) - MAX_UNCHECKED_SHOWN
        if hidden > 0:
            parts.append(f"\n... and {hidden} more (`--format json` lists every one)")
    unchecked = f", {len(report.unchecked)} not checked (objects missing)" if report.unchecked else ""
    parts.append(f"\nchecked {report.checked} commit{'' if report.checked == 1 else 's'}{unchecked}")
    return "\n".join(parts)
