"""Benchmark check-revert and audit against floors measured in the same run.

Generates with `git fast-import` a large repository (20,000 commits, 5,000 files of about 20 KB)
and a small one (2,000 commits, same files), each ending with PR branches: stale ones that restore
1, 20 and 200 files of a commit merged 40 commits earlier, one that restores its 20 and 200 hot
files as they were 60 commits earlier (undoing dozens of commits), and clean ones that edit 20 and
200 recently changed files. Then times (medians of interleaved repetitions): the floor = `python
-c pass` + `git diff --raw -z` of the landing change + `git log --first-parent --raw -z` over the
150-commit window; `leverguard check-revert` per PR; git's own share of it (the `-U0` patches of the
landing change and of the window's commits on its paths, side by side, with no work tree to reuse, as
the check reads them); the git processes one check starts (counted
through a `git` shim on PATH); peak memory of the check (ru_maxrss of a child); and `leverguard
audit --max-count 1000` in ms per commit.

    python bench/bench_revert.py [--repeat 5] [--commits 20000] [--small 2000] [--lines 400] [--baseline EXE]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import medians, ms, peak_mb  # noqa: E402

FILES = 5000
LINES = 400  # two source lines each: about 20 KB a file (issue #9)
SIZES = (1, 20, 200)
PRS = ("stale-1", "stale-20", "stale-200", "stale-many-20", "stale-many-200", "clean-20", "clean-200")
MANY_AGE = 60  # the stale-many PRs restore hot files as they were this many commits before the tip
BIG_AGE = 40  # the reverted commit landed this many first-parent commits before the tip
# bytecode written, as an installed leverguard has it: without, every module compiles at each start
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}


def _content(path: str, version: int) -> bytes:
    lines = LINES
    name = path.replace('/', '_').replace('.', '_')
    # a version touches few lines (as real edits do): the -U0 patch stays small, the file does not
    body = [f"def {name}_{i}(x):  # rev {version if i % 97 == version % 97 else 0}\n"
            f"    return x * {i} + {version if i % 89 == version % 89 else 1}\n" for i in range(lines)]
    return "".join(body).encode()


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
    hot_files = paths[200:400]
    many: dict[str, bytes] = {}
    for n in range(2, commits + 1):
        if n == commits - MANY_AGE:
            many = {p: _content(p, version[p]) for p in hot_files}
        hot = rng.random() < 0.5  # half the commits edit one of 100 hot files, as real histories do
        touched = big if n == commits - BIG_AGE else rng.sample(hot_files if hot else paths[400:], rng.randint(1, 3))
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
    mark = commits + 10
    for size in (20, 200):
        genuine = paths[-10 - size // 20]
        edits = [_blob(p, many[p]) for p in hot_files[:size]] + [_blob(genuine, _content(genuine, 10**6))]
        out.append(_commit(f"refs/heads/stale-many-{size}", mark, 1_600_000_000 + commits * 61, f"stale many {size}",
                           commits - 2, edits))
        clean = [_blob(p, _content(p, version[p]) + b"# reviewed\n") for p in hot_files[-size:]]
        out.append(_commit(f"refs/heads/clean-{size}", mark + 1, 1_600_000_000 + commits * 61, f"clean PR {size}",
                           commits, clean))
        mark += 2
    subprocess.run(["git", "init", "-q", "-b", "main", root], check=True, env=ENV)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(out), check=True, env=ENV)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=root, check=True, env=ENV)


def git_processes(cmd: list[str], cwd: str, shim: str) -> int:
    """How many git processes CMD starts: a `git` shim first on PATH logs each one."""
    log = os.path.join(shim, "log")
    if os.path.exists(log):
        os.unlink(log)
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, env={**ENV, "PATH": shim + os.pathsep + ENV["PATH"]})
    with open(log) as handle:
        return len(handle.readlines())


def make_shim(tmp: str) -> str:
    shim = os.path.join(tmp, "shim")
    os.makedirs(shim)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(shim, "git"), "w") as handle:
        handle.write(f'#!/bin/sh\necho "$1" >> "{shim}/log"\nexec "{real}" "$@"\n')
    os.chmod(os.path.join(shim, "git"), 0o755)
    return shim


def bench_repo(root: str, leverguard: list[str], repeat: int, shim: str,
               baseline: list[str] | None = None) -> dict[str, tuple[float, float, float, int, float, float]]:
    """Per PR: (floor, check-revert, peak MB, git processes, BASELINE's check-revert or 0, git's patches
    alone), interleaved."""
    tree = {}
    for pr in PRS:
        tree[pr] = subprocess.run(["git", "merge-tree", "--write-tree", "main", pr], cwd=root,
                                  capture_output=True, text=True, check=True).stdout.split()[0]
    commands: dict[str, list[str]] = {"python": [sys.executable, "-c", "pass"],
                                      "log": ["git", "log", "--first-parent", "--raw", "-z", "-n", "150", "main"]}
    for pr in PRS:
        commands[f"diff-{pr}"] = ["git", "diff", "--raw", "-z", "main", tree[pr]]
        commands[f"patches-{pr}"] = ["sh", "-c", _patches(root, tree[pr])]
        commands[f"check-{pr}"] = [*leverguard, "check-revert", f"main..{pr}"]
        if baseline:
            commands[f"base-{pr}"] = [*baseline, "check-revert", f"main..{pr}"]
    times = medians(commands, root, repeat, env=ENV)
    return {pr: (times["python"] + times["log"] + times[f"diff-{pr}"], times[f"check-{pr}"],
                 peak_mb([*leverguard, "check-revert", f"main..{pr}"], root, ENV),
                 git_processes([*leverguard, "check-revert", f"main..{pr}"], root, shim),
                 times.get(f"base-{pr}", 0.0), times[f"patches-{pr}"]) for pr in PRS}


def _patches(root: str, tree: str) -> str:
    """A shell command for git's own share of a check: the `-U0` patches of the landing change and of the
    window's commits on its paths, read as the check reads them (no work tree, no index, so no work-tree
    file stands in for a blob) and side by side, as the check runs them."""
    git_dir = os.path.join(root, ".git")
    git = f"GIT_INDEX_FILE={git_dir}/none git --git-dir={git_dir} --work-tree={git_dir} -C {git_dir}"
    paths = f"$({git} diff --name-only main {tree})"
    return (f"{git} diff-tree -r -p -U0 --no-renames main {tree} >/dev/null & "
            f"{git} log --first-parent -n 150 --format=%H main | "
            f"{git} diff-tree --stdin -r -p -U0 --no-renames -- {paths} >/dev/null; wait")


def bench_audit(root: str, leverguard: list[str], count: int, repeat: int) -> tuple[float, float]:
    """(median ms per audited commit, peak MB) of `audit --max-count COUNT`."""
    cmd = [*leverguard, "audit", "--max-count", str(count), "--format", "json"]
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, check=False, env=ENV)
        samples.append((time.perf_counter() - start) * 1000 / count)
    return sorted(samples)[len(samples) // 2], peak_mb(cmd, root, ENV)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--commits", type=int, default=20000)
    parser.add_argument("--small", type=int, default=2000, help="the small repository's commits (0: none)")
    parser.add_argument("--audit", type=int, default=1000)
    parser.add_argument("--lines", type=int, default=400, help="two source lines each (400: about 20 KB a file)")
    parser.add_argument("--baseline", help="another leverguard executable (e.g. a venv of main) timed in the same "
                        "rounds: a before/after ratio that load drifts hit alike")
    args = parser.parse_args()
    for name, commits in (("--commits", args.commits), ("--small", args.small or MANY_AGE + 1)):
        if commits <= MANY_AGE:
            parser.error(f"{name} {commits} is too short a history: the stale PRs restore files {MANY_AGE} commits "
                         f"back, so give more than {MANY_AGE}")
    global LINES
    LINES = args.lines
    leverguard = [os.path.join(os.path.dirname(sys.executable), "leverguard")]
    with tempfile.TemporaryDirectory() as tmp:
        shim = make_shim(tmp)
        results = {}
        for commits in (args.small, args.commits) if args.small else (args.commits,):
            root = os.path.join(tmp, f"r{commits}")
            start = time.perf_counter()
            generate(root, commits)
            print(f"generated {commits} commits x {FILES} files in {time.perf_counter() - start:.1f} s")
            results[commits] = bench_repo(root, leverguard, args.repeat, shim,
                                          [args.baseline] if args.baseline else None)
        print(f"\n{'repo':>7} {'PR':>15} {'floor':>10} {'check-revert':>12} {'ratio':>6} {'target':>6} {'peak':>8} "
              f"{'git':>4} {'git -U0 alone':>19}" + ("  baseline ratio" if args.baseline else ""))
        for commits, rows in results.items():
            for pr, (floor, check, peak, processes, base, patches) in rows.items():
                target = 6 if pr == "stale-1" else 3
                print(f"{commits:>7} {pr:>15} {ms(floor)} {ms(check):>12} {check / floor:5.1f}x {target:>5}x "
                      f"{peak:6.0f} MB {processes:>4} {ms(patches)} {patches / floor:4.1f}x"
                      + (f"  {ms(base)} {base / floor:5.1f}x" if base else ""))
        per_commit, peak = bench_audit(os.path.join(tmp, f"r{args.commits}"), leverguard, args.audit, 3)
        print(f"\naudit --max-count {args.audit} on {args.commits} commits: {per_commit:.1f} ms/commit "
              f"(target <= 40), peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
