"""Reports for people: text paragraphs for terminals, markdown for PR comments and check runs."""

from __future__ import annotations


from leverguard.revert.findings import RevertFinding, blocks

TYPE_CHECKING = False

if TYPE_CHECKING:
    from leverguard.revert.engine import RevertReport

MAX_PATHS = 20  # paths listed per finding before "... and N more"


def age(seconds: int) -> str:
    """A coarse duration: 45s, 12min, 5h, 3d."""
    seconds = abs(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def when(finding: RevertFinding, anchor_time: int, anchor: str = "the merge base") -> str:
    """How long before (or after) the anchor the undone commit landed."""
    delta = anchor_time - finding.time
    if anchor_time == 0:
        return ""
    if delta == 0:
        return f", merged as {anchor}" if anchor == "the merge base" else f", merged at the same time as {anchor}"
    return f", merged {age(delta)} {'before' if delta >= 0 else 'after'} {anchor}"


def headline(finding: RevertFinding, merge_base_time: int, who: str = "HEAD", anchor: str = "the merge base") -> str:
    """`error: HEAD undoes 18/18 files of #221 "subject" (a1b2c3d by X, merged 2h before ...) -- ...`"""
    tally = finding.tally
    name = f"#{finding.pr}" if finding.pr is not None else finding.commit[:7]
    scope = "any commit message of the range" if who == "HEAD" else "its commit messages"
    status = finding.explanation or f"not declared in {scope}"
    return (f"{finding.severity}: {who} undoes {tally.undone_paths}/{tally.touched_paths} files of {name} "
            f'"{finding.title or finding.subject}" ({finding.commit[:7]} by {finding.author}{when(finding, merge_base_time, anchor)}) '
            f"-- {status}")


def finding_text(finding: RevertFinding, merge_base_time: int, who: str = "HEAD", anchor: str = "the merge base") -> str:
    lines = [headline(finding, merge_base_time, who, anchor)]
    if finding.tally.undone_lines and finding.tally.touched_lines:  # (no lines: submodule pointers, binaries)
        lines.append(f"  {finding.tally.undone_lines}/{finding.tally.touched_lines} of its non-trivial lines undone")
    for folder in finding.tally.whole_folders:
        lines.append(f"  {folder}/: the whole folder it created is deleted")
    for item in finding.evidence[:MAX_PATHS]:
        lines.append(f"  {item.path}: {item.kind}: {item.detail}")
    if len(finding.evidence) > MAX_PATHS:
        lines.append(f"  ... and {len(finding.evidence) - MAX_PATHS} more paths")
    if finding.severity == "notice":  # why it is only a notice: what lowered it, or its evidence's weakness
        lines.append(f"  why: {finding.reason}")
    if finding.severity in ("warning", "error") and not finding.explanation:
        lines.append(f"  why: {finding.reason}")
        if finding.repair:
            lines.append(f"  repair: {finding.repair}")
        if finding.repair_note:
            lines.append(f"  note: {finding.repair_note}")
        lines.append(f"  if intended: {finding.acknowledge}")
    return "\n".join(lines)


def to_text(report: RevertReport) -> str:
    """One paragraph per finding, then a one-line verdict."""
    paragraphs = [finding_text(f, report.merge_base_time) for f in report.findings]
    paragraphs += [f"note: {note}" for note in report.notes]
    paragraphs.append(verdict(report))
    return "\n\n".join(paragraphs)


def verdict(report: RevertReport) -> str:
    if report.empty:
        return "ok: nothing to check, HEAD is already contained in BASE"
    failing = sum(1 for f in report.findings if blocks(f, report.strict))
    checked = f"{report.landing_paths} changed paths against {report.candidates} first-parent commits"
    if failing:
        return f"FAIL: {failing} silent revert{'s' if failing > 1 else ''} ({checked})"
    if report.findings:
        return f"ok: {len(report.findings)} finding(s) below the failing severity ({checked})"
    return f"ok: no earlier work undone ({checked})"


def finding_markdown(finding: RevertFinding, merge_base_time: int, anchor: str = "the merge base") -> str:
    from leverguard.report import markdown_escape  # json and dataclasses: not paid by text output
    name = f"#{finding.pr}" if finding.pr is not None else f"`{finding.commit[:7]}`"
    tally = finding.tally
    status = markdown_escape(finding.explanation) if finding.explanation else "**not declared** in any commit message"
    rows = [f"| `{markdown_escape(e.path)}` | {e.kind} | {markdown_escape(e.detail)} |"
            for e in finding.evidence[:MAX_PATHS]]
    more = [f"\n... and {len(finding.evidence) - MAX_PATHS} more paths"] if len(finding.evidence) > MAX_PATHS else []
    advice = []
    if finding.severity in ("warning", "error") and not finding.explanation:
        advice = ["", f"Why: {markdown_escape(finding.reason)}."]
        if finding.repair:
            advice.append(f"Repair: `{finding.repair}`")
        if finding.repair_note:
            advice.append(f"Note: {markdown_escape(finding.repair_note)}")
        advice.append(f"If intended: {finding.acknowledge}.")
    return "\n".join([
        f"**{finding.severity}**: undoes {tally.undone_paths}/{tally.touched_paths} files of {name} "
        f"\"{markdown_escape(finding.title or finding.subject)}\" (`{finding.commit[:7]}` by {markdown_escape(finding.author)}"
        f"{when(finding, merge_base_time, anchor)}) -- {status}", "",
        "| path | signal | what happened |", "| --- | --- | --- |", *rows, *more, *advice])


def to_markdown(report: RevertReport) -> str:
    """The body of a PR comment or check run."""
    from leverguard.report import markdown_escape
    parts = ["### leverguard check-revert", ""]
    if report.findings:
        parts += [finding_markdown(f, report.merge_base_time) + "\n" for f in report.findings]
    parts += [f"> note: {markdown_escape(n)}" for n in report.notes]
    parts.append(verdict(report))
    if any(blocks(f, report.strict) for f in report.findings):
        parts.append("\nIf this is intended, say so in the PR description or a commit message "
                     "(`This reverts commit SHA`, or `Leverguard-Revert-Ack: #N`).")
    return "\n".join(parts)
