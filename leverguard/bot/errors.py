"""The bot's own error kinds for the webhook: a malformed payload (400) and an unavailable inbox (503)."""

from __future__ import annotations

from leverguard.bot.queue import InboxUnavailable
from leverguard.errors import LeverguardError

__all__ = ["InboxUnavailable", "Malformed"]  # InboxUnavailable: the inbox backends' one type (bot.queue)


class Malformed(LeverguardError):
    """A signed delivery whose payload is not shaped as GitHub sends it: answered 400, logged in one line."""
