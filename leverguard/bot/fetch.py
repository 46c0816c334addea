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


def prefetch_blobs(fetched: Fetched, window: int, environ: Mapping[str, str]) -> int:
    """Fetch, in one round trip, the blobs the check reads; the number fetched.

    A blobless cache fetches each missing blob lazily, one `git fetch` per object (about 25 ms
    each); the check reads the versions of the PR's paths in the PR's commits and in BASE's
    candidate window, so those are asked for up front, exactly as git's own lazy fetch asks.
    """
    path, env = fetched.path, {**environ, "GIT_LITERAL_PATHSPECS": "1"}
    merge_base = git.output(["merge-base", fetched.base_sha, fetched.head_sha], path)
    names = git.split_z(git.run(["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", merge_base,
                                 fetched.head_sha], path).stdout)
    missing: set[str] = set()
    for start in range(0, len(names), 500):  # bounded command lines for huge PRs
        chunk = [git.fsdecode(name) for name in names[start:start + 500]]
        for revs in (["--first-parent", "-n", str(window + 1), fetched.base_sha], [f"{merge_base}..{fetched.head_sha}"]):
            listed = git.output(["rev-list", "--objects", "--missing=print", *revs, "--", *chunk], path, env=env)
            missing.update(line[1:].split(" ", 1)[0] for line in listed.splitlines() if line.startswith("?"))
    if missing:
        git.run(["-c", "fetch.negotiationAlgorithm=noop", "-c", f"core.hooksPath={os.devnull}", "fetch", "-q",
                 "origin", "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none",
                 "--stdin"], path, input="".join(f"{oid}\n" for oid in sorted(missing)).encode(), env=env)
    return len(missing)
