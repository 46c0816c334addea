"""The value of a Python condition when no environment variable is set: the default build's branch."""

from __future__ import annotations

import ast
from typing import Any, Callable, Mapping

from leverguard.levers.tristate import UNKNOWN as _UNKNOWN
from leverguard.levers.tristate import boolop, compare

_CASTS: dict[str, Callable[[Any], Any]] = {"int": int, "float": float, "str": str, "bool": bool}
_METHODS = ("lower", "upper", "strip")


def default_truth(test: ast.expr, assigned: Mapping[str, ast.expr]) -> bool | None:
    """True/False when the condition is decided with every environment variable unset, else None."""
    value = _value(test, assigned, 0)
    return None if value is _UNKNOWN else bool(value)


def _value(node: ast.AST, assigned: Mapping[str, ast.expr], depth: int) -> Any:
    from leverguard.levers.pyscan import env_read

    if depth > 20:
        return _UNKNOWN
    hit = env_read(node)
    if hit is not None:
        return _unset(node, hit[1])
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in assigned:
        return _value(assigned[node.id], assigned, depth + 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _value(node.operand, assigned, depth + 1)
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if isinstance(node, ast.BoolOp):
        return boolop(node, lambda v: _value(v, assigned, depth + 1))
    if isinstance(node, ast.Compare):
        return compare(node, lambda v: _value(v, assigned, depth + 1))
    if isinstance(node, ast.Call):
        return _call(node, assigned, depth)
    return _UNKNOWN


def _unset(node: ast.AST, how: str) -> Any:
    """What an environment read yields when the variable is unset."""
    if how == "in":
        assert isinstance(node, ast.Compare)
        return isinstance(node.ops[0], ast.NotIn)
    if how == "subscript":
        return _UNKNOWN  # KeyError: the branch is not reached at all
    assert isinstance(node, ast.Call)
    if len(node.args) > 1:
        return node.args[1].value if isinstance(node.args[1], ast.Constant) else _UNKNOWN
    return None


def _call(node: ast.Call, assigned: Mapping[str, ast.expr], depth: int) -> Any:
    func = node.func
    if isinstance(func, ast.Name) and func.id in _CASTS and len(node.args) == 1:
        arg = _value(node.args[0], assigned, depth + 1)
        try:
            return _UNKNOWN if arg is _UNKNOWN or arg is None else _CASTS[func.id](arg)
        except (TypeError, ValueError):
            return _UNKNOWN
    if isinstance(func, ast.Attribute) and func.attr in _METHODS and not node.args:
        target = _value(func.value, assigned, depth + 1)
        return getattr(target, func.attr)() if isinstance(target, str) else _UNKNOWN
    return _UNKNOWN
