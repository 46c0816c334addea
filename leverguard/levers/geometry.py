"""Evaluate a Python guard (`world_size == 8 and num_workers > 2`) against the configured production geometry."""

from __future__ import annotations

import ast
import functools
import operator
from typing import Any, Callable, Mapping

_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_UNKNOWN = object()


def evaluate(text: str, geometry: Mapping[str, Any]) -> bool | None:
    """True or False when the guard can be decided from `geometry`, None (unknown) when it cannot.

    Only literals, configured names (`world_size`, or `cfg.world_size` by its last attribute),
    comparisons, `and`/`or`/`not` and tuples are understood: nothing is ever executed.
    """
    try:
        value = _value(_parse(text).body, geometry)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return None if value is _UNKNOWN else bool(value)


def unknown_names(text: str, geometry: Mapping[str, Any]) -> list[str]:
    """The names a guard uses that the geometry does not configure (for the evidence line)."""
    try:
        tree = _parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    names = [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(tree)
             if isinstance(n, (ast.Name, ast.Attribute))]
    return sorted({n for n in names if n not in geometry and n not in ("True", "False", "None")})


@functools.lru_cache(maxsize=1024)  # each guard is evaluated by several rules; trees are only read
def _parse(text: str) -> ast.Expression:
    return ast.parse(text.strip(), mode="eval")


def _value(node: ast.AST, geometry: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return geometry.get(node.id, _UNKNOWN)
    if isinstance(node, ast.Attribute):
        return geometry.get(node.attr, _UNKNOWN)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = [_value(e, geometry) for e in node.elts]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else tuple(items)
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, geometry)
        if operand is _UNKNOWN or not isinstance(node.op, (ast.Not, ast.USub)):
            return _UNKNOWN
        return (not operand) if isinstance(node.op, ast.Not) else _negate(operand)
    if isinstance(node, ast.BoolOp):
        return _boolop(node, geometry)
    if isinstance(node, ast.Compare):
        return _compare(node, geometry)
    return _UNKNOWN


def _negate(value: Any) -> Any:
    return -value if isinstance(value, (int, float)) else _UNKNOWN


def _boolop(node: ast.BoolOp, geometry: Mapping[str, Any]) -> Any:
    # `and` is False as soon as one operand is known False, even if another is unknown.
    decisive = not isinstance(node.op, ast.And)
    values = [_value(v, geometry) for v in node.values]
    if any(v is not _UNKNOWN and bool(v) == decisive for v in values):
        return decisive
    return _UNKNOWN if any(v is _UNKNOWN for v in values) else not decisive


def _compare(node: ast.Compare, geometry: Mapping[str, Any]) -> Any:
    left = _value(node.left, geometry)
    for op, right_node in zip(node.ops, node.comparators):
        right = _value(right_node, geometry)
        if left is _UNKNOWN or right is _UNKNOWN or type(op) not in _COMPARE:
            return _UNKNOWN
        try:
            if not _COMPARE[type(op)](left, right):
                return False
        except TypeError:
            return _UNKNOWN
        left = right
    return True
