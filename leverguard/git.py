"""Every git call leverguard makes: argument lists, `-z` output, one `cat-file --batch` reader.

This module knows no rules. It turns git's failures into `GitError`s whose message says
what to do, because a checker that fails quietly is worse than none.
"""

from __future__ import annotations

import os
import subprocess
from typing import IO, Iterator, Mapping, NamedTuple, Sequence

from leverguard.errors import GitError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
NULL_OID = "0" * 40

# Advice for the git failures a user can fix, keyed by a fragment of git's stderr.
_ADVICE = (
    ("not a git repository", "not a git repository: run leverguard inside a git working tree, or pass --repo DIR"),
    ("unknown revision", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("bad revision", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("ambiguous argument", "unknown revision or path: check the name, or fetch it first (git fetch origin REF)"),
    ("invalid object name", "unknown revision: check the name, or fetch it first (git fetch origin REF)"),
    ("does not have any commits yet", "the repository has no commit yet: commit something first"),
    ("dubious ownership", "git refuses this repository (dubious ownership): add it with git config --global --add safe.directory DIR"),
)


def _first_line(data: bytes) -> str:
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def _error(args: Sequence[str], stderr: bytes, returncode: int) -> GitError:
    detail = _first_line(stderr)
    for fragment, advice in _ADVICE:
        if fragment in detail:
            return GitError(f"{advice} (git {args[0]}: {detail})")
    return GitError(f"git {' '.join(args[:2])} failed with exit {returncode}: {detail or 'no message'}")


class Result(NamedTuple):
    returncode: int
    stdout: bytes
    stderr: bytes


def run(
    args: Sequence[str],
    cwd: str | None = None,
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    ok_codes: Sequence[int] = (0,),
) -> Result:
    """Run `git ARGS` and return its output; any exit code outside `ok_codes` is a GitError."""
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False,
        )
    except FileNotFoundError as exc:
        if cwd is not None and not os.path.isdir(cwd):
            raise GitError(f"no such directory: {cwd}: pass an existing repository with --repo DIR") from exc
        raise GitError("git is not installed or not on PATH: install git 2.38 or newer") from exc
    if proc.returncode not in ok_codes:
        raise _error(args, proc.stderr, proc.returncode)
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


def config_get(key: str, cwd: str | None = None) -> str | None:
    result = run(["config", "--get", key], cwd, ok_codes=(0, 1))
    return result.stdout.decode("utf-8", "replace").strip() if result.returncode == 0 else None


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
    """One long-lived `git cat-file --batch` process serving every object read."""

    def __init__(self, cwd: str | None = None) -> None:
        self._cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "cat-file", "--batch"], cwd=self._cwd,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
        return self._proc

    def read(self, spec: str) -> tuple[str, bytes] | None:
        """(type, content) of an object name or `REV:PATH`, or None when it does not exist."""
        proc = self._process()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
        stdin.flush()
        header = stdout.readline()
        if not header:
            raise GitError("git cat-file --batch stopped unexpectedly: check the repository with git fsck")
        parts = header.split()
        if len(parts) != 3:  # "<spec> missing" or "ambiguous"
            return None
        size = int(parts[2])
        data = _read_exact(stdout, size)
        stdout.read(1)  # the newline after the content
        return parts[1].decode(), data

    def close(self) -> None:
        if self._proc is not None:
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc.wait()
            self._proc = None

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def stream(args: Sequence[str], cwd: str | None = None, *, input: bytes | None = None) -> Iterator[bytes]:
    """Yield `-z` fields of a long git output as they arrive; a failing exit is a GitError."""
    proc = subprocess.Popen(
        ["git", *args], cwd=cwd, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    if input is not None:
        assert proc.stdin is not None
        proc.stdin.write(input)
        proc.stdin.close()
    pending = b""
    for block in iter(lambda: proc.stdout.read(1 << 16), b""):  # type: ignore[union-attr]
        pending += block
        *fields, pending = pending.split(b"\0")
        yield from fields
    stderr = proc.stderr.read() if proc.stderr else b""
    if proc.wait() != 0:
        raise _error(args, stderr, proc.returncode)
    if pending:
        yield pending
