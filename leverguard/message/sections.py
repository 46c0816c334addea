"""The lever sections of a cleanup message (`Hard-wired:`, `Reverted:` ...), their entries and deltas."""

from __future__ import annotations

import re

from leverguard.levers.classify.delta import DELTA
from leverguard.message.parse import Line, Message
from leverguard.records import NamedTuple
from leverguard.message.trailers import TRAILER_KEYS, trailer_key

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Iterable, Mapping, Sequence

LEVER_SECTIONS = ("hard_wired", "reverted", "diagnostics")
# Patterns are strings compiled on first use (re caches them): a plain message compiles none of them.
LIST_ITEM = r"^\s*[-*+]\s+(.*)$"
PLACEHOLDER = r"<(?:->|[^<>\n])*>"  # `->` may appear inside: <e.g. 27.4 -> 24.9 us>
NONE_ANSWER = r"(?i)^(none|n/a|nothing)\b"
TOKEN = r"[A-Za-z_][A-Za-z0-9_]*"
LEVER_LIKE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"


class Entry(NamedTuple):
    """One answer in a section: the text after the header, or one list item with its continuations."""

    line: int
    text: str

    @property
    def content(self) -> str:
        """The text without template placeholders such as `<measured delta>`."""
        return re.sub(PLACEHOLDER, "", self.text).strip()


class Section(NamedTuple):
    key: str  # "hard_wired", "reverted", ... as in the `sections` config table
    name: str  # the name as written in the message
    line: int
    entries: tuple[Entry, ...]

    def answered(self) -> bool:
        return any(entry.content for entry in self.entries)

    def says_none(self) -> bool:
        filled = [entry for entry in self.entries if entry.content]
        return len(filled) == 1 and re.match(NONE_ANSWER, filled[0].content) is not None

    def text(self) -> str:
        return " ".join(entry.content for entry in self.entries)


def header_pattern(names: Mapping[str, str]) -> re.Pattern[str]:
    """`Name:` at the start of a line, any case, for every configured section name."""
    alternatives = []
    for key, name in sorted(names.items(), key=lambda item: -len(item[1])):
        words = r"\s+".join(re.escape(word) for word in name.split())
        alternatives.append(f"(?P<{key}>{words})")
    return re.compile(rf"^(?:{'|'.join(alternatives)})\s*:(?P<rest>.*)$", re.IGNORECASE)


def may_hold_headers(lines: Sequence[Line], names: Mapping[str, str]) -> bool:
    """Could any line start a section header? False only when, for ASCII names and lines, none can.

    Compiling `header_pattern` costs more than checking a plain message; the header's colon is
    the line's first one (names hold none), so the text before it must be a name.
    """
    wanted = {" ".join(name.split()).lower() for name in names.values()}
    if not names or not all(name.isascii() and ":" not in name for name in names.values()):
        return True
    for line in lines:
        head, colon, _ = line.text.partition(":")
        if colon and (not head.isascii() or " ".join(head.split()).lower() in wanted):
            return True
    return False


def find_sections(message: Message, names: Mapping[str, str]) -> list[Section]:
    """Every section header of the body, in message order.

    The subject is one only when the subject line was left empty and git's cleanup moved a
    section header up into its place (rules.subject reports that; the section still counts).
    """
    if not may_hold_headers(message.lines, names):
        return []
    pattern = header_pattern(names)
    found: list[Section] = []
    entries: list[Entry] | None = None  # the open section's entries; None when no section is open
    gap = False
    start = 0 if message.lines and pattern.match(message.lines[0].text) else 1
    for line in message.lines[start:]:
        match = pattern.match(line.text)
        if match is not None:
            _close(found, entries)
            key = next(k for k in names if match.group(k) is not None)
            rest = match.group("rest").strip()
            found.append(Section(key, match.group(key), line.number, ()))
            entries, gap = ([Entry(line.number, rest)] if rest else []), False
        elif entries is None:
            continue
        elif not line.text:
            gap = True
        elif _continues(line.text, gap):
            _extend(entries, line)
            gap = False
        else:  # prose after a blank line, or a trailer: the section is over
            _close(found, entries)
            entries = None
    _close(found, entries)
    return found


def _close(found: list[Section], entries: list[Entry] | None) -> None:
    if found and entries is not None:
        found[-1] = found[-1]._replace(entries=tuple(entries))


def _continues(text: str, gap: bool) -> bool:
    """List items continue a section; so does any text right below it, but never a real trailer."""
    if re.match(LIST_ITEM, text):
        return True
    return not gap and (trailer_key(text) or "").lower() not in TRAILER_KEYS


def _extend(entries: list[Entry], line: Line) -> None:
    item = re.match(LIST_ITEM, line.text)
    if item is not None or not entries:
        entries.append(Entry(line.number, (item.group(1) if item else line.text).strip()))
    else:
        entries[-1] = entries[-1]._replace(text=f"{entries[-1].text} {line.text.strip()}")


def aliases(levers: Iterable[str], prefixes: Sequence[str]) -> dict[str, set[str]]:
    """Each way a message may name a lever: its macro name, or the name without a lever prefix."""
    names: dict[str, set[str]] = {}
    for lever in levers:
        names.setdefault(lever, set()).add(lever)
        for prefix in prefixes:
            if prefix and lever.startswith(prefix) and len(lever) > len(prefix):
                names.setdefault(lever[len(prefix):], set()).add(lever)
    return names


def lever_mentions(entry: Entry, known: Mapping[str, set[str]],
                   patterns: Sequence[re.Pattern[str]]) -> dict[str, str]:
    """Each lever an entry names, with the text from its name to the next lever's (where its delta is).

    Known levers count by macro name or short name; other names count when they match a
    lever pattern; an entry that names neither still names its first MACRO_LIKE word.
    """
    text = entry.content
    hits: list[tuple[int, list[str]]] = []
    fallback: list[tuple[int, list[str]]] = []
    for match in re.finditer(TOKEN, text):
        token = match.group()
        if token in known:
            hits.append((match.start(), sorted(known[token])))
        elif any(p.fullmatch(token) for p in patterns):
            hits.append((match.start(), [token]))
        elif not fallback and re.fullmatch(LEVER_LIKE, token):
            fallback.append((match.start(), [token]))
    hits = hits or fallback
    spans: dict[str, str] = {}
    for index, (start, levers) in enumerate(hits):
        end = hits[index + 1][0] if index + 1 < len(hits) else len(text)
        for lever in levers:
            spans[lever] = spans.get(lever, "") + text[start:end]
    return spans


def has_delta(text: str) -> bool:
    return re.search(DELTA, text) is not None
