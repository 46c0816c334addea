"""Benchmark every command on a repository holding 200 MB files: peak memory and time against git's floor.

Builds (issue #11, "Resources") a repository whose first commit adds three files of --mb MB each:
`assets/model.bin` (random bytes), `kernels/huge.cu` (text, a lever source that gates MPK_HUGE) and
`kernels/blob.c` (random bytes named like a lever source), beside a small lever project; the second
commit (#2) replaces all three with new 200 MB versions, and the branch `topic` rolls them back to the
first ones (a stale tree); `add` adds a fourth 200 MB file and `delete` deletes two (git loads an added
or deleted blob whole even when it takes it for binary). On `topic`, the index holds #2's versions
again (a staged 200 MB change for the hooks). Then runs each command once per repetition, from a fresh parent that reads its peak
resident memory (`ru_maxrss` of the children: the largest single process, leverguard or one of its git
children) and its wall time, and prints both beside the floor: `python -c pass` plus the bare git
command that lists the same change (`git diff --raw -z ...`), measured in the same run.

    python bench/bench_big_binary.py [--mb 200] [--repeat 3] [--only NAME]

Run it with the interpreter of a venv that holds a regular (non-editable) install: the `leverguard`
script next to `sys.executable` is the one measured. Target: at most 100 MB for every command.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": tempfile.gettempdir(),
       "GIT_AUTHOR_NAME": "Alice", "GIT_AUTHOR_EMAIL": "alice@example.com",
       "GIT_COMMITTER_NAME": "Alice", "GIT_COMMITTER_EMAIL": "alice@example.com"}
TARGET_MB = 100
BIG = ("assets/model.bin", "kernels/huge.cu", "kernels/blob.c")
KERNEL = "#include <x.h>\n#ifdef MPK_FAST\nint fast(void) { return 1; }\n#else\nint slow(void) { return 0; }\n#endif\n"
LAUNCH = ('import os\n\n\ndef flags():\n    out = ["-O3"]\n    if os.environ.get("MPK_FAST"):\n'
          '        out.append("-DMPK_FAST")\n    return out\n')
MESSAGE = "model: new weights\n\nRetrained on the full set.\n\nCo-Authored-By: Bob <bob@example.com>\n"
PROBE = ("import resource, subprocess, sys, time; start = time.perf_counter()\n"
         "try:\n code = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, "
         "timeout=float(sys.argv[1])).returncode\n"
         "except subprocess.TimeoutExpired:\n code = 'timeout'\n"
         "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)")


def _git(root: str, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, env=ENV, stdout=subprocess.DEVNULL)


def _random_file(path: str, mb: int, marker: bytes = b"") -> None:
    with open(path, "wb") as fh:
        fh.write(marker)
        for _ in range(mb):
            fh.write(os.urandom(1 << 20))


def _text_file(path: str, mb: int, version: int) -> None:
    """About MB megabytes of C: a lever gate at the top, then numbered lines; VERSION changes one line in 50."""
    with open(path, "w", encoding="ascii") as fh:
        fh.write("#ifdef MPK_HUGE\nint huge_on = 1;\n#endif\n")
        line, written = 0, 0
        while written < mb << 20:
            block = "".join(f"int huge_{n:09d} = {n * (version if n % 50 == 0 else 1)};\n"
                            for n in range(line, line + 20000))
            fh.write(block)
            written += len(block)
            line += 20000


def build(root: str, mb: int) -> None:
    os.makedirs(root)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "core.compression", "1")  # building faster; reading is what is measured
    for rel in ("src", "assets", "kernels"):
        os.makedirs(os.path.join(root, rel))
    with open(os.path.join(root, "src/kernel.cu"), "w") as fh:
        fh.write(KERNEL)
    with open(os.path.join(root, "src/launch.py"), "w") as fh:
        fh.write(LAUNCH)

    def versions(version: int) -> None:
        _random_file(os.path.join(root, BIG[0]), mb)
        _text_file(os.path.join(root, BIG[1]), mb, version)
        _random_file(os.path.join(root, BIG[2]), mb, b"/* MPK_BLOB */\n")

    versions(1)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "init (#1)")
    versions(2)
    _git(root, "commit", "-q", "-a", "-m", "model: retrain (#2)")
    _git(root, "checkout", "-q", "-b", "topic")
    _git(root, "checkout", "main~1", "--", *BIG)
    _git(root, "commit", "-q", "-m", "tidy: clean up the loader")  # the stale tree: #2's files rolled back
    _git(root, "checkout", "main", "--", *BIG)  # staged: #2's versions again, for the hooks
    _side_branches(root)


def _side_branches(root: str) -> None:
    """`add`: main plus a new 200 MB file (#1's model under a new name); `delete`: main without two of them."""
    def branch(name: str, message: str, *updates: str) -> None:
        env = {**ENV, "GIT_INDEX_FILE": os.path.join(root, ".git", f"bench-{name}.index")}
        subprocess.run(["git", "read-tree", "main"], cwd=root, check=True, env=env)
        subprocess.run(["git", "update-index", *updates], cwd=root, check=True, env=env)
        tree = subprocess.run(["git", "write-tree"], cwd=root, check=True, env=env, capture_output=True,
                              text=True).stdout.strip()
        commit = subprocess.run(["git", "commit-tree", tree, "-p", "main", "-m", message], cwd=root, check=True,
                                env=ENV, capture_output=True, text=True).stdout.strip()
        _git(root, "branch", "-f", name, commit)

    old_model = subprocess.run(["git", "rev-parse", f"main~1:{BIG[0]}"], cwd=root, check=True, capture_output=True,
                               text=True, env=ENV).stdout.strip()
    branch("add", "assets: keep the old model too", "--add", "--cacheinfo", f"100644,{old_model},assets/old.bin")
    branch("delete", "assets: drop the models", "--force-remove", BIG[0], BIG[2])
    with open(os.path.join(root, "MSG"), "w") as fh:
        fh.write(MESSAGE)


def measure(cmd: list[str], root: str, timeout: float = 600) -> tuple[float, float, str]:
    """(seconds, peak MB of the largest process, exit code or `timeout`) of CMD from a fresh parent.

    A command still running after TIMEOUT seconds is killed (its git children are left to finish
    and counted only as far as the kill reached them)."""
    for name in ("staged-lever-changes.marshal",):  # the message hooks' cache: measure the work, not a read
        path = os.path.join(root, ".git", "leverguard", name)
        if os.path.exists(path):
            os.unlink(path)
    shutil.copyfile(os.path.join(root, "MSG"), os.path.join(root, "MSG.run"))
    with open(os.path.join(root, "MSG.empty"), "w") as fh:  # what git hands prepare-commit-msg: no message yet
        fh.write("\n# Please enter the commit message for your changes.\n")
    out = subprocess.run([sys.executable, "-c", PROBE, str(timeout), *cmd], cwd=root, capture_output=True, text=True, env=ENV)
    seconds, kib, code = out.stdout.split()
    return float(seconds), int(kib) / 1024, code


def commands(leverguard: str) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (leverguard command, the bare git command that lists the same change)."""
    lg = [leverguard]
    staged = ["git", "diff", "--cached", "--raw", "-z"]
    commit = ["git", "diff", "--raw", "-z", "main~1", "main"]
    return {
        "check-revert main..topic": ([*lg, "check-revert", "main..topic"], ["git", "diff", "--raw", "-z", "main", "topic"]),
        "check-revert main..add": ([*lg, "check-revert", "main..add"], ["git", "diff", "--raw", "-z", "main", "add"]),
        "check-revert main..delete": ([*lg, "check-revert", "main..delete"],
                                      ["git", "diff", "--raw", "-z", "main", "delete"]),
        "audit topic": ([*lg, "audit", "topic"], ["git", "log", "--first-parent", "--raw", "-z", "topic"]),
        "levers diff main~1..main": ([*lg, "levers", "diff", "main~1..main"], commit),
        "levers diff (staged)": ([*lg, "levers", "diff"], staged),
        "levers (inventory)": ([*lg, "levers"], ["git", "ls-tree", "-r", "-z", "HEAD"]),
        "default-build main~1..main": ([*lg, "default-build", "main~1..main"], commit),
        "default-build hook (staged)": ([*lg, "hook", "leverguard-default-build", "MSG.run"], staged),
        "check-msg --range main~1..main": ([*lg, "check-msg", "--range", "main~1..main"], commit),
        "commit-msg hook (staged)": ([*lg, "hook", "leverguard-commit-msg", "MSG.run"], staged),
        "template hook (staged)": ([*lg, "hook", "leverguard-template", "MSG.empty"], staged),
        "check-paths (staged)": ([*lg, "check-paths"], ["git", "diff", "--cached", "--name-only", "-z"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of each large file")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", default=[], help="run only commands whose name starts so")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a command is killed")
    parser.add_argument("--keep", metavar="DIR", help="build the repository in DIR (reused when it exists)")
    args = parser.parse_args()
    leverguard = os.path.join(os.path.dirname(sys.executable), "leverguard")
    tmp = tempfile.mkdtemp(prefix="bench-big-")
    root = args.keep or os.path.join(tmp, "repo")
    try:
        if not os.path.isdir(root):
            build(root, args.mb)
        elif subprocess.run(["git", "rev-parse", "-q", "--verify", "add"], cwd=root, env=ENV,
                            stdout=subprocess.DEVNULL).returncode:
            _side_branches(root)
        todo = {name: cmds for name, cmds in commands(leverguard).items()
                if not args.only or any(name.startswith(o) for o in args.only)}
        python = [sys.executable, "-c", "pass"]
        samples: dict[str, list[tuple[float, float, str]]] = {name: [] for name in ["python", *todo]}
        floors: dict[str, list[tuple[float, float, str]]] = {name: [] for name in todo}
        for _ in range(args.repeat):  # interleaved, so load drifts hit all alike
            samples["python"].append(measure(python, root))
            for name, (cmd, floor) in todo.items():
                floors[name].append(measure(floor, root))
                samples[name].append(measure(cmd, root, args.timeout))
        py = statistics.median(s[0] for s in samples["python"])
        print(f"{args.mb} MB files; python -c pass {py * 1000:.0f} ms; peak = largest single process "
              f"(leverguard or a git child); target <= {TARGET_MB} MB")
        print(f"{'command':<32} {'exit':>4} {'time':>9} {'floor':>9} {'ratio':>6} {'peak':>8} {'floor':>8} "
              f"{'met':>4}")
        worst = 0.0
        for name in todo:
            seconds = statistics.median(s[0] for s in samples[name])
            peak = max(s[1] for s in samples[name])
            floor_s = py + statistics.median(s[0] for s in floors[name])
            floor_mb = max(s[1] for s in floors[name])
            worst = max(worst, peak)
            print(f"{name:<32} {samples[name][0][2]:>4} {seconds:8.2f}s {floor_s:8.2f}s {seconds / floor_s:5.1f}x "
                  f"{peak:6.0f}MB {floor_mb:6.0f}MB {'yes' if peak <= TARGET_MB else 'NO':>4}")
        print(f"worst peak {worst:.0f} MB (target <= {TARGET_MB} MB)")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
