"""`typing.NamedTuple`'s class syntax without importing `typing`: the records of the hook paths
(`message/`) and of the revert engine (`revert/`, which every check-revert and audit starts).

Importing `typing` (and the contextlib, operator, warnings it pulls in) costs about 9 ms, a
third of the interpreter's start-up, and the commit-msg hook has 2.5x that start-up in all
(issue #5). Type checkers see the real `typing.NamedTuple`; at run time each class becomes a
tuple subclass with named fields, its methods, properties, docstring and defaults. Unlike
`collections.namedtuple` it compiles no code per class (namedtuple `eval`s each `__new__`:
~0.13 ms a class, ~2 ms for the hook's 14 classes).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from _collections import _tuplegetter  # collections' own field descriptor (C)

    class _Record(tuple):
        """What every record shares: construction by position or name, `_replace`, `_asdict`, repr."""

        __slots__ = ()
        _fields: tuple = ()
        _field_defaults: dict = {}

        def __new__(cls, *args, **kwargs):
            if kwargs or len(args) != len(cls._fields):
                args = cls._bind(args, kwargs)
            return tuple.__new__(cls, args)

        @classmethod
        def _bind(cls, args, kwargs):
            fields = cls._fields
            if len(args) > len(fields):
                raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
            values = list(args)
            for name in fields[len(args):]:
                if name in kwargs:
                    values.append(kwargs.pop(name))
                elif name in cls._field_defaults:
                    values.append(cls._field_defaults[name])
                else:
                    raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
            if kwargs:
                raise TypeError(f"{cls.__name__}() got an unexpected or repeated argument: {next(iter(kwargs))!r}")
            return values

        @classmethod
        def _make(cls, iterable):
            values = tuple(iterable)
            if len(values) != len(cls._fields):
                raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(values)}")
            return tuple.__new__(cls, values)

        def _replace(self, **changes):
            values = [changes.pop(name, value) for name, value in zip(self._fields, self)]
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return tuple.__new__(type(self), values)

        def _asdict(self):
            return dict(zip(self._fields, self))

        def __getnewargs__(self):
            return tuple(self)

        def __repr__(self):
            inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
            return f"{type(self).__name__}({inner})"

    class _NamedTupleMeta(type):
        def __new__(mcs, name, bases, namespace):
            if namespace.get("_records_root"):
                return super().__new__(mcs, name, bases, namespace)
            fields = tuple(namespace.get("__annotations__", {}))
            body = {k: v for k, v in namespace.items() if k not in fields}
            body.update(__slots__=(), _fields=fields, __match_args__=fields,
                        _field_defaults={field: namespace[field] for field in fields if field in namespace})
            for index, field in enumerate(fields):
                body[field] = _tuplegetter(index, f"Alias for field number {index}")
            return type(name, (_Record,), body)

    class NamedTuple(metaclass=_NamedTupleMeta):
        _records_root = True
