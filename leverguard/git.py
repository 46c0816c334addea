"""Every git call leverguard makes: argument lists, `-z` output, one `cat-file --batch` reader.

This module knows no rules. It turns git's failures into `GitError`s whose message says
what to do, because a checker that fails quietly is worse than none.
"""

from __future__ import annotations

import os

from leverguard.errors import GitError

# Hooks run this module on every commit: `typing` (~5 ms) is never imported, and git is started
# through os.posix_spawnp (`Process`), never `subprocess` (~12 ms).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Generator, Iterable, Iterator, Mapping, Sequence

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # git's id of empty content
NO_GIT = "git is not installed or not on PATH: install git 2.38 or newer"
# The default of the `max_file_size` key: a file above it is compared by object id and size, never read
# or diffed as text (issue #11). git's own `core.bigFileThreshold` (512 MiB) would load 200 MB blobs whole.
MAX_FILE_SIZE = 8 << 20


def size_text(size: int) -> str:
    """A byte count as people read it: `812 bytes`, `4.0 KiB`, `200.0 MiB`."""
    if size < 1024:
        return f"{size} bytes"
    unit = "KiB" if size < 1 << 20 else "MiB" if size < 1 << 30 else "GiB"
    return f"{size / (1 << {'KiB': 10, 'MiB': 20, 'GiB': 30}[unit]):.1f} {unit}"
NULL_OID = "0" * 40

# Advice for the git failures a user can fix, keyed by a fragment of git's stderr.
_ADVICE = (
    ("not a git repository", "not a git repository: run leverguard inside a git working tree, or pass --repo DIR"),
    # outside a repository `git diff` falls back to --no-index mode, which has no --cached
    ("unknown option `cached'", "not a git repository: run leverguard inside a git working tree, or pass --repo DIR"),
    ("unknown revision", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("bad revision", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("ambiguous argument", "unknown revision or path: check the name, or fetch it first (git fetch origin REF)"),
    ("invalid object name", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("does not have any commits yet", "the repository has no commit yet: commit something first"),
    # a partial clone whose promisor remote is gone: git's lazy fetch of a missing blob failed
    ("does not appear to be a git repository", "an object is missing and the partial clone cannot fetch it: "
     "check that git fetch works (the promisor remote), or clone without --filter"),
    ("dubious ownership", "git refuses this repository (dubious ownership): add it with git config --global --add safe.directory DIR"),
)


def _first_line(data: bytes) -> str:
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def _error(args: Sequence[str], stderr: bytes, returncode: int, cwd: str | None = None) -> GitError:
    detail = _first_line(stderr)
    oids = missing_objects(stderr)
    if oids:  # checked first: offline, git's first line is the refused lazy fetch, not the cause
        return MissingObjects(oids, fetch_fix(oids, cwd), f"git {_command(args)}: {_missing_line(stderr)}")
    if detail.startswith("fatal: cannot change to"):  # `git -C DIR` of a folder that is not there
        return GitError(f"no such directory: {cwd}: pass an existing repository with --repo DIR")
    for fragment, advice in _ADVICE:
        if fragment in detail:
            return GitError(f"{advice} (git {_command(args)}: {detail})")
    return GitError(f"git {' '.join(args[:2])} failed with exit {returncode}: {detail or 'no message'}")


def _command(args: Sequence[str]) -> str:
    """The git subcommand of ARGS, past global options such as `--git-dir=...` and `-c NAME=VALUE`."""
    words = [arg for before, arg in zip(["", *args], args) if not arg.startswith("-") and before != "-c"]
    return words[0] if words else (args[0] if args else "")


# ----------------------------------------------------------------------------- missing objects

# What git says of an object it cannot read: a pruned or corrupt object, or a partial clone's blob
# it may not (offline) or could not fetch. Other failures naming an object id are no such thing.
_MISSING_WORDS = ("unable to read", "could not fetch", "missing", "bad object", "is corrupt", "could not read",
                  "unable to parse", "failed to read object")
_NOT_HEX = bytes(c for c in range(256) if c not in b"0123456789abcdef")
_HEX_ONLY = bytes.maketrans(_NOT_HEX, b" " * len(_NOT_HEX))  # no `re`: hooks import this module


def missing_objects(stderr: bytes) -> list[str]:
    """The object ids git's stderr names as missing or unreadable, first mention first."""
    found: list[str] = []
    for line in stderr.decode("utf-8", "replace").splitlines():
        lowered = line.lower()
        if "invalid object name" in lowered or not any(word in lowered for word in _MISSING_WORDS):
            continue
        words = lowered.encode().translate(_HEX_ONLY).decode().split()
        for word in words:
            if len(word) in (40, 64) and word.strip("0") and word not in found:
                found.append(word)
    return found


def _missing_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    return next((line for line in lines if missing_objects(line.encode())), _first_line(stderr))


class MissingObjects(GitError):
    """Objects a command needs are not in the repository (and leverguard does not fetch them)."""

    def __init__(self, oids: Sequence[str], fix: str, detail: str = "") -> None:
        what = f"object {oids[0]} is" if len(oids) == 1 else f"{len(oids)} objects ({oids[0]}, ...) are"
        suffix = f" ({detail})" if detail else ""
        super().__init__(f"{what} missing from the repository: {fix}{suffix}")
        self.oids = tuple(oids)
        self.fix = fix


MAX_FIX_OIDS = 20  # a longer command is no command to paste: the whole-history fetch is named instead
# Fetches every blob a blobless clone lacks (tried: --refetch alone re-applies the clone's blob:none).
BLOBLESS_FIX = "git fetch --refetch --filter=blob:limit=1g {remote}"


def fetch_remote(cwd: str | None = None) -> str | None:
    """The remote missing objects come from: a partial clone's promisor, else origin, else the only one."""
    promisor = promisor_remote(cwd)
    if promisor:
        return promisor
    try:
        remotes = output(["remote"], cwd).split()
    except GitError:
        return None
    return "origin" if "origin" in remotes else (remotes[0] if len(remotes) == 1 else None)


def fetch_fix(oids: Sequence[str], cwd: str | None = None, remote: str | None | bool = False) -> str:
    """The command that brings OIDS back (git serves any object by id with protocol v2), or what to do instead.

    REMOTE False: look it up (one or two git calls, on the error path only).
    """
    name = fetch_remote(cwd) if remote is False else remote
    if not name:
        return ("fetch it from another clone of the repository (add it as a remote, then "
                f"git fetch REMOTE {' '.join(oids[:MAX_FIX_OIDS])}); git fsck lists every missing object")
    if len(oids) > MAX_FIX_OIDS:
        return f"fetch them with {BLOBLESS_FIX.format(remote=name)} (every blob of the history)"
    return f"fetch {'it' if len(oids) == 1 else 'them'} with git fetch {name} {' '.join(oids)}"


# Set while a command must not go to the network: git >= 2.44 then never fetches a partial clone's
# missing object (GIT_NO_LAZY_FETCH); older git tries, and the protocol allow-list refuses the fetch.
OFFLINE_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "leverguard-never-fetches"}


class offline:  # noqa: N801 - used as `with git.offline():`; a class so that hooks need no contextlib
    """Every git process started inside `with offline():` reads only what the repository holds."""

    def __enter__(self) -> None:
        self._saved = {name: os.environ.get(name) for name in OFFLINE_ENV}
        os.environ.update(OFFLINE_ENV)

    def __exit__(self, *exc: object) -> None:
        _restore_environ(self._saved)


def _restore_environ(saved: dict[str, str | None]) -> None:
    """Put environment variables back as SAVED had them (None: unset)."""
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


class Result:
    __slots__ = ("returncode", "stdout", "stderr")

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes) -> None:
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


# ----------------------------------------------------------------------------- processes

_SIGKILL, _SIGPIPE = 9, 13  # the same on every POSIX system; `signal` would import `enum` on the hook path


class Process:
    """One git process: the only way leverguard starts git.

    Spawned with os.posix_spawnp, never `subprocess` (12 ms of imports on every hook), as
    `git [-C CWD] [ISOLATION] ARGS` with SIGPIPE at its default, as a shell would start it. Its
    standard input is a pipe when INPUT is given (written by `blocks`, alongside the reads, so neither
    side ever waits on a full pipe) or STDIN is set (the caller writes `stdin` itself), else /dev/null.
    Its errors go to a pipe read with the output (STDERR "pipe"), to an unnamed file that can never
    fill up and stall a long-lived git ("file", read by `failure_text`), or nowhere ("null").
    The pipes' other ends are close-on-exec (os.pipe), so git inherits no more than its three.
    """

    def __init__(self, args: Sequence[str], cwd: str | None = None, *, input: bytes | None = None,
                 stdin: bool = False, stderr: str = "pipe", env: Mapping[str, str] | None = None,
                 isolation: Sequence[str] = ()) -> None:
        self.args, self.cwd, self.input = [*isolation, *args], _run_dir(isolation, cwd), input
        self.returncode: int | None = None
        self.error_output = b""
        self.stderr_file = _anonymous_file() if stderr == "file" else None
        in_r, self.stdin = os.pipe() if input is not None or stdin else (os.open(os.devnull, os.O_RDONLY), -1)
        self.stdout, out_w = os.pipe()
        if stderr == "pipe":
            self.stderr, err_w = os.pipe()
        else:
            self.stderr = -1
            err_w = os.dup(self.stderr_file.fileno()) if self.stderr_file else os.open(os.devnull, os.O_WRONLY)
        stdio = [_above_stdio(fd) for fd in (in_r, out_w, err_w)]  # dup2 onto itself would keep close-on-exec
        actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(stdio)]
        argv = ["git", *(["-C", self.cwd] if self.cwd else []), *self.args]
        try:
            self.pid = os.posix_spawnp("git", argv, env if env is not None else _run_env(isolation) or os.environ,
                                       file_actions=actions, setsigdef=(_SIGPIPE,))
        except OSError as exc:  # no git, or an argument list over the system's limit
            self._close_ours()
            if isinstance(exc, FileNotFoundError):
                raise GitError(NO_GIT) from exc
            raise GitError(f"git {_command(self.args)} could not start: {exc.strerror or exc}") from exc
        finally:
            for fd in stdio:
                os.close(fd)

    def blocks(self, ok_codes: Sequence[int] = (0,)) -> Iterator[bytes]:
        """git's output as it arrives, while the input is written and the errors kept; then its exit code,
        which is a GitError outside OK_CODES: a failure is never a short read."""
        yield from self.pump()
        self.check(ok_codes)

    def check(self, ok_codes: Sequence[int] = (0,)) -> None:
        """Wait for git; an exit code outside OK_CODES is a GitError saying why."""
        if self.wait() not in ok_codes:
            raise _error(self.args, self.failure_text(), self.wait(), self.cwd)

    def pump(self) -> Iterator[bytes]:
        """`blocks` without the wait: the output as it arrives, to its end (another thread may run this)."""
        import select  # a builtin module: no import chain

        data = memoryview(self.input or b"")
        poller = select.poll()
        if self.stdin >= 0:
            if data:
                os.set_blocking(self.stdin, False)
                poller.register(self.stdin, select.POLLOUT)
            else:
                self._close_fd("stdin")
        for fd in (self.stdout, self.stderr):
            if fd >= 0:
                poller.register(fd, select.POLLIN)
        errors: list[bytes] = []
        while self.stdin >= 0 or self.stdout >= 0 or self.stderr >= 0:
            for fd, _ in poller.poll():
                if fd == self.stdin:
                    try:
                        data = data[os.write(fd, data[:1 << 16]):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        data = data[:0]  # git stopped reading: its exit code and errors say why
                    if not data:
                        poller.unregister(fd)
                        self._close_fd("stdin")
                    continue
                block = os.read(fd, 1 << 16)  # whatever has arrived, not a full buffer
                if not block:
                    poller.unregister(fd)
                    self._close_fd("stdout" if fd == self.stdout else "stderr")
                elif fd == self.stdout:
                    yield block
                else:
                    errors.append(block)
        self.error_output = b"".join(errors)

    def result(self, ok_codes: Sequence[int] = (0,), input: bytes | None = None) -> Result:
        """Write the input (INPUT here for a process started with `stdin=True`), collect the output and exit code."""
        if input is not None:
            self.input = input
        stdout = b"".join(self.blocks(ok_codes))
        return Result(self.wait(), stdout, self.error_output)

    def streams(self) -> tuple[IO[bytes], IO[bytes]]:
        """Buffered files over git's standard input and output, for a caller that talks to git itself (the
        object reader); they own the pipes from now on."""
        files = os.fdopen(self.stdin, "wb"), os.fdopen(self.stdout, "rb")
        self.stdin = self.stdout = -1
        return files

    def failure_text(self) -> bytes:
        """What git wrote to its standard error."""
        if self.stderr_file is not None:
            self.stderr_file.seek(0)
            self.error_output = self.stderr_file.read()
        return self.error_output

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:  # not reaped yet, so the id is still git's (dead or alive)
            os.kill(self.pid, _SIGKILL)

    def close(self) -> None:
        """Stop git if it still runs (its output was not read to the end) and release everything."""
        self.kill()
        self._close_ours()
        self.wait()
        if self.stderr_file is not None:
            self.stderr_file.close()
            self.stderr_file = None

    def _close_ours(self) -> None:
        for name in ("stdin", "stdout", "stderr"):
            self._close_fd(name)

    def _close_fd(self, name: str) -> None:
        fd = getattr(self, name, -1)
        if fd >= 0:
            os.close(fd)
            setattr(self, name, -1)


def _above_stdio(fd: int) -> int:
    """FD, or a copy of it numbered 3 or above when it is one of the three it will be duplicated onto."""
    low = []
    while fd <= 2:  # os.dup takes the lowest free number: keeping the low ones open moves it up
        low.append(fd)
        fd = os.dup(fd)
    for held in low:
        os.close(held)
    return fd


def start(args: Sequence[str], cwd: str | None = None, *, input: bytes | None = None, later: bool = False) -> Process:
    """Spawn `git ARGS` now and collect it with `result`, so that hooks overlap git's start-up costs; `later=True`:
    its standard input is given to `result`, so the start-up of a process that needs another's output overlaps
    that other's run."""
    return Process(args, cwd, input=input, stdin=later)


def run(
    args: Sequence[str],
    cwd: str | None = None,
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    ok_codes: Sequence[int] = (0,),
    isolation: Sequence[str] = (),
) -> Result:
    """Run `git ARGS` and return its output; any exit code outside `ok_codes` is a GitError."""
    return Process(args, cwd, input=input, env=env, isolation=isolation).result(ok_codes)


def output(args: Sequence[str], cwd: str | None = None, **kwargs: object) -> str:
    """stdout of `git ARGS` as text, without the trailing newline."""
    return run(args, cwd, **kwargs).stdout.decode("utf-8", "surrogateescape").rstrip("\n")  # type: ignore[arg-type]


def split_z(data: bytes) -> list[bytes]:
    """Split NUL-terminated `-z` output into its fields."""
    fields = data.split(b"\0")
    if fields and fields[-1] == b"":
        fields.pop()
    return fields


def fsdecode(path: bytes) -> str:
    """A path git printed as bytes, as a str that round-trips (non-UTF-8 bytes survive)."""
    return path.decode("utf-8", "surrogateescape")


def fsencode(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


# ----------------------------------------------------------------------------- repository


def toplevel(cwd: str | None = None) -> str:
    """The working tree's root; a clear error outside a repository."""
    top = output(["rev-parse", "--show-toplevel"], cwd)
    if not top:
        raise GitError("this is a bare repository or a .git folder: run leverguard inside a working tree, or pass --repo DIR")
    return top


def work_root(cwd: str | None = None) -> str:
    """The working tree's root, or a bare repository's git dir (the PR bot's cache).

    Commands that read only commits (`levers diff A..B`, `check-msg --range`) work in both;
    only a bare repository pays the second git call.
    """
    try:
        return toplevel(cwd)
    except GitError as exc:
        if "work tree" not in exc.message and "bare repository" not in exc.message:
            raise
    if output(["rev-parse", "--is-bare-repository"], cwd) != "true":
        raise GitError("this is a .git folder: run leverguard inside the working tree, or pass --repo DIR")
    return git_dir(cwd)


def find_root(start: str) -> tuple[str, str] | None:
    """(working tree root, git dir) found by walking up from `start`, without running git."""
    current = os.path.abspath(start)
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.isdir(dot_git):
            return current, dot_git
        if os.path.isfile(dot_git):  # a worktree or submodule: "gitdir: PATH"
            with open(dot_git, encoding="utf-8", errors="surrogateescape") as fh:
                target = fh.read().strip().removeprefix("gitdir:").strip()
            return current, os.path.normpath(os.path.join(current, target))
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def locate(cwd: str) -> tuple[str, str]:
    """(root, git dir) for a hook: a walk up the folders, or git itself for GIT_DIR or odd layouts."""
    found = find_root(cwd)
    if found is not None and "GIT_DIR" not in os.environ:
        return found
    return toplevel(cwd), git_dir(cwd)


def git_dir(cwd: str | None = None) -> str:
    return output(["rev-parse", "--absolute-git-dir"], cwd)


def git_path(name: str, cwd: str | None = None) -> str:
    """An absolute path inside the git directory, honouring core.hooksPath for `hooks`."""
    return output(["rev-parse", "--path-format=absolute", "--git-path", name], cwd)


def has_commits(cwd: str | None = None) -> bool:
    return run(["rev-parse", "--verify", "-q", "HEAD^{commit}"], cwd, ok_codes=(0, 1)).returncode == 0


def is_shallow(cwd: str | None = None) -> bool:
    return output(["rev-parse", "--is-shallow-repository"], cwd) == "true"


def rev_parse(rev: str, cwd: str | None = None) -> str:
    """The full commit id of REV; a clear error naming REV when git does not know it."""
    if rev.startswith("-"):
        raise GitError(f"unknown revision {rev!r}: a revision cannot start with '-'")
    result = run(["rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}"], cwd, ok_codes=(0, 1))
    if result.returncode != 0:
        raise GitError(f"unknown revision {rev!r}: check the name, or fetch it first (git fetch origin {rev})")
    return result.stdout.decode().strip()


# ----------------------------------------------------------------------------- index


def staged_names(cwd: str | None = None) -> list[bytes]:
    """Paths the index adds, copies, modifies, renames to or type-changes, in one git call.

    Deletions are left out on purpose: removing an artifact from the index is cleanup.
    On an unborn branch git compares the index against the empty tree, so the initial
    commit is checked like any other.
    """
    args = ["diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--diff-filter=ACMT"]
    return split_z(run(args, cwd).stdout)


# ----------------------------------------------------------------------------- objects


class ObjectReader:
    """One long-lived `git cat-file --batch-command` process serving every object read.

    `info` asks for an object's type and size without its content, so a caller can leave a large
    blob unread (issue #11: a 200 MB binary cost 414 MB to roll back); `read` fetches the content.
    A missing object that a tree names (a pruned or corrupt blob, a partial clone's blob read
    offline) is a `MissingObjects` error, never the None of a path that does not exist.
    """

    def __init__(self, cwd: str | None = None) -> None:
        self._cwd = cwd
        self._proc: Process | None = None
        self._hex_length = 40

    def _streams(self) -> tuple[IO[bytes], IO[bytes]]:
        if self._proc is None:
            self._proc = Process(["cat-file", "--batch-command", "-z"], self._cwd, stdin=True, stderr="null")
            self._stdin, self._stdout = self._proc.streams()
        return self._stdin, self._stdout

    def _ask(self, command: bytes, spec: str) -> tuple[str, int] | None:
        """(type, size) from the header git answers COMMAND SPEC with, or None for a missing name."""
        stdin, stdout = self._streams()
        name = spec.encode("utf-8", "surrogateescape")
        try:
            stdin.write(command + b" " + name + b"\0")  # -z: a path may hold a newline (issue #11)
            stdin.flush()
        except BrokenPipeError:
            raise self._died(spec) from None
        header = stdout.readline()
        for _ in range(name.count(b"\n")):  # git echoes a missing name unquoted, newlines and all
            if _is_header(header) or not header:
                break
            header += stdout.readline()
        if not header:
            raise self._died(spec)
        header = header.rstrip(b"\n")
        if header in (name + b" missing", name + b" ambiguous"):  # the name may hold spaces and newlines
            if header.endswith(b" missing"):
                self._check_absent(spec)
            return None
        oid, kind, size = header.rsplit(b" ", 2)
        self._hex_length = len(oid)
        return kind.decode(), int(size)

    def info(self, spec: str) -> tuple[str, int] | None:
        """(type, size) of an object name or `REV:PATH` without reading it, or None when it does not exist."""
        return self._ask(b"info", spec)

    def read(self, spec: str) -> tuple[str, bytes] | None:
        """(type, content) of an object name or `REV:PATH`, or None when it does not exist."""
        found = self._ask(b"contents", spec)
        if found is None:
            return None
        stdout = self._stdout
        data = _read_exact(stdout, found[1])
        stdout.read(1)  # the newline after the content
        return found[0], data

    def listing(self, spec: str) -> dict[bytes, tuple[bytes, str]]:
        """Name -> (mode, object id) of the entries of a tree (`REV:FOLDER`); none when it is no tree."""
        found = self.read(spec)
        return dict(_tree_entries(found[1], self._hex_length // 2)) if found is not None and found[0] == "tree" else {}

    def parents(self, commit: str) -> list[str]:
        """The parent ids of COMMIT, read from its object's header; none when it does not exist."""
        found = self.read(commit)
        header = found[1].split(b"\n\n", 1)[0] if found is not None and found[0] == "commit" else b""
        return [line[7:].decode() for line in header.split(b"\n") if line.startswith(b"parent ")]

    def sizes(self, oids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """(type, size) of many object ids, pipelined a chunk at a time; missing ones left out.

        What `object_sizes` does with a process of its own, here on the reader a run already has.
        Chunks keep git's answers (about 60 bytes each) well under a pipe's buffer: writing every
        request before reading any could block both processes on a large diff.
        """
        found: dict[str, tuple[str, int]] = {}
        for start in range(0, len(oids), 256):
            chunk = oids[start:start + 256]
            stdin, stdout = self._streams()
            try:
                stdin.write(b"".join(b"info " + oid.encode() + b"\0" for oid in chunk))
                stdin.flush()
            except BrokenPipeError:
                raise self._died(chunk[0]) from None
            for oid in chunk:
                header = stdout.readline()
                if not header:
                    raise self._died(oid)
                parts = header.rstrip(b"\n").split(b" ")
                if len(parts) == 3 and parts[2].isdigit():
                    found[oid] = (parts[1].decode(), int(parts[2]))
        return found

    def _died(self, spec: str) -> GitError:
        """The error of a `cat-file` that stopped: offline, git < 2.44 dies on a blob it may not fetch.

        Its stderr went nowhere (a pipe could fill up and stall the reads): the one read is asked
        again of a short-lived cat-file, whose stderr says why.
        """
        self.close()  # the next read starts a fresh process
        name = spec.encode("utf-8", "surrogateescape") + b"\0"
        stderr = run(["cat-file", "--batch", "-z"], self._cwd, input=name, ok_codes=range(256)).stderr
        oids = missing_objects(stderr)
        if oids:
            return MissingObjects(oids, fetch_fix(oids, self._cwd), f"reading {spec}: {_missing_line(stderr)}")
        return GitError("git cat-file --batch stopped unexpectedly: check the repository with git fsck")

    def _check_absent(self, spec: str) -> None:
        """Raise MissingObjects when SPEC (`REV:PATH`) names a tree entry whose object is not here."""
        rev, colon, path = spec.partition(":")
        if not colon or not rev or not path:  # an object id, or `:0:PATH` in the index
            return
        tree = self.read(f"{rev}^{{tree}}")
        parts = path.strip("/").split("/")
        for depth, part in enumerate(parts):
            if tree is None or tree[0] != "tree":
                return  # REV itself is unknown (the caller's concern), or PATH goes through a file
            entry = _tree_entry(tree[1], fsencode(part), self._hex_length // 2)
            if entry is None:
                return  # PATH does not exist at REV: None is the truth
            mode, oid = entry
            if depth == len(parts) - 1 or not mode.startswith(b"4"):
                if depth == len(parts) - 1 and not mode.startswith(b"16"):  # a gitlink is no object here
                    raise MissingObjects([oid], fetch_fix([oid], self._cwd), f"reading {spec}")
                return
            tree = self.read(oid)
            if tree is None:
                raise MissingObjects([oid], fetch_fix([oid], self._cwd), f"a tree of {rev}:{'/'.join(parts[:depth + 1])}")

    def close(self) -> None:
        if self._proc is not None:
            for stream in (self._stdin, self._stdout):
                try:
                    stream.close()
                except BrokenPipeError:
                    pass
            self._proc.close()
            self._proc = None

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _tree_entry(data: bytes, name: bytes, hash_size: int) -> tuple[bytes, str] | None:
    """(mode, object id) of NAME in a raw tree object, or None."""
    return next((entry for found, entry in _tree_entries(data, hash_size) if found == name), None)


def _tree_entries(data: bytes, hash_size: int) -> Iterator[tuple[bytes, tuple[bytes, str]]]:
    """(name, (mode, object id)) of each record of a raw tree object (`MODE NAME NUL HASH`)."""
    pos = 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        yield data[space + 1:nul], (data[pos:space], data[nul + 1:nul + 1 + hash_size].hex())
        pos = nul + 1 + hash_size


def _is_header(line: bytes) -> bool:
    """Is LINE `OID TYPE SIZE` (a found object), not the first line of a missing name?

    A `REV:PATH` name always has a colon before its path, so its first line never looks like this.
    """
    parts = line.rstrip(b"\n").split(b" ")
    return len(parts) == 3 and parts[2].isdigit() and len(parts[0]) in (40, 64) and \
        not parts[0].strip(b"0123456789abcdef")


def _batch_header(out: bytes, pos: int, name: bytes) -> tuple[bytes | None, int]:
    """(header or None for a missing name, position after it) in non-interactive `--batch -z` output."""
    for word in (b" missing\n", b" ambiguous\n"):
        if out.startswith(name + word, pos):
            return None, pos + len(name) + len(word)
    end = out.index(b"\n", pos)
    return out[pos:end], end + 1


def _read_exact(stream: IO[bytes], size: int) -> bytes:
    chunks = []
    while size > 0:
        chunk = stream.read(size)
        if not chunk:
            raise GitError("git cat-file --batch output was cut short: check the repository with git fsck")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


# ----------------------------------------------------------------------------- streaming


def stream(args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = ()) -> Generator[bytes, None, None]:
    """Yield `-z` fields of a long git output as they arrive (`stream_blocks` split at NUL)."""
    yield from fields(stream_blocks(args, cwd, isolation))


def date_bound(since: str, cwd: str | None = None) -> int:
    """The epoch second of a git date (`2 weeks ago`, `2026-11-01`); an unparsable one is an error.

    git reads any garbage as "now": comparing with "now" in the same call tells the two apart.
    """
    if since.startswith("-") or "\n" in since:
        raise GitError(f"--since {since!r} is not a date: give one git understands, e.g. '2 weeks ago' or 2026-11-01")
    lines = output(["rev-parse", f"--since={since}", "--since=now"], cwd).split()
    bound, now = (int(line.partition("=")[2] or 0) for line in lines[:2])
    if bound == now and since.strip().lower() not in ("now", "today"):
        raise GitError(f"--since {since!r} is not a date git understands: give e.g. '2 weeks ago' or 2026-11-01")
    return bound


def stream_blocks(args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = (),
                  input: bytes | None = None, ok_codes: Sequence[int] = (0,)) -> Iterator[bytes]:
    """Yield a long git output in blocks as it arrives; a failing exit is a GitError, never a short read.
    A caller that stops early stops git too."""
    process = Process(args, cwd, input=input, isolation=isolation)
    try:
        yield from process.blocks(ok_codes)
    finally:
        process.close()


class Drained:
    """A git process whose output a thread reads as it comes: git never waits on a full pipe while the caller
    is busy elsewhere, and the caller parses each block as it arrives. Only the caller's thread reaps git,
    so stopping it early can never signal another process."""

    def __init__(self, args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = (),
                 input: bytes | None = None) -> None:
        import threading
        from queue import SimpleQueue

        self._process = Process(args, cwd, input=input, isolation=isolation)
        self._out: SimpleQueue[bytes] = SimpleQueue()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            for block in self._process.pump():
                self._out.put(block)
        finally:
            self._out.put(b"")

    def blocks(self) -> Iterator[bytes]:
        """The output; a failing exit is a GitError at its end."""
        yield from iter(self._out.get, b"")
        self._thread.join()
        self._process.check()

    def close(self) -> None:
        if self._thread.is_alive():  # the reader stopped early: stop git, whose pipe then ends the thread
            self._process.kill()
        self._thread.join()
        self._process.close()


# ---- revert engine ----


MAX_ANSWER = 16 << 20  # bytes: one commit's patch past this (a generated tree) is read through and dropped


class PatchReader:
    """One `git diff-tree --stdin ARGS` process serving many commits' patches, asked ahead and answered in order.

    Each asked commit is followed by a marker line, which diff-tree echoes (and flushes) after the
    commit's output: the marker (random, so no path or line can forge it) ends each answer, and a
    process that dies is known to have died at the first commit whose marker never came.
    """

    def __init__(self, args: Sequence[str], cwd: str | None, isolation: Sequence[str] = ()) -> None:
        self._args = ["diff-tree", "--stdin", *args]
        self._cwd, self._isolation = cwd, isolation
        self._marker = b"~leverguard-" + os.urandom(12).hex().encode() + b"\n"  # `~`: no object id
        self._proc: Process | None = None
        self._asked: list[str] = []  # asked and not answered yet, oldest first
        self._chunks: list[bytes] = []  # output read past the last marker
        self.passed_over = False  # the last answer ran past MAX_ANSWER: read to its end, none of it kept

    @property
    def waiting(self) -> int:
        return len(self._asked)

    def ask(self, sha: str) -> None:
        self._asked.append(sha)
        if self._proc is None:
            self._start()  # asks everything waiting, SHA included
        else:
            self._write([sha])

    def answer(self) -> bytes | None:
        """The output for the oldest commit asked, or None when git stopped at it (then call `failure`).
        Past MAX_ANSWER bytes it is read to its end and dropped: b"", with `passed_over` set."""
        assert self._asked
        fd, width = self._start().stdout, len(self._marker)
        self.passed_over = False
        size = sum(map(len, self._chunks))
        while True:
            tail = self._chunks[-1] if self._chunks else b""
            if len(self._chunks) > 1:  # a marker may straddle the last two chunks
                tail = self._chunks[-2][-width:] + tail
            if self._marker in tail:
                data = b"".join(self._chunks)
                end = data.find(self._marker, max(0, len(data) - len(tail)))
                rest = data[end + width:]
                self._chunks = [rest] if rest else []
                self._asked.pop(0)
                return data[:end]
            if size > MAX_ANSWER:
                return self._pass_over(fd)
            block = os.read(fd, 1 << 16)  # whatever has arrived, not a full buffer
            if not block:
                return None
            self._chunks.append(block)
            size += len(block)

    def _pass_over(self, fd: int) -> bytes | None:
        """Read the oldest commit's output up to its marker, keeping none of it (memory stays bounded)."""
        width = len(self._marker)
        carry = b"".join(self._chunks)[-(width - 1):]  # where a marker may have begun
        self._chunks = []
        while True:
            block = os.read(fd, 1 << 16)
            if not block:
                return None
            window = carry + block
            at = window.find(self._marker)
            if at >= 0:
                rest = window[at + width:]
                self._chunks = [rest] if rest else []
                self._asked.pop(0)
                self.passed_over = True
                return b""
            carry = window[-(width - 1):]

    def failure(self) -> GitError:
        """Why git stopped at the oldest commit asked (MissingObjects when it could not read an object);
        that commit is dropped, and the next `answer` restarts git for the others."""
        self._asked.pop(0)
        proc, self._proc = self._proc, None
        assert proc is not None
        stderr, code = proc.failure_text(), proc.wait()
        proc.close()
        return _error(proc.args, stderr, code or 128, self._cwd)

    def _start(self) -> Process:
        if self._proc is None:  # errors to a file: warnings can never fill a pipe and stall git
            self._proc = Process(self._args, self._cwd, stdin=True, stderr="file", isolation=self._isolation)
            self._chunks = []
            self._write(self._asked)  # a restart asks again what the dead process never answered
        return self._proc

    def _write(self, shas: list[str]) -> None:
        assert self._proc is not None
        try:  # the caller keeps few commits in flight: far below a pipe's buffer, so this never blocks
            _write_all(self._proc.stdin, b"".join(sha.encode() + b"\n" + self._marker for sha in shas))
        except BrokenPipeError:
            pass  # it died: `answer` finds out

    def close(self) -> None:
        self._asked = []
        if self._proc is not None:
            self._proc.close()
            self._proc = None

    def __enter__(self) -> PatchReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


MAX_CHERRY = 2000  # commits on the two sides of a submodule pointer moved off its line that `git cherry` reads


MAX_POINTER_HISTORY = 2000  # a submodule's moves read back to tell which of two pointers came first


class Submodules:
    """What is known of a repository's submodule pointers: from the submodules' own histories, where `git
    submodule update` keeps them (GIT_DIR/modules/PATH, a working clone's `.git` given as the repository
    too), whether a pointer's new commit still holds the one it replaces (a bare mirror or a submodule never
    initialised has none, and answers None); from the superproject's, which pointer it recorded first."""

    __slots__ = ("modules", "git_dir")

    def __init__(self, git_dir: str | None) -> None:
        self.git_dir = git_dir
        self.modules = os.path.join(git_dir, "modules") if git_dir else None

    def first_recorded(self, path: bytes, rev: str, limit: int = MAX_POINTER_HISTORY) -> dict[str, float]:
        """When the superproject first recorded each pointer at PATH, as how many of the (at most LIMIT)
        first-parent commits of REV that moved it lie after that: one more than the commit that replaced a
        pointer, which was recorded before it. Read from the superproject alone (one `log` on the path)."""
        found = run(["--git-dir", self.git_dir or ".", "log", "--first-parent", "--no-renames", "--raw", "--no-abbrev",
                     "--format=", f"--max-count={limit}", rev, "--", fsdecode(path)])
        first: dict[str, float] = {}
        moves = [line.split() for line in found.stdout.decode("ascii", "replace").splitlines() if line.startswith(":")]
        for age, fields in enumerate(moves):
            first[fields[3]], first[fields[2]] = age, age + 0.5
        return first

    def contains(self, path: bytes, ancestor: str, descendant: str) -> bool | None:
        """Whether ANCESTOR is in DESCENDANT's history in the submodule at PATH (None: not known here)."""
        found = self._git(path, "merge-base", "--is-ancestor", ancestor, descendant)
        return None if found is None else {0: True, 1: False}.get(found.returncode)

    def lacks_changes(self, path: bytes, dropped: str, new: str) -> bool | None:
        """Whether some commit DROPPED holds and NEW does not has no equivalent in NEW either (`git cherry`:
        the same patch, as a rebase writes it): work lost, not a line rebased (None: not known here, or
        lines so far apart that reading every patch of both, MAX_CHERRY commits or more, is not paid)."""
        sides = self._git(path, "rev-list", "--left-right", "--count", f"{new}...{dropped}")
        counts = sides.stdout.split() if sides is not None and sides.returncode == 0 else []
        if len(counts) != 2 or int(counts[0]) + int(counts[1]) >= MAX_CHERRY:
            return None
        found = self._git(path, "cherry", new, dropped)
        if found is None or found.returncode:
            return None
        return any(line.startswith(b"+") for line in found.stdout.splitlines())

    def _git(self, path: bytes, *args: str) -> Result | None:
        """ARGS run in the submodule at PATH, None when its history is not kept here. It is another
        repository: the superproject's object directories (`scratch_objects` sets them for --repo) go."""
        parts = path.split(b"/")
        if self.modules is None or b".." in parts or b"" in parts:  # a tree's path, never a way out
            return None
        sub = os.path.join(self.modules, fsdecode(path))
        if not os.path.isdir(sub):
            return None
        env = {name: value for name, value in os.environ.items()
               if name not in ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES")}
        return run(["--git-dir", sub, *args], ok_codes=(0, 1, 128), env=env)


def merge_bases(a: str, b: str, cwd: str | None = None) -> list[str]:
    """Every best common ancestor of A and B (several for criss-cross merges); empty when unrelated."""
    result = run(["merge-base", "--all", a, b], cwd, ok_codes=(0, 1))
    return result.stdout.decode().split()


def merge_tree(base: str, head: str, cwd: str | None = None) -> str | None:
    """The tree a merge of HEAD into BASE would write (git 2.38+), or None when it conflicts."""
    result = run(["merge-tree", "--write-tree", "--no-messages", base, head], cwd, ok_codes=(0, 1))
    if result.returncode == 1:
        return None
    return result.stdout.decode().split()[0]


def first_parent_args(rev: str, fmt: str, max_count: int | None = None, since: str | None = None) -> list[str]:
    args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames", "--no-abbrev",
            "-z", f"--format={fmt}"]
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    if since:
        args.append(f"--since={since}")
    return [*args, rev, "--"]


def fields(blocks: Iterator[bytes]) -> Iterator[bytes]:
    """`-z` fields of output arriving in BLOCKS."""
    pending = b""
    for block in blocks:
        pending += block
        *done, pending = pending.split(b"\0")
        yield from done
    if pending:
        yield pending


def range_log(rev_range: str, fmt: str, cwd: str | None = None) -> list[bytes]:
    """`-z` separated formatted records of the commits in a range, e.g. `BASE..HEAD`."""
    return split_z(run(["log", "-z", f"--format={fmt}", rev_range, "--"], cwd).stdout)


def symbolic_ref(name: str, cwd: str | None = None) -> str | None:
    result = run(["symbolic-ref", "-q", name], cwd, ok_codes=(0, 1, 128))
    return result.stdout.decode().strip() if result.returncode == 0 else None


def ref_exists(ref: str, cwd: str | None = None) -> bool:
    return run(["rev-parse", "--verify", "-q", ref], cwd, ok_codes=(0, 1)).returncode == 0


def object_sizes(oids: Sequence[str], cwd: str | None = None) -> dict[str, tuple[str, int]]:
    """(type, size) of many objects from one `cat-file --batch-check`; missing ones left out."""
    if not oids:
        return {}
    encoded = [oid.encode("utf-8", "surrogateescape") for oid in oids]
    out = run(["cat-file", "--batch-check", "-z"], cwd, input=b"".join(name + b"\0" for name in encoded)).stdout
    found: dict[str, tuple[str, int]] = {}
    pos = 0
    for oid, name in zip(oids, encoded):
        header, pos = _batch_header(out, pos, name)
        if header is not None:
            _, kind, size = header.rsplit(b" ", 2)
            found[oid] = (kind.decode(), int(size))
    return found


def promisor_remote(cwd: str | None = None) -> str | None:
    """The remote a partial (e.g. blobless) clone fetches missing objects from, or None."""
    result = run(["config", "-z", "--get-regexp", r"^(extensions\.partialclone|remote\..*\.promisor)$"], cwd,
                 ok_codes=(0, 1))
    for entry in split_z(result.stdout):
        key, _, value = entry.decode("utf-8", "replace").partition("\n")
        if key == "extensions.partialclone":
            return value
        if value.lower() in ("true", "1", "yes", "on"):
            return key[len("remote."):-len(".promisor")]
    return None


def fetch_objects(oids: Sequence[str], remote: str, cwd: str | None = None) -> None:
    """Fetch many objects of a partial clone in one round trip; git's lazy fetch asks one at a time."""
    args = ["-c", "fetch.negotiationAlgorithm=noop", "fetch", remote, "--no-tags", "--no-write-fetch-head",
            "--recurse-submodules=no", "--filter=blob:none", "--stdin"]
    result = run(args, cwd, input="\n".join(oids).encode() + b"\n", ok_codes=range(256))
    if result.returncode != 0:
        raise GitError(f"this partial clone cannot fetch missing objects from {remote!r} "
                       f"({_first_line(result.stderr)}): check that git fetch {remote} works")


# Every patch leverguard judges: no external diff, no textconv, no colour, hunks never fused by
# context (diff.interHunkContext would break `-U0` line counts), full object ids.
PATCH_ARGS = ("-r", "--raw", "-p", "-U0", "--inter-hunk-context=0", "-z", "--no-abbrev", "--no-ext-diff",
              "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/")


def big_file_args(limit: int = MAX_FILE_SIZE) -> list[str]:
    """Global options under which git's diff machinery takes a blob over LIMIT bytes for binary by its size
    alone, without loading it (`core.bigFileThreshold`): its patch is one `Binary files differ` line."""
    return ["-c", f"core.bigFileThreshold={max(int(limit), 1)}"]


def threshold(isolation: Sequence[str]) -> int:
    """The `core.bigFileThreshold` that ISOLATION sets (`big_file_args`), else git's own default."""
    for option in isolation:
        if option.startswith("core.bigFileThreshold="):
            return int(option.partition("=")[2])
    return 512 << 20


def attribute_free(git_dir: str | None, limit: int = MAX_FILE_SIZE) -> list[str]:
    """Global options for every patch the revert engine reads: they hide the working tree's `.gitattributes`
    (`* -diff` would blind every patch) by naming the repository by its git dir and the git dir as work
    tree (it holds no `.gitattributes`; its own `info/attributes` still counts, as the user's; bare
    repositories have none to hide), and leave blobs over LIMIT bytes unread (`big_file_args`)."""
    hidden = [f"--git-dir={git_dir}", f"--work-tree={git_dir}"] if git_dir else []
    return [*hidden, *big_file_args(limit)]


def _isolated_tree(isolation: Sequence[str]) -> str | None:
    return next((option.partition("=")[2] for option in isolation if option.startswith("--work-tree=")), None)


def _run_dir(isolation: Sequence[str], cwd: str | None) -> str | None:
    """Isolated commands run inside the empty work tree too: git reads attributes relative to where it runs."""
    return _isolated_tree(isolation) or cwd


def _run_env(isolation: Sequence[str]) -> dict[str, str] | None:
    """No index either: git falls back to the index's `.gitattributes` when the work tree has none."""
    tree = _isolated_tree(isolation)
    if tree is None:
        return None
    return {**os.environ, "GIT_INDEX_FILE": os.path.join(tree, "leverguard-no-index")}


def change_patch(old: str, new: str, cwd: str | None = None, *, renames: bool = False,
                 isolation: Sequence[str] = (), paths: Sequence[bytes] = (), excludes: Sequence[bytes] = (),
                 patch: bool = True) -> bytes:
    """`--raw -p -U0 -z` of the tree change OLD -> NEW (limited to PATHS, without EXCLUDES): every changed
    path and its lines; with `patch=False` the `--raw` records alone, which read no blob."""
    options = PATCH_ARGS if patch else ("-r", "--raw", "-z", "--no-abbrev")
    args = ["diff-tree", *options, "-M" if renames else "--no-renames", old, new]
    if paths or excludes:
        args += ["--", *(":(literal)" + fsdecode(p) for p in paths), *excluding(fsdecode(p) for p in excludes)]
    return run(args, cwd, isolation=isolation).stdout


def commit_patches(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                   isolation: Sequence[str] = ()) -> bytes:
    """First-parent `--raw -p -U0 -z` of many commits from one `diff-tree --stdin`, limited to PATHS."""
    if not shas:
        return b""
    return run(_commit_patch_args(paths), cwd, isolation=isolation,
               input="".join(f"{sha}\n" for sha in shas).encode()).stdout


def commit_patch_blocks(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                        isolation: Sequence[str] = ()) -> Iterator[bytes]:
    """`commit_patches` in blocks as git writes them: the caller parses one part while git diffs the next."""
    if not shas:
        return iter(())
    return stream_blocks(_commit_patch_args(paths), cwd, isolation, "".join(f"{sha}\n" for sha in shas).encode())


def start_commit_patches(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                         isolation: Sequence[str] = ()) -> Drained | None:
    """`commit_patches` started now and drained by a thread: git diffs them while the caller waits on another
    git (the landing's patch, on a second core). None when there is nothing to ask."""
    if not shas:
        return None
    return Drained(_commit_patch_args(paths), cwd, isolation, "".join(f"{sha}\n" for sha in shas).encode())


def _commit_patch_args(paths: Sequence[bytes]) -> list[str]:
    return ["diff-tree", "--stdin", *PATCH_ARGS, "--no-renames", "--diff-merges=first-parent", "--format=%x1e%H",
            "--", *(":(literal)" + fsdecode(p) for p in paths)]


def remerge_patches(rev_range: str, cwd: str | None = None, isolation: Sequence[str] = ()) -> bytes:
    """`--raw -p -U0 -z` of each merge in REV_RANGE against git's automatic re-merge of its parents:
    what the recorded resolution changed (`--diff-merges=remerge`, git 2.36+); each headed by the merge's id
    and its parents' ids."""
    # two-parent merges only: git re-merges no octopus, and says so on stdout, inside the patch stream
    args = ["log", "--merges", "--max-parents=2", "--diff-merges=remerge", *PATCH_ARGS, "--no-renames",
            "--format=%x1e%H %P", rev_range, "--"]
    return run(args, cwd, isolation=isolation).stdout


def rev_parse_all(revs: Sequence[str], cwd: str | None = None) -> list[str]:
    """Full commit ids of several revisions in one call; the first unknown one is named in the error."""
    if not any(rev.startswith("-") for rev in revs):
        result = run(["rev-parse", *[f"{rev}^{{commit}}" for rev in revs], "--"], cwd, ok_codes=(0, 128))
        shas = [line for line in result.stdout.decode().split() if line != "--"]  # rev-parse echoes `--`
        if result.returncode == 0 and len(shas) == len(revs):
            return shas
    return [rev_parse(rev, cwd) for rev in revs]


class Repository:
    """Where a repository is: its git dir, whether it is bare, its object directory (no `typing`
    import for a record: hooks import this module)."""

    __slots__ = ("git_dir", "bare", "objects", "shallow")

    def __init__(self, git_dir: str, bare: bool, objects: str, shallow: bool) -> None:
        self.git_dir, self.bare, self.objects, self.shallow = git_dir, bare, objects, shallow


LOCATE_ARGS = ("--absolute-git-dir", "--is-bare-repository", "--is-shallow-repository", "--path-format=absolute",
               "--git-path", "objects")  # four lines before the revisions


def _located(lines: list[str]) -> Repository:
    return Repository(lines[0], lines[1] == "true", lines[3], lines[2] == "true")


def rev_parse_repository(revs: Sequence[str], cwd: str | None = None) -> tuple[Repository, list[str]]:
    """The repository at CWD and `rev_parse_all(REVS)`, in one `git rev-parse` when the names are plain."""
    if not any(rev.startswith("-") for rev in revs):
        args = ["rev-parse", *LOCATE_ARGS, *[f"{rev}^{{commit}}" for rev in revs], "--"]
        result = run(args, cwd, ok_codes=(0, 128))
        lines = result.stdout.decode("utf-8", "surrogateescape").split("\n")  # the dirs may hold spaces
        shas = [line for line in lines[4:] if line and line != "--"]
        if result.returncode == 0 and len(shas) == len(revs) and len(lines) > 4:
            return _located(lines), shas
    lines = output(["rev-parse", *LOCATE_ARGS], cwd).split("\n")
    return _located(lines), rev_parse_all(revs, cwd)


def rev_parse_range(base: str, head: str, cwd: str | None = None) -> tuple[Repository, list[str], list[str] | None]:
    """`rev_parse_repository([BASE, HEAD])` and the merge bases of the two (`merge_bases`) from the same
    `git rev-parse`: `A...B` prints A, B and each merge base as `^BASE` (git's own order, as merge-base
    --all). The bases are None when that call fails (unrelated histories, odd names): ask `merge_bases`."""
    if not base.startswith("-") and not head.startswith("-"):
        peeled = [f"{base}^{{commit}}", f"{head}^{{commit}}"]
        args = ["rev-parse", *LOCATE_ARGS, *peeled, "...".join(peeled), "--"]
        result = run(args, cwd, ok_codes=(0, 128))
        lines = result.stdout.decode("utf-8", "surrogateescape").split("\n")  # the dirs may hold spaces
        shas = [line for line in lines[4:] if line and line != "--" and not line.startswith("^")]
        if result.returncode == 0 and len(shas) == 4 and len(lines) > 4:
            bases = [line[1:] for line in lines[4:] if line.startswith("^")]
            return _located(lines), shas[:2], bases
    where, shas = rev_parse_repository([base, head], cwd)
    return where, shas, None


def missing_in_history(tip: str, max_count: int | None, cwd: str | None = None) -> frozenset[str]:
    """Objects the first-parent history of TIP (its newest MAX_COUNT commits) lacks, from one walk.

    `rev-list --missing=print` never fetches, whatever the git version: a partial clone's audit
    learns which commits it cannot read without a failing process per commit.
    """
    args = ["rev-list", "--objects", "--missing=print", "--no-object-names", "--first-parent",
            *([f"--max-count={max_count}"] if max_count is not None else []), tip, "--"]
    return frozenset(line[1:] for line in output(args, cwd).split() if line.startswith("?"))


def is_own_repository(git_dir: str, start: str | None = None) -> bool:
    """Is GIT_DIR the repository the user works in (the one around START, the cwd), not one passed by --repo?"""
    found = find_root(start or os.getcwd())
    return found is not None and os.path.realpath(found[1]) == os.path.realpath(git_dir)


def _anonymous_file() -> IO[bytes]:
    """An unnamed temporary file; `O_TMPFILE` where the system has it, since `tempfile` costs a check-revert
    5 ms of imports (shutil, random, bz2, lzma)."""
    flag = getattr(os, "O_TMPFILE", 0)
    for folder in (os.environ.get("TMPDIR"), "/tmp") if flag else ():
        if folder:
            try:
                return os.fdopen(os.open(folder, flag | os.O_RDWR, 0o600), "w+b")
            except OSError:
                continue  # a folder without O_TMPFILE support (some network file systems)
    import tempfile

    return tempfile.TemporaryFile()


class scratch_objects:  # noqa: N801 - `with git.scratch_objects(objects_dir):`
    """Objects git writes (merge-tree's trees) go to a temporary directory; the repository's are read as
    an alternate. A repository leverguard merely checks (--repo, a mirror, read-only) stays untouched."""

    def __init__(self, objects_dir: str) -> None:
        self.objects_dir = objects_dir

    def __enter__(self) -> str:
        self._dir = _scratch_dir()
        names = ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES")
        self._saved = {name: os.environ.get(name) for name in names}
        inherited = self._saved["GIT_ALTERNATE_OBJECT_DIRECTORIES"]
        os.environ["GIT_OBJECT_DIRECTORY"] = self._dir
        os.environ["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = os.pathsep.join(
            [self.objects_dir, *([inherited] if inherited else [])])
        return self._dir

    def __exit__(self, *exc: object) -> None:
        _restore_environ(self._saved)
        for folder, dirs, files in os.walk(self._dir, topdown=False):  # what merge-tree wrote: plain files
            for name in files:
                os.unlink(os.path.join(folder, name))
            for name in dirs:
                os.rmdir(os.path.join(folder, name))
        os.rmdir(self._dir)


def _scratch_dir() -> str:
    """A new private folder in the temporary directory, made without `tempfile` (5 ms of imports)."""
    folder = os.environ.get("TMPDIR") or "/tmp"
    try:
        path = os.path.join(folder, f"leverguard-objects-{os.urandom(8).hex()}")
        os.mkdir(path, 0o700)
        return path
    except OSError:  # TMPDIR unset and no /tmp: tempfile knows the other places
        import tempfile

        return tempfile.mkdtemp(prefix="leverguard-objects-")


# ---- lever engine ----

LEVER_GREP = ("grep", "-z", "-a", "--no-color")  # -a, not -I: -I honours `binary`/`-diff` attributes (issue #11)


def _tree_args(rev: str | None) -> list[str]:
    """`--cached` for the index (the commit being made), else the revision or tree to read."""
    return ["--cached"] if rev is None else [rev]


def grep_files_stream(patterns: Sequence[str], rev: str | None, pathspecs: Sequence[str],
                      cwd: str | None = None) -> Iterator[str]:
    """Paths whose content matches any of PATTERNS (`git grep -l`), yielded as git prints them so the
    caller can read and parse meanwhile."""
    args = [*LEVER_GREP, "-l", "-E"]
    for pattern in patterns:
        args += ["-e", pattern]
    args += [*_tree_args(rev), "--", *pathspecs]
    prefix = len(f"{rev}:") if rev is not None else 0
    for name in fields(stream_blocks(args, cwd, ok_codes=(0, 1))):  # 1: nothing matched
        yield fsdecode(name)[prefix:]


def grep_words(words: Sequence[str], rev: str | None, pathspecs: Sequence[str],
               cwd: str | None = None) -> list[tuple[str, int, str]]:
    """(path, line, text) of every line at REV (or in the index) holding one of `words` as a word."""
    return _grep_lines(["-w", "-F"], words, rev, pathspecs, cwd)


def grep_fixed(strings: Sequence[str], rev: str | None, pathspecs: Sequence[str],
               cwd: str | None = None) -> list[tuple[str, int, str]]:
    """(path, line, text) of every line at REV (or in the index) holding one of `strings` literally."""
    return _grep_lines(["-F"], strings, rev, pathspecs, cwd)


def _grep_lines(flags: list[str], strings: Sequence[str], rev: str | None, pathspecs: Sequence[str],
                cwd: str | None) -> list[tuple[str, int, str]]:
    if not strings:
        return []
    args = [*LEVER_GREP, "-n", *flags]
    for text in strings:
        args += ["-e", text]
    result = run([*args, *_tree_args(rev), "--", *pathspecs], cwd, ok_codes=(0, 1))
    prefix = f"{rev}:" if rev is not None else ""
    # `PATH\0LINE\0TEXT\n` records: a path may hold a newline, a matched line cannot (issue #11).
    hits = []
    fields = result.stdout.split(b"\0")
    path = fields[0] if fields else b""
    for index in range(1, len(fields) - 1, 2):
        line, _, following = fields[index + 1].partition(b"\n")
        hits.append((fsdecode(path)[len(prefix):], int(fields[index]), fsdecode(line)))
        path = following
    return hits


def blob_spec(rev: str | None, path: str) -> str:
    """The `cat-file` name of PATH at REV, or in the index (stage 0) when REV is None."""
    return f":0:{path}" if rev is None else f"{rev}:{path}"


# Every diff leverguard judges ignores the repository's diff attributes and textconv: a committed
# (or working-tree) `* -diff` made git print "Binary files differ" and hid every lever change (issue #11).
OWN_DIFF = ("--no-ext-diff", "--no-textconv", "--text", "--no-color", "--no-renames")


def diff_patch(base: str, head: str | None, pathspecs: Sequence[str] = (), cwd: str | None = None,
               context: int = 0) -> bytes:
    """The unified diff BASE..HEAD (or BASE against the index) as text, whatever the diff attributes say."""
    args = ["diff", f"-U{context}", *OWN_DIFF, base, *([head] if head is not None else ["--cached"]),
            "--", *pathspecs]
    return run(args, cwd).stdout


def diff_raw(base: str, head: str | None, cwd: str | None = None) -> list[tuple[str, str, str, str]]:
    """(old id, new id, status letter, path) per changed file, without reading any content."""
    args = ["diff", "--raw", "-z", "--no-abbrev", "--no-renames", base, *([head] if head is not None else ["--cached"])]
    fields = split_z(run(args, cwd).stdout)
    rows = []
    for meta, path in zip(fields[::2], fields[1::2]):
        _, _, old, new, status = meta.decode().split(" ", 4)
        rows.append((old, new, status[:1], fsdecode(path)))
    return rows


def numstat(base: str, head: str | None, pathspecs: Sequence[str], cwd: str | None = None,
            limit: int = MAX_FILE_SIZE) -> list[tuple[int, int, str]]:
    """(added, deleted, path) per changed file; binary files, and files over LIMIT bytes (never read), count as (-1, -1)."""
    args = [*big_file_args(limit), "diff", "--numstat", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", base,
            *([head] if head is not None else ["--cached"]), "--", *pathspecs]
    rows = []
    for field in split_z(run(args, cwd).stdout):
        added, deleted, path = field.split(b"\t", 2)
        rows.append((int(added) if added != b"-" else -1, int(deleted) if deleted != b"-" else -1, fsdecode(path)))
    return rows


def first_commit_adding(word: str, rev: str, pathspecs: Sequence[str], cwd: str | None = None) -> tuple[str, str] | None:
    """(commit, subject) of the oldest commit reachable from REV that added `word` (pickaxe -S)."""
    args = ["log", "--reverse", "--format=%H%x00%s", "--text", "--no-textconv", "--no-ext-diff", f"-S{word}", rev,
            "--", *pathspecs]
    lines = run(args, cwd).stdout.decode("utf-8", "replace").splitlines()
    if not lines:
        return None
    commit, _, subject = lines[0].partition("\0")
    return commit, subject


def list_paths(rev: str | None, pathspecs: Sequence[str], cwd: str | None = None) -> list[str]:
    """Files at REV or in the index (`ls-files`) matching the pathspecs.

    `ls-tree` refuses magic pathspecs such as `:(glob)`, so a revision is listed as its diff
    against the empty tree, where the diff machinery applies every pathspec form.
    """
    if rev is None:
        args = ["ls-files", "-z", "--", *pathspecs]
    else:
        args = ["diff-tree", "-r", "-z", "--name-only", "--no-renames", EMPTY_TREE, rev, "--", *pathspecs]
    return [fsdecode(name) for name in split_z(run(args, cwd).stdout)]


def large_files(rev: str | None, suffixes: Sequence[str], limit: int, cwd: str | None = None) -> dict[str, int]:
    """path -> size of every file at REV (None: the index) ending with one of SUFFIXES and over LIMIT bytes.

    Sizes come from the object headers (`ls-tree -l`; for the index `ls-files -s` and one
    `cat-file --batch-check`): no content is read. Callers leave these files out of `git grep`,
    which would load each one whole (issue #11).
    """
    ends = tuple(suffixes)
    if rev is not None:
        return sized_tree(start(SIZED_TREE + (rev,), cwd), ends, limit)
    staged: dict[str, str] = {}
    for record in split_z(run(["ls-files", "-s", "-z"], cwd).stdout):
        meta, _, raw = record.partition(b"\t")
        path = fsdecode(raw)
        if path.endswith(ends) and not _small_on_disk(path, limit, cwd):
            staged[path] = meta.split(b" ")[1].decode()
    if not staged:  # the usual commit: every source small on disk, no batch-check process at all
        return {}
    sizes = object_sizes(sorted(set(staged.values())), cwd)
    return {path: sizes[oid][1] for path, oid in staged.items() if oid in sizes and sizes[oid][1] > limit}


def _small_on_disk(path: str, limit: int, cwd: str | None) -> bool:
    """A working-tree file far below LIMIT: its staged blob is too, so git need not size it (a file shrunk
    on disk after a huge version was staged escapes this check; a file not on disk is sized by git)."""
    try:
        return os.stat(os.path.join(cwd or ".", path)).st_size <= limit // 2
    except OSError:
        return False


SIZED_TREE = ("ls-tree", "-r", "-l", "-z", "--full-tree")  # + REV: every file with its size, no content read


def sized_tree(pending: Process, suffixes: Sequence[str], limit: int) -> dict[str, int]:
    """`large_files` of a revision from `start(SIZED_TREE + (REV,))`, which may run while other work goes on."""
    ends, found = tuple(suffixes), {}
    for record in split_z(pending.result().stdout):
        meta, _, raw = record.partition(b"\t")
        size = meta.rsplit(b" ", 1)[-1].strip()
        path = fsdecode(raw)
        if path.endswith(ends) and size.isdigit() and int(size) > limit:
            found[path] = int(size)
    return found


def tree_blobs(rev: str, cwd: str | None = None, folders: Sequence[str] = ()) -> dict[bytes, str]:
    """Path -> object id of every file in REV's tree, or under FOLDERS (each ending in `/`) when given
    (`ls-tree -r`: headers only, no content read)."""
    found = {}
    for record in split_z(run(["ls-tree", "-r", "-z", "--full-tree", rev, "--", *folders], cwd).stdout):
        meta, _, path = record.partition(b"\t")
        parts = meta.split(b" ")
        if len(parts) == 3 and parts[1] == b"blob":
            found[path] = parts[2].decode("ascii")
    return found


def excluding(paths: Iterable[str]) -> list[str]:
    """Pathspecs that leave PATHS out of a git command (git 2.13+ accepts excludes alone)."""
    return [f":(exclude,literal){path}" for path in sorted(paths)]


# ---- message engine ----


def config_args(keys: Sequence[str]) -> list[str]:
    return ["config", "-z", "--get-regexp", "^(" + "|".join(key.replace(".", r"\.") for key in keys) + ")$"]


def config_values(keys: Sequence[str], cwd: str | None = None, pending: Process | None = None) -> dict[str, str]:
    """The last value of each of `keys` (lower-case dotted names) that is set, in one git call."""
    result = (pending or start(config_args(keys), cwd)).result(ok_codes=(0, 1))
    values: dict[str, str] = {}
    for record in split_z(result.stdout):
        key, _, value = record.decode("utf-8", "surrogateescape").partition("\n")
        values[key.lower()] = value
    return values


REPO_STATE_ARGS = ("rev-parse", "--show-toplevel", "--absolute-git-dir", "-q", "--verify", "HEAD^{commit}")


def repo_state(cwd: str | None = None, pending: Process | None = None) -> tuple[str, str, str | None]:
    """(working tree root, absolute git dir, HEAD's commit or None on an unborn branch) in one git call."""
    done = (pending or start(REPO_STATE_ARGS, cwd)).result(ok_codes=(0, 1))
    lines = done.stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3 or not lines[0]:
        raise GitError("this is a bare repository or a .git folder: run leverguard inside a working tree, or pass --repo DIR")
    return lines[0], lines[1], lines[2] or None


TRAILERS_ARGS = ("interpret-trailers", "--parse", "--no-divider")


def parse_trailers(message: bytes, cwd: str | None = None, pending: Process | None = None) -> list[str]:
    """The trailer lines git itself recognizes in a commit message, unfolded, one per entry.

    `--no-divider` because git reads a commit's trailers that way (a `---` line in a
    commit message is text, not the start of a patch); the repository's trailer.* config applies.
    Pass `pending=start(TRAILERS_ARGS, cwd, input=message)` to overlap it with other work.
    """
    result = (pending or start(TRAILERS_ARGS, cwd, input=message)).result()
    return result.stdout.decode("utf-8", "surrogateescape").splitlines()


def rev_list(spec: str, cwd: str | None = None) -> list[tuple[str, list[str]]]:
    """(commit, parents) of every commit of a range such as `A..B`, oldest first."""
    if spec.startswith("-"):
        raise GitError(f"invalid range {spec!r}: a range cannot start with '-'")
    text = output(["rev-list", "--reverse", "--parents", spec, "--"], cwd)
    return [(ids[0], ids[1:]) for ids in (line.split() for line in text.splitlines()) if ids]


def commit_author(reader: ObjectReader, commit: str) -> tuple[str, str] | None:
    """(name, email) of a commit's author, from its header; None when the header has no author line."""
    found = reader.read(commit)
    header = found[1].partition(b"\n\n")[0] if found is not None else b""
    for line in header.split(b"\n"):
        if line.startswith(b"author "):
            ident = line[len(b"author "):].decode("utf-8", "replace")
            name, _, rest = ident.partition(" <")
            return name.strip(), rest.partition(">")[0]
    return None


def commit_message(reader: ObjectReader, commit: str) -> tuple[str, bytes]:
    """(encoding named in the commit header, raw message bytes) of a commit object."""
    found = reader.read(commit)
    if found is None or found[0] != "commit":
        raise GitError(f"{commit} is not a commit: check the range")
    header, _, message = found[1].partition(b"\n\n")
    encoding = "UTF-8"
    for line in header.split(b"\n"):
        if line.startswith(b"encoding "):
            encoding = line[len(b"encoding "):].decode("ascii", "replace").strip()
    return encoding, message
