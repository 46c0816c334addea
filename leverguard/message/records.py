"""`typing.NamedTuple`'s class syntax without importing `typing` on the hook path.

Importing `typing` (and the contextlib, operator, warnings it pulls in) costs about 9 ms, a
third of the interpreter's start-up, and the commit-msg hook has 2.5x that start-up in all
(issue #5). Type checkers see the real `typing.NamedTuple`; at run time each class becomes a
subclass of a `collections.namedtuple` built from its annotations, keeping its methods,
properties, docstring and defaults.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:

    class _NamedTupleMeta(type):
        def __new__(mcs, name, bases, namespace):
            if namespace.get("_records_root"):
                return super().__new__(mcs, name, bases, namespace)
            fields = list(namespace.get("__annotations__", {}))
            defaults = [namespace[field] for field in fields if field in namespace]
            base = namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))
            body = {k: v for k, v in namespace.items() if k not in fields and k != "__annotations__"}
            return type(name, (base,), {**body, "__slots__": ()})

    class NamedTuple(metaclass=_NamedTupleMeta):
        _records_root = True
