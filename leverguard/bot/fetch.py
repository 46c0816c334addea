"""One cached bare, blobless repository per GitHub repository, fetched with the token in the environment only.

The URL is never the payload's: it is built from the configured git host and the repository's
`full_name`, so a forged or odd `clone_url` cannot send the installation token elsewhere (issue #11).
"""

from __future__ import annotations

import base64
import fcntl
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

from leverguard import git
from leverguard.bot.events import valid_full_name
from leverguard.bot.settings import Settings, git_url
from leverguard.errors import LeverguardError

# Only what a configured git host can be (settings.validate): https, or a local file:// mirror.
# ext::, fd::, ssh and plain http never run, whatever a URL or a .gitmodules says.
ALLOWED_PROTOCOLS = "https:file"
# a branch name as git check-ref-format --branch accepts it, minus what a refspec could abuse.
BRANCH = re.compile(r"^(?!-)(?!.*\.\.)(?!.*//)[A-Za-z0-9._/+-]+(?<![./])$")


@dataclass(frozen=True)
class Fetched:
    """The cache repository and the commits the fetch found."""

    path: str
    base_sha: str
    head_sha: str


def auth_env(token: str | None) -> dict[str, str]:
    """Variables that give git the token without a config file or a command line (git 2.31+).

    Redirects are refused: git would otherwise repeat the header to whatever host a redirect names.
    """
    extra = {"GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": ALLOWED_PROTOCOLS, "GIT_NO_REPLACE_OBJECTS": "1",
             "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.followRedirects", "GIT_CONFIG_VALUE_0": "false"}
    if token:
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        extra.update({"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_1": "http.extraHeader",
                      "GIT_CONFIG_VALUE_1": f"Authorization: Basic {basic}"})
    return extra


def repository_url(settings: Settings, full_name: str) -> str:
    """GIT_HOST/OWNER/NAME.git; a name GitHub could not have is refused before git sees it."""
    if not valid_full_name(full_name):
        raise LeverguardError(f"the repository name {full_name!r} is not OWNER/NAME as GitHub spells it: "
                              "the delivery was not from GitHub")
    return f"{git_url(settings)}/{full_name}.git"


def cache_path(cache_dir: str, full_name: str) -> str:
    """cache_dir/OWNER/NAME.git: one per repository (GitHub's names are case-insensitive)."""
    if not valid_full_name(full_name):
        raise LeverguardError(f"the repository name {full_name!r} is not OWNER/NAME as GitHub spells it")
    owner, name = full_name.lower().split("/")
    return os.path.join(os.path.abspath(cache_dir), owner, name + ".git")


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


def fetch_pull(settings: Settings, full_name: str, base_ref: str, pr: int, environ: Mapping[str, str]) -> Fetched:
    """Fetch BASE_REF and refs/pull/PR/head (forks included) into the bare cache, without blobs."""
    url = repository_url(settings, full_name)
    if not BRANCH.fullmatch(base_ref):
        raise LeverguardError(f"the pull request's base branch {base_ref!r} is not a branch name git accepts")
    path = cache_path(settings.cache_dir, full_name)
    env = dict(environ)  # settings.validate allowed only https, http to loopback, or a file:// mirror
    with _locked(path):
        if not os.path.isdir(path):
            git.run(["init", "-q", "--bare", path], env=env)
            git.run(["config", "core.hooksPath", os.devnull], path, env=env)  # no hooks, ever
        git.run(["config", "remote.origin.url", url], path, env=env)
        refspecs = [f"+refs/heads/{base_ref}:refs/remotes/origin/{base_ref}", f"+refs/pull/{pr}/head:refs/pull/{pr}/head"]
        git.run(["-c", f"core.hooksPath={os.devnull}", "fetch", "-q", "--no-tags", "--no-write-fetch-head",
                 "--recurse-submodules=no", "--filter=blob:none", "origin", *refspecs], path, env=env)
        base = git.rev_parse(f"refs/remotes/origin/{base_ref}", path)
        head = git.rev_parse(f"refs/pull/{pr}/head", path)
    return Fetched(path, base, head)


def prefetch_blobs(path: str, oids: Iterable[str], commits: Sequence[str]) -> int:
    """Fetch every missing blob of OIDS (all in COMMITS' trees) in one round trip (issue #11).

    git's lazy fetch asks for one blob per read. Which blobs are missing comes from
    `rev-list --missing=print`, which never fetches (`cat-file --batch-check` would, one by one,
    before git 2.44's GIT_NO_LAZY_FETCH). Nothing happens outside a partial clone (Actions mode's
    full checkout). The number fetched.
    """
    remote = git.promisor_remote(path)
    wanted = set(oids)
    if not remote or not wanted:
        return 0
    listed = git.run(["rev-list", "--objects", "--no-walk", "--missing=print", "--no-object-names", "--stdin"],
                     path, input="".join(f"{c}\n" for c in commits).encode()).stdout.decode().split()
    missing = [line[1:] for line in listed if line.startswith("?") and line[1:] in wanted]
    if missing:
        git.fetch_objects(missing, remote, path)
    return len(missing)
