"""Normalized line multisets of blobs, read once through one `cat-file --batch` and cached by id."""

from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Iterable, NamedTuple, TypeVar

from leverguard import git
from leverguard.errors import GitError
from leverguard.revert.model import State

MAX_LINE_BLOB = 1 << 20  # blobs above 1 MiB: blob comparison only, no line-level work
MAX_SEQUENCE = 5000  # the rewrite guard's hunk view (difflib) is skipped above this many lines
BINARY_PROBE = 8000  # git's own heuristic: a NUL in the first 8000 bytes means binary
MIN_ALNUM = 3  # lines with fewer letters/digits than this are trivial
TRIVIAL = frozenset(
    b"else else: pass end fi done then do try: finally: return return; break break; continue continue; "
    b"#else #endif endif end; esac }else{ }else else{ */ /** \"\"\" '''".split()
)
_NON_ALNUM = bytes(c for c in range(256) if not (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122))
_SPACE = b" \t\r\f\v"  # every whitespace byte except the newline that splits lines (deleted by translate)
EMPTY: Counter[bytes] = Counter()
PREFETCH_BYTES = 32 << 20  # content read per batch: bounds peak memory on huge changes
PREFETCH_MIN = 1  # read in batches always: one batch-check and one batch read per batch
DELTA_CACHE = 20000  # changes whose line delta is kept (audit reuses candidates' deltas)


def normalize(line: bytes) -> bytes | None:
    """A line without any whitespace, or None when it is trivial (braces, `else`, short tokens)."""
    squeezed = b"".join(line.split())
    if squeezed in TRIVIAL or len(squeezed.translate(None, _NON_ALNUM)) < MIN_ALNUM:
        return None
    return squeezed


class Text(NamedTuple):
    """A blob's non-trivial normalized lines, and its whole text without whitespace (reflow checks)."""

    lines: Counter[bytes]
    joined: bytes


def is_text(data: bytes) -> bool:
    return len(data) <= MAX_LINE_BLOB and b"\0" not in data[:BINARY_PROBE]


class LineCache:
    """Normalized texts by object id; binary, huge, gitlink or missing objects give None."""

    def __init__(self, repo: str, budget: int = 64 << 20, promisor: str | None = None) -> None:
        self._repo = repo
        self._promisor = promisor  # "" once known not to be a partial clone; None: not asked yet
        self._cache: OrderedDict[str, Text | None] = OrderedDict()
        self._budget = budget  # bytes of normalized text kept; least recently used goes first
        self._held = 0
        self._deltas: OrderedDict[tuple[str, str], tuple[Counter[bytes], Counter[bytes]] | None] = OrderedDict()

    def text(self, state: State | None) -> Text | None:
        """The normalized text of a tree entry; an absent entry is the empty text."""
        if state is None:
            return Text(EMPTY, b"")
        if not state.is_blob:
            return None
        if state.oid in self._cache:
            self._cache.move_to_end(state.oid)
            return self._cache[state.oid]
        self.prefetch([state], minimum=1)
        return self._cache[state.oid]

    def delta(self, old: State | None, new: State | None) -> tuple[Counter[bytes], Counter[bytes]] | None:
        """(added, deleted) normalized lines of a change, or None when a side is not text; cached."""
        key = (old.oid if old else "", new.oid if new else "")
        if key not in self._deltas:
            undone = self._deltas.get((key[1], key[0]))
            if undone is not None:  # HEAD's change undoes a candidate's: the same multisets, swapped
                self._deltas[key] = (undone[1], undone[0])
            else:
                old_text, new_text = self.text(old), self.text(new)
                self._deltas[key] = None if old_text is None or new_text is None else delta(old_text, new_text)
            if len(self._deltas) > DELTA_CACHE:
                self._deltas.popitem(last=False)
        return self._deltas[key]

    def cosmetic(self, old: State | None, new: State | None) -> bool:
        """A change of whitespace or line wrapping only (formatters, CRLF, re-indentation)."""
        old_text, new_text = self.text(old), self.text(new)
        return old_text is not None and new_text is not None and old_text.joined == new_text.joined

    def sequence(self, state: State | None, limit: int = MAX_SEQUENCE) -> list[bytes] | None:
        """A text blob's non-trivial normalized lines in file order, or None (binary, huge, over LIMIT).

        Only the rewrite guard's rare second look needs the order, so it is read again, not cached.
        """
        if state is None:
            return []
        if not state.is_blob or self.text(state) is None:
            return None
        found = git.read_objects([state.oid], self._repo).get(state.oid)
        if found is None:
            return None
        lines = _non_trivial(found[1].translate(None, _SPACE).split(b"\n"))
        return lines if len(lines) <= limit else None

    def prefetch(self, states: Iterable[State | None], minimum: int = PREFETCH_MIN) -> None:
        """Read the blobs not cached yet in one batch: no pipe round trip per object.

        Sizes come first (`--batch-check`), so blobs above MAX_LINE_BLOB are never read at all.
        """
        wanted = list(dict.fromkeys(s.oid for s in states if s is not None and s.is_blob and s.oid not in self._cache))
        if len(wanted) < minimum:
            return
        if self._promisor is None:
            self._promisor = git.promisor_remote(self._repo) or ""
        if self._promisor:  # a blobless clone (the bot's cache): one fetch instead of one per blob
            git.fetch_objects(wanted, self._promisor, self._repo)
        sizes = git.object_sizes(wanted, self._repo)
        chunks: list[list[str]] = [[]]
        held = 0
        for oid in wanted:  # big blobs are never read: blob comparison is all they get
            kind, length = _present(oid, sizes.get(oid))
            if kind != "blob" or length > MAX_LINE_BLOB:
                self._store(oid, None)
                continue
            if held + length > PREFETCH_BYTES:
                chunks.append([])
                held = 0
            chunks[-1].append(oid)
            held += length
        for chunk in chunks:
            found = git.read_objects(chunk, self._repo)
            for oid in chunk:
                self._store(oid, _parse(_present(oid, found.get(oid))))

    def _store(self, oid: str, value: Text | None) -> None:
        self._cache[oid] = value
        self._held += _weight(value)
        while self._held > self._budget and len(self._cache) > 1:
            self._held -= _weight(self._cache.popitem(last=False)[1])


T = TypeVar("T")


def _present(oid: str, found: tuple[str, T] | None) -> tuple[str, T]:
    """A blob named by a tree must exist: a missing one is an error, never "no findings"."""
    if found is None:
        raise GitError(f"object {oid} is missing from the repository: fetch it (git fetch --refetch), "
                           "or check the partial clone's promisor remote")
    return found


def _parse(found: tuple[str, bytes] | None) -> Text | None:
    """normalize() over a whole blob, with the per-line work kept inside one comprehension (speed)."""
    if found is None or found[0] != "blob" or not is_text(found[1]):
        return None
    squeezed = found[1].translate(None, _SPACE).split(b"\n")
    return Text(Counter(_non_trivial(squeezed)), b"".join(squeezed))


def _non_trivial(squeezed: list[bytes]) -> list[bytes]:
    return [line for line in squeezed if line not in TRIVIAL and len(line.translate(None, _NON_ALNUM)) >= MIN_ALNUM]


def changed_lines(patch: bytes) -> int:
    """Non-trivial changed lines in a `-U0` patch: cheaper than reading every blob of a big commit."""
    count, in_hunk = 0, False
    for line in patch.split(b"\n"):
        if line.startswith(b"diff --git "):
            in_hunk = False
        elif line.startswith(b"@@"):
            in_hunk = True
        elif in_hunk and line[:1] in (b"+", b"-") and normalize(line[1:]) is not None:
            count += 1
    return count


def _weight(text: Text | None) -> int:
    return 64 if text is None else 2 * len(text.joined) + 64


def delta(old: Text, new: Text) -> tuple[Counter[bytes], Counter[bytes]]:
    """(added, deleted) normalized lines from OLD to NEW, as multisets."""
    return _minus(new.lines, old.lines), _minus(old.lines, new.lines)


def _minus(counter: Counter[bytes], other: Counter[bytes]) -> Counter[bytes]:
    """COUNTER - OTHER of positive counts, in COUNTER's order: one comprehension, no per-key method calls."""
    get = other.get
    result: Counter[bytes] = Counter()
    dict.update(result, {line: n - get(line, 0) for line, n in counter.items() if n > get(line, 0)})
    return result


def size(counter: Counter[bytes]) -> int:
    return sum(counter.values())
