"""The manifest run as users run it: the real pre-commit framework installing this repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Repo

# Captured before the hermetic fixture moves HOME: reuse the machine's pip cache for the hook env.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or os.path.expanduser("~/.cache/pip")
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
TRAILER = "\n\nCo-Authored-By: Bob <bob@example.com>"


def _git(*args: str, cwd: Path | str = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(url, rev) of this checkout as it is now, tracked files included uncommitted edits.

    `git stash create` records the working tree as a commit without touching anything; a
    shared clone can point a branch at it, so pre-commit fetches one fixed revision and builds
    its hook environment once per session (try-repo would build one per call).
    """
    snapshot = _git("stash", "create") or _git("rev-parse", "HEAD")
    mirror = tmp_path_factory.mktemp("hook-repo") / "leverguard"
    _git("clone", "-q", "--shared", "--no-checkout", str(ROOT), str(mirror))
    _git("update-ref", "refs/heads/snapshot", snapshot, cwd=mirror)
    return str(mirror), snapshot


def pre_commit(repo: Repo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PRE_COMMIT, *args], cwd=repo.path, capture_output=True, encoding="utf-8",
                          errors="replace", env={**os.environ, "PIP_CACHE_DIR": PIP_CACHE,
                                                 "PIP_DISABLE_PIP_VERSION_CHECK": "1"})


@pytest.fixture
def framework(repo: Repo, hook_repo: tuple[str, str]) -> Repo:
    url, rev = hook_repo
    repo.write(".pre-commit-config.yaml",
               f"repos:\n-   repo: {url}\n    rev: {rev}\n    hooks:\n    -   id: leverguard-paths\n")
    repo.write("README.md", "hello\n")
    repo.commit("initial")
    installed = pre_commit(repo, "install", "--install-hooks")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return repo


def git_commit(repo: Repo, message: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "commit", "-q", "-m", message + TRAILER], cwd=repo.path, capture_output=True,
                          encoding="utf-8", errors="replace")


def test_framework_hook_stops_a_real_commit_of_each_artifact(framework: Repo) -> None:
    framework.write("scratch/x.py")
    framework.write(".claude/settings.json", "{}\n")
    framework.write("results.csv", "1\n")
    framework.write("a/b/.pk_compile/obj", "bin\n")
    framework.write("src/kernel.cu", "int x;\n")
    framework.git("add", "-A")
    refused = git_commit(framework, "add work")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    for line in ("scratch/x.py: forbidden by 'scratch/' (default)",
                 ".claude/settings.json: forbidden by '.claude/' (default)",
                 "results.csv: forbidden by '*.csv' (default)",
                 "a/b/.pk_compile/obj: forbidden by '.pk_compile' (default)"):
        assert line in refused.stderr
    assert "src/kernel.cu: forbidden" not in refused.stderr
    assert framework.git("rev-list", "--count", "HEAD") == "1"

    framework.git("rm", "-q", "--cached", "-r", "scratch", ".claude", "results.csv", "a")
    accepted = git_commit(framework, "add the kernel")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert framework.git("show", "--name-only", "--format=", "HEAD") == "src/kernel.cu"


def test_framework_allows_deleting_an_artifact_and_checks_all_files(framework: Repo) -> None:
    framework.write("outputs/trace.bin", "bin\n")
    framework.commit("a trace slipped in before the hook existed")  # --no-verify
    everything = pre_commit(framework, "run", "leverguard-paths", "--all-files")
    assert everything.returncode == 1
    assert "outputs/trace.bin: forbidden by 'outputs/' (default)" in everything.stdout
    framework.git("rm", "-q", "outputs/trace.bin")
    cleanup = git_commit(framework, "remove the trace")
    assert cleanup.returncode == 0, cleanup.stdout + cleanup.stderr
