"""The webhook WSGI app: verify the signature, store the delivery, answer 202. Nothing runs at import."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from flask import Flask, Response, jsonify, request

from leverguard.bot import events
from leverguard.bot.inbox import Inbox
from leverguard.bot.settings import Settings, require_secret


def signature_ok(secret: bytes, body: bytes, header: str | None) -> bool:
    """X-Hub-Signature-256 is `sha256=` + HMAC-SHA256(secret, raw body); compared in constant time."""
    if not header or not header.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), header.encode("ascii", "replace"))


def create_app(settings: Settings) -> Flask:
    """The service's WSGI app; refuses to exist without a webhook secret."""
    require_secret(settings)
    secret = settings.webhook_secret.encode()
    inbox = Inbox(settings.db, lease_seconds=settings.lease_seconds, max_attempts=settings.max_attempts,
                  backoff_seconds=settings.backoff_seconds)
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
        return _accept(inbox, request.headers.get("X-GitHub-Event", ""), request.headers.get("X-GitHub-Delivery", ""), body)

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify({"ok": True, "inbox": inbox.counts()})

    return app


def _accept(inbox: Inbox, event: str, delivery: str, body: bytes) -> Any:
    """Store a verified delivery; the worker does the rest."""
    if not delivery or not event:
        return _answer(400, "X-GitHub-Event and X-GitHub-Delivery headers are required")
    if event == "ping":
        return _answer(200, "pong")
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return _answer(400, "the body is not JSON: configure the App's webhook with content type application/json")
    if not isinstance(payload, dict):
        return _answer(400, "the body is not a JSON object")
    trigger = events.classify(event, payload)
    action = str(payload.get("action", ""))
    if trigger is None:
        stored = inbox.add(delivery, event, action, body, note=f"ignored: {event}.{action} asks for no check")
    else:
        stored = inbox.add(delivery, event, action, body, repo=trigger.repo, pr=trigger.pr,
                           head_sha=trigger.head_sha, note=trigger.reason)
    return _answer(202, "queued" if trigger and stored else "stored" if stored else "duplicate delivery")


def _answer(status: int, message: str) -> Response:
    response = jsonify({"message": message})
    response.status_code = status
    return response
