"""Printing paths safely: control characters, quotes and non-UTF-8 bytes are escaped as git does."""

from __future__ import annotations

_NAMED = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
          '"': '\\"', "\\": "\\\\"}


def quote_path(path: str) -> str:
    """`path` as git's core.quotePath would show it, but keeping valid UTF-8 readable.

    Paths decoded with surrogateescape carry their undecodable bytes as lone surrogates;
    those, control characters, quotes and backslashes are escaped in C style and the
    whole path is then double-quoted, so a newline in a file name cannot forge a line.
    """
    out: list[str] = []
    quoted = False
    for char in path:
        code = ord(char)
        if char in _NAMED:
            out.append(_NAMED[char])
            quoted = True
        elif 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, kept by surrogateescape
            out.append(f"\\{code - 0xDC00:03o}")
            quoted = True
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\{code:03o}")
            quoted = True
        else:
            out.append(char)
    text = "".join(out)
    return f'"{text}"' if quoted else text


def shell_quote(path: str) -> str:
    """`path` as a POSIX shell word a user can paste; control and undecodable bytes use $'...'."""
    if all(0x20 <= ord(c) != 0x7F and not 0xDC80 <= ord(c) <= 0xDCFF for c in path):
        import shlex

        return shlex.quote(path)
    body = quote_path(path)
    body = body[1:-1] if body.startswith('"') else body
    return "$'" + body.replace('\\"', '"').replace("'", "\\'") + "'"
