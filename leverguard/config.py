"""Defaults plus `[tool.leverguard]` of pyproject.toml or `.leverguard.toml`, into one frozen value."""

from __future__ import annotations

import os
import sys
from types import MappingProxyType

# re-exported: where callers have always found them
from leverguard.config_file import DEDICATED_FILE as DEDICATED_FILE
from leverguard.config_file import PYPROJECT as PYPROJECT
from leverguard.config_file import committed_file as committed_file
from leverguard.errors import ConfigError
from leverguard.records import NamedTuple

TYPE_CHECKING = False  # `typing` costs check-revert 5 ms of start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping

DEFAULT_ORIGIN = "default"
# Lock files regenerate constantly and their diffs are the slowest to read (REVERTS.md, traps): their lines
# are no evidence. One put back byte for byte is the pinned dependencies of the commit that moved it on,
# undone like any file. Built files (bundles, test snapshots) are rebuilt from sources, which carry the
# evidence: no line-level evidence either, and one put back is only a notice.
# changelog fragments: release tooling (towncrier, changesets, scriv) folds them into the changelog and deletes
# them all at every release; a stale tree deletes them too, and their text then goes nowhere
# (towncrier's folder is configurable: `docs/changelog/3475.doc.rst` in tox, falcon's `docs/_newsfragments/`;
# `+slug.misc.md` has no issue)
RELEASE_FRAGMENTS = ("CHANGES/*", "changes/*", "**/changelog.d/*", "**/CHANGELOG.d/*", "**/*newsfragments/*", ".changeset/**/*.md",
                     # and in a section's folder of towncrier's (Red-DiscordBot's `changelog.d/audio/3431.enhance.rst`)
                     "**/changelog.d/*/*", "**/CHANGELOG.d/*/*",
                     # any file of a top-level `changelog/` folder (probe-rs' `changelog/added-arm-jtag-tap-option`,
                     # its `.md` forgotten, folded in by the release like the others), or of its `fragments/`
                     # (operator-sdk's YAML entries, folded into `changelog/generated/v1.40.0.md`)
                     "changelog/*", "changelog/fragments/*", "**/changelog/[0-9]*.*.rst", "**/changelog/[0-9]*.*.md",
                     "**/changelog/+*.rst", "**/changelog/+*.md",
                     # a pull request's entry as data, for the project's own release script (vue-storefront's
                     # `packages/docs/changelog/6752.js`: `module.exports = { description, link, ... }`)
                     "**/changelog/[0-9]*.js", "**/changelog/[0-9]*.json", "**/changelog/[0-9]*.yml", "**/changelog/[0-9]*.yaml",
                     # any towncrier name, its type word first or last (virtualenv's `u.bugfix.rst`, `bugfix.2269.rst`,
                     # `2182.bugfix.txt`); a version's page (`v1.0.0.rst`) has no type word
                     "**/changelog/*.*[a-z]*.*", "**/changelog/[a-z]*[a-z].[0-9]*[0-9].*",
                     # and with no extension (pytest-xdist's `changelog/1071.bugfix`; `2024.rst` is a year's page)
                     "**/changelog/[0-9]*.[a-z][a-z][a-z][a-z]*",
                     # and named for what it fixes, its type last (twine's `fix-repo-urls-with-auth-and-port.bugfix`)
                     "**/changelog/*.bugfix", "**/changelog/*.feature", "**/changelog/*.removal", "**/changelog/*.misc",
                     "**/changelog/*.doc",
                     # one left at the top by mistake (pytest-asyncio's `731.added.rst`)
                     "/[0-9]*.[a-z]*[a-z].rst", "/[0-9]*.[a-z]*[a-z].md",
                     # towncrier's `news/` (pip), and unreleased-entry folders (GitLab's `changelogs/unreleased/`,
                     # prettier's `changelog_unreleased/`)
                     "news/*", "**/*unreleased*/**",
                     # and a towncrier-named one in a subpackage's `news/` (reflex's `packages/reflex-base/news/6741.bugfix.md`;
                     # a site's `docs/news/2024.md` has no type word)
                     "**/news/[0-9]*.*[a-z]*.*", "**/news/+*.*",
                     # and with its type word as the extension (dafny's `docs/dev/news/6296.fix`, `6077.feat`)
                     "**/news/[0-9]*.fix", "**/news/[0-9]*.feat", "**/news/[0-9]*.break", "**/news/[0-9]*.bugfix",
                     "**/news/[0-9]*.feature", "**/news/[0-9]*.removal", "**/news/[0-9]*.misc", "**/news/[0-9]*.doc",
                     # towncrier-named fragments in any `fragments/` folder (pylint's `doc/whatsnew/fragments/10707.bugfix`)
                     "**/fragments/[0-9]*.*", "**/fragments/+*.*",
                     # antsibull-changelog's (every Ansible collection's `changelogs/fragments/*.yml`, listed by name
                     # in `changelogs/changelog.yaml` by the release)
                     "changelogs/fragments/*",
                     # and by their type word in any `changes/` folder (gevent's `docs/changes/1898.misc`,
                     # `+69dc8df4.feature.rst`; not `db/changes/001_init.sql`)
                     "**/changes/*.bugfix", "**/changes/*.feature", "**/changes/*.misc", "**/changes/*.removal",
                     "**/changes/*.doc", "**/changes/*.bugfix.*", "**/changes/*.feature.*", "**/changes/*.misc.*",
                     "**/changes/*.removal.*", "**/changes/*.doc.*",
                     # any towncrier-named one, in a sub-folder per subpackage too (astropy's
                     # `docs/changes/io.fits/18882.bugfix.rst`, `docs/changes/18374.other.rst`)
                     "**/changes/**/[0-9]*.*.rst", "**/changes/**/[0-9]*.*.md",
                     # and in a `release-notes/` folder beside the versions' pages (scverse's
                     # `docs/release-notes/4013.perf.md` folded into `docs/release-notes/1.13.0.md`)
                     "**/release-notes/[0-9]*.[a-z]*[a-z].md", "**/release-notes/[0-9]*.[a-z]*[a-z].rst",
                     # or named for its issue and what it does (dataverse's `doc/release-notes/10977-globus-filesize-lookup.md`,
                     # folded into `6.5-release-notes.md`; three digits first, so no version's page is one)
                     "**/release-notes/[0-9][0-9][0-9]*-*.md", "**/release-notes/[0-9][0-9][0-9]*_*.md",
                     # one file per change in a whatsnew folder, folded into the version's page (IPython's
                     # `docs/source/whatsnew/pr/*.rst`)
                     "**/whatsnew/pr/*",
                     # release notes kept as one file per change (react-router's `.changes/*.md`)
                     ".changes/*.md", "**/.changes/*.md",
                     # and AWS's changelog tool's, as JSON (chalice's, boto3's `.changes/next-release/*.json`)
                     ".changes/next-release/*",
                     # and one per change for the next release in `.github/` (livekit's `changeset-rime-coda-...md`)
                     ".github/next-release/*",
                     # a hidden changelog folder of one file per change (towncrier's `.changelog/5413.changed`,
                     # HashiCorp's `.changelog/1234.txt`), and changie's pending entries (`changelog/pending/*.yaml`)
                     "**/.changelog/*", "**/changelog/pending/*",
                     # OpenTelemetry's chloggen entries (`.chloggen/*.yaml`), folded in by `Prepare release`
                     "**/.chloggen/*",
                     # yarn's deferred versions (`yarn version --deferred`), consumed by `yarn version apply`
                     "**/.yarn/versions/*.yml",
                     # Rush's change files (`common/changes/@scope/pkg/branch_date.json`), folded into each
                     # package's CHANGELOG.json and CHANGELOG.md by `rush publish` (rushstack's `Update changelogs`)
                     "common/changes/**/*.json")
LOCK_FILES = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "poetry.lock",
              "uv.lock", "Pipfile.lock", "pdm.lock", "Cargo.lock", "Gemfile.lock", "go.sum", "go.work.sum", "composer.lock",
              "mix.lock", "pubspec.lock", "Podfile.lock", "packages.lock.json", "flake.lock", "deno.lock",
              "bun.lock", "pixi.lock", "pylock.toml", "pylock.*.toml", "rebar.lock", "Package.resolved",
              "Cartfile.resolved", "gradle.lockfile", "*.lockfile", "conan.lock", "stack.yaml.lock",
              "cabal.project.freeze", "shard.lock", "renv.lock", "paket.lock", "Chart.lock",
              "Berksfile.lock", ".terraform.lock.hcl", "MODULE.bazel.lock",
              # Netflix Nebula's dependency lock (conductor's per-module `dependencies.lock`), written by `generateLock`
              "dependencies.lock",
              # Gradle's dependency verification (talk-android's), written by `--write-verification-metadata`
              # and `--export-keys` at every dependency update
              "verification-metadata.xml", "verification-keyring.keys", "verification-keyring.gpg",
              # any `.lock` file: a lock under a name of the project's own (orocommerce's `dev.lock`, Composer's
              # for `COMPOSER=dev.json`). Not Meteor's `.meteor/versions`: a stale checkout's old pins land in it
              # with unrelated commits (reaction's, six of them judged real), and its lines are that evidence
              "*.lock",
              # Julia's resolved environment (Oceananigans' `Manifest.toml`), written by `Pkg.resolve()`
              "Manifest.toml", "JuliaManifest.toml", "Manifest-v*.toml",
              # esy's lock folder (fnm's `esy.lock/index.json` and `opam/*/opam`), rewritten by `esy install`
              "esy.lock/**", "**/esy.lock/**",
              # pip-compile output: regenerated by every dependency bump like any lock file
              "requirements/*.txt", "**/requirements/*.txt", "constraints.txt", "**/constraints.txt")
# built bundles, rebuilt from the sources at every release
# a package manager's install tree, committed (node-gyp's vendored `node_modules/`): npm writes and deletes
# its files at every update, nobody edits them
EXCLUDED = ("node_modules/",)
BUILT_FILES = ("dist/**", "**/dist/**", "*.min.js", "*.min.css", "*.js.map", "*.css.map",
               # Vite's output (its default `build/assets/` of content-hashed bundles and the manifest naming them:
               # bagisto's and firefly-iii's `public/build/`, rebuilt and re-committed by every front-end change),
               # Laravel Mix's manifest
               "**/build/assets/**", "**/build/manifest.json", "**/build/.vite/**", "**/mix-manifest.json",
               # Rails' jsbundling and cssbundling output (administrate's `app/assets/builds/`), rebuilt by `bin/dev`
               "app/assets/builds/**", "**/app/assets/builds/**",
               # openapi-generator's manifest of the files it wrote (`.openapi-generator/FILES`, `VERSION`)
               "**/.openapi-generator/*",
               # sqlx's offline query cache (`cargo sqlx prepare` writes one file per query the sources hold: martin's)
               "**/.sqlx/query-*.json",
               # protoc's output (Go, gRPC-gateway, Python, C++, nanopb's C), regenerated from the `.proto` beside it
               "*.pb.go", "*.pb.gw.go", "*_pb2.py", "*_pb2.pyi", "*_pb2_grpc.py", "*.pb.cc", "*.pb.h", "*.pb.c",
               # a generator's output named for it (T4's `Access.generated.cs` in linq2db, GraphQL Code Generator's
               # `*.generated.ts`, Sourcery's `*.generated.swift`), written again at its next run
               "*.generated.*",
               # test snapshots (syrupy, jest, vitest, insta), regenerated from the code they record
               "__snapshots__/**", "**/__snapshots__/**", "*.snap", "*.ambr",
               # testthat's snapshots, and the reports R's revdepcheck writes (dplyr's `revdep/problems.md`)
               "_snaps/**", "**/_snaps/**", "revdep/*.md",
               # approval-test baselines (ApprovalTests, Catch2's `Baselines/*.approved.txt`, Verify's
               # `Test.Method.verified.txt`), written by the run
               "*.approved.*", "*.verified.*",
               # linters' baselines of accepted findings, written by the tool (`phpstan --generate-baseline`,
               # `rubocop --auto-gen-config`, `detekt --create-baseline`, Android lint, Psalm)
               "phpstan-baseline.neon", "phpstan-baseline.php", "baseline.neon", ".rubocop_todo.yml",
               "detekt-baseline.xml", "lint-baseline.xml", "psalm-baseline.xml",
               # and split into a folder (PHP-CS-Fixer's `dev-tools/phpstan/baseline/*.php`)
               "**/phpstan/baseline/*",
               # screenshot tests' recorded images (matomo's `tests/UI/expected-screenshots/`, Playwright's
               # `*.spec.ts-snapshots/`, jest-image-snapshot's, swift-snapshot-testing's, Paparazzi's), re-recorded
               # whenever the UI changes: back to an older image when the UI goes back
               "**/expected-screenshots/**", "**/__screenshots__/**", "**/__image_snapshots__/**", "**/__Snapshots__/**",
               "**/*-snapshots/*.png", "**/snapshots/images/**", "**/screenshots/**/*.png",
               # vendored dependencies (`go mod vendor`, a copied package): rewritten whole at each update; CocoaPods'
               # `Pods/` (its project, support files and sources), which every `pod install` writes (lottie-ios'
               # `Example/Pods/Pods.xcodeproj`: 10 false findings in one history)
               "vendor/**", "**/vendor/**", "Pods/**", "**/Pods/**",
               # binary-compatibility dumps (Kotlin's validator: `apiDump` writes `api/<module>.api`, `.klib.api`)
               "api/*.api", "**/api/*.api",
               # expected outputs (trybuild's `tests/ui/*.stderr`, trycmd's and snapbox's `*.stdout`: eza's powertests),
               # rewritten by each toolchain bump or regeneration
               "*.stderr", "*.stdout",
               # golden files, rewritten by the tests' `-update` run (kuma's `*.golden.yaml`, envoy gateway's
               # `testdata/out/`)
               "*.golden", "*.golden.*", "**/golden/**", "**/testdata/out/**",
               # a test run's expected output, copied from its results (pg_regress' `expected/*.out`: citus';
               # zaproxy's `integration_tests/results/baseline*.out`)
               "**/expected/*.out", "**/results/*.out", "**/result/*.out",
               # a compiler's tests' expected output, written by the test run's update mode (dafny's `Foo.dfy.expect`,
               # Idris' `tests/.../expected`, AssemblyScript's `tests/compiler/*.debug.wat`, the WebAssembly text its
               # compiler wrote for each test)
               "*.expect", "*.expected", "**/expected", "**/tests/**/*.wat", "**/test/**/*.wat",
               # (and Creusot's, the Coma and MLCFG it wrote for each test: `tests/should_succeed/*.coma`)
               "**/tests/**/*.coma", "**/tests/**/*.mlcfg",
               # a prover's session, written by Why3 as it replays the proofs (`why3session.xml`, `why3shapes.gz`)
               "why3session.xml", "why3shapes.gz",
               # Sphinx's HTML output, committed (cryptol's `docs/RefMan/_build/html/`), rebuilt from the sources
               "**/_build/html/**",
               # a conformance suite's expected failures (protobuf's `failure_list_<language>.txt`), pruned as tests pass
               "failure_list*.txt", "**/failure_list*.txt",
               # the Compose stability analyzer's dump of every composable's signature (wire-android's
               # `app/stability/app-devDebug.stability`), rewritten by the build
               "*.stability",
               # Next.js's type stub, rewritten by every `next dev` and `next build` (safe-wallet's), API Extractor's
               # reports (`*.api.md`, "Do not edit this file": firebase's `common/api-review/`), and a tool's cache
               # folder committed (viem's content-hashed `site/.cache/`)
               "next-env.d.ts", "**/next-env.d.ts", "*.api.md", ".cache/**", "**/.cache/**",
               # scratch playgrounds, each commit overwriting the last experiment with its own (zod's `play.ts`)
               "play.ts", "play.js", "playground.ts", "playground.js", "scratch.py",
               # an IDE's project files, rewritten by each developer's IntelliJ or Android Studio (AndroidAPS'
               # `.idea/misc.xml` language level and `wear.iml` source folders flipping with whoever committed)
               ".idea/**", "**/.idea/**", "*.iml",
               # and its older file-based format (htsjdk's `Picard-public.ipr` inspection options flipping)
               "*.ipr", "*.iws",
               # an RO-Crate's metadata, written from the README, the version and the git history by the release
               # tooling (nf-core's `ro-crate-metadata.json`, rewritten at every version bump)
               "ro-crate-metadata.json", "**/ro-crate-metadata.json")

MAX_FILE_SIZE = 8 << 20  # git.MAX_FILE_SIZE, the default of `max_file_size`


class Key(NamedTuple):
    """One configuration key: where it lives, its type, its default and what it does."""

    section: str  # "" for the top level, else the sub-table name ("levers", "message", ...)
    name: str
    kind: str  # "str", "int", "bool", "list[str]" or "table"
    default: Any
    doc: str

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}" if self.section else self.name


DEFAULT_FORBIDDEN = [
    "scratch/", ".claude/", "experiment_history/", "*.csv", "outputs/", ".pk_compile", "*.pk_compile",
]

KEYS: tuple[Key, ...] = (
    # -- staged-path guard (issue #2)
    Key("", "forbidden_paths", "list[str]", DEFAULT_FORBIDDEN,
        "gitignore-style patterns no commit may add or modify; replaces the defaults"),
    Key("", "extra_forbidden_paths", "list[str]", [], "patterns added to `forbidden_paths`"),
    Key("", "allowed_paths", "list[str]", [], "exceptions to the forbidden patterns, e.g. `tests/data/*.csv`"),
    # -- every engine (issue #11: a 200 MB binary cost 414 MB to roll back, 966 MB to gate)
    Key("", "max_file_size", "int", MAX_FILE_SIZE,
        "bytes; a file larger than this is compared by object id and size only, never read or diffed as text: "
        "the revert checks see whole-file rollbacks of it but no line-level undo, and the lever checks "
        "skip it with a warning that names it (8 MiB)"),
    # -- lever engine (issue #4)
    Key("levers", "lever_patterns", "list[str]", ["MPK_(DSV3_)?[A-Z0-9_]+"],
        "regular expressions (full match) naming lever macros; empty: a lever is any macro both gated in C and injected in Python"),
    Key("levers", "ignore_macros", "list[str]", ["MPK_MAX*", "MPK_PAGE*", "MPK_PROFILING*", "MPK_NUM*"],
        "glob patterns of macros that are never levers (sizes, switches)"),
    Key("levers", "lever_prefixes", "list[str]", ["MPK_DSV3_", "MPK_"],
        "prefixes a message may leave out when naming a lever (`FUSED_ROPE` for `MPK_DSV3_FUSED_ROPE`)"),
    Key("levers", "source_extensions", "list[str]", [".h", ".hh", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh"],
        "C-family file extensions scanned for gate sites"),
    Key("levers", "ledger", "list[str]", ["experiment_history/**"],
        "experiment-history files (CSV or Markdown tables) read from the working tree: regular files inside it of at most 1 MiB; symlinks, FIFOs and larger files are skipped"),
    Key("levers", "win_words", "list[str]", ["WIN"], "ledger verdicts that mark a winner"),
    Key("levers", "dead_words", "list[str]", ["KILL", "NULL", "REGRESS"], "ledger verdicts that mark a dead lever"),
    Key("levers", "diagnostic_markers", "list[str]", ["PROBE", "NOOP", "POISON", "XOR"],
        "name fragments that mark a diagnostic lever"),
    Key("levers", "leave_untouched", "list[str]", [], "levers that must never be hard-wired or removed"),
    Key("levers", "geometry", "table", {}, "production geometry, e.g. `{world_size = 8}`, to evaluate guards"),
    Key("levers", "surface", "list[str]", [], "globs of the files a lever change may touch (default-build gate); empty: any"),
    Key("levers", "abi_files", "list[str]", [], "files whose changes alter the ABI surface"),
    Key("levers", "abi_forbidden_tokens", "list[str]", [], "tokens that must not appear in the ABI files"),
    # -- commit-message guard (issue #5)
    Key("message", "disable", "list[str]", [], "rule ids switched off"),
    Key("message", "co_author", "str", "levers",
        "when a Co-Authored-By trailer is required: `levers` on commits that change a lever or touch "
        "`co_author_paths`; `required` on every commit; `validate` never. Every trailer present is validated "
        "in every mode"),
    Key("message", "co_author_paths", "list[str]", [],
        "git glob pathspecs (`**` spans folders, e.g. `kernels/**`); a commit that changes one requires a "
        "Co-Authored-By trailer in the `levers` mode"),
    Key("message", "co_authors", "list[str]", [],
        "Co-Authored-By values the template pre-fills; with none, a commit that requires the trailer gets a "
        "placeholder the co-author rule rejects until it is filled in"),
    Key("message", "bot_authors", "list[str]", ["dependabot[bot]", "renovate[bot]", "github-actions[bot]"],
        "commit authors the message rules skip, by author name or email: an entry matches the name, the "
        "email, or its local part (`41898282+github-actions[bot]@users.noreply.github.com` is "
        "`github-actions[bot]`)"),
    Key("message", "pitfall_errors", "list[str]", ["WIN-BODY-MISSING", "STALE-INJECTION", "PARTIAL"],
        "lever pitfalls of the staged change (rule `lever-pitfalls`) that refuse the commit; the other kinds "
        "(ORPHANED-FUNCTION) are warnings, and a note when the message names the function as a known one"),
    Key("message", "sections", "table", {
        "hard_wired": "Hard-wired", "reverted": "Reverted", "diagnostics": "Diagnostics removed",
        "abi": "ABI", "verification": "Verification", "pre_merge_gate": "Pre-merge gate",
    }, "the names of the lever sections of a cleanup message"),
    Key("message", "not_run_words", "list[str]", [
        "not run", "not been run", "did not run", "didn't run", "not yet run", "blocked", "skipped",
        "could not run", "couldn't run", "unable to run", "not verified", "unverified", "untested", "not tested",
        "pending",
    ], "phrases in `Verification:` that say a check did not run, so `Pre-merge gate:` must name it (whole words, any case)"),
    # -- revert guard (issue #3)
    Key("revert", "window", "int", 150, "first-parent commits of BASE examined as candidates"),
    Key("revert", "since", "str", "", "only candidates newer than this date (git date syntax); empty: no bound"),
    Key("revert", "exclude", "list[str]", list(EXCLUDED), "gitignore-style patterns of generated files never reported"),
    Key("revert", "fragments", "list[str]", list(RELEASE_FRAGMENTS),
        "changelog fragments (gitignore-style): release tooling folds them into the changelog; one deleted counts only when its text goes nowhere in the change"),
    Key("revert", "lock_files", "list[str]", list(LOCK_FILES),
        "lock files (names, or gitignore-style patterns): no line-level evidence; one put back byte for byte counts like any file"),
    Key("revert", "built_files", "list[str]", list(BUILT_FILES),
        "built bundles, test snapshots, linter baselines, API dumps and scratch playgrounds (names, or gitignore-style patterns): no line-level evidence, "
        "one put back is a notice"),
    Key("revert", "ack_file", "str", ".leverguard-acks", "file of reviewed findings: one SHA or #N and a reason per line"),
    Key("revert", "override_label", "str", "leverguard: allow-revert", "PR label that declares every finding (bot)"),
)

_KEYS_BY_SECTION: dict[str, dict[str, Key]] = {}
for _key in KEYS:
    _KEYS_BY_SECTION.setdefault(_key.section, {})[_key.name] = _key
SECTIONS = tuple(_KEYS_BY_SECTION)


class Config(NamedTuple):
    """The effective configuration: every key's value and where it came from."""

    values: Mapping[str, Any]
    origins: Mapping[str, str] = MappingProxyType({})
    source: str | None = None  # the file read, relative to the root, or None

    def get(self, dotted: str) -> Any:
        return self.values[dotted]

    def origin(self, dotted: str) -> str:
        return self.origins.get(dotted, DEFAULT_ORIGIN)


def defaults() -> Config:
    return Config({key.dotted: key.default for key in KEYS})


def find_file(root: str) -> tuple[str, str] | None:
    """(file name, path) of the configuration file at the root; `.leverguard.toml` wins."""
    dedicated = os.path.join(root, DEDICATED_FILE)
    if os.path.isfile(dedicated):
        return DEDICATED_FILE, dedicated
    pyproject = os.path.join(root, PYPROJECT)
    if os.path.isfile(pyproject):
        return PYPROJECT, pyproject
    return None


def load(root: str) -> Config:
    """The configuration of the repository whose working tree is at `root`."""
    found = find_file(root)
    if found is None:
        return defaults()
    name, path = found
    try:
        with open(path, "rb") as fh:
            text = fh.read()
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read it ({exc.strerror}): fix its permissions") from exc
    return parse(text, name)


def at_commit(read: Callable[[str], tuple[str, bytes] | None], commit: str) -> Config:
    """The configuration as committed at COMMIT (BASE, for every check of a change: a change cannot
    switch its own check off), validated like the working tree's."""
    name, data = committed_file(read, commit)
    return defaults() if name is None else parse(data, name)


def _toml() -> Any:
    """The TOML parser, imported when a file is parsed (the cached configuration of a check needs none)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib


def parse(text: bytes, name: str) -> Config:
    """Parse a `.leverguard.toml` or `pyproject.toml` read from disk or from a commit."""
    try:
        document = _toml().loads(text.decode("utf-8"))
    except (UnicodeDecodeError, _toml().TOMLDecodeError) as exc:
        raise ConfigError(f"{name}: invalid TOML ({exc}): fix the file") from exc
    if name.endswith(PYPROJECT):
        tool = document.get("tool", {})
        if not isinstance(tool, dict):  # `tool = 3`: a traceback in every command before (issue #11)
            raise ConfigError(f"{name}: `tool` must be a table, got {_kind_of(tool)}: write [tool.leverguard]")
        table = tool.get("leverguard")
        if table is None:
            return defaults()
        where = "[tool.leverguard]"
        if not isinstance(table, dict):
            raise ConfigError(f"{name}: [tool.leverguard] must be a table, got {_kind_of(table)}: "
                              "write the keys under a [tool.leverguard] header")
    else:
        table, where = document, "the top level"
    return _validate(table, name, where)


def _validate(table: Mapping[str, Any], name: str, where: str) -> Config:
    values = {key.dotted: key.default for key in KEYS}
    origins: dict[str, str] = {}
    for raw_name, raw_value in table.items():
        if raw_name in _KEYS_BY_SECTION and raw_name != "":
            if not isinstance(raw_value, dict):
                raise ConfigError(f"{name}: [{raw_name}] must be a table, got {_kind_of(raw_value)}")
            for sub_name, sub_value in raw_value.items():
                key = _lookup(name, raw_name, sub_name, f"[{raw_name}]")
                values[key.dotted] = _check_type(name, key, sub_value)
                origins[key.dotted] = name
            continue
        key = _lookup(name, "", raw_name, where)
        values[key.dotted] = _check_type(name, key, raw_value)
        origins[key.dotted] = name
    return Config(values, origins, name)


def _lookup(name: str, section: str, key_name: str, where: str) -> Key:
    known = _KEYS_BY_SECTION.get(section, {})
    if key_name not in known:
        choices = ", ".join(sorted(known) + ([f"[{s}]" for s in SECTIONS if s] if not section else []))
        raise ConfigError(f"{name}: unknown key '{key_name}' in {where}: known keys are {choices}")
    return known[key_name]


def _check_type(name: str, key: Key, value: Any) -> Any:
    value = _check_kind(name, key, value)
    if key.dotted == "levers.lever_patterns":
        _check_regexes(name, key, value)
    if key.dotted == "max_file_size" and value < 1:
        raise ConfigError(f"{name}: key 'max_file_size' must be at least 1 (bytes), got {value}")
    return value


def _check_regexes(name: str, key: Key, patterns: list[str]) -> None:
    import re

    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{name}: key '{key.dotted}': {pattern!r} is not a regular expression ({exc}): "
                              "fix it") from exc


def _check_kind(name: str, key: Key, value: Any) -> Any:
    ok = {
        "str": isinstance(value, str),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "list[str]": isinstance(value, list) and all(isinstance(item, str) for item in value),
        "table": isinstance(value, dict),
    }[key.kind]
    if not ok:
        wanted = {"list[str]": "a list of strings", "table": "a table", "int": "an integer",
                  "bool": "true or false", "str": "a string"}[key.kind]
        raise ConfigError(f"{name}: key '{key.dotted}' must be {wanted}, got {_kind_of(value)}")
    return value


def _kind_of(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


def forbidden_rules(config: Config) -> list[tuple[str, str]]:
    """(pattern, origin) of every forbidden pattern, defaults or replaced, plus the extras."""
    rules = [(p, config.origin("forbidden_paths")) for p in config.get("forbidden_paths")]
    rules += [(p, config.origin("extra_forbidden_paths")) for p in config.get("extra_forbidden_paths")]
    return rules


def to_toml(config: Config) -> str:
    """The effective configuration as a `.leverguard.toml` document."""
    import tomli_w

    document: dict[str, Any] = {}
    for key in KEYS:
        target = document if not key.section else document.setdefault(key.section, {})
        target[key.name] = config.get(key.dotted)
    header = f"# effective leverguard configuration: defaults + {config.source or 'no file'}\n"
    return header + tomli_w.dumps(document)


def reference_markdown() -> str:
    """Every key as a markdown table row: the README's configuration reference."""
    import json

    rows = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    for key in KEYS:
        default = json.dumps(key.default, ensure_ascii=False).replace("|", "\\|")
        rows.append(f"| `{key.dotted}` | {key.kind} | `{default}` | {key.doc} |")
    return "\n".join(rows)
