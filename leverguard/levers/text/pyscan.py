"""Environment reads and `-DX` compile-flag injections in Python, found by walking the `ast`."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Sequence

from leverguard.levers.text.pyenv import default_truth, env_read

_FLAG = re.compile(r"(?:^|[\s\"'=,(\[])-D([A-Za-z_]\w*)(?:=(\S*))?")


@dataclass(frozen=True)
class EnvRead:
    """`os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]` or `"X" in os.environ`."""

    var: str
    path: str
    line: int
    how: str  # get | getenv | subscript | in


@dataclass(frozen=True)
class Injection:
    """A `-DX` or `-DX=V` compile flag in a string, f-string or list literal, with its condition."""

    macro: str
    value: str | None
    path: str
    line: int
    condition: str  # unconditional | env | guard
    guard: str | None  # source text of the enclosing conditions, innermost last
    env: tuple[str, ...]  # environment variables the conditions read
    guard_tests: tuple[str, ...] = ()  # each non-environment condition, for geometry evaluation


@dataclass(frozen=True)
class PyFile:
    path: str
    reads: tuple[EnvRead, ...]
    injections: tuple[Injection, ...]
    warnings: tuple[str, ...]
    # (first line, last line, env vars) of every arm taken only when an env var is set (the `if` line included)
    env_blocks: tuple[tuple[int, int, tuple[str, ...]], ...] = ()


def flags_in(text: str) -> list[tuple[str, str | None]]:
    """(macro, value) of each `-DX` / `-DX=V` in a string."""
    return [(m.group(1), m.group(2)) for m in _FLAG.finditer(text)]


class _Visitor(ast.NodeVisitor):
    """Collects reads and injections, keeping the stack of conditions that enclose each node."""

    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.lines = [line.encode("utf-8", "surrogateescape") for line in source.split("\n")]
        self.conditions: list[tuple[ast.expr, bool]] = []  # (test, negated)
        self.tainted: dict[str, tuple[str, ...]] = {}  # name -> env vars its value came from
        self.assigned: dict[str, ast.expr] = {}  # tainted name -> the expression it was assigned
        self.reads: list[EnvRead] = []
        self.injections: list[Injection] = []
        self.env_blocks: list[tuple[int, int, tuple[str, ...]]] = []

    def env_of(self, node: ast.AST) -> tuple[str, ...]:
        found: list[str] = []
        for sub in ast.walk(node):
            hit = env_read(sub)
            if hit:
                found.append(hit[0])
            elif isinstance(sub, ast.Name) and sub.id in self.tainted:
                found.extend(self.tainted[sub.id])
            elif isinstance(sub, ast.Attribute) and sub.attr in self.tainted:
                found.extend(self.tainted[sub.attr])
        return tuple(dict.fromkeys(found))

    def visit_Assign(self, node: ast.Assign) -> None:
        self._taint(node.targets, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._taint([node.target], node.value)
        self.generic_visit(node)

    def _taint(self, targets: list[ast.expr], value: ast.expr) -> None:
        # `use_x = os.environ.get("X") == "1"` then `if use_x:` is still an env-gated branch.
        env = self.env_of(value)
        for target in targets:
            name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
            if name and env:
                self.tainted[name] = env
                self.assigned[name] = value

    def visit_If(self, node: ast.If) -> None:
        self._branch(node.test, node.body, node.orelse)

    def visit_While(self, node: ast.While) -> None:
        self._branch(node.test, node.body, node.orelse)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._branch(node.test, [node.body], [node.orelse])

    def _branch(self, test: ast.expr, body: Sequence[ast.AST], orelse: Sequence[ast.AST]) -> None:
        self.visit(test)
        env = self.env_of(test)
        if env:
            self._env_block(test, env, body, orelse)
        self._under(test, False, body)
        self._under(test, True, orelse)

    def _env_block(self, test: ast.expr, env: tuple[str, ...], body: Sequence[ast.AST], orelse: Sequence[ast.AST]) -> None:
        """Record the arm taken only when an environment variable is set (the default build skips it)."""
        taken = default_truth(test, self.assigned)
        arm = body if taken is False else orelse if taken is True else []
        if arm:
            first = min(getattr(n, "lineno", 0) for n in arm)
            last = max(getattr(n, "end_lineno", 0) or 0 for n in arm)
            self.env_blocks.append((test.lineno if arm is body else first, last, env))

    def _under(self, test: ast.expr, negated: bool, nodes: Sequence[ast.AST]) -> None:
        self.conditions.append((test, negated))
        for child in nodes:
            self.visit(child)
        self.conditions.pop()

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        # `use_x and "-DX"`: each operand is evaluated only when the ones before it allow.
        self.visit(node.values[0])
        for index, value in enumerate(node.values[1:], 1):
            self._under(node.values[index - 1], isinstance(node.op, ast.Or), [value])

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        hit = env_read(node)
        if hit:
            self.reads.append(EnvRead(hit[0], self.path, getattr(node, "lineno", 0), hit[1]))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for macro, value in flags_in(node.value):
                self.injections.append(self._injection(macro, value, node))
        super().generic_visit(node)

    def _injection(self, macro: str, value: str | None, node: ast.AST) -> Injection:
        line = getattr(node, "lineno", 0)
        if not self.conditions:
            return Injection(macro, value, self.path, line, "unconditional", None, ())
        texts = [self._text(test, negated) for test, negated in self.conditions]
        env = tuple(dict.fromkeys(v for test, _ in self.conditions for v in self.env_of(test)))
        guards = tuple(g for test, negated in self.conditions for g in self._guards(test, negated))
        return Injection(macro, value, self.path, line, "env" if env else "guard", " and ".join(texts), env, guards)

    def _guards(self, test: ast.expr, negated: bool) -> list[str]:
        """The non-environment parts of a condition: `world_size == 8 and os.environ.get(X)` keeps the first."""
        if not self.env_of(test):
            return [self._text(test, negated)]
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and not negated:
            return [self._text(v, False) for v in test.values if not self.env_of(v)]
        return []

    def _segment(self, node: ast.expr) -> str:
        """The node's source text; ast.get_source_segment would re-split the whole file per call."""
        first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        start, end = node.col_offset, node.end_col_offset
        if last >= len(self.lines) or end is None:
            return ""
        if first == last:
            chunk = self.lines[first][start:end]
        else:
            chunk = b"\n".join([self.lines[first][start:], *self.lines[first + 1:last], self.lines[last][:end]])
        return chunk.decode("utf-8", "replace")

    def _text(self, node: ast.expr, negated: bool) -> str:
        text = self._segment(node) or ast.unparse(node)
        return f"not ({text})" if negated else text


def scan(path: str, data: bytes) -> PyFile:
    """Parse one Python file; a syntax error or bad encoding is a warning, never an exception."""
    warnings: tuple[str, ...] = ()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        source = data.decode("latin-1")
        warnings = (f"{path}: not UTF-8 (byte {exc.start}): read as Latin-1",)
    try:
        tree = ast.parse(source.replace("\r\n", "\n"), filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", 0) or 0
        return PyFile(path, (), (), (*warnings, f"{path}:{line}: cannot parse Python ({exc.__class__.__name__}): skipped"))
    visitor = _Visitor(path, source.replace("\r\n", "\n"))
    try:
        visitor.visit(tree)
    except RecursionError:
        return PyFile(path, (), (), (*warnings, f"{path}: nested too deeply to scan: skipped"))
    return PyFile(path, tuple(visitor.reads), tuple(visitor.injections), warnings, tuple(visitor.env_blocks))
