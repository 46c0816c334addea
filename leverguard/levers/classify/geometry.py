"""Evaluate a Python guard (`world_size == 8 and num_workers > 2`) against the configured production geometry."""

from __future__ import annotations

import ast
import functools
from typing import Any, Mapping

from leverguard.levers.text.tristate import UNKNOWN as _UNKNOWN
from leverguard.levers.text.tristate import boolop, compare


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
        return boolop(node, lambda v: _value(v, geometry))
    if isinstance(node, ast.Compare):
        return compare(node, lambda v: _value(v, geometry))
    return _UNKNOWN


def _negate(value: Any) -> Any:
    return -value if isinstance(value, (int, float)) else _UNKNOWN


