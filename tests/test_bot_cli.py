"""The real console commands: `bot serve` (gunicorn), `bot worker` killed mid-job, `bot inbox`, `bot redeliver`."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from bot_helpers import OWNER_REPO, World, make_world, post, publish_pull, pull_payload, serve_bare, stale_pr, story_221
from conftest import run_leverguard
from github_standin import Fault

from leverguard.bot.inbox import Inbox

both = pytest.mark.parametrize("world", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def world(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[World]:
    """The SQLite world by default; the PostgreSQL one is selected by LEVERGUARD_DATABASE_URL, as deployed,
    while LEVERGUARD_DB points at a file that must never be created."""
    postgres = getattr(request, "param", "sqlite") == "postgres"
    url = request.getfixturevalue("pg_url") if postgres else ""
    w = make_world(tmp_path, db=url, database_url=url) if postgres else make_world(tmp_path)
    if postgres:
        w.env["LEVERGUARD_DATABASE_URL"] = url
        w.env["LEVERGUARD_DB"] = str(tmp_path / "never.sqlite3")
    yield w
    w.standin.stop()
    assert not (tmp_path / "never.sqlite3").exists()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(predicate: Any, timeout: float = 60.0) -> None:  # (generous: a loaded CI machine starts processes slowly)
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


class Cli:
    """The click CLI in this process (cheap), with the environment a test gives it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        self.monkeypatch, self.capsys = monkeypatch, capsys

    def __call__(self, *args: str, env: dict[str, str]) -> tuple[int, str, str]:
        from leverguard.cli import main

        with self.monkeypatch.context() as patch:
            for name in [n for n in os.environ if n.startswith("LEVERGUARD_")]:
                patch.delenv(name)
            for name, value in env.items():
                patch.setenv(name, value)
            code = main(list(args))
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(monkeypatch, capsys)


def inbox_json(world: World) -> list[dict[str, Any]]:
    result = run_leverguard("bot", "inbox", "--format", "json", cwd=world.tmp, env=world.env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["deliveries"]  # type: ignore[no-any-return]


def test_serve_refuses_to_start_without_a_secret(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEVERGUARD_")}
    result = run_leverguard("bot", "serve", "--bind", f"127.0.0.1:{free_port()}", cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "no webhook secret" in result.stderr and "LEVERGUARD_WEBHOOK_SECRET" in result.stderr
    assert "Traceback" not in result.stderr


def test_worker_refuses_to_start_without_app_credentials(tmp_path: Path, cli: Cli) -> None:
    code, _, err = cli("bot", "worker", "--once", env={"LEVERGUARD_DB": str(tmp_path / "inbox.sqlite3")})
    assert code == 2 and "LEVERGUARD_APP_ID" in err


@pytest.mark.parametrize("text, expected", [
    ("lease_seconds = 'soon'\n", "must be float"),
    ("lease_seconds = 120\n", "at most 60"),
    ("max_attempts = 0\n", "at least 1"),
    ("leese_seconds = 5\n", "unknown bot setting 'leese_seconds'"),
    ("lease_seconds = \n", "invalid TOML"),
])
def test_bad_settings_file_is_one_clear_error(tmp_path: Path, cli: Cli, text: str, expected: str) -> None:
    (tmp_path / "bot.toml").write_text(text)
    code, _, err = cli("bot", "inbox", "--settings", str(tmp_path / "bot.toml"), env={})
    assert code == 2 and expected in err


@both
def test_serve_runs_gunicorn_and_stores_signed_deliveries(world: World) -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "leverguard", "bot", "serve", "--bind", f"127.0.0.1:{port}"],
                              cwd=world.tmp, env={**os.environ, **world.env},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: _up(url))
        assert post(url + "/webhook", pull_payload("opened", 5, "b" * 40, "file:///x"), delivery="g-1")[0] == 202
        assert post(url + "/webhook", pull_payload("opened", 5, "b" * 40, "file:///x"), secret="bad")[0] == 401
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=15)
    assert [(d["id"], d["state"], d["pr"]) for d in inbox_json(world)] == [("g-1", "queued", 5)]


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@both
def test_worker_killed_mid_job_completes_it_once_after_restart(world: World, repo: Any) -> None:
    bare = world.tmp / "upstream.git"
    before = story_221(repo)
    url = serve_bare(repo.path, bare)
    head = publish_pull(repo.path, bare, 224, stale_pr(repo, before))
    world.standin.add_repo(OWNER_REPO, str(bare))
    world.standin.add_pull(OWNER_REPO, 224, base_ref="main", head_sha=head)
    Inbox(world.settings.db).add("kill-1", "pull_request", "opened",
                                 json.dumps(pull_payload("opened", 224, head, url)).encode(),
                                 repo=OWNER_REPO, pr=224, head_sha=head)
    world.standin.inject(Fault("GET", r"/pulls/224$", status=0, delay=5.0))  # holds the job mid-way
    env = {**os.environ, **world.env}
    worker = subprocess.Popen([sys.executable, "-m", "leverguard", "bot", "worker"], cwd=world.tmp, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: world.standin.requests("GET", r"/pulls/224$"))
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    (row,) = Inbox(world.settings.db).list()
    assert (row.state, row.attempts) == ("running", 1)  # its lease has 3 s left: only a restart frees it
    restarted = run_leverguard("bot", "worker", "--once", cwd=world.tmp, env=world.env)
    assert restarted.returncode == 0, restarted.stderr
    (row,) = Inbox(world.settings.db).list()
    assert (row.state, row.attempts) == ("done", 2) and row.note.startswith("failure")
    assert len(world.standin.comments(OWNER_REPO, 224)) == 1
    assert [r["conclusion"] for r in world.standin.runs(OWNER_REPO)] == ["failure"]


@both
def test_inbox_text_json_and_redeliver(world: World, cli: Cli) -> None:
    Inbox(world.settings.db).add("r-1", "pull_request", "opened", b"{}", repo=OWNER_REPO, pr=1, head_sha="c" * 40)
    code, out, _ = cli("bot", "inbox", env=world.env)
    assert code == 0 and "r-1" in out and "queued" in out and f"{OWNER_REPO}#1" in out
    code, out, _ = cli("bot", "inbox", "--format", "json", env=world.env)
    assert [(d["id"], d["state"], d["attempts"]) for d in json.loads(out)["deliveries"]] == [("r-1", "queued", 0)]
    assert cli("bot", "redeliver", "r-1", env=world.env)[:2] == (0, "queued r-1\n")
    code, _, err = cli("bot", "redeliver", "nope", env=world.env)
    assert code == 2 and "bot inbox" in err


def test_worker_stops_cleanly_on_sigterm(world: World) -> None:
    worker = subprocess.Popen([sys.executable, "-m", "leverguard", "bot", "worker"], cwd=world.tmp,
                              env={**os.environ, **world.env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(lambda: Path(world.settings.db).exists())
    time.sleep(0.3)
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=10) == 0
    assert worker.stderr is not None and b"Traceback" not in worker.stderr.read()


def test_unusable_database_path_is_one_clear_error(tmp_path: Path, cli: Cli) -> None:
    env = {"LEVERGUARD_WEBHOOK_SECRET": "x", "LEVERGUARD_DB": str(tmp_path / "missing" / "inbox.sqlite3")}
    for args in (("bot", "inbox"), ("bot", "serve", "--bind", f"127.0.0.1:{free_port()}")):
        code, _, err = cli(*args, env=env)
        assert code == 2 and "LEVERGUARD_DB" in err


@pytest.mark.parametrize("app_id, key, expected", [
    ("abc", "", "not a number"),
    ("4242", "not a key", "cannot sign a JWT"),
    ("4242", None, "cannot read the App's private key"),
])
def test_bad_app_credentials_fail_at_start(tmp_path: Path, cli: Cli, app_id: str, key: str | None,
                                           expected: str) -> None:
    key_file = tmp_path / "app.pem"
    if key is not None:
        key_file.write_text(key)
    env = {"LEVERGUARD_APP_ID": app_id, "LEVERGUARD_PRIVATE_KEY_FILE": str(key_file),
           "LEVERGUARD_DB": str(tmp_path / "inbox.sqlite3")}
    code, _, err = cli("bot", "worker", "--once", env=env)
    assert code == 2 and expected in err


def test_worker_concurrency_runs_several_processes_and_refuses_zero(world: World, repo: Any, cli: Cli) -> None:
    bare = world.tmp / "upstream.git"
    before = story_221(repo, files=3)
    url = serve_bare(repo.path, bare)
    world.standin.add_repo(OWNER_REPO, str(bare))
    for number in (1, 2, 3, 4):
        head = publish_pull(repo.path, bare, number, stale_pr(repo, before, files=3, branch=f"pr{number}"))
        world.standin.add_pull(OWNER_REPO, number, base_ref="main", head_sha=head)
        Inbox(world.settings.db).add(f"c-{number}", "pull_request", "opened",
                                     json.dumps(pull_payload("opened", number, head, url)).encode(),
                                     repo=OWNER_REPO, pr=number, head_sha=head)
    done = run_leverguard("bot", "worker", "--once", "--concurrency", "2", cwd=world.tmp, env=world.env)
    assert done.returncode == 0, done.stderr
    assert [d["state"] for d in inbox_json(world)] == ["done"] * 4
    assert all(len(world.standin.comments(OWNER_REPO, n)) == 1 for n in (1, 2, 3, 4))
    code, _, err = cli("bot", "worker", "--concurrency", "0", env=world.env)
    assert code == 2 and "--concurrency" in err
