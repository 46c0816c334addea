"""One cached bare, blobless repository per GitHub repository, fetched with the token in the environment only."""

from __future__ import annotations

import base64
import fcntl
import os
import re
from dataclasses import dataclass
from typing import Iterator, Mapping
from contextlib import contextmanager

from leverguard import git
from leverguard.errors import LeverguardError

# ext:: and fd:: would let a URL run commands; GitHub only ever sends https.
ALLOWED_PROTOCOLS = "https:http:ssh:git:file"


@dataclass(frozen=True)
class Fetched:
    """The cache repository and the commits the fetch found."""

    path: str
    base_sha: str
    head_sha: str


def auth_env(token: str | None) -> dict[str, str]:
    """Variables that give git the token without a config file or a command line (git 2.31+)."""
    extra = {"GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": ALLOWED_PROTOCOLS, "GIT_NO_REPLACE_OBJECTS": "1"}
    if token:
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        extra.update({"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.extraHeader",
                      "GIT_CONFIG_VALUE_0": f"Authorization: Basic {basic}"})
    return extra


def cache_path(cache_dir: str, clone_url: str) -> str:
    """cache_dir/HOST/OWNER/NAME.git: stable per repository, safe as a path."""
    trimmed = re.sub(r"^[a-z+]+://", "", clone_url).removesuffix(".git").strip("/")
    parts = [re.sub(r"[^A-Za-z0-9._-]", "_", part) or "_" for part in trimmed.split("/") if part not in ("", ".", "..")]
    return os.path.join(os.path.abspath(cache_dir), *parts[:-1], parts[-1] + ".git")


@contextmanager
def _locked(path: str) -> Iterator[None]:
    """One fetch at a time per cache repository, across worker processes."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def fetch_pull(cache_dir: str, clone_url: str, base_ref: str, pr: int, environ: Mapping[str, str]) -> Fetched:
    """Fetch BASE_REF and refs/pull/PR/head (forks included) into the bare cache, without blobs."""
    if not clone_url or clone_url.startswith("-"):
        raise LeverguardError(f"the payload's repository.clone_url {clone_url!r} is not a URL git can fetch")
    path = cache_path(cache_dir, clone_url)
    env = dict(environ)
    with _locked(path):
        if not os.path.isdir(path):
            git.run(["init", "-q", "--bare", path], env=env)
            git.run(["config", "core.hooksPath", os.devnull], path, env=env)  # no hooks, ever
        git.run(["config", "remote.origin.url", clone_url], path, env=env)
        refspecs = [f"+refs/heads/{base_ref}:refs/remotes/origin/{base_ref}", f"+refs/pull/{pr}/head:refs/pull/{pr}/head"]
        git.run(["-c", f"core.hooksPath={os.devnull}", "fetch", "-q", "--no-tags", "--no-write-fetch-head",
                 "--filter=blob:none", "origin", *refspecs], path, env=env)
        base = git.rev_parse(f"refs/remotes/origin/{base_ref}", path)
        head = git.rev_parse(f"refs/pull/{pr}/head", path)
    return Fetched(path, base, head)

