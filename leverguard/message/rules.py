"""The message rules as data: each an id, a name, the options it reads, and a pure check."""

from __future__ import annotations

import re

from leverguard.message import sections as sec
from leverguard.message.model import CHANGING, CO_AUTHOR_PLACEHOLDER, SECTION_OF, Change, Context, Violation
from leverguard.records import NamedTuple
from leverguard.message.settings import RULE_IDS as RULE_IDS  # each rule's id, checked against RULES by a test
from leverguard.message.trailers import TRAILER_KEYS, trailer_key, why_unseen

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Callable

VERB = {"HARD-WIRED": "hard-wires {}", "REVERTED": "reverts {}", "DIAGNOSTIC-DELETED": "deletes {} (a diagnostic)",
        "WIN-BODY-MISSING": "deletes {} together with its win body"}
CO_AUTHOR = "co-authored-by"
# Patterns are strings compiled on first use (re caches them): a message that needs none pays nothing.
CO_AUTHOR_VALUE = r"^[^<>@]*[^<>@\s]\s+<[^<>@\s]+@[^<>@\s]+\.?[^<>@\s]*>$"
CO_AUTHOR_LOOKALIKES = {"coauthoredby", "coauthor", "coauthors", "coauthored", "coauthorby", "cowrittenby"}


class Rule(NamedTuple):
    id: str
    name: str
    description: str
    options: tuple[str, ...]  # the configuration keys it reads
    trailer_rule: bool  # checked on merge, fixup!/squash!/amend! and Revert commits too
    check: Callable[[Context], list[Violation]]


def co_author_required(ctx: Context) -> bool:
    """`required`: always; `levers` (the default): when the change moves a lever or touches `co_author_paths`."""
    if ctx.settings.co_author == "levers":
        return ctx.scoped or any(c.kind in CHANGING for c in ctx.changes)
    return ctx.settings.co_author == "required"


def co_author(ctx: Context) -> list[Violation]:
    """Every Co-Authored-By trailer is well formed and seen by git; one is there when the change needs it."""
    found = []
    seen_lines = ctx.trailers.lines()
    for trailer in ctx.trailers.named(CO_AUTHOR):
        if trailer.value == CO_AUTHOR_PLACEHOLDER:
            found.append(Violation(trailer.line or 1, "the Co-Authored-By placeholder is not filled in: write "
                                   "Co-Authored-By: Jane Doe <jane@example.com>, or delete the line when "
                                   "nobody co-authored the change"))
        elif not re.match(CO_AUTHOR_VALUE, trailer.value):
            found.append(Violation(trailer.line or 1, f"Co-Authored-By value {trailer.value!r} is not `Name <email>`: "
                                   "write it as Co-Authored-By: Jane Doe <jane@example.com>"))
    for line in ctx.message.lines[1:]:
        key = line.text.partition(":")[0].strip()
        if not line.text.count(":") or len(key) > 40:
            continue
        if key.lower() == CO_AUTHOR and line.number not in seen_lines:
            found.append(Violation(line.number, "git does not see this Co-Authored-By trailer: "
                                   + why_unseen(ctx.message, line.number, ctx.separators)))
        elif key.lower() != CO_AUTHOR and _letters(key.lower()) in CO_AUTHOR_LOOKALIKES:
            found.append(Violation(line.number, f"{key!r} is not a co-author trailer: write "
                                   "Co-Authored-By: Name <email>"))
    if not ctx.trailers.named(CO_AUTHOR) and not found and co_author_required(ctx):
        hint = ctx.settings.co_authors[0] if ctx.settings.co_authors else "Name <email>"
        found.append(Violation(_end_line(ctx), f"no Co-Authored-By trailer{_why_required(ctx)}: end the message "
                               f"with a blank line and Co-Authored-By: {hint}"))
    return found


def _why_required(ctx: Context) -> str:
    if ctx.settings.co_author == "required":
        return ""
    changing = [c for c in ctx.changes if c.kind in CHANGING]
    if changing:
        return f" (the diff {_summary(changing)}; a lever change needs one)"
    return " (the change touches message.co_author_paths)"


def subject(ctx: Context) -> list[Violation]:
    """The subject line is a summary, not a section or a trailer that git moved up over empty lines."""
    first = ctx.message.lines[0]
    named = sec.header_pattern(ctx.settings.sections).match(first.text) if sec.may_hold_headers(
        ctx.message.lines[:1], ctx.settings.sections) else None
    key = (trailer_key(first.text, ctx.separators) or "").lower()
    if named is None and (key not in TRAILER_KEYS or key in (CO_AUTHOR, "leverguard-skip")):
        return []  # the co-author and skip rules explain a trailer in the subject themselves
    return [Violation(first.number, f"the subject line is empty: git drops blank lines at the top, so "
                      f"{_shown(first.text)} became the subject; write a one-line summary on the first line, "
                      "then a blank line")]


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def lever_pitfalls(ctx: Context) -> list[Violation]:
    """What the staged change leaves behind: a deleted win, a stale env injection, a partial cleanup, an orphan.

    Kinds in `message.pitfall_errors` (WIN-BODY-MISSING, STALE-INJECTION, PARTIAL by default) refuse
    the commit; ORPHANED-FUNCTION warns, and is a note when the message names the function (a known
    orphan). A PARTIAL lever listed in a section is left to lever-coverage, which says the same.
    """
    found = []
    listed = _listed(ctx) if any(p.kind == "PARTIAL" for p in ctx.pitfalls) else {}
    body = "\n".join(line.text for line in ctx.message.lines[1:])
    for pitfall in ctx.pitfalls:
        if pitfall.kind == "PARTIAL" and pitfall.name in listed:
            continue
        severity = "error" if pitfall.kind in ctx.settings.pitfall_errors else "warning"
        text = f"{pitfall.kind} {pitfall.name} at {pitfall.path}:{pitfall.line}: {pitfall.message}"
        if pitfall.kind == "ORPHANED-FUNCTION" and severity == "warning" and re.search(
                rf"(?<![\w]){re.escape(pitfall.name)}(?![\w])", body):
            severity, text = "note", f"{text} (named in the message: a known orphan)"
        found.append(Violation(_end_line(ctx), text, severity))
    return found


def ledger_delta(ctx: Context) -> list[Violation]:
    """A hard-wired lever's delta agrees with the one its ledger row records (a mis-copied number is a finding)."""
    recorded = {c.lever: c for c in ctx.changes if c.ledger}
    if not recorded:
        return []
    from leverguard.levers.classify.delta import agrees, deltas

    found = []
    known = sec.aliases(list(recorded), ctx.settings.lever_prefixes)
    for section in (s for s in ctx.sections if s.key == "hard_wired"):
        for entry in section.entries:
            for lever, span in sec.lever_mentions(entry, known, ctx.patterns).items():
                change = recorded.get(lever)
                written = deltas(span)
                ledger = deltas(change.ledger) if change else []
                if change and written and ledger and not any(agrees(ledger[0], d) for d in written):
                    found.append(Violation(entry.line, f"{lever}: the message says {written[0].text}, but its ledger "
                                           f"row {change.ledger_at} records {change.ledger}: copy the measured "
                                           "number, or correct the ledger"))
    return found


def _letters(text: str) -> str:
    """`re.sub("[^a-z]", "", text)` without compiling a pattern on every plain commit."""
    return "".join(char for char in text if "a" <= char <= "z")


def lever_sections(ctx: Context) -> list[Violation]:
    """With lever changes in the diff, every section is in the body, once, and answered."""
    changing = [c for c in ctx.changes if c.kind in CHANGING]
    if not changing:
        return []
    found = []
    missing = [f"`{name}:`" for key, name in ctx.settings.sections.items() if not _has(ctx, key)]
    if missing:
        what = f"section {missing[0]}" if len(missing) == 1 else f"sections {', '.join(missing)}"
        found.append(Violation(_end_line(ctx), f"missing {what}: the diff {_summary(changing)}; add "
                               f"{'it' if len(missing) == 1 else 'them'} above the trailers (`none` answers a "
                               "section where nothing applies; leverguard template prints them pre-filled)"))
    for key, name in ctx.settings.sections.items():
        places = [s for s in ctx.sections if s.key == key]
        if not places:
            continue
        if len(places) > 1:
            found.append(Violation(places[1].line, f"section `{name}:` appears twice (first on line "
                                   f"{places[0].line}): merge them"))
        elif not places[0].answered():
            found.append(Violation(places[0].line, f"section `{name}:` is empty: answer it (write `none` when "
                                   "nothing applies)"))
    trailer_lines = {line.number for line in ctx.trailers.paragraph}
    inside = [s for s in ctx.sections if s.line in trailer_lines]
    if inside:
        names = ", ".join(f"`{s.name}:`" for s in inside)
        what = f"section {names} is" if len(inside) == 1 else f"sections {names} are"
        found.append(Violation(inside[0].line, f"{what} in the trailer paragraph: keep the sections in the body, "
                               "then a blank line, then the trailers"))
    return found


def lever_delta(ctx: Context) -> list[Violation]:
    """Every lever listed under `Hard-wired:` comes with a measured delta."""
    found = []
    known = sec.aliases([c.lever for c in ctx.changes], ctx.settings.lever_prefixes)
    for section in (s for s in ctx.sections if s.key == "hard_wired"):
        for entry in section.entries:
            for lever, span in sec.lever_mentions(entry, known, ctx.patterns).items():
                if not sec.has_delta(span):
                    found.append(Violation(entry.line, f"{lever} has no measured delta: write a signed number with "
                                           "a unit (-3.1 us, +4.2%) or before -> after (27.4 -> 24.9 us)"))
    return found


def lever_coverage(ctx: Context) -> list[Violation]:
    """Every lever the diff changes is in its section, and every lever listed is changed that way."""
    listed = _listed(ctx)
    by_lever = {c.lever: c for c in ctx.changes}
    found = []
    for change in (c for c in ctx.changes if c.kind in SECTION_OF):
        want = SECTION_OF[change.kind]
        places = listed.get(change.lever, [])
        if not places and (_has(ctx, want) or "lever-sections" in ctx.settings.disable):
            found.append(Violation(_section_line(ctx, want), f"the diff {_verb(change)}, but "
                                   f"the message does not list it under `{_name(ctx, want)}:`"))
    for lever, places in listed.items():
        done = by_lever.get(lever)
        for key, line in places:
            if done is not None and SECTION_OF.get(done.kind) == key:
                continue
            found.append(Violation(line, _misplaced(ctx, lever, key, done)))
    return found


def _misplaced(ctx: Context, lever: str, key: str, change: Change | None) -> str:
    where = f"{lever} is listed under `{_name(ctx, key)}:`"
    if change is None:
        return f"{where}, but the diff does not change it: remove it, or stage the change that does"
    if change.kind in SECTION_OF:
        return (f"{where}, but the diff {VERB[change.kind].format('it')}: list it under "
                f"`{_name(ctx, SECTION_OF[change.kind])}:`")
    detail = f" ({change.evidence[0]})" if change.evidence else ""
    return f"{where}, but the diff leaves it {change.kind}{detail}: finish the change, or drop it from the message"


def pre_merge_gate(ctx: Context) -> list[Violation]:
    """When `Verification:` says a check did not run, `Pre-merge gate:` names what has to run."""
    verification = next((s for s in ctx.sections if s.key == "verification"), None)
    if verification is None:
        return []
    said = ctx.not_run.search(verification.text())
    if said is None and not verification.says_none():
        return []
    gate = next((s for s in ctx.sections if s.key == "pre_merge_gate"), None)
    if gate is not None and gate.answered() and not gate.says_none():
        return []
    quoted = f"says {said.group(0)!r}" if said else "names no check"
    gate_name = ctx.settings.sections["pre_merge_gate"]
    return [Violation(gate.line if gate else verification.line,
                      f"`{verification.name}:` {quoted}, so `{gate_name}:` must name what has to run before merging")]


def _listed(ctx: Context) -> dict[str, list[tuple[str, int]]]:
    """lever -> (section key, line) of every mention in the three lever sections."""
    known = sec.aliases([c.lever for c in ctx.changes], ctx.settings.lever_prefixes)
    listed: dict[str, list[tuple[str, int]]] = {}
    for section in (s for s in ctx.sections if s.key in sec.LEVER_SECTIONS):
        for entry in section.entries:
            for lever in sec.lever_mentions(entry, known, ctx.patterns):
                listed.setdefault(lever, []).append((section.key, entry.line))
    return listed


def _summary(changes: list[Change]) -> str:
    parts = [_verb(c) for c in changes[:3]]
    return ", ".join(parts) + (f" and {len(changes) - 3} more" if len(changes) > 3 else "")


def _verb(change: Change) -> str:
    return VERB.get(change.kind, "leaves {} " + change.kind).format(change.lever)


def _has(ctx: Context, key: str) -> bool:
    """Is the section there? When it is not, lever-sections reports it (once, not once per lever)."""
    return any(s.key == key for s in ctx.sections)


def _name(ctx: Context, key: str) -> str:
    return ctx.settings.sections[key]


def _section_line(ctx: Context, key: str) -> int:
    return next((s.line for s in ctx.sections if s.key == key), _end_line(ctx))


def _end_line(ctx: Context) -> int:
    """Where something missing belongs: the first trailer line, else the message's last line."""
    if ctx.trailers.paragraph:
        return ctx.trailers.paragraph[0].number
    return ctx.message.lines[-1].number if ctx.message.lines else 1


RULES: tuple[Rule, ...] = (
    Rule("co-author", "co-author-trailer", "well-formed Co-Authored-By trailers that git recognizes, one at least "
         "where the change needs it", ("message.co_author", "message.co_author_paths"), True, co_author),
    Rule("subject", "subject-line", "the subject line is a summary, not a section or trailer moved up", (), False,
         subject),
    Rule("lever-sections", "lever-sections", "a lever change has every section, in the body, answered",
         ("message.sections",), False, lever_sections),
    Rule("lever-delta", "lever-delta", "each hard-wired lever comes with a measured delta",
         (), False, lever_delta),
    Rule("lever-coverage", "lever-coverage", "the sections list exactly the levers the diff changes, each in its own",
         ("levers.lever_prefixes", "levers.lever_patterns"), False, lever_coverage),
    Rule("pre-merge-gate", "pre-merge-gate", "an unverified change names its pre-merge gate",
         ("message.not_run_words",), False, pre_merge_gate),
    Rule("lever-pitfalls", "lever-pitfalls", "the change leaves no deleted win, stale env injection, partial "
         "cleanup or (a warning) orphaned function", ("message.pitfall_errors",), False, lever_pitfalls),
    Rule("ledger-delta", "ledger-delta", "a hard-wired lever's delta agrees with its ledger row",
         ("levers.ledger",), False, ledger_delta),
)
