"""check-revert: what landing HEAD on BASE would undo of BASE's recent first-parent commits.

Git processes: rev-parse (with the merge bases), merge-tree, the landing change's raw records and then
its `-U0` patch, the window's log, one object reader, one `diff-tree --stdin` for the candidates that
share a path with the change; and only when something was found, the range's log (which also tells
whether it holds a merge to re-merge, read once more when a hunk asks) and one `diff-tree --stdin`
counting the lines of candidates not read whole: nine at most for a change without merges, eight when HEAD
is based on BASE or the raw records already show whole files put back (their candidates are read whole). The log
starts first and the candidates' diff-tree as soon as the raw records name the paths, so git works on
two cores while Python parses what has arrived.
"""

from __future__ import annotations

from functools import cache

from leverguard import git
from leverguard.errors import GitError, LeverguardError
from leverguard.records import NamedTuple
from leverguard.revert import candidates, landing, settings
from leverguard.revert.attribution import Landed, findings
from leverguard.revert.context import Context
from leverguard.revert.declared import Declarations, from_texts, title_of
from leverguard.revert.findings import RevertFinding, blocks
from leverguard.revert.identity import Identities, is_agent_work, by_dependency_bots
from leverguard.revert.model import Commit, RangeCommit, display
from leverguard.revert.patch import MAX_PATCH_LINES, FilePatch
from leverguard.revert.reading import Early, low, candidate_patches
from leverguard.revert.remerge import Resolutions
from leverguard.revert.signals import PathHit, collect

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, Sequence
    from leverguard.config import Config
    from leverguard.session import Session

RANGE_FORMAT = "%H%x1f%P%x1f%at%x1f%aE%x1f%aN%x1f%B"  # (the fields git takes any byte in, last)


class RevertOptions(NamedTuple):
    """How to check; `None` window/since take the values configured at BASE (150, no bound)."""

    window: int | None = None
    since: str | None = None
    strict: bool = False
    pr_body: str | None = None
    extra_declared: tuple[str, ...] = ()  # e.g. ("#221", "abc1234") from a PR label or body override
    own_pr: int | None = None  # skip candidates carrying the PR's own number
    config: Config | None = None  # None: read config and ack file from the BASE commit
    write_cache: bool = True  # False: write nothing into the repository (not the user's own, or read-only)


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


def check_range(session: Session, base: str, head: str, options: RevertOptions) -> RevertReport:
    """What landing HEAD on BASE would undo; works in bare and blobless repositories."""
    repo, (base_sha, head_sha, bases) = session.repo, session.resolve_range(base, head)
    git_dir, reader = session.work_git_dir, session.reader
    try:
        conf = settings.load(session, base_sha, options.config, git_dir if options.write_cache else None)
    except LeverguardError:
        landing.resolved(repo, base, head, base_sha, head_sha, tuple(git.attribute_free(git_dir)))
        raise  # a bad range is reported first
    limit = conf.config.get("max_file_size")
    isolation = tuple(git.attribute_free(git_dir, limit))  # blobs over the limit: ids and sizes only
    size = options.window if options.window is not None else conf.config.get("revert.window")
    since = options.since if options.since is not None else conf.config.get("revert.since")
    if size < 1:
        raise LeverguardError(f"a window of {size} commits checks nothing: give --window 1 or more (default 150)")
    if since:
        git.date_bound(since, repo)
    ctx = Context(repo, reader, conf.rules, isolation)
    early = Early(repo, candidates.start_window(repo, base_sha, size, since), ctx)  # git walks it meanwhile
    try:
        land = landing.resolved(repo, base, head, base_sha, head_sha, isolation, lambda oid: _size(reader, oid), bases,
                                early.listed)
        base_time = _commit_time(reader, land.merge_base)
        if land.empty:
            note = "HEAD is already contained in BASE: landing it changes nothing"
            return RevertReport(land.base, land.head, land.merge_base, False, (), options.strict, True,
                                base_time, notes=(note,))
        window, index = early.window()
        lo = low(window, land.merge_base, land.approximate)
        patch_of = candidate_patches(repo, land.patches, index, lo, len(window), ctx, early.take(land.patches, lo))
    finally:
        early.close()
    # the change's own commits, read once, when a hunk or a finding first asks: whether it holds a merge to
    # re-merge, and its authors and messages
    rows = cache(lambda: range_commits(repo, f"{land.merge_base}..{land.head}"))
    resolutions = Resolutions(repo, f"{land.merge_base}..{land.head}", reader, isolation,
                              lambda: any(not r.email for r in rows()))  # read only if a hunk asks
    hits = collect(land.patches, index, lo, len(window), patch_of, conf.rules, resolutions,
                   git.Submodules(session.where.git_dir))
    head_time = _commit_time(reader, land.head) if hits else 0
    found = judge(hits, window, ctx, lambda: _landed(repo, land, rows(), options, conf, window, head_time)) \
        if hits else []
    large = _large_files(reader, land.patches, limit)
    notes = _notes(session.where.shallow, window, size, land.approximate) + large
    truncated = any(note.startswith("shallow clone") for note in notes)
    if truncated and not any(blocks(f, options.strict) for f in found):
        # evidence short of a failure proves nothing when the history it was looked for in is missing
        raise GitError(f"incomplete check: the shallow clone holds only {len(window)} of the {size} commits the "
                       f"window needs; {landing.SHALLOW_ADVICE}")
    return RevertReport(land.base, land.head, land.merge_base, land.approximate, tuple(found), options.strict,
                        False, base_time, len(window), len(land.changes), notes)


def judge(hits: list[PathHit], commits: Sequence[Commit], ctx: Context, landed: Any) -> list[RevertFinding]:
    """Findings from HITS; LANDED (authors, declarations) is built only now that something was found."""
    ctx.count_lines(commits[p] for p in sorted({h.position for h in hits}))
    return findings(hits, commits, landed(), ctx)


def range_commits(repo: str, rev_range: str) -> list[RangeCommit]:
    """Every commit in REV_RANGE (a merge with no e-mail: it names no author)."""
    records = git.range_log(rev_range, RANGE_FORMAT, repo)
    rows = [r.decode("utf-8", "replace").lstrip("\n").split("\x1f", 5) for r in records]
    return [RangeCommit(r[0], "" if " " in r[1].strip() else r[3].lower(), r[4], r[5], int(r[2]) if r[2].isdigit() else 0,
                        tuple(r[1].split())) for r in rows if len(r) == 6]


def authored(rows: Sequence[RangeCommit]) -> int:
    """When the change's own work was first written (its earliest author date, merges aside; 0 unknown)."""
    return min((r.authored for r in rows if r.email and r.authored), default=0)


def identities(rows: Sequence[RangeCommit]) -> Identities:
    return Identities(((r.email, r.name) for r in rows if r.email), (r.message for r in rows))


def resolve_ranges(declarations: Declarations, commits: Sequence[Commit]) -> Declarations:
    """`reverts the commit range A..B`: every first-parent candidate after A up to B is declared."""
    if not declarations.ranges:
        return declarations
    shas: set[str] = set()
    for start, end in declarations.ranges:
        positions = {c.sha: i for i, c in enumerate(commits)}
        newest = next((i for sha, i in positions.items() if sha.startswith(end)), None)
        oldest = next((i for sha, i in positions.items() if sha.startswith(start)), None)
        if newest is not None and oldest is not None:
            shas |= {c.sha for c in commits[newest:oldest]}
    return declarations.with_shas(shas)


def branch_subjects(rows: Sequence[RangeCommit]) -> tuple[str, ...]:
    """The subjects of the range's commits that are no merges (a merge's own subject names a branch)."""
    return tuple(r.message.split("\n", 1)[0] for r in rows if r.email)


def grafts(rows: Sequence[RangeCommit]) -> bool:
    """Whether a merge of the change's commits (ROWS, every commit the base lacks) joins a history with no
    commit in common: that history's root commit is then one of them, as no other root is."""
    return any(not r.parents for r in rows)


def _landed(repo: str, land: landing.Landing, rows: Sequence[RangeCommit], options: RevertOptions,
            conf: settings.Settings, window: Sequence[Commit], head_time: int) -> Landed:
    texts = [r.message for r in rows] + ([options.pr_body] if options.pr_body else [])
    declarations = resolve_ranges(from_texts(texts, options.extra_declared), window)
    return Landed(land.changes, identities(rows), declarations, conf.acks, options.own_pr,
                  frozenset(r.sha for r in rows), land.patches, "\n".join(texts), land.base[:12],
                  conf.config.get("revert.ack_file") or ".leverguard-acks", False,
                  next((i for i, c in enumerate(window) if c.sha == land.merge_base), 0),
                  bot=by_dependency_bots(rows),
                  subject=rows[0].message.split("\n", 1)[0] if rows else "", time=head_time, authored=authored(rows),
                  title=options.pr_body.strip().split("\n", 1)[0] if options.pr_body else _merged_title(rows),
                  merge=any(not r.email for r in rows), subjects=branch_subjects(rows),
                  agent=is_agent_work(texts, ((r.email, r.name) for r in rows)), head=land.head,
                  grafted=grafts(rows))


def _merged_title(rows: Sequence[RangeCommit]) -> str:
    """A merged PR's title when the change's newest commit is its merge (`Merge pull request #7046 ...`, then
    `Release 2.6.0~alpha1`), as the audit reads it; nothing otherwise."""
    if not rows or rows[0].email:  # (a merge's row carries no author: `RangeCommit`)
        return ""
    subject, _, body = rows[0].message.partition("\n")
    title = title_of(subject, body)
    return title if title != subject.strip() else ""


def _size(reader: git.ObjectReader, oid: str) -> int | None:
    found = reader.info(oid)
    return found[1] if found is not None else None


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


def _large_files(reader: git.ObjectReader, patches: Sequence[FilePatch], limit: int) -> tuple[str, ...]:
    """A note naming the changed files over `max_file_size`: git diffed them by id and size only (issue #11),
    so a rollback of one is still found but no line of it was compared. Only binary-looking patches are
    asked about, through the object reader already running: no further git process. Another for the files
    whose patch was too large to read line by line (MAX_PATCH_LINES)."""
    over: list[tuple[str, int]] = []
    for patch in patches:
        if patch.text or patch.oversized:
            continue
        states = [s for s in (patch.change.old, patch.change.new) if s is not None and s.is_blob]
        sizes = [found[1] for s in states if (found := reader.info(s.oid)) is not None]
        if sizes and max(sizes) > limit:
            over.append((display(patch.change.path), max(sizes)))
    notes = []
    if over:
        named = _some([f"{path} ({git.size_text(size)})" for path, size in over])
        notes.append(f"{len(over)} changed file{'s'[:len(over) != 1]} over max_file_size ({git.size_text(limit)}) compared "
                     f"by object id and size only, no line-level check: {named}")
    huge = [display(p.change.path) for p in patches if p.oversized]
    if huge:
        notes.append(f"{len(huge)} changed file{'s'[:len(huge) != 1]} with over {MAX_PATCH_LINES:,} changed lines compared by "
                     f"object id only, no line-level check: {_some(huge)}")
    return tuple(notes)


def _some(names: Sequence[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _notes(shallow: bool, window: list[Any], size: int, approximate: bool) -> tuple[str, ...]:
    notes = []
    if approximate:
        notes.append("landing HEAD conflicts with BASE: the branch's own change (merge base to HEAD) was checked instead")
    if shallow and len(window) < size and window and not window[-1].parents:
        notes.append(f"shallow clone: only {len(window)} of {size} candidate commits are present; "
                     f"{landing.SHALLOW_ADVICE}")
    return tuple(notes)
