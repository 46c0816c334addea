"""Hostile repository content (issue #11): odd configuration, deep `#if`s, ledger and cache files that lie."""

from __future__ import annotations

import marshal
import os
import subprocess
import time

import pytest

from conftest import Repo, run_leverguard
from message_helpers import PLAIN, git_commit, install_hooks, lever_repo, stage_plain_change

BAD_PYPROJECTS = {
    "tool-is-a-number": ("tool = 3\n", "`tool` must be a table, got an integer"),
    "leverguard-is-a-number": ("[tool]\nleverguard = 3\n", "[tool.leverguard] must be a table, got an integer"),
    "leverguard-is-an-array": ("[[tool.leverguard]]\nlevers = 1\n", "[tool.leverguard] must be a table, got a list"),
    "section-is-a-number": ("[tool.leverguard]\nlevers = 3\n", "[levers] must be a table, got an integer"),
    "pattern-is-no-regex": ("[tool.leverguard.levers]\nlever_patterns = [\"(\"]\n", "is not a regular expression"),
}
COMMANDS = (("levers",), ("levers", "diff"), ("check-paths",), ("config",), ("template",),
            ("default-build",), ("check-msg", "--range", "HEAD~1..HEAD"), ("check-revert", "HEAD~1..HEAD"),
            ("audit", "--since", "2000-01-01"))


@pytest.fixture
def two_commits(repo: Repo) -> Repo:
    repo.write("a.cu", "#ifdef MPK_A\nint a;\n#endif\n")
    repo.commit("one")
    repo.write("b.txt", "b\n")
    repo.commit("two")
    return repo


@pytest.mark.parametrize("case", sorted(BAD_PYPROJECTS))
def test_a_malformed_pyproject_is_one_line_exit_2_in_every_command(two_commits: Repo, case: str) -> None:
    text, said = BAD_PYPROJECTS[case]
    two_commits.write("pyproject.toml", text)
    two_commits.commit("a bad configuration")  # BASE's too, for check-revert and audit
    two_commits.write("c.txt", "c\n")
    two_commits.commit("three")
    for command in COMMANDS:
        result = run_leverguard(*command, cwd=two_commits.path)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, (command, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("leverguard: error: pyproject.toml"), (command, lines)
        assert said in lines[0], (command, lines)


@pytest.mark.parametrize("case", sorted(BAD_PYPROJECTS))
def test_a_malformed_pyproject_never_crashes_the_installed_hooks(two_commits: Repo, case: str) -> None:
    two_commits.write("pyproject.toml", BAD_PYPROJECTS[case][0])
    assert run_leverguard("install", cwd=two_commits.path).returncode == 0
    two_commits.git("add", "-A")
    result = git_commit(two_commits, message=PLAIN)
    assert result.returncode != 0 and "Traceback" not in result.stdout
    assert "leverguard: error: pyproject.toml: " in result.stdout and BAD_PYPROJECTS[case][1] in result.stdout


def test_a_malformed_pyproject_at_base_is_a_config_error_for_the_revert_side() -> None:
    from leverguard import config
    from leverguard.errors import ConfigError

    for text, said in BAD_PYPROJECTS.values():
        with pytest.raises(ConfigError, match="pyproject.toml: "):
            config.parse(text.encode(), "pyproject.toml")
    assert config.parse(b"[tool]\nother = 3\n", "pyproject.toml").get("revert.window") == 150


def test_a_well_formed_pyproject_still_configures(two_commits: Repo) -> None:
    two_commits.write("pyproject.toml", "[tool]\nblack = {line-length = 99}\n[tool.leverguard]\n"
                      "extra_forbidden_paths = [\"*.log\"]\n")
    two_commits.write("x.log", "x\n")
    two_commits.git("add", "x.log")
    result = run_leverguard("check-paths", cwd=two_commits.path)
    assert result.returncode == 1 and "x.log: forbidden by '*.log' (pyproject.toml)" in result.stderr


# ---- #if with 500 && terms

def _deep_condition(count: int) -> str:
    return " && ".join(f"defined(MPK_T{i})" for i in range(count))


def test_a_500_term_if_is_judged_not_a_recursion_error(repo: Repo) -> None:
    repo.write("k.cu", f"#if {_deep_condition(500)}\nint x;\n#endif\n#ifdef MPK_A\nint y;\n#endif\n")
    repo.commit("deep")
    result = run_leverguard("levers", cwd=repo.path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "MPK_T499" in result.stdout and "MPK_A" in result.stdout
    repo.write("k.cu", "#ifdef MPK_A\nint y;\n#endif\n")  # the deep gate goes: 500 levers reverted
    repo.git("add", "-A")
    diff = run_leverguard("levers", "diff", "--format", "json", cwd=repo.path)
    assert diff.returncode == 0 and "Traceback" not in diff.stderr, diff.stderr
    assert diff.stdout.count('"kind": "REVERTED"') == 500


def test_the_commit_msg_hook_survives_a_500_term_if(repo: Repo) -> None:
    repo.write("k.cu", "int x;\n")
    repo.commit("base")
    install_hooks(repo)
    repo.write("k.cu", f"#if {_deep_condition(500)}\nint x;\n#endif\n")
    repo.git("add", "-A")
    result = git_commit(repo, message=PLAIN)
    assert "Traceback" not in result.stdout and "RecursionError" not in result.stdout
    assert result.returncode == 0, result.stdout


def test_the_iterative_evaluator_keeps_cpp_semantics() -> None:
    from leverguard.levers.text import cppexpr

    node = cppexpr.parse("defined(A) && (B ? 0 : 1) || !C")
    assert cppexpr.evaluate(node, {"A": 1, "B": 1, "C": None}) == 1
    assert cppexpr.evaluate(node, {"A": 1}) is None
    assert cppexpr.evaluate(node, {"A": None, "C": 1}) == 0
    assert cppexpr.evaluate(cppexpr.parse("0 && X"), {}) == 0
    assert cppexpr.evaluate(cppexpr.parse(_deep_condition(2000)), {"MPK_T7": None}) == 0


# ---- ledger files that are not what they seem

LEDGER_LEVER = "#ifdef MPK_ROPE\nint rope;\n#endif\n"


def _ledger_repo(repo: Repo) -> Repo:
    repo.write(".gitignore", "experiment_history/\n")
    repo.write("k.cu", LEDGER_LEVER)
    repo.commit("rope")
    (repo.path / "experiment_history").mkdir()
    return repo


def test_a_regular_ledger_inside_the_tree_is_read(repo: Repo) -> None:
    _ledger_repo(repo)
    repo.write("experiment_history/ledger.csv", "lever,verdict\nMPK_ROPE,KILL\n")
    result = run_leverguard("levers", cwd=repo.path)
    assert "ledger experiment_history/ledger.csv:2: KILL" in result.stdout


def test_a_ledger_symlink_to_dev_zero_is_skipped_at_once(repo: Repo) -> None:
    _ledger_repo(repo)
    os.symlink("/dev/zero", repo.path / "experiment_history" / "zero.csv")
    started = time.monotonic()
    result = subprocess.run(["sh", "-c", "ulimit -v 400000; exec \"$0\" -m leverguard levers", _python()],
                            cwd=repo.path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 30 and "MPK_ROPE" in result.stdout
    assert "zero.csv" not in result.stdout


def test_a_ledger_symlink_out_of_the_repository_is_not_read_or_cited(repo: Repo, tmp_path: os.PathLike[str]) -> None:
    _ledger_repo(repo)
    secret = os.path.join(tmp_path, "secret.csv")
    with open(secret, "w", encoding="utf-8") as fh:
        fh.write("lever,verdict\nMPK_ROPE,KILL\n")
    os.symlink(secret, repo.path / "experiment_history" / "outside.csv")
    os.symlink(os.path.dirname(secret), repo.path / "experiment_history" / "linked-dir")
    result = run_leverguard("levers", cwd=repo.path)
    assert result.returncode == 0 and "KILL" not in result.stdout and "outside.csv" not in result.stdout


def test_a_ledger_above_the_size_cap_is_skipped(repo: Repo) -> None:
    _ledger_repo(repo)
    padding = "2026-01-01,MPK_OTHER,NULL\n" * ((1 << 20) // 26 + 10)
    repo.write("experiment_history/big.csv", "lever,verdict\nMPK_ROPE,KILL\n" + padding)
    assert "KILL" not in run_leverguard("levers", cwd=repo.path).stdout
    repo.write("experiment_history/big.csv", "lever,verdict\nMPK_ROPE,KILL\n" + padding[: 1 << 19])
    assert "KILL" in run_leverguard("levers", cwd=repo.path).stdout


def _python() -> str:
    import sys

    return sys.executable


# ---- caches in .git/leverguard that were damaged or replaced

CACHES = ("message-settings.marshal", "path-rules.marshal", "staged-lever-changes.marshal", "abi-files.marshal")


@pytest.fixture
def hooked(repo: Repo) -> Repo:
    lever_repo(repo)
    assert run_leverguard("install", cwd=repo.path).returncode == 0
    stage_plain_change(repo)
    assert git_commit(repo, message=PLAIN).returncode == 0  # warm: every cache written
    return repo


def _cache_dir(repo: Repo) -> str:
    return os.path.join(repo.path, ".git", "leverguard")


def _commit_again(repo: Repo, message: str = PLAIN) -> subprocess.CompletedProcess[str]:
    repo.write("README.md", f"hello {time.monotonic()}\n")
    repo.git("add", "README.md")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo.path, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("name", ["message-settings.marshal", "path-rules.marshal"])
def test_a_fifo_in_place_of_a_cache_never_hangs_the_hooks(hooked: Repo, name: str) -> None:
    path = os.path.join(_cache_dir(hooked), name)
    os.unlink(path)
    os.mkfifo(path)
    result = _commit_again(hooked)  # a hang raises TimeoutExpired
    assert result.returncode == 0, result.stderr
    assert os.path.isfile(path)  # rebuilt as a regular file


@pytest.mark.parametrize("damage", ["truncated", "garbage", "wrong-shape"])
def test_a_damaged_cache_is_rebuilt_and_the_hooks_still_judge(hooked: Repo, damage: str) -> None:
    for name in os.listdir(_cache_dir(hooked)):
        path = os.path.join(_cache_dir(hooked), name)
        data = open(path, "rb").read()
        if damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "garbage":
            data = b"\x00not marshal\xff" * 7
        else:
            key = marshal.loads(data)[0]  # the right key with a value of the wrong shape
            data = marshal.dumps((key, time.time(), ({"message.disable": 1}, 3)))
        with open(path, "wb") as fh:
            fh.write(data)
    refused = _commit_again(hooked, "Fix a typo\n\nCo-Authored-By: bob\n")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "Co-Authored-By value 'bob' is not `Name <email>`" in refused.stderr
    assert _commit_again(hooked).returncode == 0
    hooked.write("results.csv", "1\n")
    hooked.git("add", "results.csv")
    blocked = subprocess.run(["git", "commit", "-q", "-m", PLAIN], cwd=hooked.path, capture_output=True, text=True)
    assert blocked.returncode == 1 and "results.csv: forbidden by '*.csv'" in blocked.stderr
    settings = open(os.path.join(_cache_dir(hooked), "message-settings.marshal"), "rb").read()
    assert isinstance(marshal.loads(settings)[2][0], dict)  # rebuilt whole


# ---- diff attributes that would blind the engines ("Binary files differ")

ATTRIBUTES = {"no-diff": "* -diff\n", "binary-sources": "*.cuh binary\n*.cc binary\n*.cu binary\n*.py binary\n"}


@pytest.mark.parametrize("where", ["committed", "working-tree"])
@pytest.mark.parametrize("attributes", sorted(ATTRIBUTES))
def test_diff_attributes_do_not_hide_a_lever_cleanup(repo: Repo, attributes: str, where: str) -> None:
    from message_helpers import stage_cleanup

    lever_repo(repo)
    repo.write(".gitattributes", ATTRIBUTES[attributes])
    if where == "committed":
        repo.commit("attributes")
    install_hooks(repo)
    stage_cleanup(repo)
    if where == "working-tree":
        repo.git("reset", "-q", "--", ".gitattributes")
    diff = run_leverguard("levers", "diff", "--format", "json", cwd=repo.path)
    assert '"kind": "HARD-WIRED"' in diff.stdout and '"kind": "REVERTED"' in diff.stdout, diff.stdout
    template = run_leverguard("template", cwd=repo.path)
    assert "- MPK_DSV3_FUSED_ROPE: <measured delta" in template.stdout, template.stdout
    assert run_leverguard("default-build", cwd=repo.path).returncode == 1
    result = git_commit(repo, message=PLAIN)
    assert result.returncode == 1 and "lever-sections: missing sections" in result.stdout, result.stdout
    repo.commit("the cleanup, without its sections")
    ranged = run_leverguard("check-msg", "--range", "HEAD~1..HEAD", cwd=repo.path)
    assert ranged.returncode == 1 and "lever-sections" in ranged.stdout, ranged.stdout


def test_without_attributes_the_same_plain_message_on_a_plain_change_passes(repo: Repo) -> None:
    lever_repo(repo)
    repo.write(".gitattributes", ATTRIBUTES["no-diff"])
    install_hooks(repo)
    stage_plain_change(repo)
    assert git_commit(repo, message=PLAIN).returncode == 0


# ---- a file name with a newline in a `cat-file --batch` request

ODD = "mpk/a\nodd.cu"


def test_a_newline_in_a_file_name_credits_every_blob_to_its_own_path(repo: Repo) -> None:
    from message_helpers import stage_cleanup

    lever_repo(repo)
    repo.write(ODD, "#ifdef MPK_DSV3_ODD_PATH\nint odd;\n#endif\n")
    repo.commit("a lever in an oddly named file")
    code, doc = _levers(repo)
    gates = {lever["name"]: {g["path"] for g in lever["gates"]} for lever in doc["levers"]}
    assert gates["MPK_DSV3_ODD_PATH"] == {ODD} and gates["MPK_DSV3_FUSED_ROPE"] == {"mpk/rope.cuh"}
    install_hooks(repo)
    stage_cleanup(repo)
    repo.write(ODD, "int odd;\n")  # the odd lever is reverted too
    repo.git("add", "-A")
    diff = run_leverguard("levers", "diff", "--format", "json", cwd=repo.path)
    assert '"lever": "MPK_DSV3_ODD_PATH"' in diff.stdout and '"kind": "HARD-WIRED"' in diff.stdout
    result = git_commit(repo, message=PLAIN)
    assert result.returncode == 1 and "lever-sections: missing sections" in result.stdout, result.stdout


def test_object_reads_by_name_survive_newlines_and_missing_names(repo: Repo) -> None:
    from leverguard import git

    repo.write(ODD, "odd\n")
    repo.write("z.txt", "zed\n")
    repo.commit("odd")
    names = [f"HEAD:{ODD}", "HEAD:nope\nmissing too", "HEAD:z.txt", "HEAD:no such"]
    assert git.object_sizes(names, str(repo.path)) == {names[0]: ("blob", 4), names[2]: ("blob", 4)}
    with git.ObjectReader(str(repo.path)) as reader:
        assert [reader.read(name) for name in names] == [("blob", b"odd\n"), None, ("blob", b"zed\n"), None]


def _levers(repo: Repo) -> tuple[int, dict[str, object]]:
    import json

    result = run_leverguard("levers", "--format", "json", cwd=repo.path)
    return result.returncode, json.loads(result.stdout)


# ---- a large binary beside the levers

def test_default_build_compares_a_large_binary_by_id_and_size(repo: Repo) -> None:
    size = 64 << 20
    repo.write("pyproject.toml", "[tool.leverguard.levers]\nsurface = [\"*.cu\"]\n")
    repo.write("k.cu", "#ifdef MPK_A\nint a;\n#endif\n")
    repo.write("model.bin", os.urandom(size))
    repo.commit("a model")
    repo.write("model.bin", os.urandom(size))
    repo.commit("a new model")
    probe = ("import resource, subprocess, sys; "
             "p = subprocess.run([sys.executable, '-m', 'leverguard', 'default-build', 'HEAD~1..HEAD'], "
             "capture_output=True, text=True); "
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(p.stdout)")
    result = subprocess.run([_python(), "-c", probe], cwd=repo.path, capture_output=True, text=True)
    code, peak_kib = map(int, result.stdout.split("\n")[0].split())
    assert peak_kib * 1024 < size // 2, f"peak RSS {peak_kib} KiB for a {size >> 20} MiB blob"
    assert code == 1 and "model.bin: default-build: outside the lever surface" in result.stdout, result.stdout
