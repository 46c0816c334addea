"""Declarations: revert wording plus a specific reference, `This reverts commit`, trailers, acks."""

from __future__ import annotations

import functools
import itertools
import posixpath
import re
from collections import Counter

from leverguard.patterns import lazy
from leverguard.revert.model import Commit
from leverguard.revert.patch import prints_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Sequence

REVERT_WORDS = lazy(
    r"\b(revert\w*|undo(es|ne|ing)?|undid|roll(s|ed|ing)?[ -]?back|rollback|back(s|ed|ing)?[ -]out|backtrack\w*|"
    r"restor(e|es|ed|ing)|reland\w*|reappl(y|ies|ied|ying)|roll(s|ed|ing)?[ -]?forward)\b", re.IGNORECASE)
# whose change a revert takes back, by first name: Kavita's `Reverted Robbie's change to GA`
REVERTED_AUTHOR = lazy(r"\b(?i:revert\w*|undo(?:es|ne|ing)?|undid|roll(?:s|ed|ing)?[ -]?back|back(?:s|ed|ing)?[ -]out)\s+"
                       r"@?([A-Z][\w-]+)['’]s\s+(?i:changes?|commits?|PRs?|pull requests?|work|edits?|updates?|fix(?:es)?)\b")
# Google's exports: `Automated rollback of commit 7e6a6cf`, `Rollback of https://github.com/google/dagger/commit/a1a2565`
_ROLLBACK_OF = r"rollback of (?:commit\s+|https?://\S+?/commit/)([0-9a-f]{7,40})\b"
REVERTS_COMMIT = lazy(r"\b(?:(?:reverts|backed out changeset) ([0-9a-f]{7,40})\b|" + _ROLLBACK_OF + ")", re.IGNORECASE)
# a removal of a commit by its id (mailcow's `[Web] Remove 36f296d9d631..., fixes #3926`): nothing else is removed
# by a commit id, and a stale tree never knows one
REMOVES_COMMIT = lazy(r"\b(?:remov(?:e|es|ed|ing)|drop(?:s|ped|ping)?|undo(?:es|ne|ing)?)\s+(?:commit\s+)?([0-9a-f]{7,40})\b",
                      re.IGNORECASE)
ACK_TRAILER = lazy(r"^\s*Leverguard-Revert-Ack:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
SHA = lazy(r"\b[0-9a-f]{7,40}\b")
THIS_REVERTS = lazy(r"\bThis reverts commit ([0-9a-f]{7,40})\b", re.IGNORECASE)
ROLLBACK_OF = lazy(r"^\s*(?:automated\s+)?" + _ROLLBACK_OF, re.IGNORECASE)  # a subject that is one of them
PR_REF = lazy(r"(?:#|pull/|pull request #?|!)(\d+)\b", re.IGNORECASE)
QUOTED = lazy(r"[\"\u201c]([^\"\u201d]{4,})[\"\u201d]")
# (and bors' `Merge #301`, whose body opens with `301: <title> r=<reviewer> a=<author>`)
# (Gitea's and Forgejo's merge button: `Merge pull request 'TITLE' (#N) from BRANCH into BASE`, trailers below)
PR_SUBJECT = lazy(r"^Merge pull request #(\d+)\b|\(#(\d+)\)\s*$|^Merge #(\d+)\b|^Merge pull request '.*' \(#(\d+)\) from ")
GITEA_MERGE = lazy(r"^Merge pull request '(.*)' \(#\d+\) from \S+ into \S+\s*$")
# Symfony's merge tool (Symfony, Sylius, API Platform): `bug #51157 [Contracts] Revert changes with 3.4 (nicolas-grekas)`,
# its body opening `This PR was merged into the 7.0 branch.`
SYMFONY_MERGE = lazy(r"^(?:bug|feature|minor|security|hotfix|docs?) #\d+ (.+?) \([^()]+\)\s*$")
SYMFONY_BODY = lazy(r"\s*This PR was (?:squashed before being )?merged into ")
GERRIT_MERGE = lazy(r'^Merge "(.+)"(?: into \S+)?\s*$')  # Gerrit's submit: `Merge "TITLE"`, `Merge "TITLE" into stable-6.1`
BORS_TITLE = lazy(r"^(\d+):\s*(.*?)(?:\s+[ra]=\S+)*\s*$")
GITLAB_BODY = lazy(r"^See merge request \S+!(\d+)\s*$", re.MULTILINE)
REFS_TRAILER = lazy(r"^Refs?:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
# (after the issue it answers, as some projects open subjects: `#1066: Revert #967 which breaks API`)
ISSUE_PREFIX = r"(?:#\d+\s*:\s*)?"
# (and Phabricator's backout, Meta's exports: `Back out "Add code verifier to loginButton"`)
# (and a sha said so in the past tense: LinuxGSM's `Reverted 6b46ca67747475ca9bc02df6f3315a6be8cdf1f9`)
REVERT_SUBJECT = lazy(r"^" + ISSUE_PREFIX + r"(Revert\b|revert(\(.*\))?!?:|Back(ed)? out\s+\"|Revert(ed|s)\s+(commit\s+)?[0-9a-f]{7,40}\b)",
                      re.IGNORECASE)
REVERT_BRANCH = lazy(r"^Merge pull request #\d+ from \S+?/revert-(\d+)-", re.IGNORECASE)  # GitHub's button
# its branch's name as a squash's title (openboxes' `Revert 5924 bug/obpih 7830 (#5941)`, GitHub's title for a PR
# from `revert-5924-bug/obpih-7830`): a number, then the branch's words, never a count of commits or lines
REVERT_BRANCH_TITLE = lazy(r"^Revert (\d+) (?!(?:commits?|changes?|lines?|files?|patch(?:es)?|PRs?)\b)[\w/.-]*[a-z]",
                           re.IGNORECASE)
REVERTED_PR = lazy(r"^" + ISSUE_PREFIX + r"Revert\b[^#\n]*#(\d+)\b|/revert-(\d+)\b", re.IGNORECASE)
SHA_RANGE = lazy(r"\b([0-9a-f]{7,40})\.\.\.?([0-9a-f]{7,40})\b", re.IGNORECASE)
SQUASH_SUFFIX = lazy(r"\s*\(#\d+\)\s*$")
BRINGS_BACK = lazy(r"^\W*(re-?add\w*|add\w* back|restor\w*|bring\w* back|put\w* back|re-?introduc\w*|re-?enabl\w*|re-?appl\w*|re-?land\w*|"
                   r"mov(e|es|ed|ing)(\s+[\w.-]+){0,3}\s+back)\b",  # (minetest_game's `Move all common mods back to ...`)
                   re.IGNORECASE)
GOES_AWAY = lazy(
    r"\b(remov\w*|rm|delet\w*|drop\w*|retir\w*|trim(s|med|ming)?|prun(e|es|ed|ing)|mov(e|es|ed|ing)|renam\w*|replac\w*|extract\w*|migrat\w*|downgrad\w*|deprecat\w*|"
    r"clean(s|ed|ing)?[ -]?up|blank(s|ed|ing)?|get rid of|restor\w*|revert\w*|revers|undo\w*|roll\w*[ -]?back|split\w*|merg(e|es|ed|ing) into|"
    r"back(s|ed|ing)?[ -]out|backtrack\w*|"  # (fyne's `Backing out `InfiniteAnimation``, imgui's `CI: backtrack and ...`)
    r"don'?t|do not|stop\w*|(turn|switch)\w*\s+off|no more|no longer|disabl\w*|un(ignore|pin|skip|mark|do)\w*|go(es|ing)? back|back to|"
    r"instead|without|avoid\w*|again|pin(s|ned|ning)?|bring(s|ing)? back|brought back|(add|put)(s|ed|ing)? back|re-?(add|enabl|introduc)\w*|"
    r"gone|yank\w*|unnecessary|unneeded|obsolete|redundant|superfluous|too many)\b",
    re.IGNORECASE)
# (Google's `Automated rollback.`; pb's `going back`, all of the subject; after a one-word type tag, great_expectations'
# `[BUGFIX] Revert relative links`, not a tool's `[maven-release-plugin] rollback the release of ...`)
# (after a tracker's key: cloudbeaver's `CB-2667 fix(plugin-connections): revert lozalization changes`)
SELF_REVERT = lazy(r"^((?-i:[A-Z][A-Z0-9]+-\d+):?\s+)?(\[[A-Za-z]+\]\s*|\w+(\([^)]*\))?!?:\s*)?((temporar(il)?y|partial(ly)?|partly|automated|quickly)\s+)?"
                   # (a verb joined to it by a slash: mujoco's `Disable/revert recent refection changes.`)
                   r"([a-z]+\s*/\s*)?(this reverts|revert\w*|revent|roll(s|ed|ing)?[ -]?back|undo\w*|undid|back(s|ed)? out|back-?outs?|"
                   r"(mov|switch|go|went|chang|migrat)\w* back to|revers\w* (the )?(last|previous|prior|preceding) commit|go(es|ing)? back(?=\W*$)|"
                   # stb's `reverse some of the public-domain-license changes that I didn't actually want`
                   r"revers(e|es|ed|ing)(?! engineer) ((some|all|most|part|parts) of )?(the |those |these |my |our )?([\w-]+ ){0,3}changes?)\b",
                   re.IGNORECASE)
EMOJI = lazy(r"(?:[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+|:[a-z0-9_+-]+:)\s*")  # gitmoji's, either form
SVN_ID = lazy(r"^git-svn-id: \S+@(\d+) ", re.MULTILINE)  # a git-svn commit's record of its revision
FOLLOWS_UP_PR = lazy(r"\s*(fix-?ups?|follow[- ]?ups?|(apply|appli\w+|address\w*)\s+(the\s+)?(review\s+)?(feedback|comments|review))\s+"
                     r"(for|to|of|on|from)\s+(the\s+)?(pr|pull request)?\s*#\d+\b", re.IGNORECASE)
LAST_COMMIT = lazy(r"\b(last|previous|prior|preceding) commit\b", re.IGNORECASE)
# taking something out again, said anywhere: Dancer2's `previous commit breaks tests, pulling out`
TAKES_OUT = lazy(r"\b((pull|back|take|took|rip|yank)(s|ed|ing|en)?\s+([\w-]+\s+){0,3}?out|"
                 r"roll(s|ed|ing)?\s+([\w-]+\s+){0,3}?back|revert\w*|undo\w*|undid)\b", re.IGNORECASE)
# anywhere in a subject: uvicorn's `Install script back to where it was and same as httpx`
AS_IT_WAS = lazy(r"\bback (to (where|how|what) (it|they) (was|were)|(to )?the way (it|they) (was|were))\b", re.IGNORECASE)
MERGED_BRANCH = lazy(r"^Merge pull request #\d+ from (\S+)")
REVERT_BRANCH_NAME = lazy(r"^Merge (pull request #\d+ from \S+?/|branch ')(revert|rollback|undo|back-?out)",
                          re.IGNORECASE)
VERSION_LINE = r"v?\d+(\.(\d+|x))+"  # a release line's name: `2.0.x`, `v0.8.x`, `3.7`
BRANCH_MERGE = lazy(r"^Merge ((remote-tracking )?branch|tag) '|"  # `Merge tag '4.16.4'`: a released line's tip
                    r"^Merge (current )?branch " + VERSION_LINE + " into ")  # traefik's `Merge current branch v3.7 into master`
WORDED_BRANCH_MERGE = lazy(r"^\s*merged?\s+((from|with)\s+['\"]?[\w./-]+|[\w./-]+\s+(branch|into)\b)", re.IGNORECASE)
# a release line merged forward ('2.0.x', 'v0.8.x', 'origin/3.1', 'stable', a release tag '4.16.4'), not a pull of master
# into master
MAINTENANCE_MERGE = lazy(  # not a short-lived 'hotfix/0.3.7' or 'release/1.2' of git-flow
    r"^Merge ((remote-tracking )?branch '((origin|upstream)/)?(" + VERSION_LINE + r"|([\w.-]+-)?(stable|maint\w*)(-[\w.-]+)?)|"
    r"tag 'v?\d+(\.\d+)+[^']*)'|"
    r"^Merge (current )?branch " + VERSION_LINE + " into |"  # unquoted, as traefik's tooling writes it
    r"^Merge #\d+ into " + VERSION_LINE,  # a fix merged forward into the next version line (reactor's bot)
    re.IGNORECASE)
# a pull request that merges a release branch forward, by its title: emqx's `sync release-58`, `sync release
# branches`, `` sync `release-63` to `master` `` (210 of them in 2,000 commits)
SYNCED_RELEASE = lazy(r"^sync\w*\s+[`'\"]?(release|stable|maint\w*)[\w./-]*[`'\"]?(\s+branch(es)?)?"
                      r"(\s+(to|into)\s+[`'\"]?[\w./-]+[`'\"]?)?\s*$", re.IGNORECASE)
# a release or a version bump: `Release 8.0.0`, `chore(release): 1.2.0`, `Bump version to 8.3.dev`, `start version 2.3.0`,
# `Version to 0.17.0`
# (libuv's `2026.03.06, Version 1.52.1 (Stable)` and `Now working on version 1.52.2`; a release snapshot named
# after its project alone, zlib's `zlib 1.2.0.5`; a tool's bracketed prefix, `[maven-release-plugin] prepare release
# gson-parent-2.10`)
RELEASE_TITLE = lazy(
    r"^\s*(\[[\w.-]+\]\s*|\w+(\([^)]*\))?!?:\s*)?(release\s+(version\s+)?v?\d|release\s*$|prepare\b.*\brelease|set(ting)?\s+up\b.*\brelease\s*$|(bump|set|start)\w*\b.*\bversion\b|start\w* v?\d|"
    # Sylius' `Change application's version to v2.0.0-ALPHA.3`, and back `to v2.0.0-DEV` after the tag
    r"(change|update)\w*\s+(the\s+)?([\w-]+'s\s+)?version\s+to\s+v?\d|"
    # Rush's `Bump versions.` (`rush version --bump`), lerna's `chore: bump package versions`: the whole title
    r"bump\w*\s+(all\s+)?(the\s+)?(package\s+)?versions\W*$|"
    r"version (to )?v?\d|v?\d+\.\d+(\.\d+)*\S*\s*$|(now )?working on (version )?v?\d|[\d.]+, version v?\d+\.\d+\S*( \(\w+\))?\s*$|"
    # Kavita's `v0.8.2 - Theme Overhaul, Smart Collections, & a lot more`: a release by its version and name
    r"[\w.-]+ v?\d+\.\d+(\.\d+)*\S*\s*$|v?\d+\.\d+(\.\d+)*\s+[-–—:]\s+\w|"
    # Stockfish's `Stockfish 18`: a project's name and a major version, nothing else
    r"(?!(part|step|phase|issue|bug|ticket|task|chapter|lesson|day|week|sprint|round|fix|test|lab|exercise|"
    r"milestone|iteration|pr|pull|attempt|try|take|wip)\s)[a-z][\w-]*\s+v?\d+(\s+\(#\d+\))?\s*$)", re.IGNORECASE)
# the steps around a release that set its version back to a dev one: `back to dev`, `Post-release 0.16.5`, Maven's
# `[maven-release-plugin] prepare for next development iteration` and its `rollback the release of gson-parent-2.11.0`,
# jackson's `retry 2.10.0 release`, `re-do 2.9.3 release` and `change version back to 2.5.0-SNAPSHOT`, junit's `Backed version up to 4.10.`
_ROLLS_BACK_RELEASE = r"roll\w*[ -]?back the release\b"
RELEASE_STEP = lazy(r"^\s*(\[[\w.-]+\]\s*|\w+(\([^)]*\))?!?:\s*)?(back to (dev\w*|snapshot)|(bump|move|set)\w*\b.*\bdev\w*|"
                    r"post-?release\b|pre-?release\b|(after|post)[-_ ]*(v?\d[\w.]*\s+)?rele?ase\b(?!\s+of\b)|prep\w*\s+(for\s+)?v?\d|publish\w*\s+v?\d|(prepare )?(for )?next development "
                    r"iteration|" + _ROLLS_BACK_RELEASE + r"|(need to )?re-?(tr(y|ies|ied|ying)|do(ne|ing)?)\b.*\breleas\w*|"
                    r"back\w* (the )?version\b|.*\d-snapshot\b|"
                    # zls' `begin the 0.16.0 release cycle`, rebar3's `bump to 3.7.1` and `back to git versioning`,
                    # pulumi's `Freeze 3.259.0 (#24388)` and `Changelog and go.mod updates for v3.259.0`
                    # radix-ui's `Publish release candidate`, adding yarn's `stableVersion`, and `New release`, taking it out
                    r"new (major |minor |patch )?release\s*$|publish\w* (a |the )?(new )?(pre-?release|release candidate|rc)\s*$|"
                    r"bump\w*\s+(to\s+)?v?\d+\.\d+|changelog\b.*\bfor\s+v?\d+\.\d+|freeze\s+v?\d+\.\d+|begin\w*\s+(the\s+)?(v?\d[\w.]*\s+)?release cycle\b|back to git\W?versioning\b|"
                    # spikeinterface's `After 0.103.1 release`, `Post 103.2 release`, `After relase 102.0.3`
                    # Pyomo's `Finalize release 6.7.3` / `Finalizing the 5.7.3 release`, then `Resetting main for
                    # development (6.7.4.dev0)`
                    r"finali[sz]\w*\s+(the\s+)?(release|v?\d+\.\d+)|reset\w*\b.*\bfor\s+development\b|"
                    # Stockfish's `Restore development`, lc0's `Return back to 0.19.0-dev for master`, vassal's
                    # `Updated for the 3.6.10 release.` and `Updated for 3.6.11 development.`
                    r"(restor|return)\w*\s+(back\s+)?(to\s+)?(the\s+)?(\S+-)?dev(elopment)?\b|"
                    r"updat\w*\s+for\s+(the\s+)?v?\d[\w.]*\s+(release|development)\b)", re.IGNORECASE)
RELEASE_ROLLBACK = lazy(r"\b" + _ROLLS_BACK_RELEASE, re.IGNORECASE)  # names the version it takes out
# what a Maven release step writes beside the version: the SCM tag (`<tag>gson-parent-2.10</tag>`, `<tag>HEAD</tag>`),
# the reproducible build's timestamp, and empty elements in its own spelling (`<x/>` for `<x></x>`)
RELEASE_POM_LINE = lazy(rb"^\s*(<(tag|project\.build\.outputTimestamp)>[^<]*</\2>|<([\w.-]+)(/>|></\3>))\s*$")
# `Bump linters and release 0.16.5`: a release step named after other work
RELEASE_NAMED = lazy(r"\b(and|&)\s+releas\w*\s+v?\d+\.\d+", re.IGNORECASE)
# the heading a changelog keeps over the next release's entries (`dev`, `## [Unreleased]`), taken out by the
# pre-release step and put back by the post-release one
DEV_HEADING = lazy(rb"^\s*[#=*-]*\s*\[?(dev|unreleased|in development|next|upcoming(\s*(version|release|changes))?|"
                  rb"current\s*development)\]?\s*[#=*-]*\s*$", re.IGNORECASE)
UNDERLINE = lazy(rb"^\s*([-=~^*#])\1+\s*$")  # a heading's underline in rst or markdown
VERSION_NUMBER = lazy(rb"\d+\.\d+")
CHANGELOG_PLACEHOLDER = lazy(rb"nothingchangedyet|\(unreleased\)|^[#=\[]*unreleased\]?$|<<next>>", re.IGNORECASE)
VERSION_BACK = lazy(r"\bversions?\b.*\bback\b|\bback\b.*\bversions?\b", re.IGNORECASE)  # a title setting one back
# what a feature writes where the next release's number will go (rubocop's `VersionAdded: "<<next>>"`)
# (and a docs version naming a branch between releases: antora's `version: master`, which each `Cut X` sets to X)
VERSION_PLACEHOLDER = lazy(rb"<<next>>|\bnext[-_]?(version|release)\b|\bvnext\b|"
                           rb"\bversion[\"']?[:=][\"']?(master|main|latest|develop|dev|next|unreleased)[\"']?,?$", re.IGNORECASE)
# spdlog's `SPDLOG_VER_PATCH 6`; an Erlang application's `{vsn, "git"}`
# the flag a release sets beside its version (squeezed: Misago's `__released__=True`, `IS_RELEASE = false`)
RELEASE_FLAG = lazy(rb"[\"']?(?:__released__|is_?release|released)[\"']?[:=](?:true|false|1|0)[,;]?$", re.IGNORECASE)
VERSION_PART = lazy(rb"ver(sion)?_?(major|minor|patch|micro)\W*\d|^\W*\{vsn,", re.IGNORECASE)
VERSION_IN_TITLE = lazy(r"\d+\.\d+(?:\.\d+)*")
RELEASE_WORDS = lazy(r"\b(releas\w*|version\w*|bump\w*)\b", re.IGNORECASE)
LOWERS = lazy(r"\b(lower\w*|downgrad\w*|pin(s|ned|ning)?|back to|revert\w*|roll\w*[ -]?back)\b", re.IGNORECASE)
LOWERED_OBJECT = lazy(r"\b(?:downgrad\w*|pin(?:s|ned|ning)?)\s+(?:the\s+)?([\w.@/-]{3,})", re.IGNORECASE)  # what it pins
GENERIC_OBJECTS = frozenset(("package", "packages", "version", "versions", "dependency", "dependencies", "deps",
                             "back", "msrv", "all", "tools", "toolchain"))
COMMON_WORDS = frozenset(
    "this that with from into when then than have been were will also only some more most just make makes made "
    "update updates updated change changes changed changing adds added adding remove removes removed removing "
    "revert reverts reverted restore restores restored delete deleted drop dropped move moved rename renamed "
    "replace replaced merge merged branch pull request master main test tests file files code support fixes "
    "fixed fix fixing version bump bumps bumped minor patch docs readme release typo cleanup clean none "
    "back undo undone rollback roll using used instead "
    # what any change does, not what it is about ("Refactor timer handling" and "SSLConfig refactor")
    "refactor refactors refactored refactoring improve improves improved improvement improvements "
    "implement implements implemented implementation simplify simplified tweak tweaks handling".split())
TEMPORARY = lazy(r"\b(until|temporar\w*|for now|work(s|ing|ed)?[ -]?arounds?|comment(s|ed|ing)? out|"
                 r"try(ing)? (if|whether|without)|wip|work in progress|allow\w* (\w+ )?(failures?|to fail)|"
                 r"(?<![/.])xfail\w*(?![/.])|"  # not `pytest.skip/exit/fail/xfail`, a name of code
                 # work hidden until its release (logto's `hide X behind dev feature flag`, `add dev feature guard`)
                 r"behind (an? |the )?[\w -]*?(flag|guard|toggle)s?|dev(elopment)?[ -]features? (flag|guard|gate)s?)\b",
                 re.IGNORECASE)
# scaffolding for a hunt, taken out once it ends (kotest's `revert changes and add debug lines`)
DEBUGGING = lazy(r"\badd(s|ed|ing)?\s+((some|more|extra|temporary)\s+)?(debug(ging)?|diagnostic)\s+(lines?|logs?|logging|prints?|"
                 r"statements?|output)\b|\bfor\s+debugging\b|^\s*(\w+(\([^)]*\))?!?:\s*)?investigat\w*|^\s*debug(ging)?\s+(?!mode\b)",
                 re.IGNORECASE)  # (babashka's `debug windows`, its prints taken out a month later; not `feat: debug dump`)
TEMP_PREFIX = lazy(r"^\s*temp\b", re.IGNORECASE)  # dom-testing-library's `temp: manual 0.0.0` (not `template`)
# a subject that opens by switching something off, to be switched on again (tower's staged 0.3 migration)
DISABLES = lazy(r"^\s*(\[[^\]]*\]\s*|\w+(\([^)]*\))?!?:\s*)?(temporar\w* )?disabl\w*\b", re.IGNORECASE)  # (`[WX-1108] Disable ...`)
GO_TOOL = lazy(r"\bgo (mod tidy|get)\b", re.IGNORECASE)  # the commands that write go.mod
_REGENERATING = r"re-?generat\w*|re-?gen|rebuil\w*|re-?render\w*"
TITLE_FILLER = frozenset("with from into this that these them then than were have after file files".split())
# the generator's output again (eza's `chore: Update generated test files` too)
REGENERATES = lazy(r"\b(" + _REGENERATING + r"|(updat|refresh)\w*\s+(the\s+)?generated)\b", re.IGNORECASE)
REGENERATES_LINE = lazy(r"\s*(?:[-*]\s+)?(?:" + _REGENERATING + r")\b", re.IGNORECASE)  # a message line opening so
# a bot's commit of what a tool wrote (rich-click's `Generate new screengrabs with rich-codex`)
# (and a localization bot's check-in: the dotnet bot's `Localized file check-in by OneLocBuild Task`)
GENERATES = lazy(r"\b(generat\w*|autogen\w*|screen-?(shot|grab)s?|locali[sz]\w*|translations?|" + _REGENERATING + r")\b",
                 re.IGNORECASE)
# a translation platform's export committed whole (commons-app's `Localisation updates from https://translatewiki.net.`,
# wire-android's `update localization strings via Crowdin`, `Update translations from Transifex`, humhub's
# `Updated Translations (translate.humhub.org)`): the platform owns the catalogs and writes them from its own state.
# Not Weblate's, which commits each translator's work under their name (`Translated using Weblate (Portuguese)`)
PLATFORMS = r"(translatewiki|crowdin|transifex|localazy|lokalise|pontoon|poeditor|tolgee)"
TRANSLATION_PLATFORM = lazy(r"(?<![a-z])" + PLATFORMS + r"(?![a-z])|\btranslate\.[\w-]+\.\w+", re.IGNORECASE)
TRANSLATED = lazy(r"(?<![a-z])(locali[sz]ations?|translations?|l10n)(?![a-z])", re.IGNORECASE)
PLATFORM_UPDATES = lazy(r"\bnew " + PLATFORMS + r" (updates|translations)\b", re.IGNORECASE)  # (Crowdin's own title)
SYNC_WORD = lazy(r"\b(updat\w*|new|sync\w*|pull(?!\s+request)\w*|download\w*)\b", re.IGNORECASE)
# a to-do note in lines a commit added that says they are to go (normalized text: no whitespace)
TODO_UNDO = lazy(rb"(todo|fixme|xxx|hack)\W?.*(until|temporar|fornow|backto|revertthis|removethis|re-?enable|un-?skip|uncomment|waiting(for|on)|"
                 rb"(drop|remov|delet)\w*(once|when|after)|skip\w*since|"  # pip-tools' `FIXME: drop once updated to pypy-3.8`
                 rb"(once|when|after).*(released|fixed|merged|isout|lands|landed|available|supported|dropped|upgraded|"
                 rb"resolved|closed|updated)|nolonger(needed|required|necessary))|"  # rubocop's `FIXME: Remove X after <issue> is resolved`
                 rb"notyet(been)?(updated|ported|migrated|implemented|supported)|"  # a placeholder
                 rb"(skip|disabl|commentingout|commentedout)\w*?(fornow|temporar|until)|"  # vuex's `Skipping for now`
                 # a comment calling what follows temporary (ipykernel's `# temp fix: pin tornado < 5`), or kept until a
                 # release (spyder's `# Install docstring-to-markdown until we release PyLSP 1.6.0`)
                 rb"(#|//|--|/\*)\W*(temp(orar\w*)?|tmp)(fix|workaround|hack|pin|\W|$)|"
                 # a comment saying when to take what follows out, without a to-do word (sentry-ruby's `# remove
                 # this after resque/resque#1828 is merged and released` over a `redis < 5.0` pin)
                 rb"(#|//|--|/\*)\W*(remov|drop|delet|revert)(e|ing)?(this|these|them|it|me)\w*?(once|when|after|until)|"
                 # (mne's `# Until https://github.com/scikit-learn/scikit-learn/issues/33616 is fixed` over a pin)
                 rb"(#|//)\S*?until\S*?(release|fix|merge|land|upgrad|support|resolv)", re.IGNORECASE)
# a to-do note tied to what ends it (whitespace dropped): a tracked issue (`// TODO #9795`, `# TODO: Add support
# spark 4.0.0, https://github.com/flyteorg/flyte/issues/6478`, a tracker's `TODO(DB-662)`) or a release
# (`TODO(Rust 1.86): remove -A clippy::precedence`); a name alone is an owner (`TODO(alice)`), no condition
TODO_WORDS = (b"todo", b"fixme", b"xxx", b"hack")
TRACKED_TODO = lazy(rb"(" + b"|".join(TODO_WORDS) + rb")\W*(\([^)]*\d[^)]*\)|.*(#\d{2,}|(issues|pull)/\d+|(?-i:[A-Z][A-Z0-9]+-\d+)))",
                    re.IGNORECASE)
# what such a note says is to happen, or that something is broken (a note naming only the issue says neither)
TRACKED_ACTION = lazy(rb"fix|support|remov|drop|delet|enabl|un-?skip|restor|revert|broke|stopped|fail", re.IGNORECASE)
ISSUE_LINK = lazy(rb"(issues|pull)/\d+|#\d{2,}")  # (horovod's `@pytest.mark.skipif(..., reason='.../issues/3422')`)
WORKAROUND_MARK = lazy(rb"continue-on-error:true|allow_failure:true", re.IGNORECASE)  # a CI job let fail
# `Remove spurious changes`, `Drop stray edits`: the change says it takes out what should not have landed
RESTORES = lazy(r"\b(unbreak\w*|restor\w*|re-?add\w*|reinstat\w*|reintroduc\w*|(bring|put|add)\w*(\s+[\w.-]+){0,3}\s+back)\b",
                re.IGNORECASE)  # `add logger back`, `bring the old tests back`
# (a copy twice over is as stray: chrono's `Remove duplicate test`, go-redis' `remove duplicate declaration`)
# a subject written as sed's substitution, `s/old/new/` (any delimiter, flags after it)
SUBSTITUTION = lazy(r"s([/|#])([^/|#]+)\1([^/|#]*)\1[gi]*$")
MIN_SUBSTITUTED = 3  # characters: shorter old text (`s/a/b/`) matches lines by chance
# (a merge's own leftovers too: uuid's `fix merge artifact` deleting the block the merge had doubled)
# (kestra's `remove merge namespace mistake`, react-native-firebase's `fix inadvertently commented out tests`)
STRAY = lazy(r"\b(stray|spurious|accidental\w*|inadvertent\w*|unintended|unwanted|junk|duplicated?|mistakes?|"
             r"merge (artifacts?|leftovers?|mistakes?|errors?)|(bad|botched|broken|wrong) merge)\b", re.IGNORECASE)
DEBUG_REMOVAL = lazy(r"\b(remov\w*|drop\w*|delet\w*|clean\w*|strip\w*)\b.*\b(logs?|logging|debug\w*|prints?|printlns?|"
                     r"console(\.log)?|var_dump|dbg!?)\b", re.IGNORECASE)
IMPORTS_WORD = lazy(r"\b(iwyu|include[- ]what[- ]you[- ]use)\b|(#|\b)(includes?|headers?|imports?)\b", re.IGNORECASE)
TEMPLATE_SYNC = lazy(r"\btemplate[-_ ](updat|merg|sync)\w*|\b(merg|sync)\w*\s+(with\s+|from\s+)?(the\s+)?([\w-]+\s+)?template\b|"
                     r"\bupdat\w*\s+from\s+(the\s+)?template\b|\bfrom\s+[\w.-]+/template\b|\b(cruft|copier)\s+update\b",
                     re.IGNORECASE)
FORM_TEMPLATE = lazy(r"\b(pr|pull[-_ ]request|issue|bug[-_ ]report|feature[-_ ]request|email|mail|html)[-_ ]templates?\b", re.IGNORECASE)
REMOVES_COMMENTS = lazy(r"\b(remov\w*|delet\w*|drop\w*|clean\w*|strip\w*|get rid of)\b.*\bcomment(s|ed)?\b", re.IGNORECASE)
LOG_WORD = lazy(r"\blog(s|ging)?\b", re.IGNORECASE)  # (`log line`, `debug logs`, `logging`)
# a call of a logger, by its name (squeezed): `JANUS_LOG(LOG_HUGE,...)`, `logti(...)`, `logger.debug(...)`, `Log.d(...)`
LOG_CALL = lazy(rb"(?:\w+\.)*(?:log\w*|\w+_log|(?:log|logger)\.\w+)\(.*", re.IGNORECASE)
# a line that only opens or closes the block around such output (squeezed): `if(type!=Video){`, `ifDEBUG:`, `}`
DEBUG_GUARD = lazy(rb"\}?(?:else|el)?if(?:\W.*|\w.*:)|\}?else\{?|[{}]+|end(?:if)?|fi", re.IGNORECASE)
REGRESSION = lazy(r"\bregress(ion|ions|ed)\b", re.IGNORECASE)
# a change deleting files says so, or why they go (`remove unnecessary file`, `file committed by mistake`)
DELETES = lazy(r"\b(remov\w*|delet\w*|drop\w*|prun(e|es|ed|ing)|clean\w*|unused|unnecessary|unneeded|obsolete|"
               r"noise|(by|in) (mistake|error)|get rid of|(don'?t|do not|no longer) need\w*|not needed)\b", re.IGNORECASE)
MIN_TOPIC_WORD = 4  # a word of a reverted subject that names something (`server`, `paths`; not `fix`, `to`)
MIN_TOPIC = 7  # a shared subject word this long is a topic ("interfaces"); shorter ones ("queue") are coincidence
MIN_NAME = 5  # a file stem shorter than this ("main", "util") names nothing in particular
CI_TAG = lazy(r"\[(?:ci|skip|no)[ -](?:skip|ci)\]", re.IGNORECASE)  # `[ci skip]`, `[skip ci]`: an instruction to CI
INSISTING = frozenset({"really", "actually", "properly", "correctly", "finally", "truly", "again"})  # a second try
# a try counted (86Box's `EMU8K reset and performance improvements - Take 2` after its revert): the same work
# once more; a part (`part 2`) is more of it, not the same
RETRY = lazy(r"\b(?:(?:take|attempt|try)\s*#?\s*(?:[2-9]|two|three|ii+)|(?:second|2nd|third|3rd|another)\s+(?:take|attempt|try))\b",
             re.IGNORECASE)
MIN_FOLDER_NAME = 3  # a folder the change deletes whole is named on purpose even when short (`docs`, `web`)
CODE_SPAN = lazy(r"`([^`]+)`")  # Markdown's inline code in a title
LIST_ITEM = lazy(r"\s*([-*+]|\d+[.)])\s")  # a squash body's list of commits: each item its own line
# a dependency bump's subject (Dependabot, Renovate, depfu, people): the dependency's name
# a hook pre-commit.ci's autoupdate moved on, as its body lists it: its repository's name and its new rev
HOOK_UPDATE = lazy(r"^\s*-\s*\[?(?:https?://)?[\w.-]+/[\w.-]+/([\w.-]+?)(?:\.git)?:\s*\S+\s*(?:→|->)\s*([^\]\s)]+)", re.MULTILINE)
BUMP_SUBJECT = lazy(r"^(?:\w+(?:\([^)]*\))?!?:\s*)?(?:update|bump|upgrade)\s+(?:dependency\s+)?([@\w][\w@./-]*)\s+"
                    r"(?:from\s+|to\s+)?v?\d", re.IGNORECASE)
ENTRY_POINT = lazy(r"(main|index|mod|lib|app|__init__|__main__)\.\w+")  # a folder's entry file: the folder names it
SOURCE_FOLDERS = frozenset({"src", "lib", "source", "app", "cmd", "internal"})  # layout folders that name no package
MIN_NAMED = 5  # a word of a message this long can name code ("iscoroutine"); shorter ones match anything
MIN_PHRASE_WORD, MIN_PHRASE = 3, 9  # two plain words, each this long and this long together, joined as one name
ENTRIES_WORD = lazy(r"\b(change ?logs?(_\w+)?|changes|news|(news ?)?fragments?|change ?notes?|release notes|changesets?)\b",
                    re.IGNORECASE)
# a formatter's run, the whole subject: `[ci] format`, `chore: format code with prettier`, `style: run black`
FORMATTERS = (r"prettier|black|isort|ruff format|rustfmt|cargo fmt|gofmt|goimports|clang-format|biome format|php-cs-fixer|"
              r"phpcbf|ktlint|swiftformat|stylua|yapf|autopep8")
FORMAT_RUN = lazy(r"^\s*(\[\w+\]\s*)?(\w+(\([^)]*\))?!?:\s*)?(((re-?)?format(ting)?|reformat\w*)(\s+(the\s+)?(code|source|sources|files|"
                  r"all|everything|codebase|project|repo))?(\s+(with|using|by)\s+[\w.-]+)?|(run|apply)\w*\s+(the\s+)?(formatters?|"
                  + FORMATTERS + r")(\s+(on|over|across)\s+(the\s+)?(all\s+)?(code|codebase|source|sources|files|everything|repo|project))?|"
                  # or the tool's name alone (kirby's `PHP-CS-Fixer`)
                  r"(" + FORMATTERS + r")(\s+(run|fixes|changes))?)\s*(\(#\d+\))?\s*$", re.IGNORECASE)
# the first line of a block whose lines belong to it: `key:`, `[section]`, `name = {`, `def f(` (whitespace squeezed)
BLOCK_HEADER = lazy(rb"(:|\{|\[|\(|^\[[^\]]+\])$")
# a block's opening key (whitespace squeezed): `"resolutions":{`, `resolutions:`, `resolutions=[`
BLOCK_KEY = lazy(rb"^[\"']?([\w$@./-]+)[\"']?[:=][{\[(]?$")
# what a removal's title says it removes: `remove Python 3.11 from CI (unstable)`, `Update base docs, remove tox`
REMOVAL_OBJECT = lazy(r"\b(?:remov\w*|delet\w*|drop\w*|disabl\w*|(?:turn|switch)\w*\s+off)\s+(?:the\s+|support\s+for\s+)?([^,;()]+?)"
                      r"(?=\s+(?:from|in|on|for|to|and|as|since|because|due|with|until|after)\b|\s*[,;(]|\.(?=\s|$)|\s*$)", re.IGNORECASE)
# folders any project has, whose names any title may say
CONVENTIONAL_FOLDER = lazy(r"src|lib|libs|app|apps|pkg|packages|vendor|vendored|third_party|docs?|tests?|spec|scripts|tools|bin|"
                           r"examples?|assets|static|public|config|utils?|common|core|internal|\.github|workflows")
TEST_AFFIX = lazy(r"^tests?_|(_test|_spec|\.test|\.spec)$")  # a test file's name around what it tests
COMMENT_MARK = lazy(rb"^(#+(?!\[)|//+|;+)")  # a line commented out (whitespace squeezed: `#-target`; not Rust's `#[...]`)
DOCUMENT_COMMENT = lazy(rb"^(\.\.|<!--)|-->$")  # a document's line commented out (squeezed: rst's `..x`, `<!--x-->`)
# a test marked skipped (whitespace squeezed): RSpec's `:pending`, mocha's `it.skip(`, JUnit's `@Ignore`, pytest's
SKIP_MARK = lazy(rb"\.skip\b|\bskip\(|:pending|\bpending\(|\bx(it|describe|test)\(|@ignore\b|@disabled\b|xfail|"
                 rb"#\[ignore|mark\.skip|unittest\.skip|\bt\.skip|\bgtest_skip\b", re.IGNORECASE)
# a to-do comment line (whitespace squeezed away), in any comment form a line may open with (pandoc's `-- TODO`)
TODO_MARK = lazy(rb"^(#+|//+|;+|--+|/\*+|\*+|%+|<!--)(todo|fixme|xxx)", re.IGNORECASE)
_REENABLING = r"re-?enabl\w*|un-?skip\w*"  # words that say nothing but that something comes back on
_ENABLING = _REENABLING + r"|enabl\w*|uncomment\w*"
ENABLES = lazy(r"\b(" + _ENABLING + r"|turn\w* (it |them )?back on|again)\b", re.IGNORECASE)  # in a title
# a setting that switches something off: `disable:`, `exclude-rules:`, `enabled: false`, `-DFOO=OFF`
OFF_SWITCH = lazy(r"\b(disabl\w*|exclud\w*|ignor\w*|skip\w*)\b|\b(enabled?|on)\s*[:=]\s*(false|no|0)\b|=\s*off\b")
# a message line (a squashed commit's bullet) opening by turning something back on: `* fix: enable banner`
ENABLING_LINE = lazy(r"^\W*(\w+(\([^)]*\))?!?:\s*)?(" + _ENABLING + r")\b", re.IGNORECASE)
REENABLES = lazy(r"\b(" + _REENABLING + r")\b", re.IGNORECASE)  # in any sentence of a message
# words around what a removal names: `Remove use of six`, `Removing more nose remnants via dependencies`
OBJECT_FILLER = frozenset("use uses usage of the a an support for unused old all any some more remnants leftovers "
                          "references reference dead obsolete deprecated via its our dependency dependencies deps "
                          "linter lint rule rules".split())  # (perseus' `Turn off functional/immutable-data linter`)
# a title's opening verb, turning something on (`Pin tox`, `Use Travis CI`, `Add back warnings`) or off (`Remove
# tox pin`, `Silence warnings`), after a conventional prefix (`fix(ci):`, `[ci]`)
ACTION = lazy(r"^\s*(?:\[[^\]]*\]\s*)?(?:\w+(?:\([^)]*\))?!?:\s*)?(?:(?P<on>(?:re-?)?add(?:s|ed)?(?:\s+back)?|use[sd]?|"
              r"pin(?:s|ned)?|(?:re-?)?enabl\w*|restor\w*|reinstat\w*|bring\s+back|un-?skip\w*|un-?silenc\w*|switch(?:es|ed)?\s+to|"
              # (GitHub's web editor: `Create CNAME` after `Delete CNAME`; workers-sdk's `Unquarantine ... tests`)
              r"(?:re-?)?creat(?:e|es|ed)|un-?quarantin\w*)|"
              r"(?P<off>remov\w*|drop\w*|delet\w*|disabl\w*|silenc\w*|skip(?:s|ped)?|un-?pin\w*|stop\w*|get\s+rid\s+of|"
              r"quarantin\w*))\s+"
              r"(?P<what>.+)$", re.IGNORECASE)
HYPHENATED = lazy(r"[a-z]{4,}(?:-[a-z]{4,})+")  # `torch-nightly`; not `pre-commit`, `torch-1.4.0`
OBJECT_WORD = lazy(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9]")  # a word of what a title names, versions whole (`python3.11`)
OBJECT_END = lazy(r"\s+(?:to|for|in|on|from|with|since|because|until|when|as|after|before|via|by|so)\s+|[,;:(]")
ACTION_FILLER = frozenset("config configuration ci job jobs check checks warning build builds workflow workflows "
                          "option options setting settings feature features file".split())
CLEANS = lazy(r"\bclean(s|ed|ing)?\b", re.IGNORECASE)  # `Clean changelog_unreleased`: said of entries, a removal
BAD_MERGE = lazy(r"\b(fix\w*|repair\w*|correct\w*)\b.*\b(bad|incorrect|wrong|broken|faulty|botched) merge\b",
                 re.IGNORECASE)
TESTS_WORD = lazy(r"\b(tests?|suites?|specs?|e2e|fixtures?)\b", re.IGNORECASE)
# a test file by its folder (`tests/`, `__tests__/`, `e2e/`) or its name (`test_x.py`, `x.test.ts`, `x_spec.rb`)
TEST_PATH = lazy(r"(^|/)(tests?|testing|specs?|__tests__|e2e|fixtures)(/|$)|(^|/)test_[^/]*$|[._-](test|spec)s?\.\w+$",
                 re.IGNORECASE)
# `git merge -s ours`, said in the merge's message: every change of the other side thrown away on purpose
OURS_STRATEGY = lazy(r"-s\s*ours\b|--strategy[= ]ours\b|\bstrategy[ :=]+[\"'`]?ours\b|[\"'`]?\bours\b[\"'`]? strategy",
                     re.IGNORECASE)
# an issue a change works on: its branch (`from owner/issue-269`, `issue/269`, `gh-269`) or its title (`Fixes #269`)
# or the issue a title opens with (crazyflie's `#393: Restore sending data on USB dataIn`)
ISSUE_REF = lazy(r"from \S+?/(?:\S*?[-_/])?(?:issues?|gh|bug)[-_/]?(\d+)\b|"
                 r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|issue)\s+#(\d+)\b|^\s*#(\d+)\b", re.IGNORECASE)
BACKTICKED = lazy(r"`([^`\n]+)`")
CODE_SHAPED = lazy(r"[_.:-]|\d|[a-z][A-Z]")  # snake_case, dotted, versions, kebab-case, camelCase
PROSE_WORDS = frozenset(  # message words that name no code, however long
    "about after again because before being could every first other their there these those since should "
    "would which while where unused unneeded unnecessary obsolete legacy older longer needed needs anymore "
    "python favor favour favoring through between without within across already always really working "
    "broken issue issues problem problems check checks instead entirely completely related".split())


class Declarations:
    """References that a text declares as reverted (SHA prefixes, PR numbers, quoted subjects)."""

    __slots__ = ("shas", "prs", "subjects", "reasons", "ranges", "authors", "revisions")

    def __init__(self, shas: frozenset[str] = frozenset(), prs: frozenset[int] = frozenset(),
                 subjects: frozenset[str] = frozenset(), reasons: dict[str, str] | None = None,
                 ranges: frozenset[tuple[str, str]] = frozenset(), authors: frozenset[str] = frozenset(),
                 revisions: frozenset[str] = frozenset()) -> None:
        self.shas = shas
        self.prs = prs
        self.subjects = subjects
        self.reasons: dict[str, str] = reasons if reasons is not None else {}  # ref -> why (ack file)
        self.ranges = ranges  # "reverts the commit range A..B": resolved to commits by the engine
        self.authors = authors  # "reverted Robbie's change": whose change, by first name (lower case)
        # "rollback of changelist 894235853": the revision a mirrored commit records (`PiperOrigin-RevId: N`)
        self.revisions = revisions

    def with_shas(self, shas: set[str]) -> Declarations:
        return Declarations(self.shas | shas, self.prs, self.subjects, self.reasons, self.ranges, self.authors,
                            self.revisions)

    def __eq__(self, other: object) -> bool:  # the reasons are commentary: not compared
        return isinstance(other, Declarations) and (self.shas, self.prs, self.subjects, self.authors, self.revisions) == (
            other.shas, other.prs, other.subjects, other.authors, other.revisions)

    def __hash__(self) -> int:
        return hash((self.shas, self.prs, self.subjects, self.authors, self.revisions))

    def __repr__(self) -> str:
        return (f"Declarations(shas={self.shas!r}, prs={self.prs!r}, subjects={self.subjects!r}, "
                f"authors={self.authors!r}, revisions={self.revisions!r})")

    def matches(self, commit: Commit, inner: Iterable[str] = (), inner_subjects: Iterable[str] = ()) -> str | None:
        """The reference that declares COMMIT (or a commit inside it, by id or quoted subject), or None."""
        for sha in (commit.sha, *inner):
            for prefix in self.shas:
                if sha.startswith(prefix):
                    return prefix
        number = pr_number(commit)
        if number is not None and number in self.prs:
            return f"#{number}"
        titles = {t for title in (commit.subject.strip().lower(), pr_title(commit).lower(),
                                  *(subject.strip().lower() for subject in inner_subjects))
                  for t in (title, SQUASH_SUFFIX.sub("", title))}
        found = titles & self.subjects
        if found:
            return f'"{found.pop()}"'
        if self.revisions and (recorded := mirrored_revision(commit.body)) in self.revisions:
            return f"changelist {recorded}"
        name = commit.author_name.split(" ", 1)[0].lower()
        return f"{commit.author_name}'s change" if name in self.authors else None


def parse_refs(text: str) -> tuple[set[str], set[int]]:
    """SHA prefixes and PR numbers named in TEXT (a line, a trailer value or an override)."""
    shas = {m.group(0).lower() for m in SHA.finditer(text) if not m.group(0).isdigit()}
    return shas, {int(m.group(1)) for m in PR_REF.finditer(text)}


def from_texts(texts: Iterable[str], extra: Iterable[str] = ()) -> Declarations:
    """The declarations in commit messages of the range, the PR text, and explicit overrides."""
    shas: set[str] = set()
    prs: set[int] = set()
    subjects: set[str] = set()
    ranges: set[tuple[str, str]] = set()
    authors: set[str] = set()
    revisions: set[str] = set()
    for ref in extra:
        found_shas, found_prs = parse_refs(ref)
        shas |= found_shas
        prs |= found_prs
    for text in texts:
        shas.update((m.group(1) or m.group(2)).lower() for m in REVERTS_COMMIT.finditer(text))
        shas.update(m.group(1).lower() for m in REMOVES_COMMIT.finditer(text) if not m.group(1).isdigit())
        if REVERT_SUBJECT.match(text.lstrip()):  # Conventional Commits: `revert: ...` + a `Refs: SHA` footer
            for refs in REFS_TRAILER.finditer(text):
                shas |= parse_refs(refs.group(1))[0]
        button = REVERT_BRANCH.match(text.lstrip()) or REVERT_BRANCH_TITLE.match(text.lstrip())
        if button:
            prs.add(int(button.group(1)))
        for trailer in ACK_TRAILER.finditer(text):
            found_shas, found_prs = parse_refs(trailer.group(1))
            shas |= found_shas
            prs |= found_prs
        for line in _clauses(text):
            if REVERT_WORDS.search(line):
                found_shas, found_prs = parse_refs(line)
                shas |= found_shas
                prs |= found_prs
                subjects.update(SQUASH_SUFFIX.sub("", q.strip().lower()) for q in QUOTED.findall(line))
                ranges.update((a.lower(), b.lower()) for a, b in SHA_RANGE.findall(line))
                authors.update(name.lower() for name in REVERTED_AUTHOR.findall(line))
                revisions.update(CHANGELIST.findall(line))
    return Declarations(frozenset(shas), frozenset(prs), frozenset(subjects), ranges=frozenset(ranges),
                        authors=frozenset(authors), revisions=frozenset(revisions))


# a revision of the repository a history is mirrored from, named in a revert: Copybara's `Automated g4 rollback of
# changelist 894235853` (material-components-android: 22 rollbacks in 1,500 commits), recorded by the commit it
# takes back as `PiperOrigin-RevId: 894235853`
CHANGELIST = lazy(r"\bchangelist\s+(\d{5,})\b", re.IGNORECASE)
PIPER_REVISION = lazy(r"^PiperOrigin-RevId:\s*(\d+)\s*$", re.MULTILINE)


def mirrored_revision(body: str) -> str | None:
    """The revision of the mirrored repository BODY's commit records (Copybara's `PiperOrigin-RevId`), if any."""
    found = PIPER_REVISION.search(body) if "PiperOrigin-RevId" in body else None
    return found.group(1) if found else None


CHANGELIST_ROLLBACK = lazy(r"\s*(?:automated\s+)?(?:g4\s+)?rollback of changelist\s+(\d+)", re.IGNORECASE)


def reverted_revisions(commit: Commit) -> list[str]:
    """The mirrored repository's revisions a revert's subject opens by rolling back (`Automated g4 rollback of
    changelist N`): its commit is a revert, and undoing it re-lands the commit that recorded N."""
    found = CHANGELIST_ROLLBACK.match(commit.subject)
    return [found.group(1)] if found else []


def _clauses(text: str) -> list[str]:
    """TEXT's lines, and each line that ends in a comma joined to the next (no list item): one sentence
    wrapped there (sqlalchemy's `some scratch tests got merged in 456727df50c7,` / `revert that part`); and
    a line that ends in a colon joined to the list of commit ids below it (werf's `This reverts commits:`
    over eight full ids, one a line)."""
    lines = text.splitlines()
    joined = [f"{line} {after}" for line, after in zip(lines, lines[1:])
              if line.rstrip().endswith(",") and not LIST_ITEM.match(after)]
    for at, line in enumerate(lines):
        if line.rstrip().endswith(":"):
            ids = list(itertools.takewhile(lambda below: ID_LINE.fullmatch(below) is not None, lines[at + 1:]))
            if ids:
                joined.append(" ".join([line, *ids]))
    return lines + joined


ID_LINE = lazy(r"\s*(?:[-*+]\s*)?(?:[0-9a-f]{7,40}|#\d+)\b[^\n]*", re.IGNORECASE)  # a list's commit id or PR, first


def described(message: str, paths: Iterable[str], undone_subject: str = "") -> str:
    """How MESSAGE says what goes away: "paths" when a line with removal, revert or reversal wording
    names every one of PATHS ("Remove foo.py", "Move X to Y"); "topic" when such a line shares a
    distinctive word with the undone commit's subject ("Stop testing Python 3.6" for "Test on Python
    3.6"); "" when it says nothing of it. (Line by line: a wrapped sentence read whole, removal wording and a
    path's name far apart in it, excused three lost changes in held-out audits for the one it explained.)"""
    lines = [line.lower() for line in message.splitlines() if GOES_AWAY.search(line)]
    wanted = list(paths)
    if not lines or not wanted:
        return ""
    if names_paths("\n".join(lines), wanted):
        return "paths"
    topic = _words(undone_subject)
    return "topic" if topic and any(_words(line) & topic for line in lines) else ""


def same_issue(texts: Iterable[str], others: Iterable[str]) -> bool:
    """Whether the change and the undone commit name the same issue (mkdocs' `from d0ugal/issue/269` after
    `from lorengordon/issue-269`): a second take on that issue, that work reworked."""
    def issues(found: Iterable[str]) -> set[str]:
        return {"".join(groups) for text in found if text for groups in ISSUE_REF.findall(text)}
    return bool(issues(texts) & issues(others))


def says_ours_strategy(message: str) -> bool:
    """`Merge develop into X using "ours" strategy`, `git merge -s ours`: the other side discarded on purpose."""
    return bool(OURS_STRATEGY.search(message))


def says_deletes_entries(titles: Iterable[str]) -> bool:
    """A title with removal wording that speaks of changelog entries (yarl's `Cleanup released changelog
    messages`, `Remove stale news fragments`): fragments a release left behind, taken out on purpose."""
    return any((GOES_AWAY.search(title) or CLEANS.search(title)) and ENTRIES_WORD.search(title)
               for title in titles if title)


def says_deletes_tests(titles: Iterable[str], paths: Iterable[str]) -> bool:
    """A title with removal wording that speaks of tests (`test: delete low-value suite files`, `Drop the
    flaky e2e specs`), every one of PATHS a test file: the tests were taken out on purpose."""
    wanted = list(paths)
    return bool(wanted) and all(TEST_PATH.search(path) for path in wanted) and \
        any(GOES_AWAY.search(title) and TESTS_WORD.search(title) for title in titles if title)


def names_undone(titles: Iterable[str], lines: Iterable[bytes], code_only: bool = False, phrases: bool = False) -> bool:
    """Whether one of TITLES, with removal or reversal wording, names something in the undone LINES
    ("Remove typeshed iscoroutine workaround", "Drop Python 3.9" for a 3.9 classifier); with CODE_ONLY,
    only names shaped like code count (`RequestKey`, `XSS`, `3.6`, `sp-repo-review`). Only titles count:
    long bodies and squashed commit lists name a little of everything. Lines are compared without
    whitespace, as the patches hold them."""
    return _named([title for title in titles if GOES_AWAY.search(title)], lines, code_only, phrases)


def names_removed_block(titles: Iterable[str], blocks: Iterable[Sequence[bytes]], undone: Iterable[bytes]) -> bool:
    """Whether one of TITLES, with removal wording, names the header of blocks the change takes out (a key
    and its entries: ``Remove `minimumReleaseAgeExclude` from workspace``), and every undone line lies in
    those blocks: the entries others added under it go with it on purpose. A list of independent lines (a
    `.gitignore`) has no header: an entry named there names only itself."""
    wanted = [title for title in titles if title and GOES_AWAY.search(title)]
    named = {line for block in blocks if block and BLOCK_HEADER.search(block[0]) and
             (_named(wanted, block[:1], code_only=True) or _keyed(wanted, block[0])) for line in block}
    lines = [line for line in undone if line]
    return bool(named) and bool(lines) and all(line in named for line in lines)


def _keyed(titles: Iterable[str], header: bytes) -> bool:
    """Whether what one of TITLES says it removes is, word for word, the key opening a block (bullmq's `remove
    resolutions` for `"resolutions": {`): a plain word names that key exactly, as no other word would."""
    found = BLOCK_KEY.match(header)
    key = found.group(1).decode("utf-8", "replace").lower() if found else ""
    return bool(key) and any(_removal_object(title) == key for title in titles)


def brings_back_by_name(message: str, lines: Iterable[bytes]) -> bool:
    """Whether a line of MESSAGE (a squashed commit's bullet too) opens by saying it brings something back and
    names, shaped like code, something in the undone LINES (pino's `* Re-add lastMsg tests`): a stale tree
    announces nothing it puts back."""
    return names_code([line for line in message.splitlines() if BRINGS_BACK.match(line)], lines)


def names_code(titles: Iterable[str], lines: Iterable[bytes]) -> bool:
    """Whether one of TITLES names, in any wording, something shaped like code in LINES (`Fixed version_dev
    in docs/conf.py` for `version_dev = "5.4"`)."""
    return _named([title for title in titles if title], lines, code_only=True)


def _named(titles: Iterable[str], lines: Iterable[bytes], code_only: bool, phrases: bool = False) -> bool:
    titles = list(titles)
    names = {name for title in titles for name in _names_in(title, code_only, phrases)}
    # a code span names code whatever its length (pipx's ``Remove `-q` from `list --json` test``), spaces
    # squeezed out as the lines have them, standing alone there
    spans = {re.sub(r"\s+", "", span).lower() for title in titles for span in CODE_SPAN.findall(title)}
    spans = {span for span in spans if len(span) >= 2}
    if not names and not spans:
        return False
    text = b"\n".join(lines).decode("utf-8", "replace").lower()
    return any(name in text for name in names) or \
        any(re.search(rf"(?<![\w-]){re.escape(span)}(?![\w-])", text) for span in spans)


def _names_in(line: str, code_only: bool, phrases: bool = False) -> set[str]:
    """The words of LINE that can name code: long or code-shaped ones, not prose; with PHRASES, two plain
    words in a row too, written as the one name code spells them (typesense's `remove query hits aggregation`
    for its `query_hits_counts`: `query_hits`, `queryhits`)."""
    found = set()
    words = re.findall(r"[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]", line)
    for first, second in zip(words, words[1:]) if phrases else ():
        pair = (first.lower(), second.lower())
        if all(word.isalpha() and len(word) >= MIN_PHRASE_WORD and word not in COMMON_WORDS and
               word not in PROSE_WORDS and not GOES_AWAY.fullmatch(word) for word in pair) and \
                re.search(rf"\b{re.escape(first)}\s+{re.escape(second)}\b", line):
            found.update({"_".join(pair), "".join(pair)} if len("".join(pair)) >= MIN_PHRASE else set())
    for word in words:
        lower = word.lower()
        if lower in COMMON_WORDS or lower in PROSE_WORDS or GOES_AWAY.fullmatch(lower):
            continue
        if CODE_SHAPED.search(word) or (word.isupper() and len(word) >= 3) or \
                (not code_only and len(lower) >= MIN_NAMED):
            found.add(lower)
        last = lower.rpartition(":")[2]
        if last != lower and len(last) >= MIN_NAMED:
            # a Rust path names its last segment too, as code imports and uses it (futures-rs' `Remove uses of
            # pin_project::project attribute` for its `#[project]` lines), and a member its class's name
            # qualifies names that member (aria2's `Remove PeerStorage:scheduleForcedChokeRound`)
            found.add(last)
    return found


def names_paths(message: str, paths: Iterable[str]) -> bool:
    """Whether some line of MESSAGE names each of PATHS (its name, stem or folder), in any wording."""
    lines = [line.lower() for line in message.splitlines()]
    wanted = list(paths)
    return bool(wanted) and all(any(_names(line, path) for line in lines) for path in wanted)


def names_folders(message: str, folders: Iterable[str]) -> bool:
    """Whether a line of MESSAGE with removal wording names each of FOLDERS by its last name, as a word
    (chai's `removed docs` for `docs/`): a folder is named on purpose, whatever its name's length."""
    lines = [line.lower() for line in message.splitlines() if GOES_AWAY.search(line)]
    names = [folder.rstrip("/").rsplit("/", 1)[-1].lower() for folder in folders]
    return bool(names) and all(len(name) >= MIN_FOLDER_NAME and
                               any(re.search(rf"(?<![\w./-]){re.escape(name)}s?(?![\w-])", line) for line in lines)
                               for name in names)


def restores_folders(message: str, paths: Iterable[bytes]) -> bool:
    """Whether a line of MESSAGE that opens by saying it brings something back names, as a word, a folder each
    of PATHS lies in (domoticz's `Restored JWT-CPP` putting `jwt-cpp/picojson/picojson.h` back past the
    morning's update): a library's copy restored by name."""
    lines = [line.lower() for line in message.splitlines() if BRINGS_BACK.match(line)]
    folders = [path.decode("utf-8", "replace").lower().split("/")[:-1] for path in paths]
    return bool(lines) and bool(folders) and all(
        any(len(folder) >= MIN_FOLDER_NAME and any(re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])", line)
                                                   for name in _spellings(folder))
            for folder in path for line in lines) for path in folders)


def _spellings(folder: str) -> set[str]:
    """A folder's name as a message may write it: as it is, or run together (croc's `add back testingdata` for
    `testing_data/`)."""
    return {folder, folder.replace("_", "").replace("-", "")}


def _words(text: str) -> set[str]:
    """Distinctive words: long enough, not wording every commit uses."""
    words = re.findall(r"[a-z][a-z0-9_.-]{3,}|\d+\.\d+[a-z0-9_.-]*", text.lower())
    return {w.rstrip(".-") for w in words if w.rstrip(".-") not in COMMON_WORDS}


def says_relanded(message: str) -> bool:
    """Whether MESSAGE says it brings reverted work back (`Reland X`, `Reapply`, `restore`, `undo the
    revert`): undoing a revert silently, as a tree from before it does, is itself a silent revert."""
    return bool(REVERT_WORDS.search(message))


def carries_reverted(revert_subject: str, titles: Iterable[str]) -> bool:
    """Whether a title of the change is the work a revert took out (`Revert "X"`): X's own subject, or
    the same PR branch merged again (marshmallow's type hints, reverted as `Revert "Merge pull request
    #1926 from .../Update_type_hints"` and merged back from that branch as #1932): a re-land by name."""
    original = reverted_subject(revert_subject)
    if not original:
        return False
    branch = MERGED_BRANCH.match(original)
    for title in titles:
        again = MERGED_BRANCH.match(title)
        if (branch is not None and again is not None and branch.group(1) == again.group(1)) or same_work(title, original) \
                or _holds_words(title, original):
            return True
    return False


def brings_in_a_revert_of(subjects: Sequence[str], titles: Iterable[str]) -> bool:
    """Whether a merge's commits (their SUBJECTS) hold a revert of work a title of the change carries, and not
    that work itself, which the revert would cancel (EC-CUBE's branch taking back a change it held)."""
    wanted = [title for title in titles if title]
    return any(carries_reverted(subject, wanted) and not any(same_work(other, reverted_subject(subject)) for other in subjects)
               for subject in subjects)


def _title_words(text: str) -> list[str]:
    """A title's words, lower case, without its squash suffix `(#N)`."""
    return re.findall(r"[a-z0-9]+", SQUASH_SUFFIX.sub("", text).lower())


def _holds_words(title: str, original: str) -> bool:
    """TITLE carries every word of ORIGINAL, two or more of them distinctive (jupyter_server's `Fix
    server-extension paths (3rd time's the charm)` after `Revert "Server extension paths (#730)"`)."""
    def words(text: str) -> set[str]:
        return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _title_words(text)}
    wanted = words(original)
    return sum(1 for w in wanted if len(w) >= MIN_TOPIC_WORD) >= 2 and wanted <= words(title)


AGAIN = lazy(r"\bagain\b", re.IGNORECASE)
SHARED_STEM = 5  # letters two words must open alike to be one word (`removed`, `remove`)


def does_again(title: str, revert_subject: str) -> bool:
    """Whether TITLE says it does again what the revert (REVERT_SUBJECT, `Revert "X"`) took out, sharing a word
    of X (graphhopper's `Remove block_area (again)` after `Revert "removed unused method (Polygon, #2741)"`)."""
    original = reverted_subject(revert_subject)
    if not original or not AGAIN.search(title):
        return False
    def stems(text: str) -> set[str]:
        return {w[:SHARED_STEM] for w in _title_words(text) if len(w) >= MIN_TOPIC_WORD and w != "again"}
    return bool(stems(title) & stems(original))


def reverted_pr(commit: Commit) -> int | None:
    """The PR a revert names by number (`Revert #13829`, GitHub's button branch `revert-13829`), if any."""
    match = REVERTED_PR.search(pr_title(commit)) or REVERTED_PR.search(commit.subject)
    return int(match.group(1) or match.group(2)) if match is not None else None


def reverted_shas(commit: Commit) -> list[str]:
    """The commits a revert's body names (`This reverts commit 1a2b3c4.`) or its subject rolls back, lowercased."""
    return [sha.lower() for sha in THIS_REVERTS.findall(commit.body) + ROLLBACK_OF.findall(commit.subject)]


def reverted_subject(subject: str) -> str:
    """What a revert's subject quotes (`Revert "X"` gives X), else nothing."""
    quoted = QUOTED.search(subject) if REVERT_SUBJECT.match(subject) else None
    return quoted.group(1) if quoted is not None else ""


def calls_itself_a_revert(subject: str) -> bool:
    """A subject that opens with revert wording ("Revert cleo update", "Rollback micro-optimization",
    packaging's `move back to setuptools` after `Move from setuptools to flit`), or that says it puts
    something back as it was: not silent, though it names no commit, so not a declaration either."""
    subject = without_emoji(subject).strip()
    return bool(SELF_REVERT.match(subject) or REVERT_BRANCH_NAME.match(subject) or AS_IT_WAS.search(subject) or
                (LAST_COMMIT.search(subject) and TAKES_OUT.search(subject)))


# a sentence of a message's body that says the change reverts, naming nothing (paperclip's `Gem dependency fixes`:
# "issues with the gem dependency specifications changes we made recently. This will revert them.")
# (not git's own `This reverts commit SHA`, which names what it reverts and is read as a declaration)
# (or reverses a change: WRF's "[This reverses a change made in the repository after the last release.]")
BODY_REVERTS = lazy(r"[\[(]?this (?:will |would |should |commit |change |PR )?(?:revert(?:s|ed)?\b(?! commit\b)|"
                    r"revers(?:es|ed)\s+(?:a|an|the|this|that|these|those|my|our)\s+(?:[\w-]+\s+){0,2}"
                    r"(?:change|changes|commit|commits|fix|fixes|update|patch|edit)\b)", re.IGNORECASE)
# or that opens with reverting the work just before it (parca's squash list: "* Revert the previous fix that didn't work",
# rclcpp's "* Revert earlier fix made in rclcpp")
BODY_REVERTS_EARLIER = lazy(r"(?:[-*+\u2022]\s*)?(?:revert(?:s|ed|ing)?|undo(?:es|ne|ing)?|undid|roll(?:s|ed|ing)? back|"
                            r"back(?:s|ed|ing)? out)\s+(?:(?:the|my|our|his|her|their)\s+)?(?:previous|last|prior|earlier|preceding)\b(?!\s+than\b)",
                            re.IGNORECASE)


def says_it_reverts(message: str) -> bool:
    """A sentence of MESSAGE's body opens with `This (will) revert(s)` or `Revert the previous ...`, or says
    something is reverted to what it was: not silent, though not a declaration."""
    return any(BODY_REVERTS.match(sentence) or BODY_REVERTS_EARLIER.match(sentence) or REVERTED_TO_ORIGINAL.search(sentence)
               for sentence in sentences(message.partition("\n")[2]))


# ledger's "The test files are reverted to their original argument order (...) to serve as regression tests"
REVERTED_TO_ORIGINAL = lazy(r"\b(?:is|are|was|were|get|gets|got|been)\s+(?:reverted|rolled back|restored|put back)\s+"
                            r"(?:back\s+)?to\s+(?:the|its|their|his|her|our)\s+(?:original|previous|prior|old|earlier)\b",
                            re.IGNORECASE)


def reverts_by_topic(message: str, undone_subject: str) -> bool:
    """A line of MESSAGE opens by saying it reverts something (a list item too) and names the undone commit's
    topic: two of its words or more, half of what it names (testcafe's `- revert cdp native-dialogs` for
    `proxyless handle native dialogs`): that work taken back on purpose, though not named by commit."""
    topic = _topic_words(undone_subject)
    issues = set(ISSUE_NUMBER.findall(SQUASH_SUFFIX.sub("", undone_subject)))
    for line in message.splitlines():
        opened = REVERTS_OPENING.match(line)
        if opened and topic:
            named = _topic_words(opened.group(1))
            shared = named & topic
            if len(shared) >= MIN_TOPIC_WORDS and 2 * len(shared) >= len(named):
                return True
        # or the issue the undone commit fixed, by number (yii2's `Reversed #18499` after `Fix #18499: ...`)
        if opened and issues & set(ISSUE_NUMBER.findall(opened.group(1))):
            return True
    return False


REVERTS_OPENING = lazy(r"\s*(?:[-*+]\s+)?(?:revert\w*|revers(?:e|es|ed|ing)|undo|roll ?back)\b\s+(.+)", re.IGNORECASE)
ISSUE_NUMBER = lazy(r"(?<![\w&])#(\d+)\b")
MIN_TOPIC_WORDS = 2  # words a line saying it reverts shares with the undone commit's subject: one is chance


def _topic_words(text: str) -> set[str]:
    """TEXT's words, split at hyphens and underscores, plurals made singular, PR numbers and common words left out."""
    return {word[:-1] if word.endswith("s") and len(word) > 3 else word for word in _title_words(text)
            if len(word) >= 2 and not word.isdigit() and word not in COMMON_WORDS}


def sentences(message: str) -> list[str]:
    """MESSAGE's sentences, each on one line: a wrapped sentence is one, and each item of a list (a squash
    body's commit subjects) stands alone."""
    paragraphs = re.split(r"\n\s*\n|\n(?=\s*(?:[-*+\u2022]|\d+[.)])\s)", message)
    return [sentence for paragraph in paragraphs for sentence in re.split(r"(?<=[.!?])\s+", " ".join(paragraph.split()))]


def without_emoji(title: str) -> str:
    """TITLE without the emoji and `:shortcode:`s that gitmoji-style titles open with (`fix: 🐛 rollback last
    release`, `:bookmark: Release 1.2`): the words after them are what the title says."""
    return EMOJI.sub("", title)


def same_work(subject: str, other: str) -> bool:
    """Two subjects that are one ("Update _client.py" twice, `Tweak GH Action` then `Tweak GH Actions`, a
    PR's `(#N)` aside, zap's `Really fix README link` after `Fix README link`, `Fix govuln check` after `Fix
    govulncheck`, SCons' `[ci skip] update issue templates` after `Update issue templates`, a `Take 2`): the same
    work continued."""
    def bare(text: str) -> str:  # words, case, plural, spacing, a second try's insistence and `[ci skip]` aside
        words = [w.strip("./-") for w in
                 re.findall(r"[a-z0-9_./-]+", SQUASH_SUFFIX.sub("", RETRY.sub(" ", CI_TAG.sub(" ", text))).lower())]
        return "".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w and w not in INSISTING)
    return bool(bare(subject)) and bare(subject) == bare(other) and not PR_SUBJECT.match(subject)


def is_merge_of_branch(subject: str, merge: bool = False) -> bool:
    """`Merge branch 'x.y'` / `Merge remote-tracking branch`: a long-lived branch forward-merged, not a PR; for a
    MERGE commit, in its author's own words too (mimalloc's `merge from dev`, `merge with dev-exp`)."""
    return bool(BRANCH_MERGE.match(subject) or merge and WORDED_BRANCH_MERGE.match(subject)) or \
        merge and merges_a_release_line(subject)  # reactor's `Merge #3769 into 3.7.0-M1`


def merges_template_update(titles: Iterable[str]) -> bool:
    """A merge of the project template's update (nf-core's `Important! Template update for nf-core/tools v2.9`,
    `Merge pull request #260 from nf-core/TEMPLATE`, cruft's and copier's updates): the template reworks its
    own files, and the merge takes that rework over the project's copy of them."""
    return any(TEMPLATE_SYNC.search(title) and not FORM_TEMPLATE.search(title) for title in titles if title)


def removes_their_topic(subject: str, undone: Iterable[tuple[str, Iterable[bytes]]]) -> bool:
    """A subject with removal wording sharing, with every undone commit, a distinctive title word that its
    undone lines hold too (anyio's `Removed the pyright version pin` over `Pinned pyright version to work
    around a broken update` and `Pinned the pyright version also in the test workflow`, both putting back
    `pyright==1.1.339`): the change says what it takes out. A stale tree undoes whatever came before it;
    an area both titles name (`providers`) is no topic its lines carry."""
    wanted = [(title, b"\n".join(lines).decode("utf-8", "replace").lower()) for title, lines in undone]
    if not wanted or not GOES_AWAY.search(subject):
        return False
    # (a title written as its branch's name says its words one by one: crawlee's `docs: remove-webinar`)
    mine = _topical(_words(subject) | {part for word in _words(subject) if GOES_AWAY.fullmatch(word.partition("-")[0])
                                       for part in word.split("-")[1:]})
    return all(any(w in text for w in mine & _words(title)) for title, text in wanted)


def shares_topic(titles: Iterable[str], others: Iterable[str]) -> bool:
    """Whether a title of the change and one of the undone commit share a distinctive word: a long one
    (`interfaces`, `lifespan`), one shaped like code (`credential_provider`, `build-watch`), or one either
    title quotes in backticks (vite's `` add `input` to `server.fs.allow` `` and `input option`). The
    same topic again is work continued or reworked; a stale tree undoes other people's topics too."""
    def topics(texts: Iterable[str]) -> tuple[set[str], set[str]]:
        """(its words, the ones it quotes in backticks); a merge's own subject names a branch, not a topic."""
        kept = [text for text in texts if not text.startswith("Merge ")]
        return ({w for text in kept for w in _words(text)},
                {w for text in kept for name in BACKTICKED.findall(text) for w in _words(name)})

    (mine, mine_quoted), (theirs, theirs_quoted) = topics(titles), topics(others)
    return bool(_topical(mine) & _topical(theirs) or mine_quoted & theirs or theirs_quoted & mine)


def _topical(words: set[str]) -> set[str]:
    """The words that make a topic: long ones (`interfaces`), or ones shaped like code (`build-watch`)."""
    return {w for w in words if len(w) >= MIN_TOPIC or CODE_SHAPED.search(w)}


def repairs_a_merge(subject: str) -> bool:
    """`Fixed incorrect merge in setup.py`, `Fix bad merge`: a named repair of what a merge resolved."""
    return bool(BAD_MERGE.search(subject))


def cites_pr(message: str, number: int) -> bool:
    """Does MESSAGE name the PR NUMBER by `#N` (cors' `#30: use the vary module`), GitHub's other form
    `GH-N` (rubygems' `Partly reverted GH-6541`) or its link (FreshRSS' `Regression from .../pull/5830`)?
    Not as a squash suffix `(#N)` or in `Merge pull request #N`, which name the change itself."""
    for line in message.splitlines():
        line = PR_SUBJECT.sub("", line)  # (its `(#N)$` alternative is the squash suffix)
        if re.search(rf"(?:(?<![\w/&])(?:#|GH-)|/pull/){number}\b", line, re.IGNORECASE):
            return True
    return False


def cites_pr_going(message: str, number: int) -> bool:
    """Does a sentence of MESSAGE name the PR NUMBER by `#N` and say that what it brought goes (rubocop's `SelfNode
    was introduced by #7729 to prevent NoMethodError, but it is unnecessary because ...`)? A stale tree
    knows nothing of what it undoes, let alone why."""
    return any(cites_pr(sentence, number) and GOES_AWAY.search(PR_SUBJECT.sub("", sentence)) for sentence in sentences(message))


def repairs_the_last_commit(subject: str) -> bool:
    """`Fixed last commit and added test`, `fix previous commit`: a named repair of the commit before."""
    return bool(LAST_COMMIT.search(subject))


def cites_commit(message: str, sha: str) -> bool:
    """Does MESSAGE name the commit SHA (seven or more of its hex digits)? A stale tree never knows
    which commit it undoes; `Fix a typo from 1a2b3c4` does."""
    return any(sha.startswith(token) for token in _hex_tokens(message))


def names_a_commit(message: str) -> bool:
    """Does MESSAGE name some commit by hash (seven or more hex digits, a letter among them)?"""
    return any(not token.isdigit() for token in _hex_tokens(message))


@functools.lru_cache(maxsize=256)  # one message is asked about every candidate of the window
def _hex_tokens(message: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(token.lower() for token in SHA.findall(message)))


def cites_revision(message: str, body: str) -> bool:
    """Does MESSAGE name the Subversion revision a git-svn commit of BODY records (`Fix up r65505` for
    `git-svn-id: <url>@65505 <uuid>`, ruby's mirrored history)?"""
    found = SVN_ID.search(body)
    return found is not None and re.search(rf"\br{found.group(1)}\b", message) is not None


def cites_last_commit(message: str) -> bool:
    """`Simplify last commit by ...`, `Fix the previous commit`: the commit just before the change, named."""
    return LAST_COMMIT.search(message) is not None


def follows_up_a_pr(subject: str) -> bool:
    """`Fixup for #1630.`, `Apply feedback for PR #1181.`: a maintainer's follow-up of a pull request rebased in
    just before it, whose commits carry no number of their own to cite."""
    return FOLLOWS_UP_PR.match(subject) is not None


def _said(pattern: re.Pattern[str], titles: Iterable[str]) -> bool:
    """Whether one of TITLES says what PATTERN finds (the change's subject and its PR's title, say)."""
    return any(pattern.search(title) for title in titles if title)


# a title saying it sets something back to its first state (jwst's `Reset requirements-sdp.txt after release`,
# `wipe requirements-sdp.txt on main branch`, iris' `reset whatsnew latest`)
RESETS = lazy(r"\b(reset(s|ting)?|clear(s|ed|ing)?|wip(e|es|ed|ing)|empt(y|ies|ied|ying))\b", re.IGNORECASE)


def says_resets(titles: Iterable[str]) -> bool:
    return _said(RESETS, titles)


# a title saying it adds what is missing (minijinja's `Added missing conditional compilation flag`)
ADDS_MISSING = lazy(r"\b(add(s|ed|ing)?|restor\w*|put\w* back|fix(es|ed|ing)?)\s+(the\s+|a\s+|an\s+)?missing\b", re.IGNORECASE)


def says_adds_missing(titles: Iterable[str]) -> bool:
    return _said(ADDS_MISSING, titles)


def says_restores(titles: Iterable[str], message: str = "") -> bool:
    """`Unbreak docs frontpage`, `Restore the logo`: bringing back on purpose what a deletion broke; or a
    message saying something was removed by accident (apostrophe's `oops I removed this file by accident`)."""
    return _said(RESTORES, titles) or ACCIDENTAL_REMOVAL.search(message) is not None


# a removal called a mistake, which a stale tree never knows of
ACCIDENTAL_REMOVAL = lazy(r"\b(?:remov|delet|drop)\w*\b[^.\n]{0,40}?\b(?:by (?:accident|mistake)|accidentally|mistakenly)\b|"
                          r"\b(?:accidentally|mistakenly|accidental)\s+(?:remov|delet|drop)\w*", re.IGNORECASE)


def restores_released_entries(titles: Iterable[str], undone_subject: str) -> bool:
    """`docs: restore the 1.16.0 changelog fragments` after `Release 1.15.1`: the release's folding of the
    changelog entries taken back on purpose."""
    return bool(RELEASE_TITLE.match(undone_subject)) and \
        any(RESTORES.search(title) and ENTRIES_WORD.search(title) for title in titles if title)


def formats(subject: str) -> bool:
    """`[ci] format`, `style: run prettier`, `Format code with black`: a formatter's run, which writes no work."""
    return bool(FORMAT_RUN.match(subject))


def names_removed_again(titles: Iterable[str], undone_subject: str, lines: Iterable[bytes]) -> bool:
    """The undone commit's title says what it removed (`remove Python 3.11 from CI`, `remove tox`), the
    change's title names all of it again (`ci: test against Python 3.11`, `Use tox`) and the lines it brings
    back hold it: that removal reversed on purpose. A stale tree's title is about its own work."""
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9_.+-]*", _removal_object(undone_subject)) if w not in ("support", "a", "an")]
    if not words or len(words) > 4:
        return False
    named = " ".join(title for title in titles if title).lower()
    text = b"\n".join(lines).decode("utf-8", "replace").lower()
    return all(_says(w, named) for w in words) and any(w in text for w in words)


def inverts_title(titles: Iterable[str], undone_subject: str) -> bool:
    """A title doing the opposite of the undone title to what both name (`Remove tox pin` after `Pin tox to fix
    CI`, `Use Travis CI` after `Remove Travis config`, `Add back deprecation warnings` after `Silence warnings
    ...`): the change says, in its own words, that it takes that back. The distinctive words of one object
    (before any `to`, `for`, ...) all in the other's (not `tests` or `docs`, which any title may say)."""
    undone = _action(undone_subject)
    if undone is None:
        return False
    for title in titles:
        mine = _action(title or "")
        if mine is not None and mine[0] != undone[0] and mine[1] and undone[1] and \
                (mine[1] <= undone[1] or undone[1] <= mine[1]):
            return True
    return False


# a dependency taken from its development line (`Use dev version of djoths.`, `Use latest typst-hs`, `pin foo to git
# main`), then from a release (`Use released djot 0.1.2.3.`): the pin's lifecycle, said by both titles
DEV_LINE = lazy(r"\b(dev|development|git|master|main|head|nightly|snapshot|unreleased|latest)\b", re.IGNORECASE)
RELEASED = lazy(r"\b(released|release version|stable release|released version)\b", re.IGNORECASE)
MIN_NAME_STEM = 4
PIN_FILLER = frozenset({"version", "versions", "dependency", "dependencies"})  # words naming no dependency


def releases_dev_pin(titles: Iterable[str], undone_subject: str) -> bool:
    """The undone title took something from its development line, and a title of the change takes it from a
    release, both naming it (stems of 4 letters alike: `djoths`, `djot`)."""
    if not DEV_LINE.search(undone_subject):
        return False
    def stems(text: str) -> set[str]:
        return {w[:MIN_NAME_STEM] for w in _title_words(text) if len(w) >= MIN_NAME_STEM and
                w not in COMMON_WORDS and w not in PIN_FILLER and not DEV_LINE.fullmatch(w) and not RELEASED.fullmatch(w)}
    wanted = stems(undone_subject)
    return any(RELEASED.search(title) and stems(title) & wanted for title in titles if title)


# a requirement capped from above or pinned (squeezed): `"black~=22.0",`, `pandas<3.0`, conda's `-pandas>=2.2.0,<3.0`
CAPPED_REQUIREMENT = lazy(rb"^-?[\"']?([A-Za-z][\w.-]*)(\[[^\]]*\])?[^\w\s]*(==|~=|<=?|!=|>=?[^,;]*,\s*<)")


def lifts_caps_by_name(titles: Iterable[str], pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Every line the undone hunks wrote caps or pins a requirement (PAIRS, squeezed), and a title of the change
    names each of those dependencies: a stopgap lifted once the code works with the new release (xclim's `Fix
    ... for Pandas 3` after `Pin pandas below v3.0`, cleanlab's `Fix format compatibility with latest black==23`
    after `cap black version in CI`). A stale copy's title speaks of its own work, not of the pin it drops."""
    written = [line for _, added in pairs for line in added if line]
    found = [CAPPED_REQUIREMENT.match(line) for line in written]
    if not written or not all(found):
        return False
    names = {m.group(1).decode("utf-8", "replace").lower().replace("_", "-") for m in found if m is not None}
    return names <= {w.replace("_", "-") for w in _title_tokens(titles)}


# a dependency taken from a git repository, not a registry, and the manifest lines around such overrides
# (squeezed): Cargo's `[patch.crates-io]` and `noq={git="https://...",branch="main"}`, cargo-deny's `[sources]`
# `allow-git` list of URLs, npm's `"x":"git+https://..."`, pip's `x@git+https://...`
GIT_SOURCE = lazy(rb"\bgit(\+|=|\"?:)|^\[(patch[.\]]|sources\])|^allow-git=|^\"(https?|ssh)://[^\"]+\",?$")
DEPENDENCY_WORDS = lazy(r"\b(deps?|dependenc(y|ies))\b", re.IGNORECASE)
DEPENDENCY_KEY = lazy(rb"^\"?([\w.-]+)\"?=")  # `noq={git=...}`: the dependency a line names
SOURCE_NAME = lazy(rb"://[^\"]*/([\w.-]+?)(?:\.git)?\"")  # and the repository a source URL names (`.../noq"`)


def switches_dependency_source(titles: Iterable[str], pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Every line the undone hunks took out or wrote (PAIRS, squeezed) a dependency's git source or the override
    around it, and a title of the change speaks of dependencies or names one of them: iroh's release steps taking
    `noq` from its git `main` between releases (`Update to latest noq main`) and from crates.io at each (`update
    to 1.0 dependencies`), each undoing the one before. A stale copy's title speaks of its own work."""
    lines = [line for removed, added in pairs for line in (*removed, *added) if line]
    if not lines or not all(GIT_SOURCE.search(line) for line in lines):
        return False
    names = {found.group(1).decode("utf-8", "replace").lower() for line in lines
             for found in (DEPENDENCY_KEY.match(line), SOURCE_NAME.search(line)) if found}
    return any(DEPENDENCY_WORDS.search(title) for title in titles if title) or bool(names & _title_tokens(titles))


def _title_tokens(titles: Iterable[str]) -> set[str]:
    """Every name-like token of TITLES, lower case, short ones too (`noq`; `black==23` gives `black` and `23`)."""
    return {w for title in titles if title for w in re.findall(r"[\w.-]+", title.lower())}


# a title's word in code's shape: a path, a dotted, scoped or snake_case name, a call, camelCase (`/workspace/sentry`,
# `ExecutorUtils.isAgentExecutor()`)
CODE_WORD = lazy(r"(?<![\w./:-])([\w-]*[./:_][\w./:()-]*[\w)]|[a-z]+[A-Z]\w*)")
RESTORING_WORD = lazy(r"(unbreak|restor|re-?add|reinstat|reintroduc|bring|brought|put|add|back)")
MIN_CODE_WORD = 6  # shorter ones (`a.b`, `ci_x`) turn up anywhere
VERSIONISH = lazy(r"v?\d[\d.]*\w*")


def names_what_it_puts_back(titles: Iterable[str], hits: Iterable[tuple[Iterable[bytes], Iterable[bytes]]]) -> bool:
    """A title naming, in code's shape, what the lines put back hold and the undone commit's own lines lack, for
    every file (sentry-ruby's `[devcontainer] switch to /workspace/sentry` over `/workspace/sentry-ruby`): the
    change returns to it on purpose. A stale copy's title speaks of its own work, not of the old lines it carries.
    A title with restoring words names it in any words. HITS: per file, (the lines put back, the undone commit's
    lines taken out), squeezed; no version counts."""
    titles = [title for title in titles if title]
    words = {*(w for title in titles for w in CODE_WORD.findall(title)),
             *(re.sub(r"\s+", "", span) for title in titles for span in CODE_SPAN.findall(title))}
    words = {w for w in words if len(w) >= MIN_CODE_WORD and not VERSIONISH.fullmatch(w)}
    # a title saying it brings something back names it in any words (mamba's `Add pre-commit typos back`)
    words |= {w for title in titles if RESTORES.search(title) for w in _words(title) if not RESTORING_WORD.match(w)}
    if not words:
        return False

    def holds(lines: Iterable[bytes], word: str) -> bool:
        found = re.compile(rb"(?<![\w-])" + re.escape(word.encode()) + rb"(?![\w-])", re.IGNORECASE)
        return any(found.search(line) for line in lines)
    files = [(tuple(back), tuple(gone)) for back, gone in hits]
    return bool(files) and all(any(holds(back, w) and not holds(gone, w) for w in words) for back, gone in files)


def _action(title: str) -> tuple[bool, set[str]] | None:
    """(whether a title turns something on, the distinctive words of what), from the verb it opens with."""
    found = ACTION.match(SQUASH_SUFFIX.sub("", title))
    if found is None:
        return None
    what = OBJECT_END.split(found.group("what").lower(), 1)[0]  # `tox` of `tox to fix CI`
    # (a hyphenated name is its words, `torch-nightly` as `torch nightly`, when each is a word of its own)
    found_words = [part for w in OBJECT_WORD.findall(what)
                   for part in (w.split("-") if HYPHENATED.fullmatch(w) else (w,))]
    words = {w.removesuffix("s") for w in found_words
             if len(w) >= 3 and w not in COMMON_WORDS and w not in OBJECT_FILLER and w not in PROSE_WORDS
             and w not in ACTION_FILLER}
    return found.group("on") is not None, words


def removes_by_name(titles: Iterable[str], lines: Iterable[bytes]) -> bool:
    """A title saying what it removes, every word of that a whole word of the undone LINES, short ones too
    (pexpect's `Remove use of six` for `from six import print_`, nbconvert's `Removing more nose remnants via
    dependencies.` for `'nose',`): the title's own object, not any word of it, so `six` names only six."""
    text = b"\n".join(lines).decode("utf-8", "replace").lower()
    for title in titles:
        words = _removal_words(title)
        if words and len(words) <= 3 and all(len(w) >= 3 and w not in COMMON_WORDS for w in words) and \
                all(_says(w, text) for w in words):
            return True
    return False


def removes_its_topic(titles: Iterable[str], undone_title: str) -> bool:
    """A title saying what it removes or turns off, the distinctive words of that (long, or shaped like code)
    all in UNDONE_TITLE, the undone commit's own: that work named and taken out on purpose, however many files
    go with it (xmake's `disable treeless for git #5507`, minutes after the PR `use treeless instead of depth1`;
    mojo's `Remove once_p method again` with the fix `Allow once_p to be cancelled`). A stale tree names none of
    what it undoes."""
    theirs = _words(undone_title)
    for title in titles:
        named = {w for w in _removal_words(title) if w not in COMMON_WORDS and (len(w) >= MIN_TOPIC or CODE_SHAPED.search(w))}
        if named and named <= theirs:
            return True
    return False


def _removal_words(title: str | None) -> list[str]:
    """The words of what a title with removal wording says it removes, filler (`use of`, `the`, `old`) left out."""
    return [w for w in OBJECT_WORD.findall(_removal_object(title or "")) if w not in OBJECT_FILLER]


def _removal_object(title: str) -> str:
    """What a title with removal wording says it removes (`remove Python 3.11 from CI` gives `python 3.11`; a
    `[skip ci]` after it is an instruction to CI, no part of it: juniper's ``Remove `async-trait` [skip ci]``)."""
    found = REMOVAL_OBJECT.search(CI_TAG.sub("", SQUASH_SUFFIX.sub("", title)))
    return found.group(1).lower() if found else ""


def _says(word: str, text: str) -> bool:
    """TEXT holds WORD whole: not inside a longer name (`nose` is not in `nosetests`, `3.11` not in `3.110`)."""
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text) is not None


def names_brought_back(titles: Iterable[str], paths: Iterable[str]) -> bool:
    """Whether the titles name what the change brings back: each file by its name, or the folder they all
    lie under by its own, distinctive name (tablib's `Vendorized yaml.` for `tablib/packages/yaml/*`; not
    `docs` or `src`, which any title may say, nor a top-level folder such as `requests/`, often the project's
    own name, which a merge's subject says in its URL)."""
    wanted = list(paths)
    text = " ".join(title for title in titles if title and not title.startswith("Merge ")).lower()
    folder = _folder_named(wanted)  # (a top-level folder is often the project's own name, which any title says)
    if len(folder) >= 3 and folder not in COMMON_WORDS and folder not in PROSE_WORDS and \
            CONVENTIONAL_FOLDER.fullmatch(folder) is None and _says(folder, text):
        return True
    return titled_after(titles, wanted)


def _folder_named(paths: Sequence[str]) -> str:
    """The folder PATHS all lie under, by its own name: their common folder below the top level, or the one
    name of the folders they lie in, one a platform (Cemu's `vcpkg_overlay_ports/sdl2/*` and
    `vcpkg_overlay_ports_linux/sdl2/*`); else nothing."""
    common = posixpath.commonpath([path.rpartition("/")[0] for path in paths]) if paths else ""
    if "/" in common:
        return common.rpartition("/")[2].lower()
    names = {posixpath.basename(posixpath.dirname(path)) for path in paths}
    return names.pop().lower() if len(names) == 1 and all(path.count("/") >= 2 for path in paths) else ""


def reenables(titles: Iterable[str], lines: Iterable[bytes], message: str = "") -> bool:
    """The undone lines are code commented out, with comments beside it (mio's `Disable CI for
    arm64_32-apple-watchos` turning `- arm64_32-apple-watchos` into `#- arm64_32-apple-watchos` under a link
    to the bug), and a title says it enables it again (`Enable all targets on the CI that work again`), or a
    line of the message opens so (vue-router's squashed `* fix: enable banner`), or a to-do comment of the
    undone commit above it said it was to come back (MyST's `# TODO <upstream issue>` over its `Make PDF`
    step, uncommented when the upstream fix arrived)."""
    found = [line for line in lines if line]
    comments = {COMMENT_MARK.sub(b"", line, count=1) for line in found if COMMENT_MARK.match(line)}
    code = [line for line in found if not COMMENT_MARK.match(line)]
    return bool(code) and all(line in comments for line in code) and \
        (any(ENABLES.search(title) for title in titles if title) or any(TODO_MARK.match(line) for line in found) or
         any(ENABLING_LINE.match(line) for line in message.splitlines()))


def substitutes(subject: str, undone_added: Sequence[bytes]) -> bool:
    """A subject written as a substitution (`s/bigusize/biguint/`) whose old text is in every line of the
    undone commit that goes: an over-eager search-and-replace set right (num-traits' `Bump to 0.1.7`)."""
    match = SUBSTITUTION.match(subject.strip())
    old = re.sub(rb"\s+", b"", match.group(2).encode()) if match else b""
    return len(old) >= MIN_SUBSTITUTED and bool(undone_added) and all(old in line for line in undone_added)


def unskips(titles: Iterable[str], added: Sequence[bytes], message: str = "") -> bool:
    """A title saying it enables again (`Fix and re-enable a Changelog spec`) what the undone commit marked
    skipped: each of its added lines a test skip (`:pending`, `it.skip(`, `@Ignore`, `xfail`, `GTEST_SKIP()`) or
    a comment (a preprocessor line too). The message may say it in a sentence (cpp-httplib's `This re-enables
    SSLTest.ResponseBodyTerminatedByConnectionClose on mbedTLS.`), in words that say nothing else."""
    return skips_only(added) and \
        (any(ENABLES.search(title) for title in titles if title) or REENABLES.search(message) is not None)


def enables_what_was_off(titles: Iterable[str], added: Sequence[bytes]) -> bool:
    """A title enabling what it names (kopia's `enable modernize:omitzero linter setting`), taking out the lines
    the undone commit wrote to switch that off (`modernize: disable: - omitzero`, a day-old workaround for a
    linter upgrade): the workaround taken back, as the title says."""
    text = b"\n".join(added).decode("utf-8", "replace").lower()
    if not OFF_SWITCH.search(text):
        return False
    for title in titles:
        found = _action(title or "") if title and ENABLES.search(title) else None
        if found is not None and found[0] and found[1] and all(_says(word, text) for word in found[1]):
            return True
    return False


def skips_only(added: Sequence[bytes]) -> bool:
    """Each of ADDED a test skip (`:pending`, `it.skip(`, `@Ignore`, `xfail`, `#[ignore]`, `GTEST_SKIP()`) or a
    comment (a preprocessor line too), one skip at least. A skip written over several lines is one
    (plumbum's `@pytest.mark.skip(` with its condition and reason on the lines below)."""
    code = _statements([line for line in added if line and not COMMENT_MARK.match(line)])
    return bool(code) and all(SKIP_MARK.search(line) for line in code)


# a binary-compatibility filter (whitespace squeezed): MiMa's `exclude[DirectMissingMethodProblem]("a.B.c")`, bare or
# as `ProblemFilters.exclude[...]`, in a list or a `mimaBinaryIssueFilters ++= Seq(` opening one
COMPAT_FILTER = lazy(rb"(?:\w+(?:\+\+|:)?=Seq\()?(?:ProblemFilters\.)?exclude\[\w+Problem\]\(")


def compat_filters_only(added: Sequence[bytes]) -> bool:
    """Each of ADDED a binary-compatibility filter, its name on the line or the next, or a comment; one filter
    at least. Such a filter only excuses a difference from the last release: after the next one it is stale,
    and the checker fails loudly should one still be needed (scala-js' `Towards 1.1.1.` emptying the list)."""
    code = _statements([line for line in added if line and not COMMENT_MARK.match(line)])
    return bool(code) and all(COMPAT_FILTER.match(line) for line in code)


def _statements(lines: Sequence[bytes]) -> list[bytes]:
    """LINES joined where a bracket left open takes arguments on the lines below: one call written over
    lines. An argument line ends with a comma or closes the call; any other line stands alone (the lines
    compared leave out a lone `)`, so a call's end may not be seen)."""
    joined: list[bytes] = []
    depth = 0
    for line in lines:
        change = line.count(b"(") + line.count(b"[") - line.count(b")") - line.count(b"]")
        if depth > 0 and (line.endswith(b",") or depth + change <= 0):
            joined[-1] += line
            depth = max(0, depth + change)
        else:
            joined.append(line)
            depth = max(0, change)
    return joined


def toggles_skips(titles: Iterable[str], pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Every one of PAIRS (a hunk's removed and added lines) a test switched between skipped and run, the same
    line but for its skip mark (`describe(` and `xdescribe(`, `it(` and `it.skip(`), under a title speaking of
    tests or of switching them (nightwatch's `disable failing tests`, `fix test for browserstack transport`): which
    tests run, chosen on purpose. A stale tree that switches one back says nothing of tests."""
    found = list(pairs)
    return bool(found) and all(
        len(removed) == len(added) and any(SKIP_MARK.search(line) for line in (*removed, *added)) and
        [_unskipped(line) for line in removed] == [_unskipped(line) for line in added] for removed, added in found) and \
        any(TESTS_WORD.search(title) or DISABLES.search(title) or ENABLES.search(title) for title in titles if title)


def switches_back_off(message: str, pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Every one of PAIRS (a hunk's removed and added lines) a setting switched on that the change switches back
    off, the same lines but for `true` and `false` (`enabled`, `yes`, `on`), in a change whose message says it
    disables (gitness' `disable feature flags that were enabled by mistake`, flagger's `Disable galley and MCP`
    in its branch's commit): a choice made on purpose. A stale tree that switches one back says nothing of it."""
    found = list(pairs)
    return bool(found) and all(removed and len(removed) == len(added) and
                               [line.lower() for line in removed] == [_switched_off(line) for line in added] and
                               any(ON_VALUE.search(line) for line in added) for removed, added in found) and \
        SWITCHES_OFF.search(message) is not None


def _switched_off(line: bytes) -> bytes:
    """LINE (lower-cased) with each switch in it set off: `enabled: true` as `enabled: false`."""
    return ON_VALUE.sub(lambda found: OFF_VALUES[found.group(0)], line.lower())


ON_VALUE = lazy(rb"\b(true|yes|on|enabled?)\b", re.IGNORECASE)
OFF_VALUES = {b"true": b"false", b"yes": b"no", b"on": b"off", b"enabled": b"disabled", b"enable": b"disable"}
SWITCHES_OFF = lazy(r"\bdisabl\w*|\b(turn|switch)\w* (it |them )?off\b|\btoggle[_ -]?off\b", re.IGNORECASE)


def _unskipped(line: bytes) -> bytes:
    """LINE without its test skip mark: `xdescribe(` as `describe(`, `it.skip(` as `it(`."""
    return SKIP_TOGGLE.sub(rb"\1(", line)


SKIP_TOGGLE = lazy(rb"\bx?(it|describe|test|context)(?:\.skip)?\(")


def backs_out(message: str, sha: str) -> bool:
    """Whether MESSAGE says it reverts the commit SHA by its id (cachecontrol's `Backing out the fix to #38
    (cf58413).`, `Revert 1a2b3c4`)."""
    return bool(REVERT_WORDS.search(message)) and cites_commit(message, sha)


def says_stray(titles: Iterable[str]) -> bool:
    """`Remove spurious changes`, `Revert stray edits to the docs`, `fix merge artifact`: undoing on purpose
    what slipped in."""
    return _said(STRAY, titles)


def removes_debug_output(titles: Iterable[str], lines: Iterable[bytes]) -> bool:
    """A title saying it removes logging or debug output (phoenix_live_view's `remove log`), and every
    undone line is a print or a dump (`console.log("rendering keyed", structuredClone(rendered));`), or a call
    of the project's own logger when the title says log (janus' `Remove unneeded log line` for
    `JANUS_LOG(LOG_HUGE, ...)`), the `if` that guarded it aside."""
    said = [title for title in titles if title and DEBUG_REMOVAL.search(title)]
    # (the `if` that only guarded that output goes with it: OvenMediaEngine's `Remove debug log`)
    found = [line for line in lines if line and not DEBUG_GUARD.fullmatch(line)]
    return bool(said) and (prints_only(found) or bool(found) and any(LOG_WORD.search(title) for title in said) and
                           all(LOG_CALL.fullmatch(line) for line in found))


def says_removes_comments(titles: Iterable[str]) -> bool:
    """A title saying it takes out comments or code commented out (Haraka's `Remove commented code`)."""
    return _said(REMOVES_COMMENTS, titles)


def speaks_of_imports(titles: Iterable[str]) -> bool:
    """A title about the imports themselves (neomutt's `iwyu: fix headers`, `tidy code, fix #includes`,
    `Organize imports`): a tool's or a tidy-up's sort, prune or repair of them."""
    return _said(IMPORTS_WORD, titles)


def says_fixes_regression(titles: Iterable[str]) -> bool:
    """`Fix regression when loading metadata (#1327)`, `fix regression from 8a17ab7`: the change undoes what
    broke, on purpose (hatch's `Slight fix` taken back 13 hours later)."""
    return _said(REGRESSION, titles)


def says_deletes(titles: Iterable[str]) -> bool:
    """`MNT remove unnecessary file`, `remove noise`, `file commited by mistake`: a deletion said, or its reason."""
    return _said(DELETES, titles)


def says_temporary(subject: str) -> bool:
    """`Stop testing Python 3.6 until 3.6b4 is out`, `Pin tox for now`, `Work around a cffi bug`, `Comment
    out X`, `Try if X`, `accept wip`, `Disable all crates except tower-service`, `temp: manual 0.0.0`, `add debug
    lines`, `Investigate flaky upload`, `debug windows`: a change meant to be undone or reworked."""
    return bool(TEMPORARY.search(subject) or DISABLES.match(subject) or TEMP_PREFIX.match(subject) or
                DEBUGGING.search(subject))


def speaks_of_translation(subject: str) -> bool:
    """A subject about translating (`Add Chinese locale`, `Update German translation`, `i18n: fr`)."""
    return TRANSLATING.search(subject) is not None


TRANSLATING = lazy(r"(?<![a-z])(locales?|locali[sz]\w*|translat\w*|l10n|i18n)(?![a-z])", re.IGNORECASE)


def syncs_translations(title: str) -> bool:
    """A title saying it commits a translation platform's export (`Localisation updates from https://translatewiki.net.`),
    or the platform's own title for one (Crowdin's `New Crowdin updates`)."""
    return all(word.search(title) for word in (TRANSLATION_PLATFORM, TRANSLATED, SYNC_WORD)) or \
        PLATFORM_UPDATES.search(title) is not None


def says_generates(subject: str) -> bool:
    """A subject saying a tool wrote the commit's files (`Generate new screengrabs`, `Regenerate docs`)."""
    return GENERATES.search(subject) is not None


def notes_its_own_undoing(lines: Iterable[bytes]) -> bool:
    """Whether the undone lines (whitespace dropped) hold a to-do note that the change is to be undone: trio's
    `# FIXME: change the "python" link back to /3 when Python 3.11 is released`, `# TODO: Re-enable once
    linkcheck stops causing 429s` (nbconvert), `# TODO: remove once X is
    fixed`, `# HACK until the upstream fix lands`, axum's placeholder `// This example has not yet been updated
    to Hyper 1.0` that its port replaces. So does a workaround tied to what ends it: a to-do note naming a
    tracked issue or a release and what is to happen (`TODO(Rust 1.86): remove`, `TODO-GLOAS Fix test
    <issue>`) or over a skip (`// TODO #9795` with `@Disabled`, `continue-on-error: true`), a test skipped with
    an issue for its reason: the change that closes it takes them out, which no stale copy knows to do. (A
    note naming only an issue, beside a line of no workaround, says nothing of its going.)"""
    found = [line for line in lines if line]
    if any(TODO_UNDO.search(line) for line in found):
        return True
    # (asked in that order, each only where it can still decide: a stale tree's 200 files hold no to-do word)
    text = b"\n".join(found).lower()
    tracked = [line for line in found if TRACKED_TODO.search(line)] if any(word in text for word in TODO_WORDS) else []
    if any(TRACKED_ACTION.search(line) for line in tracked):
        return True
    return (bool(tracked) or ISSUE_LINK.search(text) is not None) and \
        any(SKIP_MARK.search(line) or WORKAROUND_MARK.search(line) for line in found)


def awaits_the_change(lines: Iterable[bytes], number: int | None) -> bool:
    """Whether the undone lines (whitespace dropped) name the change's own pull request as what removes them:
    discord.js' `// @ts-expect-error fixed in https://github.com/discordjs/discord.js/pull/11108`, taken out
    by #11108 itself."""
    if number is None:
        return False
    named = re.compile(rb"(/pull/|#)%d(?!\d)" % number)
    return any(named.search(line) for line in lines)


def sets_versions(titles: Iterable[str], undone: Iterable[bytes]) -> bool:
    """A release or version bump (`Bump version to 8.3.dev`) whose undone lines all hold a version number or
    the placeholder a release fills in: versions cycle (8.3.dev, 8.3.1, 8.3.dev again), so a value coming
    back is the release at work."""
    lines = list(undone)
    return bool(lines) and any(RELEASE_TITLE.match(t) for t in titles if t) and \
        all(VERSION_NUMBER.search(line) or VERSION_PLACEHOLDER.search(line) or RELEASE_FLAG.match(line) for line in lines)


def names_release(titles: Iterable[str], versions: Iterable[str]) -> bool:
    """A release title naming a version it writes (`23.1.1`, `Version 0.20` for 0.20.0): releasing from
    main sets its dev version back on purpose."""
    wanted = list(versions)
    return any(RELEASE_TITLE.match(title) and any(named in version for named in VERSION_IN_TITLE.findall(title)
                                                  for version in wanted) for title in titles if title)


def names_versions(titles: Iterable[str], versions: Iterable[str]) -> bool:
    """Whether the titles name every version the change writes lower (`mitmproxy 12.2.3` over `13.0.0.dev`,
    `cargo: set MSRV to 1.85` over 1.88): a stale tree never announces the old value it brings back."""
    named = {number for title in titles if title for number in VERSION_IN_TITLE.findall(title)}
    wanted = list(versions)
    return bool(wanted) and all(any(_is_named(number, version) for number in named) for version in wanted)


def _is_named(number: str, version: str) -> bool:
    """`0.20` names 0.20.0 and `1.85` names 1.85; `2.0` names neither 12.0 nor 2.01."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", version) is not None


def placeholders_only(lines: Iterable[bytes]) -> bool:
    """Every one of LINES (whitespace squeezed) a changelog's placeholder for the next release: zest.releaser's
    `5.3.0a2 (unreleased)` heading and `- Nothing changed yet.`, rubocop's `<<next>>`. They are written to be
    replaced: taking them out loses nothing."""
    found = [line for line in lines if line]
    return bool(found) and all(CHANGELOG_PLACEHOLDER.search(line) for line in found)


def toggles_comments(pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]], mark: re.Pattern[bytes] = COMMENT_MARK) -> bool:
    """Whether every one of PAIRS (a hunk's removed and added lines, squeezed) only comments lines out or in:
    the same lines on both sides but for a comment MARK (`"neo @ git+https://..."` and
    `# "neo @ git+https://..."`, `DEV_MODE = True` and `# DEV_MODE = True`; DOCUMENT_COMMENT's `.. Upcoming Version`)."""
    found = [(removed, added) for removed, added in pairs if removed or added]
    return bool(found) and all(
        Counter(removed) != Counter(added) and
        Counter(mark.sub(b"", line) for line in removed) == Counter(mark.sub(b"", line) for line in added)
        for removed, added in found)


def comments_toggled(pairs: Iterable[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Whether a line of one side of PAIRS (hunks' removed and added lines, squeezed) is a line of the other
    side commented out: something commented in or out, in any hunk (pychess-variants' `black`, whose commit
    also commented out a test toggle, its old lines in a hunk of their own)."""
    removed = {line for taken, _ in pairs for line in taken}
    added = {line for _, written in pairs for line in written}
    def bare(lines: set[bytes]) -> set[bytes]:
        return {COMMENT_MARK.sub(b"", line, count=1) for line in lines if COMMENT_MARK.match(line)}
    return bool(bare(added) & removed or bare(removed) & added)


def reopens_dev_heading(pairs: Sequence[tuple[Sequence[bytes], Sequence[bytes]]]) -> bool:
    """Whether PAIRS (a changelog's hunks' removed and added lines, squeezed) only comment its heading for the
    next release's entries out or in (rst's `.. Upcoming Version` over its underline): a release closes it
    over the entries it ships, the next entry opens it again. A stale copy also drops the release's section."""
    lines = [DOCUMENT_COMMENT.sub(b"", line) for removed, added in pairs for line in (*removed, *added)]
    return toggles_comments(pairs, DOCUMENT_COMMENT) and any(DEV_HEADING.match(line) for line in lines) and \
        all(DEV_HEADING.match(line) or UNDERLINE.match(line) for line in lines)


def release_step(title: str) -> bool:
    """`release 9.16.1`, `back to dev`, `Publish 6.4.8`, `chore: release v3.2.3`: a step of a release."""
    title = without_emoji(title)
    return bool(RELEASE_TITLE.match(title) or RELEASE_STEP.match(title) or RELEASE_NAMED.search(title))


# pinning a multi-module repository's modules to their released versions for a release, and back to the
# local copies after it: in a title (`pin to kyaml 0.14.3`, `Unpin modules`) or a merged branch's name
# (`from natasha41575/pinkyaml`, `KnVerey/pinToApi`)
PINS = lazy(r"(?:^|[^a-z])pin(?:s|ned|ning)?(?![a-z])|/pin", re.IGNORECASE)
UNPINS = lazy(r"(?:^|[^a-z])unpin|/unpin|\bback to dev(?:elopment)?\b|\bdevelopment mode\b", re.IGNORECASE)


def pin_cycle(titles: Iterable[str], undone_titles: Iterable[str]) -> bool:
    """The change says it unpins (`Unpin modules`, `Back to development mode; unpin the modules`, a branch
    `/unpineverything`) and the undone commit said it pins: a release's pin step taken back as planned."""
    return any(UNPINS.search(t) for t in titles if t) and \
        any(PINS.search(t) and not UNPINS.search(t) for t in undone_titles if t)


def release_steps(subject: str, other: str, lines: Iterable[bytes], written: Iterable[bytes]) -> bool:
    """Both subjects are release steps (`release 9.16.1`, `back to dev`, `Publish 6.4.8`) and every one of
    LINES but blank ones sets a version (it says `version`, holds a version number or is a changelog's `dev`
    heading): release bookkeeping, undone and redone at every release (ipython's `release.py`, notebook's
    `_version.py` and tbump's `current`, pipx's `Pre-release` / `Post-release` changelog heading, Maven's release
    plugin). A SUBJECT naming another version than the change writes (WRITTEN: `Release 27.0` writing 26.0) is none,
    unless it rolls that release back."""
    found = [line for line in lines if line.strip()]
    if not (release_step(subject) and release_step(other) and found and
            all(b"version" in line.lower() or VERSION_NUMBER.search(line) or DEV_HEADING.match(line) or
                RELEASE_POM_LINE.match(line) or VERSION_PART.search(line) or RELEASE_FLAG.match(line) for line in found)):
        return False
    text = b"\n".join(written).decode("utf-8", "replace")
    named = [] if RELEASE_ROLLBACK.search(subject) else VERSION_IN_TITLE.findall(subject)
    return not (named and VERSION_IN_TITLE.search(text)) or any(version in text for version in named)


def speaks_of_release(titles: Iterable[str], versions: Iterable[str]) -> bool:
    """`Bump for release`, `Fix version number`: the change is about the version it writes (VERSIONS). A
    title naming another version than it writes (`Release 0.12.0` writing 0.10.1) is no such release."""
    wanted = list(versions)
    return any(RELEASE_WORDS.search(title) and all(any(named in version for version in wanted)
                                                   for named in VERSION_IN_TITLE.findall(title))
               for title in titles if title)


def says_version_back(titles: Iterable[str], taken_out: Sequence[bytes]) -> bool:
    """`Switch docs version back`, `Switch back docs version to master` after a release, every line the change
    takes out there holding a version: the release's own step undone as its ritual says."""
    return bool(taken_out) and all(VERSION_NUMBER.search(line) for line in taken_out) and \
        any(VERSION_BACK.search(title) for title in titles if title)


def says_lowers(titles: Iterable[str], lines: Iterable[bytes] = ()) -> bool:
    """`Lower MSRV to 1.75`, `Downgrade X`, `Pin Y to 2.x`: a version set back on purpose; not when it names
    what it pins or downgrades and that is none of LINES' (glamour's `pin lipgloss to v1.1.0` setting
    `golang.org/x/net` back with a stale go.mod)."""
    text = b"\n".join(lines).lower()
    for title in titles:
        if not title or not LOWERS.search(title):
            continue
        named = LOWERED_OBJECT.search(title)
        if named is None or not text or named.group(1).lower() in GENERIC_OBJECTS or named.group(1).lower().encode() in text:
            return True
    return False


def downgrades_by_name(message: str, lines: Iterable[bytes]) -> bool:
    """A line of MESSAGE downgrades or pins something by name (rspack's `revert: downgrade css-module-lexer
    to 0.0.15`, under a title `css-module-lexer 0.0.16 → 0.0.15`) and every undone line is that one's: a
    version set back on purpose and said so, whatever a patch level tells of order."""
    found = [line.lower() for line in lines if line]
    for said in message.splitlines():
        named = LOWERED_OBJECT.search(said)
        if named is None or named.group(1).lower() in GENERIC_OBJECTS:
            continue
        name = re.compile(rb"(?<![\w-])" + re.escape(named.group(1).lower().encode()) + rb"(?![\w-])")
        if found and all(name.search(line) for line in found):
            return True
    return False


def names_bumped(message: str, subject: str, lines: Iterable[bytes], body: str = "") -> bool:
    """Whether MESSAGE names the dependency the bump SUBJECT moved on (`Update turbo 2.5.4 → 2.5.5`, `Bump
    black from 23.1 to 24.1`), and the undone LINES are that dependency's: a change setting its version
    back says why (tailwindcss' `Seems like updating Turbo caused bun to break`). A pre-commit.ci
    autoupdate names its hooks in its BODY (`- [github.com/pre-commit/mirrors-eslint: v8.52.0 → v8.53.0]`),
    whose undone line holds only the version (pytest-html's `fix: Latest eslint is broken`)."""
    undone = b"\n".join(lines).decode("utf-8", "replace").lower()
    text = message.lower()

    def named(name: str) -> bool:
        return len(name) >= MIN_NAME - 1 and re.search(rf"(?<![\w@/-]){re.escape(name)}(?![\w-])", text) is not None

    bump = BUMP_SUBJECT.match(subject)
    if bump is not None:
        name = bump.group(1).lower()
        return any(n in undone and named(n) for n in {name, name.rpartition("/")[2]})
    return any(new.lower() in undone and any(named(n) for n in {hook.lower(), hook.lower().removeprefix("mirrors-")})
               for hook, new in HOOK_UPDATE.findall(body))


def spells_stems(titles: Iterable[str], paths: Iterable[str]) -> bool:
    """Whether the titles spell every one of PATHS by the words of its file name's stem, two or more, in any
    separators (azure-functions-host's `Reset release notes` for `release_notes.md`); one word (`changelog`)
    names any such file, not this one."""
    text = " ".join(title for title in titles if title).lower()
    wanted = list(paths)
    for path in wanted:
        words = [w for w in re.split(r"[-_\s]+", path.lower().rpartition("/")[2].partition(".")[0]) if w]
        if len(words) < 2 or re.search(rf"(?<![\w-]){_spelled(words)}(?![\w-])", text) is None:
            return False
    return bool(wanted)


def titled_after(titles: Iterable[str], paths: Iterable[str]) -> bool:
    """Whether the titles name every one of PATHS by its file name (`Update README.rst`, `unhack pyproject.toml`,
    `fix X in Dockerfile`): the change was made looking at that very file. (Not `Adjust changelog`: an entry
    taken out for another is lost work, test_revert_stale_shape.)"""
    text = " ".join(titles).lower()
    wanted = list(paths)
    return bool(wanted) and all(_titled(text, path.lower()) for path in wanted)


def _titled(text: str, path: str) -> bool:
    """TEXT names PATH by its file name, or an entry point (`main.rs`, `index.ts`) by the folder it is the
    entry point of, in any spelling of its separators (`Update graceful shutdown example` for
    `examples/graceful-shutdown/src/main.rs`)."""
    folders, _, name = path.rpartition("/")
    if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text):
        return True
    if ENTRY_POINT.fullmatch(name) is None:
        return False
    named = [folder for folder in folders.split("/") if folder and folder not in SOURCE_FOLDERS]
    words = re.split(r"[-_\s]+", named[-1]) if named else []
    return len(named[-1] if named else "") >= MIN_NAME and \
        re.search(rf"(?<![\w.]){_spelled(words)}(?![\w]|[-_.]\w)", text) is not None


def _spelled(words: list[str]) -> str:
    """A pattern for WORDS in a row, whatever separates them (`graceful shutdown`, `graceful-shutdown`)."""
    return r"[-_\s]+".join(re.escape(word) for word in words)


def runs_go_tool(titles: Iterable[str], paths: Iterable[str]) -> bool:
    """`Run go mod tidy`, `go get github.com/zclconf/go-cty@v1.1.0`: Go's own tool rewrote the module files
    PATHS (all `go.mod`), dropping requirements no code uses and moving others on."""
    return all(path.rpartition("/")[2] == "go.mod" for path in paths) and \
        any(GO_TOOL.search(title) for title in titles if title)


def says_regenerates(titles: Iterable[str], paths: Iterable[str], message: str = "") -> bool:
    """`Regenerate options`, `Rebuild snapshots`, `Update generated test files`: the change writes PATHS from
    their generator, each one named by a word of the title (isort's `docs/configuration/options.md`, date-fns'
    `src/locale/*/snapshot.md`, eza's `tests/gen/*.stdout`), or of a MESSAGE line that opens so (Alamofire's
    release squash: `* Regenerated jazzy docs for the 5.0.0-beta.6 release`)."""
    opening = [line for line in message.splitlines()[1:] if REGENERATES_LINE.match(line)]
    said = [title.lower() for title in (*titles, *opening) if title and REGENERATES.search(title)]
    names = {word.rstrip("s") for title in said for word in re.findall(r"[a-z]{4,}", REGENERATES.sub(" ", title))
             if word not in TITLE_FILLER}
    wanted = [path.lower() for path in paths]
    return bool(names) and bool(wanted) and all(any(name in path for name in names) for path in wanted)


def merges_a_release_line(subject: str, title: str = "") -> bool:
    """`Merge branch '2.0.x'`: a maintenance line merged forward, whose pins and wording main then adapts; or a
    pull request titled so (emqx's `sync release-58`, `` sync `release-63` to `master` ``)."""
    return bool(MAINTENANCE_MERGE.match(subject) or title and SYNCED_RELEASE.match(title))


def _names(line: str, path: str) -> bool:
    base = path.rsplit("/", 1)[-1].lower()
    stem = base.rsplit(".", 1)[0]
    folder = path.rsplit("/", 2)[-2].lower() if path.count("/") >= 1 else ""
    joined = re.sub(r"[_-]", "", stem)  # the type a module is named after: `AtomicCell` for `atomic_cell.rs`
    tested = TEST_AFFIX.sub("", stem)  # what a test file tests: `websockets` for `test_websockets.py`
    one = tested[:-1] if tested.endswith("s") else ""  # and in the singular (`Removing WIP websocket stuff`)
    return path.lower() in line or base in line.split() or any(
        len(name) >= MIN_NAME and re.search(rf"\b{re.escape(name)}s?\b", line)
        for name in (base, stem, folder, joined if joined != stem else "", tested if tested != stem else "", one))


def parse_acks(text: str) -> Declarations:
    """The ack file: one `SHA reason` or `#N reason` per line; `# ...` lines are comments."""
    shas: set[str] = set()
    prs: set[int] = set()
    reasons: dict[str, str] = {}
    for raw in text.splitlines():
        ref, _, reason = raw.strip().partition(" ")
        if re.fullmatch(r"#\d+", ref):
            prs.add(int(ref[1:]))
        elif re.fullmatch(r"[0-9a-fA-F]{7,40}", ref):
            shas.add(ref.lower())
        else:
            continue
        reasons[ref.lower()] = reason.strip()
    return Declarations(frozenset(shas), frozenset(prs), frozenset(), reasons)


def pr_number(commit: Commit) -> int | None:
    """The PR number: `Merge pull request #N ...`, a `(#N)` subject suffix, or GitLab's `See merge request g/p!N`."""
    number = subject_pr(commit.subject)
    if number is not None:
        return number
    gitlab = GITLAB_BODY.search(commit.body)
    return int(gitlab.group(1)) if gitlab else None


def subject_pr(subject: str) -> int | None:
    """The PR number a subject gives: `Merge pull request #N ...`, a `(#N)` suffix, bors' `Merge #N`."""
    match = PR_SUBJECT.search(subject)
    return int(match.group(1) or match.group(2) or match.group(3) or match.group(4)) if match is not None else None


def pr_title(commit: Commit) -> str:
    """A merge commit's PR title (the body's first line; bors' without its number and reviewers), else the
    subject."""
    return title_of(commit.subject, commit.body)


def title_of(subject: str, body: str) -> str:
    """What a commit of SUBJECT and BODY calls itself: a merged PR's title, as `pr_title` reads it."""
    gitea = GITEA_MERGE.match(subject)
    if gitea is not None:  # (its body holds trailers, `Reviewed-on: URL`, not the title)
        return gitea.group(1)
    if subject.startswith("Merge pull request") and body.strip():
        return body.strip().splitlines()[0].strip()
    gerrit = GERRIT_MERGE.match(subject)
    if gerrit is not None:
        return gerrit.group(1)
    symfony = SYMFONY_MERGE.match(subject)
    if symfony is not None and SYMFONY_BODY.match(body):
        return symfony.group(1)
    if subject.startswith("Merge #") and body.strip():
        bors = BORS_TITLE.match(body.lstrip().splitlines()[0])
        if bors is not None and int(bors.group(1)) == subject_pr(subject):
            return bors.group(2)
    return subject.strip()


def is_revert(commit: Commit) -> bool:
    """A commit that itself reverts something: undoing it re-lands the original (not a silent revert)."""
    # a squash body lists its inner commits, reverts of its own work included: only the opening counts
    return bool(REVERT_SUBJECT.match(pr_title(commit)) or ROLLBACK_OF.match(commit.subject) or
                reverted_revisions(commit)) or commit.body.lstrip().startswith("This reverts commit")
