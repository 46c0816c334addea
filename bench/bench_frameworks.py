"""What each hook framework adds per commit: pre-commit and prek running `leverguard-paths`.

Same repository as bench_paths.py (2,000 files, 50 staged changes). The manifest is consumed
as users consume it: a `.pre-commit-config.yaml` naming this checkout at its HEAD commit, hook
environments installed once beforehand, then `run` timed against calling the hook directly.

    python bench/bench_frameworks.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import ROOT, medians, ms, user_venv  # noqa: E402
from bench_paths import build_repo  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    bin_dir = user_venv(["pre-commit-hooks"])
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    frameworks = {name: shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)
                  for name in ("pre-commit", "prek")}
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "repo")
        changed = build_repo(root)
        with open(os.path.join(root, ".pre-commit-config.yaml"), "w") as fh:
            fh.write(f"repos:\n-   repo: {ROOT}\n    rev: {head.strip()}\n    hooks:\n    -   id: leverguard-paths\n")
        env = {**os.environ, "PRE_COMMIT_HOME": os.path.join(tmp, "cache")}
        commands = {"leverguard check-paths FILES (direct)": [os.path.join(bin_dir, "leverguard"), "check-paths", *changed]}
        for name, exe in frameworks.items():
            if exe is None:
                print(f"  {name}: not installed, skipped")
                continue
            subprocess.run([exe, "install-hooks"], cwd=root, env=env, check=True, capture_output=True)
            commands[f"{name} run leverguard-paths"] = [exe, "run", "leverguard-paths"]
        result = medians(commands, root, args.repeat, env=env)
    direct = result.pop("leverguard check-paths FILES (direct)")
    print(f"medians of {args.repeat} interleaved runs, 2,000-file repository, 50 staged changes")
    print(f"  {'leverguard check-paths FILES (direct)':40s} {ms(direct)}")
    for name, seconds in result.items():
        print(f"  {name:40s} {ms(seconds)}   framework adds {ms(seconds - direct)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
