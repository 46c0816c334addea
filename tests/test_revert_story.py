"""The #221/#224 story: a PR restores 18 files of a commit merged before its merge base."""

from __future__ import annotations

import json

from conftest import Repo, run_leverguard
from revert_helpers import BOB, CAROL, body, by_pr, check, check_cli, land, seed


def build_224(repo: Repo) -> tuple[str, dict[str, str]]:
    """main: initial, #221 (Bob, 18 files), then Carol's stale branch and an unrelated main commit."""
    old = seed(repo)
    paths = [f"src/mod{i}.py" for i in range(18)]
    new = {p: old[p] + body(f"fused{i}", 5) for i, p in enumerate(paths)}
    sha_221 = land(repo, "feat(prep-fused): fuse the prep kernels (#221)", dict(new), author=BOB)
    land(repo, "ci: cache wheels (#223)", {"ci.yml": body("ci", 3)})
    repo.git("checkout", "-q", "-b", "carol")
    stale = {p: old[p] for p in paths}
    stale["kernel.c"] = old["kernel.c"].replace("x * 3", "(x << 1) + x") + "int kernel_fused(int x) { return x; }\n"
    land(repo, "refactor(kernel): restructure the kernel", stale, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "docs: unrelated (#222)", {"README.md": "hello\n"})
    return sha_221, old


def test_stale_tree_pr_is_an_error_naming_221(repo: Repo) -> None:
    sha_221, _ = build_224(repo)
    code, report = check(repo, "main..carol")
    assert code == 1
    finding = by_pr(report)[221]
    assert finding["commit"] == sha_221
    assert finding["severity"] == "error" and not finding["declared"]
    assert (finding["undone_paths"], finding["touched_paths"]) == (18, 18)
    assert finding["undone_lines"] == finding["touched_lines"] == 90
    assert set(finding["kinds"]) == {"rollback"}
    assert finding["author"] == "Bob"
    assert report["approximate"] is False
    assert len(report["findings"]) == 1


def test_text_output_names_the_pr_and_every_path(repo: Repo) -> None:
    build_224(repo)
    proc = run_leverguard("check-revert", "main..carol", cwd=repo.path)
    assert proc.returncode == 1
    assert 'error: HEAD undoes 18/18 files of #221 "feat(prep-fused): fuse the prep kernels (#221)"' in proc.stdout
    assert "merged 1h before the merge base) -- not declared in any commit message of the range" in proc.stdout
    assert "src/mod17.py: rollback: byte-identical to its version before this commit" in proc.stdout


def test_window_and_since_bound_the_candidates(repo: Repo) -> None:
    build_224(repo)
    code, report = check(repo, "main..carol", window=1)
    assert code == 0 and report["findings"] == [] and report["candidates"] == 1
    code, report = check(repo, "main..carol", since="2100-01-01")
    assert code == 0 and report["candidates"] == 0
    code, report = check(repo, "main..carol", since="2000-01-01")
    assert code == 1 and report["candidates"] == 4


def test_json_through_the_cli_and_markdown(repo: Repo) -> None:
    sha_221, _ = build_224(repo)
    code, report = check_cli(repo, "main..carol")
    assert code == 1 and report["findings"][0]["commit"] == sha_221
    assert set(report) >= {"base", "head", "merge_base", "approximate", "findings"}
    assert set(report["findings"][0]) >= {"commit", "pr", "subject", "author", "severity", "declared", "paths",
                                          "undone_paths", "touched_paths", "undone_lines", "touched_lines",
                                          "kinds", "evidence"}
    markdown = run_leverguard("check-revert", "--format", "markdown", "main..carol", cwd=repo.path).stdout
    assert "**error**: undoes 18/18 files of #221" in markdown and "| `src/mod0.py` | rollback |" in markdown


def _stale_copy_of_a_wide_commit(repo: Repo, files: int) -> None:
    """#300 (Bob) edits FILES modules; Carol's branch commits stale copies of all of them with her work."""
    old = seed(repo, files=files)
    modules = sorted(p for p in old if p.startswith("src/"))
    land(repo, "feat: rename the scale knob (#300)", {p: old[p] + body(f"wide{i}", 2) for i, p in enumerate(modules)})
    repo.git("checkout", "-q", "-b", "carol")
    stale: dict[str, str | None] = {p: old[p] for p in modules}
    stale["kernel.c"] = old["kernel.c"] + "int carol(int x) { return x; }\n"
    land(repo, "feat: carol's work", stale, author=CAROL)
    repo.git("checkout", "-q", "main")


def test_line_counts_stop_at_fifty_files_in_check_and_audit(repo: Repo) -> None:
    # counting a wide commit's lines means reading every blob of it; the count is shown, never graded
    _stale_copy_of_a_wide_commit(repo, 50)
    code, report = check(repo, "main..carol")
    assert code == 1 and by_pr(report)[300]["touched_lines"] == 100
    repo.git("merge", "-q", "--no-ff", "carol", "-m", "Merge branch carol (#301)")
    audit = json.loads(run_leverguard("audit", "--format", "json", cwd=repo.path).stdout)
    assert [f["touched_lines"] for r in audit["results"] for f in r["findings"] if f["pr"] == 300] == [100]


def test_a_commit_of_fifty_one_files_has_no_line_count(repo: Repo) -> None:
    _stale_copy_of_a_wide_commit(repo, 51)
    code, report = check(repo, "main..carol")
    finding = by_pr(report)[300]
    assert code == 1 and finding["touched_lines"] == 0 and finding["undone_lines"] == 102
    assert run_leverguard("check-revert", "main..carol", cwd=repo.path).stdout.count("non-trivial lines undone") == 0
    repo.git("merge", "-q", "--no-ff", "carol", "-m", "Merge branch carol (#301)")
    audit = json.loads(run_leverguard("audit", "--format", "json", cwd=repo.path).stdout)
    assert [f["touched_lines"] for r in audit["results"] for f in r["findings"] if f["pr"] == 300] == [0]
