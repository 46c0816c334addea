"""Hostile inputs to the bot (issue #11): the token's destination, malformed signed payloads, a busy inbox, slow clients."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from bot_helpers import (OWNER_REPO, LiveServer, Served, World, make_world, post, publish_pull, pull_payload,
                         serve_bare, sign, stale_pr, story_221)

from leverguard.bot import github, worker
from leverguard.bot.app import create_app
from leverguard.bot.inbox import Inbox
from leverguard.bot.settings import Settings, git_url, load
from leverguard.errors import ConfigError

HEAD = "a" * 40


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path)
    yield w
    w.standin.stop()


class Trap:
    """A TCP listener that records every connection: where a leaked token would go."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.seen: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(1)
            try:
                self.seen.append(conn.recv(65536))
            except OSError:
                self.seen.append(b"")
            conn.close()


def drain(world: World) -> None:
    st = world.settings
    inbox = Inbox(st.db, lease_seconds=st.lease_seconds, max_attempts=st.max_attempts, backoff_seconds=st.backoff_seconds)
    processor = worker.Processor(st, github.AppClient(st), inbox, os.environ)
    inbox.work(processor, processor.give_up, worker="test:1", once=True, stop=threading.Event(), log=lambda line: None)


def upstream(world: World, repo: Any) -> str:
    """acme/kernels with the stale PR #224 published on the stand-in; the head."""
    bare = world.tmp / "upstream.git"
    before = story_221(repo)
    serve_bare(repo.path, bare)
    world.standin.add_repo(OWNER_REPO, str(bare))
    head = publish_pull(repo.path, bare, 224, stale_pr(repo, before))
    world.standin.add_pull(OWNER_REPO, 224, base_ref="main", head_sha=head)
    return head


# ---------------------------------------------------------------------- the token's destination


@pytest.mark.parametrize("clone_url", ["http://127.0.0.1:{port}/acme/kernels.git", "https://127.0.0.1:{port}/x.git",
                                       "file:///etc", "ext::sh -c touch% /tmp/pwned"])
def test_the_payload_clone_url_is_never_fetched(world: World, repo: Any, monkeypatch: pytest.MonkeyPatch,
                                                clone_url: str) -> None:
    trap = Trap()
    head = upstream(world, repo)
    trace = world.tmp / "trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    web = LiveServer(create_app(world.settings))
    try:
        assert post(web.url + "/webhook", pull_payload("opened", 224, head, clone_url.format(port=trap.port)))[0] == 202
        drain(world)
    finally:
        web.stop()
    (run,) = world.standin.runs(OWNER_REPO, head)
    assert run["conclusion"] == "failure"  # the check ran, from the configured host
    assert trap.seen == []
    cache = world.tmp / "cache" / "acme" / "kernels.git"
    assert (cache / "config").read_text().count(f"url = {world.settings.git_url}/acme/kernels.git") == 1
    text = trace.read_text()
    assert all(token not in text for token in world.standin.tokens)  # the token is in no argv
    assert str(trap.port) not in text


def test_repository_names_github_cannot_have_are_refused_at_the_door(world: World) -> None:
    web = LiveServer(create_app(world.settings))
    try:
        for name in ("acme/../acme/kernels", "acme/..", "../kernels", "acme/kernels/x", "acme/kernels\n"):
            status, answer = post(web.url + "/webhook", pull_payload("opened", 1, HEAD, "x", repo=name))
            assert status == 400 and "full_name" in answer["message"], name
        assert post(web.url + "/webhook", pull_payload("opened", 1, HEAD, "x", repo="Acme-1/ker.nels_2"))[0] == 202
    finally:
        web.stop()
    assert [(d.repo, d.pr) for d in Inbox(world.settings.db).list()] == [("Acme-1/ker.nels_2", 1)]


@pytest.mark.parametrize("api, expected", [
    ("https://api.github.com", "https://github.com"),
    ("https://ghe.example.com/api/v3", "https://ghe.example.com"),
    ("https://ghe.example.com/api/v3/", "https://ghe.example.com"),
])
def test_the_git_host_is_the_apis_web_host(api: str, expected: str) -> None:
    assert git_url(Settings(github_api_url=api)) == expected
    assert git_url(Settings(github_api_url=api, git_url="https://git.example.com/")) == "https://git.example.com"


@pytest.mark.parametrize("variable, value, ok", [
    ("LEVERGUARD_GIT_URL", "http://github.com", False),
    ("LEVERGUARD_GIT_URL", "ssh://git@github.com", False),
    ("LEVERGUARD_GIT_URL", "ext::sh -c id", False),
    ("LEVERGUARD_GIT_URL", "file:relative", False),
    ("LEVERGUARD_GITHUB_API_URL", "http://api.example.com", False),
    ("LEVERGUARD_GITHUB_API_URL", "file:///api", False),
    ("LEVERGUARD_GIT_URL", "https://git.example.com", True),
    ("LEVERGUARD_GIT_URL", "file:///srv/mirrors", True),
    ("LEVERGUARD_GIT_URL", "http://127.0.0.1:8000", True),
    ("LEVERGUARD_GITHUB_API_URL", "https://ghe.example.com/api/v3", True),
])
def test_hosts_the_token_may_go_to(variable: str, value: str, ok: bool) -> None:
    if ok:
        load({variable: value})
    else:
        with pytest.raises(ConfigError, match="must be an https:// URL"):
            load({variable: value})


# ---------------------------------------------------------------------- malformed signed payloads


def deep_json(depth: int) -> bytes:
    return b'{"action": "opened", "x": ' + b"[" * depth + b"]" * depth + b"}"


def malformed() -> list[tuple[str, bytes]]:
    good = pull_payload("opened", 7, HEAD, "x")
    no_head = json.loads(json.dumps(good))
    del no_head["pull_request"]["head"]
    cases: list[tuple[str, Any]] = [
        ("missing head", no_head),
        ("number abc", {**good, "pull_request": {**good["pull_request"], "number": "abc"}}),
        ("huge number", {**good, "pull_request": {**good["pull_request"], "number": 10**30}}),
        ("number true", {**good, "pull_request": {**good["pull_request"], "number": True}}),
        ("repository string", {**good, "repository": "acme/kernels"}),
        ("head sha list", {**good, "pull_request": {**good["pull_request"], "head": {"sha": ["x"]}}}),
        ("changes list", {**good, "action": "edited", "changes": [1]}),
        ("rerun pulls string", {"action": "rerequested", "repository": {"full_name": OWNER_REPO},
                                "check_suite": {"head_sha": HEAD, "pull_requests": "7"}}),
        ("array", [good]),
    ]
    out = [(name, json.dumps(value).encode()) for name, value in cases]
    return [*out, ("100,000-deep JSON", deep_json(100_000)), ("not JSON", b"{"), ("latin-1", b'{"a": "\xff"}')]


def test_malformed_signed_payloads_are_400_and_one_log_line(world: World) -> None:
    with Served(world.tmp, world.env) as served:
        for name, body in malformed():
            started = time.monotonic()
            status, answer = post(served.url + "/webhook", body, delivery=f"bad-{name}")
            assert status == 400, (name, status, answer)
            assert time.monotonic() - started < 2, name
        good = pull_payload("opened", 7, HEAD, "x")
        assert post(served.url + "/webhook", good, delivery="good")[0] == 202  # the service still works
        log = served.stop()
    assert "Traceback" not in log and "Error in" not in log
    refused = [line for line in log.splitlines() if "malformed payload" in line]
    assert len(refused) == len(malformed()) and all("bad-" in line for line in refused)
    assert [d.id for d in Inbox(world.settings.db).list()] == ["good"]


def test_an_unsigned_deep_json_is_401_before_parsing(world: World) -> None:
    web = LiveServer(create_app(world.settings))
    try:
        assert post(web.url + "/webhook", deep_json(100_000), secret="wrong")[0] == 401
    finally:
        web.stop()


# ---------------------------------------------------------------------- a locked or full inbox


def settings_env(world: World, **values: object) -> dict[str, str]:
    path = world.tmp / "serve.toml"
    path.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items()))
    return {**world.env, "LEVERGUARD_BOT_SETTINGS": str(path)}


def health(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_locked_inbox_answers_503_in_time_and_healthz_says_so(world: World) -> None:
    Inbox(world.settings.db)  # the schema exists before the lock is taken
    with Served(world.tmp, settings_env(world, ack_timeout=1.0, web_workers=1)) as served:
        assert health(served.url)[0] == 200
        lock = sqlite3.connect(world.settings.db, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        started = time.monotonic()
        status, answer = post(served.url + "/webhook", pull_payload("opened", 3, HEAD, "x"), delivery="d-1")
        elapsed = time.monotonic() - started
        assert status == 503 and "redeliver" in answer["message"]
        assert elapsed < 3  # GitHub waits 10 s; sqlite's own busy timeout is 30 s
        status, state = health(served.url)
        assert status == 503 and state["ok"] is False and "unavailable" in state["state"]
        lock.execute("ROLLBACK")
        lock.close()
        status, answer = post(served.url + "/webhook", pull_payload("opened", 3, HEAD, "x"), delivery="d-1")
        assert status == 202  # GitHub's redelivery: stored once, whichever attempt stored it
        assert health(served.url)[0] == 200
        log = served.stop()
    assert "Traceback" not in log and sum("inbox unavailable" in line for line in log.splitlines()) == 1
    assert [d.id for d in Inbox(world.settings.db).list()] == ["d-1"]


def test_a_full_disk_answers_503(world: World) -> None:
    import resource

    Inbox(world.settings.db)
    limit = 1024 * 1024  # files the server writes stop growing at 1 MB: SQLite says "database or disk is full"

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with Served(world.tmp, settings_env(world, web_workers=1), preexec_fn=cap) as served:
        big = {**pull_payload("opened", 3, HEAD, "x"), "filler": "x" * 200_000}
        statuses = [post(served.url + "/webhook", big, delivery=f"f-{i}")[0] for i in range(12)]
        assert statuses[0] == 202 and statuses[-1] == 503, statuses
        assert health(served.url)[0] == 503
        log = served.stop()
    assert "Traceback" not in log
    refused = [line for line in log.splitlines() if "inbox unavailable, answered 503" in line]
    assert refused and all("disk I/O error" in line for line in refused)  # EFBIG; a full disk: "database or disk is full"


# ---------------------------------------------------------------------- slow clients


def slow_client(url: str, body_bytes: int = 10) -> socket.socket:
    """Headers that promise 100 KB, then a few body bytes, then silence."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    sock.sendall(b"POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"X-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow\r\nContent-Length: 100000\r\n\r\n"
                 + b"{" * body_bytes)
    return sock


def test_twenty_slow_clients_do_not_stall_healthz_or_deliveries(world: World) -> None:
    with Served(world.tmp, world.env) as served:  # the shipped defaults
        slow = [slow_client(served.url) for _ in range(20)]
        time.sleep(0.3)
        try:
            started = time.monotonic()
            assert health(served.url)[0] == 200
            assert post(served.url + "/webhook", pull_payload("opened", 3, HEAD, "x"))[0] == 202
            elapsed = time.monotonic() - started
        finally:
            for sock in slow:
                sock.close()
    assert elapsed < 2, elapsed


def test_a_slow_client_is_cut_off_after_the_read_timeout(world: World) -> None:
    with Served(world.tmp, settings_env(world, read_timeout=1.0)) as served:
        sock = slow_client(served.url)
        started = time.monotonic()
        sock.settimeout(10)
        assert sock.recv(1024) == b""  # the server hung up
        cut = time.monotonic() - started
        sock.close()
        patient = slow_client(served.url, body_bytes=0)  # a client that finishes in time is answered
        body = json.dumps(pull_payload("opened", 3, HEAD, "x")).encode()
        patient.close()
        request = (f"POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: pull_request\r\nX-GitHub-Delivery: ok\r\n"
                   f"X-Hub-Signature-256: {sign(body)}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        ok = socket.create_connection(("127.0.0.1", int(served.url.rsplit(":", 1)[1])))
        ok.sendall(request + body[:50])
        time.sleep(0.5)  # slow, but within the deadline
        ok.sendall(body[50:])
        ok.settimeout(5)
        assert ok.recv(1024).startswith(b"HTTP/1.1 202")
        ok.close()
    assert 0.8 < cut < 2.5, cut


# ---------------------------------------------------------------------- bot settings


@pytest.mark.parametrize("text, expected", [
    ("bot = 1\n", "'bot' must be a table"),
    ("max_body_bytes = -1\n", "'max_body_bytes' must be at least 1024"),
    ("max_body_bytes = 0\n", "'max_body_bytes' must be at least 1024"),
    ("poll_seconds = -1\n", "'poll_seconds' must be at least 0.01"),
    ("poll_seconds = 0\n", "'poll_seconds' must be at least 0.01"),
    ("lease_seconds = 0\n", "'lease_seconds' must be at least"),
    ("backoff_seconds = -5\n", "'backoff_seconds' must be at least 0"),
    ("web_workers = 0\n", "'web_workers' must be at least 1"),
    ("web_threads = 100000\n", "'web_threads' must be at least 1 and at most 1024"),
    ("read_timeout = 0\n", "'read_timeout' must be at least"),
    ("ack_timeout = 30\n", "'ack_timeout' must be at least 0.5 and at most 8"),
    ("request_interval = -1\n", "'request_interval' must be at least 0"),
    ("max_attempts = 0\n", "'max_attempts' must be at least 1"),
    ('bind = "8080"\n', "'bind' must be HOST:PORT or unix:/PATH"),
    ('git_url = "http://github.com"\n', "'git_url' must be an https:// URL"),
    ("[bot]\npoll_seconds = 'fast'\n", "'poll_seconds' must be float"),
])
@pytest.mark.parametrize("command", ["serve", "worker", "inbox"])
def test_bad_settings_are_one_line_and_exit_2(tmp_path: Path, text: str, expected: str, command: str) -> None:
    from conftest import run_leverguard

    (tmp_path / "bot.toml").write_text(text)
    env = {"LEVERGUARD_WEBHOOK_SECRET": "s", "LEVERGUARD_APP_ID": "1", "LEVERGUARD_APP_PRIVATE_KEY": "k",
           "LEVERGUARD_DB": str(tmp_path / "db"), "LEVERGUARD_BOT_SETTINGS": str(tmp_path / "bot.toml")}
    result = run_leverguard("bot", command, cwd=tmp_path, env=env)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("leverguard: error: ") and expected in result.stderr
    assert not (tmp_path / "db").exists()


def test_good_settings_load(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text("[bot]\nmax_body_bytes = 1048576\npoll_seconds = 0.5\nbind = \"[::1]:9000\"\n"
                                       "read_timeout = 2\nack_timeout = 8\nweb_threads = 64\n")
    st = load({}, str(tmp_path / "bot.toml"))
    assert (st.max_body_bytes, st.poll_seconds, st.bind, st.read_timeout, st.web_threads) == (
        1048576, 0.5, "[::1]:9000", 2.0, 64)
    assert load({"LEVERGUARD_BIND": "unix:/run/leverguard.sock"}).bind == "unix:/run/leverguard.sock"
