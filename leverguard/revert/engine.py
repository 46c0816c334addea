"""check-revert: what landing HEAD on BASE would undo of BASE's recent first-parent commits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from leverguard import git
from leverguard.errors import LeverguardError
from leverguard.revert import candidates, landing, settings
from leverguard.revert.attribution import Landed, findings
from leverguard.revert.background import Background
from leverguard.revert.context import Context
from leverguard.revert.declared import from_texts
from leverguard.revert.findings import RevertFinding, blocks
from leverguard.revert.index import PathIndex
from leverguard.revert.lines import LineCache
from leverguard.revert.model import Change, Commit
from leverguard.revert.signals import collect, moved_out

if TYPE_CHECKING:
    from leverguard.config import Config

RANGE_FORMAT = "%H%x1f%P%x1f%ae%x1f%B"
COUNT_AHEAD = 4  # candidates sharing a path with the change whose lines are counted on a thread
MAX_LINE_FILES = 5000  # landing changes touching more paths: blob comparison only (no line-level work)


class RevertOptions(NamedTuple):
    """How to check; `None` window/since take the values configured at BASE (150, no bound)."""

    window: int | None = None
    since: str | None = None
    strict: bool = False
    pr_body: str | None = None
    extra_declared: tuple[str, ...] = ()  # e.g. ("#221", "abc1234") from a PR label or body override
    own_pr: int | None = None  # skip candidates carrying the PR's own number
    config: Config | None = None  # None: read config and ack file from the BASE commit


class RevertReport(NamedTuple):
    """The result of one check: the JSON contract of issue #3 plus a few extra fields."""

    base: str
    head: str
    merge_base: str
    approximate: bool
    findings: tuple[RevertFinding, ...]
    strict: bool = False
    empty: bool = False
    merge_base_time: int = 0
    candidates: int = 0
    landing_paths: int = 0
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base, "head": self.head, "merge_base": self.merge_base,
            "approximate": self.approximate, "findings": [f.to_dict() for f in self.findings],
            "empty": self.empty, "candidates": self.candidates, "landing_paths": self.landing_paths,
            "notes": list(self.notes),
        }

    def exit_code(self) -> int:
        return 1 if any(blocks(f, self.strict) for f in self.findings) else 0


def check_range(repo: str, base: str, head: str, options: RevertOptions) -> RevertReport:
    """What landing HEAD on BASE would undo; works in bare and blobless repositories."""
    git_dir, (base_sha, head_sha) = git.rev_parse_git_dir([base, head], repo)
    with git.ObjectReader(repo) as reader:
        try:
            conf = settings.load(reader, base_sha, options.config, git_dir)
        except LeverguardError:
            landing.resolved(repo, base, head, base_sha, head_sha)  # a bad range is reported first
            raise
        size = options.window if options.window is not None else conf.config.get("revert.window")
        since = options.since if options.since is not None else conf.config.get("revert.since")
        # the window's log (and its parsing) runs while git computes the landing change
        pending = Background(_window_and_promisor, repo, base_sha, size, since)
        try:
            land = landing.resolved(repo, base, head, base_sha, head_sha)
        finally:
            pending.join()
        base_time = _commit_time(reader, land.merge_base)
        if land.empty:
            note = "HEAD is already contained in BASE: landing it changes nothing"
            return RevertReport(land.base, land.head, land.merge_base, False, (), options.strict, True,
                                base_time, notes=(note,))
        window, promisor = pending.result()
        ctx = Context(repo, reader, LineCache(repo, promisor=promisor), conf.rules.reported, conf.rules.line_level)
        # approximate (the branch's own diff): it cannot have undone main commits it never contained
        lo = next((i for i, c in enumerate(window) if c.sha == land.merge_base), 0) if land.approximate else 0
        index = PathIndex(window)
        rows = _ahead(repo, land, index, lo, ctx)
        try:
            found = run_signals(land.changes, window, lo, len(window), lambda: _landed(repo, land, options, conf, rows),
                                ctx, index)
        finally:
            ctx.settle()
            if rows is not None:
                rows.join()
    notes = _notes(repo, window, size, land.approximate, len(land.changes))
    return RevertReport(land.base, land.head, land.merge_base, land.approximate, tuple(found), options.strict,
                        False, base_time, len(window), len(land.changes), notes)


def _ahead(repo: str, land: landing.Landing, index: PathIndex, lo: int,
           ctx: Context) -> Background[list[tuple[str, str, str]]] | None:
    """When a few candidates share a path with the change (the ones it can undo), start on threads
    what judging their hits needs: their changed lines and the range's commits. None: nothing started.
    """
    positions = {p for change in land.changes for p, _ in index.touching(change.path, lo, len(index.commits))}
    if not positions or len(positions) > COUNT_AHEAD:
        return None
    ctx.count_ahead([index.commits[p] for p in sorted(positions)])
    return Background(range_commits, repo, f"{land.merge_base}..{land.head}")


def _window_and_promisor(repo: str, base: str, size: int, since: str | None) -> tuple[list[Commit], str]:
    """The candidate window, and the promisor remote of a partial clone ("" for a full clone)."""
    return candidates.window(repo, base, size, since), git.promisor_remote(repo) or ""


def run_signals(changes: Sequence[Change], commits: Sequence[Commit], lo: int, hi: int,
                landed: Callable[[], Landed], ctx: Context, index: PathIndex | None = None) -> list[RevertFinding]:
    """Signals of CHANGES against commits [lo, hi) of a newest-first list, judged into findings.

    LANDED (authors, declarations) is only built when some signal fired: most audited commits
    have none, and reading their range's messages would cost a git call each.
    """
    index = index if index is not None else PathIndex(commits)
    line_level = ctx.line_level if len(changes) <= MAX_LINE_FILES else (lambda path: False)
    hits, model = collect(changes, index, lo, hi, ctx.cache, line_level)
    if not hits or model is None:
        return []
    hits = [h for h in hits if not moved_out(h, model, ctx.cache)]
    return findings(hits, commits, landed(), ctx, model.all_added) if hits else []


def range_commits(repo: str, rev_range: str) -> list[tuple[str, str, str]]:
    """(sha, lower-cased author e-mail or "" for merges, message) of every commit in REV_RANGE.

    A merge's author is whoever pressed the button, not who wrote the work: it names no author.
    """
    records = git.range_log(rev_range, RANGE_FORMAT, repo)
    rows = [r.decode("utf-8", "replace").lstrip("\n").split("\x1f", 3) for r in records]
    return [(r[0], "" if " " in r[1].strip() else r[2].lower(), r[3]) for r in rows if len(r) == 4]


def authors(rows: list[tuple[str, str, str]]) -> frozenset[str]:
    return frozenset(r[1] for r in rows if r[1])


def _landed(repo: str, land: landing.Landing, options: RevertOptions, conf: settings.Settings,
            ahead: Background[list[tuple[str, str, str]]] | None = None) -> Landed:
    rows = ahead.result() if ahead is not None else range_commits(repo, f"{land.merge_base}..{land.head}")
    texts = [r[2] for r in rows] + ([options.pr_body] if options.pr_body else [])
    declarations = from_texts(texts, options.extra_declared)
    return Landed(land.changes, authors(rows), declarations, conf.acks,
                  options.own_pr, frozenset(r[0] for r in rows))


def _commit_time(reader: git.ObjectReader, sha: str) -> int:
    found = reader.read(sha)
    if found is None:
        return 0
    for line in found[1].split(b"\n"):
        if line.startswith(b"committer "):
            return int(line.rsplit(b" ", 2)[-2])
        if not line:
            break
    return 0


def _notes(repo: str, window: list[Any], size: int, approximate: bool, landing_paths: int) -> tuple[str, ...]:
    notes = []
    if landing_paths > MAX_LINE_FILES:
        notes.append(f"the change touches {landing_paths} paths: only whole-file (blob) signals were checked")
    if approximate:
        notes.append("landing HEAD conflicts with BASE: the branch's own change (merge base to HEAD) was checked instead")
    if len(window) < size and window and not window[-1].parents and git.is_shallow(repo):
        notes.append(f"shallow clone: only {len(window)} of {size} candidate commits are present; "
                     f"{landing.SHALLOW_ADVICE}")
    return tuple(notes)
