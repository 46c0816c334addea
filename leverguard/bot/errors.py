"""The bot's own error kinds, shared by the webhook and the inbox backends (no imports beyond errors)."""

from __future__ import annotations

from leverguard.errors import LeverguardError


class Malformed(LeverguardError):
    """A signed delivery whose payload is not shaped as GitHub sends it: answered 400, logged in one line."""


class InboxUnavailable(LeverguardError):
    """The inbox cannot store a delivery now (locked, full, unreachable): answered 503 so GitHub redelivers.

    An inbox backend raises it (or sqlite3.OperationalError, which the webhook maps the same way).
    """
