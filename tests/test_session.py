"""The repository session: located once, one object reader, one configuration snapshot per commit."""

from __future__ import annotations

import subprocess

from conftest import Repo
from leverguard.session import Session
from revert_helpers import land, seed


def test_a_session_locates_the_repository_and_resolves_revisions_in_one_go(repo: Repo, tmp_path) -> None:
    seed(repo)
    head = repo.head()
    with Session(str(repo.path)) as session:
        assert session.resolve(["HEAD"]) == [head]
        assert not session.where.bare and session.work_git_dir == session.where.git_dir
        assert session.where.objects.endswith("objects")
    mirror = tmp_path / "mirror.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo.path), str(mirror)], check=True)
    with Session(str(mirror)) as session:
        assert session.resolve(["main"]) == [head] and session.where.bare and session.work_git_dir is None


def test_configuration_snapshots_are_per_commit(repo: Repo) -> None:
    seed(repo)
    base = repo.head()
    head = land(repo, "config: a smaller window", {".leverguard.toml": "[revert]\nwindow = 7\n"})
    with Session(str(repo.path)) as session:
        assert session.config_at(base).get("revert.window") == 150  # BASE's: what every guard of a PR reads
        assert session.config_at(head).get("revert.window") == 7
        assert session.config_at(base) is session.config_at(base)  # read once


def test_one_reader_serves_the_session_until_it_closes(repo: Repo) -> None:
    seed(repo)
    session = Session(str(repo.path))
    reader = session.reader
    session.config_at(repo.head())
    assert session.reader is reader
    session.close()
    assert session.reader is not reader  # a closed session starts a fresh reader if used again
    session.close()
