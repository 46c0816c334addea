"""The message hooks under the real pre-commit framework, and what the lean hook path imports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # installed with pre-commit

from conftest import ROOT, Repo
from message_helpers import (GOOD_CLEANUP, PLAIN, git_commit, last_message, lever_repo, recording_editor,
                             stage_cleanup, stage_plain_change)

MESSAGE_HOOKS = ("leverguard-commit-msg", "leverguard-template")


def local_config() -> str:
    """The manifest's message hooks as `repo: local` hooks run by this interpreter.

    `try-repo` would build a fresh virtualenv with every dependency per run (over a minute);
    the stages, ids and commands are the manifest's own, only the interpreter is the test's.
    """
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hooks = []
    for hook in (h for h in manifest if h["id"] in MESSAGE_HOOKS):
        entry = hook["entry"].replace("leverguard ", f"{sys.executable} -m leverguard ", 1)
        hooks.append({"id": hook["id"], "name": hook["name"], "entry": entry, "language": "system",
                      "stages": hook["stages"]})
    assert len(hooks) == 2
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]})


@pytest.fixture
def framework(repo: Repo) -> Repo:
    lever_repo(repo)
    repo.write(".pre-commit-config.yaml", local_config())
    repo.commit("pre-commit config")
    result = subprocess.run([sys.executable, "-m", "pre_commit", "install", "--hook-type", "commit-msg",
                             "--hook-type", "prepare-commit-msg"], cwd=repo.path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return repo


def test_framework_runs_the_commit_msg_hook(framework: Repo) -> None:
    stage_plain_change(framework)
    refused = git_commit(framework, message="Fix a typo\n")
    assert refused.returncode == 1
    assert "leverguard commit-message guard" in refused.stdout and "Failed" in refused.stdout
    assert ".git/COMMIT_EDITMSG:1: co-author: no Co-Authored-By trailer" in refused.stdout
    accepted = git_commit(framework, message=PLAIN)
    assert accepted.returncode == 0, accepted.stdout
    assert last_message(framework) == PLAIN.strip()
    stage_cleanup(framework)
    refused = git_commit(framework, message=GOOD_CLEANUP.replace("ABI: unchanged (mpk/tasks.py)\n", ""))
    assert refused.returncode == 1 and "lever-sections: missing section `ABI:`" in refused.stdout
    assert git_commit(framework, message=GOOD_CLEANUP).returncode == 0


def test_framework_writes_the_template_only_for_a_new_message(framework: Repo, tmp_path: Path) -> None:
    stage_cleanup(framework)
    editor, record = recording_editor(tmp_path, reply=GOOD_CLEANUP)
    assert git_commit(framework, env={"GIT_EDITOR": editor}).returncode == 0
    assert record.read_text(encoding="utf-8").startswith("\n\nHard-wired:\n- MPK_DSV3_FUSED_ROPE: <measured delta")
    stage_plain_change(framework)
    git_commit(framework, "-e", "-m", "Mine\n\nCo-Authored-By: Bob <bob@example.com>", env={"GIT_EDITOR": editor})
    assert record.read_text(encoding="utf-8").startswith("Mine\n")  # source "message": untouched


def imported(repo: Repo, *args: str, fresh: Path | None = None) -> tuple[set[str], set[str]]:
    """The modules a hook run imports (python -X importtime), before and after its lever changes are cached.

    A first run builds the settings cache (configuration files unchanged from then on); `fresh`
    is a file to give git's new-message content before each run (the template hook fills it).
    """
    command = [sys.executable, "-X", "importtime", "-m", "leverguard", "hook", *args]
    runs = []
    for attempt in range(3):
        if fresh is not None:
            fresh.write_text("\n# Please enter the commit message\n", encoding="utf-8")
        if attempt == 1:
            (repo.path / ".git" / "leverguard" / "staged-lever-changes.marshal").unlink(missing_ok=True)
        result = subprocess.run(command, cwd=repo.path, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr[-2000:]
        runs.append({line.split("|")[-1].strip() for line in result.stderr.splitlines()
                     if line.startswith("import time:")})
    return runs[1], runs[2]


# What a hook must not pay for on a commit without lever changes (the lever engine, click, GitPython,
# the TOML parser, and even `subprocess` and `typing`: a third of the interpreter's start-up).
HEAVY = {"click", "git", "unidiff", "github", "importlib.metadata", "leverguard.config", "leverguard.cli",
         "leverguard.levers.transitions.diff", "leverguard.levers.model.quick", "tomllib", "subprocess", "typing"}


def test_the_hooks_import_nothing_heavy_on_a_commit_without_levers(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    stage_plain_change(repo)
    msg = tmp_path / "MSG"
    msg.write_text(PLAIN, encoding="utf-8")
    cold, warm = imported(repo, "leverguard-commit-msg", str(msg))
    assert "leverguard.message.check" in cold and not cold & HEAVY, cold & HEAVY
    assert "leverguard.message.check" in warm and not warm & HEAVY, warm & HEAVY
    template, _ = imported(repo, "leverguard-template", str(msg), "", fresh=msg)
    assert msg.read_text(encoding="utf-8").startswith("\n\nCo-Authored-By: Bob Builder")
    assert "leverguard.message.template" in template and not template & HEAVY, template & HEAVY


def test_the_lever_engine_runs_once_per_staged_state(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    stage_cleanup(repo)
    msg = tmp_path / "MSG"
    msg.write_text(GOOD_CLEANUP, encoding="utf-8")
    cold, warm = imported(repo, "leverguard-commit-msg", str(msg))
    assert "leverguard.levers.transitions.diff" in cold
    assert "leverguard.levers.transitions.diff" not in warm  # the changes of this index are cached
    repo.write("mpk/attn.cu", "// changed again\n")
    repo.git("add", "mpk/attn.cu")  # a new index state: computed afresh
    again = subprocess.run([sys.executable, "-X", "importtime", "-m", "leverguard", "hook",
                            "leverguard-commit-msg", str(msg)], cwd=repo.path, capture_output=True, text=True)
    assert "leverguard.levers.transitions.diff" in again.stderr


def test_plain_check_msg_calls_skip_click_and_odd_ones_get_its_help(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    msg = tmp_path / "MSG"
    msg.write_text(PLAIN, encoding="utf-8")
    for args in ([str(msg)], [str(msg), "--format", "json"], ["--format=text", "--repo", str(repo.path), str(msg)]):
        result = subprocess.run([sys.executable, "-X", "importtime", "-m", "leverguard", "check-msg", *args],
                                cwd=repo.path, capture_output=True, text=True)
        assert result.returncode == 0 and "| click" not in result.stderr, args
    helped = subprocess.run([sys.executable, "-m", "leverguard", "check-msg", "--help"], cwd=repo.path,
                            capture_output=True, text=True)
    assert helped.returncode == 0 and "Usage: leverguard check-msg [OPTIONS] [MSGFILE]" in helped.stdout
    bad = subprocess.run([sys.executable, "-m", "leverguard", "check-msg", "--format", "xml", str(msg)],
                         cwd=repo.path, capture_output=True, text=True)
    assert bad.returncode == 2 and "'xml' is not one of 'text', 'json'" in bad.stderr


PREK = shutil.which("prek", path=os.path.dirname(sys.executable)) or shutil.which("prek")


@pytest.mark.skipif(PREK is None, reason="prek is not installed")
def test_prek_runs_the_same_hooks(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    repo.write(".pre-commit-config.yaml", local_config())
    repo.commit("prek config")
    env = {"PREK_HOME": str(tmp_path / "prek-home")}
    assert PREK is not None
    installed = subprocess.run([PREK, "install", "--hook-type", "commit-msg", "--hook-type", "prepare-commit-msg"],
                               cwd=repo.path, capture_output=True, text=True, env={**os.environ, **env})
    assert installed.returncode == 0, installed.stderr
    stage_plain_change(repo)
    refused = git_commit(repo, message="Fix a typo\n", env=env)
    assert refused.returncode == 1 and "co-author: no Co-Authored-By trailer" in refused.stdout
    editor, record = recording_editor(tmp_path, reply=PLAIN)
    assert git_commit(repo, env={**env, "GIT_EDITOR": editor}).returncode == 0
    assert record.read_text(encoding="utf-8").startswith("\n\nCo-Authored-By: Bob Builder <bob@example.com>\n")
