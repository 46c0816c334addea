"""Candidates: BASE's first-parent commits in a window, read with one streamed `git log --raw -z`."""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import IO, Iterable, Iterator, NamedTuple

from leverguard import git
from leverguard.errors import GitError
from leverguard.revert.model import Change, Commit, parse_raw
from leverguard.revert.patch import FilePatch, parse_commits

# One record separator before each commit and a unit separator after each field; `-z` ends the
# header with NUL, then the raw records follow as `:meta NUL path NUL` fields.
LOG_FORMAT = "%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%ct%x1f%s%x1f%b%x1f"


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
    sha, parents, name, email, time, subject, body = header[:7]
    return Commit(sha, tuple(parents.split()), name, email.lower(), int(time or 0), subject,
                  body.strip(), tuple(changes))


def window(repo: str, base: str, size: int, since: str | None) -> list[Commit]:
    """BASE and its first-parent ancestors, newest first: at most SIZE, none older than SINCE."""
    if size <= 0:
        return []
    return list(parse_log(git.first_parent_log(base, LOG_FORMAT, repo, max_count=size, since=since or None)))



class Entry(NamedTuple):
    """One commit of an audited history: its patches, or None and why they could not be read."""

    commit: Commit
    files: list[FilePatch] | None  # None: not checked (objects missing)
    missing: tuple[str, ...] = ()  # the object ids git could not read
    reason: str = ""


IN_FLIGHT = 32  # commits asked of `diff-tree --stdin` ahead of the one being parsed: git works meanwhile


def history_patches(repo: str, tip: str, max_count: int | None, excludes: list[str],
                    isolation: tuple[str, ...] = (), missing: frozenset[str] | None = None) -> Iterator[Entry]:
    """TIP's first-parent history, newest first, each commit with its `-U0` patch (issue #9).

    Two git processes instead of one `log -p`, because `log -p` dies at the first object it
    cannot read: `log --raw` (object ids only, no blob read) lists the commits, and one
    `diff-tree --stdin` reads their patches. A commit whose objects are MISSING (a partial
    clone's, known up front; None for a repository that should hold everything) or make
    diff-tree fail is yielded without patches, and the history goes on after it.
    """
    pathspecs = ["."] + excludes if excludes else []
    with _Patches(repo, pathspecs, isolation, partial_clone=missing is not None) as patches:
        pending: list[tuple[Entry, bool]] = []  # (entry, its patch was asked of diff-tree), in order
        for entry in _raw_history(repo, tip, max_count, pathspecs, isolation):
            readable = entry.files is not None and entry.commit.parents  # a root undoes nothing: never read
            lacking = _lacking(entry.commit, missing or frozenset()) if readable else ()
            if lacking:
                entry = Entry(entry.commit, None, lacking, "objects missing")
            awaited = entry.files is not None and bool(entry.commit.parents)  # a root undoes nothing: no patch
            if awaited:
                patches.ask(entry.commit.sha)
            pending.append((entry, awaited))
            if sum(1 for _, waiting in pending if waiting) >= IN_FLIGHT:
                yield from _answer(pending, patches, until_next=True)
        yield from _answer(pending, patches, until_next=False)


def _answer(pending: list[tuple[Entry, bool]], patches: _Patches, until_next: bool) -> Iterator[Entry]:
    """Yield PENDING entries in order, parsing awaited patches; UNTIL_NEXT: stop before the second
    awaited one, so that the others stay in flight while the caller reads on."""
    parsed = False
    while pending:
        entry, awaited = pending[0]
        if awaited:
            if parsed and until_next:
                return
            entry = patches.answer(entry.commit)
            parsed = True
        pending.pop(0)
        yield entry


def _lacking(commit: Commit, missing: frozenset[str]) -> tuple[str, ...]:
    """The blobs COMMIT's patch would read that the repository lacks."""
    if not missing:
        return ()
    oids = (state.oid for change in commit.changes for state in (change.old, change.new)
            if state is not None and state.is_blob)
    return tuple(dict.fromkeys(oid for oid in oids if oid in missing))


def _raw_history(repo: str, tip: str, max_count: int | None, pathspecs: list[str],
                 isolation: tuple[str, ...]) -> Iterator[Entry]:
    """The first-parent commits with their raw changes; a commit whose tree is unreadable is skipped.

    `git log --raw` dies at such a commit before printing it (everything before is complete):
    the commit is read alone, without its tree, and the log resumes at its first parent.
    """
    start: str | None = tip
    left = max_count
    while start is not None and (left is None or left > 0):
        failure: list[GitError] = []
        last: Commit | None = None
        args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames", "--no-abbrev",
                "-z", f"--format={LOG_FORMAT}", *([f"--max-count={left}"] if left is not None else []),
                start, "--", *pathspecs]
        for last in parse_log(_surviving(git.stream(args, repo, isolation), failure)):
            yield Entry(last, [])
            left = None if left is None else left - 1
        if not failure:
            return
        if not isinstance(failure[0], git.MissingObjects):
            raise failure[0]
        unreadable = start if last is None else (last.parents[0] if last.parents else None)
        if unreadable is None:
            return
        entry = _commit_alone(repo, unreadable, failure[0].oids)
        yield entry
        left = None if left is None else left - 1
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


class _Patches:
    """One `git diff-tree --stdin` process; each asked commit is followed by a marker line git echoes.

    The marker (random, so no path or line can forge it) ends each commit's output, so a process
    that dies is known to have died at the first commit whose marker never came.
    """

    def __init__(self, repo: str, pathspecs: list[str], isolation: tuple[str, ...], partial_clone: bool) -> None:
        self._args = [*isolation, "diff-tree", "--stdin", *git.PATCH_ARGS, "--no-renames",
                      "--diff-merges=first-parent", "--format=%x1e%H", "--", *pathspecs]
        self._repo, self._partial_clone = repo, partial_clone
        self._cwd = git._run_dir(isolation, repo)
        self._isolation = isolation
        self._marker = b"~leverguard-" + os.urandom(12).hex().encode() + b"\n"
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._asked: list[str] = []  # asked and not answered yet, oldest first
        self._chunks: list[bytes] = []  # output read past the last marker

    def ask(self, sha: str) -> None:
        self._asked.append(sha)
        if self._proc is None:
            self._start()  # asks everything pending, SHA included
        else:
            self._write([sha])

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._stderr = tempfile.TemporaryFile()  # a file: warnings can never fill a pipe and stall git
            self._proc = subprocess.Popen(["git", *self._args], cwd=self._cwd, env=git._run_env(self._isolation),
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
            self._chunks = []
            self._write(self._asked)  # a restart asks again what the dead process never answered
        return self._proc

    def _write(self, shas: list[str]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:  # at most IN_FLIGHT short lines are unread at any time: far below a pipe's buffer
            self._proc.stdin.write(b"".join(sha.encode() + b"\n" + self._marker for sha in shas))
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass  # it died: the answer finds out and says why

    def answer(self, commit: Commit) -> Entry:
        """COMMIT's patches (the oldest asked); not checked when git cannot read its objects."""
        assert self._asked and self._asked[0] == commit.sha
        data = self._until_marker()
        self._asked.pop(0)
        if data is not None:
            return Entry(commit, [f for _, found in parse_commits(data) for f in found])
        stderr = self._stop()
        oids = git.missing_objects(stderr)
        if not oids:  # not a missing object: a real failure, never a commit quietly left out
            raise git._error(self._args, stderr, 128, self._repo)
        if not self._partial_clone:  # offline, a partial clone's git < 2.44 would die on the first lookup
            found = git.object_sizes(list(_blob_ids(commit)), self._repo)
            oids = list(dict.fromkeys([*oids, *(oid for oid in _blob_ids(commit) if oid not in found)]))
        return Entry(commit, None, tuple(oids), "objects missing")

    def _until_marker(self) -> bytes | None:
        """The output up to the next marker, or None when git stopped before printing it."""
        proc = self._start()
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        width = len(self._marker)
        while True:
            tail = self._chunks[-1] if self._chunks else b""
            if len(self._chunks) > 1:  # a marker may straddle the last two chunks
                tail = self._chunks[-2][-width:] + tail
            end = tail.find(self._marker)
            if end >= 0:
                data = b"".join(self._chunks)
                end = data.find(self._marker, max(0, len(data) - len(tail)))
                rest = data[end + width:]
                self._chunks = [rest] if rest else []
                return data[:end]
            block = os.read(fd, 1 << 16)
            if not block:
                return None
            self._chunks.append(block)

    def _stop(self) -> bytes:
        """End the process (dead or not) and return what it wrote on stderr."""
        stderr = b""
        if self._proc is not None:
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except BrokenPipeError:
                    pass
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._proc = None
        if self._stderr is not None:
            self._stderr.seek(0)
            stderr = self._stderr.read()
            self._stderr.close()
            self._stderr = None
        return stderr

    def __enter__(self) -> _Patches:
        return self

    def __exit__(self, *exc: object) -> None:
        self._asked = []
        self._stop()


def _blob_ids(commit: Commit) -> Iterator[str]:
    for change in commit.changes:
        for state in (change.old, change.new):
            if state is not None and state.is_blob:
                yield state.oid
