"""The GitHub side through PyGithub: App authentication, fresh installation tokens, the PR's current state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from github import Auth, Github, GithubIntegration, GithubRetry
from github.Repository import Repository

from leverguard.bot.settings import Settings, key_source, private_key
from leverguard.errors import LeverguardError


@dataclass(frozen=True)
class PullInfo:
    """What the worker needs of a PR, read from the API at job time (payloads go stale)."""

    number: int
    state: str
    title: str
    body: str
    labels: tuple[str, ...]
    base_ref: str
    head_sha: str

    @property
    def text(self) -> str:
        """The PR text that may declare a revert: title and description."""
        return f"{self.title}\n\n{self.body}".strip()


class NoBlindPostRetry(GithubRetry):
    """PyGithub's retry, except a POST answered 5xx: GitHub may have applied it before the error
    (a created comment or check run), and a check run cannot be deleted again. The job is retried
    instead and finds what exists. Rate limits (403/429 with Retry-After) are still waited out."""

    def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
        if method.upper() == "POST" and status_code >= 500:
            return False
        return bool(super().is_retry(method, status_code, has_retry_after))


def pacing(settings: Settings) -> dict[str, Any]:
    """PyGithub's throttle and retry, shared by App and installation clients."""
    return {"base_url": settings.github_api_url.rstrip("/"), "retry": NoBlindPostRetry(),
            "seconds_between_requests": settings.request_interval or None,
            "seconds_between_writes": settings.write_interval or None}


class AppClient:
    """The App: a JWT signed with its private key buys a short-lived installation token per job."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._auth = Auth.AppAuth(int(settings.app_id), private_key(settings))
        try:
            self._auth.create_jwt()  # fail at start, not in every job, on a key that cannot sign
        except Exception as exc:  # PyJWT and cryptography raise several unrelated types here
            raise LeverguardError(f"{key_source(settings)}: cannot sign a JWT with this key ({exc}): "
                                  "use the PEM private key downloaded from the App's settings page") from exc
        self._integration = GithubIntegration(auth=self._auth, **pacing(settings))
        self._login: str | None = None

    @property
    def app_id(self) -> int:
        return int(self._settings.app_id)

    def installation_token(self, full_name: str, installation_id: int | None) -> str:
        """A fresh token: minted before each fetch, so a long queue never hands git an expired one."""
        if installation_id is None:
            owner, _, name = full_name.partition("/")
            installation_id = self._integration.get_repo_installation(owner, name).id
        return self._integration.get_access_token(installation_id).token

    def bot_login(self) -> str:
        """The login the App comments as (`SLUG[bot]`): only those comments are ever edited."""
        if self._login is None:
            self._login = f"{self._integration.get_app().slug}[bot]"
        return self._login

    def repository(self, full_name: str, token: str) -> Repository:
        return installation_repository(self._settings, full_name, token)


def installation_repository(settings: Settings, full_name: str, token: str) -> Repository:
    """A lazy Repository handle: no request until a method needs one."""
    client = Github(auth=Auth.Token(token), lazy=True, **pacing(settings))
    return client.get_repo(full_name)


def pull_info(repo: Repository, number: int) -> PullInfo:
    pull = repo.get_pull(number)
    raw = pull.raw_data
    return PullInfo(number=number, state=str(raw.get("state", "open")), title=str(raw.get("title") or ""),
                    body=str(raw.get("body") or ""),
                    labels=tuple(str(label["name"]) for label in raw.get("labels") or []),
                    base_ref=str(raw["base"]["ref"]), head_sha=str(raw["head"]["sha"]))
