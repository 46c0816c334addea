"""Git work on a thread, overlapping other git work: CI runners (and this check) have 2+ cores."""

from __future__ import annotations

import threading
from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """FN(*ARGS) started on a daemon thread; `result()` waits and re-raises its error here."""

    def __init__(self, fn: Callable[..., T], *args: Any) -> None:
        self._value: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[..., T], args: tuple[Any, ...]) -> None:
        try:
            self._value.append(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread by result()
            self._error.append(exc)

    def join(self) -> None:
        self._thread.join()

    def result(self) -> T:
        self._thread.join()
        if self._error:
            raise self._error[0]
        return self._value[0]

    def result_or_none(self) -> T | None:
        """The value, or None when FN failed (speculative work whose caller can redo it)."""
        self._thread.join()
        return self._value[0] if self._value else None
