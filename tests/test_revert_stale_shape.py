"""The stale-copy shape that separates an accident from an edit, on real repositories.

A stale copy of a file undoes all of a commit's hunks there (or, for one of the last few commits,
a good share of them) and every later change to the file too. An edit that takes out one hunk in
many, or that keeps the file's later changes, is a deliberate change: a notice, unless the same
change also puts whole files back (a stale tree at work).
"""

from __future__ import annotations

import json
from typing import Callable

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import CAROL, DAVE, body, by_pr, check, land, merge_pr, seed, tune

LINES = 48  # a module long enough for hunks 12 lines apart to be separate hunks of an ordinary diff


def _module(repo: Repo) -> list[str]:
    seed(repo)
    lines = body("m", LINES).splitlines(keepends=True)
    land(repo, "feat: the m module", {"src/m.py": "".join(lines)})
    return lines


def _stale_topic(repo: Repo, lines: list[str], subject: str = "kernel: tune", extra: dict[str, str | None] | None = None) -> None:
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/m.py": "".join(lines) + "new_work = fresh_call(1)\n", **(extra or {})}, author=CAROL)


def _severity_undoing(repo: Repo, tuned: list[int], undone: list[int], between: int = 5) -> str:
    """#301 tunes lines TUNED; BETWEEN commits land on other files; a topic undoes the lines UNDONE."""
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, tuned))})
    for i in range(between):
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i}.py": body(f"o{i}", 4)})
    _stale_topic(repo, tune(lines, [i for i in tuned if i not in undone]))
    return by_pr(check(repo, "main..topic")[1])[301]["severity"]


def test_one_of_three_separate_hunks_of_a_recent_commit_undone_is_a_warning(repo: Repo) -> None:
    assert _severity_undoing(repo, [2, 20, 38], [20]) == "warning"  # 1/3: the STALE_SHARE boundary


def test_one_of_four_separate_hunks_undone_and_the_rest_kept_is_a_notice(repo: Repo) -> None:
    assert _severity_undoing(repo, [2, 14, 26, 38], [26]) == "notice"


@pytest.mark.parametrize(("between", "severity"), [
    (0, "warning"),  # the commit the change's base is: a tree without it is stale, whatever share it undoes
    (3, "warning"),  # LATEST_COMMITS (3): still one of the very last
    (4, "notice"),  # beyond them, one hunk of four undone and the rest kept is an edit
])
def test_any_share_of_the_very_last_commits_hunks_undone_counts(repo: Repo, between: int, severity: str) -> None:
    # a stale copy made before the last commit landed, merged with new work, can undo one hunk of many (the
    # labelled corpora's partial reverts; a rebase or conflict taking one side)
    assert _severity_undoing(repo, [2, 14, 26, 38], [26], between=between) == severity


def test_nearby_hunks_count_as_one_as_an_ordinary_diff_shows_them(repo: Repo) -> None:
    # five -U0 hunks, but lines 2, 4 and 6 make one hunk with context: one of three undone
    assert _severity_undoing(repo, [2, 4, 6, 26, 44], [2, 4, 6]) == "warning"


def _older_commit_undone(repo: Repo, also: dict[str, str | None]) -> dict:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 26])), **also})
    for i in range(11):  # no longer one of the last few commits
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i}.py": body(f"o{i}", 4)})
    _stale_topic(repo, lines)
    return by_pr(check(repo, "main..topic")[1])[301]


def test_every_hunk_of_an_older_commit_in_one_of_its_files_undone_is_a_warning(repo: Repo) -> None:
    assert _older_commit_undone(repo, {"src/extra.py": body("extra", 4)})["severity"] == "warning"


def test_every_change_of_an_older_commit_undone_fails(repo: Repo) -> None:
    finding = _older_commit_undone(repo, {})
    assert finding["severity"] == "error" and finding["reason"] == "every change it made is undone"


def test_some_hunks_of_an_older_commit_undone_is_a_notice(repo: Repo) -> None:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 26]))})
    for i in range(11):
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i}.py": body(f"o{i}", 4)})
    _stale_topic(repo, tune(lines, [2]))
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "notice"


def test_a_later_change_to_the_file_kept_makes_it_an_edit(repo: Repo) -> None:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 4]))})
    later = tune(tune(lines, [2, 4]), [40], "later")
    land(repo, "tune: the tail (#302)", {"src/m.py": "".join(later)})
    _stale_topic(repo, tune(lines, [40], "later"))  # #301 undone, #302 kept
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"
    assert by_pr(report)[301]["evidence"][0]["newer_kept"] == 1


def test_a_stale_copy_undoes_the_later_change_too_and_is_reported(repo: Repo) -> None:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 4]))})
    land(repo, "tune: the tail (#302)", {"src/m.py": "".join(tune(tune(lines, [2, 4]), [40], "later"))})
    _stale_topic(repo, lines)  # the file as it was before both
    findings = by_pr(check(repo, "main..topic")[1])
    assert findings[301]["severity"] in ("warning", "error") and findings[302]["severity"] in ("warning", "error")


def test_a_targeted_revert_of_one_commit_keeping_later_ones_is_a_notice(repo: Repo) -> None:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 4]))})
    land(repo, "tune: the tail (#302)", {"src/m.py": "".join(tune(tune(lines, [2, 4]), [40], "later"))})
    repo.git("checkout", "-q", "-b", "topic")
    exact = "".join(tune(lines, [40], "later")).replace("\n", "  \n", 1)  # #301 out, whitespace aside
    land(repo, "kernel: tune", {"src/m.py": exact, "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice" and 302 not in by_pr(report)


def test_hunks_next_to_whole_files_put_back_are_a_stale_tree(repo: Repo) -> None:
    lines = _module(repo)
    old = body("base3", 6)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 14, 26, 38]))})
    land(repo, "feat: mod3 (#302)", {"src/mod3.py": old + body("new3", 4)})
    # one hunk in four alone would be an edit; with #302's file rolled back it is the same stale tree
    _stale_topic(repo, tune(lines, [2, 14, 38]), extra={"src/mod3.py": open(repo.path / "src/mod3.py").read()
                                                        .replace(body("new3", 4), "")})
    findings = by_pr(check(repo, "main..topic")[1])
    assert findings[302]["severity"] == "error" and findings[301]["severity"] == "warning"


def test_a_file_an_older_commit_edited_deleted_beside_whole_files_put_back_stays_a_notice(repo: Repo) -> None:
    # kuma's `remove built-in gateway API` deleting files other removals had edited, beside files put back
    old = seed(repo)
    land(repo, "feat: mod2 (#300)", {"src/mod2.py": old["src/mod2.py"] + body("two", 4)})
    land(repo, "refactor: drop legacy policies (#301)", {"src/mod3.py": old["src/mod3.py"] + body("ci", 4)})
    land(repo, "feat: mod4 (#302)", {"src/mod4.py": old["src/mod4.py"] + body("four", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: remove the gateway", {"src/mod3.py": None, "src/mod2.py": old["src/mod2.py"],
                                             "src/mod4.py": old["src/mod4.py"], "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert found[300]["severity"] == "error" and found[302]["severity"] == "error"
    assert found[301]["kinds"] == ["deleted-changed"] and found[301]["severity"] == "notice"


def test_a_file_deleted_after_an_edit_is_weak_alone(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "ci: python 2.7 only (#301)", {"src/mod3.py": old["src/mod3.py"] + body("ci", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Fixes flakes after the flake8 upgrade", {"src/mod3.py": None, "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["kinds"] == ["deleted-changed"] and by_pr(report)[301]["severity"] == "notice"
    assert "git checkout " in by_pr(report)[301]["repair"]


def _audit_warnings(repo: Repo) -> list[dict]:
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr + proc.stdout
    return [f for r in json.loads(proc.stdout)["results"] for f in r["findings"]]


def test_audit_sees_a_moved_and_edited_file_as_a_move(repo: Repo) -> None:
    seed(repo)
    guide = body("guide", 20)
    land(repo, "docs: a guide (#301)", {"website/guide.md": guide})
    land(repo, "docs: move the guide under docs/ (#302)",
         {"website/guide.md": None, "docs/guide.md": guide.replace("scale=7)", "scale=8)") + "see_also = more(1)\n"})
    assert _audit_warnings(repo) == []


def test_audit_reports_every_file_a_commit_added_deleted(repo: Repo) -> None:
    seed(repo)
    land(repo, "docs: a guide (#301)", {"website/guide.md": body("guide", 20)})
    land(repo, "kernel: tune (#302)", {"website/guide.md": None, "kernel.c": "int t;\n"}, author=CAROL)
    assert [f["pr"] for f in _audit_warnings(repo)] == [301]


def _rollback_with_subjects(repo: Repo, undone: str, landing: str) -> dict:
    old = seed(repo)
    land(repo, undone, {"src/mod1.py": old["src/mod1.py"] + body("ci", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, landing, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})  # the same author
    return by_pr(check(repo, "main..topic")[1]).get(301) or check(repo, "main..topic")[1]["findings"][0]


def test_the_same_subject_again_is_that_work_continued(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "Update _client.py (#301)", "Update _client.py")
    assert finding["severity"] == "notice" and "own subject" in finding["reason"]


def test_the_same_subject_in_the_plural_is_that_work_continued(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "Tweak GH Action (#301)", "Tweak GH Actions.")
    assert finding["severity"] == "notice" and "own subject" in finding["reason"]


@pytest.mark.parametrize(("landing", "severity"), [
    ("Really fix README link", "notice"),  # zap's second try, four minutes later
    ("Fix README link properly", "notice"),
    ("Really fix the parser", "error"),  # the insistence alone is no shared subject
    ("Fix READ ME link", "notice"),  # a word spaced otherwise (opentelemetry's `Fix govuln check`)
    ("Fix READ ME links too", "error"),  # a word more is another subject
    ("[ci skip] fix README link", "notice"),  # SCons' own subject again, CI told to skip it
    ("[ci skip] fix the parser", "error"),
    ("Fix README link, take 2", "notice"),  # a try counted
    ("Fix the parser, take 2", "error"),
])
def test_a_second_try_at_the_same_subject_is_that_work_continued(repo: Repo, landing: str, severity: str) -> None:
    assert _rollback_with_subjects(repo, "Fix README link (#301)", landing)["severity"] == severity


def test_a_different_subject_by_the_same_author_still_fails(repo: Repo) -> None:
    assert _rollback_with_subjects(repo, "Update _client.py (#301)", "Tidy the client")["severity"] == "error"


def test_reversal_wording_that_names_the_undone_topic_is_described(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "ci: test on Python 3.14 (#301)", "ci: stop testing Python 3.14 until it is out")
    assert finding["severity"] == "notice" and "names what goes away" in finding["reason"]


def test_a_subject_that_says_this_reverts_is_no_silent_error(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "perf: smaller bundle (#301)", "This reverts commit 0123456789abcdef")
    assert finding["severity"] == "notice" and "calls itself a revert" in finding["reason"]


def _stale_tree_under(repo: Repo, subject: str) -> tuple[int, dict[int, dict]]:
    """#301 and #302 both rolled back by one change titled SUBJECT: a stale tree."""
    old = seed(repo)
    land(repo, "feat: providers retry (#301)", {"src/mod1.py": old["src/mod1.py"] + body("r1", 4)})
    land(repo, "feat: providers cache (#302)", {"src/mod2.py": old["src/mod2.py"] + body("r2", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"]}, author=CAROL)
    code, report = check(repo, "main..topic")
    return code, by_pr(report)


def test_a_shared_topic_word_does_not_excuse_a_stale_tree(repo: Repo) -> None:
    code, found = _stale_tree_under(repo, "refactor(providers): rename the retry knob")
    assert code == 1 and found[301]["severity"] == "error" and found[302]["severity"] == "error"


@pytest.mark.parametrize(("title", "severity"), [
    ("Move BuildCache into the core crate", "notice"),  # crossbeam's `Move AtomicCell into crossbeam-utils`
    ("Move the store into the core crate", "error")])  # no name of the file: nothing said of it
def test_a_type_named_in_camel_case_names_its_snake_case_module(repo: Repo, title: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "cache: module", {"src/build_cache.rs": body("cache", 6)})
    land(repo, "Debloat the utils (#301)", {"src/build_cache.rs": None, "src/mod1.py": old["src/mod1.py"] + body("d", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"src/build_cache.rs": body("cache", 6), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


def test_a_file_named_as_back_again_is_described(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "refactor: errors in one module (#301)", "errors live in src/mod1.py again")
    assert finding["severity"] == "notice" and "names what goes away" in finding["reason"]


def _hunks_undone_after(repo: Repo, later_commits: int) -> dict:
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 26])), "src/extra.py": body("extra", 4)})
    for i in range(later_commits):
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i % 15}.py": body(f"o{i}", 4)})
    _stale_topic(repo, lines)
    return by_pr(check(repo, "main..topic")[1])[301]


def test_hunks_of_work_50_commits_before_the_base_are_still_a_warning(repo: Repo) -> None:
    assert _hunks_undone_after(repo, 50)["severity"] == "warning"


def test_hunks_of_work_over_50_commits_before_the_base_are_a_notice(repo: Repo) -> None:
    finding = _hunks_undone_after(repo, 51)
    assert finding["severity"] == "notice" and "over 50 commits" in finding["reason"]


TEMPLATE = ("## Unreleased\n\n### Highlights\n\n<!-- Include any especially major or disruptive changes here -->\n\n"
            "### Fixes\n\n<!-- Changes that fix bugs in the formatter -->\n\n")
RELEASED = "## 1.0.0\n\n- the first release of the formatter\n"


def _template_restored(repo: Repo, path: str) -> str:
    seed(repo)
    land(repo, "docs: changelog", {path: "# Change log\n\n" + TEMPLATE + RELEASED})
    land(repo, "Prepare release 1.1.0 (#301)", {path: "# Change log\n\n" + RELEASED})  # the template stripped
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Add new changelog", {path: "# Change log\n\n" + TEMPLATE + RELEASED + "\n- one more fix\n"},
         author=CAROL)
    return by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})["severity"]


def test_a_changelog_template_coming_back_after_a_release_loses_nothing(repo: Repo) -> None:
    assert _template_restored(repo, "CHANGES.md") in ("none", "notice")


def test_the_same_lines_coming_back_in_another_file_are_an_undo(repo: Repo) -> None:
    assert _template_restored(repo, "docs/guide.md") == "error"  # every change #301 made is undone


@pytest.mark.parametrize("subject", ["ci: stop testing Python 3.6 until 3.6b4 is out (#301)",
                                     "Comment out the 3.6 job (currently broken) (#301)",
                                     "Try if the 3.6 job passes without the cache (#301)",
                                     "Try without the cache on the 3.6 job (#301)",  # PHPMailer's, then `nah`
                                     "temp: the 3.6 job on the old cache (#301)",  # dom-testing-library's
                                     "accept wip (#301)", "WIP: the 3.6 job (#301)",  # httpie's `accept wip`
                                     "Allow failures for Python 3.6 (pre-release) (#301)",  # webargs'
                                     "ci: mark the 3.6 job xfail (#301)",
                                     "revert changes and add debug lines (#301)",  # kotest's, on master
                                     "Investigate the flaky 3.6 job (#301)",
                                     "debug windows (#301)",  # babashka's prints, taken out a month later
                                     # logto's, undone by `release account center`: hidden until its release
                                     "hide the 3.6 section behind dev feature flag (#301)",
                                     "add dev feature guard to the 3.6 console UI (#301)"])
def test_undoing_a_change_that_said_it_was_temporary_is_a_notice(repo: Repo, subject: str) -> None:
    finding = _rollback_with_subjects(repo, subject, "ci: matrix refresh")
    assert finding["severity"] == "notice" and "temporary" in finding["reason"]


@pytest.mark.parametrize("subject", ["Debug mode: the 3.6 job (#301)", "Fix the debug output of the 3.6 job (#301)",
                                     "feat: debug dump of the 3.6 job (#301)"])  # a feature
def test_a_change_about_debugging_is_not_said_to_be_temporary(repo: Repo, subject: str) -> None:
    assert _rollback_with_subjects(repo, subject, "ci: matrix refresh")["severity"] in ("warning", "error")


@pytest.mark.parametrize(("title", "severity"), [
    ("Temporarily restore python3.6.0 support", "notice"),  # pyupgrade's #267, merged by a merge commit
    ("Restore python3.6.0 support", "error"),
])
def test_a_merged_prs_title_saying_it_is_temporary(repo: Repo, title: str, severity: str) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "py360")
    land(repo, "restore 3.6.0", {"src/mod1.py": old["src/mod1.py"] + body("py360", 4)}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "py360", 301, title)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "pyupgrade: python3.6.1+", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize("subject", ["ci: stop testing Python 3.6 (#301)", "Try the new cache for the 3.6 job (#301)",
                                     "Run the 3.6 job without the cache (#301)",
                                     "templates for the 3.6 job (#301)",
                                     "Comment the 3.6 job out of caution (#301)", "Wipe the 3.6 job's cache (#301)",
                                     "Allow users to configure failures for the 3.6 job (#301)",
                                     "use callable protocols for pytest.skip/exit/fail/xfail (#301)",
                                     "Add debugger support to the 3.6 job (#301)", "Improve debug info in errors (#301)",
                                     "feat: a feature flag service for the 3.6 job (#301)", "fix: guard the 3.6 job (#301)"])
def test_undoing_a_change_that_said_nothing_of_the_kind_fails(repo: Repo, subject: str) -> None:
    assert _rollback_with_subjects(repo, subject, "ci: matrix refresh")["severity"] == "error"


def test_a_title_sharing_the_undone_commits_topic_reworks_it(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "refactor: prefer interfaces (#301)", "fix(types): interfaces only for the public api")
    assert finding["severity"] == "notice" and "topic" in finding["reason"]


@pytest.mark.parametrize("trailer", ["\n\nCo-Authored-By: Claude <noreply@anthropic.com>",
                                     "\n\nGenerated with [Claude Code](https://claude.ai/code)",
                                     "\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>"])
def test_an_agents_title_sharing_the_topic_excuses_nothing(repo: Repo, trailer: str) -> None:
    # two agent sessions on one topic, one writing the files it read before the other's commit: #221/#224
    finding = _rollback_with_subjects(repo, "refactor: prefer interfaces (#301)",
                                      "fix(types): interfaces only for the public api" + trailer)
    assert finding["severity"] == "error" and "topic" not in finding["reason"]


def test_every_file_of_a_commit_put_back_fails_whatever_the_titles_share(repo: Repo) -> None:
    # the #221/#224 shape: a commit of several files put back whole is no rework of its topic
    old = seed(repo)
    land(repo, "refactor: prefer interfaces (#301)", {p: old[p] + body(p[4:8], 4) for p in ("src/mod1.py", "src/mod2.py")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix(types): interfaces only for the public api",
         {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"], "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error" and "topic" not in by_pr(report)[301]["reason"]


def test_what_every_change_does_is_no_topic(repo: Repo) -> None:
    # httpx's `SSLConfig refactor` and `Refactor timer handling in core` share only the verb
    assert _rollback_with_subjects(repo, "SSLConfig refactor (#301)", "Refactor timer handling in core")["severity"] == "error"


def test_a_short_shared_word_is_no_topic(repo: Repo) -> None:
    assert _rollback_with_subjects(repo, "feat: queue retries (#301)", "fix: queue sizes")["severity"] == "error"


@pytest.mark.parametrize(("undone", "change", "severity"), [
    ("feat: add `input` to `server.fs.allow` (#301)", "fix: support the top-level input option", "notice"),  # vite
    ("feat: queue retries (#301)", "fix: the `queue` sizes", "notice"),
    ("feat: add `input` to `server.fs.allow` (#301)", "fix: support the top-level output option", "error"),
])
def test_a_name_in_backticks_is_a_topic(repo: Repo, undone: str, change: str, severity: str) -> None:
    assert _rollback_with_subjects(repo, undone, change)["severity"] == severity


def test_a_shared_organisation_in_merge_subjects_is_no_topic(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "retries")
    land(repo, "retries", {"src/mod1.py": old["src/mod1.py"] + body("ci", 4)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "retries", "-m", "Merge pull request #301 from nextcloud/retries")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Merge pull request #305 from nextcloud/kernel", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"},
         author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


def _one_hunk_undone_under(repo: Repo, message: str) -> dict:
    """One of three hunks of #301 undone next to new work (a warning), under MESSAGE ({sha}: #301's id)."""
    lines = _module(repo)
    undone = land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 20, 38]))})
    _stale_topic(repo, tune(lines, [2, 38]), message.format(sha=undone[:9], other=repo.git("rev-parse", "main~1")[:9]))
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_message_citing_the_undone_commit_knows_what_it_undoes(repo: Repo) -> None:
    finding = _one_hunk_undone_under(repo, "Fix a typo in the SPDX comment\n\nIt came in with {sha}.")
    assert finding["severity"] == "notice" and "names the undone commit" in finding["reason"]


def test_a_message_citing_another_commit_still_warns(repo: Repo) -> None:
    assert _one_hunk_undone_under(repo, "Fix a typo in the SPDX comment\n\nIt came in with {other}.")["severity"] == "warning"


# marshmallow's; chrono's, a test written twice
@pytest.mark.parametrize("title", ["Remove spurious changes", "Remove junk from merge", "Remove duplicate test",
                                   "fix merge artifact",  # uuid's, the block a merge had doubled
                                   "fix(tests): remove merge namespace mistake",  # kestra's, 25 minutes after
                                   "test: fix inadvertently commented out tests"])  # react-native-firebase's
def test_a_change_that_takes_out_stray_changes_says_so(repo: Repo, title: str) -> None:
    finding = _rollback_with_subjects(repo, "Use the codspeed macro (#301)", title)
    assert finding["severity"] == "notice" and "slipped in" in finding["reason"]


@pytest.mark.parametrize("title", ["Upload the artifact after the merge queue", "Make mistakenly skipped steps run"])
def test_merge_wording_that_names_no_leftover_is_no_stray_change(repo: Repo, title: str) -> None:
    finding = _rollback_with_subjects(repo, "Use the codspeed macro (#301)", title)
    assert finding["severity"] != "notice" and "slipped in" not in finding["reason"]


@pytest.mark.parametrize(("title", "severity"), [
    ("Fix regression when loading metadata from sdists", "notice"),  # hatch's, 13 hours after `Slight fix`
    ("Fix loading metadata from sdists", "warning")])
def test_a_change_fixing_a_regression_takes_back_what_broke(repo: Repo, title: str, severity: str) -> None:
    lines = _module(repo)
    land(repo, "Slight fix (#301)", {"src/m.py": "".join(tune(lines, [2, 4, 6, 26, 44]))})
    _stale_topic(repo, tune(lines, [26, 44]), subject=title)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("title", "files", "between", "severity"), [
    ("vkutil: Fix regression (#3238)", 1, False, "notice"),  # Vita3K's: one line of the commit just before, out
    ("vkutil: Fix the allocator (#3238)", 1, False, "error"),  # no regression said
    ("vkutil: Fix regression (#3238)", 2, False, "error"),  # the whole commit put back needs "revert" said
    ("vkutil: Fix regression (#3238)", 1, True, "error"),  # the regressing commit is the one just before
    ("vkutil: Fix regression from 0123abcd (#3238)", 1, False, "error"),  # another commit named as its cause
])
def test_a_file_put_back_to_fix_a_regression_is_the_commit_just_before(repo: Repo, title: str, files: int,
                                                                      between: bool, severity: str) -> None:
    old = seed(repo)
    land(repo, "vita3k: Fix some vma assert issues (#301)",
         {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"vma{i}", 2) for i in (1, 2)}, author=DAVE)
    if between:
        land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(1, files + 1)}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


def test_regression_wording_does_not_excuse_a_stale_tree(repo: Repo) -> None:
    code, found = _stale_tree_under(repo, "Fix regression in the retry knob")
    assert code == 1 and found[301]["severity"] == "error" and found[302]["severity"] == "error"


def test_stray_wording_does_not_excuse_a_stale_tree(repo: Repo) -> None:
    code, found = _stale_tree_under(repo, "Drop a stray debug print")
    assert code == 1 and found[301]["severity"] == "error" and found[302]["severity"] == "error"


@pytest.mark.parametrize("undone", ["Work around the CodSpeed/cffi incompatibility (#301)",
                                    "Disable all crates except tower-service (#301)",  # tower's staged migration
                                    "[WX-1108] Disable drs tests (#301)"])  # cromwell's, a tracker key before it
def test_undoing_a_workaround_is_a_notice(repo: Repo, undone: str) -> None:
    finding = _rollback_with_subjects(repo, undone, "Benchmarks run again")
    assert finding["severity"] == "notice" and "temporary" in finding["reason"]


@pytest.mark.parametrize("undone", ["ci: keep the cache, disable nothing (#301)",
                                    "[WX-1108] Keep drs tests, disable nothing (#301)"])
def test_a_subject_saying_disable_later_on_is_no_switch(repo: Repo, undone: str) -> None:
    finding = _rollback_with_subjects(repo, undone, "Benchmarks run again")
    assert finding["severity"] != "notice"


def test_citing_the_commit_does_not_excuse_putting_its_files_back(repo: Repo) -> None:
    old = seed(repo)
    undone = land(repo, "chore: unpin the towncrier (#301)", {"src/mod1.py": old["src/mod1.py"] + body("ci", 4),
                                                             "src/mod2.py": old["src/mod2.py"] + body("cj", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f"Rework the pins\n\nThis builds on {undone[:9]}.", {"src/mod1.py": old["src/mod1.py"],
                                                                   "src/mod2.py": old["src/mod2.py"]})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"  # every file put back: an error


def _301_then(repo: Repo, undone: Callable[[dict[str, str]], dict[str, str | None]],
              change: Callable[[dict[str, str]], dict[str, str | None]], message: str) -> dict:
    """#301 makes the edits UNDONE(seed) to two files; the change, under MESSAGE ({sha}: #301's id, {other}:
    another commit's), makes CHANGE(seed). #301's finding."""
    old = seed(repo)
    sha = land(repo, "test: redirects (#301)", undone(old))
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, message.format(sha=sha, other=repo.git("rev-parse", "main~1")), change(old), author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


def _one_file_of_two_put_back_under(repo: Repo, message: str) -> dict:
    """#301 edits two files; the change puts one back as it was and leaves the other."""
    return _301_then(repo, lambda old: {"src/mod1.py": old["src/mod1.py"] + body("ci", 4),
                                        "src/mod2.py": old["src/mod2.py"] + body("cj", 4)},
                     lambda old: {"src/mod1.py": old["src/mod1.py"]}, message)


def test_a_file_put_back_by_a_change_citing_the_commit_is_a_notice(repo: Repo) -> None:
    """`Fix issues with 77302b4de786...`: a stale tree never knows which commit it undoes."""
    finding = _one_file_of_two_put_back_under(repo, "Fix issues with {sha}")
    assert finding["severity"] == "notice" and "names the undone commit" in finding["reason"], finding


def test_a_file_put_back_by_a_change_citing_another_commit_fails(repo: Repo) -> None:
    assert _one_file_of_two_put_back_under(repo, "Fix issues with {other}")["severity"] == "error"


def _entry_moved(repo: Repo, path: str, cited: str = "#4318") -> str:
    """#301 adds a line under one heading; the change drops it and words it anew (citing CITED) under another."""
    seed(repo)
    head = "# Change log\n\n## Unreleased\n\n### Stable style\n\n- keep comments\n\n### Parser\n\n- faster tokenizer\n"
    land(repo, "docs: changelog", {path: head})
    entry = "- Add support to style function definitions containing newlines before stubs (#4318)\n"
    land(repo, "Style function stubs (#301)", {path: head + entry})
    repo.git("checkout", "-q", "-b", "topic")
    moved = head.replace("- keep comments\n", f"- keep comments\n- Fix a crash on indented dummy functions ({cited})\n")
    land(repo, "Move changelog entry to right section", {path: moved}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})["severity"]


def test_a_changelog_entry_taken_out_loses_nothing(repo: Repo) -> None:
    assert _entry_moved(repo, "CHANGES.md") in ("none", "notice")


def test_an_entry_taken_out_of_another_document_is_reported(repo: Repo) -> None:
    assert _entry_moved(repo, "docs/guide.md") == "warning"


def test_a_changelog_entry_taken_out_for_another_one_is_reported(repo: Repo) -> None:
    assert _entry_moved(repo, "CHANGES.md", cited="#43") == "warning"  # #4318's entry is gone, not moved


def test_lint_markers_put_back_hunk_by_hunk_still_count(repo: Repo) -> None:
    """Only a whole file rolled back to before its markers is cosmetic; a stale copy that drops one of
    three `# noqa` hunks among new work is reported like any other hunk."""
    lines = _module(repo)
    marked = [line.replace("\n", "  # noqa\n") if i in (2, 20, 38) else line for i, line in enumerate(lines)]
    land(repo, "Flake8 style fixes (#301)", {"src/m.py": "".join(marked)})
    kept = [line.replace("\n", "  # noqa\n") if i in (2, 38) else line for i, line in enumerate(lines)]
    _stale_topic(repo, kept)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "warning"


def _merged_branch_undoing_a_hunk(repo: Repo, branch_subject: str) -> dict:
    """A PR branch whose commit BRANCH_SUBJECT takes one of #301's three hunks out next to new work,
    landed as a merge commit that names only the branch."""
    lines = _module(repo)
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 20, 38]))})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, branch_subject, {"src/m.py": "".join(tune(lines, [2, 38])) + "new_work = fresh_call(1)\n"},
         author=CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "topic", "-m", "Merge pull request #320 from team/topic")
    proc = run_leverguard("audit", "--all", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    return next(f for r in json.loads(proc.stdout)["results"] for f in r["findings"] if f["pr"] == 301)


def test_a_merged_branchs_own_revert_commit_says_what_the_merge_does_not(repo: Repo) -> None:
    finding = _merged_branch_undoing_a_hunk(repo, "revert the value_m_20 scale")
    assert finding["severity"] == "notice" and "merged branch says it undoes" in finding["reason"]


def test_a_merged_branch_that_says_nothing_still_warns(repo: Repo) -> None:
    assert _merged_branch_undoing_a_hunk(repo, "kernel: tune")["severity"] == "warning"


def _one_deleted_file_brought_back_under(repo: Repo, message: str, both: bool = False) -> dict:
    """#301 deletes two files; the change brings one (or BOTH) back as they were."""
    return _301_then(repo, lambda old: {"src/mod1.py": None, "src/mod2.py": None},
                     lambda old: {path: old[path] for path in ("src/mod1.py", "src/mod2.py")[:2 if both else 1]},
                     message)


@pytest.mark.parametrize("message", ["Unbreak docs frontpage", "add logger back",  # vuex's, words between
                                     "Fix area z index\n\noops I removed this file by accident",  # apostrophe's
                                     "chore: accidentally deleted config"])
def test_a_file_brought_back_under_wording_that_says_so_is_a_notice(repo: Repo, message: str) -> None:
    finding = _one_deleted_file_brought_back_under(repo, message)
    assert finding["severity"] == "notice" and "brings back" in finding["reason"], finding


@pytest.mark.parametrize("message", ["docs: tidy the front page", "add a fallback logger",
                                     "Fix area z index\n\nAvoid accidental clicks on the toolbar"])  # no removal called a mistake
def test_a_file_brought_back_under_other_wording_fails(repo: Repo, message: str) -> None:
    assert _one_deleted_file_brought_back_under(repo, message)["severity"] == "error"


def test_every_deleted_file_brought_back_fails_whatever_the_wording(repo: Repo) -> None:
    assert _one_deleted_file_brought_back_under(repo, "Restore the front page", both=True)["severity"] == "error"


@pytest.mark.parametrize("message, agent", [
    ("fix: retry\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>", True),
    ("fix: retry\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>", True),
    ("fix: retry\n\nCo-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>", False),  # a suggestion
    ("fix: retry\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)", True),
    ("aider: fix the retry loop", True),
    ("docs: how to use the Claude API and Copilot with the client", False),  # words, not an agent's marks
    ("fix: retry\n\nCo-authored-by: Claude Martin <claude@example.fr>", False),  # a person named Claude
    ("fix: retry\n\nCo-authored-by: Devin Smith <devin@example.com>", False),
    ("fix: retry\n\nCo-authored-by: Bob <bob@example.com>\nReviewed-by: Copilot", False),
])
def test_an_agents_change_is_known_by_its_trailers_not_by_words(message: str, agent: bool) -> None:
    from leverguard.revert.identity import is_agent_work

    assert is_agent_work([message]) is agent
    assert is_agent_work(["fix: retry"], [("198982749+Copilot@users.noreply.github.com", "copilot-swe-agent[bot]")])


def _hunks_undone_under(repo: Repo, subject: str, path: str = "src/m.py") -> dict:
    """#301 tunes two constants of PATH (and adds a module); Carol's change, titled SUBJECT, puts both back
    next to new work."""
    lines = _module(repo)
    if path != "src/m.py":
        land(repo, "feat: move m", {"src/m.py": None, path: "".join(lines)})
    land(repo, "tune: constants (#301)", {path: "".join(tune(lines, [2, 26])), "src/extra.py": body("extra", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {path: "".join(lines) + "new_work = fresh_call(1)\n"}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


@pytest.mark.parametrize("subject, path", [("Update m.py", "src/m.py"), ("fix the retry loop in Dockerfile", "Dockerfile"),
                                           ("unhack setup.cfg", "setup.cfg"), ("Update src/m.py.", "src/m.py"),
                                           # axum's: an example's entry point, named by its example's folder
                                           ("Update graceful shutdown example (#2355)", "examples/graceful-shutdown/src/main.rs"),
                                           ("Update example-reqwest-response", "examples/reqwest-response/src/main.rs")])
def test_a_change_titled_after_the_file_it_edits_is_a_notice(repo: Repo, subject: str, path: str) -> None:
    finding = _hunks_undone_under(repo, subject, path)
    assert finding["severity"] == "notice" and "titled after the file it edits" in finding["reason"]


@pytest.mark.parametrize("subject, path", [("Update docs", "src/m.py"), ("Update m.pyc notes", "src/m.py"),
                                           ("Update src/m.py.orig", "src/m.py"), ("Adjust changelog", "CHANGES.rst"),
                                           # a folder names its entry point only, not its other files
                                           ("Update the graceful shutdown example", "examples/graceful-shutdown/src/util.rs"),
                                           # nor a layout folder, nor a longer name it is part of
                                           ("Update src", "src/main.rs"),
                                           ("Update graceful-shutdown-v2", "examples/graceful-shutdown/src/main.rs")])
def test_a_title_that_names_another_file_or_none_excuses_nothing(repo: Repo, subject: str, path: str) -> None:
    assert _hunks_undone_under(repo, subject, path)["severity"] == "warning"


def test_a_file_put_back_under_a_title_naming_it_no_longer_fails_alone(repo: Repo) -> None:
    finding = _rollback_with_subjects(repo, "ci: run the 3.12 job (#301)", "Update mod1.py")
    assert finding["severity"] == "warning" and "titled after the file it edits" in finding["reason"]


def test_a_file_put_back_under_a_title_naming_another_fails(repo: Repo) -> None:
    assert _rollback_with_subjects(repo, "ci: run the 3.12 job (#301)", "Update mod2.py")["severity"] == "error"


@pytest.mark.parametrize(("subject", "severity"), [
    ("A bit too quick, put the mod1.py file back.", "notice"),  # WRF's, 90 seconds after its PIO commit
    ("Update mod1.py", "warning"),  # named, nothing said to come back
    ("put the old settings back", "error"),  # said to come back, the file not named
    ("Reset mod1.py after release", "notice"),  # jwst's `Reset requirements-sdp.txt after release`
    ("Reset the build cache", "error"),  # reset, the file not named
])
def test_a_file_put_back_under_a_title_saying_so_and_naming_it(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "PIO, initial capability (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pio", 4),
                                                  "src/mod2.py": old["src/mod2.py"] + body("pio", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "severity", "path"), [
    ("reset whatsnew latest (#4288)", "notice", "docs/whatsnew/latest.py"),  # iris' release clean-up, its folder named
    ("reset the tuning (#4288)", "warning", "docs/whatsnew/latest.py"),  # reset, nothing named
    # azure-functions-host's `Reset release notes` after each release: the file's stem spelled in words
    ("Reset release notes and updated host version to 4.4.0", "notice", "release_notes.md"),
    ("Reset release and notes", "warning", "release_notes.md"),  # the words, not the name
    ("Reset notes", "warning", "release_notes.md"),  # one word of two
])
def test_hunks_undone_under_a_title_resetting_what_it_names(repo: Repo, subject: str, severity: str, path: str) -> None:
    finding = _hunks_undone_under(repo, subject, path)
    assert finding["severity"] == severity, finding["reason"]


def _sweep_undone(repo: Repo, undone_m: list[int], undone_n: list[int]) -> dict:
    """A sweep tuning three hunks in each of two modules; a change by someone else redoes some in each."""
    lines = _module(repo)
    land(repo, "feat: the n module", {"src/n.py": "".join(lines).replace("value_m_", "value_n_")})
    tuned = [2, 20, 38]
    swept = {"src/m.py": tune(lines, tuned), "src/n.py": [t.replace("value_m_", "value_n_") for t in tune(lines, tuned)]}
    land(repo, "style: the constants (#301)", {path: "".join(text) for path, text in swept.items()})
    kept_m = tune(lines, [i for i in tuned if i not in undone_m])
    kept_n = [t.replace("value_m_", "value_n_") for t in tune(lines, [i for i in tuned if i not in undone_n])]
    _stale_topic(repo, kept_m, extra={"src/n.py": "".join(kept_n) + "more_work = fresh_call(2)\n"})
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_minority_of_a_commits_hunks_undone_in_each_of_its_files_is_an_edit_sweep(repo: Repo) -> None:
    finding = _sweep_undone(repo, [20], [20])  # 1/3 in each file: a warning for either file alone
    assert finding["severity"] == "notice" and "a minority of its hunks" in finding["reason"]
    assert [e["severity"] for e in finding["evidence"]] == ["warning", "warning"]


def test_half_of_a_commits_hunks_undone_across_its_files_is_no_sweep(repo: Repo) -> None:
    finding = _sweep_undone(repo, [20], [2, 20])  # 3 of 6: the boundary, not fewer than half
    assert finding["severity"] == "warning"


def test_every_hunk_undone_in_one_of_the_files_is_a_stale_copy_there(repo: Repo) -> None:
    finding = _sweep_undone(repo, [2, 20, 38], [])  # all of m.py's: no sweep, whatever n.py keeps
    assert finding["severity"] in ("warning", "error") and "minority" not in finding["reason"]


def _blanked(repo: Repo, title: str) -> dict:
    old = seed(repo)
    blank = '{\n  "docs_differ_after": null\n}\n'
    land(repo, "docs: a config", {"docs/config.json": blank})
    land(repo, "docs: master and released docs differ (#301)",
         {"docs/config.json": blank.replace("null", '"3.0.0"'), "kernel.c": old["kernel.c"] + "int k;\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"docs/config.json": blank, "src/mod1.py": old["src/mod1.py"] + "more = fresh(1)\n"}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_title_that_blanks_a_named_setting_says_what_goes_away(repo: Repo) -> None:
    finding = _blanked(repo, "Blank `docs_differ_after`")
    assert finding["severity"] == "notice" and "names what goes away" in finding["reason"]


def test_a_title_naming_the_setting_without_saying_it_goes_still_fails(repo: Repo) -> None:
    assert _blanked(repo, "Tidy `docs_differ_after`")["severity"] == "error"


def _moved_by_name(repo: Repo, names: list[str]) -> dict:
    seed(repo)
    land(repo, "docs: sponsor logos (#301)", {f"docs/static/{n}": body(n.split(".")[0], 12) for n in names})
    repo.git("checkout", "-q", "-b", "topic")
    # moved under .github/ and minified on the way: one line each, no line of the old files left
    land(repo, "Tidy the tree", {**{f"docs/static/{n}": None for n in names},
                                              **{f".github/logos/{n}": f"<svg>{n}</svg>\n" for n in names}}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1]).get(301, {})


def test_files_deleted_where_files_of_their_names_come_elsewhere_were_moved(repo: Repo) -> None:
    assert _moved_by_name(repo, ["FilePreviews.svg", "Tidelift.svg"]) == {}


def test_a_conventional_name_coming_elsewhere_is_no_move(repo: Repo) -> None:
    finding = _moved_by_name(repo, ["index.js", "__init__.py"])
    assert finding["kinds"] == ["deleted-added"] and finding["severity"] == "warning"


def test_a_stale_tree_that_also_undoes_a_temporary_change_fails(repo: Repo) -> None:
    # "for now" excuses a change undone on its own, not one a stale tree undoes with the work around it
    old = seed(repo)
    land(repo, "ci: pin the parser for now (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pin", 3)})
    land(repo, "feat: retries (#302)", {"src/mod2.py": old["src/mod2.py"] + body("retry", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"],
                                "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_a_revert_of_several_files_undone_under_its_topic_re_lands_the_work(repo: Repo) -> None:
    # click's `test Python 3.9 (#1707)` putting back what `Revert "add py39"` took out of two files
    old = seed(repo)
    py39 = {p: old[p] + "python_versions = ['3.8', '3.9']\n" for p in ("src/mod1.py", "src/mod2.py")}
    land(repo, "ci: add `py39` (#300)", dict(py39))
    land(repo, 'Revert "ci: add `py39`" (#301)', {p: old[p] for p in py39})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "ci: test `py39`", {**py39, "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"


@pytest.mark.parametrize(("source", "severity"), [
    ("src/legacy/len.py", "notice"),  # #301 moved the module: its lines were older work
    ("src/legacy/other.py", "warning"),  # another file's name: #301 wrote len.py, its lines are its work
])
def test_lines_a_commit_only_moved_into_a_file_are_not_its_work(repo: Repo, source: str, severity: str) -> None:
    # rayon's `Simplify public API` renamed `par_iter/len.rs` to `iter/len.rs` among 69 files; `Replace
    # weights` deleted 31 of those lines: no work of the rename to lose (the patches pair no renames)
    seed(repo)
    weights = "".join(f"def weight_{i}(cost):\n    return cost * {i} + shift_{i}\n" for i in range(12))
    land(repo, "feat: weights", {source: weights})
    land(repo, "Simplify the public API (#301)", {source: None, "src/iter/len.py": weights, "src/mod1.py": body("api", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    kept = "def weight_0(cost):\n    return cost * 0 + shift_0\n" "def weight_11(cost):\n    return cost * 11 + shift_11\n"
    land(repo, "Replace weights with split length control",
         {"src/iter/len.py": kept + "split_at = halves(2)\n", "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("name", "severity"), [
    ("close", None),  # aiohttp: the method moved 40 lines up, a keyword added, its body kept: a move
    ("shutdown", "warning"),  # another method: close() and its resolver cleanup are gone
])
def test_a_method_moved_with_a_new_signature(repo: Repo, name: str, severity: str | None) -> None:
    lines = _module(repo)
    method = ("async def close(self) -> None:\n    \"\"\"Close all opened transports.\"\"\"\n"
              "    if self._resolver_owner:\n        await self._resolver.close()\n    await super().close()\n")
    land(repo, "fix: leak of the DNS resolver when the session is closed (#301)", {"src/m.py": "".join(lines) + method})
    moved = (f"async def {name}(self, *, abort_ssl: bool = False) -> None:\n    \"\"\"Close, aborting ssl.\"\"\"\n"
             "    if self._resolver_owner:\n        await self._resolver.close()\n"
             "    await super().close(abort_ssl=abort_ssl)\n")
    _stale_topic(repo, [moved] + lines)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {})
    assert found.get("severity") == severity, (found.get("reason"), found.get("evidence"))


BLOCK = ["cache_limit = configure_cache(entries=512, policy='lru')\n",
         "retry_budget = compute_budget(attempts=3, backoff=2.0)\n",
         "trace_sampler = make_sampler(rate=0.25, seed=7)\n",
         "pool_workers = spawn_pool(size=8, daemon=True)\n"]
REWORKED = ["cache_limit = configure_cache(entries=1024, policy='lfu')\n",
            "retry_budget = compute_budget(attempts=5, backoff=1.5)\n",
            "trace_sampler = make_sampler(rate=0.5, seed=11)\n"]


@pytest.mark.parametrize(("reworked", "severity"), [
    (2, None),  # half the lines #301 added written again, edited, in another file: reworked (REWORDED_SHARE)
    (1, "warning"),  # a quarter: the rest is gone, nothing written in its place
    (0, "warning"),
])
def test_lines_written_again_edited_elsewhere_were_reworked(repo: Repo, reworked: int, severity: str | None) -> None:
    # LLaMA-Factory's `tiny fix about badam` turning scripts into yaml examples, mfem's rewritten readers:
    # the lines a commit added taken out and written again, edited, where the change puts them
    lines = _module(repo)
    land(repo, "feat: runtime knobs (#301)", {"src/m.py": "".join(lines[:20] + BLOCK + lines[20:])})
    _stale_topic(repo, lines, extra={"src/settings.py": "".join(REWORKED[:reworked]) + "fresh_setting = 1\n"})
    found = by_pr(check(repo, "main..topic")[1]).get(301, {})
    assert found.get("severity") == severity, (found.get("reason"), found.get("evidence"))


def test_lines_only_re_written_with_other_line_endings_are_no_rework(repo: Repo) -> None:
    # a file whose lines resemble the ones taken out, re-written whole with CRLF endings: only lines the
    # change writes anew can be a rework, not old ones it takes out and writes back
    lines = _module(repo)
    land(repo, "feat: defaults", {"src/knobs.py": "".join(REWORKED)})
    land(repo, "feat: runtime knobs (#301)", {"src/m.py": "".join(lines[:20] + BLOCK + lines[20:])})
    _stale_topic(repo, lines, extra={"src/knobs.py": "".join(REWORKED).replace("\n", "\r\n")})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "warning"


@pytest.mark.parametrize(("path", "moved_back", "severity"), [
    ("README.md", True, "notice"),  # fastify's maintainers list back in its old order: the file as it was
    ("README.md", False, None),  # one entry taken out below and put back where it was, new work beside it
    ("src/m.py", True, "error"),  # code: an order is meaning (an initialization moved before its use)
])
def test_lines_of_a_document_moved_back_restore_nothing(repo: Repo, path: str, moved_back: bool,
                                                         severity: str | None) -> None:
    seed(repo)
    lines = [f"* [__Member {i}__](https://github.com/member{i}), <https://www.npmjs.com/~member{i}>\n" for i in range(48)]
    land(repo, "docs: members", {path: "".join(lines)})
    entry = lines[20]
    reordered = lines[:20] + lines[21:40] + [entry] + lines[40:]
    land(repo, "chore: org members reorder (#301)", {path: "".join(reordered)})
    repo.git("checkout", "-q", "-b", "topic")
    back = lines if moved_back else lines[:20] + [entry] + lines[21:40] + lines[40:] + ["* [__Newcomer__](https://github.com/new)\n"]
    land(repo, "docs: clarify request host", {path: "".join(back), "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {})
    assert found.get("severity") == severity, (found.get("reason"), found.get("evidence"))


@pytest.mark.parametrize(("committed_before_it", "severity"), [
    (True, "warning"),  # pytest's rebased `Cache exception raised in fixtures`: two changelog entries of May gone
    (False, "notice"),  # written after that work landed, a later change kept: an edit
])
def test_a_change_committed_before_the_work_it_drops_was_rebased_over_it(repo: Repo, committed_before_it: bool,
                                                                         severity: str) -> None:
    lines = _module(repo)
    early = f"{1_700_000_000 + 60} +0000"  # before everything but the first commit
    land(repo, "tune: constants (#301)", {"src/m.py": "".join(tune(lines, [2, 4]))})
    land(repo, "tune: the tail (#302)", {"src/m.py": "".join(tune(tune(lines, [2, 4]), [40], "later"))})
    rebased = "".join(tune(lines, [40], "later")) + "new_work = fresh_call(1)\n"  # #301 dropped, #302 kept
    dates = {"GIT_AUTHOR_DATE": early, "GIT_COMMITTER_DATE": early} if committed_before_it else {}
    repo.write("src/m.py", rebased)
    repo.commit("kernel: cache the scales", author=CAROL, env=dates)
    proc = run_leverguard("audit", "--all", "--max-count", "1", "--format", "json", cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    found = next(f for r in json.loads(proc.stdout)["results"] for f in r["findings"] if f["pr"] == 301)
    assert found["severity"] == severity, found["reason"]
    assert ("rebased over that work" in found["reason"]) == committed_before_it


@pytest.mark.parametrize(("fresh_files_back", "deleted", "severity"), [
    (True, 4, "warning"),  # requests' `Python 2 Death Sentence`: 8 lines of its author's `docs update` gone too
    (True, 2, "warning"),  # MIN_HUNK_LINES
    (False, 4, "notice"),  # alone, one's own fresh lines deleted: debug code taken out
    (True, 1, "notice"),  # one line proves little, stale tree or not
])
def test_ones_own_lines_deleted_beside_fresh_whole_files_put_back(repo: Repo, fresh_files_back: bool, deleted: int,
                                                                   severity: str | None) -> None:
    old = seed(repo)
    added = body("own", deleted)
    land(repo, "docs: update (#301)", {"src/mod1.py": old["src/mod1.py"] + added,
                                       "src/mod4.py": old["src/mod4.py"] + body("kept", 3)}, author=CAROL)
    land(repo, "feat: coinbin (#302)", {p: old[p] + body(p[4:8], 3) for p in ("src/mod2.py", "src/mod3.py")})
    new_work = "new_work = fresh_call(1)\n"  # the file edited too: its lines undone amid real work
    edits: dict[str, str | None] = {"src/mod1.py": new_work + old["src/mod1.py"]}
    if fresh_files_back:
        edits.update({p: old[p] for p in ("src/mod2.py", "src/mod3.py")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: drop python 2", edits, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {})
    assert found.get("severity") == severity, found.get("reason")


@pytest.mark.parametrize(("where", "found"), [
    (10, True),  # the attribute put back where #301 took it out
    (13, True),  # a few lines off: within an ordinary diff's context (3 lines) of where it was
    (14, False),  # a line further: written somewhere else
    (40, False),  # hyper's `#[cfg(feature = "client")]` written on other lines: common text, no undo
])
def test_a_one_line_undo_must_sit_where_the_line_was(repo: Repo, where: int, found: bool) -> None:
    seed(repo)
    lines = body("m", LINES).splitlines(keepends=True)
    gate = '#[cfg(feature = "client")]\n'
    land(repo, "feat: the m module", {"src/m.py": "".join(lines[:10] + [gate] + lines[10:])})
    land(repo, "feat: the parser config for servers too (#301)", {"src/m.py": "".join(lines)})
    _stale_topic(repo, lines[:where] + [gate] + lines[where:])
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None) is found, finding and finding["reason"]


FLAGS = ("<?php\nreturn [\n\t// Post locking\n\t'post-locking' => [\n\t\t'enabled' => FALSE,\n\t],\n\n"
         "\t// Targeted Surveys\n\t'targeted-surveys' => [\n\t\t'enabled' => TRUE,\n\t],\n];\n")


@pytest.mark.parametrize(("flag", "found"), [
    ("targeted-surveys", True),  # the flag #301 turned off, on again: its change undone
    # ushahidi's hotfix turning post-locking on, five lines above: the same text, another key's value
    ("post-locking", False),
])
def test_a_value_set_on_a_like_key_nearby_undoes_nothing(repo: Repo, flag: str, found: bool) -> None:
    seed(repo)
    land(repo, "feat: feature flags", {"config/features.php": FLAGS})
    off = FLAGS.replace("TRUE", "FALSE")
    land(repo, "Turn OFF targeted surveys (#301)", {"config/features.php": off})
    repo.git("checkout", "-q", "-b", "topic")
    at = off.index(f"'{flag}'")
    land(repo, f"fix: enable {flag}", {"config/features.php": off[:at] + off[at:].replace("FALSE", "TRUE", 1)},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding


def test_a_line_replaced_back_elsewhere_is_found_by_the_side_left_in_place(repo: Repo) -> None:
    # one side where it was will do: setuptools-scm's merge moved a docs section and dropped the rename in it
    lines = _module(repo)
    land(repo, "docs: rename the project (#301)", {"src/m.py": "".join(tune(lines, [20]))})
    _stale_topic(repo, lines[:20] + lines[21:40] + [lines[20]] + lines[40:])  # line 20 as it was, 20 lines down
    assert 301 in by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize(("written", "found"), [
    # thiserror's flag renamed with the opposite meaning 8 minutes after it landed: the lines are rewritten
    (["    self.requires_fmt_machinery = self.requires_fmt_machinery || fmt.contains('}');\n"], False),
    # a note about something else written there: the lines are gone, nothing in their place
    (["    # check token_handle before touching the profile (see profile_52)\n"], True),
])
def test_lines_deleted_with_a_renamed_version_in_their_place_are_a_rewrite(repo: Repo, written: list[str],
                                                                          found: bool) -> None:
    lines = _module(repo)
    added = ["    if self.use_write_str && fmt.contains('}') {\n", "        self.use_write_str = false;\n", "    }\n"]
    land(repo, "perf: write_str for literals (#301)", {"src/m.py": "".join(lines[:20] + added + lines[20:])})
    _stale_topic(repo, lines[:20] + written + lines[20:])
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding


@pytest.mark.parametrize(("shared", "severity"), [
    ("public function writing_a_file_with_an_empty_stream(): void", None),  # moved into the contract test case
    ("public function reading_a_file_with_an_empty_stream(): void", "error"),  # another test: #301's is gone
])
def test_a_php_test_method_moved_into_a_shared_test_case_is_a_move(repo: Repo, shared: str, severity: str | None) -> None:
    # flysystem's `Upgraded empty stream test to adapter contract test`: the local adapter's test method,
    # re-targeted at `$this->adapter()` inside the test case every adapter runs
    seed(repo)
    local = "<?php\nclass LocalTest extends TestCase\n{\n    public function setUp(): void {}\n}\n"
    method = ("    /**\n     * @test\n     */\n    public function writing_a_file_with_an_empty_stream(): void\n    {\n"
              "        $adapter = new LocalAdapter(static::ROOT);\n        $stream = stream_with_contents('');\n"
              "        $adapter->writeStream('/file.txt', $stream, new Config());\n        fclose($stream);\n"
              "        $this->assertFileExists(static::ROOT . '/file.txt');\n    }\n")
    land(repo, "chore: local tests", {"src/LocalTest.php": local, "src/CaseTest.php": local.replace("LocalTest", "CaseTest")})
    land(repo, "Add test for empty stream (#301)", {"src/LocalTest.php": local[:-2] + method + "}\n"}, author=DAVE)
    shared_method = (f"    /**\n     * @test\n     */\n    {shared}\n    {{\n        $adapter = $this->adapter();\n"
                     "        $adapter->writeStream('path.txt', stream_with_contents(''), new Config());\n"
                     "        $this->assertTrue($adapter->fileExists('path.txt'));\n    }\n")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Upgraded empty stream test to adapter contract test",
         {"src/LocalTest.php": local, "src/CaseTest.php": local.replace("LocalTest", "CaseTest")[:-2] + shared_method + "}\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {})
    assert found.get("severity") == severity, (found.get("reason"), found.get("evidence"))


@pytest.mark.parametrize(("change", "kind"), [
    ("block", None),  # kamal's: the reworded `say` gone with the block around it, its old text not back
    ("old", "rollback"),  # the old wording back, re-indented: a rollback ignoring formatting
])
def test_a_reworded_line_taken_out_with_its_block_is_no_rollback(repo: Repo, change: str, kind: str | None) -> None:
    """The topic, branched before #301, deletes the block #301 reworded a line of; merging main in, its
    resolution keeps the topic's side (kamal's `Remove bootstrap from deploy`, through merge b7877c5)."""
    seed(repo)
    block = ('    say "Ensure curl and Docker are installed...", :magenta\n'
             '    invoke "mrsk:cli:server:bootstrap", [], invoke_options\n')
    tail = '    say "Log into image registry...", :magenta\n    invoke "mrsk:cli:registry:login"\n'
    land(repo, "cli: deploy", {"lib/main.rb": "def deploy\n" + block.splitlines(True)[0] + tail + "end\n"})
    land(repo, "cli: bootstrap the servers (#300)", {"lib/main.rb": "def deploy\n" + block + tail + "end\n"})
    repo.git("branch", "topic")
    land(repo, "cli: say where (#301)", {"lib/main.rb": "def deploy\n" + block.replace("installed...",
                                         "installed on servers...") + tail + "end\n"}, author=DAVE)
    repo.git("checkout", "-q", "topic")
    text = "def deploy\n" + (tail if change == "block" else block.replace("    say", "      say") + tail) + "end\n"
    land(repo, "deploy: drop the bootstrap step", {"lib/main.rb": text, "kernel.c": "int t;\n"}, author=CAROL)
    repo.git("merge", "-q", "main", check=False)  # a conflict in lib/main.rb
    repo.write("lib/main.rb", text)  # resolved by keeping the topic's side
    repo.commit("Merge branch 'main' into topic", "lib/main.rb", author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301)
    kinds = [] if found is None else [e["kind"] for e in found["evidence"]]
    assert (kind in kinds) if kind else ("rollback" not in kinds), found


COMPOSE = "services:\n  app:\n    volumes:\n      - ..:{folder}:cached\n    command: sleep infinity\n"


@pytest.mark.parametrize(("subject", "severity"), [
    # sentry-ruby's `[devcontainer] switch to /workspace/sentry` over `Update dev container setup`'s
    # `/workspace/sentry-ruby`: the title names the old value it puts back
    ("[devcontainer] switch to /workspace/sentry", "notice"),
    ("[devcontainer] switch to /workspace/sentry-ruby", "error"),  # what the undone commit wrote is no return
    ("[devcontainer] add a redis service", "error"),  # a title of its own work
])
def test_a_title_naming_the_value_it_puts_back_returns_to_it(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "Dev container", {".devcontainer/compose.yml": COMPOSE.format(folder="/workspace/sentry")})
    land(repo, "Update dev container setup (#301)",
         {".devcontainer/compose.yml": COMPOSE.format(folder="/workspace/sentry-ruby")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {".devcontainer/compose.yml": COMPOSE.format(folder="/workspace/sentry"), "kernel.c": "int t;\n"},
         author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


PRE_COMMIT = ("repos:\n  - repo: https://github.com/cheshirekow/cmake-format-precommit\n    rev: v0.6.13\n    hooks:\n"
              "      - id: cmake-format\n")
TYPOS_HOOK = ("  - repo: https://github.com/Quantco/pre-commit-mirrors-typos\n    rev: 1.27.3\n    hooks:\n"
              "      - id: typos-conda\n        # cf. https://github.com/crate-ci/typos\n        args: [ --write-changes ]\n")


@pytest.mark.parametrize(("subject", "severity"), [
    ("maint: Add pre-commit typos back", "notice"),  # mamba's: the hook a compile fix had dropped, by name
    ("maint: Add the changelog check back", "warning"),  # bringing back something else
    ("maint: typos in the docs", "warning"),  # no restoring words: a plain word names nothing
])
def test_a_title_bringing_back_what_the_lines_put_back_hold_returns_to_it(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "ci: pre-commit", {".pre-commit-config.yaml": PRE_COMMIT + TYPOS_HOOK})
    land(repo, "Fix compilation with -Werror=unused-result (#301)",
         {".pre-commit-config.yaml": PRE_COMMIT, "src/mod1.py": old["src/mod1.py"] + body("werror", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {".pre-commit-config.yaml": PRE_COMMIT + TYPOS_HOOK.replace("1.27.3", "1.28.2")}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


UNRELEASED = ("# Changelog\n\n## Unreleased Changes\n\n### Additions and Improvements\n\n{entries}\n### Bug Fixes\n\n"
              "## 25.3.0\n\n- Older release notes stay where they are.\n")


@pytest.mark.parametrize(("subject", "severity"), [
    # teku's `clear changelog` / `25.4.0 Cleanup` after each release: the unreleased section emptied, nothing written
    ("clear changelog (#330)", "notice"),
    ("25.4.0 Cleanup (#330)", "notice"),
    ("Tidy the docs (#330)", "error"),  # a title of neither the changelog nor a release
])
def test_a_changelog_cleared_after_a_release_loses_nothing(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    entry = "- QUIC enabled by default (uses UDP port 9001 by default)\n"
    land(repo, "docs: changelog", {"CHANGELOG.md": UNRELEASED.format(entries="")})
    land(repo, "Enable QUIC by default (#301)", {"CHANGELOG.md": UNRELEASED.format(entries=entry)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"CHANGELOG.md": UNRELEASED.format(entries="")}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


PLAIN_NOTES = "Release Notes for Cppcheck {version}\n\nNew checks:\n-\n\nGUI:\n-\n\nChanged interface:\n{entries}-\n\nOther:\n-\n"


@pytest.mark.parametrize(("heading", "severity"), [
    # cppcheck's `Clear release notes for 2.19`: a plain-text heading moved on to the next release, entries cleared
    ("Release Notes for Cppcheck 2.19", "notice"),
    ("Release Notes for the Cppcheck GUI", "warning"),  # a line of new text is written, no heading renumbered
])
def test_release_notes_cleared_under_a_renumbered_plain_heading_lose_nothing(repo: Repo, heading: str, severity: str) -> None:
    seed(repo)
    entry = ("- Updated path matching syntax for -i, --file-filter, suppressions and GUI excludes.\n"
             "Old patterns that use a `*` may need to use `**` instead if it is intended to match path separators.\n")
    land(repo, "docs: release notes", {"releasenotes.txt": PLAIN_NOTES.format(version="2.18", entries="")})
    land(repo, "Fix #14021 (Better path matching) (#301)", {"releasenotes.txt": PLAIN_NOTES.format(version="2.18", entries=entry)},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Clear release notes for 2.19 [ci skip] (#330)",
         {"releasenotes.txt": PLAIN_NOTES.format(version="2.18", entries="").replace("Release Notes for Cppcheck 2.18", heading)},
         author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity
