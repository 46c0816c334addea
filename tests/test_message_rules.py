"""Each rule on real messages (trailers parsed by the real git), with lever changes given as plain data."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Repo
from leverguard import config, git
from leverguard.message import check, parse, rules
from leverguard.message.model import Change
from leverguard.message.settings import Settings, from_values, load_config_values

CLEANUP = [Change("MPK_DSV3_FUSED_ROPE", "HARD-WIRED"), Change("MPK_DSV3_EXTRA_SCALE", "REVERTED"),
           Change("MPK_DSV3_PROBE_ATTN", "DIAGNOSTIC-DELETED")]
BODY = """\
Hard-wired:
- MPK_DSV3_FUSED_ROPE: 27.4 -> 24.9 us
Reverted:
- EXTRA_SCALE
Diagnostics removed:
- MPK_DSV3_PROBE_ATTN
ABI: unchanged
Verification: e2e decode benchmark, 3 runs
Pre-merge gate: none
"""
TRAILER = "Co-Authored-By: Bob Builder <bob@example.com>\n"
GOOD = f"Settle the decode levers\n\nWhy.\n\n{BODY}\n{TRAILER}"


def settings(**overrides: Any) -> Settings:
    values, _ = load_config_values("/nonexistent")
    values.update({f"message.{k}": v for k, v in overrides.items()})
    return from_values(values, None)


def verdict(repo: Repo, raw: str, changes: list[Change] = CLEANUP, **overrides: Any) -> list[tuple[str, int, str]]:
    message = parse.parse(raw.encode())
    parsed = git.parse_trailers(message.text.encode(), str(repo.path))
    subject_kind = parse.special_kind(message, False)
    outcome = check.check(message, parsed, changes, settings(**overrides), path="MSG", special=subject_kind)
    return [(f.rule, f.line, f.message) for f in outcome.findings if f.severity == "error"]


def rule_ids(found: list[tuple[str, int, str]]) -> list[str]:
    return sorted({rule for rule, _, _ in found})


def test_a_complete_cleanup_message_passes(repo: Repo) -> None:
    assert verdict(repo, GOOD) == []


def test_a_plain_commit_needs_only_the_trailer(repo: Repo) -> None:
    assert verdict(repo, f"Fix a typo\n\n{TRAILER}", []) == []
    assert rule_ids(verdict(repo, "Fix a typo\n", [], co_author="required")) == ["co-author"]
    assert verdict(repo, "Fix a typo\n", [], co_author="validate") == []
    assert verdict(repo, "Fix a typo\n", []) == []  # the default (`levers`): only lever changes need one


@pytest.mark.parametrize(("trailer", "expected"), [
    ("Co-Authored-By: Bob", "is not `Name <email>`"),
    ("Co-Authored-By: <bob@example.com>", "is not `Name <email>`"),
    ("Co-Authored-By: Bob <bob at example.com>", "is not `Name <email>`"),
    ("Co-Author: Bob <bob@example.com>", "'Co-Author' is not a co-author trailer"),
    ("Coauthored-by: Bob <bob@example.com>", "'Coauthored-by' is not a co-author trailer"),
])
def test_co_author_must_be_well_formed(repo: Repo, trailer: str, expected: str) -> None:
    found = verdict(repo, f"Fix a typo\n\n{trailer}\n", [], co_author="validate")
    assert [rule for rule, _, _ in found] == ["co-author"] and expected in found[0][2]


def test_co_author_spelling_variants_git_accepts(repo: Repo) -> None:
    for key in ("co-authored-by", "CO-AUTHORED-BY", "Co-authored-by "):
        assert verdict(repo, f"Fix\n\n{key}: Bob Builder <bob@example.com>\n", []) == []


def test_a_trailer_git_ignores_is_explained(repo: Repo) -> None:
    raw = f"Settle the decode levers\n\nWhy.\n\n{BODY}{TRAILER}"  # no blank line before the trailer
    found = verdict(repo, raw)
    co = [m for rule, _, m in found if rule == "co-author"]
    assert co == ["git does not see this Co-Authored-By trailer: line 13 ('Pre-merge gate: none') shares its "
                  "paragraph and is not a trailer (a trailer key has no spaces), so git ignores the whole trailer "
                  "block: put a blank line between that text and the trailers"]
    # the sections that share the trailers' paragraph are reported too, once
    assert [(line, m[:40]) for rule, line, m in found if rule == "lever-sections"] == [
        (5, "sections `Hard-wired:`, `Reverted:`, `Di")]


def test_sections_alone_in_the_last_paragraph_are_read_as_trailers(repo: Repo) -> None:
    raw = ("Settle\n\nHard-wired: MPK_DSV3_FUSED_ROPE -3 us\nReverted: EXTRA_SCALE\nDiagnostics removed: "
           f"MPK_DSV3_PROBE_ATTN\nABI: unchanged\nVerification: ran\nPre-merge gate: none\n{TRAILER}")
    found = verdict(repo, raw)
    assert [(line, m) for rule, line, m in found if rule == "lever-sections"] == [
        (3, "sections `Hard-wired:`, `Reverted:`, `Diagnostics removed:`, `ABI:`, `Verification:`, `Pre-merge gate:` "
            "are in the trailer paragraph: keep the sections in the body, then a blank line, then the trailers")]


def test_missing_and_empty_sections(repo: Repo) -> None:
    raw = GOOD.replace("ABI: unchanged\n", "").replace("Verification: e2e decode benchmark, 3 runs",
                                                       "Verification: <what ran>")
    found = [(line, m) for rule, line, m in verdict(repo, raw) if rule == "lever-sections"]
    assert (14, "missing section `ABI:`: the diff hard-wires MPK_DSV3_FUSED_ROPE, reverts MPK_DSV3_EXTRA_SCALE, "
            "deletes MPK_DSV3_PROBE_ATTN (a diagnostic); add it above the trailers (`none` answers a section where "
            "nothing applies; leverguard template prints them pre-filled)") in found
    assert (11, "section `Verification:` is empty: answer it (write `none` when nothing applies)") in found


def test_sections_are_not_required_without_lever_changes(repo: Repo) -> None:
    assert verdict(repo, f"Fix a typo\n\n{TRAILER}", [Change("MPK_X", "STILL-GATED")]) == []


def test_configured_section_names(repo: Repo) -> None:
    raw = GOOD.replace("Pre-merge gate:", "Before merging:")
    renamed = {"pre_merge_gate": "Before merging"}
    assert verdict(repo, raw, sections={**config.defaults().get("message.sections"), **renamed}) == []
    assert rule_ids(verdict(repo, raw)) == ["lever-sections"]


@pytest.mark.parametrize(("line", "ok"), [
    ("- MPK_DSV3_FUSED_ROPE: -3.1 us", True), ("- FUSED_ROPE: +4.2%", True),
    ("- MPK_DSV3_FUSED_ROPE: faster", False), ("- MPK_DSV3_FUSED_ROPE: <measured delta, e.g. -3.1 us>", False),
    ("- MPK_DSV3_FUSED_ROPE: 3.1", False),
])
def test_lever_delta(repo: Repo, line: str, ok: bool) -> None:
    raw = GOOD.replace("- MPK_DSV3_FUSED_ROPE: 27.4 -> 24.9 us", line)
    found = verdict(repo, raw)
    assert found == [] if ok else found == [("lever-delta", 6, "MPK_DSV3_FUSED_ROPE has no measured delta: write a "
                                              "signed number with a unit (-3.1 us, +4.2%) or before -> after "
                                              "(27.4 -> 24.9 us)")]


def test_each_lever_of_an_inline_list_needs_its_own_delta(repo: Repo) -> None:
    changes = [Change("MPK_A", "HARD-WIRED"), Change("MPK_B", "HARD-WIRED")]
    raw = GOOD.replace("Hard-wired:\n- MPK_DSV3_FUSED_ROPE: 27.4 -> 24.9 us\n", "Hard-wired: MPK_A (-3 us), MPK_B\n")
    raw = raw.replace("- EXTRA_SCALE", "none").replace("- MPK_DSV3_PROBE_ATTN", "none")
    found = [(r, m.split(":")[0]) for r, _, m in verdict(repo, raw, changes)]
    assert found == [("lever-delta", "MPK_B has no measured delta")]


def test_coverage_missing_phantom_and_wrong_section(repo: Repo) -> None:
    raw = GOOD.replace("- EXTRA_SCALE\n", "- MPK_DSV3_PROBE_ATTN\n- MPK_DSV3_GHOST\n").replace(
        "Diagnostics removed:\n- MPK_DSV3_PROBE_ATTN\n", "Diagnostics removed: none\n")
    found = [(line, m) for rule, line, m in verdict(repo, raw) if rule == "lever-coverage"]
    assert found == [
        (7, "the diff reverts MPK_DSV3_EXTRA_SCALE, but the message does not list it under `Reverted:`"),
        (8, "MPK_DSV3_PROBE_ATTN is listed under `Reverted:`, but the diff deletes it (a diagnostic): list it "
            "under `Diagnostics removed:`"),
        (9, "MPK_DSV3_GHOST is listed under `Reverted:`, but the diff does not change it: remove it, or stage the "
            "change that does"),
    ]


def test_coverage_leaves_a_missing_section_to_lever_sections(repo: Repo) -> None:
    raw = GOOD.replace("Reverted:\n- EXTRA_SCALE\n", "")
    assert [(r, m.split(":")[0]) for r, _, m in verdict(repo, raw)] == [("lever-sections", "missing section `Reverted")]
    found = verdict(repo, raw, disable=["lever-sections"])
    assert [m for _, _, m in found] == ["the diff reverts MPK_DSV3_EXTRA_SCALE, but the message does not list it "
                                        "under `Reverted:`"]


def test_coverage_reports_levers_the_diff_left_half_done(repo: Repo) -> None:
    changes = [*CLEANUP[1:], Change("MPK_DSV3_FUSED_ROPE", "PARTIAL", ("the gate without the injection",))]
    found = verdict(repo, GOOD, changes)
    assert ("lever-coverage", 6, "MPK_DSV3_FUSED_ROPE is listed under `Hard-wired:`, but the diff leaves it PARTIAL "
            "(the gate without the injection): finish the change, or drop it from the message") in found


def test_phantom_levers_on_a_commit_without_lever_changes(repo: Repo) -> None:
    assert rule_ids(verdict(repo, GOOD, [])) == ["lever-coverage"]


@pytest.mark.parametrize(("verification", "gate", "fails"), [
    ("not run: the GPU queue was down", "none", True),
    ("blocked on the nightly runner", "", True),
    ("none", "<what must run before merging, or none>", True),
    ("skipped the e2e suite", "run the e2e suite on 8xH100", False),
    ("ran the blocked-attention kernel tests, all pass", "none", False),  # a hyphenated word is not the word
    ("all 412 tests passed; the unblocked path is faster", "none", False),
])
def test_pre_merge_gate(repo: Repo, verification: str, gate: str, fails: bool) -> None:
    raw = GOOD.replace("Verification: e2e decode benchmark, 3 runs", f"Verification: {verification}")
    raw = raw.replace("Pre-merge gate: none", f"Pre-merge gate: {gate}")
    found = [m for rule, _, m in verdict(repo, raw) if rule == "pre-merge-gate"]
    assert bool(found) is fails
    if fails and verification.startswith("not run"):
        assert found == ["`Verification:` says 'not run', so `Pre-merge gate:` must name what has to run before "
                         "merging"]


def test_special_commits_get_only_the_trailer_rules(repo: Repo) -> None:
    assert verdict(repo, f"fixup! Settle the decode levers\n\n{TRAILER}") == []
    assert rule_ids(verdict(repo, 'Revert "Settle the decode levers"\n')) == ["co-author"]


def test_disable_switches_a_rule_off(repo: Repo) -> None:
    assert verdict(repo, "Fix a typo\n", [], disable=["co-author"]) == []


def test_skip_trailer_skips_and_is_reported(repo: Repo) -> None:
    raw = GOOD.replace(" 27.4 -> 24.9 us", "") + "Leverguard-Skip: lever-delta\n"
    message = parse.parse(raw.encode())
    outcome = check.check(message, git.parse_trailers(message.text.encode(), str(repo.path)), CLEANUP,
                          settings(), path="MSG")
    assert [(f.rule, f.severity, f.message) for f in outcome.findings] == [
        ("leverguard-skip", "note", "lever-delta skipped by the Leverguard-Skip trailer (it would report 1 finding)")]
    assert outcome.skipped == ("lever-delta",) and outcome.errors == 0


def test_skip_trailer_with_an_unknown_rule_or_unseen_by_git(repo: Repo) -> None:
    found = verdict(repo, GOOD + "Leverguard-Skip: no-such-rule\n")
    assert found == [("leverguard-skip", 16, "Leverguard-Skip names unknown rule 'no-such-rule': known rules are "
                      + ", ".join(rules.RULE_IDS))]
    raw = GOOD.replace(" 27.4 -> 24.9 us", "").replace(TRAILER, "Leverguard-Skip: lever-delta\nNot a trailer.\n")
    assert rule_ids(verdict(repo, raw)) == ["co-author", "lever-delta"]


def test_rule_ids_are_unique_and_documented() -> None:
    from conftest import ROOT

    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert len(set(rules.RULE_IDS)) == len(rules.RULES)
    assert tuple(rule.id for rule in rules.RULES) == rules.RULE_IDS  # the ids a configuration may disable
    for rule in rules.RULES:
        assert f"| `{rule.id}` |" in reference, f"rule {rule.id} is not in the rules table of docs/commands.md"


def test_bad_settings_are_refused() -> None:
    with pytest.raises(Exception, match="co_author must be 'levers', 'required' or 'validate'"):
        settings(co_author="sometimes")
    with pytest.raises(Exception, match="disable: unknown rule 'co-authors': known rules are co-author, "):
        settings(disable=["co-authors"])
    with pytest.raises(Exception, match="sections: keys must be among"):
        settings(sections={"hard_wired": "Hard-wired", "typo": "X"})
