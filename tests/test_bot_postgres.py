"""The PostgreSQL backend (issue #13) on a real server: migrate, 503 while the database is away, a killed
worker's job taken over after the lease, three workers on 200 deliveries, and the server restarted mid-run."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest
from bot_helpers import (OWNER_REPO, LiveServer, World, clean_pr, free_port, healthy, leverguard_process, make_world,
                         post, publish_pull, pull_payload, serve_bare, stale_pr, story_221, wait_until)
from conftest import run_leverguard
from github_standin import Fault

import pg_helpers
from leverguard.bot.app import create_app
from leverguard.bot.inbox import Inbox


@pytest.fixture
def world(tmp_path: Path, pg_url: str) -> Iterator[World]:
    w = make_world(tmp_path, db=pg_url, database_url=pg_url)
    w.env.update(LEVERGUARD_DATABASE_URL=pg_url, LEVERGUARD_DB=str(tmp_path / "never.sqlite3"))
    yield w
    w.standin.stop()
    assert not (tmp_path / "never.sqlite3").exists()


class Upstream:
    """The scenario repository served as the PR's base repository, and PRs opened on the stand-in."""

    def __init__(self, world: World, repo: Any) -> None:
        self.world, self.repo = world, repo
        self.bare = world.tmp / "upstream.git"
        self.before = story_221(repo, files=3)
        self.clone_url = serve_bare(repo.path, self.bare)
        world.standin.add_repo(OWNER_REPO, str(self.bare))

    def open(self, number: int, stale: bool, tag: str) -> str:
        branch = f"pr{number}"
        rev = stale_pr(self.repo, self.before, files=3, branch=branch) if stale else clean_pr(self.repo, branch, tag)
        head = publish_pull(self.repo.path, self.bare, number, rev)
        pulls = self.world.standin.repos[OWNER_REPO].pulls
        if number in pulls:
            pulls[number]["head_sha"] = head
        else:
            self.world.standin.add_pull(OWNER_REPO, number, base_ref="main", head_sha=head)
        return head

    def payload(self, number: int, head: str) -> dict[str, Any]:
        return pull_payload("synchronize", number, head, self.clone_url)


def send_until_accepted(url: str, payload: dict[str, Any], delivery: str, timeout: float = 60.0) -> int:
    """Deliver like GitHub: a 503 (or no answer) is delivered again, with the same delivery id."""
    deadline, answers = time.monotonic() + timeout, 0
    while True:
        try:
            status = post(url + "/webhook", payload, delivery=delivery)[0]
        except OSError:
            status = 0
        answers += 1
        if status == 202 or time.monotonic() > deadline:
            return status
        assert status in (0, 503), status
        time.sleep(0.1)


def reported_once_per_head(world: World, heads: dict[int, list[str]], stale: set[int]) -> None:
    """Each PR's newest head has exactly one check run, created by one POST; older heads at most one;
    a stale PR has exactly one comment and a clean PR none."""
    for number, pushed in heads.items():
        newest = pushed[-1]
        runs = world.standin.runs(OWNER_REPO, newest)
        assert len(runs) == 1, (number, runs)
        assert runs[0]["conclusion"] == ("failure" if number in stale else "success")
        for older in pushed[:-1]:
            assert len(world.standin.runs(OWNER_REPO, older)) <= 1
        assert len(world.standin.comments(OWNER_REPO, number)) == (1 if number in stale else 0)
    creations = world.standin.requests("POST", r"/check-runs$")
    assert len(creations) == len({r["head_sha"] for r in world.standin.runs(OWNER_REPO)})


def server_start_time(url: str) -> Any:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT pg_postmaster_start_time()").fetchone()


def workers_registered(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return int(conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone()[0])  # type: ignore[index]


def settled(world: World) -> bool:
    return all(d.state not in ("queued", "running") for d in Inbox(world.settings.db).list())


# ---------------------------------------------------------------------- schema


def test_migrate_creates_the_schema_once_and_inbox_needs_it(pg_server: Any, tmp_path: Path) -> None:
    name = f"m_{uuid.uuid4().hex[:12]}"
    pg_helpers.admin(pg_server, f"CREATE DATABASE {name}")
    url = pg_server.database_url(name)
    env = {"LEVERGUARD_DATABASE_URL": url}
    try:
        before = run_leverguard("bot", "inbox", cwd=tmp_path, env=env)
        assert before.returncode == 2 and "bot migrate" in before.stderr and "Traceback" not in before.stderr
        first = run_leverguard("bot", "migrate", cwd=tmp_path, env=env)
        assert first.returncode == 0, first.stderr
        assert "created the procrastinate" in first.stdout and "leverguard_deliveries" in first.stdout
        again = run_leverguard("bot", "migrate", cwd=tmp_path, env=env)
        assert again.returncode == 0 and "is current" in again.stdout and "created" not in again.stdout
        listed = run_leverguard("bot", "inbox", cwd=tmp_path, env=env)
        assert (listed.returncode, listed.stdout.strip()) == (0, "the inbox is empty")
    finally:
        pg_helpers.admin(pg_server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    assert not list(tmp_path.glob("*.sqlite3"))


def test_migration_files_are_chosen_by_version() -> None:
    from leverguard.bot.pg_schema import migrations_between
    from procrastinate.schema import SchemaManager

    folder = SchemaManager.get_migrations_path()
    chosen = [os.path.basename(p) for p in migrations_between(folder, "3.2.0", "3.4.0")]
    assert chosen and all(name.startswith(("03.03", "03.04")) for name in chosen)
    assert migrations_between(folder, "3.4.0", "3.4.0") == []


def test_a_database_url_that_is_not_postgresql_is_one_clear_error(tmp_path: Path) -> None:
    result = run_leverguard("bot", "inbox", cwd=tmp_path, env={"LEVERGUARD_DATABASE_URL": "mysql://db/bot"})
    assert result.returncode == 2 and "postgresql://" in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------------- the database away


def test_unreachable_database_answers_503_and_a_reachable_one_202(world: World, tmp_path: Path) -> None:
    away = f"postgresql://postgres@/postgres?host={tmp_path / 'no-server'}"
    for db, expected in ((away, 503), (world.settings.db, 202)):
        server = LiveServer(create_app(dataclasses.replace(world.settings, db=db)))
        try:
            payload = pull_payload("opened", 5, "b" * 40, "file:///x")
            assert post(server.url + "/webhook", payload, delivery=f"d-{expected}")[0] == expected
            assert healthy(server.url) is (expected == 202)
        finally:
            server.stop()
    assert [d.id for d in Inbox(world.settings.db).list()] == ["d-202"]


def test_the_inboxs_own_database_error_is_trouble_a_worker_reconnects_from(tmp_path: Path) -> None:
    # the sweep's inbox transactions raise DatabaseDown themselves: judged again it must stay trouble, or a
    # worker whose sweep meets a restarting server exits 2 instead of reconnecting
    from leverguard.bot.pg_errors import DatabaseDown, database_trouble

    inbox = Inbox(f"postgresql://postgres@/postgres?host={tmp_path / 'no-server'}")
    with pytest.raises(DatabaseDown) as raised:
        with inbox.transaction() as conn:  # type: ignore[union-attr]
            conn.execute("SELECT 1")
    assert database_trouble(raised.value) is raised.value
    assert database_trouble(ValueError("a bug")) is None


# ---------------------------------------------------------------------- workers


def test_a_running_worker_takes_over_a_killed_workers_job_after_the_lease(world: World, repo: Any) -> None:
    up = Upstream(world, repo)
    head = up.open(224, stale=True, tag="")
    Inbox(world.settings.db).add("kill-1", "pull_request", "opened", json.dumps(up.payload(224, head)).encode(),
                                 repo=OWNER_REPO, pr=224, head_sha=head)
    world.standin.inject(Fault("GET", r"/pulls/224$", status=0, delay=10.0))  # holds the first job mid-way
    doomed = leverguard_process(["bot", "worker"], world.tmp, {**world.env, "LEVERGUARD_CACHE_DIR": "cache-a"})
    wait_until(lambda: Inbox(world.settings.db).get("kill-1").state == "running")  # type: ignore[union-attr]
    survivor = leverguard_process(["bot", "worker"], world.tmp, {**world.env, "LEVERGUARD_CACHE_DIR": "cache-b"})
    wait_until(lambda: workers_registered(world.settings.db) == 2)  # the survivor is up and saw its peer alive
    doomed.send_signal(signal.SIGKILL)
    doomed.wait()
    killed = time.monotonic()
    try:
        wait_until(lambda: Inbox(world.settings.db).get("kill-1").state == "done", timeout=30)  # type: ignore[union-attr]
        taken = time.monotonic() - killed
    finally:
        survivor.send_signal(signal.SIGTERM)
        assert survivor.wait(timeout=20) == 0
    row = Inbox(world.settings.db).get("kill-1")
    assert row is not None and row.attempts == 2 and row.note.startswith("failure")
    assert taken < world.settings.lease_seconds + 6  # a lease (3 s) plus a sweep, not forever
    assert survivor.stderr is not None and b"took over job" in survivor.stderr.read()
    assert len(world.standin.comments(OWNER_REPO, 224)) == 1
    assert [r["conclusion"] for r in world.standin.runs(OWNER_REPO)] == ["failure"]


def test_three_workers_with_their_own_caches_report_200_deliveries_once_per_head(world: World, repo: Any) -> None:
    up = Upstream(world, repo)
    stale = set(range(1, 21, 4))
    heads = {n: [up.open(n, stale=False, tag="a")] for n in range(1, 21)}
    server = LiveServer(create_app(world.settings))
    workers = [leverguard_process(["bot", "worker"], world.tmp, {**world.env, "LEVERGUARD_CACHE_DIR": f"host{i}"})
               for i in range(3)]
    try:
        def send(numbers: list[int], rounds: range) -> None:
            for r in rounds:
                for n in numbers:
                    assert post(server.url + "/webhook", up.payload(n, heads[n][-1]), delivery=f"{n}-{r}")[0] == 202

        senders = [threading.Thread(target=send, args=(list(range(k, 21, 4)), range(5))) for k in range(1, 5)]
        [t.start() for t in senders]
        [t.join() for t in senders]
        for n in range(1, 21):  # a push to every PR, then five more deliveries each for the new head
            heads[n].append(up.open(n, stale=n in stale, tag="b"))
        senders = [threading.Thread(target=send, args=(list(range(k, 21, 4)), range(5, 10))) for k in range(1, 5)]
        [t.start() for t in senders]
        [t.join() for t in senders]
        wait_until(lambda: settled(world), timeout=90, step=0.2)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        codes = [worker.wait(timeout=30) for worker in workers]
        server.stop()
    assert codes == [0, 0, 0]
    rows = Inbox(world.settings.db).list()
    assert len(rows) == 200 and {r.state for r in rows} <= {"done", "superseded"}
    reported_once_per_head(world, heads, stale)
    assert len({r.worker for r in rows if r.state == "done"}) >= 2  # the work was shared
    assert len(list(world.tmp.glob("host*"))) >= 2  # each worker fetched into its own cache


def test_database_restarted_mid_run_loses_nothing(world: World, repo: Any, pg_server: Any) -> None:
    if not pg_server.pg_ctl:
        pytest.skip("the test server was not started by .ci/postgres.sh: no pg_ctl to restart it")
    up = Upstream(world, repo)
    heads = {n: [up.open(n, stale=n % 3 == 0, tag="a")] for n in range(1, 9)}
    port = free_port()
    serve = leverguard_process(["bot", "serve", "--bind", f"127.0.0.1:{port}"], world.tmp, world.env)
    worker = leverguard_process(["bot", "worker", "--concurrency", "2"], world.tmp, world.env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: healthy(url))
        world.standin.inject(Fault("GET", r"/pulls/1$", status=0, delay=2.0))  # a job in flight at the restart
        for n in range(1, 9):
            assert send_until_accepted(url, up.payload(n, heads[n][-1]), f"{n}-a") == 202
        wait_until(lambda: Inbox(world.settings.db).get("1-a").state == "running")  # type: ignore[union-attr]
        started = server_start_time(world.settings.db)
        restarted = pg_server.pg_ctl_as_owner("-m", "fast", "restart")  # ends every session, jobs' included
        assert restarted.returncode == 0, restarted.stdout
        assert server_start_time(world.settings.db) != started
        for n in range(1, 9):  # new heads while connections are being re-made: 503s are delivered again
            heads[n].append(up.open(n, stale=n % 3 == 0, tag="b"))
            assert send_until_accepted(url, up.payload(n, heads[n][-1]), f"{n}-b") == 202
        wait_until(lambda: settled(world), timeout=90, step=0.2)
    finally:
        worker.send_signal(signal.SIGTERM)
        serve.send_signal(signal.SIGTERM)
        code = worker.wait(timeout=30)
        serve.wait(timeout=30)
    assert code == 0, worker.stderr.read().decode(errors="replace")[-3000:] if worker.stderr else ""
    rows = Inbox(world.settings.db).list()
    assert sorted(r.id for r in rows) == sorted(f"{n}-{x}" for n in range(1, 9) for x in "ab")
    assert {r.id: r.state for r in rows if r.id.endswith("-b")} == {f"{n}-b": "done" for n in range(1, 9)}
    reported_once_per_head(world, heads, {n for n in heads if n % 3 == 0})
