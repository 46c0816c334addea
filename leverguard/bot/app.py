"""The webhook WSGI app: verify the signature, store the delivery, answer 202. Nothing runs at import."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from typing import Any, Callable, TypeVar

from flask import Flask, Response, jsonify, request

from leverguard.bot import events
from leverguard.bot.errors import InboxUnavailable, Malformed
from leverguard.bot.inbox import Inbox
from leverguard.bot.queue import InboxBackend
from leverguard.bot.settings import Settings, require_secret

T = TypeVar("T")
# What a busy or broken inbox raises: answered 503, so GitHub redelivers later (issue #11).
UNAVAILABLE = (InboxUnavailable, sqlite3.OperationalError, FutureTimeout)
FAILURE_SHOWN = 60.0  # seconds /healthz reports a failed store when no delivery was stored since


def signature_ok(secret: bytes, body: bytes, header: str | None) -> bool:
    """X-Hub-Signature-256 is `sha256=` + HMAC-SHA256(secret, raw body); compared in constant time."""
    if not header or not header.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), header.encode("ascii", "replace"))


class Guarded:
    """The inbox behind a deadline: GitHub gives up after 10 s, so an answer must come before.

    A call past the deadline answers 503 while it finishes in its thread; if it stored the
    delivery after all, GitHub's redelivery (same X-GitHub-Delivery) is a stored-once duplicate.
    """

    def __init__(self, inbox: InboxBackend, deadline: float, threads: int) -> None:
        self.inbox, self.deadline, self._threads = inbox, deadline, threads
        self._pool: ThreadPoolExecutor | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self.failure, self.failed_at = "", 0.0  # the last store failure, "" once a store succeeded again

    def call(self, fn: Callable[[InboxBackend], T]) -> T:
        import os

        with self._lock:
            if self._pid != os.getpid():  # gunicorn forks after create_app: threads do not survive a fork
                self._pool, self._pid = ThreadPoolExecutor(self._threads, "inbox"), os.getpid()
            pool = self._pool
        assert pool is not None
        return pool.submit(fn, self.inbox).result(timeout=self.deadline)


def create_app(settings: Settings) -> Flask:
    """The service's WSGI app; refuses to exist without a webhook secret."""
    require_secret(settings)
    secret = settings.webhook_secret.encode()
    inbox = Guarded(Inbox(settings.db, lease_seconds=settings.lease_seconds, max_attempts=settings.max_attempts,
                          backoff_seconds=settings.backoff_seconds), settings.ack_timeout, settings.web_threads)
    app = Flask("leverguard.bot")
    cap = settings.max_body_bytes

    @app.post("/webhook")
    def webhook() -> Any:
        if request.content_length is None:
            return _answer(411, "a delivery must carry a Content-Length header")
        if request.content_length > cap:
            return _answer(413, f"the body exceeds {cap} bytes: raise max_body_bytes in the bot settings")
        body = request.get_data(cache=False)
        if not signature_ok(secret, body, request.headers.get("X-Hub-Signature-256")):
            return _answer(401, "bad or missing X-Hub-Signature-256")
        event, delivery = request.headers.get("X-GitHub-Event", ""), request.headers.get("X-GitHub-Delivery", "")
        try:
            answer = _accept(inbox, event, delivery, body)
        except Malformed as exc:
            app.logger.warning("delivery %s (%s): refused, malformed payload: %s", delivery[:64], event[:64], exc)
            return _answer(400, f"malformed payload: {exc}")
        except UNAVAILABLE as exc:
            inbox.failure, inbox.failed_at = _why(exc), time.monotonic()
            app.logger.error("delivery %s (%s): inbox unavailable, answered 503: %s", delivery[:64], event[:64],
                             inbox.failure)
            return _answer(503, "the inbox cannot store deliveries right now; GitHub will redeliver")
        inbox.failure = ""
        return answer

    @app.get("/healthz")
    def healthz() -> Any:
        try:
            counts = inbox.call(lambda i: i.counts())
        except UNAVAILABLE as exc:
            return _health(503, f"unavailable: {_why(exc)}", None)
        if inbox.failure and time.monotonic() - inbox.failed_at < FAILURE_SHOWN:
            return _health(503, f"unavailable: the last delivery could not be stored: {inbox.failure}", counts)
        return _health(200, "ok", counts)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:  # one log line, never a traceback in the response or the log
        from werkzeug.exceptions import HTTPException

        if isinstance(exc, HTTPException):
            return exc
        app.logger.error("unexpected %s on %s %s: %s", type(exc).__name__, request.method, request.path,
                         " ".join(str(exc).split())[:300])
        return _answer(500, f"internal error ({type(exc).__name__}); the delivery was not stored")

    return app


def _accept(inbox: Guarded, event: str, delivery: str, body: bytes) -> Any:
    """Store a verified delivery; the worker does the rest."""
    if not delivery or not event:
        return _answer(400, "X-GitHub-Event and X-GitHub-Delivery headers are required")
    if event == "ping":
        return _answer(200, "pong")
    payload = _decode(body)
    trigger = events.classify(event, payload)
    action = str(payload.get("action", ""))
    if trigger is not None and trigger.pr is None:
        trigger = _mapped(inbox, trigger)
    if trigger is None or trigger.pr is None:
        note = f"ignored: {event}.{action} asks for no check" if trigger is None else (
            f"ignored: no stored job of {trigger.repo} at {trigger.head_sha[:12]} to re-run: push to the PR")
        stored = inbox.call(lambda i: i.add(delivery, event, action, body, note=note))
        return _answer(202, "stored" if stored else "duplicate delivery")
    t = trigger
    stored = inbox.call(lambda i: i.add(delivery, event, action, body, repo=t.repo, pr=t.pr,
                                        head_sha=t.head_sha, note=t.reason))
    return _answer(202, "queued" if stored else "duplicate delivery")


def _decode(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except RecursionError as exc:  # json's C scanner recurses per nesting level
        raise Malformed("the JSON nests too deeply") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Malformed("the body is not JSON: configure the App's webhook with content type "
                        "application/json") from exc
    if not isinstance(payload, dict):
        raise Malformed("the body is not a JSON object")
    return payload


def _mapped(inbox: Guarded, trigger: events.Trigger) -> events.Trigger:
    """A fork PR's re-run names no PR: the newest stored job of the same repository and head does."""
    rows = inbox.call(lambda i: i.list())
    for row in reversed(rows):
        if row.repo == trigger.repo and row.head_sha == trigger.head_sha and row.pr is not None:
            return events.Trigger(trigger.repo, row.pr, trigger.head_sha, f"{trigger.reason} (PR by head)")
    return trigger


def _why(exc: BaseException) -> str:
    if isinstance(exc, FutureTimeout):
        return "no answer within the ack timeout (the database is locked or slow)"
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _health(status: int, state: str, counts: dict[str, int] | None) -> Response:
    response = jsonify({"ok": status == 200, "state": state, "inbox": counts, "at": int(time.time())})
    response.status_code = status
    return response


def _answer(status: int, message: str) -> Response:
    response = jsonify({"message": message})
    response.status_code = status
    return response
