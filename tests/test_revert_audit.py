"""audit: every silent revert ever landed on a branch, acks, limits, progress and the summary table."""

from __future__ import annotations

import io
import json

import pytest

from conftest import Repo, run_leverguard
from leverguard.session import Session
from leverguard.revert.audit import TerminalProgress, audit_branch
from revert_helpers import BOB, CAROL, DAVE, body, check, land, merge_pr, seed, tune


def build_history(repo: Repo) -> dict[str, str]:
    """main: a squash-landed stale revert, a merge-landed one, a declared revert and clean work."""
    old = seed(repo)
    shas = {"221": land(repo, "feat: fused prep (#221)",
                        {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)})}
    shas["224"] = land(repo, "kernel: restructure (#224)",
                       {**{f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(4)}, "kernel.c": "int k;\n"}, author=CAROL)
    shas["225"] = land(repo, "feat: cache (#225)", {"src/mod9.py": old["src/mod9.py"] + body("cache", 6)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "stale")
    land(repo, "wip: tune", {"src/mod9.py": old["src/mod9.py"], "tune.py": body("tune", 3)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    shas["226"] = merge_pr(repo, "stale", 226, "wip: tune")
    shas["227"] = land(repo, "feat: sampler (#227)", {"src/mod10.py": old["src/mod10.py"] + body("s", 5)}, author=DAVE)
    shas["228"] = land(repo, 'Revert "feat: sampler (#227)" (#228)', {"src/mod10.py": old["src/mod10.py"]}, author=BOB)
    land(repo, "docs: readme (#229)", {"README.md": "hi\n"})
    return shas


def test_audit_lists_every_silent_revert(repo: Repo) -> None:
    shas = build_history(repo)
    assert {r.commit for r in audit_branch(Session(str(repo.path)), "main").results} == {shas["224"], shas["226"]}
    report = audit_branch(Session(str(repo.path)), "main", include_all=True)
    results = {r["commit"]: r for r in report.to_dict()["results"]}
    assert set(results) == {shas["224"], shas["226"], shas["228"]}
    assert results[shas["224"]]["pr"] == 224 and results[shas["224"]]["findings"][0]["pr"] == 221
    assert results[shas["226"]]["findings"][0]["commit"] == shas["225"]
    assert results[shas["226"]]["findings"][0]["severity"] == "error"
    assert results[shas["228"]]["findings"][0]["declared"] is True
    assert report.checked == 8 and report.exit_code() == 1


def test_ack_file_silences_reviewed_findings(repo: Repo) -> None:
    shas = build_history(repo)
    land(repo, "chore: acks", {".leverguard-acks": f"#224 reviewed: the fusion was dropped on purpose\n{shas['226'][:10]} ok\n"})
    assert audit_branch(Session(str(repo.path))).results == ()
    report = audit_branch(Session(str(repo.path)), include_all=True)
    assert report.exit_code() == 0 and len(report.results) == 3
    assert all(f.declared for r in report.results for f in r.findings)


def test_max_count_since_and_the_cli(repo: Repo) -> None:
    build_history(repo)
    assert audit_branch(Session(str(repo.path)), max_count=2).checked == 2
    assert audit_branch(Session(str(repo.path)), since="2000-01-01").checked == 8
    assert audit_branch(Session(str(repo.path)), since="2100-01-01").checked == 0
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    data = json.loads(proc.stdout)
    assert proc.returncode == 1 and data["branch"] == "main" and data["checked"] == 8 and data["failing"] == 2
    assert proc.stderr == ""  # no progress bar without a terminal
    text = run_leverguard("audit", cwd=repo.path).stdout
    assert "checked 8 commits on main: 2 landed silent reverts that fail the check" in text
    assert any(line.startswith("commit   landed as  worst") for line in text.splitlines())


def test_progress_bar(repo: Repo) -> None:
    build_history(repo)
    sink = io.StringIO()
    audit_branch(Session(str(repo.path)), progress=TerminalProgress(sink))
    assert sink.getvalue().endswith("] 8/8 commits\n")


def test_clean_history(repo: Repo) -> None:
    old = seed(repo)
    for i in range(5):
        land(repo, f"feat: step {i} (#{300 + i})", {"src/mod1.py": old["src/mod1.py"] + body(f"s{i}", 3 + i)})
    report = audit_branch(Session(str(repo.path)))
    assert report.results == () and report.exit_code() == 0 and report.checked == 6


def test_audit_of_a_bare_blobless_clone(repo: Repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The bot's kind of cache: audit never fetches, so it lists what it could not check; the
    whole-history fetch it names fills the clone, and the audit then finds what a full one does."""
    import subprocess

    shas = build_history(repo)
    repo.git("config", "uploadpack.allowFilter", "true")
    bare = tmp_path / "cache.git"
    subprocess.run(["git", "clone", "-q", "--bare", "--filter=blob:none", f"file://{repo.path}", str(bare)], check=True)
    report = audit_branch(Session(str(bare)), "main")
    assert report.results == () and report.exit_code() == 2 and report.branch == "main"
    assert report.checked == 1 and len(report.unchecked) == 7  # the root undoes nothing: read without blobs
    fix = "git fetch --refetch --filter=blob:limit=1g origin"
    assert any(fix in note for note in report.notes)
    Repo(bare).git(*fix.split()[1:])
    report = audit_branch(Session(str(bare)), "main")
    assert {r.commit for r in report.results} == {shas["224"], shas["226"]} and report.unchecked == ()


BOT = "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"


def _bot_branch_merged(repo: Repo, extra_commit: bool) -> dict:
    """#301 pins a dependency; Dependabot's branch, from a stale base, puts the file back and a person merges
    it (trio's `Merge pull request #2412 from .../dependabot/pip/...`), with a person's commit on it or not."""
    old = seed(repo)
    land(repo, "deps: pin (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pin", 4)})
    repo.git("checkout", "-q", "-b", "dependabot/pip/left-pad-1.1")
    land(repo, "Bump left-pad from 1.0 to 1.1", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=BOT)
    if extra_commit:
        land(repo, "Try to fix the build", {"tune.py": body("tune", 3)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    merged = merge_pr(repo, "dependabot/pip/left-pad-1.1", 302, "Bump left-pad from 1.0 to 1.1")
    report = audit_branch(Session(str(repo.path)), "main", include_all=True).to_dict()
    (result,) = [r for r in report["results"] if r["commit"] == merged]
    return result["findings"][0]


def test_a_dependency_bots_branch_merged_by_a_person_is_the_bots_change(repo: Repo) -> None:
    assert _bot_branch_merged(repo, extra_commit=False)["severity"] == "notice"


def test_a_bots_branch_a_person_also_committed_to_keeps_its_grade(repo: Repo) -> None:
    assert _bot_branch_merged(repo, extra_commit=True)["severity"] == "error"


def _series_on_main(repo: Repo, same_second: bool) -> dict:
    """#301's fix and its follow-up land on main one after the other, the follow-up undoing a hunk of the
    fix; rebased in one go (GitHub's "rebase and merge": the same commit time) or landed apart."""
    old = seed(repo)
    first = land(repo, "fix(utils): unwrap may not return previous value", {"src/mod1.py": old["src/mod1.py"] + body("unwrap", 4)})
    stamp = repo.git("log", "-1", "--format=%cd", "--date=raw", first)
    repo.write("src/mod1.py", old["src/mod1.py"] + "fallback = call(fallback_fn)\n")
    repo.write("kernel.c", "int t;\n")
    second = repo.commit("fix: always call fallback function", author=CAROL,
                         env={"GIT_COMMITTER_DATE": stamp} if same_second else None)
    report = audit_branch(Session(str(repo.path)), "main", include_all=True).to_dict()
    (result,) = [r for r in report["results"] if r["commit"] == second]
    return result["findings"][0]


def test_a_series_rebased_in_one_go_iterates_on_its_own_commits(repo: Repo) -> None:
    # jotai's `fix: always call fallback function` over the `unwrap` fix it was rebased with
    finding = _series_on_main(repo, same_second=True)
    assert finding["severity"] == "notice" and "one rebase" in finding["reason"]


@pytest.mark.parametrize(("seconds", "author", "lowered"), [
    (60, BOB, True),  # its author's own rebase, a minute apart (kolibri's accordion series)
    (61, BOB, False),
    (30, CAROL, False),  # someone else's commit half a minute later: no one rebase wrote both
])
def test_an_authors_series_rebased_seconds_apart_iterates_on_its_own_commits(repo: Repo, seconds: int, author: str,
                                                                               lowered: bool) -> None:
    # #301 styles two views; the next commit of the series puts both back and edits a third
    old = seed(repo)
    first = land(repo, "changed styling of the accordion (#301)", {path: old[path] + body("styled", 4)
                                                                  for path in ("src/mod1.py", "src/mod2.py")})
    when, zone = repo.git("log", "-1", "--format=%cd", "--date=raw", first).split()
    for path in ("src/mod1.py", "src/mod2.py"):
        repo.write(path, old[path])
    repo.write("kernel.c", "int t;\n")
    second = repo.commit("added the accordions for the questions", author=author,
                         env={"GIT_COMMITTER_DATE": f"{int(when) + seconds} {zone}"})
    report = audit_branch(Session(str(repo.path)), "main", include_all=True).to_dict()
    (finding,) = [f for r in report["results"] if r["commit"] == second for f in r["findings"]]
    assert finding["severity"] == ("notice" if lowered else "error"), finding["reason"]


def test_a_follow_up_landed_apart_keeps_its_grade(repo: Repo) -> None:
    assert _series_on_main(repo, same_second=False)["severity"] in ("warning", "error")


def _bors_merge(repo: Repo, title: str) -> dict:
    """#301 adds a module; a branch deletes it and bors merges the branch as `Merge #302`, its PR's title
    (TITLE) on the body's first line with the reviewer and author after it."""
    seed(repo)
    cell = "".join(f"impl AtomicCell<T{i}> {{ fn load_{i}(&self) -> T{i} {{ self.value_{i} }} }}\n" for i in range(8))
    land(repo, "cell: an atomic cell (#301)", {"src/cell_impl.rs": cell})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "wip", {"src/cell_impl.rs": None, "src/mod1.py": body("moved", 4)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "topic", "-m", f"Merge #302\n\n302: {title} r=alice a=carol\n\nThe PR's text.")
    proc = run_leverguard("audit", "--max-count", "1", "--all", "--format", "json", cwd=repo.path)
    found = [f for r in json.loads(proc.stdout)["results"] for f in r["findings"] if f["pr"] == 301]
    return found[0]


def test_a_bors_merge_is_read_by_its_pr_title() -> None:
    from leverguard.revert.declared import pr_number, pr_title
    from leverguard.revert.model import Commit
    merge = Commit("a", ("b", "c"), "bors", "bors@x", 0, "Merge #297 #298",
                   "297: Move AtomicCell into crossbeam-utils r=stjepang a=stjepang\n\nwhy", ())
    assert pr_number(merge) == 297 and pr_title(merge) == "Move AtomicCell into crossbeam-utils"


def test_a_bors_merge_titled_after_what_goes_is_described(repo: Repo) -> None:
    # (only the title says it: the file's name is not the type's, so no line of the message names the path)
    assert _bors_merge(repo, "Move AtomicCell into crossbeam-utils")["severity"] == "notice"


def test_a_bors_merge_titled_after_other_work_still_warns(repo: Repo) -> None:
    assert _bors_merge(repo, "Faster epoch pinning")["severity"] == "warning"


@pytest.mark.parametrize(("copy", "undone"), [
    # prowler's stale squash renaming a check's folder back: git pairs the move, and the old name's file comes back
    # as it was before #302 edited it; check-revert read the move against the new name's history alone and saw no
    # rollback, the audit (pairing nothing) an error
    ("before 302", {"error"}),
    ("after 302", set()),  # a rename back that keeps #302's edit undoes nothing of it
])
def test_check_revert_and_audit_read_a_folder_renamed_back_alike(repo: Repo, copy: str, undone: set[str]) -> None:
    seed(repo)
    first = body("m", 12)
    land(repo, "feat: mfa check (#301)", {"checks/mfa_api/check.py": first})
    edited = "".join(tune(first.splitlines(keepends=True), [3, 7]))
    land(repo, "fix: resource ids (#302)", {"checks/mfa_api/check.py": edited}, author=DAVE)
    land(repo, "refactor: rename the mfa check (#303)",
         {"checks/mfa_api/check.py": None, "checks/require_mfa/check.py": edited})
    land(repo, "feat: app policy check (#304)",
         {"checks/require_mfa/check.py": None, "checks/mfa_api/check.py": first if copy == "before 302" else edited,
          "checks/app_policy/check.py": body("p", 8)}, author=CAROL)
    assert "R" in repo.git("diff-tree", "-r", "-M", "--name-status", "HEAD~1", "HEAD")  # git pairs the move
    found = {f["pr"]: f["severity"] for f in check(repo, "HEAD~1..HEAD")[1]["findings"]}
    audited = {f["pr"]: f["severity"] for r in audit_branch(Session(str(repo.path)), "main").to_dict()["results"]
               for f in r["findings"]}
    assert {found.get(302)} - {None} == undone
    assert {audited.get(302)} - {None} == undone


def test_max_count_counts_every_first_parent_commit_lock_only_ones_too(repo: Repo) -> None:
    # lock files are left out of the patches by their paths (git's `**/` globs cost a match per tree entry),
    # but a commit that changed only them is still one of the newest N, as `git log -N` counts it
    old = seed(repo)
    land(repo, "feat: fused prep (#301)", {"src/mod1.py": old["src/mod1.py"] + body("f", 3)})
    stale = land(repo, "kernel: restructure (#302)", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int k;\n"},
                 author=CAROL)
    land(repo, "deps: lock", {"api/package-lock.json": '{"lockfileVersion": 3}\n'}, author=DAVE)
    land(repo, "docs: readme (#303)", {"README.md": "hi\n", "web/package-lock.json": '{"lockfileVersion": 2}\n'})
    land(repo, "deps: relock", {"web/package-lock.json": '{"lockfileVersion": 3}\n', "yarn.lock": "# yarn\n"}, author=DAVE)
    report = audit_branch(Session(str(repo.path)), "main", max_count=4)
    assert report.checked == 4 and [r.commit for r in report.results] == [stale]
    assert audit_branch(Session(str(repo.path)), "main", max_count=3).results == ()


@pytest.mark.parametrize("locks", [0, 11])
def test_lock_only_commits_count_toward_recency_in_audit_as_in_check_revert(repo: Repo, locks: int) -> None:
    # all of a recent commit undone is a stale tree's; eleven lock-file bumps later it is not recent any
    # more, for the audit as for check-revert (the audit once skipped them, and found an error alone)
    old = seed(repo)
    land(repo, "feat: retry flag (#301)", {"src/mod1.py": old["src/mod1.py"] + "RETRY = True\n"}, author=CAROL)
    for n in range(locks):
        land(repo, f"deps: bump left-pad (#{310 + n})", {"package-lock.json": f'{{"lockfileVersion": {n}}}\n'},
             author=DAVE)
    land(repo, "feat: sampler (#330)", {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"] + body("s", 4)})
    found = {f["pr"]: f["severity"] for f in check(repo, "HEAD~1..HEAD")[1]["findings"]}
    audited = {f["pr"]: f["severity"] for r in audit_branch(Session(str(repo.path)), "main", include_all=True)
               .to_dict()["results"] if r["pr"] == 330 for f in r["findings"]}
    assert found == audited == {301: "error" if locks == 0 else "warning"}
