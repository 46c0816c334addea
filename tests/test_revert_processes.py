"""How many git processes a check starts: git's own trace (GIT_TRACE) names each one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import CAROL, body, land, seed


def started(repo: Repo, tmp_path: Path, *args: str) -> tuple[str, list[str]]:
    """What `leverguard ARGS` printed, and the git commands it started, in order."""
    trace = tmp_path / "trace.txt"
    trace.unlink(missing_ok=True)
    result = run_leverguard(*args, cwd=repo.path, env={"GIT_TRACE": str(trace)})
    assert result.returncode in (0, 1), result.stderr
    lines = trace.read_text(encoding="utf-8").splitlines()
    return result.stdout, [line.split("built-in: git ", 1)[1] for line in lines if "built-in: git " in line]


@pytest.mark.parametrize("merged", [False, True])
def test_the_merges_are_re_merged_only_when_the_change_holds_one(repo: Repo, tmp_path: Path, merged: bool) -> None:
    # a stale copy undoing hunks of #301 asks what merges dropped; a change of plain commits holds no merge to
    # re-merge, and its own log (read for the finding anyway) says so: no `log --diff-merges=remerge` then
    old = seed(repo)
    land(repo, "feat: feature (#301)", {"src/mod1.py": old["src/mod1.py"] + body("feature", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    if merged:  # the branch merges another one in, as `Merge branch 'docs'` does
        repo.git("checkout", "-q", "-b", "docs")
        land(repo, "docs: note", {"docs/note.md": "A note.\n"}, author=CAROL)
        repo.git("checkout", "-q", "topic")
        repo.git("merge", "-q", "--no-ff", "--no-edit", "docs")
    header = "import logging\nLOG = logging.getLogger(__name__)\nLOG.setLevel(logging.INFO)\n"
    land(repo, "feat: logging", {"src/mod1.py": header + old["src/mod1.py"]}, author=CAROL)
    report, commands = started(repo, tmp_path, "check-revert", "--format", "json", "main..topic")
    assert [f["pr"] for f in json.loads(report)["findings"]] == [301]  # the lines undone, found either way
    remerges = [c for c in commands if "--diff-merges=remerge" in c]
    assert len(remerges) == merged, commands
    assert len(commands) <= 8, commands
