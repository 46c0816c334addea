"""`leverguard github-action`: the same check and report from inside a GitHub Actions job."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from typing import Any, Mapping

from leverguard import git
from leverguard.bot import guards, report, verdict
from leverguard.errors import LeverguardError
from leverguard.session import Session

ACTIONS_LOGIN = "github-actions[bot]"  # who comments with the workflow's GITHUB_TOKEN
SHALLOW = ("the checkout is shallow, so the history leverguard compares against is missing: set "
           "`fetch-depth: 0` on actions/checkout")


def main(environ: Mapping[str, str]) -> int:
    """Check the PR of this workflow run; exit 1 on a silent revert, 0 otherwise."""
    pull, repository = _event(environ)
    repo_dir = git.toplevel(environ.get("GITHUB_WORKSPACE") or ".")
    if git.is_shallow(repo_dir):
        raise LeverguardError(SHALLOW)
    base, head = _range(repo_dir, pull)
    with Session(repo_dir) as session:  # BASE's configuration, read once, reaches every guard
        config = session.config_at(base)
        result = verdict.evaluate(session, base, head, pr_number=int(pull["number"]), pr_text=_text(pull),
                                  labels=[str(label["name"]) for label in pull.get("labels") or []], config=config)
        result = guards.with_sections(result, session, config, base, head)
    _summary(environ.get("GITHUB_STEP_SUMMARY"), result.markdown)
    _outputs(environ.get("GITHUB_OUTPUT"), {"verdict": result.conclusion, "findings": str(result.findings)})
    for annotation in result.annotations:
        print(workflow_command(annotation))
    _comment(environ, repository, int(pull["number"]), result)
    print(f"leverguard: {result.title} ({result.conclusion})", file=sys.stderr)
    return 1 if result.conclusion == "failure" else 0


def _event(environ: Mapping[str, str]) -> tuple[dict[str, Any], str]:
    path, repository = environ.get("GITHUB_EVENT_PATH"), environ.get("GITHUB_REPOSITORY")
    if not path or not repository:
        raise LeverguardError("GITHUB_EVENT_PATH and GITHUB_REPOSITORY are not set: run `leverguard github-action` "
                              "as a step of a GitHub Actions workflow (see the README's workflow)")
    try:
        with open(path, encoding="utf-8") as fh:
            event = json.load(fh)
    except (OSError, ValueError) as exc:
        raise LeverguardError(f"cannot read the event payload {path}: {exc}") from exc
    pull = event.get("pull_request") if isinstance(event, dict) else None
    if not pull:
        raise LeverguardError("this workflow run has no pull request: trigger the job `on: pull_request` "
                              "(or pull_request_target)")
    return pull, repository


def _range(repo_dir: str, pull: Mapping[str, Any]) -> tuple[str, str]:
    """BASE..HEAD: actions/checkout leaves refs/pull/N/merge checked out, whose first parent is the base."""
    head = git.rev_parse(str(pull["head"]["sha"]), repo_dir)
    parents = git.output(["rev-list", "--parents", "-n", "1", "HEAD"], repo_dir).split()[1:]
    if len(parents) == 2 and parents[1] == head:
        return parents[0], head
    return git.rev_parse(str(pull["base"]["sha"]), repo_dir), head


def _text(pull: Mapping[str, Any]) -> str:
    return f"{pull.get('title') or ''}\n\n{pull.get('body') or ''}".strip()


def _summary(path: str | None, markdown: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(markdown + "\n")


def _outputs(path: str | None, values: Mapping[str, str]) -> None:
    """The step's outputs (`steps.ID.outputs.verdict`, `.findings`): NAME=VALUE lines in $GITHUB_OUTPUT."""
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("".join(f"{name}={value}\n" for name, value in values.items()))


def workflow_command(annotation: verdict.Annotation) -> str:
    """`::error file=...,title=...::message`, escaped as the runner expects."""
    kind = {"failure": "error", "warning": "warning"}.get(annotation.level, "notice")
    props = f"file={_escape(annotation.path, True)},title={_escape(annotation.title, True)}"
    return f"::{kind} {props}::{_escape(annotation.message, False)}"


def _escape(text: str, prop: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def _comment(environ: Mapping[str, str], repository: str, number: int, result: verdict.Verdict) -> None:
    """Upsert the PR comment; a read-only token (fork PRs) degrades to the summary and annotations."""
    token = environ.get("GITHUB_TOKEN")
    if not token:
        print("::warning::leverguard: no GITHUB_TOKEN, so no PR comment; the report is in the job summary")
        return
    from github import GithubException
    from requests import RequestException

    from leverguard.bot.github import installation_repository
    from leverguard.bot.settings import load

    settings = load(environ)  # PyGithub pacing may be tuned in $LEVERGUARD_BOT_SETTINGS
    settings = replace(settings, github_api_url=environ.get("GITHUB_API_URL") or settings.github_api_url)
    repo = installation_repository(settings, repository, token)
    try:
        report.upsert_comment(repo, number, result, environ.get("LEVERGUARD_COMMENT_LOGIN") or ACTIONS_LOGIN)
    except GithubException as exc:
        why = ("a fork PR's read-only token?" if exc.status in (401, 403, 404) else "GitHub failed; re-run the job")
        print(f"::warning::leverguard: the token cannot write PR comments (HTTP {exc.status}, {why}); "
              "the report is in the job summary and the annotations")
    except RequestException as exc:
        print(f"::warning::leverguard: cannot reach {settings.github_api_url} ({type(exc).__name__}); "
              "the report is in the job summary and the annotations")
