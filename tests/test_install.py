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


# ---- issue #11: a full disk, a read-only repository, core.hooksPath=/dev/null

def _install_limited(repo: Repo, limit_kib: int) -> subprocess.CompletedProcess[str]:
    """`leverguard install` under RLIMIT_FSIZE: a real EFBIG on the first byte past the limit."""
    return subprocess.run(["sh", "-c", f"ulimit -f {limit_kib}; exec \"$0\" -m leverguard install", sys.executable],
                          cwd=repo.path, capture_output=True, text=True)


def _hook_files(repo: Repo) -> dict[str, tuple[int, bool]]:
    hooks = repo.path / ".git" / "hooks"
    return {p.name: (p.stat().st_size, os.access(p, os.X_OK)) for p in hooks.iterdir() if not p.name.endswith(".sample")}


def test_a_full_disk_leaves_no_empty_hook_and_says_so_in_one_line(repo: Repo) -> None:
    result = _install_limited(repo, 0)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("leverguard: error: cannot write the hook ")
    assert "File too large" in lines[0] and "ulimit -f" in lines[0]
    assert _hook_files(repo) == {}  # no 0-byte hook, no stray temporary file
    assert run_leverguard("install", cwd=repo.path).returncode == 0
    assert all(size > 0 and executable for size, executable in _hook_files(repo).values())


def test_a_failed_reinstall_keeps_the_previous_hooks_working(repo: Repo) -> None:
    assert run_leverguard("install", cwd=repo.path).returncode == 0
    before = {name: (repo.path / ".git" / "hooks" / name).read_text() for name in bundled()}
    result = subprocess.run(["sh", "-c", "ulimit -f 0; exec \"$0\" -m leverguard install --with leverguard-abi",
                             sys.executable], cwd=repo.path, capture_output=True, text=True)
    assert result.returncode == 2
    assert {name: (repo.path / ".git" / "hooks" / name).read_text() for name in bundled()} == before


def test_an_empty_hook_left_by_an_older_install_is_replaced(repo: Repo) -> None:
    empty = repo.path / ".git" / "hooks" / "pre-commit"
    empty.write_text("")
    result = run_leverguard("install", cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert install.MARKER in empty.read_text() and os.access(empty, os.X_OK)


def test_a_full_tmpfs_is_reported(repo: Repo, tmp_path: Path) -> None:
    import pytest

    hooks = tmp_path / "tiny"
    hooks.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(hooks)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root): the RLIMIT_FSIZE test covers the write failure")
    try:
        (hooks / "filler").write_bytes(b"x" * 4096)
        repo.git("config", "core.hooksPath", str(hooks))
        result = run_leverguard("install", cwd=repo.path)
        assert result.returncode == 2 and "No space left on device" in result.stderr, result.stderr
        assert "free some disk space" in result.stderr
        assert sorted(p.name for p in hooks.iterdir()) == ["filler"]
    finally:
        subprocess.run(["umount", str(hooks)], check=True)


def _read_only(folder: Path) -> bool:
    """Make FOLDER read-only for real: chmod for a normal user; root ignores modes, so chattr +i then."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return True
    return subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0


def _writable(folder: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    folder.chmod(0o755)


def test_a_read_only_hooks_folder_is_one_clear_line(repo: Repo) -> None:
    import pytest

    hooks = repo.path / ".git" / "hooks"
    if not _read_only(hooks):
        pytest.skip("chattr +i is not available on this file system")
    try:
        result = run_leverguard("install", cwd=repo.path)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.startswith("leverguard: error: cannot write the hook ") and \
            len(result.stderr.strip().splitlines()) == 1
    finally:
        _writable(hooks)
    assert run_leverguard("install", cwd=repo.path).returncode == 0


def test_core_hooks_path_dev_null_is_reported(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", "/dev/null")
    result = run_leverguard("install", cwd=repo.path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "/dev/null is not a folder" in result.stderr and "git config --unset core.hooksPath" in result.stderr
    repo.git("config", "--unset", "core.hooksPath")
    assert run_leverguard("install", cwd=repo.path).returncode == 0
