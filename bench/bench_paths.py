"""Benchmark the staged-path guard against its floors and a peer hook, in one run.

Builds a repository of 2,000 files with 50 staged changes, then times (medians of interleaved
repetitions): `git diff --cached --name-only -z` (git floor), `python -c pass` (interpreter
floor), `leverguard check-paths FILES` (the pre-commit framework's mode), `leverguard check-paths`
(reading the index), and pre-commit-hooks' `check-added-large-files FILES` (the peer).

    python bench/bench_paths.py [--repeat 40]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import medians, ms, user_venv  # noqa: E402


def build_repo(root: str, files: int = 2000, staged: int = 50) -> list[str]:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
    subprocess.run(["git", "init", "-q", root], check=True, env=env)
    names = [f"src/mod{i % 40:02d}/file{i:04d}.py" for i in range(files)]
    for name in names:
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(f"value = {len(name)}\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "base"], cwd=root, check=True, env=env)
    changed = names[:staged]
    for name in changed:
        with open(os.path.join(root, name), "a") as fh:
            fh.write("value += 1\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "repo")
        changed = build_repo(root)
        bin_dir = user_venv(["pre-commit-hooks"])
        python, leverguard = os.path.join(bin_dir, "python"), os.path.join(bin_dir, "leverguard")
        commands = {
            "git floor": ["git", "diff", "--cached", "--name-only", "-z"],
            "python floor": [python, "-c", "pass"],
            "leverguard FILES": [leverguard, "check-paths", *changed],
            "leverguard index": [leverguard, "check-paths"],
            "peer: check-added-large-files": [os.path.join(bin_dir, "check-added-large-files"), *changed],
        }
        subprocess.run(commands["leverguard index"], cwd=root, check=True)  # warm the rule cache once
        result = medians(commands, root, args.repeat)
    report(result, args.repeat)
    return 0


def report(t: dict[str, float], repeat: int) -> None:
    print(f"medians of {repeat} interleaved runs, 2,000-file repository, 50 staged changes, regular install")
    for name, seconds in t.items():
        print(f"  {name:32s} {ms(seconds)}")
    files_ratio = t["leverguard FILES"] / t["python floor"]
    index_ratio = t["leverguard index"] / (t["python floor"] + t["git floor"])
    peer_ratio = t["peer: check-added-large-files"] / t["leverguard FILES"]
    print(f"  FILES mode / python floor          {files_ratio:5.2f}x  (target <= 2.0x)")
    print(f"  index mode / (python + git floor)  {index_ratio:5.2f}x  (target <= 2.5x)")
    print(f"  peer / FILES mode                  {peer_ratio:5.2f}x  (target >= 2.0x faster)")


if __name__ == "__main__":
    raise SystemExit(main())
