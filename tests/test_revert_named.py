"""A change whose title says what goes away, naming the undone lines themselves.

"Remove typeshed iscoroutine workaround" that rolls back the workaround's file is deliberate, though
it names neither the file nor the commit. Only the title counts (long bodies and squashed commit lists
name a little of everything), and inside a stale tree only a name shaped like code does.
"""

from __future__ import annotations

import json

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import CAROL, DAVE, body, by_pr, check, land, merge_pr, seed

RETRY = ("retry_budget = RetryBudget(limit=5)\nretry_budget.window_s = 30\n"
         "client.use(retry_budget)\nlog_retry_budget(client)\n")
CACHE = "warm_cache = CacheWarmer(size=64)\nwarm_cache.start()\nclient.use(warm_cache)\n"


def _rollback_titled(repo: Repo, message: str) -> dict:
    old = seed(repo)
    land(repo, "feat: a retry knob for the client (#301)", {"src/mod1.py": old["src/mod1.py"] + RETRY})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, message, {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_title_naming_an_identifier_of_the_undone_lines_is_described(repo: Repo) -> None:
    finding = _rollback_titled(repo, "Remove the retry_budget knob")
    assert finding["severity"] == "notice" and "names what goes away" in finding["reason"]


def test_a_long_plain_word_of_the_undone_lines_counts_outside_a_stale_tree(repo: Repo) -> None:
    assert _rollback_titled(repo, "Drop the budget from the client")["severity"] == "notice"


@pytest.mark.parametrize(("title", "severity"), [
    ("Most of the retry_budget nonsense gone", "notice"),  # junit's `Most of the plans and mark2 nonsense gone`
    ("Yank out retry_budget", "notice"),  # picasso's `Yank out one of the target wrappers`
    ("One retry_budget too many", "notice"),  # simdjson's `One unlikely too many`
    ("One retry_budget more", "error"),
    ("chore: rm retry_budget refs", "notice"),  # reth's `chore: rm thunderdome refs`, the shell's word for it
    ("chore: rmdir retry_budget", "error"),  # no removal word: `rm` stands alone
    ("revers retry_budget changes..", "notice"),  # akaunting's `revers relation changes..`, a revert mistyped
    ("Most of the retry_budget nonsense here", "error"),  # named, but nothing says it goes
])
def test_gone_and_yank_are_removal_wording(repo: Repo, title: str, severity: str) -> None:
    assert _rollback_titled(repo, title)["severity"] == severity


def test_a_title_naming_something_else_still_fails(repo: Repo) -> None:
    assert _rollback_titled(repo, "Remove the warm_cache helper")["severity"] == "error"


def test_a_title_without_removal_wording_names_nothing(repo: Repo) -> None:
    assert _rollback_titled(repo, "Tune retry_budget defaults")["severity"] == "error"


def test_short_words_name_nothing(repo: Repo) -> None:
    assert _rollback_titled(repo, "Remove log noise")["severity"] == "error"  # `log` is in the lines, but short


def test_only_the_title_counts_not_the_body(repo: Repo) -> None:
    assert _rollback_titled(repo, "Tidy the client\n\nRemove retry_budget, too.")["severity"] == "error"


def _stale_tree_titled(repo: Repo, title: str) -> dict:
    old = seed(repo)
    land(repo, "feat: a retry knob for the client (#301)", {"src/mod1.py": old["src/mod1.py"] + RETRY})
    land(repo, "feat: a cache warmer (#302)", {"src/mod2.py": old["src/mod2.py"] + CACHE})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"src/mod1.py": old["src/mod1.py"], "src/mod2.py": old["src/mod2.py"],
                       "kernel.c": "int t;\n"}, author=CAROL)
    code, report = check(repo, "main..topic")
    return {"exit": code, **{str(pr): f["severity"] for pr, f in by_pr(report).items()}}


@pytest.mark.parametrize("title", ["Remove retry_budget",
                                   "Backing out `retry_budget` as discussed",  # fyne's `Backing out `InfiniteAnimation``
                                   "CI: backtrack and build without retry_budget"])  # imgui's `CI: backtrack and ...`
def test_inside_a_stale_tree_a_code_shaped_name_excuses_only_what_it_names(repo: Repo, title: str) -> None:
    assert _stale_tree_titled(repo, title) == {"exit": 1, "301": "notice", "302": "error"}


def test_back_alone_is_no_removal_wording(repo: Repo) -> None:
    assert _stale_tree_titled(repo, "Back retry_budget with a file")["301"] == "error"


@pytest.mark.parametrize(("title", "severity"), [
    # typesense's `remove query hits aggregation & store` for its `query_hits_counts`: plain words spelled as
    # the one name code spells them count as a name shaped like code
    ("remove retry budget handling", "notice"),
    ("remove retry logic and the budget", "error"),  # the words apart: no name
    ("remove the old budget", "error"),  # `the old budget`: short and common words make no name
])
def test_inside_a_stale_tree_plain_words_written_as_one_name_name_it(repo: Repo, title: str, severity: str) -> None:
    assert _stale_tree_titled(repo, title)["301"] == severity


def test_inside_a_stale_tree_a_plain_word_excuses_nothing(repo: Repo) -> None:
    assert _stale_tree_titled(repo, "Remove the budget") == {"exit": 1, "301": "error", "302": "error"}


def test_bringing_a_named_thing_back_is_described(repo: Repo) -> None:
    assert _rollback_titled(repo, "Bring back the retry_budget knob")["severity"] == "notice"


def test_re_adding_a_named_thing_is_described(repo: Repo) -> None:
    assert _rollback_titled(repo, "Re-add retry_budget")["severity"] == "notice"


def _merged_pr_titled(repo: Repo, title: str) -> dict:
    old = seed(repo)
    land(repo, "feat: a retry knob for the client (#301)", {"src/mod1.py": old["src/mod1.py"] + RETRY})
    repo.git("checkout", "-q", "-b", "tidy")
    land(repo, "wip", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    repo.git("checkout", "-q", "main")
    merge_pr(repo, "tidy", 305, title)
    proc = run_leverguard("audit", "--all", "--format", "json", cwd=repo.path)
    (result,) = json.loads(proc.stdout)["results"]
    return by_pr(result)[301]


def test_audit_reads_a_merged_prs_title_for_what_goes_away(repo: Repo) -> None:
    finding = _merged_pr_titled(repo, "Remove the retry_budget knob")
    assert finding["severity"] == "notice" and "names what goes away" in finding["reason"]


def test_a_merged_prs_title_naming_something_else_still_fails(repo: Repo) -> None:
    assert _merged_pr_titled(repo, "Remove the warm_cache helper")["severity"] == "error"


def test_check_revert_reads_the_pr_title_given_with_the_description(repo: Repo) -> None:
    old = seed(repo)
    land(repo, "feat: a retry knob for the client (#301)", {"src/mod1.py": old["src/mod1.py"] + RETRY})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "wip", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    named = by_pr(check(repo, "main..topic", pr_body="Remove the retry_budget knob\n\nIt confused users.")[1])[301]
    silent = by_pr(check(repo, "main..topic", pr_body="Tidy the kernel\n\nNothing else.")[1])[301]
    assert (named["severity"], silent["severity"]) == ("notice", "error")


@pytest.mark.parametrize(("title", "severity"), [
    ("Remove `window_s`", "notice"),  # pipx's ``Remove `-q` from ...``: a span is code, however short
    ("Remove `-x` and `.wind`", "error"),  # spans absent from the lines, or only part of a name there
])
def test_a_code_span_in_the_title_names_code_of_any_length(repo: Repo, title: str, severity: str) -> None:
    found = _rollback_titled(repo, title)
    assert found["severity"] == severity, found["reason"]


WORKSPACE = "minimumReleaseAge: 4320\nminimumReleaseAgeExclude:\n  - astro\n  - '@astrojs/mdx'\n"


@pytest.mark.parametrize(("title", "kept", "severity"), [
    # starlight: the key goes, and the entries two PRs added under it with it
    ("Remove `minimumReleaseAgeExclude` from workspace (#4087)", "", "notice"),
    ("Remove `peerDependencyRules` from workspace (#4087)", "", "error"),  # names another block
    ("chore: tidy the workspace (#4087)", "", "error"),  # names nothing
    # the key kept, only the entries taken out: the title names no block the change removes
    ("Remove `minimumReleaseAgeExclude` from workspace (#4087)", "minimumReleaseAgeExclude:\n", "warning"),
])
def test_a_title_naming_the_block_it_takes_out(repo: Repo, title: str, kept: str, severity: str) -> None:
    seed(repo)
    land(repo, "chore: workspace", {"pnpm-workspace.yaml": "minimumReleaseAge: 4320\n"})
    land(repo, "chore: exclude our own packages (#3900)", {"pnpm-workspace.yaml": WORKSPACE})
    land(repo, "docs: bring back links validation (#3990)",
         {"pnpm-workspace.yaml": WORKSPACE + "  - 'starlight-links-validator'\n  - '@napi-rs/wasm-runtime'\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"pnpm-workspace.yaml": "minimumReleaseAge: 4320\n" + kept, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert found[3990]["severity"] == severity
    if severity == "notice":
        assert found[3900]["severity"] == "notice"


PACKAGE = '{\n  "name": "bullmq-php",%s\n  "devDependencies": {\n    "semantic-release": "25.0.2"\n  }\n}\n'
RESOLUTIONS = '\n  "resolutions": {\n    "undici": "7.19.1",\n    "diff": "8.0.3"\n  },'


@pytest.mark.parametrize(("title", "severity"), [
    ("chore(deps): remove resolutions (#3743)", "notice"),  # bullmq's: the plain word is the block's key
    ("chore(deps): remove overrides (#3743)", "error"),  # another block's key
    ("chore(deps): remove the pins (#3743)", "error"),  # names no key
])
def test_a_title_naming_the_key_of_the_block_it_takes_out(repo: Repo, title: str, severity: str) -> None:
    # two commits' lines in two files undone, as a stale tree's are: a plain word of the title counts only so
    seed(repo)
    packages = ("php/package.json", "python/package.json")
    land(repo, "chore: package", {path: PACKAGE % "" for path in packages})
    land(repo, "fix: osv vulnerabilities (#3660)", {**{path: PACKAGE % RESOLUTIONS for path in packages},
                                                    "src/mod1.py": body("osv", 4)})
    land(repo, "chore(deps): pin lodash (#3737)",
         {path: PACKAGE % RESOLUTIONS.replace("{", '{\n    "lodash": "4.17.23",') for path in packages}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {**{path: PACKAGE % "" for path in packages}, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert (found[3660]["severity"], found[3737]["severity"]) == (severity, severity)


@pytest.mark.parametrize(("subject", "severity"), [
    ("[ci] format", "notice"),  # starlight: its formatter's run undone by a change pinning the old formatter
    ("style: format the code with black (#301)", "notice"),
    ("run isort on all files (#301)", "notice"),  # trio's, re-wrapped by its formatter when a name joined the import
    ("fix: format dates correctly (#301)", "error"),  # work about formatting, not a formatter's run
    ("Run black on CI (#301)", "error"),
    ("PHP-CS-Fixer", "notice"),  # kirby's: the tool's name alone says its run
    ("Black magic for the renderer (#301)", "error"),  # a tool's name as a word of other work
])
def test_a_formatters_run_undone_loses_no_work(repo: Repo, subject: str, severity: str) -> None:
    old = seed(repo)
    land(repo, subject, {"src/mod1.py": old["src/mod1.py"] + "print({' '})\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Pin to the old Prettier (#302)", {"src/mod1.py": old["src/mod1.py"], "kernel.c": "int t;\n"}, author=CAROL)
    found = check(repo, "main..topic")[1]["findings"]
    assert [f["severity"] for f in found] == [severity]


@pytest.mark.parametrize("moved", [False, True])
def test_a_formatters_run_comments_nothing_out(repo: Repo, moved: bool) -> None:
    # pychess-variants' `black` also commented out a test toggle (its commented copy written two lines above, the
    # old lines a hunk of their own), put back by the next fix: no formatter's output, whatever the title
    lines = [f"    await start_service_{i}(app)\n" for i in range(8)]
    toggled = list(lines)
    if moved:
        toggled[3:3] = ["    # " + line.lstrip() for line in lines[5:7]]
        del toggled[7:9]
    else:
        toggled[5] = "    # " + lines[5].lstrip()
    seed(repo)
    land(repo, "init", {"src/init.py": "async def init_state(app):\n" + "".join(lines)})
    land(repo, "black", {"src/init.py": "async def init_state(app):\n" + "".join(toggled)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Fix KeyError in import_game() (#302)", {"src/init.py": "async def init_state(app):\n" + "".join(lines),
                                                       "kernel.c": "int t;\n"}, author=CAROL)
    found = check(repo, "main..topic")[1]["findings"]
    assert [f["severity"] for f in found] != ["notice"] and "formatter" not in found[0]["reason"], found


MATRIX = 'jobs:\n  tests:\n    strategy:\n      matrix:\n        python-version: ["3.9", "3.10"{}]\n'


@pytest.mark.parametrize(("title", "severity"), [
    ("ci: test against Python 3.11", "notice"),  # poetry-core: the removal its title names, reversed by name
    ("ci: test against Python 3.12", "error"),  # names another version
    ("ci: speed up the test matrix", "error"),  # names nothing of it
])
def test_a_title_naming_again_what_the_undone_title_removed(repo: Repo, title: str, severity: str) -> None:
    seed(repo)
    with_311 = {path: MATRIX.format(', "3.11"') for path in (".github/workflows/tests.yml", ".github/workflows/integration.yml")}
    land(repo, "ci: matrix", with_311)
    land(repo, "remove Python 3.11 from CI (unstable) (#441)", {path: MATRIX.format("") for path in with_311})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {**with_311, "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[441]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("undone", "title", "severity"), [
    ("Pin tox to fix CI (#441)", "Remove tox pin", "notice"),  # black: the workaround taken back, said so
    ("Silence warnings for deprecations since 1.13 (#441)", "Add back deprecation warnings", "notice"),  # history
    ("Remove Travis config (#441)", "Use Travis CI", "notice"),  # history's CI experiment undone
    ("Pin tox to fix CI (#441)", "Remove the flake8 pin", "error"),  # another object
    ("Pin tox to fix CI (#441)", "Bump tox", "error"),  # no opposite verb
    ("Delete tox.ini and the tox setup (#441)", "Create tox.ini", "notice"),  # GitHub's web editor, both ways
    ("Quarantine the tox e2e tests (#441)", "Unquarantine tox e2e tests", "notice"),  # workers-sdk's
    ("Quarantine the tox e2e tests (#441)", "Create the coverage report", "error"),  # another object
    # horovod's `Unpin torch-nightly` after `Pin torch nightly torch-1.4.0.dev20200106`: one name, spelled two ways
    ("Pin torch nightly torch-4.7.0.dev20200106 (#441)", "Unpin torch-nightly", "notice"),
    ("Pin torch nightly torch-4.7.0.dev20200106 (#441)", "Unpin torch-weekly", "error"),  # another name
])
def test_a_title_doing_the_opposite_of_the_undone_title(repo: Repo, undone: str, title: str, severity: str) -> None:
    seed(repo)
    land(repo, "ci: tox", {"tox.ini": "[tox]\nenvlist = py39\n", "ci/setup.sh": "pip install tox\npip install coverage\n"})
    land(repo, undone, {"tox.ini": "[tox]\nenvlist = py39\nrequires = tox<4.7\n",
                        "ci/setup.sh": "pip install 'tox<4.7'\npip install coverage\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"tox.ini": "[tox]\nenvlist = py39\n", "ci/setup.sh": "pip install tox\npip install coverage\n",
                       "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[441]
    assert found["severity"] == severity, found["reason"]


PINNED = "packages: .\n\nsource-repository-package\n  type: git\n  location: https://github.com/jgm/djoths\n  tag: 0d1c5e\n"


@pytest.mark.parametrize(("undone", "title", "severity"), [
    # pandoc's: a git pin from the development line, taken out for the release
    ("Use dev version of djoths. (#441)", "Use released djot 0.1.2.3.", "notice"),
    ("Use dev version of djoths. (#441)", "Use released texmath 0.13.1.2.", "error"),  # another dependency
    ("Use dev version of djoths. (#441)", "Use djot 0.1.2.3.", "error"),  # no release said
    ("Use djoths with the new parser (#441)", "Use released djot 0.1.2.3.", "error"),  # no development line
])
def test_a_title_taking_from_a_release_what_was_taken_from_a_development_line(repo: Repo, undone: str, title: str,
                                                                              severity: str) -> None:
    seed(repo)
    land(repo, "build: cabal project", {"cabal.project": "packages: .\n", "stack.yaml": "extra-deps:\n- texmath-0.13\n"})
    land(repo, undone, {"cabal.project": PINNED, "stack.yaml": "extra-deps:\n- texmath-0.13\n- git: djoths\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"cabal.project": "packages: .\n", "stack.yaml": "extra-deps:\n- texmath-0.13\n",
                       "kernel.c": "int t;\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[441]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("title", "severity"), [
    ("Vendorized yaml.", "notice"),  # tablib: the folder the files lie under, named by the title
    ("Added simplejson to packages.", "error"),  # names another folder
    ("Fix the packages index", "error"),  # a folder any project has names nothing
])
def test_a_title_naming_the_folder_it_brings_back(repo: Repo, title: str, severity: str) -> None:
    seed(repo)
    vendored = {f"tablib/packages/yaml/{name}.py": f"# {name}\ndef {name}_node(stream):\n    return parse_{name}(stream)\n"
                for name in ("composer", "constructor", "scanner")}
    vendored["tablib/packages/yaml/tests/test_scanner.py"] = "def test_scan():\n    assert scan_tokens('a: 1')\n"
    land(repo, "Vendorize packages", {**vendored, "tablib/packages/xlwt/book.py": "def workbook():\n    return Book()\n"})
    land(repo, "Trim the distribution (#301)", {**{path: None for path in vendored},
                                                     "tablib/packages/xlwt/book.py": None}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {**vendored, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


@pytest.mark.parametrize(("title", "severity"), [
    ("Update SDL2 vcpkg port to 2.30.0", "notice"),  # Cemu's: a port folder of that name per platform
    ("Update the vcpkg ports", "error"),  # the folders' own name unsaid
])
def test_a_title_naming_the_folders_of_one_name_it_brings_back(repo: Repo, title: str, severity: str) -> None:
    seed(repo)
    ports = {f"deps/{kind}/sdl2/{name}": f"# {name} of the sdl2 port for {kind}\nset(VERSION 2.28)\n" +
             "".join(f"vcpkg_configure_option(SDL_{kind.upper()}_{i} ON)\n" for i in range(6))
             for kind in ("overlay_ports", "overlay_ports_linux") for name in ("portfile.cmake", "vcpkg.json")}
    land(repo, "Add overlay ports", {**ports, "deps/overlay_ports/zlib/portfile.cmake": "# zlib\n"})
    land(repo, "Update libraries (#301)", {**{path: None for path in ports}, "deps/overlay_ports/zlib/portfile.cmake": None},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {path: text.replace("2.28", "2.30") for path, text in ports.items()}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


def test_a_list_of_independent_lines_has_no_block_to_name(repo: Repo) -> None:
    # axios: `Fixing removing package-lock from gitignore` takes out `yarn.lock`, added under it days before
    seed(repo)
    land(repo, "chore: ignore", {".gitignore": "coverage/\nsauce_connect.log\npackage-lock.json\n"})
    land(repo, "chore: ignore yarn.lock file (#3545)", {".gitignore": "coverage/\nsauce_connect.log\npackage-lock.json\nyarn.lock\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Fixing removing package-lock from gitignore (#4346)", {".gitignore": "coverage/\nsauce_connect.log\n",
                                                                        "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[3545]["severity"] == "warning"


@pytest.mark.parametrize("title", [
    "Merge branch 'develop' of https://github.com/monkeython/requests into develop",  # a merge names branches
    "Tidy requests (#302)",  # a top-level folder is the project's own name
])
def test_a_title_saying_the_projects_own_folder_names_nothing_brought_back(repo: Repo, title: str) -> None:
    # requests' merge of an outdated PR brought back `requests/config.py`, deleted by `configuration rework`
    seed(repo)
    config = "".join(f"CONFIG_{i} = load_setting('config_{i}', default={i})\n" for i in range(6))
    land(repo, "config", {"requests/config.py": config, "requests/api.py": "def get(url):\n    return request(url)\n"})
    land(repo, "configuration rework (#301)", {"requests/config.py": None, "requests/api.py":
                                               "def get(url):\n    return request(url, settings=Settings())\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"requests/config.py": config, "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "error"


CI_TARGETS = "jobs:\n  check:\n    strategy:\n      matrix:\n        target:\n          - aarch64-apple-ios\n{}"


@pytest.mark.parametrize(("title", "disabled", "severity"), [
    # mio: a target commented out beside a link to the bug, enabled again by its author's title
    ("Enable all targets on the CI that work again (#1913)", "          # See rust-lang/rust#147776\n          #- arm64_32-apple-watchos\n", "notice"),
    ("ci: bump the toolchain (#1913)", "          # See rust-lang/rust#147776\n          #- arm64_32-apple-watchos\n", "error"),  # says nothing
    ("Enable all targets on the CI that work again (#1913)", "          - x86_64-apple-ios\n", "error"),  # no code commented out
    # MyST's `Make PDF` step commented out under `# TODO <upstream issue>`: the commit itself said it comes back
    ("ci: bump the toolchain (#1913)", "          # TODO rust-lang/rust#147776\n          #- arm64_32-apple-watchos\n", "notice"),
    ("ci: bump the toolchain (#1913)", "          # TODO rust-lang/rust#147776\n          - x86_64-apple-ios\n", "error"),  # no code
    # vue-router's squash whose branch commit `fix: enable banner` uncommented the banner
    ("ci: bump the toolchain (#1913)\n\n* fix: enable the watchOS target", "          #- arm64_32-apple-watchos\n", "notice"),
    ("ci: bump the toolchain (#1913)\n\n* the watchOS target was enabled before", "          #- arm64_32-apple-watchos\n",
     "error"),  # a sentence that opens otherwise
])
def test_code_commented_out_enabled_again_by_a_title_saying_so(repo: Repo, title: str, disabled: str, severity: str) -> None:
    seed(repo)
    land(repo, "ci: targets", {".github/workflows/ci.yml": CI_TARGETS.format("          - arm64_32-apple-watchos\n")})
    # (mio's `Disable CI for arm64_32-apple-watchos`, worded here so that only the title can tell: a subject
    # opening with `Disable` says by itself that the switch is to be flipped back)
    land(repo, "CI: arm64_32-apple-watchos is broken (#1910)", {".github/workflows/ci.yml": CI_TARGETS.format(disabled)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {".github/workflows/ci.yml": CI_TARGETS.format("          - arm64_32-apple-watchos\n"),
                       "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[1910]["severity"] == severity


LINTERS = "linters:\n  settings:\n    govet:\n      enable-all: true\n{}"


@pytest.mark.parametrize(("title", "block", "severity"), [
    # kopia's: a linter upgrade switched one check off, a day later enabled again with the code fixed
    ("chore(ci): enable modernize:omitzero linter setting", "    modernize:\n      disable:\n        - omitzero\n", "notice"),
    ("chore(ci): enable the cache", "    modernize:\n      disable:\n        - omitzero\n", "error"),  # names another
    ("chore(ci): enable modernize:omitzero linter setting", "    modernize:\n      checks:\n        - omitzero\n",
     "error"),  # nothing was switched off
])
def test_a_title_enabling_what_the_undone_lines_switched_off(repo: Repo, title: str, block: str, severity: str) -> None:
    seed(repo)
    land(repo, "ci: lint", {".golangci.yml": LINTERS.format("")})
    land(repo, "chore(ci): upgrade to golangci-lint 2.6.1 (#301)", {".golangci.yml": LINTERS.format(block),
                                                                    "src/mod1.py": body("lint", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {".golangci.yml": LINTERS.format(""), "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity


SETUP = "extras_require = {{\n    'test': [\n        'pytest',\n{}    ],\n}}\n"


@pytest.mark.parametrize(("title", "extra", "severity"), [
    ("Removing more nose remnants via dependencies. (#758)", "        'nose',\n", "notice"),  # nbconvert's
    ("Removing more mock remnants via dependencies. (#758)", "        'nose',\n", "error"),  # names another
    ("Remove nose (#758)", "        'nosetests-json',\n", "error"),  # only part of a word
    ("Turn off the nose linter (#758)", "        'nose',\n", "notice"),  # perseus': what a linter or rule is
    ("Turn off the nose rule (#758)", "        'nosetests-json',\n", "error"),
    ("Remove nose [skip ci]", "        'nose',\n", "notice"),  # juniper's: `[skip ci]` is for CI, not what goes
    ("Remove nose [skip ci]", "        'mock',\n", "error"),
])
def test_a_title_naming_what_it_removes_names_short_words_whole(repo: Repo, title: str, extra: str, severity: str) -> None:
    seed(repo)
    land(repo, "setup", {"setup.py": SETUP.format("")})
    land(repo, "Windows unicode error fixed, nosetest added to setup.py (#757)",
         {"setup.py": SETUP.format(extra), "src/mod1.py": "import io\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"setup.py": SETUP.format(""), "kernel.c": "int t;\n"}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[757]["severity"] == severity


@pytest.mark.parametrize(("title", "keep_one", "severity"), [
    ("removed docs", False, "notice"),  # chai's `removed docs` (moved to their own repository): docs/ gone whole
    ("Remove the old site", False, "warning"),  # names nothing that goes
    ("removed docs", True, "warning"),  # a file of docs/ stays: the folder is not what goes
])
def test_a_message_naming_the_folder_it_deletes_whole(repo: Repo, title: str, keep_one: bool, severity: str) -> None:
    seed(repo)
    guide = {f"docs/guide/page{i}.md": f"# Page {i}\n\nHow to use feature {i} of the kernels.\n" for i in range(4)}
    land(repo, "docs: the guide (#301)", dict(guide))
    repo.git("checkout", "-q", "-b", "topic")
    edits: dict[str, str | None] = {path: None for path in guide}
    edits["docs/stays.md" if keep_one else "src/new.py"] = "kept = True\n"
    land(repo, title, edits, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]
    assert ("names the folder it deletes" in found["reason"]) == (severity == "notice")


@pytest.mark.parametrize(("title", "severity"), [
    # futures-rs' `Remove uses of pin_project::project attribute` for its `#[project]` lines
    ("Drop uses of pool::retry_budget", "notice"),
    ("Drop uses of pool::warm_cache", "error"),  # the path's last segment names something else
    ("Remove Pool:retry_budget since it is not effective", "notice"),  # aria2's member named with its class
    ("Remove Pool:warm_cache since it is not effective", "error"),
])
def test_a_rust_path_in_the_title_names_its_last_segment(repo: Repo, title: str, severity: str) -> None:
    found = _rollback_titled(repo, title)
    assert found["severity"] == severity, found["reason"]


CONVERTERS = "".join(f"fn to_biguint_{i}(&self) -> Option<BigUint> {{ convert({i}) }}\n" for i in range(6))
FILLER = "".join(f"const LIMB_{i}: u64 = {i * 97};\n" for i in range(30))


def _substituted(repo: Repo, subject: str) -> dict:
    """Bob's bump #301 renames the converters by an over-eager replace (biguint -> bigusize) beside its
    version line; Carol's change sets the names back, keeps the version and adds work of its own."""
    seed(repo)
    land(repo, "feat: converters", {"src/big.rs": 'version = "0.1.6"\n' + FILLER + CONVERTERS})
    bumped = 'version = "0.1.7"\n' + FILLER + CONVERTERS.replace("biguint", "bigusize")
    land(repo, "Bump to 0.1.7 (#301)", {"src/big.rs": bumped})
    repo.git("checkout", "-q", "-b", "topic")
    fixed = 'version = "0.1.7"\n' + FILLER + CONVERTERS + "fn limbs(&self) -> usize { self.data.len() }\n"
    land(repo, subject, {"src/big.rs": fixed}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


def test_a_substitution_subject_whose_old_text_is_in_every_undone_line_is_described(repo: Repo) -> None:
    # num-traits' `s/bigusize/biguint/` over the bump that had renamed them
    finding = _substituted(repo, "s/bigusize/biguint/")
    assert finding["severity"] == "notice" and "s/old/new/" in finding["reason"]


@pytest.mark.parametrize("subject", [
    "s/limbs/words/",  # text the undone lines do not hold
    "s/bi/bu/",  # old text under MIN_SUBSTITUTED characters: lines hold it by chance
    "s/bigusize/biguint/ in the converters",  # not a substitution alone
])
def test_a_substitution_of_other_text_or_too_short_or_not_alone_names_nothing(repo: Repo, subject: str) -> None:
    assert _substituted(repo, subject)["severity"] == "warning"


def test_the_substitution_may_take_other_delimiters_and_flags(repo: Repo) -> None:
    assert _substituted(repo, "s|bigusize|biguint|g")["severity"] == "notice"


SPEC = "describe 'CHANGELOG' do\n  it 'links to github profiles'{} do\n    expect(footnotes).to all(match(profile))\n  end\n" + \
    "".join(f"  it 'checks entry {i}' do\n    expect(entry({i})).to be_valid\n  end\n" for i in range(8)) + "end\n"


@pytest.mark.parametrize(("title", "marker", "severity"), [
    # rubocop-rspec's `Fix and re-enable a Changelog spec`, after #1371 marked it pending
    ("Fix and re-enable the footnote check", ", :pending", "notice"),
    ("Fix the footnote check", ", :pending", "warning"),  # says nothing of enabling it
    ("Fix and re-enable the footnote check", ", :focus", "warning"),  # no skip marker: another change
])
def test_a_test_marked_skipped_enabled_again_by_a_title_saying_so(repo: Repo, title: str, marker: str,
                                                                   severity: str) -> None:
    seed(repo)
    land(repo, "spec: changelog", {"spec/changelog_spec.rb": SPEC.format("")})
    land(repo, "Update the entry format (#301)", {"spec/changelog_spec.rb": SPEC.format(marker),
                                                      "CHANGELOG.md": "## master\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    fixed = SPEC.format("").replace("to all(match(profile))", "to all(match(profile_any_case))")
    land(repo, title, {"spec/changelog_spec.rb": fixed}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


GTEST = "TEST(SSLTest, ResponseBodyTerminatedByConnectionClose) {{\n{}" + \
    "".join(f"  auto res_{i} = cli.Get(\"/stream/{i}\");\n  ASSERT_TRUE(res_{i});\n" for i in range(6)) + "}}\n"
SKIPPED = ("#ifdef CPPHTTPLIB_MBEDTLS_SUPPORT\n  // TODO: mbedTLS reports a clean close_notify mid-response as an error.\n"
           "  GTEST_SKIP() << \"mbedTLS backend treats close_notify mid-response as error\";\n#endif\n")


@pytest.mark.parametrize(("message", "skipped", "severity"), [
    # cpp-httplib's fix, 34 minutes after its author skipped the test on one backend
    ("Translate PeerClosed into a clean end of file\n\nThis re-enables the connection close test.", SKIPPED, "notice"),
    # said or not: a skip taken out alone loses no work (the test runs again, loudly if still broken)
    ("Translate PeerClosed into a clean end of file\n\nThe body was complete.", SKIPPED, "notice"),
    ("Translate PeerClosed into a clean end of file\n\nThis re-enables the connection close test.",
     SKIPPED.replace("#endif", "  cli.set_read_timeout(5);\n#endif"), "error"),  # work beside the skip
])
def test_a_test_skipped_enabled_again_by_a_message_saying_so(repo: Repo, message: str, skipped: str,
                                                              severity: str) -> None:
    seed(repo)
    land(repo, "test: ssl", {"test/test.cc": GTEST.format("")})
    land(repo, "Skip one SSL test on a backend; allow flaky jobs (#301)",
         {"test/test.cc": GTEST.format(skipped), "src/mod1.py": body("ci", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, message, {"test/test.cc": GTEST.format(""), "httplib.h": body("peer_closed", 4)}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


COVERAGE = "[run]\nbranch = true\nsource =\n  src/mkdocstrings\n{}\n[report]\n" + "".join(f"exclude_{i} = pragma: no cover {i}\n" for i in range(8)) + \
    "precision = 2\n"


@pytest.mark.parametrize(("deleted", "severity"), [
    ("src/mkdocs_autorefs/plugin.py", "notice"),  # mkdocstrings moving its autorefs package out: its entries go
    ("src/mkdocs_other/plugin.py", "warning"),  # another package deleted: the entries named something else
    ("src/tools/plugin.py", "warning"),  # a folder any project has names nothing distinctive
])
def test_lines_naming_a_folder_the_change_deletes_go_with_it(repo: Repo, deleted: str, severity: str) -> None:
    seed(repo)
    land(repo, "autorefs", {"src/mkdocs_autorefs/plugin.py": body("refs", 4), "src/mkdocs_other/plugin.py": body("o", 4),
                            "src/tools/plugin.py": body("t", 4), "config/coverage.ini": COVERAGE.format("")})
    land(repo, "template upgrade (#301)", {"config/coverage.ini": COVERAGE.format(
        "  src/mkdocs_autorefs\n  */site-packages/mkdocs_autorefs\n"), "src/mod1.py": body("upgrade", 4)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "refactor: use the plugin from its new location", {
        "config/coverage.ini": COVERAGE.format("").replace("precision = 2", "precision = 1"), deleted: None}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


DUNE = "(test\n (name test_unit)\n{}(package ocamlformat-lib)\n (libraries alcotest base ocamlformat-lib))\n"
DEPS = " (deps\n  ../passing/tests/partial_recovery.ml\n  ../passing/tests/invalid_locations.ml)\n "


@pytest.mark.parametrize(("deleted", "severity"), [
    # ocamlformat's `Remove '--numeric' option and recovery feature` deleting the test files a dune stanza listed
    (("test/passing/tests/partial_recovery.ml", "test/passing/tests/invalid_locations.ml"), "notice"),
    (("test/passing/tests/other_feature.ml",), "error"),  # other files deleted: the stanza named something else
])
def test_a_file_put_back_past_a_list_of_files_the_change_deletes(repo: Repo, deleted: tuple[str, ...], severity: str) -> None:
    seed(repo)
    tests = ("partial_recovery", "invalid_locations", "other_feature")
    land(repo, "tests", {f"test/passing/tests/{name}.ml": body(name, 4) for name in tests} | {"test/unit/dune": DUNE.format(" ")})
    land(repo, "Fix dune files for opam-repo checks (#301)", {"test/unit/dune": DUNE.format(DEPS), "src/mod1.py": body("fix", 4)},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Drop an obsolete option", {"test/unit/dune": DUNE.format(" "), "src/mod2.py": body("gone", 3)} |
         dict.fromkeys(deleted), author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


CHAIN = "".join(f"def lookup_{i}(store, key):\n    return store.fetch(key, scope={i})\n" for i in range(12))


def _fixed_up(repo: Repo, subject: str, trailer: str = "", between: bool = False) -> dict:
    """Dave's #301 rescopes three lookups; Carol's change (SUBJECT) puts them back and adds work of its own,
    with another commit landed between them when BETWEEN."""
    seed(repo)
    land(repo, "chain: lookups", {"lib/chain.rb": CHAIN})
    rescoped = CHAIN.replace("scope=3)", "scope=3, merge=True)").replace("scope=4)", "scope=4, merge=True)")
    land(repo, "Fix bulk lookups in Chain backend (#301)" + (f"\n\n{trailer}" if trailer else ""),
         {"lib/chain.rb": rescoped, "lib/bulk.rb": body("bulk", 4)}, author=DAVE)  # kept: not every change undone
    if between:
        land(repo, "docs: notes", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"lib/chain.rb": CHAIN + "def bulk(store, keys):\n    return [lookup_1(store, k) for k in keys]\n"},
         author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


@pytest.mark.parametrize(("subject", "between", "severity"), [
    ("Simplify last commit by simply not modifying the hash in place", False, "notice"),  # i18n's
    ("Simplify last commit by simply not modifying the hash in place", True, "warning"),  # not the last one
    ("Simplify the store by simply not modifying the hash in place", False, "warning"),  # names no commit
])
def test_a_message_naming_the_last_commit_cites_the_commit_just_before(repo: Repo, subject: str, between: bool,
                                                                      severity: str) -> None:
    finding = _fixed_up(repo, subject, between=between)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("Fix up r65505 [ci skip]", "notice"),  # ruby's git-svn history
    ("Fix up r65506 [ci skip]", "warning"),  # another revision
])
def test_a_message_naming_the_svn_revision_of_a_git_svn_commit_cites_it(repo: Repo, subject: str, severity: str) -> None:
    svn = "git-svn-id: svn+ssh://ci.ruby-lang.org/ruby/trunk@65505 b2dd03c8-39d4-4d8f-98ff-823fe69b080e"
    finding = _fixed_up(repo, subject, trailer=svn, between=True)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("message", "severity"), [
    # rubocop's `[Fix #7829]` body, its sentence wrapped over two lines: #301's work goes, and why
    ("fix: an error when a branch holds `next`\n\nThe budget was introduced by #301 to prevent\n"
     "timeouts, but it is unnecessary because the server was fixed.\n", "notice"),
    ("fix: an error when a branch holds `next`\n\nBuilds on the knob of #301.\n", "error"),  # cited, nothing goes
    ("fix: an error when a branch holds `next`\n\nSee #301. The old pool is unnecessary now.\n", "error"),  # apart
])
def test_a_sentence_naming_the_undone_pr_and_saying_its_work_goes(repo: Repo, message: str, severity: str) -> None:
    finding = _rollback_titled(repo, message)
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("message", "severity"), [
    # paperclip's `Gem dependency fixes`: the body says the change reverts, naming nothing
    ("Gem dependency fixes\n\nThere were issues with the retry knob we added\nrecently. This will revert them.\n",
     "notice"),
    ("Gem dependency fixes\n\nThis release is revertible if needed.\n", "error"),  # says nothing of reverting
    ("Gem dependency fixes\n\nThis reverts commit 0123456789ab.\n", "error"),  # names another commit: no excuse here
    # parca's squash list: `* Revert the previous fix that didn't work`
    ("Flamechart crash fix (#6336)\n\n* Revert the previous fix that didn't work\n\n* Type tags checks\n", "notice"),
    ("Flamechart crash fix (#6336)\n\n* Keep the previous fix, guard the ticks too\n", "error"),  # nothing reverted
    ("Reflect changes in the API (#1079)\n\n* Revert earlier fix made in rclcpp\n", "notice"),  # rclcpp's, no determiner
    ("Reflect changes in the API (#1079)\n\n* Revert earlier than planned\n", "error"),  # no work named
    # WRF's: "[This reverses a change made in the repository after the last release.]"
    ("Gem dependency fixes\n\nKeep the older limit. [This reverses a change\nmade after the last release.]\n", "notice"),
    ("Gem dependency fixes\n\nThis reverses the order of the retries.\n", "error"),  # no change reversed
    # ledger's: "The test files are reverted to their original argument order ... to serve as regression tests"
    ("Pre-scan --now\n\nThe test files are reverted to their original argument\norder to serve as regression tests.\n",
     "notice"),
    ("Pre-scan --now\n\nThe test files keep their original argument order.\n", "error"),  # nothing reverted
])
def test_a_body_saying_the_change_reverts(repo: Repo, message: str, severity: str) -> None:
    finding = _rollback_titled(repo, message)
    assert finding["severity"] == severity, finding["reason"]


PYTEST = "def test_stream_{0}(client):\n    body = client.get('/stream/{0}')\n    assert body.complete\n"
MARKED = '@pytest.mark.skip(reason="flaky on CI")\n'


@pytest.mark.parametrize(("marker", "beside", "severity"), [
    (MARKED, "", "notice"),  # axolotl's `rmv skip`: the skip gone with the fix, nothing said
    ('#[ignore = "Flaky test"]\n', "", "notice"),  # rolldown's, gone with its race fix
    (MARKED, "TIMEOUT = 30\n", "error"),  # work beside the skip: more than a skip goes
    ("@pytest.mark.usefixtures('db')\n", "", "error"),  # no skip: a fixture taken out
    # plumbum's, written over lines: `Hangs when using spawn`, gone when the test moved to threads
    ('@pytest.mark.skip(\n    sys.platform == "darwin",\n    reason="Hangs when using spawn",\n)\n', "", "notice"),
    ('@pytest.mark.skip(\n    sys.platform == "darwin",\n    reason="Hangs when using spawn",\n)\n', "TIMEOUT = 30\n",
     "error"),  # the call closed, then work beside it
])
def test_only_test_skips_taken_out_lose_no_work(repo: Repo, marker: str, beside: str, severity: str) -> None:
    tests = "import pytest\n\n" + "".join(PYTEST.format(i) for i in range(4))
    seed(repo)
    land(repo, "test: streams", {"tests/test_stream.py": tests})
    marked = tests.replace("def test_stream_2", marker + beside + "def test_stream_2")
    land(repo, "ci: quarantine a test (#301)", {"tests/test_stream.py": marked, "src/mod1.py": body("ci", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "fix: the stream race", {"tests/test_stream.py": tests, "src/stream.py": body("race", 4)}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


MIMA = "object BinaryIncompatibilities {{\n  val Linker = Seq(\n{0}  )\n\n  val Library = Seq(\n  )\n}}\n"
FILTERS = ("      // private[linker], not an issue.\n"
           "      exclude[DirectMissingMethodProblem](\n          \"org.scalajs.linker.backend.Emitter.withTrackAllGlobalRefs\"),\n"
           "      ProblemFilters.exclude[IncompatibleMethTypeProblem](\"org.scalajs.linker.analyzer.Infos#ClassInfo.this\"),\n")


@pytest.mark.parametrize(("filters", "severity"), [
    (FILTERS, "notice"),  # scala-js' `Towards 1.1.1.`: the release's filters, stale once it is out
    (FILTERS + "      scalacOptions += \"-Xfatal-warnings\",\n", "error"),  # a setting beside the filters
    # sbt's dependency exclusions are no compatibility filters: a library comes back on the class path
    ('      exclude("org.scala-lang.modules", "scala-xml_2.13"),\n      exclude("org.slf4j", "slf4j-simple"),\n',
     "error"),
])
def test_only_binary_compatibility_filters_taken_out_lose_no_work(repo: Repo, filters: str, severity: str) -> None:
    seed(repo)
    land(repo, "Towards 1.1.0.", {"project/BinaryIncompatibilities.scala": MIMA.format("")})
    land(repo, "Fix #301: track global refs in the emitter (#301)",
         {"project/BinaryIncompatibilities.scala": MIMA.format(filters), "src/mod1.py": body("emitter", 4)})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Towards 1.1.1.", {"project/BinaryIncompatibilities.scala": MIMA.format(""), "version.txt": "1.1.1-SNAPSHOT\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("Restored JWT-CPP", "notice"),  # domoticz's: the library's folder named, its morning's update put back
    ("Restored the Windows build", "error"),  # names no folder the files lie in
    ("Updated JWT-CPP", "error"),  # no restore wording
    ("Move JWT-CPP back into the tree", "notice"),  # minetest_game's `Move all common mods back to minetest_game`
    ("Move JWT-CPP into the tree", "error"),  # a move, nothing said to come back
    ("add back JWT-CPP", "notice"),
    ("add back jwtcpp", "notice"),  # croc's `add back testingdata` for `testing_data/`: the name run together
    ("add back jwt", "error"),  # part of the name only
])
def test_a_library_restored_by_its_folders_name(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    header = "".join(f"inline value parse_{i}(const std::string& s) {{ return value(s, {i}); }}\n" for i in range(8))
    land(repo, "vendor jwt-cpp", {"jwt-cpp/picojson/picojson.h": header, "jwt-cpp/traits/traits.h": body("traits", 4)})
    land(repo, "Added PicoJSON (#301)", {"jwt-cpp/picojson/picojson.h": header.replace("value(s,", "picojson::value(s,")},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"jwt-cpp/picojson/picojson.h": header, "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


DEPENDABOT = "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"


@pytest.mark.parametrize(("subject", "author", "severity"), [
    # smooth-app's `fix: java-360 after dependabot upgrade` setting actions/setup-java back after the bot's bump
    ("fix: java-360 after dependabot upgrade", DEPENDABOT, "notice"),
    ("fix: java-360 after dependabot upgrade", DAVE, "error"),  # a person's bump: the bot named is not its author
    ("fix: java-360 on the release build", DEPENDABOT, "error"),  # the bot not named
])
def test_a_change_naming_the_bot_whose_update_it_takes_back(repo: Repo, subject: str, author: str, severity: str) -> None:
    seed(repo)
    workflow = "jobs:\n  build:\n    steps:\n      - uses: actions/checkout@v3\n      - uses: actions/setup-java@{}\n" \
               "        with:\n          distribution: zulu\n"
    land(repo, "ci: release workflow", {".github/workflows/release.yml": workflow.format("v3.6.0")})
    land(repo, "chore(deps): bump actions/setup-java from 3.6.0 to 3.7.0 (#301)",
         {".github/workflows/release.yml": workflow.format("v3.7.0")}, author=author)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {".github/workflows/release.yml": workflow.format("v3.6.0"), "kernel.c": "int t;\n"}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("branch", "title", "merged", "severity"), [
    ("tools-2.9", "Important! Template update for nf-core/tools v2.9", True, "notice"),  # nf-core's template merges
    ("TEMPLATE", "Important! Update for nf-core/tools v2.9", True, "notice"),  # its template branch merged
    ("tools-2.9", "Important! Update for nf-core/tools v2.9", True, "warning"),  # no template named
    ("tools-2.9", "Important! Template update for nf-core/tools v2.9", False, "warning"),  # a squash: one person's commit
])
def test_a_merge_of_the_project_templates_update_carries_the_templates_rework(repo: Repo, branch: str, title: str,
                                                                               merged: bool, severity: str) -> None:
    old = seed(repo)
    land(repo, "feat: multiqc logo (#301)", {"src/mod1.py": old["src/mod1.py"] + body("logo", 4), "src/mod2.py": "LOGO = 1\n"})
    edits = {"src/mod1.py": old["src/mod1.py"] + "new_work = fresh_call(1)\n", "kernel.c": "int t;\n"}
    if merged:
        repo.git("checkout", "-q", "-b", branch)
        land(repo, "Bump the tools", edits, author=CAROL)
        repo.git("checkout", "-q", "main")
        merge_pr(repo, branch, 1140, title)
    else:
        land(repo, title, edits, author=CAROL)
    found = by_pr(check(repo, "main~1..main")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("title", "between", "severity"), [
    ("Fixup for #1630.", False, "notice"),  # elvish's maintainer, after a pull request rebased in
    ("Apply feedback for PR #1181.", False, "notice"),
    ("Fixup for the docs.", False, "warning"),  # no pull request named
    ("Fixup for #1630.", True, "warning"),  # another commit landed between: that is not the PR it names
])
def test_a_fixup_naming_the_pull_request_rebased_in_just_before_it(repo: Repo, title: str, between: bool,
                                                                   severity: str) -> None:
    old = seed(repo)
    land(repo, "Validate generated code is up to date", {"src/mod1.py": old["src/mod1.py"] + body("gen", 4),
                                                         "src/mod2.py": "CHECK = 1\n"}, author=DAVE)
    if between:
        land(repo, "edit: add del-vars support", {"src/mod3.py": "DEL_VARS = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"src/mod1.py": old["src/mod1.py"] + "new_work = fresh_call(1)\n", "kernel.c": "int t;\n"},
         author=CAROL)
    (found,) = [f for f in check(repo, "main..topic")[1]["findings"] if f["subject"].startswith("Validate")]
    assert found["severity"] == severity, found["reason"]


FLAGS = "// temp file to hide open source pipelines and secrets\n\nconst featureFlags = {{\n{}}}\n\nexport default featureFlags\n"


def _flags(on: bool, extra: str = "") -> str:
    value = "true" if on else "false"
    return FLAGS.format(f"  OPEN_SOURCE_PIPELINES: {value},\n  OPEN_SOURCE_SECRETS: {value},\n{extra}")


@pytest.mark.parametrize(("messages", "extra", "severity"), [
    # (gitness' `toggle_off_ff` branch, its commit saying `disable feature flags that were enabled by mistake`)
    (["Pipelines: hide the unfinished pages\n\nTurn them off until the pages ship."], "", "notice"),
    (["Update Istio e2e to v1.2.2\n\nDisable galley and MCP"], "", "notice"),  # flagger's, in the body
    (["Update the pipelines page"], "", "error"),  # says nothing of it: a stale tree's
    (["Update Istio e2e to v1.2.2\n\nDisable galley and MCP"], "  PIPELINE_TEMPLATES: 'v2',\n", "error"),  # and more
])
def test_settings_switched_back_off_as_the_change_says(repo: Repo, messages: list[str], extra: str, severity: str) -> None:
    seed(repo)
    path = "web/src/hooks/useFeatureFlag.ts"
    land(repo, "web: flags", {path: _flags(False)})
    land(repo, "Merge branch 'executions_skeleton' (#301)", {path: _flags(True, extra), "src/mod1.py": body("run", 4)},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    for i, message in enumerate(messages):
        land(repo, message, {path: _flags(False), "kernel.c": f"int t{i};\n"}, author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])[301]
    assert found["severity"] == severity, found["reason"]


@pytest.mark.parametrize(("subject", "severity"), [
    ("disable treeless for git #5507", "notice"),  # xmake's, minutes after the PR: the feature named, turned off
    ("Remove treeless clones again", "notice"),
    ("disable shallow clones for git", "error"),  # something else taken out: the PR's files put back silently
    ("Improve treeless clones", "error"),  # the topic named, nothing said to go
    ("Remove the clone flags", "error"),  # short, common words: no topic
])
def test_a_title_removing_what_the_undone_prs_title_names_says_it_goes(repo: Repo, subject: str, severity: str) -> None:
    # inside a stale tree's change (another PR's file put back too) only this says anything of #301
    old = seed(repo)
    land(repo, "use treeless instead of depth1 (#301)", {p: old[p].replace("scale", "filter") for p in ("src/mod1.py", "src/mod2.py")},
         author=DAVE)
    land(repo, "feat: statistics (#302)", {"src/mod3.py": old["src/mod3.py"] + body("stats", 3)}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {p: old[p] for p in ("src/mod1.py", "src/mod2.py", "src/mod3.py")} | {"kernel.c": "int t;\n"},
         author=CAROL)
    found = by_pr(check(repo, "main..topic")[1])
    assert (found[301]["severity"], found[302]["severity"]) == (severity, "error"), found[301]["reason"]


PYPROJECT = '[project]\nname = "xclim"\ndependencies = [\n    "numpy>=1.24",\n    "pandas>=2.2.0",\n    "scipy>=1.9",\n]\n'


@pytest.mark.parametrize(("title", "numpy_too", "severity"), [
    ("Fix `time_bnds` and fix for Pandas 3", False, "notice"),  # xclim's: the stopgap lifted, the dependency named
    ("Fix `time_bnds` and the bounds check", False, "error"),  # names nothing of it
    ("Fix `time_bnds` and fix for Pandas 3", True, "error"),  # a pin of numpy went too, which it does not name
])
def test_a_pin_lifted_by_a_change_naming_the_dependency(repo: Repo, title: str, numpy_too: bool, severity: str) -> None:
    seed(repo)
    land(repo, "project", {"pyproject.toml": PYPROJECT, "CHANGES.rst": "Changes\n=======\n\n- First release.\n"})
    pinned = PYPROJECT.replace('"pandas>=2.2.0"', '"pandas>=2.2.0,<3.0"')
    if numpy_too:
        pinned = pinned.replace('"numpy>=1.24"', '"numpy>=1.24,<2.0"')
    land(repo, "Pin pandas below v3.0 (#301)", {"pyproject.toml": pinned, "CHANGES.rst":
         "Changes\n=======\n\n- Temporarily pin `pandas` below v3.0.\n- First release.\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"pyproject.toml": PYPROJECT, "CHANGES.rst": "Changes\n=======\n\n- First release.\n",
                       "src/bounds.py": body("bounds", 4)}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == severity

