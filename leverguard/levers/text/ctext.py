"""C source text before parsing: decoding, comments and literals blanked, logical lines joined."""

from __future__ import annotations

import re
from typing import Iterator



def decode(path: str, data: bytes) -> tuple[str, list[str]]:
    """The file as text with `\\n` line ends; non-UTF-8 bytes are read as Latin-1 with a warning."""
    warnings: list[str] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("latin-1")
        warnings.append(f"{path}: not UTF-8 (byte {exc.start}): read as Latin-1; lines are still numbered")
    if "\0" in text:
        warnings.append(f"{path}: contains NUL bytes: is it a binary file? Scanned anyway")
    # CRLF and lone CR: git counts lines by LF, so keep that numbering.
    return text.replace("\r\n", "\n").replace("\r", " "), warnings


def clean(text: str) -> str:
    """The text with comments and the contents of string and char literals replaced by spaces.

    Newlines are kept so line numbers survive; a macro name inside a comment or a string
    is therefore never read as a gate or a call. The scan jumps from one opening token to
    the next (a literal-first regex is fast), then matches the whole lexeme there.
    """
    out: list[str] = []
    pos = 0
    while True:
        match = _OPENING.search(text, pos)
        if match is None:
            out.append(text[pos:])
            return "".join(out)
        start = match.start()
        out.append(text[pos:start])
        lexeme, pos = _lexeme(text, start, match.group())
        out.append(lexeme)


_OPENING = re.compile(r"//|/\*|[\"']")
_LEXEME = {
    "//": re.compile(r"//(?:[^\n\\]|\\.|\\\n)*", re.DOTALL),  # continues over a backslash-newline
    "/*": re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL),
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"?'),  # an unterminated literal ends at the line end
    "'": re.compile(r"'(?:[^'\\\n]|\\.)*'?"),
}
_RAW = re.compile(r'R"(?P<delim>[^ ()\\\t\n]{0,16})\(.*?(?:\)(?P=delim)"|\Z)', re.DOTALL)
_IDENT_CHAR = re.compile(r"[0-9A-Za-z_]")


def _blank(chunk: str) -> str:
    return "".join(c if c == "\n" else " " for c in chunk)


def _lexeme(text: str, start: int, opening: str) -> tuple[str, int]:
    """The blanked lexeme that begins at `start`, and where the scan resumes."""
    before = text[start - 1] if start else ""
    if opening == '"' and before == "R" and not _IDENT_CHAR.match(text[start - 2:start - 1] or " "):
        raw = _RAW.match(text, start - 1)
        if raw:
            return '"' + _blank(raw.group()[2:-1]) + '"', raw.end()
    if opening == "'" and _IDENT_CHAR.match(before or " ") and not _char_prefix(text, start):
        # A C++14 digit separator (1'000) or a stray quote (`#error don't`): not a literal.
        return (" " if before.isalnum() and text[start + 1:start + 2].isalnum() else "'"), start + 1
    match = _LEXEME[opening].match(text, start)
    assert match is not None
    chunk = match.group()
    if opening in ("//", "/*"):
        return _blank(chunk), match.end()
    closed = len(chunk) > 1 and chunk.endswith(opening)
    body = chunk[1:-1] if closed else chunk[1:]
    return opening + _blank(body) + (opening if closed else ""), match.end()


def _char_prefix(text: str, start: int) -> bool:
    """L'x', u'x', U'x', u8'x': an encoding prefix, not a digit separator."""
    word = re.search(r"[0-9A-Za-z_]*$", text[max(0, start - 3):start])
    return word is not None and word.group() in ("L", "u", "U", "u8")


# A directive: `#` first on its line, backslash-continued lines included.
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\[ \t]*\n)*[^\n]*", re.MULTILINE)
_CONTINUATION = re.compile(r"\\[ \t]*\n")


def logical_lines(cleaned: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each directive, backslash-continued lines joined."""
    line, pos = 1, 0
    for match in _DIRECTIVE.finditer(cleaned):
        line += cleaned.count("\n", pos, match.start())
        pos = match.start()
        yield line, _CONTINUATION.sub(" ", match.group())
