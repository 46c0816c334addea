"""The prepare-commit-msg template, written into the editor's file by a real `git commit`."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from message_helpers import (GOOD_CLEANUP, git_commit, install_hooks, last_message, lever_repo, recording_editor,
                             stage_cleanup, stage_plain_change)

EXPECTED_SECTIONS = """\


Hard-wired:
- MPK_DSV3_FUSED_ROPE: <measured delta, e.g. 27.4 -> 24.9 us or -3.1%>
Reverted:
- MPK_DSV3_EXTRA_SCALE
Diagnostics removed:
- MPK_DSV3_PROBE_ATTN
ABI: unchanged (mpk/tasks.py)
Verification: <what ran and what it showed; write not run or blocked if a check could not run>
Pre-merge gate: <what must run before merging, or none>

Co-Authored-By: Bob Builder <bob@example.com>
"""


@pytest.fixture
def hooked(repo: Repo) -> Repo:
    lever_repo(repo)
    install_hooks(repo)
    return repo


def test_the_editor_opens_on_the_prefilled_template(hooked: Repo, tmp_path: Path) -> None:
    stage_cleanup(hooked)
    editor, record = recording_editor(tmp_path, reply=GOOD_CLEANUP)
    result = git_commit(hooked, env={"GIT_EDITOR": editor})
    assert result.returncode == 0, result.stdout
    seen = record.read_text(encoding="utf-8")
    assert seen.startswith(EXPECTED_SECTIONS + "\n# Please enter the commit message")
    assert "# Changes to be committed:" in seen  # git's own comments are kept below the template
    assert last_message(hooked) == GOOD_CLEANUP.strip()


def test_a_template_left_unfilled_is_refused(hooked: Repo, tmp_path: Path) -> None:
    stage_cleanup(hooked)
    editor = "sed -i '1s/^$/Settle the decode levers/'"
    result = git_commit(hooked, env={"GIT_EDITOR": editor})
    assert result.returncode == 1
    assert ":4: lever-delta: MPK_DSV3_FUSED_ROPE has no measured delta" in result.stdout
    assert ":10: lever-sections: section `Verification:` is empty" in result.stdout


def test_a_plain_change_gets_only_the_trailers(hooked: Repo, tmp_path: Path) -> None:
    stage_plain_change(hooked)
    editor, record = recording_editor(tmp_path, reply="Fix\n\nCo-Authored-By: Bob <bob@example.com>\n")
    assert git_commit(hooked, env={"GIT_EDITOR": editor}).returncode == 0
    assert record.read_text(encoding="utf-8").startswith(
        "\n\nCo-Authored-By: Bob Builder <bob@example.com>\n\n# Please enter")


def test_nothing_to_prefill_leaves_git_file_alone(repo: Repo, tmp_path: Path) -> None:
    repo.write("README.md", "x\n")
    repo.commit("base")
    install_hooks(repo)  # no configuration: no co_authors, no levers
    stage_plain_change(repo)
    editor, record = recording_editor(tmp_path, reply="Fix\n\nCo-Authored-By: Bob <bob@example.com>\n")
    assert git_commit(repo, env={"GIT_EDITOR": editor}).returncode == 0
    assert record.read_text(encoding="utf-8").startswith("\n# Please enter")


@pytest.mark.parametrize("how", ["-m", "amend", "template"])
def test_never_overwrites_a_message_someone_wrote(hooked: Repo, tmp_path: Path, how: str) -> None:
    stage_cleanup(hooked)
    editor, record = recording_editor(tmp_path)
    args = {"-m": ["-e", "-m", "My own words"], "amend": ["--amend"],
            "template": ["-t", str(tmp_path / "team-template")]}[how]
    (tmp_path / "team-template").write_text("Team template line\n", encoding="utf-8")
    git_commit(hooked, *args, env={"GIT_EDITOR": editor})
    seen = record.read_text(encoding="utf-8")
    assert "Hard-wired:" not in seen and "Co-Authored-By: Bob Builder" not in seen
    first = {"-m": "My own words", "amend": "mpk: kernels with levers", "template": "Team template line"}[how]
    assert seen.startswith(first)


def test_never_overwrites_a_merge_or_squash_message(hooked: Repo, tmp_path: Path) -> None:
    hooked.git("switch", "-q", "-c", "topic")
    stage_cleanup(hooked)
    hooked.git("commit", "-q", "--no-verify", "-m", "cleanup")
    hooked.git("switch", "-q", "main")
    editor, record = recording_editor(tmp_path)
    hooked.git("merge", "--squash", "topic")
    git_commit(hooked, env={"GIT_EDITOR": editor})
    squash = record.read_text(encoding="utf-8")
    assert squash.startswith("Squashed commit of the following:") and "Hard-wired:" not in squash
    hooked.git("reset", "-q", "--hard")
    hooked.git("merge", "--no-ff", "-e", "topic", check=False, env={"GIT_EDITOR": editor})
    merge = record.read_text(encoding="utf-8")
    assert merge.startswith("Merge branch 'topic'") and "Hard-wired:" not in merge


def test_the_hook_never_overwrites_text_already_in_the_file(hooked: Repo, tmp_path: Path) -> None:
    stage_cleanup(hooked)
    msg = tmp_path / "MSG"
    msg.write_text("Already started\n# comment\n", encoding="utf-8")
    assert run_leverguard("hook", "leverguard-template", str(msg), cwd=hooked.path).returncode == 0
    assert msg.read_text(encoding="utf-8") == "Already started\n# comment\n"


def test_template_command_prints_the_same_template(hooked: Repo) -> None:
    stage_cleanup(hooked)
    result = run_leverguard("template", cwd=hooked.path)
    assert (result.returncode, result.stdout) == (0, EXPECTED_SECTIONS)


def test_template_for_a_range(hooked: Repo) -> None:
    hooked.write("pyproject.toml", '[tool.leverguard.message]\nco_authors = ["Bob Builder <bob@example.com>"]\n')
    base = hooked.commit("no ABI files configured")
    stage_cleanup(hooked)
    hooked.git("commit", "-q", "--no-verify", "-m", "wip")
    result = run_leverguard("template", "--range", f"{base}..HEAD", cwd=hooked.path)
    expected = EXPECTED_SECTIONS.replace("unchanged (mpk/tasks.py)", "<unchanged, or what changed and why (no "
                                         "abi_files configured)>")
    assert (result.returncode, result.stdout) == (0, expected)
    bad = run_leverguard("template", "--range", "nope..HEAD", cwd=hooked.path)
    assert bad.returncode == 2 and bad.stderr.startswith("leverguard: error: unknown revision 'nope'")
    assert run_leverguard("template", "--range", "HEAD", cwd=hooked.path).returncode == 2


def test_template_for_a_range_with_abi_files(hooked: Repo) -> None:
    base = hooked.head()
    stage_cleanup(hooked)
    hooked.git("commit", "-q", "--no-verify", "-m", "wip")
    result = run_leverguard("template", "--range", f"{base}..HEAD", cwd=hooked.path)
    assert result.returncode == 0, result.stderr
    abi = next(line for line in result.stdout.splitlines() if line.startswith("ABI: "))
    assert abi == "ABI: unchanged (mpk/tasks.py)"  # ABI files listed at a commit, with :(glob) pathspecs


def test_template_with_comment_char_dash_uses_star_items(hooked: Repo, tmp_path: Path) -> None:
    hooked.git("config", "core.commentChar", "-")
    stage_cleanup(hooked)
    editor, record = recording_editor(tmp_path, reply=GOOD_CLEANUP)
    git_commit(hooked, env={"GIT_EDITOR": editor})
    assert "\n* MPK_DSV3_EXTRA_SCALE\n" in record.read_text(encoding="utf-8")


def test_template_in_the_configured_encoding(hooked: Repo, tmp_path: Path) -> None:
    hooked.write("pyproject.toml", '[tool.leverguard.message]\nco_authors = ["Zoë Faure <zoe@example.com>"]\n')
    hooked.git("commit", "-q", "--no-verify", "-am", "config")
    hooked.git("config", "i18n.commitEncoding", "ISO-8859-1")
    stage_plain_change(hooked)
    editor, record = recording_editor(tmp_path, reply="Fix\n\nCo-Authored-By: Bob <bob@example.com>\n")
    git_commit(hooked, env={"GIT_EDITOR": editor})
    assert record.read_bytes().startswith("\n\nCo-Authored-By: Zoë Faure <zoe@example.com>\n".encode("latin-1"))


def test_template_build_warns_about_levers_the_engine_flags() -> None:
    from leverguard.message import template
    from leverguard.message.model import Change
    from test_message_rules import settings

    changes = [Change("MPK_A", "WIN-BODY-MISSING"), Change("MPK_B", "PARTIAL"), Change("MPK_C", "STILL-GATED")]
    abi = [("graph.cc", 12, []), ("tasks.py", 0, ["extra_scale_tensor"]), ("blob.bin", -1, [])]
    text = template.build(changes, abi, settings(co_author="validate"), comment=";", marker="*")
    assert text.splitlines() == [
        "", "", "Hard-wired: none", "Reverted:", "* MPK_A", "Diagnostics removed: none",
        "; leverguard: MPK_A its #if body is gone too: a win deleted by mistake? see leverguard levers diff",
        "; leverguard: MPK_B only partly changed: finish it or leave it out; see leverguard levers diff",
        "ABI: changed: graph.cc (12 lines changed), blob.bin (binary change); forbidden tokens: extra_scale_tensor "
        "in tasks.py <restore it, or say why it must change>",
        "Verification: <what ran and what it showed; write not run or blocked if a check could not run>",
        "Pre-merge gate: <what must run before merging, or none>",
    ]
    assert template.build([Change("MPK_C", "STILL-GATED")], None, settings()) == ""
