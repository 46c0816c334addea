"""Command bodies shared by the click CLI and the lean hook entry: options in, (text, exit code) out."""

from __future__ import annotations

import os

from leverguard.errors import EXIT_CLEAN, EXIT_FINDINGS, GitError, LeverguardError
from leverguard.message import parse, sources
from leverguard.session import Session

TYPE_CHECKING = False  # the hook path imports this module: no typing, no config module
if TYPE_CHECKING:
    from leverguard.config import Config
    from leverguard.git import Process

# prepare-commit-msg sources (githooks(5)) whose message someone already wrote or chose.
OWNED_SOURCES = ("message", "template", "merge", "squash", "commit")


def check_msg(repo: str, msgfile: str | None, range_: str | None, fmt: str, *,
              edited: bool = True, index_file: str | None = None, amend: bool = False,
              config: Config | None = None, author: tuple[str, str] | None = None,
              started: tuple[Process, Process] | None = None) -> tuple[str, int]:
    """`check-msg`: one message file against the staged diff, or every commit of a range.

    CONFIG (a range only) replaces the working tree's configuration: the PR bot passes BASE's,
    and its repository may be bare. AUTHOR (a message file only) is the commit's (name, email).
    STARTED: the repository reads a hook began (`parse.start_reads`) before importing this module.
    """
    if (msgfile is None) == (range_ is None):
        raise LeverguardError("check-msg: give a MSGFILE (as the commit-msg hook does) or --range BASE..HEAD, "
                              "not both and not neither")
    info = sources.open_commits(repo, config) if config is not None and range_ else sources.open_repo(repo, started)
    with Session(info.root) as session:  # one object reader for the run, started only if an object is read
        if range_ is not None:
            outcomes = sources.check_range(info, session, range_)
        else:
            assert msgfile is not None
            outcomes = [sources.check_file(info, session, msgfile, edited=edited, index_file=index_file,
                                           amend=amend, author=author)]
    from leverguard.message import render

    code = EXIT_FINDINGS if any(outcome.errors for outcome in outcomes) else EXIT_CLEAN
    if fmt in ("json", "markdown"):
        return (render.to_json(outcomes) if fmt == "json" else render.to_markdown(outcomes)), code
    hint = ""
    if msgfile is not None and os.path.basename(msgfile) == "COMMIT_EDITMSG":
        hint = f"hint: your message is kept in {msgfile}: fix it with git commit -e -F {msgfile}"
    return render.to_text(outcomes, always_summary=range_ is not None, hint=hint), code


def template_text(repo: str, range_: str | None) -> str:
    """`template`: the template for the staged change, or for an existing range (a squash commit)."""
    info = sources.open_repo(repo)
    with Session(info.root) as session:
        return _build(info, session, range_, "#", None)


def _build(info: sources.RepoInfo, session: Session, range_: str | None, comment: str, index_file: str | None) -> str:
    from leverguard.message import template
    from leverguard.message.diffsource import abi_status, lever_changes, staged_changes, touches_scope

    if range_ is None:
        base, head = sources.staged_base(info), None
        work = staged_changes(session, info.git_dir, info.settings, info.head, index_file)
    else:
        base, head = sources.range_ends(info, range_)
        work = lever_changes(session, info.settings, base, head)
    abi: list[tuple[str, int, list[str]]] | str | None = None
    try:
        abi = abi_status(info.root, base, head) if work.changes else None
    except GitError as exc:  # a pre-fill, not a verdict: say what could not be computed, keep the rest
        abi = f"<the ABI status could not be computed ({exc.message}): check it with leverguard abi>"
    scoped = touches_scope(info.root, info.settings, base, head, work)
    return template.build(work.changes, abi, info.settings, comment=comment, marker=template.list_marker(comment),
                          scoped=scoped)


def prepare_commit_msg(repo: str, msgfile: str, source: str, index_file: str | None = None,
                       amend: bool = False, started: tuple[Process, Process] | None = None) -> int:
    """The prepare-commit-msg hook: pre-fill the editor's file; never touch a message someone wrote.

    A message someone wrote still gets its lever changes computed (except a merge, which only
    the trailer rules check): the commit-msg hook that follows reads them from the cache. An
    amend's diff starts at HEAD's parent.
    """
    if source == "merge":
        return EXIT_CLEAN
    info = sources.open_repo(repo, started)
    if source in OWNED_SOURCES:
        from leverguard.message.diffsource import staged_changes

        base = sources.parent_of_head(info) if amend else None
        with Session(info.root) as session:
            staged_changes(session, info.git_dir, info.settings, info.head, index_file, base)
        return EXIT_CLEAN
    raw = sources.read_file(msgfile)
    lines, _ = parse.decode(raw, info.cleanup.encoding)
    comment = parse.comment_prefix(lines, info.cleanup.comment_char)
    if any(line.strip() and not line.startswith(comment) for line in lines):  # someone wrote a message
        return EXIT_CLEAN
    with Session(info.root) as session:
        text = _build(info, session, None, comment, index_file)
    if text:
        _write(msgfile, text.encode(parse.codec_name(info.cleanup.encoding)) + raw)
    return EXIT_CLEAN


def _write(path: str, data: bytes) -> None:
    temporary = f"{path}.leverguard.{os.getpid()}"
    try:
        with open(temporary, "wb") as fh:
            fh.write(data)
        os.replace(temporary, path)
    except OSError as exc:
        raise LeverguardError(f"cannot write the message template to {path}: {exc.strerror}") from exc
