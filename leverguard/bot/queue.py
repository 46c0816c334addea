"""The inbox interface: what `bot serve`, `bot worker` and the operator commands need of a backend.

Two implementations keep one contract: SQLite (`leverguard.bot.inbox`, one machine, the default)
and PostgreSQL through procrastinate (`leverguard.bot.inbox_postgres`, several workers and hosts).
A delivery is acknowledged only once it is durable, stored once per X-GitHub-Delivery id,
coalesced per PR to the newest head, one PR's job runs at a time, failures are retried with
back-off (and GitHub's Retry-After), and a job whose worker died is taken over after its lease.
"""

from __future__ import annotations

import builtins
import threading
from dataclasses import dataclass
from typing import Callable, Protocol

from leverguard.bot.errors import InboxUnavailable

__all__ = ["Delivery", "InboxBackend", "InboxUnavailable", "Job", "JobQueue", "Outcome"]

STATES = ("queued", "running", "done", "failed", "superseded")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Delivery:
    """One inbox row without its payload."""

    seq: int
    id: str
    event: str
    action: str
    repo: str | None
    pr: int | None
    head_sha: str | None
    state: str
    attempts: int
    not_before: float
    lease_until: float
    worker: str
    received: float
    updated: float
    note: str


@dataclass(frozen=True)
class Job:
    """A claimed delivery: the row and its raw payload."""

    delivery: Delivery
    payload: bytes


@dataclass(frozen=True)
class Outcome:
    state: str  # done or superseded
    note: str


Handler = Callable[[Job], Outcome]
GiveUp = Callable[[Job, str], str]  # (job, reason) -> what was reported, when a job is failed for good
Log = Callable[[str], None]


class JobQueue(Protocol):
    """What a running job asks of its queue."""

    def newer_exists(self, job: Job) -> bool: ...


class InboxBackend(JobQueue, Protocol):
    """One backend: the record of deliveries, the queue of jobs, and the operators' view."""

    def add(self, delivery_id: str, event: str, action: str, payload: bytes, *, repo: str | None = None,
            pr: int | None = None, head_sha: str | None = None, note: str = "") -> bool: ...
    def work(self, handle: Handler, give_up: GiveUp, *, worker: str, once: bool, stop: threading.Event,
             log: Log) -> int: ...
    def release_orphans(self, host: str, alive: Callable[[int], bool]) -> int: ...
    def list(self) -> list[Delivery]: ...
    def get(self, delivery_id: str) -> Delivery | None: ...
    def redeliver(self, delivery_id: str) -> bool: ...
    def counts(self) -> dict[str, int]: ...
    def migrate(self) -> builtins.list[str]: ...  # `list` is a method name here


def is_database_url(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def backoff_delay(backoff: float, attempts: int, retry_after: float | None) -> float:
    """The wait before attempt ATTEMPTS + 1: doubled per attempt, never shorter than GitHub asked."""
    return max(backoff * 2.0 ** (attempts - 1), retry_after or 0.0)


def retry_after(exc: BaseException) -> float | None:
    """Seconds from a Retry-After header on a PyGithub error (403/429 secondary rate limits)."""
    headers = getattr(exc, "headers", None) or {}
    value = next((v for k, v in headers.items() if str(k).lower() == "retry-after"), None)
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
