"""`leverguard bot serve`: gunicorn with sane defaults around `create_app(settings)`."""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

from leverguard.bot.app import create_app
from leverguard.bot.settings import Settings


class _Server(BaseApplication):  # type: ignore[misc]
    """gunicorn's documented way to embed it: options in, our WSGI app out."""

    def __init__(self, settings: Settings, options: dict[str, Any]) -> None:
        self._settings, self._options = settings, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        return create_app(self._settings)


def options(settings: Settings, bind: str) -> dict[str, Any]:
    """Threads, because a delivery is a short write; a short timeout, because nothing slow runs here."""
    return {"bind": bind, "workers": settings.web_workers, "worker_class": "gthread",
            "threads": settings.web_threads, "timeout": 30, "graceful_timeout": 10, "keepalive": 5,
            "limit_request_line": 8190, "errorlog": "-", "proc_name": "leverguard-bot"}  # the inbox is the access record


def run(settings: Settings, bind: str) -> None:
    create_app(settings)  # fail here, in the foreground, on a bad database path or missing secret
    _Server(settings, options(settings, bind)).run()
