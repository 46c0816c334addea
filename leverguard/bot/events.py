"""Which webhook deliveries start a check: the pull_request actions and check_run/check_suite.rerequested.

A signed payload is still checked for shape: a missing field or a wrong type is `Malformed` (400),
never a traceback (issue #11).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from leverguard.bot.errors import Malformed

CHECK_NAME = "leverguard"

# pull_request actions that always change what landing the PR would do.
PULL_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
# label changes may add or remove the override label; the label's name lives in the BASE config,
# which only the worker reads, so every label change is a job (a cheap idempotent re-check).
LABEL_ACTIONS = frozenset({"labeled", "unlabeled"})
# an edit matters when the base moved or the text that can declare a revert changed.
EDIT_FIELDS = frozenset({"base", "title", "body"})
# GitHub's owner (letters, digits, hyphens) and repository names (also . and _), never . or ..
FULL_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$")
SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
MAX_ID = 2**53 - 1  # GitHub's ids are JSON-safe integers; SQLite stores up to 2**63 - 1


@dataclass(frozen=True)
class Trigger:
    """A delivery that asks for a check of one PR at one head; PR None: a re-run to map by head."""

    repo: str
    pr: int | None
    head_sha: str
    reason: str


@dataclass(frozen=True)
class Target:
    """Who the worker authenticates as, read from a stored payload (the fetch URL is never the payload's)."""

    repo: str
    pr: int
    head_sha: str
    clone_url: str  # informational only: fetch.repository_url builds the URL from the configured host
    installation_id: int | None


def valid_full_name(name: str) -> bool:
    return bool(FULL_NAME.fullmatch(name))  # fullmatch: `$` would accept a trailing newline


def classify(event: str, payload: Mapping[str, Any]) -> Trigger | None:
    """The check a delivery asks for, or None when it asks for nothing; Malformed for a bad shape."""
    if event not in ("pull_request", "check_run", "check_suite"):
        return None
    action = _text(payload, "action")
    repo = _full_name(payload)
    if event == "pull_request":
        return _pull_request(action, repo, payload)
    if action != "rerequested":
        return None
    if event == "check_run":
        run = _table(payload, "check_run")
        if run.get("name") != CHECK_NAME:
            return None
        return _rerun(repo, run, "check_run.rerequested")
    return _rerun(repo, _table(payload, "check_suite"), "check_suite.rerequested")  # "Re-run all checks"


def _rerun(repo: str, source: Mapping[str, Any], reason: str) -> Trigger:
    """Fork PRs' re-runs carry an empty pull_requests list: PR None, mapped by head SHA later."""
    head = _sha(source, "head_sha")
    pulls = source.get("pull_requests") or []
    if not isinstance(pulls, list) or not all(isinstance(p, dict) for p in pulls):
        raise Malformed(f"{reason}: pull_requests must be a list of objects")
    if not pulls:
        return Trigger(repo, None, head, reason)
    return Trigger(repo, _number(pulls[0], "number"), head, reason)


def _pull_request(action: str, repo: str, payload: Mapping[str, Any]) -> Trigger | None:
    pull = _table(payload, "pull_request")
    if pull.get("state", "open") != "open":
        return None
    changes = payload.get("changes", {})
    if not isinstance(changes, dict):
        raise Malformed("changes must be an object")
    if action in PULL_ACTIONS or action in LABEL_ACTIONS or (action == "edited" and EDIT_FIELDS & set(changes)):
        head = _sha(_table(pull, "head", "pull_request."), "sha", "pull_request.head.")
        return Trigger(repo, _number(pull, "number", "pull_request."), head, f"pull_request.{action}")
    return None


def target(payload: Mapping[str, Any], trigger_repo: str, pr: int, head_sha: str) -> Target:
    """The job's repository (the BASE repository: refs/pull/N/head exists there, forks included)."""
    repository = payload.get("repository")
    installation = payload.get("installation")
    installation_id = installation.get("id") if isinstance(installation, dict) else None
    clone_url = repository.get("clone_url", "") if isinstance(repository, dict) else ""
    return Target(trigger_repo, pr, head_sha, str(clone_url),
                  installation_id if isinstance(installation_id, int) and 0 < installation_id <= MAX_ID else None)


# ---------------------------------------------------------------------- shape checks


def _table(payload: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
    value = payload.get(key)
    if not isinstance(value, dict):
        raise Malformed(f"{where}{key} must be an object, got {_kind(value)}")
    return value


def _text(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key, "")
    if not isinstance(value, str):
        raise Malformed(f"{key} must be a string, got {_kind(value)}")
    return value


def _number(payload: Mapping[str, Any], key: str, where: str = "") -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_ID:
        raise Malformed(f"{where}{key} must be a positive integer below 2**53, got {_kind(value)}")
    return value


def _sha(payload: Mapping[str, Any], key: str, where: str = "") -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not SHA.fullmatch(value):
        raise Malformed(f"{where}{key} must be a commit id (40 hex digits), got {_kind(value)}")
    return value


def _full_name(payload: Mapping[str, Any]) -> str:
    name = _table(payload, "repository").get("full_name")
    if not isinstance(name, str) or not valid_full_name(name):
        raise Malformed(f"repository.full_name must be OWNER/NAME as GitHub spells it, got {_kind(name)}")
    return name


def _kind(value: object) -> str:
    if isinstance(value, (dict, list)):
        return f"a{'n object' if isinstance(value, dict) else ' list'}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
