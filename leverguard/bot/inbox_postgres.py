"""The PostgreSQL inbox: the bot's deliveries table beside procrastinate's jobs, written in one transaction.

A delivery row is the record (de-duplication by X-GitHub-Delivery, states for `bot inbox`); a
procrastinate job `check(repo, pr)` is the work, deferred (through procrastinate's defer function, in
the same statement as the row: pg_schema) with the PR as both `queueing_lock` (at most one waiting
job per PR: coalescing) and `lock` (one PR's jobs one at a time). The job runs
the PR's newest waiting delivery, so whichever job runs, the newest head is what gets reported.
Only this module and the `pg_*` ones import psycopg and procrastinate (the `bot` extra).
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import psycopg
import psycopg_pool
from procrastinate import exceptions

from leverguard.bot import pg_schema
from leverguard.bot.pg_errors import database_trouble
from leverguard.bot.pg_schema import COLUMNS, QUEUE, TASK
from leverguard.bot.pg_worker import PgWorker, take_over_now
from leverguard.bot.queue import STATES, Delivery, GiveUp, Handler, Job, Log

CONNECT_TIMEOUT = 3.0  # seconds a request waits for a connection: a 503 well inside GitHub's 10 s




class PostgresInbox:
    """Deliveries and jobs on one PostgreSQL database; any number of `serve` and `worker` processes."""

    def __init__(self, url: str, *, lease_seconds: float = 60.0, max_attempts: int = 5,
                 backoff_seconds: float = 30.0, poll_seconds: float = 1.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.url, self.lease, self.max_attempts, self.backoff = url, lease_seconds, max_attempts, backoff_seconds
        self.poll, self.clock = poll_seconds, clock
        self._pool: psycopg_pool.ConnectionPool | None = None
        self._opening = threading.Lock()

    # ------------------------------------------------------------------ connections
    def _open(self) -> psycopg_pool.ConnectionPool:
        """The pool, opened on first use: `serve` starts while the database is down. No minimum size: a
        pool keeps what it used, and never retries a vanished server in the background."""
        with self._opening:
            if self._pool is None:
                self._pool = psycopg_pool.ConnectionPool(
                    self.url, min_size=0, max_size=16, open=False, timeout=CONNECT_TIMEOUT,
                    check=psycopg_pool.ConnectionPool.check_connection,  # a restarted server's dead sessions
                    kwargs={"connect_timeout": int(CONNECT_TIMEOUT), "autocommit": True})
                self._pool.open(wait=False)
            return self._pool

    @contextmanager
    def transaction(self, atomic: bool = True) -> Iterator[psycopg.Connection[Any]]:
        """A connection in one transaction (or, not ATOMIC, for one autocommitted statement); database trouble
        is `DatabaseDown`."""
        pool = self._open()
        try:
            with pool.connection() as conn:
                if atomic:
                    with conn.transaction():
                        yield conn
                else:
                    yield conn
        except (psycopg.Error, psycopg_pool.PoolTimeout, exceptions.ConnectorException) as exc:
            trouble = database_trouble(exc)
            if trouble is None:
                raise
            raise trouble from exc

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def defer(self, conn: psycopg.Connection[Any], repo: str, pr: int, scheduled_at: Any = None) -> None:
        """Queue the PR's job in CONN's transaction (pg_schema's leverguard_queue_pr_v1, on procrastinate's
        defer): a PR that already has a waiting job keeps it, and it runs at once unless SCHEDULED_AT is given."""
        conn.execute("SELECT leverguard_queue_pr_v1(%s, %s, %s, %s, %s)", (repo, pr, scheduled_at, QUEUE, TASK))

    # ------------------------------------------------------------------ receiving
    def add(self, delivery_id: str, event: str, action: str, payload: bytes, *, repo: str | None = None,
            pr: int | None = None, head_sha: str | None = None, note: str = "") -> bool:
        """Store a delivery once and queue its PR's job, in one statement; False for a duplicate."""
        with self.transaction(atomic=False) as conn:
            row = conn.execute("SELECT leverguard_accept_v1(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                               (delivery_id, event, action, repo, pr, head_sha, payload,
                                self.clock(), note, QUEUE, TASK)).fetchone()
        return bool(row and row[0])

    # ------------------------------------------------------------------ workers
    def work(self, handle: Handler, give_up: GiveUp, *, worker: str, once: bool, stop: threading.Event,
             log: Log) -> int:
        return PgWorker(self, handle, give_up, worker=worker, log=log).run(once=once, stop=stop)

    def newer_exists(self, job: Job) -> bool:
        with self.transaction() as conn:
            row = conn.execute("SELECT 1 FROM leverguard_deliveries WHERE repo = %s AND pr = %s AND seq > %s AND"
                               " state IN ('queued', 'running') LIMIT 1",
                               (job.delivery.repo, job.delivery.pr, job.delivery.seq)).fetchone()
        return row is not None

    def release_orphans(self, host: str, alive: Callable[[int], bool]) -> int:
        """Take over at once the jobs of this host's dead workers (a restart), instead of after the lease."""
        with self.transaction() as conn:
            rows = conn.execute("SELECT DISTINCT job_id, worker FROM leverguard_deliveries"
                                " WHERE state = 'running' AND job_id IS NOT NULL").fetchall()
        dead = []
        for job_id, worker in rows:
            worker_host, _, pid = worker.rpartition(":")
            if worker_host == host and pid.isdigit() and not alive(int(pid)):
                dead.append(int(job_id))
        return take_over_now(self.url, dead) if dead else 0

    def migrate(self) -> list[str]:
        with self.transaction() as conn:
            return pg_schema.migrate(conn)

    # ------------------------------------------------------------------ operators
    def list(self) -> list[Delivery]:
        with self.transaction() as conn:
            return [Delivery(*row) for row in conn.execute(f"SELECT {COLUMNS} FROM leverguard_deliveries ORDER BY seq")]

    def get(self, delivery_id: str) -> Delivery | None:
        with self.transaction() as conn:
            row = conn.execute(f"SELECT {COLUMNS} FROM leverguard_deliveries WHERE id = %s", (delivery_id,)).fetchone()
        return Delivery(*row) if row else None

    def redeliver(self, delivery_id: str) -> bool:
        """Queue a stored delivery again from scratch, as the PR's newest; False when unknown or not a job."""
        with self.transaction() as conn:
            row = conn.execute(
                "UPDATE leverguard_deliveries SET state = 'queued', attempts = 0, not_before = 0, lease_until = 0,"
                " worker = '', job_id = NULL, note = 'redelivered', updated = %s,"
                " seq = nextval(pg_get_serial_sequence('leverguard_deliveries', 'seq'))"
                " WHERE id = %s AND pr IS NOT NULL AND state <> 'running' RETURNING repo, pr",
                (self.clock(), delivery_id)).fetchone()
            if row is not None:
                self.defer(conn, row[0], int(row[1]))
        return row is not None

    def counts(self) -> dict[str, int]:
        with self.transaction() as conn:
            rows = dict(conn.execute("SELECT state, count(*) FROM leverguard_deliveries GROUP BY state").fetchall())
        return {state: int(rows.get(state, 0)) for state in STATES}
