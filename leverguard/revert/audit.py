"""audit: every landed change on a branch's first-parent history, each against its first parent."""

from __future__ import annotations

from functools import partial

from leverguard import git
from leverguard.config import Config
from leverguard.records import NamedTuple
from leverguard.revert import candidates, settings
from leverguard.revert.attribution import Landed
from leverguard.revert.context import Context
from leverguard.revert.declared import from_texts, pr_number, pr_title
from leverguard.revert.engine import authored, branch_subjects, grafts, identities, judge, range_commits
from leverguard.revert.findings import RevertFinding, blocks
from leverguard.revert.identity import is_agent_work, by_dependency_bots
from leverguard.revert.index import PathIndex
from leverguard.revert.landing import split_renames
from leverguard.revert.model import Commit, RangeCommit
from leverguard.revert.patch import FilePatch
from leverguard.revert.remerge import Resolutions
from leverguard.revert.signals import collect

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence, TextIO
    from leverguard.session import Session

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
        return {"commit": self.commit, "landed_commit": self.commit, "pr": self.pr, "subject": self.subject,
                "time": self.time, "findings": [f.to_dict() for f in self.findings]}


class Unchecked(NamedTuple):
    """An audited commit that could not be checked: git cannot read objects its change needs."""

    commit: str
    subject: str
    reason: str
    missing: tuple[str, ...]
    fix: str

    def to_dict(self) -> dict[str, Any]:
        return {"commit": self.commit, "subject": self.subject, "reason": self.reason,
                "missing": list(self.missing), "fix": self.fix}


class AuditReport(NamedTuple):
    """The audit JSON contract: `{"branch", "checked", "results": [...]}`."""

    branch: str
    tip: str
    checked: int  # commits checked; `unchecked` lists those of the audited range that could not be
    results: tuple[AuditResult, ...]
    strict: bool = False
    notes: tuple[str, ...] = ()
    incomplete: bool = False  # history or objects were missing: the audit did not check all it was asked to
    unchecked: tuple[Unchecked, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"branch": self.branch, "tip": self.tip, "checked": self.checked,
                "results": [r.to_dict() for r in self.results], "notes": list(self.notes),
                "incomplete": self.incomplete, "unchecked_count": len(self.unchecked),
                "failing": self.failing(),  # (exit 2 outranks 1: a script reading only the code misses these)
                "unchecked": [u.to_dict() for u in self.unchecked]}

    def failing(self) -> int:
        """The landed changes with a finding that fails the check."""
        return sum(1 for r in self.results if any(blocks(f, self.strict) for f in r.findings))

    def exit_code(self) -> int:
        """2 for an incomplete audit, whatever it found (as grep's error outranks its matches: the commits not
        checked may hold more), after the report is out; 1 for findings; else 0."""
        if self.incomplete:
            return 2
        return 1 if self.failing() else 0


def audit_branch(session: Session, branch: str = "HEAD", *, max_count: int | None = None, since: str | None = None,
                 window: int | None = None, strict: bool = False, progress: Progress | None = None,
                 config: Config | None = None, include_all: bool = False) -> AuditReport:
    """Audit BRANCH's first-parent history: newest MAX_COUNT commits, or those newer than SINCE, or all.

    One `git log --raw` stream and one `diff-tree --stdin` serve as every commit's landing change
    and as the candidates' patches; only a window of patches is held at a time. Results list
    silent findings at warning or error; INCLUDE_ALL adds notices and declared ones. The audit
    never fetches (a partial clone's missing blobs included): a commit git cannot read is listed
    as not checked, with the command that fetches what it lacks, and the audit goes on.
    """
    with git.offline():
        return _audit(session, branch, max_count, since, window, strict, progress, config, include_all)


def _audit(session: Session, branch: str, max_count: int | None, since: str | None, window: int | None, strict: bool,
           progress: Progress | None, config: Config | None, include_all: bool) -> AuditReport:
    repo, (tip,) = session.repo, session.resolve([branch])
    git_dir, reader = session.work_git_dir, session.reader
    conf = settings.load(session, tip, config)
    isolation = tuple(git.attribute_free(git_dir, conf.config.get("max_file_size")))
    size = window if window is not None else conf.config.get("revert.window")
    bound = _since_bound(repo, since)
    ctx = Context(repo, reader, conf.rules, isolation)
    history = _History(repo, tip, None if max_count is None else max_count + size, conf, ctx)
    pointers = git.Submodules(session.where.git_dir)  # read only: any repository that keeps them
    results = []
    unchecked: list[tuple[Commit, candidates.Entry | git.MissingObjects]] = []
    position = 0
    while history.has(position) and (max_count is None or position < max_count):
        commit = history.commits[position]
        if bound is not None and commit.time < bound:
            break
        history.has(position + size)  # read the candidates' patches ahead
        gap = history.unreadable.get(position)
        found: list[RevertFinding] = []
        if gap is not None:
            unchecked.append((commit, gap))
        else:
            try:
                found = _check(commit, position, size, history, ctx, conf, pointers)
            except git.MissingObjects as exc:  # a candidate's object, read while judging
                unchecked.append((commit, exc))
        found = [f for f in found if include_all or (not f.explanation and f.severity in SHOWN)]
        if found:
            # a merge shows its PR's title, not "Merge pull request #N from ..."
            results.append(AuditResult(commit.sha, pr_number(commit), pr_title(commit), commit.time, tuple(found)))
        history.forget(position)
        position += 1
        if progress is not None:
            progress(position, history.expected(max_count, bound))
    history.close()
    gaps = _unchecked(repo, unchecked, history.partial_clone)
    notes = _notes(session.where.shallow, history.commits, position, size) + _gap_notes(repo, history, position, gaps)
    return AuditReport(_branch_name(repo, branch), tip, position - len(gaps), tuple(results), strict, notes,
                       bool(notes) or bool(gaps), gaps)


def _check(commit: Commit, position: int, size: int, history: _History, ctx: Context,
           conf: settings.Settings, pointers: git.Submodules) -> list[RevertFinding]:
    if not commit.parents:
        return []  # a root commit (or a shallow boundary) undoes nothing
    landing_patches = tuple(history.patches.get(position, {}).values())
    lo, hi = position + 1, position + 1 + size

    def patch_of(candidate: int, path: bytes) -> FilePatch | None:
        return history.patches.get(candidate, {}).get(path)

    # a merge's own resolution, and those of the merges its branch holds, may have dropped one side's lines
    resolutions = Resolutions(ctx.repo, f"{commit.parents[0]}..{commit.sha}", ctx.reader, ctx.isolation) if commit.is_merge else None
    hits = collect(landing_patches, history.index, lo, hi, patch_of, ctx.rules, resolutions, pointers)
    if not hits:
        return []
    return judge(hits, history.commits, ctx, partial(_landed, ctx.repo, commit, conf, landing_patches, lo))


class _History:
    """The first-parent history with its patches, read from one stream as far ahead as asked."""

    def __init__(self, repo: str, tip: str, max_count: int | None, conf: settings.Settings, ctx: Context) -> None:
        self.commits: list[Commit] = []
        self.patches: dict[int, dict[bytes, FilePatch]] = {}
        self.unreadable: dict[int, candidates.Entry] = {}  # positions whose patches git could not read
        self.index = PathIndex([])
        self._ctx = ctx
        regenerated = [*conf.config.get("revert.lock_files"), *conf.config.get("revert.built_files")]
        self.partial_clone = git.promisor_remote(repo) is not None
        # a partial clone lacks most old blobs by design: one walk names them, no failing read per commit
        missing = git.missing_in_history(tip, max_count, repo) if self.partial_clone else None
        self._stream = candidates.history_patches(repo, tip, max_count, regenerated, ctx.isolation, missing)
        self._done = False

    def has(self, position: int) -> bool:
        while len(self.commits) <= position and not self._done:
            entry = next(self._stream, None)
            if entry is None:
                self._done = True
                break
            if entry.files is None:
                self.unreadable[len(self.commits)] = entry
                # a candidate without patches still counts by object ids; its lines are not read again
                self._ctx.known_lines(entry.commit.sha, 0)
            else:
                self.patches[len(self.commits)] = {f.change.path: f for f in entry.files}
            self.index.append(entry.commit)
            self.commits.append(entry.commit)
        return position < len(self.commits)

    def forget(self, position: int) -> None:
        """The audited commit's own patch is needed no more once it is no candidate of a later one."""
        self.patches.pop(position, None)

    def expected(self, max_count: int | None, bound: int | None) -> int:
        if max_count is not None:
            return max_count
        return len(self.commits) if self._done else len(self.commits) + 1

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


def _unchecked(repo: str, gaps: list[tuple[Commit, candidates.Entry | git.MissingObjects]],
               partial_clone: bool) -> tuple[Unchecked, ...]:
    """The audited commits not checked, each with the command that fetches what it lacks."""
    if not gaps:
        return ()
    remote = git.fetch_remote(repo)  # once: the fix of every commit names it
    rows = []
    for commit, gap in gaps:
        if isinstance(gap, git.MissingObjects):
            missing, reason = gap.oids, "objects missing (of a commit it is compared with)"
        else:
            missing, reason = gap.missing, gap.reason
        if partial_clone and reason.startswith("objects missing"):
            reason += " (partial clone)"
        rows.append(Unchecked(commit.sha, commit.subject, reason, missing, git.fetch_fix(list(missing), repo, remote)))
    return tuple(rows)


def _gap_notes(repo: str, history: _History, audited: int, gaps: tuple[Unchecked, ...]) -> tuple[str, ...]:
    """What the unchecked commits mean for the rest of the audit."""
    notes = []
    if gaps:
        notes.append(f"{len(gaps)} commit{'s' if len(gaps) != 1 else ''} not checked: git cannot read objects "
                     "their change needs, and audit never fetches; run the fix shown for each, then audit again")
    older = sum(1 for p in history.unreadable if p >= audited)
    if older:
        notes.append(f"{older} older commit{'s' if older != 1 else ''}, compared with but not audited, "
                     f"{'lack' if older != 1 else 'lacks'} objects too: only whole-file evidence (object ids) covers "
                     f"{'them' if older != 1 else 'it'}")
    if history.partial_clone and gaps:
        remote = git.fetch_remote(repo) or "origin"
        notes.append(f"this is a partial clone and audit never fetches: fetch every blob at once with "
                     f"{git.BLOBLESS_FIX.format(remote=remote)}, or audit a full clone")
    return tuple(notes)


def _since_bound(repo: str, since: str | None) -> int | None:
    if since is None:
        return None
    return git.date_bound(since, repo)


def _landed(repo: str, commit: Commit, conf: settings.Settings, patches: Sequence[FilePatch],
            parent_position: int) -> Landed:
    """The audited commit's authors and declarations: a merge brings in its branch's messages."""
    rows = range_commits(repo, f"{commit.parents[0]}..{commit.sha}") if commit.is_merge else \
        [RangeCommit(commit.sha, commit.author_email, commit.author_name, f"{commit.subject}\n\n{commit.body}",
                     commit.authored, commit.parents)]
    texts = [r.message for r in rows]
    return Landed(split_renames(tuple(patches)), identities(rows), from_texts(texts), conf.acks,
                  pr_number(commit), frozenset({commit.sha, *(r.sha for r in rows)}), patches, "\n".join(texts),
                  commit.parents[0][:12], conf.config.get("revert.ack_file") or ".leverguard-acks", True,
                  parent_position, bot=by_dependency_bots(rows),
                  subject=commit.subject, title=pr_title(commit), time=commit.time, merge=commit.is_merge,
                  authored=authored(rows),
                  subjects=branch_subjects(rows) if commit.is_merge else (),
                  agent=is_agent_work(texts, ((r.email, r.name) for r in rows)), head=commit.sha,
                  grafted=grafts(rows))


def _branch_name(repo: str, branch: str) -> str:
    if branch == "HEAD":
        ref = git.symbolic_ref("HEAD", repo)
        return ref.removeprefix("refs/heads/") if ref else "HEAD"
    return branch


def _notes(shallow: bool, commits: list[Commit], audited: int, size: int) -> tuple[str, ...]:
    if shallow and commits and not commits[-1].parents:
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
