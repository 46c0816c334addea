"""Declared findings are reported, never failing; a bare #N is not a declaration."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Repo
from revert_helpers import CAROL, body, by_pr, check, check_cli, land, seed


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
])
def test_mentions_without_revert_wording_on_the_same_line_are_not_declarations(repo: Repo, message: str) -> None:
    _story(repo, message)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[221]["declared"] is False


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


def test_reland_of_a_revert_is_explained(repo: Repo) -> None:
    old = seed(repo)
    new = old["src/mod1.py"] + body("feature", 5)
    land(repo, "feat: feature (#301)", {"src/mod1.py": new})
    land(repo, 'Revert "feat: feature (#301)" (#302)', {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: feature, exactly as before", {"src/mod1.py": new}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []  # the revert's own rollback, undone: a re-land
    land(repo, "fix: compute the fix", {"src/mod1.py": new + "fixed_value = compute_fix(1)\n"}, author=CAROL)
    assert check(repo, "main..topic", "--strict")[1]["findings"] == []  # #301's lines come back: a re-land
    code, report = check(repo, "main..topic", "--strict", window=1)  # #301 outside the window
    assert code == 1 and by_pr(report)[302]["severity"] == "error"  # the revert undone without a word: silent
    land(repo, "Reland the feature, fixed", {"kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict", window=1)
    finding = by_pr(report)[302]
    assert code == 0 and finding["severity"] == "info" and "re-land" in finding["explanation"]


def test_a_revert_citing_its_commit_undone_by_a_re_land_is_no_finding(repo: Repo) -> None:
    # git's own revert body names the commit; a later change putting that work back re-lands it
    # (marshmallow's type hints, reverted and merged again): citing a sha makes no repair of a revert
    old = seed(repo)
    new = old["src/mod1.py"] + body("hints", 5)
    feature = land(repo, "Use type hints (#301)", {"src/mod1.py": new})
    land(repo, f'Revert "Use type hints (#301)"\n\nThis reverts commit {feature}.', {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Use type hints, again", {"src/mod1.py": new}, author=CAROL)
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


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
