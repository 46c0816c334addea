"""One message in, findings out: runs the rules, honours `disable` and the Leverguard-Skip trailer."""

from __future__ import annotations

from leverguard.message.model import Change, Context, Pitfall
from leverguard.message.parse import Message
from leverguard.records import NamedTuple
from leverguard.message.rules import RULE_IDS, RULES
from leverguard.message.sections import find_sections
from leverguard.message.settings import Settings
from leverguard.message.trailers import Trailers, from_git, why_unseen

TYPE_CHECKING = False  # typing costs ~9 ms of a hook's start-up (see leverguard/records.py)
if TYPE_CHECKING:
    from typing import Sequence

TYPE_CHECKING = False  # the report module costs a dataclasses import: only messages with findings pay it
if TYPE_CHECKING:
    from leverguard.report import Finding

SKIP_KEY = "leverguard-skip"
SKIP_RULE = "leverguard-skip"  # the id findings about Leverguard-Skip trailers carry


class Outcome(NamedTuple):
    """The verdict on one message: its findings, the rules it skipped, the lever changes it was held to."""

    path: str  # the message file, or the commit's short id in a range
    commit: str | None
    special: str | None  # "merge", "fixup" or "revert": only the trailer rules ran
    changes: tuple[Change, ...]
    skipped: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")


def check(message: Message, parsed_trailers: Sequence[str], changes: Sequence[Change], settings: Settings, *,
          path: str, special: str | None = None, commit: str | None = None, separators: str = ":",
          pitfalls: Sequence[Pitfall] = (), scoped: bool = False, author: tuple[str, str] | None = None,
          unread: Sequence[str] = ()) -> Outcome:
    """Every rule's findings on one cleaned message, given the trailer lines git printed for it.

    AUTHOR (name, email) listed in `message.bot_authors` skips every rule, with one note. UNREAD
    are the notes of the lever sources over max_file_size: said, so a pass is never silent about them.
    """
    if not message.lines:  # git aborts an empty message itself
        return Outcome(path, commit, special, tuple(changes), (), ())
    bot = bot_author(author, settings.bot_authors)
    if bot is not None:
        note = finding("bot-author", "bot-author", path, 1, f"message rules skipped: the author {bot} is listed in "
                       "message.bot_authors", "note")
        return Outcome(path, commit, special, tuple(changes), RULE_IDS, (note,))
    trailers = from_git(message, list(parsed_trailers), separators)
    ctx = Context(message, trailers, tuple(find_sections(message, settings.sections)), tuple(changes), settings,
                  separators, tuple(pitfalls), scoped)
    skipped, findings = _skips(ctx, path)
    findings += _encoding(message, path)
    findings += [finding("max-file-size", "unread-file", path, 1, note, "note") for note in unread]
    for rule in RULES:
        if rule.id in settings.disable or (special and not rule.trailer_rule):
            continue
        violations = rule.check(ctx)
        if rule.id in skipped:
            findings.append(finding(SKIP_RULE, "skip-trailer", path, skipped[rule.id],
                                    f"{rule.id} skipped by the Leverguard-Skip trailer "
                                    f"(it would report {len(violations)} finding{'s'[:len(violations) != 1]})",
                                    "note"))
            continue
        findings += [finding(rule.id, rule.name, path, v.line, v.message, v.severity) for v in violations]
    findings.sort(key=lambda f: f.line)
    return Outcome(path, commit, special, tuple(changes), tuple(skipped), tuple(findings))


def bot_author(author: tuple[str, str] | None, bots: Sequence[str]) -> str | None:
    """`Name <email>` of AUTHOR when it is one of BOTS: by name, email, or the email's local part.

    GitHub signs app commits `NAME[bot] <ID+NAME[bot]@users.noreply.github.com>`; the ID is dropped.
    """
    if author is None or not bots:
        return None
    name, email = author
    local = email.partition("@")[0]
    number, plus, rest = local.partition("+")
    candidates = {name.lower(), email.lower(), local.lower(), (rest if plus and number.isdigit() else local).lower()}
    if any(bot.lower() in candidates for bot in bots if bot):
        return f"{name} <{email}>"
    return None


def finding(rule: str, name: str, path: str, line: int, message: str, severity: str = "error") -> Finding:
    from leverguard.report import Finding

    return Finding(rule, name, path, line, message, severity)


def _skips(ctx: Context, path: str) -> tuple[dict[str, int], list[Finding]]:
    """(rule id -> line of the trailer that skips it, findings about the skip trailers themselves)."""
    skipped: dict[str, int] = {}
    findings = []
    for trailer in ctx.trailers.named(SKIP_KEY):
        for rule_id in trailer.value.replace(",", " ").split():
            if rule_id in RULE_IDS:
                skipped.setdefault(rule_id, trailer.line)
            else:
                findings.append(finding(SKIP_RULE, "skip-trailer", path, trailer.line,
                                        f"Leverguard-Skip names unknown rule {rule_id!r}: known rules are "
                                        f"{', '.join(RULE_IDS)}"))
    for number in _unseen_lines(ctx.message, ctx.trailers, SKIP_KEY):
        findings.append(finding(SKIP_RULE, "skip-trailer", path, number,
                                "git does not see this Leverguard-Skip trailer, so it skips nothing: "
                                + why_unseen(ctx.message, number, ctx.separators), "warning"))
    return skipped, findings


def _unseen_lines(message: Message, trailers: Trailers, key: str) -> list[int]:
    seen = trailers.lines()
    return [line.number for line in message.lines[1:]
            if line.text.partition(":")[0].strip().lower() == key and line.number not in seen]


def _encoding(message: Message, path: str) -> list[Finding]:
    if not message.undecodable:
        return []
    return [finding("encoding", "message-encoding", path, message.undecodable,
                    f"this line is not valid {message.encoding}: save the message as {message.encoding}, "
                    "or set i18n.commitEncoding to the encoding your editor writes", "warning")]
