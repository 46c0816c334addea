"""Candidates: BASE's first-parent commits in a window, read with one streamed `git log --raw -z`."""

from __future__ import annotations

from leverguard import git
from leverguard.errors import GitError
from leverguard.records import NamedTuple
from leverguard.revert.model import Change, Commit, parse_raw
from leverguard.revert.patch import FilePatch, parse_commits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Generator, Iterable, Iterator, Sequence

# One record separator before each commit and a unit separator after each field; `-z` ends the
# header with NUL, then the raw records follow as `:meta NUL path NUL` fields.
LOG_FORMAT = "%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%ct%x1f%at%x1f%s%x1f%b%x1f"


def parse_log(fields: Iterable[bytes]) -> Iterator[Commit]:
    """Commits (with their first-parent changes) from the fields of `git log LOG_FORMAT --raw -z`."""
    header: list[str] | None = None
    changes: list[Change] = []
    pending_meta: bytes | None = None
    for field in fields:
        if pending_meta is not None:
            changes.append(parse_raw(pending_meta, field))
            pending_meta = None
            continue
        stripped = field.lstrip(b"\n")
        if stripped.startswith(b"\x1e"):
            if header is not None:
                yield _commit(header, changes)
            header, changes = stripped[1:].decode("utf-8", "replace").split("\x1f"), []
        elif stripped.startswith(b":"):
            pending_meta = stripped
    if header is not None:
        yield _commit(header, changes)


def _commit(header: list[str], changes: list[Change]) -> Commit:
    """A commit from LOG_FORMAT's fields. A name, an address or a message may hold the unit separator itself
    (git takes any byte there): the two dates, the first pair of numeric fields after the name, anchor the rest."""
    at = next((i for i in range(3, len(header) - 1) if header[i].isdigit() and header[i + 1].isdigit()), 4)
    header = [*header, "", "", "", ""]  # (a header cut short reads as empty fields)
    sha, parents, name, email = header[0], header[1], "\x1f".join(header[2:at - 1]), header[at - 1]
    time, authored, subject = header[at], header[at + 1], header[at + 2]
    body = "\x1f".join(header[at + 3:]).strip("\x1f")
    return Commit(sha, tuple(parents.split()), name, email.lower(), int(time) if time.isdigit() else 0, subject,
                  body.strip(), tuple(changes), int(authored) if authored.isdigit() else 0)


def window(repo: str, base: str, size: int, since: str | None) -> list[Commit]:
    """BASE and its first-parent ancestors, newest first: at most SIZE, none older than SINCE."""
    return read_window(start_window(repo, base, size, since))


def start_window(repo: str, base: str, size: int, since: str | None) -> git.Process | None:
    """`window`'s log, started now and read by `read_window`: git walks it while the landing is computed."""
    if size <= 0:
        return None
    return git.Process(git.first_parent_args(base, LOG_FORMAT, size, since or None), repo)


def read_window(started: git.Process | None) -> list[Commit]:
    if started is None:
        return []
    try:
        return list(parse_log(git.fields(started.blocks())))
    finally:
        started.close()


class Entry(NamedTuple):
    """One commit of an audited history: its patches, or None and why they could not be read."""

    commit: Commit
    files: list[FilePatch] | None  # None: not checked (objects missing)
    missing: tuple[str, ...] = ()  # the object ids git could not read
    reason: str = ""


MAX_LITERAL_EXCLUDES = 512  # lock files left out of the patches by path; more, and by git's globs
IN_FLIGHT = 32  # commits asked of `diff-tree --stdin` ahead of the one being parsed: git works meanwhile


def history_patches(repo: str, tip: str, max_count: int | None, lock_files: Sequence[str] = (),
                    isolation: tuple[str, ...] = (), missing: frozenset[str] | None = None) -> Iterator[Entry]:
    """TIP's first-parent history, newest first, each commit with its `-U0` patch (issue #9).

    Two git processes instead of one `log -p`, because `log -p` dies at the first object it
    cannot read: `log --raw` (object ids only, no blob read) lists the commits, and one
    `diff-tree --stdin` reads their patches, IN_FLIGHT commits ahead, LOCK_FILES left out (their
    churn would cost more than all the rest). A commit whose objects are MISSING (a partial
    clone's, known up front; None for a repository that should hold everything) or make
    diff-tree fail is yielded without patches, and the history goes on.

    The lock files are left out by diff-tree: a commit that changed only lock files comes with no
    patch, but it stays in the history (as in `check-revert`'s window: the recency of the commits
    behind it counts every first-parent commit, and `--max-count` the newest N). They are named
    there by their paths, which the history's raw listing gives: git matches a `:(glob)**/name`
    exclude against every tree entry it walks, pattern by pattern (citus' history: 13 times the
    diff's own cost).
    """
    excluded = _glob_matcher([f"**/{name}" for name in lock_files])
    large, locks = _left_out_paths(repo, tip, max_count, excluded, git.threshold(isolation), isolation,
                                missing or frozenset())
    excludes = git.excluding(git.fsdecode(path) for path in locks) if len(locks) <= MAX_LITERAL_EXCLUDES \
        else [f":(exclude,glob)**/{name}" for name in lock_files]
    unread = git.excluding(git.fsdecode(path) for path in large)
    args = [*git.PATCH_ARGS, "--no-renames", "--diff-merges=first-parent", "--format=%x1e%H", "--",
            *(["."] + excludes + unread if excludes or unread else [])]
    left = max_count
    with git.PatchReader(args, repo, isolation) as reader:
        pending: list[tuple[Entry, bool]] = []  # (entry, its patch is awaited from diff-tree), oldest first
        raw = _raw_history(repo, tip, ["."], isolation)
        try:
            for entry in raw:
                entry = _without(entry, excluded)
                awaited = entry.files is not None and bool(entry.commit.parents)  # a root undoes nothing: no patch
                lacking = _lacking(entry.commit, missing) if awaited and missing else ()
                if lacking:
                    entry, awaited = Entry(entry.commit, None, lacking, "objects missing"), False
                if awaited:
                    reader.ask(entry.commit.sha)
                pending.append((entry, awaited))
                while pending and (reader.waiting >= IN_FLIGHT or not pending[0][1]):
                    yield _next(pending, reader, repo, missing is not None, large)
                    left = None if left is None else left - 1
                    if left == 0:
                        return
            while pending and left != 0:
                yield _next(pending, reader, repo, missing is not None, large)
                left = None if left is None else left - 1
        finally:
            raw.close()  # an audit of the newest N stops the log here


def _next(pending: list[tuple[Entry, bool]], reader: git.PatchReader, repo: str,
          partial_clone: bool, large: frozenset[bytes] = frozenset()) -> Entry:
    """The oldest pending entry, with its patches when they were awaited (none for a commit that changed
    only lock files: diff-tree printed nothing for it). Changes to LARGE paths come as raw-only patches
    (ids, no content)."""
    entry, awaited = pending.pop(0)
    if not awaited:
        return entry
    data = reader.answer()
    if data is not None and reader.passed_over:  # a patch too large to read line by line: ids only
        return Entry(entry.commit, [FilePatch(c, (), False, oversized=True) for c in entry.commit.changes])
    if data is not None:
        files = [f for _, found in parse_commits(data) for f in found]
        files += [FilePatch(c, (), False) for c in entry.commit.changes if c.path in large]
        if not files:
            return Entry(entry.commit._replace(changes=()), [])
        files.sort(key=lambda f: f.change.path)
        return Entry(entry.commit._replace(changes=tuple(f.change for f in files)), files)
    error = reader.failure()  # git died at this commit
    if not isinstance(error, git.MissingObjects):
        raise error  # not a missing object: a real failure, never a commit quietly left out
    oids = list(error.oids)
    if not partial_clone:  # (offline, a partial clone's git < 2.44 would die on the first lookup)
        wanted = list(_blob_ids(entry.commit))
        found = git.object_sizes(wanted, repo)
        oids = list(dict.fromkeys([*oids, *(oid for oid in wanted if oid not in found)]))
    return Entry(entry.commit, None, tuple(oids), "objects missing")


def _without(entry: Entry, excluded: Callable[[bytes], bool]) -> Entry:
    """ENTRY without the raw changes of lock files (what a commit not read by diff-tree is indexed with)."""
    changes = tuple(c for c in entry.commit.changes if not excluded(c.path))
    if len(changes) == len(entry.commit.changes):
        return entry
    return entry._replace(commit=entry.commit._replace(changes=changes))


def _glob_matcher(patterns: Sequence[str]) -> Callable[[bytes], bool]:
    """git's `:(glob)` pathspec match (`**/` any folders, `*` and `?` within one) for raw paths."""
    if not patterns:
        return lambda path: False
    import re

    def part(pattern: str) -> str:
        out, i = [], 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                out.append("(?:.*/)?")
                i += 3
            elif pattern.startswith("**", i):
                out.append(".*")
                i += 2
            elif pattern[i] == "*":
                out.append("[^/]*")
                i += 1
            elif pattern[i] == "?":
                out.append("[^/]")
                i += 1
            else:
                out.append(re.escape(pattern[i]))
                i += 1
        return "".join(out)

    # `**/name` patterns (most lock files) are looked up or matched by the last component alone, and each
    # path is matched once: an alternation of `(?:.*/)?` prefixes backtracks over every folder of every
    # path (slither's 14,000-file test move, read three times: 9 s)
    def compiled(chosen: list[str]) -> re.Pattern[bytes] | None:
        return re.compile("|".join(f"(?:{part(p)})" for p in chosen).encode(), re.DOTALL) if chosen else None

    names = [p[3:] for p in patterns if p.startswith("**/") and "/" not in p[3:]]
    literal = frozenset(name.encode() for name in names if not any(mark in name for mark in "*?"))
    by_name = compiled([name for name in names if name.encode() not in literal])
    by_path = compiled([p for p in patterns if not (p.startswith("**/") and p[3:] in names)])
    seen: dict[bytes, bool] = {}

    def match(path: bytes) -> bool:
        found = seen.get(path)
        if found is None:
            name = path.rpartition(b"/")[2]
            found = seen[path] = name in literal or bool(by_name and by_name.fullmatch(name)) or \
                bool(by_path and by_path.fullmatch(path))
        return found
    return match


def _lacking(commit: Commit, missing: frozenset[str]) -> tuple[str, ...]:
    """The blobs COMMIT's patch would read that the repository lacks."""
    return tuple(dict.fromkeys(oid for oid in _blob_ids(commit) if oid in missing))


def _raw_history(repo: str, tip: str, pathspecs: list[str], isolation: tuple[str, ...]) -> Generator[Entry, None, None]:
    """The first-parent commits with their raw changes, as far as the caller reads; a commit whose
    tree is unreadable comes without changes.

    `git log --raw` dies at such a commit before printing it (everything before is complete):
    the commit is read alone, without its tree, and the log resumes at its first parent.
    """
    start: str | None = tip
    while start is not None:
        failure: list[GitError] = []
        last: Commit | None = None
        args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames", "--no-abbrev",
                "-z", f"--format={LOG_FORMAT}", start, "--", *pathspecs]
        for last in parse_log(_surviving(git.stream(args, repo, isolation), failure)):
            yield Entry(last, [])
        if not failure:
            return
        if not isinstance(failure[0], git.MissingObjects):
            raise failure[0]
        unreadable = start if last is None else (last.parents[0] if last.parents else None)
        if unreadable is None:
            return
        entry = _commit_alone(repo, unreadable, failure[0].oids)
        yield entry
        start = entry.commit.parents[0] if entry.commit.parents else None


def _surviving(fields: Iterator[bytes], failure: list[GitError]) -> Iterator[bytes]:
    """FIELDS until git fails; the failure is kept for the caller, the fields read so far still count."""
    try:
        yield from fields
    except GitError as exc:
        failure.append(exc)


def _commit_alone(repo: str, sha: str, oids: tuple[str, ...]) -> Entry:
    """A commit whose tree cannot be read: its header only; a commit object missing ends the history."""
    try:
        text = git.output(["log", "-1", "--no-walk", f"--format={LOG_FORMAT}", sha, "--"], repo)
    except GitError:
        stub = Commit(sha, (), "", "", 0, "", "", ())
        return Entry(stub, None, (sha,), "commit missing: the history ends here")
    commit = _commit(text.lstrip("\x1e").split("\x1f"), [])
    parent = next((p for p in commit.parents if p in oids), None)
    return Entry(commit, None, oids, f"its parent {parent[:12]} is missing" if parent else "a tree it needs is missing")


def _blob_ids(commit: Commit) -> Iterator[str]:
    for change in commit.changes:
        for state in (change.old, change.new):
            if state is not None and state.is_blob:
                yield state.oid


def _left_out_paths(repo: str, tip: str, max_count: int | None, excluded: Callable[[bytes], bool], limit: int,
                 isolation: tuple[str, ...], missing: frozenset[str]) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """Paths some commit of the audited history adds or deletes as a blob over LIMIT, and the lock files
    (EXCLUDED) it changes.

    git loads an added or deleted blob whole even above `core.bigFileThreshold` (issue #11: a history
    that adds a 200 MB model cost 414 MB to audit): such paths are left out of the patches and come
    as raw-only changes, found from `git log --raw` (no blob read) and one `cat-file --batch-check`.
    A history or blob git cannot read here (MISSING: a partial clone's absent blobs) is left to the
    patch stream, which reports those commits as not checked. MAX_COUNT counts the commits that change
    more than lock files, as the audit does.
    """
    args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames", "--no-abbrev", "-z",
            f"--format={LOG_FORMAT}", tip, "--"]
    failure: list[GitError] = []
    fields = git.stream(args, repo, isolation)
    changes: list[Change] = []
    locks: set[bytes] = set()
    counted = 0
    try:
        for commit in parse_log(_surviving(fields, failure)):
            kept = []
            for change in commit.changes:
                if excluded(change.path):
                    locks.add(change.path)
                else:
                    kept.append(change)
            if not kept:
                continue
            changes += [c for c in kept if (c.old is None) != (c.new is None)]
            counted += 1
            if counted == max_count:
                break
    finally:
        fields.close()  # (an audit of the newest N stops git here)
    oids = sorted({state.oid for c in changes for state in (c.old, c.new) if state is not None and state.is_blob})
    try:
        sizes = git.object_sizes([oid for oid in oids if oid not in missing], repo)
    except GitError:
        sizes = {}
    large = frozenset(c.path for c in changes if sizes.get((c.new or c.old).oid, ("", 0))[1] > limit)  # type: ignore[union-attr]
    return large, frozenset(locks)
