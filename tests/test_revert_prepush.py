"""The pre-push guard through a real `git push` to a local bare remote with the hook installed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import Repo, run_leverguard
from revert_helpers import CAROL, body, land, seed


def _clone(repo: Repo, tmp_path: Path) -> Repo:
    """A bare remote with main, and a working clone (origin/HEAD set) with the hooks installed."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.path), str(remote)], check=True)
    work = tmp_path / "work"
    subprocess.run(["git", "clone", "-q", str(remote), str(work)], check=True)
    installed = run_leverguard("install", cwd=work)
    assert installed.returncode == 0, installed.stderr
    assert (work / ".git" / "hooks" / "pre-push").exists()
    clone = Repo(work)
    clone._tick = 100
    return clone


def _push(clone: Repo, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(["git", "push", "-q", "origin", *args], cwd=clone.path, capture_output=True,
                          text=True, env={**os.environ, **(env or {})})


def test_push_of_a_stale_branch_is_refused(repo: Repo, tmp_path: Path) -> None:
    old = seed(repo)
    land(repo, "feat: fused prep (#221)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)})
    clone = _clone(repo, tmp_path)
    clone.git("checkout", "-q", "-b", "topic")
    land(clone, "kernel: restructure", {**{f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(4)},
                                        "kernel.c": "int k;\n"}, author=CAROL)
    refused = _push(clone, "topic")
    assert refused.returncode != 0
    assert 'undoes 4/4 files of #221 "feat: fused prep (#221)"' in refused.stderr
    assert "SKIP=leverguard-revert git push" in refused.stderr
    assert _push(clone, "topic", env={"SKIP": "leverguard-revert"}).returncode == 0


def test_push_of_clean_and_declared_work_passes(repo: Repo, tmp_path: Path) -> None:
    old = seed(repo)
    sha = land(repo, "feat: fused prep (#221)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)})
    clone = _clone(repo, tmp_path)
    clone.git("checkout", "-q", "-b", "clean")
    land(clone, "feat: more", {"src/extra.py": body("extra", 4)}, author=CAROL)
    assert _push(clone, "clean").returncode == 0
    clone.git("checkout", "-q", "-b", "declared", "main")
    land(clone, f"Revert the fused prep\n\nThis reverts commit {sha}.",
         {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(4)}, author=CAROL)
    pushed = _push(clone, "declared")
    assert pushed.returncode == 0, pushed.stderr
    assert "declared" in pushed.stderr  # reported, not failing
    assert _push(clone, "--delete", "clean").returncode == 0


def test_pre_commit_framework_variables(repo: Repo, tmp_path: Path) -> None:
    old = seed(repo)
    land(repo, "feat: fused prep (#221)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)})
    clone = _clone(repo, tmp_path)
    stale = land(clone, "kernel: restructure", {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(4)}, author=CAROL)
    env = {"PRE_COMMIT_TO_REF": stale, "PRE_COMMIT_FROM_REF": "0" * 40, "PRE_COMMIT_REMOTE_NAME": "origin",
           "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}
    proc = run_leverguard("hook", "leverguard-revert", cwd=clone.path, env=env)
    assert proc.returncode == 1 and "#221" in proc.stderr
    proc = run_leverguard("hook", "leverguard-revert", cwd=clone.path, env={**env, "PRE_COMMIT_TO_REF": "0" * 40})
    assert proc.returncode == 0
