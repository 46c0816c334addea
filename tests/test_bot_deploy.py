"""Deploying the App (issue #12): the manifest, the systemd units started for real, the key from the environment."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
import yaml
from bot_helpers import (OWNER_REPO, Served, World, app_keys, free_port, make_world, post, publish_pull, pull_payload,
                         serve_bare, stale_pr, story_221)
from conftest import run_leverguard

from leverguard.bot import events
from leverguard.bot.github import AppClient
from leverguard.bot.settings import Settings
from leverguard.errors import LeverguardError

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
UNITS = ("leverguard-bot-serve.service", "leverguard-bot-worker.service")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path)
    yield w
    w.standin.stop()


# ---------------------------------------------------------------------- the App manifest


def test_the_manifest_asks_for_what_the_bot_uses_and_no_more() -> None:
    manifest = yaml.safe_load((ROOT / "app.yml").read_text())
    assert manifest["default_permissions"] == {"checks": "write", "pull_requests": "write", "contents": "read",
                                               "metadata": "read"}
    assert manifest["hook_attributes"]["url"] == "https://HOST/webhook" and manifest["hook_attributes"]["active"]
    assert set(manifest["default_events"]) == {"pull_request", "check_run", "check_suite"}
    for event in manifest["default_events"]:  # every subscribed event is one the webhook acts on
        payload = {"action": "rerequested", "repository": {"full_name": OWNER_REPO},
                   event: {"name": events.CHECK_NAME, "head_sha": "a" * 40, "pull_requests": [{"number": 1}]}}
        if event == "pull_request":
            payload = pull_payload("opened", 1, "a" * 40, "x")
        assert events.classify(event, payload) is not None, event
    assert manifest["name"] and manifest["url"].startswith("https://")
    json.dumps(manifest)  # the manifest flow posts it as JSON


# ---------------------------------------------------------------------- systemd units


def unit(name: str) -> dict[str, list[str]]:
    """KEY -> values of a unit file (repeated keys such as Environment= keep every value)."""
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def environment_file(text: str) -> dict[str, str]:
    """systemd's EnvironmentFile= rules: quotes, and a backslash escapes the next character outside them
    (inside double quotes it only escapes \\ " ` $, so "\\n" stays a backslash and an n)."""
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        key, _, raw = line.partition("=")
        value, i, quote = "", 0, ""
        while i < len(raw):
            c = raw[i]
            if quote == "'":
                quote, value = ("", value) if c == "'" else (quote, value + c)
            elif quote == '"':
                if c == "\\" and i + 1 < len(raw) and raw[i + 1] in '"\\`$':
                    value, i = value + raw[i + 1], i + 1
                elif c == '"':
                    quote = ""
                else:
                    value += c
            elif c in "'\"":
                quote = c
            elif c == "\\" and i + 1 < len(raw):
                value, i = value + raw[i + 1], i + 1
            else:
                value += c
            i += 1
        values[key.strip()] = value.rstrip() if not quote else value
    return values


def exec_start(name: str, env_file: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """ExecStart= as systemd runs it: Environment=, then EnvironmentFile= (which wins), ${VAR} as one word."""
    spec = unit(name)
    env: dict[str, str] = {}
    for assignment in spec.get("Environment", []):
        key, _, value = assignment.partition("=")
        env[key] = value
    env.update(env_file)
    (command,) = spec["ExecStart"]
    argv = shlex.split(re.sub(r"\$\{(\w+)\}", lambda m: shlex.quote(env[m.group(1)]), command))
    return argv, env


def installed(argv: list[str]) -> list[str]:
    """The unit's install path (/opt/leverguard/bin/leverguard) replaced by this test's installation."""
    assert argv[0] == "/opt/leverguard/bin/leverguard", argv[0]
    return [sys.executable, "-m", "leverguard", *argv[1:]]


def key_env_file(world: World, **extra: str) -> dict[str, str]:
    pem = app_keys()[0].replace("\n", "\\n")  # the example's one-line form
    text = "\n".join([f"LEVERGUARD_WEBHOOK_SECRET={world.settings.webhook_secret}",
                      f"LEVERGUARD_APP_ID={world.settings.app_id}", f'LEVERGUARD_APP_PRIVATE_KEY="{pem}"',
                      *(f"{k}={v}" for k, v in extra.items())])
    return environment_file(text)


def sealed(env: dict[str, str]) -> dict[str, str]:
    """The unit's environment only: no LEVERGUARD_* leaking from the test's own."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("LEVERGUARD_")}
    return {**base, **env}


@pytest.mark.parametrize("name", UNITS)
def test_units_verify(name: str, tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    copy = tmp_path / name  # verify checks the executable exists: point it at this installation
    launcher = tmp_path / "leverguard"
    launcher.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m leverguard \"$@\"\n")
    launcher.chmod(0o755)
    copy.write_text((DEPLOY / name).read_text().replace("/opt/leverguard/bin/leverguard", str(launcher)))
    proc = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(copy.read_text().replace("ExecStart=", "ExecStrat="))
    assert subprocess.run([analyze, "verify", str(broken)], capture_output=True).returncode != 0


def test_the_serve_unit_starts_and_answers(world: World) -> None:
    port = free_port()
    argv, env = exec_start(UNITS[0], key_env_file(world, LEVERGUARD_DB=world.settings.db,
                                                  LEVERGUARD_BIND=f"127.0.0.1:{port}"))
    assert argv[1:] == ["bot", "serve", "--bind", f"127.0.0.1:{port}"]
    with Served(world.tmp, sealed(env), argv=installed(argv), port=port) as served:  # up: /healthz answered 200
        assert post(served.url + "/webhook", pull_payload("opened", 1, "a" * 40, "x"))[0] == 202
        assert post(served.url + "/webhook", pull_payload("opened", 1, "a" * 40, "x"), secret="wrong")[0] == 401


def test_the_worker_unit_runs_a_job_with_the_key_from_the_environment(world: World, repo: object) -> None:
    bare = world.tmp / "upstream.git"
    before = story_221(repo)
    serve_bare(repo.path, bare)  # type: ignore[attr-defined]
    world.standin.add_repo(OWNER_REPO, str(bare))
    head = publish_pull(repo.path, bare, 224, stale_pr(repo, before))  # type: ignore[attr-defined]
    world.standin.add_pull(OWNER_REPO, 224, base_ref="main", head_sha=head)
    from leverguard.bot.inbox import Inbox

    Inbox(world.settings.db).add("d-1", "pull_request", "opened", json.dumps(pull_payload("opened", 224, head, "x")).encode(),
                                 repo=OWNER_REPO, pr=224, head_sha=head)
    argv, env = exec_start(UNITS[1], key_env_file(
        world, LEVERGUARD_DB=world.settings.db, LEVERGUARD_CACHE_DIR=world.settings.cache_dir,
        LEVERGUARD_GITHUB_API_URL=world.standin.url, LEVERGUARD_GIT_URL=world.settings.git_url,
        LEVERGUARD_BOT_SETTINGS=world.env["LEVERGUARD_BOT_SETTINGS"]))
    assert argv[1:] == ["bot", "worker"] and "LEVERGUARD_PRIVATE_KEY_FILE" not in env
    process = subprocess.Popen(installed(argv), cwd=world.tmp, env=sealed(env), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not world.standin.runs(OWNER_REPO, head) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)  # the unit's KillSignal: finish the job, exit 0
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    (run,) = world.standin.runs(OWNER_REPO, head)
    assert run["conclusion"] == "failure" and "BEGIN" not in err


def test_the_example_environment_file_keeps_the_pem_newlines() -> None:
    values = environment_file((DEPLOY / "bot.env.example").read_text())
    assert values["LEVERGUARD_APP_PRIVATE_KEY"].startswith("-----BEGIN PRIVATE KEY-----\\n")
    assert {"LEVERGUARD_WEBHOOK_SECRET", "LEVERGUARD_APP_ID"} <= set(values)


# ---------------------------------------------------------------------- the key, --help, bot inbox


def test_the_private_key_may_come_from_the_environment(world: World, tmp_path: Path) -> None:
    pem = app_keys()[0]
    base = dict(app_id=world.settings.app_id, github_api_url=world.standin.url, request_interval=0.0,
                write_interval=0.0)
    for value in (pem, pem.replace("\n", "\\n")):  # as is, or on one line
        assert AppClient(Settings(private_key=value, private_key_file="/nonexistent", **base)).bot_login() == \
            "leverguard-test[bot]"
    with pytest.raises(LeverguardError, match="LEVERGUARD_APP_PRIVATE_KEY: cannot sign") as caught:
        AppClient(Settings(private_key="-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----", **base))
    assert "not a key" not in caught.value.message  # the key's content is never echoed


def test_the_worker_refuses_without_any_key(tmp_path: Path) -> None:
    result = run_leverguard("bot", "worker", cwd=tmp_path, env={"LEVERGUARD_APP_ID": "1", "LEVERGUARD_PRIVATE_KEY_FILE": "",
                                                               "LEVERGUARD_APP_PRIVATE_KEY": ""})
    assert result.returncode == 2 and "LEVERGUARD_APP_PRIVATE_KEY" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command, variables", [
    (("bot", "serve"), ("LEVERGUARD_WEBHOOK_SECRET", "LEVERGUARD_DB", "LEVERGUARD_BIND", "LEVERGUARD_BOT_SETTINGS")),
    (("bot", "worker"), ("LEVERGUARD_APP_ID", "LEVERGUARD_APP_PRIVATE_KEY", "LEVERGUARD_PRIVATE_KEY_FILE",
                         "LEVERGUARD_GITHUB_API_URL", "LEVERGUARD_GIT_URL", "LEVERGUARD_DB", "LEVERGUARD_CACHE_DIR")),
    (("bot", "inbox"), ("LEVERGUARD_DB", "LEVERGUARD_BOT_SETTINGS")),
    (("bot", "redeliver"), ("LEVERGUARD_DB",)),
    (("github-action",), ("GITHUB_EVENT_PATH", "GITHUB_TOKEN", "GITHUB_OUTPUT")),
])
def test_every_help_lists_its_variables(tmp_path: Path, command: tuple[str, ...], variables: tuple[str, ...]) -> None:
    result = run_leverguard(*command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    for variable in variables:
        assert variable in result.stdout, variable
    assert "LEVERGUARD_NOPE" not in result.stdout


@pytest.mark.parametrize("command", [("bot", "inbox"), ("bot", "redeliver", "some-id")])
def test_reading_commands_never_create_a_database(tmp_path: Path, command: tuple[str, ...], world: World) -> None:
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    result = run_leverguard(*command, cwd=empty, env={"LEVERGUARD_DB": ""})
    assert result.returncode == 2 and "no inbox database" in result.stderr and "LEVERGUARD_DB" in result.stderr
    assert result.stderr.count("\n") == 1 and list(empty.iterdir()) == []
    from leverguard.bot.inbox import Inbox

    Inbox(world.settings.db)  # the service's database, once it exists, is read
    listed = run_leverguard("bot", "inbox", cwd=empty, env={"LEVERGUARD_DB": world.settings.db})
    assert listed.returncode == 0 and "the inbox is empty" in listed.stdout
