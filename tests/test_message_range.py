"""`check-msg --range`: every commit of a range against its own diff, text and JSON, and usage errors."""

from __future__ import annotations

import json

from conftest import Repo, run_leverguard
from message_helpers import GOOD_CLEANUP, PLAIN, check_msg, lever_repo, stage_cleanup, stage_plain_change


def commit_staged(repo: Repo, message: str | bytes, *config: str) -> str:
    path = repo.path.parent / "RANGE_MSG"
    path.write_bytes(message.encode() if isinstance(message, str) else message)
    options = [arg for pair in config for arg in ("-c", pair)]
    repo.git(*options, "commit", "-q", "--no-verify", "--allow-empty", "-F", str(path))
    return repo.head()


def test_every_commit_is_checked_against_its_own_diff(repo: Repo) -> None:
    base = lever_repo(repo)
    stage_plain_change(repo)
    plain = commit_staged(repo, PLAIN)
    stage_cleanup(repo)
    bad = commit_staged(repo, GOOD_CLEANUP.replace("27.4 -> 24.9 us per decode step", "faster"))
    result = run_leverguard("check-msg", "--range", f"{base}..HEAD", cwd=repo.path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{bad[:12]}:6: lever-delta: MPK_DSV3_FUSED_ROPE has no measured delta: write a signed number with a unit "
        "(-3.1 us, +4.2%) or before -> after (27.4 -> 24.9 us)",
        "leverguard check-msg: 1 error in 2 messages"]
    doc = json.loads(run_leverguard("check-msg", "--range", f"{base}..HEAD", "--format", "json",
                                    cwd=repo.path).stdout)
    assert [m["commit"] for m in doc["messages"]] == [plain, bad]
    assert doc["messages"][0]["levers"] == [] and doc["messages"][0]["findings"] == []
    assert {(lever["lever"], lever["kind"]) for lever in doc["messages"][1]["levers"]} == {
        ("MPK_DSV3_FUSED_ROPE", "HARD-WIRED"), ("MPK_DSV3_EXTRA_SCALE", "REVERTED"),
        ("MPK_DSV3_PROBE_ATTN", "DIAGNOSTIC-DELETED")}
    assert doc["summary"] == {"messages": 2, "errors": 1, "warnings": 0, "notes": 0}
    markdown = run_leverguard("check-msg", "--range", f"{base}..HEAD", "--format", "markdown", cwd=repo.path)
    assert markdown.returncode == 1 and markdown.stdout.splitlines()[:5] == [
        "### Commit messages", "", "| where | rule | message |", "| --- | --- | --- |",
        f"| `{bad[:12]}:6` | lever-delta | MPK_DSV3_FUSED_ROPE has no measured delta: write a signed number with a "
        "unit (-3.1 us, +4.2%) or before -> after (27.4 -> 24.9 us) |"]


def test_the_same_message_on_a_commit_without_levers_names_phantoms(repo: Repo) -> None:
    base = lever_repo(repo)
    stage_plain_change(repo)
    commit_staged(repo, GOOD_CLEANUP)
    result = run_leverguard("check-msg", "--range", f"{base}..HEAD", cwd=repo.path)
    assert result.returncode == 1
    assert "lever-coverage: MPK_DSV3_FUSED_ROPE is listed under `Hard-wired:`, but the diff does not change it" \
        in result.stdout


def test_merge_fixup_and_revert_commits_get_only_the_trailer_rules(repo: Repo) -> None:
    base = lever_repo(repo)
    repo.git("switch", "-q", "-c", "topic")
    stage_cleanup(repo)
    commit_staged(repo, "fixup! levers\n\nCo-Authored-By: Bob <bob@example.com>\n")
    repo.git("switch", "-q", "main")
    stage_plain_change(repo)
    commit_staged(repo, PLAIN)
    repo.git("merge", "-q", "--no-ff", "--no-verify", "-m", "Merge topic", "topic")
    repo.git("revert", "--no-edit", "HEAD~1")
    result = run_leverguard("check-msg", "--range", f"{base}..HEAD", "--format", "json", cwd=repo.path)
    doc = json.loads(result.stdout)
    specials = [(m["special"], [f["rule"] for f in m["findings"]]) for m in doc["messages"]]
    assert sorted(specials, key=str) == sorted([("fixup", []), (None, []), ("merge", ["co-author"]),
                                                ("revert", ["co-author"])], key=str)


def test_stored_messages_keep_hash_lines_and_their_encoding(repo: Repo) -> None:
    base = lever_repo(repo)
    commit_staged(repo, "#42 fixed\n\nCo-Authored-By: Bob <bob@example.com>\n", "core.commentChar=;")
    latin = "Résumé\n\nCo-Authored-By: Zoë Faure <zoe@example.com>\n".encode("latin-1")
    commit_staged(repo, latin, "i18n.commitEncoding=ISO-8859-1")
    result = run_leverguard("check-msg", "--range", f"{base}..HEAD", cwd=repo.path)
    assert (result.returncode, result.stdout.strip()) == (0, "leverguard check-msg: no findings in 2 messages")


def test_usage_errors_exit_2_with_advice(repo: Repo) -> None:
    lever_repo(repo)
    cases = {
        ("check-msg",): "give a MSGFILE (as the commit-msg hook does) or --range BASE..HEAD",
        ("check-msg", "--range", "HEAD"): "--range 'HEAD': write it as BASE..HEAD",
        ("check-msg", "--range", "HEAD...HEAD"): "write it as BASE..HEAD",
        ("check-msg", "--range", "nope..HEAD"): "unknown revision",
        ("check-msg", str(repo.path / "missing-file")): "cannot read message file",
    }
    for args, advice in cases.items():
        result = run_leverguard(*args, cwd=repo.path)
        assert result.returncode == 2 and advice in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
    outside = run_leverguard("check-msg", "-", cwd=repo.path.parent, input="x\n")
    assert outside.returncode == 2 and "not a git repository" in outside.stderr


def test_bad_configuration_is_a_usage_error(repo: Repo) -> None:
    lever_repo(repo)
    repo.write("pyproject.toml", '[tool.leverguard.message]\nco_author = "maybe"\n')
    result = check_msg(repo, PLAIN)
    assert result.returncode == 2
    assert result.stderr.strip() == ("leverguard: error: pyproject.toml: [message] co_author must be 'levers', 'required' or "
                                     "'validate', not 'maybe'")


def test_message_from_stdin(repo: Repo) -> None:
    lever_repo(repo)
    assert run_leverguard("check-msg", "-", cwd=repo.path, input=PLAIN).returncode == 0
    refused = run_leverguard("check-msg", "-", cwd=repo.path, input="Fix\n")
    assert refused.returncode == 1 and refused.stdout.startswith("-:1: co-author:")
