"""Report limits: GitHub's 65,535 characters and 50 annotations per request."""

from __future__ import annotations

from leverguard.bot import report
from leverguard.bot.verdict import Annotation, Verdict


def verdict(markdown: str, conclusion: str = "failure", annotations: int = 0) -> Verdict:
    notes = tuple(Annotation(f"f{i}.py", "failure", "undoes #1", "m") for i in range(annotations))
    return Verdict(conclusion, "t", markdown, notes, 1, "", {"findings": []})


def test_long_reports_are_cut_on_a_line_within_the_limit() -> None:
    text = "\n".join(f"| `src/file_{i}.py` | rollback | byte-identical |" for i in range(5000))
    cut = report.truncate(text)
    assert len(text) > report.TEXT_LIMIT >= len(cut)
    assert cut.endswith("`leverguard check-revert`)_") and "\n\n_(truncated" in cut
    assert report.truncate("short") == "short"
    body = report.comment_body(verdict(text))
    assert len(body) <= report.TEXT_LIMIT and body.startswith(report.MARKER)


def test_the_comment_remembers_its_verdict() -> None:
    assert report.previous_state(report.comment_body(verdict("x"))) == "found"
    assert report.previous_state(report.comment_body(verdict("x", "success"))) == "clean"
    assert report.previous_state(report.MARKER + " no verdict line") == "found"


def test_annotations_go_in_batches_of_50() -> None:
    assert [len(b) for b in report._batches(verdict("x", annotations=120).annotations)] == [50, 50, 20]
    assert report._batches(()) == [[]]
