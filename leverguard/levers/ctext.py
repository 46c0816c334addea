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
    is therefore never read as a gate or a call.
    """
    return _LEXEMES.sub(_blank_lexeme, text)


# One pass over the lexemes that hide code: comments (a // comment continues over a
# backslash-newline), raw strings, and literals (unterminated ones end at the line end,
# as in `#error don't`).
_LEXEMES = re.compile(r"""
    //(?:[^\n\\]|\\.|\\\n)*
  | /\*.*?(?:\*/|\Z)
  | \bR"(?P<delim>[^ ()\\\t\n]{0,16})\(.*?(?:\)(?P=delim)"|\Z)
  | "(?:[^"\\\n]|\\.)*"?
  | (?:(?<![0-9A-Za-z_])|(?<=\bL)|(?<=\bu8)|(?<=\bu)|(?<=\bU))'(?:[^'\\\n]|\\.)*'?
  | (?<=[0-9A-Fa-f])'(?=[0-9A-Fa-f])
""", re.VERBOSE | re.DOTALL)


def _blank_lexeme(match: re.Match[str]) -> str:
    chunk = match.group()
    if chunk.startswith(("//", "/*")):
        return "".join(c if c == "\n" else " " for c in chunk)
    if chunk == "'":  # a C++14 digit separator, 1'000'000
        return " "
    quote = chunk[0] if chunk[0] in "\"'" else '"'
    closed = len(chunk) > 1 and chunk.endswith(quote)
    body = chunk[1:-1] if closed else chunk[1:]
    return quote + "".join(c if c == "\n" else " " for c in body) + (quote if closed else "")


def logical_lines(cleaned: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each directive, backslash-continued lines joined."""
    lines = cleaned.split("\n")
    index = 0
    while index < len(lines):
        start = index
        text = lines[index]
        while text.rstrip(" \t").endswith("\\") and index + 1 < len(lines):
            index += 1
            text = text.rstrip(" \t")[:-1] + " " + lines[index]
        if text.lstrip().startswith("#"):
            yield start + 1, text
        index += 1
