"""Files over `max_file_size` (issue #11, "Resources"): compared by object id and size, never read.

A 200 MB binary cost 414 MB to roll back and 966 MB to gate. Here the cap is set tiny in the
configuration, so the files stay small: a file over it must still count where ids suffice (a
rollback is a rollback), and must be said, never passed over in silence, where its content would
be needed (a lever source). The real sizes are measured by bench/bench_big_binary.py.
"""

from __future__ import annotations

import json
import os

from conftest import Repo, run_leverguard
from revert_helpers import BOB, by_pr, check_cli, land

CAP = 2000  # bytes: every "big" file below is a few KiB
CONFIG = f"max_file_size = {CAP}\n"


def text_lines(tag: str, count: int = 400) -> str:
    """COUNT distinct source lines: text git would diff line by line if it read it (about 12 KiB)."""
    return "".join(f"int {tag}_{i} = compute({i});\n" for i in range(count))


def big_history(repo: Repo, path: str, first: str | bytes, second: str | bytes) -> None:
    """main: the file added, then changed by PR #2; the branch `topic` starts at #2."""
    repo.write(".leverguard.toml", CONFIG)
    repo.write("src/app.py", "print('hello world from the app')\n")
    repo.write(path, first)
    repo.commit("init (#1)")
    land(repo, "model: retrain (#2)", {path: second})  # type: ignore[dict-item]
    repo.git("checkout", "-q", "-b", "topic")


# ---- check-revert and audit: a rollback is found by object id alone


def test_check_revert_reports_the_rollback_of_a_file_over_the_cap(repo: Repo) -> None:
    first, second = os.urandom(3 * CAP), os.urandom(3 * CAP)
    big_history(repo, "assets/model.bin", first, second)
    land(repo, "tidy: clean up the loader", {"assets/model.bin": first}, author=BOB)  # type: ignore[dict-item]
    code, report = check_cli(repo, "main..topic")
    assert code == 1
    finding = by_pr(report)[2]
    assert finding["severity"] == "error" and [e["kind"] for e in finding["evidence"]] == ["rollback"]
    assert any("assets/model.bin (5.9 KiB)" in note and "max_file_size (2.0 KiB)" in note
               for note in report["notes"]), report["notes"]
    text = run_leverguard("check-revert", "main..topic", cwd=repo.path)
    assert text.returncode == 1 and "note: 1 changed file over max_file_size" in text.stdout


def test_check_revert_passes_a_new_version_of_a_file_over_the_cap(repo: Repo) -> None:
    big_history(repo, "assets/model.bin", os.urandom(3 * CAP), os.urandom(3 * CAP))
    land(repo, "model: retrain again", {"assets/model.bin": os.urandom(3 * CAP)}, author=BOB)  # type: ignore[dict-item]
    code, report = check_cli(repo, "main..topic")
    assert code == 0 and report["findings"] == []
    assert any("assets/model.bin" in note for note in report["notes"])  # said, even when clean


def test_a_text_file_over_the_cap_is_not_diffed_line_by_line(repo: Repo) -> None:
    """Undoing two of #2's hunks in a 12 KiB text file: found line by line below the cap, not above it,
    because git took the file for binary by its size and never read it."""
    first = text_lines("v")
    second = first.replace("int v_10 ", "int w_10 ").replace("int v_300 ", "int w_300 ")
    partial = second.replace("int w_10 ", "int v_10 ")
    big_history(repo, "kernels/table.c", first, second)
    land(repo, "table: tune one entry", {"kernels/table.c": partial + "int extra = 1;\n"}, author=BOB)
    code, report = check_cli(repo, "main..topic")
    assert code == 0 and report["findings"] == [], report["findings"]
    assert any("kernels/table.c" in note for note in report["notes"])
    repo.git("checkout", "-q", "main")
    land(repo, "config: read big files", {".leverguard.toml": "max_file_size = 1000000\n"})
    repo.git("checkout", "-q", "topic")
    repo.git("rebase", "-q", "main")
    code, report = check_cli(repo, "main..topic")
    kinds = [e["kind"] for f in report["findings"] for e in f["evidence"]]
    assert "inverse-hunk" in kinds and not report["notes"], report


def test_audit_finds_the_rollback_of_a_file_over_the_cap(repo: Repo) -> None:
    """audit reads max_file_size from the audited tip: a text file over it is compared by id."""
    line = "int filler_line_that_compresses_well = 1;\n"
    first = line * (3 * CAP // len(line))
    second = "int changed = 2;\n" + first
    repo.write(".leverguard.toml", CONFIG)
    repo.write("src/app.py", "print('hello world from the app')\n")
    repo.write("data/table.c", first)
    repo.commit("init (#1)")
    land(repo, "table: regenerate (#2)", {"data/table.c": second})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "tidy: stale tree", {"data/table.c": first}, author="Carol <carol@example.com>")
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)["results"][0]["findings"][0]
    assert found["pr"] == 2 and [e["kind"] for e in found["evidence"]] == ["rollback"]
    assert found["evidence"][0]["lines"] == 0  # no line of the 9 MiB file was diffed
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "onward")
    land(repo, "table: regenerate again", {"data/table.c": "int changed = 3;\n" + first})
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["results"] == [], proc.stdout


# ---- lever engine: a source it cannot read is named, never a silent "no lever change"

GATED = "#ifdef MPK_FAST\nint fast;\n#else\nint slow;\n#endif\n"
LAUNCH = 'import os\nflags = []\nif os.environ.get("MPK_FAST"):\n    flags.append("-DMPK_FAST")\n'
HUGE_HEAD = "#ifdef MPK_HUGE\nint huge_on;\n#endif\n"


def lever_project(repo: Repo) -> None:
    repo.write(".leverguard.toml", CONFIG)
    repo.write("src/k.cu", GATED)
    repo.write("src/launch.py", LAUNCH)
    repo.write("kernels/huge.cu", HUGE_HEAD + text_lines("huge"))
    repo.commit("levers")


def test_levers_diff_names_a_changed_lever_source_over_the_cap(repo: Repo) -> None:
    lever_project(repo)
    repo.write("kernels/huge.cu", text_lines("huge"))  # the gate of MPK_HUGE removed, unseen
    repo.commit("huge: drop the gate")
    proc = run_leverguard("levers", "diff", "HEAD~1..HEAD", "--format", "json", cwd=repo.path)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["transitions"] == [] and doc["findings"] == []
    assert [(s["path"], s["max_file_size"]) for s in doc["skipped"]] == [("kernels/huge.cu", CAP)]
    assert any(w.startswith("kernels/huge.cu: ") and "not read" in w for w in doc["warnings"])
    text = run_leverguard("levers", "diff", "HEAD~1..HEAD", cwd=repo.path).stdout
    assert "no lever changed in the files read; 1 lever source over max_file_size not read" in text
    assert "warning: kernels/huge.cu: " in text


def test_levers_diff_still_judges_the_levers_it_can_read(repo: Repo) -> None:
    lever_project(repo)
    repo.write("src/k.cu", "int fast;\n")  # MPK_FAST hard-wired
    repo.write("src/launch.py", "import os\nflags = []\n")
    repo.write("kernels/huge.cu", HUGE_HEAD + text_lines("huge2"))
    repo.commit("hard-wire fast")
    proc = run_leverguard("levers", "diff", "HEAD~1..HEAD", "--format", "json", cwd=repo.path)
    doc = json.loads(proc.stdout)
    assert {t["lever"]: t["kind"] for t in doc["transitions"]} == {"MPK_FAST": "HARD-WIRED"}
    assert [s["path"] for s in doc["skipped"]] == ["kernels/huge.cu"]


def test_a_lever_source_grown_over_the_cap_leaves_its_levers_unjudged(repo: Repo) -> None:
    """Small at BASE, over the cap at HEAD: its gate would seem gone (a false REVERTED); it is not judged."""
    repo.write(".leverguard.toml", CONFIG)
    repo.write("kernels/grow.cu", HUGE_HEAD)
    repo.write("src/launch.py", LAUNCH.replace("MPK_FAST", "MPK_HUGE"))
    repo.commit("levers")
    repo.write("kernels/grow.cu", HUGE_HEAD + text_lines("grown"))
    repo.commit("grow")
    proc = run_leverguard("levers", "diff", "HEAD~1..HEAD", "--format", "json", cwd=repo.path)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["transitions"] == [] and doc["findings"] == [], doc
    assert any(w.startswith("MPK_HUGE: not judged: kernels/grow.cu") for w in doc["warnings"]), doc["warnings"]


def test_levers_inventory_names_a_source_over_the_cap(repo: Repo) -> None:
    lever_project(repo)
    proc = run_leverguard("levers", "--format", "json", cwd=repo.path)
    doc = json.loads(proc.stdout)
    assert [lever["name"] for lever in doc["levers"]] == ["MPK_FAST"]  # MPK_HUGE sits in the unread file
    assert any(w.startswith("kernels/huge.cu: ") and "over max_file_size (2.0 KiB)" in w for w in doc["warnings"])


def test_default_build_notes_a_lever_source_over_the_cap(repo: Repo) -> None:
    lever_project(repo)
    repo.write("kernels/huge.cu", HUGE_HEAD + text_lines("huge").replace("huge_5 ", "ungated_5 "))
    repo.commit("huge: an ungated edit")
    proc = run_leverguard("default-build", "HEAD~1..HEAD", cwd=repo.path)
    assert proc.returncode == 0 and proc.stdout.startswith("note: kernels/huge.cu: "), proc.stdout
    doc = json.loads(run_leverguard("default-build", "HEAD~1..HEAD", "--format", "json", cwd=repo.path).stdout)
    assert doc["violations"] == [] and len(doc["notes"]) == 1 and "not read" in doc["notes"][0]
    repo.write("src/k.cu", GATED + "int ungated;\n")  # what it can read is still judged
    repo.write("kernels/huge.cu", HUGE_HEAD + text_lines("huge3"))
    repo.git("add", "-A")
    repo.write("MSG", "kernel: more\n")
    hook = run_leverguard("hook", "leverguard-default-build", "MSG", cwd=repo.path)
    assert hook.returncode == 1 and "src/k.cu:6: default-build" in hook.stderr
    assert "note: kernels/huge.cu: " in hook.stderr


def test_commit_msg_hook_notes_a_staged_lever_source_over_the_cap(repo: Repo) -> None:
    lever_project(repo)
    repo.write("kernels/huge.cu", text_lines("huge"))
    repo.git("add", "-A")
    repo.write("MSG", "huge: drop a gate\n")
    hook = run_leverguard("hook", "leverguard-commit-msg", "MSG", cwd=repo.path)
    assert hook.returncode == 0, hook.stderr
    assert "MSG:1: max-file-size: note: kernels/huge.cu: " in hook.stdout and "not read" in hook.stdout
    doc = json.loads(run_leverguard("check-msg", "MSG", "--format", "json", cwd=repo.path).stdout)
    assert [f["rule"] for f in doc["messages"][0]["findings"]] == ["max-file-size"]
    repo.git("commit", "-q", "--no-verify", "-m", "huge: drop a gate")
    ranged = json.loads(run_leverguard("check-msg", "--range", "HEAD~1..HEAD", "--format", "json",
                                       cwd=repo.path).stdout)
    assert [f["rule"] for f in ranged["messages"][0]["findings"]] == ["max-file-size"]


def _padded(text: str, size: int) -> str:
    """TEXT followed by comment lines up to exactly SIZE bytes."""
    pad = size - len(text)
    return text + "//" + "x" * (pad - 3) + "\n"


def test_the_commit_msg_gate_reads_a_lever_source_of_exactly_the_cap_and_not_one_byte_more(repo: Repo) -> None:
    """git's bigFileThreshold (`size > N`) and max_file_size agree: CAP bytes are read, CAP + 1 are not."""
    lever_project(repo)
    for size, judged in ((CAP, True), (CAP + 1, False)):
        repo.write("kernels/edge.cu", _padded(GATED.replace("FAST", "EDGE"), size))
        repo.commit(f"edge at {size}")
        repo.write("kernels/edge.cu", _padded("int edge;\n", size))  # the gate of MPK_EDGE removed
        repo.git("add", "-A")
        assert os.path.getsize(os.path.join(repo.path, "kernels/edge.cu")) == size
        repo.write("MSG", "edge: drop the gate\n")
        doc = json.loads(run_leverguard("check-msg", "MSG", "--format", "json", cwd=repo.path).stdout)
        findings = doc["messages"][0]["findings"]
        unread = [f for f in findings if f["rule"] == "max-file-size" and "kernels/edge.cu" in f["message"]]
        assert (unread == []) is judged, (size, findings)
        assert ([c["lever"] for c in doc["messages"][0]["levers"]] == ["MPK_EDGE"]) is judged, size
        repo.git("reset", "-q", "--hard")


def test_a_lever_source_git_calls_binary_is_still_searched(repo: Repo) -> None:
    """A NUL byte makes git call a source binary; its removed gate still reaches the lever engine."""
    lever_project(repo)
    repo.write("src/k.cu", "// \0 marker\n" + GATED)
    repo.commit("nul")
    repo.write("src/k.cu", "// \0 marker\nint fast;\n")  # MPK_FAST hard-wired
    repo.git("add", "-A")
    repo.write("MSG", "kernel: tidy\n")
    doc = json.loads(run_leverguard("check-msg", "MSG", "--format", "json", cwd=repo.path).stdout)
    assert [c["lever"] for c in doc["messages"][0]["levers"]] == ["MPK_FAST"], doc


def test_check_paths_refuses_a_forbidden_file_over_the_cap_by_name(repo: Repo) -> None:
    repo.write(".leverguard.toml", CONFIG)
    repo.write("README.md", "readme\n")
    repo.commit("init")
    repo.write("outputs/model.bin", os.urandom(3 * CAP))
    repo.write("assets/ok.bin", os.urandom(3 * CAP))
    repo.git("add", "-A")
    proc = run_leverguard("check-paths", cwd=repo.path)
    assert proc.returncode == 1 and "outputs/model.bin: forbidden by 'outputs/'" in proc.stderr
    assert "assets/ok.bin" not in proc.stderr


def test_max_file_size_must_be_positive(repo: Repo) -> None:
    repo.write(".leverguard.toml", "max_file_size = 0\n")
    repo.write("a.cu", GATED)
    repo.commit("init")
    proc = run_leverguard("levers", cwd=repo.path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "max_file_size' must be at least 1" in proc.stderr


def test_object_reader_sizes_an_object_without_reading_it(repo: Repo) -> None:
    from leverguard import git

    repo.write("big.bin", b"\0" * 5000)
    repo.write("small.txt", "small\n")
    repo.commit("init")
    with git.ObjectReader(str(repo.path)) as reader:
        assert reader.info("HEAD:big.bin") == ("blob", 5000)
        assert reader.info("HEAD:nope") is None and reader.read("HEAD:small.txt") == ("blob", b"small\n")
    assert git.large_files("HEAD", (".bin", ".txt"), 1000, str(repo.path)) == {"big.bin": 5000}
    repo.write("big.txt", "x" * 3000)
    repo.git("add", "big.txt")
    assert git.large_files(None, (".txt",), 1000, str(repo.path)) == {"big.txt": 3000}


def test_check_revert_lists_added_and_deleted_files_over_the_cap_by_id(repo: Repo) -> None:
    """git loads an added or deleted blob whole even when it takes it for binary: the change is read
    as raw records first, and such blobs are left out of the patch, their records kept."""
    big_history(repo, "assets/model.bin", os.urandom(3 * CAP), os.urandom(3 * CAP))
    land(repo, "drop the model", {"assets/model.bin": None, "assets/new.bin": os.urandom(3 * CAP),  # type: ignore[dict-item]
                                  "src/app.py": "print('hello world from the app, again')\n"}, author=BOB)
    code, report = check_cli(repo, "main..topic")
    assert [(e["path"], e["kind"]) for f in report["findings"] for e in f["evidence"]] == \
        [("assets/model.bin", "deleted-changed")]
    assert code == 0 and report["landing_paths"] == 3
    note = next(n for n in report["notes"] if "max_file_size" in n)
    assert "2 changed files" in note and "assets/model.bin" in note and "assets/new.bin" in note


def test_two_lever_patterns_with_the_same_group_name_still_gate(repo: Repo) -> None:
    """Patterns are valid one by one; joining them into one regex would repeat the group name (re.error)."""
    repo.write(".leverguard.toml", '[levers]\nlever_patterns = ["MPK_(?P<n>[A-Z]+)", "OPT_(?P<n>[A-Z]+)"]\n')
    repo.write("src/k.cu", GATED.replace("MPK_FAST", "OPT_FAST"))
    repo.commit("levers")
    repo.write("src/k.cu", "int fast;\n")
    repo.git("add", "-A")
    repo.write("MSG", "kernel: tidy\n")
    proc = run_leverguard("check-msg", "MSG", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    assert [c["lever"] for c in json.loads(proc.stdout)["messages"][0]["levers"]] == ["OPT_FAST"]


# ---- a patch too large to read line by line: compared by id, its cost bounded


def test_a_patch_over_max_patch_lines_is_compared_by_object_id_only(repo: Repo) -> None:
    """headscale's 22,000-line policy fixtures: a commit's file patch past MAX_PATCH_LINES keeps no line, so
    an entry taken out of it is not claimed line by line, while the file deleted whole still is (by id);
    a change whose own patch is that large says so in a note."""
    from leverguard.revert.patch import MAX_PATCH_LINES

    table = text_lines("v", MAX_PATCH_LINES + 1)
    repo.write("src/app.py", "print('hello world from the app')\n")
    repo.commit("init (#1)")
    land(repo, "data: the table (#2)", {"data/table.c": table})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "table: drop an entry", {"data/table.c": table.replace("int v_10 = compute(10);\n", "")}, author=BOB)
    code, report = check_cli(repo, "main..topic")
    assert code == 0 and report["findings"] == [], report["findings"]
    land(repo, "table: gone", {"data/table.c": None}, author=BOB)
    code, report = check_cli(repo, "main..topic")
    assert [e["kind"] for f in report["findings"] for e in f["evidence"]] == ["deleted-added"]
    repo.git("checkout", "-q", "-B", "topic", "main")
    land(repo, "table: regenerate", {"data/table.c": text_lines("w", MAX_PATCH_LINES + 1)}, author=BOB)
    code, report = check_cli(repo, "main..topic")
    assert any("data/table.c" in note and "changed lines compared by object id only" in note
               for note in report["notes"]), report["notes"]


def test_a_history_holding_a_commits_patch_past_the_reading_bound_is_audited_through(repo: Repo) -> None:
    """A commit whose patch runs past git.MAX_ANSWER bytes is read through and dropped (ids only): the
    commits around it are checked as before, the older one's patch read intact right after it."""
    from leverguard.git import MAX_ANSWER

    repo.write("src/app.py", "print('hello world from the app')\n")
    repo.commit("init")
    land(repo, "lib: add the parser (#1)", {"src/parser.py": "def parse(text):\n    return text.split()\n"})
    from leverguard.revert.patch import MAX_PATCH_LINES

    line = "const fixture_entry_value = compute_entry(17);\n"
    files = MAX_ANSWER // (len(line) * MAX_PATCH_LINES) + 1  # each file's patch under the per-file bound
    land(repo, "data: record the fixtures (#2)", {f"data/fixtures{i}.js": line * MAX_PATCH_LINES for i in range(files)})
    land(repo, "app: greet by name (#3)", {"src/app.py": "print('hello ' + name + ' from the app')\n"})
    land(repo, "tidy: stale tree", {"src/app.py": "print('hello world from the app')\n", "src/parser.py": None,
                                    **{f"data/fixtures{i}.js": None for i in range(files)}},
         author="Carol <carol@example.com>")
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    found = {f["pr"]: {e["kind"] for e in f["evidence"]} for r in data["results"] for f in r["findings"]}
    assert found == {3: {"rollback"}, 1: {"deleted-added"}, 2: {"deleted-added"}}, found
    fixtures = next(f for r in data["results"] for f in r["findings"] if f["pr"] == 2)
    assert len(fixtures["evidence"]) == files and all(e["lines"] == 0 for e in fixtures["evidence"])  # none read
    assert data["incomplete"] is False and data["checked"] == 5
