"""A submodule pointer moved to a commit that does not hold the one a commit set, read from the
submodule's own history where `git submodule update` keeps it (GIT_DIR/modules/PATH)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import BOB, CAROL, DAVE, by_pr, check, seed

LIB = "third_party/lib"


def _library(path: Path) -> dict[str, str]:
    """A library with a main line c1 -> c2 -> c3 -> c4 and a side line c1 -> side."""
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    lib = Repo(path)
    shas = {}
    for name in ("c1", "c2", "c3", "c4"):
        lib.write("lib.c", f"int {name};\n")
        shas[name] = lib.commit(name)
    lib.git("checkout", "-q", "-b", "side", shas["c1"])
    lib.write("lib.c", "int side;\n")
    shas["side"] = lib.commit("side")
    return shas


def _superproject(repo: Repo, tmp_path: Path) -> dict[str, str]:
    """main: the library added at c2, #301 bumps it to c3; `topic` branches off main."""
    shas = _library(tmp_path / "lib")
    seed(repo)
    repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(tmp_path / "lib"), LIB)
    _point(repo, shas["c2"], "add the library")
    _point(repo, shas["c3"], "deps: bump lib (#301)", BOB)
    repo.git("checkout", "-q", "-b", "topic")
    return shas


def _point(repo: Repo, sha: str, message: str, author: str = "Alice <alice@example.com>") -> None:
    repo.git("update-index", "--cacheinfo", f"160000,{sha},{LIB}")
    repo.write("kernel.c", f"int kernel_{len(message)};\n")
    repo.commit(message, "kernel.c", ".gitmodules", author=author)


def test_a_pointer_moved_back_to_a_commit_no_one_recorded_fails(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["c1"], "feat: stale checkout", CAROL)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 1 and finding["severity"] == "error" and finding["kinds"] == ["pointer-dropped"]
    assert f"moved back to {shas['c1'][:12]}" in finding["evidence"][0]["detail"]
    assert f"git update-index --cacheinfo 160000,{shas['c3']},{LIB}" in finding["repair"]


def test_a_pointer_moved_back_fails_when_checked_from_another_folder(repo: Repo, tmp_path: Path) -> None:
    # --repo from elsewhere: leverguard writes its scratch objects apart, the submodule keeps its own
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["c1"], "feat: stale checkout", CAROL)
    proc = run_leverguard("check-revert", "--repo", str(repo.path), "main..topic", cwd=tmp_path)
    assert proc.returncode == 1 and f"{LIB}: pointer-dropped" in proc.stdout, proc.stdout + proc.stderr


def test_a_pointer_moved_off_its_line_without_the_changes_fails(repo: Repo, tmp_path: Path) -> None:
    # commonly's `bump submodule`: a commit of another line, which lacks the bumps the other session made
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["side"], "feat: the new kernel", CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error", by_pr(report)[301]["reason"]
    assert "does not hold" in by_pr(report)[301]["evidence"][0]["detail"]
    assert "git cherry" in by_pr(report)[301]["evidence"][0]["detail"]


def test_a_pointer_moved_to_a_rebased_line_that_keeps_the_changes_is_a_notice(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    lib = Repo(tmp_path / "lib")
    lib.git("checkout", "-q", "-b", "rebased", shas["c1"])
    lib.git("commit", "-q", "--allow-empty", "-m", "upstream moved on")
    for name in ("c2", "c3"):  # the same changes, written again on the new base
        lib.git("cherry-pick", shas[name])
    rebased = lib.git("rev-parse", "HEAD")
    repo.git("-C", LIB, "fetch", "-q", str(tmp_path / "lib"), "rebased")
    _point(repo, rebased, "deps: lib rebased on upstream", CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"
    assert "rebased" in by_pr(report)[301]["evidence"][0]["detail"]


def test_a_pointer_moved_on_along_its_line_is_no_finding(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["c4"], "deps: bump lib again", CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and report["findings"] == []


def test_without_the_submodules_history_nothing_is_claimed(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["c1"], "feat: stale checkout", CAROL)
    shutil.rmtree(repo.path / ".git" / "modules")  # a submodule never initialised here
    code, report = check(repo, "main..topic")
    assert code == 0 and report["findings"] == []


def test_audit_reads_the_submodules_history_too(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    _point(repo, shas["c1"], "feat: stale checkout (#302)", CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--ff-only", "topic")
    proc = run_leverguard("audit", cwd=repo.path)
    assert proc.returncode == 1 and f"{LIB}: pointer-dropped" in proc.stdout


def test_every_recent_bump_the_new_commit_lacks_is_reported_whatever_the_titles_say(repo: Repo, tmp_path: Path) -> None:
    # every bump names its submodule: neither the shared topic nor a title naming it excuses the pointer
    shas = _superproject(repo, tmp_path)
    repo.git("checkout", "-q", "main")
    _point(repo, shas["c4"], "deps: bump the lib submodule again (#302)", BOB)
    repo.git("checkout", "-q", "-B", "topic")
    _point(repo, shas["side"], "deps: bump the lib submodule to the side line", CAROL)
    code, report = check(repo, "main..topic")
    assert {pr: f["severity"] for pr, f in by_pr(report).items()} == {None: "error", 301: "error", 302: "error"}


def test_lines_too_far_apart_to_read_every_patch_leave_the_pointer_a_warning(repo: Repo, tmp_path: Path) -> None:
    # `git cherry` reads every patch of both sides: past MAX_CHERRY commits apart it is not asked
    from leverguard.git import MAX_CHERRY

    shas = _superproject(repo, tmp_path)
    stream = "".join(f"commit refs/heads/far\nmark :{n + 1}\ncommitter A <a@x> {1_700_000_000 + n} +0000\n"
                     f"data 4\nfar\n{'from ' + shas['c1'] + chr(10) if n == 0 else ''}\n" for n in range(MAX_CHERRY))
    lib = Repo(tmp_path / "lib")
    lib.git("fast-import", "--quiet", input=stream.encode())
    far = lib.git("rev-parse", "far")
    repo.git("-C", LIB, "fetch", "-q", str(tmp_path / "lib"), "far")
    _point(repo, far, "deps: the far line", CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[301]["severity"] == "warning", by_pr(report)[301]["reason"]


@pytest.mark.parametrize("days", [13, 20])
def test_a_pointer_put_back_weeks_later_is_no_one_line_toggle(repo: Repo, tmp_path: Path, days: int) -> None:
    # h2o's `Merge pull request #3046`: its branch's stale `misc/h2get` pointer put back 36 days after #3097
    # moved it on; a pointer is a whole checkout, never a one-line toggle (the lines its patch shows aside)
    shas = _superproject(repo, tmp_path)
    repo.git("checkout", "-q", "main")
    for i in range(4):  # past the very last commits, whose age never counts
        repo.write(f"docs/note{i}.md", f"note {i}\n")
        repo.commit(f"docs: note {i}", f"docs/note{i}.md")
    repo._tick += days * 24
    repo.git("checkout", "-q", "-B", "topic")
    _point(repo, shas["c2"], "feat: zero-copy TLS", CAROL)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert (code, finding["severity"], finding["kinds"]) == (1, "error", ["rollback"]), finding["reason"]


def _flip_flops(repo: Repo, tmp_path: Path) -> dict[str, str]:
    """main: the library at c2, #301 bumps it to c3, a stale checkout sets c2 back (#302), and #303 moves it
    on to c3 again; no submodule history is kept here (a bare mirror's case), so only the superproject's
    record tells which pointer came first."""
    shas = _superproject(repo, tmp_path)
    repo.git("checkout", "-q", "main")
    _point(repo, shas["c2"], "chore: update changelog (#302)", CAROL)
    shutil.rmtree(repo.path / ".git" / "modules")
    return shas


def test_a_pointer_moved_forward_again_repairs_the_stale_one_and_undoes_nothing(repo: Repo, tmp_path: Path) -> None:
    # zwave-js's `chore: update specs` the day after `chore: update changelog` committed a stale `specs`
    shas = _flip_flops(repo, tmp_path)
    repo.git("checkout", "-q", "-B", "topic")
    _point(repo, shas["c3"], "chore: update specs", DAVE)
    code, report = check(repo, "main..topic")
    assert code == 0 and report["findings"] == []


def test_a_pointer_set_back_again_after_its_repair_still_fails(repo: Repo, tmp_path: Path) -> None:
    # the two pointers alternate: the repair exactly undid the stale move a commit before, yet setting the
    # older one back once more is another stale checkout, not a re-land of the first
    shas = _flip_flops(repo, tmp_path)
    _point(repo, shas["c3"], "chore: update specs (#303)", DAVE)
    repo.git("checkout", "-q", "-B", "topic")
    _point(repo, shas["c2"], "feat: add a device", BOB)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[303]["severity"] == "error"


def test_a_stale_pointer_set_back_fails_without_the_submodules_history(repo: Repo, tmp_path: Path) -> None:
    shas = _superproject(repo, tmp_path)
    shutil.rmtree(repo.path / ".git" / "modules")
    _point(repo, shas["c2"], "chore: update changelog", CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["kinds"] == ["rollback"]
