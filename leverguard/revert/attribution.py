"""From path hits to one finding per undone commit: evidence, severity, declarations, the repair."""

from __future__ import annotations

import posixpath
import re
import shlex
from collections import Counter

from leverguard import git
from leverguard.patterns import lazy
from leverguard.records import NamedTuple
from leverguard.revert.context import Context
from leverguard.revert.declared import (reopens_dev_heading, switches_dependency_source, lifts_caps_by_name, TODO_MARK, removes_its_topic, spells_stems, mirrored_revision, reverted_revisions, restores_folders, ENTRIES_WORD, RELEASE_TITLE, VERSION_IN_TITLE, VERSION_NUMBER, downgrades_by_name, pin_cycle, cites_pr_going, says_it_reverts, CONVENTIONAL_FOLDER, PR_SUBJECT, REVERT_BRANCH_NAME, Declarations, brings_back_by_name, cites_last_commit, cites_revision, placeholders_only, release_step, says_version_back, substitutes, unskips, calls_itself_a_revert, carries_reverted, inverts_title, names_what_it_puts_back, cites_commit, cites_pr, described, is_merge_of_branch,
                                       is_revert, does_again, merges_a_release_line, repairs_a_merge, names_code, names_folders, names_paths, names_release, names_versions,
                                       names_bumped, names_undone, pr_number, subject_pr, release_steps, pr_title, removes_their_topic, reverted_pr, reverted_shas, reverted_subject, same_work, says_lowers, says_relanded,
                                       says_deletes, says_deletes_entries, says_resets, says_adds_missing, releases_dev_pin, toggles_comments, reverts_by_topic, toggles_skips, switches_back_off, says_fixes_regression, says_removes_comments, speaks_of_imports, merges_template_update, follows_up_a_pr, says_deletes_tests, says_ours_strategy, enables_what_was_off, brings_in_a_revert_of, comments_toggled, names_a_commit, says_restores, restores_released_entries, says_stray, formats, names_removed_block, names_removed_again, names_brought_back, reenables, backs_out, removes_by_name,
                                       says_temporary, notes_its_own_undoing, awaits_the_change, same_issue, sets_versions, shares_topic, speaks_of_release,
                                       runs_go_tool, says_generates, says_regenerates, syncs_translations, speaks_of_translation, skips_only, compat_filters_only, titled_after, removes_debug_output)
from leverguard.revert.hunks import CHANGELOG, MOVED_SHARE, TEXT_LINE, is_changelog
from leverguard.revert.findings import (ERROR, EXACT_KINDS, MIN_HUNK_LINES, NOTICE, SEVERITIES, WARNING, Evidence,
                                        RevertFinding, Tally)
from leverguard.revert.identity import Identities, is_bot, is_dependency_bot
from leverguard.revert.rules import gitignore_matcher
from leverguard.revert.model import Change, Commit, State, display
from leverguard.revert.patch import (FilePatch, Hunk, prose, translation_catalog, translated_resource, bound_names, import_language, import_list_items, imported_names, imports_only, compared_letters, compared_lines, moves_versions_back, names_one_import, own_version_only, prerelease, set_back, squeeze, version_pairs, widens_to_major, written_on,
                                     versions_move_on, SEMVER_MANIFESTS)
from leverguard.revert.signals import PathHit, moved_away, required_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterator, Mapping, Sequence

    from leverguard.revert.hunks import PathUndo

MIN_FOLDER_FILES = 2  # a "whole module folder" holds at least this many files the commit added
MIN_ROLLBACK_LINES = 3  # below this, a rollback that restores nothing (it only deletes added lines) is a deletion
OLD_DAYS = 45  # line-level undos of older work are notices: stale trees undo hours or days of work (REVERTS.md)
OLD_FILE_DAYS = 90  # whole files, stronger evidence, get twice that
# a file brought back from the dead ages slowest: 5 months on is a real stale branch's (cht-core's); brought
# back edited over a year after its deletion, it was written anew (lazydocker's `test.sh` for GitHub Actions,
# 977 days after #164 deleted it; 7 of 7 errors that old on 400 judged histories were not lost work), while an
# exact copy is what an old tree carries (the shared corpus' slow kodiak history)
DEAD_FILE_DAYS = 365
TINY_LINES, TINY_DAYS = 2, 14  # one line put back, weeks later: a toggle (pins, badges, values), not a stale tree
# names many folders hold: one of them deleted here and another added there is no move
CONVENTIONAL_NAME = lazy(rb"(__init__|__main__|index|main|mod|lib|conftest|setup|readme|license|changelog|"
                               rb"makefile|package|cargo|pyproject|tsconfig|dockerfile|\.\w+)(\.[\w.]+)?$", re.IGNORECASE)
TOKEN = lazy(rb"\w+|\W")  # a squeezed line's words and marks, to tell a rename from another edit
MIN_SWEEP_EDITS = 5  # other files given the very same edit: the change sweeps the code base (a rename)
MIN_SWEEP_FILES = 2  # files with a few of a commit's hunks undone each: an edit sweep redone, no stale copy
SMALL_SHARE = 1 / 6  # of an own commit's lines: a hunk or two of it undone, the rest kept, is that work revised
STALE_SHARE = 1 / 3  # of a recent commit's hunks on a path: less than this undone, the rest kept, is an edit
MIN_REWRITTEN_HUNKS = 3  # hunks of a commit each rewritten where it stood: a change made call by call
REWRITTEN_SHARE = 0.8  # of a commit's deleted lines, those with new lines written beside them: that code rewritten
FAR_COMMITS = 50  # line-level undos of work landed this many commits before the base: no stale tree is that old
# a CI service's configuration: its author tries a setting, sees the run, and takes it back ("fix ci")
CI_CONFIG = lazy(rb"^(\.github/(workflows|actions)/|\.gitlab-ci\.yml$|\.gitlab/ci/|\.circleci/|\.?azure-pipelines[^/]*\.ya?ml$|"
                 rb"\.azure-pipelines/|\.travis\.yml$|appveyor\.yml$|\.appveyor\.yml$|\.buildkite/|\.drone\.yml$|"
                 rb"\.woodpecker(\.yml$|/)|Jenkinsfile$|\.cirrus\.yml$)|"
                 # Azure DevOps' pipelines kept in a folder of their own at any depth (linq2db's
                 # `Build/Azure/pipelines/default.yml`, dotnet's `eng/pipelines/`)
                 rb"([^/]+/)*(\.?[Aa]zure[-_]?[Pp]ipelines|\.?[Pp]ipelines)/([^/]+/)*[^/]+\.ya?ml$")
OWN_DIRECT_HOURS = 24  # an author's direct push taken back by their own within this many hours: work in progress
OWN_CI_DAYS = 14  # its own CI setting taken back within this many days: trial and error, not a stale copy
FIXUP_SECONDS = 86400  # an author's follow-ups of their commit (`fix build`, `fix test`) land within a day
RECENT_COMMITS = 10  # a one-line undo counts only against the last few commits before the change's base
GENERATED_KINDS = ("inverse-hunk", "version-set-back", "rollback")  # a generated file's lines: rewritten, not lost
LATEST_COMMITS = 3  # the very last commits before the base: any tree that lacks them is stale, whatever their age
WHOLE_FILE_KINDS = ("rollback", "resurrected", "deleted-added")
CITED = lazy(r"(?<![\w/&])#(\d+)\b")  # an issue or PR a title cites
SUBTREE_DIR = lazy(r"^git-subtree-dir:\s*(\S+)\s*$", re.MULTILINE)  # `git subtree add/pull --squash` writes it
REVERTED_MERGE = lazy(r"\brevert\w*\s+[\"'`]?merge\b", re.IGNORECASE)  # `Revert "Merge branch 'develop'..."`
NOTE_REVERTS = lazy(rb"^[-*]?(this)?revert", re.IGNORECASE)  # a fragment's line opens so (spaces squeezed out)
# a header comment saying a tool writes the file (GitHub's linguist reads the same markers), or that a sync
# copies it from another repository, whose copy overwrites local edits (Prometheus's `# This action is synced
# from https://github.com/prometheus/prometheus`)
MIN_DELETED_NAME = 6  # a deleted folder's or file's name this long is distinctive enough to be named by a line
BROUGHT_BACK = ("resurrected", "kept-by-merge")  # evidence of a deleted file come back
# a line that opens as a comment, in any of the usual syntaxes (`%` for TeX, R's Rd pages, Erlang; roff's `.\"`)
COMMENT_LINE = rb"^\s*(?:#|//|/\*|\*|<!--|--|;|%|\.\\\"|'\\\")"
COMMENTED = lazy(COMMENT_LINE)  # a comment-only line
GENERATED_MARK = lazy(COMMENT_LINE + rb".*(\b(do not|don't) (edit|modify|amend)\b|@generated\b|"
                      rb"\b(auto[- ]?|automatically )generated\b|\bsync(ed|hroni[sz]ed) from\b|"
                      rb"\bthis file is managed by\b|"  # dry-rb's configs, synced from their devtools
                      # a generator's signature (mermaid's `/* parser generated by jison 0.4.18 */`)
                      # (or a man page's: syncthing's `.\" Man page generated from reStructuredText.`)
                      rb"\b(parser|lexer|scanner|file|code|module|source|page)\s+(was\s+|is\s+)?generated\s+(by|with|from)\b|"
                      # (a file named as generated from its source: usethis' `<!-- README.md is generated from
                      # README.Rmd. Please edit that file -->`, knitted again at every build)
                      rb"\.\w+\s+(is|was)\s+generated\s+(by|with|from)\b|"
                      # (Bison's `// A Bison parser, made by GNU Bison 3.7.2.`)
                      rb"\b(parser|lexer|scanner), (made|produced) by (GNU )?\w+ v?\d)"
                      # or a comment opening with it (unplugin-vue-components' `// Generated by unplugin-vue-components`)
                      rb"|" + COMMENT_LINE + rb"\s*generated (by|with|using) \S"
                      rb"|^\s*generated (by|with|using)\b", re.IGNORECASE)  # auto-changelog's prose header line
GENERATED_HEADER_LINES, GENERATED_HEADER_BYTES = 5, 1024
LINT_SWITCH = lazy(rb"\s*(?:/\*|//|#)\s*(?:eslint-disable|tslint:disable|prettier-ignore|@ts-nocheck|jshint|"
                   rb"jscs:disable|noqa|pylint:\s*disable|rubocop:disable|clang-format off)\b")
A_WORD = lazy(rb"[A-Za-z]{3}")  # a comment line with none is a drawing or a bare opener (`/**`, `#  | |_| | __`)
FRONT_MATTER_BYTES = 4096  # a page's YAML front matter, read past to the header below it
BLOCK_COMMENT_OPEN = lazy(rb"\s*(<!--|/\*)")  # a block comment's opener, and what closes it
CLOSERS = {b"<!--": b"-->", b"/*": b"*/"}
# Go's marker, which may follow a license comment (controller-gen's `zz_generated.deepcopy.go`): its exact form only
GO_GENERATED = lazy(rb"^// Code generated .* DO NOT EDIT\.$", re.MULTILINE)
GO_GENERATED_BYTES = 4096
ROXYGEN_PAGE = lazy(rb"(?:^|/)man/[^/]+\.Rd$")  # an R package's help page, and DESCRIPTION's roxygen2 stamp
ROXYGEN_NOTE = lazy(rb"^RoxygenNote:", re.MULTILINE)
# a file's source beside it, of one stem, that a tool renders it from at every build
RENDERED_FROM = {b"md": (".Rmd", ".qmd"), b"rs": (".lalrpop",), b"c": (".y", ".l"), b"css": (".scss", ".sass", ".less"),
                 b"js": (".coffee",)}
# and Java's annotation on a generated class, after the imports (conductor's `@Generated("...protogen")` mapper)
JAVA_GENERATED = lazy(rb"^@(?:(?:javax|jakarta)\.annotation\.(?:processing\.)?)?Generated\(", re.MULTILINE)
HTML_PAGE = lazy(rb"\s*(<!doctype html|<html)", re.IGNORECASE)
HTML_FOOTER_MARK = lazy(rb"\b(generated (by|with|using)|created using)\b", re.IGNORECASE)
GENERATED_FOOTER_BYTES = 2048
# a comment line saying a tool writes the block below it (fastlane's `<!-- This table is regenerated and resorted
# on each release -->`, doctoc's `<!-- START doctoc generated TOC ... auto update -->`, all-contributors' `Do not
# remove or modify this section`); a person's `# Do not change this order` guards their own lines
# (and Rails' annotate gem's `# == Schema Information` block of a model's columns, rewritten from each developer's
# local database: lago's columns flipping order from one commit to the next)
SECTION_MARK = lazy(COMMENT_LINE + rb".*(\bre-?generated\b|\bauto-?generated\b|\bautomatically generated\b|"
                    rb"\bauto[- ]?updated?\b|\bdo\s*n[o']?t\s+(remove\s+or\s+)?(edit|modify)\s+this\s+"
                    rb"(section|block|table|list|part)\b|\b(start|begin)\b.*\bgenerated\b|== schema info(rmation)?\b)",
                    re.IGNORECASE)
SECTION_WORDS = (b"generated", b"auto", b"schema info")  # (lowered) with DO_NOT, a word each of SECTION_MARK's needs
DO_NOT = lazy(rb"do\s*n[o']?t")
SECTION_OPENS = lazy(rb"\b(start|begin)\b", re.IGNORECASE)  # its block runs to a line marking the end
SECTION_ENDS = lazy(COMMENT_LINE + rb".*\bend\b", re.IGNORECASE)
MAX_HEADER_READS = 4  # files with evidence whose headers are read (a blob each), of commits undone in that many or fewer
MAX_HEADER_BLOB = 8 << 20  # a larger file's header is not worth reading it whole (git's max_file_size default)
ENTRY_KEY = lazy(rb"[\"']?([\w.@-]+)[\"']?[:=](?=.)")  # a catalog entry's key (squeezed): `"key":`, `key=`
WORDED = lazy(rb"[A-Za-z0-9\x80-\xff]{2}")  # a line with a word in it, not brackets alone
MAX_TRANSLATION_LIKENESS = 0.5  # a value written over a placeholder this much like it is an edit, no translation
XCODE_PROJECT = b".xcodeproj/"  # an Xcode project's folder, and the specs XcodeGen writes one from
XCODEGEN_SPECS = (b"project.yml", b"project.yaml")
MAX_SIBLING_FILES = 400  # catalogs of a translation folder read for copies of entries; more: none are
MAX_SIBLING_BYTES = 16 << 20
MIN_CATALOG_KEY = 6  # a catalog key this long is named on purpose where code uses it (`EstimatedFilament`)
LIST_KEY = lazy(rb"[(\[{]?[\"']?[\w-]{1,16}[\"']?[:=]?[(\[{]?")  # a key opening a list (squeezed): `(deps`, `"files":[`
BOT_NAME = lazy(r"([A-Za-z][\w-]{3,}?)(?:-bot|\[bot\])?$")  # a bot's account by its name: `dependabot[bot]`
DOTTED_NUMBER = lazy(rb"\d+(?:\.\d+)+")  # a version as a heading writes it, every part (`2.18`, `1.4.2`)
# where a name starts in a line squeezed of its spaces: after no word character, or after a keyword that
# stands before names (`asLocale`, `newBuffer(`, `returnre.sub(`)
SQUEEZED_WORD_START = rb"(?:(?<!\w)|" + b"|".join(rb"(?<=(?<!\w)" + word + b")" for word in (
    b"as", b"new", b"typeof", b"instanceof", b"extends", b"implements", b"return", b"await", b"yield", b"in", b"is",
    b"not", b"raise", b"throw", b"case", b"else")) + b")"
GO_MODULE_FILES = lazy(rb"go\.(?:mod|sum|work|work\.sum)")  # a Go module's requirements and checksums
# a go.mod `replace` of a module by a folder (squeezed: `replacesigs.k8s.io/kustomize/api=>../../../api`)
GO_LOCAL_REPLACE = lazy(rb"replace[\w./~-]+(?:v[\w.+-]+)?=>(\.\.?/[\w./-]*)")
# a merge whose first parent is not the mainline: `git pull`'s (`Merge branch '3.x' of https://... into 3.x`),
# or a branch merged into a topic branch that then landed as it was (`Merge branch 'main' into fix-padding`)
PULL_MERGE = lazy(r"Merge (?:remote-tracking )?branch '([^']+)' of \S+(?: into \S+)?\s*")
INTO_TOPIC = lazy(r"Merge (?:remote-tracking )?branch '([^']+)' into (\S+)\s*")
MAINLINE = lazy(r"(?:origin/)?(?:main|master|develop|development|dev|trunk|next|stable|release[/-]\S*|v?\d+(?:\.\d+)*(?:\.x)?)")
UNUSED_IMPORT = "only imports, unused where taken out, used by new lines where put back"  # (_unused_imports)
MAX_MAINLINE_PATHS = 64  # paths with evidence a merge into a topic branch has compared with its second parent
MIN_USED_NAME = 3  # an imported name shorter than this is found in any line squeezed of its spaces
# empty files whose presence is the work: a package, its type hints, a folder kept, a site served as is
MARKER_FILES = frozenset((b"__init__.py", b"py.typed", b".gitkeep", b".keep", b".nojekyll"))
PR_SUFFIX = lazy(r"\s*\(#\d+\)\s*$")
PACKAGE_NAME = lazy(rb"^([\"']?name[\"']?)[:=]([\"']?[^\"',]+)")  # `"name":"koa-router",`, `name="pkg"` (whitespace squeezed)
MAX_NOTE_BYTES = 8192  # a changelog fragment is a few lines; a larger file matched as one is no note to read
FRAGMENT_ISSUE = lazy(rb"(\d+)[._-]")  # named after its issue: towncrier's `1304.misc.rst`, dataverse's `12252-fix-download.md`
REBASED_TOGETHER = 60  # seconds between two commits of one author that one rebase wrote
COUNTER_SETTERS = 2  # other commits that moved a one-line count this recently: a counter each change writes
COUNTER_LOOKBACK = 10  # the commits to that file nearest the undone one, read for it
DIGITS = lazy(rb"\d+")
WORD_IN_KEY = lazy(rb"[A-Za-z_]+")
MIN_CLEARED_FRAGMENTS = 2  # fragments deleted at once, their folders left empty, beside a changelog edit: a release's clean-up
FRAGMENT_NAME = 8  # a fragment's name this long (`quiet-pugs-invent`), written by the change, records it consumed
# a fragment's comment lines: scriv's template (`.. A new scriv changelog fragment.`, the commented-out sections
# in reST), Markdown's `<!-- ... -->`; no release writes them into the changelog
FRAGMENT_COMMENT = lazy(rb"^(\.\.(?!\.)|<!--)")
# a changeset's front matter, one `"@scope/package": patch` line per package, whitespace dropped: no text a
# release writes into the changelog
FRONT_MATTER = lazy(rb"^(---|['\"][^'\"]+['\"]:\w*)$")
# a JSON fragment's field, `"description":"Fix X (#759)",` (AWS's `.changes/next-release/*.json`): its value is
# the text a release writes
JSON_FIELD = lazy(rb'^"\w+":"(.*)",?$')
# a YAML fragment's field, squeezed (`-description:>`, `header:Upgrade OPM`): its value is the text a release writes
YAML_FIELD = lazy(rb"^-?[\w-]+:[>|]?[-+]?(.+)$")
# a YAML fragment's own issue list, squeezed (chloggen's `issues: [13372]`): a release cites them by number
FRAGMENT_ISSUES = lazy(rb"^(?:issues?|prs?|pull_requests?):\[?([\d,]+)\]?$")
# the undone commit was itself a revert: its repair takes the reverted work out again (alembic's re-landed fix)
REVERT_REPAIR_NOTE = ("the undone commit is itself a revert: the repair takes the work it reverted out again; if that "
                      "work belongs, say so in the message (`Reland ...`) or acknowledge it")
FRAGMENT_REPAIR_NOTE = ("these are changelog fragments: if a release already folded them into the changelog, "
                        "bringing them back publishes their notes twice; check the changelog first")
# a submodule pointer moved to a commit that does not hold the one a commit set (signals.PathHit.pointer)
POINTER_GRADES = {"back": (ERROR, "a submodule pointer it set moved back"),
                  "lost": (ERROR, "a submodule pointer it set moved to a commit without its changes"),
                  "off": (WARNING, "a submodule pointer it set moved to a commit that does not hold it"),
                  "rebased": (NOTICE, "a submodule pointer it set moved to a rebased line that keeps its changes")}
POINTER_DETAILS = {"lost": " (nor any commit of the same changes: `git cherry` marks them +)",
                   "rebased": " (its changes are there, rebased)"}


class Landed(NamedTuple):
    """What the checked change is: its path changes, authors, declarations and acknowledgements."""

    changes: Sequence[Change]
    authors: Identities  # who wrote the range's commits (mailmap, names, noreply ids, co-authors)
    declarations: Declarations
    acks: Declarations
    own_pr: int | None = None
    own_commits: frozenset[str] = frozenset()  # the checked commit(s), matched against ack entries
    patches: Sequence[FilePatch] = ()
    message: str = ""  # every message of the range (and the PR body): does it name what goes away?
    repair_base: str = ""  # the revision whose files are the undamaged ones (BASE, or the landed commit's parent)
    ack_file: str = ".leverguard-acks"
    landed_already: bool = False  # audit: the change is on the branch (acknowledge in the ack file)
    base_position: int = 0  # the merge base's position among the candidates: stale trees undo what came just before
    bot: bool = False  # the change was authored by a dependency bot (Dependabot, Renovate)
    subject: str = ""  # the change's own subject line (audit: the landed commit's)
    title: str = ""  # what the change calls itself besides its subject: the PR's or merged PR's title
    time: int = 0  # when the change was committed (HEAD, or the audited commit): the age of what it undoes
    authored: int = 0  # when its own work was first written (author dates, which a rebase keeps; 0 unknown)
    merge: bool = False  # the change holds a merge, whose resolution may have dropped one side's hunks
    subjects: tuple[str, ...] = ()  # the subjects of the commits a merge in the change brought in
    agent: bool = False  # a coding agent wrote the change: it writes whole files from what it read earlier
    notes: tuple[bytes, ...] = ()  # the first lines of the release notes (changelog fragments) the change writes
    note_lines: tuple[tuple[bytes, str], ...] = ()  # every line of those notes, as written, with its path
    logged: str = ""  # the lines the change writes into changelogs (`ChangeLog`, `CHANGES.md`), as patches hold them
    head: str = ""  # the commit whose tree is the change's result (audit: the audited commit)
    grafted: bool = False  # a merge in the change joins an unrelated history (no commit in common)


def findings(hits: list[PathHit], commits: Sequence[Commit], landed: Landed, ctx: Context) -> list[RevertFinding]:
    """One finding per candidate with hits, newest first."""
    written = _Written(landed)
    deletions = [h for h in hits if h.kind in ("deleted-added", "deleted-changed")]
    fragments = [h for h in deletions if ctx.rules.fragment(h.path)]
    consumed = {h.path for h in fragments if written.consumes(h.path, _deleted_lines(h, landed), pr_number(commits[h.position]))}
    # a release folds fragments into the changelog and deletes them all, unshown (trivial) ones too; or its
    # clean-up empties their folders beside the changelog's reset (antsibull's `The next feature release will
    # be 13.1.0.`, the text kept on the release branch)
    if consumed or _fragments_cleared(fragments, landed, ctx):
        consumed.update(h.path for h in fragments)
    landed = landed._replace(notes=_notes(landed, ctx), note_lines=_note_lines(landed, ctx), logged=_logged(landed))
    modules = [c.path for c in landed.changes if c.added and c.new is not None and c.new.is_gitlink]
    moves = _Moves(hits, landed)
    gone = {id(h) for h in deletions if h.path in consumed or moves.moved(h) or _into_submodule(h.path, modules)}
    gone |= {id(h) for h in _copies_kept([h for h in deletions if id(h) not in gone], landed, ctx)}
    hits = [h for h in hits if id(h) not in gone]
    hits = _replaced_modules(_duplicates_taken_out(_folded_at_release(hits, landed), landed, ctx), landed, ctx)
    hits = _generated_as_built(_generated_by_bot(_platform_export(hits, commits, landed), commits, landed), landed, ctx)
    hits = _copies_written(hits, landed)
    hits = _catalogs_recreated(_kept_in_siblings(hits, landed, ctx), landed)
    hits = _rollbacks_seen_whole(hits, commits, landed, ctx)
    hits = _project_generated(_untracked_as_built(hits, commits, landed, ctx), landed, ctx)
    hits = _unused_imports(_swept(_empty_recreated(hits, landed), landed, commits), landed, ctx)
    hits = _taken_from_mainline(hits, commits, landed, ctx)
    # several recent commits rolled back at once: a stale tree at work, so age and size excuse nothing
    # (months-old work rolled back together is a feature taken out: "Drop Python 3.6")
    # (a revert the change declares is deliberate: no sign of a stale tree; one file put back past several
    # of its commits is one file, where a stale tree puts back several; nor are commits the change's tree
    # held, each kept in more of its files than undone: a refactor putting small files back past them)
    by_position: dict[int, list[PathHit]] = {}
    for hit in hits:
        by_position.setdefault(hit.position, []).append(hit)
    undone_at = {p: [line for h in at for line in h.undone_text()] for p, at in by_position.items()}
    # (release bookkeeping put back by the next release step is the release cycle, no sign of a stale tree:
    # notebook's `Bump to 6.5.0.dev0` sets back the version files of two releases in a row)
    exact = [h for h in hits if h.kind in EXACT_KINDS and not h.quiet and not h.normalized]
    # (nor is a release's changelog taken back under wording that says so, several releases at once)
    bookkeeping = {p for p in {h.position for h in exact} if
                   _release_steps_both(landed, commits[p], undone_at[p], _written(by_position[p], landed)) or
        (_release_notes(by_position[p], ctx) and restores_released_entries((landed.subject, landed.title), commits[p].subject))}
    recent = [h for h in exact if _age_days(commits[h.position], landed) <= OLD_FILE_DAYS
              and not _declared(commits[h.position], landed, ctx) and h.position not in bookkeeping]
    held = {p for p in {h.position for h in recent} if _tree_held(commits[p], by_position[p], landed, ctx)}
    # (nor are the change author's own reverts, undone: the reverted work re-landed by who took it out, hydra's
    # squash of the PR holding the direct pushes its author had just reverted one by one)
    held |= {p for p in {h.position for h in recent} if _reverts(commits[p]) and _own(commits[p], landed, ctx)}
    recent = [h for h in recent if h.position not in held]
    stale = len({h.position for h in recent}) >= 2 and len({h.path for h in recent}) >= 2 and \
        not _takes_out_a_topic(landed, {h.position for h in recent}, by_position, undone_at, commits)
    # whole files of days-old work put back: a stale tree, whose deletions are no one's choice either
    fresh_copies = any(_fresh(h.position, commits[h.position], landed) for h in recent)
    # files put back, ignoring formatting, past other commits' silent changes: what else is undone in them is
    # the same old copy (axum's `Merge branch 'v0.8.x'` restoring `deny.toml` entries of four main commits)
    rolled = frozenset(h.path for h in hits if h.kind == "rollback" and h.normalized and not h.quiet and
                       not h.newer_kept and not _declared(commits[h.position], landed, ctx))
    results = []
    for position in sorted(by_position):
        commit = commits[position]
        if landed.own_pr is not None and pr_number(commit) == landed.own_pr:
            continue  # the PR's own earlier landing: a rebased copy or continuation, not someone else's work
        results.append(_finding(commit, position, by_position[position], commits, landed, ctx, stale, bool(exact),
                                fresh_copies, rolled))
    return results


def _takes_out_a_topic(landed: Landed, positions: set[int], by_position: Mapping[int, list[PathHit]],
                       undone_at: Mapping[int, list[bytes]], commits: Sequence[Commit]) -> bool:
    """The change's subject says it removes a topic that the undone commits' titles and lines name (anyio's
    `Removed the pyright version pin`), or that some name and the others only fixed up: every line the others
    took out, the naming ones had written (freezegun's `remove coveralls ...` undoing `add coveralls` and the
    `fix readme` of its badge). Not a stale tree, which undoes whatever came before it."""
    anchors = {p for p in positions if removes_their_topic(landed.subject, [(pr_title(commits[p]), undone_at[p])])}
    written = {line for p in anchors for line in undone_at[p]}

    def fixes_up(position: int) -> bool:
        replaced = {line for hit in by_position[position] for line in hit.replaced_text() if line}
        return bool(replaced) and replaced <= written
    return bool(anchors) and all(p in anchors or fixes_up(p) for p in positions)


def _notes(landed: Landed, ctx: Context) -> tuple[bytes, ...]:
    """The first line each changelog fragment the change writes opens with: the change describing itself,
    as a PR body does (virtualenv's merge with an empty message whose fragment says `Revert out changes ...`)."""
    return tuple(patch.hunks[0].added[0] for patch in landed.patches if patch.change.new is not None and patch.text
                 and ctx.rules.fragment(patch.change.path) and patch.hunks and patch.hunks[0].added)


def _note_lines(landed: Landed, ctx: Context) -> tuple[tuple[bytes, str], ...]:
    """The lines of the changelog fragments the change writes, read whole (its patch holds them squeezed), each
    with its path: a change saying there what it removes (virtualenv's embed upgrade: `Removed wheel of ``0.47.0```)."""
    lines: list[tuple[bytes, str]] = []
    for patch in landed.patches:
        if patch.change.new is not None and patch.text and ctx.rules.fragment(patch.change.path):
            size = ctx.reader.info(patch.change.new.oid)
            found = ctx.reader.read(patch.change.new.oid) if size is not None and size[1] <= MAX_NOTE_BYTES else None
            if found is not None:
                lines += [(patch.change.path, line) for line in found[1].decode("utf-8", "replace").splitlines()]
    return tuple(lines)


def _declared(commit: Commit, landed: Landed, ctx: Context) -> bool:
    return landed.declarations.matches(commit, [sha for sha, _, _ in ctx.inner(commit)],
                                       ctx.inner_subjects(commit)) is not None


def _redone_under_its_title(position: int, hits: list[PathHit], commits: Sequence[Commit], landed: Landed) -> Commit | None:
    """The older commit whose version of the files HITS put back (every one a rollback) the change writes, when
    the change carries that commit's subject: its work redone after the undone commit lost it."""
    if not hits or any(h.kind != "rollback" for h in hits):
        return None
    written = {c.path: c.new for c in landed.changes}
    for older in commits[position + 1:]:
        wrote = {c.path: c.new for c in older.changes if c.path in written}
        if wrote:  # the nearest older commit to touch those files
            same = all(h.path in wrote and wrote[h.path] == written.get(h.path) for h in hits)
            return older if same and (same_work(landed.subject, older.subject) or
                                      same_work(landed.title, older.subject)) else None
    return None


def _fixes_declared(commit: Commit, position: int, commits: Sequence[Commit], landed: Landed,
                    ctx: Context) -> Commit | None:
    """The commit the change declares it reverts that COMMIT followed up, by the same author within a day
    (go-sqlite3's `fix build` and `fix test` adapting the code to `*Error`, taken out with that change by
    `revert cf4bd56`): reverting it takes out what only made sense with it."""
    for older in commits[position + 1:]:
        if commit.time - older.time > FIXUP_SECONDS:
            break
        if older.time <= commit.time and older.author_email == commit.author_email and _declared(older, landed, ctx):
            return older
    return None


def _recent(position: int, landed: Landed) -> bool:
    """One of the last few commits before the change's base."""
    return position <= landed.base_position + RECENT_COMMITS


def _latest(position: int, landed: Landed) -> bool:
    """One of the very last commits before the change's base (LATEST_COMMITS)."""
    return position <= landed.base_position + LATEST_COMMITS


def _fresh(position: int, commit: Commit, landed: Landed) -> bool:
    """Recent, or at most TINY_DAYS old."""
    return _recent(position, landed) or (bool(landed.time) and _age_days(commit, landed) <= TINY_DAYS)


def _written_before(commit: Commit, landed: Landed) -> bool:
    """The change (not a merge: a branch's first commit says nothing of its last) was authored before COMMIT
    landed: a rebase or a cherry-pick applied it since, and what it undoes of COMMIT its tree never held."""
    return not landed.merge and 0 < landed.authored < commit.time


def _age_days(commit: Commit, landed: Landed) -> float:
    """How old the undone work was when the change landed (0 when the change's time is unknown)."""
    return (landed.time - commit.time) / 86400 if landed.time else 0.0


class _Moves:
    """Which deleted files the change moved, indexed once (slither's test move deleted 14,000 files)."""

    def __init__(self, hits: list[PathHit], landed: Landed) -> None:
        self.landed = landed
        self.deleted = {c.path: c for c in landed.changes if c.deleted}
        added = [c.path for c in landed.changes if c.added]
        self.stems = {_stem(path) for path in added}
        self.names = {path.rpartition(b"/")[2] for path in added}
        self.restored: dict[int, set[bytes]] = {}
        for hit in hits:
            if hit.kind == "rollback":
                self.restored.setdefault(hit.position, set()).add(hit.path)

    def moved(self, hit: PathHit) -> bool:
        """The deleted file's content is added elsewhere, or a file of its name in another format takes its
        place (hatch's `logo.png` and `logo.webp` gone where `logo.svg` comes): no stale tree adds that.
        Files put back whole to before the same commit do not count: a stale copy of a refactoring puts the
        code it extracted back where it came from (flask's `scaffold.py` gone with `app.py` and
        `blueprints.py` restored)."""
        deleted = self.deleted.get(hit.path)
        if deleted is None:
            return False
        name = deleted.path.rpartition(b"/")[2]
        if _stem(deleted.path) in self.stems or (name in self.names and CONVENTIONAL_NAME.match(name) is None):
            return True
        restored = self.restored.get(hit.position, set())
        return moved_away(deleted, [p for p in self.landed.patches if p.change.path not in restored])


class _Written:
    """The lines the change adds, as one text, built on first use: where a release writes its fragments."""

    __slots__ = ("landed", "_text", "_joined")

    def __init__(self, landed: Landed) -> None:
        self.landed, self._text, self._joined = landed, b"", b""

    def consumes(self, path: bytes, lines: list[bytes], pr: int | None = None) -> bool:
        """Whether the change writes the changelog fragment at PATH (its LINES) into a changelog: it cites the
        issue the fragment is named after (towncrier's `1304.misc.rst` as :issue:`1304`, `#1304`, an issues/
        link, whatever the release reworded) or the PR that added it (urql's `Version Packages` rewording
        `.changeset/old-pets-watch.md` under `(See [#969](...))`), or half of its lines are found inside
        written ones, as `moved` judges a deleted file (after a bullet; a changeset's front matter dropped)."""
        if not self._text:
            self._text = b"\n".join(line for p in self.landed.patches for h in p.hunks for line in h.added)
            self._joined = self._text.replace(b"\n", b"")  # (a release re-wraps a long entry over lines)
        name = path.rpartition(b"/")[2]
        issue = FRAGMENT_ISSUE.match(name)
        cited = [issue.group(1)] if issue else []
        if pr is not None:
            cited.append(b"%d" % pr)
        if any(re.search(rb"[#`/]" + number + rb"(?!\d)", self._text) for number in cited):
            return True
        cited = [n for line in lines if (found := FRAGMENT_ISSUES.match(line)) for n in found.group(1).split(b",") if n]
        if cited and all(re.search(rb"[#/]" + n + rb"(?!\d)", self._text) for n in cited):
            return True  # its own issue list cited where the release writes (chloggen's `issues: [13372]` as `(#13372)`)
        stem = name.partition(b".")[0]
        # (a list item's dash kept, as the lines have it squeezed: `-quiet-pugs-invent`)
        if len(stem) >= FRAGMENT_NAME and re.search(rb"(?m)(?:^-|(?<![\w-]))" + re.escape(stem) + rb"(?![\w-])", self._text):
            return True  # recorded by name (pnpm's `.changeset/ledger.yaml` lists the changesets it consumed)
        lines = [JSON_FIELD.sub(rb"\1", line) for line in lines if not (FRONT_MATTER.match(line) or FRAGMENT_COMMENT.match(line))]
        if name.endswith((b".yaml", b".yml")):  # a YAML fragment's values are its text; its comments, the template's
            lines = [YAML_FIELD.sub(rb"\1", line) for line in lines if not line.startswith(b"#")]
        content = [line for line in lines if len(line) >= TEXT_LINE] or [line for line in lines if line]
        # (an empty fragment, towncrier's unshown `trivial` kind, holds nothing to lose)
        return sum(1 for line in content if self._written(line)) >= MOVED_SHARE * len(content)

    def _written(self, line: bytes) -> bool:
        """LINE is found in what the change writes, or its first or last half is, when long: release tools
        rewrite a fragment's issue references into links (changesets' `fixes #9937` as `fixes [#9937](https://...)`)
        and fill in its placeholders (rubocop's `* [#x](.../pull/x): Add ...` folded in as `- [#270](.../pull/270): Add ...`),
        and wrap a long one anew (keystatic's `Version Packages`, prettier wrapping the changeset's line): halves are
        looked for in the written lines read as one text."""
        half = len(line) // 2
        return line in self._text or len(line) >= 2 * TEXT_LINE and (line[:half] in self._joined or line[half:] in self._joined)


FOLDED = "a working changelog emptied by a release that writes its entries into {}"
MIN_FOLDED_LINES = 10  # lines a release writes into its changelog: a stale tree edits none, a typo fix a few


def _folded_at_release(hits: list[PathHit], landed: Landed) -> list[PathHit]:
    """Lines of a working changelog (opam's `master_changes.md`, one entry per merged PR) taken out by a release
    that writes a changelog of another name (its `CHANGES`): the entries folded in, reworded, not lost."""
    if not _titled_release(landed):
        return hits
    written = {p.change.path: sum(len(h.added) for h in p.hunks) for p in landed.patches
               if is_changelog(p.change.path)}

    def folded_into(path: bytes) -> bytes | None:
        if not CHANGELOG.search(path.rpartition(b"/")[2]):
            return None
        return next((other for other, lines in written.items() if other != path and lines >= MIN_FOLDED_LINES), None)
    return [h._replace(quiet=FOLDED.format(git.fsdecode(into))) if not h.quiet and h.kind in ("rollback", "inverse-hunk")
            and (into := folded_into(h.path)) is not None else h for h in hits]


def _titled_release(landed: Landed) -> bool:
    """The change calls itself a release (`Release 2.6.0~alpha1`, `Bump minor version`), in its subject or title."""
    return any(RELEASE_TITLE.match(title) for title in (landed.subject, landed.title) if title)


def _result_oids(landed: Landed) -> dict[bytes, str]:
    """The blob each file the change writes holds after it (submodule pointers aside)."""
    return {c.path: c.new.oid for c in landed.changes if c.new is not None and not c.new.is_gitlink}


DUPLICATES = "the block it added still stands in the file: a copy of it taken out"
MAX_WHOLE_READS = 4  # files read whole to tell a copy or a replace: a stale tree's hundred are judged by their hunks


def _duplicates_taken_out(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Blocks of lines a commit added, taken out by the change while the same block still stands in the file:
    a copy taken out (MONAI's pre-commit block pasted twice, javaparser's `reset()` written twice by a conflict
    fix, doctrine's whitelist block), nothing lost. Only where all the change undoes there are such blocks; a
    stale copy lacks them altogether, and a new member of a family of like blocks (vapor's fifth `get` overload, `virtual`
    put before each method) is no copy of any one of them."""
    result = _result_oids(landed)
    # (a block of one line standing elsewhere is common code, a test's `assert`: no copy; a file is read only
    # where every block could be one)
    blocks = {id(h): found for h in hits if not h.quiet and h.text and h.path in result and
              (found := _added_blocks(h)) and all(len(block) >= MIN_COPIED_LINES for block in found)}
    paths = sorted({h.path for h in hits if id(h) in blocks})[:MAX_WHOLE_READS]
    standing = {path: compared_lines(_blob(ctx, result[path])) for path in paths}
    return [h._replace(quiet=DUPLICATES) if id(h) in blocks and h.path in standing and
            all(_stands_in(block, standing[h.path]) for block in blocks[id(h)]) else h for h in hits]


MIN_COPIED_LINES = 2


def _added_blocks(hit: PathHit) -> list[tuple[bytes, ...]]:
    """The blocks of lines the commit added that the change takes out, when that is all it undoes there."""
    if hit.undo is not None:
        if not all(u.kind == "deleted" for u in hit.undo.undone):
            return []
        return [u.added for u in hit.undo.undone]
    return [hit.text_undone] if hit.kind == "rollback" and hit.additions_only else []


def _stands_in(block: tuple[bytes, ...], lines: tuple[bytes, ...]) -> bool:
    """BLOCK still stands whole and in order among LINES."""
    size = len(block)
    return any(lines[i:i + size] == block for i, line in enumerate(lines) if line == block[0])


REPLACED = "only requirements of go.mod that its replace directives override"
# a squeezed replace by a version: `go.etcd.io/bbolt=>go.etcd.io/bboltv1.4.0`; one by a local folder (`=>../x`)
# decides nothing for the module's users, whose builds still read the requirement (opentelemetry-collector's)
_REPLACED = lazy(rb"(?:replace)?\(?(.+?)(?:v\d\S*)?=>[^./][^=]*v\d")


def _replaced_modules(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """A go.mod's requirements set back whose modules its `replace` directives pin to a version (vald's bbolt
    required at 1.3.11 and replaced by 1.4.0): the build uses the replacement, so the requirement's version
    loses nothing."""
    result = _result_oids(landed)
    wanted = [h for h in hits if not h.quiet and h.kind in ("version-set-back", "inverse-hunk") and h.path in result
              and h.path.rpartition(b"/")[2] == b"go.mod"]
    replaced = {path: {m.group(1) for m in map(_REPLACED.match, _squeezed_lines(ctx, result[path])) if m is not None}
                for path in sorted({h.path for h in wanted})[:MAX_WHOLE_READS]}

    def overridden(hit: PathHit) -> bool:
        modules = [required_module(line) or line for line in hit.undone_text()]
        return bool(modules) and all(module in replaced[hit.path] for module in modules)
    chosen = {id(h) for h in wanted if h.path in replaced and overridden(h)}
    return [h._replace(quiet=REPLACED) if id(h) in chosen else h for h in hits]


def _into_submodule(path: bytes, modules: list[bytes]) -> bool:
    """A vendored copy replaced by a submodule the change adds: the file lies under the submodule's path, or
    under a folder of the submodule's name (undici's `test/fixtures/wpt/` for `test/web-platform-tests/wpt`)."""
    folders = path.split(b"/")[:-1]
    return any(path.startswith(module + b"/") or module.rpartition(b"/")[2] in folders for module in modules)


def _deleted_lines(hit: PathHit, landed: Landed) -> list[bytes]:
    gone = next((p for p in landed.patches if p.change.path == hit.path and p.change.new is None), None)
    return [line for h in gone.hunks for line in h.removed] if gone is not None and gone.text else []


def _stem(path: bytes) -> bytes:
    """PATH without its extensions: the folder and the name up to its first dot (`docs/logo`)."""
    folder, _, name = path.rpartition(b"/")
    return folder + b"/" + name.split(b".", 1)[0] if name.split(b".", 1)[0] else path


def _finding(commit: Commit, position: int, hits: list[PathHit], commits: Sequence[Commit], landed: Landed,
             ctx: Context, stale: bool, whole_files: bool, fresh_copies: bool,
             rolled: frozenset[bytes] = frozenset()) -> RevertFinding:
    inner = ctx.inner(commit)
    own = _own(commit, landed, ctx)
    folders = whole_folders(commit, hits, landed.changes, ctx)
    every_added = _every_added_deleted(commit, hits, ctx)
    recent = _recent(position, landed)
    latest = _latest(position, landed)
    fresh = _fresh(position, commit, landed)
    # lines undone in a file the change puts back past other commits, ignoring formatting: the same old copy
    beside_rollback = any(h.path in rolled and h.kind == "inverse-hunk" for h in hits)
    # the change also puts whole files back (this commit's or another's, or this very file): a stale tree at work
    corroborated = stale or whole_files or beside_rollback
    # (a change committed before the commit it undoes was moved on top of it later, its date kept: a rebase
    # or a patch queue, whose conflicts it resolved without having seen that work)
    unseen = bool(landed.time) and commit.time > landed.time
    facts = Circumstances(every_added or bool(folders), own, recent, latest, fresh, corroborated, landed.merge, unseen,
                          fresh_copies, "every file it added" if every_added else "a whole folder it added")
    graded = [(h, *_grade(h, facts)) for h in sorted(hits, key=lambda h: h.path)]
    level, reason = max(((lvl, why) for _, lvl, why in graded), key=lambda item: item[0])
    if level < ERROR and _all_undone(commit, hits, ctx, corroborated, landed.merge):
        level, reason = ERROR, "every change it made is undone"
    paths = [display(h.path) for h, _, _ in graded]
    explanation = _explanation(commit, inner, landed, paths, _reverted_titles(commit, commits, ctx),
                               ctx.inner_subjects(commit), _rolled_back_past(hits, commits))
    dropped = _dropped_by_merge(hits)  # a merge's resolution threw lines away: neither topic nor age excuses it
    if not explanation:
        reported = _reported(commit, ctx)
        # a submodule's checkout follows no pull, merge or rebase: the superproject's tree holding the commit
        # says nothing of the pointer `git commit -a` records (svmbir's `Updated documentation`)
        pointer = _submodule_rolled_back(hits, landed)
        kept = 0 if pointer else _edited_and_kept(reported, hits, landed, stale, ctx)
        every_file = reported <= {h.path for h in hits}
        entries = all(ctx.rules.fragment(h.path) for h in hits)
        notes = _release_notes(hits, ctx)
        gone = _folders_gone(hits, landed, ctx) if level > NOTICE else []
        setters = _counter_setters(position, hits, commits, ctx) if level > NOTICE else 0
        if setters >= COUNTER_SETTERS:
            # ansible-lint's `PYTEST_REQPASS: 882`: each PR writes its own test count, and a later one's equals
            # an older one's; a stale tree's loss is more than one number
            level, reason = NOTICE, reason + f"; only a count on one line, which {setters} other recent commits set too (a counter each change writes)"
        level, reason = _in_context(level, reason, commit, paths, hits, landed, stale, kept, dropped, every_file,
                                    entries, notes, [sha for sha, _, _ in inner], gone, beside_rollback,
                                    position == landed.base_position, latest)
        backed_out = next((c for c in commits[:position] if backs_out(f"{c.subject}\n{c.body}", commit.sha)), None)
        if level > NOTICE and backed_out is not None:
            # a later commit said it backs that commit out: the change finishes what was declared
            level, reason = NOTICE, reason + f"; {backed_out.sha[:7]} declared it backed out, and the change finishes that"
        redone = _redone_under_its_title(position, hits, commits, landed) if level > NOTICE else None
        if redone is not None:
            # the files put back are the version an older commit wrote, and the change carries that commit's
            # own subject: its work, lost to this one, redone (benchmark's `Run build-and-test on all
            # branches` again, after a branch rename rewrote those lines away the same day)
            level, reason = NOTICE, reason + f"; the change redoes {redone.sha[:7]}, whose version it puts back, under its title"
        fixed = _fixes_declared(commit, position, commits, landed, ctx) if level > NOTICE else None
        if fixed is not None:
            level, reason = NOTICE, reason + f"; its author's follow-up of {fixed.sha[:7]}, which the change says it reverts"
        # what a stale tree, a merge's dropped lines, a submodule pointer or an agent's work rule out
        plain = not stale and not dropped and not pointer and not landed.agent
        # (a long-lived branch merged forward makes everyone with a backport on it an author: axum's `Merge branch
        # 'v0.8.x'` putting back the `deny.toml` four main commits had cleaned, two of them by a backporter;
        # unless a commit of that branch says it reverts: r2modman's `Reverted missing icon edit`)
        if plain and level == ERROR and own and not every_file and all(h.kind == "rollback" for h in hits) and \
                (not is_merge_of_branch(landed.subject) or any(calls_itself_a_revert(t) for t in landed.subjects)):
            # some files of the author's own commit put back, its others left as they are: on 43 audited
            # histories 7 of this shape, none lost work (iterations: a CI fix tried and dropped, a release
            # undoing a broken change); the own accidents put back every file (requests' stale sidebar) or
            # came from an agent (tox's), and neither is lowered here
            level, reason = NOTICE, reason + "; some files of its author's own commit, the others left as they are"
        if plain and level == WARNING and not corroborated and _minority_in_each(hits):
            # a stale copy undoes all of a commit's hunks in a file; a few of them redone in each of several
            # files, the rest kept there, is an edit sweep over that one (typing style, lint, imports)
            level, reason = NOTICE, reason + "; a minority of its hunks undone in each of its files, the rest kept"
        if plain and level == WARNING and own and not corroborated and _partly_undone_in_each(hits):
            # a stale copy undoes all of a commit's hunks in a file; its author taking back some of their own
            # hunks and keeping the others there is that work revised (on 43 audited histories 9 warnings of
            # this shape, none lost work; requests' real `pretty little note` undid every hunk of its commit)
            level, reason = NOTICE, reason + "; its author's own hunks, some undone and the rest kept in each file"
        if plain and level == WARNING and not corroborated and _small_share(commit, hits, ctx) and \
                _by_its_committer(landed, inner):
            # the change's author (not a co-author: a squash names whoever pushed to the branch) putting back a
            # hunk or two of their own commit, five sixths of it kept: their work revised (on the judged rounds
            # 66 false warnings before the co-author exclusion, which keeps litestar's real one; 1 real lowered;
            # from a tenth to a sixth, 19 more false warnings and no real one; at a fifth polars' real one goes)
            level, reason = NOTICE, reason + "; a hunk or two of its author's own commit, the rest of it kept"
        if plain and level == WARNING and own and not corroborated and \
                all(h.kind in ("deleted-added", "deleted-changed") for h in hits):
            # files their own author added, deleted by them and nothing put back: on the judged blind rounds
            # 1 of 71 such warnings lost work (a stale tree deletes what it never had beside what it puts
            # back, and an agent's session is no judge of the other's files: both keep the warning)
            level, reason = NOTICE, reason + "; files its own author added, deleted by them, nothing put back"
        if plain and level > NOTICE and own and not landed.merge and _age_days(commit, landed) <= OWN_CI_DAYS and \
                all(CI_CONFIG.match(h.path) for h in hits):
            # its author's own CI settings taken back by them within days, nothing else: the run said no (on the
            # judged rounds 44 warnings and errors of this shape, none lost work; another's, 9 of 39 did)
            level, reason = NOTICE, reason + "; its author's own CI configuration, taken back by them within days"
        if plain and level == WARNING and not corroborated and _edits_its_other_lines(hits):
            # a stale copy lacks all of the commit's lines; cutting some of one of its hunks and keeping the
            # rest is an edit made with that work in view (superagent's `Keep nodelay always on`)
            level, reason = NOTICE, reason + "; the change edits its other lines there where they sit: that work revised"
        # nor, for lines, does the author's own commit on top when an agent wrote it: an agent writes whole
        # files from what it read earlier, before another session's commit (commonly's, 3 minutes apart)
        if plain and _next_commit_of_its_author(commit, position, landed, own):
            if level == WARNING and not corroborated:
                level, reason = NOTICE, reason + "; its author's next commit, made on top of it"
            elif level == ERROR and not every_file:  # a stale index puts back all
                level, reason = WARNING, reason + "; its author's next commit, made on top of it, keeps its other files"
            elif level == ERROR and not corroborated and all(h.kind == "inverse-hunk" for h in hits):
                # every hunk of theirs undone amid new lines of the file: the file was edited with that work
                # in it (a stale index or copy puts the file back whole); someone else's copy on top of it is
                # #221/#224's shape (test_revert_signals)
                level, reason = WARNING, reason + "; its author's next commit, made on top of it, edits the file"
        if plain and level == WARNING and _renamed_in(commit, hits, ctx):
            level, reason = NOTICE, reason + "; lines the undone commit only moved there, from a file of that name it deleted"
        if plain and level == WARNING and not corroborated and _reverts(commit) and \
                all(h.kind == "inverse-hunk" or _targeted(h) for h in hits):
            # lines a revert took out, put back amid the change's own work: the reverted work re-landed, done
            # again (pipx's artifacts v2 bump, zod's `undefined` handling re-implemented; REVERTS.md's traps),
            # and in a file as the revert found it, later changes kept (turso's vacuum re-enabled); whole files
            # a stale tree brings back past a revert still count (rq's test without its fix)
            level, reason = NOTICE, reason + "; the undone commit is a revert: its lines put back re-land the reverted work"
        if plain and level == ERROR and own and _reverts(commit):
            # who reverted the work putting it back re-lands it, unsaid (REVERTS.md's traps; fzf's and
            # react-router's; on the judged histories 16 of this shape, none lost work); someone else's change
            # undoing a revert still fails (a file rolled back past the revert to an older commit's state
            # re-lands nothing for sure: zlib's `Fix typo in preceding reversion commit` put the file back to
            # before the reverted change, a warning)
            past = all(h.before is not None for h in hits)
            level, reason = (WARNING, reason + "; its own author's revert, rolled back with the commits before it") \
                if past else (NOTICE, reason + "; its own author's revert undone: the reverted work re-landed")
        if plain and level == ERROR and not own and _reverts(commit) and _relands_own_work(commit, commits, landed, ctx):
            # someone's revert of the change author's work, undone by that author: the work re-landed, unsaid
            # (taichi's, MonoGame's, optuna's re-lands: on the judged histories 5 of this shape, none lost work);
            # someone else's change undoing the revert still fails (rq's stale test file without its fix)
            level, reason = NOTICE, reason + "; a revert of its own author's work undone: that work re-landed"
        if plain and level == ERROR and own and _direct(landed) and _direct_commit(commit) and \
                len({h.path for h in hits}) == 1:
            # one file of the author's own direct push put back by their later direct push: that fix redone
            # (on 73 audited histories 6 errors of this shape, none lost work; requests' real stale sidebar put
            # back two files, commonly's came from an agent). Put back whole, the file holds nothing new: they
            # took their own change out (on sixteen judged rounds 22 warnings, none lost work); its lines put
            # back amid new work keep the warning (dcm2niix's maintainer, writing from an older copy)
            whole_file = all(h.kind == "rollback" for h in hits)
            level, reason = (NOTICE if whole_file else WARNING), \
                reason + "; one file of its author's own direct commit, put back by their own direct commit"
        if plain and level > NOTICE and _direct(landed) and _direct_commit(commit) and \
                _age_days(commit, landed) * 24 < OWN_DIRECT_HOURS and _by_its_committer(landed, inner) and \
                not any(hunk.markers for patch in landed.patches for hunk in patch.hunks):
            # one person's direct pushes hours apart, the later taking back the earlier: work in progress on
            # the branch itself (on the judged rounds 43 warnings and errors of this shape, none lost work; the
            # one real loss of a same-day own push was a rebase that committed conflict markers, kept here)
            level, reason = NOTICE, reason + "; its author's own direct push of hours before, taken back by their next"
    if level > NOTICE and not corroborated and position - landed.base_position > FAR_COMMITS and \
            all(h.kind == "inverse-hunk" for h in hits) and not dropped:
        level, reason = NOTICE, reason + f"; lines of work over {FAR_COMMITS} commits before the change's base"
    severity = SEVERITIES[level]
    author = inner[-1][2] if commit.is_merge and inner else commit.author_name
    evidence = tuple(_evidence(h, lvl, commits) for h, lvl, _ in graded)
    return RevertFinding(
        commit.sha, pr_number(commit), commit.subject, author, "info" if explanation else severity,
        explanation.startswith("declared") or explanation.startswith("acknowledged"),
        tuple(e.path for e in evidence), _tally(commit, hits, folders, ctx), evidence, commit.time, severity,
        explanation, reason, _repair(commit, hits, landed), _acknowledge(commit, landed),
        _repair_note(commit, hits, ctx), pr_title(commit))


def _own_note(hit: PathHit, landed: Landed) -> bool:
    """The fragment HIT brings back is the change's own: named after its PR, or saying what its title says
    (whitespace and case aside)."""
    titles = {re.sub(r"\s+", "", PR_SUFFIX.sub("", title)).lower().encode() for title in (landed.subject, landed.title)}
    titles = {title for title in titles if len(title) >= TEXT_LINE}
    issue = FRAGMENT_ISSUE.match(posixpath.basename(hit.path))
    if issue is not None and landed.own_pr is not None and int(issue.group(1)) == landed.own_pr:
        return True  # named after the change's own PR (django-redis' `changelog.d/677.doc` in #677)
    patch = next((p for p in landed.patches if p.change.path == hit.path and p.change.new is not None), None)
    return patch is not None and any(line.lower() in titles for h in patch.hunks for line in h.added)


def _untracked_as_built(hits: list[PathHit], commits: Sequence[Commit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Files under a `.gitignore` pattern of the change's result, weighed as built files:
    - one a commit added, deleted now when the pattern did not match it as it was added: built files no
      longer tracked (humanize's `*.mo`, added to `.gitignore` by the change; trogon's `Applying gitignore`
      untracking `__pycache__/*.pyc` a later `*.pyc` ignores). A file tracked in spite of a pattern already
      there (vuex's `src/plugins/logger.js` under a `logger.js` meant for the build) was kept on purpose, and
      counts;
    - one a commit deleted, put back when a pattern ignored its folder before that deletion too: output
      force-added by a release and cleared after it (vexflow's `build/`, each `Release VexFlow X` adding back,
      rebuilt, what `Remove build/ after releasing` took out). A stale tree's `git add` leaves an ignored file
      out, and a folder the repository ignored all along holds no one's source. A file ignored by its own name
      (`.DS_Store`, `*.pyc`) is junk a clean-up took out: brought back, that clean-up is undone, and counts."""
    if not landed.head:
        return hits
    deleted = [h for h in hits if h.kind == "deleted-added" or
               h.kind == "resurrected" and _names_a_folder(ctx, landed.head, h.path)]
    if not deleted:
        return hits
    now = _ignored(ctx, landed.head, [h.path for h in deleted])
    ignored = [h for h in deleted if now(h.path) and commits[h.position].parents]
    then = {position: _ignored(ctx, commits[position].parents[0], [h.path for h in ignored if h.position == position])
            for position in {h.position for h in ignored}}  # the rules when each commit added or deleted its files
    untracked = {id(h) for h in ignored if h.kind == "deleted-added" and not then[h.position](h.path)}
    output = {id(h): folder for h in ignored if h.kind == "resurrected" and
              (folder := _ignored_folder(h.path, now)) is not None and _ignored_folder(h.path, then[h.position]) is not None}
    # (an edited copy, only beside exact ones in that folder: one alone is a stale copy kept through a rebase's
    # conflict, facebook-ios-sdk's untracked `.xcodeproj` back edited two hours later)
    exact = {output[id(h)] for h in hits if id(h) in output and not h.normalized}
    forced = {i for i, folder in output.items() if folder in exact}
    return [h._replace(quiet="built file no longer tracked (ignored)") if id(h) in untracked else
            h._replace(quiet="an ignored file, force-added: built output") if id(h) in forced else h for h in hits]


def _names_a_folder(ctx: Context, revision: str, path: bytes) -> bool:
    """Whether a `.gitignore` over PATH at REVISION names one of its folders as a plain pattern (`build`, `/build/`,
    `**/build/**`): the cheap test before the matcher, which one file brought back seldom needs."""
    folders = path.split(b"/")[:-1]
    names = {folder.decode("utf-8", "replace") for folder in folders}
    for depth in range(len(folders)):
        prefix = b"/".join(folders[:depth])
        if b"\n" in prefix:  # cat-file's request protocol is line-based
            return False
        lines = _blob_lines(ctx, f"{revision}:{git.fsdecode(prefix + b'/' if prefix else b'')}.gitignore")
        if any(line.removeprefix("**/").strip("/").removesuffix("/**") in names for line in lines):
            return True
    return False


def _ignored_folder(path: bytes, ignored: Callable[[bytes], bool]) -> bytes | None:
    """The outermost folder holding PATH that is ignored whole (`build/` over `build/cjs/x.js`), if any: PATH
    not ignored by its own name."""
    return next((path[:i + 1] for i in range(len(path)) if path[i:i + 1] == b"/" and ignored(path[:i + 1])), None)


def _project_generated(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Hits inside an Xcode project that XcodeGen writes from the `project.yml` beside it (element-x-ios'
    `ElementX.xcodeproj/project.pbxproj`, re-run by each release step and feature) weigh as built files do:
    the spec carries the work, and the next run writes the project from it."""
    projects = {_xcode_project(h.path) for h in hits if h.kind in GENERATED_KINDS and not h.quiet} - {None}
    if not projects or not landed.head:
        return hits
    generated = {project for project in projects if project is not None and any(
        ctx.reader.info(f"{landed.head}:{git.fsdecode(_spec_beside(project, name))}") is not None for name in XCODEGEN_SPECS)}
    return [h._replace(quiet="an Xcode project XcodeGen writes from its spec") if not h.quiet and h.kind in GENERATED_KINDS
            and _xcode_project(h.path) in generated else h for h in hits]


def _xcode_project(path: bytes) -> bytes | None:
    """The Xcode project folder PATH lies in (`App/App.xcodeproj/`), if any."""
    at = path.find(XCODE_PROJECT)
    return path[:at + len(XCODE_PROJECT)] if at >= 0 else None


def _spec_beside(project: bytes, name: bytes) -> bytes:
    """The path of NAME in the folder holding PROJECT (`App/App.xcodeproj/` -> `App/project.yml`)."""
    folder = project.rstrip(b"/").rpartition(b"/")[0]
    return folder + b"/" + name if folder else name


def _ignored(ctx: Context, revision: str, paths: list[bytes]) -> Callable[[bytes], bool]:
    """Whether a `.gitignore` over a path at REVISION matches it, each file read whole (a patch drops short
    lines such as `*.mo` as trivial)."""
    folders = {b""} | {path[:i] for path in paths for i in range(len(path)) if path[i:i + 1] == b"/"}
    rules = []
    for folder in sorted(folders):
        if b"\n" in folder:  # cat-file's request protocol is line-based
            continue
        prefix = folder + b"/" if folder else b""
        lines = _blob_lines(ctx, f"{revision}:{git.fsdecode(prefix)}.gitignore")
        patterns = [line for line in sorted(lines) if line and not line.startswith("#")]
        if patterns:
            rules.append((prefix, gitignore_matcher(patterns)))
    return lambda path: any(path.startswith(prefix) and match(path[len(prefix):]) for prefix, match in rules)


def _empty_recreated(hits: list[PathHit], landed: Landed) -> list[PathHit]:
    """A file the change writes empty where its base has none, under a title naming it (release-please's `an
    empty test.cfg is required for kokoro`, 3 minutes after a commit deleted it), puts back none of anyone's
    lines and says so: its rollback or resurrection weighs as no work. An empty file riding along with other
    work still counts (a stale tree's), and so does a marker whose presence is the work (`__init__.py`)."""
    empty = {c.path for c in landed.changes if c.added and c.new is not None and c.new.oid == git.EMPTY_BLOB and
             posixpath.basename(c.path) not in MARKER_FILES and
             titled_after((landed.subject, landed.title), [display(c.path)])}
    return [h._replace(quiet="an empty file written where it had gone, as the change's title says: none of its lines back")
            if h.path in empty and h.kind in ("rollback", "resurrected") else h for h in hits]


def _counter_setters(position: int, hits: list[PathHit], commits: Sequence[Commit], ctx: Context) -> int:
    """How many other commits of the window, the nearest to the one at POSITION, moved the one count that is
    all HITS undo (one line whose integers alone differ from the line it replaced; no version `1.2`): 0 when
    that is not the shape. Their blobs come from the run's object reader."""
    if len(hits) != 1 or hits[0].kind not in ("rollback", "inverse-hunk") or hits[0].quiet:
        return 0
    replaced = hits[0].replaced_text()  # (a rollback's undone text holds the lines it replaced too)
    undone = tuple(line for line in hits[0].undone_text() if line not in replaced)
    if len(undone) != 1 or len(replaced) != 1 or undone == replaced or VERSION_NUMBER.search(undone[0] + b" " + replaced[0]):
        return 0
    key = DIGITS.sub(b"#", undone[0])
    if key != DIGITS.sub(b"#", replaced[0]):
        return 0
    near = sorted(((abs(at - position), change) for at, other in enumerate(commits) if at != position
                   for change in other.changes if change.path == hits[0].path and change.old and change.new),
                  key=lambda pair: pair[0])
    return sum(1 for _, change in near[:COUNTER_LOOKBACK] if _moves_count(change, key, ctx))


def _moves_count(change: Change, key: bytes, ctx: Context) -> bool:
    """The change writes the line KEY stands for with another count than it had. Only lines holding KEY's
    longest word are squeezed and compared (a word survives squeezing): a 12,000-line file costs a scan."""
    word = max(WORD_IN_KEY.findall(key), key=len, default=b"")

    def counts(state: State | None) -> set[bytes]:
        text = _readable(ctx, state)
        if word not in text:
            return set()
        return {line for line in map(squeeze, (raw for raw in text.splitlines() if word in raw))
                if DIGITS.sub(b"#", line) == key}
    before, after = counts(change.old), counts(change.new)
    return bool(before) and bool(after) and before != after


def _fragments_cleared(fragments: list[PathHit], landed: Landed, ctx: Context) -> bool:
    """The change bumps the project's version under a release title and adds no fragment: a release, however
    few fragments it deletes. Or it deletes several, edits a changelog, and leaves no fragment in the
    folders they lay in: a release's clean-up. A stale tree deletes the fragments added since its base and
    leaves the changelog alone; one read of those folders in the result. A release may write versions instead
    of a changelog (`yarn version apply`). Or the change deletes fragments and touches nothing but other
    fragments, adding none: a release written elsewhere (timescale's `reset .unreleased` after the release
    branch's changelog), where a stale tree's change does work of its own and adds its own fragment."""
    if _bumps_versions(landed) and _titled_release(landed) and \
            not any(c.added and ctx.rules.fragment(c.path) for c in landed.changes):
        # a version bump titled so that deletes the fragments a release branch took, the next ones left for the
        # next release (pulp's bot `Bump minor version` after branching; Rush's `Bump versions.` consuming its one
        # change file): no stale tree bumps the version
        return True
    if len({h.path for h in fragments}) < MIN_CLEARED_FRAGMENTS:
        return False
    if all(not c.added and ctx.rules.fragment(c.path) for c in landed.changes):  # (one of them edited, say)
        return True
    edits_changelog = any(is_changelog(c.path) and not c.deleted for c in landed.changes)
    if not landed.head or not (edits_changelog or _bumps_versions(landed)):
        return False
    folders = sorted({git.fsdecode(h.path.rpartition(b"/")[0]) + "/" for h in fragments if b"/" in h.path})
    return bool(folders) and not any(ctx.rules.fragment(path) for path in git.tree_blobs(landed.head, ctx.repo, folders))


def _bumps_versions(landed: Landed) -> bool:
    """Whether the change writes the project's own version anew, as `yarn version apply` does when it consumes
    the deferred version files (radix-ui's `New release`, which edits no changelog) or a release bot's bump
    after branching, whose changelog is written on the release branch (pulp's `Bump minor version`)."""
    return any(h.removed and h.added and own_version_only(h.removed) and own_version_only(h.added)
               for p in landed.patches for h in p.hunks)


def _copies_kept(deletions: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """The deleted files of the commits all of whose deleted files stay in the change's result, each under
    the same name at a path the change leaves alone (django-silk's `Removed duplicates` of a package kept
    twice): nothing is lost. Some of a commit's files kept elsewhere say nothing of the others (react-router's
    `remove old basic template`), and empty or one-line files alone prove nothing: they have copies everywhere."""
    states = {patch.change.path: patch for patch in landed.patches if patch.change.new is None and patch.change.old is not None}
    wanted = [h for h in deletions if h.kind == "deleted-added"]
    if not wanted or not landed.head or any(h.path not in states for h in wanted):
        return []
    # a copy of the same name the change leaves where it was: the same content under another name (pre-commit's
    # `.pre-commit-hooks.yaml` beside the legacy `hooks.yaml`) is another file, whose name is what tools read
    touched = {change.path for change in landed.changes}
    kept = {(oid, path.rpartition(b"/")[2]) for path, oid in git.tree_blobs(landed.head, ctx.repo).items()
            if path not in touched}

    def copied(hit: PathHit) -> bool:
        state = states[hit.path].change.old
        return state is not None and (state.oid, hit.path.rpartition(b"/")[2]) in kept

    def substantial(hit: PathHit) -> bool:
        patch = states[hit.path]
        return patch.lines >= MIN_HUNK_LINES or (not patch.text and patch.change.old is not None and
                                                 patch.change.old.oid != git.EMPTY_BLOB)
    positions = {h.position for h in wanted}
    duplicated = {p for p in positions if all(copied(h) for h in wanted if h.position == p) and
                  any(substantial(h) for h in wanted if h.position == p)}
    return [h for h in wanted if h.position in duplicated]


def _renamed_in(commit: Commit, hits: list[PathHit], ctx: Context) -> bool:
    """Every hit is lines of a file the undone commit added, most of them moved there from a file of the
    same name it deleted (rayon's `par_iter/len.rs` renamed to `iter/len.rs`, git pairing no renames in
    the patches): older work it only moved, none of its own to lose."""
    if any(h.kind != "inverse-hunk" for h in hits):
        return False
    added = {c.path for c in commit.changes if c.added}
    sources: dict[bytes, list[str]] = {}
    for change in commit.changes:
        if change.old is not None and change.new is None:
            sources.setdefault(change.path.rpartition(b"/")[2], []).append(change.old.oid)
    for hit in hits:
        oids = sources.get(hit.path.rpartition(b"/")[2], [])
        undone = [line for line in hit.undone_text() if line]
        if hit.path not in added or not oids or not undone:
            return False
        old = {line for oid in oids for line in _squeezed_lines(ctx, oid)}
        if sum(1 for line in undone if line in old) < MOVED_SHARE * len(undone):
            return False
    return True


def _squeezed_lines(ctx: Context, oid: str) -> set[bytes]:
    """A blob's lines as the patches hold them (whitespace squeezed out)."""
    return {squeeze(line) for line in _blob(ctx, oid).split(b"\n")}


def _generated_by_bot(hits: list[PathHit], commits: Sequence[Commit], landed: Landed) -> list[PathHit]:
    """Hits on a bot's commit that says a tool wrote it (rich-click's `Generate new screengrabs with rich-codex`
    by `github-actions[bot]`, its SVGs rolled back by a docs PR) weigh as built files do: the bot writes them
    again from a fresh checkout. A dependency bump is work, whoever commits it: its subject says no such thing.
    Not when a bot made the change too: a tool's run from a stale base (vstest's loc bot putting every
    translation back to English as it stood before its previous check-in)."""
    if not landed.authors:  # no person wrote the change
        return hits

    def generated(hit: PathHit) -> bool:
        commit = commits[hit.position]
        return hit.kind in GENERATED_KINDS and is_bot(commit.author_name, commit.author_email) and \
            says_generates(commit.subject)
    return [h._replace(quiet="a bot's generated output") if generated(h) else h for h in hits]


def _platform_export(hits: list[PathHit], commits: Sequence[Commit], landed: Landed) -> list[PathHit]:
    """Hits on a language's texts in a translation platform's export (commons-app's `Localisation updates from
    https://translatewiki.net.` bringing back a locale folder someone deleted; wire-android's `update
    localization strings via Crowdin` dropping strings a feature had typed into `values-de/strings.xml`) weigh
    as a bot's generated output: the platform owns the catalogs and writes them from its own state, where a
    lost string is set right. Not a translator's own work (frappe/lms' `Add Chinese locale`, its 824 strings
    blanked by the next Crowdin sync and never restored): that is what the platform lost. Its other files are
    judged like any."""
    if not any(syncs_translations(title) for title in (landed.subject, landed.title) if title):
        return hits
    return [h._replace(quiet="a translation platform's export") if not h.quiet and translated_resource(h.path) and
            h.kind in (*GENERATED_KINDS, "resurrected") and not _translators_own(commits[h.position]) else h for h in hits]


def _translators_own(commit: Commit) -> bool:
    """COMMIT is a translator's: its subject or merged PR's title is about translating (`Add Chinese locale`), or
    it changed language files and nothing else (amethyst's `update cs,sv,de,pt`, deleted again minutes later by
    a Crowdin sync that did not have the strings yet)."""
    return any(speaks_of_translation(title) for title in (commit.subject, pr_title(commit)) if title) or \
        bool(commit.changes) and all(translated_resource(change.path) for change in commit.changes)


def _generated_as_built(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Hits on files whose header says a tool writes them (`# This file is auto-generated by generate_stubs.py.`,
    `// Code generated by protoc. DO NOT EDIT.`, `@generated`) weigh as built files do: their lines and a
    rollback are notices; deleting or bringing one back still counts. So do lines undone inside a block a
    comment says a tool writes (fastlane's `<!-- This table is regenerated and resorted on each release -->`).
    Only files with line-level or rollback evidence are read, once each, MAX_HEADER_READS at most (`_header_asked`
    chooses them); an R package's help pages and files rendered from a source beside them are told by a lookup
    each, however many (a roxygen run rewrites dozens)."""
    changes = {p.change.path: p.change for p in landed.patches}
    wanted = {h.path for h in hits if h.kind in GENERATED_KINDS and not h.quiet}  # (quiet ones weigh nothing already)
    generated = _roxygen_pages(wanted, landed, ctx) | _rendered_pages(wanted, landed, ctx)
    wanted = _header_asked(hits, wanted - generated)
    sections = {}
    for path in wanted & changes.keys():
        change = changes[path]
        text = _readable(ctx, change.new or change.old)
        if _declares_generated(text):
            generated.add(path)
        elif change.new is not None and (blocks := _marked_blocks(text)):
            # the rows a tool writes anew, in any order, before and after the change
            sections[path] = blocks | _marked_blocks(_readable(ctx, change.old))
    if not generated and not sections:
        return hits

    def quiet(hit: PathHit) -> str:
        if hit.kind not in GENERATED_KINDS:
            return hit.quiet
        if hit.path in generated:
            return "generated file"
        undone = [line for line in hit.undone_text() if line]
        inside = sections.get(hit.path)
        return "generated section" if inside and undone and all(line in inside for line in undone) else hit.quiet
    return [h._replace(quiet=quiet(h)) for h in hits]


def _header_asked(hits: list[PathHit], wanted: set[bytes]) -> set[bytes]:
    """The files of WANTED whose headers are read, MAX_HEADER_READS at most (a blob each, which git inflates):
    of the commits undone in MAX_HEADER_READS of them or fewer, the files most of those commits are undone in
    first. A commit undone in more is a stale tree's, its files judged together (rspec-rails' branch with its own
    copies of five generated build scripts); a file many small undone commits share is what the change rewrote
    (spacedrive's Specta `types.ts`, written in the order of the day beside other work, eleven commits' lines)."""
    by_commit: dict[int, set[bytes]] = {}
    for hit in hits:
        if hit.path in wanted:
            by_commit.setdefault(hit.position, set()).add(hit.path)
    shares: Counter[bytes] = Counter(path for paths in by_commit.values() if len(paths) <= MAX_HEADER_READS
                                     for path in paths)
    return {path for path, _ in sorted(shares.items(), key=lambda item: (-item[1], item[0]))[:MAX_HEADER_READS]}


COPY_WRITTEN = "a copy of another file the change writes"
EMPTY_BLOBS = ("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",  # (SHA-1 and SHA-256: empty files are alike everywhere)
               "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")


def _copies_written(hits: list[PathHit], landed: Landed) -> list[PathHit]:
    """Hits on a file the change writes byte for byte as another file it writes, that commit's work not being
    in the other (xstate's `docs/packages/*/index.md`, copied from each package's README by its docs script:
    a fix made to the copy alone is overwritten at the next copy). A stale tree's copy matches no file it writes."""
    result = _result_oids(landed)
    twins: dict[str, list[bytes]] = {}
    for path, oid in result.items():
        if oid not in EMPTY_BLOBS:
            twins.setdefault(oid, []).append(path)
    copies = {path for paths in twins.values() if len(paths) > 1 for path in paths}
    if not copies:
        return hits
    hit_paths: dict[int, set[bytes]] = {}
    for h in hits:
        hit_paths.setdefault(h.position, set()).add(h.path)

    def copied(hit: PathHit) -> bool:
        return hit.path in copies and hit.kind in GENERATED_KINDS and not hit.quiet and \
            any(other not in hit_paths[hit.position] for other in twins[result[hit.path]] if other != hit.path)
    return [h._replace(quiet=COPY_WRITTEN) if copied(h) else h for h in hits]


def _roxygen_pages(paths: set[bytes], landed: Landed, ctx: Context) -> set[bytes]:
    """The `man/*.Rd` pages among PATHS of an R package whose DESCRIPTION records `RoxygenNote`: roxygen2 writes
    them from the sources' comments at every run (mlr3's, shiny's pages flipping with each developer's roxygen2
    version), as each page's header says; a run rewrites dozens, one read of DESCRIPTION per package tells."""
    pages: dict[bytes, list[bytes]] = {}
    for path in paths:
        if ROXYGEN_PAGE.search(path):  # (the package's folder: `pkg/` of `pkg/man/x.Rd`, none of `man/x.Rd`)
            pages.setdefault(path.rsplit(b"/", 2)[0] + b"/" if path.count(b"/") > 1 else b"", []).append(path)
    if not pages or not landed.head:
        return set()
    return {path for root, found in pages.items()
            if ROXYGEN_NOTE.search(_blob(ctx, f"{landed.head}:{git.fsdecode(root)}DESCRIPTION")) for path in found}


def _rendered_pages(paths: set[bytes], landed: Landed, ctx: Context) -> set[bytes]:
    """The files among PATHS with their source beside them, of one stem (RENDERED_FROM): knitr's `README.md` of
    `README.Rmd`, printed output and all (mlr3's), lalrpop's parser `expr.rs` of `expr.lalrpop` (19 false
    warnings in one history), bison's and flex's C, Sass' CSS, CoffeeScript's JavaScript: the tool writes them
    again from the source at every build. One object lookup a source name."""
    if not landed.head:
        return set()
    found = set()
    for path in paths:
        stem, dot, extension = path.rpartition(b".")
        sources = RENDERED_FROM.get(extension) if dot and b"/" not in extension else None
        if sources and any(ctx.reader.info(f"{landed.head}:{git.fsdecode(stem)}{source}") is not None for source in sources):
            found.add(path)
    return found


def _kept_in_siblings(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Hits on a translation catalog all of whose lines the change takes out (squeezed) another catalog of
    its folder holds in the change's result weigh as notices, when every line it writes there is held too
    or gives one of those entries' keys a new value: the text lives on. A tool's work list is emptied once
    its entries are applied (localsend's `i18n: regenerate` clearing the translations a translator typed
    into slang's `_missing_translations_fr.json`, which `strings_fr.json` holds), or filled from the base
    language; a placeholder copied from the base language is translated (audiobookshelf's `[PT-BR] OpenID
    permission strings` over the English ones a feature had put in `pt-br.json`). Entries only this catalog
    had stay lost (a work list emptied before anyone applied it), and so do new lines beside them; an entry
    copied across locales as a placeholder is their fallback, which losing one copy leaves in place."""
    wanted = {h.path for h in hits if h.kind in GENERATED_KINDS and not h.quiet and translation_catalog(h.path)}
    if not wanted or not landed.head:
        return hits
    kept, catalogs = set(), _Catalogs(ctx, landed.head)
    for patch in landed.patches:
        path = patch.change.path
        erased = [line.rstrip(b",") for h in patch.hunks for line in h.removed]
        written = [line.rstrip(b",") for h in patch.hunks for line in h.added]
        if path in wanted and any(WORDED.search(line) for line in erased):  # (brackets alone are in every catalog)
            entries = catalogs.entries(path)
            placeholders = dict(entry for line in erased if (entry := _entry(line)))
            if all(line in entries for line in erased) and \
                    all(line in entries or _translates(_entry(line), placeholders) for line in written):
                kept.add(path)
    return [h._replace(quiet="kept in the folder's other catalogs") if h.path in kept and h.kind in GENERATED_KINDS
            and not h.quiet else h for h in hits]


def _catalogs_recreated(hits: list[PathHit], landed: Landed) -> list[PathHit]:
    """A translation catalog a commit deleted, brought back holding translations it never had: a translation
    platform writing the file anew once someone translates into it (kimai's Weblate re-creating the
    `wizard.sv.xlf` that `remove empty translation files` had deleted, its skeleton the old file's lines and
    seven Swedish strings new). A stale copy brings the old file back with nothing it lacked."""
    wanted = {h.path for h in hits if h.kind == "resurrected" and not h.quiet and translation_catalog(h.path)}
    if not wanted:
        return hits
    recreated = set()
    for patch in landed.patches:
        if patch.change.path in wanted:
            back = {line for h in hits if h.path == patch.change.path for line in h.text_undone}
            if any(WORDED.search(line) and line not in back for h in patch.hunks for line in h.added):
                recreated.add(patch.change.path)
    return [h._replace(quiet="a translation catalog written anew with translations it never had")
            if h.path in recreated and h.kind == "resurrected" and not h.quiet else h for h in hits]


def _rollbacks_seen_whole(hits: list[PathHit], commits: Sequence[Commit], landed: Landed, ctx: Context) -> list[PathHit]:
    """A file its hunks read as put back to its version before a commit, formatting aside, checked against the
    two versions whole: the hunk model sees a line a landing hunk takes out and writes again as re-indented,
    and a line moved there is no old text (supertokens' `fix: code cleanup` writing `throw sqe;` into an
    `else` its build fix had not had). Not the same letters line for line, it is that commit's change taken
    out, not its file put back: the evidence says so (the severity is the rollback's: the change is undone
    all the same, and a release branch's copy of a document undoing many commits is no old version either)."""
    claimed = [h for h in hits if h.kind == "rollback" and h.normalized and not h.newer_kept and h.before is None]
    if not claimed:
        return hits
    result = _result_oids(landed)
    differ = set()
    for hit in claimed:
        old = next((c.old for c in commits[hit.position].changes if c.path == hit.path), None)
        if old is not None and hit.path in result and \
                compared_letters(_blob(ctx, old.oid)) != compared_letters(_blob(ctx, result[hit.path])):
            differ.add(id(hit))
    return [h._replace(other_lines=True) if id(h) in differ else h for h in hits]


def _entry(line: bytes) -> tuple[bytes, bytes] | None:
    """(key, value) of a catalog's entry line (squeezed): JSON's `"key":"..."`, YAML's `key:...`, `key=...`."""
    found = ENTRY_KEY.match(line)
    return (found.group(1), line[found.end():]) if found else None


def _translates(entry: tuple[bytes, bytes] | None, placeholders: Mapping[bytes, bytes]) -> bool:
    """ENTRY gives a placeholder's key text of its own, a translation, not an edit of it: NodeBB's bot putting
    back `"dir": "Itr"` over the `ltr` fix is no translation (short values share too few trigrams to tell,
    so characters in order are compared)."""
    if entry is None or entry[0] not in placeholders:
        return False
    from difflib import SequenceMatcher  # (only here, and rarely: off the revert engine's import path)
    text, placeholder = entry[1].strip(b"\"'"), placeholders[entry[0]].strip(b"\"'")
    return SequenceMatcher(None, text, placeholder, autojunk=False).ratio() < MAX_TRANSLATION_LIKENESS


class _Catalogs:
    """The lines (squeezed, no trailing comma) of a translation catalog's other catalogs in a tree: its folder's
    files of its suffix, and files of its name in the folders beside (a folder per locale: NodeBB's
    `language/vi/intents.json` beside `language/en-GB/intents.json`); none when there are over
    MAX_SIBLING_FILES of them or MAX_SIBLING_BYTES in all. Trees and blobs are read once each: a regeneration
    empties a work list per locale, all of them in one folder."""

    def __init__(self, ctx: Context, head: str) -> None:
        self._ctx, self._head = ctx, head
        self._trees: dict[bytes, dict[bytes, tuple[bytes, str]]] = {}
        self._sizes: dict[str, int] = {}
        self._lines: dict[str, set[bytes]] = {}

    def entries(self, path: bytes) -> set[bytes]:
        folder, _, name = path.rpartition(b"/")
        suffix = name[name.rfind(b"."):]
        oids = [oid for other, (mode, oid) in self._listing(folder).items()
                if mode.startswith(b"100") and other.endswith(suffix) and other != name]
        parent, _, leaf = folder.rpartition(b"/")
        beside = [other for other, (mode, _) in self._listing(parent).items() if mode.startswith(b"40") and other != leaf] \
            if parent else []
        if len(oids) + len(beside) > MAX_SIBLING_FILES:
            return set()
        oids += [entry[1] for other in beside
                 if (entry := self._listing(parent + b"/" + other).get(name)) and entry[0].startswith(b"100")]
        unsized = [oid for oid in oids if oid not in self._sizes]
        self._sizes.update((oid, size) for oid, (_, size) in self._ctx.reader.sizes(unsized).items())
        found = [oid for oid in oids if oid in self._sizes]
        if not found or sum(self._sizes[oid] for oid in found) > MAX_SIBLING_BYTES:
            return set()
        return set().union(*(self._read(oid) for oid in found))

    def _listing(self, tree: bytes) -> dict[bytes, tuple[bytes, str]]:
        if tree not in self._trees:
            self._trees[tree] = self._ctx.reader.listing(f"{self._head}:{tree.decode('utf-8', 'surrogateescape')}")
        return self._trees[tree]

    def _read(self, oid: str) -> set[bytes]:
        if oid not in self._lines:
            self._lines[oid] = {line.rstrip(b",") for line in compared_lines(_blob(self._ctx, oid))}
        return self._lines[oid]


def _swept(hits: list[PathHit], landed: Landed, commits: Sequence[Commit]) -> list[PathHit]:
    """Line-level hits on files where the change's every edit is one it makes in MIN_SWEEP_EDITS other files
    too, files the undone commit did not touch (spectre.console's `namespace Spectre.Console.Internal` made
    `namespace Spectre.Console` in 120 files): a sweep of the code base, which only here meets a commit's line;
    a stale copy holds that commit's lines whatever the sweep writes, and one undoing a commit's rename puts
    it back only in that commit's files."""
    wanted = [h for h in hits if h.kind in GENERATED_KINDS and not h.quiet]
    if len(landed.patches) <= MIN_SWEEP_EDITS or not wanted:
        return hits
    patches = [p for p in landed.patches if p.text]
    touched: dict[int, set[bytes]] = {}  # per undone commit, its paths

    def sweeps(edits: dict[bytes, frozenset[object]]) -> dict[int, int]:
        """Per hit: in how many files beyond the undone commit's the rarest edit of its file is made."""
        by_edit: dict[object, set[bytes]] = {}
        for path, found in edits.items():
            for edit in found:
                by_edit.setdefault(edit, set()).add(path)
        counts = {}
        for hit in wanted:
            made = edits.get(hit.path)
            if made:
                if hit.position not in touched:
                    touched[hit.position] = {c.path for c in commits[hit.position].changes}
                # (an edit in fewer files than a sweep needs is none, whoever touched them)
                beyond = touched[hit.position]
                counts[id(hit)] = min(0 if len(by_edit[edit]) <= MIN_SWEEP_EDITS else len(by_edit[edit] - beyond)
                                      for edit in made)
        return counts
    counts = sweeps({p.change.path: frozenset((h.removed, h.added) for h in p.hunks if not h.cosmetic) for p in patches})
    left = {h.path for h in wanted if counts.get(id(h), 0) < MIN_SWEEP_EDITS}
    if any(p.change.path in left and all(_renames_in(h) for h in p.hunks if not h.cosmetic) for p in patches):
        # an edit is also the renames it makes when it only renames (alloy's `Finish up slog migration` naming
        # `SLogger` `Logger` again in a hundred files: the words it puts back, its sweep's doing); read only
        # when the edits themselves leave a hit unexplained
        renamed = sweeps({p.change.path: frozenset(e for h in p.hunks if not h.cosmetic
                                                   for e in _renames_in(h) or ((h.removed, h.added),)) for p in patches})
        counts = {key: max(n, renamed.get(key, 0)) for key, n in counts.items()}
    return [h._replace(quiet=f"an edit the change makes in {counts[id(h)]} other files too")
            if counts.get(id(h), 0) >= MIN_SWEEP_EDITS else h for h in hits]


def _renames_in(hunk: Hunk) -> frozenset[tuple[bytes, bytes]]:
    """The words HUNK renames, when it only renames: line for line the same words but for some replaced by
    others; nothing for any other hunk."""
    if not hunk.removed or len(hunk.removed) != len(hunk.added):
        return frozenset()
    renames = set()
    for old, new in zip(hunk.removed, hunk.added):
        was, now = TOKEN.findall(old), TOKEN.findall(new)
        if len(was) != len(now):
            return frozenset()
        renames |= {(a, b) for a, b in zip(was, now) if a != b}
    return frozenset(renames) if all(a[:1].isalpha() and b[:1].isalpha() for a, b in renames) else frozenset()


def _unused_imports(hits: list[PathHit], landed: Landed, ctx: Context) -> list[PathHit]:
    """Line-level hits on import lines only, that lose nothing: ones a commit added taken out when nothing in
    the file as the change leaves it uses their names (msgspec's `Fix linter` taking out the `import inspect` a
    commit added beside `from inspect import get_annotations`), ones a commit took out put back when lines
    the change writes use them (traefik's healthcheck command needing `crypto/tls` again), and an import line
    a commit edited, put back as it was, when the names that brings back are used by lines the change writes
    and the ones it takes out by nothing left. (One put back
    unused is still a stale copy's sign; a package's `__init__.py` re-exports, `# noqa` keeps one on purpose.)
    C#'s `using` binds a namespace whose use no name tells, and the compiler refuses a missing one: either
    way it loses nothing. Read only for such hits, both sides of the file: the patches hold lines squeezed,
    where `import a.b as c` loses its `as`; a name found anywhere outside an import line (a call, a comment, a
    multi-line import's list) is used."""
    changes = {p.change.path: p.change for p in landed.patches}
    pruned = [h for h in hits if h.kind == "inverse-hunk" and not h.quiet and h.path in changes and
              h.undo is not None and len({u.kind for u in h.undo.undone}) == 1 and
              (language := import_language(h.path)) and
              all(imports_only((line,), language) or names_one_import(line) for line in h.undone_text() if line) and
              posixpath.basename(h.path) != b"__init__.py"]
    def read(hits: list[PathHit]) -> set[bytes]:  # the files whose both sides are read (C#'s need none)
        return {h.path for h in hits if import_language(h.path) != "csharp"}
    if len(read(pruned)) > MAX_HEADER_READS:  # import lines edited are asked about only within the reads left
        pruned = [h for h in pruned if h.undo is not None and h.undo.undone[0].kind != "replaced"]
    paths = read(pruned)
    if len(paths) > MAX_HEADER_READS:
        return hits
    code: dict[bytes, list[bytes]] = {}
    written: dict[bytes, list[bytes]] = {}  # per path: its code lines the change writes anew
    imports: dict[bytes, dict[bytes, list[bytes] | None]] = {}  # per path: squeezed import line -> names it binds
    for path in paths:
        texts = (_readable(ctx, changes[path].old), _readable(ctx, changes[path].new))
        old, new = (text.split(b"\n") for text in texts)
        language = import_language(path)
        code[path] = [line for line in new if (squeezed := squeeze(line)) and not imports_only((squeezed,), language)]
        before = set(old)
        written[path] = [line for line in code[path] if line not in before]
        imports[path] = {squeezed: bound_names(line, language) for line in old + new
                         if imports_only(((squeezed := squeeze(line)),), language)}
        for text in texts:  # and the names of `from m import (` lists, one a line
            imports[path].update(import_list_items(text, language))

    def loses_nothing(hit: PathHit) -> bool:
        language = import_language(hit.path)
        if language == "csharp":
            return True
        names = [imports[hit.path].get(line) for line in hit.undone_text() if line]
        if not (code[hit.path] and all(names)) or hit.undo is None:
            return False
        # (Go uses a package only through its selector, `format.DiffActionSymbol`: a word in a comment is no use)
        used = _used_by_selector if language == "go" else _used
        kind = hit.undo.undone[0].kind
        if kind == "replaced":  # an import's names edited (pyo3's `from typing import final` for `Any, final`)
            def bound(lines: tuple[bytes, ...]) -> set[bytes]:
                return {name for line in lines for name in imports[hit.path].get(line) or ()}
            back = set().union(*(bound(u.removed) - bound(u.added) for u in hit.undo.undone))
            out = set().union(*(bound(u.added) - bound(u.removed) for u in hit.undo.undone))
            return bool(back | out) and all(used(name, written[hit.path]) for name in back) and \
                not any(used(name, code[hit.path]) for name in out)
        put_back = kind == "restored"
        lines = written[hit.path] if put_back else code[hit.path]
        uses = [any(used(name, lines) for name in found) for found in names if found]
        return all(uses) if put_back else not any(uses)
    quiet = {id(h) for h in pruned if loses_nothing(h)}
    return [h._replace(quiet=UNUSED_IMPORT) if id(h) in quiet else h for h in hits]


def _taken_from_mainline(hits: list[PathHit], commits: Sequence[Commit], landed: Landed, ctx: Context) -> list[PathHit]:
    """A merge whose first parent is a topic branch and whose second is the mainline, by name (`git pull`'s
    `Merge branch '3.x' of https://... into 3.x`, filament's `Merge branch '3.x' into fix-padding`): a file
    it leaves as the mainline has it, past a commit the mainline already holds, is the mainline's own later
    change (filament's `Fix pagination layout`), no loss; one the topic branch alone held and the merge
    dropped is still lost. Asked of such merges only: two blob reads per path (up to MAX_MAINLINE_PATHS)
    and one `merge-base --is-ancestor` per undone commit."""
    # (the branch merged in must be the mainline by name: a topic branch merging another topic branch, a
    # stale one perhaps, brings in that branch's commits, whatever they undid)
    pulled, topic = PULL_MERGE.fullmatch(landed.subject), INTO_TOPIC.fullmatch(landed.subject)
    mainline_in = (pulled is not None and MAINLINE.fullmatch(pulled.group(1)) is not None) or \
        (topic is not None and MAINLINE.fullmatch(topic.group(1)) is not None and not MAINLINE.fullmatch(topic.group(2)))
    if not landed.merge or not landed.head or not mainline_in:
        return hits
    parents = ctx.reader.parents(landed.head)
    paths = {h.path for h in hits}
    if len(parents) != 2 or len(paths) > MAX_MAINLINE_PATHS:
        return hits
    taken = {path for path in paths if _blob(ctx, f"{landed.head}:{git.fsdecode(path)}") ==
             _blob(ctx, f"{parents[1]}:{git.fsdecode(path)}")}
    held: dict[int, bool] = {}
    for position in {h.position for h in hits if h.path in taken}:
        held[position] = git.run(["merge-base", "--is-ancestor", commits[position].sha, parents[1]], ctx.repo,
                                 ok_codes=(0, 1)).returncode == 0
    return [h._replace(quiet="the mainline's own later change, taken by a merge into a topic branch")
            if h.path in taken and held.get(h.position) and not h.quiet else h for h in hits]


def _readable(ctx: Context, state: State | None) -> bytes:
    """The text of a file version worth reading for its markers: none for a submodule or a file over
    MAX_HEADER_BLOB."""
    if state is None or not state.is_blob:
        return b""
    size = ctx.reader.info(state.oid)
    return b"" if size is None or size[1] > MAX_HEADER_BLOB else _blob(ctx, state.oid)


def _declares_generated(text: bytes) -> bool:
    head = _header_lines(text)
    if any(GENERATED_MARK.search(line) for line in head) or GO_GENERATED.search(text[:GO_GENERATED_BYTES]) or \
            JAVA_GENERATED.search(text[:GO_GENERATED_BYTES]):
        return True
    # a documentation generator signs its HTML pages at the foot (jazzy's `Generated by jazzy`, TypeDoc's
    # `Generated using TypeDoc`, Doxygen's, Sphinx's `Created using Sphinx`): a hand edit there is overwritten
    return HTML_PAGE.match(head[0] if head else b"") is not None and \
        HTML_FOOTER_MARK.search(text[-GENERATED_FOOTER_BYTES:]) is not None


def _header_lines(text: bytes) -> list[bytes]:
    """The first GENERATED_HEADER_LINES non-blank lines of TEXT that a marker may open, past a page's YAML front matter
    (docusaurus' `---` block); a line inside a block comment opened above it reads as a comment (MultiQC's
    `<!--` over `~~~~~ DO NOT EDIT ~~~~~`)."""
    lines = text[:GENERATED_HEADER_BYTES].split(b"\n")
    if lines and lines[0].rstrip() == b"---":
        lines = text[:FRONT_MATTER_BYTES].split(b"\n")
        end = next((i for i, line in enumerate(lines[1:], 1) if line.rstrip() == b"---"), None)
        lines = lines[end + 1:] if end is not None else lines
    head, inside, counted = [], False, 0
    for line in (line for line in lines if line.strip()):  # flex's opens with blank lines
        if counted == GENERATED_HEADER_LINES:
            break
        # (linters' switches and a comment without a word count for nothing: MSW's `mockServiceWorker.js` opens
        # with `/* eslint-disable */`, `/* tslint:disable */` and `/**` above its `Please do NOT modify this file.`,
        # gh-aw's compiled workflows with a banner drawn in `_`, `|` and `/` above theirs)
        counted += not (LINT_SWITCH.match(line) or (COMMENTED.match(line) and not A_WORD.search(line)))
        head.append(b"# " + line if inside else line)
        opens = BLOCK_COMMENT_OPEN.match(line)
        if opens is not None:
            inside = CLOSERS[opens.group(1)] not in line[opens.end():]
        elif inside and any(closer in line for closer in CLOSERS.values()):
            inside = False
    return head


def _may_mark_a_section(text: bytes) -> bool:
    """Whether TEXT holds a word each of SECTION_MARK's alternatives needs: a few passes in C over a lowered copy
    (a case-blind alternation is ten times slower), so most files skip the search line by line."""
    lowered = text.lower()
    return any(word in lowered for word in SECTION_WORDS) or DO_NOT.search(lowered) is not None


def _marked_blocks(text: bytes) -> set[bytes]:
    """The lines of TEXT inside blocks marked as a tool's (squeezed): from a marking comment to its end
    marker (`<!-- ALL-CONTRIBUTORS-LIST:END -->`) when it opens one, else to the next blank line."""
    if not _may_mark_a_section(text):
        return set()
    lines, inside = text.split(b"\n"), set[bytes]()
    i = 0
    while i < len(lines):
        if not SECTION_MARK.search(lines[i]):
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if SECTION_ENDS.search(lines[j])), None) \
            if SECTION_OPENS.search(lines[i]) else None
        if end is None:  # to the paragraph's end
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].strip()), len(lines))
        inside.update(squeeze(line) for line in lines[i + 1:end])
        i = end
    inside.discard(b"")
    return inside


def _blob_lines(ctx: Context, spec: str) -> set[str]:
    """A blob's lines (an object id or `REV:PATH`), stripped; none when it does not exist."""
    return {line.strip() for line in _blob(ctx, spec).decode("utf-8", "replace").splitlines()}


def _blob(ctx: Context, spec: str) -> bytes:
    found = ctx.reader.read(spec)
    return found[1] if found is not None else b""


def _logged(landed: Landed) -> str:
    """The lines the change writes into changelogs (`ChangeLog`, `CHANGES.md`), as the patches hold them."""
    return "\n".join(line.decode("utf-8", "replace") for patch in landed.patches
                     if is_changelog(patch.change.path) for hunk in patch.hunks for line in hunk.added)


def _only_deletes(landed: Landed) -> bool:
    """Every file the change touches it deletes: it writes no line anywhere."""
    return bool(landed.changes) and all(c.deleted for c in landed.changes)


def _release_notes(hits: list[PathHit], ctx: Context) -> bool:
    """Every one of HITS is a changelog fragment or a changelog (`CHANGES.rst`, `docs/changelog.md`)."""
    return all(ctx.rules.fragment(h.path) or is_changelog(h.path) for h in hits)


def _repair_note(commit: Commit, hits: list[PathHit], ctx: Context) -> str:
    """What running the repair does besides putting the work back, when it matters."""
    if _reverts(commit):
        return REVERT_REPAIR_NOTE
    if all(h.kind == "deleted-added" and ctx.rules.fragment(h.path) for h in hits):
        return FRAGMENT_REPAIR_NOTE
    return ""


def _in_context(level: int, reason: str, commit: Commit, paths: list[str], hits: list[PathHit],
                landed: Landed, stale: bool, kept: int, dropped: bool, every_file: bool,
                entries: bool = False, notes: bool = False, shas: Sequence[str] = (),
                gone: Sequence[str] = (), beside_rollback: bool = False, just_before: bool = False,
                latest: bool = False) -> tuple[int, str]:
    """What the change says of itself and how old the undone work is: the discriminators that hold
    on real histories (REVERTS.md). Whole-file evidence stays an error unless the change says it undoes."""
    titles = (landed.subject, landed.title)  # what the change calls itself: its subject and its PR's title
    if level > NOTICE and landed.grafted:
        # `git merge --allow-unrelated-histories` is said on purpose: a rewrite or a project taken in whole,
        # with no common commit there was no stale tree and no conflict resolution (arrow's `merge of v.2`)
        return NOTICE, reason + "; a merge joining an unrelated history (no commit in common): a rewrite taken in"
    if level > NOTICE and any(calls_itself_a_revert(t) for t in titles if t):
        return NOTICE, reason + "; the change calls itself a revert (name the commit to declare it)"
    if level > NOTICE and removes_its_topic(titles, pr_title(commit)):
        return NOTICE, reason + "; the change's title says it removes what the undone commit's title names"
    if level > NOTICE and not stale and says_it_reverts(landed.message):
        return NOTICE, reason + "; the change's message says it reverts (name the commit to declare it)"
    if level > NOTICE and reverts_by_topic(landed.message, pr_title(commit)):
        return NOTICE, reason + "; a line of the change's message says it reverts that work (name the commit to declare it)"
    if level > NOTICE and any(NOTE_REVERTS.match(note) for note in landed.notes):
        return NOTICE, reason + "; the change's release note calls it a revert (name the commit to declare it)"
    if level > NOTICE and landed.time and commit.sha not in landed.own_commits and (
            commit.time == landed.time or abs(landed.time - commit.time) <= REBASED_TOGETHER and
            landed.authors.matches(commit.author_email, commit.author_name)):
        # one rebase landed both (GitHub's "rebase and merge" commits a PR's series in the same second; its
        # author's own `git rebase` seconds apart, kolibri's accordion series): a series is one linear branch,
        # each commit written on top of the ones before it
        return NOTICE, reason + "; landed with the change in one rebase (committed together): that series' own iteration"
    undone = [line for h in hits for line in h.undone_text()]
    lines_only = all(h.kind == "inverse-hunk" for h in hits)  # hunk-level evidence, no file put back or deleted
    taken_out = _taken_out(hits)
    if level > NOTICE and not stale and not every_file and _its_files_taken_out(hits):
        return NOTICE, reason + ("; the files it added deleted and its lines elsewhere taken out, its other changes "
                                 "kept: that work removed (a stale copy lacks all of it)")
    # a file the merge's own resolution brought back (modify/delete), or its lines undone beside a rollback of it
    # past other commits (BESIDE_ROLLBACK), is whole-file evidence: neither a branch's revert of its own work nor
    # a branch merged forward says anything of a file the other side deleted or moved on
    kept_deleted = beside_rollback or any(h.resolution for h in hits)
    if level > NOTICE and not stale and not kept_deleted and \
            (level == WARNING and _branch_says_it_undoes(landed, undone) or _branch_reverts_by_name(landed, undone)):
        return NOTICE, reason + "; a commit of the merged branch says it undoes this"
    says = described(landed.message, paths, commit.subject) if level > NOTICE else ""
    if says == "paths" or (says == "topic" and not stale):  # a shared word proves less than a stale tree
        return NOTICE, reason + "; the change's message names what goes away"
    if level > NOTICE and gone and names_folders(landed.message, gone):
        return NOTICE, reason + "; the change's message names the folder it deletes, and all of it goes"
    # a shared word proves less than a stale tree; a name shaped like code still counts, and so do plain words
    # the change's own title writes as one name (a branch's commit titled `revert iteration speed column` was
    # rich's accident: there only code-shaped names count)
    if level > NOTICE and names_undone(titles, undone, stale, phrases=True):
        return NOTICE, reason + "; the change's message names what goes away"
    if level > NOTICE and not stale and brings_back_by_name(landed.message, undone):
        return NOTICE, reason + "; a line of the change's message says it brings back what it names"
    # (said by name, whatever else the change puts back: each file of the commit's lies in the folder named)
    if level > NOTICE and all(h.kind in ("rollback", "resurrected") for h in hits) and \
            restores_folders(landed.message, [h.path for h in hits]):
        return NOTICE, reason + "; a line of the change's message says it restores the folder these files are in"
    if level > NOTICE and not stale and removes_by_name(titles, undone):
        return NOTICE, reason + "; the change's title says what it removes, by name"
    if level > NOTICE and not stale and _names_its_bot(commit, landed):
        return NOTICE, reason + "; the change's title names the bot whose update it takes back"
    # (a fragment put back is another change's note, not this one describing itself: attrs' news fragments
    # a release had folded in, brought back by a stale tree, name exactly what they bring back)
    own_notes = [line for path, line in landed.note_lines if path not in {h.path for h in hits}]
    if level > NOTICE and names_undone(own_notes, undone, code_only=True):
        return NOTICE, reason + "; the change's release note names what goes away"
    if level > NOTICE and described(landed.logged, paths) == "paths":
        # zlib's `zlib 1.2.4-pre1` logging `Remove outdated assembler code contrib/masm686 and contrib/asm586`
        return NOTICE, reason + "; the change's changelog entry names what goes away"
    if level > NOTICE and names_removed_block(titles,
                                              [hunk.removed for hunk in _hunks_in(hits, landed)], undone):
        return NOTICE, reason + "; the change's message names the block it takes out, these lines with it"
    if level > NOTICE and not stale and lines_only and substitutes(landed.subject, taken_out):
        return NOTICE, reason + "; the change's subject is a substitution of the text it takes out (s/old/new/)"
    if level > NOTICE and not stale and not dropped and (lines_only or _only_takes_out(hits)) and \
            _names_what_it_deletes(_added_and_taken_out(hits), landed):
        return NOTICE, reason + "; the lines name files the change deletes: they go with them"
    if level > NOTICE and not stale and (reenables(titles, undone, landed.message) or
                                         unskips(titles, _added_and_taken_out(hits), landed.message)):
        return NOTICE, reason + "; code the undone commit commented out, enabled again as the change or its to-do note says"
    if level > NOTICE and not stale and _only_takes_out(hits) and enables_what_was_off(titles, undone):
        return NOTICE, reason + "; the undone commit switched off what the change's title enables again"
    if level > NOTICE and not stale and lines_only and toggles_skips(
            titles, [(u.removed, u.added) for h in hits if h.undo for u in h.undo.undone]):
        return NOTICE, reason + "; only tests switched between skipped and run, as the change's title says"
    if level > NOTICE and not stale and switches_back_off(landed.message, _undone_pairs(hits)):
        return NOTICE, reason + "; only settings the undone commit switched on, switched back off as the change says"
    if level > NOTICE and not stale and _only_takes_out(hits) and skips_only(_added_and_taken_out(hits)):
        # a skip taken out is no work lost: the test runs again and a failure is loud (axolotl's `rmv skip`,
        # rolldown's `#[ignore = "Flaky test"]` gone with its race fix, narwhals' xfails once a backend has it)
        return NOTICE, reason + "; only test skips taken out: those tests run again, and fail loudly if still broken"
    if level > NOTICE and not stale and _only_takes_out(hits) and compat_filters_only(_added_and_taken_out(hits)):
        return NOTICE, reason + "; only binary-compatibility filters taken out: the checker runs without them, and fails loudly if still needed"
    if level > NOTICE and not stale and formats(commit.subject) and not comments_toggled(_undone_pairs(hits)):
        # a stale tree undoing it loses formatting, which the formatter writes again: no work. A formatter
        # comments nothing in or out (pychess-variants' `black` commit also commenting out a test toggle)
        return NOTICE, reason + "; a formatter's run: formatting undone, no work lost"
    # a stale tree never knows which commit it undoes; one that puts back every file of it, or others too,
    # needs "undo" said (test_revert_declared)
    number = pr_number(commit)
    cited = any(cites_commit(landed.message, sha) for sha in (commit.sha, *shas)) or \
        (number is not None and cites_pr(landed.message, number)) or \
        cites_revision(landed.message, commit.body) or \
        (just_before and cites_last_commit(landed.message)) or \
        (just_before and number is None and follows_up_a_pr(landed.subject))  # its PR rebased in, by number
    if level > NOTICE and (level == WARNING or not (stale or every_file)) and cited:
        return NOTICE, reason + "; the change's message names the undone commit or its PR"
    if level > NOTICE and not stale and number is not None and cites_pr_going(landed.message, number):
        return NOTICE, reason + "; a sentence of the change's message names the undone PR and says its work goes"
    # a file brought back under wording that says so; a stale tree, or every file of the commit, still fails
    if level > NOTICE and not (stale or every_file) and all(h.kind in ("resurrected", "kept-by-merge") for h in hits) and \
            says_restores(titles, landed.message):
        return NOTICE, reason + "; the change says it brings back what was removed"
    if level > NOTICE and not (stale or every_file) and all(h.kind in ("resurrected", "kept-by-merge") for h in hits) and \
            names_brought_back(titles, paths):
        return NOTICE, reason + "; the change's title names what it brings back"
    # a file put back to an older version, or reset, under a title saying so and naming it (WRF's `A bit too
    # quick, put the namelist.input file back`, jwst's `Reset requirements-sdp.txt after release`): a stale
    # tree speaks of its own work, never of the old copy it carries
    if level > NOTICE and not (stale or every_file) and all(h.kind in ("rollback", "inverse-hunk") for h in hits) and \
            (says_restores(titles) or says_resets(titles)) and \
            (names_brought_back(titles, paths) or spells_stems(titles, paths)):
        return NOTICE, reason + "; the change's title says it puts back or resets what it names"
    # a release's changelog and the fragments it folded in, taken back under wording that says so (pipx's
    # `restore the 1.16.0 changelog fragments`); a stale tree, or a feature's files, still fail
    if level > NOTICE and not stale and notes and restores_released_entries(titles, commit.subject):
        return NOTICE, reason + "; the change says it brings back the changelog entries a release folded in"
    if level > NOTICE and entries and all(h.kind == "resurrected" and _own_note(h, landed) for h in hits):
        # svelte's changeset, its name drawn again by a later PR: a stale tree brings back another change's note
        return NOTICE, reason + "; the fragment brought back is the change's own release note"
    if level > NOTICE and landed.merge and says_ours_strategy(landed.message):
        return NOTICE, reason + "; a merge of the change says it kept its own side (the ours strategy)"
    if level > NOTICE and not stale and says_deletes_tests(titles, paths) and _takes_tests_out(landed, hits):
        # nerves' `Remove failing test` taking a test out of the file where a fix had added it, days before
        return NOTICE, reason + "; the change says it removes tests, and only takes tests out of those files"
    if level == WARNING and not stale and all(h.kind in ("deleted-added", "deleted-changed") for h in hits):  # ENTRIES: all fragments
        if says_deletes_tests(titles, paths):
            return NOTICE, reason + "; the change says it deletes those tests"
        if entries and says_deletes_entries(titles):
            return NOTICE, reason + "; the change says it deletes those changelog entries"
    if level > NOTICE and _clears_changelog(landed):
        return NOTICE, reason + "; the change only takes entries out of the changelog, under a title that speaks of it or of a release"
    if level > NOTICE and not stale and removes_debug_output(titles, undone):
        return NOTICE, reason + "; the change says it removes debug output, and only prints go"
    if level > NOTICE and not stale and says_removes_comments(titles) and \
            _only_takes_out(hits) and all(COMMENTED.match(line) for line in undone if line):
        return NOTICE, reason + "; the change says it removes comments, and only comment lines go"
    if level > NOTICE and not stale and says_stray(titles):
        return NOTICE, reason + "; the change says it takes out changes that slipped in"
    if level > NOTICE and not stale and (level == WARNING or just_before and not every_file and not
                                         names_a_commit(landed.message)) and \
            says_fixes_regression(titles):
        # the commit that broke it is the one recent enough to be undone; a stale tree undoes several. A file
        # put back whole is that only when the commit landed just before, not all of it, and no other commit
        # is named as the regression's (Vita3K's `vkutil: Fix regression` taking one line of the day-old
        # `Fix some vma assert issues` back out; not `fix regression from 0123abc`, naming another)
        return NOTICE, reason + "; the change says it fixes a regression (what broke, taken back)"
    if level == WARNING and not stale and _only_deletes(landed) and says_deletes(titles):
        # a stale tree commits its own work with the old copies; a change that writes nothing and says it
        # deletes is a cleanup chosen (joblib's `remove unnecessary file`, a `.bck` committed by mistake)
        return NOTICE, reason + "; the change only deletes files, and says so"
    moves = _lowered_versions(hits, landed)  # a release writes versions on, not back
    versions_back, written = bool(moves), [new for _, new in moves]
    if level > NOTICE and versions_back and (names_code(landed.message.splitlines(), undone) or
                                             says_lowers(titles, undone)):
        return NOTICE, reason + "; the change's message names the version it sets back"
    if level > NOTICE and not stale and downgrades_by_name(landed.message, undone):
        return NOTICE, reason + "; a line of the change's message downgrades or pins, by name, what it sets back"
    if level > NOTICE and not stale and names_bumped(landed.message, commit.subject, undone, commit.body):
        return NOTICE, reason + "; the change's message names the dependency whose bump it undoes"
    if level > NOTICE and versions_back and names_release(titles, written):
        return NOTICE, reason + "; a release naming the version it writes"
    if level > NOTICE and versions_back and names_versions(titles, written):
        return NOTICE, reason + "; the change's title names the version it writes"
    if level > NOTICE and not stale and versions_back and own_version_only(undone) and _renames_package(hits, landed):
        return NOTICE, reason + "; the package renamed in the same file: its versions start again"
    if level > NOTICE and not stale and versions_back and own_version_only(undone) and \
            all(prerelease(old) for old, _ in moves) and \
            speaks_of_release(titles, written):
        # `Bump for release` writing 26.0 over the 26.1.dev2 a `Bump for development` wrote ahead of it: a
        # release picks its version; a stale tree sets dependencies back, or the version under unrelated work
        return NOTICE, reason + "; a release writing the project's version over a dev or pre-release marker"
    if level > NOTICE and not stale and not versions_back and sets_versions(titles, undone):
        return NOTICE, reason + "; a release setting version numbers, which come back as versions cycle"
    if level > NOTICE and all(GO_MODULE_FILES.fullmatch(h.path.rsplit(b"/", 1)[-1]) for h in hits) and \
            pin_cycle((landed.subject, landed.title, _first_body_line(landed)), (commit.subject, pr_title(commit))):
        # kustomize's `pin to kyaml 0.14.3` before a release and `Unpin modules` after it, across 60 go.mod files
        return NOTICE, reason + "; Go module files a release pinned, unpinned again as the change says"
    if level > NOTICE and lines_only and _sibling_replaces(hits):
        return NOTICE, reason + "; only go.mod `replace` lines pointing at a module of this repository (a release's pin toggles them)"
    # (a branch's own release step says nothing of what its merge's resolution dropped: ampache's patch branch)
    if level > NOTICE and not stale and _release_steps_both(landed, commit, undone, _written(hits, landed), not dropped):
        return NOTICE, reason + "; release steps both, setting the project's version (a release cycle)"
    if level > NOTICE and not stale and not dropped and toggles_comments(_undone_pairs(hits)) and \
            any(release_step(t) for t in titles if t) and \
            any(release_step(t) for t in (commit.subject, pr_title(commit)) if t):
        # spikeinterface's `Prepare release` commenting out its git dependencies and `DEV_MODE = True`, and
        # `After release` commenting them in again: each release toggles the same lines
        return NOTICE, reason + "; release steps both, commenting the same lines out and in (a release cycle)"
    if level > NOTICE and not stale and not dropped and lines_only and \
            all(is_changelog(h.path) for h in hits) and \
            reopens_dev_heading(_undone_pairs(hits)):
        # linopy's `prepare release v0.5.0` commenting out `Upcoming Version` over the entries it released, and
        # the next feature commenting it in again over its own entry
        return NOTICE, reason + "; a changelog heading a release commented out, opened again for the next entries"
    if level > NOTICE and not stale and \
            says_version_back(titles, [line for h in _hunks_in(hits, landed) for line in h.removed]):
        return NOTICE, reason + "; the change's title says it sets the version back, and only version lines go"
    if level > NOTICE and lines_only and placeholders_only(undone):
        return NOTICE, reason + "; only a changelog's placeholders for the next release, written to be replaced"
    if level > NOTICE and not stale and not dropped and lines_only and \
            any(release_step(t) for t in titles if t) and \
            any(release_step(t) for t in (commit.subject, pr_title(commit)) if t):
        # each release writes its bundles and changelog again (pug's `Release 1.1.4` rebuilding `jade.js` with
        # another browserify than `Release 1.1.3`): lines of the release before, rewritten, are no work lost
        return NOTICE, reason + "; release steps both: lines of a file each release writes again"
    if level > NOTICE and _pins_moved_on(hits, landed):
        return NOTICE, reason + "; the version lines it takes out are written on with later versions"
    if level > NOTICE and _versions_move_on(hits, landed):
        return NOTICE, reason + "; only version numbers, which the change moves on (a release cycle; a stale tree moves them back)"
    if level > NOTICE and lines_only and _undoes_set_backs(hits):
        # tomlkit's merge keeping `__version__ = "0.7.2"` over a fork import's older "0.7.0": the undone
        # commit had set the version back, so undoing it moves the version on again
        return NOTICE, reason + "; the undone lines had set a version back, which the change moves on again"
    if level == WARNING and not stale and not dropped and lines_only and _todo_note_only(undone):
        # (pip-tools' `Whitelist dependencies of whitelisted modules` deleting the `# TODO:` block it carries out)
        return NOTICE, reason + "; only a to-do note, comments with no code, taken out (done or dropped)"
    if level > NOTICE and not stale and not dropped and _tasks_only(hits, undone, landed):
        # GRDB's `TODO.md` taking out a release's checklist once its items were done
        return NOTICE, reason + "; only items of a to-do list taken out (done or dropped)"
    if level == WARNING and not stale and not dropped and says_adds_missing(titles) and \
            sum(h.lines for h in hits) <= MISSING_LINES and \
            all(h.kind == "inverse-hunk" and h.undo is not None and all(u.kind == "restored" for u in h.undo.undone)
                for h in hits):
        # minijinja's `Added missing conditional compilation flag`: a line a commit dropped, only put back, under
        # a title saying something missing is added; more than a line or two back is more than a slip mended
        return NOTICE, reason + "; the change only puts lines back, and says it adds what was missing"
    if level == WARNING and not stale and not dropped and _marked_to_go(hits):
        # Twig's `removed obsolete code` deleting shims marked `// to be removed in 2.0`, gitbutler's file saying
        # `// To be removed when this PR lands`: their removal was planned when they were written
        return NOTICE, reason + "; the lines it takes out said they were to be removed"
    if level == WARNING and not stale and not dropped and imports_only(undone) and _edits_imports(hits, landed, undone):
        return NOTICE, reason + "; only import lines, in a change that reworks the imports there (a tool's sort or prune)"
    if level == WARNING and not stale and not dropped and imports_only(undone) and \
            speaks_of_imports((*titles, *landed.message.splitlines()[1:4])):
        return NOTICE, reason + "; only import lines, in a change that says it works on the imports"
    if level == WARNING and not stale and not dropped and imports_only(undone) and _uses_taken_out(hits, landed, undone):
        return NOTICE, reason + "; only import lines, whose uses the change takes out too (left unused)"
    if level == WARNING and not stale and imports_only(undone) and _imported_again(hits, landed, undone):
        return NOTICE, reason + "; only import lines, every name of them imported again by new lines of the change"
    if level == WARNING and not stale and not dropped and imports_only(undone) and _brought_back_for_use(hits, landed, undone):
        return NOTICE, reason + "; only import lines the undone commit pruned, brought back for the change's new uses"
    if level > NOTICE and not stale and not dropped and _keys_brought_back_for_use(hits, landed):
        return NOTICE, reason + "; catalog entries the undone commit took out, brought back for the change's new uses of their keys"
    if level > NOTICE and landed.bot:  # bots regenerate files from a fresh checkout: they have no stale tree
        return NOTICE, reason + "; a dependency bot's change (regenerated files)"
    if level > NOTICE and _subtree_import(hits, landed):  # the upstream project's tree, taken whole
        return NOTICE, reason + "; a git-subtree import: the upstream project's own changes"
    if level > NOTICE and same_work(landed.subject, commit.subject):
        return NOTICE, reason + "; the change carries the undone commit's own subject: that work continued"
    # (a merged PR's title too: pyupgrade's `Merge pull request #267` of `Temporarily restore python3.6.0 support`;
    # not for lines a resolution dropped: textual's #5409, still titled `WIP Arbitrary select` when merged)
    if level > NOTICE and not stale and (says_temporary(commit.subject) or
                                         not dropped and says_temporary(pr_title(commit))):
        return NOTICE, reason + "; the undone commit said it was temporary"
    # (a note inside a file brought back says nothing of its coming back: kodiak's `TODO: waiting on <upstream
    # PR>` in a module a stale tree resurrects; inside a file deleted, it can say the file was to go)
    if level > NOTICE and not stale and not any(h.kind in BROUGHT_BACK for h in hits) and notes_its_own_undoing(undone):
        return NOTICE, reason + "; the undone lines' own to-do note says they are to go"
    if level > NOTICE and not any(h.kind in BROUGHT_BACK for h in hits) and awaits_the_change(undone, _own_number(landed)):
        return NOTICE, reason + f"; the undone lines say #{_own_number(landed)} takes them out"
    if level > NOTICE and not stale and not any(h.kind in BROUGHT_BACK for h in hits):
        # moin's `# TODO: workaround for #1292`, taken out by `add ACTION_CONVERT to list of valid actions #17 #1292`
        awaited = next((n for n in _cited_issues(landed) if awaits_the_change(undone, n)), None)
        if awaited is not None:
            return NOTICE, reason + f"; the undone lines wait on #{awaited}, which the change's title says it works on"
    # two agent sessions on one topic are the #221/#224 risk itself, not that work reworked; every bump of a
    # submodule names it, whichever commit it writes
    pointer = _submodule_rolled_back(hits, landed)
    # a commit of several files put back whole, every file of it, is the #221/#224 shape whatever the titles
    # share (one file put back under a shared topic is that work reworked: vite's `input` option; a revert
    # undone under the topic of what it reverted re-lands that: click's `test Python 3.9`)
    whole = every_file and len({h.path for h in hits}) >= 2 and all(h.kind in WHOLE_FILE_KINDS for h in hits) \
        and not is_revert(commit)
    # (versions set back are no rework of a bump, whatever scope both titles give: hoppscotch's `perf(desktop)`
    # squash writing back the crates `chore(desktop): bump desktop shell dependencies` had moved on)
    if level > NOTICE and not stale and not dropped and not landed.agent and not pointer and not whole and \
            not versions_back and shares_topic([landed.title or landed.subject], [pr_title(commit)]):
        return NOTICE, reason + "; the change's title shares the undone commit's topic: that work reworked"
    if level > NOTICE and not stale and not dropped and \
            names_removed_again(titles, pr_title(commit), undone):
        return NOTICE, reason + "; the change's title names again what the undone commit's title removed"
    if level > NOTICE and not stale and not dropped and inverts_title(titles, pr_title(commit)):
        return NOTICE, reason + "; the change's title does the opposite of the undone commit's to the same thing"
    if level > NOTICE and not stale and not dropped and releases_dev_pin(titles, pr_title(commit)):
        # pandoc's `Use released djot 0.1.2.3.` taking out the git pin `Use dev version of djoths.` added
        return NOTICE, reason + "; the change takes from a release what the undone commit took from a development line"
    # (the pin's own changelog note goes with it: xclim's `Temporarily pin pandas below v3.0`)
    pins = [h for h in hits if not is_changelog(h.path)]
    if level > NOTICE and not stale and not dropped and pins and lifts_caps_by_name(titles, _undone_pairs(pins)):
        return NOTICE, reason + "; only version caps or pins the undone commit set, lifted by a change naming each dependency"
    # (several commits' overrides at once too: a release takes out each pre-release's, and nothing else)
    if level > NOTICE and not dropped and switches_dependency_source(titles, _undone_pairs(hits)):
        return NOTICE, reason + "; only a dependency's git source switched, as the change's title says of its dependencies"
    if level > NOTICE and not stale and not dropped and names_what_it_puts_back(titles, _put_back(hits)):
        return NOTICE, reason + "; the change's title names what the lines it puts back hold: a return to it"
    if level > NOTICE and not stale and not dropped and not landed.agent and not whole and \
            same_issue(titles, (commit.subject, pr_title(commit))):
        return NOTICE, reason + "; the change and the undone commit name the same issue: that work reworked"
    if level == WARNING and landed.merge and not versions_back and not kept_deleted and \
            merges_template_update(titles):
        return NOTICE, reason + "; a merge of the project template's update: the template's own rework"
    if level == WARNING and is_merge_of_branch(landed.subject, landed.merge) and not kept_deleted and \
            (not versions_back or merges_a_release_line(*titles)):
        return NOTICE, reason + "; a long-lived branch merged forward carries its own deliberate changes"
    # (a tool's output regenerated rolls back several commits' outputs at once, a stale tree's shape)
    if level > NOTICE and not dropped and not pointer and says_regenerates(titles, paths, landed.message):
        return NOTICE, reason + "; the change says it regenerates those files"
    if stale:
        return level, reason
    if level > NOTICE and merges_a_release_line(commit.subject, pr_title(commit)) and \
            merges_a_release_line(*titles):
        return NOTICE, reason + "; both merge a release line forward: that line's own changes, flowing on"
    if level > NOTICE and commit.is_merge and \
            any(repairs_a_merge(title) for title in (landed.subject, landed.title, *landed.subjects) if title):
        return NOTICE, reason + "; the change says it repairs a merge"
    if level > NOTICE and merges_a_release_line(commit.subject, pr_title(commit)) and \
            not any(h.kind in WHOLE_FILE_KINDS for h in hits):
        # lines a maintenance branch brings forward (its pins, its docs wording) main adapts on purpose
        # afterwards; whole files it changed, added or took out put back adapt nothing: a stale tree's
        return NOTICE, reason + "; the undone commit merged a release line forward, which main then adapts"
    # age counts beyond the last few commits: in a quiet project the commit just before the base can be
    # months old, and a tree that lacks it is as stale as can be (the commits since, not the days, say so);
    # nor when the change was written before the undone work landed, which its tree never held however long
    # it waited (bcc's rebased `Fix incorrect DSO information` setting the libbpf pointer back past a sync
    # landed a month after it was written, four months before it landed)
    days = _age_days(commit, landed) if not (latest or _written_before(commit, landed)) else 0.0
    if level == WARNING and days > OLD_DAYS and not dropped and not versions_back:
        return NOTICE, reason + f"; the undone work is over {OLD_DAYS} days old (stale trees undo recent work)"
    if level == ERROR and days > OLD_FILE_DAYS and all(h.kind != "resurrected" for h in hits):
        return NOTICE, reason + f"; the undone work is over {OLD_FILE_DAYS} days old (stale trees undo recent work)"
    if level > NOTICE and days > DEAD_FILE_DAYS and not dropped and not versions_back and \
            all(h.normalized for h in hits if h.kind == "resurrected"):
        return NOTICE, reason + f"; deleted over {DEAD_FILE_DAYS} days before and brought back edited: a file written anew"
    # (a submodule pointer's patch is two lines, but it is a whole checkout: h2o's stale `misc/h2get`)
    # (nor is a lock file brought back, whose lines are not counted)
    if level > NOTICE and sum(h.lines for h in hits) <= TINY_LINES and days > TINY_DAYS and not versions_back and \
            not pointer and not any(h.kind == "resurrected" and not h.text for h in hits):
        return NOTICE, reason + f"; a one-line toggle of work over {TINY_DAYS} days old"
    # (a file brought back says nothing of what else the tree held: a merge keeps the other side's work wherever
    # nothing conflicted, and a file back days after its deletion comes from a tree that lacked it: biome's
    # released changeset beside the release's other files, wasmtime's re-bless from a branch older than its
    # author's rename bringing the old test back edited)
    back = any(h.kind == "resurrected" for h in hits) and (landed.merge or days <= TINY_DAYS)
    if level == ERROR and kept and not dropped and not back:
        # the change worked on this commit's other files with its work in place: its tree was not stale
        # there, so the file put back is an edit of that work more often than a stale copy (own iterations,
        # release bumps): a notice (30 warnings of that shape on 43 audited histories, none real; for hunks it
        # would lose requests' `pretty little note` and commonly's agent copy of `tools.ts`: not for them)
        return NOTICE, reason + f"; the change edits {kept} more of its files and keeps its work there"
    if level > NOTICE and not stale and not dropped and runs_go_tool(titles, paths):
        return NOTICE, reason + "; the change ran Go's tool, which rewrites go.mod"
    # a stale copy rides along with other work; a change titled after the file it edits was made looking at it
    if level > NOTICE and not dropped and not kept_deleted and not pointer and \
            titled_after(titles, paths):
        return (NOTICE if level == WARNING else WARNING), reason + "; the change is titled after the file it edits"
    return level, reason


class Circumstances(NamedTuple):
    """What grading one path's evidence needs to know of the commit and of the change."""

    every_added: bool  # every file the commit added is deleted (or whole folders of them)
    own: bool  # the change's authors wrote the commit
    recent: bool  # one of the last few commits before the change's base
    latest: bool  # one of the very last commits before it (LATEST_COMMITS): any share of its hunks counts
    fresh: bool  # recent, or at most TINY_DAYS old
    corroborated: bool  # the change also puts whole files back: a stale tree at work
    merge: bool  # the change holds a merge
    unseen: bool  # the commit is newer than the change: it was rebased over that work, keeping its old date
    fresh_copies: bool  # the change puts back whole files of fresh work: a stale tree at work
    added_gone: str = "every file it added"  # what EVERY_ADDED means: all its files, or whole folders of them


MISSING_LINES = 2  # at most this many lines put back under "add missing ...": a slip mended, not a file's old copy
# a comment noting that the code it marks is to go (squeezed, as the patches hold lines): `// to be removed in 2.0`,
# `@deprecated since 1.27 (to be removed in 2.0)`, `// Remove when #14191 lands`
MARKED_TO_GO = lazy(rb"(?i)(to|will|should|must|can)be(removed|deleted|dropped)|\b(remove|delete|drop)(this|it|me)?"
                    rb"(when|once|after|before|in(v|version)?\d)|@deprecated")


def _marked_to_go(hits: list[PathHit]) -> bool:
    """The change takes out lines a commit added that note they were to go, and in its other files of that
    commit only deletes lines it added (their uses, a docblock beside them)."""
    def taken_out(hit: PathHit) -> Sequence[bytes]:
        if hit.undo is not None:
            return _taken_out([hit])
        return hit.text_undone if hit.kind in ("deleted-added", "rollback") else ()

    def deletes_only(hit: PathHit) -> bool:
        return hit.kind == "deleted-added" or hit.kind == "rollback" and hit.additions_only or _only_takes_out([hit])
    # (in a comment: a deprecation warning's text, `will be removed in a future version`, is the program's output)
    marked = [any(COMMENTED.match(line) and MARKED_TO_GO.search(line) for line in taken_out(h)) for h in hits]
    return any(marked) and all(mark or deletes_only(h) for mark, h in zip(marked, hits))


# a Markdown task list's item, squeezed (`- [x] Bump to SQLite 3.16.2`, `* [ ] v0.100.0`)
TASK_ITEM = lazy(rb"[-*+]\[[ xX]?\]")


def _tasks_only(hits: list[PathHit], undone: list[bytes], landed: Landed) -> bool:
    """Every undone line an item of a to-do list in a document (its tasks, `- [x] ...`, and the plain items under
    them), which the change only takes lines out of: items done or given up, deleted as people do (a line of
    new text there is an edit, judged as such)."""
    lines = [line for line in undone if line]
    return bool(lines) and all(prose(h.path) for h in hits) and all(line[:1] in b"-*+" for line in lines) and \
        any(TASK_ITEM.match(line) for line in lines) and \
        _writes_nothing_into(landed, hits)


def _todo_note_only(undone: list[bytes]) -> bool:
    """Every undone line a comment, one of them opening a to-do (`# TODO:`, `// FIXME`): a note on work to do,
    which people delete when they do it or give it up; no code goes with it."""
    lines = [line for line in undone if line]
    return bool(lines) and all(COMMENTED.match(line) for line in lines) and any(TODO_MARK.match(line) for line in lines)


def _branch_says_it_undoes(landed: Landed, undone: list[bytes]) -> bool:
    """A merged branch's own commit titled as a revert (`revert iteration speed column`) or as removal
    wording naming the undone lines (`Remove Python3.11 beta 5 from CI`): the merge subject hides it.
    Whole files stay errors: mathesar's branch held `Revert "Merge branch 'develop' into ..."`, which
    undid develop's fixes, the very accident."""
    if not landed.merge or not landed.subjects:
        return False
    return any(calls_itself_a_revert(subject) for subject in landed.subjects) or \
        names_undone(landed.subjects, undone)


def _branch_reverts_by_name(landed: Landed, undone: list[bytes]) -> bool:
    """A merged branch's own commit titled as a revert of what the undone lines hold, by a name shaped like
    code (mockk's `Revert latest supported java version to 18 in GitHub workflow`): whole files too. Not a
    revert of a merge (mathesar's `Revert "Merge branch 'develop' into ..."`), which names no content."""
    return landed.merge and any(calls_itself_a_revert(subject) and not REVERTED_MERGE.search(subject) and
                                names_undone([subject], undone, code_only=True) for subject in landed.subjects)


def _release_steps_both(landed: Landed, commit: Commit, lines: list[bytes], written: list[bytes],
                        inner: bool = True) -> bool:
    """`release_steps` of the change (its subject, its PR's title and, when INNER, a merged branch's own commits:
    qupath's `Back to snapshot` inside `Merge pull request #807 from petebankhead/dev`) and the undone commit (its
    subject or its PR's title: `Bump version to rc2`)."""
    ours = [title for title in (landed.subject, landed.title, *(landed.subjects if inner else ())) if title]
    theirs = {title for title in (commit.subject, pr_title(commit)) if title}
    return any(release_steps(title, other, lines, written) for title in ours for other in theirs)


def _its_files_taken_out(hits: list[PathHit]) -> bool:
    """Files the commit added deleted, and its lines in other files taken out: its feature removed with the
    hooks into it (symfony's `Bring consistency to bridges` folding each bridge's SMS options file away,
    fastfetch's `Logo revolution`). The caller asks that some file of the commit keeps its change, as a stale
    copy lacks all of it (#224's 18 files); a file put back whole is a stale copy's of some of them (the shared
    corpus' partial copies), so none may be. Of 56 such findings in 48 held-out rounds, none was lost work."""
    return any(h.kind == "deleted-added" for h in hits) and any(h.kind in ("inverse-hunk", "deleted-changed") for h in hits) \
        and all(h.kind in ("deleted-added", "inverse-hunk", "deleted-changed") for h in hits)


def _reported(commit: Commit, ctx: Context) -> set[bytes]:
    """The commit's paths that are reported (not excluded)."""
    return {c.path for c in commit.changes if ctx.reported(c.path)}


def _edited_and_kept(reported: set[bytes], hits: list[PathHit], landed: Landed, stale: bool, ctx: Context) -> int:
    """How many of the commit's REPORTED files the change also edits and keeps its work in: files it leaves
    alone, and (outside a stale tree or a merge, whose resolution keeps one side's hunks) files where it
    undoes some of the commit's hunks but keeps others, which no stale copy of the file does. A lock or
    built file is regenerated, not edited, and its lines are no evidence: it says nothing of work kept."""
    # (an unused import pruned is weak evidence, and the file's other hunks stay kept all the same)
    partly = set() if landed.merge or stale else \
        {h.path for h in hits if h.quiet in ("", UNUSED_IMPORT) and _partly_kept(h)}
    undone = {h.path for h in hits} - partly
    edited = {c.path for c in landed.changes if not ctx.rules.regenerated(c.path)}
    return len(reported & edited - undone)


def _tree_held(commit: Commit, hits: list[PathHit], landed: Landed, ctx: Context) -> bool:
    """The change edits more of the commit's files with its work kept (or some of its hunks kept) than it
    undoes: the tree the change was written in held that commit, whatever few files it puts back (yazi's
    own refactors putting back a few small files past the commits it otherwise builds on)."""
    return _edited_and_kept(_reported(commit, ctx), hits, landed, False, ctx) > len({h.path for h in hits})


def _clears_changelog(landed: Landed) -> bool:
    """The change edits changelogs only and only takes lines out (a heading aside), titled after the changelog
    or a release: the released entries cleared from its unreleased section, as teku does after each release
    (`clear changelog`, `25.4.0 Cleanup`, `Update CHANGELOG post 25.11.0 release`). A stale copy of a changelog
    comes with the change's own entry, written in."""
    titles = [title for title in (landed.subject, landed.title) if title]
    return bool(landed.patches) and all(is_changelog(p.change.path) and p.change.new is not None and
                                        all(line.startswith(b"#") or _renumbered(line, p) for h in p.hunks for line in h.added)
                                        for p in landed.patches) and \
        any(ENTRIES_WORD.search(title) or VERSION_IN_TITLE.search(title) for title in titles)


def _renumbered(line: bytes, patch: FilePatch) -> bool:
    """LINE is one the patch takes out with its version numbers changed: a plain-text heading moved on to
    the next release (cppcheck's `Release Notes for Cppcheck 2.18` made `2.19`)."""
    masked = DOTTED_NUMBER.sub(b"#", line)
    return masked != line and any(DOTTED_NUMBER.sub(b"#", old) == masked for h in patch.hunks for old in h.removed)


def _put_back(hits: list[PathHit]) -> list[tuple[tuple[bytes, ...], tuple[bytes, ...]]]:
    """Per hit of lines: the lines it puts back, and the undone commit's own lines it takes out."""
    return [(back, tuple(line for line in hit.undone_text() if line not in back))
            for hit in hits for back in (hit.replaced_text(),)]


def _submodule_rolled_back(hits: list[PathHit], landed: Landed) -> bool:
    """Whether the change puts a submodule pointer back (a gitlink rolled back)."""
    if any(h.kind == "pointer-dropped" for h in hits):
        return True
    rolled = {h.path for h in hits if h.kind == "rollback"}
    return any(c.path in rolled and c.new is not None and c.new.is_gitlink for c in landed.changes)


def _next_commit_of_its_author(commit: Commit, position: int, landed: Landed, own: bool) -> bool:
    """The change is a direct commit (no PR, no merge) made on top of COMMIT, or within a day of it, by who
    wrote or merged it: a direct push lands on the branch's tip, and its author had just written or merged
    that work, so lines of it undone there were edited, not lost (a maintainer's refactor of a PR they
    merged an hour before). (A stale index or a copied tree puts whole files back too, which this is not
    asked about; a squash merge's parent says nothing of the tree the PR was written in.)"""
    made_it = own or landed.authors.matches(commit.author_email, commit.author_name)
    soon = position == landed.base_position or 0 <= landed.time - commit.time <= FIXUP_SECONDS
    return made_it and _direct(landed) and soon


def _own_number(landed: Landed) -> int | None:
    """The change's own PR number: the bot's, or what its subject says (`(#11108)`, `Merge pull request #N`)."""
    return landed.own_pr if landed.own_pr is not None else subject_pr(landed.subject)


def _cited_issues(landed: Landed) -> list[int]:
    """The issues or PRs the change's title cites by `#N`, beyond its own number (`... actions #17 #1292`)."""
    return [int(n) for title in (landed.subject, landed.title) if title for n in CITED.findall(PR_SUBJECT.sub("", title))]


def _direct(landed: Landed) -> bool:
    """The change is a direct commit: no PR of its own, no merge."""
    return landed.own_pr is None and not PR_SUBJECT.search(landed.subject) and not landed.merge


def _direct_commit(commit: Commit) -> bool:
    """COMMIT was pushed directly: no PR number, no merge."""
    return pr_number(commit) is None and not commit.is_merge


def _lowered_versions(hits: list[PathHit], landed: Landed) -> list[tuple[str, str]]:
    """The versions the undo writes lower over ones the commit had moved on (`checkout@v4` back to `@v3`),
    as (old, new): harmful at any age and through any merge but a release line's. A version-set-back hit
    carries its own; the lines an inverse hunk puts back may hold some."""
    found = [move for h in hits for move in h.moves]
    others = [h for h in hits if h.kind != "version-set-back"]
    gone = {line for h in others for line in h.undone_text()}
    return found + [(old, new) for hunk in _hunks_in(others, landed)
                    if not gone.isdisjoint(hunk.removed)  # (the pairs' first lines are removed ones)
                    for line, _, old, new in version_pairs(hunk.removed, hunk.added) if line in gone and set_back(old, new)]


def _sets_versions_back(undo: PathUndo) -> bool:
    """Whether hunks UNDO puts back write lower versions over the ones their commit moved on (a caret range
    only widened to its major's floor aside)."""
    return any(set_back(old, new) and not widens_to_major(now, old, new) for u in undo.undone if u.kind == "replaced"
               for _, now, old, new in version_pairs(u.added, u.removed))


def _renames_package(hits: list[PathHit], landed: Landed) -> bool:
    """The change takes out the package's name line in the hits' files and writes another (koa-router's
    `chore: rename to @koa/router`, which started its versions again at 1.0.0): no stale tree renames it."""
    hunks = _hunks_in(hits, landed)
    gone = {m.group(2) for h in hunks for line in h.removed if (m := PACKAGE_NAME.match(line))}
    new = {m.group(2) for h in hunks for line in h.added if (m := PACKAGE_NAME.match(line))}
    return bool(gone) and bool(new) and not gone & new


def _versions_move_on(hits: list[PathHit], landed: Landed) -> bool:
    """Whether the change's edits to the hit files only move version numbers on."""
    semver = all(h.path.rpartition(b"/")[2] in SEMVER_MANIFESTS for h in hits)
    return versions_move_on(_hunks_in(hits, landed), semver)


def _undoes_set_backs(hits: list[PathHit]) -> bool:
    """Every undone hunk of HITS had only set the project's own version back (not a pin, whose downgrade is
    deliberate work, nor a condition on a runtime's version)."""
    undos = [u for h in hits for u in (h.undo.undone if h.undo is not None else ())]
    return bool(undos) and all(h.undo is not None for h in hits) and \
        all(own_version_only(u.removed + u.added) and moves_versions_back(u.removed, u.added) for u in undos)


def _taken_out(hits: list[PathHit]) -> list[bytes]:
    """The lines of the commit's undone hunks that the change takes out (what it had added), normalized."""
    return [line for h in hits if h.undo is not None for u in h.undo.undone for line in u.added]


def _only_takes_out(hits: list[PathHit]) -> bool:
    """The change only takes the commit's added lines out (hunks or a rollback of a file it only added to):
    nothing of older text is put back."""
    return all(h.undo is not None and h.kind == "inverse-hunk" and all(u.kind == "deleted" for u in h.undo.undone)
               or h.undo is None and h.kind == "rollback" and h.additions_only for h in hits)


def _undone_pairs(hits: list[PathHit]) -> list[tuple[Sequence[bytes], Sequence[bytes]]]:
    """Per undone hunk (per file, for a whole file put back), the lines the commit took out and those it wrote."""
    pairs: list[tuple[Sequence[bytes], Sequence[bytes]]] = []
    for h in hits:
        if h.undo is not None:
            pairs += [(u.removed, u.added) for u in h.undo.undone]
        else:  # (a whole file's text holds both sides: what it wrote is the rest of it)
            replaced = h.replaced_text()
            pairs.append((replaced, tuple((Counter(h.undone_text()) - Counter(replaced)).elements())))
    return pairs


def _added_and_taken_out(hits: list[PathHit]) -> list[bytes]:
    """The lines the commit added that the change takes out: its undone hunks', and those of files it only
    added lines to, rolled back whole (cpp-httplib's `GTEST_SKIP()` block, taken out with the fix)."""
    return _taken_out(hits) + [line for h in hits if h.undo is None and h.additions_only for line in h.text_undone]


def _names_what_it_deletes(taken_out: list[bytes], landed: Landed) -> bool:
    """Every line TAKEN_OUT names a folder or file the change deletes by a distinctive name (mkdocstrings'
    coverage entries `src/mkdocs_autorefs`, in the commit that moves that package out), but the key that
    opens their list (ocamlformat's `(deps` over the two test files its feature's removal deletes):
    configuration following what it names."""
    # a file by its name anywhere in the line, a folder as the path the line ends with (a folder that also
    # holds other files names them all)
    parts = [change.path.rsplit(b".", 1)[0].lower().split(b"/") for change in landed.changes if change.deleted]
    files = {path[-1] for path in parts if _distinctive(path[-1])}
    folders = {part for path in parts for part in path[:-1] if _distinctive(part)}
    naming = [line for line in taken_out if any(name in line.lower() for name in files) or
              any(line.lower().rstrip(b"/\"',;)]}").endswith(name) for name in folders)]
    return bool(naming) and all(line in naming or LIST_KEY.fullmatch(line) for line in taken_out)


def _names_its_bot(commit: Commit, landed: Landed) -> bool:
    """The undone commit is a dependency bot's and the change's title names that bot (smooth-app's `fix:
    java-360 after dependabot upgrade` setting `actions/setup-java` back): an answer to that update."""
    bot = BOT_NAME.match(commit.author_name)
    if bot is None or not is_dependency_bot(commit.author_name, commit.author_email):
        return False
    named = re.compile(rf"\b{re.escape(bot.group(1))}\b", re.IGNORECASE)
    return any(named.search(title) for title in (landed.subject, landed.title) if title)


def _distinctive(name: bytes) -> bool:
    return len(name) >= MIN_DELETED_NAME and not CONVENTIONAL_FOLDER.fullmatch(name.decode("utf-8", "replace"))


def _hunks_in(hits: list[PathHit], landed: Landed) -> list[Hunk]:
    """The change's hunks in the hits' files."""
    paths = {h.path for h in hits}
    return [hunk for patch in landed.patches if patch.change.path in paths for hunk in patch.hunks]


def _written(hits: list[PathHit], landed: Landed) -> list[bytes]:
    """The lines the change writes into the hits' files."""
    return [line for hunk in _hunks_in(hits, landed) for line in hunk.added]


def _pins_moved_on(hits: list[PathHit], landed: Landed) -> bool:
    """Every undone line the change takes out is a version line it writes with a later version, and it puts
    none back (jsonschema's merge keeping its branch's `lxml==4.9.0` over main's `lxml==4.8.0`)."""
    if any(h.kind != "inverse-hunk" for h in hits):
        return False
    hunks = _hunks_in(hits, landed)
    undone = {line for h in hits for line in h.undone_text()}
    if not undone.isdisjoint(line for hunk in hunks for line in hunk.added):
        return False
    return written_on(undone.intersection(line for hunk in hunks for line in hunk.removed), hunks)


def _sibling_replaces(hits: list[PathHit]) -> bool:
    """Every undone line is a go.mod `replace` by a folder inside the repository (kustomize's `replace
    sigs.k8s.io/kustomize/api => ../../../api`): the development mode of a multi-module repository, which
    releases take out and put back; Go ignores a dependency's replaces, so nothing published changes."""
    lines = [(h.path, line) for h in hits for line in h.undone_text() if line]
    if not lines or not all(posixpath.basename(path) == b"go.mod" for path, _ in lines):
        return False
    targets = [(path, GO_LOCAL_REPLACE.fullmatch(line)) for path, line in lines]
    return all(found is not None and not posixpath.normpath(posixpath.join(posixpath.dirname(path), found.group(1)))
               .startswith(b"..") for path, found in targets)


def _first_body_line(landed: Landed) -> str:
    """The first line of the change's message after its subject: a merge's PR title."""
    lines = landed.message.split("\n", 2)
    return lines[2].strip().split("\n", 1)[0] if len(lines) > 2 else ""


def _edits_imports(hits: list[PathHit], landed: Landed, undone: list[bytes]) -> bool:
    """Whether the change also adds or removes other import lines in those files: a formatter or linter
    reworking the imports (isort, ruff, pycln), where a stale copy leaves the rest of them alone."""
    gone = set(undone)
    return any(line not in gone and imports_only((line,)) for hunk in _hunks_in(hits, landed)
               for line in hunk.removed + hunk.added)


def _uses_taken_out(hits: list[PathHit], landed: Landed, undone: list[bytes]) -> bool:
    """Every name the undone import lines bring in is used in lines the change takes out of those files and
    in none it writes (syn's `use std::iter;` gone with its `iter::once` calls): an import left unused."""
    names = [name for line in undone for name in imported_names(line)]
    if not names or len(names) < sum(1 for line in undone if line):
        return False
    hunks = _hunks_in(hits, landed)
    removed = [line for hunk in hunks for line in hunk.removed if not imports_only((line,))]
    added = [line for hunk in hunks for line in hunk.added]
    return all(_used(name, removed) and not _used(name, added) for name in names)


def _used(name: bytes, lines: list[bytes], whole: bool = True) -> bool:
    """Whether a line of LINES uses NAME: as a whole word (or one a keyword is squeezed onto: `}asLocale,`
    for date-fns' `} as Locale,` cast), or (not WHOLE) followed by no word character, since the patches
    squeeze whitespace out (`forxinchain(`)."""
    pattern = (SQUEEZED_WORD_START if whole else b"") + re.escape(name) + rb"(?!\w)"
    return any(re.search(pattern, line) for line in lines)


def _used_by_selector(name: bytes, lines: list[bytes]) -> bool:
    """Whether a line of LINES selects from package NAME (`format.Sprintf`), as Go code uses one."""
    pattern = rb"(?<![\w.])" + re.escape(name) + rb"\.[A-Za-z_]"
    return any(re.search(pattern, line) for line in lines)


def _brought_back_for_use(hits: list[PathHit], landed: Landed, undone: list[bytes]) -> bool:
    """The undone commit only took these import lines out (pruned as unused), and the change writes new
    uses of every name they bring in (dramatiq's `from itertools import chain` for new `chain(...)` calls):
    the import is needed again, the pruned commit's other work stands."""
    if any(h.undo is None or any(u.kind != "restored" for u in h.undo.undone) for h in hits):
        return False
    names = [name for line in undone for name in imported_names(line)]
    if not names or len(names) < sum(1 for line in undone if line):
        return False
    added = [line for line in _written(hits, landed) if not imports_only((line,))]
    return all(len(name) >= MIN_USED_NAME and _used(name, added, whole=False) for name in names)


def _keys_brought_back_for_use(hits: list[PathHit], landed: Landed) -> bool:
    """The change only puts back translation catalog entries the undone commit took out, and its other files'
    new lines use every one of their keys (mainsail's `add missing fields in detail dialog` writing
    `$t('History.EstimatedFilament')` over `remove unused keys in english locale`): needed again."""
    keys = []
    for hit in hits:
        back = hit.replaced_text()
        if not translation_catalog(hit.path) or not back or \
                any(line not in back for line in hit.undone_text()):
            return False
        for line in back:
            entry = _entry(line.rstrip(b","))
            if entry is None and WORDED.search(line):
                return False
            keys += [entry[0]] if entry else []
    catalogs = {hit.path for hit in hits}
    used = [line for patch in landed.patches if patch.change.path not in catalogs for hunk in patch.hunks for line in hunk.added]
    return bool(keys) and all(len(key) >= MIN_CATALOG_KEY and any(key in line for line in used) for key in keys)


def _imported_again(hits: list[PathHit], landed: Landed, undone: list[bytes]) -> bool:
    """Every name the undone commits' import lines newly brought in is imported by a line the change writes
    that is none of the undone ones (more-itertools' `from .recipes import islice, take` gone for `from
    itertools import chain, islice`): an import rewritten, its names kept. A stale copy putting back `from
    old import X` over `from new import X` brings in no new name: nothing there is imported again."""
    if any(h.undo is None for h in hits):
        return False
    wanted: set[bytes] = set()
    for undo in (u for h in hits if h.undo is not None for u in h.undo.undone):
        wanted |= {n for line in undo.added for n in imported_names(line)} - \
            {n for line in undo.removed for n in imported_names(line)}
    gone = set(undone)
    fresh = {name for line in _written(hits, landed) if line not in gone for name in imported_names(line)}
    return bool(wanted) and wanted <= fresh


def _subtree_import(hits: list[PathHit], landed: Landed) -> bool:
    """The change imports another project with `git subtree` (a `git-subtree-dir: D` trailer), and every
    hit lies under D: what the upstream project deleted or changed there, not a stale tree's loss."""
    folders = [folder.rstrip("/").encode() + b"/" for folder in SUBTREE_DIR.findall(landed.message)]
    return bool(folders) and all(any(h.path.startswith(folder) for folder in folders) for h in hits)


def _dropped_by_merge(hits: list[PathHit]) -> bool:
    return any(h.resolution for h in hits) or any(u.merge for h in hits if h.undo is not None for u in h.undo.undone)


def _grade(hit: PathHit, facts: Circumstances) -> tuple[int, str]:
    """The severity one path's evidence deserves, and why. Size and authorship never excuse a whole-file
    rollback (REVERTS.md: a 2-line rollback was a real accident; own work is the common case)."""
    own, recent, corroborated, merge = facts.own, facts.recent, facts.corroborated, facts.merge
    if hit.quiet:
        return NOTICE, hit.quiet
    if hit.kind == "rollback" and hit.additions_only and hit.lines < MIN_ROLLBACK_LINES and not hit.normalized:
        # a rollback that only deletes a line or two someone added is judged as that deletion
        if own:
            return NOTICE, "a line or two its author added, deleted by the same person"
        return (ERROR, "a file put back to its version before it") if recent else (
            WARNING, "a line or two it added deleted")
    if hit.kind == "rollback" and hit.normalized and _keeps_later(hit, corroborated, merge):
        # exactly this commit's change taken out and later ones kept: a targeted revert, which no
        # stale copy makes; judged as its hunks are
        return NOTICE, "its change to the file reverted exactly, later changes kept (a targeted revert)"
    if hit.kind == "rollback" and hit.other_lines:
        return ERROR, "its change to a file taken out exactly, formatting aside"
    if hit.kind == "rollback":
        return ERROR, "a file put back to its version before it" + (" (ignoring formatting)" if hit.normalized else "")
    if hit.kind == "resurrected":
        return ERROR, "a file it deleted brought back"
    if hit.kind == "pointer-dropped":  # a pointer moved back is a rollback; off its line, work may be lost
        return POINTER_GRADES[hit.pointer[2]]
    if hit.kind == "kept-by-merge":  # an edited copy, not its old content: the resolution kept the wrong side
        return ERROR, f"a file it deleted brought back by the conflict resolution of merge {hit.resolution[:7]}"
    if hit.kind == "version-set-back":  # harmful at any age; a deliberate downgrade says so ("Pin X to 1.x")
        return WARNING, "a version number it moved on set back"
    if hit.kind == "deleted-changed":
        # people delete files on purpose, often soon after an edit (CI moves, clean-ups, a removal PR deleting
        # what other clean-ups edited), and do not always say so; a stale tree deletes only files added since its
        # base, which their adding commit reports (33 warnings of this shape beside other evidence on 640
        # judged histories, none lost work)
        return NOTICE, "a file it edited deleted"
    if hit.kind == "deleted-added" and hit.text and hit.total == 0 and posixpath.basename(hit.path) not in MARKER_FILES:
        # it wrote no line there: an empty scratch file or placeholder (rich-click's `foo.py`), nothing to lose
        return NOTICE, "an empty file it added deleted"
    if hit.kind == "deleted-added":
        # a stale tree lacks what came just before it; files added weeks before and deleted whole, alone, are
        # a clean-up (48 warnings of this shape on 158 audited histories: examples split out, stray files);
        # fresh ones beside new work stay warnings too: as errors, 28 on 739 histories, 2 of them lost work
        if facts.every_added and not (facts.fresh or corroborated):
            return NOTICE, f"{facts.added_gone} deleted, weeks later"
        return (WARNING, f"{facts.added_gone} deleted") if facts.every_added else (NOTICE, "a file it added deleted")
    undo = hit.undo
    if undo is None:
        return NOTICE, "lines undone"
    resolution = next((u.merge for u in undo.undone if u.merge), "")
    if resolution:  # a conflict resolved by taking one side: the other side's lines thrown away
        if sum(u.lines for u in undo.undone if u.merge) < MIN_HUNK_LINES and not corroborated:
            # one line proves little here too: an autofix's touch-up inside a function the other side rewrote
            return NOTICE, f"a line dropped by the conflict resolution of merge {resolution[:7]}"
        return WARNING, f"lines dropped by the conflict resolution of merge {resolution[:7]}"
    undone_lines = sum(u.lines for u in undo.undone)
    if facts.unseen and undone_lines >= MIN_HUNK_LINES:
        # (pytest's rebased `Cache exception raised in fixtures` dropping two changelog entries of May)
        return WARNING, "lines of a commit newer than it dropped (rebased over that work, its date kept)"
    if not _stale_copy(hit, recent, corroborated, merge, facts.latest):
        if _sets_versions_back(undo):
            # graded as a version set back is, at any age: hoppscotch's stale squash putting `vite` 7.3.0 back to
            # 6.3.5 and its Cargo.toml's crates back, amid later changes to those files it kept
            return WARNING, "version numbers it moved on set back"
        return NOTICE, ("its hunks undone but a later change to the file kept" if hit.newer_kept else
                        "its hunks undone but its own re-formatting of the file kept" if _formatting_kept(undo) else
                        "a few of its hunks undone, the rest kept")
    restored = sum(u.lines for u in undo.undone if u.kind != "deleted")
    if any(u.kind == "replaced" for u in undo.undone) or restored >= MIN_HUNK_LINES:
        return WARNING, "hunks put back exactly as they were before it"
    if own and not (facts.fresh_copies and undone_lines >= MIN_HUNK_LINES):
        # people delete their own fresh lines on purpose (debug code); not beside fresh whole files put back,
        # a stale tree's (requests' `Python 2 Death Sentence` deleting 8 lines of `docs update`)
        return NOTICE, "lines its author added, deleted by the same person"
    beside = [u for u in undo.undone if u.written_beside]
    if undone_lines >= MIN_HUNK_LINES and all(u.kind == "deleted" for u in undo.undone) and \
            len(beside) >= MIN_REWRITTEN_HUNKS and sum(u.lines for u in beside) >= REWRITTEN_SHARE * undone_lines:
        # its additions taken out hunk by hunk, each with new lines written beside it: that code rewritten
        # where it was used (rules_go's `tags = tags,` replaced by `**common_attrs` call by call); a stale
        # copy writes nothing there, and an overwrite of one block with one's own text is a stale copy's too
        # (strawberry's RELEASE.md, riverpod's changelog head)
        return NOTICE, "lines it added deleted, new lines written in their place"
    if undone_lines >= MIN_HUNK_LINES:
        # deleting what an older commit added, nothing put back: what people do on purpose (a workaround
        # dropped, a badge removed); a stale copy's deletions count against the latest commits
        return (WARNING if recent else NOTICE), "lines it added deleted, nothing in their place"
    if recent and all(u.kind == "deleted" and u.in_place for u in undo.undone):
        # one line it added taken out by a hunk that writes new lines in its place: that line edited
        # (termbox's `keyMax` renamed, an `except` narrowed); a stale copy takes it out alone, a stale rebase
        # re-wrapping its block keeps the block's other lines (crossbeam's `guard.unlinked(head)`), and an
        # old line put back is no edit whatever is written beside it (validator's merge restoring a line)
        return NOTICE, "a line of one of the latest commits, new lines written in its place"
    if recent:  # a stale tree undoes the work of hours or days: one line of the latest commits counts
        return WARNING, "a line of one of the latest commits undone exactly"
    return NOTICE, "a small undo"


def _targeted(hit: PathHit) -> bool:
    """A rollback of exactly one commit's change to a file, its later changes kept: no stale copy's."""
    return hit.kind == "rollback" and hit.normalized and bool(hit.newer_kept)


def _keeps_later(hit: PathHit, stale_tree: bool, merge: bool) -> bool:
    """Whether later changes to the path are kept, as no stale copy keeps them; inside a stale tree, a
    merge's resolution may keep them while dropping one side's hunks, so there it proves nothing."""
    return bool(hit.newer_kept) and not (stale_tree and merge)


def _stale_copy(hit: PathHit, recent: bool, stale_tree: bool, merge: bool, latest: bool = False) -> bool:
    """Whether a hunk-level undo reads as a stale copy of the file: that undoes every later change to it
    too, and all of the commit's hunks there, or (for one of the last few commits) a good share of them.
    An edit that undoes one hunk in many and keeps the rest is a deliberate change (REVERTS.md: fixes,
    rewrites), and so is one that keeps the commit's own re-formatting of the file while taking its content
    out. Inside a stale tree (whole files put back too) any share counts, and a merge's resolution
    can drop one side's hunks while keeping later ones."""
    undo = hit.undo
    if undo is None or _keeps_later(hit, stale_tree, merge) or (_formatting_kept(undo) and not stale_tree):
        return False
    return stale_tree or undo.groups_undone == undo.groups or (
        recent and undo.groups_undone >= STALE_SHARE * undo.groups) or latest


# a test case's opening line, squeezed: `test "release app" do`, `it('fills', ...`, `def test_x(`, `func TestX(`,
# `fn test_x(`, `#[test]`, `@Test`
TEST_CASE = lazy(rb"(?:test|it|specify|scenario)\(?[\"'`]|(?:async)?deftest|fntest|funcTest|#\[test\]|@Test\b|(?:public)?voidtest")


def _takes_tests_out(landed: Landed, hits: list[PathHit]) -> bool:
    """Whether the change only takes lines out of the files of HITS, a test case's opening line among them (a
    print or an assertion taken out alone is no test removed)."""
    patches = _deletions_only(landed, hits)
    return bool(patches) and any(TEST_CASE.match(line) for p in patches for h in p.hunks for line in h.removed)


def _writes_nothing_into(landed: Landed, hits: list[PathHit]) -> bool:
    """Whether the change writes no line into the files of HITS (each still a file after it): it only takes lines out."""
    return bool(_deletions_only(landed, hits))


def _deletions_only(landed: Landed, hits: list[PathHit]) -> list[FilePatch]:
    """The change's patches of the files of HITS when each still is a file it only takes lines out of, else none."""
    wanted = {h.path for h in hits}
    patches = [p for p in landed.patches if p.change.path in wanted]
    only = len(patches) == len(wanted) and all(p.change.new is not None and p.text and p.hunks and
                                               not any(h.added for h in p.hunks if not h.cosmetic) for p in patches)
    return patches if only else []


def _formatting_kept(undo: PathUndo) -> bool:
    """Every hunk of the commit's content undone there and its re-formatting kept: that content taken out by
    someone whose file held the commit. With some of its content kept too, the formatting tells nothing more (a
    squash of a branch that merged the commit's work in keeps what no conflict touched)."""
    return bool(undo.formatting_kept) and len(undo.undone) == undo.hunks


def _minority_in_each(hits: list[PathHit]) -> bool:
    """Line-level evidence in two files or more, none with all of the commit's hunks undone, and fewer
    than half of its hunks undone across them (httpcore's `Consistent import style` over `Use new typing
    style`: 8 of 28 hunks in 3 files)."""
    loud = [h for h in hits if not h.quiet]  # (a formatting-only rollback beside them is cosmetic)
    undos = [h.undo for h in loud if h.kind == "inverse-hunk" and h.undo is not None]
    return len(undos) >= MIN_SWEEP_FILES and len(undos) == len(loud) and \
        all(u.groups_undone < u.groups for u in undos) and \
        2 * sum(u.groups_undone for u in undos) < sum(u.groups for u in undos)


def _edits_its_other_lines(hits: list[PathHit]) -> bool:
    """Line-level evidence only, and in some file a hunk of the commit not undone but edited in place."""
    loud = [h for h in hits if not h.quiet]
    return bool(loud) and all(h.kind == "inverse-hunk" for h in loud) and \
        any(h.undo is not None and h.undo.edited for h in loud)


def _partly_undone_in_each(hits: list[PathHit]) -> bool:
    """Line-level evidence only, and in each file some of the commit's hunk groups undone but not all."""
    loud = [h for h in hits if not h.quiet]
    return bool(loud) and all(_partly_kept(h) for h in loud)


def _small_share(commit: Commit, hits: list[PathHit], ctx: Context) -> bool:
    """Line-level evidence only, under SMALL_SHARE of the commit's lines (or, for a commit too large to count,
    of its files)."""
    if not hits or any(h.kind != "inverse-hunk" for h in hits):
        return False
    touched = ctx.touched_lines(commit)
    if touched:
        return sum(h.lines for h in hits) < SMALL_SHARE * touched
    return len({h.path for h in hits}) < SMALL_SHARE * len(_reported(commit, ctx))


def _partly_kept(hit: PathHit) -> bool:
    """Some of the commit's hunk groups in the file undone, others kept: no stale copy of the file does that.
    (Whether the hit is weak by nature is the caller's to weigh.)"""
    return hit.kind == "inverse-hunk" and hit.undo is not None and 0 < hit.undo.groups_undone < hit.undo.groups


def _all_undone(commit: Commit, hits: list[PathHit], ctx: Context, stale_tree: bool, merge: bool) -> bool:
    """Every reported file of the commit rolled back or with all its hunks undone (a stale copy with new work)."""
    touched = _reported(commit, ctx)
    whole = {h.path for h in hits if h.kind != "version-set-back" and (h.undo is None or len(h.undo.undone) == h.undo.hunks)}
    beyond_deletions = any(h.kind not in ("deleted-added", "deleted-changed") for h in hits)  # deletions alone stay weak
    lines = sum(h.lines for h in hits)
    # one debug line of one's own is no stale tree; several files, or real content, are (#224 undid 18 files);
    # in one file, old lines put back amid new lines written around them are that region edited (flask's
    # `split code and output` wrapping the output its PR had commented out in a code block): a stale copy
    # puts back the old text alone, its new work sits elsewhere in the file
    pure = all(not u.amid_new for h in hits if h.undo is not None for u in h.undo.undone)
    substantial = len(touched) >= 2 or (lines >= MIN_ROLLBACK_LINES and (pure or stale_tree))
    # later changes to those files kept, or the commit's own re-formatting: that one commit's content taken
    # out on purpose, not a stale copy
    kept = any(_keeps_later(h, stale_tree, merge) or (h.undo is not None and _formatting_kept(h.undo)) for h in hits)
    # a commit that only added lines, its lines deleted amid new work: what people do on purpose (a skip
    # dropped once the test is fixed, a workaround once obsolete); alone, without whole files put back,
    # it is judged as those deletions
    restores = stale_tree or any(h.undo is not None and any(u.kind != "deleted" for u in h.undo.undone)
                                 for h in hits)
    return bool(touched) and touched <= whole and beyond_deletions and substantial and lines >= MIN_HUNK_LINES and \
        all(not h.quiet for h in hits) and not kept and restores


def _every_added_deleted(commit: Commit, hits: list[PathHit], ctx: Context) -> bool:
    added = {c.path for c in commit.changes if c.added and ctx.reported(c.path)}
    deleted = {h.path for h in hits if h.kind == "deleted-added"}
    return bool(added) and added <= deleted


def _own(commit: Commit, landed: Landed, ctx: Context) -> bool:
    """COMMIT (a merge: any commit it brought in) was written by an author of the change."""
    return any(landed.authors.matches(email, name) for _, email, name in ctx.inner(commit))


def _reverts(commit: Commit) -> bool:
    """A revert by its message (`Revert "X"`, `This reverts commit`) or a merge of a revert branch."""
    return is_revert(commit) or REVERT_BRANCH_NAME.match(commit.subject) is not None


def _reverted_titles(commit: Commit, commits: Sequence[Commit], ctx: Context) -> list[str]:
    """What a merged revert took out, by title: the PR it names by number (`Revert #13829`) or the commit it
    names by hash (bytes' `Revert accidental push directly to master`) when that landed inside the window,
    and the work its own commits quote (`Revert "Warn on unexpected imports"`)."""
    if not _reverts(commit):
        return []
    titles = [pr_title(c) for c in _reverted_in_window(commit, commits)]
    return titles + [quoted for subject in ctx.inner_subjects(commit) if (quoted := reverted_subject(subject))]


def _reverted_in_window(commit: Commit, commits: Sequence[Commit]) -> list[Commit]:
    """The window's commits a revert names: by PR number (`Revert #13829`), by hash, by quoting its subject, or
    by the revision of a mirrored repository it rolls back (`Automated g4 rollback of changelist N`)."""
    number = reverted_pr(commit)
    shas = reverted_shas(commit)
    quoted = PR_SUFFIX.sub("", reverted_subject(pr_title(commit)))  # (the quote may carry the `(#N)` or not)
    revisions = reverted_revisions(commit)  # (a mirrored repository's change, by the revision it recorded)
    return [c for c in commits if c is not commit and (
        number is not None and pr_number(c) == number or any(c.sha.startswith(sha) for sha in shas) or
        bool(quoted) and quoted == PR_SUFFIX.sub("", pr_title(c)) or
        bool(revisions) and mirrored_revision(c.body) in revisions)]


def _relands_own_work(commit: Commit, commits: Sequence[Commit], landed: Landed, ctx: Context) -> bool:
    """COMMIT reverted work the change's author wrote (its committer, not a co-author): who wrote it is bringing
    it back (taichi's `Load AOT module from memory` again, a day after its revert, with the fix)."""
    return any(_by_its_committer(landed, ctx.inner(reverted)) for reverted in _reverted_in_window(commit, commits))


def _by_its_committer(landed: Landed, people: Sequence[tuple[str, str, str]]) -> bool:
    """Whether the change's committers wrote any of PEOPLE ((sha, email, name), as `Context.inner` gives them);
    a `Co-authored-by` trailer's name is not enough: GitHub's squash names whoever pushed to the branch."""
    return any(landed.authors.matches(email, name, co_authors=False) for _, email, name in people)


def _rolled_back_past(hits: Sequence[PathHit], commits: Sequence[Commit]) -> list[Commit]:
    """The later commits each of HITS rolled its path back to before (none unless every hit did)."""
    return [commits[h.before] for h in hits if h.before is not None] if all(h.before is not None for h in hits) else []


def _explanation(commit: Commit, inner: list[tuple[str, str, str]], landed: Landed, paths: list[str],
                 reverted: Sequence[str] = (), inner_subjects: Sequence[str] = (), past: Sequence[Commit] = ()) -> str:
    inner_shas = [sha for sha, _, _ in inner]
    # a merged PR's own commit reverted by its subject (commander's `Revert "add executable arguments ..."`,
    # carried in by merging master into a release branch) declares the merge that brought it
    ref = landed.declarations.matches(commit, inner_shas, inner_subjects)
    if ref is not None:
        return f"declared: the range says it reverts {ref}"
    ack = landed.acks.matches(commit, inner_shas) or _own_ack(landed)
    if ack is not None:
        reason = landed.acks.reasons.get(ack.lower(), "")
        return f"acknowledged in the ack file ({ack}{': ' + reason if reason else ''})"
    titles = (landed.subject, landed.title, *landed.subjects)
    if any(same_work(title, original) for title in titles if title for original in reverted) or \
            is_revert(commit) and (says_relanded(landed.message) or names_paths(landed.message, paths) or
                                   carries_reverted(pr_title(commit), titles) or
                                   any(does_again(title, pr_title(commit)) for title in titles if title)):
        # a re-land said in words, one whose message names what comes back ("Integrate Native CPC"), or
        # one that carries the reverted work's own subject or PR branch
        return "re-land: the undone commit was itself a revert, so this re-applies the original"
    if commit.is_merge and brings_in_a_revert_of(inner_subjects, titles):
        # a merge that brought a revert in (86Box's `Merge branch 'master'` carrying `Revert "EMU8K reset and
        # performance improvements"`), undone by a change carrying that work's title (`... - Take 2`); not when
        # the merge brought the reverted work in too (EC-CUBE's branch taking back a change of another issue
        # it held): the two cancel, and what the merge changed is its own work
        return "re-land: the undone merge brought in a revert of this work, so this re-applies the original"
    if past and all(is_revert(later) and carries_reverted(pr_title(later), titles) for later in past):
        # rolled back past a revert the change re-lands by title (rpcs3's `Update SDL to 3.4.0` again after
        # `Revert "Update SDL to 3.4.0"` and `Update SDL to 3.2.30`): the reverted work's version, on purpose
        return "re-land: put back as the work a revert took out, which this change re-applies by its title"
    if _reverts(commit) and _written_before(commit, landed):
        # written before the revert it undoes, applied since by a rebase or a cherry-pick (django-oauth-toolkit's
        # `OpenID: Claims: Add claims inside well-known`, authored months before `Revert #967`): the very work
        # the revert took out, landed again; a stale tree is committed when it is written
        return "re-land: written before the revert it undoes, the reverted work applied again"
    return ""


def _own_ack(landed: Landed) -> str | None:
    for sha in landed.own_commits:
        for prefix in landed.acks.shas:
            if sha.startswith(prefix):
                return prefix
    if landed.own_pr is not None and landed.own_pr in landed.acks.prs:
        return f"#{landed.own_pr}"
    return None


def _tally(commit: Commit, hits: list[PathHit], folders: list[bytes], ctx: Context) -> Tally:
    exact = [h for h in hits if h.kind in EXACT_KINDS]
    return Tally(
        kinds=tuple(sorted({h.kind for h in hits})), undone_paths=len({h.path for h in hits}),
        touched_paths=len(_reported(commit, ctx)),
        undone_lines=sum(h.lines for h in hits), touched_lines=ctx.touched_lines(commit),
        exact_paths=len(exact), exact_binary=any(not h.text for h in exact),
        whole_folders=tuple(display(f) for f in folders),
        inverse_files=sum(1 for h in hits if h.kind == "inverse-hunk"),
        undone_hunks=sum(h.undo.groups_undone for h in hits if h.undo is not None))


def _folders_gone(hits: list[PathHit], landed: Landed, ctx: Context) -> list[str]:
    """The outermost folders the change deletes whole (absent from its result) that hold each of HITS, when
    every hit is a deleted file; [] when one lies outside such a folder or is no deletion."""
    if not landed.head or not all(h.kind in ("deleted-added", "deleted-changed") for h in hits):
        return []
    present: dict[bytes, bool] = {}
    gone: set[bytes] = set()
    for hit in hits:
        parts = hit.path.split(b"/")[:-1]
        for folder in (b"/".join(parts[:i]) for i in range(1, len(parts) + 1)):
            if folder not in present:
                present[folder] = ctx.exists(landed.head, folder)
            if not present[folder]:
                gone.add(folder)
                break
        else:
            return []
    return [display(folder) for folder in sorted(gone)]


def whole_folders(commit: Commit, hits: list[PathHit], changes: Sequence[Change], ctx: Context) -> list[bytes]:
    """Folders the commit created whose files HEAD deletes entirely, touching nothing else there."""
    deleted = {h.path for h in hits if h.kind == "deleted-added"}
    if len(deleted) < MIN_FOLDER_FILES:
        return []
    whole = _whole([c.path for c in commit.changes if c.added], deleted, changes)
    found: set[bytes] = set()
    for path in deleted:
        best = None
        folder = posixpath.dirname(path)
        while folder in whole and not ctx.folder_existed(commit, folder):
            best, folder = folder, posixpath.dirname(folder)
        if best is not None:
            found.add(best)
    return sorted(found)


def _whole(added: list[bytes], deleted: set[bytes], changes: Sequence[Change]) -> set[bytes]:
    """The folders holding at least MIN_FOLDER_FILES of the ADDED files, all of them DELETED, and no other
    change that is not a deletion: counted once per path (slither's test move added 14,000 files)."""
    mine: dict[bytes, int] = {}
    kept: set[bytes] = set()
    for path in added:
        for folder in _folders(path):
            mine[folder] = mine.get(folder, 0) + 1
            if path not in deleted:
                kept.add(folder)
    kept.update(folder for c in changes if not c.deleted for folder in _folders(c.path))
    return {folder for folder, count in mine.items() if count >= MIN_FOLDER_FILES and folder not in kept}


def _folders(path: bytes) -> Iterator[bytes]:
    """The folders PATH lies in, innermost first."""
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _evidence(hit: PathHit, level: int, commits: Sequence[Commit]) -> Evidence:
    path = display(hit.path)
    if hit.kind == "rollback" and hit.before is not None:
        detail = f"rolled back to before {commits[hit.before].short}, which also undoes this commit's change"
    elif hit.kind == "rollback" and hit.normalized and hit.newer_kept:
        detail = f"this commit's change taken out exactly; {hit.newer_kept} later change(s) to the file kept"
    elif hit.kind == "rollback" and hit.normalized and hit.other_lines:
        detail = "this commit's change taken out exactly, formatting aside; other lines differ from its version before it"
    elif hit.kind == "rollback" and hit.normalized:
        detail = "equal to its version before this commit, ignoring formatting (whitespace, quotes, commas)"
    elif hit.kind == "rollback":
        detail = "byte-identical to its version before this commit"
    elif hit.kind == "resurrected" and hit.normalized and not hit.text:
        detail = "re-added, regenerated, after this commit deleted it (a lock file: its lines are not compared)"
    elif hit.kind == "resurrected" and hit.normalized:
        detail = f"re-added after this commit deleted it, edited: {hit.lines} of its {hit.total} lines back"
    elif hit.kind == "resurrected":
        detail = "re-added after this commit deleted it"
    elif hit.kind == "kept-by-merge":
        detail = (f"re-added after this commit deleted it: merge {hit.resolution[:7]} met it deleted on one side and "
                  "edited on the other, and kept the edited copy")
    elif hit.kind == "deleted-added":
        detail = "deleted; this commit added it"
    elif hit.kind == "deleted-changed":
        detail = "deleted; this commit was its latest change"
    elif hit.kind == "pointer-dropped":
        was, now, how = hit.pointer
        detail = (f"submodule pointer moved {'back ' if how == 'back' else ''}to {now[:12]}, which does not hold "
                  f"{was[:12]}, the commit this commit set it to{POINTER_DETAILS.get(how, '')}")
    elif hit.kind == "version-set-back":
        detail = f"version set back ({', '.join(f'{old} -> {new}' for old, new in hit.moves)}); this commit had moved it on"
    else:
        undo = hit.undo
        of = f"{undo.groups_undone}/{undo.groups}" if undo is not None else "some"
        detail = f"{of} of this commit's hunks undone ({hit.lines}/{hit.total} non-trivial lines)"
        if hit.newer_kept:
            detail += f"; {hit.newer_kept} later change(s) to the file kept"
        resolution = next((u.merge for u in undo.undone if u.merge), "") if undo is not None else ""
        if resolution:
            detail += f"; dropped by the conflict resolution of merge {resolution[:7]}"
    if hit.quiet:
        detail += f" ({hit.quiet})"
    groups = (hit.undo.groups_undone, hit.undo.groups) if hit.undo is not None else (0, 0)
    return Evidence(path, hit.kind, hit.lines, hit.total, detail, level, groups, hit.newer_kept)


def _repair(commit: Commit, hits: list[PathHit], landed: Landed) -> str:
    """Commands that put the undone work back: whole files from the undamaged side, hunks re-applied."""
    def paths(kinds: tuple[str, ...]) -> list[str]:  # a rollback through whitespace is re-applied as hunks
        return sorted({shlex.quote(display(h.path)) for h in hits if h.kind in kinds and
                       not (h.normalized and h.kind == "rollback")})

    steps = []
    restore = paths(("rollback", "deleted-added", "deleted-changed"))
    if restore and landed.repair_base:
        steps.append(f"git checkout {landed.repair_base} -- {' '.join(restore)}")
    steps += [f"git update-index --cacheinfo 160000,{h.pointer[0]},{shlex.quote(display(h.path))}"
              for h in hits if h.kind == "pointer-dropped"]
    resurrected = paths(("resurrected", "kept-by-merge"))
    if resurrected:
        steps.append(f"git rm -q -- {' '.join(resurrected)}")
    hunks = sorted({shlex.quote(display(h.path)) for h in hits if h.kind in ("inverse-hunk", "version-set-back") or
                    (h.normalized and h.kind == "rollback")})
    if hunks:
        parent = commit.parents[0][:12] if commit.parents else commit.sha[:12]
        steps.append(f"git diff {parent} {commit.sha[:12]} -- {' '.join(hunks)} | git apply --3way")
    return " && ".join(steps)


def _acknowledge(commit: Commit, landed: Landed) -> str:
    ref = f"#{pr_number(commit)}" if pr_number(commit) is not None else commit.sha[:12]
    if landed.landed_already:
        return f"add a line `{commit.sha[:12]} <why>` to {landed.ack_file}"
    return f"add the trailer `Leverguard-Revert-Ack: {ref}` to a commit message (or `{commit.sha[:12]} <why>` to {landed.ack_file})"
