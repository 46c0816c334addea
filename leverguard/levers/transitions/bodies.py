"""What became of a removed gate's bodies: is the `#if` body still there, is the `#else` still there?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from leverguard.levers.model.lever import GateSite, Span

_IDENT = re.compile(r"[A-Za-z_]\w*")
_C_WORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if inline int long
    register return short signed sizeof static struct switch typedef union unsigned void volatile while bool
    true false nullptr template typename class public private protected namespace using constexpr define
    include ifdef ifndef endif elif defined __device__ __global__ __host__ __shared__ __forceinline__ float4
    int32_t int64_t uint32_t uint64_t size_t half this new delete operator virtual override const_cast
""".split())


@dataclass(frozen=True)
class Fate:
    body_kept: bool | None  # None: the body holds no code to look for
    else_kept: bool | None  # None: there was no #else (or it holds no code)
    body_symbols: tuple[str, ...]  # the distinctive symbols of the former body
    missing: tuple[str, ...]  # those no longer present


def _lines(text: str, span: Span | None) -> list[str]:
    if span is None:
        return []
    rows = text.split("\n")[span[0] - 1:span[1]]
    return [r.strip() for r in rows if r.strip() and not r.lstrip().startswith("#")]


def _symbols(lines: Sequence[str]) -> set[str]:
    return {t for line in lines for t in _IDENT.findall(line) if len(t) >= 4 and t not in _C_WORDS}


def _kept(lines: Sequence[str], distinctive: set[str], after_lines: set[str], after_symbols: set[str]) -> bool | None:
    """Kept when most distinctive symbols survive; without distinctive symbols, when most lines do."""
    if distinctive:
        return len(distinctive & after_symbols) * 2 >= len(distinctive)
    if not lines:
        return None
    return sum(line in after_lines for line in lines) * 2 >= len(lines)


def fate(before: str, after: str | None, gates: Sequence[GateSite], lever: str) -> Fate:
    """Compare the bodies a lever's gates selected in BASE with the file's text in HEAD (cleaned)."""
    body = [line for g in gates for line in _lines(before, g.on)]
    legacy = [line for g in gates for line in _lines(before, g.off)]
    after_text = after or ""
    after_lines = {r.strip() for r in after_text.split("\n") if r.strip()}
    after_symbols = set(_IDENT.findall(after_text))
    outside = _outside_symbols(before, gates)
    body_syms = _symbols(body) - _symbols(legacy) - outside - {lever}
    else_syms = _symbols(legacy) - _symbols(body) - outside - {lever}
    body_kept = _kept(body, body_syms, after_lines, after_symbols)
    else_kept = _kept(legacy, else_syms, after_lines, after_symbols) if legacy else None
    missing = tuple(sorted(body_syms - after_symbols))
    return Fate(body_kept, else_kept, tuple(sorted(body_syms)), missing)


def _outside_symbols(before: str, gates: Sequence[GateSite]) -> set[str]:
    """Symbols used outside the gated chains: not distinctive of any body."""
    rows = before.split("\n")
    inside: set[int] = set()
    for gate in gates:
        for _, start, end in gate.spans:
            inside.update(range(start - 1, end + 1))
        inside.add(gate.line - 1)
    return _symbols([r for i, r in enumerate(rows) if i not in inside])
