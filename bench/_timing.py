"""Shared benchmark plumbing: interleaved repetitions, medians, and ratios against floors."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from typing import Mapping, Sequence


def time_once(cmd: Sequence[str], cwd: str, env: Mapping[str, str] | None = None,
              ok: Sequence[int] = (0, 1)) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()}")
    return elapsed


def medians(commands: Mapping[str, Sequence[str]], cwd: str, repeat: int,
            env: Mapping[str, str] | None = None, warmup: int = 2) -> dict[str, float]:
    """Median wall time of each command in seconds; runs are interleaved so load drifts hit all alike."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(warmup + repeat):
        for name, cmd in commands.items():
            elapsed = time_once(cmd, cwd, env)
            if round_ >= warmup:
                samples[name].append(elapsed)
    return {name: statistics.median(values) for name, values in samples.items()}


def peak_mb(cmd: Sequence[str], cwd: str, env: Mapping[str, str] | None = None) -> float:
    """Peak resident memory of CMD (and its git children: the largest single process), from a fresh parent."""
    import sys

    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], cwd=cwd, capture_output=True, text=True, env=env)
    return int(out.stdout.strip()) / 1024


def audit_arguments(description: str, commits: int, audit: int) -> argparse.Namespace:
    """The options of the benchmarks that audit a generated history: its size, how much of it, rounds, baseline."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--commits", type=int, default=commits)
    parser.add_argument("--audit", type=int, default=audit, help="commits audited (the newest)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", help="another leverguard executable timed in the same rounds")
    args = parser.parse_args()
    if not 0 < args.audit < args.commits:
        parser.error("--audit must be between 1 and --commits - 1")
    return args


def audit_commands(args: argparse.Namespace, *rev: str) -> dict[str, list[str]]:
    """The floor (git's own `-U0` patches of the audited commits), the audit of the installed leverguard next to
    this interpreter, and BASELINE's, as the audit benchmarks time them."""
    import os
    import sys

    audit = ["audit", "--max-count", str(args.audit), "--format", "json", *rev]
    commands = {"floor": ["git", "log", "--first-parent", "-p", "-U0", "-n", str(args.audit), "main"],
                "audit": [os.path.join(os.path.dirname(sys.executable), "leverguard"), *audit]}
    if args.baseline:
        commands["baseline"] = [args.baseline, *audit]
    return commands


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


ROOT = __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__)))


def user_venv(extra: Sequence[str] = ()) -> str:
    """bin/ of a venv holding a regular (non-editable) install of this checkout, as users get it.

    An editable install adds an import hook to every interpreter start-up (~25 ms), which
    would hide the hook's own cost; the pre-commit framework also installs hook repositories
    non-editable. The venv is kept in bench/.work/ and leverguard is reinstalled each run.
    """
    import os
    import sys

    venv = os.path.join(ROOT, "bench", ".work", "venv")
    bin_dir = os.path.join(venv, "bin")
    if not os.path.exists(os.path.join(bin_dir, "python")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        # A current pip, as virtualenv seeds the pre-commit framework's hook environments: older
        # pips write console scripts that `import re` first (~15 ms on every hook run).
        subprocess.run([os.path.join(bin_dir, "python"), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                       check=True)
        subprocess.run([os.path.join(bin_dir, "python"), "-m", "pip", "install", "--quiet", ROOT], check=True)
    if extra:  # each script's peers, also into a venv another script created first
        subprocess.run([os.path.join(bin_dir, "python"), "-m", "pip", "install", "--quiet", *extra], check=True)
    subprocess.run([os.path.join(bin_dir, "python"), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--force-reinstall", ROOT], check=True)
    return bin_dir
