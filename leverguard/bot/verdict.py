"""The one place the bot calls the revert engine, and the verdict it turns the report into."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from leverguard import git
from leverguard.config import Config

if TYPE_CHECKING:
    from leverguard.session import Session

LEVELS = {"error": "failure", "warning": "warning", "notice": "notice"}  # info is never annotated


@dataclass(frozen=True)
class Annotation:
    """One check-run annotation (Actions mode prints the same as `::error`)."""

    path: str
    level: str  # failure, warning or notice
    title: str
    message: str

    def to_api(self) -> dict[str, Any]:
        return {"path": self.path, "start_line": 1, "end_line": 1, "annotation_level": self.level,
                "title": self.title, "message": self.message}


@dataclass(frozen=True)
class Verdict:
    """What the bot reports: a check-run conclusion, a markdown body and the annotations."""

    conclusion: str  # success, failure, or neutral when an override declared the findings
    title: str
    markdown: str
    annotations: tuple[Annotation, ...]
    findings: int
    override: str  # "" or what overrode the check (the label, the PR text)
    data: dict[str, Any]

    @property
    def found(self) -> bool:
        """Worth a comment: failing, overridden, or an undeclared warning."""
        return self.conclusion != "success" or any(
            not f["declared"] and f["severity"] == "warning" for f in self.data.get("findings", []))


def evaluate(session: Session, base: str, head: str, *, pr_number: int | None, pr_text: str,
             labels: Sequence[str], config: Config) -> Verdict:
    """Check what landing HEAD on BASE undoes, honouring the override label and the PR text."""
    label = str(config.get("revert.override_label"))
    report = _check(session, base, head, pr_text, (), pr_number)
    override = ""
    if report.exit_code() == 1 and label and label in labels:
        refs = tuple(f["commit"] for f in report.to_dict()["findings"] if not f["declared"])
        report, override = _check(session, base, head, pr_text, refs, pr_number), f"the label `{label}`"
    elif report.exit_code() == 0 and pr_text and any(f["declared"] for f in report.to_dict()["findings"]):
        if _check(session, base, head, None, (), pr_number).exit_code() == 1:
            override = "the pull request's description"
    return _verdict(report, override, label, _present(session.repo, head, report.to_dict()["findings"]))


def broken_config(message: str) -> Verdict:
    """The BASE configuration cannot be read: fail loudly (a retry cannot fix it, silence would hide it)."""
    markdown = (f"### leverguard could not check this pull request\n\n{message}\n\n"
                "The configuration is read from the base branch: fix it there, then re-run this check.")
    return Verdict("failure", "leverguard configuration error on the base branch", markdown, (), 0, "",
                   {"findings": [], "error": message})


def _check(session: Session, base: str, head: str, pr_text: str | None, extra: tuple[str, ...],
           pr: int | None) -> Any:
    from leverguard.revert.engine import RevertOptions, check_range

    options = RevertOptions(pr_body=pr_text or None, extra_declared=extra, own_pr=pr)
    return check_range(session, base, head, options)


def _present(repo: str, head: str, findings: list[dict[str, Any]]) -> frozenset[str]:
    """The findings' paths that exist at HEAD: an annotation can only point into a file that is there."""
    paths = sorted({p for f in findings for p in f["paths"]})
    present: set[str] = set()
    for start in range(0, len(paths), 500):
        specs = [f":(literal){path}" for path in paths[start:start + 500]]
        listed = git.run(["ls-tree", "-r", "-z", "--name-only", "--full-tree", head, "--", *specs], repo).stdout
        present.update(git.fsdecode(name) for name in git.split_z(listed))
    return frozenset(present)


def _verdict(report: Any, override: str, label: str, present: frozenset[str]) -> Verdict:
    data = report.to_dict()
    failing = report.exit_code() == 1
    conclusion = "failure" if failing else "neutral" if override else "success"
    silent = [f for f in data["findings"] if not f["declared"] and f["severity"] == "error"]
    if failing:
        title = f"{len(silent)} silent revert{'s' if len(silent) != 1 else ''} of merged work"
    elif override:
        title = f"Reverts declared by {override}"
    else:
        title = "No silent revert"
    markdown = _markdown(report, override)
    if failing and label:
        markdown += f"\nA maintainer may also add the label `{label}` to accept the revert (the check turns neutral)."
    notes = _annotations(data["findings"], present)
    return Verdict(conclusion, title, markdown, notes, len(data["findings"]), override, data)


def _markdown(report: Any, override: str) -> str:
    from leverguard.revert.render import to_markdown

    head = f"> Overridden by {override}: these findings are declared and do not fail the check.\n\n" if override else ""
    return head + to_markdown(report)


def _annotations(findings: list[dict[str, Any]], present: frozenset[str]) -> tuple[Annotation, ...]:
    notes = []
    for f in findings:
        level = "notice" if f["declared"] else LEVELS.get(f["severity"])
        if level is None:
            continue
        ref = f"#{f['pr']}" if f["pr"] else f["commit"][:7]
        title = f"undoes {ref}" + (" (declared)" if f["declared"] else "")
        for path in (p for p in f["paths"] if p in present):
            notes.append(Annotation(path, level, title, f"This change undoes {ref} \"{f['subject']}\" by "
                                    f"{f['author']} ({f['undone_paths']}/{f['touched_paths']} files)."))
    return tuple(notes)
