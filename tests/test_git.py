"""The git layer on real repositories: batch object reads, errors that say what to do."""

from __future__ import annotations

from pathlib import Path

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


# ---------------------------------------------------------------------- one way to start git


def test_large_input_and_output_at_once_never_stall(seeded: Repo) -> None:
    """Both pipes overflow: git answers while it is still being fed, and neither side may wait on the other."""
    seeded.write("a file.txt", "spaced!\n")
    seeded.commit("second")
    blob = git.output(["rev-parse", "HEAD:a file.txt"], str(seeded.path))
    names = [blob] * 20_000  # ~800 KB in, ~1 MB out: far beyond a pipe's 64 KiB each way
    out = git.run(["cat-file", "--batch-check"], str(seeded.path), input="\n".join(names).encode() + b"\n").stdout
    assert out.count(b"\n") == 20_000 and out.startswith(f"{blob} blob 8\n".encode())
    head = git.rev_parse("HEAD", str(seeded.path))
    patches = git.commit_patches([head] * 5_000, cwd=str(seeded.path))  # diff-tree --stdin, 205 KB in
    assert patches.count(b"\x1e") == 5_000


def test_a_stream_stopped_early_stops_git_and_a_failure_is_an_error(seeded: Repo) -> None:
    for i in range(300):
        seeded.write(f"f{i}.txt", f"{i}\n" * 50)
    seeded.commit("many")
    blocks = git.stream_blocks(["log", "-p", "-z", "HEAD", "--"], str(seeded.path))
    assert next(blocks)
    blocks.close()  # the reader went away: git is killed and reaped, nothing is left running
    with pytest.raises(GitError, match="unknown revision"):
        list(git.stream_blocks(["log", "nope", "--"], str(seeded.path)))
    drained = git.start_commit_patches([git.rev_parse("HEAD", str(seeded.path))], cwd=str(seeded.path))
    assert drained is not None and b"f299.txt" in b"".join(drained.blocks())
    drained.close()
    failing = git.Drained(["log", "nope", "--"], str(seeded.path))
    with pytest.raises(GitError, match="unknown revision"):
        b"".join(failing.blocks())
    failing.close()


def test_git_runs_with_the_standard_streams_closed(seeded: Repo, tmp_path: Path) -> None:
    """A hook started with stdin, stdout and stderr closed: the pipes then take numbers 0-2 themselves."""
    import subprocess
    import sys

    result = tmp_path / "head"
    code = ("import os\nfrom leverguard import git\nfor fd in (0, 1, 2):\n    os.close(fd)\n"
            "out = git.run(['cat-file', '--batch-check'], '.', input=b'HEAD\\n').stdout\n"
            f"open({str(result)!r}, 'wb').write(out)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=seeded.path, capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert result.read_bytes().startswith(seeded.git("rev-parse", "HEAD").encode() + b" commit ")


def test_checks_and_audits_never_import_subprocess_or_typing(seeded: Repo) -> None:
    import subprocess
    import sys

    seeded.write("src/b.py", "b = 2\n")
    seeded.commit("change b")
    code = ("import sys\nfrom leverguard.entry import main\n"
            "assert main(['check-revert', 'HEAD~1..HEAD']) == 0\n"
            "print(sorted(m for m in ('subprocess', 'typing', 'click') if m in sys.modules), file=sys.stderr)\n"
            "assert main(['audit', 'HEAD', '--format', 'json']) == 0\n"  # through click, which imports typing
            "print('subprocess' in sys.modules, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=seeded.path, capture_output=True, encoding="utf-8")
    assert proc.returncode == 0 and proc.stderr.splitlines()[-2:] == ["[]", "False"], proc.stderr


def test_git_that_cannot_start_is_one_clear_error(seeded: Repo) -> None:
    huge = ["x" * 4096] * 2_000  # 8 MB of arguments: over any system's limit
    with pytest.raises(GitError, match=r"git ls-files could not start: Argument list too long"):
        git.run(["ls-files", "--", *huge], str(seeded.path))
    assert git.output(["rev-parse", "HEAD"], str(seeded.path))  # nothing leaked: the next call works
