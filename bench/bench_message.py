"""Benchmark the commit-message hooks against their floors and gitlint (the peer), in one run.

Builds the 2,000-file benchmark repository plus a small MPK-style lever project, then times
(medians of interleaved repetitions, regular non-editable install): `python -c pass`
(interpreter floor), `git diff --cached --name-only -z` (git floor), gitlint on the same
message (peer), and leverguard's commit-msg and template hooks, on a commit without lever
changes (50 staged files) and on a lever cleanup; then every leverguard hook of one commit.

    python bench/bench_message.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Callable, Mapping, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from _timing import ms, time_once, user_venv  # noqa: E402
from message_helpers import FILES, GOOD_CLEANUP, LEDGER, ROPE_GATED, SCALE_GATED, PROBE_GATED  # noqa: E402

TYPICAL = """\
Fix the decode-step timer rounding

The timer rounded microseconds down, so short steps read as zero.
Round to the nearest microsecond instead.

Co-Authored-By: Bob Builder <bob@example.com>
"""
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
Command = tuple[Sequence[str], Callable[[], None] | None]  # argv, and what to reset before each run


def git(root: str, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, env={**os.environ, **GIT_ENV}, stdout=subprocess.DEVNULL)


def write(root: str, name: str, text: str) -> None:
    path = os.path.join(root, name)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def build_repo(root: str, files: int = 2000) -> None:
    """The 2,000-file repository of the path benchmark, plus the lever project of the message tests."""
    os.makedirs(root)
    git(root, "init", "-q")
    for i in range(files):
        write(root, f"src/mod{i % 40:02d}/file{i:04d}.py", f"value = {i}\n")
    for name, text in FILES.items():
        write(root, name, text)
    write(root, "experiment_history/ledger.csv", LEDGER)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")


def stage_plain(root: str, count: int = 50) -> None:
    for i in range(count):
        with open(os.path.join(root, f"src/mod{i % 40:02d}/file{i:04d}.py"), "a", encoding="utf-8") as fh:
            fh.write("value += 1\n")
    git(root, "add", "-A")


def stage_levers(root: str) -> None:
    for path, old, new in (("mpk/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, pos);\n"),
                           ("mpk/scale.cc", SCALE_GATED, ""), ("mpk/attn.cu", PROBE_GATED, "")):
        with open(os.path.join(root, path), encoding="utf-8") as fh:
            text = fh.read()
        write(root, path, text.replace(old, new))
    with open(os.path.join(root, "mpk/build.py"), encoding="utf-8") as fh:
        lines = fh.readlines()
    write(root, "mpk/build.py", "".join(lines[:5] + lines[11:]))
    git(root, "add", "-A")


def medians(commands: Mapping[str, Command], cwd: str, repeat: int, warmup: int = 2) -> dict[str, float]:
    """Interleaved runs, so load drifts hit every command alike; the reset step is not timed."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(warmup + repeat):
        for name, (argv, reset) in commands.items():
            if reset is not None:
                reset()
            elapsed = time_once(argv, cwd, ok=range(0, 16))  # gitlint exits with its violation count
            if round_ >= warmup:
                samples[name].append(elapsed)
    return {name: statistics.median(values) for name, values in samples.items()}


def scenario(root: str, bin_dir: str, message: str, tmp: str, repeat: int, all_hooks: bool) -> dict[str, float]:
    msg, editmsg = os.path.join(tmp, "MSG"), os.path.join(tmp, "EDITMSG")
    write(tmp, "MSG", message)
    cached = os.path.join(root, ".git", "leverguard", "staged-lever-changes.marshal")

    def cold() -> None:  # no hook of this commit has computed the lever changes yet
        if os.path.exists(cached):
            os.remove(cached)

    def fresh_editmsg() -> None:  # what git hands prepare-commit-msg for a new message
        cold()
        write(tmp, "EDITMSG", "\n# Please enter the commit message for your changes.\n")

    python, leverguard = os.path.join(bin_dir, "python"), os.path.join(bin_dir, "leverguard")
    commands: dict[str, Command] = {
        "python floor": ([python, "-c", "pass"], None),
        "git floor": (["git", "diff", "--cached", "--name-only", "-z"], None),
        "gitlint (peer)": ([os.path.join(bin_dir, "gitlint"), "--ignore-stdin", "--msg-filename", msg], None),
        "check-msg MSG (CLI)": ([leverguard, "check-msg", msg], cold),
        "commit-msg, alone": ([leverguard, "hook", "leverguard-commit-msg", msg], cold),
        "template hook": ([leverguard, "hook", "leverguard-template", editmsg, ""], fresh_editmsg),
        "commit-msg, after it": ([leverguard, "hook", "leverguard-commit-msg", msg], None),
    }
    if all_hooks:
        commands["paths hook"] = ([leverguard, "hook", "leverguard-paths"], None)
        commands["abi hook"] = ([leverguard, "hook", "leverguard-abi"], None)
        commands["default-build hook"] = ([leverguard, "hook", "leverguard-default-build", msg], None)
    for argv, reset in commands.values():  # warm the interpreter's and the settings' caches once
        if reset is not None:
            reset()
        time_once(argv, root, ok=range(0, 16))
    return medians(commands, root, repeat)


def report(title: str, t: dict[str, float], all_hooks: bool) -> None:
    floor = t["python floor"] + t["git floor"]
    print(title)
    for name, seconds in t.items():
        print(f"  {name:22s} {ms(seconds)}")
    for name in ("check-msg MSG (CLI)", "commit-msg, alone", "template hook", "commit-msg, after it"):
        print(f"  {name + ' / (python + git floor)':44s} {t[name] / floor:5.2f}x")
    for name in ("check-msg MSG (CLI)", "commit-msg, after it"):
        print(f"  {name + ' / gitlint':44s} {t[name] / t['gitlint (peer)']:5.2f}x")
    print(f"  {'gitlint / python floor':44s} {t['gitlint (peer)'] / t['python floor']:5.2f}x")
    if all_hooks:
        hooks = ("paths hook", "abi hook", "template hook", "commit-msg, after it", "default-build hook")
        standard = ("paths hook", "template hook", "commit-msg, after it")  # abi, default-build: opt-in
        print(f"  standard hooks of one commit (paths + template + commit-msg): "
              f"{sum(t[h] for h in standard) * 1000:.1f} ms (target < 150 ms)")
        print(f"  all hooks of one commit (paths + abi + template + commit-msg + default-build): "
              f"{sum(t[h] for h in hooks) * 1000:.1f} ms; message hooks only: "
              f"{(t['template hook'] + t['commit-msg, after it']) * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    bin_dir = user_venv(["gitlint-core"])
    if not os.path.exists(os.path.join(bin_dir, "gitlint")):
        subprocess.run([os.path.join(bin_dir, "python"), "-m", "pip", "install", "--quiet", "gitlint-core"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "repo")
        build_repo(root)
        stage_plain(root)
        plain = scenario(root, bin_dir, TYPICAL, tmp, args.repeat, all_hooks=True)
        print(f"medians of {args.repeat} interleaved runs, 2,000-file repository, regular install")
        report("commit without lever changes (50 staged files), typical message:", plain, all_hooks=True)
        sys.stdout.flush()  # printed before the slow lever scenario starts
        git(root, "commit", "-q", "--no-verify", "-m", "plain")
        stage_levers(root)
        levers = scenario(root, bin_dir, GOOD_CLEANUP, tmp, args.repeat, all_hooks=False)
    report("lever cleanup (hard-wire, revert, diagnostic), full cleanup message:", levers, all_hooks=False)
    print("targets: commit-msg and template <= 2.5x (python + git floor) without lever changes; "
          "commit-msg <= 0.2x gitlint with lever changes; standard hooks of one commit (paths + template + commit-msg) < 150 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
