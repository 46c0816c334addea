"""The candidates' `-U0` patches: which to read, one `diff-tree --stdin` for them, started early."""

from __future__ import annotations

from leverguard import git
from leverguard.errors import GitError
from leverguard.records import NamedTuple
from leverguard.revert import candidates
from leverguard.revert.context import MAX_COUNTED_FILES, Context
from leverguard.revert.index import PathIndex
from leverguard.revert.model import Change, Commit
from leverguard.revert.patch import FilePatch, parse_commits, reading_views

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence

    from leverguard.revert.signals import PatchOf

WHOLE_PATCHES = 12  # up to this many candidates, their whole patches come in the one call (and count their lines)
MAX_PATHSPECS = 500  # more landing paths than this: candidates' patches are read whole and filtered here


class _Plan(NamedTuple):
    """Which candidates' patches to read: per wanted path its candidates' positions, and how to ask git."""

    wanted: dict[bytes, list[int]]
    shas: list[str]
    paths: list[bytes]  # the pathspecs; none: whole patches
    counted: set[str]  # the candidates whose lines the read counts too


def _plan(landing_patches: Sequence[FilePatch], index: PathIndex, lo: int, hi: int, ctx: Context) -> _Plan:
    wanted: dict[bytes, list[int]] = {}
    whole_files = False
    for patch, path in reading_views(landing_patches):
        if ctx.reported(path) and not ctx.rules.regenerated(path):
            entries = index.touching(path, lo, hi)
            if entries:
                wanted[path] = [p for p, _ in entries]
                whole_files = whole_files or _whole_file(patch.change, [c for _, c in entries])
    commits = {index.commits[p] for positions in wanted.values() for p in positions}
    # whole patches when the raw records already show a finding and the candidates are of ordinary size: the
    # same call then counts their lines; a change with none (most) reads only its own paths of them, half
    # the blobs, and counts lines once a hunk is found undone
    whole = whole_files and len(commits) <= WHOLE_PATCHES and all(len(c.changes) <= MAX_COUNTED_FILES for c in commits)
    paths = [] if whole or len(wanted) > MAX_PATHSPECS else list(wanted)
    # a candidate whose reported paths are all asked for comes whole in a limited read too: its lines
    # are counted from it, not from a second diff-tree once it is found (at most 8 git processes)
    counted = {c.sha for c in commits if whole or (c.parents and len(c.changes) <= MAX_COUNTED_FILES and (
        not paths or all(ch.path in wanted for ch in c.changes if ctx.reported(ch.path))))}
    return _Plan(wanted, sorted(c.sha for c in commits), paths, counted)


def _whole_file(change: Change, candidates: Sequence[Change]) -> bool:
    """Whether the change deletes a path the CANDIDATES changed, or writes a version of it that one of them
    replaced or deleted: a finding at the level of whole files, seen in the raw records alone."""
    if change.new is None:
        return True
    return any(c.old is not None and c.old.oid == change.new.oid for c in candidates)


class Early:
    """The window's log started first, and the candidates' patches started from the landing's raw records,
    so that git diffs them on one core while it diffs the landing on the other (REVERTS.md, "Cost")."""

    def __init__(self, repo: str, log: git.Process | None, ctx: Context) -> None:
        self._repo, self._log, self._ctx = repo, log, ctx
        self._window: tuple[list[Commit], PathIndex] | None = None
        self._started: tuple[_Plan, int, git.Drained] | None = None

    def window(self) -> tuple[list[Commit], PathIndex]:
        if self._window is None:
            log, self._log = self._log, None
            commits = candidates.read_window(log)
            self._window = commits, PathIndex(commits)
        return self._window

    def listed(self, raw: list[FilePatch], merge_base: str, approximate: bool) -> None:
        """The landing's paths are known: start the candidates' patches, unless git may pair an added and a
        deleted path as a move (then the candidates follow the move's source, known after the patch)."""
        if any(p.change.added for p in raw) and any(p.change.deleted for p in raw):
            return
        commits, index = self.window()
        lo = low(commits, merge_base, approximate)
        plan = _plan(raw, index, lo, len(commits), self._ctx)
        started = git.start_commit_patches(plan.shas, plan.paths, self._repo, self._ctx.isolation)
        if started is not None:
            self._started = plan, lo, started

    def take(self, landing_patches: Sequence[FilePatch], lo: int) -> tuple[_Plan, git.Drained] | None:
        """The started read, when it asked what the landing's patches ask (else it is stopped)."""
        started, self._started = self._started, None
        if started is None:
            return None
        plan, started_lo, process = started
        commits, index = self.window()
        if started_lo == lo and _plan(landing_patches, index, lo, len(commits), self._ctx) == plan:
            return plan, process
        process.close()
        return None

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
        if self._started is not None:
            self._started[2].close()


def low(window: Sequence[Commit], merge_base: str, approximate: bool) -> int:
    """approximate (the branch's own diff): it cannot have undone main commits it never contained"""
    return next((i for i, c in enumerate(window) if c.sha == merge_base), 0) if approximate else 0


def candidate_patches(repo: str, landing_patches: Sequence[FilePatch], index: PathIndex, lo: int, hi: int,
                      ctx: Context, started: tuple[_Plan, git.Drained] | None = None) -> PatchOf:
    """The `-U0` patches of the candidates sharing a reported path with the change, from one git call
    (STARTED: already running, from `Early`)."""
    plan = started[0] if started is not None else _plan(landing_patches, index, lo, hi, ctx)
    wanted, shas, paths, counted = plan
    store: dict[tuple[str, bytes], FilePatch] = {}
    if shas:
        blocks = started[1].blocks() if started is not None else \
            git.commit_patch_blocks(shas, paths, repo, ctx.isolation)  # parsed while git diffs the rest
        try:
            for header, files in parse_commits(b"", blocks):
                sha = header.decode("ascii", "replace").strip()
                if sha in counted:
                    ctx.known_lines(sha, ctx.reported_lines(files))
                for patch in files:
                    if patch.change.path in wanted:
                        store[(sha, patch.change.path)] = patch
        except GitError:
            for _ in blocks:  # a patch cut short: git's own failure (a missing object) says why
                pass
            raise

    def patch_of(position: int, path: bytes) -> FilePatch | None:
        return store.get((index.commits[position].sha, path))

    return patch_of
