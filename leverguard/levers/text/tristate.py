"""Three-valued evaluation of Python conditions (true, false, UNKNOWN), shared by the guard evaluators."""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable

UNKNOWN = object()  # the value cannot be decided statically
COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}

ValueOf = Callable[[ast.AST], Any]


def boolop(node: ast.BoolOp, value_of: ValueOf) -> Any:
    """`and`/`or`: decided as soon as one operand is known decisive, even if another is unknown."""
    decisive = not isinstance(node.op, ast.And)
    values = [value_of(v) for v in node.values]
    if any(v is not UNKNOWN and bool(v) == decisive for v in values):
        return decisive
    return UNKNOWN if any(v is UNKNOWN for v in values) else not decisive


def compare(node: ast.Compare, value_of: ValueOf) -> Any:
    """A comparison chain (`a < b <= c`); unknown when an operand or the operator is."""
    left = value_of(node.left)
    for op, right_node in zip(node.ops, node.comparators):
        right = value_of(right_node)
        if left is UNKNOWN or right is UNKNOWN or type(op) not in COMPARE:
            return UNKNOWN
        try:
            if not COMPARE[type(op)](left, right):
                return False
        except TypeError:
            return UNKNOWN
        left = right
    return True
