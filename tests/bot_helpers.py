"""Bot test helpers: App keys, signed deliveries, scenario repositories served over file://, a live stand-in."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import subprocess
import threading
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from werkzeug.serving import make_server

from github_standin import Standin

from leverguard.bot.settings import Settings

APP_ID = 4242
SECRET = "s3cret-webhook"
OWNER_REPO = "acme/kernels"


@functools.lru_cache(maxsize=2)
def app_keys(which: int = 0) -> tuple[str, bytes]:
    """(private PEM, public PEM) of a test App key; `which` picks an unrelated second key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public


def sign(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def git(cwd: Path | str, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"git {args}: {proc.stderr}"
    return proc.stdout.strip()


def serve_bare(work: Path, bare: Path) -> str:
    """A bare copy of WORK that answers blobless and lazy fetches; its file:// URL."""
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)  # local: hard links
    git(bare, "config", "uploadpack.allowFilter", "true")
    git(bare, "config", "uploadpack.allowAnySHA1InWant", "true")
    return f"file://{bare}"


def publish_pull(work: Path, bare: Path, number: int, rev: str) -> str:
    """What GitHub does on a push to a PR: refs/pull/N/head in the BASE repository; the head SHA."""
    git(work, "push", "-q", "-f", str(bare), f"{rev}:refs/pull/{number}/head")
    return git(work, "rev-parse", rev)


def pull_payload(action: str, number: int, head_sha: str, clone_url: str, *, base_ref: str = "main",
                 repo: str = OWNER_REPO, installation: int | None = 42, fork: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "action": action, "number": number,
        "pull_request": {"number": number, "state": "open", "title": "t", "body": "",
                         "head": {"sha": head_sha, "ref": "topic", "repo": {"full_name": fork or repo}},
                         "base": {"ref": base_ref, "repo": {"full_name": repo}}},
        "repository": {"full_name": repo, "clone_url": clone_url},
    }
    if installation is not None:
        payload["installation"] = {"id": installation}
    return payload


def post(url: str, payload: dict[str, Any] | bytes, *, event: str = "pull_request", delivery: str | None = None,
         secret: str | None = SECRET, signature: str | None = None) -> tuple[int, dict[str, Any]]:
    """One webhook delivery over real HTTP; (status, JSON answer)."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    headers = {"Content-Type": "application/json", "X-GitHub-Event": event,
               "X-GitHub-Delivery": delivery or str(uuid.uuid4())}
    if signature is not None or secret is not None:
        headers["X-Hub-Signature-256"] = signature if signature is not None else sign(body, secret or "")
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


class LiveServer:
    """A WSGI app on 127.0.0.1 in a thread (real HTTP)."""

    def __init__(self, app: Any) -> None:
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_port}"

    def stop(self) -> None:
        self._server.shutdown()


@dataclass
class World:
    """A stand-in GitHub, the App's key on disk, bot settings pointing at both."""

    tmp: Path
    standin: Standin
    settings: Settings
    key_file: Path
    env: dict[str, str] = field(default_factory=dict)


def make_world(tmp: Path, **overrides: Any) -> World:
    private, public = app_keys()
    standin = Standin(APP_ID, public).start()
    key_file = tmp / "app.pem"
    key_file.write_text(private)
    values: dict[str, Any] = dict(
        webhook_secret=SECRET, app_id=str(APP_ID), private_key_file=str(key_file), github_api_url=standin.url,
        db=str(tmp / "inbox.sqlite3"), cache_dir=str(tmp / "cache"), lease_seconds=3.0, backoff_seconds=0.2,
        max_attempts=3, poll_seconds=0.05, request_interval=0.0, write_interval=0.0)
    values["git_url"] = git_host(tmp)
    values.update(overrides)
    settings = Settings(**values)
    env = {"LEVERGUARD_WEBHOOK_SECRET": SECRET, "LEVERGUARD_APP_ID": str(APP_ID),
           "LEVERGUARD_PRIVATE_KEY_FILE": str(key_file), "LEVERGUARD_GITHUB_API_URL": standin.url,
           "LEVERGUARD_DB": settings.db, "LEVERGUARD_CACHE_DIR": settings.cache_dir,
           "LEVERGUARD_GIT_URL": settings.git_url}
    settings_file = tmp / "bot.toml"
    settings_file.write_text("\n".join(f"{k} = {v}" for k, v in (
        ("lease_seconds", settings.lease_seconds), ("backoff_seconds", settings.backoff_seconds),
        ("max_attempts", settings.max_attempts), ("poll_seconds", settings.poll_seconds),
        ("request_interval", 0.0), ("write_interval", 0.0))) + "\n")
    env["LEVERGUARD_BOT_SETTINGS"] = str(settings_file)
    return World(tmp, standin, settings, key_file, env)


def git_host(tmp: Path, full_name: str = OWNER_REPO, bare: str = "upstream.git") -> str:
    """The stand-in's git host: a file:// root where FULL_NAME.git links to TMP/BARE (the tests' upstream).

    The bot builds its fetch URL from this host and the repository's full_name, never from the payload.
    """
    link = tmp / "git" / f"{full_name}.git"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink():
        link.symlink_to(tmp / bare)
    return f"file://{tmp / 'git'}"


# ---------------------------------------------------------------------- scenario histories


def story_221(repo: Any, files: int = 18) -> str:
    """main with #221 (Bob changes FILES files) merged; the commit before #221."""
    for i in range(files):
        repo.write(f"src/prep/f{i}.py", "".join(f"def step_{j}_{i}(): return {j} * {i}  # original\n" for j in range(20)))
    repo.write("kernel.cu", "__global__ void k() { /* v1 */ }\n" * 10)
    before = repo.commit("initial layout")
    for i in range(files):
        repo.write(f"src/prep/f{i}.py", "".join(
            f"def step_{j}_{i}(): return {j} * {i}  # {'fused prep path' if j % 3 == 0 else 'original'}\n"
            for j in range(20)))
    repo.commit("feat(prep-fused): fuse the prep kernels (#221)", author="Bob <bob@example.com>")
    return before


def stale_pr(repo: Any, before: str, files: int = 18, branch: str = "topic",
             message: str = "refactor(kernel): restructure the kernel") -> str:
    """#224: from current main, a stale tree brings back FILES files as they were before #221, plus a real edit."""
    repo.git("checkout", "-q", "-B", branch, "main")
    repo.git("checkout", before, "--", *[f"src/prep/f{i}.py" for i in range(files)])
    repo.write("kernel.cu", "__global__ void k() { /* v2: restructured */ }\n" * 10)
    head = repo.commit(message, author="Carol <carol@example.com>")
    repo.git("checkout", "-q", "main")
    return head


def clean_pr(repo: Any, branch: str = "clean", tag: str = "v2") -> str:
    """A genuine change: edits the kernel only."""
    repo.git("checkout", "-q", "-B", branch, "main")
    repo.write("kernel.cu", f"__global__ void k() {{ /* {tag}: genuinely new */ }}\n" * 10)
    head = repo.commit(f"perf(kernel): {tag}", author="Carol <carol@example.com>")
    repo.git("checkout", "-q", "main")
    return head


# ---------------------------------------------------------------------- a real `bot serve`
# ---------------------------------------------------------------------- processes (issue #13: several workers)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(predicate: Any, timeout: float = 30.0, step: float = 0.05) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(step)


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


class Served:
    """`python -m leverguard bot serve` (gunicorn) in a subprocess; its stderr kept in TMP/serve.log."""

    def __init__(self, tmp: Path, env: dict[str, str], argv: list[str] | None = None, port: int | None = None,
                 **popen: Any) -> None:
        import os
        import sys
        import time

        port = port or free_port()
        self.url, self.log = f"http://127.0.0.1:{port}", tmp / f"serve-{port}.log"
        command = argv or [sys.executable, "-m", "leverguard", "bot", "serve", "--bind", f"127.0.0.1:{port}"]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(command, cwd=tmp, env={**os.environ, **env}, stdout=log, stderr=log,
                                            **popen)
        deadline = time.monotonic() + 20
        while not healthy(self.url):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"bot serve did not start: {self.log.read_text()}")
            time.sleep(0.05)

    def stop(self) -> str:
        import signal

        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.log.read_text(errors="replace")

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
def leverguard_process(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """`leverguard ARGS` as its own process (a real `bot serve` or `bot worker`), stderr kept for asserts."""
    import os
    import sys
    return subprocess.Popen([sys.executable, "-m", "leverguard", *args], cwd=cwd, env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
def many_prs(repo: Any, bare: Path, count: int, tag: str) -> dict[int, str]:
    """COUNT PRs 1..COUNT published in BARE, each a genuine change on its own branch; number -> head."""
    heads = {}
    for number in range(1, count + 1):
        heads[number] = publish_pull(repo.path, bare, number, clean_pr(repo, branch=f"pr{number}", tag=f"{tag}{number}"))
    return heads
