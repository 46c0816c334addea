"""Function definitions (static, `__device__`, `__global__`, inline) and call sites in cleaned C-family text."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Run over text whose comments and literals are blanked (ctext.clean), so a name in a
# comment is never a call. Qualifiers name the functions the orphan rule cares about.
_DEFINITION = re.compile(r"""
    ^[ \t]*(?P<quals>(?:(?:template\s*<[^>{};]*>\s*)?
        (?:static|inline|__device__|__global__|__host__|__forceinline__|__noinline__|constexpr|extern)\b\s*)+)
    [^;{}()=\#]*?\b(?P<name>[A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{
""", re.VERBOSE | re.MULTILINE)
_CALL = re.compile(r"\b(?P<name>[A-Za-z_]\w*)\s*(?:<<<[^;]*?>>>\s*)?\(")
_NOT_CALLS = frozenset({
    "if", "for", "while", "switch", "return", "sizeof", "defined", "alignof", "decltype", "static_assert",
    "catch", "__attribute__", "__launch_bounds__", "__declspec", "alignas", "typeid", "noexcept",
})
_WANTED = ("static", "inline", "__device__", "__global__", "__forceinline__")


@dataclass(frozen=True)
class Function:
    name: str
    line: int
    qualifiers: str


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def definitions(cleaned: str) -> list[Function]:
    """Functions defined with one of the qualifiers the orphan rule watches."""
    found = []
    for match in _DEFINITION.finditer(cleaned):
        quals = " ".join(match.group("quals").split())
        if any(q in quals.split() for q in _WANTED) and match.group("name") not in _NOT_CALLS:
            found.append(Function(match.group("name"), _line_of(cleaned, match.start("name")), quals))
    return found


def calls(cleaned: str) -> list[tuple[str, int]]:
    """(name, line) of every call site; definitions, declarations and directives are not calls."""
    defined_at = {m.start("name") for m in _DEFINITION.finditer(cleaned)}
    found = []
    for match in _CALL.finditer(cleaned):
        name, start = match.group("name"), match.start("name")
        if name in _NOT_CALLS or start in defined_at or _is_declaration(cleaned, start) or _in_directive(cleaned, start):
            continue
        found.append((name, _line_of(cleaned, start)))
    return found


def _is_declaration(text: str, start: int) -> bool:
    """`void f(int);` or `int f(` : a type name right before the function name."""
    before = text[text.rfind("\n", 0, start) + 1:start].rstrip()
    if not before:
        return False
    last = re.search(r"([A-Za-z_]\w*|[*&>])$", before)
    if last is None:
        return False
    word = last.group(1)
    return word not in ("return", "else", "do", "case", "throw", "co_return", "new") and not _is_value_context(before)


def _is_value_context(before: str) -> bool:
    # `x = a * f(y)` or `a && f(y)`: an operator before a name makes it an expression.
    return bool(re.search(r"[=+\-/%!?:<,(]\s*\w+\s*[*&]$", before))


def _in_directive(text: str, start: int) -> bool:
    """A name in `#if`/`#include` is not a call; in a `#define` body it is (the macro calls it)."""
    head = text[text.rfind("\n", 0, start) + 1:start].lstrip()
    return head.startswith("#") and not head[1:].lstrip().startswith("define")


def mentions(cleaned: str, name: str) -> list[int]:
    """Lines that use `name` other than to define or declare it: calls, pointers, macro bodies."""
    defined_at = {m.start("name") for m in _DEFINITION.finditer(cleaned) if m.group("name") == name}
    lines = []
    for match in re.finditer(rf"\b{re.escape(name)}\b", cleaned):
        start = match.start()
        if start in defined_at or _in_directive(cleaned, start):
            continue
        if _is_declaration(cleaned, start) and re.match(rf"{re.escape(name)}\s*\(", cleaned[start:]):
            continue
        lines.append(_line_of(cleaned, start))
    return lines
