"""Defaults a new user can live with (issue #12), through real `git commit`s with the installed hooks."""

from __future__ import annotations

import pytest

from conftest import Repo, run_leverguard
from message_helpers import (GOOD_CLEANUP, git_commit, last_message, lever_repo, recording_editor,
                             replace, stage_cleanup, stage_plain_change)

# The helpers' configuration without `co_author = "required"` and without co-authors: the defaults.
DEFAULTS = '[tool.leverguard.levers]\nabi_files = ["mpk/tasks.py"]\n'
TRAILER = "Co-Authored-By: Bob Builder <bob@example.com>"
NO_TRAILER = GOOD_CLEANUP.replace(f"\n{TRAILER}\n", "")
DEPENDABOT = "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"
ACTIONS = "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>"
RENOVATE = "renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>"


@pytest.fixture
def fresh(repo: Repo) -> Repo:
    """The MPK fixture with the default configuration and `leverguard install`'s hooks."""
    lever_repo(repo)
    repo.write("pyproject.toml", DEFAULTS)
    repo.commit("defaults")
    assert run_leverguard("install", cwd=repo.path).returncode == 0
    return repo


def configure(repo: Repo, extra: str) -> None:
    repo.write("pyproject.toml", DEFAULTS + "\n[tool.leverguard.message]\n" + extra)
    repo.git("add", "pyproject.toml")


# ---- Co-Authored-By: required on lever changes only, validated everywhere

def test_the_first_ordinary_commit_after_install_passes(fresh: Repo) -> None:
    stage_plain_change(fresh)
    result = git_commit(fresh, message="Fix a typo in the README\n")
    assert result.returncode == 0, result.stdout
    assert last_message(fresh) == "Fix a typo in the README"


def test_a_lever_change_still_needs_a_co_author(fresh: Repo) -> None:
    stage_cleanup(fresh)
    refused = git_commit(fresh, message=NO_TRAILER)
    assert refused.returncode == 1
    assert "co-author: no Co-Authored-By trailer (the diff " in refused.stdout
    assert "hard-wires MPK_DSV3_FUSED_ROPE" in refused.stdout and "a lever change needs one)" in refused.stdout
    assert git_commit(fresh, message=GOOD_CLEANUP).returncode == 0


def test_a_co_author_trailer_is_validated_on_a_plain_commit_too(fresh: Repo) -> None:
    stage_plain_change(fresh)
    refused = git_commit(fresh, message="Fix a typo\n\nCo-Authored-By: bob\n")
    assert refused.returncode == 1 and "Co-Authored-By value 'bob' is not `Name <email>`" in refused.stdout
    lookalike = git_commit(fresh, message="Fix a typo\n\nCo-authored: Bob <bob@example.com>\n")
    assert lookalike.returncode == 1 and "is not a co-author trailer" in lookalike.stdout


def test_co_author_paths_extend_the_requirement_to_a_scope(fresh: Repo) -> None:
    configure(fresh, 'co_author_paths = ["kernels/**"]\n')
    fresh.write("kernels/notes/tuning.txt", "tile 128\n")
    fresh.git("add", "-A")
    refused = git_commit(fresh, message="Tune the tiles\n")
    assert refused.returncode == 1 and "the change touches message.co_author_paths" in refused.stdout
    assert git_commit(fresh, message=f"Tune the tiles\n\n{TRAILER}\n").returncode == 0
    fresh.write("docs/tuning.txt", "tile 128\n")
    fresh.git("add", "-A")
    assert git_commit(fresh, message="Document the tiles\n").returncode == 0  # outside the scope


def test_required_stays_an_option(fresh: Repo) -> None:
    configure(fresh, 'co_author = "required"\n')
    stage_plain_change(fresh)
    refused = git_commit(fresh, message="Fix a typo\n")
    assert refused.returncode == 1 and "co-author: no Co-Authored-By trailer: end the message" in refused.stdout


@pytest.mark.parametrize("author", [DEPENDABOT, ACTIONS, RENOVATE])
def test_bot_authors_skip_the_message_rules(fresh: Repo, author: str) -> None:
    stage_cleanup(fresh)
    result = git_commit(fresh, "--author", author, message="Bump the kernels\n")
    assert result.returncode == 0, result.stdout
    assert fresh.git("log", "-1", "--format=%an") == author.split(" <")[0]


def test_a_human_with_the_same_message_is_refused(fresh: Repo) -> None:
    stage_cleanup(fresh)
    result = git_commit(fresh, "--author", "Carol <carol@example.com>", message="Bump the kernels\n")
    assert result.returncode == 1 and "lever-sections" in result.stdout


def test_the_bot_list_is_configurable(fresh: Repo) -> None:
    configure(fresh, 'bot_authors = ["kernel-bot"]\n')
    stage_cleanup(fresh)
    assert git_commit(fresh, "--author", DEPENDABOT, message="Bump the kernels\n").returncode == 1
    assert git_commit(fresh, "--author", "kernel-bot <ci@example.com>", message="Bump the kernels\n").returncode == 0


def test_check_msg_range_skips_bot_commits_with_a_note(fresh: Repo) -> None:
    stage_cleanup(fresh)
    fresh.commit("Bump the kernels", author=DEPENDABOT)
    ranged = run_leverguard("check-msg", "--range", "HEAD~1..HEAD", cwd=fresh.path)
    assert ranged.returncode == 0, ranged.stdout
    assert "bot-author: note: message rules skipped: the author dependabot[bot]" in ranged.stdout
    fresh.git("commit", "-q", "--amend", "--no-verify", "--reset-author", "-m", "Bump the kernels")
    assert run_leverguard("check-msg", "--range", "HEAD~1..HEAD", cwd=fresh.path).returncode == 1


# ---- the template: a Co-Authored-By prompt, and the ledger's deltas

def test_the_template_prompts_for_a_co_author_the_rule_rejects_until_filled(fresh: Repo) -> None:
    stage_cleanup(fresh)
    text = run_leverguard("template", cwd=fresh.path).stdout
    assert "Co-Authored-By: <co-author name> <email>" in text
    filled_in = "Settle the decode levers\n" + GOOD_CLEANUP.split("\n", 1)[1].replace(f"{TRAILER}\n", "")
    left = filled_in + "Co-Authored-By: <co-author name> <email>\n"
    refused = git_commit(fresh, message=left)
    assert refused.returncode == 1 and "the Co-Authored-By placeholder is not filled in" in refused.stdout
    assert git_commit(fresh, message=filled_in + f"{TRAILER}\n").returncode == 0


def test_the_template_of_a_plain_change_stays_git_s_own(fresh: Repo) -> None:
    stage_plain_change(fresh)
    assert run_leverguard("template", cwd=fresh.path).stdout.strip() == ""


def test_the_template_uses_the_configured_co_author(fresh: Repo) -> None:
    configure(fresh, f'co_authors = ["{TRAILER.split(": ")[1]}"]\n')
    stage_cleanup(fresh)
    text = run_leverguard("template", cwd=fresh.path).stdout
    assert TRAILER in text and "<co-author name>" not in text


LEDGER_WITH_DELTA = "lever,verdict,delta\nMPK_DSV3_FUSED_ROPE,WIN,27.4 -> 24.9 us\nMPK_DSV3_EXTRA_SCALE,KILL,+0.4%\n"


def test_the_template_pre_fills_a_hard_wired_delta_from_the_ledger(fresh: Repo) -> None:
    fresh.write("experiment_history/ledger.csv", LEDGER_WITH_DELTA)
    stage_cleanup(fresh)
    editor, record = recording_editor(fresh.path.parent)
    git_commit(fresh, env={"GIT_EDITOR": editor})
    seen = record.read_text(encoding="utf-8")
    assert "- MPK_DSV3_FUSED_ROPE: 27.4 -> 24.9 us\n" in seen
    assert "# leverguard: MPK_DSV3_FUSED_ROPE's delta is its ledger row's (experiment_history/ledger.csv:2)" in seen
    assert "- MPK_DSV3_EXTRA_SCALE\n" in seen  # only hard-wired levers carry a delta


def test_without_a_ledger_delta_the_template_keeps_the_placeholder(fresh: Repo) -> None:
    stage_cleanup(fresh)
    assert "- MPK_DSV3_FUSED_ROPE: <measured delta" in run_leverguard("template", cwd=fresh.path).stdout


# ---- the cross-check: a hard-wired delta that contradicts its ledger row

@pytest.mark.parametrize(("written", "agrees"), [
    ("27.4 -> 24.9 us per decode step", True), ("-2.5 us", True), ("-9.1%", True),
    ("27.4 -> 21.0 us", False), ("+2.5 us", False), ("-3.1%", False),
])
def test_a_delta_that_contradicts_the_ledger_is_refused(fresh: Repo, written: str, agrees: bool) -> None:
    fresh.write("experiment_history/ledger.csv", LEDGER_WITH_DELTA)
    stage_cleanup(fresh)
    message = GOOD_CLEANUP.replace("27.4 -> 24.9 us per decode step", written)
    result = git_commit(fresh, message=message)
    if agrees:
        assert result.returncode == 0, result.stdout
    else:
        assert result.returncode == 1
        assert (f"ledger-delta: MPK_DSV3_FUSED_ROPE: the message says {written.split(' per')[0]}, but its ledger "
                "row experiment_history/ledger.csv:2 records 27.4 -> 24.9 us") in result.stdout


def test_a_ledger_row_without_a_delta_checks_nothing(fresh: Repo) -> None:
    stage_cleanup(fresh)  # the fixture's ledger has verdicts only
    assert git_commit(fresh, message=GOOD_CLEANUP.replace("27.4 -> 24.9", "99.0 -> 1.0")).returncode == 0


# ---- an empty subject line

def test_an_empty_subject_line_is_named_as_such(fresh: Repo) -> None:
    stage_cleanup(fresh)
    body = GOOD_CLEANUP.split("\n\n", 2)[2]  # the sections and the trailer, no subject
    editor, _ = recording_editor(fresh.path.parent, reply="\n\n" + body)
    result = git_commit(fresh, env={"GIT_EDITOR": editor})
    assert result.returncode == 1
    assert "subject: the subject line is empty: git drops blank lines at the top, so 'Hard-wired:' became " \
           "the subject" in result.stdout
    assert "missing section" not in result.stdout


def test_a_subject_above_the_sections_passes_the_subject_rule(fresh: Repo) -> None:
    stage_cleanup(fresh)
    body = GOOD_CLEANUP.split("\n\n", 2)[2]
    editor, _ = recording_editor(fresh.path.parent, reply="Settle the decode levers\n\n" + body)
    result = git_commit(fresh, env={"GIT_EDITOR": editor})
    assert result.returncode == 0, result.stdout


def test_an_unedited_lever_section_subject_from_m_is_refused_too(fresh: Repo) -> None:
    stage_plain_change(fresh)
    replace(fresh, "README.md", "hello world", "hello")
    fresh.git("add", "-A")
    result = git_commit(fresh, message="Reviewed-by: Carol <carol@example.com>\n")
    assert result.returncode == 1 and "the subject line is empty" in result.stdout
