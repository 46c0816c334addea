"""What a PostgreSQL inbox that is down, or has no schema, tells the webhook (a 503) and the operator (one line)."""

from __future__ import annotations

import json
from typing import Any

import psycopg
import psycopg_pool
from procrastinate import exceptions
from werkzeug.exceptions import ServiceUnavailable

from leverguard.bot.queue import InboxUnavailable


class DatabaseDown(InboxUnavailable, ServiceUnavailable):
    """The database is unreachable or has no schema: the webhook answers 503 (app.py maps InboxUnavailable;
    as a werkzeug ServiceUnavailable it is a JSON 503 from any Flask view too), one error line elsewhere."""

    def get_body(self, environ: Any = None, scope: Any = None) -> str:
        return json.dumps({"message": self.message})

    def get_headers(self, environ: Any = None, scope: Any = None) -> list[tuple[str, str]]:
        return [("Content-Type", "application/json"), ("Retry-After", "10")]


def database_trouble(exc: BaseException) -> DatabaseDown | None:
    """The one error to report for a database that is down or has no schema; None for anything else."""
    if isinstance(exc, DatabaseDown):  # already judged (the inbox's own transactions): the worker reconnects
        return exc
    cause = exc.__cause__ if isinstance(exc, exceptions.ConnectorException) and exc.__cause__ else exc
    if isinstance(cause, (psycopg.errors.UndefinedTable, psycopg.errors.UndefinedFunction)):
        return DatabaseDown(f"the database has no leverguard schema ({cause.diag.message_primary}): run "
                            "`leverguard bot migrate` once")
    if isinstance(cause, (psycopg.OperationalError, psycopg_pool.PoolTimeout)):
        return DatabaseDown(f"the inbox database is unreachable ({' '.join(str(cause).split())[:200]}): "
                            "check LEVERGUARD_DATABASE_URL and that PostgreSQL is up")
    return None
