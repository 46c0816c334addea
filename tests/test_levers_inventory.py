"""`leverguard levers`: inventory and classification of the fixture modeled on a real cleanup."""

from __future__ import annotations

from conftest import Repo, run_leverguard
from levers_helpers import EXPECTED_CLASSES, edit, levers_json, mpk_repo


def by_name(doc: dict) -> dict:  # type: ignore[type-arg]
    return {lever["name"]: lever for lever in doc["levers"]}


def test_classes_from_facts_ledger_and_geometry(repo: Repo) -> None:
    mpk_repo(repo)
    code, doc = levers_json(repo, "levers")
    assert code == 0
    levers = by_name(doc)
    assert {name: lever["class"] for name, lever in levers.items()} == EXPECTED_CLASSES
    assert "MPK_MAX_TOKENS" not in levers  # ignore_macros: MPK_MAX*
    # Injected in every build: the ledger's "experimental NULL" memory is overridden, with evidence.
    wide = levers["MPK_DSV3_WIDE_DECODE"]
    assert wide["evidence"][0] == "injected unconditionally at mpk/build.py:6"
    assert "overridden" in wide["evidence"][1]
    # The router of a smaller-geometry fallback: KILL in the ledger, but a fallback path.
    router = levers["MPK_SMALL_GEOM_ROUTER"]
    assert router["injections"] == [{"path": "mpk/build.py", "line": 14, "condition": "guard",
                                     "guard": "world_size < 8", "value": None, "env": []}]
    assert "fallback path" in router["evidence"][0]
    win = levers["MPK_DSV3_SPLIT_NORM"]  # the ledger names it without its MPK_DSV3_ prefix
    assert any(e.startswith("introduced in ") for e in win["evidence"])


def test_json_contract_fields(repo: Repo) -> None:
    mpk_repo(repo)
    _, doc = levers_json(repo, "levers")
    rope = by_name(doc)["MPK_DSV3_FUSED_ROPE"]
    assert {"name", "class", "evidence", "env", "gates", "injections"} <= set(rope)
    assert rope["env"] == ["MPK_DSV3_FUSED_ROPE"]
    gate = rope["gates"][0]
    assert {k: gate[k] for k in ("path", "line", "kind", "has_else")} == {
        "path": "mpk/kernels/rope.cuh", "line": 5, "kind": "if", "has_else": True}
    assert gate["usage"] == "defined" and gate["branches"] == [["if", 6, 6], ["else", 8, 9]]
    assert rope["injections"][0]["condition"] == "env"


def test_unknown_says_what_is_missing(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("experiment_history/ledger.csv", "lever,verdict\n")
    _, doc = levers_json(repo, "levers")
    rope = by_name(doc)["MPK_DSV3_FUSED_ROPE"]
    assert rope["class"] == "UNKNOWN" and "no ledger row names MPK_DSV3_FUSED_ROPE" in rope["evidence"][0]


def test_unevaluable_guard_is_reported_not_guessed(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/build.py", "if world_size < 8:", "if num_workers > 2:")
    repo.commit("route by workers")
    _, doc = levers_json(repo, "levers")
    router = by_name(doc)["MPK_SMALL_GEOM_ROUTER"]
    assert router["class"] == "DEAD"  # falls back to the ledger, and says why
    assert any("num_workers > 2" in e and "num_workers in levers.geometry" in e for e in router["evidence"])


def test_leave_untouched_config_and_markdown_ledger(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("pyproject.toml", '[tool.leverguard.levers]\ngeometry = {world_size = 8}\n'
               'leave_untouched = ["MPK_DSV3_FUSED_ROPE"]\nledger = ["experiment_history/*.md"]\n')
    repo.write("experiment_history/notes.md", "| lever | verdict |\n| --- | --- |\n| `PERSISTENT_SCHED` | **KILL** |\n")
    repo.commit("config")
    _, doc = levers_json(repo, "levers")
    levers = by_name(doc)
    assert levers["MPK_DSV3_FUSED_ROPE"]["class"] == "LEAVE-UNTOUCHED"
    assert levers["MPK_DSV3_PERSISTENT_SCHED"]["class"] == "DEAD"
    assert levers["MPK_DSV3_PERSISTENT_SCHED"]["evidence"] == ["ledger experiment_history/notes.md:3: KILL"]


def test_rev_and_index(repo: Repo) -> None:
    first = mpk_repo(repo)
    repo.write("mpk/kernels/new.cu", "#ifdef MPK_DSV3_NEW_THING\n#endif\n")
    repo.commit("new lever")
    repo.write("mpk/kernels/staged.cu", "#if MPK_DSV3_STAGED\n#endif\n")
    repo.git("add", "mpk/kernels/staged.cu")
    _, old = levers_json(repo, "levers", "--rev", first)
    _, now = levers_json(repo, "levers")
    _, index = levers_json(repo, "levers", "--rev", "index")
    assert "MPK_DSV3_NEW_THING" not in by_name(old) and "MPK_DSV3_NEW_THING" in by_name(now)
    assert "MPK_DSV3_STAGED" not in by_name(now) and "MPK_DSV3_STAGED" in by_name(index)


def test_no_patterns_means_gated_and_injected(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("pyproject.toml", "[tool.leverguard.levers]\nlever_patterns = []\n")
    repo.write("mpk/kernels/other.cu", "#ifdef ONLY_IN_C\n#endif\n#if USE_FOO\n#endif\n")
    repo.write("mpk/foo.py", 'import os\nif os.environ.get("USE_FOO"):\n    F = "-DUSE_FOO"\n')
    repo.commit("generic")
    _, doc = levers_json(repo, "levers")
    names = set(by_name(doc))
    assert "USE_FOO" in names and "ONLY_IN_C" not in names
    assert "MPK_DSV3_FUSED_ROPE" in names and "MPK_MAX_TOKENS" not in names


def test_hostile_files_warn_and_never_crash(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("mpk/kernels/bad.cu", b"#endif\r\n#if MPK_DSV3_BAD \\\r\n  && (\r\n\xff\xfe #else\r\n")
    repo.write("mpk/bad.py", b"x = '-DMPK_DSV3_BAD\n")
    repo.commit("hostile")
    code, doc = levers_json(repo, "levers")
    assert code == 0
    assert any("bad.cu" in w and "not UTF-8" in w for w in doc["warnings"])
    assert any("bad.cu:1: #endif without #if" in w for w in doc["warnings"])
    assert any("bad.py:1: cannot parse Python" in w for w in doc["warnings"])
    table = run_leverguard("levers", cwd=repo.path)
    assert table.returncode == 0 and "warning: mpk/kernels/bad.cu" in table.stdout


def test_table_and_markdown_formats(repo: Repo) -> None:
    mpk_repo(repo)
    table = run_leverguard("levers", cwd=repo.path)
    assert table.returncode == 0
    assert "MPK_DSV3_WIDE_DECODE       ALREADY-ON" in table.stdout
    markdown = run_leverguard("levers", "--format", "markdown", cwd=repo.path)
    assert "| `MPK_SMALL_GEOM_ROUTER` | LEAVE-UNTOUCHED |" in markdown.stdout


def test_errors_are_one_line(repo: Repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mpk_repo(repo)
    bad = run_leverguard("levers", "--rev", "nope", cwd=repo.path)
    assert bad.returncode == 2 and bad.stderr.startswith("leverguard: error: unknown revision 'nope'")
    outside = run_leverguard("levers", cwd=tmp_path)
    assert outside.returncode == 2 and "not a git repository" in outside.stderr


def test_unborn_branch_points_to_the_index(repo: Repo) -> None:
    repo.write("a.cu", "#ifdef MPK_FIRST\n#endif\n")
    repo.git("add", "a.cu")
    proc = run_leverguard("levers", cwd=repo.path)
    assert proc.returncode == 2 and "no commit yet" in proc.stderr and "--rev index" in proc.stderr
    code, doc = levers_json(repo, "levers", "--rev", "index")
    assert code == 0 and [lever["name"] for lever in doc["levers"]] == ["MPK_FIRST"]
    code, doc = levers_json(repo, "levers", "diff")
    assert code == 0 and doc["transitions"] == []


def test_win_needs_a_commit_in_history(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("mpk/kernels/fresh.cu", "#ifdef MPK_DSV3_FRESH\n  fresh_path();\n#endif\n")
    repo.git("add", "mpk/kernels/fresh.cu")
    repo.write("experiment_history/ledger.csv", "lever,verdict\nMPK_DSV3_FRESH,WIN\nMPK_DSV3_FUSED_ROPE,WIN\n")
    _, doc = levers_json(repo, "levers", "--rev", "index")
    fresh, rope = by_name(doc)["MPK_DSV3_FRESH"], by_name(doc)["MPK_DSV3_FUSED_ROPE"]
    assert fresh["class"] == "UNKNOWN"
    assert fresh["evidence"][-1] == "the ledger says WIN but no commit in history adds it: commit it first"
    assert rope["class"] == "WIN"
