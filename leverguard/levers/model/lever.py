"""The lever model: gate sites, injection and read sites, and the levers that join them."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

from leverguard.config import Config
from leverguard.levers.text import cppexpr
from leverguard.levers.text.cpp import Branch, Conditional, CppFile
from leverguard.levers.text.pyscan import EnvRead, Injection, PyFile
from leverguard.levers.model.quick import lever_regex

Span = tuple[int, int]  # first and last line, inclusive (last < first: empty)


@dataclass(frozen=True)
class GateSite:
    """One directive naming a macro: where, which branches, and the lines the macro turns on and off."""

    path: str
    line: int
    kind: str  # if, ifdef, ifndef, elif, ...
    usage: str  # defined | value
    has_else: bool
    condition: str
    spans: tuple[tuple[str, int, int], ...]  # (branch kind, first body line, last body line) of the chain
    on: Span | None  # the body compiled when the lever is on (None when it cannot be told)
    off: Span | None  # the legacy body compiled when it is off (the #else), if any


@dataclass(frozen=True)
class Lever:
    name: str
    gates: tuple[GateSite, ...]
    injections: tuple[Injection, ...]
    reads: tuple[EnvRead, ...]

    @property
    def env(self) -> list[str]:
        """Environment variables that control the lever: its injections' conditions and direct reads."""
        names = [v for inj in self.injections for v in inj.env] + [r.var for r in self.reads]
        return sorted(set(names))


@dataclass(frozen=True)
class Scanned:
    """Parsed files at one revision (or the index)."""

    rev: str | None
    cfiles: dict[str, CppFile] = field(default_factory=dict)
    pyfiles: dict[str, PyFile] = field(default_factory=dict)
    unread: dict[str, int] = field(default_factory=dict)  # path -> size of the sources over max_file_size
    notes: list[str] = field(default_factory=list)  # what could not be read, said once per file

    @property
    def warnings(self) -> list[str]:
        return [w for c in self.cfiles.values() for w in c.warnings] + \
            [w for p in self.pyfiles.values() for w in p.warnings] + self.notes


def gate_sites(cfile: CppFile) -> dict[str, list[GateSite]]:
    """macro -> its gate sites in one file; macros inside `#if 0` blocks are not gates."""
    found: dict[str, list[GateSite]] = {}
    for cond in cfile.conditionals:
        spans = tuple((b.kind, b.start, b.end) for b in cond.branches)
        for index, branch in enumerate(cond.branches):
            if branch.dead:  # inside `#if 0`: never compiled, so not a gate
                continue
            for macro, usage in branch.uses.items():
                on, off = _on_off(cond, index, macro)
                found.setdefault(macro, []).append(GateSite(
                    cfile.path, branch.line, branch.kind, usage, cond.has_else, branch.text, spans, on, off))
    return found


def _on_off(cond: Conditional, index: int, macro: str) -> tuple[Span | None, Span | None]:
    """Which body the macro turns on: this arm when it is taken with the macro on and not off."""
    branch = cond.branches[index]
    when_on, when_off = _taken(branch, macro, 1), _taken(branch, macro, None)
    here = (branch.start, branch.end)
    rest = cond.branches[index + 1:]
    other = (rest[0].start, cond.endif - 1) if rest else None
    if when_on == 1 and when_off == 0:
        return here, other
    if when_on == 0 and when_off == 1:
        return other, here
    return None, None


def _taken(branch: Branch, macro: str, value: int | None) -> int | None:
    if branch.node is None:
        return None
    result = cppexpr.evaluate(branch.node, _assume_others_off(branch, macro, value))
    return None if result is None else int(bool(result))


def _assume_others_off(branch: Branch, macro: str, value: int | None) -> dict[str, int | None]:
    # Other macros of a compound test (`defined(A) && B >= 2`) are taken as set to 1 so that
    # the macro's own role decides; a test that still cannot be told is reported as unknown.
    known: dict[str, int | None] = {name: 1 for name in branch.uses}
    known[macro] = value
    return known


class LeverNames:
    """Which macros are levers: `lever_patterns` minus `ignore_macros`."""

    def __init__(self, config: Config) -> None:
        self.patterns = [re.compile(p) for p in config.get("levers.lever_patterns")]
        self.ignore = list(config.get("levers.ignore_macros"))

    def ignored(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, glob) for glob in self.ignore)

    def is_lever(self, name: str) -> bool:
        return any(p.fullmatch(name) for p in self.patterns) and not self.ignored(name)

    def grep_patterns(self) -> list[str]:
        """The patterns as POSIX extended regexes for `git grep -E` (a superset is fine: it only pre-filters)."""
        if not self.patterns:
            return ["#[[:space:]]*(if|elif)", "environ|getenv|-D[A-Za-z_]"]
        return [lever_regex([p.pattern]) for p in self.patterns]


def build_levers(scanned: Scanned, names: LeverNames) -> dict[str, Lever]:
    """Join gate sites, injections and reads into levers (sorted by name)."""
    gates: dict[str, list[GateSite]] = {}
    for cfile in scanned.cfiles.values():
        for macro, sites in gate_sites(cfile).items():
            gates.setdefault(macro, []).extend(sites)
    injections: dict[str, list[Injection]] = {}
    reads: dict[str, list[EnvRead]] = {}
    for pyfile in scanned.pyfiles.values():
        for inj in pyfile.injections:
            injections.setdefault(inj.macro, []).append(inj)
        for read in pyfile.reads:
            reads.setdefault(read.var, []).append(read)
    candidates = _candidates(names, gates, injections, reads)
    return {name: Lever(name, tuple(gates.get(name, ())), tuple(injections.get(name, ())),
                        tuple(reads.get(name, ()))) for name in sorted(candidates)}


def _candidates(names: LeverNames, gates: dict[str, list[GateSite]], injections: dict[str, list[Injection]],
                reads: dict[str, list[EnvRead]]) -> set[str]:
    if names.patterns:
        return {n for n in [*gates, *injections, *reads] if names.is_lever(n)}
    # No patterns: a lever is a macro gated in C-family code and injected or read in Python.
    return {n for n in gates if (n in injections or n in reads) and not names.ignored(n)}

