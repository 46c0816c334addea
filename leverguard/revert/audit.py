"""audit: every landed change on a branch's first-parent history, each against its first parent."""

from __future__ import annotations

from functools import partial
from itertools import islice
from typing import Any, Callable, NamedTuple, TextIO

from leverguard import git
from leverguard.config import Config
from leverguard.revert import candidates, settings
from leverguard.revert.attribution import Landed
from leverguard.revert.context import Context
from leverguard.revert.declared import from_texts, pr_number
from leverguard.revert.engine import authors, range_commits, run_signals
from leverguard.revert.findings import RevertFinding, blocks
from leverguard.revert.index import PathIndex
from leverguard.revert.lines import LineCache
from leverguard.revert.model import Commit

Progress = Callable[[int, int], None]
SHOWN = ("warning", "error")  # what an audit lists by default: silent findings worth a look


class AuditResult(NamedTuple):
    """One audited commit that undoes earlier work."""

    commit: str
    pr: int | None
    subject: str
    time: int
    findings: tuple[RevertFinding, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"commit": self.commit, "pr": self.pr, "subject": self.subject,
                "findings": [f.to_dict() for f in self.findings]}


class AuditReport(NamedTuple):
    """The audit JSON contract: `{"branch", "checked", "results": [...]}`."""

    branch: str
    tip: str
    checked: int
    results: tuple[AuditResult, ...]
    strict: bool = False
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"branch": self.branch, "tip": self.tip, "checked": self.checked,
                "results": [r.to_dict() for r in self.results], "notes": list(self.notes)}

    def exit_code(self) -> int:
        return 1 if any(blocks(f, self.strict) for r in self.results for f in r.findings) else 0


def audit_branch(repo: str, branch: str = "HEAD", *, max_count: int | None = None, since: str | None = None,
                 window: int | None = None, strict: bool = False, progress: Progress | None = None,
                 config: Config | None = None, include_all: bool = False) -> AuditReport:
    """Audit BRANCH's first-parent history: newest MAX_COUNT commits, or those newer than SINCE, or all.

    Results list silent findings at warning or error; INCLUDE_ALL adds notices and declared ones.
    """
    tip = git.rev_parse(branch, repo)
    with git.ObjectReader(repo) as reader:
        conf = settings.load(reader, tip, config)
        size = window if window is not None else conf.config.get("revert.window")
        commits, audited = _history(repo, tip, max_count, since, size)
        ctx = Context(repo, reader, LineCache(repo), conf.rules.reported, conf.rules.line_level)
        index = PathIndex(commits)
        results = []
        for position in range(audited):
            commit = commits[position]
            found = run_signals(commit.changes, commits, position + 1, position + 1 + size,
                                partial(_landed, repo, commit, conf), ctx, index)
            found = [f for f in found if include_all or (not f.explanation and f.severity in SHOWN)]
            if found:
                results.append(AuditResult(commit.sha, pr_number(commit), commit.subject, commit.time, tuple(found)))
            if progress is not None:
                progress(position + 1, audited)
    notes = _notes(repo, commits, audited, size)
    return AuditReport(_branch_name(repo, branch), tip, audited, tuple(results), strict, notes)


def _history(repo: str, tip: str, max_count: int | None, since: str | None, size: int) -> tuple[list[Commit], int]:
    """The first-parent commits needed (audited ones plus one window of candidates) from one stream."""
    stream = candidates.parse_log(git.first_parent_log(tip, candidates.LOG_FORMAT, repo,
                                                       max_count=None if max_count is None else max_count + size))
    if since is None:
        commits = list(stream)
        return commits, min(len(commits), max_count) if max_count is not None else len(commits)
    bound = int(git.output(["rev-parse", f"--since={since}"], repo).partition("=")[2] or 0)  # git parses the date
    commits = []
    for commit in stream:
        commits.append(commit)
        if commit.time < bound:
            break
    audited = len(commits) - (1 if commits and commits[-1].time < bound else 0)
    commits += islice(stream, size)
    return commits, audited


def _landed(repo: str, commit: Commit, conf: settings.Settings) -> Landed:
    """The audited commit's authors and declarations: a merge brings in its branch's messages."""
    rows = range_commits(repo, f"{commit.parents[0]}..{commit.sha}") if commit.is_merge else \
        [(commit.sha, commit.author_email, f"{commit.subject}\n\n{commit.body}")]
    return Landed(commit.changes, authors(rows), from_texts(r[2] for r in rows), conf.acks,
                  pr_number(commit), frozenset({commit.sha, *(r[0] for r in rows)}))


def _branch_name(repo: str, branch: str) -> str:
    if branch == "HEAD":
        ref = git.symbolic_ref("HEAD", repo)
        return ref.removeprefix("refs/heads/") if ref else "HEAD"
    return branch


def _notes(repo: str, commits: list[Commit], audited: int, size: int) -> tuple[str, ...]:
    if git.is_shallow(repo) and commits and not commits[-1].parents:
        return (f"shallow clone: history ends after {len(commits)} commits, so older work cannot be checked; "
                "fetch it with git fetch --unshallow (in GitHub Actions: fetch-depth: 0)",)
    return ()


class TerminalProgress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self._stream = stream
        self._width = width

    def __call__(self, done: int, total: int) -> None:
        if done != total and done % 20:
            return
        filled = self._width * done // max(total, 1)
        self._stream.write(f"\raudit [{'#' * filled}{'.' * (self._width - filled)}] {done}/{total} commits")
        if done == total:
            self._stream.write("\n")
        self._stream.flush()
