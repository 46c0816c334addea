"""Bot benchmark on loopback with the GitHub stand-in: webhook ack latency, nothing lost, and delivery-to-comment time.

1. 200 signed deliveries from 20 concurrent clients against `leverguard bot serve` (gunicorn):
   ack latency p50/p99 (target p99 < 50 ms); then `leverguard bot worker` drains the inbox:
   every delivery stored, every PR reported exactly once (one check run, at most one comment).
2. A typical PR (the #221/#224 stale revert): time from the delivery to the comment appearing,
   with a running worker, against `leverguard check-revert` alone on the same range, plus the fetch.

Usage: .venv/bin/python bench/bench_bot.py [--deliveries 200] [--clients 20] [--prs 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bot_helpers import (OWNER_REPO, clean_pr, make_world, pull_payload, publish_pull,  # noqa: E402
                         serve_bare, sign, stale_pr, story_221)
from conftest import Repo  # noqa: E402

PY = sys.executable
logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the stand-in and the in-process app stay quiet


def hermetic(home: Path) -> dict[str, str]:
    (home / ".gitconfig").write_text("[user]\n\tname = Bench\n\temail = bench@example.com\n"
                                     "[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n")
    return {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(home / ".config")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def deliver(url: str, payload: dict[str, Any], delivery: str) -> float:
    """One signed delivery in a fresh connection, as GitHub sends them; its latency in seconds."""
    body = json.dumps(payload).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "X-GitHub-Event": "pull_request", "X-GitHub-Delivery": delivery,
        "X-Hub-Signature-256": sign(body)})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        assert response.status == 202, response.status
    return time.perf_counter() - start


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children so far (Linux /proc), e.g. gunicorn and its workers."""
    pids = [pid] + [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    ticks = 0
    for p in pids:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def build(tmp: Path, prs: int) -> tuple[Repo, Path, str, dict[int, str], str]:
    """An upstream with #221 merged and PRS open PRs, every other one a stale revert."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp / "work")], check=True)
    repo = Repo(tmp / "work")
    before = story_221(repo)
    bare = tmp / "upstream.git"
    url = serve_bare(repo.path, bare)
    heads = {}
    for n in range(1, prs + 1):
        rev = stale_pr(repo, before, branch=f"pr{n}") if n % 2 else clean_pr(repo, branch=f"pr{n}", tag=f"v{n}")
        heads[n] = publish_pull(repo.path, bare, n, rev)
    return repo, bare, url, heads, before


def wait_drained(db: str, timeout: float = 300) -> None:
    from leverguard.bot.inbox import Inbox

    inbox, deadline = Inbox(db), time.monotonic() + timeout
    while True:
        counts = inbox.counts()
        if counts["queued"] == 0 and counts["running"] == 0:
            return
        assert time.monotonic() < deadline, counts
        time.sleep(0.05)


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """`leverguard bot serve` on a free port, once /healthz answers; (process, webhook URL)."""
    port = free_port()
    server = subprocess.Popen([PY, "-m", "leverguard", "bot", "serve", "--bind", f"127.0.0.1:{port}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/webhook"


def raw_request(hook: str, payload: dict[str, Any], delivery: str) -> tuple[str, int, bytes]:
    """(host, port, the exact bytes of one signed delivery), prepared before the clock starts."""
    parsed = urllib.parse.urlsplit(hook)
    body = json.dumps(payload).encode()
    head = (f"POST {parsed.path} HTTP/1.1\r\nHost: {parsed.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nX-GitHub-Event: pull_request\r\nX-GitHub-Delivery: {delivery}\r\n"
            f"X-Hub-Signature-256: {sign(body)}\r\nConnection: close\r\n\r\n")
    return str(parsed.hostname), int(parsed.port or 80), head.encode() + body


async def _send(host: str, port: int, data: bytes) -> float:
    start = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(data)
    answer = await reader.read()
    writer.close()
    took = time.perf_counter() - start
    assert answer.startswith(b"HTTP/1.1 202"), answer[:80]
    return took


def burst(hook: str, jobs: list[tuple[dict[str, Any], str]], clients: int) -> tuple[list[float], float]:
    """JOBS sent by CLIENTS concurrent clients, each one delivery after the other in a fresh connection.

    The clients are coroutines on raw sockets, so that the client's own CPU (a Python HTTP
    library costs about as much as the server) does not pose as server latency.
    """
    prepared = [raw_request(hook, payload, delivery) for payload, delivery in jobs]

    async def client(mine: list[tuple[str, int, bytes]]) -> list[float]:
        return [await _send(*request) for request in mine]

    async def everyone() -> list[list[float]]:
        return await asyncio.gather(*(client(prepared[c::clients]) for c in range(clients)))

    start = time.perf_counter()
    latencies = [took for mine in asyncio.run(everyone()) for took in mine]
    return latencies, time.perf_counter() - start


def part_one(args: argparse.Namespace, world: Any, env: dict[str, str], url: str, heads: dict[int, str]) -> None:
    server, hook = start_server(env)
    floor, _ = burst(hook, [(pull_payload("closed", 1, heads[1], url), str(uuid.uuid4())) for _ in range(50)], 1)
    print(f"floor: one client, sequential, 50 deliveries: p50 {percentile(floor, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(floor, 0.99) * 1000:.1f} ms")
    jobs = [(pull_payload("synchronize", 1 + i % len(heads), heads[1 + i % len(heads)], url), str(uuid.uuid4()))
            for i in range(args.deliveries)]
    cpu = cpu_seconds(server.pid)
    latencies, wall = burst(hook, jobs, args.clients)
    cpu = cpu_seconds(server.pid) - cpu
    print(f"server CPU per delivery (gunicorn + Flask + the app): {cpu / len(jobs) * 1000:.2f} ms")
    server.send_signal(signal.SIGTERM)
    server.wait()
    worker = subprocess.Popen([PY, "-m", "leverguard", "bot", "worker"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    drain_start = time.perf_counter()
    wait_drained(world.settings.db)
    drain = time.perf_counter() - drain_start
    worker.send_signal(signal.SIGTERM)
    worker.wait()
    report_part_one(args, world, heads, latencies, wall, drain, {d for _, d in jobs})


def report_part_one(args: argparse.Namespace, world: Any, heads: dict[int, str], latencies: list[float],
                    wall: float, drain: float, sent: set[str]) -> None:
    from leverguard.bot.inbox import Inbox

    rows = Inbox(world.settings.db).list()
    stored = {r.id for r in rows if r.event == "pull_request" and r.action == "synchronize"}
    runs = {n: world.standin.runs(OWNER_REPO, heads[n]) for n in heads}
    comments = {n: world.standin.comments(OWNER_REPO, n) for n in heads}
    once = all(len(runs[n]) == 1 for n in heads) and all(len(comments[n]) == (n % 2) for n in heads)
    states = {s: sum(1 for r in rows if r.state == s and r.id in stored) for s in ("done", "superseded", "failed", "queued", "running")}
    print(f"ack latency over {len(latencies)} deliveries from {args.clients} clients: "
          f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms (target p99 < 50 ms); {len(latencies) / wall:.0f} deliveries/s")
    print(f"stored {len(sent & stored)}/{len(sent)} (lost: {len(sent - stored)}); inbox states {states}")
    print(f"worker drained {len(heads)} PRs in {drain:.2f} s; every PR reported exactly once: {once} "
          f"(check runs per PR: {sorted({len(v) for v in runs.values()})}, comments on stale PRs: "
          f"{sorted({len(comments[n]) for n in heads if n % 2})}, on clean PRs: "
          f"{sorted({len(comments[n]) for n in heads if not n % 2})})")


def part_two(args: argparse.Namespace, world: Any, env: dict[str, str], repo: Repo, bare: Path, url: str,
             before: str) -> None:
    from leverguard.bot.app import create_app
    from bot_helpers import LiveServer

    web = LiveServer(create_app(world.settings))
    worker = subprocess.Popen([PY, "-m", "leverguard", "bot", "worker"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    totals, fetches = [], []
    for k in range(args.repeat):
        number = 1000 + k
        head = publish_pull(repo.path, bare, number, stale_pr(repo, before, branch=f"e2e{k}", message=f"refactor {k}"))
        world.standin.add_pull(OWNER_REPO, number, base_ref="main", head_sha=head)
        start = time.perf_counter()
        deliver(web.url + "/webhook", pull_payload("opened", number, head, url), str(uuid.uuid4()))
        while not world.standin.comments(OWNER_REPO, number):
            time.sleep(0.002)
        totals.append(time.perf_counter() - start)
        fetches.append(time_fetch(world, number, env))
    worker.send_signal(signal.SIGTERM)
    worker.wait()
    web.stop()
    alone = []
    for k in range(args.repeat):
        start = time.perf_counter()
        done = subprocess.run([PY, "-m", "leverguard", "check-revert", "--repo", str(repo.path), f"main..e2e{k}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        alone.append(time.perf_counter() - start)
        assert done.returncode == 1, f"check-revert should find the revert: exit {done.returncode} {done.stderr[-300:]}"
    e2e, check, fetch = statistics.median(totals), statistics.median(alone), statistics.median(fetches)
    print(f"typical PR (18-file stale revert), median of {args.repeat}: delivery -> comment {e2e * 1000:.0f} ms; "
          f"`leverguard check-revert` alone {check * 1000:.0f} ms; cold blobless fetch "
          f"{fetch * 1000:.0f} ms; ratio e2e / (check-revert + fetch) = {e2e / (check + fetch):.2f} "
          f"(target <= 1.5); e2e / check-revert = {e2e / check:.2f}")


def time_fetch(world: Any, number: int, env: dict[str, str]) -> float:
    """A cold fetch into a fresh cache: the floor the bot adds to the check (by full_name, as the bot fetches)."""
    import dataclasses

    from leverguard.bot import fetch

    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        fetch.fetch_pull(dataclasses.replace(world.settings, cache_dir=cache), OWNER_REPO, "main", number,
                         {**env, **fetch.auth_env(None)})
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--prs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        (tmp / "home").mkdir()
        os.environ.update(hermetic(tmp / "home"))
        world = make_world(tmp, poll_seconds=0.02)
        env = {**os.environ, **world.env}
        repo, bare, url, heads, before = build(tmp, args.prs)
        world.standin.add_repo(OWNER_REPO, str(bare))
        for n, head in heads.items():
            world.standin.add_pull(OWNER_REPO, n, base_ref="main", head_sha=head)
        part_one(args, world, env, url, heads)
        part_two(args, world, env, repo, bare, url, before)
        world.standin.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
