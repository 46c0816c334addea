"""Every git call leverguard makes: argument lists, `-z` output, one `cat-file --batch` reader.

This module knows no rules. It turns git's failures into `GitError`s whose message says
what to do, because a checker that fails quietly is worse than none.
"""

from __future__ import annotations

import os

from leverguard.errors import GitError

# Hooks run this module on every commit: `typing` (~5 ms) and `subprocess` (~12 ms) are imported
# only where needed, and the hook's one git call (`spawn_output`) uses os.posix_spawn directly.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import IO, Iterable, Iterator, Mapping, Sequence

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
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
    for fragment, advice in _ADVICE:
        if fragment in detail:
            return GitError(f"{advice} (git {_command(args)}: {detail})")
    return GitError(f"git {' '.join(args[:2])} failed with exit {returncode}: {detail or 'no message'}")


def _command(args: Sequence[str]) -> str:
    """The git subcommand of ARGS, past global options such as `--git-dir=...`."""
    return next((arg for arg in args if not arg.startswith("-")), args[0] if args else "")


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


def run(
    args: Sequence[str],
    cwd: str | None = None,
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    ok_codes: Sequence[int] = (0,),
) -> Result:
    """Run `git ARGS` and return its output; any exit code outside `ok_codes` is a GitError."""
    import subprocess

    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False,
        )
    except FileNotFoundError as exc:
        if cwd is not None and not os.path.isdir(cwd):
            raise GitError(f"no such directory: {cwd}: pass an existing repository with --repo DIR") from exc
        raise GitError(NO_GIT) from exc
    if proc.returncode not in ok_codes:
        raise _error(args, proc.stderr, proc.returncode, cwd)
    return Result(proc.returncode, proc.stdout, proc.stderr)


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
    return split_z(spawn_output(args, cwd).stdout)


def spawn_output(args: Sequence[str], cwd: str | None = None) -> Result:
    """`run` for the hook path: one git process through os.posix_spawnp, without importing subprocess."""
    return start(args, cwd).result()


def _spawn(args: Sequence[str], cwd: str | None, stdio: tuple[int, int, int], ours: Sequence[int]) -> int:
    """`git [-C CWD] ARGS` through os.posix_spawnp (no subprocess import), STDIO as its standard input,
    output and error; those ends are closed here once git holds them, and OURS too when git cannot start.
    The pipes' other ends are close-on-exec (os.pipe), so git inherits no more than its three."""
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(stdio)]
    try:
        return os.posix_spawnp("git", ["git", *(["-C", cwd] if cwd else []), *args], os.environ,
                               file_actions=actions)
    except FileNotFoundError as exc:
        for fd in ours:
            os.close(fd)
        raise GitError(NO_GIT) from exc
    finally:
        for fd in stdio:
            os.close(fd)


def _drain(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


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
        self._proc: Piped | None = None
        self._hex_length = 40

    def _process(self) -> Piped:
        if self._proc is None:
            self._proc = Piped(["cat-file", "--batch-command", "-z"], self._cwd)
        return self._proc

    def _ask(self, command: bytes, spec: str) -> tuple[str, int] | None:
        """(type, size) from the header git answers COMMAND SPEC with, or None for a missing name."""
        proc = self._process()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None
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
        stdout = self._proc.stdout  # type: ignore[union-attr]
        assert stdout is not None
        data = _read_exact(stdout, found[1])
        stdout.read(1)  # the newline after the content
        return found[0], data

    def sizes(self, oids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """(type, size) of many object ids, pipelined a chunk at a time; missing ones left out.

        What `object_sizes` does with a process of its own, here on the reader a run already has.
        Chunks keep git's answers (about 60 bytes each) well under a pipe's buffer: writing every
        request before reading any could block both processes on a large diff.
        """
        found: dict[str, tuple[str, int]] = {}
        for start in range(0, len(oids), 256):
            chunk = oids[start:start + 256]
            proc = self._process()
            stdin, stdout = proc.stdin, proc.stdout
            assert stdin is not None and stdout is not None
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
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    try:
                        stream.close()
                    except BrokenPipeError:
                        pass
            self._proc.wait()
            self._proc = None

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _tree_entry(data: bytes, name: bytes, hash_size: int) -> tuple[bytes, str] | None:
    """(mode, object id) of NAME in a raw tree object (`MODE NAME NUL HASH` records), or None."""
    pos = 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        if data[space + 1:nul] == name:
            return data[pos:space], data[nul + 1:nul + 1 + hash_size].hex()
        pos = nul + 1 + hash_size
    return None


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


def stream(args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = ()) -> Iterator[bytes]:
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
                  input: bytes | None = None) -> Iterator[bytes]:
    """Yield a long git output in blocks as it arrives; a failing exit is a GitError, never a short read."""
    started = Started(args, cwd, isolation, input)
    try:
        yield from started.blocks()
    finally:
        started.close()


PIPE_INPUT = 1 << 15  # input written whole before the output is read: far below a pipe's buffer, so never stuck


class Started:
    """A git process started now and read later: git works (the window's log, a candidate's patch) while
    the caller does something else. INPUT, at most PIPE_INPUT bytes, is written whole at the start."""

    def __init__(self, args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = (),
                 input: bytes | None = None) -> None:
        import subprocess

        assert input is None or len(input) <= PIPE_INPUT
        self.args, self.cwd = [*isolation, *args], _run_dir(isolation, cwd)
        self.proc = subprocess.Popen(["git", *self.args], cwd=self.cwd, env=_run_env(isolation),
                                     stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if input is not None:
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write(input)
                self.proc.stdin.close()
            except BrokenPipeError:
                pass  # it died: its exit code and stderr say why
        self._done = False

    def blocks(self) -> Iterator[bytes]:
        proc = self.proc
        assert proc.stdout is not None and proc.stderr is not None
        yield from iter(lambda: proc.stdout.read(1 << 16), b"")  # type: ignore[union-attr]
        self._done = True
        self.close()

    def close(self) -> None:
        """Wait for git (stopped first when its output was not read to the end); a failing exit is a GitError."""
        proc = self.proc
        if proc.returncode is not None or proc.stdout is None or proc.stderr is None:
            return
        if not self._done:  # the reader stopped early: stop git too
            proc.kill()
        proc.stdout.close()
        stderr = proc.stderr.read()
        proc.stderr.close()
        code = proc.wait()
        if code != 0 and self._done:
            raise _error(self.args, stderr, code, self.cwd)


class Drained(Started):
    """A started git process whose output a thread reads as it comes: git never waits on a full pipe while
    the caller is busy elsewhere, and the caller parses each block as it arrives (subprocess imports
    threading anyway)."""

    def __init__(self, args: Sequence[str], cwd: str | None = None, isolation: Sequence[str] = (),
                 input: bytes | None = None) -> None:
        import threading
        from queue import SimpleQueue

        super().__init__(args, cwd, isolation, input)
        self._out: SimpleQueue[bytes] = SimpleQueue()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for block in iter(lambda: self.proc.stdout.read1(1 << 16), b""):  # type: ignore[union-attr,attr-defined]
            self._out.put(block)
        self._out.put(b"")

    def blocks(self) -> Iterator[bytes]:
        yield from iter(self._out.get, b"")
        self._thread.join()
        self._done = True
        self.close()

    def close(self) -> None:
        if not self._done and self.proc.returncode is None:
            self.proc.kill()
        self._thread.join()
        super().close()


# ---- revert engine ----


class PatchReader:
    """One `git diff-tree --stdin ARGS` process serving many commits' patches, asked ahead and answered in order.

    Each asked commit is followed by a marker line, which diff-tree echoes (and flushes) after the
    commit's output: the marker (random, so no path or line can forge it) ends each answer, and a
    process that dies is known to have died at the first commit whose marker never came.
    """

    def __init__(self, args: Sequence[str], cwd: str | None, isolation: Sequence[str] = ()) -> None:
        self._args = [*isolation, "diff-tree", "--stdin", *args]
        self._cwd, self._isolation = cwd, isolation
        self._marker = b"~leverguard-" + os.urandom(12).hex().encode() + b"\n"  # `~`: no object id
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._asked: list[str] = []  # asked and not answered yet, oldest first
        self._chunks: list[bytes] = []  # output read past the last marker

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
        """The output for the oldest commit asked, or None when git stopped at it (then call `failure`)."""
        assert self._asked
        proc = self._start()
        assert proc.stdout is not None
        fd, width = proc.stdout.fileno(), len(self._marker)
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
            block = os.read(fd, 1 << 16)  # whatever has arrived, not a full buffer
            if not block:
                return None
            self._chunks.append(block)

    def failure(self) -> GitError:
        """Why git stopped at the oldest commit asked (MissingObjects when it could not read an object);
        that commit is dropped, and the next `answer` restarts git for the others."""
        self._asked.pop(0)
        stderr, code = self._stop()
        return _error(self._args, stderr, code or 128, self._cwd)

    def _start(self) -> subprocess.Popen[bytes]:
        import subprocess

        if self._proc is None:
            self._stderr = _anonymous_file()  # a file: warnings can never fill a pipe and stall git
            self._proc = subprocess.Popen(["git", *self._args], cwd=_run_dir(self._isolation, self._cwd),
                                          env=_run_env(self._isolation), stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self._stderr)
            self._chunks = []
            self._write(self._asked)  # a restart asks again what the dead process never answered
        return self._proc

    def _write(self, shas: list[str]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:  # the caller keeps few commits in flight: far below a pipe's buffer, so this never blocks
            self._proc.stdin.write(b"".join(sha.encode() + b"\n" + self._marker for sha in shas))
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass  # it died: `answer` finds out

    def _stop(self) -> tuple[bytes, int]:
        """End the process (dead or not): (its stderr, its exit code)."""
        stderr, code = b"", 0
        if self._proc is not None:
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except BrokenPipeError:
                    pass
            if self._proc.poll() is None:
                self._proc.kill()
            code = self._proc.wait()
            self._proc = None
        if self._stderr is not None:
            self._stderr.seek(0)
            stderr = self._stderr.read()
            self._stderr.close()
            self._stderr = None
        return stderr, code

    def close(self) -> None:
        self._asked = []
        self._stop()

    def __enter__(self) -> PatchReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    args = [*isolation, "diff-tree", *options, "-M" if renames else "--no-renames", old, new]
    if paths or excludes:
        args += ["--", *(":(literal)" + fsdecode(p) for p in paths), *excluding(fsdecode(p) for p in excludes)]
    return run(args, _run_dir(isolation, cwd), env=_run_env(isolation)).stdout


def commit_patches(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                   isolation: Sequence[str] = ()) -> bytes:
    """First-parent `--raw -p -U0 -z` of many commits from one `diff-tree --stdin`, limited to PATHS."""
    if not shas:
        return b""
    return run([*isolation, *_commit_patch_args(paths)], _run_dir(isolation, cwd), env=_run_env(isolation),
               input="".join(f"{sha}\n" for sha in shas).encode()).stdout


def commit_patch_blocks(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                        isolation: Sequence[str] = ()) -> Iterator[bytes]:
    """`commit_patches` in blocks as git writes them: the caller parses one part while git diffs the next."""
    names = "".join(f"{sha}\n" for sha in shas).encode()
    if not shas:
        return iter(())
    if len(names) > PIPE_INPUT:
        return iter((commit_patches(shas, paths, cwd, isolation),))
    return stream_blocks(_commit_patch_args(paths), cwd, isolation, names)


def start_commit_patches(shas: Sequence[str], paths: Sequence[bytes] = (), cwd: str | None = None,
                         isolation: Sequence[str] = ()) -> Drained | None:
    """`commit_patches` started now and drained by a thread: git diffs them while the caller waits on another
    git (the landing's patch, on a second core). None when there are too many names to write up front."""
    names = "".join(f"{sha}\n" for sha in shas).encode()
    if not shas or len(names) > PIPE_INPUT:
        return None
    return Drained(_commit_patch_args(paths), cwd, isolation, names)


def _commit_patch_args(paths: Sequence[bytes]) -> list[str]:
    return ["diff-tree", "--stdin", *PATCH_ARGS, "--no-renames", "--diff-merges=first-parent", "--format=%x1e%H",
            "--", *(":(literal)" + fsdecode(p) for p in paths)]


def remerge_patches(rev_range: str, cwd: str | None = None, isolation: Sequence[str] = ()) -> bytes:
    """`--raw -p -U0 -z` of each merge in REV_RANGE against git's automatic re-merge of its parents:
    what the recorded resolution changed (`--diff-merges=remerge`, git 2.36+)."""
    # two-parent merges only: git re-merges no octopus, and says so on stdout, inside the patch stream
    args = [*isolation, "log", "--merges", "--max-parents=2", "--diff-merges=remerge", *PATCH_ARGS, "--no-renames",
            "--format=%x1e%H", rev_range, "--"]
    return run(args, _run_dir(isolation, cwd), env=_run_env(isolation)).stdout


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
    import subprocess

    proc = subprocess.Popen(["git", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    prefix = len(f"{rev}:") if rev is not None else 0
    pending, fd = b"", proc.stdout.fileno()
    try:
        for block in iter(lambda: os.read(fd, 1 << 16), b""):  # whatever has arrived, not a full buffer
            pending += block
            *names, pending = pending.split(b"\0")
            for name in names:
                yield fsdecode(name)[prefix:]
        stderr = proc.stderr.read()
        if proc.wait() not in (0, 1):  # 1: nothing matched
            raise _error(args, stderr, proc.returncode)
    finally:
        if proc.poll() is None:  # the caller stopped early: do not leave git running
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()

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


def sized_tree(pending: Pending, suffixes: Sequence[str], limit: int) -> dict[str, int]:
    """`large_files` of a revision from `start(SIZED_TREE + (REV,))`, which may run while other work goes on."""
    ends, found = tuple(suffixes), {}
    for record in split_z(pending.result().stdout):
        meta, _, raw = record.partition(b"\t")
        size = meta.rsplit(b" ", 1)[-1].strip()
        path = fsdecode(raw)
        if path.endswith(ends) and size.isdigit() and int(size) > limit:
            found[path] = int(size)
    return found


def excluding(paths: Iterable[str]) -> list[str]:
    """Pathspecs that leave PATHS out of a git command (git 2.13+ accepts excludes alone)."""
    return [f":(exclude,literal){path}" for path in sorted(paths)]


# ---- message engine ----


def config_args(keys: Sequence[str]) -> list[str]:
    return ["config", "-z", "--get-regexp", "^(" + "|".join(key.replace(".", r"\.") for key in keys) + ")$"]


def config_values(keys: Sequence[str], cwd: str | None = None, pending: Pending | None = None) -> dict[str, str]:
    """The last value of each of `keys` (lower-case dotted names) that is set, in one git call."""
    result = (pending or start(config_args(keys), cwd)).result(ok_codes=(0, 1))
    values: dict[str, str] = {}
    for record in split_z(result.stdout):
        key, _, value = record.decode("utf-8", "surrogateescape").partition("\n")
        values[key.lower()] = value
    return values


class Pending:
    """A git process started now and collected later, so that hooks overlap git's start-up costs.

    Spawned with os.posix_spawnp, like `spawn_output`: the message hooks then never import
    subprocess. The input is written whole before stdout is read: the commands used this way
    (`interpret-trailers`, `rev-parse`, `config`) read all their input before writing anything.
    """

    def __init__(self, args: Sequence[str], cwd: str | None, input: bytes | None, later: bool = False) -> None:
        self.args, self.input = list(args), input
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_r, in_w = os.pipe() if input is not None or later else (os.open(os.devnull, os.O_RDONLY), -1)
        self.pid = _spawn(args, cwd, (in_r, out_w, err_w), [fd for fd in (out_r, err_r, in_w) if fd >= 0])
        self.fds = (in_w, out_r, err_r)

    def result(self, ok_codes: Sequence[int] = (0,), input: bytes | None = None) -> Result:
        """Write the input (INPUT here for a process started with `later=True`), then collect the output."""
        in_w, out_r, err_r = self.fds
        if in_w >= 0:
            try:
                _write_all(in_w, self.input if input is None else input)
            except BrokenPipeError:
                pass  # git stopped reading: its exit code and stderr say why
            finally:
                os.close(in_w)
        stdout, stderr = _drain(out_r), _drain(err_r)
        returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        if returncode not in ok_codes:
            raise _error(self.args, stderr, returncode)
        return Result(returncode, stdout, stderr)


class Piped:
    """A long-lived git process fed through `stdin` and read through `stdout` (buffered files), stderr
    discarded: the object reader's. Spawned with os.posix_spawnp, so a hook that reads a few object
    sizes does not import subprocess (7 ms)."""

    def __init__(self, args: Sequence[str], cwd: str | None) -> None:
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        self.pid = _spawn(args, cwd, (in_r, out_w, os.open(os.devnull, os.O_WRONLY)), (in_w, out_r))
        self.stdin, self.stdout = os.fdopen(in_w, "wb"), os.fdopen(out_r, "rb")

    def wait(self) -> int:
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


def _write_all(fd: int, data: bytes | None) -> None:
    view = memoryview(data or b"")
    while view:
        view = view[os.write(fd, view):]


def start(args: Sequence[str], cwd: str | None = None, *, input: bytes | None = None, later: bool = False) -> Pending:
    """Spawn `git ARGS` now; `later=True`: its standard input is given to `result`, so the start-up of a
    process that needs another's output overlaps that other's run."""
    return Pending(args, cwd, input, later)


REPO_STATE_ARGS = ("rev-parse", "--show-toplevel", "--absolute-git-dir", "-q", "--verify", "HEAD^{commit}")


def repo_state(cwd: str | None = None, pending: Pending | None = None) -> tuple[str, str, str | None]:
    """(working tree root, absolute git dir, HEAD's commit or None on an unborn branch) in one git call."""
    done = (pending or start(REPO_STATE_ARGS, cwd)).result(ok_codes=(0, 1))
    lines = done.stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3 or not lines[0]:
        raise GitError("this is a bare repository or a .git folder: run leverguard inside a working tree, or pass --repo DIR")
    return lines[0], lines[1], lines[2] or None


TRAILERS_ARGS = ("interpret-trailers", "--parse", "--no-divider")


def parse_trailers(message: bytes, cwd: str | None = None, pending: Pending | None = None) -> list[str]:
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
