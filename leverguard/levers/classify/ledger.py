"""Experiment-history rows (CSV files or Markdown tables) read from the working tree, tracked or not."""

from __future__ import annotations

import csv
import io
import os
import re
import stat
from dataclasses import dataclass
from typing import Iterable, Sequence

from leverguard.config import Config
from leverguard.levers.classify import delta

# Ledger files above this size are skipped (levers.ledger): a ledger is a table of rows, not data.
MAX_LEDGER_BYTES = 1 << 20
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class LedgerRow:
    """One row that names a lever and carries a verdict."""

    lever: str
    verdict: str  # the configured word that matched (WIN, KILL, NULL, REGRESS, ...)
    path: str  # relative to the working tree
    line: int
    delta: str = ""  # the first measured delta in the row's other cells (`-3.1%`, `27.4 -> 24.9 us`), if any


def ledger_files(root: str, globs: Sequence[str]) -> list[str]:
    """Working-tree files matching the ledger globs (gitignore syntax), ignored or untracked included.

    The ledger is local by design (the path guard forbids committing it), so it is read
    from disk whatever revision the inventory looks at.
    """
    spec = [_glob_regex(g) for g in globs]
    found = []
    for top in {g.split("/", 1)[0] for g in globs if g and not any(c in g.split("/", 1)[0] for c in "*?[")} or {"."}:
        base = os.path.join(root, top)
        for folder, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if any(p.fullmatch(rel) for p in spec):
                    found.append(rel)
    return sorted(found)


def read_regular(root: str, rel: str, cap: int = MAX_LEDGER_BYTES) -> bytes | None:
    """The bytes of a regular file inside the working tree of at most `cap` bytes, else None.

    The ledger is whatever sits on disk, so it is read defensively (issue #11): a symlink (to
    /dev/zero, or to a file outside the repository), a FIFO or device, or a file larger than the
    cap is skipped; O_NONBLOCK keeps a FIFO swapped in after the check from hanging the hook.
    """
    path = os.path.join(root, rel)
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, os.path.realpath(path)]) != real_root:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > cap:
            return None
        data = os.read(fd, cap + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= cap else None


def _glob_regex(glob: str) -> re.Pattern[str]:
    """A gitignore-style glob (`**` spans folders, `*` does not; a trailing `/` or `/**` means everything below)."""
    glob = glob.strip("/") + ("/**" if glob.endswith("/") else "")
    out = []
    for part in re.split(r"(\*\*/|/\*\*$|\*\*|\*|\?)", glob):
        out.append({"**/": "(?:.*/)?", "/**": "/.*", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part)))
    return re.compile("".join(out))


def read_rows(root: str, config: Config, levers: Iterable[str]) -> list[LedgerRow]:
    """Every ledger row naming one of `levers` (full name, or without a configured prefix)."""
    words = {w.upper(): w for w in [*config.get("levers.win_words"), *config.get("levers.dead_words")]}
    aliases = _aliases(levers, config.get("levers.lever_prefixes"))
    rows: list[LedgerRow] = []
    for rel in ledger_files(root, config.get("levers.ledger")):
        data = read_regular(root, rel)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        for line, cells in _table_rows(rel, text):
            rows.extend(_match(cells, aliases, words, rel, line))
    return rows


def _aliases(levers: Iterable[str], prefixes: Sequence[str]) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for name in levers:
        aliases[name] = name
        for prefix in prefixes:
            if name.startswith(prefix) and len(name) > len(prefix):
                aliases.setdefault(name[len(prefix):], name)
    return aliases


def _table_rows(rel: str, text: str) -> Iterable[tuple[int, list[str]]]:
    if rel.lower().endswith((".md", ".markdown")):
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("|") and not set(stripped) <= set("|-: "):
                yield number, [c.strip() for c in stripped.strip("|").split("|")]
        return
    try:
        for number, cells in enumerate(csv.reader(io.StringIO(text)), 1):
            yield number, cells
    except csv.Error:
        return


def _match(cells: list[str], aliases: dict[str, str], words: dict[str, str], rel: str, line: int) -> list[LedgerRow]:
    """A row counts when one cell is a verdict word (first word of the cell) and a cell names a lever."""
    verdict, verdict_cell = None, -1
    for index, cell in enumerate(cells):
        first = cell.strip().strip("*`").split()[0].upper().rstrip(":,.") if cell.strip() else ""
        if first in words:
            verdict, verdict_cell = words[first], index
            break
    if verdict is None:
        return []
    named = {aliases[t] for cell in cells for t in _TOKEN.findall(cell) if t in aliases}
    found = [delta.deltas(cell) for index, cell in enumerate(cells) if index != verdict_cell]
    measured = next((d[0].text for d in found if d), "")
    return [LedgerRow(name, verdict, rel, line, measured) for name in sorted(named)]
