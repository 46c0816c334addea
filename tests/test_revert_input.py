"""Bad and unusual input: a clear result or a one-line error (exit 2), never a traceback or a silent green."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import BOB, CAROL, body, by_pr, check, land, seed
from test_revert_story import build_224


def _error(repo_path: Path | str, *args: str) -> str:
    proc = run_leverguard("check-revert", *args, cwd=repo_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    return proc.stderr


def test_unknown_revision_and_not_a_range(repo: Repo) -> None:
    seed(repo)
    assert "unknown revision 'nope'" in _error(repo.path, "main..nope")
    assert "not a range" in _error(repo.path, "main")
    assert "no such directory" in _error(repo.path, "--repo", str(repo.path / "missing"), "main..main")


def test_empty_range_is_a_clear_result(repo: Repo) -> None:
    seed(repo)
    land(repo, "feat: more (#301)", {"a.py": body("a", 3)})
    proc = run_leverguard("check-revert", "main..main~1", cwd=repo.path)
    assert proc.returncode == 0 and "nothing to check" in proc.stdout


def test_unrelated_histories(repo: Repo) -> None:
    seed(repo)
    repo.git("checkout", "-q", "--orphan", "other")
    repo.git("rm", "-q", "-rf", ".")
    land(repo, "unrelated root", {"x.py": body("x", 3)})
    assert "unrelated histories" in _error(repo.path, "main..other")


def test_shallow_clone_names_the_fix(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo.path}", str(clone)], check=True)
    error = _error(clone, "origin/main..origin/carol")
    assert "git fetch --unshallow" in error and "fetch-depth: 0" in error


def test_shallow_window_is_noted(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "3", "--no-single-branch", f"file://{repo.path}", str(clone)], check=True)
    proc = run_leverguard("check-revert", "origin/main..origin/carol", cwd=clone)
    # the undone commit lies beyond the shallow boundary: incomplete, never a silent green (#11)
    assert proc.returncode == 2 and "shallow clone holds only" in proc.stderr and "git fetch --unshallow" in proc.stderr


def _blobless(repo: Repo, tmp_path: Path) -> Path:
    repo.git("config", "uploadpack.allowFilter", "true")
    repo.git("config", "uploadpack.allowAnySHA1InWant", "true")
    clone = tmp_path / "cache.git"
    subprocess.run(["git", "clone", "-q", "--bare", "--filter=blob:none", f"file://{repo.path}", str(clone)], check=True)
    assert Repo(clone).git("cat-file", "--batch-all-objects", "--batch-check").count(" blob ") == 0
    return clone


def test_bare_blobless_clone_works_like_the_bot_cache(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    clone = _blobless(repo, tmp_path)
    code, report = check(Repo(clone), "main..carol")
    assert code == 1 and by_pr(report)[221]["undone_paths"] == 18 and by_pr(report)[221]["undone_lines"] == 90


def test_blobless_clone_with_its_remote_gone_is_an_error(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    clone = _blobless(repo, tmp_path)
    repo.path.rename(tmp_path / "gone")
    assert "git fetch" in _error(clone, "main..carol")


def test_binary_file_rollback(repo: Repo) -> None:
    seed(repo)
    repo.write("assets/logo.png", b"\x89PNG\0\0old" * 100)
    repo.commit("assets")
    land(repo, "assets: new logo (#301)", {"assets/logo.png": b"\x89PNG\0\0new" * 100})  # type: ignore[dict-item]
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "stale", {"assets/logo.png": b"\x89PNG\0\0old" * 100}, author=CAROL)  # type: ignore[dict-item]
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_non_utf8_path_rollback(repo: Repo) -> None:
    seed(repo)
    name = b"src/caf\xe9.py"
    repo.write(name, body("cafe", 4))
    repo.commit("latin-1 file name")
    repo.write(name, body("cafe", 4) + body("more", 5))
    repo.commit("feat: more cafe (#301)", author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    repo.write(name, body("cafe", 4))
    repo.commit("stale", author=CAROL)
    proc = run_leverguard("check-revert", "main..topic", cwd=repo.path)
    assert proc.returncode == 1 and "src/caf\\xe9.py: rollback" in proc.stdout


def test_submodule_pointer_rollback(repo: Repo) -> None:
    seed(repo)
    old_pointer, new_pointer = repo.git("rev-parse", "HEAD"), "1" * 40
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{old_pointer},third_party/lib")
    repo.git("commit", "-q", "-m", "add submodule")
    repo.git("update-index", "--cacheinfo", f"160000,{new_pointer},third_party/lib")
    repo.commit("deps: bump lib (#301)", "kernel.c", author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("update-index", "--cacheinfo", f"160000,{old_pointer},third_party/lib")
    repo.commit("feat: stale checkout", "kernel.c", author=CAROL)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 1 and finding["severity"] == "error" and finding["paths"] == ["third_party/lib"]


def test_octopus_merge_head(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: prep (#301)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"p{i}", 3) for i in range(3)})
    for name, edits in (("one", {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}), ("two", {"b.py": "b = 1\n"})):
        repo.git("checkout", "-q", "-b", name, "main")
        land(repo, f"branch {name}", dict(edits), author=CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "one", "two", "-m", "octopus")
    code, report = check(repo, "main^..main")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_criss_cross_merge(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "topic 1", {"t.py": body("t1", 3)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "feat: main 1 (#301)", {"src/mod1.py": old["src/mod1.py"] + body("m1", 4)})
    tip = repo.head()
    repo.git("merge", "-q", "--no-edit", "topic")
    repo.git("checkout", "-q", "topic")
    repo.git("merge", "-q", "--no-edit", tip)
    land(repo, "topic 2", {"t.py": body("t2", 3)}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_fast_path_and_click_agree(repo: Repo) -> None:
    build_224(repo)
    fast = run_leverguard("check-revert", "--format=json", "--window", "20", "main..carol", cwd=repo.path)
    assert fast.returncode == 1 and '"pr": 221' in fast.stdout
    helped = run_leverguard("check-revert", "--help", cwd=repo.path)
    assert helped.returncode == 0 and "--pr-body FILE" in helped.stdout
    bad = run_leverguard("check-revert", "--window", "many", "main..carol", cwd=repo.path)
    assert bad.returncode == 2 and "many" in bad.stderr and "Traceback" not in bad.stderr
    missing = run_leverguard("check-revert", "--pr-body", "nope.md", "main..carol", cwd=repo.path)
    assert missing.returncode == 2 and "nope.md" in missing.stderr


def test_non_utf8_content_and_root_commits(repo: Repo) -> None:
    original = "".join(f"caf\xe9 ligne num\xe9ro {i}\n" for i in range(6)).encode("latin-1")
    repo.write("legacy.txt", original)
    root = repo.commit("root import")
    code, report = check(repo, f"{root}..{root}")
    assert code == 0 and report["empty"] is True
    added = "".join(f"entr\xe9e suppl\xe9mentaire {i}\n" for i in range(5)).encode("latin-1")
    repo.write("legacy.txt", original + added)
    repo.commit("feat: more entries (#301)", author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("legacy.txt", original + b"one more line of text\n")
    repo.commit("stale edit", author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 1 and by_pr(report)[301]["kinds"] == ["inverse-hunk"] and by_pr(report)[301]["undone_lines"] == 5


def test_a_shallow_window_without_conclusive_evidence_is_incomplete(repo: Repo, tmp_path: Path) -> None:
    old = seed(repo)
    for i in range(4):
        land(repo, f"feat: more (#{300 + i})", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"m{i}", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"kernel.c": "int t;\n"}, author=CAROL)
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "3", "--no-single-branch", f"file://{repo.path}", str(clone)], check=True)
    proc = run_leverguard("check-revert", "origin/main..origin/topic", cwd=clone)
    assert proc.returncode == 2 and "incomplete check" in proc.stderr and "git fetch --unshallow" in proc.stderr
    full = run_leverguard("check-revert", "main..topic", cwd=repo.path)
    assert full.returncode == 0  # the same check with the whole history is clean
    audit = run_leverguard("audit", "--format", "json", cwd=clone)
    assert audit.returncode == 2 and json.loads(audit.stdout)["incomplete"] is True  # reported, then exit 2


@pytest.mark.parametrize("args, fragment", [
    (["--window", "0"], "window of 0 commits"),
    (["--since", "--all"], "is not a date"),
    (["--since", "garbage"], "not a date git understands"),
])
def test_options_that_would_check_nothing_are_refused(repo: Repo, args: list[str], fragment: str) -> None:
    build_224(repo)
    proc = run_leverguard("check-revert", *args, "main..carol", cwd=repo.path)
    assert proc.returncode == 2 and fragment in proc.stderr, proc.stderr


def test_audit_since_garbage_is_refused_and_a_real_date_is_not(repo: Repo) -> None:
    build_224(repo)
    bad = run_leverguard("audit", "--since", "garbage", cwd=repo.path)
    assert bad.returncode == 2 and "not a date git understands" in bad.stderr
    good = run_leverguard("audit", "--since", "2000-01-01", cwd=repo.path)
    assert good.returncode in (0, 1), good.stderr


def test_a_version_shaped_line_with_a_long_suffix_is_read_at_once(repo: Repo) -> None:
    """Hostile (or minified) text: `version = "1.2abc...z_"` once made the version reader backtrack
    exponentially in the suffix's length; 60 letters would never finish."""
    seed(repo)
    line = 'version = "1.2' + "abcdefghij" * 6 + '_"\n'
    land(repo, "chore: version (#301)", {"setup.py": line})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: version again", {"setup.py": line.replace("1.2", "1.3")}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and 301 not in by_pr(report)


@pytest.mark.parametrize("separator", ["\x1f", "\x1e"])
def test_names_and_messages_holding_gits_field_separators_are_read_as_text(repo: Repo, separator: str) -> None:
    # git takes any byte in an author's name and a subject: the log's own separators there must not shift the
    # dates into the name (a crash) or hide the author (an address holds no control character)
    evil = f"Ev{separator}il <evil@example.com>"
    old = seed(repo)
    fast = land(repo, f"feat: fast{separator}path (#301)", {"src/mod1.py": old["src/mod1.py"] + body("fast", 4)},
                author=evil)
    repo.git("checkout", "-q", "-b", "topic", "HEAD~1")
    land(repo, f"chore: stale{separator}tree", {"src/mod2.py": old["src/mod2.py"] + body("new", 3)}, author=evil)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "topic", "-m", f"Merge pull request #302 from x/topic{separator}")
    repo.git("checkout", "-q", "-b", "stale", "HEAD~1")
    land(repo, "chore: lint", {"src/mod1.py": old["src/mod1.py"], "src/mod3.py": old["src/mod3.py"] + "x = 1\n"},
         author=CAROL)
    code, report = check(repo, "main..stale")  # (a subject is read up to a unit separator in it: the rest is body)
    assert code == 1 and [f["author"] for f in report["findings"] if f["commit"] == fast] == [f"Ev{separator}il"]
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "stale", "-m", "Merge pull request #303 from x/stale")
    audited = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert audited.returncode == 1, audited.stderr
    landed = {r["pr"]: r for r in json.loads(audited.stdout)["results"]}
    assert [(f["commit"], f["author"]) for f in landed[303]["findings"]] == [(fast, f"Ev{separator}il")]
