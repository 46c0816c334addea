"""Trailers as git reads them (`git interpret-trailers --parse`), and why git skipped a trailer line."""

from __future__ import annotations

from leverguard.message.parse import Line, Message
from leverguard.records import NamedTuple

# Keys that mark a paragraph as meant for trailers even when git refused it (lower case).
TRAILER_KEYS = ("co-authored-by", "signed-off-by", "leverguard-skip", "reviewed-by", "leverguard-default-build")


class Trailer(NamedTuple):
    key: str
    value: str
    line: int  # its line in the message file; 0 when git's output could not be traced back


class Trailers(NamedTuple):
    """The trailers git recognized, and the paragraph that holds (or was meant to hold) them."""

    seen: tuple[Trailer, ...]
    paragraph: tuple[Line, ...]  # the trailer paragraph, seen or refused; () when there is none

    def named(self, key: str) -> list[Trailer]:
        return [t for t in self.seen if t.key.lower() == key.lower()]

    def lines(self) -> set[int]:
        return {t.line for t in self.seen if t.line}


def trailer_key(text: str, separators: str = ":") -> str | None:
    """The key of a line git would take as a trailer, else None (git's trailer.c find_separator).

    A key is letters, digits and '-'; whitespace may follow it, but a second word may not:
    `Pre-merge gate: x` is not a trailer, and a line starting with whitespace continues one.
    """
    if not text or text[0] in " \t":
        return None
    spaced = False
    for index, char in enumerate(text):
        if char in separators:
            return text[:index].strip() or None
        if not spaced and (char.isascii() and char.isalnum() or char == "-"):
            continue
        if index and char in " \t":
            spaced = True
            continue
        return None
    return None


def from_git(message: Message, parsed: list[str], separators: str = ":") -> Trailers:
    """Trace the `key: value` lines git printed back to the message lines they came from."""
    paragraphs = message.paragraphs()
    last = paragraphs[-1] if len(paragraphs) > 1 else []
    candidates = [(line, trailer_key(line.text, separators)) for line in last]
    cursor, seen = 0, []
    for entry in parsed:
        key, _, value = entry.partition(separators[0])
        key, value = key.strip(), value.strip()
        number = 0
        while cursor < len(candidates):
            line, line_key = candidates[cursor]
            cursor += 1
            if line_key is not None and line_key.lower() == key.lower():
                number = line.number
                break
        seen.append(Trailer(key, value, number))
    meant = seen or any((trailer_key(line.text, separators) or "").lower() in TRAILER_KEYS for line in last)
    return Trailers(tuple(seen), tuple(last) if meant else ())


def why_unseen(message: Message, number: int, separators: str = ":") -> str:
    """Why git did not read the trailer-like line `number` as a trailer, in words a user can act on."""
    paragraphs = message.paragraphs()
    where = next((i for i, group in enumerate(paragraphs) if any(line.number == number for line in group)), -1)
    if where == 0:
        if paragraphs[0][0].number == number:
            return "it is the subject line: write a subject, a blank line, then the trailers"
        return ("no blank line separates it from the subject, so git reads it as part of the subject "
                "paragraph: put a blank line before the trailers")
    if 0 < where < len(paragraphs) - 1:
        below = paragraphs[where + 1][0].number
        return (f"git reads trailers only from the last paragraph, and line {below} starts another one below it: "
                "move the trailers to the end of the message")
    if where > 0:
        foreign = [line for line in paragraphs[where]
                   if trailer_key(line.text, separators) is None and not line.text[:1].isspace()]
        above = [line for line in foreign if line.number < number]
        if foreign:  # name the text nearest above the trailer: that is what needs the blank line
            return _foreign_line(above[-1] if above else foreign[0])
    return "git does not read it as a trailer: check it with git interpret-trailers --parse"


def _foreign_line(line: Line) -> str:
    shown = line.text if len(line.text) <= 40 else line.text[:37] + "..."
    head, colon, _ = line.text.partition(":")
    kind = ("is not a trailer (a trailer key has no spaces)" if colon and " " in head.strip()
            else "is not a `Key: value` trailer")
    return (f"line {line.number} ({shown!r}) shares its paragraph and {kind}, so git ignores the whole "
            "trailer block: put a blank line between that text and the trailers")
