"""Merge resolutions that took one side: the lines git's own re-merge keeps and the recorded merge drops."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from conftest import Repo, run_leverguard
from leverguard import git
from leverguard.revert.audit import audit_branch
from leverguard.session import Session
from leverguard.revert.remerge import Resolutions
from revert_helpers import CAROL, DAVE, body, by_pr, check, land, merge_pr, seed, tune

CONFIG = "".join(f"    option_{i} = configure(level={i})\n" for i in range(8))


def _settings(extra: str = "", head: str = "class Settings:\n") -> str:
    return head + CONFIG + extra


def _branch_with_resolution(repo: Repo, resolved: str, third: bool = False,
                            message: str = "Merge branch 'main' into topic", merged_title: str = "",
                            tokens: tuple[str, str] | None = None) -> None:
    """main adds two settings at the end of the block (#301, or a PR merged under MERGED_TITLE); the branch
    edits the same spot, merges main in, resolves the conflict as RESOLVED, then rewrites the class around it
    (so the landing hunk is new text)."""
    seed(repo)
    land(repo, "feat: settings", {"src/settings.py": _settings()})
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    main_side = "    reload_interval = configure(seconds=30000)\n    reload_timer = configure(seconds=0)\n" + \
        ("    reload_jitter = configure(seconds=5)\n" if third else "")
    kept = {"src/mod1.py": "reloads = configure(kind='periodic')\n"} if third else {}  # #301 work no merge touches
    if tokens is not None:  # another file in conflict too, on each side its own line (TOKENS: main's, the branch's)
        kept["src/a_tokens.txt"] = tokens[0]
    if merged_title:
        repo.git("checkout", "-q", "-b", "reload")
        land(repo, "periodic reload", {"src/settings.py": _settings(main_side), **kept})
        repo.git("checkout", "-q", "main")
        merge_pr(repo, "reload", 301, merged_title)
    else:
        land(repo, "feat: periodic reload (#301)", {"src/settings.py": _settings(main_side), **kept})
    repo.git("checkout", "-q", "topic")
    land(repo, "feat: filters", {"src/settings.py": _settings("    filters = configure(kind='relevant')\n"),
                                 **({"src/a_tokens.txt": tokens[1]} if tokens is not None else {})}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)  # conflicts
    repo.write("src/settings.py", resolved)
    if tokens is not None:
        repo.write("src/a_tokens.txt", tokens[1])
    repo.commit(message, author=CAROL)  # finishes the merge, dated like the rest
    rewritten = resolved.replace("class Settings:\n", "class Settings(Base):\n    \"\"\"Poll navigation settings.\"\"\"\n")
    land(repo, "refactor: settings derive from Base", {"src/settings.py": rewritten}, author=CAROL)


def test_a_conflict_resolved_by_dropping_mains_lines_is_a_warning(repo: Repo) -> None:
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"))  # "take mine"
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert finding["severity"] == "warning" and "conflict resolution of merge" in finding["reason"]
    assert "conflict resolution of merge" in finding["evidence"][0]["detail"]


@pytest.mark.parametrize("separator", ["\x1e", ":"])
def test_a_record_separator_in_a_files_text_does_not_split_the_merges_patch(repo: Repo, separator: str) -> None:
    # Rocket.Chat.Electron's binary asset re-merged: its bytes held git's record separator, which cut the
    # merge's patch in two (its later conflict notes read as another merge's), or crashed the audit
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"),
                            tokens=(f"field{separator}main\n", f"field{separator}topic\n"))
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "warning" and "conflict resolution of merge" in finding["reason"], finding["reason"]


def test_lines_a_resolution_dropped_are_lost_whatever_the_merged_prs_title_says(repo: Repo) -> None:
    # textual's #5409, merged still titled `WIP Arbitrary select`: its changelog entries dropped by a resolution
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"), merged_title="WIP periodic reload")
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "warning" and "conflict resolution of merge" in finding["reason"]


@pytest.mark.parametrize(("message", "severity"), [
    ('Merge main into topic using "ours" strategy.', "notice"),  # Auspex's: main's side thrown away on purpose
    ("Merge main into topic (git merge -s ours)", "notice"),
    ("Merge main into topic, ours wins the conflicts", "warning"),  # no strategy named
])
def test_a_merge_that_says_it_used_the_ours_strategy_discarded_on_purpose(repo: Repo, message: str,
                                                                        severity: str) -> None:
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"), message=message)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_a_resolution_that_keeps_both_sides_undoes_nothing(repo: Repo) -> None:
    both = _settings("    filters = configure(kind='relevant')\n    reload_interval = configure(seconds=30000)\n"
                     "    reload_timer = configure(seconds=0)\n")
    _branch_with_resolution(repo, both)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and 301 not in by_pr(report)


def test_a_resolution_that_moves_mains_lines_elsewhere_in_the_file_loses_nothing(repo: Repo) -> None:
    # a changelog section re-ordered, an import put at the top: the lines are still there
    moved = _settings("    filters = configure(kind='relevant')\n", head="class Settings:\n"
                      "    reload_interval = configure(seconds=30000)\n    reload_timer = configure(seconds=0)\n")
    _branch_with_resolution(repo, moved)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and 301 not in by_pr(report)


def test_audit_of_the_merged_branch_names_the_resolution(repo: Repo) -> None:
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"))
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "--no-commit", "-q", "topic")
    repo.commit("Merge pull request #320 from team/topic\n\nFilters")
    proc = run_leverguard("audit", cwd=repo.path)
    assert proc.returncode == 0 and "conflict resolution of merge" in proc.stdout  # a warning: listed, not failing


def test_a_modify_delete_note_in_the_re_merge_is_read(repo: Repo) -> None:
    """git's re-merge writes a note-only section for a modify/delete conflict kept as is: no crash, no lines
    dropped, and the file #301 deleted comes back through that resolution (a failure)."""
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    land(repo, "chore: drop mod5 (#301)", {"src/mod5.py": None})
    repo.git("checkout", "-q", "topic")
    land(repo, "feat: mod5 grows", {"src/mod5.py": old["src/mod5.py"] + "grown = more(1)\n"}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)
    repo.commit("Merge branch 'main' into topic", author=CAROL)  # keeps the modified file
    with git.ObjectReader(str(repo.path)) as reader:
        assert Resolutions(str(repo.path), "main..topic", reader).dropped(b"src/mod5.py") == {}  # read, nothing dropped
    code, report = check(repo, "main..topic")
    assert code == 1 and [(f["pr"], f["severity"], f["kinds"]) for f in report["findings"]] == \
        [(301, "error", ["kept-by-merge"])]


def test_lines_a_resolution_dropped_are_lost_however_old(repo: Repo) -> None:
    """Age excuses a stale tree's undo (it undoes recent work), not a merge that threw one side away
    (a one- or two-line toggle of old work stays a notice, merge or not)."""
    _branch_with_resolution(repo, _settings("    filters = configure(kind='relevant')\n"), third=True)
    later = f"{int(repo.git('log', '-1', '--format=%ct', 'topic')) + 60 * 86400} +0000"  # 60 days after #301
    repo.git("commit", "-q", "--amend", "--no-edit", env={"GIT_AUTHOR_DATE": later, "GIT_COMMITTER_DATE": later})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "warning" and "conflict resolution of merge" in finding["reason"]


def test_an_octopus_merge_in_the_range_is_read_without_a_re_merge(repo: Repo) -> None:
    """git re-merges no octopus (it prints a warning into the patch stream instead): skipped, not a crash."""
    old = seed(repo)
    for name in ("a", "b"):
        repo.git("checkout", "-q", "-b", name, "main")
        land(repo, f"feat: {name}", {f"src/{name}.py": f"{name} = 1\n"}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "feat: mod1 grows (#301)", {"src/mod1.py": old["src/mod1.py"] + "grown = more(1)\n"})
    repo.git("merge", "-q", "--no-ff", "a", "b", "-m", "Merge branches 'a' and 'b'")
    with git.ObjectReader(str(repo.path)) as reader:
        assert Resolutions(str(repo.path), "main~1..main", reader).dropped(b"src/mod1.py") == {}
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr


WORKFLOW = "".join(f"      - run: step_{i} --verbose\n" for i in range(6))


def _workflow(actions: str) -> str:
    return "jobs:\n  test:\n    steps:\n" + actions + WORKFLOW


V2 = "      - uses: actions/checkout@v2\n      - uses: actions/setup-node@v2\n"
V4 = "      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n"
PNPM = "      - uses: actions/checkout@v3\n      - uses: pnpm/action-setup@v2\n      - uses: actions/setup-node@v3\n"


def _long_lived_branch(repo: Repo) -> None:
    """main bumps the actions to v4 (#301); a long-lived branch rewrote the same lines for pnpm on v3."""
    seed(repo)
    land(repo, "ci: workflow", {".github/workflows/test.yml": _workflow(V2)})
    repo.git("checkout", "-q", "-b", "next")
    land(repo, "ci: move to pnpm", {".github/workflows/test.yml": _workflow(PNPM)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "ci: bump actions to v4 (#301)", {".github/workflows/test.yml": _workflow(V4)})


def test_a_resolution_that_took_the_other_sides_new_text_drops_the_commits_lines(repo: Repo) -> None:
    """The lines #301 added are thrown away although its old lines never come back: the resolution took
    the other side's rewrite whole, and the PR that carries the merge lands it."""
    _long_lived_branch(repo)
    repo.git("merge", "-q", "next", "-m", "Merge branch 'next'", check=False)  # conflicts
    repo.write(".github/workflows/test.yml", _workflow(PNPM))  # theirs, whole
    repo.commit("ci: pnpm (#302)", author=CAROL)
    finding = by_pr(check(repo, "main^1..main")[1])[301]
    assert finding["severity"] == "warning" and "conflict resolution of merge" in finding["reason"], finding


def _lines_dropped(repo: Repo, count: int) -> str:
    """#301 edits COUNT lines on main that a branch rewrote; the merge's resolution takes the branch's
    text whole, and #301 also changed a file the merge keeps."""
    old = seed(repo)
    steps = "".join(f"run_step_{i}(verbose=True)\n" for i in range(6))
    land(repo, "ci: steps", {"src/steps.py": steps})
    repo.git("checkout", "-q", "-b", "next")
    land(repo, "steps: quiet", {"src/steps.py": steps.replace("verbose=True", "quiet=True")}, author=CAROL)
    repo.git("checkout", "-q", "main")
    colored = steps.replace("verbose=True)", "verbose=True, color=True)", count)
    land(repo, "steps: color (#301)", {"src/steps.py": colored, "src/mod1.py": old["src/mod1.py"] + "COLOR = True\n"})
    repo.git("merge", "-q", "next", "-m", "Merge branch 'next'", check=False)
    repo.write("src/steps.py", steps.replace("verbose=True", "quiet=True"))
    repo.commit("steps: quiet everywhere (#302)", author=CAROL)
    return str(by_pr(check(repo, "main^1..main")[1]).get(301, {"severity": "none"})["severity"])


def test_one_line_a_resolution_dropped_is_a_notice(repo: Repo) -> None:
    # pytest's raises() rewrite dropped an autofix's one-line touch-up of the old body
    assert _lines_dropped(repo, 1) == "notice"


def test_two_lines_a_resolution_dropped_are_a_warning(repo: Repo) -> None:
    assert _lines_dropped(repo, 2) == "warning"


def _forward_merge(repo: Repo, subject: str) -> str:
    _long_lived_branch(repo)
    repo.git("merge", "-q", "next", "-m", subject, check=False)
    repo.write(".github/workflows/test.yml", _workflow(PNPM))  # theirs, whole: `checkout@v4` back to `@v3`
    repo.commit(subject, author=CAROL)
    return str(by_pr(check(repo, "main^1..main")[1])[301]["severity"])


def test_a_forward_merge_setting_versions_back_keeps_its_warning(repo: Repo) -> None:
    # zustand's `Merge branch 'main' into v5` put v5's actions back to @v3
    assert _forward_merge(repo, "Merge branch 'next'") == "warning"


def test_a_release_line_merged_forward_may_bring_its_own_pins(repo: Repo) -> None:
    # pallets' `Merge branch '8.1.x'`: the maintenance line's pins ride along, and main adapts them
    assert _forward_merge(repo, "Merge branch '8.1.x'") == "notice"


def test_a_resolution_that_keeps_the_commits_lines_in_the_other_sides_text_drops_nothing(repo: Repo) -> None:
    _long_lived_branch(repo)
    repo.git("merge", "-q", "next", "-m", "Merge branch 'next'", check=False)
    repo.write(".github/workflows/test.yml", _workflow(PNPM.replace("@v3", "@v4")))  # pnpm on v4: both kept
    repo.commit("Merge branch 'next'", author=CAROL)
    code, report = check(repo, "main^1..main", "--strict")
    assert 301 not in by_pr(report), report


def test_the_same_new_text_written_by_an_ordinary_commit_is_a_rewrite(repo: Repo) -> None:
    """No merge threw #301's lines away: someone replaced them with new text, which is new work; only
    the versions it sets back (`@v4` to `@v3`) are reported, as a version set back."""
    _long_lived_branch(repo)
    land(repo, "ci: move to pnpm", {".github/workflows/test.yml": _workflow(PNPM)}, author=CAROL)
    finding = by_pr(check(repo, "main^1..main")[1])[301]
    assert finding["kinds"] == ["version-set-back"] and "conflict resolution" not in finding["reason"], finding


def test_new_text_at_the_commits_versions_is_a_rewrite(repo: Repo) -> None:
    _long_lived_branch(repo)
    land(repo, "ci: move to pnpm", {".github/workflows/test.yml": _workflow(PNPM.replace("@v3", "@v4"))}, author=CAROL)
    code, report = check(repo, "main^1..main", "--strict")
    assert code == 0 and 301 not in by_pr(report), report


def test_a_resolution_whose_kept_line_already_carries_the_commits_change_drops_nothing(repo: Repo) -> None:
    """Both sides edited one line; the resolution wrote a line holding both edits. #301's line is gone,
    its change is not: every word it brought in is there, none it took out."""
    seed(repo)
    land(repo, "ci: workflow", {".github/workflows/test.yml": _workflow(V2 + "      - run: pip install --upgrade pip\n")})
    repo.git("checkout", "-q", "-b", "next")
    land(repo, "ci: wheel", {".github/workflows/test.yml": _workflow(V2 + "      - run: pip install --upgrade pip wheel\n")},
         author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "ci: pip through python (#301)",
         {".github/workflows/test.yml": _workflow(V2 + "      - run: python -m pip install --upgrade pip\n")})
    repo.git("merge", "-q", "next", check=False)
    repo.write(".github/workflows/test.yml", _workflow(V2 + "      - run: python -m pip install --upgrade pip wheel\n"))
    repo.commit("ci: wheel (#302)", author=CAROL)
    with git.ObjectReader(str(repo.path)) as reader:  # the re-merge saw it
        assert b"pipinstall--upgradepip" in b"".join(Resolutions(str(repo.path), "main^1..main", reader)
                                                      .dropped(b".github/workflows/test.yml"))
    code, report = check(repo, "main^1..main", "--strict")
    assert code == 0 and 301 not in by_pr(report), report


def _outdated_branch_merged(repo: Repo, keep: bool, rewritten: bool = False, emptied: bool = False) -> str:
    """An old branch edited `src/config.py` (or REWRITTEN it whole); main deleted it since (#310); the branch is
    merged into main and the modify/delete conflict resolved by keeping the branch's copy (KEEP; EMPTIED: an
    empty file there instead) or the deletion."""
    seed(repo)
    land(repo, "feat: configuration module", {"src/config.py": body("config", 12)})
    repo.git("checkout", "-q", "-b", "old")
    land(repo, "tune the configuration", {"src/config.py": body("note", 4) if rewritten else
                                          body("config", 12) + body("tuned", 3)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "configuration rework (#310)", {"src/config.py": None, "src/settings.py": body("settings", 8)})
    land(repo, "docs: settings", {"src/mod3.py": body("doc3", 6)})
    repo.git("merge", "-q", "old", "-m", "Merge branch 'develop' of example/fork into develop", check=False)
    if keep:
        if emptied:
            repo.write("src/config.py", "")
        repo.git("add", "src/config.py")
    else:
        repo.git("rm", "-q", "src/config.py")
    repo.commit("Merge branch 'develop' of example/fork into develop", author=CAROL)
    return repo.head()


def test_a_merge_that_keeps_a_file_main_deleted_brings_it_back_and_fails(repo: Repo) -> None:
    merge = _outdated_branch_merged(repo, keep=True)
    code, report = check(repo, f"{merge}^1..{merge}")
    finding = by_pr(report)[310]
    assert code == 1 and finding["severity"] == "error" and finding["kinds"] == ["kept-by-merge"]
    assert f"conflict resolution of merge {merge[:7]}" in finding["reason"]  # not lowered as a branch merged forward
    assert finding["repair"] == "git rm -q -- src/config.py"


def test_a_file_of_that_name_written_anew_by_the_branch_is_no_copy_kept(repo: Repo) -> None:
    # hypothesis' `RELEASE.rst`: each PR writes its own note there and each release deletes it, so a branch
    # that rewrote it meets the release's deletion; what the merge keeps is the branch's note, nothing of the old
    merge = _outdated_branch_merged(repo, keep=True, rewritten=True)
    code, report = check(repo, f"{merge}^1..{merge}")
    assert all("kept-by-merge" not in f["kinds"] for f in report["findings"]), report


def test_a_merge_that_empties_the_file_instead_of_removing_it_keeps_nothing(repo: Repo) -> None:
    # privacyidea's 0-byte component templates: the modify/delete conflict resolved by emptying the file,
    # not `git rm`; none of its lines come back, for the audit as for check-revert
    merge = _outdated_branch_merged(repo, keep=True, emptied=True)
    assert repo.git("cat-file", "-s", "HEAD:src/config.py").strip() == "0"
    code, report = check(repo, f"{merge}^1..{merge}", "--strict")
    assert code == 0 and all("kept-by-merge" not in f["kinds"] for f in report["findings"]), report
    audited = audit_branch(Session(str(repo.path)), "main", max_count=1, include_all=True).to_dict()["results"]
    assert all("kept-by-merge" not in f["kinds"] for r in audited for f in r["findings"]), audited


def test_a_merge_that_keeps_the_deletion_or_a_plain_re_add_is_no_kept_file(repo: Repo) -> None:
    merge = _outdated_branch_merged(repo, keep=False)
    code, report = check(repo, f"{merge}^1..{merge}", "--strict")
    assert code == 0 and report["findings"] == []
    # a commit (no merge) writing a new src/config.py after the deletion: a re-add, whatever it holds
    land(repo, "feat: a new config loader", {"src/config.py": body("loader", 10)})
    code, report = check(repo, "HEAD~1..HEAD", "--strict")
    assert all("kept-by-merge" not in f["kinds"] for f in report["findings"])


PINS = "".join(f"package-{i}==1.{i}.0\n" for i in range(6))


@pytest.mark.parametrize(("branch_pin", "severity"), [
    ("lxml==4.9.0", "notice"),  # jsonschema's: the branch's newer pin kept over main's: that pin moved on
    ("lxml==4.7.2", "warning"),  # an older one kept: main's update is lost
])
def test_a_resolution_keeping_the_branchs_pin(repo: Repo, branch_pin: str, severity: str) -> None:
    seed(repo)
    land(repo, "docs: requirements", {"docs/requirements.txt": "lxml==4.7.1\n" + PINS})
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    land(repo, "Update docs requirements (#301)", {"docs/requirements.txt": "lxml==4.8.0\nsphinx==7.4.1\n" + PINS})
    repo.git("checkout", "-q", "topic")
    land(repo, "docs: pins", {"docs/requirements.txt": f"{branch_pin}\nsphinx==7.5.0\n" + PINS}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)  # conflicts
    repo.write("docs/requirements.txt", f"{branch_pin}\nsphinx==7.5.0\n" + PINS)
    repo.commit("Merge branch 'main' into topic", author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("unrelated", "severity"), [(True, "notice"), (False, "error")])
def test_a_merge_joining_an_unrelated_history_is_a_rewrite_taken_in(repo: Repo, unrelated: bool, severity: str) -> None:
    # arrow's `merge of v.2 branch into master`: a rewrite begun from an empty root, merged over the old
    # code; with no common commit there is no stale tree and no conflict resolution to blame
    old = seed(repo)
    land(repo, "feat: humanize (#301)", {"src/mod1.py": old["src/mod1.py"] + body("humanize", 6)})
    if unrelated:
        repo.git("checkout", "-q", "--orphan", "v2")
        repo.git("rm", "-rq", "--cached", ".")
    else:
        repo.git("checkout", "-q", "-b", "v2", "HEAD~1")
    land(repo, "v2: initial commit", {**old, "src/api.py": body("api", 8)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-commit", "-s", "ours", "--allow-unrelated-histories", "v2")
    repo.git("read-tree", "-u", "--reset", "v2")
    repo.git("commit", "-q", "-m", "merge of v.2 branch into master")
    finding = _audited_merge_finding(repo, 301)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("branch_subject", "severity"), [
    ("Backport the examples update", "error"),  # axum's `Merge branch 'v0.8.x'`: deny.toml put back over main's
    ("Reverted the deny.toml edit", "notice"),  # a commit of the branch says it reverts: done on purpose
])
def test_a_branch_merged_forward_is_no_author_of_the_files_it_puts_back(repo: Repo, branch_subject: str,
                                                                        severity: str) -> None:
    # everyone with a backport on a long-lived branch is an author of its merge: that must not make a file put
    # back over main's cleanup "some files of the author's own commit" (a notice)
    old = seed(repo)
    deny = "[bans]\nskip-tree = [\n  { name = \"tracing-subscriber\" },\n  { name = \"windows-sys\" },\n]\n"
    land(repo, "chore: deny", {"deny.toml": deny})
    repo.git("branch", "v0.8.x")
    land(repo, "Remove resolved cargo-deny skip-tree config (#301)",
         {"deny.toml": deny.replace("  { name = \"tracing-subscriber\" },\n", ""),
          "src/mod1.py": old["src/mod1.py"] + body("deny", 3)})
    repo.git("checkout", "-q", "v0.8.x")
    land(repo, branch_subject, {"src/mod2.py": old["src/mod2.py"] + body("backport", 3)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "--no-commit", "v0.8.x")
    repo.git("checkout", "v0.8.x", "--", "deny.toml")
    repo.git("commit", "-q", "-m", "Merge branch 'v0.8.x'")
    finding = _audited_merge_finding(repo, 301)
    assert finding["severity"] == severity, finding["reason"]


def _audited_merge_finding(repo: Repo, pr: int) -> dict:
    """`audit --all` of the merge at HEAD: its one finding against PR."""
    proc = run_leverguard("audit", "--all", "--max-count", "1", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    (finding,) = [f for r in json.loads(proc.stdout)["results"] for f in r["findings"] if f["pr"] == pr]
    return finding


@pytest.mark.parametrize(("branch_import", "severity"), [
    # more-itertools' merge: #301's `from .recipes import islice, take` dropped, islice imported from itertools
    ("from itertools import chain, islice\n", "notice"),
    ("from itertools import chain, tee\n", "warning"),  # islice is lost
])
def test_an_import_a_resolution_dropped_with_its_new_names_imported_again_loses_nothing(
        repo: Repo, branch_import: str, severity: str) -> None:
    seed(repo)
    code = "def peek(it):\n    return take(1, islice(it, 0, None))\n"
    land(repo, "chore: recipes", {"src/more.py": "from .recipes import take\nfrom itertools import chain\n" + code})
    repo.git("checkout", "-q", "-b", "next")
    land(repo, "feat: interleave", {"src/more.py": "from .recipes import take\n" + branch_import + code}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "feat: slicing of peekables (#301)",
         {"src/more.py": "from .recipes import islice, take\nfrom itertools import chain\n" + code})
    repo.git("merge", "-q", "next", "-m", "Merge branch 'next'", check=False)  # the import lines conflict
    repo.write("src/more.py", "from .recipes import take\n" + branch_import + code)
    repo.commit("feat: interleave and collapse (#302)", author=CAROL)
    found = by_pr(check(repo, "main^1..main")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("rewrite", "found"), [
    (True, False),  # dotenv's 1.0 rewrite of lib/main.js merged over the old one's fixes: taken whole
    (False, True)])  # a branch that changed one line of it: main's lines dropped by the resolution are lost
def test_a_merge_keeping_one_sides_rewrite_of_the_file_drops_nothing_by_chance(repo: Repo, rewrite: bool,
                                                                            found: bool) -> None:
    old = "".join(f"exports.option_{i} = configure('{i}')\n" for i in range(12))
    repo.write("lib/main.js", old)  # old code, from the initial import
    seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    land(repo, "set env vars even if the env file is missing (#301)",
         {"lib/main.js": old.replace("exports.option_5", "exports.missing_ok = true\nexports.missing_log = warn\nexports.option_5")})
    repo.git("checkout", "-q", "topic")
    new = "".join(f"module.exports.setting_{i} = parse(process.env.SETTING_{i})\n" for i in range(12)) if rewrite else \
        old.replace("configure('5')", "configure('five')")
    land(repo, "initial 1.0 proposal" if rewrite else "tune option 5", {"lib/main.js": new}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)  # conflicts
    repo.write("lib/main.js", new)  # the branch's text kept
    repo.commit("Merge branch 'main' into topic", author=CAROL)
    land(repo, "docs: 1.0", {"README.md": "dotenv 1.0\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] == "warning") is found, finding and finding["reason"]


@pytest.mark.parametrize(("merged_has_first", "severity"), [
    # axum's `Merge branch 'v0.8.x'`: deny.toml put back past #301 (whole, an error) also put back the
    # entries #302 removed, whose other hunk it kept: the same old copy, not the branch's deliberate edit
    (True, "warning"),
    (False, "notice"),  # #301's removal kept: one hunk of #302 undone alone is the branch's own change
])
def test_lines_undone_in_a_file_put_back_past_another_commit_are_the_same_old_copy(
        repo: Repo, merged_has_first: bool, severity: str) -> None:
    seed(repo)
    entry = "  {{ name = \"{}\" }},\n".format
    entries = ["tracing", "windows-sys", "spin", "syn", "socket2", "rand"]
    def deny(names: list[str], graph: bool = False) -> str:
        return ("[graph]\nexclude-unpublished = true\n\n" if graph else "") + \
            "[bans]\nskip-tree = [\n" + "".join(entry(n) for n in names) + "]\n"
    land(repo, "chore: deny", {"deny.toml": deny(entries)})
    repo.git("branch", "v0.8.x")
    land(repo, "Remove resolved skip-tree config of tracing (#301)",
         {"deny.toml": deny(entries[1:]), "src/mod1.py": body("deny", 3)})
    land(repo, "Update to cargo-deny api version 2 (#302)",
         {"deny.toml": deny(["windows-sys", "rand"], graph=True), "src/mod3.py": body("api", 3)})
    repo.git("checkout", "-q", "v0.8.x")
    land(repo, "Backport the examples update", {"src/mod2.py": body("backport", 3)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "--no-commit", "v0.8.x")
    repo.write("deny.toml", deny(entries if merged_has_first else entries[1:], graph=True))
    repo.commit("Merge branch 'v0.8.x'")
    finding = _audited_merge_finding(repo, 302)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("Merge branch 'dev-exp'", "notice"),
    ("merge from dev-exp (numa support)", "notice"),  # mimalloc's own words for its lines merged into each other
    ("merge with dev-exp", "notice"),
    ("Merge pull request #9 from team/dev-exp", "warning"),  # a pull request's branch: its edits are judged
    ("Merge #3769 into 3.7.0-M1", "notice"),  # reactor's bot, a maintenance fix merged forward into a version line
    ("Merge #3769 into main", "warning"),  # into a branch that names no version: a pull request's merge
    ("merge conflicts fixed", "warning"),
])
def test_a_long_lived_branch_merged_in_its_authors_words_carries_its_own_changes(repo: Repo, subject: str,
                                                                                 severity: str) -> None:
    old = seed(repo)
    lines = old["src/mod1.py"].splitlines(True)
    repo.git("branch", "dev-exp")
    land(repo, "Tune the page queue (#301)", {"src/mod1.py": "".join(tune(lines, [1, 4])),
                                               "src/mod2.py": body("queue", 3)}, author=DAVE)
    repo.git("checkout", "-q", "dev-exp")
    land(repo, "numa: redesign the segments", {"src/mod3.py": body("numa", 4)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "--no-commit", "dev-exp")
    repo.write("src/mod1.py", "".join(tune(lines, [4])))  # the resolution drops #301's first line
    repo.commit(subject)
    finding = _audited_merge_finding(repo, 301)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("branch_edit", "resolved"), [
    (None, False),  # smol's `Refactor`: the branch still at old main, git's re-merge is new main's tree
    ("src/mod1.py", True),  # the branch edited the same spot first: a conflict, resolved by dropping main's line
    ("src/mod2.py", False),  # another file: git merges mod1.py cleanly, and the merge commit's edit is its own
])
def test_lines_a_merge_drops_count_only_where_git_could_not_merge(repo: Repo, branch_edit: str | None,
                                                                  resolved: bool) -> None:
    """A merge's dropped lines are a resolution's only in a file git's re-merge leaves in conflict: one parent
    holding the other (nothing to merge) or a file merged cleanly had nothing to resolve, and what the merge
    commit changes there is an edit of its own (msgpack's, idna's), judged as any change is."""
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    if branch_edit:
        land(repo, "feat: start", {branch_edit: old[branch_edit] + "started = 1\n"}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "docs: crates useful with it (#301)", {"src/mod1.py": old["src/mod1.py"] + "useful = ['potat']\n"})
    repo.git("checkout", "-q", "topic")
    repo.git("merge", "-q", "--no-ff", "--no-commit", "main", check=False)
    repo.write("src/mod1.py", old["src/mod1.py"].replace("\n", "  # simpler\n", 1))
    repo.commit("Refactor", author=CAROL)
    with git.ObjectReader(str(repo.path)) as reader:
        dropped = Resolutions(str(repo.path), "main..topic", reader).dropped(b"src/mod1.py")
    assert (b"useful=['potat']" in dropped) is resolved


def test_a_conflict_note_names_a_path_with_spaces_and_non_ascii_as_the_patch_does(repo: Repo) -> None:
    """git writes the re-merge's `Merge conflict in <path>` note unquoted: a path with spaces and UTF-8 still
    matches the patch's own path, so the lines its resolution dropped are found."""
    path = "docs/sp ace \u00e9.txt"
    repo.write(path, "alpha line\nbravo line\ncharlie line\n")
    repo.commit("docs")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "docs: branch", {path: "alpha line\nbravo branch side\ncharlie line\n"}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "docs: main (#301)", {path: "alpha line\nbravo main side\ncharlie line\n"})
    repo.git("checkout", "-q", "topic")
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)
    repo.write(path, "alpha line\nbravo branch side\ncharlie line\n")
    repo.commit("Merge branch 'main' into topic", author=CAROL)
    with git.ObjectReader(str(repo.path)) as reader:
        assert b"bravomainside" in Resolutions(str(repo.path), "main..topic", reader).dropped(path.encode())


def test_a_resolution_drops_only_what_the_other_side_did_after_the_merge_base(repo: Repo) -> None:
    # pydicom's `Merge experimental speed branch`: the branch had rewritten lines both sides held since the
    # fork; the resolution taking that rewrite dropped main's newer edit beside them, not the older work
    seed(repo)
    reload = "    reload_interval = configure(seconds=30000)\n    reload_timer = configure(seconds=0)\n"
    land(repo, "feat: settings", {"src/settings.py": _settings()})
    land(repo, "feat: periodic reload (#301)", {"src/settings.py": _settings(reload)})
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    land(repo, "perf: a deeper last level (#302)",
         {"src/settings.py": _settings(reload).replace("level=7)", "level=70)")}, author=DAVE)
    repo.git("checkout", "-q", "topic")
    rewrite = _settings().replace("    option_7 = configure(level=7)\n", "    filters = configure(kind='relevant')\n")
    land(repo, "feat: filters replace the reload", {"src/settings.py": rewrite}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)  # conflicts
    repo.write("src/settings.py", rewrite)  # the branch's text, main's newer edit dropped
    repo.commit("Merge branch 'main' into topic", author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert "conflict resolution of merge" in found[302]["reason"]
    assert 301 not in found or "conflict resolution" not in found[301]["reason"], found[301]["reason"]


API = "class Api\n{\n    public static $version = 'V'; // VERSION\n" + CONFIG + "    public static $version_numeric = 'N'; // VERSION\n}\n"


def _api(version: str, number: str) -> str:
    return API.replace("'V'", f"'{version}'").replace("'N'", f"'{number}'")


@pytest.mark.parametrize(("number", "severity"), [
    ("555000", "notice"),  # ampache's patch branch: its release's build number, which a version key names, moves on
    ("555000x", "warning"),  # no number: other text written there
])
def test_a_resolution_keeping_its_later_version_and_build_number_moves_them_on(repo: Repo, number: str,
                                                                               severity: str) -> None:
    seed(repo)
    land(repo, "start 5.5.3", {"src/Api.php": _api("5.5.3", "553000")})
    repo.git("checkout", "-q", "-b", "patch5")
    land(repo, "5.5.5", {"src/Api.php": _api("5.5.5", number)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "start 5.5.4-develop (#301)", {"src/Api.php": _api("5.5.4", "554000")})
    repo.git("checkout", "-q", "patch5")
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into patch5", check=False)  # conflicts
    repo.write("src/Api.php", _api("5.5.5", number))  # the patch branch's side
    repo.commit("Merge branch 'main' into patch5", author=CAROL)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "patch5", 3395, "Patch5")
    finding = by_pr(check(repo, "main~1..main")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


MAIN_SIDE = "    reload_interval = configure(seconds=30000)\n    reload_timer = configure(seconds=0)\n"


def _qualified_story(repo: Repo, resolved: str, qualified_extra: str = "") -> None:
    """#301 adds main's reload settings; the topic moves the settings into an `FC` module and merges main in,
    writing RESOLVED below its own text (inav-configurator's module migration)."""
    qualified = "class Settings:\n" + CONFIG.replace("    option_", "    FC.option_") + qualified_extra
    seed(repo)
    land(repo, "feat: settings", {"src/settings.py": _settings()})
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    land(repo, "feat: periodic reload (#301)", {"src/settings.py": _settings(MAIN_SIDE),
                                                 "src/mod1.py": "reloads = configure(kind='periodic')\n"})
    repo.git("checkout", "-q", "topic")
    land(repo, "refactor: the FC module", {"src/settings.py": qualified}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into topic", check=False)  # conflicts
    repo.write("src/settings.py", qualified + resolved)
    repo.commit("Merge branch 'main' into topic", author=CAROL)
    land(repo, "feat: relevance filters", {"src/mod2.py": "FILTERS = 1\n"}, author=CAROL)


@pytest.mark.parametrize(("resolved", "severity"), [
    (MAIN_SIDE.replace("    reload", "    FC.reload"), "notice"),  # inav-configurator's: main's lines, qualified
    (MAIN_SIDE.replace("    reload", "    FC.reload").replace("seconds=", "minutes="), "warning"),  # main's values gone
    ("", "warning"),  # main's lines dropped
])
def test_a_resolution_writing_the_other_sides_lines_qualified_keeps_them(repo: Repo, resolved: str, severity: str) -> None:
    _qualified_story(repo, resolved, "    FC.filters = configure(kind='relevant')\n")
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "notice", "reason": ""})
    assert found["severity"] == severity, found["reason"]


def test_a_minified_line_in_a_resolution_costs_no_memory_for_qualifiers(repo: Repo) -> None:
    """krayin's compiled assets: a resolution writing a bundle's line with thousands of qualifiers (`a.b(`), each
    copy of it without one kept in memory, took gigabytes. Under a 1 GB cap the check still runs and keeps
    main's qualified lines."""
    bundle = "    bundle = [" + "".join(f"m{i}.f(x)," for i in range(40_000)) + "]\n"
    _qualified_story(repo, MAIN_SIDE.replace("    reload", "    FC.reload") + bundle)

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    proc = subprocess.run([sys.executable, "-m", "leverguard", "check-revert", "--format", "json", "main..topic"],
                          cwd=repo.path, capture_output=True, text=True, preexec_fn=capped)
    assert proc.returncode == 0, proc.stderr[-500:]
    found = by_pr(json.loads(proc.stdout)).get(301, {"severity": "notice"})
    assert found["severity"] == "notice"

