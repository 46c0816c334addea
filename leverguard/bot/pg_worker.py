"""The PostgreSQL backend's worker: procrastinate runs `check(repo, pr)` jobs, each of which runs the PR's
newest waiting delivery; a sweep takes over the jobs of dead workers and re-queues waiting rows that
lost their job. The worker reconnects by itself when the database goes away."""

from __future__ import annotations

import asyncio
import datetime
import threading
from typing import Any, Callable, ContextManager, Iterable, Protocol

import psycopg

from procrastinate import App, PsycopgConnector, exceptions, utils
from procrastinate.jobs import Status
from procrastinate.worker import Worker

from leverguard.bot.pg_errors import DatabaseDown, database_trouble
from leverguard.bot.pg_schema import COLUMNS, QUEUE, TASK, pr_key
from leverguard.bot.lease_loop import one_line
from leverguard.bot.queue import Delivery, GiveUp, Handler, Job, Log, backoff_delay, retry_after



class JobStore(Protocol):
    """What the worker needs of the PostgreSQL inbox (`inbox_postgres.PostgresInbox`): its settings,
    its transactions and its way of deferring a PR's job."""

    url: str
    lease: float
    poll: float
    backoff: float
    max_attempts: int
    clock: Callable[[], float]

    def transaction(self, atomic: bool = True) -> ContextManager[psycopg.Connection[Any]]: ...

    def defer(self, conn: psycopg.Connection[Any], repo: str, pr: int, scheduled_at: Any = None) -> None: ...


# Waiting rows whose PR has no waiting or running job (a job that failed to record its outcome).
LOST_ROWS = """
SELECT DISTINCT d.repo, d.pr FROM leverguard_deliveries d
 WHERE d.state IN ('queued', 'running') AND d.pr IS NOT NULL AND NOT EXISTS (
   SELECT 1 FROM procrastinate_jobs j WHERE j.queueing_lock = d.repo || '#' || d.pr AND j.status IN ('todo', 'doing'))
"""


def _app(url: str) -> App:
    return App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=4, kwargs={"connect_timeout": 3}))


async def _take_over(app: App, job_id: int) -> bool:
    """Put a dead worker's job back in the queue, or end it when the PR already has a waiting job (that
    job holds the queueing lock and runs the PR's newest delivery, this one's included)."""
    if await app.job_manager.get_job_status_async(job_id) != Status.DOING:
        return False
    try:
        await app.job_manager.retry_job_by_id_async(job_id, retry_at=utils.utcnow())
    except exceptions.ConnectorException:
        await app.job_manager.finish_job_by_id_async(job_id, status=Status.FAILED, delete_job=False)
    return True


def take_over_now(url: str, job_ids: Iterable[int]) -> int:
    async def main() -> int:
        app = _app(url)
        async with app.open_async():
            return sum([await _take_over(app, job_id) for job_id in job_ids])

    return asyncio.run(main())


class PgWorker:
    """One worker process: a procrastinate worker (one job at a time) plus the sweep, restarted on database loss."""

    def __init__(self, inbox: JobStore, handle: Handler, give_up: GiveUp, *, worker: str, log: Log) -> None:
        self.inbox, self.handle, self.give_up, self.worker, self.log = inbox, handle, give_up, worker, log
        self.processed = 0
        self._procrastinate: Worker | None = None

    def run(self, *, once: bool, stop: threading.Event) -> int:
        passes = 2 if once else 0  # --once: a job taken over just now (scheduled "now" by Python's clock)
        while not stop.is_set():
            try:
                asyncio.run(self._main(once, stop))
            except Exception as exc:
                trouble = database_trouble(exc)
                if trouble is None or once:
                    raise trouble or exc
                self.log(f"{trouble.message}; reconnecting in {self.inbox.poll:g}s")
            if once:
                passes -= 1
                if self.processed or not passes:  # may be invisible to a fetch in the same millisecond: look twice
                    break
                stop.wait(min(self.inbox.poll, 0.5))
                continue
            if not stop.is_set():  # procrastinate stops its worker when a side task (heartbeat, LISTEN) fails
                self.log(f"the queue's connection was lost; reconnecting in {self.inbox.poll:g}s")
            stop.wait(self.inbox.poll)
        return self.processed

    async def _main(self, once: bool, stop: threading.Event) -> None:
        app = _app(self.inbox.url)
        app.task(name=TASK, queue=QUEUE, pass_context=True)(self._check)
        lease = self.inbox.lease
        async with app.open_async():
            await self._sweep(app)
            self._procrastinate = Worker(app, queues=[QUEUE], name=self.worker, concurrency=1, wait=not once,
                                         fetch_job_polling_interval=self.inbox.poll, listen_notify=True,
                                         install_signal_handlers=False, update_heartbeat_interval=lease / 3,
                                         stalled_worker_timeout=lease)
            running = asyncio.create_task(self._procrastinate.run())  # type: ignore[no-untyped-call]
            while not running.done():
                await asyncio.wait({running}, timeout=min(lease / 3, 1.0))
                if stop.is_set():
                    self._procrastinate.stop()  # type: ignore[no-untyped-call]  # finishes the current job first
                elif not running.done():
                    await self._sweep(app)
            running.result()

    # ------------------------------------------------------------------ the sweep
    async def _sweep(self, app: App) -> None:
        """Take over the jobs of workers whose heartbeat stopped for a lease, this worker's own jobs that
        procrastinate could not mark finished, and queue a job for any waiting row that lost its job."""
        stalled = await app.job_manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=self.inbox.lease)
        for job in stalled:
            if job.id is not None and await _take_over(app, job.id):
                self.log(f"took over job {job.id} ({job.lock}) of a worker whose heartbeat stopped")
        for job_id in await self._own_unfinished(app):
            await _take_over(app, job_id)
        await asyncio.to_thread(self._requeue_lost)

    async def _own_unfinished(self, app: App) -> list[int]:
        worker = self._procrastinate
        if worker is None or worker.worker_id is None:
            return []
        rows = await app.connector.execute_query_all_async(
            "SELECT id FROM procrastinate_jobs WHERE status = 'doing' AND worker_id = %(worker)s",
            worker=worker.worker_id)
        # procrastinate's own bookkeeping of the jobs it is running (no public accessor): a 'doing' job of
        # this worker that it no longer runs had its outcome lost in a database outage.
        running = {context.job.id for context in worker._running_jobs.values()}
        return [row["id"] for row in rows if row["id"] not in running]

    def _requeue_lost(self) -> None:
        with self.inbox.transaction() as conn:
            for repo, pr in conn.execute(LOST_ROWS).fetchall():
                self.inbox.defer(conn, repo, int(pr))
                self.log(f"{pr_key(repo, int(pr))}: queued again (its job ended without recording the outcome)")

    # ------------------------------------------------------------------ one job
    def _check(self, context: Any, repo: str, pr: int) -> None:
        """procrastinate's task: run the PR's newest waiting delivery, record its outcome."""
        job_id = int(context.job.id)
        taken = self._take(repo, pr, job_id)
        if taken is None:
            return
        d = taken.delivery
        try:
            outcome = self.handle(taken)
        except DatabaseDown:
            raise
        except Exception as exc:  # retried with back-off through a scheduled job, then failed
            state = self._attempt_failed(taken, job_id, exc)
            self.log(f"{d.id} {d.repo}#{d.pr}: {state}: {one_line(exc)}")
            if state == "failed":
                self.log(f"{d.id} {d.repo}#{d.pr}: {self.give_up(taken, one_line(exc))}")
        else:
            self._finish(taken, job_id, outcome.state, outcome.note)
            self.log(f"{d.id} {d.repo}#{d.pr}: {outcome.state}: {outcome.note}")
        self.processed += 1

    def _take(self, repo: str, pr: int, job_id: int) -> Job | None:
        """Coalesce the PR's waiting rows to the newest and mark it running under this job. Rows left
        'running' are orphans: procrastinate's lock lets only this job of the PR run now."""
        now = self.inbox.clock()
        with self.inbox.transaction() as conn:
            rows = conn.execute("SELECT seq, id, state, attempts FROM leverguard_deliveries WHERE repo = %s AND"
                                " pr = %s AND state IN ('queued', 'running') ORDER BY seq FOR UPDATE",
                                (repo, pr)).fetchall()
            if not rows:
                return None
            *older, (seq, newest_id, state, attempts) = rows
            conn.execute("UPDATE leverguard_deliveries SET state = 'superseded', note = %s, updated = %s"
                         " WHERE seq = ANY(%s)", (f"superseded by {newest_id}", now, [row[0] for row in older]))
            if state == "running" and attempts >= self.inbox.max_attempts:
                conn.execute("UPDATE leverguard_deliveries SET state = 'failed', note = %s, updated = %s"
                             " WHERE seq = %s", (f"the worker died during each of {attempts} attempts", now, seq))
                return None
            row = conn.execute(f"UPDATE leverguard_deliveries SET state = 'running', attempts = attempts + 1,"
                               f" worker = %s, job_id = %s, updated = %s WHERE seq = %s RETURNING {COLUMNS}, payload",
                               (self.worker, job_id, now, seq)).fetchone()
        if row is None:  # the delivery went away under us (an operator purge): nothing to run
            return None
        return Job(Delivery(*row[:-1]), bytes(row[-1]))

    def _finish(self, job: Job, job_id: int, state: str, note: str) -> bool:
        with self.inbox.transaction() as conn:
            cursor = conn.execute("UPDATE leverguard_deliveries SET state = %s, note = %s, updated = %s"
                                  " WHERE seq = %s AND state = 'running' AND job_id = %s",
                                  (state, note, self.inbox.clock(), job.delivery.seq, job_id))
        return cursor.rowcount == 1

    def _attempt_failed(self, job: Job, job_id: int, exc: Exception) -> str:
        """Queue the delivery again after the back-off (a scheduled job of the PR), or fail it for good."""
        attempts, error = job.delivery.attempts, one_line(exc)
        if attempts >= self.inbox.max_attempts:
            self._finish(job, job_id, "failed", f"failed after {attempts} attempts: {error}")
            return "failed"
        delay = backoff_delay(self.inbox.backoff, attempts, retry_after(exc))
        now = self.inbox.clock()
        with self.inbox.transaction() as conn:
            conn.execute("UPDATE leverguard_deliveries SET state = 'queued', not_before = %s, note = %s, updated = %s"
                         " WHERE seq = %s AND state = 'running' AND job_id = %s",
                         (now + delay, f"attempt {attempts} failed, retry in {delay:g}s: {error}", now,
                          job.delivery.seq, job_id))
            self.inbox.defer(conn, str(job.delivery.repo), int(job.delivery.pr or 0),
                             scheduled_at=utils.utcnow() + _seconds(delay))
        return "queued"


def _seconds(value: float) -> datetime.timedelta:
    return datetime.timedelta(seconds=value)
