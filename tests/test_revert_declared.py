"""Declared findings are reported, never failing; a bare #N is not a declaration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from leverguard.revert.hunks import RELAND_COMMITS
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, check_cli, land, merge_pr, seed


def _story(repo: Repo, message: str) -> str:
    old = seed(repo)
    sha = land(repo, "feat(prep): fused prep kernels (#221)",
               {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, message.replace("SHA", sha), {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    return sha


@pytest.mark.parametrize("message", [
    'Revert "feat(prep): fused prep kernels (#221)"\n\nThis reverts commit SHA.',
    "kernel: restructure\n\nAlso roll back #221: it broke the decode path.",
    "kernel: restructure\n\nBacks out SHA-ish change; see SHA.",
    'kernel: restructure\n\nUndo "feat(prep): fused prep kernels (#221)" until the fix lands.',
    "kernel: restructure\n\nLeverguard-Revert-Ack: #221",
    "revert: the prep fusion\n\nReverts team/repo#221",
    "revert: the prep fusion\n\nIt broke decode.\n\nRefs: SHA",
    "fix(deploy): wrong values rendered (many reverts)\n\nThis reverts commits:\n0123abcd4567ef\nSHA\n",  # werf's list
    "[Web] Remove SHA, fixes #3926",  # mailcow's: a commit removed by its id
    "[skip ci] Reverted Bob's change to the kernels, it broke the docker build.",  # Kavita's: whose change, by name
])
def test_declarations_make_the_finding_informational(repo: Repo, message: str) -> None:
    _story(repo, message)
    code, report = check(repo, "main..topic", "--strict")
    finding = by_pr(report)[221]
    assert code == 0 and finding["declared"] is True and finding["severity"] == "info"
    assert finding["silent_severity"] == "error"


@pytest.mark.parametrize("message", [
    "kernel: restructure (#224)\n\n* fused prep kernels (#221)\n* kernel cleanup",
    "kernel: restructure\n\nThis builds on SHA but reworks the kernel.",
    "kernel: restore the old kernel launch order\n\nRelated: #219",
    "kernel: restructure\n\nRefs: SHA",
    "kernel: restructure\n\nBuilt on these commits:\nSHA\n",  # a list of ids under no revert wording
    "kernel: restructure\n\nRemoved the cache that SHA had kept warm.",  # a removal of something else
    "kernel: restructure\n\nRemove 1234567 stale rows from the fixture.",  # a number, no commit id
    "kernel: restructure on top of Bob's change to the kernels",  # no revert wording
])
def test_mentions_without_revert_wording_on_the_same_line_are_not_declarations(repo: Repo, message: str) -> None:
    _story(repo, message)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[221]["declared"] is False


@pytest.mark.parametrize("message", [
    "[skip ci] Reverted Dave's change to the kernels",  # someone else's change
    "kernel: restructure\n\nRestored Bob's change to the kernels.",  # brought back, not taken out
])
def test_a_revert_of_someone_elses_change_by_name_declares_none_of_this_one(repo: Repo, message: str) -> None:
    _story(repo, message)
    assert by_pr(check(repo, "main..topic")[1])[221]["declared"] is False


def test_pr_body_and_overrides_declare(repo: Repo, tmp_path: Path) -> None:
    sha = _story(repo, "kernel: restructure")
    assert check(repo, "main..topic", pr_body="This PR intentionally reverts #221 (perf regression).")[0] == 0
    assert check(repo, "main..topic", extra_declared=(sha[:8],))[0] == 0
    assert check(repo, "main..topic", extra_declared=("#221",))[0] == 0
    body_file = tmp_path / "body.md"
    body_file.write_text("Rolls back #221, which regressed decode.\n", encoding="utf-8")
    code, report = check_cli(repo, "main..topic", "--pr-body", str(body_file))
    assert code == 0 and report["findings"][0]["declared"] is True


def test_own_pr_number_is_skipped(repo: Repo) -> None:
    _story(repo, "kernel: restructure")
    code, report = check(repo, "main..topic", own_pr=221)
    assert code == 0 and report["findings"] == []


def _revert_undone(repo: Repo, subject: str, window: int | None = None,
                   original: str = "feat: feature") -> tuple[int, dict]:
    """#301 adds a feature (titled ORIGINAL), #302 reverts it, and a topic under SUBJECT puts the feature back."""
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, f"{original} (#301)", {"src/mod1.py": new})
    land(repo, f'Revert "{original} (#301)" (#302)', {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict", **({"window": window} if window else {}))
    return code, by_pr(report).get(302, {"severity": "none", "explanation": ""})


def test_undoing_a_revert_without_a_word_is_a_silent_revert(repo: Repo) -> None:
    # a tree from before the revert puts the reverted work back: the revert is what gets undone
    # (rq's stale test file undoing `Revert "Jobs that are run synchronously ..."`)
    code, finding = _revert_undone(repo, "kernel: tune")
    assert code == 1 and finding["severity"] == "error"
    # its repair re-applies the revert: the hint says what that takes out (alembic's re-landed fix)
    assert "itself a revert" in finding["repair_note"] and finding["repair"]


def test_a_repair_of_ordinary_work_carries_no_note(repo: Repo) -> None:
    _story(repo, "kernel: restructure")
    finding = by_pr(check(repo, "main..topic")[1])[221]
    assert finding["repair"] and finding["repair_note"] == ""


def test_a_re_land_under_the_reverted_subject_is_explained(repo: Repo) -> None:
    code, finding = _revert_undone(repo, "feat: feature (#303)")
    assert code == 0 and finding["severity"] == "info" and "re-land" in finding["explanation"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("feat: feature - Take 2", "info"),  # 86Box's re-land, its revert merged in with master
    ("feat: feature", "info"),
    ("kernel: tune", "error"),  # no title of the reverted work: a stale tree from before the revert
])
def test_a_re_land_of_work_a_merge_brought_a_revert_of_is_explained(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, "feat: feature (#301)", {"src/mod1.py": new})
    repo.git("checkout", "-q", "-b", "upstream")
    land(repo, 'Revert "feat: feature (#301)"', {"src/mod1.py": old["src/mod1.py"]}, author=BOB)
    repo.git("checkout", "-q", "main")
    for i in range(RELAND_COMMITS + 1):  # not a merge silently undoing the commit just before: a re-land itself
        land(repo, f"docs: notes {i}", {"docs/notes.md": f"notes {i}\n"})
    repo.git("merge", "--no-ff", "-q", "upstream", "-m", "Merge branch 'master' of https://example.com/team/repo")
    merged = repo.head()
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    report = check(repo, "main..topic", "--strict")[1]
    finding = next(f for f in report["findings"] if f["commit"] == merged)
    assert finding["severity"] == severity
    assert ("re-land" in finding["explanation"]) is (severity == "info")


def test_a_merge_holding_the_work_and_its_revert_is_no_revert_to_re_land(repo: Repo) -> None:
    # EC-CUBE's: #3287's branch took back a change of another issue it held, and merged its own fix; the other
    # issue's PR, titled as that change, then put the fix's file back: the fix is what it undoes
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "upstream")
    land(repo, "Show the order number", {"src/mod3.py": old["src/mod3.py"] + body("order", 3)}, author=DAVE)
    land(repo, 'Revert "Show the order number"', {"src/mod3.py": old["src/mod3.py"]}, author=DAVE)
    land(repo, "Absolute URLs in the activation mail", {"src/mod1.py": old["src/mod1.py"] + body("url", 4)}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merged = merge_pr(repo, "upstream", 301, "Absolute URLs in the activation mail")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Show the order number", {"src/mod1.py": old["src/mod1.py"], "src/mod3.py": old["src/mod3.py"] + body("order", 3)},
         author=DAVE)
    finding = next(f for f in check(repo, "main..topic")[1]["findings"] if f["commit"] == merged)
    assert finding["severity"] == "error" and "re-land" not in finding["explanation"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("Update SDL to 3.4.0", "info"),  # rpcs3's: the reverted update again, past the one landed after its revert
    ("kernel: tune", "error"),  # a tree from before the revert, titled otherwise
])
def test_a_re_land_past_the_revert_explains_what_it_rolls_over(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "Update SDL to 3.4.0 (#301)", {"deps/sdl.txt": "sdl 3.4.0\n" + body("sdl34", 4)})
    land(repo, 'Revert "Update SDL to 3.4.0 (#301)" (#302)', {"deps/sdl.txt": None})
    land(repo, "Update SDL to 3.2.30 (#303)", {"deps/sdl.txt": "sdl 3.2.30\n" + body("sdl32", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"deps/sdl.txt": "sdl 3.4.0\n" + body("sdl34", 4), "kernel.c": old["kernel.c"] + "int t;\n"},
         author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert by_pr(report)[303]["severity"] == severity and (code == 0) is (severity == "info")


def test_a_re_land_said_in_words_is_explained(repo: Repo) -> None:
    code, finding = _revert_undone(repo, "Reland the feature, fixed")
    assert code == 0 and finding["severity"] == "info" and "re-land" in finding["explanation"]


def test_a_re_land_said_in_words_is_explained_with_the_original_outside_the_window(repo: Repo) -> None:
    code, finding = _revert_undone(repo, "Reland the feature, fixed", window=1)
    assert code == 0 and finding["severity"] == "info" and "re-land" in finding["explanation"]


def test_the_same_branch_merged_again_after_its_revert_is_a_re_land(repo: Repo) -> None:
    # marshmallow's type hints: merged, reverted with git's body citing the merge, merged back from the
    # same PR branch; the revert names its commit, which makes it no repair
    old = seed(repo)
    hints = old["src/mod1.py"] + body("hints", 5)
    repo.git("checkout", "-q", "-b", "type_hints")
    land(repo, "Use type hints", {"src/mod1.py": hints}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merged = merge_pr(repo, "type_hints", 301, "Use type hints")
    land(repo, f'Revert "Merge pull request #301 from team/type_hints"\n\nThis reverts commit {merged}.',
         {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    repo.git("checkout", "-q", "-B", "type_hints")  # the branch again, on top of the revert
    land(repo, "Use type hints, rebased", {"src/mod1.py": hints}, author=DAVE)
    repo.git("checkout", "-q", "topic")
    merge_pr(repo, "type_hints", 305, "Use type hints")
    code, report = check(repo, "main..topic", "--strict")
    reverted = [f for f in report["findings"] if f["subject"].startswith("Revert")]
    assert code == 0 and reverted and all(f["severity"] == "info" and "re-land" in f["explanation"] for f in reverted)


@pytest.mark.parametrize(("subject", "severity"), [
    # jgit's: Gerrit submits the revert as `Merge "Revert "X""`; the change is pushed again under X
    ("Adds FilteredRevCommit that can overwrite its parents", "info"),
    # another subject: a stale tree from before the revert (read as no revert, the merge was a silent undo
    # itself and the work's return its repair)
    ("revwalk: more tests", "error"),
])
def test_a_gerrit_merge_of_a_revert_undone_under_the_reverted_subject(repo: Repo, subject: str,
                                                                      severity: str) -> None:
    old = seed(repo)
    new = old["src/mod1.py"] + body("filtered", 5)
    land(repo, "Adds FilteredRevCommit that can overwrite its parents", {"src/mod1.py": new}, author=DAVE)
    repo.git("checkout", "-q", "-b", "revert")
    land(repo, 'Revert "Adds FilteredRevCommit that can overwrite its parents"', {"src/mod1.py": old["src/mod1.py"]},
         author=BOB)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "revert", "-m", 'Merge "Revert "Adds FilteredRevCommit that can overwrite its parents""')
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    (finding,) = [f for f in check(repo, "main..topic")[1]["findings"] if f["subject"].startswith("Merge")]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "author", "severity"), [
    ("Only avoid pointer casts when using miri (#545)", BOB, "info"),  # bytes': the pushed commit re-landed by PR
    ("kernel: tune (#545)", CAROL, "error"),  # another subject: a stale tree from before the revert
    ("kernel: tune (#545)", BOB, "notice"),  # unsaid, by who wrote the reverted work: a re-land
])
def test_a_re_land_of_a_commit_its_revert_names_by_hash(repo: Repo, subject: str, author: str, severity: str) -> None:
    old = seed(repo)
    new = old["src/mod1.py"] + body("miri", 5)
    pushed = land(repo, "Only avoid pointer casts when using miri", {"src/mod1.py": new}, author=BOB)
    land(repo, f"Revert accidental push directly to master\n\nThis reverts commit {pushed}.",
         {"src/mod1.py": old["src/mod1.py"]}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=author)
    (finding,) = [f for f in check(repo, "main..topic")[1]["findings"] if f["subject"].startswith("Revert")]
    assert finding["severity"] == severity


@pytest.mark.parametrize(("form", "subject", "author", "severity"), [
    # Google's exports: a rollback naming the commit's URL, rolled forward under the original's subject
    ("Rollback of https://github.com/google/dagger/commit/{sha}", "Fix nullability in KSP (#545)", BOB, "info"),
    ("Automated rollback of commit {sha}.", "Roll forward with fixes and an extra test.", BOB, "info"),
    ("Automated rollback of commit {sha}.", "kernel: tune", CAROL, "error"),  # a stale tree from before the rollback
    ("Automated rollback of commit {sha}.", "kernel: tune", BOB, "notice"),  # its author rolling forward, unsaid
])
def test_googles_rollback_and_roll_forward_forms(repo: Repo, form: str, subject: str, author: str,
                                                 severity: str) -> None:
    old = seed(repo)
    new = old["src/mod1.py"] + body("ksp", 5)
    pushed = land(repo, "Fix nullability in KSP", {"src/mod1.py": new}, author=BOB)
    land(repo, form.format(sha=pushed), {"src/mod1.py": old["src/mod1.py"]}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=author)
    (finding,) = [f for f in check(repo, "main..topic")[1]["findings"] if "ollback" in f["subject"]]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    # facebook-ios-sdk's Phabricator backout, and its redo once the server side was fixed
    ("Redo [PKCE] Add code verifier to loginButton", "info"),
    ("kernel: tune", "error"),  # a stale tree from before the backout
])
def test_a_phabricator_backout_is_a_revert_and_its_redo_a_re_land(repo: Repo, subject: str, severity: str) -> None:
    finding = _reverted_then_put_back(repo, "Add code verifier to loginButton",
                                      'Back out "Add code verifier to loginButton"\n\nOriginal commit changeset: 65efa17bf74d\n',
                                      subject)
    assert finding["severity"] == severity, finding["reason"]


def _reverted_then_put_back(repo: Repo, original: str, revert: str, subject: str) -> dict:
    """ORIGINAL lands, a commit under the message REVERT takes it back, and a topic under SUBJECT puts it back:
    the topic's finding on the revert."""
    old = seed(repo)
    new = old["src/mod1.py"] + body("relanded", 5)
    land(repo, original, {"src/mod1.py": new}, author=BOB)
    reverting = land(repo, revert, {"src/mod1.py": old["src/mod1.py"]}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    (finding,) = [f for f in check(repo, "main..topic")[1]["findings"] if f["commit"] == reverting]
    return finding


@pytest.mark.parametrize(("subject", "text", "severity"), [
    # Symfony's merge tool: `bug #51157 [Contracts] Revert changes with 3.4 (nicolas-grekas)`, a revert by its title,
    # there of four commits at once
    ("bug #303 [Kernel] Revert the tuning (alice)", "This PR was merged into the 7.0 branch.", "notice"),
    ("bug #303 [Kernel] Fix the tuning (alice)", "This PR was merged into the 7.0 branch.", "error"),
    ("bug #303 [Kernel] Revert the tuning (alice)", "", "error"),  # not that tool's merge: no title read
])
def test_a_symfony_merge_subject_is_read_as_its_prs_title(repo: Repo, subject: str, text: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "[Kernel] Tune the scales (#301)", {"src/mod1.py": old["src/mod1.py"] + body("tune", 4)})
    land(repo, "[Kernel] Tune the limits (#302)", {"src/mod2.py": old["src/mod2.py"] + body("limit", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel: tune", {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"],
                                "kernel.c": "int t;\n"}, author=CAROL)
    repo.git("checkout", "-q", "-b", "landing", "main")
    repo.git("merge", "--no-ff", "-q", "topic", "-m", subject + ("\n\n" + text if text else ""))
    found = by_pr(check(repo, "main..landing")[1])
    assert (found[301]["severity"], found[302]["severity"]) == (severity, severity)


ICON = "[Button] Add support for a secondary icon.\n\nPiperOrigin-RevId: 859123237\n"


@pytest.mark.parametrize(("changelist", "declared"), [
    ("859123237", True),  # material-components-android's Copybara export: the changelist the commit recorded
    ("859000000", False),  # another changelist rolled back: this one is not declared
])
def test_a_rollback_of_a_mirrored_changelist_declares_the_commit_that_recorded_it(repo: Repo, changelist: str,
                                                                                  declared: bool) -> None:
    old = seed(repo)
    land(repo, ICON, {"src/mod1.py": old["src/mod1.py"] + body("icon", 5)}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f"Automated g4 rollback of changelist {changelist}\n\nPiperOrigin-RevId: 859205893\n",
         {"src/mod1.py": old["src/mod1.py"]}, author=DAVE)
    (finding,) = check(repo, "main..topic")[1]["findings"]
    assert finding["declared"] is declared, finding["reason"]
    assert (finding["severity"] in ("warning", "error")) is not declared


@pytest.mark.parametrize(("subject", "severity"), [
    (ICON, "info"),  # rolled forward under the original's subject: a re-land
    ("kernel: tune", "error"),  # a stale tree from before the rollback
])
def test_a_re_land_of_a_mirrored_changelist_rolled_back(repo: Repo, subject: str, severity: str) -> None:
    finding = _reverted_then_put_back(repo, ICON, "Automated g4 rollback of changelist 859123237\n\n"
                                      "PiperOrigin-RevId: 859205893\n", subject)
    assert finding["severity"] == severity, finding["reason"]


def _reverted_file_back(repo: Repo, subject: str) -> dict:
    old = seed(repo)
    land(repo, "docs: ad script (#301)", {"docs/_static/native.js": body("ads", 6)})
    land(repo, 'Revert "docs: ad script (#301)" (#302)', {"docs/_static/native.js": None})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"docs/_static/native.js": body("ads", 6), "src/mod1.py": old["src/mod1.py"] + "x = y(1)\n"},
         author=CAROL)
    return by_pr(check(repo, "main..topic", window=1)[1])[302]


def test_a_reverted_file_back_under_a_message_naming_it_is_a_re_land(repo: Repo) -> None:
    finding = _reverted_file_back(repo, "Integrate the Native ad units by BuySellAds")
    assert finding["severity"] == "info" and "re-land" in finding["explanation"]


def test_a_reverted_file_back_without_a_word_is_silent(repo: Repo) -> None:
    assert _reverted_file_back(repo, "docs: tidy the sidebar")["severity"] == "error"


def test_ack_file_at_base_silences_a_reviewed_finding(repo: Repo) -> None:
    _story(repo, "kernel: restructure")
    land(repo, "chore: acks", {".leverguard-acks": "# reviewed findings\n#221 reviewed with Bob: the fusion goes\n"})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[221]
    assert code == 0 and finding["declared"] is True and "reviewed with Bob" in finding["explanation"]


def test_gitlab_merge_request_numbers(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "Merge branch 'fusion' into 'main'\n\nFuse prep\n\nSee merge request team/repo!57",
         {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel", {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[57]["severity"] == "error"


@pytest.mark.parametrize(("message", "pr", "title"), [
    # Gitea's and Forgejo's merge button (Plume's history): the title in quotes, trailers in the body
    ("Merge pull request 'Fuse the prep passes' (#57) from fusion into main\n\nReviewed-on: "
     "https://git.example.org/team/repo/pulls/57\nReviewed-by: Dave <dave@example.com>", 57, "Fuse the prep passes"),
    ("Merge pull request 'Fuse the prep passes' from fusion into main", None, "Merge pull request 'Fuse the prep passes' "
     "from fusion into main"),  # no number: no PR, the subject its own title
])
def test_gitea_merge_request_numbers_and_titles(repo: Repo, message: str, pr: int | None, title: str) -> None:
    old = seed(repo)
    land(repo, message, {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "kernel", {f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(3)}, author=CAROL)
    _, report = check(repo, "main..topic")
    finding = report["findings"][0]
    assert (finding["pr"], finding["title"], finding["severity"]) == (pr, title, "error")


def _revert_button_undone(repo: Repo, revert_title: str, topic_title: str) -> tuple[int, dict]:
    """pip's shape: #301 lands the feature by a rebase (no number in its subject); GitHub's revert button
    merges branch `revert-301` as #302, titled REVERT_TITLE, whose commit quotes the feature's subject; the
    checked PR, by someone else, merges a branch titled TOPIC_TITLE that puts the feature back."""
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, "Warn on unexpected imports during install", {"src/mod1.py": new})
    repo.git("checkout", "-q", "-b", "revert-301")
    land(repo, 'Revert "Warn on unexpected imports during install"', {"src/mod1.py": old["src/mod1.py"]}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "revert-301", 302, revert_title)
    repo.git("checkout", "-q", "-b", "imports-2")
    land(repo, topic_title, {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic", "main")
    merge_pr(repo, "imports-2", 305, topic_title, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    return code, by_pr(report).get(302, {"severity": "none", "explanation": ""})


def test_a_re_land_of_what_a_revert_buttons_commit_quotes_is_explained(repo: Repo) -> None:
    code, finding = _revert_button_undone(repo, "Revert #301", "Warn on unexpected imports during install")
    assert code == 0 and finding["severity"] == "info" and "re-land" in finding["explanation"]


def test_other_work_putting_back_what_a_revert_button_took_out_is_silent(repo: Repo) -> None:
    code, finding = _revert_button_undone(repo, "Revert #301", "kernel: tune the prep loop")
    assert code == 1 and finding["severity"] == "error", (finding["severity"], finding["reason"], finding["explanation"])


def test_a_re_land_of_the_pr_a_revert_names_by_number_is_explained(repo: Repo) -> None:
    # `Revert #301` squashed (no quoted subject anywhere): the number finds #301's title in the window
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, "Warn on unexpected imports (#301)", {"src/mod1.py": new})
    land(repo, "Revert #301 (#302)", {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Warn on unexpected imports", {"src/mod1.py": new, "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic", "--strict")[1])[302]
    assert finding["severity"] == "info" and "re-land" in finding["explanation"]


@pytest.mark.parametrize(("text", "declared"), [
    ("some scratch tests got merged in {sha},\nrevert that part", True),  # sqlalchemy's: one sentence, wrapped
    ("merged in {sha},\n- revert the docs typo", False),  # a list item is its own line
    ("some scratch tests got merged in {sha}.\n\nTidy the rest.", False),  # no revert wording
])
def test_a_declaration_wrapped_after_a_comma(repo: Repo, text: str, declared: bool) -> None:
    old = seed(repo)
    sha = land(repo, "tests: free-threaded scratch tests (#301)", {"src/mod1.py": old["src/mod1.py"] + body("scratch", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "remove mis-applied patch\n\n" + text.format(sha=sha[:12]),
         {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["declared"] is declared


@pytest.mark.parametrize(("cited", "severity"), [(True, "notice"), (False, "error")])
def test_a_message_citing_a_commit_of_the_merged_pr(repo: Repo, cited: bool, severity: str) -> None:
    # pytest-cov's `fix regression from 8a17ab7`, a commit inside the merged PR it undoes part of
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "combine")
    inner = land(repo, "Only combine when not collocated", {"src/mod1.py": old["src/mod1.py"] + body("combine", 4),
                                                            "src/mod2.py": old["src/mod2.py"] + body("collocated", 4)},
                 author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "combine", 63, "Only combine when not collocated.")
    repo.git("checkout", "-q", "-b", "topic")
    cite = inner[:7] if cited else "0123abc"
    land(repo, f"fix regression from {cite}", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    (finding,) = check(repo, "main..topic")[1]["findings"]
    assert finding["severity"] == severity
    assert finding["title"] == "Only combine when not collocated." and finding["subject"].startswith("Merge pull request #63")


@pytest.mark.parametrize(("quoted", "declared"), [
    ("add executable arguments to spawn", True),  # the merged PR's own commit, by its subject
    ("add executable arguments to fork", False),  # another commit's subject: says nothing of this one
])
def test_a_revert_quoting_a_commit_inside_the_merged_pr(repo: Repo, quoted: str, declared: bool) -> None:
    # commander's release branch: merging master carried in `Revert "add executable arguments to spawn in
    # win32"`, whose subject is a commit inside the merge of #611 (git's revert button leaves no sha of it)
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "spawn")
    land(repo, "add executable arguments to spawn", {"src/mod1.py": old["src/mod1.py"] + body("spawn", 4)}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "spawn", 611, "Merge branch 'master' of github.com:fork/repo")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f'Revert "{quoted}"', {"src/mod1.py": old["src/mod1.py"]}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[611]
    assert finding["declared"] is declared and finding["severity"] == ("info" if declared else "notice")  # it says revert


@pytest.mark.parametrize(("said", "severity"), [
    ("Backing out the fix to #38 ({sha}).", "notice"),  # cachecontrol: the author finishes the back-out
    ("Tidying the fix to #38 ({sha}).", "error"),  # names it, says nothing of backing it out
])
def test_finishing_a_back_out_a_later_commit_declared(repo: Repo, said: str, severity: str) -> None:
    old = seed(repo)
    fix = land(repo, "feature - the amount of bytes cached (#38)", {"src/mod1.py": old["src/mod1.py"] + body("bytes", 5),
                                                                   "src/mod2.py": old["src/mod2.py"] + body("cached", 5)},
               author=DAVE)
    land(repo, said.format(sha=fix[:7]), {"src/mod2.py": old["src/mod2.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Removed unused code.", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[38]["severity"] == severity


def test_a_stale_copy_of_a_reverted_fixs_test_alone_still_fails(repo: Repo) -> None:
    # rq's trap (REVERTS.md): a merged range brings back the test a revert took out, its code untouched
    old = seed(repo)
    fixed = {"src/mod1.py": old["src/mod1.py"] + body("cliparse", 4), "tests/test_cli.py": body("test_cli", 6)}
    land(repo, "fix: Respect cli_parse_args (#611)", fixed, author=DAVE)
    land(repo, 'Revert "fix: Respect cli_parse_args (#611)" (#655)', {"src/mod1.py": old["src/mod1.py"], "tests/test_cli.py": None},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Tune tile defaults (#3458)", {"tests/test_cli.py": fixed["tests/test_cli.py"], "kernel.c": "int t;\n"},
         author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[655]["severity"] == "error"


@pytest.mark.parametrize(("subject", "severity"), [
    ("#30: use the vary module", "notice"),  # cors: the maintainer reworks the PR it names
    ("use the vary module (#30)", "warning"),  # a squash suffix names the change itself
    ("#300: use the vary module", "warning"),  # another PR
])
def test_a_message_naming_the_undone_prs_number(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "vary")
    land(repo, "add vary origin header", {"src/mod1.py": old["src/mod1.py"] + body("vary", 4),
                                          "src/mod2.py": old["src/mod2.py"] + body("origin", 4)}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "vary", 30, "add vary origin header for specific origins")
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"] + "vary(res, 'Origin')\n", "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[30]["severity"] == severity


@pytest.mark.parametrize(("undone_subject", "undone_line", "severity"), [
    ('Revert "Bump actions/upload-artifact from 3 to 4" (#305)', "version=3)", "notice"),  # pipx's v2 bump, re-landed
    ("ci: pin upload-artifact (#305)", "version=3, pinned=True)", "warning"),  # a fix like any other, undone
    ("Reverted 6b46ca67747475ca9bc02df6f3315a6be8cdf1f9 (#305)", "version=3)", "notice"),  # LinuxGSM's wording
    ("Followed up 6b46ca67747475ca9bc02df6f3315a6be8cdf1f9 (#305)", "version=3, pinned=True)", "warning"),  # no revert
])
def test_lines_of_a_revert_put_back_amid_new_work_re_land(repo: Repo, undone_subject: str, undone_line: str,
                                                          severity: str) -> None:
    seed(repo)
    steps = "".join(f"step_{i} = upload(artifact_{i}, version=3)\n" for i in range(8))
    land(repo, "ci: artifacts", {"src/ci.py": steps})
    bumped = steps.replace("step_2 = upload(artifact_2, version=3)", "step_2 = upload(artifact_2, version=4)")
    land(repo, "Bump actions/upload-artifact from 3 to 4 (#300)", {"src/ci.py": bumped}, author=DAVE)
    land(repo, undone_subject, {"src/ci.py": bumped.replace("version=4)", undone_line)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "ci: update to artifacts v2", {"src/ci.py": bumped + "merge_step = merge(artifacts, version=4)\n",
                                              "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[305]["severity"] == severity


@pytest.mark.parametrize(("undone_subject", "severity"), [
    ('Revert "Enable the vacuum in tests" (#305)', "notice"),  # turso's revert, re-landed in part by its author
    ("tests: drop the vacuum (#305)", "warning"),  # a change like any other, undone
])
def test_a_revert_taken_out_exactly_in_one_file_and_amid_new_work_in_another_re_lands(
        repo: Repo, undone_subject: str, severity: str) -> None:
    seed(repo)
    steps = "".join(f"step_{i} = run(case_{i}, vacuum=True)\n" for i in range(8))
    tail = "".join(f"check_{i} = verify(case_{i})\n" for i in range(8))
    land(repo, "tests: cases", {"src/cases.py": steps, "src/execute.py": tail})
    land(repo, undone_subject, {"src/cases.py": steps.replace("step_2 = run(case_2, vacuum=True)", "step_2 = run(case_2)"),
                                "src/execute.py": tail.replace("check_5 = verify(case_5)\n", "")}, author=DAVE)
    later = tail.replace("check_5 = verify(case_5)\n", "").replace("check_0 = verify(case_0)", "check_0 = verify(case_0, strict=True)")
    land(repo, "tests: strict first check (#306)", {"src/execute.py": later}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "core: run the cases in parallel", {
        "src/cases.py": steps + "merge_step = run(all_cases, vacuum=True)\n",
        "src/execute.py": later.replace("check_4 = verify(case_4)\n", "check_4 = verify(case_4)\ncheck_5 = verify(case_5)\n"),
        "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[305]["severity"] == severity


@pytest.mark.parametrize(("author", "severity"), [
    (BOB, "notice"),  # go-sqlite3's `fix build` adapting the code to `*Error`, reverted with that change
    (DAVE, "error")])  # someone else's work on top: a revert of #301 says nothing of it
def test_a_declared_revert_takes_its_authors_follow_ups_with_it(repo: Repo, author: str, severity: str) -> None:
    old = seed(repo)
    undone = land(repo, "errors: return a pointer Error (#301)", {"src/mod1.py": old["src/mod1.py"] + body("ptr", 4)})
    land(repo, "fix build (#302)", {"src/mod2.py": old["src/mod2.py"] + body("adapt", 4)}, author=author)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f"fix breaking compatibility\n\nrevert {undone}", {"src/mod1.py": old["src/mod1.py"],
                                                                 "src/mod2.py": old["src/mod2.py"]}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert found[301]["declared"] and found[302]["severity"] == severity, found[302]["reason"]


@pytest.mark.parametrize(("written_before", "severity"), [(True, "info"), (False, "error")])
@pytest.mark.parametrize("engine", ["check-revert", "audit"])
def test_work_written_before_the_revert_it_undoes_is_a_re_land(
        repo: Repo, written_before: bool, severity: str, engine: str) -> None:
    # django-oauth-toolkit's `OpenID: Claims: Add claims inside well-known`, authored months before
    # `#1066: Revert #967 which incorrectly breaks API` and rebased onto it: the reverted work applied
    # again. A tree written after the revert that puts the work back is a stale copy.
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, "feat: claims in the well-known view (#301)", {"src/mod1.py": new})
    land(repo, "#1066: Revert #301 which breaks the API (#302)", {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("src/mod1.py", new)
    repo.write("kernel.c", "int t;\n")
    repo.commit("OpenID: claims inside well-known", author=CAROL,
                env={"GIT_AUTHOR_DATE": "1600000000 +0000"} if written_before else None)
    if engine == "check-revert":
        code, report = check(repo, "main..topic", "--strict")
        finding = by_pr(report)[302]
    else:
        repo.git("checkout", "-q", "main")
        repo.git("merge", "-q", "--ff-only", "topic")
        result = run_leverguard("audit", "--all", "--max-count", "1", "--format", "json", "--strict", cwd=repo.path)
        code = result.returncode
        finding = next(f for r in json.loads(result.stdout)["results"] for f in r["findings"])
    assert finding["severity"] == severity and code == (1 if severity == "error" else 0)
    assert ("re-land" in finding["explanation"]) is written_before


@pytest.mark.parametrize(("subject", "severity"), [
    ("Fix server-extension paths (3rd time's the charm)", "info"),  # jupyter_server's #734 after its revert
    ("Fix server paths", "error"),  # not every word of the reverted work: another change
])
def test_a_title_carrying_every_word_of_the_reverted_work_re_lands_it(repo: Repo, subject: str, severity: str) -> None:
    assert _revert_undone(repo, subject, original="Server extension paths")[1]["severity"] == severity


@pytest.mark.parametrize(("subject", "severity"), [
    ("Remove block_area (again) (#303)", "info"),  # graphhopper's re-removal after `Revert "removed unused method"`
    ("remove Bike2WeightTagParser again", "info"),
    ("Fix the flaky tests again", "error"),  # `again` about something else: the revert undone silently
    ("Remove block_area (#303)", "error"),  # the same words, no `again`
])
def test_a_title_saying_it_does_again_what_a_revert_undid_re_lands_it(repo: Repo, subject: str, severity: str) -> None:
    assert _revert_undone(repo, subject, original="Removed unused method (Polygon)")[1]["severity"] == severity


@pytest.mark.parametrize(("line", "severity"), [
    ("- revert cdp native-dialogs", "notice"),  # testcafe's: two of the three words it names are the topic's
    ("- revert cdp console-messages", "error"),  # another topic
    ("- revert cdp dialogs", "error"),  # one word shared: chance
    ("- keep cdp native-dialogs", "error"),  # no revert wording
])
def test_a_message_line_reverting_the_undone_topic_declares_it(repo: Repo, line: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "proxyless handle native dialogs (#301)", {"src/mod1.py": old["src/mod1.py"] + body("dialog", 4)})
    land(repo, "proxyless js error handling (#302)", {"src/mod2.py": old["src/mod2.py"] + body("errors", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f"Proxyless context storage\n\n**What was done:**\n\n{line}\n- add server-side context storage",
         {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"], "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("line", "severity"), [
    ("revert to old assert_alldead implementation", "notice"),  # pyqtgraph's branch commit, the PR's topic
    ("revert to old menu implementation", "error"),  # another topic
])
def test_a_branch_commit_reverting_a_merged_prs_topic_declares_it(repo: Repo, line: str, severity: str) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "fix-test")
    land(repo, "fix wrong logic for assert_alldead", {"src/mod1.py": old["src/mod1.py"] + body("alldead", 4)}, author=DAVE)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "fix-test", 301, "fix wrong logic for assert_alldead")
    repo.git("checkout", "-q", "-b", "qmenu-leak")
    land(repo, "add the qmenu leak test", {"src/mod2.py": old["src/mod2.py"] + body("leak", 4)}, author=CAROL)
    land(repo, line, {"src/mod1.py": old["src/mod1.py"]}, author=CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "topic")
    merge_pr(repo, "qmenu-leak", 302, "partial fix for Qmenu leak")  # the merge says nothing: its branch does
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("subject", "severity"), [
    ("Reversed #18499 (#18546)", "notice"),  # yii2's: the issue the undone fix was for, by number
    ("Reversed #18500 (#18546)", "error"),  # another issue
    ("Reversed the menu order (#18546)", "error"),  # reversal wording, no issue of the undone commit
])
def test_a_reversal_naming_the_issue_the_undone_commit_fixed_declares_it(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "Fix #18499: keep the session cookie on redirects (#301)", {"src/mod1.py": old["src/mod1.py"] + body("cookie", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


SPEC = "".join(f"describe('Transport {i}', function () {{\n  it('sends {i}', function () {{\n    send({i});\n  }});\n}});\n\n"
               for i in range(6))


@pytest.mark.parametrize(("title", "skipped", "severity"), [
    ("disable failing tests", "xdescribe('Transport 2', function () {", "notice"),  # nightwatch's
    ("kernel: tune", "xdescribe('Transport 2', function () {", "warning"),  # says nothing of tests
    ("disable failing tests", "describe('Transport 2 (flaky)', function () {", "warning"),  # no skip switched
])
def test_a_test_switched_back_to_skipped_under_a_title_saying_so_is_deliberate(repo: Repo, title: str, skipped: str,
                                                                                severity: str) -> None:
    # #301 runs the suite again (and edits another); the change puts its older line back
    seed(repo)
    older = SPEC.replace("describe('Transport 2', function () {", skipped)
    land(repo, "test: specs", {"test/transport.js": older})
    land(repo, "Improve Appium support (#301)", {"test/transport.js": SPEC.replace("send(5);", "sendAll(5);"),
                                                 "src/mod1.py": body("appium", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"test/transport.js": older.replace("send(5);", "sendAll(5);"), "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert found["severity"] == severity, found
