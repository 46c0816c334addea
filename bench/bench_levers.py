"""Benchmark: `leverguard levers` on a generated 5,000-file tree against the floor `git grep -n -E PATTERN`.

Usage: python bench/bench_levers.py [--files 5000] [--gated 300] [--runs 7]
Prints medians and the ratio against the floor measured in the same run (target: at most 3x).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leverguard.config import defaults  # noqa: E402
from leverguard.levers.classify.inventory import inventory  # noqa: E402
from leverguard.levers.model.quick import lever_regex  # noqa: E402
from leverguard.levers.transitions.diff import compute_diff  # noqa: E402
from leverguard.session import Session  # noqa: E402

PLAIN = """\
// generated kernel {n}
#include "common.h"
namespace mpk {{
__device__ float helper_{n}(float x) {{ return x * {n}.0f; }}
#ifndef NDEBUG
static int debug_{n} = 0;
#endif
{body}
}}  // namespace mpk
"""
GATED = """\
#if defined(MPK_DSV3_LEVER_{k}) && MPK_DSV3_LEVER_{k} >= 1
__device__ void fast_{n}(float* x) {{ x[0] = {n}; }}
#elif defined(MPK_DSV3_PROBE_{k})
__device__ void probe_{n}(float* x) {{ x[1] = {n}; }}
#else
__device__ void legacy_{n}(float* x) {{ x[2] = {n}; }}
#endif
"""
PY_PLAIN = "def f_{n}(x):\n    return x + {n}\n" * 8
PY_GATED = """\
import os


def flags_{n}(world_size):
    flags = ["-O3"]
    if os.environ.get("MPK_DSV3_LEVER_{k}") == "1":
        flags.append("-DMPK_DSV3_LEVER_{k}=1")
    if world_size < 8:
        flags.append("-DMPK_SMALL_ROUTER_{k}")
    return flags
"""


def generate(root: Path, files: int, gated: int) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    step = max(1, files // gated)
    filler = "\n".join(f"__device__ int filler_{i}(int a) {{ return a + {i}; }}" for i in range(60))
    for n in range(files):
        k = n % 97
        is_gated = n % step == 0
        folder = root / f"mpk/part{n % 50}"
        folder.mkdir(parents=True, exist_ok=True)
        if n % 5 == 4:
            text = (PY_GATED if is_gated else PY_PLAIN).format(n=n, k=k)
            (folder / f"mod_{n}.py").write_text(text, encoding="utf-8")
            continue
        body = (GATED.format(n=n, k=k) if is_gated else "") + filler
        (folder / f"kernel_{n}.cu").write_text(PLAIN.format(n=n, body=body), encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", "generated"], cwd=root, check=True, env=env)


def interleaved_medians(fns: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median seconds of each function, run in rounds (one of each per round) so load hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--gated", type=int, default=300)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    config = defaults()
    pattern = lever_regex(config.get("levers.lever_patterns"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        generate(root, args.files, args.gated)
        grep = ["git", "grep", "-n", "-E", pattern, "HEAD"]
        cli = [sys.executable, "-m", "leverguard", "levers", "--format", "json"]
        # An installed tool runs from cached bytecode; this environment may disable it
        # (PYTHONDONTWRITEBYTECODE), so the CLI gets a private cache, warmed by one run.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        subprocess.run(cli, cwd=root, capture_output=True, check=True, env=env)
        medians = interleaved_medians({
            "floor": lambda: subprocess.run(grep, cwd=root, capture_output=True, check=True),
            "engine": lambda: inventory(Session(str(root)), config, "HEAD"),
            "cli": lambda: subprocess.run(cli, cwd=root, capture_output=True, check=True, env=env),
        }, args.runs)
        levers = len(inventory(Session(str(root)), config, "HEAD").entries)
        stage_one_change(root)
        diff = interleaved_medians({"diff": lambda: compute_diff(Session(str(root)), config, "HEAD", None)}, args.runs)["diff"]
    floor, engine, end_to_end = medians["floor"], medians["engine"], medians["cli"]
    print(f"tree: {args.files} files, ~{args.gated} with gates or injections, {levers} levers found")
    print(f"floor  git grep -n -E PATTERN HEAD : {floor * 1000:8.1f} ms (median of {args.runs})")
    print(f"engine inventory() in process     : {engine * 1000:8.1f} ms  ratio {engine / floor:5.2f}x")
    print(f"cli    leverguard levers --format json: {end_to_end * 1000:8.1f} ms  ratio {end_to_end / floor:5.2f}x")
    print(f"diff   compute_diff(HEAD, index), 1 staged file: {diff * 1000:8.1f} ms  ratio {diff / floor:5.2f}x")
    return 0


def stage_one_change(root: Path) -> None:
    """Hard-wire one lever in the index: what the commit-msg hook's `levers diff` sees."""
    path = root / "mpk/part0/kernel_0.cu"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("#if defined(MPK_DSV3_LEVER_0) && MPK_DSV3_LEVER_0 >= 1\n", "", 1), encoding="utf-8")
    subprocess.run(["git", "add", str(path)], cwd=root, check=True)


if __name__ == "__main__":
    raise SystemExit(main())
