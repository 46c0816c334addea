"""The commit-msg hook through a real `git commit` with the installed hooks: each rule passes and fails."""

from __future__ import annotations

import subprocess

import pytest

from conftest import Repo, run_leverguard
from message_helpers import (GOOD_CLEANUP, PLAIN, git_commit, install_hooks, last_message, lever_repo,
                             stage_cleanup, stage_plain_change)


@pytest.fixture
def hooked(repo: Repo) -> Repo:
    lever_repo(repo)
    install_hooks(repo)
    return repo


def test_a_plain_commit_passes_and_lands(hooked: Repo) -> None:
    stage_plain_change(hooked)
    result = git_commit(hooked, message=PLAIN)
    assert result.returncode == 0, result.stdout
    assert last_message(hooked) == PLAIN.strip()


def test_a_missing_co_author_is_refused(hooked: Repo) -> None:
    stage_plain_change(hooked)
    before = hooked.head()
    result = git_commit(hooked, message="Fix a typo\n")
    assert result.returncode == 1 and hooked.head() == before
    assert "co-author: no Co-Authored-By trailer: end the message with a blank line and " \
           "Co-Authored-By: Bob Builder <bob@example.com>" in result.stdout
    assert "leverguard check-msg: 1 error in 1 message" in result.stdout
    assert "hint: your message is kept in .git/COMMIT_EDITMSG" in result.stdout


def test_a_trailer_block_git_ignores_is_refused_with_the_reason(hooked: Repo) -> None:
    stage_plain_change(hooked)
    message = "Fix a typo\n\nPre-merge gate: none\nCo-Authored-By: Bob Builder <bob@example.com>\n"
    result = git_commit(hooked, message=message)
    assert result.returncode == 1
    assert (".git/COMMIT_EDITMSG:4: co-author: git does not see this Co-Authored-By trailer: line 3 "
            "('Pre-merge gate: none') shares its paragraph") in result.stdout
    fixed = message.replace("none\n", "none\n\n")
    assert git_commit(hooked, message=fixed).returncode == 0


def test_a_complete_lever_cleanup_passes(hooked: Repo) -> None:
    stage_cleanup(hooked)
    result = git_commit(hooked, message=GOOD_CLEANUP)
    assert result.returncode == 0, result.stdout
    assert "Hard-wired:" in last_message(hooked)


BROKEN_CLEANUP = (GOOD_CLEANUP.replace("ABI: unchanged (mpk/tasks.py)\n", "")  # lever-sections
                  .replace("27.4 -> 24.9 us per decode step", "faster")  # lever-delta
                  .replace("- EXTRA_SCALE\n", "- MPK_DSV3_NEVER_TOUCHED\n")  # lever-coverage: phantom + missing
                  .replace("e2e decode benchmark, 3 runs, numbers above", "not run, the GPU queue is down"))


def test_each_lever_rule_refuses_a_real_commit(hooked: Repo) -> None:
    stage_cleanup(hooked)
    before = hooked.head()
    result = git_commit(hooked, message=BROKEN_CLEANUP)
    assert result.returncode == 1 and hooked.head() == before
    lines = [line.split(": ", 1)[1] for line in result.stdout.splitlines() if line.startswith(".git/COMMIT_EDITMSG:")]
    assert lines == [
        "lever-delta: MPK_DSV3_FUSED_ROPE has no measured delta: write a signed number with a unit (-3.1 us, +4.2%) "
        "or before -> after (27.4 -> 24.9 us)",
        "lever-coverage: the diff reverts MPK_DSV3_EXTRA_SCALE, but the message does not list it under `Reverted:`",
        "lever-coverage: MPK_DSV3_NEVER_TOUCHED is listed under `Reverted:`, but the diff does not change it: remove "
        "it, or stage the change that does",
        "pre-merge-gate: `Verification:` says 'not run', so `Pre-merge gate:` must name what has to run before "
        "merging",
        "lever-sections: missing section `ABI:`: the diff reverts MPK_DSV3_EXTRA_SCALE, hard-wires "
        "MPK_DSV3_FUSED_ROPE, deletes MPK_DSV3_PROBE_ATTN (a diagnostic); add it above the trailers (`none` answers "
        "a section where nothing applies; leverguard template prints them pre-filled)",
    ]
    assert "leverguard check-msg: 5 errors in 1 message" in result.stdout


def test_the_skip_trailer_lets_a_commit_through_and_says_so(hooked: Repo) -> None:
    stage_cleanup(hooked)
    message = GOOD_CLEANUP.replace("27.4 -> 24.9 us per decode step", "faster") + "Leverguard-Skip: lever-delta\n"
    result = git_commit(hooked, message=message)
    assert result.returncode == 0, result.stdout
    assert "leverguard-skip: note: lever-delta skipped by the Leverguard-Skip trailer (it would report 1 finding)" \
        in result.stdout


def test_skip_env_var_skips_the_hook(hooked: Repo) -> None:
    stage_plain_change(hooked)
    result = git_commit(hooked, message="No trailer\n", env={"SKIP": "leverguard-commit-msg"})
    assert result.returncode == 0 and "leverguard-commit-msg skipped (SKIP)" in result.stdout


def test_comment_char_semicolon_keeps_hash_lines(hooked: Repo) -> None:
    hooked.git("config", "core.commentChar", ";")
    stage_plain_change(hooked)
    editor = "printf '#42: fix the typo\\n\\n; a comment\\nCo-Authored-By: Bob <bob@example.com>\\n' >"
    result = git_commit(hooked, env={"GIT_EDITOR": editor})
    assert result.returncode == 0, result.stdout
    assert last_message(hooked) == "#42: fix the typo\n\nCo-Authored-By: Bob <bob@example.com>"


def test_auto_comment_char(hooked: Repo) -> None:
    hooked.git("config", "core.commentChar", "auto")
    stage_plain_change(hooked)
    # git chose ';' because the -t template starts a line with '#'; the editor keeps git's help text.
    (hooked.path.parent / "tmpl").write_text("#42 fix\n\nCo-Authored-By: Bob <bob@example.com>\n", encoding="utf-8")
    result = git_commit(hooked, "-t", str(hooked.path.parent / "tmpl"), env={"GIT_EDITOR": "sed -i 's/fix$/fixed/'"})
    assert result.returncode == 0, result.stdout
    assert last_message(hooked) == "#42 fixed\n\nCo-Authored-By: Bob <bob@example.com>"


def test_verbose_commit_scissors_cut_the_diff(hooked: Repo) -> None:
    hooked.write("NOTES", "Co-Authored-By: someone in a file\nsome text\n")
    hooked.git("add", "NOTES")
    editor = "sed -i '1s/^$/Add notes\\n\\nCo-Authored-By: Bob <bob@example.com>/'"
    result = git_commit(hooked, "-v", env={"GIT_EDITOR": editor})
    assert result.returncode == 0, result.stdout
    assert last_message(hooked) == "Add notes\n\nCo-Authored-By: Bob <bob@example.com>"


def test_crlf_message(hooked: Repo) -> None:
    stage_plain_change(hooked)
    result = git_commit(hooked, message=PLAIN.replace("\n", "\r\n").encode())
    assert result.returncode == 0, result.stdout


def test_non_utf8_message_in_the_configured_encoding(hooked: Repo) -> None:
    hooked.git("config", "i18n.commitEncoding", "ISO-8859-1")
    stage_plain_change(hooked)
    message = "Résumé des changements\n\nCo-Authored-By: Zoë Faure <zoe@example.com>\n".encode("latin-1")
    result = git_commit(hooked, message=message)
    assert result.returncode == 0 and "encoding" not in result.stdout, result.stdout
    assert hooked.git("log", "-1", "--format=%e") == "ISO-8859-1"


def test_non_utf8_bytes_in_a_utf8_repository_warn_without_failing(hooked: Repo) -> None:
    stage_plain_change(hooked)
    message = "Résumé\n\nCo-Authored-By: Zoë Faure <zoe@example.com>\n".encode("latin-1")
    result = git_commit(hooked, message=message)
    assert result.returncode == 0
    assert ".git/COMMIT_EDITMSG:1: encoding: warning: this line is not valid UTF-8" in result.stdout


def test_empty_body_and_very_long_lines(hooked: Repo) -> None:
    stage_plain_change(hooked)
    long_subject = "Tune " + "x" * 5000
    assert git_commit(hooked, message=f"{long_subject}\n\nCo-Authored-By: Bob <bob@example.com>\n").returncode == 0
    stage_plain_change(hooked)
    hooked.write("README.md", "again\n")
    hooked.git("add", "README.md")
    result = git_commit(hooked, message=f"Subject only {'y' * 3000}\n")
    assert result.returncode == 1 and "co-author: no Co-Authored-By trailer" in result.stdout


def test_an_empty_message_is_left_to_git(hooked: Repo) -> None:
    stage_plain_change(hooked)
    result = git_commit(hooked, env={"GIT_EDITOR": "printf '# only a comment\\n' >"})
    assert "leverguard" not in result.stdout.replace("README.md", "") and "empty commit message" in result.stdout


def test_without_an_editor_hash_lines_are_the_message(hooked: Repo) -> None:
    stage_plain_change(hooked)  # -F runs no editor: git keeps '#' lines, so the guard reads them too
    result = git_commit(hooked, message="#42 fix\n\n# Co-Authored-By: Bob <bob@example.com>\n")
    assert result.returncode == 1
    assert "COMMIT_EDITMSG:3: co-author: '# Co-Authored-By' is not a co-author trailer" in result.stdout
    hash_subject = "#42 fix\n\nCo-Authored-By: Bob <bob@example.com>\n"
    assert git_commit(hooked, message=hash_subject).returncode == 0
    assert last_message(hooked) == hash_subject.strip()


def test_merge_commits_get_only_the_trailer_rules(hooked: Repo) -> None:
    hooked.git("switch", "-q", "-c", "topic")
    stage_cleanup(hooked)
    hooked.git("commit", "-q", "--no-verify", "-m", "cleanup without sections")
    hooked.git("switch", "-q", "main")
    refused = subprocess.run(["git", "merge", "--no-ff", "--no-edit", "topic"], cwd=hooked.path,
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "co-author: no Co-Authored-By trailer" in refused.stderr
    assert "lever-sections" not in refused.stderr  # the lever diff is the topic's, checked on its own commits
    hooked.git("merge", "--abort")
    hooked.git("merge", "--no-ff", "-m", "Merge branch 'topic'\n\nCo-Authored-By: Bob <bob@example.com>", "topic")
    assert hooked.git("log", "-1", "--format=%s") == "Merge branch 'topic'"


def test_leverguard_install_sets_up_both_message_hooks(repo: Repo) -> None:
    lever_repo(repo)
    installed = run_leverguard("install", cwd=repo.path)
    assert installed.returncode == 0, installed.stderr
    assert "hooks/commit-msg" in installed.stdout and "hooks/prepare-commit-msg" in installed.stdout
    stage_plain_change(repo)
    assert git_commit(repo, message="Fix a typo\n").returncode == 1
    assert git_commit(repo, message=PLAIN).returncode == 0


def test_a_partial_commit_is_checked_against_the_index_git_hands_the_hook(hooked: Repo) -> None:
    stage_cleanup(hooked)
    hooked.git("reset", "-q")  # the cleanup is in the work tree only; `git commit PATH` stages it on the fly
    refused = git_commit(hooked, "--", "mpk", message=PLAIN)
    assert refused.returncode == 1
    assert ("lever-sections: missing sections `Hard-wired:`, `Reverted:`, `Diagnostics removed:`, `ABI:`, "
            "`Verification:`, `Pre-merge gate:`: the diff") in refused.stdout
    assert "lever-coverage" not in refused.stdout  # one finding for the missing sections, not one per lever
    accepted = git_commit(hooked, "--", "mpk", message=GOOD_CLEANUP)
    assert accepted.returncode == 0, accepted.stdout


def test_an_amend_is_checked_against_the_whole_amended_commit(hooked: Repo) -> None:
    stage_cleanup(hooked)
    assert git_commit(hooked, message=GOOD_CLEANUP).returncode == 0
    # The index now equals HEAD; only prepare-commit-msg learns that HEAD is being replaced.
    fixed = GOOD_CLEANUP.replace("3 runs", "5 runs")
    amended = git_commit(hooked, "--amend", message=fixed)
    assert amended.returncode == 0, amended.stdout
    assert "5 runs" in last_message(hooked)
    assert git_commit(hooked, "--amend", env={"GIT_EDITOR": "true"}).returncode == 0  # the editor's amend
    phantom = git_commit(hooked, "--amend", message=fixed.replace("- EXTRA_SCALE\n", "- EXTRA_SCALE\n- MPK_DSV3_X\n"))
    assert phantom.returncode == 1 and "MPK_DSV3_X is listed under `Reverted:`, but the diff does not change it" \
        in phantom.stdout


def test_the_first_commit_of_a_repository(repo: Repo) -> None:
    install_hooks(repo)
    repo.write(".leverguard.toml", '[message]\nco_author = "required"\n')
    repo.write("mpk/rope.cuh", "#ifdef MPK_DSV3_FUSED_ROPE\nfused();\n#endif\n")
    repo.git("add", "-A")
    assert git_commit(repo, message="Start\n").returncode == 1  # unborn branch: compared with the empty tree
    assert git_commit(repo, message=PLAIN).returncode == 0
