"""The SQLite worker loop: claim a job, run it under a lease renewed every third of its length, then
finish it or retry it with back-off (procrastinate runs the PostgreSQL backend's jobs instead)."""

from __future__ import annotations

import threading
from typing import Protocol

from leverguard.bot.queue import GiveUp, Handler, Job, Log, retry_after


class ClaimQueue(Protocol):
    def claim(self, worker: str) -> Job | None: ...
    def renew(self, job: Job, worker: str) -> bool: ...
    def finish(self, job: Job, worker: str, state: str, note: str) -> bool: ...
    def retry(self, job: Job, worker: str, error: str, retry_after: float | None = None) -> str: ...


class _Heartbeat:
    """Renews the lease every third of its length while a job runs."""

    def __init__(self, queue: ClaimQueue, job: Job, worker: str, interval: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, args=(queue, job, worker, interval), daemon=True)

    def _beat(self, queue: ClaimQueue, job: Job, worker: str, interval: float) -> None:
        while not self._stop.wait(interval):
            queue.renew(job, worker)

    def __enter__(self) -> None:
        self._thread.start()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:500]


def run(queue: ClaimQueue, handle: Handler, give_up: GiveUp, *, worker: str, lease_seconds: float,
        poll_seconds: float, once: bool, stop: threading.Event, log: Log) -> int:
    """Process jobs until STOP is set (or, with ONCE, until nothing is runnable); the number processed."""
    processed = 0
    while not stop.is_set():
        job = queue.claim(worker)
        if job is None:
            if once:
                break
            stop.wait(poll_seconds)
            continue
        d = job.delivery
        with _Heartbeat(queue, job, worker, lease_seconds / 3):
            try:
                outcome = handle(job)
            except Exception as exc:  # any failure is retried with back-off, then marked failed
                state = queue.retry(job, worker, one_line(exc), retry_after(exc))
                log(f"{d.id} {d.repo}#{d.pr}: {state}: {one_line(exc)}")
                if state == "failed":
                    log(f"{d.id} {d.repo}#{d.pr}: {give_up(job, one_line(exc))}")
            else:
                queue.finish(job, worker, outcome.state, outcome.note)
                log(f"{d.id} {d.repo}#{d.pr}: {outcome.state}: {outcome.note}")
        processed += 1
    return processed
