"""The conditional structure of a C, C++ or CUDA file: every `#if` chain, its branches and their line spans."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from leverguard.levers.text import cppexpr
from leverguard.levers.text.ctext import clean, decode, logical_lines

CONDITIONALS = ("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif")


@dataclass(frozen=True)
class Branch:
    """One arm of a conditional: the directive line and the lines of its body."""

    kind: str  # if, ifdef, ifndef, elif, elifdef, elifndef, else
    line: int  # line of the directive
    start: int  # first body line
    end: int  # last body line (start - 1 when the body is empty)
    text: str  # the condition as written, comments removed
    node: cppexpr.Node | None  # None for #else or a malformed condition
    uses: dict[str, str]  # macro -> "defined" | "value"
    dead: bool  # inside `#if 0` (or another constant-false branch)


@dataclass(frozen=True)
class Conditional:
    """An `#if` ... `#endif` chain."""

    branches: tuple[Branch, ...]
    endif: int  # line of the #endif (the last line of the file when it is missing)
    depth: int

    @property
    def has_else(self) -> bool:
        return any(b.kind == "else" for b in self.branches)


@dataclass(frozen=True)
class CppFile:
    path: str
    text: str  # comments and strings blanked, line numbers kept
    conditionals: tuple[Conditional, ...]
    warnings: tuple[str, ...]


@dataclass
class _Open:
    depth: int
    line: int
    dead_parent: bool
    branches: list[Branch] = field(default_factory=list)
    pending: tuple[str, int, str] | None = None  # kind, line, condition of the arm being read
    taken_constant: bool = False  # an earlier arm is constant-true: later arms are dead


def scan(path: str, data: bytes) -> CppFile:
    """Parse the directive structure of one file; problems become warnings, never exceptions."""
    text, warnings = decode(path, data)
    cleaned = clean(text)
    stack: list[_Open] = []
    done: list[Conditional] = []
    for line, directive in logical_lines(cleaned):
        keyword, rest = _split_directive(directive)
        if keyword in CONDITIONALS:
            _apply(path, keyword, rest, line, stack, done, warnings)
    last = cleaned.count("\n") + 1
    for frame in reversed(stack):
        warnings.append(f"{path}:{frame.line}: #if without #endif: the rest of the file is taken as its body")
        _close(path, frame, last, done, warnings)
    done.sort(key=lambda c: c.branches[0].line)
    return CppFile(path, cleaned, tuple(done), tuple(warnings))


def _split_directive(directive: str) -> tuple[str, str]:
    body = directive.lstrip()[1:].lstrip()
    keyword = body.split(None, 1)[0] if body.split() else ""
    keyword = "".join(ch for ch in keyword.split("(")[0] if ch.isalnum() or ch == "_")
    return keyword, body[len(keyword):].strip()


def _apply(path: str, keyword: str, rest: str, line: int, stack: list[_Open],
           done: list[Conditional], warnings: list[str]) -> None:
    if keyword in ("if", "ifdef", "ifndef"):
        dead_parent = bool(stack) and _frame_dead(stack[-1])
        stack.append(_Open(len(stack), line, dead_parent, pending=(keyword, line, rest)))
        return
    if not stack:
        warnings.append(f"{path}:{line}: #{keyword} without #if: ignored (unbalanced conditional)")
        return
    frame = stack[-1]
    _finish_arm(path, frame, line - 1, warnings)
    if keyword == "endif":
        stack.pop()
        _close(path, frame, line, done, warnings)
        return
    if any(b.kind == "else" for b in frame.branches):
        warnings.append(f"{path}:{line}: #{keyword} after #else: read as another arm")
    frame.pending = (keyword, line, rest)


def _frame_dead(frame: _Open) -> bool:
    """Whether the arm being read is never compiled (`#if 0`, or an arm after a constant-true one)."""
    if frame.dead_parent or frame.pending is None:
        return frame.dead_parent
    kind, _, text = frame.pending
    if frame.taken_constant:
        return True
    node = _parse_condition(kind, text)
    return node is not None and not cppexpr.uses(node) and cppexpr.evaluate(node, {}) == 0


@functools.lru_cache(maxsize=4096)  # the same conditions recur across files; nodes are immutable
def _parse_condition(kind: str, text: str) -> cppexpr.Node | None:
    if kind == "else":
        return None
    if kind in ("ifdef", "elifdef", "ifndef", "elifndef"):
        ident = text.split()[0] if text.split() else ""
        if not ident.isidentifier():
            return None
        node: cppexpr.Node = cppexpr.Defined(ident)
        return cppexpr.Unary("!", node) if kind.endswith("ndef") else node
    try:
        return cppexpr.parse(text)
    except (cppexpr.ExprError, RecursionError):  # RecursionError: thousands of nested parentheses
        return None


def _finish_arm(path: str, frame: _Open, end: int, warnings: list[str]) -> None:
    if frame.pending is None:
        return
    kind, line, text = frame.pending
    node = _parse_condition(kind, text)
    dead = _frame_dead(frame)
    if node is None and kind != "else":
        warnings.append(f"{path}:{line}: cannot parse #{kind} {text!r}: its macros are read token by token")
        uses = {tok: "value" for tok in _identifiers(text)}
    else:
        uses = cppexpr.uses(node) if node is not None else {}
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
        uses = {name: "defined" for name in uses}
    frame.branches.append(Branch(kind, line, line + 1, end, text, node, uses, dead))
    if node is not None and not cppexpr.uses(node) and cppexpr.evaluate(node, {}):
        frame.taken_constant = True
    frame.pending = None


def _identifiers(text: str) -> list[str]:
    try:
        tokens = cppexpr.tokenize(text)
    except cppexpr.ExprError:
        tokens = text.replace("(", " ").replace(")", " ").split()
    return [t for t in tokens if t.isidentifier() and t != "defined"]


def _close(path: str, frame: _Open, endif: int, done: list[Conditional], warnings: list[str]) -> None:
    if frame.pending is not None:
        _finish_arm(path, frame, endif - 1, warnings)
    if frame.branches:
        done.append(Conditional(tuple(frame.branches), endif, frame.depth))


def enclosing(conditionals: tuple[Conditional, ...], line: int) -> list[tuple[Conditional, int]]:
    """(conditional, arm index) of every arm whose body holds `line`, outermost first."""
    found = []
    for cond in conditionals:
        for index, branch in enumerate(cond.branches):
            if branch.start <= line <= branch.end:
                found.append((cond, index))
    return sorted(found, key=lambda item: item[0].depth)
