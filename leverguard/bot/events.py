"""Which webhook deliveries start a check: the pull_request actions and check_run.rerequested."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

CHECK_NAME = "leverguard"

# pull_request actions that always change what landing the PR would do.
PULL_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
# label changes may add or remove the override label; the label's name lives in the BASE config,
# which only the worker reads, so every label change is a job (a cheap idempotent re-check).
LABEL_ACTIONS = frozenset({"labeled", "unlabeled"})
# an edit matters when the base moved or the text that can declare a revert changed.
EDIT_FIELDS = frozenset({"base", "title", "body"})


@dataclass(frozen=True)
class Trigger:
    """A delivery that asks for a check of one PR at one head."""

    repo: str
    pr: int
    head_sha: str
    reason: str


@dataclass(frozen=True)
class Target:
    """Where the worker fetches from and who it authenticates as, read from a stored payload."""

    repo: str
    pr: int
    head_sha: str
    clone_url: str
    installation_id: int | None


def classify(event: str, payload: Mapping[str, Any]) -> Trigger | None:
    """The check a delivery asks for, or None when it asks for nothing."""
    action = str(payload.get("action", ""))
    repo = str(payload.get("repository", {}).get("full_name", ""))
    if not repo:
        return None
    if event == "pull_request":
        return _pull_request(action, repo, payload)
    if event == "check_run" and action == "rerequested":
        run = payload.get("check_run", {})
        pulls = run.get("pull_requests") or []
        if run.get("name") == CHECK_NAME and pulls:
            return Trigger(repo, int(pulls[0]["number"]), str(run["head_sha"]), "check_run.rerequested")
    if event == "check_suite" and action == "rerequested":  # "Re-run all checks" goes to every app's suite
        suite = payload.get("check_suite", {})
        pulls = suite.get("pull_requests") or []
        if pulls:
            return Trigger(repo, int(pulls[0]["number"]), str(suite["head_sha"]), "check_suite.rerequested")
    return None


def _pull_request(action: str, repo: str, payload: Mapping[str, Any]) -> Trigger | None:
    pull = payload.get("pull_request", {})
    if pull.get("state", "open") != "open":
        return None
    if action in PULL_ACTIONS or action in LABEL_ACTIONS or (
            action == "edited" and EDIT_FIELDS & set(payload.get("changes", {}))):
        return Trigger(repo, int(pull["number"]), str(pull["head"]["sha"]), f"pull_request.{action}")
    return None


def target(payload: Mapping[str, Any], trigger_repo: str, pr: int, head_sha: str) -> Target:
    """The fetch source is the BASE repository's clone_url: refs/pull/N/head exists there, forks included."""
    repository = payload.get("repository", {})
    installation = payload.get("installation", {}).get("id")
    return Target(trigger_repo, pr, head_sha, str(repository.get("clone_url", "")),
                  int(installation) if installation is not None else None)
