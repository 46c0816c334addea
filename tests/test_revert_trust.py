"""Issue #10's shapes, each positive and negative, through real repositories."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, merge_pr, seed


CLAUDE = "\n\nCo-Authored-By: Claude <noreply@anthropic.com>"


def _topic(repo: Repo, edits: dict[str, str | None], subject: str = "kernel: tune", author: str = CAROL) -> None:
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, edits, author=author)


def test_a_two_line_rollback_that_restores_an_old_line_fails(repo: Repo) -> None:
    old = seed(repo)
    setup = "from setuptools import setup\nDATA_DIR = '/home/bob/data'\nsetup(name='kernels', data=DATA_DIR)\n"
    land(repo, "build: setup", {"setup.py": setup})
    land(repo, "build: no hard-coded path (#301)", {"setup.py": setup.replace("'/home/bob/data'", "os.environ['DATA_DIR']")})
    _topic(repo, {"setup.py": setup, "kernel.c": old["kernel.c"] + "int t;\n"})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_a_file_deleted_after_an_older_commit_added_it_comes_back(repo: Repo) -> None:
    seed(repo)
    land(repo, "tools: a probe (#300)", {"tools/probe.py": body("probe", 6)})
    land(repo, "tools: drop the probe, it leaks (#301)", {"tools/probe.py": None})
    _topic(repo, {"tools/probe.py": body("probe", 6)})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["kinds"] == ["resurrected"]


def test_one_hunk_of_two_undone_next_to_new_work(repo: Repo) -> None:
    old = seed(repo)
    text = old["src/mod1.py"]
    lines = text.splitlines(keepends=True)
    edited = lines[:1] + ["value_base1_0 = compute_base1(0, scale=99)\n"] + lines[2:5] + \
        ["value_base1_4 = compute_base1(4, scale=77)\n"] + lines[6:]
    land(repo, "tune: two constants (#301)", {"src/mod1.py": "".join(edited)})
    stale = lines[:1] + ["value_base1_0 = compute_base1(0, scale=99)\n"] + lines[2:] + ["new_work = fresh_call(1)\n"]
    _topic(repo, {"src/mod1.py": "".join(stale)})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    assert code == 0 and finding["severity"] == "warning" and finding["undone_hunks"] == 1
    assert "git apply --3way" in finding["repair"]


def test_rewriting_the_lines_a_commit_added_is_no_undo(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: knob (#301)", {"src/mod1.py": old["src/mod1.py"] + "fast_path_knob = enable_fast_path(level=3)\n"})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"] + "fast_path_knob = enable_fast_path(level=4, fused=True)\n"})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_trailing_spaces_or_crlf_do_not_hide_a_rollback(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(4)}
    land(repo, "feat: fused prep (#221)", dict(new))
    evasive = {p: old[p].replace("\n", " \n") if i % 2 else old[p].replace("\n", "\r\n") for i, p in enumerate(new)}
    _topic(repo, {**evasive, "kernel.c": old["kernel.c"] + "int t;\n"})
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[221]
    assert code == 1 and finding["severity"] == "error" and finding["undone_paths"] == 4
    assert all("ignoring formatting" in e["detail"] for e in finding["evidence"])


RETRY = ("public class BulkImport {{\n    void add(Storage storage, List<User> users) {{\n        while (true) {{\n"
         "            try {{\n                storage.addBulkImportUsers(users);\n                break;\n"
         "            }} catch (StorageQueryException sqe) {{\n"
         "                {if_}(sqe.getCause() instanceof DuplicateUserIdException) {{\n"
         "                    // We re-generate the user id for every user and retry\n"
         "                    for (BulkImportUser user : users) {{\n                        user.id = Utils.getUUID();\n"
         "                    }}\n{tail}            }}\n        }}\n    }}\n}}\n")
OLD_RETRY = RETRY.format(if_="if", tail="                }\n")
# supertokens' `fix: build fix`: a duplicate id is now either a cause or its own exception
FIXED_RETRY = RETRY.format(if_="if", tail="                    continue;\n                }\n                throw sqe;\n"
                           "            } catch (DuplicateUserIdException e) {\n"
                           "                // We re-generate the user id for every user and retry\n"
                           "                for (BulkImportUser user : users) {\n"
                           "                    user.id = Utils.getUUID();\n                }\n")


@pytest.mark.parametrize(("stale", "said"), [
    # the old file back, formatting aside
    (OLD_RETRY.replace("if(", "if ("), "equal to its version before this commit, ignoring formatting"),
    # supertokens' `fix: code cleanup`: the fix's hunk undone but its `throw sqe;` written again in an `else`:
    # the file holds a line its old version had not, so it is no old version put back, whatever the hunks say
    (RETRY.format(if_="if (", tail="                } else {\n                    throw sqe;\n                }\n"),
     "this commit's change taken out exactly, formatting aside; other lines differ from its version before it"),
])
def test_a_line_taken_out_and_written_again_is_no_old_version(repo: Repo, stale: str, said: str) -> None:
    seed(repo)
    land(repo, "feat: bulk import", {"src/BulkImport.java": OLD_RETRY.replace("if (", "if(")})
    land(repo, "fix: build fix (#301)", {"src/BulkImport.java": FIXED_RETRY.replace("if (", "if(")}, author=DAVE)
    _topic(repo, {"src/BulkImport.java": stale, "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "error" and [e["kind"] for e in finding["evidence"]] == ["rollback"]
    assert finding["evidence"][0]["detail"].startswith(said)


WORKFLOW_STEPS = "jobs:\n  e2e:\n    runs-on: 'ubuntu-latest'   \n    steps:\n      - run: yarn build \n" \
    "      - run: yarn lint  \n"
TRIMMED_STEPS = WORKFLOW_STEPS.replace("   \n", "\n").replace("  \n", "\n").replace(" \n", "\n")
TIMEOUT_STEP = "      - name: e2e\n        run: timeout 15m yarn test:e2e || { test $? -eq 124 || exit 1; }\n"


@pytest.mark.parametrize(("stale", "severity"), [
    # lodestar's: the step taken out, the blanks and quotes the commit trimmed kept: that step removed on
    # purpose, by someone whose file held the commit
    (TRIMMED_STEPS + "      - name: e2e\n        run: yarn test:e2e\n", "notice"),
    # a copy from before it, trimmings and all: the stale file
    (WORKFLOW_STEPS + "      - name: e2e\n        run: yarn test:e2e\n", "error"),
    # the same copy with a space trailing every line: the change re-formats, so the commit's trimming is no proof
    ((WORKFLOW_STEPS + "      - name: e2e\n        run: yarn test:e2e\n").replace("\n", " \n"), "error"),
])
def test_a_commit_whose_own_reformatting_is_kept_was_not_copied_over(repo: Repo, stale: str, severity: str) -> None:
    seed(repo)
    land(repo, "ci: e2e", {".github/workflows/test.yml": WORKFLOW_STEPS + "      - name: e2e\n        run: yarn test:e2e\n"})
    land(repo, "ci: pass e2e after a 15m timeout (#301)", {".github/workflows/test.yml": TRIMMED_STEPS + TIMEOUT_STEP},
         author=DAVE)
    _topic(repo, {".github/workflows/test.yml": stale, "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


PATCHER = "fn relocate(x: u64) -> u64 {\n    let base = compute_base(x);\n        }\nfn symbols(table: &Table) {\n" \
    "    table.visit_all();\n}\n"
TLS_FIX = "    if symbol.is_tls() { return SymbolKind::Text; }\n    let kind = classify_symbol(symbol);\n"


@pytest.mark.parametrize(("braced", "severity"), [
    # dioxus' `fix: symbol mismatch`: the TLS fix taken out, the commit's re-indented closing brace (a line too
    # short to compare: formatting all the same) kept by someone whose file held the commit
    ("}\n", "notice"),
    ("        }\n", "error"),  # the brace back as it was too: a copy from before the commit
])
def test_a_commit_whose_own_reindented_brace_is_kept_was_not_copied_over(repo: Repo, braced: str, severity: str) -> None:
    seed(repo)
    land(repo, "cli: patcher", {"src/patch.rs": PATCHER})
    fixed = PATCHER.replace("        }\n", "}\n").replace("    table.visit_all();\n", "    table.visit_all();\n" + TLS_FIX)
    land(repo, "fixes the ADRP violation bugs by treating TLS as Text (#301)", {"src/patch.rs": fixed}, author=DAVE)
    _topic(repo, {"src/patch.rs": PATCHER.replace("        }\n", braced), "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


TRAVIS = "language: go\n\ngo:\n  - 1.4\n  - 1.5\n  - 1.6\n  - tip\n\nenv:\n  global:\n    - PGUSER=postgres\n"
DROPPED = TRAVIS.replace("  - 1.4\n", "").replace("  - tip\n", "  - 1.7\n")


@pytest.mark.parametrize(("stale", "severity"), [
    # every line back, spaces trailing: the versions too short to match hunks by came back as well
    (TRAVIS.replace("\n", " \n"), "error"),
    # lib/pq's `Restore Tip to testing`: `- tip` back, `- 1.4` still gone and `- 1.7` kept: no older version
    (DROPPED.replace("  - 1.7\n", "  - 1.7\n  - tip\n"), "warning"),
])
def test_a_file_is_equal_to_an_older_one_only_with_its_short_value_lines(repo: Repo, stale: str, severity: str) -> None:
    seed(repo)
    land(repo, "ci: matrix", {".travis.yml": TRAVIS})
    land(repo, "Drop go1.4 (#301)", {".travis.yml": DROPPED}, author=DAVE)
    _topic(repo, {".travis.yml": stale, "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]
    assert ("ignoring formatting" in finding["evidence"][0]["detail"]) is (severity == "error")


@pytest.mark.parametrize(("content_too", "severity"), [
    # discord.js' scripts that lost their executable bit in a refactor, set again by `fix executable file permissions`
    (False, "notice"),
    (True, "error"),  # the script's lines set back with its mode: a rollback like any other
])
def test_a_file_mode_set_back_alone_loses_no_line(repo: Repo, content_too: bool, severity: str) -> None:
    seed(repo)
    script = "#!/bin/sh\nset -eu\nnpx --no -- commitlint --edit \"$1\"\n"
    repo.write(".husky/commit-msg", script).chmod(0o755)
    repo.commit("ci: hooks")
    (repo.path / ".husky/commit-msg").chmod(0o644)
    edited = script + "echo checked\n" if content_too else script
    land(repo, "refactor: workers support (#301)", {".husky/commit-msg": edited, "src/mod1.py": body("workers", 4)},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    repo.write(".husky/commit-msg", script)
    (repo.path / ".husky/commit-msg").chmod(0o755)
    land(repo, "chore: fix executable file permissions", {"kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("brought_back", "severity"), [
    # lefthook's `1.7.0: update NPM packages build process`: the wrapper a PR deleted, brought back an hour
    # later without its executable bit, made executable again: no file comes back, only its mode
    ("as deleted", None),
    # liferea's replayed rebase: brought back older, then turned into the version deleted: that deletion undone
    ("older", "error"),
    ("no", "error"),  # the file still deleted at the merge base: the old copy brings it back
])
def test_a_file_already_brought_back_as_deleted_resurrects_nothing(repo: Repo, brought_back: str,
                                                                   severity: str | None) -> None:
    seed(repo)
    older = "#!/usr/bin/env node\nrequire('child_process').spawnSync(binary(), args)\n"
    script = older.replace("args)", "args, {stdio: 'inherit'})")
    repo.write("bin/index.js", older)
    repo.commit("npm: wrapper")
    repo.write("bin/index.js", script).chmod(0o755)
    repo.commit("npm: the wrapper's output")
    land(repo, "perf(npm): startup time reduce (#301)", {"bin/index.js": None, "src/mod1.py": body("spawn", 4)},
         author=DAVE)
    if brought_back != "no":
        land(repo, "fix npm resolving (#302)", {"bin/index.js": script if brought_back == "as deleted" else older})
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("bin/index.js", script).chmod(0o755)
    land(repo, "update NPM packages build process", {"kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert found.get(301, {}).get("severity") == severity, found
    if severity:
        assert found[301]["evidence"][0]["kind"] == "resurrected"
    else:  # what the mode undoes is the later commit's (#302), no line of it
        assert found[302]["severity"] == "notice" and "file mode only" in found[302]["reason"], found


PRECOMMIT = "repos:\n" + "".join(f"  - repo: https://github.com/hadialqattan/pycln{i}\n    rev: v2.{i}.0\n    hooks:\n"
                                  f"      - id: pycln{i}\n        args: [--config=pyproject.toml]\n" for i in range(3))


@pytest.mark.parametrize(("added", "severity"), [
    # MONAI's: the commit pasted the pycln block in twice; the next change takes the copy out, one stays
    (PRECOMMIT.split("repos:\n")[1].split("  - repo: https://github.com/hadialqattan/pycln1")[0], "notice"),
    # lines of its own, taken out by a stale copy: none of them stands in the file any more
    ("  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black-jupyter\n", "error"),
    # one line standing elsewhere too is common code, no copy (a test's `assert`: the shared corpus' partial hunks)
    ("  - repo: https://github.com/hadialqattan/pycln1\n", "error"),
    # a new member of the family, each of its lines found in one block or another but never as one block (vapor's
    # fifth `get` overload, taken out by a stale squash)
    ("  - repo: https://github.com/hadialqattan/pycln0\n    rev: v2.1.0\n    hooks:\n      - id: pycln2\n"
     "        args: [--config=pyproject.toml]\n", "error"),
])
def test_a_copy_of_lines_that_still_stand_in_the_file_taken_out_loses_nothing(repo: Repo, added: str,
                                                                               severity: str) -> None:
    seed(repo)
    land(repo, "ci: hooks", {".pre-commit-config.yaml": PRECOMMIT})
    land(repo, "ci: more hooks (#301)", {".pre-commit-config.yaml": PRECOMMIT + added, "src/mod1.py": body("hooks", 4)},
         author=DAVE)
    _topic(repo, {".pre-commit-config.yaml": PRECOMMIT, "kernel.c": "int t;\n"})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_a_whitespace_only_edit_undoes_nothing(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: more (#301)", {"src/mod1.py": old["src/mod1.py"] + body("more", 3)})
    _topic(repo, {"src/mod1.py": (old["src/mod1.py"] + body("more", 3)).replace("\n", " \n")})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


LOCK = '{"lockfileVersion": 3, "packages": {"left-pad": {"version": "1.0.0"}, "chalk": {"version": "4.1.0"}}}\n'


@pytest.mark.parametrize("path", ["package-lock.json", "requirements/test.txt"])
def test_a_dependency_bump_whose_lock_file_comes_back_byte_for_byte_fails(repo: Repo, path: str) -> None:
    # the lock is the bump (a Dependabot PR changes nothing else): the old one put back undoes it whole
    seed(repo)
    land(repo, "deps: lock", {path: LOCK})
    land(repo, "deps: bump left-pad from 1.0.0 to 1.3.0 (#301)", {path: LOCK.replace("1.0.0", "1.3.0")}, author=DAVE)
    _topic(repo, {path: LOCK, "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"
    assert by_pr(report)[301]["kinds"] == ["rollback"]


@pytest.mark.parametrize(("path", "lock"), [
    ("package-lock.json", True),
    ("rebar.lock", True),  # Erlang's (ejabberd's re-locks)
    ("ios/App/Package.resolved", True),  # SwiftPM's
    ("infra/.terraform.lock.hcl", True),
    ("go.work.sum", True),  # a Go workspace's checksums (kustomize's, alloy's churn)
    ("esy.lock/index.json", True),  # esy's lock folder (fnm's)
    ("esy/lock.json", False),  # a folder named so, no lock folder
    ("docs/Manifest.toml", True),  # Julia's resolved environment (Oceananigans' re-resolves)
    ("docs/Project.toml", False),  # its requirements: a version set back there is one
    ("common/dependencies.lock", True),  # Netflix Nebula's (conductor's regenerated per-module locks)
    ("gradle/verification-metadata.xml", True),  # Gradle's checksums, `--write-verification-metadata` (talk-android's)
    ("gradle/verification-keyring.keys", True),  # and the keys it trusts, `--export-keys`
    ("gradle/libs.versions.toml", False),  # its version catalog: people's choices
    ("dev.lock", True),  # orocommerce's Composer lock for `COMPOSER=dev.json`
    (".meteor/versions", False),  # Meteor's: reaction's stale checkouts setting its pins back with other work
    ("dependencies.txt", False),
    ("deps.json", False),  # no lock file: the old version line is set back
])
def test_a_regenerated_lock_file_holding_old_lines_is_no_evidence(repo: Repo, path: str, lock: bool) -> None:
    # regenerated, not put back: the old left-pad line returns beside a new chalk, and lines are not read
    locked = LOCK.replace(", ", ",\n").replace("{", "{\n")  # a line per entry, as lock files are written
    seed(repo)
    land(repo, "deps: lock", {path: locked})
    land(repo, "deps: bump left-pad from 1.0.0 to 1.3.0 (#301)", {path: locked.replace("1.0.0", "1.3.0")}, author=DAVE)
    _topic(repo, {path: locked.replace("4.1.0", "5.0.0"), "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic", "--strict")
    assert (report["findings"] == []) is lock, report["findings"]


@pytest.mark.parametrize(("path", "brought_back"), [
    ("Manifest.toml", True),  # Flux's stale branch putting back the lock file #1527 had stopped committing
    ("tests/__snapshots__/app.snap", False),  # a built file regenerated: its sources carry the evidence
])
def test_a_lock_file_a_commit_deleted_brought_back_regenerated(repo: Repo, path: str, brought_back: bool) -> None:
    locked = LOCK.replace(", ", ",\n").replace("{", "{\n")
    seed(repo)
    land(repo, "deps: lock", {path: locked})
    land(repo, "preparatory work for v0.12 (#301)", {path: None, ".gitignore": f"{path}\n", "src/mod1.py": body("prep", 4)},
         author=DAVE)
    # (the stale tree's `.gitignore` from before it too, as Flux's was)
    _topic(repo, {path: locked.replace("4.1.0", "5.0.0"), ".gitignore": None, "kernel.c": "int t;\n"})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert (path in found["paths"]) is brought_back, found["paths"]
    assert found["severity"] == ("error" if brought_back else "warning")  # (else the .gitignore it added, deleted)


def test_a_line_undone_inside_a_moved_file(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "fix: loader (#301)", {"src/mod1.py": old["src/mod1.py"].replace("scale=7", "scale=8")})
    moved = old["src/mod1.py"] + "moved_here = True_value(1)\n"
    _topic(repo, {"src/mod1.py": None, "src/loader/mod1.py": moved})
    code, report = check(repo, "main..topic")
    assert by_pr(report)[301]["severity"] in ("warning", "error")
    assert by_pr(report)[301]["paths"] == ["src/mod1.py"]


def test_a_plain_move_undoes_nothing(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "fix: loader (#301)", {"src/mod1.py": old["src/mod1.py"].replace("scale=7", "scale=8")})
    now = old["src/mod1.py"].replace("scale=7", "scale=8")
    _topic(repo, {"src/mod1.py": None, "src/loader/mod1.py": now})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and report["findings"] == []


def test_one_person_under_two_addresses_deleting_fresh_lines(repo: Repo) -> None:
    old = seed(repo)
    repo.write(".mailmap", "Carol <carol@example.com> <carol@laptop.local>\n")
    repo.commit("mailmap")
    land(repo, "feat: debug dump (#301)", {"src/mod1.py": old["src/mod1.py"] + "DEBUG_DUMP = True\n"},
         author="Carol <carol@laptop.local>")
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert by_pr(report)[301]["severity"] == "notice"  # own fresh line: debug code
    repo.git("checkout", "-q", "main")
    repo.git("branch", "-q", "-D", "topic")
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=DAVE)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"  # someone else's: a rollback


def test_github_revert_button_and_range_declarations(repo: Repo) -> None:
    old = seed(repo)
    feature = old["src/mod1.py"] + body("feature", 5)
    first = land(repo, "feat: fused prep (#301)", {"src/mod1.py": feature})
    land(repo, "feat: more prep (#302)", {"src/mod2.py": old["src/mod2.py"] + body("more", 5)})
    last = repo.head()
    both = {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"]}
    for message, edits in (('Revert "feat: fused prep"\n\nReverts acme/kernels#301', {"src/mod1.py": old["src/mod1.py"]}),
                           (f"Roll back the prep work\n\nThis reverts the commit range {first[:9]}^..{last[:9]}.", both)):
        repo.git("checkout", "-q", "-B", "topic", "main")
        land(repo, message, edits)
        code, report = check(repo, "main..topic")
        assert code == 0, message
        assert by_pr(report)[301]["declared"] is True
    repo.git("checkout", "-q", "-B", "revert-301-fused", "main")
    land(repo, 'Revert "feat: fused prep"', {"src/mod1.py": old["src/mod1.py"]})
    repo.git("checkout", "-q", "-B", "landing", "main")
    repo.git("merge", "--no-ff", "-q", "revert-301-fused", "-m", "Merge pull request #305 from acme/revert-301-fused")
    code, report = check(repo, "main..landing")
    assert code == 0 and by_pr(report)[301]["declared"] is True


@pytest.mark.parametrize(("subject", "declared"), [
    ("Revert 301 fused prep (#305)", True),  # openboxes': the revert button's branch as a squash's title
    ("Revert 301 commits of the prep (#305)", False),  # a count, not a PR
    ("Revert the prep after 301 runs (#305)", False),
])
def test_the_revert_buttons_branch_as_a_title_declares_its_pr(repo: Repo, subject: str, declared: bool) -> None:
    old = seed(repo)
    land(repo, "feat: fused prep (#301)", {"src/mod1.py": old["src/mod1.py"] + body("feature", 5)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["declared"] is declared


def test_the_repair_hint_in_text_and_markdown(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(2)}
    land(repo, "feat: fused prep (#221)", dict(new), author=BOB)
    _topic(repo, {**{p: old[p] for p in new}, "kernel.c": "int t;\n"})
    text = run_leverguard("check-revert", "main..topic", cwd=repo.path)
    assert text.returncode == 1
    assert "repair: git checkout " in text.stdout and "-- src/mod0.py src/mod1.py" in text.stdout
    assert "Leverguard-Revert-Ack: #221" in text.stdout
    markdown = run_leverguard("check-revert", "--format", "markdown", "main..topic", cwd=repo.path)
    assert "git checkout " in markdown.stdout and "Leverguard-Revert-Ack: #221" in markdown.stdout


def _aged(repo: Repo, hours: int) -> None:
    """The next commit lands HOURS after the previous one (the fixture ticks one hour per commit)."""
    repo._tick += hours - 1


BEYOND_LATEST = 4  # commits landed after the undone one: it is no longer one of the very last (LATEST_COMMITS, 3)


def _later_work(repo: Repo, hours: int) -> None:
    """BEYOND_LATEST commits on other files, then the next commit lands HOURS after the one before them."""
    for i in range(BEYOND_LATEST):
        land(repo, f"feat: later (#{500 + i})", {f"src/later{i}.py": body(f"later{i}", 4)}, author=DAVE)
    _aged(repo, hours - BEYOND_LATEST)


def _hunk_undo_at_age(repo: Repo, hours: int) -> str:
    old = seed(repo)
    text = old["src/mod1.py"]
    tuned = text.replace("scale=7)", "scale=70)").replace("scale=21)", "scale=210)").replace("scale=35)", "scale=350)")
    land(repo, "tune: constants (#301)", {"src/mod1.py": tuned})
    _later_work(repo, hours)
    _topic(repo, {"src/mod1.py": text.replace("scale=35)", "scale=350)") + "new_work = fresh_call(1)\n"})
    return by_pr(check(repo, "main..topic")[1])[301]["severity"]


def test_line_level_undo_of_work_45_days_old_is_still_a_warning(repo: Repo) -> None:
    assert _hunk_undo_at_age(repo, 45 * 24) == "warning"


def test_line_level_undo_of_work_older_than_45_days_is_a_notice(repo: Repo) -> None:
    assert _hunk_undo_at_age(repo, 45 * 24 + 1) == "notice"


def _rollback_at_age(repo: Repo, hours: int, commits: int = 1) -> dict:
    old = seed(repo)
    for i in range(commits):
        land(repo, f"feat: step {i} (#{301 + i})", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"s{i}", 4)})
    _later_work(repo, hours)
    _topic(repo, {**{f"src/mod{i}.py": old[f"src/mod{i}.py"] for i in range(commits)}, "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic")
    return {"exit": code, **{str(pr): f["severity"] for pr, f in by_pr(report).items()}}


def test_a_whole_file_rollback_of_work_90_days_old_fails(repo: Repo) -> None:
    assert _rollback_at_age(repo, 90 * 24) == {"exit": 1, "301": "error"}


def test_a_whole_file_rollback_of_work_older_than_90_days_is_a_notice(repo: Repo) -> None:
    assert _rollback_at_age(repo, 90 * 24 + 1) == {"exit": 0, "301": "notice"}


@pytest.mark.parametrize(("written_before", "severity"), [
    (True, "error"),  # bcc's: authored before #301 landed, rebased and landed months later: a stale tree
    (False, "notice"),  # written when #301 was months old: the age rule stands
])
def test_a_change_written_before_the_work_it_undoes_landed_does_not_age_it(repo: Repo, written_before: bool,
                                                                           severity: str) -> None:
    old = seed(repo)
    written = f"{1_700_000_000 + 3600} +0000"  # with the initial import, before #301 (one hour a commit)
    land(repo, "feat: step (#301)", {"src/mod0.py": old["src/mod0.py"] + body("s0", 4)})
    _later_work(repo, 91 * 24)
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("src/mod0.py", old["src/mod0.py"])
    repo.write("kernel.c", "int t;\n")
    env = {"GIT_AUTHOR_DATE": written} if written_before else {}
    repo.commit("Fix incorrect DSO information", author=CAROL, env=env)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_several_recent_commits_rolled_back_at_once_fail_whatever_the_shape(repo: Repo) -> None:
    assert _rollback_at_age(repo, 30 * 24, commits=2) == {"exit": 1, "301": "error", "302": "error"}


def test_several_commits_older_than_90_days_rolled_back_are_a_feature_taken_out(repo: Repo) -> None:
    assert _rollback_at_age(repo, 91 * 24, commits=2) == {"exit": 0, "301": "notice", "302": "notice"}


def test_a_file_brought_back_from_the_dead_never_ages(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "chore: drop the old module (#301)", {"src/mod1.py": None})
    _aged(repo, 400 * 24)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


def _one_line_rollback_at_age(repo: Repo, hours: int) -> str:
    old = seed(repo)
    land(repo, "ci: pin (#301)", {"src/mod1.py": old["src/mod1.py"].replace("scale=7)", "scale=70)")})
    _later_work(repo, hours)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    return by_pr(check(repo, "main..topic")[1])[301]["severity"]


def test_a_one_line_rollback_within_14_days_fails(repo: Repo) -> None:
    assert _one_line_rollback_at_age(repo, 14 * 24) == "error"


def test_a_one_line_toggle_after_14_days_is_a_notice(repo: Repo) -> None:
    assert _one_line_rollback_at_age(repo, 14 * 24 + 1) == "notice"


def _one_line_deletion_after(repo: Repo, later_commits: int) -> str:
    old = seed(repo)
    land(repo, "feat: flag (#301)", {"src/mod1.py": old["src/mod1.py"] + "ENABLE_FAST_PATH = True\n"})
    for i in range(later_commits):
        land(repo, f"feat: other (#{400 + i})", {f"src/mod{2 + i % 15}.py": old[f"src/mod{2 + i % 15}.py"] + f"extra_{i} = other_call({i})\n"})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    return by_pr(check(repo, "main..topic")[1])[301]["severity"]


def test_a_one_line_rollback_of_the_last_ten_commits_fails(repo: Repo) -> None:
    assert _one_line_deletion_after(repo, 10) == "error"


def test_a_one_line_rollback_of_older_commits_is_a_warning(repo: Repo) -> None:
    assert _one_line_deletion_after(repo, 11) == "warning"


def test_a_change_that_calls_itself_a_revert_is_no_silent_error(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(2)}
    land(repo, "feat: fused prep (#221)", dict(new))
    _topic(repo, {p: old[p] for p in new}, subject="Revert the prep fusion, it broke decode")
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report)[221]["severity"] == "notice" and by_pr(report)[221]["declared"] is False
    assert by_pr(report)[221]["silent_severity"] == "notice" and "calls itself a revert" in by_pr(report)[221]["reason"]


def _moved_back(repo: Repo, subject: str) -> dict:
    """#221 moves the build from setuptools to flit; a topic under SUBJECT puts setup.py back."""
    old = seed(repo)
    repo.write("setup.py", "from setuptools import setup\nsetup(name='kernels', version='1.0')\n")
    repo.commit("build: setuptools")
    land(repo, "Move from setuptools to flit (#221)", {"setup.py": None, "flit.ini": "[metadata]\nmodule = kernels\n"})
    _topic(repo, {"setup.py": "from setuptools import setup\nsetup(name='kernels', version='1.0')\n",
                  "flit.ini": None, "kernel.c": old["kernel.c"] + "int t;\n"}, subject=subject)
    return by_pr(check(repo, "main..topic")[1])[221]


def test_a_change_titled_move_back_to_calls_itself_a_revert(repo: Repo) -> None:
    finding = _moved_back(repo, "move back to setuptools (#367)")
    assert finding["severity"] == "notice" and "calls itself a revert" in finding["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("CB-2667 fix(build): revert lozalization changes", "notice"),  # cloudbeaver's: a tracker's key, then the prefix
    ("CB-2667: Revert lozalization changes", "notice"),
    ("CB-2667 fix(build): the revert button", "error"),  # the word, not the act
    ("quickly revert changes", "notice"),  # terser's, over its own walk() series
    ("quickly fix the build", "error"),
    ("Disable/revert recent packaging changes.", "notice"),  # mujoco's: a verb joined to it by a slash
    ("Disable/fix recent packaging changes.", "error"),
])
def test_a_tracker_key_before_revert_wording_calls_itself_a_revert(repo: Repo, subject: str, severity: str) -> None:
    assert _moved_back(repo, subject)["severity"] == severity


def test_a_change_titled_back_to_where_it_was_calls_itself_a_revert(repo: Repo) -> None:
    finding = _moved_back(repo, "Build back to where it was, same as httpx (#367)")
    assert finding["severity"] == "notice" and "calls itself a revert" in finding["reason"]


@pytest.mark.parametrize(("subject", "calls"), [
    ("fix: 🐛 rollback last release", True),  # svelte-preprocess' gitmoji title
    (":rewind: Revert to setuptools", True),  # the shortcode form
    ("fix: 🐛 keep the last release", False),  # an emoji before other words
    ("[BUGFIX] Revert relative links (#9343)", True),  # great_expectations' bracketed type prefix
    ("[BUGFIX] Reverse the order of the setup hooks", False),
])
def test_a_title_opening_with_emoji_is_read_past_them(repo: Repo, subject: str, calls: bool) -> None:
    assert ("calls itself a revert" in _moved_back(repo, subject)["reason"]) is calls


@pytest.mark.parametrize(("subject", "calls"), [
    ("reverse last commit, need a better fix", True),  # json-iterator's
    ("reverse some of the public-domain-license changes that I didn't actually want", True),  # stb's
    ("Backout commons-parent bump due to checkstyle version issue on Java 11", True),  # commons-codec's
    ("undid changes", True),  # cvxpy's, an hour after a contributor's import re-formatting
    ("undidactic examples", False),
    ("Revent", True),  # hapi's typo, two minutes after a release it set back
    ("Prevent a double release", False),
    ("reverse engineering the format changes everything", False),
    ("Reverse the order of the setup hooks", False),  # reversing something else
    ("previous commit breaks tests, pulling out", True),  # Dancer2's, the PodWeaver commit before it
    ("backing the previous commit out until the docs build", True),
    ("previous commit breaks tests, fixing them", False),  # the commit named, nothing taken out
    ("pulling out the parser into its own module", False)])  # no commit named: a refactor
def test_reversing_the_last_commit_calls_itself_a_revert(repo: Repo, subject: str, calls: bool) -> None:
    assert ("calls itself a revert" in _moved_back(repo, subject)["reason"]) is calls


@pytest.mark.parametrize(("subject", "calls"), [
    ("Automated rollback.\n\n*** Reason for rollback ***\n\nequals method too liberal", True),  # Google's exports
    ("going back", True),  # pb's maintainer backing out a PR merged that day
    ("Automated tests for the flit build", False),
    ("going back home screen fix", False)])
def test_an_automated_rollback_or_going_back_calls_itself_a_revert(repo: Repo, subject: str, calls: bool) -> None:
    assert ("calls itself a revert" in _moved_back(repo, subject)["reason"]) is calls


def test_moving_a_back_button_is_no_revert_wording(repo: Repo) -> None:
    assert _moved_back(repo, "Move back button to the header (#367)")["severity"] == "error"


@pytest.mark.parametrize("subject", ["Temporarily revert changes to `@utility` (#367)", "Partially revert the flit move"])
def test_a_change_titled_a_temporary_or_partial_revert_calls_itself_one(repo: Repo, subject: str) -> None:
    # tailwindcss' `Temporarily revert changes to @utility`, re-applied the same day
    finding = _moved_back(repo, subject)
    assert finding["severity"] == "notice" and "calls itself a revert" in finding["reason"]


def test_a_temporary_fix_is_no_revert_wording(repo: Repo) -> None:
    assert _moved_back(repo, "Temporary fix for the flit build (#367)")["severity"] == "error"


@pytest.mark.parametrize(("note", "severity"), [
    ("Revert out changes related to the extraction of the prep module - by :user:`bob`.\n", "notice"),
    ("- Reverted the prep fusion: it broke decode.\n", "notice"),
    ("Fix the prep fusion breaking decode - by :user:`bob`.\n", "error"),
])
def test_a_release_note_the_change_writes_can_call_it_a_revert(repo: Repo, note: str, severity: str) -> None:
    # virtualenv's merge of branch `2977` with an empty message: its towncrier fragment says what it does
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(2)}
    land(repo, "feat: fused prep (#221)", dict(new))
    _topic(repo, {**{p: old[p] for p in new}, "docs/changelog/2977.bugfix.rst": note}, subject="Fix decode (#302)")
    finding = by_pr(check(repo, "main..topic")[1])[221]
    assert finding["severity"] == severity
    assert ("release note calls it a revert" in finding["reason"]) is (severity == "notice")


@pytest.mark.parametrize("bot", ["dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
                                 # check-jsonschema's `[vendor-schemas] automated update`, written by a workflow
                                 "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>"])
def test_a_bot_change_is_a_notice_and_a_person_is_not(repo: Repo, bot: str) -> None:
    old = seed(repo)
    land(repo, "deps: pin (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pin", 4)})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"},
           subject="Bump left-pad from 1.0 to 1.1", author=bot)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "notice"
    repo.git("checkout", "-q", "main")
    repo.git("branch", "-q", "-D", "topic")
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, subject="Bump left-pad from 1.0 to 1.1")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


@pytest.mark.parametrize(("author", "severity"), [
    ("PrometheusBot <prometheus-team@googlegroups.com>", "notice"),  # `Update common Prometheus files`, synced
    ("Gregory Talbot <greg@talbot.example>", "error")])  # a person's name that ends so
def test_a_bot_account_named_in_camel_case_is_a_bot(repo: Repo, author: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "ci: pin setup-go (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pin", 4)})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"},
           subject="Update common Prometheus files", author=author)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_moving_a_file_back_where_it_was_deleted_is_no_resurrection(repo: Repo) -> None:
    seed(repo)
    logo = body("logo", 6)
    land(repo, "docs: the logo", {"docs/logo.txt": logo})
    land(repo, "docs: move the logo to public (#301)", {"docs/logo.txt": None, "docs/public/logo.txt": logo})
    _topic(repo, {"docs/public/logo.txt": None, "docs/logo.txt": logo})
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and all(f["severity"] in ("info", "notice") for f in report["findings"])


def test_a_bare_mirror_is_checked_without_writing_into_it(repo: Repo, tmp_path) -> None:
    import os

    old = seed(repo)
    land(repo, "feat: fused prep (#221)", {"src/mod1.py": old["src/mod1.py"] + body("f", 4)})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"})
    mirror = tmp_path / "mirror.git"
    repo.git("clone", "-q", "--mirror", str(repo.path), str(mirror))

    def listing() -> list[tuple[str, float]]:
        return sorted((os.path.join(d, f), os.stat(os.path.join(d, f)).st_mtime) for d, _, fs in os.walk(mirror) for f in fs)

    before = listing()
    proc = run_leverguard("check-revert", "--repo", str(mirror), "main..topic", cwd=tmp_path)
    assert proc.returncode == 1 and "FAIL" in proc.stdout
    assert run_leverguard("audit", "--repo", str(mirror), "topic", cwd=tmp_path).returncode == 1
    assert listing() == before


def test_a_described_file_removal_is_a_notice(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "ci: python 2.7 only (#301)", {"src/mod3.py": old["src/mod3.py"].replace("scale=7)", "scale=8)") + body("ci", 3)})
    _topic(repo, {"src/mod3.py": None, "kernel.c": "int t;\n"}, subject="Remove mod3.py, the loader replaces it")
    code, report = check(repo, "main..topic", "--strict")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"


def test_a_squash_that_lists_an_inner_revert_is_no_revert_itself(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(3)}
    land(repo, "fix: smoke reliability (#972)\n\n* try a retry\n\n* Revert \"try a retry\"\n\nThis reverts commit "
         "0123456789abcdef0123456789abcdef01234567.", dict(new))
    _topic(repo, {**{p: old[p] for p in new}, "kernel.c": "int t;\n"}, author=BOB)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[972]["severity"] == "error" and by_pr(report)[972]["explanation"] == ""


def test_diff_attributes_in_the_working_tree_do_not_blind_the_hunks(repo: Repo) -> None:
    old = seed(repo)
    text = old["src/mod1.py"]
    land(repo, "tune: two constants (#301)", {"src/mod1.py": text.replace("scale=7)", "scale=70)").replace("scale=35)", "scale=350)")})
    _topic(repo, {"src/mod1.py": text.replace("scale=35)", "scale=350)") + "new_work = fresh_call(1)\n"})
    repo.write(".gitattributes", "* -diff\n")  # uncommitted: a local file, not BASE's
    for committed in (False, True):
        if committed:
            land(repo, "attributes", {".gitattributes": "* -diff\n"}, author=CAROL)
        code, report = check(repo, "main..topic")
        assert by_pr(report)[301]["kinds"] == ["inverse-hunk"] and by_pr(report)[301]["severity"] == "warning", committed
        audit = run_leverguard("audit", "--format", "json", "topic", cwd=repo.path)
        assert any(f["commit"] == by_pr(report)[301]["commit"] for r in json.loads(audit.stdout)["results"]
                   for f in r["findings"]) or committed


def test_an_audited_merge_shows_its_pr_title(repo: Repo) -> None:
    old = seed(repo)
    new = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"f{i}", 3) for i in range(2)}
    land(repo, "feat: fused prep (#221)", dict(new))
    repo.git("checkout", "-q", "-b", "stale")
    land(repo, "kernel: restructure", {**{p: old[p] for p in new}, "kernel.c": "int t;\n"})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "stale", "-m", "Merge pull request #224 from team/stale", "-m", "Restructure the kernel")
    proc = run_leverguard("audit", cwd=repo.path)
    assert proc.returncode == 1 and "Restructure the kernel" in proc.stdout
    assert "Merge pull request #224" not in proc.stdout.split("commit   landed as")[1]


def test_the_first_push_hint_works_on_a_fresh_bare_remote(repo: Repo, tmp_path) -> None:
    import subprocess

    seed(repo)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo.git("remote", "add", "origin", str(remote))
    proc = run_leverguard("pre-push-revert", "origin", cwd=repo.path)
    assert "git remote set-head origin main" in proc.stderr and "--auto needs" in proc.stderr
    repo.git("push", "-q", "origin", "main")
    repo.git("remote", "set-head", "origin", "main")  # the hint, followed, works on that remote
    assert repo.git("symbolic-ref", "refs/remotes/origin/HEAD") == "refs/remotes/origin/main"


def _rolled_back(repo: Repo, path: str, config: str = "") -> str:
    """Severity of putting PATH back, when one commit edited a source and its built bundle alike."""
    seed(repo)
    if config:
        land(repo, "chore: leverguard settings", {".leverguard.toml": config})
    bundle = "".join(f"var step{i} = make({i});\n" for i in range(8))
    land(repo, "build: bundle", {"dist/app.js": bundle, "src/app.js": bundle})
    land(repo, "fix: steps (#301)", {"dist/app.js": bundle + "var fixed = make(9);\n",
                                     "src/app.js": bundle + "var fixed = make(9);\n"})
    _topic(repo, {path: bundle, "kernel.c": "int t;\n"})
    return by_pr(check(repo, "main..topic")[1])[301]["severity"]


def test_a_built_bundle_put_back_is_a_notice(repo: Repo) -> None:
    assert _rolled_back(repo, "dist/app.js") == "notice"


@pytest.mark.parametrize(("path", "severity"), [
    ("public/build/assets/app-B7x9kLm2.js", "notice"),  # bagisto's Vite bundle, deleted by a rebuild, brought back
    ("public/js/app-B7x9kLm2.js", "error"),  # no build output: someone's file brought back
])
def test_a_built_bundle_a_rebuild_deleted_brought_back_is_a_notice(repo: Repo, path: str, severity: str) -> None:
    seed(repo)
    bundle = "".join(f"var step{i} = make({i});\n" for i in range(8))
    land(repo, "build: bundle", {path: bundle})
    land(repo, "build: rebuild (#301)", {path: None, path.replace("B7x9kLm2", "Cq1Zr8Tn"): bundle + "var fixed = make(9);\n"})
    _topic(repo, {path: bundle, "kernel.c": "int t;\n"})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_built_files_is_the_whole_list_once_configured(repo: Repo) -> None:
    # the default list replaced: dist/ is a source again, its rollback evidence like any file's
    assert _rolled_back(repo, "dist/app.js", '[revert]\nbuilt_files = ["static/*.js"]\n') == "error"


@pytest.mark.parametrize("snapshot", ["tests/__snapshots__/test_app/test_tree.svg",
                                      "tests/testthat/_snaps/mutate.md",  # testthat's snapshots
                                      "revdep/problems.md",  # R's revdepcheck report (dplyr's `Update revdeps`)
                                      "tests/derive_ui/tree.stderr",  # clap's trybuild expectations
                                      "tests/gen/ptest_2176b1b061cb7da2.stdout",  # eza's regenerated powertests
                                      "martin/.sqlx/query-4a8b1c.json",  # sqlx's offline query cache
                                      "client/.openapi-generator/FILES",  # openapi-generator's manifest (Tandoor)
                                      "tests/SelfTest/Baselines/console.std.approved.txt",  # Catch2's approvals
                                      "test/Docfx.Tests/SamplesTest.Seed.verified.txt",  # Verify's snapshots (docfx)
                                      "vendor/golang.org/x/sys/cpu/cpu.go",  # lazygit's `go mod vendor` output
                                      "public/themes/shop/default/build/assets/app-BeQXD5ar.js",  # bagisto's Vite build
                                      "public/build/manifest.json",
                                      "app/assets/builds/administrate/application.js",  # Rails' jsbundling output
                                      "apps/web/next-env.d.ts",  # Next.js rewrites it at each `next dev` (safe-wallet)
                                      "common/api-review/messaging.api.md",  # API Extractor's report (firebase)
                                      "site/.cache/twoslash/4f1c.json",  # a tool's cache folder committed (viem)
                                      "pkg/plugin/testdata/default-route.clusters.golden.yaml",  # kuma's golden files
                                      "internal/xds/testdata/out/xds-ir/tracing.clusters.yaml",  # envoy gateway's
                                      "src/test/regress/expected/multi_metadata_sync.out",  # pg_regress' (citus)
                                      "docker/integration_tests/results/baseline1.out",  # zaproxy's
                                      "Tests/Tests.T4/Databases/Access.generated.cs",  # T4's output (linq2db)
                                      "ro-crate-metadata.json"])  # nf-core's, written at each version bump
def test_a_snapshot_or_vendored_file_put_back_is_a_notice(repo: Repo, snapshot: str) -> None:
    assert _snapshot_put_back(repo, snapshot) == (0, "notice")


@pytest.mark.parametrize("source", ["src/vendor.svg", "docs/snapshots.svg",  # named so, in no such folder
                                    "src/env.d.ts", "docs/api.md", "src/cache/lookup.svg",  # near the names only
                                    "build/icons/app.svg",  # a `build/` folder of sources: not Vite's `assets/`
                                    "internal/testdata/in/xds-ir/tracing.yaml",  # a golden file's input
                                    "src/test/regress/sql/multi_metadata_sync.out",  # `.out` outside expected/
                                    "docs/ro-crate-metadata.md",  # a page about it
                                    "src/generated.cs", "src/Generated/Access.cs",  # a generator's own sources
                                    "app/assets/javascripts/builds.js"])  # Rails' hand-written assets
def test_a_source_named_like_a_built_folder_put_back_fails(repo: Repo, source: str) -> None:
    assert _snapshot_put_back(repo, source) == (1, "error")


def _snapshot_put_back(repo: Repo, snapshot: str) -> tuple[int, str]:
    seed(repo)
    svg = "".join(f'<text x="{i}" class="r{i}">node {i}</text>\n' for i in range(8))
    land(repo, "test: tree snapshot", {snapshot: svg})
    land(repo, "fix: tree icons (#301)", {snapshot: svg.replace("node 3", "node 3 expanded"),
                                          "src/mod1.py": body("tree", 4)})
    _topic(repo, {snapshot: svg, "kernel.c": "int t;\n"})  # regenerated: byte-identical to the old one
    code, report = check(repo, "main..topic")
    return code, by_pr(report)[301]["severity"]


def test_the_same_rollback_of_a_source_file_fails(repo: Repo) -> None:
    assert _rolled_back(repo, "src/app.js") == "error"


def _merged_branch(repo: Repo, branch: str, subject: str) -> dict[str, str]:
    """BRANCH adds lines to mod1 and is merged into main as SUBJECT; returns the seeded contents."""
    old = seed(repo)
    repo.git("checkout", "-q", "-b", branch)
    land(repo, "pin: sphinx < 5 for the old line", {"src/mod1.py": old["src/mod1.py"] + body("pin", 4)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", branch, "-m", subject)
    return old


def _undo_a_merge_of(repo: Repo, branch: str, subject: str, whole: bool = True, topic: str = "kernel: tune") -> dict:
    """The topic takes out what `_merged_branch` merged: the whole file put back (WHOLE), or the lines
    only, beside new work."""
    old = _merged_branch(repo, branch, subject)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"] + ("" if whole else "new_work = fresh_call(1)\n"),
                  "kernel.c": "int t;\n"}, subject=topic)
    code, report = check(repo, "main..topic")
    (finding,) = [f for f in report["findings"] if f["subject"] == subject]
    return finding


@pytest.mark.parametrize(("line", "subject"), [
    ("2.0.x", "Merge branch '2.0.x'"), ("v0.8.x", "Merge branch 'v0.8.x'"),  # axum's `Merge branch 'v0.8.x'`
    ("v3.7", "Merge branch v3.7 into master"), ("v3.7", "Merge current branch v3.7 into master"),  # traefik's
    ("3.6.x", "Merge #3754 into 3.6.5"),  # reactor's: a maintenance fix merged forward into a version line
])
def test_what_a_release_line_merged_forward_brings_main_adapts(repo: Repo, line: str, subject: str) -> None:
    finding = _undo_a_merge_of(repo, line, subject, whole=False)
    assert finding["severity"] == "notice" and "release line" in finding["reason"]


@pytest.mark.parametrize(("title", "severity"), [
    ("sync release branches", "notice"), ("sync `release-63` to `master`", "notice"),  # emqx's, 210 in 2,000 commits
    ("sync the release notes", "warning"),  # no release branch named
])
def test_a_pull_request_titled_as_a_release_sync_merges_a_release_line(repo: Repo, title: str, severity: str) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "release-58")
    land(repo, "pin: sphinx < 5 for the old line", {"src/mod1.py": old["src/mod1.py"] + body("pin", 4)})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "release-58", "-m", "Merge pull request #13583 from id/sync-release", "-m", title)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"] + "new_work = fresh_call(1)\n", "kernel.c": "int t;\n"})
    finding = by_pr(check(repo, "main..topic")[1])[13583]
    assert finding["severity"] == severity, finding["reason"]


def test_a_topic_branch_merged_unquoted_is_no_release_line(repo: Repo) -> None:
    finding = _undo_a_merge_of(repo, "faster-prep", "Merge branch faster-prep into master", whole=False)
    assert finding["severity"] == "warning"


def test_a_file_a_release_line_merged_forward_changed_put_back_whole_fails(repo: Repo) -> None:
    # a stale tree's copy from before the merge adapts nothing (flask's `Merge branch '2.1.x'` undone)
    assert _undo_a_merge_of(repo, "2.0.x", "Merge branch '2.0.x'")["severity"] == "error"


def test_a_release_line_merged_forward_again_carries_its_own_changes(repo: Repo) -> None:
    # flask's `Merge branch '2.0.x'` putting back a file the line's previous merge forward had changed
    finding = _undo_a_merge_of(repo, "2.0.x", "Merge remote-tracking branch 'origin/2.0.x'", topic="Merge branch '2.0.x'")
    assert finding["severity"] == "notice" and "release line" in finding["reason"]


@pytest.mark.parametrize(("topic", "severity"), [("Fixed incorrect merge in setup.py", "notice"),  # jinja's
                                                 ("Fix the merge script", "error")])
def test_a_change_that_says_it_repairs_a_bad_merge(repo: Repo, topic: str, severity: str) -> None:
    assert _undo_a_merge_of(repo, "hotfix/0.3.7", "Merge branch 'hotfix/0.3.7'", topic=topic)["severity"] == severity


def test_a_file_a_release_line_merged_forward_deleted_brought_back_fails(repo: Repo) -> None:
    # main adapts what the old line brings; a stale tree re-adding what it took out adapts nothing
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "2.0.x")
    land(repo, "drop the retired example", {"src/mod3.py": None})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "2.0.x", "-m", "Merge branch '2.0.x'")
    _topic(repo, {"src/mod3.py": old["src/mod3.py"], "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic")
    (finding,) = [f for f in report["findings"] if f["subject"] == "Merge branch '2.0.x'"]
    assert code == 1 and finding["severity"] == "error" and finding["kinds"] == ["resurrected"]


def test_undoing_a_merged_hotfix_branch_fails(repo: Repo) -> None:
    assert _undo_a_merge_of(repo, "hotfix/0.3.7", "Merge branch 'hotfix/0.3.7'")["severity"] == "error"


def test_undoing_a_pull_of_master_into_master_fails(repo: Repo) -> None:
    assert _undo_a_merge_of(repo, "up", "Merge branch 'master' of github.com:acme/tool")["severity"] == "error"


TCP_TEST = ("def test_fromsock_extra_info(self):\n    sock = socket.socket()\n    async def go():\n"
            "        t, _ = await self.loop.create_connection(asyncio.Protocol, None, None, sock=sock)\n"
            "        self.assertIs(t.get_extra_info('socket'), sock)\n        t.close()\n"
            "    with sock:\n        self.loop.run_until_complete(go())\n")
UNIX_TEST = ("def test_fromsock_extra_info(self):\n    async def go(sock):\n"
             "        t, _ = await self.loop.create_unix_connection(asyncio.Protocol, None, sock=sock)\n"
             "        self.assertIs(t.get_extra_info('socket'), sock)\n        t.close()\n"
             "    s1, s2 = socket.socketpair(socket.AF_UNIX)\n    with s1, s2:\n"
             "        self.loop.run_until_complete(go(s1))\n")


def _test_moved_to_another_file(repo: Repo, arrived: str) -> dict:
    old = seed(repo)
    land(repo, "tests: extra info of a transport from a socket (#301)", {"src/mod1.py": old["src/mod1.py"] + TCP_TEST})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"] + arrived})
    return by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})


def test_a_test_moved_to_another_file_with_edits_is_a_move(repo: Repo) -> None:
    assert _test_moved_to_another_file(repo, UNIX_TEST)["severity"] in ("none", "notice")


def test_a_test_deleted_while_a_different_one_is_added_is_a_rollback(repo: Repo) -> None:
    other = UNIX_TEST.replace("def test_fromsock_extra_info", "def test_unix_pair_extra_info")
    assert _test_moved_to_another_file(repo, other)["severity"] == "error"


def _rollback_of_one_file_of_two(repo: Repo, edit_the_other: bool, stale_too: bool = False, author: str = CAROL,
                                 message: str = "kernel: tune", both: bool = False) -> dict[str, str | int]:
    """#301 (Bob's) changes two files; the topic (AUTHOR's) puts one back (BOTH: both) and edits (or leaves) the other."""
    old = seed(repo)
    tuned = {p: old[p].replace("scale=7)", "scale=70)") + body(p[4:8], 3) for p in ("src/mod1.py", "src/mod2.py")}
    land(repo, "perf: tune the scales (#301)", dict(tuned))
    if stale_too:
        land(repo, "perf: a third scale (#302)", {"src/mod3.py": old["src/mod3.py"] + body("third", 3)})
    edits = {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}
    if edit_the_other:
        edits["src/mod2.py"] = tuned["src/mod2.py"] + "new_work = fresh_call(1)\n"
    if stale_too:
        edits["src/mod3.py"] = old["src/mod3.py"]
    if both:
        edits["src/mod2.py"] = old["src/mod2.py"]
    _topic(repo, edits, subject=message, author=author)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    return {"exit": code, "severity": finding["severity"], "reason": finding["reason"]}


def test_a_file_put_back_while_the_commits_other_file_is_edited_with_its_work_kept_is_a_notice(repo: Repo) -> None:
    # the change worked on #301's other file with #301's work in place: its tree was not stale there
    found = _rollback_of_one_file_of_two(repo, edit_the_other=True)
    assert found == {"exit": 0, "severity": "notice", "reason": "a file put back to its version before it; "
                     "the change edits 1 more of its files and keeps its work there"}


def test_a_file_put_back_while_the_commits_other_file_is_left_alone_fails(repo: Repo) -> None:
    found = _rollback_of_one_file_of_two(repo, edit_the_other=False)
    assert found == {"exit": 1, "severity": "error", "reason": "a file put back to its version before it"}


def test_a_file_put_back_beside_a_regenerated_lock_file_of_the_commit_fails(repo: Repo) -> None:
    # a lock file is regenerated, not edited, and its lines are no evidence: rewriting it keeps no work of
    # #301's (rich's merge that put its asv bump back and re-locked)
    seed(repo)
    land(repo, "deps: lock", {"pyproject.toml": 'asv = "^0.5.1"\n', "poetry.lock": body("lock", 20)})
    land(repo, "deps: bump asv (#301)", {"pyproject.toml": 'asv = "^0.6.4"\n', "poetry.lock": body("lock6", 24)})
    _topic(repo, {"pyproject.toml": 'asv = "^0.5.1"\n', "poetry.lock": body("relocked", 21), "kernel.c": "int t;\n"})
    code, report = check(repo, "main..topic")
    assert (code, by_pr(report)[301]["severity"], by_pr(report)[301]["reason"]) == \
        (1, "error", "a file put back to its version before it")


def test_a_file_of_the_authors_own_commit_put_back_the_other_left_alone_is_a_notice(repo: Repo) -> None:
    # an iteration (a CI fix tried and dropped): noted, not failed, when nothing else says stale tree
    found = _rollback_of_one_file_of_two(repo, edit_the_other=False, author=BOB)
    assert found == {"exit": 0, "severity": "notice", "reason": "a file put back to its version before it; "
                     "some files of its author's own commit, the others left as they are"}


def test_the_authors_own_commit_put_back_whole_still_fails(repo: Repo) -> None:
    # #221/#224: every file of a commit put back fails, whoever wrote it
    found = _rollback_of_one_file_of_two(repo, edit_the_other=False, author=BOB, both=True)
    assert found["exit"] == 1 and found["severity"] == "error"


def test_a_file_of_an_agents_own_commit_put_back_still_fails(repo: Repo) -> None:
    # an agent writes whole files from what it read earlier: its author's identity says nothing of its tree
    found = _rollback_of_one_file_of_two(repo, edit_the_other=False, author=BOB, message="kernel: tune" + CLAUDE)
    assert found["exit"] == 1 and found["severity"] == "error"


def test_a_file_of_ones_own_commit_put_back_inside_a_stale_tree_still_fails(repo: Repo) -> None:
    found = _rollback_of_one_file_of_two(repo, edit_the_other=False, stale_too=True, author=BOB)
    assert found["exit"] == 1 and found["severity"] == "error"


@pytest.mark.parametrize(("writer", "deleter", "severity"), [
    ("Jakub Roztocil <jakub@roztocil.co>", "jakubroztocil <6+jakubroztocil@users.noreply.github.com>", "notice"),
    ("Al Bo <al@bo.org>", "albo <7+albo@users.noreply.github.com>", "error"),  # 4 letters: any login could be it
    ("Ab Cde <ab@cde.org>", "abcde <9+abcde@users.noreply.github.com>", "error"),  # 5: below MIN_NAME_LOGIN
    ("Ab Cdef <ab@cdef.org>", "abcdef <9+abcdef@users.noreply.github.com>", "notice"),  # 6: the same person
    ("Jakub Roztocil <jakub@roztocil.co>", "jroztocil <8+jroztocil@users.noreply.github.com>", "error"),
])
def test_a_login_spelled_as_the_full_name_is_the_same_person(repo: Repo, writer: str, deleter: str,
                                                               severity: str) -> None:
    # httpie's `jakubroztocil` and `Jakub Roztocil`: a fresh line of one's own, deleted, is debug code
    old = seed(repo)
    land(repo, "feat: debug dump (#301)", {"src/mod1.py": old["src/mod1.py"] + "DEBUG_DUMP = True\n"}, author=writer)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=deleter)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_a_file_put_back_inside_a_stale_tree_fails_though_another_file_is_kept(repo: Repo) -> None:
    found = _rollback_of_one_file_of_two(repo, edit_the_other=True, stale_too=True)
    assert found["exit"] == 1 and found["severity"] == "error"


def _version_put_back(repo: Repo, title: str, line: str = '__version__ = "8.3.1"\n') -> dict[str, str | int]:
    """#301 releases 8.3.1 over 8.3.dev; the checked change sets the file back to its 8.3.dev text."""
    seed(repo)
    land(repo, "chore: start 8.3", {"pkg/version.py": '__version__ = "8.3.dev"\n'})
    land(repo, "Release version 8.3.1 (#301)", {"pkg/version.py": line})
    _topic(repo, {"pkg/version.py": '__version__ = "8.3.dev"\n', "kernel.c": "int t;\n"}, subject=title)
    code, report = check(repo, "main..topic")
    return {"exit": code, "severity": by_pr(report)[301]["severity"]}


def test_a_release_setting_a_version_number_back_is_a_notice(repo: Repo) -> None:
    assert _version_put_back(repo, "Bump version to 8.3.dev (#3146)") == {"exit": 0, "severity": "notice"}


def test_the_same_version_put_back_by_a_change_that_is_no_release_fails(repo: Repo) -> None:
    assert _version_put_back(repo, "kernel: fuse the prep loop") == {"exit": 1, "severity": "error"}


def test_a_release_putting_back_a_line_without_a_version_number_fails(repo: Repo) -> None:
    found = _version_put_back(repo, "chore(release): 8.3.2", line='__version__ = get_version("pkg")\n')
    assert found == {"exit": 1, "severity": "error"}


def _setup_py(version: str, name: str = "pkg") -> str:
    return f'setup(\n    name="{name}",\n    version="{version}",\n)\n'


def _version_moved_on(repo: Repo, before: str) -> dict[str, str | int]:
    """cattrs' shape: master is BEFORE, #301 releases 8.3.1 from it, and the checked change (no release
    title) puts the file back to its text from before #301."""
    seed(repo)
    land(repo, "chore: start 8.4", {"setup.py": _setup_py(before)})
    land(repo, "8.3.1 (#301)", {"setup.py": _setup_py("8.3.1")})
    _topic(repo, {"setup.py": _setup_py(before), "kernel.c": "int t;\n"}, subject="8.4 open for business")
    code, report = check(repo, "main..topic")
    return {"exit": code, "severity": by_pr(report)[301]["severity"], "reason": by_pr(report)[301]["reason"]}


@pytest.mark.parametrize(("path", "reset", "severity"), [
    # dart-sass' reset after each beta: `-dev` comes after `-beta.5.3` in Semantic Versioning's order
    ("pubspec.yaml", "1.0.0-dev", "notice"),
    ("package.json", "1.0.0-dev", "notice"),
    ("pubspec.yaml", "1.0.0-beta.5.2", "error"),  # an older beta: back
    ("pubspec.yaml", "0.9.0", "error"),
    ("recipe/meta.yaml", "1.0.0-dev", "error"),  # PEP 440's order (a conda recipe): a dev release before any beta
])
def test_a_version_reset_orders_by_its_ecosystem(repo: Repo, path: str, reset: str, severity: str) -> None:
    seed(repo)
    manifest = 'name: sass\nversion: VERSION\ndescription: "A Sass implementation"\n'
    land(repo, "Pubspec and CHANGELOG", {path: manifest.replace("VERSION", reset)})
    land(repo, "Release 1.0.0-beta.5.3 (#301)", {path: manifest.replace("VERSION", "1.0.0-beta.5.3")})
    _topic(repo, {path: manifest.replace("VERSION", reset), "kernel.c": "int t;\n"}, subject="Add support for _index files")
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


VERSION_H = ("#define QISKIT_VERSION_MAJOR 2\n#define QISKIT_VERSION_MINOR {minor}\n#define QISKIT_VERSION_PATCH 0\n"
             "#define QISKIT_RELEASE_LEVEL QISKIT_RELEASE_LEVEL_{level}\n// For the final release, set the below to 0.\n"
             "#define QISKIT_RELEASE_SERIAL {serial}\n\n#define QISKIT_VERSION \"2.{minor}.0-{tag}\"\n")


@pytest.mark.parametrize(("minor", "tag", "severity"), [
    (6, "dev", "notice"),  # Qiskit's `Open development for 2.6`: the release fields start the next cycle
    (6, "rc1", "notice"),
    (5, "dev", "error"),  # 2.5.0-dev, before 2.5.0-rc1: the release set back, as a stale tree does
])
def test_release_fields_beside_a_version_moved_on_are_a_release_cycle(repo: Repo, minor: int, tag: str,
                                                                      severity: str) -> None:
    seed(repo)
    land(repo, "Open development for 2.5", {"include/version.h": VERSION_H.format(minor=5, level="DEV", serial=0, tag="dev")})
    land(repo, "Prepare 2.5.0rc1 (#301)", {"include/version.h": VERSION_H.format(minor=5, level="RC", serial=1, tag="rc1")})
    _topic(repo, {"include/version.h": VERSION_H.format(minor=minor, level="DEV", serial=0, tag=tag), "kernel.c": "int t;\n"},
           subject="kernel: tune")
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def test_a_version_moved_on_to_a_value_it_held_before_is_a_notice_under_any_title(repo: Repo) -> None:
    found = _version_moved_on(repo, "8.4.dev0")
    assert found["exit"] == 0 and found["severity"] == "notice"
    assert "only version numbers, which the change moves on" in str(found["reason"])


@pytest.mark.parametrize("before", ["8.3.0", "8.3.1.dev0"])
def test_a_version_moved_back_past_the_release_fails(repo: Repo, before: str) -> None:
    # 8.3.0 and 8.3.1.dev0 (just before the release) < 8.3.1: what a stale setup.py does to a release
    found = _version_moved_on(repo, before)
    assert found["exit"] == 1 and found["severity"] == "error"


def test_a_version_moved_on_with_another_line_put_back_beside_it_fails(repo: Repo) -> None:
    seed(repo)
    land(repo, "chore: start 8.4", {"setup.py": _setup_py("8.4.dev0")})
    land(repo, "8.3.1 (#301)", {"setup.py": _setup_py("8.3.1", name="pkg-core")})
    _topic(repo, {"setup.py": _setup_py("8.4.dev0"), "kernel.c": "int t;\n"},
           subject="8.4 open for business")
    code, report = check(repo, "main..topic")
    assert (code, by_pr(report)[301]["severity"]) == (1, "error")


def _compat_folder_deleted(repo: Repo, subject: str) -> str:
    seed(repo)
    files = {f"compat-shim/{name}": body(f"shim{i}", 6) for i, name in enumerate(("setup.py", "shim.py", "README.md"))}
    land(repo, "feat: the compat shim package (#301)", dict(files))
    _topic(repo, {**{path: None for path in files}, "kernel.c": "int t;\n"}, subject=subject)
    return str(by_pr(check(repo, "main..topic")[1])[301]["severity"])


def test_extracting_a_folder_to_its_own_repository_is_described(repo: Repo) -> None:
    assert _compat_folder_deleted(repo, "extract compat-shim to a separate repo") == "notice"


def test_a_title_naming_the_folder_in_the_plural_describes_it(repo: Repo) -> None:
    # werkzeug's `Deprecate/remove contribs: atom, jsrouting` for werkzeug/contrib/
    assert _compat_folder_deleted(repo, "remove compat-shims: no longer needed") == "notice"


def test_the_same_folder_deleted_under_a_title_that_never_names_it_is_a_warning(repo: Repo) -> None:
    assert _compat_folder_deleted(repo, "kernel: fuse the prep loop") == "warning"


def _next_commit_undoes_hunks(repo: Repo, author: str, subject: str = "mod1: rework the scales",
                              between: int = 0) -> dict[str, str | int]:
    """BOB's #301 changes two lines of mod1 and adds to mod2; the checked commit, made on top of it (or of a
    PR landed BETWEEN hours after it), puts mod1's lines back next to new work."""
    old = seed(repo)
    tuned = old["src/mod1.py"].replace("scale=7)", "scale=70)").replace("scale=21)", "scale=210)")
    land(repo, "perf: tune two scales (#301)", {"src/mod1.py": tuned, "src/mod2.py": old["src/mod2.py"] + body("m2", 3)})
    if between:
        repo._tick += between - 2  # (each commit ticks an hour)
        land(repo, "docs: a note (#302)", {"NOTES.md": "a note\n"}, author=CAROL)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"] + "new_work = fresh_call(1)\n"}, subject=subject, author=author)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    return {"exit": code, "severity": finding["severity"]}


def test_the_authors_next_commit_on_top_of_their_own_editing_its_lines_is_a_notice(repo: Repo) -> None:
    assert _next_commit_undoes_hunks(repo, BOB) == {"exit": 0, "severity": "notice"}


def test_an_agents_next_commit_on_top_undoing_its_authors_lines_is_a_warning(repo: Repo) -> None:
    # commonly's two sessions three minutes apart: the agent wrote mod1 as it had read it before #301
    assert _next_commit_undoes_hunks(repo, BOB, subject="mod1: rework the scales" + CLAUDE) == \
        {"exit": 0, "severity": "warning"}


def test_another_persons_commit_on_top_undoing_those_lines_is_a_warning(repo: Repo) -> None:
    assert _next_commit_undoes_hunks(repo, CAROL) == {"exit": 0, "severity": "warning"}


def test_a_pull_request_landing_on_top_undoing_its_authors_lines_is_a_warning(repo: Repo) -> None:
    # a squash merge's parent says nothing of the tree the PR was written in (#224 landed right after #221)
    assert _next_commit_undoes_hunks(repo, BOB, subject="mod1: rework the scales (#305)") == \
        {"exit": 0, "severity": "warning"}


@pytest.mark.parametrize(("hours", "severity"), [(24, "notice"), (25, "warning")])
def test_the_authors_direct_commit_within_a_day_undoing_those_lines_is_a_notice(
        repo: Repo, hours: int, severity: str) -> None:
    # a direct push lands on the tip: LLaMA-Factory's maintainer refactoring a PR they merged 20 minutes
    # before, one commit later (on the judged rounds 107 findings of this shape, 3 real, 2 of them errors
    # that stay warnings); a day on, it is no follow-up of that work
    assert _next_commit_undoes_hunks(repo, BOB, between=hours) == {"exit": 0, "severity": severity}


@pytest.mark.parametrize(("author", "subject", "expected"), [
    (BOB, "mod1: rework the scales", {"exit": 0, "severity": "warning"}),  # httpie's `Fix build`, 10 minutes on
    (CAROL, "mod1: rework the scales", {"exit": 1, "severity": "error"}),  # someone else's stale copy: #221/#224
    (BOB, "mod1: rework the scales" + CLAUDE, {"exit": 1, "severity": "error"}),
    (BOB, "mod1: rework the scales (#305)", {"exit": 1, "severity": "error"}),
])
def test_the_authors_next_commit_undoing_every_hunk_of_theirs_amid_new_lines_is_a_warning(
        repo: Repo, author: str, subject: str, expected: dict[str, str | int]) -> None:
    # every change of #301 undone, but in a file the commit also edits: a stale index puts it back whole
    old = seed(repo)
    tuned = old["src/mod1.py"].replace("scale=7)", "scale=70)").replace("scale=21)", "scale=210)")
    land(repo, "perf: tune two scales (#301)", {"src/mod1.py": tuned})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"] + "new_work = fresh_call(1)\n"}, subject=subject, author=author)
    code, report = check(repo, "main..topic")
    assert {"exit": code, "severity": by_pr(report)[301]["severity"]} == expected


def _next_commit_puts_back(repo: Repo, files: tuple[str, ...], submodule: bool = False) -> dict[str, str | int]:
    """BOB's #301 edits mod1 and mod2 (and moves a submodule on); BOB's next direct commit, on top of it,
    puts FILES back."""
    old = seed(repo)
    old_pointer = repo.git("rev-parse", "HEAD")
    if submodule:
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{old_pointer},third_party/lib")
        repo.git("commit", "-q", "-m", "add submodule")
    tuned = {p: old[p].replace("scale=7)", "scale=70)") for p in ("src/mod1.py", "src/mod2.py")}

    def commit(subject: str, edits: dict[str, str], pointer: str) -> None:  # paths named: the gitlink stays staged
        for path, text in edits.items():
            repo.write(path, text)
        if submodule:
            repo.git("update-index", "--cacheinfo", f"160000,{pointer},third_party/lib")
        repo.commit(subject, *edits, author=BOB)

    commit("perf: tune the scales (#301)", tuned, "1" * 40)
    repo.git("checkout", "-q", "-b", "topic")
    # `git commit -a` over a submodule checkout that no pull moved on
    commit("kernel: retune", {**{p: old[p] for p in files}, "kernel.c": "int t;\n"}, old_pointer)
    code, report = check(repo, "main..topic")
    return {"exit": code, "severity": by_pr(report)[301]["severity"]}


def test_the_authors_next_commit_putting_back_one_of_its_files_is_a_notice(repo: Repo) -> None:
    # its own author putting back one file of it, the other left as it is: an iteration
    assert _next_commit_puts_back(repo, ("src/mod1.py",)) == {"exit": 0, "severity": "notice"}


def test_the_authors_next_commit_putting_a_submodule_pointer_back_fails(repo: Repo) -> None:
    # a submodule's checkout follows no pull: svmbir's `Updated documentation` recorded the old pointer
    assert _next_commit_puts_back(repo, (), submodule=True) == {"exit": 1, "severity": "error"}


def test_the_authors_next_commit_putting_back_every_file_of_it_fails(repo: Repo) -> None:
    # a stale index (an agent committing from an old temporary index) puts back every file
    assert _next_commit_puts_back(repo, ("src/mod1.py", "src/mod2.py")) == {"exit": 1, "severity": "error"}


def _scale_put_back(repo: Repo, around: str) -> dict[str, object]:
    """#301 retunes one scale; the topic puts the old line back, with AROUND written next to it."""
    old = seed(repo)
    lines = old["src/mod1.py"].splitlines(keepends=True)
    tuned = lines[:2] + [lines[2].replace("scale=14)", "scale=140)")] + lines[3:]
    land(repo, "perf: retune (#301)", {"src/mod1.py": "".join(tuned), "src/mod2.py": old["src/mod2.py"] + body("m2", 3)})
    _topic(repo, {"src/mod1.py": "".join(lines[:2] + [lines[2], around] + lines[3:]) + "new_work = fresh_call(1)\n"})
    code, report = check(repo, "main..topic")
    return {"exit": code, "301": by_pr(report).get(301, {}).get("severity")}


def test_a_replaced_line_put_back_alone_is_an_undo(repo: Repo) -> None:
    assert _scale_put_back(repo, "")["301"] == "warning"


def test_a_replaced_line_put_back_inside_a_block_of_new_text_is_a_rewrite(repo: Repo) -> None:
    rewrite = "".join(f"tuned_{i} = autotune(value_base1_2, trials={i * 3}, budget='{i}ms')\n" for i in range(3))
    assert _scale_put_back(repo, rewrite) == {"exit": 0, "301": None}


def _import_dropped(repo: Repo, resort: bool) -> dict[str, object]:
    """#301 adds a late import to mod1 (and work to mod2); the topic drops that import, re-sorting the
    imports at the top (a tool's prune and sort) or leaving them alone (a stale copy)."""
    old = seed(repo)
    top, code = "import os\nimport sys\n", old["src/mod1.py"].splitlines(keepends=True)
    land(repo, "chore: imports", {"src/mod1.py": top + "".join(code)})
    use = "OUTPUT = json.dumps(RESULTS)\n"  # kept by the topic: the import it drops is still needed
    land(repo, "feat: json output (#301)", {"src/mod1.py": top + "".join(code[:3] + ["import json\n"] + code[3:]) + use,
                                            "src/mod2.py": old["src/mod2.py"] + body("m2", 3)})
    _topic(repo, {"src/mod1.py": ("import sys\nimport os\n" if resort else top) + "".join(code) + use +
                  "new_work = fresh_call(1)\n"})
    exit_code, report = check(repo, "main..topic")
    return {"exit": exit_code, "301": by_pr(report).get(301, {}).get("severity")}


def test_an_import_dropped_while_the_imports_are_reworked_is_at_most_a_notice(repo: Repo) -> None:
    # the import block rewritten a few lines up: the region's rewrite, or a tool's prune and sort
    assert _import_dropped(repo, resort=True) in ({"exit": 0, "301": "notice"}, {"exit": 0, "301": None})


def test_an_import_dropped_with_the_other_imports_left_alone_is_a_warning(repo: Repo) -> None:
    assert _import_dropped(repo, resort=False) == {"exit": 0, "301": "warning"}


def _declared_beside_a_topic_rollback(repo: Repo, body_text: str) -> dict[str, str | int]:
    """quart's shape: the change reverts #302 and says so, and puts back #301's file under a title that
    shares #301's topic. Only the declared revert is a second whole file put back."""
    old = seed(repo)
    land(repo, "Use the msgpack serializer for plans (#301)", {"src/mod1.py": old["src/mod1.py"] + "SERIALIZER = 'msgpack'\n"})
    cache = land(repo, "Cache plans on disk (#302)", {"src/mod2.py": old["src/mod2.py"] + "PLAN_CACHE = '/var/cache'\n"})
    message = "Switch the serializer back to json" + (f"\n\n{body_text.format(sha=cache)}" if body_text else "")
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"],
                  "kernel.c": old["kernel.c"] + "int t;\n"}, subject=message)
    code, report = check(repo, "main..topic")
    return {"exit": code, "severity": by_pr(report)[301]["severity"], "declared": by_pr(report)[302]["declared"]}


def test_a_declared_revert_is_no_stale_tree_beside_a_rollback_the_title_describes(repo: Repo) -> None:
    found = _declared_beside_a_topic_rollback(repo, "This reverts commit {sha}.")
    assert found == {"exit": 0, "severity": "notice", "declared": True}


def test_two_files_put_back_without_a_declaration_are_a_stale_tree_whatever_the_title(repo: Repo) -> None:
    found = _declared_beside_a_topic_rollback(repo, "")
    assert found == {"exit": 1, "severity": "error", "declared": False}


def _version_set_back(repo: Repo, written: str, subject: str = "kernel: fuse the prep loop") -> dict[str, object]:
    """#301 moves master on to 0.11-dev; the change (a stale copy of the file, say) writes WRITTEN over it,
    which equals no version the file held (no rollback, no undone hunk)."""
    seed(repo)
    land(repo, "Release 0.10", {"pkg/__init__.py": "__version__ = '0.10'\nNAME = 'pkg'\n"})
    land(repo, "This is 0.11-dev (#301)", {"pkg/__init__.py": "__version__ = '0.11-dev'\nNAME = 'pkg'\n"})
    _topic(repo, {"pkg/__init__.py": f"__version__ = '{written}'\nNAME = 'pkg'\n"}, subject=subject)
    code, report = check(repo, "main..topic")
    found = by_pr(report).get(301)
    return {"exit": code, "severity": found and found["severity"], "kinds": found and found["kinds"],
            "detail": found and found["evidence"][0]["detail"]}


def test_a_version_set_back_a_minor_version_is_a_warning(repo: Repo) -> None:
    found = _version_set_back(repo, "0.10.1")
    assert found == {"exit": 0, "severity": "warning", "kinds": ["version-set-back"],
                     "detail": "version set back (0.11-dev -> 0.10.1); this commit had moved it on"}


def _steps(*versions: str) -> str:
    return "jobs:\n  build:\n    steps:\n" + "".join(
        f"      - name: Set up Python {v}\n        uses: actions/setup-python@v1\n        with:\n"
        f"          python-version: \"{v}\"\n      - run: pytest -v test{i}\n" for i, v in enumerate(versions))


@pytest.mark.parametrize(("written", "found"), [
    (("3.8", "3.10"), True),  # 3.9 gone for 3.8: set back
    (("3.8", "3.10", "3.9"), False),  # msgpack's matrix reordered: 3.9 written again further down, nothing set back
])
def test_a_version_written_again_elsewhere_in_the_file_was_moved_not_set_back(repo: Repo, written: tuple[str, ...],
                                                                              found: bool) -> None:
    seed(repo)
    land(repo, "ci: mac wheels", {".github/workflows/mac.yml": _steps("3.7", "3.10")})
    land(repo, "Support Python 3.10, drop 3.5 (#301)", {".github/workflows/mac.yml": _steps("3.9", "3.10")}, author=DAVE)
    _topic(repo, {".github/workflows/mac.yml": _steps(*written)}, subject="mac: build wheels with cibuildwheel")
    kinds = by_pr(check(repo, "main..topic")[1]).get(301, {}).get("kinds", [])
    assert ("version-set-back" in kinds) is found


NOTEBOOK = '{{\n "cells": [\n  {{\n   "cell_type": "code",\n   "source": [\n    "!pip install cvxpy=={pin}"\n   ]\n  }}\n ],\n' \
    ' "metadata": {{\n  "language_info": {{\n   "name": "python",\n   "version": "{stamp}"\n  }}\n }}\n}}\n'
JUPYTEXT = "---\njupyter:\n  jupytext:\n    text_representation:\n      extension: .md\n      format_version: '1.2'\n" \
    "      jupytext_version: {stamp}\n  kernelspec:\n    name: python3\n---\n\n# Histograms\n\n```python\n" \
    "%pip install plotly=={pin}\n```\n"


@pytest.mark.parametrize(("path", "document", "versions", "found"), [
    # PythonRobotics' notebooks re-run on an older Python: the kernel's version, recorded
    ("landing.ipynb", NOTEBOOK, ("1.2.0", "3.6.8", "1.3.0", "3.7.2", "1.3.0", "3.6.5"), False),
    ("landing.ipynb", NOTEBOOK, ("1.2.0", "3.6.8", "1.3.0", "3.7.2", "1.1.0", "3.7.2"), True),  # its own pin set back
    # plotly's docs saved by an older jupytext: the editor's stamp
    ("doc/histograms.md", JUPYTEXT, ("5.15.0", "1.5.1", "5.18.0", "1.6.0", "5.18.0", "1.4.2"), False),
    ("doc/histograms.md", JUPYTEXT, ("5.15.0", "1.5.1", "5.18.0", "1.6.0", "5.10.0", "1.6.0"), True),
])
def test_a_tools_version_stamp_is_no_requirement(repo: Repo, path: str, document: str, versions: tuple[str, ...],
                                                 found: bool) -> None:
    """VERSIONS: (pin, stamp) before the commit, after it, and in the topic."""
    seed(repo)
    land(repo, "docs: page", {path: document.format(pin=versions[0], stamp=versions[1])})
    land(repo, "docs: more bins (#301)", {path: document.format(pin=versions[2], stamp=versions[3])}, author=DAVE)
    # (the topic edits the page elsewhere too: a stale copy would be put back whole)
    topic = document.format(pin=versions[4], stamp=versions[5]).replace("# Histograms", "# Histograms, binned")
    _topic(repo, {path: topic.replace('"cells"', '"nbformat": 4,\n "cells"')}, subject="docs: colors")
    kinds = by_pr(check(repo, "main..topic")[1]).get(301, {}).get("kinds", [])
    assert ("version-set-back" in kinds) is found


PACKAGE = '{{\n  "name": "react-markdown",\n  "peerDependencies": {{\n    "react": "{react}"\n  }},\n' \
    '  "devDependencies": {{\n    "prop-types": "{types}"\n  }}\n}}\n'


@pytest.mark.parametrize(("types", "found"), [
    ("^15.0.0", False),  # remark's `^N.0.0` convention: still met by 15.7.2, the range widened
    ("^15.6.0", True),  # a lower floor inside the major: a stale copy's value
])
def test_a_caret_range_taken_to_its_majors_floor_is_widened_not_set_back(repo: Repo, types: str, found: bool) -> None:
    seed(repo)
    land(repo, "package", {"package.json": PACKAGE.format(react="^16.0.0", types="^15.5.0")})
    land(repo, "Upgrade dependencies (#301)", {"package.json": PACKAGE.format(react="^16.0.0", types="^15.7.2")}, author=DAVE)
    _topic(repo, {"package.json": PACKAGE.format(react="^16.0.0", types=types)}, subject="Refactor code-style")
    kinds = by_pr(check(repo, "main..topic")[1]).get(301, {}).get("kinds", [])
    assert ("version-set-back" in kinds) is found


def test_a_dev_marker_after_a_patch_release_is_no_version_set_back(repo: Repo) -> None:
    # releases write `0.11.dev` after `0.11.1` on purpose: below a minor version, only exact undos count
    seed(repo)
    land(repo, "Release 0.11.0", {"pkg/__init__.py": "__version__ = '0.11.0'\n"})
    land(repo, "Release 0.11.1 (#301)", {"pkg/__init__.py": "__version__ = '0.11.1'\n"})
    _topic(repo, {"pkg/__init__.py": "__version__ = '0.11.dev'\n"}, subject="Start 0.11 development")
    assert 301 not in by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize("subject", ["Pin the package back to the 0.10 line for the backport", "Lower the version to 0.10.1",
                                     "Bump version number to 0.10.1", "Version to 0.10.1"])
def test_a_version_set_back_on_purpose_is_a_notice(repo: Repo, subject: str) -> None:
    # the last is flask's release committed on master (`Bump version number to 0.10.1` over 0.11-dev): a
    # release naming the version it writes, as cattrs' `23.1.1` over 23.2.0dev0 is every time
    assert _version_set_back(repo, "0.10.1", subject=subject)["severity"] == "notice"


@pytest.mark.parametrize(("subject", "severity"), [
    ("test(tables): pin lipgloss to v1.1.0", "warning"),  # glamour's: it pins another dependency than it sets back
    ("Pin __version__ to 0.10.1 for the backport", "notice"),
])
def test_a_pin_said_of_another_dependency_says_nothing_of_this_one(repo: Repo, subject: str, severity: str) -> None:
    assert _version_set_back(repo, "0.10.1", subject=subject)["severity"] == severity


def test_a_release_naming_another_version_than_it_writes_sets_it_back(repo: Repo) -> None:
    assert _version_set_back(repo, "0.10.1", subject="Release 0.12.0")["severity"] == "warning"


def _action_pinned_back(repo: Repo, before: str, moved_on: str) -> str:
    """zustand's merge put `actions/checkout@v4` back to `@v3` beside new steps, 97 days on: old lines put
    back are notices, a version set back a minor version or more is not."""
    seed(repo)
    ci = "jobs:\n  lint:\n    steps:\n      - uses: actions/checkout@{v}\n      - run: {run}\n"
    land(repo, "ci: lint", {".github/workflows/lint.yml": ci.format(v=before, run="make lint")})
    land(repo, "ci: checkout, lint strictly (#301)", {".github/workflows/lint.yml": ci.format(v=moved_on, run="make lint --strict")})
    _aged(repo, 97 * 24)
    _topic(repo, {".github/workflows/lint.yml": ci.format(v=before, run="make lint-all")}, subject="ci: lint everything")
    return str(by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})["severity"])


def test_an_action_pinned_back_a_major_version_months_later_is_a_warning(repo: Repo) -> None:
    assert _action_pinned_back(repo, "v3", "v4") == "warning"


def test_an_action_pinned_back_a_patch_level_months_later_is_a_notice(repo: Repo) -> None:
    assert _action_pinned_back(repo, "v4.0.1", "v4.0.2") in ("none", "notice")


def _line_set_back(repo: Repo, path: str, lines: tuple[str, str, str], subject: str = "chore: tidy") -> str:
    """#301 moves LINES[0] to LINES[1]; the change writes LINES[2], equal to neither, beside a new line."""
    seed(repo)
    land(repo, "chore: add", {path: f"{lines[0]}\nkeep_this = 1\n"})
    land(repo, "chore: move on (#301)", {path: f"{lines[1]}\nkeep_this = 1\n"})
    _topic(repo, {path: f"{lines[2]}\nkeep_this = 1\nnew_line = 2\n"}, subject=subject)
    return str(by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})["severity"])


def test_a_pinned_dependency_set_back_is_a_warning(repo: Repo) -> None:
    assert _line_set_back(repo, "requirements.txt", ("httpx>=0.26", "httpx>=0.28", "httpx>=0.27.2")) == "warning"


def test_a_number_that_is_no_version_set_back_is_nothing(repo: Repo) -> None:
    # uvloop's `assertLess(t, 0.045)` tuned back to 0.04: no version key, no pin
    assert _line_set_back(repo, "tests/test_base.py", ("assertLess(t, 0.03)", "assertLess(t, 0.045)",
                                                        "assertLess(t, 0.04)")) == "none"


DURATION = '"tests/test_cli.py::test_conda_version": %s,'


@pytest.mark.parametrize(("path", "lines", "severity"), [
    # conda's bot rewriting pytest-split's durations: a test named for versions, its seconds no version
    ("durations/Linux.json", (DURATION % "0.0643157709930393", DURATION % "0.0731505422587197",
                              DURATION % "0.0662841234567890"), "none"),
    # a version's part has at most 10 digits; 11 make a measurement
    ("requirements.txt", ("numpy==1.1234567890", "numpy==1.1234567899", "numpy==1.1234567891"), "warning"),
    ("requirements.txt", ("numpy==1.12345678901", "numpy==1.12345678909", "numpy==1.12345678902"), "none"),
])
def test_a_measurement_beside_a_version_key_is_no_version(repo: Repo, path: str, lines: tuple[str, str, str],
                                                           severity: str) -> None:
    assert _line_set_back(repo, path, lines) == severity


def test_a_hook_replaced_by_another_is_no_version_set_back(repo: Repo) -> None:
    # flask's isort `rev: 5.12.0` replaced by ruff's `rev: v0.1.3`: each `rev:` pins the `repo:` before it
    config = "repos:\n- repo: https://github.com/{}\n  rev: {}\n"
    seed(repo)
    land(repo, "ci: hooks", {".pre-commit-config.yaml": config.format("pycqa/isort", "5.11.0")})
    land(repo, "ci: isort 5.12 (#301)", {".pre-commit-config.yaml": config.format("pycqa/isort", "5.12.0")})
    _topic(repo, {".pre-commit-config.yaml": config.format("astral-sh/ruff-pre-commit", "v0.1.3")}, subject="use ruff")
    assert 301 not in by_pr(check(repo, "main..topic")[1])


def test_a_version_set_back_the_title_names_is_a_notice(repo: Repo) -> None:
    # kombu's `Fixed version_dev in docs/conf.py`: the change says which line it corrects
    assert _line_set_back(repo, "docs/conf.py", ("version_dev = '5.3'", "version_dev = '6.0'", "version_dev = '5.4'"),
                          subject="Fixed version_dev in docs/conf.py") == "notice"


def test_one_file_put_back_past_two_commits_is_no_stale_tree(repo: Repo) -> None:
    """rich's and cattrs' shape: one file rolled back past its last two commits is one file put back; the
    title that shares the older commit's topic still describes it (two files would be a stale tree:
    test_two_files_put_back_without_a_declaration_are_a_stale_tree_whatever_the_title)."""
    old = seed(repo)
    land(repo, "Use the msgpack serializer for plans (#301)", {"src/mod1.py": old["src/mod1.py"] + "SERIALIZER = 'msgpack'\n"})
    land(repo, "Tune the plan cache (#302)", {"src/mod1.py": old["src/mod1.py"] + "SERIALIZER = 'msgpack'\nCACHE = 2\n"})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": old["kernel.c"] + "int t;\n"},
           subject="Switch the serializer back to json")
    code, report = check(repo, "main..topic")
    assert (code, by_pr(report)[301]["severity"]) == (1, "notice") and by_pr(report)[302]["severity"] == "error"


def _branch_reverting(repo: Repo, branch_subject: str) -> dict[str, str | int]:
    """rich's shape: a merged branch holds its own `revert iteration speed column` commit, which puts
    #301's files back; the merge's subject names only the branch."""
    old = seed(repo)
    land(repo, "chore: speed column tests", {"tests/test_speed.py": body("speed", 4)})
    land(repo, "Add IterationSpeedColumn (#301)", {"src/mod1.py": old["src/mod1.py"] + "class IterationSpeedColumn: pass\n",
                                                    "tests/test_speed.py": body("speed", 4) + "check_iteration_speed = 1\n"})
    repo.git("checkout", "-q", "-b", "panel", "main~1")
    land(repo, "respect text.style in panels", {"kernel.c": old["kernel.c"] + "int panel_style;\n"}, author=CAROL)
    repo.git("merge", "-q", "main", "-m", "Merge branch 'main' into panel")
    land(repo, branch_subject, {"src/mod1.py": old["src/mod1.py"], "tests/test_speed.py": body("speed", 4)}, author=CAROL)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "panel", 302, "Panel title style")
    code, report = check(repo, "main^1..main")
    return {"exit": code, "severity": by_pr(report)[301]["severity"]}


@pytest.mark.parametrize("subject", ["revert iteration speed column", "Revert \"Merge branch 'main' into panel\""])
def test_a_file_put_back_by_a_merged_branch_commit_that_says_revert_still_fails(repo: Repo, subject: str) -> None:
    # mathesar's branch held `Revert "Merge branch 'develop' into ..."`: the branch's revert is the accident
    assert _branch_reverting(repo, subject) == {"exit": 1, "severity": "error"}


def test_a_merged_branch_commit_reverting_what_it_names_as_code_declares_it(repo: Repo) -> None:
    # mockk's `Revert latest supported java version to 18 in GitHub workflow`, a whole file put back on purpose
    assert _branch_reverting(repo, "Revert check_iteration_speed") == {"exit": 0, "severity": "notice"}


def _logo_replaced(repo: Repo, added: str) -> str:
    """hatch's `add official logo and badge`: the placeholder logos (#301, #302) go where ADDED comes."""
    seed(repo)
    land(repo, "Create logo.webp (#301)", {"docs/images/logo.webp": "RIFF webp placeholder bytes\n"})
    land(repo, "commit the drawn logo (#302)", {"docs/images/logo.png": "PNG placeholder bytes\n"})
    _topic(repo, {"docs/images/logo.webp": None, "docs/images/logo.png": None,
                  added: "<svg><path d='M0 0'/></svg>\n"}, subject="add official logo and badge")
    return str(by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})["severity"])


def test_files_replaced_by_one_of_their_name_in_another_format_are_no_loss(repo: Repo) -> None:
    assert _logo_replaced(repo, "docs/images/logo.svg") == "none"


def test_files_deleted_beside_a_new_file_of_another_name_are_every_file_it_added(repo: Repo) -> None:
    assert _logo_replaced(repo, "docs/images/banner.svg") == "warning"


def test_a_version_that_does_not_parse_is_never_set_back(repo: Repo) -> None:
    # kombu's appveyor `PYTHON_VERSION: "3.7"` renamed `"3.7-windows"`: no PEP 440 version, no order
    assert _line_set_back(repo, "appveyor.yml", ('python_version: "3.6"', 'python_version: "3.7"',
                                                  'python_version: "3.7-windows"')) == "none"


def test_a_version_set_back_after_a_line_the_change_inserts_is_found(repo: Repo) -> None:
    # the stale setup.py gains `zip_safe=False` just above the old version: one hunk, the line before differs
    seed(repo)
    land(repo, "Release 0.10", {"setup.py": _setup_py("0.10")})
    land(repo, "Start 0.11 (#301)", {"setup.py": _setup_py("0.11.dev0")})
    _topic(repo, {"setup.py": _setup_py("0.10.1").replace('    version=', '    zip_safe=False,\n    version=')},
           subject="build: not zip safe")
    code, report = check(repo, "main..topic")
    assert (code, by_pr(report)[301]["kinds"], by_pr(report)[301]["severity"]) == (0, ["version-set-back"], "warning")


def _brought_back(repo: Repo, text: str, elsewhere: dict[str, str] | None = None, lines: int = 6) -> dict[str, object]:
    """#301 deletes tools/probe.py (LINES lines); the topic adds a file of that name holding TEXT."""
    old = seed(repo)
    land(repo, "tools: a probe (#300)", {"tools/probe.py": body("probe", lines), "src/mod2.py": old["src/mod2.py"]})
    land(repo, "tools: drop the probe (#301)", {"tools/probe.py": None, "src/mod1.py": old["src/mod1.py"] + "x = 1\n"})
    _topic(repo, {"tools/probe.py": text, "kernel.c": "int t;\n", **(elsewhere or {})})
    code, report = check(repo, "main..topic")
    finding = by_pr(report).get(301)
    if finding is None:
        return {"exit": code, "severity": "none"}
    return {"exit": code, "severity": finding["severity"], "kinds": finding["kinds"],
            "detail": finding["evidence"][0]["detail"], "reason": finding["reason"], "repair": finding["repair"]}


def _lines(tag: str, count: int) -> list[str]:
    return body(tag, count).splitlines(keepends=True)


def test_a_deleted_file_back_with_edits_is_brought_back(repo: Repo) -> None:
    # r2modmanPlus' merge of an older PR: `DownloadMixin.vue`, deleted by #1757, back as the branch's edited copy
    text = "".join(_lines("probe", 6)[:4]) + "new_probe = fresh_call(1)\n"
    assert _brought_back(repo, text) == {"exit": 1, "severity": "error", "kinds": ["resurrected"],
                                         "detail": "re-added after this commit deleted it, edited: 4 of its 6 lines back",
                                         "reason": "a file it deleted brought back", "repair": "git rm -q -- tools/probe.py"}


@pytest.mark.parametrize(("old_lines", "new_lines", "found"), [
    (3, 3, True),  # half of the new file's lines are old ones: brought back
    (3, 4, False),  # less than half
    (2, 0, False),  # two old lines prove nothing (a header, a docstring)
])
def test_how_much_of_a_new_file_must_be_old_lines(repo: Repo, old_lines: int, new_lines: int, found: bool) -> None:
    text = "".join(_lines("probe", 6)[:old_lines] + _lines("fresh", new_lines))
    assert (_brought_back(repo, text)["severity"] == "error") is found


@pytest.mark.parametrize(("old_lines", "found"), [
    (10, True),  # half of the deleted file's 20 lines back, with one new: an edited copy of it
    (9, False),  # less than half: a file written anew around a few of its lines (nilearn's post-release
    # `latest.rst`, 14 of the 112 lines the release had moved into its versioned notes)
])
def test_how_much_of_the_deleted_file_must_come_back(repo: Repo, old_lines: int, found: bool) -> None:
    text = "".join(_lines("probe", 20)[:old_lines] + _lines("fresh", 1))
    assert (_brought_back(repo, text, lines=20)["severity"] == "error") is found


LICENSE_HEADER = "".join(f"# Copyright 2013 Example Authors, line {i} of the Apache License 2.0 header\n" for i in range(9))


@pytest.mark.parametrize(("header", "code_back", "found"), [
    (9, 0, False),  # twine's new exceptions.py: only the license header every file opens with is old
    (2, 3, True),  # three of the old file's lines of code, half of the new file: brought back
])
def test_a_license_header_back_proves_no_copy(repo: Repo, header: int, code_back: int, found: bool) -> None:
    old = seed(repo)
    land(repo, "tools: a probe (#300)", {"tools/probe.py": LICENSE_HEADER + body("probe", 3), "src/mod2.py": old["src/mod2.py"]})
    land(repo, "tools: drop the probe (#301)", {"tools/probe.py": None, "src/mod1.py": old["src/mod1.py"] + "x = 1\n"})
    text = "".join(LICENSE_HEADER.splitlines(keepends=True)[:header] + _lines("probe", 3)[:code_back]) + body("fresh", 1)
    _topic(repo, {"tools/probe.py": text, "kernel.c": "int t;\n"})
    assert (301 in by_pr(check(repo, "main..topic")[1])) is found


API_FILTERS = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<component id="org.example.core" version="2">\n'
               '    <resource path="src/{cls}.java" type="org.example.{cls}">\n        <filter id="336658481">\n'
               '            <message_arguments>\n                <message_argument value="org.example.{cls}"/>\n'
               '                <message_argument value="{field}"/>\n            </message_arguments>\n        </filter>\n'
               '    </resource>\n</component>\n')


@pytest.mark.parametrize(("cls", "field", "found"), [
    # jgit's `.api_filters`, deleted by a merge and written anew with another filter: the XML skeleton alike
    ("CoreConfig", "DEFAULT_COMMIT_GRAPH_ENABLE", False),
    ("Transport", "DEFAULT_PUSH_USE_BITMAPS_TOO", True),  # the old filter back, one value edited
])
def test_markup_tags_back_prove_no_copy(repo: Repo, cls: str, field: str, found: bool) -> None:
    old = seed(repo)
    path = "core/.settings/.api_filters"
    land(repo, "api: filter (#300)", {path: API_FILTERS.format(cls="Transport", field="DEFAULT_PUSH_USE_BITMAPS")})
    land(repo, "api: filters gone (#301)", {path: None, "src/mod1.py": old["src/mod1.py"] + "x = 1\n"})
    _topic(repo, {path: API_FILTERS.format(cls=cls, field=field), "kernel.c": "int t;\n"})
    assert (301 in by_pr(check(repo, "main..topic")[1])) is found


def test_old_lines_moved_back_from_another_file_are_a_move(repo: Repo) -> None:
    # structlog's `Frameworks deserves an own chapter`: the lines leave the file they had moved to
    seed(repo)
    land(repo, "docs: a chapter (#300)", {"docs/frameworks.md": body("probe", 6)})
    land(repo, "docs: drop the chapter (#301)", {"docs/frameworks.md": None, "src/mod1.py": "x = 1\n"})
    land(repo, "docs: its text in the recipes (#302)", {"docs/recipes.md": body("recipe", 3) + body("probe", 6)})
    _topic(repo, {"docs/frameworks.md": body("probe", 6) + "more = 1\n", "docs/recipes.md": body("recipe", 3)})
    assert by_pr(check(repo, "main..topic", "--strict")[1]).get(301, {"severity": "none"})["severity"] == "none"


@pytest.mark.parametrize(("merged", "severity"), [(True, "error"), (False, "error")])
def test_a_merge_that_brings_a_deleted_file_back_is_not_excused_by_what_it_keeps(repo: Repo, merged: bool,
                                                                                   severity: str) -> None:
    # a merge keeps the other side's work wherever nothing conflicted (r2modmanPlus' older PR merged); a squash
    # bringing it back, edited, days after the deletion came from a tree that lacked it (wasmtime's re-bless
    # from a branch older than its author's rename; test_revert_held pins the 14 days)
    old = seed(repo)
    land(repo, "tools: a probe (#300)", {"tools/probe.py": body("probe", 6)})
    land(repo, "tools: drop the probe (#301)", {"tools/probe.py": None, "src/mod1.py": old["src/mod1.py"] + "x = 1\n"})
    edits = {"tools/probe.py": body("probe", 5) + "new_probe = fresh_call(1)\n",
             "src/mod1.py": old["src/mod1.py"] + "x = 1\ny = 2\n"}
    _topic(repo, edits)
    if merged:
        repo.git("checkout", "-q", "-b", "landing", "main")
        merge_pr(repo, "topic", 305, "kernel: tune")
    code, report = check(repo, "main..landing" if merged else "main..topic")
    assert by_pr(report)[301]["severity"] == severity


@pytest.mark.parametrize(("title", "extra", "severity"), [
    ("test: delete low-value and redundant suite files", None, "notice"),  # maka-agent's
    ("test: trim the flaky e2e specs", None, "notice"),
    ("retire offline test script in favor of first-class test case", None, "notice"),  # trio-websocket's
    ("test: delete low-value and redundant suite files", "src/probe_helpers.py", "warning"),  # not only tests
    ("chore: delete old files", None, "warning"),  # no word of tests
    ("test: rework the probe suites", None, "warning"),  # no removal wording
])
def test_test_files_deleted_under_a_title_that_says_so(repo: Repo, title: str, extra: str | None,
                                                        severity: str) -> None:
    seed(repo)
    added = {"tests/test_probe.py": body("probe", 4), "web/probe.test.ts": body("probets", 4)}
    if extra:
        added[extra] = body("helpers", 4)
    land(repo, "feat: probes (#301)", dict(added))
    _topic(repo, {**{path: None for path in added}, "kernel.c": "int t;\n"}, subject=title)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("items", "written", "reported"), [
    # GRDB's `TODO.md`: a release's checklist taken out once its items were done
    ("- [ ] v1.0\n    - [x] Bump SQLite to 3.16.2\n    - Document the cursors\n", "", False),
    ("- [ ] v1.0\n    - [x] Bump SQLite to 3.16.2\n", "- [ ] Check the cipher at runtime again\n", True),  # and edited
    ("- Bumped SQLite to 3.16.2\n- Documented the cursors\n", "", True),  # a list, no task in it
])
def test_a_to_do_lists_items_taken_out_are_done(repo: Repo, items: str, written: str, reported: bool) -> None:
    seed(repo)
    todo = "- [ ] Check the cipher at runtime\n- [ ] Share the cache between readers\n"
    land(repo, "docs: to-do", {"TODO.md": todo})
    land(repo, "Plan the release (#301)", {"TODO.md": items + todo}, author=DAVE)
    _topic(repo, {"TODO.md": written + todo, "src/mod1.py": body("cursors", 4)})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert (found["severity"] in ("warning", "error")) is reported, found


@pytest.mark.parametrize(("title", "written", "severity"), [
    ("Remove failing test", "", "notice"),  # nerves': the test its fix had added, taken out days later
    ("Remove failing test", "LIMIT_KERNEL = compute_limit(9)\n", "warning"),  # a line written there too
    ("Tidy up", "", "error"),  # no word of removing tests
])
def test_lines_taken_out_of_test_files_under_a_title_that_says_so(repo: Repo, title: str, written: str,
                                                                 severity: str) -> None:
    old = seed(repo)
    tests = "def test_kernel():\n    assert kernel(1)\n"
    land(repo, "tests: kernel", {"tests/test_kernel.py": tests})
    probe_test = "def test_probe():\n" + "".join(f"    assert probe({i}) == {i * 7}\n" for i in range(3))
    land(repo, "Fix the probe and add a test (#301)", {"src/mod1.py": old["src/mod1.py"] + body("probe", 3),
                                                       "tests/test_kernel.py": tests + probe_test})
    _topic(repo, {"tests/test_kernel.py": tests + written}, subject=title)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("branch", "trailer", "severity"), [
    ("issue/269", "", "notice"),  # mkdocs' #983 from d0ugal/issue/269, after #975 from lorengordon/issue-269
    ("issue/270", "", "error"),  # another issue
    ("issue/269", CLAUDE, "error"),  # two agent sessions on one issue: #221/#224
])
def test_a_second_take_on_the_same_issue_reworks_the_first(repo: Repo, branch: str, trailer: str,
                                                          severity: str) -> None:
    old = seed(repo)
    repo.git("checkout", "-q", "-b", "issue-269")
    land(repo, "Link the repo from the theme", {p: old[p] + body(p[4:8], 3) for p in ("src/mod1.py", "src/mod2.py")})
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "issue-269", 975, "Link the repo from the theme")
    repo.git("checkout", "-q", "-b", branch)
    land(repo, "Link to the repository instead" + trailer, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"},
         author=CAROL)
    repo.git("checkout", "-q", "-b", "landing", "main")
    merge_pr(repo, branch, 983, "Link to the repository instead")
    assert by_pr(check(repo, "main..landing")[1])[975]["severity"] == severity


@pytest.mark.parametrize(("title", "severity"), [
    ("#393: Improve the transfer rate", "notice"),  # crazyflie's: its title opens with the issue the undone commit fixes
    ("#394: Improve the transfer rate", "error"),  # another issue
    ("Improve the transfer rate, see #393 too", "error"),  # an issue only mentioned
])
def test_a_title_opening_with_the_issue_the_undone_commit_fixes_reworks_it(repo: Repo, title: str, severity: str) -> None:
    old = seed(repo)
    land(repo, "Improvements on USB communication, fixes #393 (#301)",
         {p: old[p] + body(p[4:8], 3) for p in ("src/mod1.py", "src/mod2.py")})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, subject=title)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def _extracted_then(repo: Repo, app_now: str | None) -> dict:
    """#301 extracts half of src/app.py into a new src/scaffold.py; the topic deletes scaffold.py and writes
    APP_NOW into app.py (None: app.py byte for byte as before #301)."""
    seed(repo)
    head = "".join(f"import mod{i}\n" for i in range(3))
    extracted = body("scaffold", 8)
    land(repo, "app: the app module", {"src/app.py": head + extracted + body("app", 4)})
    land(repo, "refactor: extract the scaffold (#301)",
         {"src/app.py": head + "from .scaffold import *\n" + body("app", 4), "src/scaffold.py": extracted})
    _topic(repo, {"src/scaffold.py": None, "src/app.py": app_now or head + extracted + body("app", 4),
                  "kernel.c": "int t;\n"})
    return check(repo, "main..topic")[1]


def test_a_stale_copy_of_a_refactoring_puts_the_extracted_code_back_and_deletes_its_module(repo: Repo) -> None:
    # the module's lines come back in app.py, put back whole: that is the same commit undone, no move
    finding = by_pr(_extracted_then(repo, None))[301]
    assert finding["severity"] == "error" and "src/scaffold.py" in finding["paths"]


def test_inlining_a_module_back_into_an_edited_file_is_a_move(repo: Repo) -> None:
    inlined = "".join(f"import mod{i}\n" for i in range(3)) + body("scaffold", 8) + body("app", 4) + "new_work = 1\n"
    findings = by_pr(_extracted_then(repo, inlined))
    assert 301 not in findings or "src/scaffold.py" not in findings[301]["paths"]


GUARDED = ("def set_flag(morsel, key):\n    if morsel is not None:\n        if key == 'partitioned' and OLD_PYTHON:\n"
           "            dict.__setitem__(morsel, key, True)\n        else:\n            morsel[key] = True\n")
FLAT = "def set_flag(morsel, key):\n    if morsel is not None and morsel.isReservedKey(key):\n        morsel[key] = True\n"


def _block(repo: Repo, before: str, after: str, topic: str) -> tuple[int, dict]:
    old = seed(repo)
    land(repo, "cookies: flags", {"src/cookies.py": old["src/mod1.py"] + before + body("tail", 4)})
    land(repo, "cookies: reserved keys only (#301)", {"src/cookies.py": old["src/mod1.py"] + after + body("tail", 4)})
    _topic(repo, {"src/cookies.py": old["src/mod1.py"] + topic + body("tail", 4) + "new_work = fresh_call(1)\n"})
    return check(repo, "main..topic", "--strict")


def test_a_block_put_back_whose_kept_line_was_only_re_indented_is_undone(repo: Repo) -> None:
    # `morsel[key] = True` is on both sides of #301's hunk, at two depths: it is no evidence either way
    code, report = _block(repo, GUARDED, FLAT, GUARDED)
    assert code == 1 and by_pr(report)[301]["kinds"] == ["inverse-hunk"]


def test_a_block_rewritten_around_the_same_line_is_no_undo(repo: Repo) -> None:
    rewritten = FLAT.replace("morsel.isReservedKey(key)", "key in RESERVED_KEYS")
    code, report = _block(repo, GUARDED, FLAT, rewritten.replace("morsel[key] = True", "    morsel[key] = True"))
    assert code == 0 and report["findings"] == []


IMPORTS = "import os\nimport sys\n\nfrom typing_extensions import Literal, Protocol\n\nWINDOWS = os.name == 'nt'\n"
FALLBACK = IMPORTS.replace("from typing_extensions import Literal, Protocol\n",
                           "try:\n    from typing import Literal, Protocol\nexcept ImportError:\n"
                           "    from typing_extensions import Literal, Protocol\n")


def _after_the_fallback(repo: Repo, topic: str) -> tuple[int, dict]:
    old = seed(repo)
    land(repo, "compat: imports", {"src/compat.py": IMPORTS + old["src/mod1.py"]})
    land(repo, "compat: prefer typing (#301)", {"src/compat.py": FALLBACK + old["src/mod1.py"]})
    _topic(repo, {"src/compat.py": topic + old["src/mod1.py"]})
    return check(repo, "main..topic")


def test_lines_deleted_where_new_ones_are_written_a_few_lines_down_are_a_rewrite(repo: Repo) -> None:
    # git -U0 splits the edit in two hunks; an ordinary diff shows one: the fallback swapped, commented anew
    swapped = IMPORTS.replace("from typing_extensions import Literal, Protocol\n",
                              "try:\n    from typing_extensions import Literal, Protocol\nexcept ImportError:  # pragma: no cover\n"
                              "    from typing import Literal, Protocol  # type: ignore\n")
    code, report = _after_the_fallback(repo, swapped)
    assert code == 0 and by_pr(report).get(301, {"severity": "none"})["severity"] in ("none", "notice")


def test_lines_deleted_beside_unrelated_new_ones_are_undone(repo: Repo) -> None:
    stale = IMPORTS.replace("WINDOWS = os.name == 'nt'\n", "WINDOWS = os.name == 'nt'\nMAX_WORKERS = cpu_count() * 4\n")
    code, report = _after_the_fallback(repo, stale)
    assert by_pr(report)[301]["severity"] in ("warning", "error")


def test_a_bare_call_made_a_guard_a_few_lines_up_is_a_rewrite(repo: Repo) -> None:
    # axios' `isValidXss(url);` deleted where `if (isValidXss(url)) { throw ... }` is written above it
    old = seed(repo)
    lines = old["src/mod1.py"].splitlines(keepends=True)
    land(repo, "security: check the url (#301)", {"src/mod1.py": "".join(lines[:5]) + "check_xss(url)\n" + "".join(lines[5:])})
    guarded = "".join(lines[:1]) + "if check_xss(url):\n    raise ValueError('xss')\n" + "".join(lines[1:])
    _topic(repo, {"src/mod1.py": guarded})
    code, report = check(repo, "main..topic")
    assert code == 0 and by_pr(report).get(301, {"severity": "none"})["severity"] in ("none", "notice")


FRAGMENT = ("Fixed the connector leaking a DNS resolver when the session closed early\n"
            "-- by :user:`carol`.\n")


def _fragment_then(repo: Repo, edits: dict[str, str | None], subject: str) -> tuple[int, dict]:
    """#301 fixes a leak and adds its towncrier fragment; the topic (SUBJECT) deletes the fragment."""
    old = seed(repo)
    land(repo, "docs: changelog", {"CHANGES.rst": "Changelog\n=========\n\n1.0.0\n-----\n\n- First release.\n"})
    land(repo, "Fix the resolver leak (#301)", {"src/mod1.py": old["src/mod1.py"] + body("leak", 3),
                                                "CHANGES/301.bugfix.rst": FRAGMENT})
    _topic(repo, {"CHANGES/301.bugfix.rst": None, **edits}, subject=subject)
    return check(repo, "main..topic")


def test_a_changelog_fragment_deleted_by_a_stale_tree_is_reported(repo: Repo) -> None:
    code, report = _fragment_then(repo, {"kernel.c": "int t;\n"}, "kernel: tune")
    assert by_pr(report)[301]["severity"] == "warning" and by_pr(report)[301]["paths"] == ["CHANGES/301.bugfix.rst"]
    # its repair brings the fragment back: if a release had folded it in (pnpm's), that publishes it twice
    assert "changelog fragments" in by_pr(report)[301]["repair_note"]


RELEASE = ("Changelog\n=========\n\n1.1.0\n-----\n\nBug fixes\n^^^^^^^^^\n\n"
           "- Fixed the connector leaking a DNS resolver when the session closed early\n"
           "  -- by :user:`carol`.\n\n  *Related issues and pull requests on GitHub:* :issue:`301`.\n\n"
           "1.0.0\n-----\n\n- First release.\n")


def test_a_release_that_folds_the_fragment_into_the_changelog_consumes_it(repo: Repo) -> None:
    code, report = _fragment_then(repo, {"CHANGES.rst": RELEASE}, "Release 1.1.0")
    assert code == 0 and report["findings"] == []


UNCITED = RELEASE.replace(":issue:`301`", ":issue:`999`").replace("-- by :user:`carol`.", "-- by :user:`dave`.")


@pytest.mark.parametrize("release, reported", [
    (UNCITED, False),  # one line of the two written: half, a move
    (UNCITED.replace("a DNS resolver", "resolvers"), True),  # neither
])
def test_a_fragment_is_consumed_when_half_its_lines_are_written_elsewhere(repo: Repo, release: str, reported: bool) -> None:
    code, report = _fragment_then(repo, {"CHANGES.rst": release}, "Release 1.1.0")
    assert (301 in by_pr(report)) is reported


def test_a_release_that_rewords_the_fragment_but_cites_its_issue_consumes_it(repo: Repo) -> None:
    # yarl's `Release 1.15.5`: "Improved performance of X" written as "... of the X method", :issue:`1304`
    reworded = RELEASE.replace("leaking a DNS resolver when the session closed early", "leak of a resolver")
    code, report = _fragment_then(repo, {"CHANGES.rst": reworded.replace("-- by :user:`carol`.", "")}, "Release 1.1.0")
    assert code == 0 and report["findings"] == []
    assert (301 in by_pr(_fragment_cites(repo, ":issue:`3011`"))) is True  # another issue's number is no citation


def _fragment_cites(repo: Repo, citation: str) -> dict:
    repo.git("checkout", "-q", "main")
    repo.git("branch", "-q", "-D", "topic")
    _topic(repo, {"CHANGES/301.bugfix.rst": None, "CHANGES.rst": RELEASE.replace(":issue:`301`", citation)
                  .replace("leaking a DNS resolver when the session closed early", "leak").replace("-- by :user:`carol`.", "")},
           subject="Release 1.1.0")
    return check(repo, "main..topic")[1]


@pytest.mark.parametrize(("snippet", "written", "reported"), [
    # dataverse's `6.10.1 release notes`: the snippet named for its PR, rewritten whole, the PR cited
    ("12252-fix-download-with-guestbook.md", "fixes a download bug that was fixed in pull request #12252.", False),
    ("12252-fix-download-with-guestbook.md", "fixes a download bug that was fixed in pull request #12253.", True),
])
def test_a_release_notes_snippet_named_for_its_pr_is_consumed_when_the_release_cites_it(
        repo: Repo, snippet: str, written: str, reported: bool) -> None:
    seed(repo)
    land(repo, "notes", {"doc/release-notes/6.9-release-notes.md": "# Dataverse 6.9\n\nFirst notes.\n"})
    land(repo, "Fix download with guestbook (#301)", {f"doc/release-notes/{snippet}":
                                                      "## Bug fix for JSF download file\nThe download silently failed.\n"},
         author=DAVE)
    _topic(repo, {f"doc/release-notes/{snippet}": None,
                  "doc/release-notes/6.10.1-release-notes.md": f"# Dataverse 6.10.1\n\nThis bug fix release {written}\n"},
           subject="bump to 6.10.1")
    assert (301 in by_pr(check(repo, "main..topic")[1])) is reported


@pytest.mark.parametrize(("cited", "reported"), [
    ("#301", False),  # urql's `Version Packages`: the changeset reworded, its PR cited
    ("#302", True),  # another PR's number: the changeset's text goes nowhere
])
def test_a_changeset_reworded_by_the_release_under_its_prs_number_is_consumed(repo: Repo, cited: str,
                                                                              reported: bool) -> None:
    seed(repo)
    land(repo, "docs: changelog", {"CHANGELOG.md": "# app\n\n## 1.0.0\n\n- First release.\n"})
    land(repo, "support fast-refresh (#301)", {".changeset/old-pets-watch.md": "---\n'urql': patch\n---\n\n"
                                               "Remove ref that had impact across effects to support fast refresh\n"})
    _topic(repo, {".changeset/old-pets-watch.md": None, "CHANGELOG.md":
                  f"# app\n\n## 1.0.1\n\n- Fix React Fast Refresh broken by an invalid effect (See {cited})\n\n"
                  "## 1.0.0\n\n- First release.\n"}, subject="Version Packages")
    assert (301 in by_pr(check(repo, "main..topic")[1])) is reported


def test_a_changeset_folded_into_the_changelog_loses_its_front_matter_and_is_consumed(repo: Repo) -> None:
    seed(repo)
    land(repo, "docs: changelog", {"CHANGELOG.md": "# app\n\n## 1.0.0\n\n- First release.\n"})
    land(repo, "fix: resolver leak (#301)", {".changeset/brave-owls-sing.md":
                                            '---\n"@acme/app": patch\n---\n\nFixed the connector leaking a DNS resolver\n'})
    _topic(repo, {".changeset/brave-owls-sing.md": None, "CHANGELOG.md":
                  "# app\n\n## 1.0.1\n\n### Patch Changes\n\n- 1a2b3c4: Fixed the connector leaking a DNS resolver\n\n"
                  "## 1.0.0\n\n- First release.\n"}, subject="Version Packages")
    code, report = check(repo, "main..topic")
    assert code == 0 and report["findings"] == []


def test_a_change_that_says_it_cleans_up_changelog_entries_deletes_them_on_purpose(repo: Repo) -> None:
    code, report = _fragment_then(repo, {"kernel.c": "int t;\n"}, "Cleanup released changelog messages")
    assert code == 0 and by_pr(report)[301]["severity"] == "notice"


def test_a_merged_pr_whose_commit_says_it_repairs_a_bad_merge(repo: Repo) -> None:
    # jinja's `Merge pull request #700`, whose one commit is `Fixed incorrect merge in setup.py`
    old = _merged_branch(repo, "hotfix/0.3.7", "Merge branch 'hotfix/0.3.7'")
    base = repo.head()
    repo.git("checkout", "-q", "-b", "patch-1")
    land(repo, "Fixed incorrect merge in mod1.py", {"src/mod1.py": old["src/mod1.py"]}, author=CAROL)
    repo.git("checkout", "-q", "main")
    merged = merge_pr(repo, "patch-1", 700, "Patch 1")  # only the inner commit says it
    code, report = check(repo, f"{base}..{merged}")
    assert code == 0 and report["findings"][0]["severity"] == "notice"


@pytest.mark.parametrize("subject", ["pkg 0.10.1", "cargo: set the floor to 0.10.1", "Version 0.10"])
def test_a_version_set_back_to_the_value_the_title_names_is_a_notice(repo: Repo, subject: str) -> None:
    # mitmproxy's release bot (`mitmproxy 12.2.3` over `13.0.0.dev`), ripgrep's `cargo: set MSRV to 1.85`:
    # a stale tree never announces the old value it brings back
    assert _version_set_back(repo, "0.10.1", subject=subject)["severity"] == "notice"


@pytest.mark.parametrize("subject", ["pkg 0.10.12", "pkg 10.10.1", "pkg 0.9", "set the floor to 1.0.10.1"])
def test_a_title_naming_another_version_than_it_writes_keeps_the_warning(repo: Repo, subject: str) -> None:
    assert _version_set_back(repo, "0.10.1", subject=subject)["severity"] == "warning"


def _fragments_then(repo: Repo, fragments: dict[str, str], edits: dict[str, str | None], subject: str) -> dict:
    """#301 adds FRAGMENTS beside its fix; the topic (SUBJECT) deletes them with EDITS."""
    old = seed(repo)
    land(repo, "docs: changelog", {"NEWS.rst": "Changelog\n=========\n\n1.0.0\n-----\n\n- First release.\n"})
    land(repo, "Fix the resolver leak (#301)", {"src/mod1.py": old["src/mod1.py"] + body("leak", 3), **fragments})
    _topic(repo, {**{path: None for path in fragments}, **edits}, subject=subject)
    return by_pr(check(repo, "main..topic")[1])


NEWS = "Changelog\n=========\n\n1.1.0\n-----\n\n- Fix the connector leaking a DNS resolver on early close. (#301)\n"


# pip's, pylint's, react-router's, IPython's
# and falcon's `_newsfragments`
@pytest.mark.parametrize("folder", ["news", "doc/whatsnew/fragments", ".changes", "docs/source/whatsnew/pr",
                                    "docs/_newsfragments", "packages/base/news"])
def test_towncriers_news_folder_holds_fragments_a_release_consumes(repo: Repo, folder: str) -> None:
    # pip's `Release 24.2` folds `news/*.rst` into NEWS.rst, its empty `trivial` fragments with them
    ext = "md" if folder == ".changes" else "rst"
    found = _fragments_then(repo, {f"{folder}/301.bugfix.{ext}": "Fix the connector leaking a DNS resolver on early close.\n",
                                   f"{folder}/9f2c.trivial.{ext}": "Tidy the leak test fixtures and their helpers.\n"},
                            {"NEWS.rst": NEWS}, "Release 1.1.0")
    assert 301 not in found


JSON_NOTE = '{\n  "type": "bugfix",\n  "category": "local",\n  "description": "Fix the connector leaking a DNS resolver (#301)"\n}\n'


@pytest.mark.parametrize("subject, changelog, reported", [
    ("Bumping version to 1.1.0", "1.1.0\n=====\n\n* bugfix:local:Fix the connector leaking a DNS resolver (#301)\n", False),
    ("kernel: tune", None, True)])
def test_json_fragments_are_consumed_by_their_description(repo: Repo, subject: str, changelog: str | None,
                                                          reported: bool) -> None:
    # chalice's release bot folds `.changes/next-release/*.json` into CHANGELOG.rst, one bullet per description
    edits = {"CHANGELOG.rst": changelog} if changelog else {"kernel.c": "int t;\n"}
    found = _fragments_then(repo, {".changes/next-release/36408-bugfix-local-5121.json": JSON_NOTE}, edits, subject)
    assert (301 in found) is reported
    if reported:
        assert found[301]["severity"] == "warning"


@pytest.mark.parametrize(("edits", "subject", "reported"), [
    # probe-rs' `Release 0.25.0` folding `changelog/added-arm-jtag-tap-option` in, its `.md` forgotten
    ({"NEWS.rst": NEWS.replace("Fix the connector leaking a DNS resolver on early close. (#301)",
                               "Added a `jtag_tap` option for ARM cores. (#301)")}, "Release 1.1.0", False),
    ({"kernel.c": "int t;\n"}, "kernel: tune", True),  # a stale tree's deletion
])
def test_a_top_level_changelog_folders_file_without_extension_is_a_fragment(repo: Repo, edits: dict[str, str],
                                                                          subject: str, reported: bool) -> None:
    found = _fragments_then(repo, {"changelog/added-arm-jtag-tap-option": "Added a `jtag_tap` option for ARM cores.\n"},
                            edits, subject)
    assert (301 in found) is reported, found


JS_NOTE = ("module.exports = {\n  description: 'Fix the connector leaking a DNS resolver on early close.',\n"
           "  link: 'https://github.com/example/kernels/pull/301',\n  isBreaking: false,\n};\n")


@pytest.mark.parametrize(("path", "edits", "subject", "reported"), [
    # vue-storefront's `chore: release 2.7.1` folding `packages/docs/changelog/6752.js` into its changelog.md
    ("packages/docs/changelog/301.js", {"NEWS.rst": NEWS}, "Release 1.1.0", False),
    ("packages/docs/changelog/301.js", {"kernel.c": "int t;\n"}, "kernel: tune", True),  # a stale tree's deletion
    ("packages/docs/changelog/index.js", {"NEWS.rst": NEWS}, "Release 1.1.0", True),  # no pull request's entry
])
def test_a_pull_requests_entry_written_as_data_is_a_fragment(repo: Repo, path: str, edits: dict[str, str],
                                                             subject: str, reported: bool) -> None:
    found = _fragments_then(repo, {path: JS_NOTE}, edits, subject)
    assert (301 in found and found[301]["severity"] == "warning") is reported, found


def test_a_news_folders_page_without_a_type_word_is_no_fragment(repo: Repo) -> None:
    # reflex's `packages/reflex-base/news/6741.bugfix.md` is towncrier's; a site's `docs/news/2024.md` is a page
    found = _fragments_then(repo, {"docs/news/2024.md": "Three releases shipped this year, with the new resolver.\n"},
                            {"NEWS.rst": NEWS}, "Release 1.1.0")
    assert found[301]["severity"] == "warning"


def test_fragments_a_stale_tree_deletes_while_writing_no_changelog_are_reported(repo: Repo) -> None:
    found = _fragments_then(repo, {"news/301.bugfix.rst": "Fix the connector leaking a DNS resolver on early close.\n",
                                   "news/9f2c.trivial.rst": "Tidy the leak test fixtures and their helpers.\n"},
                            {"kernel.c": "int t;\n"}, "kernel: tune")
    assert found[301]["severity"] == "warning"


def test_an_empty_fragment_holds_nothing_to_lose(repo: Repo) -> None:
    assert 301 not in _fragments_then(repo, {"news/301.trivial.rst": ""}, {"kernel.c": "int t;\n"}, "kernel: tune")


@pytest.mark.parametrize("subject, severity", [("Clean changelog_unreleased", "notice"), ("kernel: tune", "warning")])
def test_unreleased_entry_folders_hold_fragments(repo: Repo, subject: str, severity: str) -> None:
    # prettier's `Clean changelog_unreleased` after a release, GitLab's `changelogs/unreleased/`
    found = _fragments_then(repo, {"changelog_unreleased/api/301.md": "#### Fix the connector leaking a resolver\n"},
                            {"kernel.c": "int t;\n"}, subject)
    assert found[301]["severity"] == severity


@pytest.mark.parametrize("subject, severity", [("(gnani): fix py.typed and remove changesets", "notice"),
                                               ("(gnani): fix py.typed", "warning")])
def test_next_release_changesets_in_the_github_folder_are_fragments(repo: Repo, subject: str, severity: str) -> None:
    # livekit's `.github/next-release/changeset-*.md`, taken out by a title that says so
    found = _fragments_then(repo, {".github/next-release/changeset-rime-coda.md":
                                   "---\nlivekit-plugins-rime: patch\n---\n\nadd time_scale_factor for coda\n"},
                            {"kernel.c": "int t;\n"}, subject)
    assert found[301]["severity"] == severity


def test_a_changeset_for_several_packages_is_consumed_by_its_text_alone(repo: Repo) -> None:
    # TanStack's `ci: Version Packages`: one front-matter line per package, the text written after a link
    changeset = "---\n'@acme/core': patch\n'@acme/react': patch\n---\n\nrevert: remove NoInfer from the return types\n"
    log = ("# app\n\n## 1.0.1\n\n- [#301](https://x/pull/301) [`1a2b3c4`](https://x/commit/1a2b3c4) - "
           "revert: remove NoInfer from the return types\n")
    assert 301 not in _fragments_then(repo, {".changeset/dull-masks-melt.md": changeset}, {"NEWS.rst": log}, "ci: Version Packages")


LONG_ENTRY = ("Make editing an entry within an `array` or `blocks` field immediately update the value in the "
              "parent form rather than after clicking done")


@pytest.mark.parametrize(("log", "reported"), [
    # keystatic's `Version Packages`: prettier wraps the changeset's one long line over three, `done` alone last
    ("# core\n\n## 0.3.18\n\n- 805a3c8d: Make editing an entry within an `array` or `blocks` field\n"
     "  immediately update the value in the parent form rather than after clicking\n  done\n", False),
    ("# core\n\n## 0.3.18\n\n- 805a3c8d: Make the parent form update after clicking done\n", True),  # not its text
])
def test_a_changeset_line_wrapped_anew_by_the_release_is_consumed(repo: Repo, log: str, reported: bool) -> None:
    changeset = f"---\n'@keystatic/core': patch\n---\n\n{LONG_ENTRY}\n"
    found = _fragments_then(repo, {".changeset/six-masks-join.md": changeset}, {"NEWS.rst": log}, "Version Packages")
    assert (301 in found) is reported


@pytest.mark.parametrize(("subject", "topic", "severity"), [
    # express' `Merge tag '4.16.4'` over `Merge tag '4.16.2'`: a released line's tip merged forward, again
    ("Merge tag '4.16.2'", "Merge tag '4.16.4'", "notice"),
    ("Merge tag 'v4.16.2' into 5.x", "kernel: tune", "notice"),  # what a release tag brings, main adapts
    ("Merge tag 'nightly'", "kernel: tune", "warning"),  # a tag that names no release is no release line
])
def test_a_release_tag_merged_forward_is_a_release_line(repo: Repo, subject: str, topic: str, severity: str) -> None:
    assert _undo_a_merge_of(repo, "tagged", subject, whole=False, topic=topic)["severity"] == severity


def _vendored_then_submodule(repo: Repo, module: str) -> dict:
    """#301 updates a vendored copy of a test suite; the topic deletes the copy and adds a submodule at MODULE
    (undici's `test/fixtures/wpt/` replaced by the `test/web-platform-tests/wpt` submodule)."""
    seed(repo)
    land(repo, "test: vendor the suite", {f"test/fixtures/wpt/case{i}.js": body(f"case{i}", 4) for i in range(3)})
    land(repo, "chore: update WPT (#301)", {"test/fixtures/wpt/case1.js": body("case1", 5),
                                            "test/fixtures/wpt/case9.js": body("case9", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    for i in (0, 1, 2, 9):
        repo.git("rm", "-q", f"test/fixtures/wpt/case{i}.js")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{repo.head()},{module}")
    when = f"{int(repo.git('log', '-1', '--format=%ct')) + 600} +0000"  # ten minutes on (no worktree to `add`)
    repo.git("commit", "-q", "-m", "test: run the suite from its own repository",
             env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when})
    return by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize("module", ["test/fixtures/wpt", "test/web-platform-tests/wpt"])
def test_a_vendored_copy_replaced_by_a_submodule_is_no_loss(repo: Repo, module: str) -> None:
    assert 301 not in _vendored_then_submodule(repo, module)


def test_files_deleted_beside_an_unrelated_submodule_are_reported(repo: Repo) -> None:
    assert _vendored_then_submodule(repo, "third_party/lib")[301]["severity"] == "warning"


@pytest.mark.parametrize(("subject", "severity"), [("Clean changelog_unreleased", "notice"), ("kernel: tune", "warning")])
def test_fragments_added_and_edited_then_cleaned_up_after_a_release(repo: Repo, subject: str, severity: str) -> None:
    # prettier's `Clean changelog_unreleased`: #302 added one fragment and edited an older one; both deleted
    seed(repo)
    land(repo, "Fix the resolver leak (#301)", {"changelog_unreleased/api/301.md": "#### Fix the connector leak\n"})
    land(repo, "Fix the pool (#302)", {"changelog_unreleased/api/301.md": "#### Fix the connector leaking resolvers\n",
                                       "changelog_unreleased/api/302.md": "#### Fix the pool size on a retry\n"})
    _topic(repo, {"changelog_unreleased/api/301.md": None, "changelog_unreleased/api/302.md": None, "kernel.c": "int t;\n"},
           subject=subject)
    found = by_pr(check(repo, "main..topic", window=1)[1])[302]
    assert found["severity"] == severity and found["kinds"] == ["deleted-added", "deleted-changed"]


def _pins_taken_out(repo: Repo, second: str, subject: str) -> dict:
    """#301 pins pyright in the hooks, #302 (titled SECOND) changes the test workflow; the topic, titled
    SUBJECT, puts both files back (anyio's `Removed the pyright version pin`)."""
    seed(repo)
    hooks, workflow = ".pre-commit-config.yaml", ".github/workflows/test.yml"
    land(repo, "ci: hooks and tests", {hooks: "- id: pyright\n  deps: pyright\n", workflow: "- run: pip install pyright\n"})
    land(repo, "Pinned pyright version to work around a broken update (#301)", {hooks: "- id: pyright\n  deps: pyright==1.1.389\n"})
    land(repo, f"{second} (#302)", {workflow: "- run: pip install pyright==1.1.389\n"})
    _topic(repo, {hooks: "- id: pyright\n  deps: pyright\n", workflow: "- run: pip install pyright\n"}, subject=subject,
           author=CAROL)
    code, report = check(repo, "main..topic")
    return {"exit": code, **{n: f["severity"] for n, f in by_pr(report).items()}}


def test_taking_out_every_undone_commit_of_the_topic_the_title_names_is_no_stale_tree(repo: Repo) -> None:
    found = _pins_taken_out(repo, "Pinned the pyright version also in the test workflow", "Removed the pyright version pin")
    assert found == {"exit": 0, 301: "notice", 302: "notice"}


@pytest.mark.parametrize(("subject", "exit_code"), [
    ("Turn off pyright in the hooks", 0),  # perseus' `Turn off functional/immutable-data linter`: off is away
    ("Switch off pyright in the hooks", 0),
    ("Turn on pyright in the hooks", 1),  # on is no removal
])
def test_turning_off_the_topic_every_undone_commit_holds_is_no_stale_tree(repo: Repo, subject: str, exit_code: int) -> None:
    assert _pins_taken_out(repo, "Pinned the pyright version also in the test workflow", subject)["exit"] == exit_code


def test_a_title_naming_one_of_the_undone_topics_leaves_the_stale_tree(repo: Repo) -> None:
    found = _pins_taken_out(repo, "Install the test extras in the workflow", "Removed the pyright version pin")
    assert found["exit"] == 1 and found[302] == "error"


def test_a_title_naming_the_topic_its_undone_lines_do_not_hold_leaves_the_stale_tree(repo: Repo) -> None:
    # the shared word must be in what comes out, not only in both titles (`refactor(providers)` over
    # `feat: providers retry` and `feat: providers cache`, test_revert_stale_shape)
    found = _pins_taken_out(repo, "Pinned the pyright version also in the test workflow", "Removed the version pins")
    assert found["exit"] == 1 and found[301] == found[302] == "error"


def test_a_title_sharing_the_topic_without_removal_wording_leaves_the_stale_tree(repo: Repo) -> None:
    found = _pins_taken_out(repo, "Pinned the pyright version also in the test workflow", "Run pyright on the examples")
    assert found["exit"] == 1 and found[301] == found[302] == "error"


@pytest.mark.parametrize(("written", "consumed"), [
    # TanStack's changesets: `(fixes #9937)` written as a link at the line's end
    ("- fix(core): rely on the built-in NoInfer so the type stays assignable in generic contexts (fixes [#9937](https://x/9937))\n", True),
    ("- fix(core): something else entirely, written over the same release (fixes [#9937](https://x/9937))\n", False),
])
def test_a_fragment_line_whose_references_became_links_is_consumed(repo: Repo, written: str, consumed: bool) -> None:
    changeset = ("---\n'@acme/core': patch\n---\n\n"
                 "fix(core): rely on the built-in NoInfer so the type stays assignable in generic contexts (fixes #9937)\n")
    found = _fragments_then(repo, {".changeset/noinfer.md": changeset}, {"NEWS.rst": "# app\n\n## 1.0.1\n\n" + written},
                            "ci: Version Packages")
    assert (301 not in found) is consumed


@pytest.mark.parametrize(("written", "consumed"), [
    # rubocop-ast's `Update Changelog`: the fragment's `[#x](.../pull/x)` placeholder filled in, its bullet changed
    ("- [#270](https://github.com/rubocop/rubocop-ast/pull/270): Add `BlockNode#{first,last}_argument` helpers. ([@sambostock][])\n", True),
    ("- [#270](https://github.com/rubocop/rubocop-ast/pull/270): Something else entirely, by another hand. ([@koic][])\n", False),
])
def test_a_fragment_line_whose_placeholder_was_filled_in_is_consumed(repo: Repo, written: str, consumed: bool) -> None:
    fragment = "* [#x](https://github.com/rubocop/rubocop-ast/pull/x): Add `BlockNode#{first,last}_argument` helpers. ([@sambostock][])\n"
    found = _fragments_then(repo, {"changelog/new_add_blocknode_argument_helpers.md": fragment},
                            {"CHANGELOG.md": "# Change log\n\n## 1.31.0\n\n### New features\n\n" + written}, "Update Changelog")
    assert (301 not in found) is consumed


@pytest.mark.parametrize(("note", "severity"), [
    ('# FIXME: change the "python" link back to /3 when Python 3.11 is released', "notice"),  # trio's
    ("# TODO: remove this pin once the upstream fix lands", "notice"),
    ("# This example has not yet been updated to Hyper 1.0", "notice"),  # axum's placeholders, ported later
    ("# FIXME: slow on large inputs", "error"),  # a to-do of another kind says nothing of going away
    ("# TODO: Re-enable once linkcheck stops causing 429's from github", "notice"),  # nbconvert's
    ("// TODO: Once go1.6 is dropped, use httptest.NewRequest()", "notice"),  # echo's, done when Go 1.6 went
    ("# Skipping for now due to unknown error;", "notice"),  # vuex's tests, commented out in a port
    ("# Skipping slow inputs: see the benchmarks", "error"),  # skipped for good
    ("allowed-failures: pypy  # FIXME: drop once updated to pypy-3.8", "notice"),  # pip-tools' CI allowance
    ("# TODO: skipped since 19.2.1", "notice"),  # vite-plugin-react's skips until React's fix
    ("# TODO: drop the cache layer for a faster one", "error"),  # to go, but on no condition met
    ("// TODO: waiting for https://github.com/less/less.js/issues/3508", "notice"),  # svelte-preprocess' skip
    ("// waiting for the review", "error"),  # no to-do note
    # rubocop's `broken_on: :prism` skip, taken out by the PR that fixed the cop
    ("# FIXME: Remove `broken_on: :prism` after https://github.com/ruby/prism/issues/3820 is resolved.", "notice"),
    ("<!-- TODO: Remove the commons-io exclusion when no longer needed -->", "notice"),  # git-plugin's pom.xml
    ("# FIXME: Remove `retry: 2`, it hides failures", "error"),  # to go, on no condition met
    ("# temp fix: pin tornado < 5", "notice"),  # ipykernel's, unpinned the next day
    ("# remove this after resque/resque#1828 is merged and released", "notice"),  # sentry-ruby's redis pin
    ("# remove the cache for good", "error"),  # to go, on no condition
    ("// remove trailing slashes after parsing", "error"),  # what the code does, no note of its own going
    ("# Install docstring-to-markdown until we release PyLSP 1.6.0", "notice"),  # spyder's
    ("# TODO Change to https://copier.readthedocs.io/ when fixed", "notice"),  # copier's, no colon after TODO
    ("# tempo and template settings", "error"),  # `temp` inside a word calls nothing temporary
    ("# stays until the end of the loop", "error"),  # `until` of no release or fix
    # notes tied to what ends them: a tracked issue, a tracker's ticket, a release
    ("@Disabled // TODO #9795", "notice"),  # teku's blob tests, re-enabled by the fix
    ("// TODO #9795", "error"),  # an issue named, nothing said of what is to happen, nothing skipped
    ("# TODO: Add support spark 4.0.0, https://github.com/flyteorg/flyte/issues/6478", "notice"),  # flytekit's pin
    ("# TODO(DB-662): TiKV engine tests stopped working", "notice"),  # surrealdb's continue-on-error
    ("# TODO(Rust 1.86): remove -A clippy::precedence", "notice"),  # gdext's allowance
    ("# TODO(alice): tidy the links", "error"),  # an owner, no condition
    ("# TODO: check utf-8 names", "error"),  # an encoding's name is no ticket
    ("# FIXME test is flaky, should become deterministic, then un-skip", "notice"),  # gdext's skipped itest
    ('@pytest.mark.skipif(sys.version_info >= (3, 12),\n    reason="https://github.com/o/r/issues/3422")', "notice"),
    ('@pytest.mark.skipif(sys.version_info >= (3, 12),\n    reason="slow on 3.12")', "error"),  # skipped, no issue
    ('# see https://github.com/o/r/issues/3422', "error"),  # an issue named, nothing skipped or to do
])
def test_lines_whose_own_to_do_note_says_they_go_are_temporary(repo: Repo, note: str, severity: str) -> None:
    seed(repo)
    conf = "extensions = []\nintersphinx = {{\n    'python': ('https://docs.python.org/{}', None),\n}}\n"
    land(repo, "docs: intersphinx", {"docs/conf.py": conf.format("3")})
    land(repo, "Merge the exceptiongroup work (#301)", {"docs/conf.py": f"{note}\n" + conf.format("3.11")})
    _topic(repo, {"docs/conf.py": conf.format("3"), "kernel.c": "int t;\n"}, subject="docs: point the links at Python 3")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("note", "subject", "severity"), [
    # discord.js' suppressions, each saying which PR fixes what they silence, taken out by that PR
    ("// @ts-expect-error fixed in https://github.com/discordjs/discord.js/pull/1108", "feat: file uploads (#1108)", "notice"),
    ("# to be removed by #1108", "Merge pull request #1108 from dev/uploads", "notice"),
    ("// @ts-expect-error fixed in https://github.com/discordjs/discord.js/pull/1108", "feat: file uploads (#1109)", "error"),
    ("// @ts-expect-error fixed in https://github.com/discordjs/discord.js/pull/11080", "feat: file uploads (#1108)", "error"),
    # moin's workaround waiting on an issue, taken out by the change whose title says it works on that issue
    ("# TODO: workaround for #1292", "add ACTION_CONVERT to list of valid actions #17 #1292", "notice"),
    ("# TODO: workaround for #1292", "add ACTION_CONVERT to list of valid actions #17 #1293", "error"),
])
def test_lines_that_name_the_pr_taking_them_out_are_its_to_take(repo: Repo, note: str, subject: str, severity: str) -> None:
    seed(repo)
    conf = "extensions = []\nintersphinx = {{\n    'python': ('https://docs.python.org/{}', None),\n}}\n"
    land(repo, "docs: intersphinx", {"docs/conf.py": conf.format("3")})
    land(repo, "build: bump the api types (#301)", {"docs/conf.py": f"{note}\n" + conf.format("3.11")})
    _topic(repo, {"docs/conf.py": conf.format("3"), "kernel.c": "int t;\n"}, subject=subject)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_a_to_do_note_inside_a_file_brought_back_speaks_of_its_lines_not_the_file(repo: Repo) -> None:
    # kodiak's `# TODO(sbdchd): waiting on <upstream PR>` in a module a stale tree resurrects
    seed(repo)
    module = "# TODO(sbdchd): waiting on https://github.com/getsentry/sentry-python/pull/444\n" + body("main", 6)
    land(repo, "bot: main", {"kodiak/main.py": module})
    land(repo, "ref: move the bot into its own directory (#301)", {"kodiak/main.py": None, "bot/main.py": module},
         author=DAVE)
    _topic(repo, {"kodiak/main.py": module, "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


@pytest.mark.parametrize(("subject", "severity"), [
    ("Rebuild snapshots", "notice"),  # date-fns' `src/locale/*/snapshot.md`, written by its generator again
    ("Regenerate the option docs", "error"),  # the title names other files than the ones put back
    ("Update the locale snapshots", "error"),  # no word of regenerating
    ("chore: Update generated locale snapshots", "notice"),  # eza's `Update generated test files`
    ("chore: Update the snapshots generated last week by hand", "error"),  # `generated` not the files' kind
    # or a message line that opens so: Alamofire's release squash, `* Regenerated jazzy docs for the 5.0.0-beta.6 release`
    ("Prepare 5.0 (#9)\n\n* Bump the version.\n\n* Regenerated locale snapshots for the release.", "notice"),
    ("Prepare 5.0 (#9)\n\n* Bump the version; we will have regenerated locale snapshots later.", "error"),
])
def test_files_the_title_says_it_regenerates_are_the_generators_output(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "docs: locale snapshots", {f"src/locale/{c}/snapshot.md": body(f"snap{c}", 4) for c in ("be", "bg")})
    land(repo, "UTCDate integration (#301)", {f"src/locale/{c}/snapshot.md": body(f"utc{c}", 4) for c in ("be", "bg")})
    _topic(repo, {**{f"src/locale/{c}/snapshot.md": body(f"snap{c}", 4) for c in ("be", "bg")}, "kernel.c": "int t;\n"},
           subject=subject)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("subject", "severity"), [
    # eza's `chore: Update generated test files` rolling back the outputs of two regenerations at once
    ("chore: Update generated locale snapshots", "notice"),
    ("chore: Update the locale snapshots", "error"),  # several commits rolled back, no tool named: a stale tree
])
def test_regenerated_files_rolled_back_past_several_commits(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    snapshots = {f"src/locale/{c}/snapshot.md": body(f"snap{c}", 4) for c in ("be", "bg")}
    land(repo, "docs: locale snapshots", snapshots)
    land(repo, "test: regenerate snapshots (#301)", {p: body(f"r1{p[11:13]}", 4) for p in snapshots})
    land(repo, "fix: flaky snapshot order (#302)", {p: body(f"r2{p[11:13]}", 4) for p in snapshots}, author=DAVE)
    _topic(repo, {**snapshots, "kernel.c": "int t;\n"}, subject=subject)
    findings = by_pr(check(repo, "main..topic")[1])
    assert [findings[pr]["severity"] for pr in (301, 302)] == [severity, severity]


def _own_direct_push_put_back(repo: Repo, author: str = BOB, pushed: str = "probe: retry the read",
                              files: int = 1, hours: int = 48, written: str = "int t;\n") -> dict[str, str | int]:
    """BOB pushes a fix straight to main (no PR); AUTHOR's direct commit HOURS later puts its files back
    beside new work (WRITTEN)."""
    old = seed(repo)
    paths = [f"src/mod{i}.py" for i in range(1, files + 1)]
    land(repo, pushed, {p: old[p] + body(f"fix{p[7]}", 4) for p in paths})
    repo._tick += hours - 1  # (each commit is an hour after the one before)
    _topic(repo, {**{p: old[p] for p in paths}, "kernel.c": old["kernel.c"] + written},
           subject="probe: read through the cache", author=author)
    code, report = check(repo, "main..topic")
    (finding,) = report["findings"]
    return {"exit": code, "severity": finding["severity"], "reason": finding["reason"]}


def test_ones_own_one_file_push_put_back_by_ones_next_push_is_a_notice(repo: Repo) -> None:
    # fzf's, pylint's, sveltejs/kit's, inertia's: a maintainer taking their own pushed fix out, no PR on either side
    assert _own_direct_push_put_back(repo) == {
        "exit": 0, "severity": "notice", "reason": "a file put back to its version before it; one file of its "
        "author's own direct commit, put back by their own direct commit"}


def test_ones_own_one_file_push_undone_amid_new_work_is_a_warning(repo: Repo) -> None:
    # dcm2niix's maintainer writing a feature into an older copy of the file: its fix undone beside new lines
    old = seed(repo)
    fixed = old["src/mod1.py"].replace("scale=14", "scale=retries * 14").replace("scale=21", "scale=retries * 21")
    land(repo, "probe: retry the read", {"src/mod1.py": fixed})
    land(repo, "docs: the probe", {"src/mod2.py": body("docs", 4)}, author=DAVE)  # (its next commit is another's)
    repo._tick += 47
    cache = "def read_through(cache, key):\n    return cache.get(key) or load_from_disk(key)\n\n"
    _topic(repo, {"src/mod1.py": cache + old["src/mod1.py"], "kernel.c": old["kernel.c"] + "int t;\n"},
           subject="probe: read through the cache", author=BOB)
    (finding,) = check(repo, "main..topic")[1]["findings"]
    assert finding["severity"] == "warning", finding["reason"]


def test_someone_elses_one_file_push_put_back_fails(repo: Repo) -> None:
    assert _own_direct_push_put_back(repo, author=CAROL)["severity"] == "error"


def test_ones_own_one_file_pr_put_back_fails(repo: Repo) -> None:
    # rich's real one: a PR of one's own put back by one's next PR is the stale checkout of last week
    assert _own_direct_push_put_back(repo, pushed="probe: retry the read (#301)")["severity"] == "error"


def test_ones_own_two_file_push_put_back_fails(repo: Repo) -> None:
    # requests' `coinbin.org`: both files of the author's own push put back by their push two days later, a stale tree
    assert _own_direct_push_put_back(repo, files=2)["severity"] == "error"


@pytest.mark.parametrize(("hours", "files", "author", "severity"), [
    (23, 2, BOB, "notice"),  # cvxpy's `experiment failed`, qutip's `RCM still broken, replacing old code`
    (24, 2, BOB, "error"),  # a day or more: their stale checkout of yesterday (requests' `coinbin.org`, two days)
    (23, 1, BOB, "notice"),
    (25, 1, BOB, "notice"),  # one file put back whole, at any age: their own fix taken out (the test above)
    (2, 2, CAROL, "error"),  # someone else's push, taken back: no iteration of theirs
])
def test_ones_own_direct_push_taken_back_within_hours_is_work_in_progress(
        repo: Repo, hours: int, files: int, author: str, severity: str) -> None:
    # one person's direct pushes hours apart: the branch itself is their workbench (mycli's `Try the readme
    # for long description.` after `Fix url.`, 6 minutes apart)
    found = _own_direct_push_put_back(repo, files=files, hours=hours, author=author)
    assert found["severity"] == severity, found["reason"]


def test_ones_own_push_taken_back_by_a_rebase_committing_conflict_markers_still_counts(repo: Repo) -> None:
    # Slim's rebased `Add Router interface`, an hour after `Remove extra definition`: the markers say a
    # conflict was resolved blind, no iteration
    found = _own_direct_push_put_back(repo, files=2, hours=1, written="<<<<<<< HEAD\nint t;\n=======\nint u;\n>>>>>>> topic\n")
    assert found["severity"] == "error", found["reason"]


def _revert_undone(repo: Repo, author: str, subject: str = "kernel: tune") -> dict[str, str | int]:
    """CAROL's #300 lands; BOB reverts it as #301; AUTHOR's change (SUBJECT) puts #300's file back beside new work."""
    old = seed(repo)
    sampled = old["src/mod1.py"] + body("sampler", 5)
    land(repo, "feat: a sampler (#300)", {"src/mod1.py": sampled}, author=CAROL)
    land(repo, 'Revert "feat: a sampler" (#301)', {"src/mod1.py": old["src/mod1.py"]},
         author=BOB)
    _topic(repo, {"src/mod1.py": sampled, "kernel.c": old["kernel.c"] + "int t;\n"}, subject=subject, author=author)
    code, report = check(repo, "main..topic")
    finding = by_pr(report)[301]
    return {"exit": code, "severity": finding["severity"], "reason": finding["reason"]}


def test_who_reverted_the_work_putting_it_back_is_a_notice(repo: Repo) -> None:
    # fzf's and react-router's: the reverter re-lands the work without saying so
    assert _revert_undone(repo, BOB) == {
        "exit": 0, "severity": "notice", "reason": "a file put back to its version before it; its own author's "
        "revert undone: the reverted work re-landed"}


def test_ones_own_revert_rolled_back_past_what_it_reverted_says_so(repo: Repo) -> None:
    # zlib's `Fix typo in preceding reversion commit`: the file put back to before the reverted change, the
    # revert's slip gone with it; nothing of the reverted work comes back, so no re-land is claimed
    old = seed(repo)
    land(repo, "Move the load flags (#300)", {"src/mod1.py": old["src/mod1.py"] + body("flags", 3)}, author=BOB)
    land(repo, 'Revert "Move the load flags" (#301)', {"src/mod1.py": old["src/mod1.py"] + "flags = (\n"}, author=BOB)
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": old["kernel.c"] + "int t;\n"}, author=BOB)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    reason = finding["reason"]
    assert "rolled back with the commits before it" in reason and "re-landed" not in reason, reason
    assert finding["severity"] == "warning"  # nothing re-landed: it stays above a notice


@pytest.mark.parametrize(("reverter", "severity"), [
    (BOB, "notice"),  # hydra's: the author reverts their direct pushes one by one, then lands them as one PR
    (CAROL, "error"),  # someone else's reverts, put back by a stale tree: still a stale tree
])
def test_ones_own_reverts_re_landed_together_are_no_stale_tree(repo: Repo, reverter: str, severity: str) -> None:
    old = seed(repo)
    for n, path in enumerate(("src/mod1.py", "src/mod2.py"), start=300):
        land(repo, f"chore: docker set up {n}", {path: old[path] + body(f"docker{n}", 4)}, author=BOB)
    for n, path in enumerate(("src/mod1.py", "src/mod2.py"), start=300):
        land(repo, f'Revert "chore: docker set up {n}" (#{n + 10})', {path: old[path]}, author=reverter)
    _topic(repo, {path: old[path] + body(f"docker{n}", 4) for n, path in enumerate(("src/mod1.py", "src/mod2.py"), start=300)},
           subject="fix: improve docker set up", author=BOB)
    found = by_pr(check(repo, "main..topic")[1])
    assert {found[310]["severity"], found[311]["severity"]} == {severity}, (found[310]["reason"], found[311]["reason"])


def test_who_wrote_the_reverted_work_putting_it_back_is_a_notice(repo: Repo) -> None:
    # taichi's `Load AOT module from memory` re-landed by its author a day after the revert, with the fix
    assert _revert_undone(repo, CAROL) == {
        "exit": 0, "severity": "notice", "reason": "a file put back to its version before it; a revert of its "
        "own author's work undone: that work re-landed"}


def test_a_co_author_of_the_reverted_work_putting_it_back_fails(repo: Repo) -> None:
    # a trailer names whoever pushed to the branch: DAVE's change, co-authored by CAROL, is DAVE's tree
    found = _revert_undone(repo, DAVE, subject=f"kernel: fuse the prep loop\n\nCo-authored-by: {CAROL}")
    assert found["severity"] == "error"


def test_someone_else_undoing_a_revert_fails(repo: Repo) -> None:
    # a stale tree from before the revert brings the reverted work back: the shared corpus's shape
    found = _revert_undone(repo, DAVE)
    assert (found["exit"], found["severity"]) == (1, "error")


@pytest.mark.parametrize(("title", "severity"), [
    ("chore: add back esbuild, it is still used by netlify", "notice"),  # sveltejs/kit's: it names what returns
    ("chore: add back the release notes", "error"),  # restoring wording, but naming nothing that comes back
    ("chore: bump esbuild", "error"),  # naming it, without wording that brings anything back
])
def test_a_title_that_says_it_brings_back_what_it_names(repo: Repo, title: str, severity: str) -> None:
    seed(repo)
    manifest = '{\n  "builtDependencies": [\n    "esbuild",\n    "rolldown",\n    "sharp"\n  ]\n}\n'
    land(repo, "chore: manifest", {"package.json": manifest})
    land(repo, "docs: replace rollup docs with rolldown docs (#301)",
         {"package.json": manifest.replace('    "esbuild",\n', ""), "docs/build.md": body("rolldown", 4)})
    _topic(repo, {"package.json": manifest, "kernel.c": "int t;\n"}, subject=title)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("third", "blamed"), [
    ('{\n  "exclude": [\n    "stubs/punq"\n  ]\n}\n', {300}),  # #302 took #301's entry out again: the pair cancels
    ('{\n  "exclude": [\n    "stubs/punq",\n    "stubs/ephem",\n    "stubs/icalendar"\n  ]\n}\n', {300, 301, 302}),
])
def test_a_rollback_past_a_change_and_its_undoing_blames_neither(repo: Repo, third: str, blamed: set[int]) -> None:
    # typeshed's: `punq` added, `ephem` added and taken out again, then `punq` taken out: only `punq` is undone
    seed(repo)
    land(repo, "chore: stricter list", {"pyright.json": '{\n  "exclude": [\n  ]\n}\n'})
    land(repo, "Add stubs for punq (#300)", {"pyright.json": '{\n  "exclude": [\n    "stubs/punq"\n  ]\n}\n'})
    land(repo, "Add stubs for ephem (#301)",
         {"pyright.json": '{\n  "exclude": [\n    "stubs/punq",\n    "stubs/ephem"\n  ]\n}\n'}, author=CAROL)
    land(repo, "Stricter settings for ephem (#302)", {"pyright.json": third}, author=DAVE)
    _topic(repo, {"pyright.json": '{\n  "exclude": [\n  ]\n}\n', "kernel.c": "int t;\n"}, subject="Stricter settings")
    assert set(by_pr(check(repo, "main..topic")[1])) == blamed


README = "Install:\n\ncurl -L {sh} | bash\n\ncurl -L {sh} | bash -s mypath/\n\nStart-BitsTransfer -Source {ps1}\n{extra}"
RAW = {"sh": "https://raw.githubusercontent.com/org/kit/main/install.sh",
       "ps1": "https://raw.githubusercontent.com/org/kit/main/install.ps1"}


@pytest.mark.parametrize(("undone_by_revert", "blamed"), [
    (True, {1760}),  # rustlings': the aliases' lines were gone before the change, which takes out only its own
    (False, {1700, 1729, 1760}),  # no revert between: the change takes the aliases' lines out itself
])
def test_a_rollback_blames_only_commits_whose_lines_the_change_takes_out(repo: Repo, undone_by_revert: bool,
                                                                           blamed: set[int]) -> None:
    seed(repo)
    land(repo, "docs: install", {"README.md": README.format(**RAW, extra="")})
    land(repo, "docs: use new fancy install aliases (#1700)",
         {"README.md": README.format(sh="sh.kit.dev", ps1="ps1.kit.dev", extra="")})
    land(repo, "docs: fix the ps1 alias (#1729)",
         {"README.md": README.format(sh="sh.kit.dev", ps1="https://ps1.kit.dev", extra="")}, author=DAVE)
    sponsor = "\nSponsored by CodeCrafters, learn by building real things.\n"
    fancy = {"sh": "sh.kit.dev", "ps1": "https://ps1.kit.dev"}
    land(repo, "Add CodeCrafters (#1760)", {"README.md": README.format(**fancy, extra=sponsor)}, author=DAVE)
    if undone_by_revert:
        land(repo, "docs: revert fancy install aliases (#1765)", {"README.md": README.format(**RAW, extra=sponsor)})
    _topic(repo, {"README.md": README.format(**RAW, extra="")}, subject='Revert "Add CodeCrafters" (#1768)')
    report = check(repo, "main..topic")[1]
    assert set(by_pr(report)) == blamed and by_pr(report)[1760]["declared"]


def test_an_old_copy_of_a_deleted_file_blames_the_changes_the_deletion_took_with_it(repo: Repo) -> None:
    # rq's: imports fixed (#300), the file deleted (#301), then an old copy brought back: #300's fix is undone
    seed(repo)
    old = "from rq.scripts import read_config_file\n\nsettings = read_config_file('tests.dummy_settings')\n"
    land(repo, "tests: config", {"tests/test_scripts.py": old})
    cli = old.replace("read_config_file\n", "read_config_file, rq_cli\n") + "result = invoke(rq_cli.main, ['empty'])\n"
    land(repo, "Add testcase for rq_cli (#299)", {"tests/test_scripts.py": cli}, author=DAVE)
    land(repo, "Fix broken imports. (#300)", {"tests/test_scripts.py": cli.replace(", rq_cli", "\nfrom rq.cli import main")
                                              .replace("rq_cli.main", "main")})
    land(repo, "Fix all tests. (#301)", {"tests/test_scripts.py": None}, author=DAVE)
    _topic(repo, {"tests/test_scripts.py": old, "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[300]["severity"] == "error"


@pytest.mark.parametrize(("message", "severity"), [
    ("Fix Windows CI failures\n\nSeems like updating Turbo caused bun to break on Windows.", "notice"),
    ("Fix Windows CI failures\n\nNo idea why bun broke on Windows.", "error"),  # the dependency unnamed
    ("Fix Windows CI failures\n\nturbopack flags changed.", "error"),  # a longer name is another one
])
def test_a_change_naming_the_dependency_whose_bump_it_undoes(repo: Repo, message: str, severity: str) -> None:
    # tailwindcss' patch-level downgrade of depfu's turbo bump, explained in the body only
    seed(repo)
    manifest = '{\n  "devDependencies": {\n    "bun": "^1.2.0",\n    "turbo": "^2.5.4"\n  }\n}\n'
    land(repo, "build: tools", {"package.json": manifest})
    land(repo, "Update turbo 2.5.4 → 2.5.5 (patch) (#301)", {"package.json": manifest.replace("2.5.4", "2.5.5")},
         author="depfu[bot] <23717796+depfu[bot]@users.noreply.github.com>")
    _topic(repo, {"package.json": manifest, "kernel.c": "int t;\n"}, subject=message)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("message", "severity"), [
    ("fix: Latest eslint is broken (#769)", "notice"),  # pytest-html's, an hour after pre-commit.ci's bump
    ("fix: Latest prettier is broken (#769)", "error"),  # another hook named
    ("chore: tidy the hooks (#769)", "error"),
])
def test_a_change_naming_the_hook_whose_autoupdate_it_undoes(repo: Repo, message: str, severity: str) -> None:
    seed(repo)
    config = ("repos:\n- repo: https://github.com/pre-commit/mirrors-eslint\n  rev: v8.52.0\n  hooks:\n  - id: eslint\n"
              "- repo: https://github.com/pre-commit/mirrors-prettier\n  rev: v3.0.3\n  hooks:\n  - id: prettier\n")
    land(repo, "ci: hooks", {".pre-commit-config.yaml": config})
    land(repo, "[pre-commit.ci] pre-commit autoupdate (#301)\n\nupdates:\n- [github.com/pre-commit/mirrors-eslint: "
               "v8.52.0 → v8.53.0](https://github.com/pre-commit/mirrors-eslint/compare/v8.52.0...v8.53.0)\n",
         {".pre-commit-config.yaml": config.replace("v8.52.0", "v8.53.0")},
         author="pre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>")
    _topic(repo, {".pre-commit-config.yaml": config, "kernel.c": "int t;\n"}, subject=message)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("outside", "severity"), [(False, "notice"), (True, "warning")])
def test_a_git_subtree_import_takes_the_upstream_projects_changes(repo: Repo, outside: bool, severity: str) -> None:
    # jsonschema's `Squashed 'json/' changes from f0f619d19..d3f5cd439`: upstream deleted its test files
    seed(repo)
    added = {"json/tests/future/a.json": body("a", 4), "json/tests/future/b.json": body("b", 4)}
    if outside:
        added["tools/future.py"] = body("tool", 4)
    land(repo, "Squashed 'json/' changes from 1a2b3c4..5d6e7f8 (#301)", dict(added))
    _topic(repo, {path: None for path in added},
           subject="Squashed 'json/' changes from 5d6e7f8..9a8b7c6\n\ngit-subtree-dir: json\n"
                   "git-subtree-split: 9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("ledger", "reported"), [
    ("pkg@1.1.0:\n  intents:\n    - quiet-pugs-invent\n", False),  # pnpm's ledger records the changeset by name
    ("pkg@1.1.0:\n  intents:\n    - quiet-pugs-invent-again\n", True),  # another name
])
def test_a_release_that_records_a_changeset_by_name_consumes_it(repo: Repo, ledger: str, reported: bool) -> None:
    found = _fragments_then(repo, {".changeset/quiet-pugs-invent.md": "---\n'pkg': patch\n---\n\nFix the leak.\n"},
                            {".changeset/ledger.yaml": ledger}, "chore(release): 1.1.0")
    assert (301 in found) is reported


def test_a_rollback_blames_only_the_commits_whose_work_it_takes_out(repo: Repo) -> None:
    # pyperf's TODO.rst: items added (#300), struck off one by one (#301, #303), another added (#302); the
    # change strikes off the last one, which leaves the file as it was before #300: only #302 is undone
    seed(repo)
    land(repo, "docs: todo", {"TODO.rst": "To do\n=====\n\n"})
    land(repo, "TODO (#300)", {"TODO.rst": "To do\n=====\n\n* use a worker for calibration\n* spawn a debug worker\n"})
    land(repo, "TODO (#301)", {"TODO.rst": "To do\n=====\n\n* spawn a debug worker\n"})
    land(repo, "TODO (#302)", {"TODO.rst": "To do\n=====\n\n* spawn a debug worker\n* update stats for calibration runs\n"})
    land(repo, "TODO (#303)", {"TODO.rst": "To do\n=====\n\n* update stats for calibration runs\n"})
    _topic(repo, {"TODO.rst": "To do\n=====\n\n", "kernel.c": "int t;\n"}, subject="Update stats for calibration runs")
    assert set(by_pr(check(repo, "main..topic")[1])) == {302}


def test_a_rollback_still_blames_a_commit_whose_lines_were_rewritten_later(repo: Repo) -> None:
    # #300's line rewritten by #301, then both put back to before #300: #300's work goes too
    seed(repo)
    land(repo, "docs: todo", {"TODO.rst": "To do\n=====\n\n"})
    land(repo, "TODO (#300)", {"TODO.rst": "To do\n=====\n\n* use a worker for calibration\n"})
    land(repo, "TODO (#301)", {"TODO.rst": "To do\n=====\n\n* use a dedicated worker for calibration runs\n"})
    _topic(repo, {"TODO.rst": "To do\n=====\n\n", "kernel.c": "int t;\n"})
    assert set(by_pr(check(repo, "main..topic")[1])) == {300, 301}


@pytest.mark.parametrize(("back", "blamed"), [
    ("assert rating == (10, [])\n", {301}),  # #302 took #300's change back line for line: neither is undone
    ("assert rating == (10, ['pep639'])\n", {300, 301, 302}),  # not the same lines: all of them go
])
def test_a_rollback_past_a_change_taken_back_line_for_line(repo: Repo, back: str, blamed: set[int]) -> None:
    # Pillow's test_pyroma.py: `(10, [])` made `(9, [...])` and back again with the iOS work between, then
    # the iOS lines taken out, which leaves the file as before the first change: only the iOS work goes
    seed(repo)
    base = "import pyroma\n\ndef test_pyroma():\n    rating = pyroma.rate()\n"
    land(repo, "tests: pyroma", {"Tests/test_pyroma.py": base + "assert rating == (10, [])\n"})
    land(repo, "PEP 639 (#300)", {"Tests/test_pyroma.py": base + "assert rating == (9, ['no license'])\n"})
    ios = "import sys\nIOS = sys.platform == 'ios'\n"
    land(repo, "Add support for iOS (#301)", {"Tests/test_pyroma.py": ios + base + "assert rating == (9, ['no license'])\n"},
         author=CAROL)
    land(repo, "Pyroma supports PEP 639 (#302)", {"Tests/test_pyroma.py": ios + base + back})
    _topic(repo, {"Tests/test_pyroma.py": base + "assert rating == (10, [])\n", "kernel.c": "int t;\n"},
           subject="Update for pyroma 5.0", author=DAVE)
    assert set(by_pr(check(repo, "main..topic")[1])) == blamed


@pytest.mark.parametrize(("written", "set_back"), [
    ("actions/download-artifact@v4", False),  # filelock's: the floating major tag covers v4.1.7
    ("actions/download-artifact@v3", True),  # the old major: set back
])
def test_a_floating_tag_over_the_version_it_covers_is_no_set_back(repo: Repo, written: str, set_back: bool) -> None:
    seed(repo)
    steps = "jobs:\n  test:\n    steps:\n      - uses: {}\n        with:\n          pattern: dist-*\n"
    land(repo, "ci: artifacts", {".github/workflows/ci.yml": steps.format("actions/download-artifact@v3.0.2")})
    land(repo, "Bump actions/download-artifact from 3 to 4.1.7 (#301)",
         {".github/workflows/ci.yml": steps.format("actions/download-artifact@v4.1.7")})
    _topic(repo, {".github/workflows/ci.yml": steps.format(written) + "          merge-multiple: true\n"},
           subject="Add 3.13 to CI")
    found = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (found is not None and "version-set-back" in found["kinds"]) is set_back


@pytest.mark.parametrize(("days", "between", "severity"), [
    (13.9, 12, "warning"),  # within TINY_DAYS (14): what came just before a stale tree
    (14.1, 12, "notice"),  # weeks later, 12 commits on: files cleaned up (gin's examples split out)
    (30.0, 5, "warning"),  # weeks later but among the last commits before the base (RECENT_COMMITS, 10)
])
def test_every_file_a_commit_added_deleted_weeks_later_is_a_clean_up(repo: Repo, days: float, between: int,
                                                                      severity: str) -> None:
    seed(repo)
    added = land(repo, "Add NewRelic middleware example (#301)",
                 {"examples/newrelic/main.go": body("newrelic", 6), "examples/newrelic/README.md": body("readme", 3)})
    for i in range(between):
        land(repo, f"chore: tidy {i}", {f"src/mod{i % 10}.py": body(f"tidy{i}", 6)})
    repo.git("checkout", "-q", "-b", "topic")
    repo.remove("examples/newrelic/main.go")
    repo.remove("examples/newrelic/README.md")
    when = f"{int(repo.git('log', '-1', '--format=%ct', added)) + int(days * 86400)} +0000"
    # (gin's `Split examples to alone repo` names the folder it deletes whole: test_revert_named)
    repo.commit("Move to a repository of their own", env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("days", "edited", "severity"), [
    (364.0, True, "error"),  # DEAD_FILE_DAYS, 365: a file deleted within the year, brought back, is a stale tree's
    (366.0, True, "notice"),  # lazydocker's `test.sh`, written anew 977 days after #164 deleted it
    (366.0, False, "error"),  # an exact copy: what an old tree carries
])
def test_a_file_deleted_over_a_year_before_and_brought_back_edited_is_written_anew(repo: Repo, days: float, edited: bool,
                                                                                   severity: str) -> None:
    old = seed(repo)
    script = "#!/usr/bin/env bash\nset -e\n" + "".join(f"go test ./pkg{i}/...\n" for i in range(8))
    land(repo, "ci: test script", {"test.sh": script})
    done = land(repo, "CI improvements (#301)", {"test.sh": None, "src/mod1.py": old["src/mod1.py"] + body("ci", 4)}, author=DAVE)
    for i in range(12):
        land(repo, f"chore: tidy {i}", {f"src/mod{2 + i % 10}.py": body(f"tidy{i}", 6)})
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("test.sh", script.replace("set -e\n", "set -e\nexport GOFLAGS=-mod=vendor\n") if edited else script)
    repo.write("kernel.c", "int t;\n")
    when = f"{int(repo.git('log', '-1', '--format=%ct', done)) + int(days * 86400)} +0000"
    repo.commit("use github actions instead of circle ci", env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("days", "between", "lines", "severity"), [
    (120.0, 2, 6, "error"),  # months old, but among the last commits before the base: that tree is stale
    (120.0, 12, 6, "notice"),  # months old and a dozen commits on (OLD_FILE_DAYS, 90)
    (60.0, 2, 1, "error"),  # a one-line change weeks old, just before the base
    (60.0, 12, 1, "notice"),  # a one-line toggle weeks old, a dozen commits on (TINY_DAYS, 14)
])
def test_age_counts_only_beyond_the_last_commits(repo: Repo, days: float, between: int, lines: int,
                                                   severity: str) -> None:
    # a quiet project's latest commit can be months old (the corpus' attrs and click): the commits since
    # the undone one, not the days, tell how stale a tree must be to lack it
    old = seed(repo)
    done = land(repo, "Fix the pager (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pager", lines)})
    for i in range(between):
        land(repo, f"chore: tidy {i}", {f"src/mod{2 + i % 10}.py": body(f"tidy{i}", 6)})
    repo.git("checkout", "-q", "-b", "topic")
    repo.write("src/mod1.py", old["src/mod1.py"])
    repo.write("kernel.c", "int t;\n")
    when = f"{int(repo.git('log', '-1', '--format=%ct', done)) + int(days * 86400)} +0000"
    repo.commit("Tune the kernel", env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("rewritten", "severity"), [
    ("    return first + second\n", "notice"),  # syn: the import gone with its uses, rewritten
    ("    return list(itertools.chain(first, second))\n", "warning"),  # its uses kept: the import is lost
])
def test_an_import_taken_out_with_its_uses_is_no_loss(repo: Repo, rewritten: str, severity: str) -> None:
    seed(repo)
    head = "".join(f"VALUE_{i} = compute_value({i}, scale={i * 3})\n" for i in range(8))
    tail = "".join(f"LIMIT_{i} = compute_limit({i}, floor={i * 5})\n" for i in range(8))
    land(repo, "tokens: module", {"src/tokens.py": f"import os\n{head}\ndef joined(first, second):\n    return first\n{tail}"})
    land(repo, "Consolidate on itertools.chain (#301)",
         {"src/tokens.py": f"import itertools\nimport os\n{head}\ndef joined(first, second):\n"
                           f"    return list(itertools.chain(first, second))\n{tail}"})
    _topic(repo, {"src/tokens.py": f"import os\n{head}\ndef joined(first, second):\n{rewritten}{tail}",
                  "kernel.c": "int t;\n"}, subject="perf: fewer allocations in joined")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def _import_taken_out(repo: Repo, path: str, head: str, imported: str, body: str, tail: str, subject: str) -> str:
    """#301 adds IMPORTED after HEAD (and TAIL at the end of the module); the topic takes the import out."""
    seed(repo)
    land(repo, "module", {path: head + body})
    land(repo, "Annotations on 3.14 (#301)", {path: f"{head}{imported}\n{body}{tail}"})
    _topic(repo, {path: head + body + tail, "kernel.c": "int t;\n"}, subject=subject)
    return str(by_pr(check(repo, "main..topic")[1])[301]["severity"])


@pytest.mark.parametrize(("imported", "uses", "severity"), [
    ("import inspect", "", "notice"),  # msgspec's `Fix linter`: the import nothing uses, beside `from inspect import`
    ("import inspect", "    return inspect.isclass(first)\n", "warning"),  # the file still calls it: lost
    ("import tokens.constants as C", "    return C.VERSION\n", "warning"),  # bound as C, which the file uses
    ("import inspect  # noqa: F401", "", "warning"),  # kept unused on purpose
])
def test_an_import_nothing_in_the_file_uses_is_no_loss(repo: Repo, imported: str, uses: str, severity: str) -> None:
    values = "".join(f"VALUE_{i} = compute_value({i}, scale={i * 3})\n" for i in range(8))
    body_ = f"import os\nfrom inspect import get_annotations\n{values}\ndef joined(first, second):\n{uses}    return first\n"
    assert _import_taken_out(repo, "src/tokens.py", "", imported, body_, "ANNOTATED = get_annotations(joined)\n",
                             "Fix linter") == severity


@pytest.mark.parametrize(("opening", "uses", "severity"), [
    ("from inspect import (", "", "notice"),  # a name of a `from m import (` list, one a line, nothing uses
    ("from inspect import (", "    return isclass(first)\n", "warning"),  # the file still calls it
    ("HELPERS = (", "", "warning"),  # a tuple's item, no import
])
def test_a_name_of_an_import_list_nothing_uses_is_no_loss(repo: Repo, opening: str, uses: str, severity: str) -> None:
    values = "".join(f"VALUE_{i} = compute_value({i}, scale={i * 3})\n" for i in range(8))
    head = f"import os\n{opening}\n    getdoc,\n"
    body_ = f"    signature,\n)\n{values}\ndef joined(first, second):\n{uses}    return first\n"
    assert _import_taken_out(repo, "src/tokens.py", head, "    isclass,", body_, "ANNOTATED = signature(joined)\n",
                             "Fix linter") == severity


@pytest.mark.parametrize(("imported", "uses", "severity"), [
    ("use App\\Models\\Invoice;", "", "notice"),  # Sylius' `[CS] Refactor`: an import nothing uses, pruned
    ("use App\\Models\\Invoice;", "        return Invoice::find($id);\n", "warning"),  # the class still calls it
])
def test_a_php_import_nothing_in_the_file_uses_is_no_loss(repo: Repo, imported: str, uses: str, severity: str) -> None:
    limits = "".join(f"    public const LIMIT_{i} = {i * 5};\n" for i in range(8))
    cls = f"class Totals\n{{\n{limits}    public function total($id)\n    {{\n{uses}        return 0;\n    }}\n}}\n"
    assert _import_taken_out(repo, "src/Totals.php", "<?php\n\nnamespace App;\n\n", imported, cls,
                             "const INVOICES = true;\n", "[CS] Refactor") == severity


@pytest.mark.parametrize(("code_too", "severity"), [
    (False, "notice"),  # quartznet's `using FakeItEasy;` pruned: the compiler refuses a missing namespace
    (True, "error"),  # the code #301 wrote with it goes too: the file put back whole
])
def test_a_csharp_using_taken_out_alone_loses_nothing(repo: Repo, code_too: bool, severity: str) -> None:
    seed(repo)
    cls = "namespace App\n{\n" + "".join(f"    const int Limit{i} = {i * 5};\n" for i in range(8)) + "}\n"
    land(repo, "app", {"src/App.cs": f"using System;\n\n{cls}"})
    added = "static class Totals { static int Sum(int[] xs) => xs.Sum(); }\n"
    land(repo, "Totals with LINQ (#301)", {"src/App.cs": f"using System;\nusing System.Linq;\n\n{cls}{added}"})
    _topic(repo, {"src/App.cs": f"using System;\n\n{cls}{'' if code_too else added}", "kernel.c": "int t;\n"},
           subject="Code cleanup")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("uses", "severity"), [
    ("", "notice"),  # mealie's `fix: eslint errors`: `useContext` taken back out of the import nothing uses
    ("    const { i18n } = useContext();\n", "warning"),  # the component calls it: the import lost
])
def test_a_vue_components_import_nothing_uses_is_no_loss(repo: Repo, uses: str, severity: str) -> None:
    rows = "".join(f"    <v-row>rule {i}: {{{{ rules[{i}].day }}}}</v-row>\n" for i in range(8))
    template = f"<template>\n  <div>\n{rows}  </div>\n</template>\n\n<script lang=\"ts\">\n"
    narrow = 'import { defineComponent, ref, useAsync } from "@nuxtjs/composition-api";\n'
    wide = narrow.replace("useAsync }", "useAsync, useContext }")
    def setup(calls: str) -> str:
        return "export default defineComponent({\n  setup() {\n" + calls + "    return { rules: ref([]) };\n  },\n});\n</script>\n"
    seed(repo)
    land(repo, "mealplan settings", {"pages/settings.vue": template + narrow + setup("")})
    localized = template.replace("rule 0:", "{{ $t('meal-plan.rule') }} 0:")  # the PR's other work, kept
    land(repo, "Localize hard-coded texts (#301)", {"pages/settings.vue": localized + wide + setup(uses)})
    _topic(repo, {"pages/settings.vue": localized + narrow + setup(uses), "kernel.c": "int t;\n"},
           subject="fix: eslint errors and failing tests")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


GO_HEAD = "".join(f"const limit{i} = {i * 5}\n" for i in range(8))


@pytest.mark.parametrize(("new_code", "severity"), [
    ("func dial() *tls.Config { return &tls.Config{MinVersion: tls.VersionTLS12} }\n", "notice"),  # traefik's healthcheck
    ("func dial() int { return limit0 }\n", "warning"),  # put back, and nothing new uses it: a stale copy's sign
])
def test_an_import_put_back_for_the_changes_new_code_loses_nothing(repo: Repo, new_code: str, severity: str) -> None:
    seed(repo)
    imports = 'import (\n\t"crypto/tls"\n\t"net/http"\n)\n'
    pruned = imports.replace('\t"crypto/tls"\n', "")
    uses = "func client() *http.Client { return &http.Client{} }\n"
    land(repo, "cmd", {"cmd/health.go": f"package cmd\n\n{imports}\n{GO_HEAD}{uses}func old() *tls.Config {{ return nil }}\n"})
    land(repo, "Drop the old TLS helper (#301)", {"cmd/health.go": f"package cmd\n\n{pruned}\n{GO_HEAD}{uses}"})
    _topic(repo, {"cmd/health.go": f"package cmd\n\n{imports}\n{GO_HEAD}{uses}{new_code}", "kernel.c": "int t;\n"},
           subject="feat: healthcheck command")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


PY_BODY = "".join(f"LIMIT_{i} = {i * 5}\n" for i in range(8))


@pytest.mark.parametrize(("new_code", "severity"), [
    # pyo3's `Implement #[init]`: `from typing import final` back to `Any, final` for the stub it writes
    ("def init(self, *args) -> Any: ...\n", "notice"),
    ("def init(self, *args) -> int: ...\n", "warning"),  # `Any` back, and nothing new uses it: a stale copy's sign
])
def test_an_import_lines_names_put_back_for_the_changes_new_code_lose_nothing(repo: Repo, new_code: str,
                                                                               severity: str) -> None:
    seed(repo)
    uses = "@final\nclass Cache(dict):\n    size: int\n"
    land(repo, "stubs", {"stubs/cache.pyi": f"from typing import Any, final\n\n{PY_BODY}{uses}def get(key) -> Any: ...\n"})
    land(repo, "Fill the types in (#301)", {"stubs/cache.pyi": f"from typing import final\n\n{PY_BODY}{uses}def get(key) -> str: ...\n"})
    _topic(repo, {"stubs/cache.pyi": f"from typing import Any, final\n\n{PY_BODY}{uses}def get(key) -> str: ...\n{new_code}",
                  "kernel.c": "int t;\n"}, subject="feat: init methods")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_import_lines_edited_in_many_files_leave_an_unused_import_taken_out_a_notice(repo: Repo) -> None:
    # qwik's merge: edited import lines in more files than the headers read (MAX_HEADER_READS) are not asked
    # about, and must not cost the one pruned import its notice
    seed(repo)
    stubs = {f"stubs/s{i}.pyi": f"from typing import Any, final\n\n{PY_BODY}def get{i}(key) -> str: ...\n" for i in range(5)}
    land(repo, "stubs", {**stubs, "src/tool.py": f"{PY_BODY}def run():\n    return LIMIT_1\n"})
    land(repo, "Fill the types in (#301)", {p: t.replace("Any, final", "final") for p, t in stubs.items()})
    land(repo, "feat: json output (#302)", {"src/tool.py": f"import json\n{PY_BODY}def run():\n    return LIMIT_1\n"},
         author=DAVE)
    edited = {p: t + f"def extra{i}() -> int: ...\n" for i, (p, t) in enumerate(stubs.items())}  # and new work in each
    _topic(repo, {**edited, "src/tool.py": f"{PY_BODY}def run():\n    return LIMIT_1\n\n\ndef lint():\n    return LIMIT_2\n",
                  "kernel.c": "int t;\n"}, subject="feat: stale stubs")
    found = by_pr(check(repo, "main..topic")[1])
    assert found[302]["severity"] == "notice", found[302]["reason"]


@pytest.mark.parametrize(("later", "ignore", "severity"), [
    ("*.egg-info*\n", "*.egg-info*\n*.mo\n", "notice"),  # humanize: built translations, ignored from now on
    ("*.egg-info*\n", "*.egg-info*\n*.pot\n", "warning"),  # another pattern: the catalogs are just gone
    ("*.egg-info*\n*.mo\n", "*.egg-info*\n*.mo\n", "notice"),  # trogon's `Applying gitignore`: ignored since, untracked now
    ("*.egg-info*\nlocale/*.mo\n", "*.egg-info*\nlocale/*.mo\n", "warning"),  # anchored elsewhere: matches nothing deleted
])
def test_files_deleted_under_an_ignore_pattern(repo: Repo, later: str, ignore: str, severity: str) -> None:
    seed(repo)
    land(repo, "chore: ignore", {".gitignore": "*.egg-info*\n"})
    land(repo, "Add Catalan binary translation (#197)", {"src/locale/ca/humanize.mo": body("catalan", 4)}, author=DAVE)
    land(repo, "chore: ignore more", {".gitignore": later})
    _topic(repo, {"src/locale/ca/humanize.mo": None, ".gitignore": ignore, "scripts/build-mo.sh": "msgfmt *.po\n"},
           subject="Build the translations in CI")
    assert by_pr(check(repo, "main..topic")[1])[197]["severity"] == severity


@pytest.mark.parametrize(("before", "after", "edited", "severity"), [
    ("build\n", "build\n", 0, "notice"),  # vexflow: each release force-adds the ignored bundle its clean-up took out
    ("build\n", "build\n", 1, "notice"),  # one of them rebuilt from changed sources, beside exact copies
    ("build\n", "build\n", 3, "error"),  # edited copies alone: a stale copy kept through a rebase (facebook-ios-sdk's)
    ("", "", 0, "error"),  # tracked like any file: a deleted file come back
    ("", "build\n", 0, "error"),  # ignored only from the deletion on: that untracking undone
    ("*.js\n", "*.js\n", 0, "error"),  # ignored by their own names, as junk is (`.DS_Store`): a clean-up undone
])
def test_a_release_forcing_ignored_built_files_back(repo: Repo, before: str, after: str, edited: int,
                                                    severity: str) -> None:
    seed(repo)
    bundle = {f"build/lib{i}.js": body(f"bundle{i}", 8) for i in range(3)}
    land(repo, "chore: ignore", {".gitignore": before or "node_modules\n"})
    for path, text in bundle.items():
        repo.write(path, text)
        repo.git("add", "-f", path)
    land(repo, "Release 1.0", {})
    land(repo, "Remove build/ after releasing 1.0 (#301)", {**dict.fromkeys(bundle), ".gitignore": after or "node_modules\n"},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    for i, (path, text) in enumerate(bundle.items()):
        repo.write(path, text + ("export const rebuilt = 11;\n" if i < edited else ""))
        repo.git("add", "-f", path)
    land(repo, "Release 1.1", {"version.txt": "1.1\n"})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("kept", "other", "reported"), [
    (True, "silk/profiler.py", False),  # django-silk's `Removed duplicates`: the same file stays at the package's other path
    (False, "silk/profiler.py", True),  # the other copy differs: the deleted one's content is gone
    (True, "silk/legacy_profiler.py", True),  # the same content under another name (pre-commit's hooks.yaml): another file
])
def test_a_deleted_file_whose_content_stays_at_another_path_loses_nothing(repo: Repo, kept: bool, other: str,
                                                                           reported: bool) -> None:
    seed(repo)
    module = body("profiler", 6)
    land(repo, "silk: the package", {other: module if kept else body("older", 6)})
    land(repo, "Fixed: issues/10 (#301)", {"django_silky/silk/profiler.py": module}, author=DAVE)
    _topic(repo, {"django_silky/silk/profiler.py": None, "kernel.c": "int t;\n"}, subject="Removed duplicates")
    assert (301 in by_pr(check(repo, "main..topic")[1])) is reported


def test_an_empty_file_deleted_beside_empty_copies_is_still_reported(repo: Repo) -> None:
    # empty `__init__.py` files are everywhere: one deleted can still break a package
    seed(repo)
    land(repo, "pkg", {"pkg/__init__.py": ""})
    land(repo, "sub-package (#301)", {"pkg/sub/__init__.py": ""}, author=DAVE)
    _topic(repo, {"pkg/sub/__init__.py": None, "kernel.c": "int t;\n"}, subject="kernel: tune")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] in ("warning", "error")


def test_a_commit_only_some_of_whose_deleted_files_have_copies_keeps_them_all(repo: Repo) -> None:
    # react-router's `remove old basic template`: a few of its files are shared with another template
    seed(repo)
    shared = body("tsconfig", 5)
    land(repo, "templates: remix", {"templates/remix/tsconfig.py": shared})
    land(repo, "templates: basic (#301)", {"templates/basic/tsconfig.py": shared, "templates/basic/root.py": body("root", 5)},
         author=DAVE)
    _topic(repo, {"templates/basic/tsconfig.py": None, "templates/basic/root.py": None, "kernel.c": "int t;\n"})
    assert set(by_pr(check(repo, "main..topic")[1])[301]["paths"]) == {"templates/basic/tsconfig.py", "templates/basic/root.py"}


@pytest.mark.parametrize(("path", "severity"), [
    ("play.ts", "notice"),  # zod's playground: each commit writes its own experiment over the last
    ("packages/core/playground.js", "notice"),
    ("src/player.ts", "error"),  # a source file of a similar name counts like any other
])
def test_a_scratch_playground_put_back_is_a_notice(repo: Repo, path: str, severity: str) -> None:
    seed(repo)
    land(repo, "chore: repro", {path: 'import * as z from "zod";\nconst schema = z.object({ a: z.string() });\n'})
    land(repo, "fix: tuple with null (#301)", {path: 'import * as z from "zod";\nconst t = z.tuple([z.null()]);\n',
                                               "src/mod1.py": body("tuple", 4)})
    _topic(repo, {path: 'import * as z from "zod";\nconst schema = z.object({ a: z.string() });\n', "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("path", "severity"), [
    (".idea/misc.xml", "notice"),  # AndroidAPS': the language level each developer's Android Studio writes
    ("wear/wear.iml", "notice"),
    ("Picard-public.ipr", "notice"),  # htsjdk's, IntelliJ's older project file
    ("config/idea/misc.xml", "error"),  # a folder of the project's own, named alike, counts
    ("config/public.ipr.xml", "error"),
])
def test_an_ides_project_file_put_back_is_a_notice(repo: Repo, path: str, severity: str) -> None:
    seed(repo)
    settings = '<project version="4">\n  <component name="ProjectRootManager" languageLevel="{}" project-jdk-name="1.8" />\n</project>\n'
    land(repo, "basic notification functionality", {path: settings.format("JDK_1_7")})
    land(repo, "more SMS commands (#301)", {path: settings.format("JDK_1_8"), "src/mod1.py": body("sms", 4)}, author=DAVE)
    _topic(repo, {path: settings.format("JDK_1_7"), "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


EXCEPTIONS = "EXCEPTIONS = [\n    'pip',\n    'setuptools',\n    'wheel',\n]\n\n\n" + \
    "".join(f"def step_{i}(packages):\n    return sorted(packages)[{i}:]\n\n\n" for i in range(6)) + \
    "def sync(installed):\n    return installed\n"


@pytest.mark.parametrize(("note", "severity"), [
    # pip-tools' `Add TODO note`, deleted by the change that carries it out
    ("    # TODO:\n    # Secondary dependencies of pip-tools should be ignored, too.\n    # 'click',\n    # 'six',\n", "notice"),
    ("    # Secondary dependencies of pip-tools, ignored too:\n    # 'click',\n    # 'six',\n", "warning"),  # no to-do
    ("    # TODO: ignore secondary dependencies too\n    'click',\n    'six',\n", "warning"),  # code goes with it
    # pandoc's `-- TODO check for binary file signatures here`, carried out by `recognize binary signatures`
    ("    -- TODO check for binary file signatures here\n    -- and exit with an error instead\n", "notice"),
    ("    -- check for binary file signatures here\n    -- and exit with an error instead\n", "warning"),  # no to-do
])
def test_a_to_do_note_taken_out_is_a_notice(repo: Repo, note: str, severity: str) -> None:
    seed(repo)
    land(repo, "sync: exceptions", {"piptools/sync.py": EXCEPTIONS})
    land(repo, "Add TODO note (#301)", {"piptools/sync.py": EXCEPTIONS.replace("    'wheel',\n", "    'wheel',\n" + note)})
    _topic(repo, {"piptools/sync.py": EXCEPTIONS.replace("    return installed", "    return [i for i in installed if i]"),
                  "kernel.c": "int t;\n"}, subject="Whitelist dependencies of whitelisted modules", author=DAVE)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


SHIM = ("/**\n * @internal\n */\ninterface Twig_EnvironmentTestLoaderInterface extends Twig_LoaderInterface, "
        "Twig_SourceContextLoaderInterface\n{\n    public function getSourceContext($name);\n}\n")


WHEELS = EXCEPTIONS.replace("    'wheel',\n", "    'wheel',\n    'wheel2',\n")  # #301's other work, kept


@pytest.mark.parametrize(("note", "elsewhere", "severity"), [
    # Twig's `removed obsolete code`: shims a 1.x merge carried, marked to go in 2.0, deleted on the 2.x branch
    ("// to be removed in 2.0\n", False, "notice"),
    ("// kept for the loader tests\n", False, "warning"),  # no such note
    # a deprecation warning's text is the program's output, no note on the code (pre-commit's old-config warning)
    ("trigger_error('The loader interface will be removed in 2.0');\n", False, "warning"),
    ("// to be removed in 2.0\n", True, "warning"),  # a line #301 replaced elsewhere, put back: more than deletions
])
def test_lines_marked_to_be_removed_taken_out(repo: Repo, note: str, elsewhere: bool, severity: str) -> None:
    seed(repo)
    land(repo, "sync: exceptions", {"lib/sync.py": EXCEPTIONS, "lib/shim.php": "<?php\n\nclass Twig_Loader {}\n"})
    land(repo, "feat: loader shims (#301)", {
        "lib/shim.php": "<?php\n\nclass Twig_Kept_Loader {}\nclass Twig_Loader {}\n" + note + SHIM,
        "lib/sync.py": WHEELS.replace("    'pip',\n", "    'pip3',\n") if elsewhere else WHEELS,
        "src/mod1.py": body("merge", 4)})
    _topic(repo, {"lib/shim.php": "<?php\n\nclass Twig_Kept_Loader {}\nclass Twig_Loader {}\n", "lib/sync.py": WHEELS,
                  "kernel.c": "int t;\n"},
           subject="removed obsolete code", author=DAVE)
    found = by_pr(check(repo, "main..topic")[1])
    assert found[301]["severity"] == severity, found[301]["reason"]


PAGE = "<!doctype html>\n<html>\n  <head>\n  </head>\n  <body>\n{}  </body>\n</html>\n"
SPEC = "".join(f'    <p class="endpoint">GET /api/games/{{username}}/{i} returns the games of a user</p>\n' for i in range(40))


@pytest.mark.parametrize("existed", [False, True])
def test_a_file_it_added_emptied_to_its_tags_is_no_version_before_it(repo: Repo, existed: bool) -> None:
    # pychess' `api.html`, added by #2164 and emptied of its inline spec to the page's tags: no version before
    # it to be equal to (a file that stood before and gets back to it is one)
    seed(repo)
    if existed:
        land(repo, "docs: the page", {"templates/api.html": PAGE.format("")})
    land(repo, "Add the API page (#301)", {"templates/api.html": PAGE.format(SPEC), "src/mod1.py": body("api", 4)},
         author=DAVE)
    _topic(repo, {"templates/api.html": PAGE.format(""), "kernel.c": "int t;\n"})
    (evidence,) = by_pr(check(repo, "main..topic")[1])[301]["evidence"]
    assert (evidence["kind"], "version before" in evidence["detail"]) == \
        (("rollback", True) if existed else ("inverse-hunk", False)), evidence


LICENSE = "/*\nCopyright 2023 The KEDA Authors\n\n" + "".join(f"Licensed under the terms of clause {i}.\n" for i in range(12)) + "*/\n\n"


@pytest.mark.parametrize(("header", "severity"), [
    ("# This file is auto-generated by generate_stubs.py.\n# Please do not edit this file directly.\n", "notice"),  # faker
    ("// Code generated by protoc-gen-go. DO NOT EDIT.\n", "notice"),  # Go's convention
    # MaterialDesignInXamlToolkit's icon tables, below the namespace they open
    ("namespace Icons\n{\n    /// ****\n    /// This code is auto generated. Do not amend.\n", "notice"),
    ("namespace Icons\n{\n    /// This code is auto generated.\n", "notice"),
    ("namespace Icons\n{\n    /// Do not amend: mdresgen writes it.\n", "notice"),
    ("<!-- README.md is generated from README.Rmd. Please edit that file -->\n", "notice"),  # usethis' template
    ("<!-- Keep the badge list short: nothing here is generated from CI. -->\n", "error"),  # no file named so
    ("namespace Icons\n{\n    /// Auto sizing is generated at run time.\n", "error"),  # no tool writes the file
    ("# This action is synced from https://github.com/prometheus/prometheus\n", "notice"),  # a sync bot's copy
    # rspec's files written from the rspec-dev repository
    ("# This file was generated on 2023-03-16 from the rspec-dev repo.\n# DO NOT modify it by hand.\n", "notice"),
    ("# this file is managed by dry-rb/devtools project\n", "notice"),  # dry-rb's configs, its sync bot's to write
    ("/* parser generated by jison 0.4.18 */\n", "notice"),  # mermaid's parsers, built from their grammars
    ("# The parser is hand-written; see the grammar generated by the docs.\n", "error"),  # no file said generated
    ("Generated by [`auto-changelog`](https://github.com/CookPete/auto-changelog).\n", "notice"),  # a prose header
    # hoppscotch's `components.d.ts`, which unplugin-vue-components rewrites from the components a branch holds
    ("/* eslint-disable */\n// @ts-nocheck\n// Generated by unplugin-vue-components\n", "notice"),
    ("# Generated by Django 4.2 on 2024-01-05 10:00\n", "notice"),  # a migration: makemigrations writes it
    ("// The generated by-laws of the module are checked by hand.\n", "error"),  # a person's note: no opening
    ("// Generated files are listed in BUILD; this one is not.\n", "error"),  # `generated` as a word of a note
    # roxygen2's Rd pages (dplyr's `Going in circles with roxygen2`), TeX's and Erlang's comment
    ("% Generated by roxygen2: do not edit by hand\n% Please edit documentation in R/mutate.R\n", "notice"),
    ("% Please keep the examples short: CRAN runs them.\n", "error"),  # a person's note in that syntax
    ("Regenerated by hand when the schema changes.\n", "error"),  # a person's prose
    ("# Modify it with care: CI reads it.\n", "error"),  # a person's note
    ("# The cache is managed by the worker; this file is not.\n", "error"),  # `managed by` of something else
    ("# Synced with the team's style guide by hand.\n", "error"),  # a person's note, no copy from elsewhere
    ("# Stubs for the proxy, kept by hand.\n", "error"),  # no marker: a source like any other
    # Go's marker below a license comment (controller-gen's `zz_generated.deepcopy.go` in keda), and a person's
    # note in the same place
    (LICENSE + "// Code generated by controller-gen. DO NOT EDIT.\n", "notice"),
    (LICENSE + "// Code reviewed by the API team. DO NOT EDIT without a review.\n", "error"),
    # MultiQC's modules page: the marker inside an HTML comment, below the page's front matter
    ("---\ntitle: Supported Tools\ndescription: Tools supported\n---\n\n<!--\n~~~~~ DO NOT EDIT ~~~~~\n-->\n", "notice"),
    ("---\ntitle: Supported Tools\n---\n\n~~~~~ DO NOT EDIT ~~~~~\n", "error"),  # no comment: the page's own text
    ("<!-- a note -->\n~~~~~ DO NOT EDIT ~~~~~\n", "error"),  # the comment closed on its line
    # man pages in roff, which docutils and pandoc sign in its comment (syncthing's, osm2pgsql's)
    ('.\\" Man page generated from reStructuredText.\n.\n', "notice"),
    ('.\\" Automatically generated by Pandoc 3.1.3\n.\\"\n', "notice"),
    ('.\\" Written by hand; the examples are generated from the test suite.\n', "error"),  # a person's note
    # MSW's `mockServiceWorker.js`, written by `msw init`: linters' switches and a bare `/**` count for no line
    ("/* eslint-disable */\n/* tslint:disable */\n\n/**\n * Mock Service Worker.\n * @see https://github.com/mswjs/msw\n"
     " * - Please do NOT modify this file.\n */\n", "notice"),
    ("// one\n// two\n// three\n// four\n// five\n// Please do NOT modify this file.\n", "error"),  # below the header
    # gh-aw's compiled workflows (z3's `agentics-maintenance.yml`): a banner drawn in `_`, `|` and `/` above the mark
    ("#\n#    ___                   _   _\n#   / _ \\                 | | (_)\n#  | |_| | __ _  ___ _ __ | |_ _  ___\n"
     "#  |  _  |/ _` |/ _ \\ '_ \\| __| |/ __|\n#  | | | | (_| |  __/ | | | |_| | (__\n#\n"
     "# This file was automatically generated by pkg/workflow/maintenance_workflow.go (v0.57.2). DO NOT EDIT.\n\n",
     "notice"),
])
def test_a_file_whose_header_says_a_tool_writes_it_weighs_as_built(repo: Repo, header: str, severity: str) -> None:
    seed(repo)
    stubs = "".join(f"def provider_{i}(self) -> str: ...\n" for i in range(8))
    land(repo, "stubs", {"faker/proxy.pyi": header + stubs})
    land(repo, "Add the ZuZa provider (#301)", {"faker/proxy.pyi": header + stubs + "def zu_za(self) -> str: ...\n",
                                               "src/mod1.py": body("zuza", 4)})
    _topic(repo, {"faker/proxy.pyi": header + stubs, "kernel.c": "int t;\n"}, subject="format code")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("files", "severity"), [(4, "notice"), (5, "error")])
def test_generated_headers_are_read_for_up_to_four_files_with_evidence(repo: Repo, files: int, severity: str) -> None:
    """Headers are read (one blob each) for up to MAX_HEADER_READS files with line or rollback evidence; a stale
    tree's many files are judged together (rspec-rails' long-lived 4.0 branch, merged with its own copies of five
    generated build scripts, stays an error: reading eight cost stale-many-20 a tenth of its time)."""
    seed(repo)
    header = "# This file was generated from the rspec-dev repo.\n# DO NOT modify it by hand.\n"
    scripts = {f"script/step{i}.sh": header + "".join(f"run_step_{i}_{j}\n" for j in range(6)) for i in range(files)}
    land(repo, "build scripts", scripts)
    land(repo, "Switch all links to HTTPS (#301)", {p: text + f"echo https://rspec.info/{p[11]}\n" for p, text in scripts.items()})
    _topic(repo, {**scripts, "kernel.c": "int t;\n"}, subject="Update build scripts")
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("header", "severity"), [
    ("// This file has been generated by Specta. DO NOT EDIT.\n", "notice"),
    ("// Types shared with the server.\n", "error"),  # no tool named: a person's file, put back
])
def test_a_generated_file_one_commit_wrote_is_asked_about_beside_other_undone_work(repo: Repo, header: str,
                                                                                  severity: str) -> None:
    # spacedrive's Specta `types.ts`, written in the order of the day by a change that also undoes lines of
    # six other commits in six other files: the file two undone commits share is the one asked about
    old = seed(repo)
    members = [f"  | {{ type: \"Event{i}\" }}\n" for i in range(12)]
    land(repo, "types", {"gen/types.ts": header + "export type Event =\n" + "".join(members)})
    land(repo, "feat: job events (#300)", {"gen/types.ts": header + "export type Event =\n" + "".join(members) +
                                           "  | { type: \"JobQueued\" }\n"})
    land(repo, "feat: job events (#301)", {"gen/types.ts": header + "export type Event =\n" + "".join(members) +
                                           "  | { type: \"JobQueued\" }\n  | { type: \"JobDone\" }\n"})
    for i in range(2, 8):
        land(repo, f"tune mod{i} (#{300 + i})", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"t{i}", 3)})
    edits = {f"src/mod{i}.py": old[f"src/mod{i}.py"] + f"new_work = fresh_call({i})\n" for i in range(2, 8)}
    _topic(repo, {**edits, "gen/types.ts": header + "export type Event =\n" + "".join(members),
                  "kernel.c": "int t;\n"}, subject="Space item cleanup", author=DAVE)
    found = by_pr(check(repo, "main..topic")[1])
    assert (found[300]["severity"], found[301]["severity"]) == (severity, severity), found[301]["reason"]
    assert all(found[300 + i]["severity"] in ("warning", "error") for i in range(2, 8))  # (the other work)


@pytest.mark.parametrize(("config", "found"), [
    ("", False),  # node-gyp's committed node_modules/: npm writes and deletes its files at every update
    ("[revert]\nexclude = []\n", True),  # the default given up: judged like any file
])
def test_a_committed_node_modules_tree_is_not_reported_by_default(repo: Repo, config: str, found: bool) -> None:
    old = seed(repo)
    if config:
        land(repo, "chore: config", {".leverguard.toml": config})
    land(repo, "deps: minimatch", {"node_modules/minimatch/test/basic.js": body("basic", 6)})
    land(repo, "chore: drop the vendored tests (#301)", {"node_modules/minimatch/test/basic.js": None})
    _topic(repo, {"node_modules/minimatch/test/basic.js": body("basic", 6), "kernel.c": old["kernel.c"] + "int t;\n"},
           subject="deps: update minimatch")
    assert (301 in by_pr(check(repo, "main..topic")[1])) is found


@pytest.mark.parametrize("subject, writes, severity", [
    ("MNT remove unnecessary file", False, "notice"),  # joblib's `.bck` committed with a release, gone a week later
    ("file commited by mistake", False, "notice"),
    ("kernel: tune", False, "warning"),  # nothing said: a stale tree's deletion of what it never had
    ("MNT remove unnecessary file", True, "warning")])  # it writes too: its own work beside the stale copies
def test_a_change_that_only_deletes_files_and_says_so_is_a_cleanup(repo: Repo, subject: str, writes: bool,
                                                                   severity: str) -> None:
    old = seed(repo)
    land(repo, "RELEASE 1.3.1 (#301)", {"src/parallel_config.py.bck": body("parallel", 20),
                                         "src/mod1.py": old["src/mod1.py"] + body("release", 3)})
    _topic(repo, {"src/parallel_config.py.bck": None, **({"kernel.c": old["kernel.c"] + "int t;\n"} if writes else {})},
           subject=subject)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("cast", "severity"), [
    ("", "notice"),  # date-fns: the casts rewritten as `// @ts-expect-error`, the type import left unused
    (" as Locale", "warning"),  # its uses kept: the import is lost
])
def test_a_type_import_taken_out_with_its_casts_is_no_loss(repo: Repo, cast: str, severity: str) -> None:
    seed(repo)
    cases = "".join(f"it('case {i}', () => {{\n  const result = setDay(new Date({i}), {i}, {{\n    locale: {{\n"
                    f"      options: {{ weekStartsOn: {i % 7} }},\n    }}CAST,\n  }})\n}})\n" for i in range(4))
    land(repo, "tests: setDay", {"src/setDay/test.ts": "import setDay from '.'\n" + cases.replace("CAST", " as Locale")})
    land(repo, "minor TypeScript type fixes (#301)",
         {"src/setDay/test.ts": "import setDay from '.'\nimport { Locale } from '../locale/types'\n" + cases.replace("CAST", " as Locale")})
    _topic(repo, {"src/setDay/test.ts": "import setDay from '.'\n" + cases.replace("CAST", cast).replace(
        "    locale", "    // @ts-expect-error\n    locale"), "kernel.c": "int t;\n"}, subject="Test TypeScriptification chores")
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("written", "found"), [
    ("data = read_table(url, names=names, rows=1000)\n", False),  # joblib's: the read rewritten to cut the rows
    ("report = summarize(frames)\n", True)])  # unrelated new text where the lines were: they are lost
def test_lines_deleted_where_the_change_rewrites_the_older_line_beside_them(repo: Repo, written: str, found: bool) -> None:
    seed(repo)
    head = "".join(f"VALUE_{i} = compute_value({i}, scale={i * 3})\n" for i in range(8))
    tail = "".join(f"LIMIT_{i} = compute_limit({i}, floor={i * 5})\n" for i in range(8))
    read = "data = read_table(url, names=names)\n"
    land(repo, "example: compressors", {"examples/compress.py": head + read + tail})
    land(repo, "DOC: attempt to fix the build (#301)",
         {"examples/compress.py": head + read + "# Take the first 1e6 rows, for a faster example\ndata = data.iloc[:int(1e6)]\n" + tail})
    _topic(repo, {"examples/compress.py": head + written + tail, "kernel.c": "int t;\n"},
           subject="FIX: reduce dataset size in compressor example")
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] == "warning") is found, finding


@pytest.mark.parametrize(("entry", "severity"), [
    ("- Remove outdated assembler code contrib/asm586\n", "notice"),  # zlib's release logging what it deletes
    ("- Faster inflate on 64-bit targets\n", "warning")])  # the changelog says nothing of it
def test_a_changelog_entry_of_the_change_naming_what_it_deletes(repo: Repo, entry: str, severity: str) -> None:
    seed(repo)
    land(repo, "docs: changelog", {"ChangeLog": "ChangeLog file for zlib\n\nChanges in 1.1.3\n- First.\n"})
    land(repo, "contrib: assembler match (#301)", {"contrib/asm586/match.S": body("match", 6),
                                                   "contrib/asm586/README.586": body("readme", 3)})
    _topic(repo, {"contrib/asm586/match.S": None, "contrib/asm586/README.586": None,
                  "ChangeLog": "ChangeLog file for zlib\n\nChanges in 1.2.4\n" + entry + "\nChanges in 1.1.3\n- First.\n"},
           subject="zlib 1.2.4-pre1")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("line", "found"), [
    (">>>>>>> master\n", False),  # tower's conflict marker committed by mistake, cleaned up later
    ("<<<<<<< HEAD\n", False),
    ("#<<<<<<< Updated upstream\n", False),  # pi-hole's marker commented out, then the leftover block cleaned up
    ("value_shared = make_shared(1, scale=7)\n", True)])
def test_a_conflict_marker_taken_out_is_no_work(repo: Repo, line: str, found: bool) -> None:
    old = seed(repo)
    lines = old["src/mod2.py"].splitlines(keepends=True)
    land(repo, "make: Add `Shared` (#301)", {"src/mod2.py": "".join(lines[:3] + [line] + lines[3:]),
                                             "src/mod1.py": body("shared", 4)})
    _topic(repo, {"src/mod2.py": old["src/mod2.py"], "kernel.c": "int t;\n"}, subject="spawn_ready: propagate tracing spans")
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding


def test_a_line_dropped_inside_a_larger_rewrite_is_still_reported(repo: Repo) -> None:
    # crossbeam's reworked `pop` (rebased over #49) losing `guard.unlinked(head)`: the memory leak came back
    seed(repo)
    head = "".join(f"VALUE_{i} = compute_value({i}, scale={i * 3})\n" for i in range(8))
    pop = ("loop {\n    if unsafe { head.ready.get_unchecked(low).load(Acquire) } { break }\n}\n"
           "if low + 1 == SEG_SIZE {\n    if let Some(next) = head.next.load(Acquire, &guard) {\n"
           "        self.head.store_shared(Some(next), Release);\n{freed}        break\n    }\n}\n")
    land(repo, "seg_queue: pop", {"src/seg_queue.rs": head + pop.replace("{freed}", "")})
    land(repo, "Made SegQueue free memory (#301)",
         {"src/seg_queue.rs": head + pop.replace("{freed}", "        unsafe { guard.unlinked(head); }\n")})
    rewritten = "unsafe {\n    let cell = (*head).data.get_unchecked(low).get();\n" + "".join(
        "    " + line + "\n" for line in pop.replace("{freed}", "").replace(
            "if unsafe { head.ready.get_unchecked(low).load(Acquire) } { break }", "if (*cell).1.load(Acquire) { break }").splitlines()) + "}\n"
    _topic(repo, {"src/seg_queue.rs": head + rewritten, "kernel.c": "int t;\n"}, subject="Combined ready and data arrays")
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert finding is not None and finding["severity"] == "warning", finding


@pytest.mark.parametrize(("bullet", "severity"), [
    ("* Re-add lastMsg tests", "notice"),  # pino's squashed branch commit names what it brings back
    ("* Re-add the tests", "error"),  # no name of what comes back
    ("Reapply lastMsg tests", "notice"),  # libzmq's `Reapply session_base_t refactoring`
    ("Reapply the refactoring", "error"),  # no name of what comes back
    ("* Rename lastMsg tests", "error"),  # names it, but does not say it brings it back
])
def test_a_message_line_saying_it_brings_back_what_it_names(repo: Repo, bullet: str, severity: str) -> None:
    seed(repo)
    checks = "".join(f"test('case {i}', () => {{\n  is('a msg', this.lastMsg)\n  same(this.lastObj{i}, {{}})\n}})\n"
                     for i in range(3))
    land(repo, "test: metadata", {"test/metadata.test.js": checks})
    land(repo, "Merge the next branch (#301)",
         {"test/metadata.test.js": checks.replace("  is('a msg', this.lastMsg)\n", ""), "src/mod1.py": body("next", 3)})
    _topic(repo, {"test/metadata.test.js": checks, "src/pretty.js": "function pretty() { return formatters.log }\n"},
           subject=f"Support formatters.log on pretty print\n\n* Support formatters.log\n{bullet}")
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


SCRIV_TEMPLATE = (".. A new scriv changelog fragment.\n..\n.. Uncomment the section that is right (remove the leading dots).\n"
                  ".. For top level release notes, leave all the headers commented out.\n..\n.. Removed\n.. .......\n..\n"
                  ".. - A bullet item for the Removed category.\n..\n")


@pytest.mark.parametrize(("written", "reported"), [
    (True, False),  # scriv's `docs: version 1.7.0`: the entry written, the template's comment lines are no text
    (False, True),  # the entry written nowhere: the fragment's work is lost
])
def test_a_fragments_comment_lines_are_no_text_a_release_must_write(repo: Repo, written: bool, reported: bool) -> None:
    seed(repo)
    entry = "- The ``format`` setting is now set based on the ``changelog`` setting.\n"
    land(repo, "docs: changelog", {"CHANGELOG.rst": "Changelog\n=========\n\n1.6.0\n-----\n\n- First.\n"})
    land(repo, "feat: format follows the changelog setting (#301)",
         {"src/mod1.py": body("fmt", 3), "changelog.d/20250420_102250_nedbat.rst": SCRIV_TEMPLATE + "Added\n.....\n\n" + entry})
    changelog = "Changelog\n=========\n\n1.7.0\n-----\n\nAdded\n.....\n\n" + (entry if written else "- Other.\n") + \
        "\n1.6.0\n-----\n\n- First.\n"
    _topic(repo, {"changelog.d/20250420_102250_nedbat.rst": None, "CHANGELOG.rst": changelog}, subject="docs: version 1.7.0")
    assert (301 in by_pr(check(repo, "main..topic")[1])) is reported


def test_paths_that_differ_only_in_whose_home_folder_they_run_through_are_no_work(repo: Repo) -> None:
    """jazzy's `undocumented.json` written on one maintainer's machine, then on another's: each run stamps
    its own home folder (the setup.py accident above, a home path over a portable one, still fails)."""
    seed(repo)
    entry = '{{"file": "{}/Source/{}.swift", "symbol": "{}"}}\n'
    def report(home: str) -> str:
        return "".join(entry.format(home, name, name.lower()) for name in ("Session", "Request", "Response"))
    land(repo, "docs: undocumented report", {"docs/undocumented.json": report("/Users/ann/Code/Kit")})
    land(repo, "Prepare beta 5 (#301)", {"docs/undocumented.json": report("/Users/bob/Desktop/GitHub/Kit/Kit")})
    _topic(repo, {"docs/undocumented.json": report("/Users/ann/Code/Kit"), "kernel.c": "int t;\n"})
    assert by_pr(check(repo, "main..topic", "--strict")[1])[301]["severity"] == "notice"


@pytest.mark.parametrize(("footer", "severity"), [
    ('<p>Generated by <a href="https://github.com/realm/jazzy">jazzy</a>.</p>', "notice"),  # Alamofire's pages
    ("<p>Written by the Kit team.</p>", "warning")])
def test_an_html_page_a_documentation_generator_signs_is_its_output(repo: Repo, footer: str, severity: str) -> None:
    seed(repo)
    page = "<!DOCTYPE html>\n<html>\n<body>\n" + "".join(f"<p>Section {i} of the encoder.</p>\n" for i in range(30)) + \
        '<a href="https://github.com/{}/swift">Swift</a>\n' + footer + "\n</body>\n</html>\n"
    land(repo, "docs: encoder pages", {"docs/Classes/Encoder.html": page.format("apple")})
    land(repo, "Update links for repositories moved to the swiftlang org (#301)",
         {"docs/Classes/Encoder.html": page.format("swiftlang")}, author=DAVE)
    _topic(repo, {"docs/Classes/Encoder.html": page.format("apple").replace("Section 3 ", "Section three "),
                  "kernel.c": "int t;\n"}, subject="Prepare 5.10")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def _namespaces_flattened(repo: Repo, files: int, stale_line: bool = False) -> str:
    """spectre.console's `Add profile support`: `namespace Kit.Internal` made `namespace Kit` in FILES files,
    one of them the file #301 had moved into `Kit.Internal`; STALE_LINE: that file also loses #302's line."""
    seed(repo)
    def module(name: str, space: str, extra: str = "") -> str:
        return f"using System;\n\nnamespace {space}\n{{\n    class {name} {{ }}\n{extra}}}\n"
    names = [f"Part{i}" for i in range(files)]
    land(repo, "feat: parts", {f"src/{n}.cs": module(n, "Kit.Internal") for n in names} |
         {"src/Builder.cs": module("Builder", "Kit")})
    land(repo, "Add progress task list support (#301)", {"src/Builder.cs": module("Builder", "Kit.Internal")})
    if stale_line:
        land(repo, "Add the builder's capacity (#302)",
             {"src/Builder.cs": module("Builder", "Kit.Internal", "    int capacity;\n")}, author=DAVE)
    flat = {f"src/{n}.cs": module(n, "Kit") for n in names}
    _topic(repo, {**flat, "src/Builder.cs": module("Builder", "Kit")}, subject="Add profile support", author=DAVE)
    return str(by_pr(check(repo, "main..topic")[1])[301]["severity"])


@pytest.mark.parametrize(("files", "severity"), [(6, "notice"), (4, "error")])
def test_a_file_given_the_edit_the_change_sweeps_across_the_code_base_is_no_stale_copy(
        repo: Repo, files: int, severity: str) -> None:
    assert _namespaces_flattened(repo, files) == severity


def test_a_swept_file_that_also_loses_a_commits_line_is_still_a_stale_copy(repo: Repo) -> None:
    assert _namespaces_flattened(repo, 6, stale_line=True) == "error"


@pytest.mark.parametrize(("fixed", "code"), [
    ("[![cov](https://coveralls.io/repos/github/spulec/freezegun/badge.svg)](https://coveralls.io)\n", 0),
    ("# freezegun: let your tests travel through time\n", 1),  # a line #301 never wrote: a stale tree's
])
def test_taking_out_a_topic_with_the_fix_up_of_its_lines(repo: Repo, fixed: str, code: int) -> None:
    """freezegun's `remove coveralls for now since it doesnt support py3k` puts back `add coveralls` and the
    `fix readme` of its badge: the fix-up only took out lines `add coveralls` wrote, so no stale tree."""
    seed(repo)
    readme = "# freezegun\n\nLet your tests travel through time.\n"
    badge = "[![cov](https://coveralls.io/repos/spulec/freezegun/badge.png)](https://coveralls.io)\n"
    land(repo, "docs: readme and ci", {"README.md": readme, ".travis.yml": "script: make test\n"})
    land(repo, "add coveralls (#301)", {"README.md": readme + badge, ".travis.yml": "script: make test\nafter_success: coveralls\n"})
    target = badge if fixed.startswith("[") else "# freezegun\n"
    land(repo, "fix readme (#302)", {"README.md": (readme + badge).replace(target, fixed)})
    _topic(repo, {"README.md": readme, ".travis.yml": "script: make test\n", "kernel.c": "int t;\n"},
           subject="remove coveralls for now since it doesnt support py3k", author=BOB)
    assert check(repo, "main..topic")[0] == code


@pytest.mark.parametrize(("subject", "code"), [
    ("docs: remove-webinar (#2535)\n\nremoving webinar banner", 0),  # crawlee's, titled as its branch's name
    ("docs: remove-sponsors (#2535)\n\nremoving sponsors banner", 1),  # a topic the undone commits never named
    ("docs: tweak-webinar (#2535)\n\ntweaking webinar banner", 1),  # no removal said
])
def test_a_removal_titled_by_its_branch_name_names_its_topic(repo: Repo, subject: str, code: int) -> None:
    # two commits' files put back, as a stale tree does, unless the title says it takes out their topic
    seed(repo)
    readme = "# crawlee\n\nReliable scrapers.\n"
    note = "<small>Join us for a free webinar about crawlee on June 12th</small>\n\n"
    bar = "announcementBar: {\n  id: 'crawlee_webinar',\n  content: 'Join the webinar',\n  isCloseable: false,\n},\n"
    land(repo, "docs: config", {"README.md": readme, "website/config.js": "module.exports = {\n};\n"})
    land(repo, "docs: add note about webinar to the docs and readme (#2506)",
         {"README.md": note + readme, "website/config.js": "module.exports = {\n" + bar + "};\n"})
    land(repo, "docs: improve banner (#2528)",
         {"website/config.js": "module.exports = {\n" + bar.replace("false", "true") + "};\n"}, author=DAVE)
    _topic(repo, {"README.md": readme, "website/config.js": "module.exports = {\n};\n"}, subject=subject, author=BOB)
    assert check(repo, "main..topic")[0] == code


def _go_modules(repo: Repo, pin: str, topic: str, target: str = "../../api", path: str = "go.mod") -> dict[str, Any]:
    """A multi-module Go repository: the release's PIN commit pins two plugins' go.mod (and PATH) to the
    released api, dropping their local `replace`; the TOPIC change puts every one back as it was."""
    seed(repo)
    mods = {f"plugin/p{i}/{path}": f"module example.com/kz/plugin/p{i}\n\ngo 1.22\n\nrequire (\n"
            f"\texample.com/kz/api v0.0.0\n\tgithub.com/pkg/errors v0.9.1\n)\n\nreplace example.com/kz/api => {target}\n"
            for i in range(2)}
    land(repo, "plugins: modules", {"api/go.mod": "module example.com/kz/api\n\ngo 1.22\n", **mods})
    pinned = {p: text.replace("api v0.0.0", "api v0.8.6").replace(f"\nreplace example.com/kz/api => {target}\n", "")
              for p, text in mods.items()}
    land(repo, pin, pinned)
    _topic(repo, {**mods, "kernel.c": "int t;\n"}, subject=topic)
    exit_code, report = check(repo, "main..topic")
    return {"exit": exit_code, "severities": sorted(f["severity"] for f in report["findings"] if not f["declared"])}


@pytest.mark.parametrize(("pin", "topic", "expected"), [
    ("Pin to api v0.8.6 (#301)", "Unpin modules", {"exit": 0, "severities": ["notice"]}),  # kustomize's release cycle
    ("Merge pull request #301 from kz/pinToApi", "Back to development mode; unpin the modules",
     {"exit": 0, "severities": ["notice"]}),  # the pin said only in the branch's name
    ("Update api to v0.8.6 (#301)", "Unpin modules", {"exit": 1, "severities": ["error"]}),  # the commit pinned nothing
    ("Pin to api v0.8.6 (#301)", "kernel: tune", {"exit": 1, "severities": ["error"]}),  # a stale tree says nothing
])
def test_go_modules_a_release_pinned_unpinned_again(repo: Repo, pin: str, topic: str, expected: dict[str, Any]) -> None:
    assert _go_modules(repo, pin, topic) == expected


def test_module_files_of_another_kind_unpinned_still_count(repo: Repo) -> None:
    assert _go_modules(repo, "Pin to api v0.8.6 (#301)", "Unpin modules", path="Cargo.toml")["exit"] == 1


@pytest.mark.parametrize(("target", "severity"), [
    ("../../api", "notice"),  # kustomize's development mode: the module next door
    ("../../../api", "warning"),  # a folder outside the repository: another checkout, someone's machine
])
def test_a_local_replace_of_a_module_of_this_repository_comes_back(repo: Repo, target: str, severity: str) -> None:
    seed(repo)
    mod = ("module example.com/kz/plugin/p0\n\ngo 1.22\n\nrequire (\n\texample.com/kz/api v0.0.0\n"
           "\tgithub.com/pkg/errors v0.9.1\n\tgithub.com/stretchr/testify v1.9.0\n)\n")
    land(repo, "plugins: modules", {"api/go.mod": "module example.com/kz/api\n\ngo 1.22\n",
                                    "plugin/p0/go.mod": mod + f"\nreplace example.com/kz/api => {target}\n"})
    land(repo, "Pin to api v0.8.6 (#301)", {"plugin/p0/go.mod": mod.replace("api v0.0.0", "api v0.8.6")})
    _topic(repo, {"plugin/p0/go.mod": mod.replace("api v0.0.0", "api v0.8.6").replace("testify v1.9.0", "testify v1.10.0") +
                  f"\nreplace example.com/kz/api => {target}\n", "kernel.c": "int t;\n"}, subject="Downgrade mergo")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("said", "severity"), [
    ("revert: downgrade css-module-lexer to 0.0.15", "notice"),  # rspack's: the dependency named, a patch level back
    ("revert: downgrade serde to 1.0.100", "warning"),  # another dependency named: this one is set back unsaid
    ("", "warning"),
])
def test_a_dependency_the_message_downgrades_by_name(repo: Repo, said: str, severity: str) -> None:
    seed(repo)
    deps = ('css-module-lexer = {{ version = "{0}", default-features = false }}\n' +
            "".join(f'crate-{i} = {{{{ version = "2.{i}.0" }}}}\n' for i in range(6)) + 'serde = {{ version = "1.0.{1}" }}\n')
    manifest = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\n'
    land(repo, "workspace", {"Cargo.toml": manifest + deps.format("0.0.15", 200)})
    land(repo, "chore(deps): update patch crates (#301)", {"Cargo.toml": manifest + deps.format("0.0.16", 201)})
    _topic(repo, {"Cargo.toml": manifest + deps.format("0.0.15", 201), "kernel.c": "int t;\n"},
           subject="chore(dep): css-module-lexer 0.0.16 -> 0.0.15" + (f"\n\n{said}" if said else ""))
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def _one_file_of_301_back(repo: Repo, subject: str, pr_body: str = "") -> dict[str, Any]:
    """#301 changes two modules; the topic puts one of them back as it was."""
    old = seed(repo)
    land(repo, "Generate native gems with -fvisibility=hidden (#301)",
         {"src/mod1.py": old["src/mod1.py"] + body("hidden", 4), "src/mod2.py": old["src/mod2.py"] + body("vis", 4)})
    _topic(repo, {"src/mod1.py": old["src/mod1.py"], "kernel.c": old["kernel.c"] + "int t;\n"}, subject=subject)
    return by_pr(check(repo, "main..topic", **({"pr_body": pr_body} if pr_body else {}))[1])[301]


@pytest.mark.parametrize(("subject", "severity"), [
    ("Keep the old parser from GH-301 out of the fast path", "notice"),  # GitHub's other form of `#301`
    ("Keep the old parser from gh-301 out of the fast path", "notice"),
    ("Keep the old parser from GH-3011 out of the fast path", "error"),  # another PR
    ("Keep the old parser from XGH-301 out of the fast path", "error"),
    # FreshRSS' `Regression from https://github.com/FreshRSS/FreshRSS/pull/5830`: a link to the PR
    ("Fix the fast path\n\nRegression from https://github.com/team/app/pull/301", "notice"),
    ("Fix the fast path\n\nRegression from https://github.com/team/app/pull/3011", "error"),
    ("Fix the fast path\n\nSee https://example.com/301 for the numbers", "error"),  # no PR link
])
def test_a_message_citing_the_undone_pr_as_gh_n(repo: Repo, subject: str, severity: str) -> None:
    assert _one_file_of_301_back(repo, subject)["severity"] == severity


@pytest.mark.parametrize(("pr_body", "severity"), [
    ("Partly reverted rubocop rule\n\nThe visibility flag broke the linter.", "notice"),  # rubygems' #6559
    ("Fix up the rubocop rule\n\nThe visibility flag broke the linter.", "error"),
])
def test_a_pr_title_calling_itself_a_revert_under_a_merge_subject(repo: Repo, pr_body: str, severity: str) -> None:
    assert _one_file_of_301_back(repo, "Merge pull request #400 from gems/fixup-6549", pr_body)["severity"] == severity


def _merged_into_topic(repo: Repo, subject: str, mainline_holds_it: bool = True) -> dict[str, Any]:
    """#301 changes src/mod1.py (on main, or only on the topic branch); main later puts that file back (a
    change of its own); the topic branch merges main in under SUBJECT, taking main's file, and is checked as
    the first parent's next commit (main's first-parent line running through the topic branch)."""
    old = seed(repo)
    if mainline_holds_it:
        land(repo, "Support dots in named parameters (#301)", {"src/mod1.py": old["src/mod1.py"] + body("dots", 4)})
    repo.git("checkout", "-q", "-b", "topic-x")
    if not mainline_holds_it:
        land(repo, "Support dots in named parameters (#301)", {"src/mod1.py": old["src/mod1.py"] + body("dots", 4)})
    land(repo, "docs: the repositories page", {"docs/repositories.md": "# Repositories\n" + body("docs", 3)})
    repo.git("checkout", "-q", "main")
    fixed = old["src/mod1.py"] + ("" if mainline_holds_it else "LEXER_MODE = select_lexer(strict=True)\n")
    land(repo, "Fix regression from the named parameters", {"src/mod1.py": fixed}, author=DAVE)
    repo.git("checkout", "-q", "topic-x")
    repo.git("merge", "--no-ff", "-q", "-X", "theirs", "main", "-m", subject)
    return by_pr(check(repo, "HEAD^1..HEAD")[1]).get(301, {"severity": "none", "reason": ""})


@pytest.mark.parametrize(("subject", "severity"), [
    ("Merge branch 'main' into topic-x", "notice"),  # filament's: main's own later change, taken in
    ("Merge branch 'main' of https://github.com/team/kernels into topic-x", "notice"),  # `git pull`'s
    ("Merge branch 'main' into develop", "error"),  # a mainline merging: the usual judgement
    ("Merge branch 'sneaky-2' into topic-x", "error"),  # another topic branch merged in: its commits count
    ("Merge pull request #400 from team/topic-x", "error"),
])
def test_a_merge_into_a_topic_branch_taking_the_mainlines_own_change(repo: Repo, subject: str, severity: str) -> None:
    assert _merged_into_topic(repo, subject)["severity"] == severity


def test_a_merge_into_a_topic_branch_dropping_the_topics_own_work_still_counts(repo: Repo) -> None:
    # (the branch's lines a resolution dropped: judged as such, here a long-lived branch merged forward)
    finding = _merged_into_topic(repo, "Merge branch 'main' into topic-x", mainline_holds_it=False)
    assert "dropped by the conflict resolution" in finding["reason"] and "mainline's own" not in finding["reason"]


@pytest.mark.parametrize(("uses", "severity"), [
    ("", "notice"),  # jdbi's: `java.lang.reflect.Field` left unused by a refactor, pruned
    ("        Field cached = type.getDeclaredField(name);\n", "warning"),  # still used: the import is lost
])
def test_a_java_import_nothing_in_the_file_uses_is_no_loss(repo: Repo, uses: str, severity: str) -> None:
    seed(repo)
    methods = "".join(f"    int value{i}(int x) {{ return x * {i} + OFFSET_{i}; }}\n" for i in range(8))
    source = ("package org.jdbi.core;\n\nIMPORTSimport java.util.List;\n\npublic class Binder {\n" + methods +
              "    void bind(Class<?> type, String name) throws Exception {\n" + uses + "        List.of(name);\n    }\n}\n")
    path = "core/src/main/java/org/jdbi/core/Binder.java"
    land(repo, "core: binder", {path: source.replace("IMPORTS", "")})
    land(repo, "New @DatabaseValue for setting enum values (#301)",
         {path: source.replace("IMPORTS", "import java.lang.reflect.Field;\n") + "// enum values bound by name\n"})
    _topic(repo, {path: source.replace("IMPORTS", "") + "// enum values bound by name\n", "kernel.c": "int t;\n"},
           subject="Refactor the binder")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


GO_SOURCE = ('package renderers\n\nimport (\n\t"fmt"\n\nIMPORTS\t"github.com/acme/tofu/internal/plans"\n)\n\n' +
             "".join(f"func step{i}(x int) int {{ return x*{i} + offset{i} }}\n" for i in range(8)) +
             '\n// DESCRIBE renders an action for the plan\nfunc Describe(a plans.Action) string {\n'
             '\treturn fmt.Sprintf("%v %s", a, USE)\n}\n')


@pytest.mark.parametrize(("uses", "severity"), [
    ("DiffActionSymbol(a)", "notice"),  # opentofu's: the symbol moved into the package, its import pruned
    ("format.DiffActionSymbol(a)", "warning"),  # still selected from the package: the import is lost
])
def test_a_go_import_nothing_in_the_file_selects_from_is_no_loss(repo: Repo, uses: str, severity: str) -> None:
    # the comment's word `format` is no use of the package: Go uses one only through its selector
    seed(repo)
    path = "internal/command/jsonformat/computed/renderers/util.go"
    source = GO_SOURCE.replace("DESCRIBE", "Describe, to format the symbol,")
    land(repo, "renderers: describe", {path: source.replace("IMPORTS", "").replace("USE", '""')})
    land(repo, "refactor: separate entities from views/json (#301)",
         {path: source.replace("IMPORTS", '\t"github.com/acme/tofu/internal/command/format"\n')
          .replace("USE", "format.DiffActionSymbol(a)")})
    _topic(repo, {path: source.replace("IMPORTS", "").replace("USE", uses) +
                  "\nfunc DiffActionSymbol(a plans.Action) string { return a.String() }\n", "kernel.c": "int t;\n"},
           subject="refactor: break the dependency on command/format")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("keep_test", "severity"), [
    (True, "notice"),  # jdbi's `Mocking makes things harder.`: the test's new case kept, only its unused import gone
    (False, "error"),  # the test's new case gone too: every change to the test undone with the pom
])
def test_a_file_kept_but_for_an_unused_import_still_counts_as_kept(repo: Repo, keep_test: bool, severity: str) -> None:
    seed(repo)
    pom = "<project>\n  <artifactId>jdbi3-vavr</artifactId>\n  <dependencies>\n  </dependencies>\n</project>\n"
    mocked = pom.replace("  </dependencies>", "    <dependency><artifactId>mockito-core</artifactId></dependency>\n  </dependencies>")
    cases = "".join(f"    @Test void value{i}() {{ assertEquals({i}, factory.value({i})); }}\n" for i in range(10))
    test = "package org.jdbi.v3.vavr;\n\nIMPORTSimport org.junit.Test;\n\npublic class TestVavr {\n" + cases + "CASE}\n"
    path = "vavr/src/test/java/org/jdbi/v3/vavr/TestVavr.java"
    land(repo, "vavr: tests", {"vavr/pom.xml": pom, path: test.replace("IMPORTS", "").replace("CASE", "")})
    new_case = "    @Test void mocked() { assertEquals(7, factory.value(7)); }\n"
    land(repo, "fix #1459 and clean up test (#301)",
         {"vavr/pom.xml": mocked, path: test.replace("IMPORTS", "import org.mockito.Mockito;\n").replace("CASE", new_case)})
    _topic(repo, {"vavr/pom.xml": pom,
                  path: test.replace("IMPORTS", "").replace("CASE", new_case if keep_test else "")},
           subject="Mocking makes things harder.")
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


