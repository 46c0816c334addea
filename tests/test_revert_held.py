"""What the change's tree held: commits it keeps in more of their files than it undoes cast no stale-tree
vote; a fresh file brought back beside kept work still fails; fragments a release (or its clean-up) consumed."""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, merge_pr, seed

# small files a refactor touches in passing: a two-line re-export each
SMALL = {f"src/small{i}.py": f"from core import Path{i}\nexport = [Path{i}]\n" for i in range(2)}


def _renamed(text: str, tag: str) -> str:
    return text.replace("scale=", f"{tag}_scale=")


def _two_refactors(repo: Repo) -> dict[str, str]:
    """#301 and #302 (Carol's) each rename across six modules and the two small files."""
    old = seed(repo)
    land(repo, "small files", dict(SMALL))
    first = {f"src/mod{i}.py": _renamed(old[f"src/mod{i}.py"], "a") for i in range(6)}
    first.update({path: text.replace("Path", "Loc") for path, text in SMALL.items()})
    land(repo, "refactor: generalize Loc (#301)", first, author=CAROL)
    second = {f"src/mod{i}.py": _renamed(old[f"src/mod{i}.py"], "b") for i in range(6, 12)}
    second.update({path: text.replace("Path", "Loc").replace("export", "exported") for path, text in SMALL.items()})
    land(repo, "feat: dynamic paths (#302)", second, author=CAROL)
    return old


def _refactor_on_top(repo: Repo, old: dict[str, str], keeps: bool) -> dict:
    """The change puts the small files back past #301 and #302; KEEPS: it also edits their modules, their
    renames in place (yazi's `refine PathLike`), else it touches only other modules."""
    edits: dict[str, str | None] = dict(SMALL)
    modules = [*range(4), *range(6, 10)] if keeps else range(14, 20)
    for i in modules:
        tag = "a" if i < 6 else ("b" if i < 12 else "")
        text = _renamed(old[f"src/mod{i}.py"], tag) if tag else old[f"src/mod{i}.py"]
        edits[f"src/mod{i}.py"] = text + body(f"refine{i}", 2)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "refactor: refine PathLike (#303)", edits, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])


def test_small_files_put_back_past_commits_the_change_builds_on_cast_no_stale_vote(repo: Repo) -> None:
    found = _refactor_on_top(repo, _two_refactors(repo), keeps=True)
    assert found[301]["severity"] == found[302]["severity"] == "notice"
    assert "keeps its work there" in found[302]["reason"]


def test_the_same_files_put_back_by_a_tree_that_kept_nothing_fail(repo: Repo) -> None:
    found = _refactor_on_top(repo, _two_refactors(repo), keeps=False)
    assert found[301]["severity"] == found[302]["severity"] == "error"


def _brought_back(repo: Repo, days: int) -> dict:
    """#301 deletes a module and edits three others; DAYS (and four commits) later the change edits two of
    those with its work kept and brings the deleted module back whole."""
    old = seed(repo)
    land(repo, "fix: drop the legacy reader (#301)", {"src/mod0.py": None, **{
        f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"new{i}", 2) for i in (1, 2, 3)}})
    for i in range(4):  # past the very last commits, whose absence is staleness whatever their age
        land(repo, f"docs: note {i}", {f"docs/note{i}.md": f"Note {i} on the reader's replacement.\n"})
    repo._tick += days * 24 - 4
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: pager (#302)", {"src/mod0.py": old["src/mod0.py"], **{
        f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"new{i}", 2) + body(f"pager{i}", 2) for i in (1, 2)}})
    return by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize(("days", "severity"), [(13, "error"), (15, "notice")])
def test_a_fresh_file_brought_back_fails_beside_kept_work(repo: Repo, days: int, severity: str) -> None:
    # biome's stale PR bringing back a changeset the release had consumed four days before, while keeping
    # the release's other files; vapor's `Release Candidate 1` bringing multipart back 130 days on is a notice
    assert _brought_back(repo, days)[301]["severity"] == severity


NEWS = "Changelog\n=========\n\n1.1.0\n-----\n\n- Fix the connector leaking a DNS resolver on early close. (#301)\n"


def _fragments_then(repo: Repo, fragments: dict[str, str], edits: dict[str, str | None], subject: str,
                    older: dict[str, str] | None = None) -> dict:
    """#301 adds FRAGMENTS beside its fix (OLDER ones are there before it); the topic deletes them with EDITS."""
    old = seed(repo)
    land(repo, "docs: changelog", {"NEWS.rst": "Changelog\n=========\n\n1.0.0\n-----\n\n- First release.\n", **(older or {})})
    land(repo, "Fix the resolver leak (#301)", {"src/mod1.py": old["src/mod1.py"] + body("leak", 3), **fragments})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {**{path: None for path in fragments}, **edits}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])


CHANGIE = "component: cli\nkind: fix\nbody: Fix the connector leaking a DNS resolver on early close\ntime: 2026-08-19T14:28:15+02:00\n"


@pytest.mark.parametrize(("path", "text"), [
    (".changelog/301.fixed", "Fix the connector leaking a DNS resolver on early close.\n"),  # towncrier's hidden folder
    ("changelog/pending/20260819--cli--resolver-leak.yaml", CHANGIE),  # changie's pending entries (pulumi)
    (".chloggen/resolver-leak.yaml", CHANGIE.replace("body:", "note:")),  # OpenTelemetry's chloggen
])
def test_hidden_and_pending_fragment_folders_are_consumed_by_a_release(repo: Repo, path: str, text: str) -> None:
    assert 301 not in _fragments_then(repo, {path: text}, {"NEWS.rst": NEWS}, "Release 1.1.0")


RUSH_CHANGE = ('{\n  "changes": [\n    {\n      "comment": "Fix the connector leaking a DNS resolver on early close",\n'
               '      "type": "patch",\n      "packageName": "@acme/connector"\n    }\n  ],\n'
               '  "packageName": "@acme/connector"\n}\n')
RUSH_LOG = '{\n  "name": "@acme/connector",\n  "entries": [\n    {\n      "version": "1.1.0",\n      "comments": {\n' \
           '        "patch": [\n          {\n            "comment": "Fix the connector leaking a DNS resolver on early close"\n' \
           '          }\n        ]\n      }\n    }\n  ]\n}\n'
RUSH_PATH = "common/changes/@acme/connector/fix-resolver-leak_2026-08-19-14-28.json"


@pytest.mark.parametrize(("edits", "subject", "reported"), [
    ({"libraries/connector/CHANGELOG.json": RUSH_LOG}, "Update changelogs [skip ci]", False),  # `rush publish`
    ({"kernel.c": "int t;\n"}, "kernel: tune", True),  # a stale tree's deletion: nothing folded in
])
def test_rush_change_files_folded_into_the_changelog_are_consumed(repo: Repo, edits: dict[str, str | None],
                                                                  subject: str, reported: bool) -> None:
    # rushstack's Rushbot `Update changelogs`: 327 false warnings in one history before Rush's folder counted
    found = _fragments_then(repo, {RUSH_PATH: RUSH_CHANGE}, edits, subject)
    assert (301 in found) is reported


OPERATOR_FRAGMENT = ("# entries is a list of entries to include in\n# release notes and/or the migration guide\nentries:\n"
                     "  - description: >\n      For Helm-based operators, fix the connector leaking a DNS resolver.\n"
                     "    kind: \"bugfix\"\n    breaking: false\n")
OPERATOR_NOTES = ("## v1.40.0\n\n### Bug Fixes\n\n- For Helm-based operators, fix the connector leaking a DNS resolver. "
                  "([#301](https://github.com/acme/sdk/pull/301))\n")


@pytest.mark.parametrize(("edits", "reported"), [
    # operator-sdk's `Release v1.40.0`: its YAML entries' descriptions written into `changelog/generated/v1.40.0.md`,
    # the folder's template left (115 false warnings in one history)
    ({"changelog/generated/v1.40.0.md": OPERATOR_NOTES}, False),
    ({"kernel.c": "int t;\n"}, True),  # a stale tree's deletion: the entry's text goes nowhere
])
def test_yaml_fragments_of_a_changelog_folder_folded_into_the_versions_notes_are_consumed(
        repo: Repo, edits: dict[str, str | None], reported: bool) -> None:
    found = _fragments_then(repo, {"changelog/fragments/fix-resolver-leak.yaml": OPERATOR_FRAGMENT}, edits,
                            "Release v1.40.0", older={"changelog/fragments/00-template.yaml": OPERATOR_FRAGMENT})
    assert (301 in found and found[301]["severity"] in ("warning", "error")) is reported


def test_a_hidden_folders_fragment_deleted_by_a_stale_tree_is_reported(repo: Repo) -> None:
    found = _fragments_then(repo, {".changelog/301.fixed": "Fix the connector leaking a DNS resolver.\n"},
                            {"kernel.c": "int t;\n"}, "kernel: tune")
    assert found[301]["severity"] == "warning"


ANTSIBULL = {"changelogs/fragments/301-resolver-leak.yml": "bugfixes:\n  - connector - fix the leaking DNS resolver.\n",
             "changelogs/fragments/301-resolver-docs.yml": "minor_changes:\n  - connector - document the resolver.\n"}


@pytest.mark.parametrize("kept", [{}, {"changelogs/fragments/README.md": "One file per change goes here.\n"}])
def test_a_release_clean_up_emptying_the_fragment_folder_consumes_them(repo: Repo, kept: dict[str, str]) -> None:
    # antsibull's `The next feature release will be 13.1.0.`: the release branch holds the text, main resets
    # its changelog and deletes every fragment (the folder's README is no fragment: towncrier's, sunpy's)
    found = _fragments_then(repo, ANTSIBULL, {"changelogs/changelog.yaml": "ancestor: 1.1.0\nreleases: {}\n"},
                            "The next feature release will be 1.2.0.",
                            older={"changelogs/changelog.yaml": "ancestor: 1.0.0\nreleases: {}\n", **kept})
    assert 301 not in found


@pytest.mark.parametrize("left, changelog", [
    ({"changelogs/fragments/299-older.yml": "bugfixes:\n  - older - a fix from before the stale base.\n"}, True),
    ({}, False),  # the changelog left alone: a stale tree's deletions
])
def test_fragments_deleted_with_others_left_or_no_changelog_edit_are_reported(repo: Repo, left: dict[str, str],
                                                                              changelog: bool) -> None:
    edits: dict[str, str | None] = {"changelogs/changelog.yaml": "ancestor: 1.1.0\nreleases: {}\n"} if changelog \
        else {"kernel.c": "int t;\n"}
    found = _fragments_then(repo, ANTSIBULL, edits, "kernel: tune",
                            older={"changelogs/changelog.yaml": "ancestor: 1.0.0\nreleases: {}\n", **left})
    assert found[301]["severity"] == "warning"


TOX = "jobs:\n  test:\n    env:\n      PYTEST_REQPASS: {count}\n    steps:\n      - run: tox -e {env}\n"


def _counted(repo: Repo, counts: list[int], last_env: str = "py") -> dict:
    """Each PR in turn sets the workflow's expected test count (COUNTS; the last one runs LAST_ENV); the change
    writes the file as the PR before the last one left it, beside its own work."""
    old = seed(repo)
    for number, count in enumerate(counts, start=300):
        env = last_env if number == 299 + len(counts) else "py"
        land(repo, f"feat: rule {number} (#{number})", {".github/workflows/tox.yml": TOX.format(count=count, env=env),
                                                       f"src/rule{number}.py": body(f"rule{number}", 3)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: supported versions (#399)", {".github/workflows/tox.yml": TOX.format(count=counts[-2], env="py"),
                                                   "src/mod1.py": old["src/mod1.py"] + body("versions", 3)}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize(("counts", "severity"), [
    ([873, 874, 875, 876], "notice"),  # ansible-lint's PYTEST_REQPASS: two others moved it besides the undone PR
    ([873, 873, 875, 876], "error"),  # one other did: no counter yet
])
def test_a_count_each_pr_sets_put_back_is_a_counter(repo: Repo, counts: list[int], severity: str) -> None:
    found = _counted(repo, counts)
    assert found[303]["severity"] == severity, found[303]["reason"]


def test_a_count_put_back_with_another_line_is_no_counter(repo: Repo) -> None:
    found = _counted(repo, [873, 874, 875, 876], last_env="py312")
    assert found[303]["severity"] == "error"


@pytest.mark.parametrize(("path", "written", "subject", "severity"), [
    # release-please's `an empty test.cfg is required for kokoro`
    (".kokoro/node10/test.cfg", "", "build: an empty test.cfg is required", "notice"),
    (".kokoro/node10/test.cfg", "", "build: tune the kernel", "error"),  # riding along with other work
    (".kokoro/node10/test.cfg", "env_vars: {\n  key: \"upload\"\n  value: \"true\"\n}\n",
     "build: an empty test.cfg is required", "warning"),  # lines back (titled after the file: a warning)
    ("pkg/__init__.py", "", "build: an empty __init__.py is required", "warning"),  # a marker: its presence is work
])
def test_an_empty_file_written_where_a_commit_deleted_it(repo: Repo, path: str, written: str, subject: str,
                                                        severity: str) -> None:
    seed(repo)
    land(repo, "build: kokoro config (#300)", {path: ""})
    land(repo, "build: upload coverage (#301)", {path: "env_vars: {\n  key: \"upload\"\n  value: \"true\"\n}\n"})
    land(repo, "build: move the upload to the common config (#302)", {path: None})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {path: written, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert max(f["severity"] for f in found.values() if f["severity"] != "info") == severity, found


WORKFLOW = "jobs:\n  test:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n{node}      - run: npm test\n"
DOCS = "on:\n  push:\n    branches:\n      - main\njobs:\n  docs:\n    runs-on: ubuntu-latest\n"


@pytest.mark.parametrize(("markers", "severity"), [(True, "notice"), (False, "error")])
def test_a_repair_of_a_merge_that_committed_conflict_markers(repo: Repo, markers: bool, severity: str) -> None:
    # mongoose's `Merge branch '7.x'` committed `<<<<<<< HEAD` in one workflow and mangled another's
    # `branches:`; the repair puts both back: no one's work (without the markers, the same undo fails)
    seed(repo)
    land(repo, "ci: workflows", {".github/workflows/test.yml": WORKFLOW.format(node="          node-version: 22\n"),
                                 ".github/workflows/docs.yml": DOCS})
    node = ("<<<<<<< HEAD\n          node-version: 22\n=======\n          node-version: 20\n>>>>>>> 7.x\n" if markers
            else "          node-version: 20\n")
    land(repo, "Merge branch '7.x' (#301)", {".github/workflows/test.yml": WORKFLOW.format(node=node),
                                            ".github/workflows/docs.yml": DOCS.replace("      - main\n", "ubuntu\n")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: fix merge", {".github/workflows/test.yml": WORKFLOW.format(node="          node-version: 22\n"),
                                    ".github/workflows/docs.yml": DOCS, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


CHLOGGEN = ("# Use this changelog template to create an entry for release notes.\n"
            "# One of 'breaking', 'deprecation', 'new_component', 'enhancement', 'bug_fix'\n"
            "change_type: bug_fix\n\n# The name of the component, or a single word describing the area of concern\n"
            "component: connector\n\n# A brief description of the change.\nnote: Stop leaking the DNS resolver\n\n"
            "# Mandatory: One or more tracking issues related to the change.\nissues: [301]\n\n"
            "# Optional: The change log or logs in which this entry should be included.\nchange_logs: [user]\n")


@pytest.mark.parametrize(("cited", "consumed"), [("301", True), ("999", False)])
def test_a_fragment_whose_own_issue_list_the_release_cites_is_consumed(repo: Repo, cited: str, consumed: bool) -> None:
    # the collector's `Prepare release`: chloggen's template comments outnumber the note, written reworded
    notes = f"## v1.1.0\n\n### Bug fixes\n\n- `connector`: No longer leak a resolver on close (#{cited})\n"
    found = _fragments_then(repo, {".chloggen/resolver-leak.yaml": CHLOGGEN}, {"NEWS.rst": "Changelog\n\n" + notes},
                            "[chore] Prepare release v1.1.0")
    assert (301 not in found) is consumed


APIDIFF = "Comparing source compatibility of exporter-1.49.0-SNAPSHOT.jar against exporter-1.48.0.jar\n"
DETAILS = "".join(f"***  MODIFIED CLASS: PUBLIC FINAL io.exporter.Builder{i}\n+++  NEW METHOD: PUBLIC setExecutor{i}(Service)\n"
                  for i in range(3))


@pytest.mark.parametrize(("versioned", "found"), [(DETAILS, False), ("No changes.\n", True)])
def test_a_block_restored_where_the_change_writes_it_into_another_file_moved(repo: Repo, versioned: str,
                                                                               found: bool) -> None:
    # the OpenTelemetry bot's `Post release for version 1.49.0`: the API diff of the release moves from
    # `current_vs_latest` into the release's own file, `No changes.` back in its place
    seed(repo)
    path = "docs/apidiffs/current_vs_latest/exporter.txt"
    land(repo, "docs: api diffs", {path: APIDIFF + "No changes.\n"})
    land(repo, "Add support for setting the exporter's executor (#301)", {path: APIDIFF + DETAILS})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Post release for version 1.49.0", {path: APIDIFF.replace("1.49.0-SNAPSHOT", "1.50.0-SNAPSHOT")
                                                   .replace("1.48.0", "1.49.0") + "No changes.\n",
                                                   "docs/apidiffs/1.49.0_vs_1.48.0/exporter.txt": APIDIFF + versioned,
                                                   "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found


def _own_hunk_put_back(repo: Repo, modules: int, author: str, trailer: str = "") -> dict:
    """Carol's #301 retunes one line in each of MODULES modules; AUTHOR's next PR works on `mod0` and puts
    that module's line back as it was."""
    old = seed(repo)
    lines = {i: old[f"src/mod{i}.py"].splitlines(keepends=True) for i in range(modules)}
    land(repo, "perf: retune the scales (#301)", {
        f"src/mod{i}.py": "".join(text[:2] + [text[2].replace("scale=14", "scale=15")] + text[3:])
        for i, text in lines.items()}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: pager (#302)" + trailer, {"src/mod0.py": old["src/mod0.py"] + body("pager", 3)}, author=author)
    return by_pr(check(repo, "main..topic")[1])


@pytest.mark.parametrize(("modules", "severity"), [(6, "warning"), (7, "notice")])
def test_a_hunk_of_the_authors_own_commit_put_back_under_a_sixth_of_it_is_that_work_revised(
        repo: Repo, modules: int, severity: str) -> None:
    # an author's next PR putting back one retuned line of their own 7-module commit (a hunk or two of it,
    # the rest kept: 111 warnings on the judged rounds, 2 real); a sixth of it or more still warns
    found = _own_hunk_put_back(repo, modules, CAROL)[301]
    assert found["severity"] == severity
    assert found["undone_lines"] * modules == found["touched_lines"]


def test_a_hunk_of_someone_elses_commit_put_back_under_a_sixth_of_it_still_warns(repo: Repo) -> None:
    assert _own_hunk_put_back(repo, 11, BOB)[301]["severity"] == "warning"


def test_a_co_author_trailer_does_not_make_the_commit_the_changes_own(repo: Repo) -> None:
    # GitHub's squash names whoever pushed to the branch (an `Update branch` merge too): litestar's stale
    # #1911, co-authored by the author of the `.pre-commit-config.yaml` change it overwrote
    found = _own_hunk_put_back(repo, 11, BOB, f"\n\nCo-authored-by: {CAROL}")[301]
    assert found["severity"] == "warning"


def _block_moved_out(repo: Repo, moved: bool) -> dict:
    """#301 adds a config check to mod1, #302 renames its variable; the change takes the block out of mod1
    (mod1 as it was before #301) and writes it, as #302 left it, into mod2 (MOVED), or new lines there."""
    old = seed(repo)
    check_block = "".join(f"    if config.limit_{i} is not None and config.limit_{i} != {i}.0:\n"
                          f"        config.sample_{i} = True\n" for i in range(3))
    land(repo, "fix: check the generation config (#301)",
         {"src/mod1.py": old["src/mod1.py"] + "def export(config):\n" + check_block}, author=BOB)
    renamed = check_block.replace("config.", "gen_config.")
    land(repo, "refactor: gen_config (#302)",
         {"src/mod1.py": old["src/mod1.py"] + "def export(config):\n" + renamed}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    written = "def patch(gen_config):\n" + (renamed if moved else body("patched", 6))
    land(repo, "fix: patch the model's config (#303)",
         {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"] + written}, author=BOB)
    return by_pr(check(repo, "main..topic")[1])


def test_a_block_moved_whole_into_another_file_as_later_commits_left_it_is_no_rollback(repo: Repo) -> None:
    # LLaMA-Factory's generation-config check, renamed after its PR, moved into `patcher.py`: not #301 undone
    found = _block_moved_out(repo, moved=True)
    assert 301 not in found and 302 not in found


def test_the_file_put_back_while_other_lines_are_written_elsewhere_fails(repo: Repo) -> None:
    assert _block_moved_out(repo, moved=False)[301]["severity"] == "error"


ANSIBLE_FRAGMENT = ("bugfixes:\n  - s3_object - honor headers for content uploads by promoting supported keys\n"
                    "    (https://github.com/ansible-collections/amazon.aws/pull/301).\n")


@pytest.mark.parametrize(("edits", "reported"), [
    ({"changelogs/changelog.yaml": "releases:\n  1.1.0:\n    fragments:\n    - s3_object-content-headers.yml\n"},
     False),  # amazon.aws' `Update main branch after publishing release`: the release lists it by name
    ({"plugins/modules/s3_object.py": "content = None\n"}, True),  # a stale tree's deletion
])
def test_ansible_changelog_fragments_listed_by_the_release_are_consumed(repo: Repo, edits: dict[str, str | None],
                                                                       reported: bool) -> None:
    found = _fragments_then(repo, {"changelogs/fragments/s3_object-content-headers.yml": ANSIBLE_FRAGMENT}, edits,
                            "Update main branch after publishing release 1.1.0")
    assert (301 in found) is reported


@pytest.mark.parametrize(("edits", "reported"), [
    ({}, False),  # timescale's `reset .unreleased` after a release written on its branch: fragments alone go
    ({".unreleased/pr_300": "Fixes: #300 Close the pool\n"}, False),  # and one left edited
    ({"kernel.c": "int t;\n"}, True),  # beside work of its own: a stale tree's deletion
    ({".unreleased/pr_302": "Fixes: #302 Tune the kernel\n"}, True),  # beside its own new fragment
])
def test_a_change_deleting_only_fragments_is_a_release_step(repo: Repo, edits: dict[str, str | None],
                                                           reported: bool) -> None:
    fragments = {".unreleased/pr_301": "Fixes: #301 Fix the connector leaking a DNS resolver on early close\n",
                 ".unreleased/pr_301_docs": "Implements: #301 Document the resolver's lifetime\n"}
    found = _fragments_then(repo, fragments, edits, "Follow up: 1.1.0 release - reset .unreleased",
                            older={".unreleased/pr_300": "Fixes: #300 Close the pool early\n"})
    assert (301 in found) is reported


LEAK = "Fix the connector leaking a DNS resolver on early close"


@pytest.mark.parametrize(("fragment", "edits", "subject", "reported"), [
    # purescript's release folds `CHANGELOG.d/` into CHANGELOG.md
    ({"CHANGELOG.d/fix_resolver-leak.md": f"* {LEAK}\n"},
     {"CHANGELOG.md": f"## 1.1.0\n\nBugfixes:\n\n* {LEAK} (#301 by @bob)\n"}, "Prep 1.1.0 release", False),
    ({"CHANGELOG.d/fix_resolver-leak.md": f"* {LEAK}\n"}, {"kernel.c": "int t;\n"}, "kernel: tune", True),  # a stale tree's
    # scanpy's release folds them into the version's page
    ({"docs/release-notes/301.fix.md": f"{LEAK}\n"}, {"docs/release-notes/1.1.0.md": f"### 1.1.0\n\n- {LEAK} {{pr}}`301`\n"},
     "docs: generate 1.1.0 release notes", False),
    ({"docs/release-notes/301.fix.md": f"{LEAK}\n"}, {"kernel.c": "int t;\n"}, "kernel: tune", True),
])
def test_fragments_folded_into_a_changelog_or_a_versions_page_are_consumed(
        repo: Repo, fragment: dict[str, str], edits: dict[str, str | None], subject: str, reported: bool) -> None:
    assert (301 in _fragments_then(repo, fragment, edits, subject)) is reported


CI_WORKFLOW = ("name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
               "      - uses: actions/checkout@v4\n      - run: make test\n")
MATRIX = "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]"


@pytest.mark.parametrize(("author", "path", "days", "taken_back"), [
    (BOB, ".github/workflows/ci.yml", 1, True),  # pgadmin's CI matrix tried and taken back by its author
    (BOB, ".gitlab-ci.yml", 14, True),
    (BOB, ".azure-pipelines.yml", 1, True),  # geos' hidden name for Azure's pipeline
    (BOB, "ci/azure-pipelines-notes.md", 1, False),
    (BOB, "Build/Azure/pipelines/default.yml", 1, True),  # linq2db's `fix ci` taking back its own parameters
    (BOB, "eng/pipelines/templates/build.yml", 1, True),
    (BOB, "src/pipelines/etl.py", 1, False),  # a data pipeline's code
    (CAROL, ".github/workflows/ci.yml", 1, False),  # another's setting undone: judged as any file
    (BOB, ".github/workflows/ci.yml", 15, False),  # weeks on: no trial and error
    (BOB, "deploy/app.yml", 1, False),  # no CI service's file
])
def test_an_authors_own_ci_setting_taken_back_within_days_is_a_notice(
        repo: Repo, author: str, path: str, days: int, taken_back: bool) -> None:
    seed(repo)
    land(repo, "ci: workflow", {path: CI_WORKFLOW}, author=DAVE)
    land(repo, "ci: run the tests on macOS too (#301)", {path: CI_WORKFLOW.replace("runs-on: ubuntu-latest", MATRIX)})
    repo._tick += days * 24 - 1
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix ci", {path: CI_WORKFLOW}, author=author)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert (found["severity"] == "notice") is taken_back, found["reason"]


PROTO = 'syntax = "proto3";\nmessage Metric {\n  string name = 1;\n  double value = 2;\n}\n'
PB_GO = "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n" + "".join(
    f"var fileDescriptor_{i} = []byte{{0x{i:02x}, 0x1f, 0x8b}}\n" for i in range(8))


@pytest.mark.parametrize(("proto", "severity"), [
    # keda's gRPC stubs regenerated by a dependency bump, more of them than headers are read: protoc's output
    # weighs as built by its name
    (False, "notice"),
    (True, "error"),  # the `.proto` put back beside them: its lines carry the evidence
])
def test_protoc_output_weighs_as_built_and_its_proto_as_source(repo: Repo, proto: bool, severity: str) -> None:
    seed(repo)
    stubs = [f"api/metrics{i}.pb.go" for i in range(5)]
    land(repo, "api: metrics", {"api/metrics.proto": PROTO, **{path: PB_GO for path in stubs}})
    land(repo, "api: metric labels (#301)", {"api/metrics.proto": PROTO.replace("}\n", "  string labels = 3;\n}\n"),
                                            **{path: PB_GO.replace("0x1f", "0x2e") for path in stubs}}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: bump deps", {**{path: PB_GO for path in stubs}, **({"api/metrics.proto": PROTO} if proto else {}),
                                    "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_headers_are_read_past_files_already_weighed_as_built(repo: Repo) -> None:
    # keda's bump: gRPC stubs and vendored files, notices by their names, beside one generated file whose header
    # says so: the header-read cap counts only the files whose evidence still weighs
    seed(repo)
    header = "// Code generated by controller-gen. DO NOT EDIT.\npackage v1alpha1\n"
    types = header + "".join(f"func (in *Spec{i}) DeepCopy() *Spec{i} {{ return in }}\n" for i in range(8))
    bundles = {f"dist/app{i}.js": f"var app{i} = 1;\n" for i in range(4)}
    land(repo, "api: types", {"apis/zz_generated.deepcopy.go": types, **bundles})
    land(repo, "feat: formula (#301)", {"apis/zz_generated.deepcopy.go": types + "func (in *Formula) DeepCopy() *Formula { return in }\n",
                                       **{path: text + "var formula = 2;\n" for path, text in bundles.items()}}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: bump deps", {"apis/zz_generated.deepcopy.go": types, **bundles, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "notice"


CATALOG = "".join(f'#: src/app.c:{10 * i}\nmsgid "Message number {i} of the dialog"\nmsgstr ""\n"Mensagem número {i} "\n'
                  f'"do diálogo"\n\n' for i in range(6))
FUZZY = CATALOG.replace("#: src/app.c:10\n", "#: src/app.c:10\n#, fuzzy\n").replace("#: src/app.c:20\n", "#: src/app.c:20\n#, fuzzy\n")


def _one_line(catalog: str) -> str:
    return catalog.replace(' "\n"do diálogo"', ' do diálogo"')


@pytest.mark.parametrize(("topic", "reported"), [
    # incus' `make update-po` after a Weblate commit: references renumbered, Weblate's one-line texts wrapped
    # again as msgmerge wraps them, the translator's new text kept
    (CATALOG.replace("0\nmsgid", "5\nmsgid").replace("Mensagem número 5", "Mensagem 5"), False),
    # penpot's stale squash: the catalog as it was before the translator confirmed two entries
    (FUZZY, True),
])
def test_a_catalogs_tool_written_lines_are_no_translators_work(repo: Repo, topic: str, reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: update templates", {"po/pt.po": FUZZY})
    land(repo, "Translated using Weblate (Portuguese) (#301)",
         {"po/pt.po": _one_line(CATALOG).replace("Mensagem número 5", "Mensagem 5")}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: dialog", {"po/pt.po": topic, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


def _xliff(targets: dict[str, str]) -> str:
    units = "".join(f'      <trans-unit id="u{i}" resname="wizard.{key}">\n        <source>wizard.{key}</source>\n'
                    + (f'        <target state="translated">{targets[key]}</target>\n' if key in targets else "")
                    + "      </trans-unit>\n" for i, key in enumerate(("intro.title", "intro.description", "profile.title",
                                                                      "profile.description", "done.title")))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2">\n  <file target-language="sv">\n    <body>\n{units}    </body>\n  </file>\n</xliff>\n'


@pytest.mark.parametrize(("targets", "reported"), [
    # kimai's Weblate writing `wizard.sv.xlf` anew once a translator starts: the old skeleton, new strings
    ({"intro.title": "Välkommen till Kimai", "done.title": "Grattis"}, False),
    ({}, True),  # the old file back as it was: a stale copy's
])
def test_a_catalog_written_anew_with_translations_it_never_had(repo: Repo, targets: dict[str, str], reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: wizard", {"translations/wizard.sv.xlf": _xliff({}), "translations/wizard.en.xlf": _xliff({"done.title": "Done"})})
    land(repo, "remove empty translation files (#301)", {"translations/wizard.sv.xlf": None, "src/mod1.py": body("i18n", 4)},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Translated using Weblate", {"translations/wizard.sv.xlf": _xliff(targets)}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


HEADED = "# SABnzbd Translation Template\n# Copyright 2007-{} by The SABnzbd-Team (sabnzbd.org)\n#\n# Translators:\n" \
    "# Ana Silva <ana@example.org>, 2024\n#\n" + CATALOG


FIXED = "Mensagem n.º 3"  # a translator's fix that #301 carries too


@pytest.mark.parametrize(("topic", "reported"), [
    # sabnzbd's Transifex pull: the header's copyright year, which the platform writes, set back in each catalog
    (HEADED.format(2025).replace("Mensagem número 3", FIXED), False),
    # the header set back and the translator's fix with it: a translator's work lost
    (HEADED.format(2025), True),
])
def test_a_catalogs_header_comments_set_back_are_no_translators_work(repo: Repo, topic: str, reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: catalogs", {f"po/main/{lang}.po": HEADED.format(2025) for lang in ("pt", "fr")})
    land(repo, "Update copyright to 2026 (#301)", {f"po/main/{lang}.po": HEADED.format(2026).replace("Mensagem número 3", FIXED)
                                                   for lang in ("pt", "fr")}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Update translatable texts [skip ci]", {f"po/main/{lang}.po": topic for lang in ("pt", "fr")}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


LOCALE = "pl:\n  search:\n    title: Szukaj\n    results: Wyniki\n"
BLANKS = "  record:\n    _plural: ''\n    _singular: ''\n  showing: ''\n"


@pytest.mark.parametrize(("added", "reported"), [
    (BLANKS, False),  # archivesspace's Weblate: blank entries, taken out by its `Remove blank strings` hook
    (BLANKS.replace("showing: ''", "showing: 'Pokazano'"), True),  # a translation among them
])
def test_empty_translations_taken_out_lose_nothing(repo: Repo, added: str, reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: Polish", {"public/config/locales/pl.yml": LOCALE})
    land(repo, "public translated using Weblate (Polish) (#301)", {"public/config/locales/pl.yml": LOCALE + added},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Update public translation files", {"public/config/locales/pl.yml": LOCALE}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


NOTED = "".join(f'#. TRANSLATORS: this is a part of phrases "Loading {{}} catalog", "Skipping {{}}"\n#. catalog"\n'
                f'#: src/app.c:{10 * i}\nmsgid "Message number {i} of the dialog"\nmsgstr ""\n"Mensagem número {i} "\n'
                f'"do diálogo"\n\n' for i in range(6))


NOTE_FIX = ("Mensagem número 2 ", "Mensagem n.º 2 ")  # a translator's fix that #301 carries too


@pytest.mark.parametrize(("topic", "reported"), [
    # Celestia's Transifex pulls: the source's translator notes (`#.`, which xgettext extracts) wrapped at
    # another column, as the platform writes them, set back over the developers' regenerated catalog
    (NOTED.replace(*NOTE_FIX), False),
    (NOTED, True),  # the translator's fix set back with them
])
def test_a_catalogs_extracted_notes_are_the_sources(repo: Repo, topic: str, reported: bool) -> None:
    one_line = NOTED.replace('"Skipping {}"\n#. catalog"', '"Skipping {} catalog"').replace(*NOTE_FIX)
    assert _translated_over(repo, NOTED, one_line, topic) is reported


WRAPPED = CATALOG.replace('msgid "Message number 1 of the dialog"', 'msgid ""\n"Activate if controlling the virtual "\n"devices is required."')
TEMPLATED = WRAPPED.replace("#: src/app.c:10\n", "#: src/app.c:10\n#, fuzzy\n").replace(
    '"devices is required."', '"devices by third party applications is required."')


def _translated_over(repo: Repo, catalog: str, commit: str, topic: str) -> bool:
    """#301 writes COMMIT over CATALOG with other work; a translation platform's change writes TOPIC: reported?"""
    seed(repo)
    land(repo, "i18n: catalog", {"po/ro.po": catalog})
    land(repo, "Updated translation template (#301)", {"po/ro.po": commit, "src/mod1.py": body("ui", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Translated using Weblate (Romanian)", {"po/ro.po": topic, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    return found["severity"] in ("warning", "error")


@pytest.mark.parametrize(("commit", "topic", "reported"), [
    # easyeffects' Weblate merge after `Updated translation template`: the entry whose source text changed is
    # translated anew and its fuzzy flag taken out
    (TEMPLATED, TEMPLATED.replace("#, fuzzy\n", "").replace("Mensagem número 1 ", "Ative se aplicativos de terceiros "), False),
    # a translation the commit changed, put back as it was: a translator's text lost
    (WRAPPED.replace("Mensagem número 2", "Mensagem n. 2"), WRAPPED, True),
])
def test_a_fuzzy_flag_a_template_set_taken_out_is_a_translators_confirmation(repo: Repo, commit: str, topic: str,
                                                                              reported: bool) -> None:
    assert _translated_over(repo, WRAPPED, commit, topic) is reported


@pytest.mark.parametrize(("commit", "reported"), [
    # easyeffects' Weblate merge puts back the older template's wrapped source text: its strings continue a
    # `msgid ""` that git names in the hunk's header, msgmerge's to write
    (WRAPPED.replace('"devices is required."', '"devices by third party applications is required."'), False),
    # the wrapped translation's strings continue a `msgstr ""`: a translator's text lost
    (WRAPPED.replace('"Mensagem número 1 "\n"do diálogo"', '"Mensagem número 1 "\n"da janela"'), True),
])
def test_a_wrapped_source_text_set_back_is_the_templates(repo: Repo, commit: str, reported: bool) -> None:
    assert _translated_over(repo, WRAPPED, commit, WRAPPED) is reported


def _entries(*order: int) -> str:
    """CATALOG's entries in ORDER."""
    blocks = CATALOG.strip("\n").split("\n\n")
    return "\n\n".join(blocks[i] for i in order) + "\n"


@pytest.mark.parametrize(("commit", "reported"), [
    # easyeffects' template update re-sorting entries as the sources moved, Weblate's older copy sorting them back
    (_entries(0, 2, 3, 4, 1, 5), False),
    # a translation changed where it stands, put back: a translator's text lost
    (CATALOG.replace('"Mensagem número 1 "', '"Mensagem n. 1 "'), True),
])
def test_catalog_entries_the_commit_only_moved_moved_back_undo_nothing(repo: Repo, commit: str, reported: bool) -> None:
    assert _translated_over(repo, CATALOG, commit, CATALOG.replace("Mensagem número 5", "Mensagem 5")) is reported


GO_MOD = ("module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/ory/pop/v6 v6.1.0\n\tgithub.com/spf13/cobra v1.8.0\n)\n\n"
          "require (\n\tgithub.com/golang-jwt/jwt/v4 v4.5.0 // indirect\n\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n)\n")


@pytest.mark.parametrize(("old", "new", "severity"), [
    # kratos' `go mod tidy` after a bump drops the indirect requirement the commit before had added: tidy's to write
    ("\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n",
     "\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n\tgodebug.org/x v0.2.0 // indirect\n", "notice"),
    ("\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n",
     "\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n\tgithub.com/ory/x v0.0.600\n", "warning"),  # a direct one
    # woodpecker's stale squash lowering an indirect requirement the commit before had raised: a version set back
    ("\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n", "\tgithub.com/inconshreveable/mousetrap v1.2.0 // indirect\n",
     "warning"),
])
def test_go_mods_indirect_requirements_are_tidys_to_write(repo: Repo, old: str, new: str, severity: str) -> None:
    seed(repo)
    land(repo, "deps: go.mod", {"go.mod": GO_MOD})
    land(repo, "feat: godebug (#301)", {"go.mod": GO_MOD.replace(old, new), "src/mod1.py": body("debug", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "docs: describe the module", {"go.mod": "// Package app serves the accounts API.\n" + GO_MOD, "kernel.c": "int t;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("replace", "severity"), [
    # vald's: bbolt required at 1.3.11 again while `replace go.etcd.io/bbolt => go.etcd.io/bbolt v1.4.0` decides the build
    ("\nreplace github.com/spf13/cobra => github.com/spf13/cobra v1.9.1\n", "notice"),
    ("\nreplace github.com/ory/pop/v6 => github.com/ory/pop/v6 v6.2.0\n", "warning"),  # another module's replace
    # a local folder's replace decides nothing for the module's users (opentelemetry-collector's modules)
    ("\nreplace github.com/spf13/cobra => ../cobra\n", "warning"),
])
def test_a_requirement_a_replace_directive_overrides_set_back_loses_nothing(repo: Repo, replace: str, severity: str) -> None:
    seed(repo)
    land(repo, "deps: go.mod", {"go.mod": GO_MOD + replace})
    land(repo, "deps: cobra 1.9 (#301)", {"go.mod": GO_MOD.replace("cobra v1.8.0", "cobra v1.9.0") + replace,
                                          "src/mod1.py": body("cli", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: onion v2 routing", {"go.mod": GO_MOD.replace("cobra v1.8.0", "cobra v1.7.0") + replace,
                                           "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic", "--strict")[1]).get(301, {"severity": "none", "reason": ""})
    assert found["severity"] == severity, found["reason"]


JWT = "\tgithub.com/golang-jwt/jwt/v4 v4.5.0"


@pytest.mark.parametrize(("version", "severity"), [
    # lnd's tidy making `golang/protobuf` indirect again after a bump had listed it among the direct ones
    ("v4.5.0", "notice"),
    # the commit had raised it too: written back at the version before, that is a version set back
    ("v4.6.0", "warning"),
])
def test_a_requirement_tidy_moves_back_among_the_indirect_ones_is_tidys(repo: Repo, version: str, severity: str) -> None:
    direct = GO_MOD.replace(JWT + " // indirect\n", "").replace(
        "\tgithub.com/ory/pop", JWT.replace("v4.5.0", version) + "\n\tgithub.com/ory/pop")
    seed(repo)
    land(repo, "deps: go.mod", {"go.mod": GO_MOD})
    land(repo, "mod: bump jwt users (#301)", {"go.mod": direct.replace("cobra v1.8.0", "cobra v1.9.0"),  # a bump kept
                                               "src/mod1.py": body("jwt", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: onion v2 routing", {"go.mod": GO_MOD.replace("cobra v1.8.0", "cobra v1.9.0"), "kernel.c": "int t;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic", "--strict")[1]).get(301, {"severity": "none", "reason": ""})
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("added", "severity"), [
    # minio-go's release bot leaving stray indirect requirements, taken out with their sums by the next tidy
    ("\tgodebug.org/x v0.2.0 // indirect\n\tgithub.com/sirupsen/logrus v1.7.0 // indirect\n", "notice"),
    ("\tgodebug.org/x v0.2.0 // indirect\n\tgithub.com/sirupsen/logrus v1.7.0\n", "error"),  # a direct one among them
])
def test_go_mod_and_go_sum_put_back_over_indirect_lines_only_are_tidys(repo: Repo, added: str, severity: str) -> None:
    mousetrap = "\tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect\n"
    sums = "".join(f"github.com/mod{i}/x v1.{i}.0 h1:{'ab' * 20}{i}=\n" for i in range(6))
    seed(repo)
    land(repo, "deps: go.mod", {"go.mod": GO_MOD, "go.sum": sums})
    land(repo, "Update version to next release (#301)", {"go.mod": GO_MOD.replace(mousetrap, mousetrap + added),
         "go.sum": sums + f"godebug.org/x v0.2.0 h1:{'cd' * 20}=\n", "src/version.go": "const Version = \"7.0.2\"\n"},
         author=DAVE)
    _stale = {"go.mod": GO_MOD, "go.sum": sums, "kernel.c": "int t;\n"}
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix: retry the upload", _stale, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


CGO = "".join(f"    go_library(\n      name = 'lib{i}',\n      srcs = srcs_{i},\n      tags = tags,\n      visibility = vis,\n    )\n"
              for i in range(4))


@pytest.mark.parametrize(("topic", "severity"), [
    # rules_go's `Propagate restricted_to and compatible_with`: each `tags = tags,` taken out with
    # `**common_attrs` written a line below it, call by call: that code rewritten
    (CGO.replace("      tags = tags,\n      visibility = vis,\n", "      visibility = vis,\n      **common_attrs\n"), "notice"),
    # a stale copy without #301's lines, genuine new work three lines off: nothing written in their place
    (CGO.replace("      tags = tags,\n", "").replace("    )\n", "    )\n    register(rule)\n", 1), "warning"),
])
def test_lines_deleted_with_unlike_lines_written_right_beside_them_are_rewritten(repo: Repo, topic: str,
                                                                                 severity: str) -> None:
    seed(repo)
    plain = CGO.replace("      tags = tags,\n", "")
    land(repo, "cgo: rules", {"go/cgo.bzl": plain})
    land(repo, "Support Objective C libraries in cdeps (#301)", {"go/cgo.bzl": CGO}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Propagate restricted_to in cgo rules", {"go/cgo.bzl": topic, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def _logger(name: str, i: int) -> str:
    return f"func New{i}(opts Options) *Exporter {{\n\treturn &Exporter{{log: opts.{name}, id: {i}}}\n}}\n"


@pytest.mark.parametrize(("own", "sweep", "severity"), [
    # alloy's `Finish up slog migration` naming `SLogger` `Logger` again in every exporter, #301's among them
    (2, True, "notice"),
    # a stale copy of #301's files alone: its rename undone where it made it, nowhere else
    (2, False, "error"),
    (7, False, "error"),  # however many files #301 renamed in
])
def test_a_rename_swept_across_the_code_base_puts_no_commits_words_back(repo: Repo, own: int, sweep: bool,
                                                                        severity: str) -> None:
    seed(repo)
    mine = {f"exporter/own{i}.go": _logger("Logger", i) for i in range(own)}
    others = {f"exporter/ext{i}.go": _logger("SLogger", i) for i in range(6)}
    land(repo, "exporters", {**mine, **others})
    land(repo, "Use slog in the own exporters (#301)", {p: t.replace("opts.Logger", "opts.SLogger") for p, t in mine.items()},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    renamed = {**mine, **({p: t.replace("opts.SLogger", "opts.Logger") for p, t in others.items()} if sweep else {})}
    land(repo, "Finish up the migration" if sweep else "feat: exporter ids", {**renamed, "kernel.c": "int t;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


YARN_VERSIONS = {".yarn/versions/2f1c9a0b.yml": 'releases:\n  "@acme/dialog": patch\n',
                 ".yarn/versions/7d3e5b11.yml": 'releases:\n  "@acme/dialog": patch\n  "@acme/menu": patch\n'}
PACKAGE = '{\n  "name": "@acme/dialog",\n  "version": "1.0.4",\n  "main": "dist/index.js"\n}\n'


@pytest.mark.parametrize(("edits", "reported"), [
    # radix-ui's `New release`: `yarn version apply` consumes every deferred version file and bumps the packages
    ({"packages/dialog/package.json": PACKAGE.replace("1.0.4", "1.0.5")}, False),
    ({"kernel.c": "int t;\n"}, True),  # a stale tree's deletion: no version written anew
])
def test_yarn_deferred_version_files_consumed_by_a_release_are_no_loss(repo: Repo, edits: dict[str, str | None],
                                                                        reported: bool) -> None:
    found = _fragments_then(repo, YARN_VERSIONS, edits, "New release",
                            older={"packages/dialog/package.json": PACKAGE})
    assert (301 in found and found[301]["severity"] in ("warning", "error")) is reported


PULP_FRAGMENTS = {"CHANGES/7479.feature": "Added ML-DSA certificates to the content guard.\n",
                  "CHANGES/+header-too-large.bugfix": "Raised the content app's header size limit.\n"}
PYPROJECT = '[project]\nname = "pulpcore"\nversion = "3.116.0.dev"\n'


@pytest.mark.parametrize(("edits", "subject", "reported"), [
    # pulp's bot `Bump minor version` after branching: the released fragments go (the changelog is written on the
    # release branch), the project's version moves on, the fragments of the next release stay
    ({"pyproject.toml": PYPROJECT.replace("3.116.0.dev", "3.117.0.dev")}, "Bump minor version", False),
    ({"pyproject.toml": PYPROJECT.replace('"pulpcore"', '"pulp-core"')}, "Bump minor version", True),  # no version
    ({"pyproject.toml": PYPROJECT.replace("3.116.0.dev", "3.117.0.dev")}, "Fix the upload path", True),  # no release
])
def test_a_release_bump_deleting_the_released_fragments_is_a_release_step(repo: Repo, edits: dict[str, str | None],
                                                                           subject: str, reported: bool) -> None:
    found = _fragments_then(repo, PULP_FRAGMENTS, edits, subject,
                            older={"pyproject.toml": PYPROJECT, "CHANGES/.TEMPLATE.md": "{% for section in sections %}\n",
                                   "CHANGES/.gitignore": "!.gitignore\n", "CHANGES/7789.feature": "Next release's.\n"})
    assert (301 in found and found[301]["severity"] in ("warning", "error")) is reported


ONE_RUSH_CHANGE = ('{\n    "changes": [\n        {\n            "packageName": "@re-do/node",\n'
               '            "comment": "Fix the resolver leak.",\n            "type": "patch"\n        }\n    ],\n'
               '    "packageName": "@re-do/node"\n}\n')
NODE_PACKAGE = '{\n  "name": "@re-do/node",\n  "version": "0.4.1",\n  "main": "dist/index.js"\n}\n'


@pytest.mark.parametrize(("edits", "subject", "reported"), [
    # arktype's Rush monorepo: `rush version --bump` (`Bump versions.`) consumes the one change file, bumps the package
    ({"pkgs/node/package.json": NODE_PACKAGE.replace("0.4.1", "0.4.2")}, "Bump versions.", False),
    ({"pkgs/node/package.json": NODE_PACKAGE.replace("0.4.1", "0.4.2")}, "chore: bump package versions", False),
    ({"pkgs/node/package.json": NODE_PACKAGE.replace("0.4.1", "0.4.2")}, "Bump versions of the linters", True),  # deps
    ({"pkgs/node/package.json": NODE_PACKAGE.replace('"main"', '"module"')}, "Bump versions.", True),  # no version moved
])
def test_a_release_bump_consuming_one_rush_change_file_is_a_release_step(repo: Repo, edits: dict[str, str | None],
                                                                          subject: str, reported: bool) -> None:
    found = _fragments_then(repo, {"common/changes/@re-do/node/leak_2021-12-04-05-23.json": ONE_RUSH_CHANGE}, edits,
                            subject, older={"pkgs/node/package.json": NODE_PACKAGE})
    assert (301 in found and found[301]["severity"] in ("warning", "error")) is reported, found.get(301)


SKELETON = "Working version changelog, used as a base for the changelog and the release note.\n\n## Global CLI\n\n## Install\n"


def _working_changelog(repo: Repo) -> None:
    """#301 writes its entry into the working changelog, as every PR does."""
    seed(repo)
    land(repo, "changes: skeleton", {"master_changes.md": SKELETON, "CHANGES": "2.5.0:\n* Initial.\n"})
    entry = "  * Re-allow .install files containing '..' [#301 @kit-ty-kate]\n"
    land(repo, "Re-allow .install files containing '..' (#301)",
         {"master_changes.md": SKELETON + entry, "src/mod1.py": body("install", 4)}, author=DAVE)


def _release_written(entries: int) -> dict[str, str | None]:
    """The working changelog back to its skeleton, ENTRIES lines written into the changelog."""
    written = "".join(f"* Entry {i} of the release, reworded\n" for i in range(entries))
    return {"master_changes.md": SKELETON, "CHANGES": f"2.6.0:\n{written}2.5.0:\n* Initial.\n"}


@pytest.mark.parametrize(("subject", "flushed", "reported"), [
    # opam's `Release 2.6.0~alpha1`: master_changes.md back to its skeleton, its entries written into CHANGES
    ("Release 2.6.0", 12, False),
    ("Speed up the solver", 12, True),  # no release: the skeleton back is a stale copy's
    ("Release 2.6.0", 2, True),  # a release that writes no entries: where did they go
])
def test_a_release_flushing_a_working_changelog_into_the_changelog_loses_nothing(repo: Repo, subject: str,
                                                                                 flushed: int, reported: bool) -> None:
    _working_changelog(repo)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, _release_written(flushed), author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


@pytest.mark.parametrize(("title", "reported"), [("Release 2.6.0", False), ("Speed up the solver", True)])
def test_a_merged_prs_title_reads_the_same_in_check_revert_as_in_the_audit(repo: Repo, title: str, reported: bool) -> None:
    # opam's `Merge pull request #7046 from kit-ty-kate/rel-2.6.0-alpha1`, titled `Release 2.6.0~alpha1` in its body
    _working_changelog(repo)
    repo.git("checkout", "-q", "-b", "rel")
    land(repo, "Prepare the release", _release_written(12), author=CAROL)
    repo.git("checkout", "-q", "main")
    merged = merge_pr(repo, "rel", 7046, title)
    found = by_pr(check(repo, f"{merged}^1..{merged}")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


CURRENT = "# Notes of the next release.\nbreaking changes: |\n\nbug fixes: |\n{}\nperformance improvements: |\n"
FIX = "Fixed issue where header modifier doesn't permit multiple values with commas."


@pytest.mark.parametrize(("written", "reported"), [
    # envoy gateway's `v1.6.0 release docs`: the working notes back to their skeleton, each entry in the
    # version's new file without its list marker
    ({"release-notes/v1.6.0.yaml": f"date: November 10, 2025\n\nbug fixes: |\n  {FIX}\n  Fixed a port typo.\n"}, False),
    ({"release-notes/v1.6.0.yaml": "date: November 10, 2025\n\nbug fixes: |\n  Fixed a port typo.\n"}, True),
])
def test_release_notes_moved_into_the_versions_file_without_their_markers_are_kept(repo: Repo, written: dict[str, str],
                                                                                   reported: bool) -> None:
    seed(repo)
    land(repo, "docs: notes", {"release-notes/current.yaml": CURRENT.format("")})
    land(repo, "fix: header modifier permits commas (#301)",
         {"release-notes/current.yaml": CURRENT.format(f" - {FIX}\n"), "src/mod1.py": body("header", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "[release/v1.6] v1.6.0 release docs", {"release-notes/current.yaml": CURRENT.format(""), **written},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


NOTE = ("Fixed ListenerSet not being reconciled when a referenced TLS Secret is\ncreated or updated after the "
        "ListenerSet. Secret watches previously only\nindexed Gateway certificateRefs.\n")


@pytest.mark.parametrize(("written", "reported"), [
    # envoy gateway's `v1.9.0 release docs`: each wrapped note deleted, its text one line of the version's notes
    ({"release-notes/v1.9.0.yaml": "bug fixes: |\n  " + NOTE.replace("\n", " ").strip() + "\n"}, False),
    ({"release-notes/v1.9.0.yaml": "bug fixes: |\n  Fixed a port typo.\n"}, True),
])
def test_a_wrapped_note_moved_as_one_line_is_kept(repo: Repo, written: dict[str, str], reported: bool) -> None:
    seed(repo)
    land(repo, "fix: reconcile ListenerSet on Secret changes (#301)",
         {"release-notes/current/bug_fixes/9614-listenerset-secret.md": NOTE, "src/mod1.py": body("secret", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "[release/v1.9] v1.9.0 release docs", {"release-notes/current/bug_fixes/9614-listenerset-secret.md": None,
                                                      **written}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


def _patch_file(at: int, index: str, value: int, extra: str = "") -> str:
    """A committed patch of a patched source (Paper's `*.patch`): its headers, then the change it makes."""
    return (f"From {'0' * 40} Mon Sep 17 00:00:00 2001\nSubject: [PATCH] Fix the player list\n\n"
            f"diff --git a/src/PlayerList.java b/src/PlayerList.java\nindex {index}..2222222 100644\n"
            f"--- a/src/PlayerList.java\n+++ b/src/PlayerList.java\n@@ -{at},7 +{at},9 @@ class PlayerList {{\n"
            f"     int players = 1;\n+    int limit = {value};\n+    int spare = limit * 2;\n{extra}"
            "     return players;\n")


@pytest.mark.parametrize(("commit", "reported"), [
    # Paper's vineflower upgrade regenerating its patches: only the headers moved; an older base's headers back
    (_patch_file(712, "3333333", 2), False),
    (_patch_file(706, "1111111", 3), True),  # the patched line changed: put back, a fix lost
])
def test_a_committed_patchs_headers_are_its_tools(repo: Repo, commit: str, reported: bool) -> None:
    seed(repo)
    land(repo, "patches: player list", {"patches/0001-fix.patch": _patch_file(706, "1111111", 2)})
    land(repo, "Update vineflower (#301)", {"patches/0001-fix.patch": commit, "src/mod1.py": body("vf", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: spare slots", {"patches/0001-fix.patch": _patch_file(706, "1111111", 2, "+    int extra = 0;\n"),
                                     "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


MAPPER = ("package com.acme.grpc;\n\nimport javax.annotation.Generated;\n\nANNOTATION" +
          "public abstract class AbstractProtoMapper {\n" +
          "".join(f"    public Task{i} fromProto(TaskPb.Task{i} from) {{ return new Task{i}(from.getName()); }}\n" for i in range(8))
          + "}\n")


@pytest.mark.parametrize(("annotation", "severity"), [
    # conductor's ProtoGen output, its class annotated after the imports: regenerated, its methods reordered
    ('@Generated("com.acme.annotationsprocessor.protogen")\n', "notice"),
    ("@Deprecated\n", "error"),  # a hand-written class keeps its lines' weight
])
def test_a_java_class_annotated_as_generated_weighs_as_built(repo: Repo, annotation: str, severity: str) -> None:
    seed(repo)
    mapper = MAPPER.replace("ANNOTATION", annotation)
    land(repo, "grpc: mapper", {"grpc/AbstractProtoMapper.java": mapper})
    extra = "    public Task9 fromProto(TaskPb.Task9 from) { return new Task9(from.getName()); }\n"
    land(repo, "feat: task 9 (#301)", {"grpc/AbstractProtoMapper.java": mapper[:-2] + extra + "}\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: bump deps", {"grpc/AbstractProtoMapper.java": mapper, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def _guessed(n: int, translated: str | None = None) -> str:
    """Entry N as msgmerge adds it for a new source text, its translation guessed from entry 3 under a fuzzy flag
    and the old source text (`#| msgid`); TRANSLATED: as a translator confirms it."""
    if translated is not None:
        return f'#: src/app.c:9{n}\nmsgid "Message number {n} of the window"\nmsgstr "{translated}"\n\n'
    return (f'#: src/app.c:9{n}\n#, fuzzy\n#| msgid "Message number 3 of the dialog"\nmsgid "Message number {n} of the window"\n'
            'msgstr "Mensagem número 3 do diálogo"\n\n')


GUESSES = CATALOG.replace("#: src/app.c:20\n", _guessed(7) + "#: src/app.c:20\n") + _guessed(8) + _guessed(9, "Janela nove")
CONFIRMED = CATALOG.replace("#: src/app.c:20\n", _guessed(7, "Janela sete") + "#: src/app.c:20\n") + \
    _guessed(8, "Janela oito") + _guessed(9, "Janela nove")
FORMATTED = CATALOG.replace('#: src/app.c:40\n', '#: src/app.c:40\n#, python-format\n')


@pytest.mark.parametrize(("base", "commit", "topic", "reported"), [
    # picard's translators on Weblate: msgmerge's guess under a fuzzy flag, with its `#| msgid` (the old source
    # text), written over with the new translation
    (CATALOG, GUESSES, CONFIRMED, False),
    # and a flag set beside another, `#, fuzzy, python-format`, cleared back to `#, python-format`
    (FORMATTED, FORMATTED.replace("#, python-format", "#, fuzzy, python-format").replace("Mensagem número 4 ", "Mensagem n. 4 "),
     FORMATTED.replace("Mensagem número 4 ", "Mensagem número quatro "), False),
    # a translation that no fuzzy flag marked as a guess, taken out: a translator's text lost
    (CATALOG, CATALOG.replace('"Mensagem número 3 "\n"do diálogo"', '"Mensagem número 3 "\n"da janela"'),
     CATALOG, True),
])
def test_a_fuzzy_guess_written_over_is_a_translators_confirmation(repo: Repo, base: str, commit: str, topic: str,
                                                                  reported: bool) -> None:
    assert _translated_over(repo, base, commit, topic) is reported


PO_HEADER = ('msgid ""\nmsgstr ""\n"Project-Id-Version: PACKAGE VERSION\\n"\n"POT-Creation-Date: 2020-05-09 21:41+0200\\n"\n'
             '"Language: pl\\n"\n"MIME-Version: 1.0\\n"\n"Generated-By: Babel 2.7.0\\n"\n\n')


@pytest.mark.parametrize(("translation", "reported"), [
    # ihatemoney's `pybabel update` over a Weblate commit: the header's generator written back, the text kept
    ("Terceira mensagem ", False),
    ("Mensagem número 3 ", True),  # and the translator's text with it: lost
])
def test_a_catalogs_header_fields_are_its_tools_bookkeeping(repo: Repo, translation: str, reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: catalog", {"po/pl.po": PO_HEADER.replace("2.7.0", "2.8.0") + CATALOG})
    land(repo, "Translated using Weblate (Polish) (#301)",
         {"po/pl.po": PO_HEADER + CATALOG.replace("Mensagem número 3 ", "Terceira mensagem ")}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Update i18n", {"po/pl.po": PO_HEADER.replace("2.7.0", "2.8.0") + CATALOG.replace("Mensagem número 3 ", translation),
                               "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


def _work_list(entries: str, locale: str) -> str:
    """slang's `_missing_translations_<locale>.json`: the base language's strings a locale lacks."""
    return f'{{\n  "@@info": [\n    "Here are translations that exist in <en> but not in <{locale}>."\n  ]{entries}\n}}\n'


FAVORITES = ',\n  "general": {\n    "quickSaveFromFavorites": "Sauvegarde rapide des favoris"\n  }'


@pytest.mark.parametrize(("folder", "applied", "severity"), [
    # localsend's `i18n: regenerate` empties the list once the translator's strings are in strings_fr.json
    ("app/assets/i18n", True, "notice"),
    ("app/assets/i18n", False, "error"),  # emptied before anyone applied them: the translation is lost
    ("app/config", True, "error"),  # no translation folder: a copy elsewhere is not the same setting
])
def test_a_translation_work_list_emptied_once_applied_loses_nothing(repo: Repo, folder: str, applied: bool,
                                                                   severity: str) -> None:
    old = seed(repo)
    strings = {locale: '{\n  "general": {\n    "open": "Ouvrir",\n    "save": "Enregistrer"\n  }\n}\n'
               for locale in ("fr", "de")}
    land(repo, "i18n: regenerate", {f"{folder}/strings_{locale}.json": text for locale, text in strings.items()} |
         {f"{folder}/_missing_translations_{locale}.json": _work_list("", locale) for locale in strings})
    english = FAVORITES.replace("Sauvegarde rapide des favoris", "Quick Save for Favorites")
    land(repo, "feat: quick save from favorites", {f"{folder}/_missing_translations_{locale}.json": _work_list(english, locale)
                                                   for locale in strings})
    fr = strings["fr"].replace('"save"', '"quickSaveFromFavorites": "Sauvegarde rapide des favoris",\n    "save"')
    land(repo, "Update _missing_translations_fr.json (#301)", {
        f"{folder}/_missing_translations_fr.json": _work_list(FAVORITES, "fr"),
        **({f"{folder}/strings_fr.json": fr} if applied else {}), "src/mod2.py": old["src/mod2.py"] + "TUNED = 1\n"},
        author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "i18n: regenerate", {f"{folder}/_missing_translations_fr.json": _work_list("", "fr"), "kernel.c": "int t;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def _intents(entries: dict[str, str]) -> str:
    return "{\n" + ",\n".join(f'\t"{key}": "{value}"' for key, value in entries.items()) + "\n}\n"


BASE_INTENTS = {"title": "Intents", "help": "Choose what happens next", "list.empty": "Nothing here yet"}


@pytest.mark.parametrize(("translated", "severity"), [
    # NodeBB's `Latest translations and fallbacks`: the English placeholders a feature copied into every locale
    # (en-GB's text) translated in place
    ({"display.create": "Tạo một chủ đề mới và trả lời ngay trong cùng một cửa sổ soạn thảo",
      "display.reply": "Trả lời bài viết này mà không cần rời khỏi trang đang đọc"}, "notice"),
    # a stale copy: the placeholders taken out and nothing translated in their keys' place
    ({"display.mode": "Chế độ hiển thị của danh sách các ý định trên trang chủ",
      "display.size": "Kích thước của cửa sổ soạn thảo khi mở từ danh sách"}, "warning"),
])
def test_placeholders_copied_from_the_base_language_translated_in_place_lose_nothing(
        repo: Repo, translated: dict[str, str], severity: str) -> None:
    seed(repo)
    vietnamese = {"title": "Ý định", "help": "Chọn điều xảy ra tiếp theo", "list.empty": "Chưa có gì ở đây"}
    land(repo, "i18n: intents", {"public/language/en-GB/intents.json": _intents(BASE_INTENTS),
                                 "public/language/vi/intents.json": _intents(vietnamese)})
    new = {"display.create": "Create a new topic and reply to it at once from the same composer window",
           "display.reply": "Reply to this post without leaving the page you are reading"}
    land(repo, "fix: language keys for new intents feature (#301)", {
        "public/language/en-GB/intents.json": _intents(BASE_INTENTS | new),
        "public/language/vi/intents.json": _intents(vietnamese | new), "src/intents.js": body("intents", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Latest translations and fallbacks", {"public/language/vi/intents.json": _intents(vietnamese | translated),
                                                     "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("bot_writes", "severity"), [
    ("Itr", "error"),  # NodeBB's translation bot putting its typo back over the fix: an edit of it, no translation
    ("ltr", None),  # the fix kept
])
def test_a_fix_of_a_catalogs_setting_put_back_by_a_translation_sync_still_fails(
        repo: Repo, bot_writes: str, severity: str | None) -> None:
    seed(repo)
    language = '{\n\t"name": "{name}",\n\t"code": "{code}",\n\t"dir": "{dir}"\n}\n'
    def catalog(name: str, code: str, direction: str) -> str:
        return language.replace("{name}", name).replace("{code}", code).replace("{dir}", direction)
    land(repo, "i18n: languages", {"public/language/en-GB/language.json": catalog("English (United Kingdom)", "en-GB", "ltr"),
                                   "public/language/hy/language.json": catalog("Armenian (Hayeren)", "hy", "Itr")})
    land(repo, "fix: armenian text direction (#301)", {"public/language/hy/language.json": catalog("Armenian (Hayeren)", "hy", "ltr"),
                                                       "test/i18n.js": body("direction", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Latest translations and fallbacks", {"public/language/hy/language.json": catalog("Armenian (Hayeren)", "hy", bot_writes),
                                                     "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (found and found["severity"]) == severity


@pytest.mark.parametrize(("uses", "severity"), [
    # mainsail's `add missing fields in detail dialog`: the keys `remove unused keys` took out, used again
    ("{{ $t('History.EstimatedFilament') }} {{ $t('History.SlicerVersion') }}", "notice"),
    ("{{ $t('History.EstimatedFilament') }}", "error"),  # one of them used: the other is lost again
    ("{{ job.filament_used }}", "error"),  # none used: a stale copy of the catalog
])
def test_catalog_keys_put_back_for_new_uses_lose_nothing(repo: Repo, uses: str, severity: str) -> None:
    seed(repo)
    keys = {"Filament": "Filament", "EstimatedFilament": "Estimated Filament", "SlicerVersion": "Slicer Version",
            "PrintTime": "Print time"}
    def catalog(names: tuple[str, ...]) -> str:
        return '{\n  "History": {\n' + ",\n".join(f'    "{n}": "{keys[n]}"' for n in names) + "\n  }\n}\n"
    land(repo, "locales", {"src/locales/en.json": catalog(tuple(keys))})
    land(repo, "locale(en): remove unused keys in english locale (#301)",
         {"src/locales/en.json": catalog(("Filament", "PrintTime")), "src/mod1.py": body("locale", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix(history): add missing fields in detail dialog", {
        "src/locales/en.json": catalog(tuple(keys)),
        "src/components/dialogs/HistoryDetailsDialog.vue": f"<template>\n  <div>{uses}</div>\n</template>\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def _api_listed(repo: Repo, shipped: bool, entries: int = 3, annotated: bool = True) -> dict:
    """#301 (Carol's) adds a method, lists it in `PublicAPI.Unshipped.txt` and annotates the shipped list; the
    release takes it out of the unshipped list and writes it into the shipped one (SHIPPED), or a stale tree
    only takes it out."""
    seed(repo)
    api = "".join(f"Lib.Client.Call{i}(string! name) -> void\n" for i in range(6))
    land(repo, "Ship the first API", {"lib/PublicAPI.Shipped.txt": "#nullable enable\n" + api,
                                      "lib/PublicAPI.Unshipped.txt": "#nullable enable\n"})
    new = "".join(f"Lib.Client.Audit{i}(int limit) -> Lib.Sources!\n" for i in range(entries))
    land(repo, "Add audit sources (#301)",
         {"lib/client.cs": "public void Audit(int limit) { }\n",
          "lib/PublicAPI.Shipped.txt": "#nullable enable\n" + api.replace("string!", "string?"),
          "lib/PublicAPI.Unshipped.txt": "#nullable enable\n" + new}, author=CAROL)
    edits = {"lib/PublicAPI.Unshipped.txt": "#nullable enable\n"}
    if shipped:
        edits["lib/PublicAPI.Shipped.txt"] = "#nullable enable\n" + (api.replace("string!", "string?") if annotated else api) + new
    land(repo, "Ship public APIs for 6.10 (#302)", edits)
    return by_pr(check(repo, "HEAD^..HEAD")[1])


def test_entries_moved_into_a_file_the_commit_that_wrote_them_changed_too_are_no_rollback(repo: Repo) -> None:
    # NuGet's `Ship public APIs for 6.10`: every unshipped entry moved into `PublicAPI.Shipped.txt`, which
    # the commits that listed them had changed too
    assert 301 not in _api_listed(repo, shipped=True)


def test_entries_only_taken_out_of_the_list_still_fail(repo: Repo) -> None:
    assert _api_listed(repo, shipped=False)[301]["severity"] == "error"


@pytest.mark.parametrize(("entries", "moved"), [(3, True), (2, False)])
def test_only_a_block_moves_into_another_of_the_commits_files(repo: Repo, entries: int, moved: bool) -> None:
    # a line or two the commit wrote is its own pattern, written again anywhere it wrote (privacyidea's merge
    # putting `if (result)` back while its new code tests `result?.confirmed`); the stale shipped list here
    # undoes #301's annotations too, so that #301 is reported either way
    found = _api_listed(repo, shipped=True, entries=entries, annotated=False)[301]
    assert ("lib/PublicAPI.Unshipped.txt" not in found["paths"]) is moved, found["paths"]


def test_a_stale_copy_of_a_move_puts_the_lines_back_where_they_were_taken_from(repo: Repo) -> None:
    # #301 moves a block from mod1 into mod2; the stale tree takes it out of mod2 and puts it back in mod1:
    # the lines written into mod1 are the ones #301 took out of it, no move of the change's own
    old = seed(repo)
    kept, block = old["src/mod1.py"].splitlines(keepends=True)[:2], old["src/mod1.py"].splitlines(keepends=True)[2:]
    land(repo, "Move the retry loop into mod2 (#301)",
         {"src/mod1.py": "".join(kept), "src/mod2.py": old["src/mod2.py"] + "".join(block)}, author=CAROL)
    land(repo, "Tune the kernel (#302)", {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"],
                                          "kernel.c": old["kernel.c"] + "int tuned;\n"})
    assert by_pr(check(repo, "HEAD^..HEAD")[1])[301]["severity"] == "error"



def _qt(units: dict[str, str | None], moved: int = 0) -> str:
    """A Qt Linguist catalog: each source text with its translation (None: left to translate,
    `type="unfinished"`); MOVED shifts the source lines lupdate writes down."""
    body_ = "".join(f'    <message>\n        <location filename="../config.ui" line="{20 * i + moved}"/>\n'
                    f"        <source>{source}</source>\n"
                    + ('        <translation type="unfinished"></translation>\n' if text is None
                       else f"        <translation>{text}</translation>\n")
                    + "    </message>\n" for i, (source, text) in enumerate(units.items()))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de">\n<context>\n'
            f"    <name>Config</name>\n{body_}</context>\n</TS>\n")


QT_UNITS = {"Mount the device": "Das Gerät einhängen", "Eject the device": "Das Gerät auswerfen",
            "When a device is connected :": "Wenn ein Gerät verbunden ist:"}


@pytest.mark.parametrize(("undone", "reported"), [
    # lxqt-panel's lupdate run: a source text lost its space, so its translation was left to do again; the
    # translator's Weblate commit filled it in as it was
    ({**QT_UNITS, "When a device is connected :": None}, False),
    # a translation corrected, set back by the topic: a translator's fix lost
    ({**QT_UNITS, "When a device is connected :": "Wenn ein Gerät angeschlossen ist:"}, True),
])
def test_qt_translations_filled_in_again_lose_nothing(repo: Repo, undone: dict[str, str | None], reported: bool) -> None:
    seed(repo)
    path = "plugin-mount/translations/mount_de.ts"
    land(repo, "i18n: German", {path: _qt(QT_UNITS)})
    spaced = {key.replace(" :", ":") if value is None else key: value for key, value in undone.items()}
    land(repo, "Translation update (#301)", {path: _qt(spaced), "src/mod1.py": body("i18n", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    filled = {key: QT_UNITS.get(key, QT_UNITS.get(key.replace(":", " :"))) for key in spaced}
    land(repo, "Translated using Weblate (German)", {path: _qt(filled)}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


@pytest.mark.parametrize(("topic", "reported"), [
    # lxqt-panel's `Updated *.ts files`: a source text rewritten, lupdate leaving its new translation to do
    # again, and writing its no-break spaces as `&#xa0;` where Weblate had written the character
    ({"Mount the device": "Das Gerät einhängen", "Eject the medium": None,
      "When a device is connected:": "Wenn ein Gerät verbunden ist&#xa0;:"}, False),
    # the same translation left to do again with its source text unchanged: a stale copy's
    ({**QT_UNITS, "Eject the device": None}, True),
])
def test_qt_units_left_to_translate_again_lose_nothing(repo: Repo, topic: dict[str, str | None], reported: bool) -> None:
    seed(repo)
    path = "translations/panel_fr.ts"
    blank = {**QT_UNITS, "Eject the device": None, "When a device is connected:": "Wenn ein Gerät verbunden ist&#xa0;:"}
    del blank["When a device is connected :"]
    land(repo, "i18n: French", {path: _qt(blank)})
    land(repo, "Weblate commit (#301)",
         {path: _qt({**blank, "Eject the device": "Das Gerät auswerfen",
                     "When a device is connected:": "Wenn ein Gerät verbunden ist\u00a0:"})}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    if reported:
        topic = blank  # (its own no-break space written back as a reference, as the stale copy had it)
    land(repo, "Updated *.ts files", {path: _qt(topic, moved=2), "src/mod1.py": body("lupdate", 4)}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


def _po(entries: list[tuple[str, str, str]], obsolete: tuple[tuple[str, str], ...] = ()) -> str:
    """A gettext catalog: (flags, source text, translation) per entry, then obsolete (source, translation) ones."""
    live = "".join(f"#: src/screenshot.vala:{10 * i}\n" + (f"#, {flags}\n" if flags else "") +
                   f'msgid "{source}"\nmsgstr "{text}"\n\n' for i, (flags, source, text) in enumerate(entries))
    return live + "".join(f'#~ msgid "{source}"\n#~ msgstr "{text}"\n\n' for source, text in obsolete)


SHOTS = [("", "Screenshot taken", "Képernyőkép elkészült"), ("c-format", "Screenshot from %s", "Képernyőkép %s"),
         ("", "Save to Pictures", "Mentés a Képekbe")]
OPEN = ("c-format", "Open in %s", "Megnyitás ebben: %s")


@pytest.mark.parametrize(("topic", "reported"), [
    # gala's `Update translation files`: `Open in %s` left the sources, so msgmerge kept its translation as an
    # obsolete entry
    (_po(SHOTS, obsolete=(OPEN[1:],)), False),
    (_po([*SHOTS, OPEN[:2] + ("",)]), True),  # the translation blanked where it stood: a stale copy's
])
def test_a_translation_kept_in_an_obsolete_entry_is_no_loss(repo: Repo, topic: str, reported: bool) -> None:
    seed(repo)
    land(repo, "i18n: Hungarian", {"po/hu.po": _po([*SHOTS, OPEN[:2] + ("",)])})
    land(repo, "Translated using Weblate (Hungarian) (#301)", {"po/hu.po": _po([*SHOTS, OPEN])}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Update translation files", {"po/hu.po": topic, "src/mod1.py": body("pot", 4)}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)


@pytest.mark.parametrize(("stale", "reported"), [
    # gala's Polish translator confirming `Show in %s` (`#, fuzzy, c-format` made `#, c-format`) the day after a
    # template update took `Open in %s` with its `#, c-format` out: a format flag is xgettext's
    (False, False),
    (True, True),  # and a translation the update took out put back: a stale copy's
])
def test_a_format_flag_written_again_is_no_translators_work(repo: Repo, stale: bool, reported: bool) -> None:
    seed(repo)
    shown, untranslated = ("fuzzy, c-format", "Show in %s", "Pokaż w Plikach"), OPEN[:2] + ("",)
    land(repo, "i18n: Polish", {"po/pl.po": _po([*SHOTS, shown, untranslated])})
    land(repo, "Update translation files (#301)", {"po/pl.po": _po([*SHOTS[:2], shown])}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    confirmed = ("c-format", "Show in %s", "Pokaż w %s")
    land(repo, "Translated using Weblate (Polish)",
         {"po/pl.po": _po([*SHOTS, confirmed, untranslated] if stale else [*SHOTS[:2], confirmed])}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})
    assert (found["severity"] in ("warning", "error")) is reported, found.get("reason", found)
