"""One PR comment, edited in place, and one `leverguard` check run per head SHA: never a duplicate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from github.Repository import Repository

from leverguard.bot.verdict import Annotation, Verdict

MARKER = "<!-- leverguard:report -->"
CHECK_NAME = "leverguard"
TEXT_LIMIT = 65535  # GitHub's limit for a check-run summary and a comment body
ANNOTATIONS_PER_REQUEST = 50
_VERDICT = re.compile(r"<!-- leverguard:verdict=(\w+) -->")


@dataclass(frozen=True)
class Published:
    """What the report did, for the inbox note and the tests."""

    comment_id: int | None
    comment_action: str  # created, edited, unchanged, reposted, none
    check_run_id: int | None

    def note(self) -> str:
        comment = f"comment {self.comment_id} {self.comment_action}" if self.comment_id else "no comment"
        return f"{comment}; check run {self.check_run_id}" if self.check_run_id else comment


def truncate(text: str, limit: int = TEXT_LIMIT) -> str:
    """TEXT cut to LIMIT characters with a visible note, on a line boundary."""
    if len(text) <= limit:
        return text
    note = "\n\n_(truncated: the full report is in the check run's annotations and `leverguard check-revert`)_"
    cut = text[: limit - len(note)]
    return cut[: cut.rfind("\n") if "\n" in cut else len(cut)] + note


def comment_body(verdict: Verdict) -> str:
    state = "found" if verdict.found else "clean"
    return truncate(f"{MARKER}\n<!-- leverguard:verdict={state} -->\n{verdict.markdown}")


def previous_state(body: str) -> str:
    match = _VERDICT.search(body)
    return match.group(1) if match else "found"


# ---------------------------------------------------------------------- comment


def upsert_comment(repo: Repository, number: int, verdict: Verdict, bot_login: str) -> tuple[int | None, str]:
    """Create once, then edit in place; a clean-to-found flip re-posts so that people are notified."""
    issue = repo.get_issue(number)
    ours = _ours(issue.get_comments(), bot_login)
    body = comment_body(verdict)
    if not ours:
        if not verdict.found:
            return None, "none"  # quiet: a clean PR gets its check run and no comment
        return _create(issue, body, bot_login), "created"
    keep, *duplicates = ours
    for duplicate in duplicates:
        duplicate.delete()
    if verdict.found and previous_state(keep.body) == "clean":
        keep.delete()  # an edit notifies no one: a new finding deserves a new comment
        return _create(issue, body, bot_login), "reposted"
    if keep.body == body:
        return keep.id, "unchanged"
    keep.edit(body)
    return keep.id, "edited"


def _ours(comments: Iterable[Any], bot_login: str) -> list[Any]:
    """Only comments this bot wrote and marked, oldest first: never another user's comment."""
    found = [c for c in comments if c.user.login == bot_login and MARKER in (c.body or "")]
    return sorted(found, key=lambda c: c.id)


def _create(issue: Any, body: str, bot_login: str) -> int:
    """Post, then sweep: PyGithub retries a POST on a 5xx, which can leave a second copy behind."""
    issue.create_comment(body)
    keep, *duplicates = _ours(issue.get_comments(), bot_login)
    for duplicate in duplicates:
        duplicate.delete()
    return int(keep.id)


# ---------------------------------------------------------------------- check run


def upsert_check_run(repo: Repository, head_sha: str, verdict: Verdict, app_id: int | None) -> int:
    """One run per head SHA: updated on re-runs; annotations appended in batches, never re-sent."""
    output = {"title": verdict.title, "summary": truncate(verdict.markdown)}
    existing = _existing_run(repo, head_sha, app_id)
    sent = 0 if existing is None else min(existing.output.annotations_count or 0, len(verdict.annotations))
    first = _batches(verdict.annotations[sent:])[0]
    if existing is None:
        run = repo.create_check_run(name=CHECK_NAME, head_sha=head_sha, status="completed",
                                    conclusion=verdict.conclusion, output={**output, "annotations": first})
    else:
        run = existing
        run.edit(status="completed", conclusion=verdict.conclusion, output={**output, "annotations": first})
    sent += len(first)
    for batch in _batches(verdict.annotations[sent:]):
        if batch:
            run.edit(output={**output, "annotations": batch})
    return int(run.id)


def _existing_run(repo: Repository, head_sha: str, app_id: int | None) -> Any:
    for run in repo.get_commit(head_sha).get_check_runs(check_name=CHECK_NAME):
        if app_id is None or run.app.id == app_id:
            return run
    return None


def _batches(annotations: Sequence[Annotation]) -> list[list[dict[str, Any]]]:
    items = [a.to_api() for a in annotations]
    return [items[i:i + ANNOTATIONS_PER_REQUEST] for i in range(0, len(items), ANNOTATIONS_PER_REQUEST)] or [[]]


def publish(repo: Repository, number: int, head_sha: str, verdict: Verdict, *, bot_login: str,
            app_id: int | None) -> Published:
    """The check run first (it gates merging), then the comment."""
    run_id = upsert_check_run(repo, head_sha, verdict, app_id)
    comment_id, action = upsert_comment(repo, number, verdict, bot_login)
    return Published(comment_id, action, run_id)
