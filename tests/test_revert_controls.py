"""Negative controls a user would hit: none of these may fail the check."""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, seed

QUIET = {"info", "notice"}


def _no_alarm(repo: Repo, rev_range: str) -> list[dict]:
    code, report = check(repo, rev_range, "--strict")
    assert code == 0, report["findings"]
    return [f for f in report["findings"] if f["severity"] not in QUIET]


def test_pr_merely_behind_main(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: topic work", {"src/mod1.py": old["src/mod1.py"] + body("topic", 4)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    for i in range(3):
        land(repo, f"feat: main moves on (#{300 + i})", {"src/mod2.py": old["src/mod2.py"] + body(f"main{i}", 4 * (i + 1))})
    land(repo, "feat: same file, other lines (#310)", {"src/mod1.py": body("head", 3) + old["src/mod1.py"]})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_rebased_pr_and_cherry_pick(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: topic work", {"src/mod1.py": old["src/mod1.py"] + body("topic", 4)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    fix = land(repo, "fix: important (#301)", {"src/mod3.py": old["src/mod3.py"] + body("fix", 5)})
    land(repo, "feat: more (#302)", {"src/mod4.py": body("more", 8)})
    repo.git("checkout", "-q", "topic")
    repo.git("cherry-pick", fix)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []
    repo.git("rebase", "-q", "main")
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_merge_of_main_into_the_branch(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: topic work", {"src/mod1.py": old["src/mod1.py"] + body("topic", 4)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    land(repo, "feat: main work (#301)", {"src/mod2.py": old["src/mod2.py"] + body("main", 6)})
    repo.git("checkout", "-q", "topic")
    repo.git("merge", "-q", "--no-edit", "main")
    land(repo, "feat: more topic work", {"src/mod5.py": old["src/mod5.py"] + body("topic2", 4)}, author=CAROL)
    assert _no_alarm(repo, "main..topic") == []


def test_editing_lines_the_previous_commit_added(repo: Repo) -> None:
    old = seed(repo)
    added = body("feature", 6)
    land(repo, "feat: add feature (#301)", {"src/mod1.py": old["src/mod1.py"] + added})
    repo.git("checkout", "-q", "-b", "topic")
    edited = added.replace("compute_feature", "compute_feature_v2").replace("scale=", "factor=")
    land(repo, "refactor: tune the feature", {"src/mod1.py": old["src/mod1.py"] + edited}, author=CAROL)
    assert _no_alarm(repo, "main..topic") == []


def test_moving_code_between_files(repo: Repo) -> None:
    old = seed(repo)
    added = body("helper", 8)
    land(repo, "feat: helpers (#301)", {"src/mod1.py": old["src/mod1.py"] + added})
    repo.git("checkout", "-q", "-b", "topic")
    moved = "".join("    " + line + "\n" for line in added.splitlines())
    land(repo, "refactor: move helpers", {"src/mod1.py": old["src/mod1.py"],
                                          "src/helpers.py": "class Helpers:\n" + moved}, author=CAROL)
    assert _no_alarm(repo, "main..topic") == []


def test_reformatting_and_rewrapping(repo: Repo) -> None:
    old = seed(repo)
    added = "".join(f"result_{i} = call_something(first_argument_{i}, second_argument_{i})\n" for i in range(6))
    land(repo, "feat: results (#301)", {"src/mod1.py": old["src/mod1.py"] + added})
    repo.git("checkout", "-q", "-b", "topic")
    wrapped = "".join(f"result_{i} = call_something(\n    first_argument_{i},\n    second_argument_{i},\n)\n"
                      for i in range(6))
    land(repo, "style: black", {"src/mod1.py": old["src/mod1.py"] + wrapped}, author=CAROL)
    assert _no_alarm(repo, "main..topic") == []


def test_deleting_one_line_as_a_described_cleanup(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: add a flag (#301)", {"src/mod1.py": old["src/mod1.py"] + "ENABLE_FAST_PATH = True\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: drop the unused flag from mod1.py", {"src/mod1.py": old["src/mod1.py"]}, author=CAROL)
    assert _no_alarm(repo, "main..topic") == []


def test_deleting_someone_elses_fresh_line_silently_fails(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: add a flag (#301)", {"src/mod1.py": old["src/mod1.py"] + "ENABLE_FAST_PATH = True\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")  # a whole-file rollback: size says nothing about harm (#10)
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


@pytest.mark.parametrize(("line", "severity"), [
    ("    # print(state)  # debug\n", "notice"),  # eslint-plugin-react's commented-out `console.log`
    ("    // console.log(require('util').inspect(t, { depth: null }));\n", "notice"),
    ("    # the cache expires after an hour\n", "error"),  # a comment of prose is someone's note
    ("    print(state)\n", "error")])  # live output is behaviour
def test_a_commented_out_debug_print_taken_out_loses_nothing(repo: Repo, line: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "feat: tune the state (#301)", {"src/mod1.py": old["src/mod1.py"] + line,
                                               "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("lines", "severity"), [
    ("    var_dump($path, $this->prefix);\n    die();\n", "notice"),  # a dump and its halt: someone debugging
    ("    dbg!(&state);\n", "notice"),
    ("    var_dump($path);\n    $this->prefix = '';\n", "error"),  # beside a line of behaviour
    ("    die();\n", "error")])  # a halt alone is behaviour
def test_a_debug_dump_taken_out_loses_nothing(repo: Repo, lines: str, severity: str) -> None:
    old = seed(repo)
    prefixer = "<?php\nfunction strip($path) {\n" + "".join(f"    $step{i} = $path . {i};\n" for i in range(6)) + "LINES}\n"
    land(repo, "feat: prefixer", {"src/Prefixer.php": prefixer.replace("LINES", "")})
    land(repo, "feat: strip the prefix (#301)", {"src/Prefixer.php": prefixer.replace("LINES", lines),
                                                 "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/Prefixer.php": prefixer.replace("LINES", ""), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("line", "severity"), [
    ("  console.log(list)\n", "notice"),  # navidrome's SharePlayer.js: values printed bare, no words
    ("  console.log({ list, shareInfo });\n", "notice"),
    ("  console.log('navbarHeight: ', navbarHeight)\n", "notice"),  # Kavita's: a name for a label
    ("  console.log('share list', list)\n", "error"),  # words: a message someone reads
    ("  console.log(list.map(toTrack))\n", "error")])  # a call inside: work done, not only shown
def test_a_console_print_of_bare_values_taken_out_loses_nothing(repo: Repo, line: str, severity: str) -> None:
    old = seed(repo)
    player = "const SharePlayer = () => {\n" + "".join(f"  const step{i} = use{i}()\n" for i in range(6)) + "LINE}\n"
    land(repo, "feat: share player", {"ui/src/SharePlayer.js": player.replace("LINE", "")})
    land(repo, "Make the UI use the new ShareURL option (#301)", {
        "ui/src/SharePlayer.js": player.replace("LINE", line), "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix(ui): save play mode", {"ui/src/SharePlayer.js": player.replace("LINE", "\n"), "kernel.c": "int t;\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("focused", "printed", "severity"), [
    ("    it.only('fills two triangles', () => {\n", "    console.log(fill);\n", "notice"),  # pixijs's `clean up test`
    ("    fit('fills two triangles', () => {\n", "", "notice"),  # jasmine's focus
    ("    it('fills two triangles', () => {\n", "    console.log('filled', fill);\n", "warning"),  # a print alone is output
    ("    fit(model, triangles, () => {\n", "", "warning"),  # a function named fit, no test title
])
def test_a_focused_test_taken_out_with_its_prints_loses_nothing(repo: Repo, focused: str, printed: str,
                                                              severity: str) -> None:
    old = seed(repo)
    spec = "describe('Graphics', () => {\nFOCUSPRINT" + "".join(f"    expect(step{i}(fill)).toEqual({i});\n" for i in range(6)) \
        + "EXPECT  });\n});\n"
    plain = spec.replace("FOCUS", "    it('fills two triangles', () => {\n")
    land(repo, "test: graphics", {"tests/graphics.test.ts": plain.replace("PRINT", "").replace("EXPECT", "")})
    debugging = plain.replace("    it('fills two triangles', () => {\n", focused).replace("PRINT", printed)
    land(repo, "fix test (#301)", {"tests/graphics.test.ts": debugging.replace("EXPECT", "    expect(fill).toBe(2);\n"),
                                   "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "clean up test", {"tests/graphics.test.ts": plain.replace("PRINT", "").replace(
        "EXPECT", "    expect(fill).toBe(2);\n"), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "line", "severity"), [
    ("remove log", '      console.log("rendering keyed", structuredClone(rendered));\n', "notice"),  # phoenix_live_view's
    ("remove log", "      rendered.keyed = true;\n", "error"),  # the line is no print
    ("render keyed comprehensions", '      console.log("rendering keyed", structuredClone(rendered));\n', "error"),
    # janus' `Remove unneeded log line`: the project's own logger, the title saying log
    ("Remove unneeded log line", '      JANUS_LOG(LOG_HUGE, "unhandled nalu type: %d", type);\n', "notice"),
    ("Remove debug output", '      JANUS_LOG(LOG_HUGE, "unhandled nalu type: %d", type);\n', "error"),  # says no log
    ("Remove unneeded log line", '      catalog(LOG_HUGE, type);\n', "error"),  # no logger's call
    # OvenMediaEngine's `Remove debug log`: the `if` that only guarded the output goes with it
    ("Remove debug log", '      if (type != VIDEO) {\n        logti("%s", name(type));\n      }\n', "notice"),
    ("Remove debug log", '      if (type != VIDEO) {\n        rendered.keyed = true;\n      }\n', "error"),  # no output
    ("Remove debug log", '      if (type != VIDEO) {\n      }\n', "error"),  # a guard alone is no output
])
def test_a_print_taken_out_under_a_title_that_says_it_removes_logging(repo: Repo, subject: str, line: str,
                                                                     severity: str) -> None:
    old = seed(repo)
    code = "function render(rendered) {\n" + "".join(f"  step{i}(rendered);\n" for i in range(8)) + "}\n"
    bundles = [f"priv/static/live.{kind}js" for kind in ("", "cjs.", "esm.")]  # the bundles a build writes
    land(repo, "feat: render", dict.fromkeys(bundles, code))
    land(repo, "Update assets (#301)", {**dict.fromkeys(bundles, code.replace("  step3(rendered);\n", "  step3(rendered);\n" + line)),
                                        "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {**dict.fromkeys(bundles, code), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("head", "severity"), [
    # zoxide's nightly rustfmt regrouping the `use` lines another commit had sorted: a formatter's work
    ("from kit import run\nimport os\nimport sys\n\nsetup()\nrun(os, sys)\n", "none")])
def test_imports_only_regrouped_are_a_formatters_work(repo: Repo, head: str, severity: str) -> None:
    old = seed(repo)
    grouped = "import os\nimport sys\n\nfrom kit import run\n\nsetup()\nrun(os, sys)\n"
    land(repo, "feat: entry point", {"src/main.py": grouped})
    land(repo, "Return exit code from main (#301)", {"src/main.py": head, "src/mod2.py": old["src/mod2.py"] + "EXIT_CODE = 1\n"})
    land(repo, "Exit with the run's code (#302)", {"src/main.py": head.replace("run(os, sys)", "exit(run(os, sys))")}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")  # the later change kept: line-level evidence, no file put back
    land(repo, "Use formatter from nightly", {"src/main.py": grouped.replace("run(os, sys)", "exit(run(os, sys))"),
                                              "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none", "reason": ""})
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("wrapped", "severity"), [
    ("table, features, data", "notice"),  # autofix.ci re-wrapping what #302 wrote: formatting only
    ("table, features, data, legacy", "error")])  # #302 wrote other text: the change takes #301's out itself
def test_a_change_that_only_reformats_a_file_puts_back_formatting_only(repo: Repo, wrapped: str, severity: str) -> None:
    """TanStack table's `ci: apply automated fixes`: #302 took #301's edit back in a wrapped form, and the
    formatter's unwrapping makes the file equal its version before #301: #302 undid it, not the formatter."""
    old = seed(repo)
    module = "def proxify(table):\n{}    return internal\n"
    land(repo, "feat: proxy", {"src/proxy.py": module.format("    internal = signal_of(table, features, data)\n")})
    land(repo, "feat: add fns generic (#301)", {"src/proxy.py": module.format("    internal = signal_of(table, features, data, fns)\n"),
                                                "src/mod2.py": old["src/mod2.py"] + "FNS = 1\n"})
    land(repo, "large simplification of processingFns (#302)",
         {"src/proxy.py": module.format(f"    internal = signal_of(\n        {wrapped}\n    )\n")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "ci: apply automated fixes", {"src/proxy.py": module.format("    internal = signal_of(table, features, data)\n")},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_rolling_back_a_formatting_only_commit_is_cosmetic(repo: Repo) -> None:
    old = seed(repo)
    reformatted = {f"src/mod{i}.py": old[f"src/mod{i}.py"].replace(" = ", "=").replace(", ", ",\n    ") for i in range(5)}
    land(repo, "style: run the formatter (#301)", dict(reformatted))
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: stale formatting", {**{p: old[p] for p in reformatted}, "kernel.c": "int q;\n"}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and [f["severity"] for f in report["findings"]] == ["notice"]
    assert all("formatting only" in e["detail"] for e in report["findings"][0]["evidence"])


SPAN = '<span className="{}"></span>\n'
PAGE = "export function Ping() {\n  return (\n" + "".join(f"    <Row{i} />\n" for i in range(6)) + "    SPAN  );\n}\n"


@pytest.mark.parametrize(("stale", "severity"), [
    # formbricks' branches formatted under two prettier-plugin-tailwindcss configurations: class lists re-sorted
    ("animate-ping absolute inline-flex h-full w-full rounded-full", "notice"),
    ("animate-ping absolute inline-flex h-full w-full rounded-md", "error"),  # a class changed, not re-sorted
])
def test_a_class_list_only_re_sorted_by_a_formatter_is_cosmetic(repo: Repo, stale: str, severity: str) -> None:
    seed(repo)
    land(repo, "feat: ping", {"src/Ping.tsx": PAGE.replace("SPAN", SPAN.format(stale))})
    sorted_ = "absolute inline-flex h-full w-full animate-ping rounded-full"
    land(repo, "fix: add the Tailwind config for Prettier (#301)", {"src/Ping.tsx": PAGE.replace("SPAN", SPAN.format(sorted_)),
                                                                   ".prettierrc.js": "module.exports = {};\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: stale copy", {"src/Ping.tsx": PAGE.replace("SPAN", SPAN.format(stale)), "kernel.c": "int q;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


CARD = ('<androidx.cardview.widget.CardView\n    android:layout_width="match_parent"\n    ATTRIBUTES\n'
        '  <TextView android:id="@+id/title" />\n</androidx.cardview.widget.CardView>\n')


@pytest.mark.parametrize(("stale", "severity"), [
    # oppia-android's: the IDE arranged a card's attributes one way, a later layout the other
    ('app:cardElevation="4dp"\n    app:cardCornerRadius="4dp">', "notice"),
    ('app:cardElevation="4dp"\n    app:cardCornerRadius="8dp">', "error"),  # a value put back, not an order
])
def test_markup_attributes_only_reordered_are_cosmetic(repo: Repo, stale: str, severity: str) -> None:
    seed(repo)
    land(repo, "feat: topic card", {"res/layout/card.xml": CARD.replace("ATTRIBUTES", stale)})
    arranged = 'app:cardCornerRadius="4dp"\n    app:cardElevation="4dp">'
    land(repo, "Fix #1152: thumbnails (#301)", {"res/layout/card.xml": CARD.replace("ATTRIBUTES", arranged),
                                                "src/mod1.py": body("thumb", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: stale card", {"res/layout/card.xml": CARD.replace("ATTRIBUTES", stale), "kernel.c": "int q;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_rolling_back_a_comma_moved_inside_quotes_is_no_formatting(repo: Repo) -> None:
    """click's shape: `('t,' '1')` fixed to `('t', '1')` (a typo that glued two strings) and put back by a
    stale copy. Only a formatter's commas (trailing ones) and quote style are cosmetic."""
    old = seed(repo)
    typo = old["src/mod1.py"] + "TRUTHY = ('true', 't,' '1', 'yes')\n"
    land(repo, "feat: truthy strings", {"src/mod1.py": typo})
    land(repo, "Fix a typo (#301)", {"src/mod1.py": typo.replace("'t,' '1'", "'t', '1'")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: stale truthy", {"src/mod1.py": typo, "kernel.c": "int q;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error", report


def test_rolling_back_trailing_commas_and_quote_style_is_cosmetic(repo: Repo) -> None:
    old = seed(repo)
    plain = old["src/mod1.py"] + "TRUTHY = ('true', 't', '1', 'yes')\n"
    land(repo, "feat: truthy strings", {"src/mod1.py": plain})
    formatted = plain.replace("TRUTHY = ('true', 't', '1', 'yes')", 'TRUTHY = (\n    "true",\n    "t",\n    "1",\n    "yes",\n)')
    land(repo, "style: run the formatter (#301)", {"src/mod1.py": formatted})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: stale formatting", {"src/mod1.py": plain, "kernel.c": "int q;\n"}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice", report
    assert "formatting only" in by_pr(report)[301]["evidence"][0]["detail"]


def test_cleaning_up_files_of_the_initial_import(repo: Repo) -> None:
    seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: drop the scaffolding", {f"src/mod{i}.py": None for i in range(20)}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_conflicting_branch_cannot_undo_main_commits_it_never_had(repo: Repo) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "main")
    fix = land(repo, "fix: the loader (#301)", {"src/mod1.py": old["src/mod1.py"] + body("fix", 4)})
    land(repo, "feat: loader v2 (#302)", {"src/mod1.py": old["src/mod1.py"] + body("fix", 4) + body("v2", 6)})
    land(repo, "kernel: tune (#303)", {"kernel.c": "int main_side;\n"})
    repo.git("checkout", "-q", "topic")
    repo.git("cherry-pick", fix)
    land(repo, "kernel: mine", {"kernel.c": "int topic_side;\n"}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert report["approximate"] is True
    assert code == 0 and report["findings"] == []


def test_restoring_what_a_silent_revert_lost_is_not_a_revert(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)}
    land(repo, "feat: fused prep (#221)", dict(new))
    land(repo, "kernel: restructure (#224)", {**{p: old[p] for p in new}, "kernel.c": "int k;\n"}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix: bring the prep fusion back", dict(new), author=BOB)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


@pytest.mark.parametrize(("subject", "severity"), [
    ("ci: run the tests on all branches", "notice"),  # the lost commit's own title: its work redone
    ("ci: faster runners", "error"),  # says nothing of it: a file put back over #302
])
def test_redoing_a_commit_a_rewrite_lost_under_its_title(repo: Repo, subject: str, severity: str) -> None:
    # benchmark's `Run build-and-test on all branches`, redone the same day after a branch rename rewrote its
    # lines away (not an exact undo, so #302 was no silent revert to repair): the file is #301's version again
    seed(repo)
    ci = "on:\n  push:\n    branches: [{}]\n  pull_request:\n    branches: [{}]\njobs:\n  test:\n    runs-on: ubuntu\n"
    land(repo, "ci: workflow", {".github/workflows/ci.yml": ci.format("master", "master")})
    everywhere = "on:\n  push: {}\n  pull_request: {}\njobs:\n  test:\n    runs-on: ubuntu\n"
    land(repo, "ci: run the tests on all branches (#301)", {".github/workflows/ci.yml": everywhere}, author=BOB)
    land(repo, "Rename master to main (#302)", {".github/workflows/ci.yml": ci.format("main", "main"),
                                                "docs/releasing.md": "Release from main.\n"}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {".github/workflows/ci.yml": everywhere, "kernel.c": "int t;\n"}, author=BOB)
    finding = by_pr(check(repo, "main..topic")[1])[302]
    assert finding["severity"] == severity, finding["reason"]


def test_bringing_back_lines_a_silent_revert_removed_is_not_a_revert(repo: Repo) -> None:
    old = seed(repo)
    tests = old["src/mod1.py"] + body("tests", 12)
    land(repo, "test: many tests (#221)", {"src/mod1.py": tests})
    land(repo, "kernel: restructure (#224)", {"src/mod1.py": "# kernel v2\n" + old["src/mod1.py"]}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "test: restore the lost tests", {"src/mod1.py": "# kernel v2\n" + tests + "check_restored = 1\n"}, author=BOB)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


@pytest.mark.parametrize("marker", ["# noqa: E721", "# ty: ignore[call-non-callable]", "# pyre-fixme[6]",
                                    "# fmt: skip", "# pragma: no cover"])
def test_a_rollback_of_lint_markers_only_is_cosmetic(repo: Repo, marker: str) -> None:
    old = seed(repo)
    marked = old["src/mod1.py"].replace("\n", f"  {marker}\n", 3)
    land(repo, "chore: silence E721 after the ruff bump (#301)", {"src/mod1.py": marked})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Allow using type() in tests", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "notice" and "formatting only" in finding["evidence"][0]["detail"]


def test_lint_markers_taken_out_with_whitespace_changes_are_cosmetic(repo: Repo) -> None:
    """pydantic-core's shape: the change drops #301's `# noqa: E721` and re-indents a line, so the file
    equals its old version only ignoring whitespace: still only lint markers."""
    old = seed(repo)
    marked = old["src/mod1.py"].replace("scale=21)\n", "scale=21)  # noqa: E721\n")
    land(repo, "chore: silence E721 after the ruff bump (#301)", {"src/mod1.py": marked})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Allow using type() in tests", {"src/mod1.py": old["src/mod1.py"].replace("scale=7)", "scale=7)  "),
                                               "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "notice" and "formatting only" in finding["evidence"][0]["detail"], finding


def _imports_rolled_back(repo: Repo, code_too: bool) -> dict[str, str]:
    """rich's shape: #301 (pycln) prunes an import; the change puts the file back, import and all."""
    old = seed(repo)
    text = "from types import FrameType\nfrom ipython import load_extension\n" + old["src/mod1.py"]
    land(repo, "chore: imports", {"src/mod1.py": text})
    pruned = text.replace("from types import FrameType\n", "")
    land(repo, "chore: pycln (#301)", {"src/mod1.py": pruned.replace("scale=7)", "scale=8)") if code_too else pruned})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Return IPython extension", {"src/mod1.py": text, "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    return {"severity": finding["severity"], "reason": finding["reason"]}


def test_a_rollback_of_import_lines_only_is_weak(repo: Repo) -> None:
    assert _imports_rolled_back(repo, code_too=False) == {"severity": "notice", "reason": "imports only"}


def test_import_lines_of_a_document_are_its_example_and_count(repo: Repo) -> None:
    # starlette's `Add missing Middleware import` in docs/middleware.md: a reader copies the example whole,
    # so the import a stale copy takes out again breaks it
    seed(repo)
    example = "# Middleware\n\n```python\n{}from starlette.applications import Starlette\n```\n\nMore prose here.\n"
    land(repo, "docs: middleware", {"docs/middleware.md": example.format("")})
    land(repo, "Add missing Middleware import (#301)",
         {"docs/middleware.md": example.format("from starlette.middleware import Middleware\n")}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Tune the kernel", {"docs/middleware.md": example.format(""), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "error", finding["reason"]


def test_a_rollback_of_imports_and_code_fails(repo: Repo) -> None:
    assert _imports_rolled_back(repo, code_too=True)["severity"] == "error"


@pytest.mark.parametrize(("uses", "severity"), [
    ("def pause(self):\n    for each in chain(self.consumers, self.workers):\n        each.pause()\n", "notice"),
    ("def pause(self):\n    for each in self.consumers:\n        each.pause()\n", "warning"),  # no new use
])
def test_an_import_pruned_then_brought_back_for_new_uses(repo: Repo, uses: str, severity: str) -> None:
    # dramatiq's `from itertools import chain`: #301 rewrote stop() and pruned the import left unused; the
    # change puts it back for its new pause(), which calls chain again; #301's rewrite stands
    old = seed(repo)
    text = "import os\nfrom itertools import chain\n" + old["src/mod1.py"] + "def stop(self):\n    for each in chain(self.a, self.b):\n        each.stop()\n"
    land(repo, "chore: worker", {"src/mod1.py": text})
    rewritten = text.replace("from itertools import chain\n", "").replace(
        "    for each in chain(self.a, self.b):\n        each.stop()\n", "    for each in self.b:\n        each.join_all()\n")
    land(repo, "fix(worker): stop and join worker threads before consumers (#301)", {"src/mod1.py": rewritten})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: pause and resume", {"src/mod1.py": rewritten.replace("os\n", "os\nfrom itertools import chain\n") + uses,
                                          "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("before", "after", "severity"), [
    ("FrameType, ModuleType, TracebackType", "ModuleType, TracebackType", "notice"),  # rich's pycln prune
    ("ModuleType", "FrameType, ModuleType", "notice"),  # a name re-added
    ("FrameType, ModuleType", "ModuleType, TracebackType", "error"),  # a name replaced: a fix like any other
])
def test_a_name_pruned_from_a_from_import_is_weak(repo: Repo, before: str, after: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "chore: imports", {"src/mod1.py": f"from types import {before}\n" + old["src/mod1.py"]})
    land(repo, "chore: imports again (#301)", {"src/mod1.py": f"from types import {after}\n" + old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": f"from types import {before}\n" + old["src/mod1.py"],
                                "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_a_rollback_of_a_fixed_import_fails(repo: Repo) -> None:
    # `Fix the build in python 2.6: speeling error` corrected an import: undoing it breaks the build
    old = seed(repo)
    land(repo, "chore: imports", {"src/mod1.py": "from ordereddict import OrderdDict\n" + old["src/mod1.py"]})
    land(repo, "Fix the build: speeling error (#301)", {"src/mod1.py": "from ordereddict import OrderedDict\n" + old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": "from ordereddict import OrderdDict\n" + old["src/mod1.py"],
                                "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


def test_a_rollback_that_also_changes_code_behind_a_marker_is_not_cosmetic(repo: Repo) -> None:
    old = seed(repo)
    marked = old["src/mod1.py"].replace("\n", "  # noqa: E721\n", 1).replace("value", "other_value", 1)
    land(repo, "chore: silence E721 after the ruff bump (#301)", {"src/mod1.py": marked})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Allow using type() in tests", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


@pytest.mark.parametrize(("edited", "severity"), [
    ("#[allow(\n    clippy::needless_lifetimes,\n    non_upper_case_globals,\n    unused_attributes,\n)]\n", "notice"),
    ("#[allow(non_upper_case_globals, unused_attributes)]\n#[inline]\n", "error"),  # an attribute of code too
])
def test_a_rollback_of_a_rust_lint_list_is_cosmetic(repo: Repo, edited: str, severity: str) -> None:
    # serde's `Ignore needless_lifetimes clippy lint in generated code`, taken back by its author's root fix
    seed(repo)
    code = "const _: () = {\n    use_serde();\n    generated_code();\n};\n"
    land(repo, "derive: dummy", {"src/dummy.rs": "#[allow(non_upper_case_globals, unused_attributes)]\n" + code})
    land(repo, "Ignore needless_lifetimes clippy lint in generated code (#301)", {"src/dummy.rs": edited + code})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Reduce scope of quote_spanned", {"src/dummy.rs": "#[allow(non_upper_case_globals, unused_attributes)]\n" + code,
                                                 "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("marked", "severity"), [
    ("default=u' hello'\nlabel(u'name')\n", "notice"),  # wtforms: u'' prefixes dropped under unicode_literals
    ("default=u' hallo'\nlabel(u'name')\n", "error"),  # a value changed with them: the fix is undone
])
def test_a_rollback_of_python2_unicode_prefixes_is_cosmetic(repo: Repo, marked: str, severity: str) -> None:
    seed(repo)
    plain = "default=' hello'\nlabel('name')\n"
    land(repo, "fields: defaults", {"src/fields.py": plain + "raw_data = ['v']\n"})
    land(repo, "fix unicode defaults (#301)", {"src/fields.py": marked + "raw_data = ['v']\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Python 3 compatibility", {"src/fields.py": plain + "raw_data = ['v']\n", "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("translated", "found"), [
    # heroic's locale: Weblate writes the narrow space out, the i18n extractor escapes it again: one string
    ('"Voulez-vous jouer\u202f?"', False),
    ('"Voulez-vous vraiment jouer ?"', True),  # the translator's new wording, put back
])
def test_a_string_escaped_or_written_out_is_the_same_string(repo: Repo, translated: str, found: bool) -> None:
    seed(repo)
    locale = '{\n  "title": "Jouer",\n  "question": QUESTION,\n  "quit": "Quitter"\n}\n'
    escaped = locale.replace("QUESTION", '"Voulez-vous jouer\\u202f?"')
    land(repo, "i18n: french", {"public/locales/fr/gamepage.json": escaped})
    land(repo, "[i18n] Updated Translations (#301)",
         {"public/locales/fr/gamepage.json": locale.replace("QUESTION", translated)}, author="Weblate <noreply@weblate.org>")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: launcher options", {"public/locales/fr/gamepage.json": escaped, "kernel.c": "int t;\n"}, author=CAROL)
    report = by_pr(check(repo, "main..topic")[1])
    assert (report.get(301, {}).get("severity") in ("warning", "error")) is found, report.get(301)


@pytest.mark.parametrize(("typo", "found"), [
    (False, False),  # testfx' localization bot writes the mark back, #301's text kept
    (True, True),  # and #301's fix with it: a stale copy
])
def test_a_byte_order_mark_written_or_dropped_is_formatting(repo: Repo, typo: bool, found: bool) -> None:
    seed(repo)
    body_ = "".join(f'  <trans-unit id="u{i}"><source>Text {i}</source></trans-unit>\n' for i in range(6))
    marked = '\ufeff<?xml version="1.0" encoding="utf-8"?>\n<xliff>\n' + body_ + "</xliff>\n"
    land(repo, "loc: strings", {"src/Resources/xlf/Strings.cs.xlf": marked.replace("Text 3", "Txet 3")})
    land(repo, "Strip BOMs, fix a typo (#301)", {"src/Resources/xlf/Strings.cs.xlf": marked.replace("\ufeff", ""),
                                                 "src/mod1.py": body("bom", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Localized file check-in", {"src/Resources/xlf/Strings.cs.xlf": marked.replace("Text 3", "Txet 3") if typo
                                           else marked, "kernel.c": "int t;\n"}, author=CAROL)
    report = by_pr(check(repo, "main..topic")[1])
    assert (report.get(301, {}).get("severity") in ("warning", "error")) is found, report.get(301)


INSTALL = "#!/bin/sh\nset -e\n" + "".join(f"python -m pip install --upgrade package_{i}\n" for i in range(8))


@pytest.mark.parametrize(("comment", "whole", "severity"), [
    # mne's `Install SciPy pre` taking out the pin its comment dated
    ("# Until https://github.com/acme/solver/issues/33616 is fixed\n", False, "notice"),
    ("# TODO: remove this pin when the solver has a release supporting NumPy 2\n", True, "notice"),
    ("# Temporary workaround for the flaky mirror\n", False, "notice"),
    ("# the solver's wheels are built against this release\n", False, "warning"),  # no end in sight: a pin like any
    ("# the solver's wheels are built against this release\n", True, "error"),
])
def test_a_workaround_its_comment_calls_temporary_taken_out_is_a_notice(repo: Repo, comment: str, whole: bool,
                                                                       severity: str) -> None:
    old = seed(repo)
    land(repo, "ci: install script", {"tools/install.sh": INSTALL})
    pinned = INSTALL.replace("package_3\n", "package_3\n" + comment + 'python -m pip install "solver==1.17.1"\n')
    land(repo, "ci: pin the solver (#301)", {"tools/install.sh": pinned, "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    script = INSTALL if whole else INSTALL + "echo \"the environment is ready\"\n"
    land(repo, "ci: install the solver's pre-release", {"tools/install.sh": script, "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("version", "found"), [
    ("5.3.0-SNAPSHOT", False),  # openhab's spotless run after the release plugin: the header split again
    ("5.2.0-SNAPSHOT", True),  # and the version set back with it: a stale copy
])
def test_an_xml_declarations_default_standalone_is_formatting(repo: Repo, version: str, found: bool) -> None:
    seed(repo)
    split = ('<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"\n'
             '    xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">\n')
    joined = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?><project xmlns="http://maven.apache.org/POM/4.0.0" '
              'xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">\n')
    pom = "\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>core-reactor</artifactId>\n  <version>VERSION</version>\n</project>\n"
    land(repo, "build: poms", {f"{m}/pom.xml": split + pom.replace("VERSION", "5.2.0-SNAPSHOT") for m in ("bom", "core")})
    land(repo, "[unleash-maven-plugin] Preparation for next development cycle.",
         {f"{m}/pom.xml": joined + pom.replace("VERSION", "5.3.0-SNAPSHOT") for m in ("bom", "core")}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Prepare for 5.3.0: fix spotless after unleash",
         {**{f"{m}/pom.xml": split + pom.replace("VERSION", version) for m in ("bom", "core")}, "kernel.c": "int t;\n"},
         author=CAROL)
    findings = check(repo, "main..topic")[1]["findings"]
    assert any(f["severity"] in ("warning", "error") for f in findings) is found, findings


@pytest.mark.parametrize(("was", "severity"), [
    ("    public static function {name}($x)\n", "notice"),  # phpBB's guideline change: the same declarations
    ("    public function {name}($x)\n", "error"),  # `static` itself taken back: the methods change kind
])
def test_declaration_modifiers_put_back_in_another_order_lose_nothing(repo: Repo, was: str, severity: str) -> None:
    seed(repo)
    def source(line: str, name: str) -> str:
        body_lines = "".join(f"        $step{i} = $x * {i};\n" for i in range(6))
        return f"<?php\nclass {name.title()}\n{{\n{line.format(name=name)}    {{\n{body_lines}        return $x;\n    }}\n}}\n"
    names = ("helper", "factory", "formatter")
    land(repo, "classes", {f"phpBB/phpbb/{n}.php": source(was, n) for n in names})
    land(repo, "[ticket/16736] Fix static declarations on master (#301)",
         {f"phpBB/phpbb/{n}.php": source("    static public function {name}($x)\n", n) for n in names}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "[ticket/16748] Adjust coding guidelines", {f"phpBB/phpbb/{n}.php": source(was, n) for n in names} |
         {"kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "line", "severity"), [
    ("Remove commented code", "    //this.bounce(DSN.addr_bad_dest_system());\n    //return conn.next();\n", "notice"),  # Haraka's
    ("Remove commented code", "    this.bounce(DSN.addr_bad_dest_system());\n    return conn.next();\n", "warning"),  # code
    ("Tidy the bounce path", "    //this.bounce(DSN.addr_bad_dest_system());\n    //return conn.next();\n", "warning"),
])
def test_comment_lines_taken_out_under_a_title_that_says_it_removes_comments(repo: Repo, subject: str, line: str,
                                                                           severity: str) -> None:
    old = seed(repo)
    code = "function bounce(conn) {\n" + "".join(f"    step{i}(conn);\n" for i in range(20)) + "}\n"
    land(repo, "feat: bounce", {"src/bounce.js": code})
    land(repo, "Bounce unknown recipients (#301)", {"src/bounce.js": code.replace("    step3(conn);\n", "    step3(conn);\n" + line),
                                                    "src/mod2.py": old["src/mod2.py"] + "BOUNCE = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/bounce.js": code.replace("    step16(conn);\n", "    step16(conn, true);\n"), "kernel.c": "int t;\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]
