"""A block a commit added and a later commit edited in place, taken out whole: the commit's work, as later
commits left it, undone.

A stale copy from before the block was added lacks the block as later commits polished it too (notepad++'s
`<NetworkPathWarning>` block: added by one fix, its title and two items reworded by the next, all of it gone
with a month-old branch's copy of the file). The edits of the later commit go with the lines they edited, so
they are no "later change kept". And the repair of such a stale branch, putting that work back, re-lands it
however many commits lie between, when the stale commit was written before the work it undid landed.
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, seed

BLOCK = [f'    <Item id="{1770 + i}" name="Network path warning, part {i}: {w}"/>\n'
         for i, w in enumerate(["load", "skip", "always skip", "always load", "title", "message", "help", "hint"])]
TOP, BOTTOM = body("top", 10), body("bottom", 10)
OWN = "    <Item id=\"9000\" name=\"Deactivate the selected plugin\"/>\n"  # the stale PR's own work


def _polished(block: list[str], at: list[int]) -> list[str]:
    """BLOCK with the lines numbered AT reworded in place, as a follow-up fix does."""
    return [line.replace("part", "section").replace("/>", ' hint="yes"/>') if i in at else line
            for i, line in enumerate(block)]


@pytest.mark.parametrize("polished", [[0, 3, 6], []])
def test_a_block_edited_later_taken_out_whole_undoes_the_commit_that_added_it(repo: Repo, polished: list[int]) -> None:
    seed(repo)
    land(repo, "feat: the strings file", {"lang/english.xml": TOP + BOTTOM})
    carol_base = repo.head()
    land(repo, "fix: warn before loading network paths (#401)", {"lang/english.xml": TOP + "".join(BLOCK) + BOTTOM})
    later = _polished(BLOCK, polished)
    land(repo, "fix: clearer network path wording (#402)", {"lang/english.xml": TOP + "".join(later) + BOTTOM},
         author=DAVE)
    land(repo, "docs: notes (#403)", {"docs/notes.md": "notes\n"}, author=DAVE)
    # Carol's branch, from before #401, adds her own item to her stale copy of the file; rebased, committed as is
    repo.git("checkout", "-q", "-b", "topic", carol_base)
    land(repo, "feat: plugin deactivation", {"lang/english.xml": TOP + OWN + BOTTOM}, author=CAROL)
    repo.git("rebase", "-q", "-X", "theirs", "main")
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[401]
    assert finding["severity"] == "warning", finding
    evidence = finding["evidence"][0]
    assert evidence["kind"] == "inverse-hunk" and "later change" not in evidence["detail"]


def test_a_block_rewritten_by_the_change_itself_is_no_undo(repo: Repo) -> None:
    # negative control: the change takes the polished block out and writes its own version of those items in
    # its place (a rework, not a stale copy)
    seed(repo)
    land(repo, "feat: the strings file", {"lang/english.xml": TOP + BOTTOM})
    land(repo, "fix: warn before loading network paths (#401)", {"lang/english.xml": TOP + "".join(BLOCK) + BOTTOM})
    later = _polished(BLOCK, [0, 3, 6])
    land(repo, "fix: clearer network path wording (#402)", {"lang/english.xml": TOP + "".join(later) + BOTTOM},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    rework = [line.replace("Network path warning", "Remote path notice").replace("Item id", "Entry key")
              for line in later]
    land(repo, "refactor: network path notices as entries", {"lang/english.xml": TOP + "".join(rework) + BOTTOM},
         author=CAROL)
    _, report = check(repo, "main..topic")
    assert all(f["severity"] not in ("warning", "error") for f in report["findings"]), report["findings"]


@pytest.mark.parametrize("written_before", [True, False])
def test_repairing_a_stale_branch_re_lands_what_it_undid_at_any_distance(repo: Repo, written_before: bool) -> None:
    seed(repo)
    lines = TOP + BOTTOM
    land(repo, "feat: the strings file", {"lang/english.xml": lines})
    with_work = TOP + "".join(BLOCK) + BOTTOM
    land(repo, "fix: warn before loading network paths (#401)", {"lang/english.xml": with_work}, author=BOB)
    with_work = TOP + "".join(_polished(BLOCK, [0, 3, 6])) + BOTTOM  # polished by the next fix
    land(repo, "fix: clearer network path wording (#402)", {"lang/english.xml": with_work}, author=DAVE)
    for i in range(12):  # more than a few commits: a re-land by distance alone does not apply
        land(repo, f"chore: unrelated step {i} (#{410 + i})", {f"docs/step{i}.md": f"step {i}\n"}, author=DAVE)
    # Carol's stale copy lands without the block (her own item added); written before #401 landed, or after;
    # the repair puts the block back as #402 left it
    env = {"GIT_AUTHOR_DATE": "1600000000 +0000"} if written_before else None
    repo.write("lang/english.xml", TOP + BOTTOM + OWN)
    repo.commit("feat: plugin deactivation (#430)", author=CAROL, env=env)
    repo.git("checkout", "-q", "-b", "repair")
    land(repo, "Update localization files", {"lang/english.xml": with_work + OWN}, author=DAVE)
    _, report = check(repo, "main..repair")
    flagged = [f for f in report["findings"] if f["pr"] == 430 and f["severity"] in ("warning", "error")]
    assert bool(flagged) is not written_before, [(f["pr"], f["severity"], f["explanation"]) for f in report["findings"]]
