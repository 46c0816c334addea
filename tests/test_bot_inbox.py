"""The SQLite inbox: de-duplication, leases, coalescing, retries with back-off, redelivery."""

from __future__ import annotations

from pathlib import Path

import pytest

from leverguard.bot.inbox import Inbox


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def inbox(tmp_path: Path, clock: Clock) -> Inbox:
    return Inbox(str(tmp_path / "inbox.sqlite3"), lease_seconds=60, max_attempts=3, backoff_seconds=10, clock=clock)


def add(inbox: Inbox, delivery: str, pr: int = 1, head: str = "h1", repo: str = "a/b") -> bool:
    return inbox.add(delivery, "pull_request", "synchronize", b"{}", repo=repo, pr=pr, head_sha=head)


def states(inbox: Inbox) -> dict[str, str]:
    return {d.id: d.state for d in inbox.list()}


def test_a_delivery_is_stored_once(inbox: Inbox) -> None:
    assert add(inbox, "d1") and not add(inbox, "d1")
    assert states(inbox) == {"d1": "queued"}


def test_the_database_is_in_wal_mode(inbox: Inbox) -> None:
    import sqlite3

    assert sqlite3.connect(inbox.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_claim_coalesces_to_the_newest_delivery_of_a_pr(inbox: Inbox) -> None:
    add(inbox, "d1", head="h1")
    add(inbox, "other", pr=2)
    add(inbox, "d2", head="h2")
    add(inbox, "d3", head="h3")
    job = inbox.claim("w:1")
    assert job is not None and job.delivery.id == "d3" and job.delivery.head_sha == "h3"
    assert states(inbox) == {"d1": "superseded", "other": "queued", "d2": "superseded", "d3": "running"}
    assert inbox.get("d1").note == "superseded by d3"  # type: ignore[union-attr]


def test_one_pr_never_runs_twice_at_once(inbox: Inbox) -> None:
    add(inbox, "d1")
    first = inbox.claim("w:1")
    add(inbox, "d2")
    assert inbox.claim("w:2") is None  # d2 waits for the running job of the same PR
    assert first is not None and inbox.newer_exists(first)
    assert inbox.finish(first, "w:1", "superseded", "newer waiting")
    second = inbox.claim("w:2")
    assert second is not None and second.delivery.id == "d2"


def test_an_expired_lease_is_claimed_again(inbox: Inbox, clock: Clock) -> None:
    add(inbox, "d1")
    job = inbox.claim("w:1")
    assert job is not None and inbox.claim("w:2") is None
    clock.now += 30
    assert inbox.renew(job, "w:1")
    clock.now += 59
    assert inbox.claim("w:2") is None  # the renewal moved the lease
    clock.now += 2
    again = inbox.claim("w:2")
    assert again is not None and again.delivery.attempts == 2
    assert not inbox.finish(job, "w:1", "done", "late")  # the old holder lost it
    assert inbox.finish(again, "w:2", "done", "ok") and states(inbox) == {"d1": "done"}


def test_orphans_of_dead_workers_on_this_host_are_released_at_once(inbox: Inbox) -> None:
    add(inbox, "d1", pr=1)
    add(inbox, "d2", pr=2)
    add(inbox, "d3", pr=3)
    inbox.claim("here:111")
    inbox.claim("here:222")
    inbox.claim("elsewhere:111")
    assert inbox.release_orphans("here", alive=lambda pid: pid == 222) == 1
    job = inbox.claim("here:333")
    assert job is not None and job.delivery.id == "d1"
    assert inbox.claim("here:333") is None


def test_retry_backs_off_doubling_then_fails(inbox: Inbox, clock: Clock) -> None:
    add(inbox, "d1")
    job = inbox.claim("w:1")
    assert job is not None and inbox.retry(job, "w:1", "boom") == "queued"
    assert inbox.claim("w:1") is None
    clock.now += 10
    job = inbox.claim("w:1")
    assert job is not None and inbox.retry(job, "w:1", "boom") == "queued"
    clock.now += 19
    assert inbox.claim("w:1") is None
    clock.now += 1
    job = inbox.claim("w:1")
    assert job is not None and inbox.retry(job, "w:1", "boom again") == "failed"
    row = inbox.get("d1")
    assert row is not None and (row.state, row.attempts) == ("failed", 3) and "boom again" in row.note
    assert inbox.claim("w:1") is None


def test_a_job_whose_worker_keeps_dying_is_failed(inbox: Inbox, clock: Clock) -> None:
    add(inbox, "d1")
    for _ in range(3):
        assert inbox.claim("w:1") is not None
        clock.now += 61
    assert inbox.claim("w:1") is None
    assert states(inbox) == {"d1": "failed"}


def test_redeliver_replays_a_failed_job(inbox: Inbox, clock: Clock) -> None:
    add(inbox, "d1")
    inbox.add("ign", "issues", "opened", b"{}")
    for _ in range(3):
        job = inbox.claim("w:1")
        assert job is not None
        inbox.retry(job, "w:1", "boom")
        clock.now += 100
    assert states(inbox)["d1"] == "failed"
    assert inbox.redeliver("d1") and not inbox.redeliver("ign") and not inbox.redeliver("nope")
    job = inbox.claim("w:1")
    assert job is not None and job.delivery.attempts == 1


def test_counts(inbox: Inbox) -> None:
    add(inbox, "d1")
    inbox.add("ign", "issues", "opened", b"{}")
    assert inbox.counts() == {"queued": 1, "running": 0, "done": 1, "failed": 0, "superseded": 0}


def test_retry_waits_at_least_what_retry_after_asked(inbox: Inbox, clock: Clock) -> None:
    add(inbox, "d1")
    job = inbox.claim("w:1")
    assert job is not None and inbox.retry(job, "w:1", "403 secondary rate limit", retry_after=25) == "queued"
    clock.now += 24  # the back-off alone (10 s) has passed
    assert inbox.claim("w:1") is None
    clock.now += 1
    assert inbox.claim("w:1") is not None


def test_retry_after_is_read_from_a_pygithub_error() -> None:
    from github import GithubException

    from leverguard.bot.queue import backoff_delay, retry_after

    assert retry_after(GithubException(403, {}, {"retry-after": "7"})) == 7.0
    assert retry_after(GithubException(502, {}, {})) is None and retry_after(ValueError("x")) is None
    assert backoff_delay(10, 3, None) == 40 and backoff_delay(10, 1, 25.0) == 25

