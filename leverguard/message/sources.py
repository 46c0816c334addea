"""Where messages come from: a message file with the staged diff, or every commit of a range."""

from __future__ import annotations

import os
import sys

from leverguard import git
from leverguard.errors import LeverguardError
from leverguard.message import parse, settings as settings_module
from leverguard.message.diffsource import lever_changes, staged_changes, touches_scope
from leverguard.message.model import LeverWork
from leverguard.records import NamedTuple
from leverguard.message.settings import Settings

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Any

    from leverguard.message.check import Outcome
    from leverguard.session import Session


class RepoInfo(NamedTuple):
    """A repository and the git settings that shape its messages."""

    root: str
    git_dir: str
    head: str | None  # None on an unborn branch
    cleanup: parse.Cleanup
    separators: str
    settings: Settings


def open_repo(cwd: str, started: tuple[git.Process, git.Process] | None = None) -> RepoInfo:
    """The repository at `cwd` with its message settings: two git calls (STARTED, when the caller
    started them) and, warm, no TOML parsing."""
    state, config = started or parse.start_reads(cwd)
    root, git_dir, head = git.repo_state(cwd, state)
    values = git.config_values(parse.GIT_CONFIG_KEYS, root, config)
    separators = values.get("trailer.separators") or ":"
    return RepoInfo(root, git_dir, head, parse.Cleanup.from_git_config(values), separators,
                    settings_module.load(root, git_dir))


def open_commits(repo: str, config: Any) -> RepoInfo:
    """A repository read only for its commits (`--range`), possibly bare (the PR bot's cache).

    The settings come from CONFIG (the bot reads BASE's), and stored messages need no cleanup
    or trailer settings from a working tree: git's defaults apply, as on GitHub.
    """
    root = git.work_root(repo)
    return RepoInfo(root, git.git_dir(root), None, parse.STORED, ":",
                    settings_module.from_values(*settings_module.values_from_config(config)))


def read_file(path: str) -> bytes:
    """The message file's bytes; `-` reads standard input."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise LeverguardError(f"cannot read message file {path}: {exc.strerror}: pass the file git wrote "
                              "(.git/COMMIT_EDITMSG) or - for standard input") from exc


def staged_base(info: RepoInfo) -> str:
    """What the commit being made is compared with: HEAD, or the empty tree on an unborn branch."""
    return "HEAD" if info.head is not None else git.EMPTY_TREE


def parent_of_head(info: RepoInfo) -> str:
    """HEAD's first parent, or the empty tree for a root commit (what an amend replaces HEAD on)."""
    found = git.start(["rev-parse", "-q", "--verify", "HEAD^{commit}^"], info.root).result(ok_codes=(0, 1))
    return found.stdout.decode().strip() or git.EMPTY_TREE


def check_file(info: RepoInfo, session: Session, path: str, *, edited: bool = True, index_file: str | None = None,
               amend: bool = False, author: tuple[str, str] | None = None) -> Outcome:
    """The message file of the commit being made, against the staged diff (the commit-msg hook).

    `edited` False means git ran no editor (-m, -F): its default cleanup then keeps `#` lines;
    `amend` that HEAD is being replaced, so the diff starts at its parent; `author` is the
    (name, email) git exports to the hook, for `message.bot_authors`.
    """
    from leverguard.message import check as checker  # the template hook never needs the rules

    cleanup = info.cleanup if edited else info.cleanup.without_editor()
    message = parse.parse(read_file(path), cleanup)
    if not message.lines:
        return checker.Outcome(path, None, None, (), (), ())
    encoded = _encoded(message)
    pending = git.start(git.TRAILERS_ARGS, info.root, input=encoded)  # runs while the diff is read
    merging = os.path.exists(os.path.join(info.git_dir, "MERGE_HEAD"))
    special = parse.special_kind(message, merging)
    base = parent_of_head(info) if amend and info.head else None
    bot = checker.bot_author(author, info.settings.bot_authors) is not None
    work = LeverWork() if special or bot else staged_changes(session, info.git_dir, info.settings, info.head,
                                                             index_file, base)
    scoped = not special and not bot and touches_scope(info.root, info.settings, base or staged_base(info), None, work)
    trailers = git.parse_trailers(encoded, info.root, pending)
    return checker.check(message, trailers, work.changes, info.settings, path=path, special=special,
                         separators=info.separators, pitfalls=work.pitfalls, scoped=scoped, author=author,
                         unread=work.unread)


def check_range(info: RepoInfo, session: Session, spec: str) -> list[Outcome]:
    """Every commit of A..B, oldest first, each against its own diff (for CI and the PR bot).

    The messages and every lever diff of the range are read through the session's one reader.
    """
    from leverguard.message import check as checker

    outcomes = []
    reader = session.reader
    for commit, parents in git.rev_list(range_spec(spec), info.root):
        encoding, raw = git.commit_message(reader, commit)
        author = git.commit_author(reader, commit)
        message = parse.parse(raw, parse.STORED._replace(encoding=encoding))
        trailers = git.parse_trailers(_encoded(message), info.root) if message.lines else []
        special = parse.special_kind(message, len(parents) > 1)
        base = parents[0] if parents else git.EMPTY_TREE
        plain = message.lines and not special and checker.bot_author(author, info.settings.bot_authors) is None
        work = lever_changes(session, info.settings, base, commit) if plain else LeverWork()
        scoped = bool(plain) and touches_scope(info.root, info.settings, base, commit, work)
        outcomes.append(checker.check(message, trailers, work.changes, info.settings, path=commit[:12],
                                      special=special, commit=commit, separators=info.separators,
                                      pitfalls=work.pitfalls, scoped=scoped, author=author,
                                      unread=work.unread))
    return outcomes


def range_spec(spec: str) -> str:
    """A two-dot range `A..B`; anything else is a usage error that says what to write."""
    base, dots, head = spec.partition("..")
    if not dots or head.startswith(".") or spec.startswith("-"):
        raise LeverguardError(f"--range {spec!r}: write it as BASE..HEAD, e.g. origin/main..HEAD")
    return f"{base or 'HEAD'}..{head or 'HEAD'}"


def range_ends(info: RepoInfo, spec: str) -> tuple[str, str]:
    base, _, head = range_spec(spec).partition("..")
    return git.rev_parse(base, info.root), git.rev_parse(head, info.root)


def _encoded(message: parse.Message) -> bytes:
    # git reads trailers byte-wise and only its separators must match, so UTF-8 is safe here.
    return message.text.encode("utf-8", "surrogateescape")
