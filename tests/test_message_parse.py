"""Message cleanup as git does it, trailers as git reads them, and the lever sections."""

from __future__ import annotations

import pytest

from conftest import Repo
from leverguard import git
from leverguard.message import parse, sections, trailers
from leverguard.message.parse import Cleanup
from leverguard.message.settings import SECTION_KEYS

NAMES = dict(zip(SECTION_KEYS, ("Hard-wired", "Reverted", "Diagnostics removed", "ABI", "Verification",
                                "Pre-merge gate")))


def cleaned(raw: bytes, cleanup: Cleanup = Cleanup()) -> list[tuple[int, str]]:
    return [(line.number, line.text) for line in parse.parse(raw, cleanup).lines]


@pytest.mark.parametrize(("raw", "cleanup", "expected"), [
    # comments, trailing whitespace, squeezed and trimmed blank lines; numbers stay those of the file
    (b"\n\nSubject  \n\n\n# a comment\nBody\t\n\n", Cleanup(), [(3, "Subject"), (4, ""), (7, "Body")]),
    # CRLF line ends: the CR is trailing whitespace to git
    (b"Subject\r\n\r\nBody\r\n# note\r\n", Cleanup(), [(1, "Subject"), (2, ""), (3, "Body")]),
    # core.commentChar=';': '#' lines are text, ';' lines are comments
    (b"Subject\n\n#123 is the issue\n; comment\n", Cleanup(comment_char=";"),
     [(1, "Subject"), (2, ""), (3, "#123 is the issue")]),
    # git commit -v: everything from the scissors line on is the diff, not the message
    (b"Subject\n\nBody\n# ------------------------ >8 ------------------------\n# Do not modify\ndiff --git a/x b/x\n",
     Cleanup(), [(1, "Subject"), (2, ""), (3, "Body")]),
    # commit.cleanup=whitespace keeps comment lines; verbatim keeps everything
    (b"Subject\n\n# kept\n", Cleanup(mode="whitespace"), [(1, "Subject"), (2, ""), (3, "# kept")]),
    (b"Subject  \n\n\n", Cleanup(mode="verbatim"), [(1, "Subject  "), (2, ""), (3, "")]),
    # a trailing no-break space is text to git (its isspace is ASCII only)
    ("Subject\u00a0\n".encode(), Cleanup(), [(1, "Subject\u00a0")]),
    (b"# only comments\n\n", Cleanup(), []),
])
def test_cleanup_matches_git(raw: bytes, cleanup: Cleanup, expected: list[tuple[int, str]]) -> None:
    assert cleaned(raw, cleanup) == expected


def test_cleanup_agrees_with_git_stripspace(repo: Repo) -> None:
    raw = b"\n  Subject  \n\n\n# c\nBody line\t\r\n\n\n\nlast\n\n"
    expected = git.run(["stripspace", "--strip-comments"], str(repo.path), input=raw).stdout.decode()
    assert parse.parse(raw).text == expected


def test_auto_comment_char_is_read_from_git_help_text() -> None:
    raw = (b"#1 is fixed\n\n; Please enter the commit message for your changes. Lines starting\n"
           b"; with ';' will be ignored, and an empty message aborts the commit.\n")
    message = parse.parse(raw, Cleanup(comment_char="auto"))
    assert (message.comment, message.text) == (";", "#1 is fixed\n")
    assert parse.parse(b"Subject\n# c\n", Cleanup(comment_char="auto")).comment == "#"


def test_non_utf8_messages_decode_in_the_configured_encoding() -> None:
    latin = "Résumé of the change\n\nCo-Authored-By: Zoë <zoe@example.com>\n".encode("latin-1")
    message = parse.parse(latin, Cleanup(encoding="ISO-8859-1"))
    assert message.subject == "Résumé of the change" and message.undecodable == 0
    broken = parse.parse(latin)  # read as UTF-8, the default
    assert broken.undecodable == 1 and "\ufffd" in broken.subject


def test_unknown_encoding_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="i18n.commitEncoding"):
        parse.parse(b"x\n", Cleanup(encoding="no-such-codec"))


@pytest.mark.parametrize(("subject", "merge", "kind"), [
    ("fixup! Add a", False, "fixup"), ("squash! Add a", False, "fixup"), ("amend! Add a", False, "fixup"),
    ('Revert "Add a"', False, "revert"), ("Add a", True, "merge"), ("Add a", False, None),
    ("fixup: not git's prefix", False, None), ("Reverted the thing", False, None),
])
def test_special_commits(subject: str, merge: bool, kind: str | None) -> None:
    assert parse.special_kind(parse.parse(subject.encode() + b"\n"), merge) == kind


@pytest.mark.parametrize(("line", "key"), [
    ("Co-Authored-By: A <a@b.c>", "Co-Authored-By"), ("Key : value", "Key"), ("Pre-merge gate: run", None),
    ("  continued: x", None), ("no separator", None), (": empty key", None), ("Hard-wired: X", "Hard-wired"),
])
def test_trailer_shape_follows_git(line: str, key: str | None) -> None:
    assert trailers.trailer_key(line) == key


def seen_by_git(repo: Repo, raw: str) -> tuple[parse.Message, trailers.Trailers]:
    message = parse.parse(raw.encode())
    parsed = git.parse_trailers(message.text.encode(), str(repo.path))
    return message, trailers.from_git(message, parsed)


@pytest.mark.parametrize(("raw", "line", "reason"), [
    ("Subject\n\nBody.\nPre-merge gate: run e2e\nCo-Authored-By: B <b@x.org>\n", 5,
     "line 4 ('Pre-merge gate: run e2e') shares its paragraph and is not a trailer (a trailer key has no spaces)"),
    ("Subject\nCo-Authored-By: B <b@x.org>\n", 2, "no blank line separates it from the subject"),
    ("Subject\n\nCo-Authored-By: B <b@x.org>\n\nMore text.\n", 3, "line 5 starts another one below it"),
    ("Subject\n\nThanks to the team\nCo-Authored-By: B <b@x.org>\n", 4,
     "line 3 ('Thanks to the team') shares its paragraph and is not a `Key: value` trailer"),
])
def test_why_git_did_not_see_a_trailer(repo: Repo, raw: str, line: int, reason: str) -> None:
    message, found = seen_by_git(repo, raw)
    assert found.named("co-authored-by") == []
    assert reason in trailers.why_unseen(message, line)


def test_trailers_are_traced_to_their_lines(repo: Repo) -> None:
    raw = "Subject\n\nBody.\n\nCo-Authored-By: B <b@x.org>\nLeverguard-Skip: lever-delta,\n  pre-merge-gate\n"
    _, found = seen_by_git(repo, raw)
    assert [(t.key, t.value, t.line) for t in found.seen] == [
        ("Co-Authored-By", "B <b@x.org>", 5), ("Leverguard-Skip", "lever-delta, pre-merge-gate", 6)]


def test_sections_entries_and_none() -> None:
    raw = ("Subject\n\nHard-wired:\n- MPK_A: -3.1 us\n* FUSED_B: 27.4 -> 24.9 us\n  (decode step)\n"
           "reverted: none\nDIAGNOSTICS  REMOVED: MPK_P\nVerification: not run\n\nProse ends it.\n- not an item\n")
    found = sections.find_sections(parse.parse(raw.encode()), NAMES)
    assert [(s.key, s.line, [e.text for e in s.entries]) for s in found] == [
        ("hard_wired", 3, ["MPK_A: -3.1 us", "FUSED_B: 27.4 -> 24.9 us (decode step)"]),
        ("reverted", 7, ["none"]), ("diagnostics", 8, ["MPK_P"]), ("verification", 9, ["not run"])]
    assert found[1].says_none() and not found[0].says_none()


def test_a_section_name_inside_prose_is_not_a_section() -> None:
    raw = "Subject\n\nWe checked the ABI: it is fine.\nNo Hard-wired: here either.\n"
    assert sections.find_sections(parse.parse(raw.encode()), NAMES) == []


@pytest.mark.parametrize(("text", "ok"), [
    ("-3.1 us", True), ("+4.2%", True), ("27.4 -> 24.9 us", True), ("−0.8 ms/step", True), ("27.4→24.9us", True),
    ("faster", False), ("-3.1", False), ("v2 -> v3", False), ("<measured delta, e.g. -3.1 us>", False),
    ("MPK_V2-3", False),
])
def test_delta_syntax(text: str, ok: bool) -> None:
    assert sections.has_delta(sections.Entry(1, text).content) is ok


def test_levers_are_named_by_macro_or_short_name() -> None:
    known = sections.aliases(["MPK_DSV3_FUSED_ROPE", "MPK_SPLIT_NORM"], ["MPK_DSV3_", "MPK_"])
    entry = sections.Entry(1, "FUSED_ROPE (-3 us), MPK_SPLIT_NORM +2%, MPK_OTHER")
    mentions = sections.lever_mentions(entry, known, [__import__("re").compile("MPK_[A-Z_]+")])
    assert list(mentions) == ["MPK_DSV3_FUSED_ROPE", "MPK_SPLIT_NORM", "MPK_OTHER"]
    assert mentions["MPK_DSV3_FUSED_ROPE"].startswith("FUSED_ROPE (-3 us)")
    assert list(sections.lever_mentions(sections.Entry(1, "DECODE_WIDTH doubled"), known, [])) == ["DECODE_WIDTH"]
