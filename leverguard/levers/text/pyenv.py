"""Environment reads in Python, and the value of a condition when no variable is set: the default build's branch."""

from __future__ import annotations

import ast
from typing import Any, Callable, Mapping

from leverguard.levers.text.tristate import UNKNOWN as _UNKNOWN
from leverguard.levers.text.tristate import boolop, compare

_CASTS: dict[str, Callable[[Any], Any]] = {"int": int, "float": float, "str": str, "bool": bool}
_METHODS = ("lower", "upper", "strip")


def _is_environ(node: ast.AST) -> bool:
    """`os.environ` or a bare `environ` (from os import environ)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id == "environ"


def _const_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def env_read(node: ast.AST) -> tuple[str, str] | None:
    """(variable, how) when `node` reads one environment variable by a literal name."""
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("get", "pop", "setdefault") and _is_environ(func.value):
            name = _const_str(node.args[0])
            return (name, "get") if name else None
        is_getenv = (isinstance(func, ast.Attribute) and func.attr == "getenv") or (
            isinstance(func, ast.Name) and func.id == "getenv")
        if is_getenv:
            name = _const_str(node.args[0])
            return (name, "getenv") if name else None
    if isinstance(node, ast.Subscript) and _is_environ(node.value):
        name = _const_str(node.slice)
        return (name, "subscript") if name else None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        if _is_environ(node.comparators[0]):
            name = _const_str(node.left)
            return (name, "in") if name else None
    return None


def default_truth(test: ast.expr, assigned: Mapping[str, ast.expr]) -> bool | None:
    """True/False when the condition is decided with every environment variable unset, else None."""
    value = _value(test, assigned, 0)
    return None if value is _UNKNOWN else bool(value)


def _value(node: ast.AST, assigned: Mapping[str, ast.expr], depth: int) -> Any:
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
