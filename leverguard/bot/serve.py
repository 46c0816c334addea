"""`leverguard bot serve`: gunicorn around `create_app(settings)`, with a deadline for reading each request.

gunicorn's gthread worker gives each connection a thread once its first bytes arrive, and that
thread then blocks until the client has sent the whole request: twenty clients that send headers
and a few body bytes held every thread, and /healthz and real deliveries waited (issue #11). Here
a watchdog cuts a connection that has not delivered its whole request (headers and body) within
`read_timeout`, so a thread is held at most that long, and there are enough threads that a burst
of slow clients leaves most free. A TLS proxy in front (docs/bot.md) buffers requests as well.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from typing import Any, Callable, Iterable

from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from leverguard.bot.app import create_app
from leverguard.bot.settings import Settings

WORKER_CLASS = "leverguard.bot.serve.DeadlineWorker"


class Watchdog:
    """Shuts down sockets whose request is not read by their deadline; one thread per process."""

    def __init__(self) -> None:
        self.timeout = 5.0
        self._deadlines: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def arm(self, sock: socket.socket) -> None:
        with self._lock:
            self._deadlines[sock] = time.monotonic() + self.timeout
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._watch, name="read-deadline", daemon=True)
                self._thread.start()

    def disarm(self, sock: object) -> None:
        with self._lock:
            self._deadlines.pop(sock, None)  # type: ignore[call-overload]

    def _watch(self) -> None:
        while True:
            time.sleep(0.1)
            now = time.monotonic()
            with self._lock:
                late = [sock for sock, deadline in self._deadlines.items() if deadline <= now]
                for sock in late:
                    del self._deadlines[sock]
            for sock in late:
                try:  # the blocked read returns at once; gunicorn logs a premature disconnection
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


WATCHDOG = Watchdog()


class DeadlineWorker(ThreadWorker):  # type: ignore[misc]
    """gthread with a deadline from a connection's turn on a thread to its request fully read."""

    def handle(self, conn: Any) -> Any:
        WATCHDOG.arm(conn.sock)
        try:
            return super().handle(conn)
        finally:
            WATCHDOG.disarm(conn.sock)


def read_whole_body(app: Callable[..., Any], cap: int) -> Callable[..., Any]:
    """WSGI middleware: read the body under the deadline, then let the app run without it."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH") or ""
        if length.isdigit() and 0 < int(length) <= cap:
            body = environ["wsgi.input"].read(int(length))
            environ["wsgi.input"] = io.BytesIO(body)
        WATCHDOG.disarm(environ.get("gunicorn.socket"))
        return app(environ, start_response)  # type: ignore[no-any-return]

    return wrapped


class _Server(BaseApplication):  # type: ignore[misc]
    """gunicorn's documented way to embed it: options in, our WSGI app out."""

    def __init__(self, settings: Settings, options: dict[str, Any]) -> None:
        self._settings, self._options = settings, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        WATCHDOG.timeout = self._settings.read_timeout
        return read_whole_body(create_app(self._settings), self._settings.max_body_bytes)


def options(settings: Settings, bind: str) -> dict[str, Any]:
    """Threads, because a delivery is a short write; a short timeout, because nothing slow runs here."""
    return {"bind": bind, "workers": settings.web_workers, "worker_class": WORKER_CLASS,
            "threads": settings.web_threads, "timeout": 30, "graceful_timeout": 10, "keepalive": 5,
            "limit_request_line": 8190, "limit_request_fields": 100, "errorlog": "-",
            "proc_name": "leverguard-bot"}  # the inbox is the access record


def run(settings: Settings, bind: str) -> None:
    create_app(settings)  # fail here, in the foreground, on a bad database path or missing secret
    _Server(settings, options(settings, bind)).run()
