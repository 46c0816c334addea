"""The webhook app over real HTTP: signatures, size cap, ping, storing, answering at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
from bot_helpers import SECRET, LiveServer, post, pull_payload, sign

from leverguard.bot import events
from leverguard.bot.app import create_app, signature_ok
from leverguard.bot.inbox import Inbox
from leverguard.bot.settings import Settings
from leverguard.errors import LeverguardError

HEAD = "a" * 40


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(webhook_secret=SECRET, db=str(tmp_path / "inbox.sqlite3"), max_body_bytes=64 * 1024)


@pytest.fixture
def server(settings: Settings) -> Iterator[LiveServer]:
    live = LiveServer(create_app(settings))
    yield live
    live.stop()


def stored(settings: Settings) -> list[str]:
    return [d.id for d in Inbox(settings.db).list()]


def test_signature_check_is_hmac_sha256_over_the_raw_body() -> None:
    body = b'{"a": 1}'
    assert signature_ok(SECRET.encode(), body, sign(body))
    assert not signature_ok(SECRET.encode(), body + b" ", sign(body))
    assert not signature_ok(SECRET.encode(), body, sign(body, "other"))
    assert not signature_ok(SECRET.encode(), body, sign(body).replace("sha256=", "sha1="))
    assert not signature_ok(SECRET.encode(), body, None)
    assert not signature_ok(SECRET.encode(), body, "sha256=\u00e9")


@pytest.mark.parametrize("kwargs", [{"secret": "wrong"}, {"secret": None}, {"signature": "sha256=" + "0" * 64}])
def test_bad_or_missing_signature_is_401_and_nothing_is_stored(server: LiveServer, settings: Settings,
                                                               kwargs: dict[str, str | None]) -> None:
    status, answer = post(server.url + "/webhook", pull_payload("opened", 1, HEAD, "file:///x"), **kwargs)  # type: ignore[arg-type]
    assert status == 401 and "X-Hub-Signature-256" in answer["message"]
    assert stored(settings) == []


def test_signature_is_checked_before_parsing(server: LiveServer, settings: Settings) -> None:
    assert post(server.url + "/webhook", b"not json", secret="wrong")[0] == 401
    assert post(server.url + "/webhook", b"not json")[0] == 400
    assert stored(settings) == []


def test_signed_delivery_is_stored_and_answered_202(server: LiveServer, settings: Settings) -> None:
    status, answer = post(server.url + "/webhook", pull_payload("opened", 3, HEAD, "file:///x"), delivery="abc")
    assert (status, answer["message"]) == (202, "queued")
    (row,) = Inbox(settings.db).list()
    assert (row.id, row.state, row.repo, row.pr, row.head_sha) == ("abc", "queued", "acme/kernels", 3, HEAD)


def test_ping_is_answered_and_not_stored(server: LiveServer, settings: Settings) -> None:
    assert post(server.url + "/webhook", {"zen": "Keep it logically awesome."}, event="ping") == (200, {"message": "pong"})
    assert stored(settings) == []


def test_body_size_is_capped(server: LiveServer, settings: Settings) -> None:
    payload = pull_payload("opened", 3, HEAD, "file:///x")
    payload["padding"] = "x" * 70 * 1024
    assert post(server.url + "/webhook", payload)[0] == 413
    assert stored(settings) == []


def test_events_that_ask_for_nothing_are_stored_as_done(server: LiveServer, settings: Settings) -> None:
    assert post(server.url + "/webhook", pull_payload("closed", 3, HEAD, "file:///x"), delivery="c")[0] == 202
    assert post(server.url + "/webhook", {"action": "created", "repository": {"full_name": "a/b"}},
                event="issue_comment", delivery="i")[0] == 202
    assert [(d.id, d.state) for d in Inbox(settings.db).list()] == [("c", "done"), ("i", "done")]


def test_healthz(server: LiveServer) -> None:
    import urllib.request

    with urllib.request.urlopen(server.url + "/healthz") as response:
        assert json.loads(response.read())["ok"] is True


def test_create_app_refuses_to_exist_without_a_secret(tmp_path: Path) -> None:
    with pytest.raises(LeverguardError, match="LEVERGUARD_WEBHOOK_SECRET"):
        create_app(Settings(db=str(tmp_path / "x.sqlite3")))


@pytest.mark.parametrize("action, changes, wanted", [
    ("opened", {}, True), ("synchronize", {}, True), ("reopened", {}, True), ("ready_for_review", {}, True),
    ("labeled", {}, True), ("unlabeled", {}, True),
    ("edited", {"body": {"from": "x"}}, True), ("edited", {"base": {"ref": {"from": "dev"}}}, True),
    ("edited", {"title": {"from": "x"}}, True), ("edited", {}, False),
    ("closed", {}, False), ("assigned", {}, False), ("review_requested", {}, False),
])
def test_pull_request_actions_that_trigger_a_check(action: str, changes: dict[str, object], wanted: bool) -> None:
    payload = {**pull_payload(action, 4, HEAD, "file:///x"), "changes": changes}
    trigger = events.classify("pull_request", payload)
    assert (trigger is not None) == wanted
    if trigger:
        assert (trigger.repo, trigger.pr, trigger.head_sha) == ("acme/kernels", 4, HEAD)


def test_check_run_rerequested_triggers_only_for_our_check() -> None:
    run = {"name": "leverguard", "head_sha": HEAD, "pull_requests": [{"number": 9}]}
    payload = {"action": "rerequested", "repository": {"full_name": "a/b"}, "check_run": run}
    assert events.classify("check_run", payload) == events.Trigger("a/b", 9, HEAD, "check_run.rerequested")
    assert events.classify("check_run", {**payload, "check_run": {**run, "name": "ci"}}) is None
    assert events.classify("check_run", {**payload, "action": "completed"}) is None


def test_check_suite_rerequested_triggers_the_pr_of_the_suite() -> None:
    suite = {"head_sha": HEAD, "pull_requests": [{"number": 5}]}
    payload = {"action": "rerequested", "repository": {"full_name": "a/b"}, "check_suite": suite}
    assert events.classify("check_suite", payload) == events.Trigger("a/b", 5, HEAD, "check_suite.rerequested")
    fork = events.classify("check_suite", {**payload, "check_suite": {**suite, "pull_requests": []}})
    assert fork == events.Trigger("a/b", None, HEAD, "check_suite.rerequested")  # mapped by head at the webhook


def test_missing_content_length_is_refused(server: LiveServer, settings: Settings) -> None:
    import http.client

    body = json.dumps(pull_payload("opened", 3, HEAD, "file:///x")).encode()
    connection = http.client.HTTPConnection(server.url.removeprefix("http://"))
    connection.putrequest("POST", "/webhook")
    for name, value in (("X-GitHub-Event", "pull_request"), ("X-GitHub-Delivery", "chunked"),
                        ("X-Hub-Signature-256", sign(body)), ("Transfer-Encoding", "chunked")):
        connection.putheader(name, value)
    connection.endheaders()
    connection.send(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert connection.getresponse().status == 411
    assert stored(settings) == []


def test_nothing_runs_at_import(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = "import leverguard.bot.app, leverguard.bot.worker, leverguard.bot.serve, leverguard.bot.action"
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True)
    assert list(tmp_path.iterdir()) == []  # no database, no cache, no socket


# ---------------------------------------------------------------------- the Re-run button (#12)


def rerun(event: str, head: str, pulls: list[dict[str, int]], name: str = "leverguard") -> dict[str, object]:
    source = {"head_sha": head, "pull_requests": pulls}
    body: dict[str, object] = {"action": "rerequested", "installation": {"id": 42},
                               "repository": {"full_name": "acme/kernels", "clone_url": "x"}}
    body[event] = {**source, "name": name} if event == "check_run" else source
    return body


@pytest.mark.parametrize("event", ["check_run", "check_suite"])
def test_a_fork_prs_rerun_is_mapped_to_its_pr_by_head(server: LiveServer, settings: Settings, event: str) -> None:
    other = "b" * 40
    assert post(server.url + "/webhook", pull_payload("opened", 9, HEAD, "x", fork="mallory/kernels"),
                delivery="open-9")[0] == 202
    assert post(server.url + "/webhook", pull_payload("opened", 10, other, "x"), delivery="open-10")[0] == 202
    status, answer = post(server.url + "/webhook", rerun(event, HEAD, []), event=event, delivery="rerun")
    assert (status, answer["message"]) == (202, "queued")
    row = Inbox(settings.db).get("rerun")
    assert row is not None and (row.pr, row.head_sha, row.state) == (9, HEAD, "queued")
    assert row.note == f"{event}.rerequested (PR by head)"


def test_a_rerun_of_an_unknown_head_is_stored_as_ignored(server: LiveServer, settings: Settings) -> None:
    status, answer = post(server.url + "/webhook", rerun("check_suite", HEAD, []), event="check_suite", delivery="r")
    assert (status, answer["message"]) == (202, "stored")
    row = Inbox(settings.db).get("r")
    assert row is not None and row.pr is None and row.state == "done" and "no stored job" in row.note


def test_the_rerun_of_a_fork_pr_checks_it_again_end_to_end(tmp_path: Path, repo: object) -> None:
    from bot_helpers import OWNER_REPO, make_world
    from test_bot_security import drain, upstream

    world = make_world(tmp_path)
    web = LiveServer(create_app(world.settings))
    try:
        head = upstream(world, repo)
        world.standin.repos[OWNER_REPO].pulls[224]["head_repo"] = "mallory/kernels"
        assert post(web.url + "/webhook", pull_payload("opened", 224, head, "x", fork="mallory/kernels"))[0] == 202
        drain(world)
        (run,) = world.standin.runs(OWNER_REPO, head)
        writes = len(world.standin.requests("PATCH", rf"/check-runs/{run['id']}$"))
        assert post(web.url + "/webhook", rerun("check_run", head, []), event="check_run")[0] == 202
        drain(world)
        assert [r["id"] for r in world.standin.runs(OWNER_REPO, head)] == [run["id"]]  # the same run, checked again
        assert len(world.standin.requests("PATCH", rf"/check-runs/{run['id']}$")) > writes
        assert [d.state for d in Inbox(world.settings.db).list()] == ["done", "done"]
    finally:
        web.stop()
        world.standin.stop()
