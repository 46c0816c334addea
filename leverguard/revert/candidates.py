"""Candidates: BASE's first-parent commits in a window, read with one streamed `git log --raw -z`."""

from __future__ import annotations

from typing import Iterable, Iterator

from leverguard import git
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



def history_patches(repo: str, tip: str, max_count: int | None, excludes: list[str],
                    isolation: tuple[str, ...] = ()) -> Iterator[tuple[Commit, list[FilePatch]]]:
    """TIP's first-parent history, newest first, each commit with its `-U0` patch: one git process."""
    args = ["log", "--first-parent", "--diff-merges=first-parent", *git.PATCH_ARGS, "--no-renames",
            f"--format={LOG_FORMAT}"]
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    blocks = git.stream_blocks([*args, tip, "--", *(["."] + excludes if excludes else [])], repo, isolation)
    for header, files in parse_commits(b"", blocks):
        fields = header.decode("utf-8", "replace").split("\x1f", 6)
        yield _commit(fields, [f.change for f in files]), files
