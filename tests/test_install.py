"""`leverguard install` / `uninstall` with real hooks folders, core.hooksPath and foreign hooks."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT, Repo, run_leverguard
from leverguard import install


def bundled() -> list[str]:
    return sorted(install.bundled_scripts())


def test_install_writes_every_bundled_hook_executable(repo: Repo) -> None:
    result = run_leverguard("install", cwd=repo.path)
    assert result.returncode == 0, result.stderr
    for name in bundled():
        path = repo.path / ".git" / "hooks" / name
        assert os.access(path, os.X_OK)
        text = path.read_text()
        assert install.MARKER in text and sys.executable in text and "@PYTHON@" not in text
    again = run_leverguard("install", cwd=repo.path)
    assert "unchanged:" in again.stdout


def test_install_respects_core_hooks_path(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", "ci/hooks")
    (repo.path / "sub").mkdir()
    result = run_leverguard("install", cwd=repo.path / "sub")
    assert result.returncode == 0, result.stderr
    assert (repo.path / "ci" / "hooks" / "pre-commit").exists()
    assert not (repo.path / ".git" / "hooks" / "pre-commit").exists()


def test_foreign_hook_is_kept_unless_forced_and_restored_on_uninstall(repo: Repo) -> None:
    foreign = repo.path / ".git" / "hooks" / "pre-commit"
    foreign.write_text("#!/bin/sh\necho mine\n")
    refused = run_leverguard("install", cwd=repo.path)
    assert refused.returncode == 2
    assert "refusing to overwrite hooks leverguard did not write" in refused.stderr and "--force" in refused.stderr
    assert foreign.read_text() == "#!/bin/sh\necho mine\n"
    forced = run_leverguard("install", "--force", cwd=repo.path)
    assert forced.returncode == 0 and "replaced:" in forced.stdout
    assert install.MARKER in foreign.read_text()
    removed = run_leverguard("uninstall", cwd=repo.path)
    assert removed.returncode == 0 and "restored:" in removed.stdout
    assert foreign.read_text() == "#!/bin/sh\necho mine\n"


def test_uninstall_removes_only_its_own_hooks(repo: Repo) -> None:
    run_leverguard("install", cwd=repo.path)
    other = repo.path / ".git" / "hooks" / "post-merge"
    other.write_text("#!/bin/sh\n")
    result = run_leverguard("uninstall", cwd=repo.path)
    assert result.returncode == 0
    assert other.exists()
    assert not any((repo.path / ".git" / "hooks" / name).exists() for name in bundled())
    assert "no leverguard hooks installed" in run_leverguard("uninstall", cwd=repo.path).stdout


def test_install_outside_a_repository_is_a_clear_error(tmp_path: Path) -> None:
    result = run_leverguard("install", cwd=tmp_path, env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert result.returncode == 2 and "not a git repository" in result.stderr


def test_the_wheel_ships_the_hook_scripts_inside_the_package(tmp_path: Path) -> None:
    """A regular (non-editable) install finds its scripts, and no top-level `hooks` package leaks."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("leverguard-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for script in bundled():
        assert f"leverguard/hook_scripts/{script}" in names
    assert not any(name.startswith("hooks/") for name in names)


def _commit(repo: Repo, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "commit", "-q", "-m", "Speed up the kernel\n\nCo-Authored-By: Bob <bob@example.com>"],
                          cwd=repo.path, capture_output=True, text=True, env={**os.environ, **(env or {})})


def test_opt_in_hooks_run_in_the_same_stage_only_when_asked(repo: Repo) -> None:
    """The default-build gate (a rule for the exploring phase) runs from the plain commit-msg hook with --with."""
    repo.write("kernels/attn.cu", "int attn(int x) { return x; }\n")
    repo.commit("initial")
    repo.write("kernels/attn.cu", "int attn(int x) { return x + 1; }\n")  # ungated: changes the default build
    repo.git("add", "-A")
    assert run_leverguard("install", cwd=repo.path).returncode == 0
    assert 'hooks="leverguard-commit-msg"' in (repo.path / ".git/hooks/commit-msg").read_text()
    plain = _commit(repo)
    assert plain.returncode == 0, plain.stderr
    repo.write("kernels/attn.cu", "int attn(int x) { return x + 2; }\n")
    repo.git("add", "-A")
    assert run_leverguard("install", "--with", "leverguard-default-build", cwd=repo.path).returncode == 0
    script = (repo.path / ".git/hooks/commit-msg").read_text()
    assert 'hooks="leverguard-commit-msg,leverguard-default-build"' in script
    assert 'hooks="leverguard-paths"' in (repo.path / ".git/hooks/pre-commit").read_text()
    gated = _commit(repo)
    assert gated.returncode == 1 and "kernels/attn.cu:1: default-build:" in gated.stderr
    skipped = _commit(repo, env={"SKIP": "leverguard-default-build"})
    assert skipped.returncode == 0, skipped.stderr  # the other hook of the stage still ran and passed


def test_with_an_unknown_hook_is_a_usage_error(repo: Repo) -> None:
    result = run_leverguard("install", "--with", "leverguard-paths", cwd=repo.path)
    assert result.returncode == 2 and "not an opt-in hook; choose from leverguard-abi" in result.stderr
    assert not (repo.path / ".git/hooks/pre-commit").exists()
