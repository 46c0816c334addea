"""Benchmark `audit` on a history whose every commit edits one large generated file.

moto's `IMPLEMENTATION_COVERAGE.md` shape: a 12,000-line checklist (`- [ ] describe_x` under `<details>`
blocks whose lines repeat hundreds of times) where most commits tick a few boxes and every 10th, a
release's regeneration, rewrites some 400 lines across the file. Each audited commit's hunks then share
lines (`</details>`) with hundreds of hunks of the window's commits: matching them pool by pool is
quadratic, and an audit of moto took 16 minutes before it was counted from the candidate's side.

Prints ms per audited commit against the floor measured in the same run: git's own `-U0` patches of the
audited commits (`git log --first-parent -p -U0`), which the audit reads at least once.

    python bench/bench_audit_generated.py [--commits 600] [--audit 300] [--repeat 3] [--baseline EXE]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import audit_arguments, audit_commands, medians  # noqa: E402

SERVICES, OPERATIONS = 300, 40  # 12,000 checklist lines
RELEASE_EVERY = 10
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir()}


def _coverage(done: set[tuple[int, int]]) -> bytes:
    parts = ["# Implementation coverage\n\n"]
    for s in range(SERVICES):
        ticked = sum(1 for o in range(OPERATIONS) if (s, o) in done)
        parts.append(f"## service{s}\n<details>\n<summary>{ticked * 100 // OPERATIONS}% implemented</summary>\n\n")
        parts += [f"- [{'X' if (s, o) in done else ' '}] {('describe', 'list', 'tag', 'get')[o % 4]}_resource_{o // 4}\n"
                  for o in range(OPERATIONS)]  # operation names repeat across services, as AWS's do
        parts.append("</details>\n\n")
    return "".join(parts).encode()


def generate(root: str, commits: int) -> None:
    rng = random.Random(commits)
    done: set[tuple[int, int]] = set()
    out = []
    for n in range(1, commits + 1):
        if n % RELEASE_EVERY == 0:  # a release regenerates: many boxes change at once, some unticked
            for _ in range(400):
                done.symmetric_difference_update({(rng.randrange(SERVICES), rng.randrange(OPERATIONS))})
            subject = f"Prep release 5.{n // RELEASE_EVERY}.0 (#{n})"
        else:
            done.update((rng.randrange(SERVICES), rng.randrange(OPERATIONS)) for _ in range(rng.randint(1, 3)))
            subject = f"service{rng.randrange(SERVICES)}: new operations (#{n})"
        data, code = _coverage(done), f"VALUE_{n} = {n}\n".encode()
        message = subject.encode()
        out.append(f"commit refs/heads/main\nmark :{n}\nauthor A{n % 17} <a{n % 17}@x> {1_600_000_000 + n * 3600} "
                   f"+0000\ncommitter C <c@x> {1_600_000_000 + n * 3600} +0000\ndata {len(message)}\n".encode() +
                   message + b"\n" + (f"from :{n - 1}\n".encode() if n > 1 else b"") +
                   f"M 100644 inline IMPLEMENTATION_COVERAGE.md\ndata {len(data)}\n".encode() + data + b"\n" +
                   f"M 100644 inline src/service{n % 50}.py\ndata {len(code)}\n".encode() + code + b"\n")
    subprocess.run(["git", "init", "-q", "-b", "main", root], check=True, env=ENV)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(out), check=True, env=ENV)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=root, check=True, env=ENV)


def main() -> int:
    args = audit_arguments(__doc__.splitlines()[0], commits=600, audit=300)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "generated")
        generate(root, args.commits)
        commands = audit_commands(args)
        times = medians(commands, root, args.repeat, env=ENV, warmup=1)
    per = {name: seconds * 1000 / args.audit for name, seconds in times.items()}
    print(f"audit --max-count {args.audit} of {args.commits} commits editing a 12,000-line generated file:")
    print(f"  floor (git's -U0 patches) {per['floor']:6.2f} ms/commit")
    for name in ("audit", "baseline"):
        if name in per:
            print(f"  {name:25} {per[name]:6.2f} ms/commit  {per[name] / per['floor']:5.1f}x the floor (target <= 40 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
