"""Every signal and severity on real repositories, each with its false-positive trap."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, check_cli, land, merge_pr, seed


def _stale_branch(repo: Repo, edits: dict[str, str | None], author: str = CAROL) -> None:
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: topic work", edits, author=author)
    repo.git("checkout", "-q", "main")


def test_resurrected_file_is_an_error(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "chore: remove the legacy loader (#301)", {"src/mod3.py": None})
    _stale_branch(repo, {"src/mod3.py": old["src/mod3.py"], "kernel.c": old["kernel.c"] + "int x;\n"})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 1 and finding["severity"] == "error" and finding["kinds"] == ["resurrected"]


def test_resurrected_with_other_content_is_not_a_rollback(repo: Repo) -> None:
    seed(repo)
    land(repo, "chore: remove the legacy loader (#301)", {"src/mod3.py": None})
    _stale_branch(repo, {"src/mod3.py": body("brand_new", 4)})
    code, report = check(repo, "main..topic")
    assert code == 0 and report["findings"] == []


def test_deleting_one_of_the_files_someone_added_is_only_a_notice(repo: Repo) -> None:
    seed(repo)
    land(repo, "tools: add probes (#301)", {"tools/probe.py": body("probe", 6), "tools/other.py": body("other", 6)})
    _stale_branch(repo, {"tools/probe.py": None, "kernel.c": "int y;\n"})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0
    assert by_pr(report)[301]["severity"] == "notice" and by_pr(report)[301]["kinds"] == ["deleted-added"]


def test_deleting_every_file_a_commit_added_is_a_warning(repo: Repo) -> None:
    seed(repo)
    land(repo, "tools: add a probe (#301)", {"tools/probe.py": body("probe", 6)})
    _stale_branch(repo, {"tools/probe.py": None, "kernel.c": "int y;\n"})
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "warning"
    assert check(repo, "main..topic", "--strict")[0] == 1


@pytest.mark.parametrize(("author", "subject", "put_back", "severity"), [
    # its own author taking out a probe they added (tmux's `Do not really need both.`, remark-lint's scratch)
    (BOB, "feat: topic work", False, "notice"),
    (CAROL, "feat: topic work", False, "warning"),  # someone else's files
    (BOB, "feat: topic work\n\nCo-Authored-By: Claude <noreply@anthropic.com>", False, "warning"),  # an agent's
    (BOB, "feat: topic work", True, "warning"),  # beside another commit's file put back: a stale tree
])
def test_files_deleted_by_the_author_who_added_them(repo: Repo, author: str, subject: str, put_back: bool,
                                                     severity: str) -> None:
    old = seed(repo)
    land(repo, "tools: add a probe (#301)", {"tools/probe.py": body("probe", 6)})
    land(repo, "docs: the guide (#302)", {"src/mod2.py": body("guide", 6)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    edits = {"tools/probe.py": None, "kernel.c": "int y;\n", **({"src/mod2.py": old["src/mod2.py"]} if put_back else {})}
    land(repo, subject, edits, author=author)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_deleting_a_whole_module_folder_is_a_warning(repo: Repo) -> None:
    seed(repo)
    land(repo, "feat: the router module (#301)", {f"pkg/router/{n}.py": body(f"router{n}", 5) for n in "abc"})
    _stale_branch(repo, {f"pkg/router/{n}.py": None for n in "abc"})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 0 and finding["severity"] == "warning" and finding["whole_folders"] == ["pkg"]
    assert check(repo, "main..topic", "--strict")[0] == 1


@pytest.mark.parametrize(("elsewhere", "reason"), [
    (False, "every file it added deleted"),
    (True, "a whole folder it added deleted"),  # espree: two of four added files gone, their folder whole
])
def test_a_whole_folder_deleted_says_what_went(repo: Repo, elsewhere: bool, reason: str) -> None:
    seed(repo)
    files = {f"pkg/router/{n}.py": body(f"router{n}", 5) for n in "ab"}
    land(repo, "feat: the router module (#301)", {**files, **({"docs/router.md": body("doc", 5)} if elsewhere else {})})
    _stale_branch(repo, {p: None for p in files})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "warning" and finding["reason"] == reason


def test_moving_a_folder_is_not_a_deletion(repo: Repo) -> None:
    seed(repo)
    files = {f"pkg/router/{n}.py": body(f"router{n}", 5) for n in "abc"}
    land(repo, "feat: the router module (#301)", dict(files))
    moved: dict[str, str | None] = {p: None for p in files}
    moved.update({p.replace("pkg/", "lib/"): t.replace("_0 ", "_zero ") for p, t in files.items()})
    _stale_branch(repo, moved)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_every_hunk_a_commit_replaced_put_back_next_to_new_work_fails(repo: Repo) -> None:
    old = seed(repo)
    base = old["src/mod1.py"]
    land(repo, "feat: tuned scales (#301)", {"src/mod1.py": base.replace("scale=7)", "scale=70)").replace(
        "scale=21)", "scale=210)")})
    stale = "# tuned by carol\n" + base  # stale copy plus one genuine edit: not byte-identical
    _stale_branch(repo, {"src/mod1.py": stale})
    code, report = check(repo, "main..topic", "--strict")
    finding = by_pr(report)[301]
    # every change #301 made is gone, the old text back, next to a genuine edit: a stale copy, an error
    assert code == 1 and finding["kinds"] == ["inverse-hunk"] and finding["severity"] == "error"
    assert finding["reason"] == "every change it made is undone"


def _old_lines_put_back(repo: Repo, wrapped: bool, files: int = 1) -> dict[str, Any]:
    """#301 retunes four lines of FILES modules; the topic puts the old ones back, WRAPPED in a new block
    written around them (flask's `split code and output`) or as a stale copy with new work elsewhere."""
    old = seed(repo)
    tuned = "".join(f"    rate_{n} = compute_rate('{n}', 1)\n" for n in "abcd")
    modules = {f"src/q{i}.py": f"def setup():\n    start()\n{tuned}\n\ndef other():\n    pass\n" for i in range(files)}
    land(repo, "feat: modules", modules)
    land(repo, "tune: rates (#301)", {p: t.replace("', 1)", "', 10)") for p, t in modules.items()})
    if wrapped:
        edits = {p: t.replace(tuned, f"    with rate_guard(strict=True):\n{tuned}") for p, t in modules.items()}
    else:
        edits = {p: "import rate_guard_module\n" + t for p, t in modules.items()}
    _stale_branch(repo, {**edits, "kernel.c": old["kernel.c"] + "int t;\n"})
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_files_old_lines_put_back_inside_new_text_written_around_them_are_a_warning(repo: Repo) -> None:
    # that region edited: no "every change undone" error, but still the stale-copy warning (new work right
    # next to lines a stale copy put back looks the same: test_one_hunk_of_two_undone_next_to_new_work)
    finding = _old_lines_put_back(repo, wrapped=True)
    assert finding["severity"] == "warning" and finding["reason"] == "hunks put back exactly as they were before it"


def test_a_files_old_lines_put_back_with_new_work_elsewhere_in_it_fail(repo: Repo) -> None:
    finding = _old_lines_put_back(repo, wrapped=False)
    assert finding["severity"] == "error" and finding["reason"] == "every change it made is undone"


def test_old_lines_put_back_inside_new_text_in_every_file_of_a_commit_fail(repo: Repo) -> None:
    # several files of one commit undone: a stale tree, however each file was edited around them
    assert _old_lines_put_back(repo, wrapped=True, files=2)["severity"] == "error"


def test_every_line_a_commit_added_deleted_next_to_new_work_is_a_warning(repo: Repo) -> None:
    # a commit that only added lines (a skip, a workaround, a badge), deleted amid new work: people do
    # that on purpose, and with nothing put back and no whole file rolled back it does not fail alone
    old = seed(repo)
    base = old["src/mod1.py"]
    land(repo, "feat: feature (#301)", {"src/mod1.py": base + body("feature", 8)})
    _stale_branch(repo, {"src/mod1.py": "# tuned by carol\n" + base})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 0 and finding["kinds"] == ["inverse-hunk"] and finding["severity"] == "warning"
    assert finding["undone_lines"] == 8 and finding["reason"] == "lines it added deleted, nothing in their place"


def _added_lines_deleted_after(repo: Repo, others: int) -> dict[str, Any]:
    """#301 only adds lines to mod1; OTHERS commits later, Carol's change deletes them amid new work."""
    old = seed(repo)
    base = old["src/mod1.py"]
    land(repo, "feat: feature (#301)", {"src/mod1.py": base + body("feature", 8)})
    for i in range(others):
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i}.py": body(f"o{i}", 4)})
    _stale_branch(repo, {"src/mod1.py": "# tuned by carol\n" + base})
    return by_pr(check(repo, "main..topic")[1])[301]


def test_lines_the_tenth_commit_back_added_deleted_are_a_warning(repo: Repo) -> None:
    assert _added_lines_deleted_after(repo, 10)["severity"] == "warning"  # one of the last ten: a stale tree's reach


def test_lines_an_older_commit_added_deleted_are_a_notice(repo: Repo) -> None:
    # what people delete on purpose (a workaround dropped, a badge removed) once it has served
    finding = _added_lines_deleted_after(repo, 11)
    assert finding["severity"] == "notice" and finding["reason"] == "lines it added deleted, nothing in their place"


def test_rewrite_guard_spares_a_reimplementation(repo: Repo) -> None:
    old = seed(repo)
    base = old["src/mod1.py"]
    land(repo, "feat: feature (#301)", {"src/mod1.py": base + body("feature", 4)})
    _stale_branch(repo, {"src/mod1.py": base + body("rewritten", 12)})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_rollback_of_ones_own_commit_is_still_an_error(repo: Repo) -> None:
    # the author undoing their own work from a stale tree is the common accident, not its excuse (#10)
    old = seed(repo)
    land(repo, "feat: carol's feature (#301)", {"src/mod1.py": old["src/mod1.py"] + body("own", 6)}, author=CAROL)
    _stale_branch(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int z;\n"})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_deleting_ones_own_fresh_line_is_a_notice(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: carol's flag (#301)", {"src/mod1.py": old["src/mod1.py"] + "DEBUG_DUMP = True\n"}, author=CAROL)
    _stale_branch(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int z;\n"})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"


def test_small_share_of_a_big_commit_is_still_an_error(repo: Repo) -> None:
    old = seed(repo)
    edits = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"wide{i}", 5) for i in range(10)}
    land(repo, "feat: wide change (#301)", edits)
    _stale_branch(repo, {"src/mod0.py": old["src/mod0.py"]})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    # size says nothing about harm: one whole file of ten put back fails the check (#10)
    assert code == 1 and finding["severity"] == "error" and (finding["undone_paths"], finding["touched_paths"]) == (1, 10)


def test_later_changes_to_a_rolled_back_file_are_undone_too(repo: Repo) -> None:
    old = seed(repo)
    first = old["src/mod1.py"] + body("first", 4)
    land(repo, "feat: first (#301)", {"src/mod1.py": first})
    land(repo, "feat: second (#302)", {"src/mod1.py": first + body("second", 4)})
    _stale_branch(repo, {"src/mod1.py": old["src/mod1.py"]})
    code, report = check(repo, "main..topic")
    assert code == 1 and set(by_pr(report)) == {301, 302}


def test_pr_merged_by_merge_commit_after_landing(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: fused prep (#301)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)})
    _stale_branch(repo, {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(4)})
    merged = merge_pr(repo, "topic", 302, "refactor: kernel")
    code, report = check(repo, f"{merged}^..{merged}")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"
    assert report["base"] == repo.git("rev-parse", f"{merged}^")


def test_merge_commit_candidate_is_attributed_to_its_pr(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    inner = land(repo, "feat: inner work", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"m{i}", 3) for i in range(3)},
                 author=BOB)
    repo.git("checkout", "-q", "main")
    merge = merge_pr(repo, "feature", 301, "feat: the merged feature")
    _stale_branch(repo, {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 1 and finding["commit"] == merge and finding["author"] == "Bob"
    assert inner != merge


def test_conflicting_pr_is_checked_approximately(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: fused prep (#301)", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(3)})
    _stale_branch(repo, {**{f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}, "kernel.c": "int mine;\n"})
    land(repo, "feat: kernel (#302)", {"kernel.c": "int theirs;\n"})
    code, report = check(repo, "main..topic")
    assert report["approximate"] is True and code == 1 and by_pr(report)[301]["severity"] == "error"


def test_generated_and_excluded_paths_are_not_reported(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "chore: attributes", {".gitattributes": "*.lock linguist-generated=true\n",
                                     ".leverguard.toml": '[revert]\nexclude = ["docs/api/**"]\n'})
    land(repo, "deps: refresh (#301)", {"deps.lock": body("lock", 30), "docs/api/index.md": body("api", 10)})
    _stale_branch(repo, {"deps.lock": None, "docs/api/index.md": None, "src/mod1.py": old["src/mod1.py"] + "x = 1\n"})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_cached_configuration_at_base_follows_every_change_of_the_file(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "chore: remove the legacy loader (#301)", {"src/mod3.py": None})
    _stale_branch(repo, {"src/mod3.py": old["src/mod3.py"], "kernel.c": old["kernel.c"] + "int x;\n"})
    assert check_cli(repo, "main..topic")[0] == 1
    assert (repo.path / ".git" / "leverguard" / "revert-config").is_file()  # the values of BASE's configuration
    land(repo, "chore: exclude the loader", {".leverguard.toml": '[revert]\nexclude = ["src/mod3.py"]\n'})
    for _ in range(2):  # written, then read back from the cache
        code, report = check_cli(repo, "main..topic")
        assert code == 0 and report["findings"] == []
    land(repo, "chore: broken configuration", {".leverguard.toml": "[revert\n"})
    proc = run_leverguard("check-revert", "main..topic", cwd=repo.path)
    assert proc.returncode == 2 and "invalid TOML" in proc.stderr
    land(repo, "chore: no configuration", {".leverguard.toml": None})
    assert check_cli(repo, "main..topic")[0] == 1


def test_huge_text_file_rollback_uses_blob_comparison(repo: Repo) -> None:
    seed(repo)
    big_old = body("big_old", 20000)  # > 1 MiB: no line-level work
    repo.write("data/table.py", big_old)
    repo.commit("add table")
    land(repo, "data: regenerate the table (#301)", {"data/table.py": body("big_new", 20000)})
    _stale_branch(repo, {"data/table.py": big_old})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["kinds"] == ["rollback"]


def test_whoever_merged_a_pr_is_not_its_author(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    land(repo, "feat: bob's work", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"m{i}", 3) for i in range(3)}, author=BOB)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "feature", 301, "feat: bob's work", author=DAVE)
    _stale_branch(repo, {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}, author=DAVE)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_a_relanded_change_is_undone_once_not_twice(repo: Repo) -> None:
    old = seed(repo)
    base = old["src/mod1.py"]
    feature = body("feature", 6)
    land(repo, "feat: feature (#301)", {"src/mod1.py": base + feature})
    land(repo, 'Revert "feat: feature (#301)" (#302)', {"src/mod1.py": base})
    land(repo, "feat: feature again (#303)", {"src/mod1.py": base + feature}, author=DAVE)
    _stale_branch(repo, {"src/mod1.py": "# carol's tweak\n" + base})
    code, report = check(repo, "main..topic", "--strict")
    assert set(by_pr(report)) == {303} and code == 1


def _undone_after_its_repair(repo: Repo, repair_subject: str) -> dict[int | None, dict[str, Any]]:
    """#301 adds a fallthrough, #302 (a stale copy) drops it, #303 puts it back, and the topic drops it again."""
    old = seed(repo)
    base, feature = old["src/mod1.py"], body("fallthrough", 6)
    land(repo, "feat: fallthrough (#301)", {"src/mod1.py": base + feature})
    dropped = land(repo, "fix: provisioner key (#302)", {"src/mod1.py": "# provisioner\n" + base}, author=CAROL)
    land(repo, repair_subject.format(sha=dropped[:9]), {"src/mod1.py": "# provisioner\n" + base + feature})
    _stale_branch(repo, {"src/mod1.py": "# provisioner\n# spawn fix\n" + base})
    return by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize("subject", ["fix: restore the fallthrough (reverted in {sha}) (#303)",
                                     "Fixed last commit and added test (#303)"])  # flask's
def test_a_repair_naming_the_commit_it_repairs_undone_again_is_found(repo: Repo, subject: str) -> None:
    # commonly's tools.ts: overwritten by a stale copy, restored "(reverted in e59f7fe)", overwritten again
    found = _undone_after_its_repair(repo, subject)
    assert found[303]["severity"] in ("warning", "error")


def test_undoing_a_commit_that_had_undone_the_one_before_re_lands_that_one(repo: Repo) -> None:
    # the re-land trap: #303 undid #302 a commit later without a word; the topic puts #302's state back
    assert 303 not in _undone_after_its_repair(repo, "feat: fallthrough again (#303)")


def test_take_mine_conflict_resolution_after_merging_main_is_found(repo: Repo) -> None:
    seed(repo)
    lines = [f"setting_{i} = configure(level={i}, mode='a')\n" for i in range(6)]
    repo.write("conf.py", "".join(lines))
    repo.commit("conf")
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    tuned = [line.replace("mode='a'", "mode='fast'") for line in lines[:5]] + lines[5:]
    land(repo, "perf: fast modes (#301)", {"conf.py": "".join(tuned)})
    repo.git("checkout", "-q", "topic")
    land(repo, "feat: level 0 tweak", {"conf.py": "".join([lines[0].replace("level=0", "level=10")] + lines[1:])},
         author=CAROL)
    repo.git("merge", "-q", "--no-edit", "-X", "ours", "main")  # "take mine": #301 is lost in the merge
    code, report = check(repo, "main..topic", "--strict")
    assert report["merge_base"] == repo.git("rev-parse", "main")
    assert code == 1 and by_pr(report)[301]["kinds"] == ["inverse-hunk"], report


NEW_WORK = ("class RetryPolicy:\n    def __init__(self, attempts: int) -> None:\n        self.attempts = attempts\n\n"
            "    def delays(self) -> list[float]:\n        return [0.1 * 2 ** n for n in range(self.attempts)]\n")


def test_stale_copy_that_also_adds_new_work_elsewhere_in_the_file(repo: Repo) -> None:
    """The common shape: the stale file is committed together with genuine additions in other hunks."""
    old = seed(repo)
    base = old["src/mod1.py"].splitlines(keepends=True)
    feature = body("feature", 6)
    land(repo, "feat: feature in the middle (#301)", {"src/mod1.py": "".join(base[:3]) + feature + "".join(base[3:])})
    # (new work unlike the feature: code of the same template a few lines off reads as a rewrite of it)
    _stale_branch(repo, {"src/mod1.py": "".join(base) + NEW_WORK})
    code, report = check(repo, "main..topic", "--strict")
    finding = by_pr(report)[301]
    assert code == 1 and finding["kinds"] == ["inverse-hunk"] and finding["undone_lines"] == 6


def test_stale_copy_reverting_in_place_edits_next_to_new_work(repo: Repo) -> None:
    old = seed(repo)
    base = old["src/mod1.py"]
    tuned = base.replace("scale=7", "scale=70").replace("scale=14", "scale=140").replace("scale=21", "scale=210")
    land(repo, "fix: tune the scales (#302)", {"src/mod1.py": tuned})
    _stale_branch(repo, {"src/mod1.py": base + body("carol_new_work", 8)})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 1 and by_pr(report)[302]["undone_lines"] == 6


def test_editing_a_candidates_lines_while_adding_work_elsewhere_is_not_a_revert(repo: Repo) -> None:
    """The hunk view must not excuse a rewrite: the undone lines' hunk holds their replacement."""
    old = seed(repo)
    base = old["src/mod1.py"].splitlines(keepends=True)
    feature = body("feature", 6)
    land(repo, "feat: feature (#303)", {"src/mod1.py": "".join(base[:3]) + feature + "".join(base[3:])})
    edited = feature.replace("compute_feature", "compute_feature_v2").replace("scale=", "factor=")
    _stale_branch(repo, {"src/mod1.py": "".join(base[:3]) + edited + "".join(base[3:]) + body("more", 12)})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_exclude_patterns_match_as_git_wildmatch_and_no_wider() -> None:
    from leverguard.revert import rules

    path_rules = rules.build(["CHANGES/*", "docs/api/", "/build"], "*.pb.go linguist-generated\n", ["uv.lock"], ["dist/**"])
    assert not path_rules.reported(b"CHANGES/123.bugfix") and not path_rules.reported(b"docs/api/x/index.md")
    assert not path_rules.reported(b"build") and not path_rules.reported(b"pkg/a.pb.go")
    assert path_rules.reported(b"CHANGES.md") and path_rules.reported(b"src/build") and path_rules.reported(b"docs/api.md")
    assert path_rules.built(b"dist/app.js") and not path_rules.regenerated(b"distinct/app.js")
    assert path_rules.regenerated(b"sub/uv.lock") and not path_rules.built(b"sub/uv.lock")
    assert not path_rules.line_level(b"dist/app.js") and not path_rules.line_level(b"uv.lock")


def test_towncrier_fragments_are_recognized_by_default_and_changelogs_are_not() -> None:
    from leverguard import config
    from leverguard.revert import rules

    defaults = config.defaults()
    path_rules = rules.build(defaults.get("revert.exclude"), "", (), (), defaults.get("revert.fragments"))
    for fragment in (b"changelog/546.feature.rst", b"changelog/12.bugfix.md", b"newsfragments/7.misc", b"CHANGES/9.doc",
                     b"docs/changelog/3475.doc.rst", b"docs/changelog/3475.doc.1.rst", b"docs/changelog/+tidy.misc.md",
                     b"src/pkg/newsfragments/8.feature", b"docs/changelog.d/20240101_foo.md",
                     # virtualenv's: towncrier's type word first or last, any name, any extension
                     b"docs/changelog/u.bugfix.rst", b"docs/changelog/bugfix.2269.rst", b"docs/changelog/2182.bugfix.txt",
                     b"docs/changelog/nushell_activation.feature.rst", b"docs/changelog/CVE-2026-24049.fix.rst",
                     # pytest-xdist's: no extension
                     b"changelog/1071.bugfix", b"changelog/1057.trivial", b"changelog/704.feature",
                     # twine's: named for what it fixes, its type last
                     b"changelog/fix-repo-urls-with-auth-and-port.bugfix", b"changelog/drop-py38.removal",
                     b"docs/source/whatsnew/pr/incompat-remove-old-apis.rst",  # IPython's
                     b"731.added.rst",  # pytest-asyncio's, left at the top
                     # gevent's `docs/changes/`, towncrier's type word before or as the extension
                     b"docs/changes/1898.misc", b"docs/changes/+69dc8df4.feature.rst", b"docs/changes/2049.bugfix",
                     # astropy's, in a sub-folder per subpackage, its own type words
                     b"docs/changes/io.fits/18882.bugfix.rst", b"docs/changes/18374.other.rst", b"docs/changes/wcs/18692.api.rst",
                     # Red-DiscordBot's, in a section's folder of `changelog.d/`
                     b"changelog.d/audio/3431.enhance.rst", b"changelog.d/downloader/3409.misc.rst",
                     # dafny's, its type word the extension
                     b"docs/dev/news/6296.fix", b"docs/dev/news/6077.feat", b"docs/dev/news/5879.break"):
        assert path_rules.fragment(fragment) and path_rules.reported(fragment), fragment
        assert not path_rules.line_level(fragment), fragment  # prose a release rewords: whole files only
    for kept in (b"changelog.rst", b"docs/changelog.rst", b"CHANGELOG.md", b"docs/changelog/index.rst",
                 b"docs/changelog/v1.0.rst", b"docs/changelog/2024.rst", b"src/changelog/parse.py",
                 b"docs/changelog/v1.0.0.rst", b"docs/changelog/template.jinja2", b"1.0.rst", b"docs/731.added.rst",
                 b"src/changelog/bugfix.py", b"docs/source/whatsnew/version9.rst",
                 b"db/changes/001_init.sql", b"features/login.feature",  # a migration, a Gherkin feature
                 b"docs/changes/index.rst", b"docs/changes/io.fits/overview.rst",
                 b"docs/news/2024.md", b"site/news/1999.html", b"docs/dev/news/index.md"):
        assert path_rules.reported(kept) and not path_rules.fragment(kept), kept