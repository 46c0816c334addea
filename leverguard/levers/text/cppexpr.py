"""Preprocessor `#if` expressions: tokenizer, precedence parser, macro uses and tri-state evaluation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Union

_TOKEN = re.compile(r"""
    (?P<num>(?:0[xX][0-9a-fA-F']+|\d[\d']*)[uUlL]*)
  | (?P<char>L?'(?:\\.|[^'\\])*')
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^?:(),])
  | (?P<space>\s+)
""", re.VERBOSE)


class ExprError(ValueError):
    """A `#if` expression that is not well formed."""


@dataclass(frozen=True)
class Name:
    ident: str


@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Defined:
    ident: str


@dataclass(frozen=True)
class Call:
    ident: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Ternary:
    test: Node
    then: Node
    other: Node


Node = Union[Name, Num, Defined, Call, Unary, Binary, Ternary]

# Binary operator precedence, loosest first (C11 6.5).
_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
    ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
)


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ExprError(f"unexpected character {text[pos]!r}")
        if match.lastgroup != "space":
            tokens.append(match.group())
        pos = match.end()
    return tokens


def _number(token: str) -> int:
    if token.startswith(("'", "L'")):
        body = token.split("'")[1]
        return ord(body[-1]) if body else 0
    digits = token.replace("'", "").rstrip("uUlL")
    if digits.lower().startswith("0x"):
        return int(digits, 16)
    return int(digits, 8) if len(digits) > 1 and digits.startswith("0") else int(digits)


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if not token or (expected is not None and token != expected):
            raise ExprError(f"expected {expected or 'an operand'}, got {token or 'end of line'!r}")
        self.pos += 1
        return token

    def ternary(self) -> Node:
        test = self.binary(0)
        if self.peek() != "?":
            return test
        self.take("?")
        then = self.ternary()
        self.take(":")
        return Ternary(test, then, self.ternary())

    def binary(self, level: int) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _LEVELS[level]:
            op = self.take()
            left = Binary(op, left, self.binary(level + 1))
        return left

    def unary(self) -> Node:
        token = self.take()
        if token in ("!", "-", "+", "~"):
            return Unary(token, self.unary())
        if token == "(":
            inner = self.ternary()
            self.take(")")
            return inner
        if token == "defined":
            return self.defined()
        if token[0].isdigit() or token[0] == "'" or token.startswith("L'"):
            return Num(_number(token))
        if token[0].isalpha() or token[0] == "_":
            return self.call(token) if self.peek() == "(" else Name(token)
        raise ExprError(f"unexpected {token!r}")

    def defined(self) -> Node:
        paren = self.peek() == "("
        if paren:
            self.take("(")
        ident = self.take()
        if not (ident[0].isalpha() or ident[0] == "_"):
            raise ExprError(f"defined needs a macro name, got {ident!r}")
        if paren:
            self.take(")")
        return Defined(ident)

    def call(self, ident: str) -> Node:
        self.take("(")
        args: list[Node] = []
        while self.peek() != ")":
            args.append(self.ternary())
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        return Call(ident, tuple(args))


def parse(text: str) -> Node:
    """The expression tree of a `#if`/`#elif` condition; ExprError when malformed."""
    parser = _Parser(tokenize(text))
    node = parser.ternary()
    if parser.peek():
        raise ExprError(f"unexpected {parser.peek()!r} after the expression")
    return node


def uses(node: Node) -> dict[str, str]:
    """Every macro the expression names: 'defined' when tested with defined(), else 'value'."""
    found: dict[str, str] = {}
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Defined):
            found.setdefault(item.ident, "defined")
        elif isinstance(item, Name):
            found[item.ident] = "value"
        elif isinstance(item, Call):
            stack.extend(item.args)
        elif isinstance(item, Unary):
            stack.append(item.operand)
        elif isinstance(item, Binary):
            stack.extend((item.left, item.right))
        elif isinstance(item, Ternary):
            stack.extend((item.test, item.then, item.other))
    return found


def evaluate(node: Node, known: Mapping[str, int | None]) -> int | None:
    """The value of the expression, or None when it depends on a macro not in `known`.

    `known` maps a macro to its value, or to None when it is known to be undefined; any
    other macro is unknown. `&&`, `||` and `?:` short-circuit, so `0 && X` is known.
    An explicit stack, not recursion: `#if A && B && ...` with 500 terms is a tree 500 deep (issue #11).
    """
    values: list[int | None] = []
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        item, operands_done = stack.pop()
        if isinstance(item, Unary):
            if operands_done:
                values.append(_unary(item.op, values.pop()))
            else:
                stack += [(item, True), (item.operand, False)]
        elif isinstance(item, Binary):
            if operands_done:
                right, left = values.pop(), values.pop()
                values.append(_binary(item.op, left, right))
            else:
                stack += [(item, True), (item.right, False), (item.left, False)]
        elif isinstance(item, Ternary):
            if not operands_done:
                stack += [(item, True), (item.test, False)]
                continue
            test = values.pop()
            if test is None:
                values.append(None)
            else:
                stack.append((item.then if test else item.other, False))
        else:
            values.append(_leaf(item, known))
    return values[0]


def _leaf(node: Node, known: Mapping[str, int | None]) -> int | None:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Defined):
        return None if node.ident not in known else int(known[node.ident] is not None)
    if isinstance(node, Name):
        if node.ident in ("true", "false"):
            return int(node.ident == "true")
        return (known[node.ident] or 0) if node.ident in known else None
    return None  # a function-like macro call: its value cannot be told


def _unary(op: str, value: int | None) -> int | None:
    if value is None:
        return None
    return {"!": int(not value), "-": -value, "+": value, "~": ~value}[op]


def _binary(op: str, left: int | None, right: int | None) -> int | None:
    if op in ("&&", "||"):
        short = 0 if op == "&&" else 1
        if (left is not None and bool(left) == bool(short)) or (right is not None and bool(right) == bool(short)):
            return short
        return None if left is None or right is None else 1 - short
    if left is None or right is None:
        return None
    if op in ("<<", ">>") and not 0 <= right <= 64:
        return None  # a hostile `1 << 100000000` must not build a huge integer
    try:
        return _ARITH[op](left, right)
    except (ZeroDivisionError, ValueError):
        return None


_ARITH: dict[str, Callable[[int, int], int]] = {
    "|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "&": lambda a, b: a & b,
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b, "+": lambda a, b: a + b,
    "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: int(a / b), "%": lambda a, b: a % b,
}
