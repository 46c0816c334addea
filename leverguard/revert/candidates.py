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
    """TIP's first-parent history, newest first, each commit with its `-U0` patch: one git process
    (and, first, the `--raw` history and one `cat-file --batch-check` for the large files, see below)."""
    args = ["log", "--first-parent", "--diff-merges=first-parent", *git.PATCH_ARGS, "--no-renames",
            f"--format={LOG_FORMAT}"]
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    history, large = _large_records(repo, tip, max_count, excludes, git.threshold(isolation))
    unread = git.excluding(git.fsdecode(path) for path in {p.change.path for files in large.values() for p in files})
    pathspecs = ["."] + excludes + unread if excludes or unread else []
    blocks = git.stream_blocks([*args, tip, "--", *pathspecs], repo, isolation)
    streamed = parse_commits(b"", blocks)
    if not large:
        for header, patches in streamed:
            fields = header.decode("utf-8", "replace").split("\x1f", 6)
            yield _commit(fields, [f.change for f in patches]), patches
        return
    # commits that touch only large paths are gone from the `-p` stream: the raw history leads
    following = next(streamed, None)
    for commit in history:
        files: list[FilePatch] = []
        if following is not None and following[0].split(b"\x1f", 1)[0].decode() == commit.sha:
            files = following[1]
            following = next(streamed, None)
        yield commit, sorted([*files, *large.get(commit.sha, [])], key=lambda f: f.change.path)
    close = getattr(streamed, "close", None)
    if close is not None:
        close()


def _large_records(repo: str, tip: str, max_count: int | None, excludes: list[str],
                   limit: int) -> tuple[list[Commit], dict[str, list[FilePatch]]]:
    """The first-parent history from `--raw` (empty when nothing is large), and sha -> raw-only patches of
    every change to a path that some commit adds or deletes as a blob over LIMIT.

    git loads an added or deleted blob whole even above `core.bigFileThreshold` (issue #11: a history
    that adds a 200 MB model cost 414 MB to audit): such paths are left out of the `-p` stream and
    come back here, from `git log --raw` (no blob read) and their sizes (one `cat-file --batch-check`).
    """
    args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames", "--no-abbrev", "-z",
            f"--format={LOG_FORMAT}", *([f"--max-count={max_count}"] if max_count is not None else [])]
    history = list(parse_log(git.stream([*args, tip, "--", *(["."] + excludes if excludes else [])], repo)))
    oids = {state.oid for c in history for change in c.changes if (change.old is None) != (change.new is None)
            for state in (change.old, change.new) if state is not None and state.is_blob}
    sizes = git.object_sizes(sorted(oids), repo)
    big = {c.path for commit in history for c in commit.changes if (c.old is None) != (c.new is None)
           and sizes.get((c.new or c.old).oid, ("", 0))[1] > limit}  # type: ignore[union-attr]
    records: dict[str, list[FilePatch]] = {}
    for commit in history:
        for change in commit.changes:
            if change.path in big:
                records.setdefault(commit.sha, []).append(FilePatch(change, (), False))
    return (history if records else []), records  # the usual case: nothing large, nothing held
