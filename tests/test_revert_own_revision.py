"""Work of a commit kept in its files: an author revising their own hunks, a file put back beside kept hunks.

A stale copy of a file undoes all of a commit's hunks there. When the change's own author undoes only
some of the hunk groups their commit made in each file, and keeps the others, that work was revised
where it stood: a notice. Someone else's partial undo, every hunk of the author's own commit undone in
a file, or whole files put back beside it (a stale tree at work) keep their grade. Likewise a file put
back whole beside another file of the same commit that keeps some of its hunks: that change was made
in a tree holding the commit.
"""

from __future__ import annotations

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, seed, tune

LINES = 48  # hunks 12 lines apart stay separate hunks of an ordinary diff


def _undo(repo: Repo, tuner: str, tuned: dict[str, list[int]], undone: dict[str, list[int]],
          extra: dict[str, str | None] | None = None) -> dict:
    """TUNER tunes lines of each module in PR #301; Carol's topic, branched after another commit, undoes some."""
    seed(repo)
    modules = {path: body("m", LINES).splitlines(keepends=True) for path in tuned}
    land(repo, "feat: the modules", {path: "".join(lines) for path, lines in modules.items()})
    land(repo, "tune: constants (#301)", {p: "".join(tune(lines, tuned[p])) for p, lines in modules.items()}, author=tuner)
    land(repo, "fix: mod3 (#302)", {"src/mod3.py": body("fixed3", 6)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    kept = {p: "".join(tune(lines, [i for i in tuned[p] if i not in undone.get(p, [])])) + "new_work = fresh_call(1)\n"
            for p, lines in modules.items()}
    land(repo, "kernel: retune (#303)", {**kept, **(extra or {})}, author=CAROL)  # a PR: no direct follow-up
    return by_pr(check(repo, "main..topic")[1])[301]


def test_the_authors_own_hunks_partly_undone_and_the_rest_kept_is_a_notice(repo: Repo) -> None:
    finding = _undo(repo, CAROL, {"src/m.py": [2, 20, 38]}, {"src/m.py": [20]})
    assert finding["severity"] == "notice"
    assert "its author's own hunks, some undone and the rest kept in each file" in finding["reason"]


def test_someone_elses_hunks_partly_undone_stay_a_warning(repo: Repo) -> None:
    assert _undo(repo, BOB, {"src/m.py": [2, 20, 38]}, {"src/m.py": [20]})["severity"] == "warning"


def test_half_the_authors_hunks_across_two_files_each_partly_undone_is_a_notice(repo: Repo) -> None:
    # the boundary: half its hunks across two files (no minority sweep), neither file undone whole
    partly = {"src/m.py": [2, 20, 38], "src/n.py": [2, 20, 38]}
    assert _undo(repo, CAROL, partly, {"src/m.py": [20, 38], "src/n.py": [2]})["severity"] == "notice"


def test_one_file_of_the_authors_own_commit_undone_whole_keeps_the_warning(repo: Repo) -> None:
    partly = {"src/m.py": [2, 20, 38], "src/n.py": [2, 20, 38]}
    finding = _undo(repo, CAROL, partly, {"src/m.py": [20], "src/n.py": [2, 20, 38]})
    assert finding["severity"] in ("warning", "error")
    assert "some undone and the rest kept" not in finding["reason"]


def test_a_whole_file_put_back_beside_it_keeps_the_authors_partial_undo_loud(repo: Repo) -> None:
    # a stale tree at work: the module #302 fixed is back to its old copy in the same change
    finding = _undo(repo, CAROL, {"src/m.py": [2, 20, 38]}, {"src/m.py": [20]},
                    extra={"src/mod3.py": body("base3", 6)})
    assert "some undone and the rest kept" not in finding["reason"]


CONFIG_OLD = "[run]\nbranch = true\nsource = yarl\n"
CONFIG_NEW = "[run]\nbranch = true\nsource = yarl, tests\nomit = tests/fixtures/*\nparallel = true\nconcurrency = thread\n"


def _rollback_beside(repo: Repo, undone_in_module: list[int]) -> tuple[int, dict]:
    """PR #301 edits a config file and tunes a module; Carol's topic puts the config file back whole
    and undoes UNDONE_IN_MODULE of the module's tuned lines."""
    seed(repo)
    lines = body("m", LINES).splitlines(keepends=True)
    land(repo, "feat: the module", {"src/m.py": "".join(lines), ".coveragerc": CONFIG_OLD})
    tuned = [2, 20, 38]
    land(repo, "tests: more coverage (#301)", {"src/m.py": "".join(tune(lines, tuned)), ".coveragerc": CONFIG_NEW}, author=CAROL)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    module = "".join(tune(lines, [i for i in tuned if i not in undone_in_module])) + "new_work = fresh_call(1)\n"
    land(repo, "fix: blocking io", {"src/m.py": module, ".coveragerc": CONFIG_OLD}, author=CAROL)
    code, report = check(repo, "main..topic")
    return code, by_pr(report)[301]


def test_a_file_put_back_beside_the_commits_hunks_kept_in_its_other_file_is_a_notice(repo: Repo) -> None:
    # the change edited the module with #301's work in it (two of its three hunks kept): its tree was not stale
    code, finding = _rollback_beside(repo, [20])
    assert (code, finding["severity"]) == (0, "notice"), finding["reason"]
    assert "more of its files and keeps its work there" in finding["reason"]


def test_a_file_put_back_beside_every_hunk_of_the_commit_undone_still_fails(repo: Repo) -> None:
    code, finding = _rollback_beside(repo, [2, 20, 38])
    assert (code, finding["severity"]) == (1, "error")


SETTER = ["def set_no_delay(self, on):\n", "    self.no_delay_wanted = on is True\n", "    return self.configured(on)\n"]
GUARDED = ["    # set tcp no delay\n", "    if self.no_delay_wanted and sock.supports_no_delay:\n", "        sock.set_no_delay(True)\n"]


def _rework(repo: Repo, guard: list[str]) -> tuple[int, dict]:
    """Bob's #301 adds a setter and a guarded call, 20 lines apart; Carol's later change deletes the setter and
    writes GUARD where the guarded call was (the rest of the module as #301 left it)."""
    seed(repo)
    lines = body("m", LINES).splitlines(keepends=True)
    land(repo, "feat: the module", {"src/m.py": "".join(lines)})
    with_both = lines[:10] + SETTER + lines[10:30] + GUARDED + lines[30:]
    land(repo, "feat: a no-delay option (#301)", {"src/m.py": "".join(with_both)})
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "perf: faster sockets", {"src/m.py": "".join(lines[:30] + guard + lines[30:])}, author=CAROL)
    code, report = check(repo, "main..topic")
    return code, by_pr(report)[301]


def test_a_hunk_of_the_commit_edited_where_it_sits_beside_one_undone_is_a_notice(repo: Repo) -> None:
    # superagent's `Keep nodelay always on`: the option's setter deleted, its guard cut to the bare call; a
    # stale copy holds none of #301's lines, so the change was made with that work in view
    code, finding = _rework(repo, ["    # set tcp no delay\n", "    sock.set_no_delay(True)\n"])
    assert (code, finding["severity"]) == (0, "notice"), finding["reason"]
    assert "edits its other lines there where they sit" in finding["reason"]


def test_the_other_hunk_kept_as_it_was_keeps_the_warning(repo: Repo) -> None:
    # the negative control: the setter deleted, the guarded call left untouched (no line of it edited)
    code, finding = _rework(repo, GUARDED)
    assert finding["severity"] == "warning"
    assert "where they sit" not in finding["reason"]


def test_the_other_hunk_written_over_whole_keeps_the_warning(repo: Repo) -> None:
    # every line of that hunk gone, new text in its place: a stale copy's own work there looks the same
    code, finding = _rework(repo, ["    sock.tune_latency(mode='low')\n"])
    assert finding["severity"] == "warning"
    assert "where they sit" not in finding["reason"]
