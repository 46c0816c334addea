"""Bot benchmark on the PostgreSQL backend (issue #13): ack latency, worker throughput per worker count, e2e latency.

1. 200 signed deliveries from 20 concurrent clients against `leverguard bot serve` on PostgreSQL:
   ack p50/p99 (target p99 < 50 ms), nothing lost, every PR reported exactly once (bench_bot.py's part one).
2. Throughput: PRS distinct PRs queued, then 1, 2 and 4 `bot worker` processes (each its own cache, as
   separate hosts would be) drain them: deliveries per second, and PostgreSQL's CPU per job, which bounds
   how far adding hosts goes.
3. A typical PR: delivery -> comment with a running worker, against `check-revert` alone plus a cold fetch.

Usage: .venv/bin/python bench/bench_bot_postgres.py [--deliveries 200] [--clients 20] [--prs 20] [--jobs 40]
Needs PostgreSQL binaries (a throwaway cluster is started through .ci/postgres.sh) or LEVERGUARD_TEST_DATABASE_URL.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import bench_bot  # noqa: E402
import pg_helpers  # noqa: E402
from bot_helpers import OWNER_REPO, clean_pr, git_host, make_world, publish_pull, pull_payload, stale_pr  # noqa: E402

PY = sys.executable


def postgres_cpu_seconds() -> float:
    """User + system CPU of every PostgreSQL server process so far (Linux /proc)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text.split("(", 1)[1].rsplit(")", 1)
        if name == "postgres":
            fields = rest.split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def throughput(args: argparse.Namespace, server: Any, tmp: Path, repo: Any, bare: Path, url: str, before: str,
               workers: int) -> tuple[float, float]:
    """(deliveries per second, PostgreSQL CPU ms per job) for WORKERS worker processes on JOBS queued PRs."""
    from leverguard.bot.inbox import Inbox

    db = pg_helpers.fresh_database(server)
    (tmp / f"w{workers}").mkdir()
    world = make_world(tmp / f"w{workers}", db=db, database_url=db, poll_seconds=0.5,
                       git_url=git_host(tmp))  # the upstream of main()'s world
    world.standin.add_repo(OWNER_REPO, str(bare))
    inbox = Inbox(db)
    for n in range(1, args.jobs + 1):
        rev = stale_pr(repo, before, branch=f"t{workers}-{n}") if n % 2 else clean_pr(repo, f"t{workers}-{n}", f"t{n}")
        head = publish_pull(repo.path, bare, n, rev)
        world.standin.add_pull(OWNER_REPO, n, base_ref="main", head_sha=head)
        payload = json.dumps(pull_payload("synchronize", n, head, url)).encode()
        inbox.add(str(uuid.uuid4()), "pull_request", "synchronize", payload, repo=OWNER_REPO, pr=n, head_sha=head)
    env = {**os.environ, **world.env, "LEVERGUARD_DATABASE_URL": db}
    cpu, start = postgres_cpu_seconds(), time.perf_counter()
    procs = [subprocess.Popen([PY, "-m", "leverguard", "bot", "worker"], cwd=world.tmp,
                              env={**env, "LEVERGUARD_CACHE_DIR": f"host{i}"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(workers)]
    bench_bot.wait_drained(db)
    wall, cpu = time.perf_counter() - start, postgres_cpu_seconds() - cpu
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait()
    rows = inbox.list()
    done = sum(1 for d in rows if d.state == "done")
    assert done == args.jobs, f"{done}/{args.jobs} done: {sorted({(d.state, d.note[:120]) for d in rows})}"
    world.standin.stop()
    return args.jobs / wall, cpu / args.jobs * 1000


def delivery_to_comment(args: argparse.Namespace, world: Any, env: dict[str, str], repo: Any, bare: Path, url: str,
                        before: str) -> None:
    """A typical PR (the 18-file stale revert) with a running worker, against `check-revert` alone."""
    from bot_helpers import LiveServer

    from leverguard.bot.app import create_app

    web = LiveServer(create_app(world.settings))
    worker = subprocess.Popen([PY, "-m", "leverguard", "bot", "worker"], cwd=world.tmp, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    totals, fetches, alone = [], [], []
    for k in range(args.repeat):
        number = 1000 + k
        head = publish_pull(repo.path, bare, number, stale_pr(repo, before, branch=f"e2e{k}", message=f"refactor {k}"))
        world.standin.add_pull(OWNER_REPO, number, base_ref="main", head_sha=head)
        start = time.perf_counter()
        bench_bot.deliver(web.url + "/webhook", pull_payload("opened", number, head, url), str(uuid.uuid4()))
        while not world.standin.comments(OWNER_REPO, number):
            time.sleep(0.002)
        totals.append(time.perf_counter() - start)
        fetches.append(bench_bot.time_fetch(world, number, env))
    worker.send_signal(signal.SIGTERM)
    worker.wait()
    web.stop()
    for k in range(args.repeat):
        start = time.perf_counter()
        done = subprocess.run([PY, "-m", "leverguard", "check-revert", "--repo", str(repo.path), f"main..e2e{k}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        alone.append(time.perf_counter() - start)
        assert done.returncode == 1, "check-revert should find the revert"
    e2e, check, fetch = (statistics.median(v) for v in (totals, alone, fetches))
    print(f"typical PR (18-file stale revert), median of {args.repeat}: delivery -> comment {e2e * 1000:.0f} ms; "
          f"`leverguard check-revert` alone {check * 1000:.0f} ms; cold blobless fetch {fetch * 1000:.0f} ms; "
          f"ratio e2e / (check-revert + fetch) = {e2e / (check + fetch):.2f} (target <= 1.5); "
          f"e2e / check-revert = {e2e / check:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--prs", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    server = pg_helpers.start()
    pg_helpers.prepare_template(server)
    try:
        with tempfile.TemporaryDirectory() as name:
            tmp = Path(name)
            (tmp / "home").mkdir()
            os.environ.update(bench_bot.hermetic(tmp / "home"))
            db = pg_helpers.fresh_database(server)
            world = make_world(tmp, db=db, database_url=db, poll_seconds=0.5)
            env = {**os.environ, **world.env, "LEVERGUARD_DATABASE_URL": db}
            repo, bare, url, heads, before = bench_bot.build(tmp, args.prs)
            world.standin.add_repo(OWNER_REPO, str(bare))
            for n, head in heads.items():
                world.standin.add_pull(OWNER_REPO, n, base_ref="main", head_sha=head)
            print(f"PostgreSQL backend, {os.cpu_count()} CPUs")
            bench_bot.part_one(args, world, env, url, heads)
            rates = {}
            for workers in (1, 2, 4):
                rates[workers], db_ms = throughput(args, server, tmp, repo, bare, url, before, workers)
                print(f"{workers} worker(s), {args.jobs} PRs: {rates[workers]:.2f} deliveries/s "
                      f"(PostgreSQL CPU {db_ms:.1f} ms per job)")
            print(f"per added host like this one (2 workers): about +{rates[2]:.2f} deliveries/s, until "
                  f"PostgreSQL's CPU (above, per job) is the limit")
            delivery_to_comment(args, world, env, repo, bare, url, before)
            world.standin.stop()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
