"""The staged-path guard, end to end: real repositories, the real CLI, real `git commit` with hooks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from leverguard import config, paths, rulecache

FORBIDDEN = [
    "scratch/x.py",
    "results.csv",
    "a/b/.pk_compile/obj",
    ".claude/settings.json",
    "experiment_history/run1.md",
    "deep/outputs/trace.bin",
    "kernel.pk_compile",
    "nested/dir/.pk_compile",
    "src/scratch/notes.txt",
]
ALLOWED = ["src/kernel.cu", "docs/scratchpad.md", "csv_tools.py", "outputs.py", "my.pk_compile.py", "a/claude/x"]


def install_hooks(repo: Repo) -> None:
    result = run_leverguard("install", cwd=repo.path)
    assert result.returncode == 0, result.stderr


TRAILER = "\n\nCo-Authored-By: Bob <bob@example.com>"  # the commit-msg hook installed beside us wants one


def git_commit(repo: Repo, message: str = "change", env: dict[str, str] | None = None) -> tuple[int, str]:
    import subprocess

    proc = subprocess.run(["git", "commit", "-q", "-m", message + TRAILER], cwd=repo.path, capture_output=True,
                          env={**os.environ, **(env or {})}, encoding="utf-8", errors="replace")
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture
def seeded(repo: Repo) -> Repo:
    repo.write("README.md", "hello\n")
    repo.commit("initial")
    return repo


@pytest.mark.parametrize("path", FORBIDDEN)
def test_real_commit_is_rejected_for_each_artifact(seeded: Repo, path: str) -> None:
    install_hooks(seeded)
    seeded.write(path, "artifact\n")
    seeded.git("add", "--", path)
    code, out = git_commit(seeded)
    assert code != 0
    assert f"{path}: forbidden by" in out
    assert "git restore --staged --" in out
    assert seeded.git("rev-list", "--count", "HEAD") == "1"


@pytest.mark.parametrize("path", ALLOWED)
def test_real_commit_is_allowed_for_lookalike_names(seeded: Repo, path: str) -> None:
    install_hooks(seeded)
    seeded.write(path, "fine\n")
    seeded.git("add", "--", path)
    code, out = git_commit(seeded)
    assert code == 0, out
    assert seeded.git("rev-list", "--count", "HEAD") == "2"


def test_deleting_a_forbidden_file_is_cleanup(seeded: Repo) -> None:
    seeded.write("scratch/old.py")
    seeded.commit("an artifact slipped in")  # --no-verify: it predates the hook
    install_hooks(seeded)
    seeded.git("rm", "-q", "scratch/old.py")
    code, out = git_commit(seeded, "remove the artifact")
    assert code == 0, out


def test_renaming_into_a_forbidden_folder_is_rejected_and_out_of_it_allowed(seeded: Repo) -> None:
    seeded.write("src/a.py", "a = 1\n" * 20)
    seeded.write("scratch/b.py", "b = 2\n" * 20)
    seeded.commit("both")
    seeded.git("mv", "src/a.py", "scratch/a.py")
    assert run_leverguard("check-paths", cwd=seeded.path).returncode == 1
    seeded.git("mv", "scratch/a.py", "src/a.py")
    seeded.git("mv", "scratch/b.py", "src/b.py")
    result = run_leverguard("check-paths", cwd=seeded.path)
    assert result.returncode == 0, result.stderr


def test_skip_is_honoured_by_the_plain_hook(seeded: Repo) -> None:
    install_hooks(seeded)
    seeded.write("scratch/x.py")
    seeded.git("add", "scratch/x.py")
    code, out = git_commit(seeded, env={"SKIP": "other, leverguard-paths"})
    assert code == 0, out
    assert "leverguard-paths skipped" in out


def test_file_arguments_are_checked_as_the_framework_passes_them(seeded: Repo) -> None:
    seeded.write("sub/dir/ok.py")
    result = run_leverguard("check-paths", "ok.py", "data.csv", "--", "-odd.csv", cwd=seeded.path / "sub")
    assert result.returncode == 1
    assert "sub/data.csv: forbidden by '*.csv' (default)" in result.stderr
    assert "sub/-odd.csv: forbidden" in result.stderr
    assert "ok.py" not in result.stderr.splitlines()[0]


def test_json_format(seeded: Repo) -> None:
    import json

    result = run_leverguard("check-paths", "--format", "json", "a.csv", "b.py", cwd=seeded.path)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "findings": [{"rule": "forbidden-path", "path": "a.csv", "pattern": "*.csv", "origin": "default"}]}


def test_initial_commit_of_an_empty_repository(repo: Repo) -> None:
    install_hooks(repo)
    repo.write("results.csv")
    repo.git("add", "results.csv")
    code, out = git_commit(repo)
    assert code != 0 and "results.csv: forbidden by '*.csv' (default)" in out
    repo.git("rm", "-q", "--cached", "results.csv")
    repo.write("main.py")
    repo.git("add", "main.py")
    code, out = git_commit(repo)
    assert code == 0, out


def test_outside_a_repository_is_a_clear_error(tmp_path: Path) -> None:
    result = run_leverguard("check-paths", cwd=tmp_path, env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert result.returncode == 2
    assert result.stderr.startswith("leverguard: error: not a git repository")
    assert "Traceback" not in result.stderr


def test_unknown_option_is_a_usage_error(seeded: Repo) -> None:
    result = run_leverguard("check-paths", "--bogus", cwd=seeded.path)
    assert result.returncode == 2 and "unknown option '--bogus'" in result.stderr


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses non-UTF-8 file names")
def test_odd_file_names_are_read_with_z_and_printed_safely(seeded: Repo) -> None:
    names = [b"with space/x.csv", b"new\nline.csv", b"latin\xe9.csv", "caf\u00e9.csv".encode()]
    for name in names:
        seeded.write(name, "v\n")
    seeded.git("add", "-A")
    result = run_leverguard("check-paths", cwd=seeded.path)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert "with space/x.csv: forbidden by '*.csv' (default)" in lines
    assert '"new\\nline.csv": forbidden by \'*.csv\' (default)' in lines
    assert '"latin\\351.csv": forbidden by \'*.csv\' (default)' in lines
    assert "caf\u00e9.csv: forbidden by '*.csv' (default)" in lines
    assert len(lines) == 5  # four findings, one hint: a newline in a name cannot forge a line


def test_allowed_paths_and_extra_patterns_from_dedicated_file(seeded: Repo) -> None:
    seeded.write(".leverguard.toml", 'allowed_paths = ["tests/data/*.csv"]\nextra_forbidden_paths = ["*.nsys-rep"]\n')
    seeded.write("tests/data/golden.csv")
    seeded.write("profile.nsys-rep")
    seeded.write("other.csv")
    seeded.git("add", "-A")
    result = run_leverguard("check-paths", cwd=seeded.path)
    assert result.returncode == 1
    assert "profile.nsys-rep: forbidden by '*.nsys-rep' (.leverguard.toml)" in result.stderr
    assert "other.csv: forbidden by '*.csv' (default)" in result.stderr
    assert "golden.csv" not in result.stderr


def test_forbidden_paths_replaces_defaults_from_pyproject(seeded: Repo) -> None:
    seeded.write("pyproject.toml", '[project]\nname = "x"\n\n[tool.leverguard]\nforbidden_paths = ["*.log"]\n')
    assert run_leverguard("check-paths", "a.csv", cwd=seeded.path).returncode == 0
    result = run_leverguard("check-paths", "a.log", cwd=seeded.path)
    assert result.returncode == 1 and "a.log: forbidden by '*.log' (pyproject.toml)" in result.stderr


def test_dedicated_file_wins_over_pyproject(seeded: Repo) -> None:
    seeded.write("pyproject.toml", '[tool.leverguard]\nforbidden_paths = ["*.log"]\n')
    seeded.write(".leverguard.toml", 'forbidden_paths = ["*.bin"]\n')
    assert run_leverguard("check-paths", "a.log", cwd=seeded.path).returncode == 0
    assert run_leverguard("check-paths", "a.bin", cwd=seeded.path).returncode == 1


def test_editing_the_config_invalidates_the_compiled_cache(seeded: Repo) -> None:
    assert run_leverguard("check-paths", "a.csv", cwd=seeded.path).returncode == 1
    seeded.write(".leverguard.toml", 'allowed_paths = ["*.csv"]\n')
    assert run_leverguard("check-paths", "a.csv", cwd=seeded.path).returncode == 0
    seeded.write(".leverguard.toml", 'allowed_paths = ["*.tsv"]\n')
    assert run_leverguard("check-paths", "a.csv", cwd=seeded.path).returncode == 1
    os.remove(seeded.path / ".leverguard.toml")
    assert run_leverguard("check-paths", "a.csv", cwd=seeded.path).returncode == 1


@pytest.mark.parametrize(("text", "message"), [
    ('forbiden_paths = ["x"]\n', ".leverguard.toml: unknown key 'forbiden_paths' in the top level"),
    ('forbidden_paths = "x"\n', ".leverguard.toml: key 'forbidden_paths' must be a list of strings, got a string"),
    ("[levers]\nbogus = 1\n", ".leverguard.toml: unknown key 'bogus' in [levers]"),
    ("[revert]\nwindow = true\n", ".leverguard.toml: key 'revert.window' must be an integer, got a boolean"),
    ("allowed_paths = [\n", ".leverguard.toml: invalid TOML"),
])
def test_config_errors_name_the_file_and_key(seeded: Repo, text: str, message: str) -> None:
    seeded.write(".leverguard.toml", text)
    for args in (("check-paths", "a.py"), ("config",)):
        result = run_leverguard(*args, cwd=seeded.path)
        assert result.returncode == 2
        assert message in result.stderr
        assert "Traceback" not in result.stderr


def test_config_command_prints_effective_toml_that_round_trips(seeded: Repo) -> None:
    seeded.write("pyproject.toml", '[tool.leverguard]\nallowed_paths = ["tests/data/*.csv"]\n'
                                   '[tool.leverguard.revert]\nwindow = 300\n')
    result = run_leverguard("config", cwd=seeded.path)
    assert result.returncode == 0, result.stderr
    assert 'allowed_paths = [\n    "tests/data/*.csv",\n]' in result.stdout
    reparsed = config.parse(result.stdout.encode(), ".leverguard.toml")
    assert reparsed.get("revert.window") == 300
    assert reparsed.get("forbidden_paths") == config.DEFAULT_FORBIDDEN


def test_check_core_is_pure(tmp_path: Path) -> None:
    """The core is a function from paths and rules to findings, without git or argv."""
    (tmp_path / ".leverguard.toml").write_text('allowed_paths = ["keep/*.csv"]\n')
    rules = rulecache.load(str(tmp_path), str(tmp_path / "gitdir"))
    findings = paths.check(["keep/a.csv", "drop/b.csv", "src/c.py"], rules)
    assert [(f.path, f.pattern, f.origin) for f in findings] == [("drop/b.csv", "*.csv", "default")]


def test_partial_commit_checks_the_index_git_gives_the_hook(seeded: Repo) -> None:
    """`git commit PATH` runs hooks on a temporary index (GIT_INDEX_FILE): only what is committed counts."""
    install_hooks(seeded)
    seeded.write("scratch/x.py")
    seeded.write("src/ok.py")
    seeded.git("add", "scratch/x.py", "src/ok.py")
    import subprocess

    proc = subprocess.run(["git", "commit", "-q", "-m", "only ok" + TRAILER, "--", "src/ok.py"], cwd=seeded.path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert seeded.git("show", "--name-only", "--format=", "HEAD") == "src/ok.py"
    code, out = git_commit(seeded, "the artifact now")
    assert code != 0 and "scratch/x.py: forbidden" in out


def test_linked_worktree(seeded: Repo, tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    seeded.git("worktree", "add", "-q", str(worktree))
    (worktree / "results.csv").write_text("1\n")
    import subprocess

    subprocess.run(["git", "add", "results.csv"], cwd=worktree, check=True)
    result = run_leverguard("check-paths", cwd=worktree)
    assert result.returncode == 1 and "results.csv: forbidden by '*.csv' (default)" in result.stderr


def test_repo_option_checks_another_repository_from_anywhere(seeded: Repo, tmp_path: Path) -> None:
    seeded.write("sub/data.csv", "1\n")
    seeded.write("sub/ok.txt", "1\n")
    seeded.git("add", "sub")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    staged = run_leverguard("check-paths", "--repo", str(seeded.path), cwd=elsewhere)
    assert staged.returncode == 1 and "sub/data.csv: forbidden by '*.csv' (default)" in staged.stderr
    named = run_leverguard("check-paths", f"--repo={seeded.path}", "sub/ok.txt", cwd=elsewhere)
    assert named.returncode == 0, named.stderr  # PATHs are relative to --repo DIR
    assert run_leverguard("check-paths", "--repo", str(seeded.path), "sub/data.csv", cwd=elsewhere).returncode == 1
    missing = run_leverguard("check-paths", "--repo", str(tmp_path / "nope"), cwd=elsewhere)
    assert missing.returncode == 2 and missing.stderr.startswith("leverguard: error: --repo")


def test_check_paths_stays_off_click_with_repo(seeded: Repo) -> None:
    probe = ("import sys; from leverguard import entry; code = entry.main(['check-paths', '--repo', sys.argv[1]]); "
             "assert 'click' not in sys.modules, 'click imported'; raise SystemExit(code)")
    result = subprocess.run([sys.executable, "-c", probe, str(seeded.path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_hook_refusal_names_leverguard(seeded: Repo) -> None:
    install_hooks(seeded)
    seeded.write("results.csv", "1\n")
    seeded.git("add", "results.csv")
    code, out = git_commit(seeded)
    assert code == 1 and "leverguard check-paths: 1 forbidden path: unstage with: git restore --staged" in out
