"""`leverguard github-action`: a real checkout, an event file, the stand-in as GITHUB_API_URL."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pytest
import yaml
from bot_helpers import APP_ID, OWNER_REPO, app_keys, clean_pr, stale_pr, story_221
from conftest import run_leverguard
from github_standin import Standin

from leverguard.bot import action
from leverguard.bot.action import workflow_command
from leverguard.bot.verdict import Annotation
from leverguard.errors import guarded

WRITE, READ = "ghp_write_token", "ghp_read_only_token"


@pytest.fixture
def standin(tmp_path: Path) -> Iterator[Standin]:
    server = Standin(APP_ID, app_keys()[1]).start()
    server.add_repo(OWNER_REPO, str(tmp_path))
    server.add_token(WRITE, write=True)
    server.add_token(READ, write=False)
    yield server
    server.stop()


def checkout(repo: Any, tmp_path: Path, head: str, depth: int | None = None) -> Path:
    """What actions/checkout leaves: refs/pull/N/merge checked out (base first parent, PR head second)."""
    repo.git("checkout", "-q", "--detach", "main")
    repo.git("merge", "-q", "--no-ff", "--no-edit", "-m", "Merge into main", head)
    merge = repo.head()
    repo.git("checkout", "-q", "main")
    target = tmp_path / "workspace"
    args = ["clone", "-q", "--no-checkout", *(["--depth", str(depth)] if depth else []), f"file://{repo.path}", str(target)]
    subprocess.run(["git", *args], check=True)
    subprocess.run(["git", "fetch", "-q", *(["--depth", str(depth)] if depth else []), "origin", merge, head],
                   cwd=target, check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", merge], cwd=target, check=True)
    return target


def run_action(tmp_path: Path, standin: Standin, workspace: Path, head: str, base: str, token: str,
               capsys: pytest.CaptureFixture[str] | None = None) -> tuple[Result, str]:
    """The console command in a subprocess, or (with CAPSYS) the same entry point in this process."""
    event = {"action": "opened", "pull_request": {"number": 224, "title": "refactor(kernel)", "body": "",
                                                  "labels": [], "head": {"sha": head}, "base": {"sha": base}}}
    (tmp_path / "event.json").write_text(json.dumps(event))
    summary = tmp_path / "summary.md"
    env = {"GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_REPOSITORY": OWNER_REPO,
           "GITHUB_API_URL": standin.url, "GITHUB_TOKEN": token, "GITHUB_STEP_SUMMARY": str(summary),
           "GITHUB_WORKSPACE": str(workspace), "LEVERGUARD_BOT_SETTINGS": str(tmp_path / "bot.toml")}
    (tmp_path / "bot.toml").write_text("request_interval = 0\nwrite_interval = 0\n")
    if capsys is None:
        proc = run_leverguard("github-action", cwd=workspace, env=env)
        result = Result(proc.returncode, proc.stdout, proc.stderr)
    else:
        code = guarded(lambda: action.main(env))
        out, err = capsys.readouterr()
        result = Result(code, out, err)
    return result, summary.read_text() if summary.exists() else ""


class Result(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def test_action_reports_the_stale_revert_everywhere(repo: Any, tmp_path: Path, standin: Standin) -> None:
    before = story_221(repo)
    head = stale_pr(repo, before)
    workspace = checkout(repo, tmp_path, head)
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE)
    assert result.returncode == 1, result.stderr
    assert "#221" in summary
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error file=src/prep/")]
    assert len(errors) == 18
    (comment,) = standin.comments(OWNER_REPO, 224)
    assert comment["login"] == "github-actions[bot]" and "#221" in comment["body"]
    again, _ = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE)
    assert again.returncode == 1 and [c["id"] for c in standin.comments(OWNER_REPO, 224)] == [comment["id"]]


def test_read_only_token_degrades_to_summary_annotations_and_exit_code(
        repo: Any, tmp_path: Path, standin: Standin, capsys: pytest.CaptureFixture[str]) -> None:
    head = stale_pr(repo, story_221(repo))
    workspace = checkout(repo, tmp_path, head)
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), READ, capsys)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "#221" in summary and "::error file=" in result.stdout
    assert "cannot write PR comments" in result.stdout
    assert standin.comments(OWNER_REPO, 224) == []


def test_clean_pr_passes_quietly(repo: Any, tmp_path: Path, standin: Standin,
                                capsys: pytest.CaptureFixture[str]) -> None:
    story_221(repo)
    head = clean_pr(repo)
    workspace = checkout(repo, tmp_path, head)
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 0, result.stderr
    assert "::error" not in result.stdout and summary
    assert standin.comments(OWNER_REPO, 224) == []


def test_shallow_checkout_is_a_clear_error(repo: Any, tmp_path: Path, standin: Standin,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    head = stale_pr(repo, story_221(repo))
    workspace = checkout(repo, tmp_path, head, depth=1)
    result, _ = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 2 and "fetch-depth: 0" in result.stderr and "Traceback" not in result.stderr


def test_outside_actions_is_a_clear_error(tmp_path: Path) -> None:
    result = run_leverguard("github-action", cwd=tmp_path, env={"GITHUB_EVENT_PATH": "", "GITHUB_REPOSITORY": ""})
    assert result.returncode == 2 and "GITHUB_EVENT_PATH" in result.stderr


def test_workflow_commands_are_escaped() -> None:
    line = workflow_command(Annotation("a,b:c.py", "failure", "undoes #1", "50% done\nnext"))
    assert line == "::error file=a%2Cb%3Ac.py,title=undoes #1::50%25 done%0Anext"


def test_lever_and_message_guards_are_reported_but_do_not_gate(repo: Any, tmp_path: Path, standin: Standin,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    repo.write("csrc/k.cu", "#ifdef MPK_FUSED_ROPE\nint fused;\n#endif\n")
    repo.write("py/run.py", "env['MPK_FUSED_ROPE'] = '1'\n")
    repo.commit("feat: fused rope lever")
    repo.git("checkout", "-q", "-b", "wire")
    repo.write("csrc/k.cu", "int fused;\n")
    repo.write("py/run.py", "pass\n")
    head = repo.commit("perf: hard-wire fused rope")
    repo.git("checkout", "-q", "main")
    workspace = checkout(repo, tmp_path, head)
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 0, result.stderr
    assert "### Lever transitions" in summary and "HARD-WIRED" in summary
    assert "### Commit messages" in summary and "lever-sections" in summary
    assert summary.count("does not change the check's conclusion") == 2
    assert standin.comments(OWNER_REPO, 224) == []  # no silent revert: quiet


def test_clean_history_adds_no_guard_sections(repo: Any, tmp_path: Path, standin: Standin,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    repo.write("README", "hello\n")
    repo.commit("docs: start")
    repo.git("checkout", "-q", "-b", "docs")
    repo.write("README", "hello again\n")
    head = repo.commit("docs: more\n\nCo-Authored-By: Bob <bob@example.com>")
    repo.git("checkout", "-q", "main")
    workspace = checkout(repo, tmp_path, head)
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 0 and "Informational" not in summary


def test_github_failures_never_hide_the_verdict(repo: Any, tmp_path: Path, standin: Standin,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from github_standin import Fault

    head = stale_pr(repo, story_221(repo))
    workspace = checkout(repo, tmp_path, head)
    standin.inject(Fault("POST", r"/issues/224/comments$", status=502))
    result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 1 and "HTTP 502" in result.stdout and "#221" in summary
    standin.stop()  # GitHub unreachable
    result, _ = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    assert result.returncode == 1 and "cannot reach" in result.stdout
    standin.start()


# ---------------------------------------------------------------------- action.yml's own steps (#12)

ROOT = Path(__file__).resolve().parent.parent
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def expand(text: str, values: dict[str, str]) -> str:
    """GitHub's `${{ name }}` substitution; an unknown name fails the test (it would be empty on GitHub)."""
    return EXPRESSION.sub(lambda m: values[m.group(1)], text)


def run_steps(steps: list[dict[str, Any]], values: dict[str, str], env: dict[str, str], cwd: Path) -> None:
    """Each `run:` step as the runner does: bash --noprofile --norc -eo pipefail, with its expanded env."""
    for step in steps:
        if "run" not in step:
            continue
        assert step.get("shell", "bash") == "bash"
        step_env = {name: expand(str(value), values) for name, value in (step.get("env") or {}).items()}
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(step["run"], values)],
                              cwd=cwd, env={**os.environ, **env, **step_env}, capture_output=True, text=True)
        if step.get("id") != "check":
            assert proc.returncode == 0, proc.stderr
        values[f"steps.{step.get('id')}.conclusion"] = "failure" if proc.returncode else "success"


def read_outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_the_actions_steps_install_leverguard_aside_and_set_its_outputs(repo: Any, tmp_path: Path,
                                                                         standin: Standin) -> None:
    import shutil
    import sys

    action_yml = yaml.safe_load((ROOT / "action.yml").read_text())
    steps = action_yml["runs"]["steps"]
    setup = steps[0]
    assert setup["uses"] == "actions/setup-python@v6" and setup["with"]["update-environment"] is False
    source = tmp_path / "action"  # github.action_path: the action's checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "tests", "bench", "build", "*.egg-info",
                                                                 "__pycache__", ".venv*"))
    head = stale_pr(repo, story_221(repo))
    workspace = checkout(repo, tmp_path, head)
    event = {"pull_request": {"number": 224, "title": "t", "body": "", "labels": [], "head": {"sha": head},
                              "base": {"sha": repo.git("rev-parse", "main")}}}
    (tmp_path / "event.json").write_text(json.dumps(event))
    outputs = tmp_path / "outputs.txt"
    env = {"GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_REPOSITORY": OWNER_REPO,
           "GITHUB_API_URL": standin.url, "GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(outputs),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
           "PATH": "/usr/bin:/bin"}  # no leverguard on PATH: the steps must use their own venv
    values = {"github.action_path": str(source), "runner.temp": str(tmp_path / "runner"),
              "steps.python.outputs.python-path": sys.executable, "inputs.token": WRITE,
              "inputs.python-version": action_yml["inputs"]["python-version"]["default"]}
    run_steps(steps, values, env, workspace)
    found = read_outputs(outputs)
    assert found == {"verdict": "failure", "findings": "1"}
    assert values["steps.check.conclusion"] == "failure"  # exit 1 fails the job
    check_outputs = {f"steps.check.outputs.{name}": value for name, value in found.items()}
    assert {name: expand(spec["value"], check_outputs) for name, spec in action_yml["outputs"].items()} == found
    assert "#221" in (tmp_path / "summary.md").read_text()
    assert (tmp_path / "runner" / "leverguard-venv" / "bin" / "leverguard").exists()
    from test_bot_docs import docs_workflow  # the guide's workflow reads these outputs

    follow = docs_workflow()["jobs"]["leverguard"]["steps"][2]
    proc = subprocess.run(["bash", "-eo", "pipefail", "-c", expand(follow["run"], {
        f"steps.leverguard.outputs.{name}": value for name, value in found.items()})], capture_output=True, text=True)
    assert proc.stdout.strip() == "leverguard found 1 undone change(s): see the job summary"


def test_clean_pr_outputs_success_and_zero(repo: Any, tmp_path: Path, standin: Standin,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    story_221(repo)
    head = clean_pr(repo)
    workspace = checkout(repo, tmp_path, head)
    outputs = tmp_path / "out.txt"
    event = {"pull_request": {"number": 3, "title": "t", "body": "", "labels": [], "head": {"sha": head},
                              "base": {"sha": repo.git("rev-parse", "main")}}}
    (tmp_path / "event.json").write_text(json.dumps(event))
    env = {"GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GITHUB_REPOSITORY": OWNER_REPO,
           "GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(outputs)}
    assert guarded(lambda: action.main(env)) == 0
    assert read_outputs(outputs) == {"verdict": "success", "findings": "0"}
