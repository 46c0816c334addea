"""Benchmark check-revert and audit against floors measured in the same run.

Generates with `git fast-import` a large repository (20,000 commits, 5,000 files) and a small one
(2,000 commits, same files), each ending with stale-revert PR branches that restore 1, 20 and 200
files of a commit merged 40 commits earlier. Then times (medians of interleaved repetitions):
the floor = `python -c pass` + `git diff --raw -z` of the landing change + `git log --first-parent
--raw -z` over the 150-commit window; `leverguard check-revert` per PR; peak memory of the check
(ru_maxrss of a child); and `leverguard audit --max-count 1000` in ms per commit.

    python bench/bench_revert.py [--repeat 5] [--commits 20000] [--small 2000]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import medians, ms  # noqa: E402

FILES = 5000
SIZES = (1, 20, 200)
BIG_AGE = 40  # the reverted commit landed this many first-parent commits before the tip
ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}


def _content(path: str, version: int) -> bytes:
    lines = [f"def {path.replace('/', '_').replace('.', '_')}_{i}(x):  # rev {version if i % 7 == 0 else 0}\n"
             f"    return x * {i} + {version if i % 5 == 0 else 1}\n" for i in range(12)]
    return "".join(lines).encode()


def _blob(path: str, data: bytes) -> bytes:
    return b"M 100644 inline " + path.encode() + b"\ndata " + str(len(data)).encode() + b"\n" + data + b"\n"


def _commit(ref: str, mark: int, when: int, subject: str, parent: int | None, body: list[bytes]) -> bytes:
    msg = subject.encode()
    head = (f"commit {ref}\nmark :{mark}\nauthor A{mark % 13} <a{mark % 13}@x> {when} +0000\n"
            f"committer C <c@x> {when} +0000\ndata {len(msg)}\n").encode() + msg + b"\n"
    return head + (f"from :{parent}\n".encode() if parent else b"") + b"".join(body) + b"\n"


def generate(root: str, commits: int) -> None:
    """History of COMMITS squash-style commits; the one BIG_AGE from the tip changes 200 files."""
    rng = random.Random(commits)
    paths = [f"src/pkg{i % 50:02d}/mod{i:04d}.py" for i in range(FILES)]
    version = {p: 0 for p in paths}
    out = [_commit("refs/heads/main", 1, 1_600_000_000, "initial", None, [_blob(p, _content(p, 0)) for p in paths])]
    big = paths[:200]
    for n in range(2, commits + 1):
        hot = rng.random() < 0.5  # half the commits edit one of 100 hot files, as real histories do
        touched = big if n == commits - BIG_AGE else rng.sample(paths[200:300] if hot else paths[300:], rng.randint(1, 3))
        if n == commits - BIG_AGE:
            stale = {p: _content(p, version[p]) for p in big}
        for p in touched:
            version[p] = n
        out.append(_commit("refs/heads/main", n, 1_600_000_000 + n * 60, f"change {n} (#{n})", n - 1,
                           [_blob(p, _content(p, n)) for p in touched]))
    for i, size in enumerate(SIZES):
        genuine = paths[-1 - i]
        edits = [_blob(p, stale[p]) for p in big[:size]] + [_blob(genuine, _content(genuine, 10**6))]
        out.append(_commit(f"refs/heads/stale-{size}", commits + 1 + i, 1_600_000_000 + commits * 61,
                           f"stale PR {size}", commits - 5, edits))
    subprocess.run(["git", "init", "-q", "-b", "main", root], check=True, env=ENV)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(out), check=True, env=ENV)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=root, check=True, env=ENV)


def peak_mb(cmd: list[str], cwd: str) -> float:
    """Peak resident memory of CMD (and its git children), measured from a fresh parent."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], cwd=cwd, capture_output=True, text=True, env=ENV)
    return int(out.stdout.strip()) / 1024


def bench_repo(root: str, leverguard: list[str], repeat: int) -> dict[int, tuple[float, float, float]]:
    """Per PR size: (floor, check-revert, peak MB)."""
    tree = {}
    for size in SIZES:
        tree[size] = subprocess.run(["git", "merge-tree", "--write-tree", "main", f"stale-{size}"], cwd=root,
                                    capture_output=True, text=True, check=True).stdout.split()[0]
    commands: dict[str, list[str]] = {"python": [sys.executable, "-c", "pass"],
                                      "log": ["git", "log", "--first-parent", "--raw", "-z", "-n", "150", "main"]}
    for size in SIZES:
        commands[f"diff-{size}"] = ["git", "diff", "--raw", "-z", "main", tree[size]]
        commands[f"check-{size}"] = [*leverguard, "check-revert", f"main..stale-{size}"]
    times = medians(commands, root, repeat, env=ENV)
    return {size: (times["python"] + times["log"] + times[f"diff-{size}"], times[f"check-{size}"],
                   peak_mb([*leverguard, "check-revert", f"main..stale-{size}"], root)) for size in SIZES}


def bench_audit(root: str, leverguard: list[str], count: int, repeat: int) -> tuple[float, float]:
    """(median ms per audited commit, peak MB) of `audit --max-count COUNT`."""
    cmd = [*leverguard, "audit", "--max-count", str(count), "--format", "json"]
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, check=False, env=ENV)
        samples.append((time.perf_counter() - start) * 1000 / count)
    return sorted(samples)[len(samples) // 2], peak_mb(cmd, root)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--commits", type=int, default=20000)
    parser.add_argument("--small", type=int, default=2000)
    parser.add_argument("--audit", type=int, default=1000)
    args = parser.parse_args()
    leverguard = [os.path.join(os.path.dirname(sys.executable), "leverguard")]
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for commits in (args.small, args.commits):
            root = os.path.join(tmp, f"r{commits}")
            start = time.perf_counter()
            generate(root, commits)
            print(f"generated {commits} commits x {FILES} files in {time.perf_counter() - start:.1f} s")
            results[commits] = bench_repo(root, leverguard, args.repeat)
        print(f"\n{'repo':>7} {'PR files':>8} {'floor':>10} {'check-revert':>12} {'ratio':>6} {'target':>6} {'peak':>8}")
        for commits, rows in results.items():
            for size, (floor, check, peak) in rows.items():
                target = 6 if size == 1 else 3
                print(f"{commits:>7} {size:>8} {ms(floor)} {ms(check):>12} {check / floor:5.1f}x {target:>5}x "
                      f"{peak:6.0f} MB")
        per_commit, peak = bench_audit(os.path.join(tmp, f"r{args.commits}"), leverguard, args.audit, 3)
        print(f"\naudit --max-count {args.audit} on {args.commits} commits: {per_commit:.1f} ms/commit "
              f"(target <= 40), peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
