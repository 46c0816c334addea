"""The bare blobless cache: refs/pull/N/head from the configured git host, the token only in the environment, hooks off."""

from __future__ import annotations

import base64
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import OWNER_REPO, git_host, publish_pull, serve_bare, stale_pr, story_221

from leverguard.bot import fetch
from leverguard.bot.settings import Settings
from leverguard.errors import GitError, LeverguardError
from leverguard.session import Session

TOKEN = "ghs_topsecret0123456789"


@pytest.fixture
def upstream(repo: Any, tmp_path: Path) -> tuple[Settings, str, Path]:
    """(settings naming the git host, PR head, bare path) of acme/kernels, whose PR #224 is a stale revert."""
    before = story_221(repo)
    head = stale_pr(repo, before)
    bare = tmp_path / "upstream.git"
    serve_bare(repo.path, bare)
    publish_pull(repo.path, bare, 224, head)
    return Settings(cache_dir=str(tmp_path / "cache"), git_url=git_host(tmp_path)), head, bare


def env_with(token: str | None = None, **extra: str) -> dict[str, str]:
    return {**os.environ, **fetch.auth_env(token), **extra}


def git_in(path: str, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, env=env).stdout.strip()


def test_fetch_builds_a_bare_blobless_cache(upstream: tuple[str, str, Path], tmp_path: Path, repo: Any) -> None:
    st, head, _ = upstream
    got = fetch.fetch_pull(st, OWNER_REPO, "main", 224, env_with())
    assert got.head_sha == head and got.base_sha == repo.git("rev-parse", "main")
    assert got.path == fetch.cache_path(st.cache_dir, OWNER_REPO) == str(tmp_path / "cache/acme/kernels.git")
    assert git_in(got.path, "rev-parse", "--is-bare-repository") == "true"
    assert git_in(got.path, "config", "remote.origin.promisor") == "true"
    missing = [line for line in git_in(got.path, "rev-list", "--objects", "--missing=print", "--all").splitlines()
               if line.startswith("?")]
    assert missing  # no blob was downloaded
    again = fetch.fetch_pull(st, OWNER_REPO, "main", 224, env_with())
    assert again == got  # the cache is reused


def test_token_goes_through_the_environment_only(upstream: tuple[str, str, Path], tmp_path: Path) -> None:
    st, _, _ = upstream
    trace = tmp_path / "trace.txt"
    got = fetch.fetch_pull(st, OWNER_REPO, "main", 224, env_with(TOKEN, GIT_TRACE=str(trace)))
    assert "git fetch" in trace.read_text() or "'fetch'" in trace.read_text()
    assert TOKEN not in trace.read_text()  # not on any git command line
    for name in ("config", "FETCH_HEAD", "packed-refs"):
        path = Path(got.path) / name
        assert not path.exists() or TOKEN not in path.read_text(errors="replace")
    header = git_in(got.path, "config", "--get", "http.extraHeader", env=env_with(TOKEN))
    assert header == "Authorization: Basic " + base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
    assert git_in(got.path, "config", "--get", "http.extraHeader", env=env_with()) == ""


def test_hooks_never_run_in_the_cache(upstream: tuple[str, str, Path], tmp_path: Path) -> None:
    st, _, _ = upstream
    path = fetch.cache_path(st.cache_dir, OWNER_REPO)
    fetch.fetch_pull(st, OWNER_REPO, "main", 224, env_with())
    marker = tmp_path / "hook-ran"
    hook = Path(path) / "hooks" / "reference-transaction"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    subprocess.run(["git", "update-ref", "refs/pull/224/head", "main"], cwd=upstream[2], check=True)  # a force-push
    got = fetch.fetch_pull(st, OWNER_REPO, "main", 224, env_with())
    assert got.head_sha == got.base_sha  # the ref moved, so a reference-transaction hook would have run
    assert not marker.exists()



def test_dangerous_transports_are_refused(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    st = Settings(cache_dir=str(tmp_path / "cache"), git_url=f"ext::sh -c touch% {marker}%")
    with pytest.raises(GitError):  # even a host that slipped past settings.validate: GIT_ALLOW_PROTOCOL
        fetch.fetch_pull(st, OWNER_REPO, "main", 1, env_with())
    assert not marker.exists()
    for name in ("--upload-pack=touch/x", "acme/../acme/kernels", "acme/..", "a/b/c", "/etc", "acme/kernels\n"):
        with pytest.raises(LeverguardError, match="OWNER/NAME"):
            fetch.fetch_pull(st, name, "main", 1, env_with())
    for branch in ("main:refs/heads/x", "-x", "a..b"):
        with pytest.raises(LeverguardError, match="branch"):
            fetch.fetch_pull(Settings(cache_dir=str(tmp_path / "cache"), git_url="file:///x"), OWNER_REPO, branch,
                             1, env_with())


def test_unknown_pr_ref_is_a_git_error(upstream: tuple[str, str, Path], tmp_path: Path) -> None:
    with pytest.raises(GitError):
        fetch.fetch_pull(upstream[0], OWNER_REPO, "main", 999, env_with())


def test_the_check_runs_in_the_blobless_cache_with_one_batched_blob_fetch(upstream: tuple[str, str, Path],
                                                                          tmp_path: Path) -> None:
    from leverguard.revert.engine import RevertOptions, check_range

    got = fetch.fetch_pull(upstream[0], OWNER_REPO, "main", 224, env_with())
    trace = tmp_path / "trace.txt"
    os.environ["GIT_TRACE"] = str(trace)
    try:
        report = check_range(Session(got.path), got.base_sha, got.head_sha, RevertOptions())
    finally:
        del os.environ["GIT_TRACE"]
    assert report.exit_code() == 1 and report.to_dict()["findings"][0]["pr"] == 221
    fetches = [line for line in trace.read_text().splitlines() if "built-in: git fetch" in line]
    assert len(fetches) <= 2  # batched, not one lazy fetch per blob (38 here)


def test_cache_path_is_one_per_owner_and_name(tmp_path: Path) -> None:
    root = str(tmp_path)
    assert fetch.cache_path(root, "acme/kernels") == str(tmp_path / "acme/kernels.git")
    assert fetch.cache_path(root, "Acme/Kernels") == fetch.cache_path(root, "acme/kernels")  # GitHub ignores case
    for name in ("acme/../acme/kernels", "../etc", "acme/.", "acme/..", "acme", ""):
        with pytest.raises(LeverguardError, match="OWNER/NAME"):
            fetch.cache_path(root, name)


def test_the_other_guards_read_the_blobless_cache_with_one_batched_fetch(repo: Any, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from leverguard.bot import guards

    for i in range(30):  # unchanged sources the lever scan greps at BASE: one lazy fetch each before
        repo.write(f"csrc/other{i}.cu", f"int other{i};\n#ifdef MPK_OTHER{i}\nint x{i};\n#endif\n")
    repo.write("csrc/k.cu", "#ifdef MPK_FUSED_ROPE\nint fused;\n#endif\n")
    repo.write("py/run.py", "env['MPK_FUSED_ROPE'] = '1'\n")
    repo.commit("feat: kernels and a fused rope lever")
    repo.git("checkout", "-q", "-b", "wire")
    repo.write("csrc/k.cu", "int fused;\n")
    repo.write("py/run.py", "pass\n")
    head = repo.commit("perf: hard-wire fused rope")
    bare = tmp_path / "upstream.git"
    serve_bare(repo.path, bare)
    publish_pull(repo.path, bare, 7, head)
    st = Settings(cache_dir=str(tmp_path / "cache"), git_url=git_host(tmp_path))
    got = fetch.fetch_pull(st, OWNER_REPO, "main", 7, env_with())
    config = Session(got.path).config_at(got.base_sha)
    trace = tmp_path / "trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    with Session(got.path) as session:
        found = guards.sections(session, config, got.base_sha, got.head_sha)
    monkeypatch.delenv("GIT_TRACE")
    assert [s.title for s in found] == ["Levers", "Commit messages"] and "HARD-WIRED" in found[0].markdown
    lines = trace.read_text().splitlines()
    assert sum("built-in: git fetch" in line for line in lines) == 1  # 33 before: one per blob read
    assert sum("built-in: git" in line for line in lines) < 60  # 188 before
    needed = guards.needed_blobs(got.path, config, got.base_sha, got.head_sha, [got.head_sha])
    assert len(needed) >= 32 and fetch.prefetch_blobs(got.path, needed, [got.base_sha, got.head_sha]) == 0
