"""A release writing the project's own version over the dev marker a development bump put ahead of it.

packaging's `Bump for release` writes `__version__ = "26.0"` over the `26.1.dev2` that `Bump for
development` wrote days before: the release picks its version, and the dev marker was a placeholder. Only
the project's own version key counts, only over a dev or pre-release, only under a title about releases
or versions, and never inside a stale tree; anything else set back keeps its grade.
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import CAROL, DAVE, body, by_pr, check, land, seed

ABOUT = 'NAME = "pkg"\n__version__ = "{}"\n'


def _released_over(repo: Repo, title: str, dev: str = "26.1.dev2", written: str = "26.0", released: str = "25.0",
                   path: str = "pkg/__about__.py", text: str = ABOUT,
                   more: dict[str, str | None] | None = None) -> dict[str, object]:
    """#301 bumps the version to DEV after RELEASED; the checked change, titled TITLE, writes WRITTEN."""
    seed(repo)
    land(repo, "Release", {path: text.format(released)})
    land(repo, "Bump for development (#301)", {path: text.format(dev)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {path: text.format(written), "CHANGELOG.rst": "26.0\n----\n", **(more or {})}, author=CAROL)
    code, report = check(repo, "main..topic")
    found = by_pr(report).get(301, {})
    return {"exit": code, "severity": found.get("severity", "none"), "reason": found.get("reason", "")}


@pytest.mark.parametrize("title", ["Bump for release", "Release", "Fix version number", "chore: prepare the next release"])
def test_a_release_writing_its_version_over_the_dev_marker_is_a_notice(repo: Repo, title: str) -> None:
    found = _released_over(repo, title)
    assert (found["exit"], found["severity"]) == (0, "notice")
    assert "a release writing the project's version over a dev or pre-release marker" in str(found["reason"])


@pytest.mark.parametrize("path, text, versions, severity", [
    # package.json's own version, written back over a pre-release: the release at work
    ("package.json", '{{\n  "name": "pkg",\n  "version": "{}",\n  "private": true\n}}\n',
     ("5.9.0", "6.6.0-beta.1", "6.0.0"), "notice"),
    # kodiak's `Pre release v0.4.16` shape: a release title over another version than the project's own
    ("pubspec.yaml", 'environment:\n  sdk: ">={}"\n', ("2.10.0", "2.13.0-dev", "2.12.0"), "warning"),
])
def test_only_the_projects_own_version_is_the_releases_to_write(repo: Repo, path: str, text: str,
                                                                 versions: tuple[str, str, str], severity: str) -> None:
    released, dev, written = versions
    found = _released_over(repo, "Bump for release", dev=dev, written=written, released=released, path=path, text=text)
    assert found["severity"] == severity


def test_the_rollback_to_the_release_under_any_other_title_fails(repo: Repo) -> None:
    # the same lines under unrelated work: a stale copy of the version file (exactly 25.0, a rollback)
    found = _released_over(repo, "kernel: fuse the prep loop", written="25.0")
    assert (found["exit"], found["severity"]) == (1, "error")


def test_a_release_setting_back_a_final_version_keeps_its_grade(repo: Repo) -> None:
    # 26.1.0 is no marker a release replaces: 26.0 over it undoes a release
    found = _released_over(repo, "Bump for release", dev="26.1.0", written="26.0")
    assert found["severity"] == "warning"


def test_a_release_inside_a_stale_tree_fails(repo: Repo) -> None:
    # a second commit's file put back whole beside it: a stale tree at work, whatever the title says
    old = seed(repo)
    land(repo, "Release 25.0", {"pkg/__about__.py": ABOUT.format("25.0")})
    land(repo, "Bump for development (#301)", {"pkg/__about__.py": ABOUT.format("26.1.dev2")})
    land(repo, "feat: fused kernels (#302)", {"src/mod1.py": old["src/mod1.py"] + "FUSED = 1\n",
                                            "src/mod2.py": old["src/mod2.py"] + "FUSED = 2\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Bump for release", {"pkg/__about__.py": ABOUT.format("25.0"), "src/mod1.py": old["src/mod1.py"],
                                    "src/mod2.py": old["src/mod2.py"], "kernel.c": old["kernel.c"] + "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    print("DBG", [(f["pr"], f["subject"], f["severity"], f["reason"]) for f in report["findings"]])
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


def test_a_release_naming_another_version_than_it_writes_keeps_its_grade(repo: Repo) -> None:
    assert _released_over(repo, "Release 27.0")["severity"] == "warning"


def test_a_release_naming_the_version_it_writes_is_a_notice(repo: Repo) -> None:
    assert _released_over(repo, "Bump for release 26.0")["severity"] == "notice"


RELEASED = '_version_major = 9\n_version_minor = 16\n_version_patch = 1\n_version_extra = ""  # for full releases\n'
DEV = '_version_major = 9\n_version_minor = 17\n_version_patch = 0\n# _version_extra = ""  # for full releases\n'


@pytest.mark.parametrize(("title", "extra", "lowered"), [
    ("release 9.16.2", "", True),  # ipython's release / back-to-dev cycle on its version file
    ("Need to re-try 9.16.2 release", "", True),  # jackson's retried releases
    ("re-do 9.16.2 release", "", True),  # jackson-module-kotlin's
    ("Redo the completer", "", False),  # redoing something else
    ("Setting up Scala 3 release", "", True),  # circe's sbt-release runs for the Scala 3 artifacts
    ("Set up the completer for the release workflow", "", False),  # a setup that is no release step
    ("change version back to 9.17.0-SNAPSHOT", "", True),  # and its Maven dev version put back by hand
    ("Backed version up to 9.16.  Oops.", "", True),  # junit's
    ("Retry the flaky completer test", "", False),  # a retry of something else
    ("Fix the completer", "", False),  # no release step
    ("begin the 9.17.0 release cycle", "", True),  # zls' pin to the compiler release, and back to master
    ("Begin the completer rewrite cycle", "", False),
    ("back to git versioning", "", True),  # rebar3's, right after `bump to 3.7.1`
    ("bump to 9.16.2", "", True),
    ("bump lodash to 4.17.21", "", False),  # a dependency's bump
    ("Change application's version to v9.16.1", "", True),  # Sylius' tag step, and `... to v2.0.0-DEV` after it
    ("Update lodash version to 4.17.21", "", False),
    ("release 9.16.2", "ENABLE_NEW_COMPLETER = True\n", False),  # a line that sets no version comes back too
])
def test_release_steps_both_ways_on_the_version_file(repo: Repo, title: str, extra: str, lowered: bool) -> None:
    seed(repo)
    land(repo, "release 9.16.1", {"IPython/core/release.py": RELEASED + extra})
    land(repo, "back to dev", {"IPython/core/release.py": DEV})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"IPython/core/release.py": RELEASED + extra, "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered


UV_RELEASED = "#define UV_VERSION_PATCH 1\n#define UV_VERSION_IS_RELEASE 1\n#define UV_VERSION_SUFFIX \"\"\n"
UV_DEV = "#define UV_VERSION_PATCH 2\n#define UV_VERSION_IS_RELEASE 0\n#define UV_VERSION_SUFFIX \"dev\"\n"


@pytest.mark.parametrize(("title", "lowered"), [
    ("Now working on version 1.52.2", True),  # libuv's pair of release steps, minutes apart
    ("2026.03.06, Version 1.52.1 (Stable)", True),
    ("unix: fix the pipe flags", False)])
def test_libuvs_stable_release_and_working_on_steps(repo: Repo, title: str, lowered: bool) -> None:
    seed(repo)
    steps = [("Now working on version 1.52.2", UV_DEV), ("2026.03.06, Version 1.52.1 (Stable)", UV_RELEASED)]
    if "Stable" in title:
        steps.reverse()
    for subject, text in steps:
        land(repo, subject, {"include/uv/version.h": text})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"include/uv/version.h": steps[0][1], "kernel.c": "int t;\n"}, author=CAROL)
    findings = check(repo, "main..topic")[1]["findings"]
    assert bool(findings) and ("release steps both" in findings[0]["reason"]) is lowered, findings


@pytest.mark.parametrize(("title", "lowered"), [
    ("Bump to 6.5.0.dev0", True),  # notebook's release bot: publish, then back to the dev version
    ("Back to dev version", True),
    ("Fix the pager (#7001)", False),
])
def test_publish_then_back_to_dev(repo: Repo, title: str, lowered: bool) -> None:
    seed(repo)
    dev = {"notebook/_version.py": "__version__ = '6.5.0.dev0'\n", "pyproject.toml": '[tool.tbump]\ncurrent = "6.5.0.dev0"\n'}
    land(repo, "Bump to 6.5.0.dev0", dict(dev))
    land(repo, "Publish 6.4.8", {"notebook/_version.py": "__version__ = '6.4.8'\n",
                                 "pyproject.toml": '[tool.tbump]\ncurrent = "6.4.8"\n'})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {**dev, "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered


def test_back_to_dev_after_two_releases_is_no_stale_tree(repo: Repo) -> None:
    # notebook's `Bump to 6.5.0.dev0` after `Publish 6.4.5` and `Publish 6.4.6`: two commits put back, both
    # release bookkeeping; a feature's file put back beside them still fails
    old = seed(repo)
    dev = {"notebook/_version.py": "__version__ = '6.5.0.dev0'\n", "pyproject.toml": '[tool.tbump]\ncurrent = "6.5.0.dev0"\n'}
    land(repo, "Bump to 6.5.0.dev0", dict(dev))
    for version in ("6.4.5", "6.4.6"):
        land(repo, f"Publish {version}", {"notebook/_version.py": f"__version__ = '{version}'\n",
                                          "pyproject.toml": f'[tool.tbump]\ncurrent = "{version}"\n'})
    land(repo, "feat: pager (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pager", 5)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Bump to 6.5.0.dev0", {**dev, "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and {f["severity"] for f in report["findings"]} == {"notice"}
    land(repo, "Bump to 6.5.0.dev0", {"src/mod1.py": old["src/mod1.py"]}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 1 and by_pr(report)[301]["severity"] == "error"


@pytest.mark.parametrize(("title", "heading", "lowered"), [
    ("Post-release 0.16.5", "dev\n\n\n", True),  # pipx: the pre-release step takes the heading out, this puts it back
    ("Post-release 0.16.5", "## [Unreleased]\n\n", True),
    ("Fix the completer", "dev\n\n\n", False),  # no release step
    ("Post-release 0.16.5", "- Fixed `pipx list` output phrasing.\n", False),  # an entry, not the heading
])
def test_the_changelog_heading_around_a_release(repo: Repo, title: str, heading: str, lowered: bool) -> None:
    seed(repo)
    land(repo, "start", {"docs/changelog.md": heading + "0.16.4\n\n- Old entry about nothing much.\n"})
    land(repo, "Pre-release 0.16.5", {"docs/changelog.md": "0.16.4\n\n- Old entry about nothing much.\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"docs/changelog.md": heading + "0.16.4\n\n- Old entry about nothing much.\n",
                       "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered


@pytest.mark.parametrize(("title", "after", "lowered"), [
    ("Bump linters and release 0.16.5 (#751)", "Post-release 0.16.5", True),  # a release step named after other work
    ("Bump linters (#751)", "Post-release 0.16.5", False),
    # Pyomo's ritual: `Finalize release 6.7.3`, then `Resetting main for development (6.7.4.dev0)`
    ("Finalize release 0.16.5", "Resetting main for development (0.16.6.dev0)", True),
    ("Finalizing the 0.16.5 release", "Resetting main for development (0.16.6.dev0)", True),
    ("Finalize the linters config", "Resetting main for development (0.16.6.dev0)", False),  # no release
    ("Finalize release 0.16.5", "Resetting the cache for tests", False),  # no development reset
])
def test_a_release_named_after_other_work_is_a_release_step(repo: Repo, title: str, after: str, lowered: bool) -> None:
    seed(repo)
    dev = '__version_info__ = (0, 16, 5, 1, "dev0")\n'
    land(repo, "start", {"src/pipx/version.py": dev})
    land(repo, title, {"src/pipx/version.py": "__version_info__ = (0, 16, 5)\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, after, {"src/pipx/version.py": dev, "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered


@pytest.mark.parametrize(("title", "lowered"), [
    # Kavita's release PRs, named `v0.7.8 - New Filtering System`, set the nightly bot's 0.7.8.1 to the release's own
    ("v0.7.8 - New Filtering System (#2259)", True),
    ("New Filtering System (#2259)", False),  # no release
])
def test_a_release_titled_by_its_version_and_name_is_a_release_step(repo: Repo, title: str, lowered: bool) -> None:
    seed(repo)
    project = "<Project>\n  <PropertyGroup>\n    <AssemblyVersion>{}</AssemblyVersion>\n  </PropertyGroup>\n</Project>\n"
    land(repo, "Version bump for release (#2254)", {"Kavita.Common/Kavita.Common.csproj": project.format("0.7.8.0")})
    land(repo, "Bump versions by dotnet-bump-version.", {"Kavita.Common/Kavita.Common.csproj": project.format("0.7.8.1")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"Kavita.Common/Kavita.Common.csproj": project.format("0.7.8.0"), "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert (finding["severity"] == "notice") is lowered, finding["reason"]


CHANGELOG = "Changelog\n=========\n\n.. towncrier release notes start\n\n"
RELEASED_NOTES = "1.15.1 - 2026-07-15\n-------------------\n\n- Retry fetching a standalone build on a transient CDN error. (#1960)\n\n"
FRAGMENT = "Retry fetching a standalone build on a transient CDN error.\n"


def _unreleased(repo: Repo, title: str, released: str = "Release 1.15.1",
                more: dict[str, str | None] | None = None, fragment: str = FRAGMENT) -> tuple[int, dict[str, object]]:
    """A release folds fragment 1960 into the changelog; the change, titled TITLE, takes that back."""
    land(repo, "Retry the CDN (#1960)", {"changelog.d/1960.bugfix.md": fragment, "docs/changelog.rst": CHANGELOG})
    land(repo, released, {"changelog.d/1960.bugfix.md": None, "docs/changelog.rst": CHANGELOG + RELEASED_NOTES})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"changelog.d/1960.bugfix.md": fragment, "docs/changelog.rst": CHANGELOG,
                       "pyproject.toml": "[tool.towncrier]\ndirectory = 'changelog.d'\n", **(more or {})}, author=CAROL)
    code, report = check(repo, "main..topic")
    return code, {f["subject"]: f for f in report["findings"]}


def test_restoring_the_fragments_a_release_folded_in_is_a_notice(repo: Repo) -> None:
    # pipx's `docs: restore the 1.16.0 changelog fragments`: the release taken back on purpose
    seed(repo)
    code, found = _unreleased(repo, "docs: restore the 1.16.0 changelog fragments (#1961)")
    assert code == 0 and found["Release 1.15.1"]["severity"] == "notice"
    assert "brings back the changelog entries a release folded in" in found["Release 1.15.1"]["reason"]


@pytest.mark.parametrize(("title", "released"), [
    ("docs: fix a typo in the readme (#1961)", "Release 1.15.1"),  # says nothing of it
    ("docs: restore the logo (#1961)", "Release 1.15.1"),  # restores something else
    ("docs: restore the changelog fragments (#1961)", "Tidy the docs (#1959)"),  # no release undone
])
def test_taking_back_a_release_unsaid_fails(repo: Repo, title: str, released: str) -> None:
    seed(repo)
    code, found = _unreleased(repo, title, released=released)
    assert code == 1 and found[released]["severity"] == "error"


def test_a_fragment_brought_back_is_no_release_note_of_the_change(repo: Repo) -> None:
    # attrs' news fragments naming code (``attrs.evolve()``), brought back by a stale tree after a release
    # folded them in: what they say is another change's note, not this change naming what it removes
    seed(repo)
    fragment = "Removed the deprecated ``attrs.validators.provides()`` validator.\n"
    code, found = _unreleased(repo, "docs: fix a typo in the readme (#1961)", fragment=fragment)
    assert code == 1 and found["Release 1.15.1"]["severity"] == "error", found["Release 1.15.1"]["reason"]


def test_restoring_fragments_in_a_stale_tree_still_fails_for_the_feature(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: pager (#301)", {"src/mod1.py": old["src/mod1.py"] + body("pager", 5)})
    code, found = _unreleased(repo, "docs: restore the changelog fragments (#1961)",
                              more={"src/mod1.py": old["src/mod1.py"]})
    assert code == 1 and found["feat: pager (#301)"]["severity"] == "error"
    assert found["Release 1.15.1"]["severity"] == "notice"


NOTE = "---\n'svelte': patch\n---\n\nfix: link offscreen items and last effect in each block correctly\n"


@pytest.mark.parametrize(("subject", "severity"), [
    # svelte: the PR's own changeset, its random name drawn before by another PR a release consumed
    ("fix: link offscreen items and last effect in each block correctly (#17240)", "notice"),
    ("perf: faster keyed each blocks (#17240)", "error"),  # another change's note brought back
])
def test_a_changeset_brought_back_that_says_what_the_change_says(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "fix: offscreen items (#17244)", {".changeset/great-ghosts-unite.md": NOTE, "src/each.js": "link();\n"})
    land(repo, "Version Packages (#17245)", {".changeset/great-ghosts-unite.md": None, "CHANGELOG.md":
                                             "## 5.1.1\n\n- fix: link offscreen items and last effect in each block correctly\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {".changeset/great-ghosts-unite.md": NOTE, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[17245]["severity"] == severity


@pytest.mark.parametrize(("note", "severity"), [
    ("Upgrade embedded wheels:\n\nRemoved wheel of ``0.47.0``\n", "notice"),  # virtualenv's embed upgrade
    ("Upgrade embedded wheels:\n\nAdded pip of ``26.0``\n", "error"),  # names something else
])
def test_a_release_note_naming_what_goes_away(repo: Repo, note: str, severity: str) -> None:
    seed(repo)
    embed = 'BUNDLE = {{\n    "pip-25.3-py3-none-any.whl": "1f2e",\n{}}}\n'
    land(repo, "embed", {"src/embed/__init__.py": embed.format("")})
    land(repo, "Add wheel-0.47.0 to seed packages (#3167)",
         {"src/embed/__init__.py": embed.format('    "wheel-0.47.0-py3-none-any.whl": "2122",\n')})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Upgrade embedded pip/setuptools/wheel (#3168)",
         {"src/embed/__init__.py": embed.format(""), "docs/changelog/u.bugfix.rst": note}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[3167]["severity"] == severity


@pytest.mark.parametrize(("own_pr", "severity"), [
    (677, "notice"),  # django-redis: the PR's fragment, pushed to master by mistake and deleted, back with the PR
    (678, "error"),  # another PR bringing it back: someone else's note
])
def test_a_fragment_named_after_the_changes_own_pr(repo: Repo, own_pr: int, severity: str) -> None:
    seed(repo)
    note = "Fix the readme's settings example.\n"
    land(repo, "Create 677.doc", {"changelog.d/677.doc": note}, author=CAROL)
    land(repo, "Delete 677.doc (#676)", {"changelog.d/677.doc": None}, author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, f"Update README.md (#{own_pr})", {"changelog.d/677.doc": note, "README.md": "settings\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic", own_pr=own_pr)[1])[676]["severity"] == severity


@pytest.mark.parametrize(("name", "severity"), [
    ("@koa/router", "notice"),  # koa-router's rename: the new package's versions start again
    ("koa-router", "warning"),  # the same package, its version set back
])
def test_a_renamed_package_starts_its_versions_again(repo: Repo, name: str, severity: str) -> None:
    seed(repo)
    manifest = '{{\n  "name": "{}",\n  "description": "Router middleware for koa.",\n  "version": "{}",\n  "main": "lib/router.js"\n}}\n'
    land(repo, "7.3.0", {"package.json": manifest.format("koa-router", "7.3.0")})
    land(repo, "7.4.0 (#301)", {"package.json": manifest.format("koa-router", "7.4.0")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "chore: rename to @koa/router", {"package.json": manifest.format(name, "1.0.0"), "kernel.c": "int t;\n"},
         author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def _pom(version: str, tag: str, stamp: str, extra: str = "") -> str:
    return (f"<project>\n  <version>{version}</version>\n  <scm>\n    <tag>{tag}</tag>\n  </scm>\n  <properties>\n"
            f"    <project.build.outputTimestamp>{stamp}</project.build.outputTimestamp>\n    <skip/>\n"
            f"  </properties>\n{extra}</project>\n")


DEV_POM = _pom("2.10.2-SNAPSHOT", "HEAD", "2023-01-01T00:00:00Z")
RELEASE_POM = _pom("2.11.0", "rc-tag", "2024-05-19T17:21:46Z").replace("<skip/>", "<skip></skip>")
NEXT_POM = _pom("2.11.1-SNAPSHOT", "HEAD", "2024-05-19T17:23:39Z")


@pytest.mark.parametrize(("undone", "lowered"), [
    ("[maven-release-plugin] prepare for next development iteration", True),  # gson's `release:rollback`
    ("Bump guava to 33.2 (#301)", False),  # a dependency's version is no release bookkeeping
])
def test_maven_release_plugin_steps_are_release_bookkeeping(repo: Repo, undone: str, lowered: bool) -> None:
    # both modules' poms put back past two commits: a stale tree's shape, unless both are release steps
    poms = ("pom.xml", "gson/pom.xml")
    seed(repo)
    land(repo, "poms", dict.fromkeys(poms, DEV_POM))
    land(repo, "[maven-release-plugin] prepare release gson-parent-2.11.0", dict.fromkeys(poms, RELEASE_POM))
    last = NEXT_POM if lowered else RELEASE_POM.replace("</project>", "<guava>33.2</guava>\n</project>")
    land(repo, undone, dict.fromkeys(poms, last), author=CAROL)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "[maven-release-plugin] rollback the release of gson-parent-2.11.0",
         {**dict.fromkeys(poms, DEV_POM), "kernel.c": "int t;\n"})
    findings = check(repo, "main..topic")[1]["findings"]
    assert len(findings) == 2 and all(f["severity"] == "notice" for f in findings) is lowered, \
        [(f["subject"], f["severity"], f["reason"]) for f in findings]


@pytest.mark.parametrize(("released", "severity"), [
    ("5.2.4-GA", "notice"),  # BroadleafCommerce's: `GA` is Maven's release itself, before 5.2.5-SNAPSHOT
    ("5.2.6-GA", "error"),  # a later release: 5.2.5-SNAPSHOT after it sets the version back
])
def test_a_maven_ga_release_orders_as_the_release(repo: Repo, released: str, severity: str) -> None:
    seed(repo)
    land(repo, "poms", {"pom.xml": _pom("5.2.5-SNAPSHOT", "HEAD", "0")})
    land(repo, "Revert 5.2.4-GA release (#301)", {"pom.xml": _pom("5.2.4-SNAPSHOT", "HEAD", "0")}, author=CAROL)
    land(repo, "[maven-release-plugin] prepare release broadleaf-5.2.4-GA", {"pom.xml": _pom(released, "rc-tag", "0")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "[maven-release-plugin] prepare for next development iteration",
         {"pom.xml": _pom("5.2.5-SNAPSHOT", "HEAD", "0"), "kernel.c": "int t;\n"})
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


def _spdlog_version(minor: int, patch: int) -> str:
    return f"#define SPDLOG_VER_MAJOR 1\n#define SPDLOG_VER_MINOR {minor}\n#define SPDLOG_VER_PATCH {patch}\n"


@pytest.mark.parametrize(("title", "lowered"), [
    ("bump version number to 1.9.0", True),  # spdlog: the minor moves on, the patch resets to a value it held
    ("Fix the daily sink", False),  # no release step
])
def test_version_parts_without_the_word_version_are_release_bookkeeping(repo: Repo, title: str, lowered: bool) -> None:
    seed(repo)
    land(repo, "bump version number to 1.8.0", {"include/spdlog/version.h": _spdlog_version(8, 0)})
    land(repo, "bump version number to 1.8.6", {"include/spdlog/version.h": _spdlog_version(8, 6)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"include/spdlog/version.h": _spdlog_version(8, 0), "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered, finding["reason"]


APP_SRC = '{application, rebar,\n [{description, "Rebar: Erlang Build Tool"},\n  {vsn, "%s"},\n  {registered, [%s]}]}.\n'


@pytest.mark.parametrize(("registered", "lowered"), [("", True), ("rebar_agent", False)])
def test_an_erlang_applications_vsn_set_back_to_git_is_a_release_step(repo: Repo, registered: str, lowered: bool) -> None:
    # rebar3's `back to git versioning` right after `bump to 3.7.1`; a line that sets no version coming back fails
    seed(repo)
    land(repo, "back to git versioning", {"src/rebar.app.src": APP_SRC % ("git", registered)})
    land(repo, "bump to 3.7.1", {"src/rebar.app.src": APP_SRC % ("3.7.1", "")})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "back to git versioning", {"src/rebar.app.src": APP_SRC % ("git", registered), "kernel.c": "int t;\n"},
         author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered


@pytest.mark.parametrize(("freeze", "release", "lowered"), [
    ("Freeze 3.259.0 (#301)", "Changelog and go.mod updates for v3.259.0 (#302)", True),  # pulumi's release pair
    ("Freeze the plugin API (#301)", "Changelog and go.mod updates for v3.259.0 (#302)", False),  # no release step
    ("Freeze 3.259.0 (#301)", "Update go.mod for the new SDK (#302)", False),
])
def test_a_release_marker_the_freeze_writes_and_the_changelog_step_deletes(repo: Repo, freeze: str, release: str,
                                                                            lowered: bool) -> None:
    # pulumi's `.release-pending`: one version line a freeze adds, deleted by the release's changelog commit
    seed(repo)
    land(repo, "Changelog and go.mod updates for v3.258.0 (#300)", {"sdk/.version": "3.258.0\n"})
    land(repo, freeze, {".release-pending": "v3.260.0\n", "sdk/.version": "3.259.0\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, release, {".release-pending": None, "CHANGELOG.md": "## 3.259.0\n\n- Fixes.\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered, finding["reason"]


PACKAGE = ('{\n  "name": "radix-ui",\n  "version": "%s",\n  "license": "MIT",\n  "files": [\n' +
           "".join(f'    "dist/part{n}.js",\n' for n in range(12)) + '    "src"\n  ],\n  "bugs": {\n    "url": "https://x/issues"\n  }%s\n}\n')


@pytest.mark.parametrize(("candidate", "release", "lowered"), [
    ("Publish release candidate", "New release", True),  # radix-ui's pair
    ("Publish release candidate", "Tidy the package manifest", False),  # no release step
    ("Add the stable version field", "New release", False),
])
def test_a_stable_version_the_candidate_writes_and_the_release_deletes(repo: Repo, candidate: str, release: str,
                                                                        lowered: bool) -> None:
    # yarn writes `stableVersion` when it publishes a prerelease; the stable release takes it out again
    seed(repo)
    land(repo, "internal: expose the primitive", {"package.json": PACKAGE % ("1.1.0", "")})
    land(repo, candidate, {"package.json": PACKAGE % ("1.1.1-rc.1", ',\n  "stableVersion": "1.1.0"')})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, release, {"package.json": PACKAGE % ("1.1.1", ""), "kernel.c": "int t;\n"}, author=CAROL)
    finding = check(repo, "main..topic")[1]["findings"][0]
    assert ("release steps both" in finding["reason"]) is lowered, finding["reason"]


@pytest.mark.parametrize(("release_heading", "found"), [
    ("## 7.1.2 (2026-05-07) - Milla\n", False),  # ioBroker's: the release's heading kept, named; a new section above
    ("", True),  # the release's heading gone: its entries filed under the placeholder again, a stale copy
])
def test_a_new_section_above_a_release_heading_the_change_edits(repo: Repo, release_heading: str, found: bool) -> None:
    seed(repo)
    entries = "* (@fox) Corrected typings of the object views\n* (@fox) Provided a default warning limit for adapters\n"
    land(repo, "start", {"CHANGELOG.md": "# Changelog\n## __WORK IN PROGRESS__\n" + entries + "\n## 7.1.1 (2026-04-06)\n* old\n"})
    land(repo, "v7.1.2 (#301)", {"CHANGELOG.md": "# Changelog\n## 7.1.2 (2026-05-07)\n" + entries + "\n## 7.1.1 (2026-04-06)\n* old\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Send files together with the cmdExec host message",
         {"CHANGELOG.md": "# Changelog\n## __WORK IN PROGRESS__\n* (@fox) Allowed sending files with cmdExec messages\n\n"
                          + release_heading + entries + "\n## 7.1.1 (2026-04-06)\n* old\n", "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding


@pytest.mark.parametrize(("title", "neo", "lowered"), [
    ("After 0.103.1 release", "0.14", True),  # spikeinterface's release cycle
    ("Post 103.2 release (#4243)", "0.14", True),
    ("Add the drift correction step", "0.14", False),  # no release step
    ("After 0.103.1 release", "0.15", False),  # the release's dependency bump set back with them: no toggle
])
def test_a_release_pair_commenting_the_same_lines_out_and_in(repo: Repo, title: str, neo: str, lowered: bool) -> None:
    seed(repo)
    deps = '    "probeinterface @ git+https://github.com/SpikeInterface/probeinterface.git",\n    "neo >= 0.14",\n'
    released = f'    # "probeinterface @ git+https://github.com/SpikeInterface/probeinterface.git",\n    "neo >= {neo}",\n'
    init = "from .core import *\n{}__version__ = '0.103.0'\n"
    land(repo, "start", {"pyproject.toml": "[project]\ndependencies = [\n" + deps + "]\n",
                         "src/pkg/__init__.py": init.format("DEV_MODE = True\n# DEV_MODE = False\n")})
    land(repo, "Prepare release v0.103.1 (#301)", {"pyproject.toml": "[project]\ndependencies = [\n" + released + "]\n",
                                                 "src/pkg/__init__.py": init.format("# DEV_MODE = True\nDEV_MODE = False\n"),
                                                 "doc/releases/0.103.1.rst": body("notes", 6)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"pyproject.toml": "[project]\ndependencies = [\n" + deps + "]\n",
                       "src/pkg/__init__.py": init.format("DEV_MODE = True\n# DEV_MODE = False\n"), "kernel.c": "int t;\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert ("commenting the same lines out and in" in finding["reason"]) is lowered, finding["reason"]
    assert (finding["severity"] == "notice") is lowered


@pytest.mark.parametrize(("extra", "lowered"), [
    ("", True),  # Misago's `Change version to 0.39.0 unreleased` after the 0.38.1 hotfix release
    ("CACHE_DAYS = 21\n", False),  # a setting beside the version: work, whatever the title
])
def test_a_release_flag_beside_the_version_is_release_bookkeeping(repo: Repo, extra: str, lowered: bool) -> None:
    seed(repo)
    land(repo, "0.39 unreleased", {"misago/__init__.py": '__version__ = "0.39.0"\n__released__ = False\nCACHE_DAYS = 7\n'})
    land(repo, "Fix admin widgets rendering incorrectly (#301)",
         {"misago/__init__.py": '__version__ = "0.38.1"\n__released__ = True\n' + (extra or "CACHE_DAYS = 7\n"),
          "src/mod1.py": body("widgets", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Change version to 0.39.0 unreleased",
         {"misago/__init__.py": '__version__ = "0.39.0"\n__released__ = False\nCACHE_DAYS = 7\n', "kernel.c": "int t;\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert (finding["severity"] == "notice") is lowered, finding["reason"]
