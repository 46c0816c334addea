"""The stand-in GitHub is faithful where the bot depends on it: JWT checks, Link paging, limits."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from bot_helpers import APP_ID, OWNER_REPO, app_keys
from github import Auth, Github, GithubException
from github_standin import Standin

from leverguard.bot.github import AppClient
from leverguard.bot.settings import Settings


@pytest.fixture
def standin(tmp_path: Path) -> Iterator[Standin]:
    server = Standin(APP_ID, app_keys()[1]).start()
    server.add_repo(OWNER_REPO, str(tmp_path))
    server.add_pull(OWNER_REPO, 1, base_ref="main", head_sha="f" * 40, commits=[f"{n:040x}" for n in range(300)])
    server.add_token("t", write=True)
    yield server
    server.stop()


def client(standin: Standin, tmp_path: Path, key: str) -> AppClient:
    (tmp_path / "key.pem").write_text(key)
    return AppClient(Settings(app_id=str(APP_ID), private_key_file=str(tmp_path / "key.pem"),
                              github_api_url=standin.url, request_interval=0, write_interval=0))


def test_installation_tokens_need_a_jwt_signed_by_the_app_key(standin: Standin, tmp_path: Path) -> None:
    token = client(standin, tmp_path, app_keys()[0]).installation_token(OWNER_REPO, None)
    assert token.startswith("ghs_") and standin.requests("GET", r"/repos/acme/kernels/installation$")
    with pytest.raises(GithubException) as denied:
        client(standin, tmp_path, app_keys(1)[0]).installation_token(OWNER_REPO, 42)
    assert denied.value.status == 401


def test_pull_commits_are_paged_with_absolute_link_urls_and_capped_at_250(standin: Standin) -> None:
    gh = Github(auth=Auth.Token("t"), base_url=standin.url, seconds_between_requests=None)
    commits = list(gh.get_repo(OWNER_REPO).get_pull(1).get_commits())
    assert len(commits) == 250
    assert len(standin.requests("GET", r"/pulls/1/commits")) == 9  # 30 per page


def test_limits_are_enforced_like_github(standin: Standin) -> None:
    gh = Github(auth=Auth.Token("t"), base_url=standin.url, seconds_between_requests=None)
    repo = gh.get_repo(OWNER_REPO)
    annotation: dict[str, str | int] = {"path": "a", "start_line": 1, "end_line": 1, "annotation_level": "notice",
                                        "message": "m"}
    with pytest.raises(GithubException) as too_many:
        repo.create_check_run(name="x", head_sha="f" * 40, output={"title": "t", "summary": "s",
                                                                   "annotations": [annotation] * 51})
    assert too_many.value.status == 422
    with pytest.raises(GithubException):
        Github(auth=Auth.Token("nope"), base_url=standin.url).get_repo(OWNER_REPO).get_pull(1).title


def test_contents_and_labels_are_served_from_the_real_repository(repo: object, tmp_path: Path) -> None:
    from bot_helpers import serve_bare

    repo.write(".leverguard.toml", "[revert]\nwindow = 10\n")  # type: ignore[attr-defined]
    repo.commit("config")  # type: ignore[attr-defined]
    bare = tmp_path / "up.git"
    serve_bare(repo.path, bare)  # type: ignore[attr-defined]
    server = Standin(APP_ID, app_keys()[1]).start()
    try:
        server.add_repo(OWNER_REPO, str(bare))
        server.add_pull(OWNER_REPO, 2, base_ref="main", head_sha="f" * 40, labels=("leverguard: allow-revert",))
        server.add_token("t", write=False)
        client = Github(auth=Auth.Token("t"), base_url=server.url, seconds_between_requests=None, lazy=True)
        gh = client.get_repo(OWNER_REPO)
        assert gh.get_contents(".leverguard.toml", ref="main").decoded_content == b"[revert]\nwindow = 10\n"
        assert [label.name for label in gh.get_issue(2).get_labels()] == ["leverguard: allow-revert"]
    finally:
        server.stop()
