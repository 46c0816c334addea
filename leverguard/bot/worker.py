"""The worker: claim a job, fetch, check, report; leases renewed while it runs, retries on failure."""

from __future__ import annotations

import json
import os
import socket
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from leverguard.bot import events, fetch, github, guards, report, verdict
from leverguard.bot.inbox import Job, JobQueue
from leverguard.bot.settings import Settings
from leverguard.errors import ConfigError


@dataclass(frozen=True)
class Outcome:
    state: str  # done or superseded
    note: str


def worker_id() -> str:
    """HOST:PID: lets a starting worker tell its dead predecessors' jobs from live ones."""
    return f"{socket.gethostname()}:{os.getpid()}"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def environment(extra: Mapping[str, str]) -> Iterator[None]:
    """Give git children the token for lazy blob fetches; one job per process, restored after."""
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Processor:
    """Turns one claimed delivery into one engine call and one report."""

    def __init__(self, settings: Settings, client: github.AppClient, queue: JobQueue,
                 environ: Mapping[str, str]) -> None:
        self.settings, self.client, self.queue, self.environ = settings, client, queue, dict(environ)

    def __call__(self, job: Job) -> Outcome:
        d = job.delivery
        assert d.repo is not None and d.pr is not None and d.head_sha is not None
        target = events.target(json.loads(job.payload), d.repo, d.pr, d.head_sha)
        token = self.client.installation_token(target.repo, target.installation_id)  # fresh for each fetch
        repo = self.client.repository(target.repo, token)
        pull = github.pull_info(repo, target.pr)
        if pull.state != "open":
            return Outcome("done", "the pull request is closed")
        if pull.head_sha != target.head_sha:
            return Outcome("superseded", f"the pull request's head moved to {pull.head_sha[:12]}")
        auth = fetch.auth_env(token)
        got = fetch.fetch_pull(self.settings, target.repo, pull.base_ref, pull.number,  # never the payload's URL
                               {**self.environ, **auth})
        if got.head_sha != target.head_sha:
            return Outcome("superseded", f"fetched head {got.head_sha[:12]} is not the payload's {target.head_sha[:12]}")
        with environment(auth):  # the engine's git calls fetch the blobs they read from the promisor remote
            result = self._evaluate(got, pull)
        if self.queue.newer_exists(job):
            return Outcome("superseded", "a newer delivery for this pull request is waiting")
        published = report.publish(repo, pull.number, got.head_sha, result, bot_login=self.client.bot_login(),
                                   app_id=self.client.app_id)
        return Outcome("done", f"{result.conclusion}: {published.note()}")

    def _evaluate(self, got: fetch.Fetched, pull: github.PullInfo) -> verdict.Verdict:
        try:
            config = verdict.config_at(got.path, got.base_sha)
        except ConfigError as exc:
            return verdict.broken_config(exc.message)
        result = verdict.evaluate(got.path, got.base_sha, got.head_sha, pr_number=pull.number, pr_text=pull.text,
                                  labels=pull.labels, config=config)
        return guards.with_sections(result, got.path, config, got.base_sha, got.head_sha)


class _Heartbeat:
    """Renews the lease every third of its length while a job runs."""

    def __init__(self, queue: JobQueue, job: Job, worker: str, interval: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, args=(queue, job, worker, interval), daemon=True)

    def _beat(self, queue: JobQueue, job: Job, worker: str, interval: float) -> None:
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


def run(queue: JobQueue, handle: Callable[[Job], Outcome], *, worker: str, lease_seconds: float,
        poll_seconds: float, once: bool, stop: threading.Event, log: Callable[[str], None]) -> int:
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
                log(f"{d.id} {d.repo}#{d.pr}: {queue.retry(job, worker, one_line(exc))}: {one_line(exc)}")
            else:
                queue.finish(job, worker, outcome.state, outcome.note)
                log(f"{d.id} {d.repo}#{d.pr}: {outcome.state}: {outcome.note}")
        processed += 1
    return processed
