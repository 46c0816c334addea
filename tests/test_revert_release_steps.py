"""Test files named by what they test, and a release's own version steps.

A test file is named by what it tests (`test_websockets.py` by "websocket"), in a change's message and in a
merged branch's own commit that says it removes it. A release that writes its number where a feature left `<<next>>` writes a value, it undoes nothing; a change titled
`Switch docs version back` takes out only version lines a release wrote, as its ritual says.
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import CAROL, DAVE, body, by_pr, check, land, merge_pr, seed


def _topic(repo: Repo, subject: str, edits: dict[str, str | None], author: str = CAROL) -> tuple[int, dict]:
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, edits, author=author)
    code, report = check(repo, "main..topic")
    return code, by_pr(report)


TESTS = "".join(f"def test_socket_{i}():\n    assert connect({i}).open\n" for i in range(6))


@pytest.mark.parametrize(("subject", "severity"), [
    ("Removing WIP websocket stuff to focus on HTTP", "notice"),  # names what the test file tests, singular
    ("Removing WIP stuff to focus on HTTP", "warning"),  # names nothing of it
])
def test_a_test_file_is_named_by_what_it_tests(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "Combine things a bit more (#301)", {"tests/test_websockets.py": TESTS}, author=DAVE)
    code, found = _topic(repo, subject, {"tests/test_websockets.py": None, "src/http.py": body("http", 3)})
    assert found[301]["severity"] == severity, found[301]["reason"]


@pytest.mark.parametrize(("branch_subject", "severity"), [
    # mangum's `Remove CLI from project` inside a websocket PR (`cli` itself is under MIN_NAME: too common a word)
    ("Remove the deployer from project, including in mangum-cli project", "notice"),
    ("Rework the handlers", "warning"),  # the branch says nothing of it
])
def test_a_merged_branch_commit_saying_it_removes_a_test_file_by_what_it_tests(repo: Repo, branch_subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "more coverage (#301)", {"tests/test_deployer.py": TESTS}, author=DAVE)
    repo.git("checkout", "-q", "-b", "ws")
    land(repo, "websocket support", {"src/ws.py": body("ws", 4)}, author=CAROL)
    land(repo, branch_subject, {"tests/test_deployer.py": None}, author=CAROL)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "ws", 46, "(WIP) First pass at websocket support")
    report = check(repo, "HEAD^1..HEAD")[1]
    assert by_pr(report)[301]["severity"] == severity, by_pr(report)[301]["reason"]


DOCS = "= Cops\n\n{rows}\n|===\n\n" + body("doc", 8)
ROW = "| Enabled\n| Yes\n| 2.24\n| {changed}\n"


@pytest.mark.parametrize(("release", "reported"), [
    ("3.8", False),  # rubocop's `Bump version to 3.8.0` writing the number where the feature left `<<next>>`
    ("", True),  # the placeholder taken out with nothing in its place: that line undone
])
def test_a_release_writing_its_number_over_a_placeholder_undoes_nothing(repo: Repo, release: str, reported: bool) -> None:
    seed(repo)
    land(repo, "docs: cops", {"docs/cops.adoc": DOCS.format(rows=ROW.format(changed="-"))})
    land(repo, "Let SpecFilePathFormat use inflections (#301)",
         {"docs/cops.adoc": DOCS.format(rows=ROW.format(changed="<<next>>")), "lib/cop.rb": body("cop", 4)}, author=DAVE)
    rows = ROW.format(changed=release) if release else ROW.replace("| {changed}\n", "")
    code, found = _topic(repo, "Tidy the cops table", {"docs/cops.adoc": DOCS.format(rows=rows), "CHANGELOG.md": "## 3.8.0\n"})
    assert (301 in found and found[301]["severity"] in ("warning", "error")) is reported


@pytest.mark.parametrize(("subject", "severity"), [
    ("Bump version to v2.23.1", "notice"),  # a patch release drops `VersionChanged: "<<next>>"` of its own cops
    ("Tidy the cop configuration", "error"),  # no release: the file as it was before the fix
])
def test_a_release_taking_out_the_next_version_placeholder(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    config = "Cop/Name:\n  Description: Checks names.\n  Enabled: true\n  VersionAdded: '2.23'\n"
    land(repo, "config: the cop", {"config/default.yml": config + body("cfg", 6)})
    land(repo, "Fix the cop's autocorrect (#301)",
         {"config/default.yml": config + "  VersionChanged: \"<<next>>\"\n" + body("cfg", 6)}, author=DAVE)
    code, found = _topic(repo, subject, {"config/default.yml": config + body("cfg", 6), "lib/version.rb": "V = '2.23.1'\n"})
    assert found[301]["severity"] == severity, found[301]["reason"]


ANTORA = "name: rubocop-rspec\ntitle: RuboCop RSpec\nversion: {}\nnav:\n  - modules/ROOT/nav.adoc\n"


@pytest.mark.parametrize(("subject", "severity"), [
    ("Switch docs version back", "notice"),  # rubocop-rspec's ritual after every release
    ("Switch back docs version to master", "notice"),  # rubocop-performance's wording
    ("Update the docs site", "error"),  # says nothing of the version
])
def test_a_title_setting_the_version_back_after_a_release(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "docs: antora", {"docs/antora.yml": ANTORA.format("~")})
    land(repo, "Release v3.10 (#301)", {"docs/antora.yml": ANTORA.format("'3.10'"), "lib/version.rb": "V = '3.10.0'\n"},
         author=DAVE)
    code, found = _topic(repo, subject, {"docs/antora.yml": ANTORA.format("~")})
    assert found[301]["severity"] == severity, found[301]["reason"]


def test_a_title_setting_the_version_back_over_other_lines_still_fails(repo: Repo) -> None:
    seed(repo)
    land(repo, "docs: antora", {"docs/antora.yml": ANTORA.format("~")})
    land(repo, "Release v3.10 (#301)", {"docs/antora.yml": ANTORA.format("'3.10'").replace("RuboCop RSpec", "RSpec"),
                                         "lib/version.rb": "V = '3.10.0'\n"}, author=DAVE)
    code, found = _topic(repo, "Switch docs version back", {"docs/antora.yml": ANTORA.format("~")})
    assert found[301]["severity"] == "error"


MISC = "namespace {{\n// Version number or dev.\nconstexpr std::string_view version = \"{}\";\n}}\n"


@pytest.mark.parametrize(("release", "after", "severity"), [
    ("Stockfish 18 (#301)", "Restore development", "notice"),  # Stockfish's ritual after each release
    ("Updated for the 3.6.10 release. (#301)", "Updated for 3.6.11 development.", "notice"),  # vassal's
    ("Change version to 0.18.1 (#301)", "Return back to 0.19.0-dev for master", "notice"),  # lc0's
    ("Stockfish 18 (#301)", "Tune the search", "error"),  # no release step: the version set back
    ("Improve the search (#301)", "Restore development", "error"),  # the undone commit is no release
    ("Bump version to rc2 (#301)", "Back to snapshot", "notice"),  # qupath's
])
def test_a_release_and_the_step_back_to_development(repo: Repo, release: str, after: str, severity: str) -> None:
    seed(repo)
    land(repo, "misc: version", {"src/misc.cpp": MISC.format("dev")})
    land(repo, release, {"src/misc.cpp": MISC.format("18")}, author=DAVE)
    code, found = _topic(repo, after, {"src/misc.cpp": MISC.format("dev"), "kernel.c": "int t;\n"})
    assert found[301]["severity"] == severity, found[301]["reason"]


@pytest.mark.parametrize(("inner", "severity"), [
    ("Back to snapshot", "notice"),  # qupath's `Merge pull request #807 from petebankhead/dev`, its branch's step
    ("Tune the search", "error"),  # nothing of the branch is a release step
])
def test_a_release_step_inside_the_merged_branch(repo: Repo, inner: str, severity: str) -> None:
    seed(repo)
    land(repo, "misc: version", {"src/misc.cpp": MISC.format("dev")})
    land(repo, "Bump version to rc2 (#301)", {"src/misc.cpp": MISC.format("18")}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, inner, {"src/misc.cpp": MISC.format("dev")})
    land(repo, "Update Gson and Bio-Formats", {"kernel.c": "int t;\n"})
    found = by_pr(check(repo, "main..topic")[1])
    assert found[301]["severity"] == severity, found[301]["reason"]


BUNDLE = "".join(f"function module_{i}(require, exports) {{ exports.m{i} = load({i}); }}\n" for i in range(30))
WRAPPED = BUNDLE.replace("function module_1(", "var module_1 = function(").replace("function module_20(", "var module_20 = function(")


@pytest.mark.parametrize(("subject", "severity"), [
    ("Release 1.1.4", "notice"),  # pug's bundle, rebuilt by another browserify at the next release
    ("Tidy the bundle", "warning"),  # not a release: the release's lines undone
])
def test_a_release_rewriting_lines_the_release_before_wrote(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "Release 1.1.2", {"jade.js": BUNDLE + "// 1.1.2\n"})
    land(repo, "Release 1.1.3 (#301)", {"jade.js": WRAPPED + "// 1.1.3\n"}, author=DAVE)
    # the wrapper put back, the version line written on: line-level evidence
    rebuilt = BUNDLE + "// 1.1.4\n"
    code, found = _topic(repo, subject, {"jade.js": rebuilt, "package.json": '{"version": "1.1.4"}\n'})
    assert found[301]["severity"] == severity, found[301]["reason"]


def test_a_release_putting_the_release_befores_file_back_whole_still_fails(repo: Repo) -> None:
    seed(repo)
    land(repo, "Release 1.1.2", {"jade.js": BUNDLE})
    land(repo, "Release 1.1.3 (#301)", {"jade.js": WRAPPED, "lib/app.js": body("app", 4)}, author=DAVE)
    code, found = _topic(repo, "Release 1.1.4", {"jade.js": BUNDLE, "package.json": '{"version": "1.1.4"}\n'})
    assert found[301]["severity"] == "error", found[301]["reason"]


CHANGES = "Changes\n=======\n\n{}5.2.0 (2021-03-01)\n==================\n\n" + "".join(
    f"- Fix the proxy comparison case {i} (#{i + 100}).\n" for i in range(6))


@pytest.mark.parametrize(("placeholder", "severity"), [
    ("5.3.0a2 (unreleased)\n====================\n\n- Nothing changed yet.\n\n\n", "notice"),  # zest.releaser's
    ("5.3.0a2 (unreleased)\n====================\n\n- Support Python 3.10 proxies.\n\n\n", "warning"),  # an entry
])
def test_a_changelog_placeholder_for_the_next_release_is_written_to_be_replaced(repo: Repo, placeholder: str,
                                                                                severity: str) -> None:
    seed(repo)
    land(repo, "changes", {"CHANGES.rst": CHANGES.format("")})
    land(repo, "Back to development: 5.3.0a2 (#301)", {"CHANGES.rst": CHANGES.format(placeholder)}, author=DAVE)
    # zope.interface's merged fix, its entry written under a heading of its own (the placeholder's gone)
    entry = "5.3.0 (2021-03-19)\n==================\n\n- Fix equality testing of proxied objects.\n\n\n"
    code, found = _topic(repo, "Fix equality testing of proxied objects", {
        "CHANGES.rst": CHANGES.format(entry), "src/declarations.py": body("eq", 3)})
    assert found[301]["severity"] == severity, found[301]["reason"]


NOTES = "Release Notes\n=============\n\n{}" + "".join(f"* Added method `m{i}` to expressions.\n" for i in range(6))
RELEASED = "Version 0.5.0\n-------------\n\n"


@pytest.mark.parametrize(("title", "stale", "severity"), [
    ("Upcoming Version", False, "notice"),  # linopy's: the next entry opens the heading again
    ("Upcoming Version", True, "error"),  # a stale copy: the release's own section gone too
    ("Known Issues", False, "warning"),  # another heading
])
def test_a_changelog_heading_a_release_commented_out_opened_again(repo: Repo, title: str, stale: bool,
                                                                  severity: str) -> None:
    seed(repo)
    heading = f"{title}\n{'-' * len(title)}\n"
    land(repo, "notes", {"doc/release_notes.rst": NOTES.format(heading + "\n\n")})
    # the release closes the heading and names the version its entries ship in
    closed = f".. {title}\n.. {'-' * len(title)}\n"
    land(repo, "update release notes (#301)", {"doc/release_notes.rst": NOTES.format(closed + "\n\n" + RELEASED)},
         author=DAVE)
    entry = "\n* Arithmetic with custom classes.\n\n"
    notes = NOTES.format(heading + entry + ("\n" if stale else "\n" + RELEASED))
    code, found = _topic(repo, "Arithmetic with custom classes", {"doc/release_notes.rst": notes,
                                                                   "src/expressions.py": body("arith", 3)})
    assert found[301]["severity"] == severity, found[301]["reason"]


CARGO = '[workspace]\nmembers = ["iroh", "iroh-relay"]\n\n[workspace.dependencies]\nquinn = "0.11"\nserde = "1.0"\n'
PATCH = ('\n[patch.crates-io]\niroh-quinn = { git = "https://github.com/n0-computer/quinn", branch = "main" }\n'
         'iroh-quinn-udp = { git = "https://github.com/n0-computer/quinn", branch = "main" }\n')


@pytest.mark.parametrize(("subject", "more", "severity"), [
    ("chore: update deps", False, "notice"),  # iroh's: the git override taken out for the released crates
    ("chore: update quinn to 0.12", False, "notice"),  # naming the dependency the override names
    ("Fix the relay's handshake", False, "error"),  # a stale copy says nothing of it
    ("chore: update deps", True, "error"),  # the commit did more than override, and that goes too
])
def test_a_dependency_taken_from_git_then_from_a_release(repo: Repo, subject: str, more: bool, severity: str) -> None:
    seed(repo)
    land(repo, "cargo", {"Cargo.toml": CARGO})
    overridden = (CARGO.replace('serde = "1.0"', 'serde = "1.1"') if more else CARGO) + PATCH
    land(repo, "chore: update to quinn main (#301)", {"Cargo.toml": overridden}, author=DAVE)
    code, found = _topic(repo, subject, {"Cargo.toml": CARGO, "iroh/src/lib.rs": body("relay", 3)})
    assert found[301]["severity"] == severity, found[301]["reason"]


ROBUST_NOTES = ("# Release notes\n\n<!--\nTEMPLATE\n-->\n\n## Master\n\n### New features\n\n{}\n\n### Bugfixes\n\n"
                "*None yet*\n\n### Other\n\n*None yet*\n\n{}## 288.0.0\n\n### Bugfixes\n\n"
                "* Fix the close button not working on DefaultWindow.\n")
ENTRY = "* `LayerSetShader` now supports setting shaders to `null` when using an `object` layer key."


@pytest.mark.parametrize(("filed", "reported"), [
    (True, False),  # RobustToolbox's `Version: 288.1.0`: the placeholder back, the entry filed under the version
    (False, True),  # the placeholder back and the entry nowhere: a stale copy
])
def test_a_release_filing_entries_under_its_version_writes_the_placeholder_back(repo: Repo, filed: bool,
                                                                                  reported: bool) -> None:
    seed(repo)
    land(repo, "notes", {"RELEASE-NOTES.md": ROBUST_NOTES.format("*None yet*", "")})
    land(repo, "Fix LayerSetShader to accept null shader input (#301)",
         {"RELEASE-NOTES.md": ROBUST_NOTES.format(ENTRY, "")}, author=DAVE)
    section = f"## 288.1.0\n\n### New features\n\n{ENTRY}\n\n" if filed else ""
    code, found = _topic(repo, "Version: 288.1.0", {"RELEASE-NOTES.md": ROBUST_NOTES.format("*None yet*", section),
                                                    "version.props": "288.1.0\n"})
    assert (301 in {pr for pr, f in found.items() if f["severity"] != "notice"}) is reported


POM = ("<project>\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>jackson-module-kotlin</artifactId>\n"
       "  <version>{version}</version>\n  <name>Kotlin module for Jackson</name>\n  <scm>\n"
       "    <connection>scm:git:git@github.com:FasterXML/jackson-module-kotlin.git</connection>\n"
       "    <tag>{tag}</tag>\n  </scm>\n" + "".join(f"  <property name=\"p{i}\">value {i}</property>\n" for i in range(8))
       + "</project>\n")


@pytest.mark.parametrize(("written", "tag", "severity"), [
    ("2.11.0-SNAPSHOT", "HEAD", "notice"),  # Maven orders X.rc1 < X-SNAPSHOT < X: the next snapshot after a pre-release
    ("2.12.0-SNAPSHOT", "HEAD", "notice"),  # the next minor's snapshot
    ("2.10.0-SNAPSHOT", "HEAD", "warning"),  # an older line's snapshot: set back
    ("2.11.0.rc1-SNAPSHOT", "HEAD", "warning"),  # the released candidate's own snapshot again: a release undone
])
def test_maven_release_cycles_read_in_mavens_order(repo: Repo, written: str, tag: str, severity: str) -> None:
    # jackson's release flips: `[maven-release-plugin] prepare release ...-2.11.0.rc1` (version and scm tag), then a
    # commit moving the pom on to `2.11.0-SNAPSHOT` and the tag back to HEAD, byte for byte the pom of before
    seed(repo)
    land(repo, "move to 2.11.0.rc1-SNAPSHOT", {"pom.xml": POM.format(version="2.11.0-SNAPSHOT", tag="HEAD")})
    land(repo, "[maven-release-plugin] prepare release jackson-module-kotlin-2.11.0.rc1 (#301)",
         {"pom.xml": POM.format(version="2.11.0.rc1", tag="jackson-module-kotlin-2.11.0.rc1")}, author=DAVE)
    code, found = _topic(repo, "...", {"pom.xml": POM.format(version=written, tag=tag)})
    assert found[301]["severity"] == severity, found[301]["reason"]


ANTORA_CUT = "name: rubocop-ast\ntitle: RuboCop AST\nversion: {}\nnav:\n- modules/ROOT/nav.adoc\n"


@pytest.mark.parametrize(("subject", "severity"), [
    ("Cut 1.31.1", "notice"),  # each release sets the docs version; between releases it names the branch
    ("Tidy the docs", "error"),  # no release: the file put back over the restore
])
def test_a_docs_version_naming_the_branch_between_releases(repo: Repo, subject: str, severity: str) -> None:
    # rubocop-ast's ritual: `Cut X` writes `version: '1.31'`, `Restore docs/antora.yml` writes `master` again
    seed(repo)
    land(repo, "Cut 1.31.0", {"docs/antora.yml": ANTORA_CUT.format("'1.31'")}, author=DAVE)
    land(repo, "Restore docs/antora.yml (#301)", {"docs/antora.yml": ANTORA_CUT.format("master")}, author=DAVE)
    code, found = _topic(repo, subject, {"docs/antora.yml": ANTORA_CUT.format("'1.31'"), "kernel.c": "int t;\n"})
    assert found[301]["severity"] == severity, found[301]["reason"]


INIT = "from .api import dumps, loads\n\n__version__ = \"{}\"\n\n" + body("api", 12)


@pytest.mark.parametrize(("undone", "severity"), [
    ("0.7.0", "notice"),  # tomlkit: #301, a bulk import from an older fork, had set it back; putting 0.7.2 back moves it on
    ("0.7.4", "warning"),  # #301 had moved it on: 0.7.2 again sets it back
])
def test_undoing_a_version_set_back_moves_it_on(repo: Repo, undone: str, severity: str) -> None:
    seed(repo)
    land(repo, "Release 0.7.2", {"tomlkit/__init__.py": INIT.format("0.7.2")}, author=DAVE)
    land(repo, "Merge changes from the fork (#301)", {"tomlkit/__init__.py": INIT.format(undone),
                                                       "tomlkit/items.py": body("items", 8)}, author=DAVE)
    code, found = _topic(repo, "Fix missing re-export of public API", {
        "tomlkit/__init__.py": INIT.format("0.7.2").replace("dumps, loads", "dump, dumps, load, loads")})
    assert found[301]["severity"] == severity, found[301]["reason"]


def test_a_runtime_version_condition_set_back_is_work_not_a_release(repo: Repo) -> None:
    # connection_pool's `if RUBY_VERSION >= "2.7.0"` (from "3.0.0"): undoing it drops Ruby 2.7's support
    seed(repo)
    wrapper = "module Pool\n  if RUBY_VERSION >= \"{}\"\n    def call(*args, **kwargs) = go(*args, **kwargs)\n  end\nend\n"
    land(repo, "Wrapper", {"lib/wrapper.rb": wrapper.format("3.0.0") + body("wrap", 8)}, author=DAVE)
    land(repo, "Support Ruby 2.7 (#301)", {"lib/wrapper.rb": wrapper.format("2.7.0") + body("wrap", 8)}, author=DAVE)
    code, found = _topic(repo, "Tidy the wrapper", {"lib/wrapper.rb": wrapper.format("3.0.0") + body("wrap", 8) + "TIDY = 1\n"})
    assert found[301]["severity"] == "warning", found[301]["reason"]


ZENCART = "<?php\ndefine('PROJECT_VERSION_NAME', 'Zen Cart');\ndefine('PROJECT_VERSION_MAJOR', '{}');\n" \
    "define('PROJECT_VERSION_MINOR', '{}');\ndefine('PROJECT_VERSION_PATCH1', '');\n"


@pytest.mark.parametrize(("major", "minor", "reported"), [
    ("3", "0.0-dev", False),  # zencart's `3.0.0-dev`: the major moved on, the minor starts again
    ("2", "2.0", True),  # the minor alone set back: a stale copy's
    ("1", "0.0", True),  # the major set back too
])
def test_a_major_version_moved_on_starts_the_minor_again(repo: Repo, major: str, minor: str, reported: bool) -> None:
    seed(repo)
    land(repo, "2.2.0", {"includes/version.php": ZENCART.format("2", "2.0")}, author=DAVE)
    land(repo, "Prepare 2.2.1 (#301)", {"includes/version.php": ZENCART.format("2", "2.1")}, author=DAVE)
    code, found = _topic(repo, "Add to 650fca89a", {"includes/version.php": ZENCART.format(major, minor),
                                                     "kernel.c": "int t;\n"})
    assert (found.get(301, {}).get("severity") in ("warning", "error")) is reported, found.get(301)
