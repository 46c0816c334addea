"""Benchmark `audit` on a history whose commits now and then add dozens of huge text fixtures.

headscale's shape: every 40th commit records 20 generated test fixtures of 12,000 lines each (240,000
lines, about 13 MB of patch; headscale's held sixty of 22,000), the others edit a source file. An audit
reads the window's patches of every commit: before patches over `MAX_PATCH_LINES` lines (per file) or
`git.MAX_ANSWER` bytes (per commit) were passed over, their lines were parsed and held (200 commits of
headscale: 53 s and 1.1 GB).

Prints ms per audited commit and peak memory (the largest process: leverguard or a git child) against the
floor measured in the same run: git's own `-U0` patches of the audited commits.

    python bench/bench_audit_fixtures.py [--commits 200] [--audit 150] [--repeat 3] [--baseline EXE]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import audit_arguments, audit_commands, medians, peak_mb  # noqa: E402

FIXTURES, LINES, EVERY = 20, 12_000, 40
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}
TARGET_MB = 100


def generate(root: str, commits: int) -> None:
    out = []
    for n in range(1, commits + 1):
        files = [(f"src/module{n % 30}.go", f"package main\n\nconst Value{n} = {n}\n".encode())]
        if n % EVERY == 0:
            files += [(f"testdata/run{n}/case{i}.json",
                       "".join(f'  {{"rule": {j}, "src": "tag:group{i}", "dst": "host{n}:{j}"}},\n'
                               for j in range(LINES)).encode()) for i in range(FIXTURES)]
        message = f"policy: compat case {n} (#{n})".encode()
        out.append(f"commit refs/heads/main\nmark :{n}\nauthor A{n % 7} <a{n % 7}@x> {1_600_000_000 + n * 3600} "
                   f"+0000\ncommitter C <c@x> {1_600_000_000 + n * 3600} +0000\ndata {len(message)}\n".encode() +
                   message + b"\n" + (f"from :{n - 1}\n".encode() if n > 1 else b"") +
                   b"".join(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n" for path, data in files))
    subprocess.run(["git", "init", "-q", "-b", "main", root], check=True, env=ENV)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(out), check=True, env=ENV)


def main() -> int:
    args = audit_arguments(__doc__.splitlines()[0], commits=200, audit=150)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "fixtures")
        generate(root, args.commits)
        commands = audit_commands(args, "main")
        times = medians(commands, root, args.repeat, env=ENV, warmup=1)
        peaks = {name: peak_mb(cmd, root, ENV) for name, cmd in commands.items()}
    per = {name: seconds * 1000 / args.audit for name, seconds in times.items()}
    print(f"audit --max-count {args.audit} of {args.commits} commits, every {EVERY}th adding {FIXTURES} fixtures "
          f"of {LINES:,} lines:")
    print(f"  floor (git's -U0 patches) {per['floor']:7.2f} ms/commit  peak {peaks['floor']:6.0f} MB")
    for name in ("audit", "baseline"):
        if name in per:
            print(f"  {name:25} {per[name]:7.2f} ms/commit  {per[name] / per['floor']:5.1f}x the floor  "
                  f"peak {peaks[name]:6.0f} MB (target <= {TARGET_MB})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
