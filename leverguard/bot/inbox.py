"""The SQLite inbox: every accepted delivery keyed by X-GitHub-Delivery, claimed by workers under a lease.

One machine, any number of worker processes on it: the default backend. `Inbox(target)` opens
the backend a target names: a file path is this SQLite inbox, a postgresql:// URL the
PostgreSQL backend (`leverguard.bot.inbox_postgres`, procrastinate), same contract
(`leverguard.bot.queue.InboxBackend`).
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import threading
import time
from typing import Any, Callable

from leverguard.bot.queue import (STATES, Delivery, GiveUp, Handler, InboxBackend, Job, JobQueue,
                                  Log, backoff_delay, is_database_url)
from leverguard.bot.lease_loop import run
from leverguard.errors import ConfigError, LeverguardError

__all__ = ["STATES", "Delivery", "Inbox", "InboxBackend", "Job", "JobQueue", "SqliteInbox", "open_inbox", "resolve"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    event TEXT NOT NULL,
    action TEXT NOT NULL,
    repo TEXT,
    pr INTEGER,
    head_sha TEXT,
    payload BLOB NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before REAL NOT NULL DEFAULT 0,
    lease_until REAL NOT NULL DEFAULT 0,
    worker TEXT NOT NULL DEFAULT '',
    received REAL NOT NULL,
    updated REAL NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS deliveries_state ON deliveries(state, not_before);
CREATE INDEX IF NOT EXISTS deliveries_pr ON deliveries(repo, pr, state);
"""

COLUMNS = "seq, id, event, action, repo, pr, head_sha, state, attempts, not_before, lease_until, worker, received, updated, note"


def Inbox(target: str, **options: Any) -> InboxBackend:  # noqa: N802 - the name every caller already uses
    """The backend TARGET names: a postgresql:// URL or a SQLite file path."""
    if is_database_url(target):
        try:
            from leverguard.bot.inbox_postgres import PostgresInbox
        except ImportError as exc:
            raise LeverguardError(f"the PostgreSQL backend needs procrastinate and psycopg ({exc}): "
                                  "pip install 'leverguard[bot]'") from exc
        return PostgresInbox(target, **options)
    return SqliteInbox(target, **options)


def resolve(settings: Any) -> Any:
    """Settings whose `db` names the backend: `database_url` (PostgreSQL) wins over the SQLite path."""
    url = settings.database_url
    if not url:
        return settings
    if not is_database_url(url):
        raise ConfigError(f"database_url {url.split('@')[-1]!r} is not a postgresql:// URL: use "
                          "postgresql://USER:PASSWORD@HOST:5432/DATABASE, or unset it for the SQLite inbox")
    return dataclasses.replace(settings, db=url)


def open_inbox(settings: Any) -> InboxBackend:
    """The backend the settings select, with their lease, attempts, back-off and polling."""
    chosen = resolve(settings)
    return Inbox(chosen.db, lease_seconds=chosen.lease_seconds, max_attempts=chosen.max_attempts,
                 backoff_seconds=chosen.backoff_seconds, poll_seconds=chosen.poll_seconds)


class SqliteInbox:
    """The SQLite deliveries table; one connection per process and thread, WAL, short transactions."""

    def __init__(self, path: str, *, lease_seconds: float = 60.0, max_attempts: int = 5,
                 backoff_seconds: float = 30.0, poll_seconds: float = 1.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.path, self.lease, self.max_attempts, self.backoff = path, lease_seconds, max_attempts, backoff_seconds
        self.poll = poll_seconds
        self.clock = clock
        self._local = threading.local()
        # One writer per process at a time: threads queue on this lock instead of in SQLite's
        # busy handler, which sleeps in steps of up to 100 ms (the ack latency's long tail).
        self._write = threading.Lock()
        try:
            with self._connect() as db:
                db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise LeverguardError(f"cannot open the inbox database {path} ({exc}): set LEVERGUARD_DB to a "
                                  "writable file path") from exc

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a crashed process, not a power cut
        return db

    def _db(self) -> sqlite3.Connection:
        # Keyed by pid too: gunicorn forks after create_app, and a connection must not cross a fork.
        if getattr(self._local, "pid", None) != os.getpid():
            self._local.db, self._local.pid = self._connect(), os.getpid()
        return self._local.db  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ receiving
    def add(self, delivery_id: str, event: str, action: str, payload: bytes, *, repo: str | None = None,
            pr: int | None = None, head_sha: str | None = None, note: str = "") -> bool:
        """Store a delivery once; False when this X-GitHub-Delivery is already stored."""
        now = self.clock()
        state = "queued" if pr is not None else "done"
        with self._write:  # sqlite3.OperationalError (locked, full) is the webhook's 503, like InboxUnavailable
            cursor = self._db().execute(
                "INSERT OR IGNORE INTO deliveries (id, event, action, repo, pr, head_sha, payload, state, received,"
                " updated, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (delivery_id, event, action, repo, pr, head_sha, payload, state, now, now, note))
        return cursor.rowcount == 1

    # ------------------------------------------------------------------ claiming
    def claim(self, worker: str) -> Job | None:
        """The next runnable job, coalesced: older queued rows of the same PR become superseded."""
        db, now = self._db(), self.clock()
        db.execute("BEGIN IMMEDIATE")
        try:
            job = self._claim_locked(db, worker, now)
            db.execute("COMMIT")
            return job
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _claim_locked(self, db: sqlite3.Connection, worker: str, now: float) -> Job | None:
        for _ in range(100):  # each pass settles one PR; bounded so a bug cannot spin forever
            row = db.execute(
                "SELECT seq, repo, pr FROM deliveries d WHERE"
                " ((state = 'queued' AND not_before <= ?) OR (state = 'running' AND lease_until < ?))"
                " AND NOT EXISTS (SELECT 1 FROM deliveries r WHERE r.repo = d.repo AND r.pr = d.pr"
                "   AND r.state = 'running' AND r.lease_until >= ? AND r.seq <> d.seq)"
                " ORDER BY seq LIMIT 1", (now, now, now)).fetchone()
            if row is None:
                return None
            seq = self._coalesce(db, row[1], row[2], now)  # the PR's oldest waiting row sets its turn
            attempts, state, not_before = db.execute(
                "SELECT attempts, state, not_before FROM deliveries WHERE seq = ?", (seq,)).fetchone()
            if state == "queued" and not_before > now:
                continue  # the newest is a retry still backing off
            if state == "running" and attempts >= self.max_attempts:
                self._set(db, seq, "failed", f"the worker died during each of {attempts} attempts", now)
                continue
            db.execute("UPDATE deliveries SET state = 'running', attempts = attempts + 1, lease_until = ?,"
                       " worker = ?, updated = ? WHERE seq = ?", (now + self.lease, worker, now, seq))
            return self._job(db, seq)
        return None

    def _coalesce(self, db: sqlite3.Connection, repo: str, pr: int, now: float) -> int:
        """Supersede every waiting row of the PR but the newest; the newest's seq."""
        newest = db.execute("SELECT max(seq) FROM deliveries WHERE repo = ? AND pr = ? AND"
                            " (state = 'queued' OR (state = 'running' AND lease_until < ?))",
                            (repo, pr, now)).fetchone()[0]
        newest_id = db.execute("SELECT id FROM deliveries WHERE seq = ?", (newest,)).fetchone()[0]
        db.execute("UPDATE deliveries SET state = 'superseded', note = ?, updated = ? WHERE repo = ? AND pr = ?"
                   " AND seq < ? AND (state = 'queued' OR (state = 'running' AND lease_until < ?))",
                   (f"superseded by {newest_id}", now, repo, pr, newest, now))
        return int(newest)

    def _job(self, db: sqlite3.Connection, seq: int) -> Job:
        row = db.execute(f"SELECT {COLUMNS}, payload FROM deliveries WHERE seq = ?", (seq,)).fetchone()
        return Job(Delivery(*row[:-1]), bytes(row[-1]))

    def _set(self, db: sqlite3.Connection, seq: int, state: str, note: str, now: float) -> None:
        db.execute("UPDATE deliveries SET state = ?, note = ?, updated = ?, lease_until = 0 WHERE seq = ?",
                   (state, note, now, seq))

    # ------------------------------------------------------------------ while and after running
    def renew(self, job: Job, worker: str) -> bool:
        """Extend the lease; False when the job is no longer this worker's."""
        now = self.clock()
        cursor = self._db().execute(
            "UPDATE deliveries SET lease_until = ? WHERE seq = ? AND state = 'running' AND worker = ?",
            (now + self.lease, job.delivery.seq, worker))
        return cursor.rowcount == 1

    def finish(self, job: Job, worker: str, state: str, note: str) -> bool:
        """Record the end of a job (done or superseded), only while this worker holds it."""
        assert state in ("done", "superseded", "failed"), state
        cursor = self._db().execute(
            "UPDATE deliveries SET state = ?, note = ?, updated = ?, lease_until = 0"
            " WHERE seq = ? AND state = 'running' AND worker = ?",
            (state, note, self.clock(), job.delivery.seq, worker))
        return cursor.rowcount == 1

    def retry(self, job: Job, worker: str, error: str, retry_after: float | None = None) -> str:
        """Queue the job again after a back-off doubling per attempt, or mark it failed; the new state."""
        attempts = job.delivery.attempts
        if attempts >= self.max_attempts:
            self.finish(job, worker, "failed", f"failed after {attempts} attempts: {error}")
            return "failed"
        delay = backoff_delay(self.backoff, attempts, retry_after)
        self._db().execute(
            "UPDATE deliveries SET state = 'queued', not_before = ?, note = ?, updated = ?, lease_until = 0"
            " WHERE seq = ? AND state = 'running' AND worker = ?",
            (self.clock() + delay, f"attempt {attempts} failed, retry in {delay:g}s: {error}", self.clock(),
             job.delivery.seq, worker))
        return "queued"

    def newer_exists(self, job: Job) -> bool:
        """A later delivery for the same PR is waiting: this job's report would be stale."""
        row = self._db().execute(
            "SELECT 1 FROM deliveries WHERE repo = ? AND pr = ? AND seq > ? AND state IN ('queued', 'running')",
            (job.delivery.repo, job.delivery.pr, job.delivery.seq)).fetchone()
        return row is not None

    def release_orphans(self, host: str, alive: Callable[[int], bool]) -> int:
        """End the leases of jobs held by dead workers of this host, so they run at once."""
        released = 0
        for seq, worker in self._db().execute("SELECT seq, worker FROM deliveries WHERE state = 'running'").fetchall():
            worker_host, _, pid = worker.rpartition(":")
            if worker_host == host and pid.isdigit() and not alive(int(pid)):
                self._db().execute("UPDATE deliveries SET lease_until = 0 WHERE seq = ? AND state = 'running'", (seq,))
                released += 1
        return released

    def work(self, handle: Handler, give_up: GiveUp, *, worker: str, once: bool, stop: threading.Event,
             log: Log) -> int:
        """This process's worker loop: claim, run under a renewed lease, finish or retry."""
        return run(self, handle, give_up, worker=worker, lease_seconds=self.lease, poll_seconds=self.poll,
                   once=once, stop=stop, log=log)

    def migrate(self) -> list[str]:
        return [f"{self.path}: the SQLite inbox schema is current (created on first use)"]

    # ------------------------------------------------------------------ operators
    def list(self) -> list[Delivery]:
        return [Delivery(*row) for row in self._db().execute(f"SELECT {COLUMNS} FROM deliveries ORDER BY seq")]

    def get(self, delivery_id: str) -> Delivery | None:
        row = self._db().execute(f"SELECT {COLUMNS} FROM deliveries WHERE id = ?", (delivery_id,)).fetchone()
        return Delivery(*row) if row else None

    def redeliver(self, delivery_id: str) -> bool:
        """Queue a stored delivery again from scratch; False when it is unknown or not a job."""
        cursor = self._db().execute(
            "UPDATE deliveries SET state = 'queued', attempts = 0, not_before = 0, lease_until = 0, worker = '',"
            " note = 'redelivered', updated = ?, seq = (SELECT max(seq) + 1 FROM deliveries)"
            " WHERE id = ? AND pr IS NOT NULL AND state <> 'running'", (self.clock(), delivery_id))
        return cursor.rowcount == 1

    def counts(self) -> dict[str, int]:
        rows = self._db().execute("SELECT state, count(*) FROM deliveries GROUP BY state").fetchall()
        return {state: dict(rows).get(state, 0) for state in STATES}
