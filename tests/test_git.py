"""The git layer on real repositories: batch object reads, errors that say what to do."""

from __future__ import annotations

import pytest

from conftest import Repo
from leverguard import git
from leverguard.errors import GitError


@pytest.fixture
def seeded(repo: Repo) -> Repo:
    repo.write("a file.txt", "spaced\n")
    repo.write("src/b.py", "b = 1\n")
    repo.commit("initial")
    return repo


def test_long_lived_reader_answers_missing_names_with_spaces(seeded: Repo) -> None:
    with git.ObjectReader(str(seeded.path)) as reader:
        assert reader.read("HEAD:no such file.txt") is None
        assert reader.read("HEAD:a file.txt") == ("blob", b"spaced\n")
        assert reader.read("HEAD:src/b.py") == ("blob", b"b = 1\n")


def test_unknown_revision_and_outside_a_repository(seeded: Repo, tmp_path_factory: pytest.TempPathFactory) -> None:
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        git.rev_parse("nope", str(seeded.path))
    with pytest.raises(GitError, match="unknown revision '--all'"):
        git.rev_parse("--all", str(seeded.path))
    with pytest.raises(GitError, match="no such directory"):
        git.run(["status"], str(seeded.path / "missing"))


def test_staged_names_on_an_unborn_branch(repo: Repo) -> None:
    repo.write("new.txt")
    repo.git("add", "new.txt")
    assert git.staged_names(str(repo.path)) == [b"new.txt"]
    with pytest.raises(GitError, match="not a git repository"):
        git.staged_names(str(repo.path.parent))
