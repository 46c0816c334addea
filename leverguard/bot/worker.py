"""The worker: claim a job, fetch, check, report; leases renewed while it runs, retries on failure."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Mapping

from leverguard.bot import events, fetch, github, guards, report, verdict
from leverguard.bot import lease_loop
from leverguard.bot.lease_loop import one_line
from leverguard.bot.queue import Job, JobQueue, Outcome
from leverguard.bot.settings import Settings
from leverguard.errors import ConfigError

__all__ = ["Outcome", "Processor", "environment", "one_line", "pid_alive", "processes", "run", "worker_id"]


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
        from leverguard.session import Session

        with Session(got.path) as session:  # BASE's configuration, read once, reaches every guard
            try:
                config = session.config_at(got.base_sha)
            except ConfigError as exc:
                return verdict.broken_config(exc.message)
            result = verdict.evaluate(session, got.base_sha, got.head_sha, pr_number=pull.number,
                                      pr_text=pull.text, labels=pull.labels, config=config)
            return guards.with_sections(result, session, config, got.base_sha, got.head_sha)

    def give_up(self, job: Job, reason: str) -> str:
        """A job failed for good: say why on the head's check run (never a silent gap), best effort."""
        d = job.delivery
        assert d.repo is not None and d.head_sha is not None
        markdown = (f"### leverguard could not check this pull request\n\n{d.attempts} attempts failed; the last "
                    f"error was:\n\n    {reason}\n\nRe-run this check, or replay the delivery with "
                    f"`leverguard bot redeliver {d.id}`.")
        failed = verdict.Verdict("failure", f"leverguard gave up after {d.attempts} attempts", markdown, (), 0, "",
                                 {"findings": [], "error": reason})
        try:
            target = events.target(json.loads(job.payload), d.repo, d.pr or 0, d.head_sha)
            token = self.client.installation_token(target.repo, target.installation_id)
            run_id = report.upsert_check_run(self.client.repository(target.repo, token), d.head_sha, failed,
                                             self.client.app_id)
        except Exception as exc:  # GitHub may be what keeps failing: the inbox keeps the reason
            return f"the failure could not be reported on the check: {one_line(exc)}"
        return f"reported the failure on check run {run_id}"


def run(queue: lease_loop.ClaimQueue, handle: Processor, *, worker: str, lease_seconds: float, poll_seconds: float,
        once: bool, stop: threading.Event, log: Callable[[str], None]) -> int:
    """The SQLite claim loop driven directly (a backend's `work` is the general entry point)."""
    return lease_loop.run(queue, handle, handle.give_up, worker=worker, lease_seconds=lease_seconds,
                          poll_seconds=poll_seconds, once=once, stop=stop, log=log)


def processes(count: int, body: Callable[[], int]) -> int:
    """Run BODY in COUNT forked worker processes (each its own job at a time: the token is per process
    environment); SIGTERM and SIGINT are passed on, and the worst exit status is returned."""
    if count == 1:
        return body()
    children = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child's exit status is checked by the parent
            code = 3
            try:
                code = body()
            finally:
                os._exit(code)
        children.append(pid)
    def forward(number: int, _frame: object) -> None:
        for pid in children:
            _kill(pid, number)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, forward)
    return max(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children)


def _kill(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass
