"""The other guards in the PR report (App and Actions mode): lever transitions and commit messages, informational."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Callable

from leverguard.bot.verdict import Verdict
from leverguard.config import Config


@dataclass(frozen=True)
class Section:
    """One guard's part of the report; it never sets the check's conclusion (README: why)."""

    title: str
    markdown: str
    findings: int


def lever_section(root: str, config: Config, base: str, head: str) -> Section | None:
    """`levers diff BASE..HEAD` with BASE's configuration; nothing when no lever changes."""
    from leverguard.levers.render import diff_as
    from leverguard.levers.transitions import compute_diff

    diff = compute_diff(root, config, base, head)
    if not diff.transitions and not diff.findings:
        return None
    return Section("Levers", diff_as(diff.to_dict(), "markdown"), len(diff.findings))


def message_section(root: str, config: Config, base: str, head: str) -> Section | None:
    """`check-msg --range BASE..HEAD` with BASE's configuration; nothing when all messages are clean."""
    from leverguard.message.run import check_msg

    document, _ = check_msg(root, None, f"{base}..{head}", "json", config=config)
    summary = json.loads(document)["summary"]
    found = summary.get("errors", 0) + summary.get("warnings", 0)
    if not found:
        return None
    markdown, _ = check_msg(root, None, f"{base}..{head}", "markdown", config=config)
    return Section("Commit messages", markdown, found)


GUARDS: tuple[Callable[[str, Config, str, str], Section | None], ...] = (lever_section, message_section)


def sections(root: str, config: Config, base: str, head: str) -> list[Section]:
    """Every guard's section; a guard that cannot run says so instead of staying silent."""
    found = []
    for guard in GUARDS:
        try:
            section = guard(root, config, base, head)
        except Exception as exc:  # an informational guard must not take the revert check down with it
            name = guard.__name__.replace("_section", "")
            section = Section(name, f"### {name}\n\nnot checked: {' '.join(str(exc).split())[:300]}", 0)
        if section is not None:
            found.append(section)
    return found


INFORMATIONAL = "_Informational: this section does not change the check's conclusion._"


def to_markdown(found: list[Section]) -> str:
    """Each guard's own markdown (it carries its heading), marked as informational."""
    return "".join(f"\n\n{s.markdown}\n\n{INFORMATIONAL}" for s in found)


def with_sections(result: Verdict, root: str, config: Config, base: str, head: str) -> Verdict:
    """The revert verdict with every other guard's section appended to its markdown."""
    return replace(result, markdown=result.markdown + to_markdown(sections(root, config, base, head)))
