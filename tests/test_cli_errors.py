"""Exit codes a script can trust: 3 for a crash (issue #9), the verdict or 141 for a closed pipe (issue #11)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Repo, run_leverguard
from revert_helpers import BOB, CAROL, body, land

CRASH_LINE = re.compile(r"leverguard: internal error: (\w+): (.*) \(details in (/\S+)\); please report it\n")
RAISING = ("from leverguard.errors import guarded\n"
           "def explode():\n    raise ValueError('the widget\\nbroke')\n"
           "raise SystemExit(guarded(explode))\n")


def python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, encoding="utf-8",
                          env={**os.environ, **env})


def test_an_unexpected_exception_exits_3_with_one_line_and_a_log(tmp_path: Path) -> None:
    proc = python(RAISING, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 3 and proc.stdout == ""
    match = CRASH_LINE.fullmatch(proc.stderr)
    assert match, proc.stderr
    assert match[1] == "ValueError" and match[2] == "the widget broke"  # one line, even for a multi-line message
    log = Path(match[3])
    assert log.parent == tmp_path / "cache" / "leverguard" and log.name.startswith("crash-")
    text = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "in explode" in text and "ValueError" in text


def test_the_crash_log_falls_back_to_the_temp_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    (tmp_path / "tmp").mkdir()
    proc = python(RAISING, {"XDG_CACHE_HOME": str(blocker), "TMPDIR": str(tmp_path / "tmp")})
    match = CRASH_LINE.fullmatch(proc.stderr)
    assert proc.returncode == 3 and match, proc.stderr
    assert Path(match[3]).parent == tmp_path / "tmp" and Path(match[3]).is_file()


def test_a_known_error_stays_exit_2_and_writes_no_crash_log(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    proc = run_leverguard("audit", "--repo", str(tmp_path / "missing"), cwd=tmp_path, env={"XDG_CACHE_HOME": str(cache)})
    assert proc.returncode == 2 and proc.stderr.startswith("leverguard: error: ") and proc.stderr.count("\n") == 1
    assert "internal error" not in proc.stderr and not cache.exists()


def _stale(repo: Repo, files: int) -> None:
    """#221 edits FILES modules on main; carol's branch lands their old copies again (the stale-tree revert)."""
    for i in range(files):
        repo.write(f"src/m{i}.py", body(f"m{i}", 3))
    repo.commit("initial import")
    land(repo, "feat: fusé kernels (#221)", {f"src/m{i}.py": body(f"m{i}", 3) + body(f"fused{i}", 3)
                                            for i in range(files)}, author=BOB)
    repo.git("checkout", "-q", "-b", "carol")
    repo.git("checkout", "-q", "HEAD~1", "--", "src")
    repo.commit("carol: tweak the scheduler", author=CAROL)
    repo.git("checkout", "-q", "main")


def test_a_real_crash_through_the_cli_exits_3_and_leaves_the_repository_alone(repo: Repo, tmp_path: Path) -> None:
    _stale(repo, 3)
    cache = tmp_path / "cache"
    # A stdout that cannot encode the finding's subject: an unexpected exception inside a real check.
    proc = run_leverguard("check-revert", "main..carol", cwd=repo.path,
                          env={"PYTHONIOENCODING": "ascii", "XDG_CACHE_HOME": str(cache)})
    match = CRASH_LINE.fullmatch(proc.stderr)
    assert proc.returncode == 3 and match, proc.stderr
    assert match[1] == "UnicodeEncodeError" and Path(match[3]).parent == cache / "leverguard"
    assert repo.git("status", "--porcelain", "--ignored") == ""
    fine = run_leverguard("check-revert", "main..carol", cwd=repo.path, env={"XDG_CACHE_HOME": str(cache)})
    assert fine.returncode == 1 and "fusé kernels" in fine.stdout and fine.stderr == ""


def test_version_is_the_packages_and_costs_no_click() -> None:
    from leverguard import __version__

    proc = run_leverguard("--version", cwd=ROOT)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"leverguard {__version__}\n", "")
    lean = python("import sys\nfrom leverguard.entry import main\nmain(['--version'])\n"
                  "print(sorted(m for m in ('click', 'typing', 'subprocess') if m in sys.modules))", {})
    assert lean.stdout.splitlines() == [f"leverguard {__version__}", "[]"], lean.stderr
    assert run_leverguard("--version", "--help", cwd=ROOT).stdout.startswith(f"leverguard {__version__}")


def pipeline(repo: Repo, command: str, reader: str, buffered: bool) -> subprocess.CompletedProcess[str]:
    """`leverguard COMMAND | READER` under `set -o pipefail`, as a CI script runs it."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED" or not buffered}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(["bash", "-o", "pipefail", "-c", f"{sys.executable} -m leverguard {command} | {reader}"],
                          cwd=repo.path, capture_output=True, encoding="utf-8", env=env)


# Unbuffered (python -u), TextIOWrapper drops a short write silently, so the verdict may stand instead of 141.
@pytest.mark.parametrize("buffered, codes", [(True, {141}), (False, {1, 141})], ids=["buffered", "unbuffered"])
def test_a_closed_pipe_after_findings_is_141_never_clean(repo: Repo, buffered: bool, codes: set[int]) -> None:
    _stale(repo, 400)  # the JSON report is far larger than a pipe's 64 KiB: the reader is gone for the rest
    for command, reader in (("check-revert --format json main..carol", "head -c1"),
                            ("audit --format json carol", "head -1")):
        proc = pipeline(repo, command, reader, buffered)
        assert proc.returncode in codes, (command, proc.returncode, proc.stderr)
        assert proc.stderr == "", proc.stderr  # no "Exception ignored ... BrokenPipeError", no traceback
    small = pipeline(repo, "check-revert main..carol", "head -1", buffered)  # one buffered write: nothing breaks
    assert small.returncode in ({1} if buffered else codes) and small.stderr == "", small.stderr  # never 0
    assert small.stdout.startswith('error: HEAD undoes 400/400 files of #221 "feat: fusé kernels (#221)"')


# Buffered, the whole report is one write that the reader takes; unbuffered, the closing newline may meet EPIPE.
@pytest.mark.parametrize("buffered, codes", [(True, {0}), (False, {0, 141})], ids=["buffered", "unbuffered"])
def test_a_clean_check_piped_to_head_keeps_exit_0(repo: Repo, buffered: bool, codes: set[int]) -> None:
    _stale(repo, 3)
    repo.git("checkout", "-q", "-b", "fresh", "main")
    land(repo, "feat: a new module", {"src/new.py": body("new", 5)})
    for command, reader in (("check-revert --format json main..fresh", "head -c1"),
                            ("audit --format json main", "head -1")):
        proc = pipeline(repo, command, reader, buffered)
        assert proc.returncode in codes and (proc.stdout, proc.stderr) == ("{" if reader == "head -c1" else "{\n", ""), command


@pytest.mark.parametrize("args", [("check-paths",), ("hook", "leverguard-commit-msg", "MSG"),
                                  ("hook", "leverguard-template", "MSG", "")])
def test_the_hooks_without_git_say_so(repo: Repo, tmp_path: Path, args: tuple[str, ...]) -> None:
    """The hooks start git through posix_spawn, not subprocess: no git on PATH is the same one-line error."""
    repo.write("README.md", "hello\n")
    repo.git("add", "README.md")
    (tmp_path / "MSG").write_text("Add a readme\n", encoding="utf-8")
    argv = [str(tmp_path / "MSG") if arg == "MSG" else arg for arg in args]
    proc = run_leverguard(*argv, cwd=repo.path, env={"PATH": str(tmp_path / "no-git-here")})
    assert proc.returncode == 2 and proc.stderr.strip() == \
        "leverguard: error: git is not installed or not on PATH: install git 2.38 or newer", proc.stderr
