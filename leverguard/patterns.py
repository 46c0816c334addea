"""`lazy`: `re.compile` deferred to a pattern's first use.

The revert engine holds some forty module-level patterns, most of which read only the messages and
lines of commits a change undoes; compiling them all at import cost every `check-revert` about 6 ms,
a clean one included. Type checkers see `re.compile` itself.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    lazy = re.compile
else:
    class lazy:  # noqa: N801 - stands in for re.compile
        __slots__ = ("_args", "search", "match", "fullmatch", "finditer", "findall", "sub", "split", "pattern")

        def __init__(self, pattern, flags=0):
            self._args = (pattern, flags)

        def __getattr__(self, name):  # the first use: compile, then every method answers directly
            compiled = re.compile(*self._args)
            for method in lazy.__slots__[1:]:
                setattr(self, method, getattr(compiled, method))
            return getattr(compiled, name)
