"""One run, one object reader: each lever and message check starts at most one `cat-file --batch-command`.

git's own trace (GIT_TRACE) names every git process a run starts, so the count is the real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from message_helpers import (GOOD_CLEANUP, PLAIN, PROBE_GATED, ROPE_GATED, SCALE_GATED, lever_repo, replace,
                             stage_cleanup, stage_plain_change)


def cat_files(repo: Repo, tmp_path: Path, *args: str) -> tuple[int, dict[str, int]]:
    """The exit code of `leverguard ARGS` and how many git processes of each `cat-file` mode it started."""
    trace = tmp_path / "trace.txt"
    trace.unlink(missing_ok=True)
    result = run_leverguard(*args, cwd=repo.path, env={"GIT_TRACE": str(trace)})
    assert result.returncode in (0, 1), result.stderr
    lines = trace.read_text(encoding="utf-8").splitlines() if trace.exists() else []
    started = [line.split("built-in: git ", 1)[1] for line in lines if "built-in: git " in line]
    modes = ("--batch-command", "--batch-check", "--batch ")
    return result.returncode, {mode.strip(): sum(cmd.startswith("cat-file") and f"{cmd} ".count(mode) > 0
                                                 for cmd in started) for mode in modes}


def lever_history(repo: Repo) -> str:
    """A base commit, then three commits that each move a lever: a range with three lever diffs."""
    base = lever_repo(repo)
    for path, gated, kept, subject in (("mpk/attn.cu", PROBE_GATED, "", "Drop the attention probe"),
                                       ("mpk/scale.cc", SCALE_GATED, "", "Revert the extra scale"),
                                       ("mpk/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, pos);\n", "Hard-wire the rope")):
        replace(repo, path, gated, kept)
        repo.commit(f"{subject}\n\nCo-Authored-By: Bob Builder <bob@example.com>\n")
    return base


@pytest.mark.parametrize("args", [
    ("levers", "diff", "BASE..HEAD", "--format", "json"),
    ("default-build", "BASE..HEAD", "--format", "json"),
    ("check-msg", "--range", "BASE..HEAD", "--format", "json"),
    ("levers", "--rev", "HEAD", "--format", "json"),
])
def test_one_check_of_a_range_starts_one_object_reader(repo: Repo, tmp_path: Path, args: tuple[str, ...]) -> None:
    base = lever_history(repo)
    code, started = cat_files(repo, tmp_path, *(a.replace("BASE", base) for a in args))
    assert started["--batch-command"] == 1, started  # one reader for every commit and both sides of each diff
    assert started["--batch"] == 0, started  # no one-shot `cat-file --batch` beside it
    if args[0] == "check-msg":
        assert started["--batch-check"] == 0, started  # sizes come from the same reader


def test_the_commit_msg_hook_on_a_plain_change_starts_no_cat_file(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    stage_plain_change(repo)  # README only: no lever source changed, so no object is read
    msg = tmp_path / "MSG"
    msg.write_text(PLAIN, encoding="utf-8")
    code, started = cat_files(repo, tmp_path, "hook", "leverguard-commit-msg", str(msg))
    assert code == 0 and started == {"--batch-command": 0, "--batch-check": 0, "--batch": 0}, started


def test_the_commit_msg_hook_on_a_lever_cleanup_reads_through_one_reader(repo: Repo, tmp_path: Path) -> None:
    lever_repo(repo)
    stage_cleanup(repo)
    msg = tmp_path / "MSG"
    msg.write_text(GOOD_CLEANUP, encoding="utf-8")
    code, started = cat_files(repo, tmp_path, "hook", "leverguard-commit-msg", str(msg))
    assert code == 0 and started["--batch-command"] == 1 and started["--batch"] == 0, started
    _, again = cat_files(repo, tmp_path, "hook", "leverguard-commit-msg", str(msg))
    assert again["--batch-command"] == 0, again  # the lever changes of this index are cached: nothing read


def test_the_readers_sizes_match_a_batch_check_across_chunks(repo: Repo) -> None:
    from leverguard import git

    for n in range(300):  # more than one chunk of requests
        repo.write(f"f/{n}.txt", "x" * n + "\n")
    repo.commit("many files")
    oids = [line.split()[2] for line in repo.git("ls-tree", "-r", "HEAD").splitlines()] + ["0" * 39 + "1"]
    with git.ObjectReader(str(repo.path)) as reader:
        assert reader.sizes(oids) == git.object_sizes(oids, str(repo.path))
        assert len(reader.sizes(oids)) == 300 and reader.read("HEAD:f/7.txt") == ("blob", b"xxxxxxx\n")


def test_check_revert_of_another_repository_locates_it_in_the_ranges_rev_parse(repo: Repo, tmp_path: Path) -> None:
    from test_revert_story import build_224

    build_224(repo)  # main..carol: a stale PR that does not fast-forward
    trace = tmp_path / "trace.txt"
    result = run_leverguard("check-revert", "--repo", str(repo.path), "main..carol", cwd=tmp_path,
                            env={"GIT_TRACE": str(trace)})
    assert result.returncode == 1 and "#221" in result.stdout, result.stderr
    started = [line.split("built-in: git ", 1)[1] for line in trace.read_text(encoding="utf-8").splitlines()
               if "built-in: git " in line]
    # one rev-parse finds the repository, both ends and their merge bases; no merge-base call after it
    assert sum(cmd.startswith("rev-parse") for cmd in started) == 1, started
    assert not any(cmd.startswith("merge-base") for cmd in started), started
