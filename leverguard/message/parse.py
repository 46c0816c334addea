"""Commit-message cleanup exactly as `git commit` does it, keeping each line's number in the file."""

from __future__ import annotations

import codecs

from leverguard import git
from leverguard.errors import LeverguardError
from leverguard.records import NamedTuple

# git picks the first of these that starts no line when core.commentChar is `auto` (builtin/commit.c).
AUTO_COMMENT_CANDIDATES = "#;@!$%^&|:"
CUT_LINE = "------------------------ >8 ------------------------"
# commit.cleanup values that strip comment lines; `default` strips them when an editor runs,
# which is the case the commit-msg hook exists for.
GIT_SPACE = " \t\r\n"  # git's isspace() (ctype.c): no \v, \f or NBSP
STRIPPING_MODES = ("strip", "default", "")
CUTTING_MODES = ("strip", "default", "", "scissors")


class Line(NamedTuple):
    """One line of the cleaned message and its 1-based number in the original file."""

    number: int
    text: str


class Message(NamedTuple):
    """A commit message after git's cleanup: what git would store, line by line."""

    lines: tuple[Line, ...]
    comment: str | None  # the comment prefix that was stripped, None when comments are kept
    encoding: str
    undecodable: int  # the first line whose bytes are invalid in `encoding`, or 0

    @property
    def text(self) -> str:
        return "".join(line.text + "\n" for line in self.lines)

    @property
    def subject(self) -> str:
        return self.lines[0].text if self.lines else ""

    def paragraphs(self) -> list[list[Line]]:
        """Runs of non-blank lines; the first one is the subject paragraph."""
        groups: list[list[Line]] = [[]]
        for line in self.lines:
            if line.text:
                groups[-1].append(line)
            elif groups[-1]:
                groups.append([])
        return [group for group in groups if group]


class Cleanup(NamedTuple):
    """The git settings that decide how a message file becomes a commit message."""

    comment_char: str = "#"  # core.commentChar; "auto" lets git choose
    mode: str = "default"  # commit.cleanup
    encoding: str = "UTF-8"  # i18n.commitEncoding

    @classmethod
    def from_git_config(cls, values: dict[str, str]) -> Cleanup:
        return cls(values.get("core.commentchar") or "#", (values.get("commit.cleanup") or "default").lower(),
                   values.get("i18n.commitencoding") or "UTF-8")


    def without_editor(self) -> Cleanup:
        """git's `default` cleanup when no editor ran (-m, -F): whitespace only, `#` lines are text."""
        return self._replace(mode="whitespace") if self.mode in ("default", "") else self


STORED = Cleanup(mode="whitespace")  # a stored commit's message: already clean, `#` lines are text
GIT_CONFIG_KEYS = ("core.commentchar", "commit.cleanup", "i18n.commitencoding", "trailer.separators")


def start_reads(cwd: str) -> tuple[git.Process, git.Process]:
    """The repository's state and these keys (`sources.open_repo`), both started at once: a hook pays one
    git start-up, not two, and starts them before it imports the checker, which then loads while git runs."""
    return git.start(git.REPO_STATE_ARGS, cwd), git.start(git.config_args(GIT_CONFIG_KEYS), cwd)


def codec_name(encoding: str) -> str:
    """Python's codec for a git encoding name; a clear error for one Python does not know."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise LeverguardError(f"unknown message encoding {encoding!r} (i18n.commitEncoding or the commit's "
                              "encoding header): set i18n.commitEncoding to a name like UTF-8 or ISO-8859-1") from None


def decode(raw: bytes, encoding: str) -> tuple[list[str], int]:
    """The file's lines (CR of CRLF kept, cleanup drops it) and the first undecodable line, or 0."""
    codec = codec_name(encoding)
    if codec.startswith("utf-16") or codec.startswith("utf-32"):
        text = raw.decode(codec, "replace")  # multi-byte newlines: decode the whole file at once
        return text.split("\n"), 0
    lines, bad = [], 0
    for number, chunk in enumerate(raw.split(b"\n"), 1):
        try:
            lines.append(chunk.decode(codec))
        except UnicodeDecodeError:
            lines.append(chunk.decode(codec, "replace"))
            bad = bad or number
    return lines, bad


def comment_prefix(lines: list[str], configured: str) -> str:
    """The comment prefix git used: the configured one, or for `auto` the one its help text shows.

    With `auto` git chose a character that started no line of the initial message; the
    user's edits hide which, but git's own help lines ("# Please enter ... with '#' ...",
    the scissors line) name it. Without them git wrote no comment, so '#' is as good as any.
    """
    if configured.lower() != "auto":
        return configured
    for text in lines:
        char = text[:1]
        if char and char in AUTO_COMMENT_CANDIDATES and (f"'{char}'" in text or text == f"{char} {CUT_LINE}"):
            return char
    return "#"


def cut_at_scissors(lines: list[str], comment: str) -> list[str]:
    """Everything above the `git commit -v` scissors line (git's wt_status_locate_end)."""
    scissors = f"{comment} {CUT_LINE}"
    for index, text in enumerate(lines):
        if text.rstrip("\r") == scissors:
            return lines[:index]
    return lines


def stripspace(lines: list[str], comment: str | None) -> tuple[Line, ...]:
    """git's strbuf_stripspace: drop comments and trailing blanks, squeeze and trim blank lines."""
    kept: list[Line] = []
    for number, text in enumerate(lines, 1):
        if comment and text.startswith(comment):
            continue
        text = text.rstrip(GIT_SPACE)
        if text or (kept and kept[-1].text):
            kept.append(Line(number, text))
    while kept and not kept[-1].text:
        kept.pop()
    return tuple(kept)


def parse(raw: bytes, cleanup: Cleanup = Cleanup()) -> Message:
    """The message git would store for a message file holding `raw`."""
    lines, bad = decode(raw, cleanup.encoding)
    if lines and lines[-1] == "":
        lines.pop()
    if cleanup.mode == "verbatim":
        return Message(tuple(Line(n, t) for n, t in enumerate(lines, 1)), None, cleanup.encoding, bad)
    comment = comment_prefix(lines, cleanup.comment_char)
    if cleanup.mode in CUTTING_MODES:
        lines = cut_at_scissors(lines, comment)
    stripped = comment if cleanup.mode in STRIPPING_MODES else None
    return Message(stripspace(lines, stripped), stripped, cleanup.encoding, bad)


# Subjects git's autosquash and `git revert` write (a regex would cost the hook its compile).
FIXUP_PREFIXES = ("fixup! ", "squash! ", "amend! ")
REVERT_PREFIX = 'Revert "'


def special_kind(message: Message, is_merge: bool) -> str | None:
    """"merge", "fixup" or "revert" for commits that get only the trailer rules, else None."""
    if is_merge:
        return "merge"
    if message.subject.startswith(FIXUP_PREFIXES):
        return "fixup"
    return "revert" if message.subject.startswith(REVERT_PREFIX) else None
