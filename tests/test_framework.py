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


def try_repo(repo: Repo, hook_id: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PRE_COMMIT, "try-repo", str(ROOT), hook_id, *extra], cwd=repo.path,
                          capture_output=True, encoding="utf-8", errors="replace",
                          env={**os.environ, "PIP_CACHE_DIR": PIP_CACHE, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})


@pytest.fixture
def seeded(repo: Repo) -> Repo:
    repo.write("README.md", "hello\n")
    repo.commit("initial")
    return repo


def test_framework_rejects_staged_artifacts_and_passes_clean_changes(seeded: Repo) -> None:
    seeded.write("scratch/x.py")
    seeded.write(".claude/settings.json", "{}\n")
    seeded.write("src/kernel.cu", "int x;\n")
    seeded.git("add", "-A")
    failed = try_repo(seeded, "leverguard-paths")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "scratch/x.py: forbidden by 'scratch/' (default)" in failed.stdout
    assert ".claude/settings.json: forbidden by '.claude/' (default)" in failed.stdout
    assert "src/kernel.cu" not in failed.stdout.split("forbidden by")[-1]

    seeded.git("rm", "-q", "--cached", "-r", "scratch", ".claude")
    passed = try_repo(seeded, "leverguard-paths")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_framework_checks_every_file_with_all_files(seeded: Repo) -> None:
    seeded.write("a/b/.pk_compile/obj", "bin\n")
    seeded.commit("a cache slipped in before the hook existed")
    result = try_repo(seeded, "leverguard-paths", "--all-files")
    assert result.returncode == 1
    assert "a/b/.pk_compile/obj: forbidden by '.pk_compile' (default)" in result.stdout
