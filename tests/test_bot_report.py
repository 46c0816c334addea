"""Report limits (GitHub's 65,535 characters, 50 annotations a request) and BASE's configuration in every guard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot_helpers import story_221

from leverguard.bot import report
from leverguard.bot.verdict import Annotation, Verdict
from leverguard.session import Session


def verdict(markdown: str, conclusion: str = "failure", annotations: int = 0) -> Verdict:
    notes = tuple(Annotation(f"f{i}.py", "failure", "undoes #1", "m") for i in range(annotations))
    return Verdict(conclusion, "t", markdown, notes, 1, "", {"findings": []})


def test_long_reports_are_cut_on_a_line_within_the_limit() -> None:
    text = "\n".join(f"| `src/file_{i}.py` | rollback | byte-identical |" for i in range(5000))
    cut = report.truncate(text)
    assert len(text) > report.TEXT_LIMIT >= len(cut)
    assert cut.endswith("`leverguard check-revert`)_") and "\n\n_(truncated" in cut
    assert report.truncate("short") == "short"
    body = report.comment_body(verdict(text))
    assert len(body) <= report.TEXT_LIMIT and body.startswith(report.MARKER)


def test_the_comment_remembers_its_verdict() -> None:
    assert report.previous_state(report.comment_body(verdict("x"))) == "found"
    assert report.previous_state(report.comment_body(verdict("x", "success"))) == "clean"
    assert report.previous_state(report.MARKER + " no verdict line") == "found"


def test_annotations_go_in_batches_of_50() -> None:
    assert [len(b) for b in report._batches(verdict("x", annotations=120).annotations)] == [50, 50, 20]
    assert report._batches(()) == [[]]


# ---------------------------------------------------------------------- BASE's configuration reaches every guard (#9)

BASE_CONFIG = """\
[levers]
lever_patterns = ["ZZ_[A-Z0-9_]+"]
lever_prefixes = ["ZZ_"]

[message]
co_author = "validate"
sections = {hard_wired = "Baked in"}
"""
# The PR's own file would switch every guard off for itself: no lever, another section name,
# the co-author rule that BASE relaxed, and its stale revert excluded.
HEAD_CONFIG = """\
[levers]
lever_patterns = ["NOPE_[A-Z]+"]

[message]
co_author = "required"

[revert]
exclude = ["src/**"]
"""


def config_story(repo: Any) -> str:
    """main: #221 merged, BASE_CONFIG and a ZZ_ lever; the PR head: stale revert, hard-wire, HEAD_CONFIG."""
    before = story_221(repo, files=3)
    repo.write(".leverguard.toml", BASE_CONFIG)
    repo.write("csrc/k.cu", "#ifdef ZZ_FUSED_ROPE\nint fused;\n#else\nint plain;\n#endif\n")
    repo.write("py/run.py", "env['ZZ_FUSED_ROPE'] = '1'\n")
    repo.commit("feat: fused rope lever\n\nCo-Authored-By: Bob <bob@example.com>")
    repo.git("checkout", "-q", "-b", "wire", "main")
    repo.git("checkout", before, "--", *[f"src/prep/f{i}.py" for i in range(3)])
    repo.write(".leverguard.toml", HEAD_CONFIG)
    repo.write("csrc/k.cu", "int fused;\n")
    repo.write("py/run.py", "pass\n")
    head = repo.commit("perf: hard-wire fused rope\n\nThe fused path won.")
    repo.git("checkout", "-q", "main")
    return head


def assert_base_configuration(markdown: str) -> None:
    assert "#221" in markdown  # HEAD's revert.exclude does not hide the revert
    assert "ZZ_FUSED_ROPE" in markdown and "HARD-WIRED" in markdown  # BASE's lever_patterns
    messages = markdown[markdown.index("### Commit messages"):]
    assert "lever-sections" in messages and "Baked in" in messages  # BASE's section names, BASE's levers
    assert "co-author" not in messages  # BASE's co_author = "validate"


def test_app_mode_uses_base_configuration_for_every_guard(repo: Any, tmp_path: Path) -> None:
    import os
    import threading

    from bot_helpers import OWNER_REPO, LiveServer, make_world, post, publish_pull, pull_payload, serve_bare

    from leverguard.bot import github, worker
    from leverguard.bot.app import create_app
    from leverguard.bot.inbox import Inbox

    world = make_world(tmp_path)
    try:
        head = config_story(repo)
        bare = tmp_path / "upstream.git"
        serve_bare(repo.path, bare)
        world.standin.add_repo(OWNER_REPO, str(bare))
        publish_pull(repo.path, bare, 224, head)
        world.standin.add_pull(OWNER_REPO, 224, base_ref="main", head_sha=head)
        web = LiveServer(create_app(world.settings))
        assert post(web.url + "/webhook", pull_payload("opened", 224, head, "x"))[0] == 202
        web.stop()
        st = world.settings
        inbox = Inbox(st.db, lease_seconds=st.lease_seconds)
        processor = worker.Processor(st, github.AppClient(st), inbox, os.environ)
        inbox.work(processor, processor.give_up, worker="t:1", once=True, stop=threading.Event(),
                   log=lambda line: None)
        (run,) = world.standin.runs(OWNER_REPO, head)
    finally:
        world.standin.stop()
    assert run["conclusion"] == "failure"
    assert_base_configuration(run["output"]["summary"])


def test_actions_mode_uses_base_configuration_for_every_guard(repo: Any, tmp_path: Path,
                                                               capsys: Any) -> None:
    from bot_helpers import APP_ID, OWNER_REPO, app_keys
    from github_standin import Standin
    from test_bot_action import WRITE, checkout, run_action

    standin = Standin(APP_ID, app_keys()[1]).start()
    standin.add_repo(OWNER_REPO, str(tmp_path))
    standin.add_token(WRITE, write=True)
    try:
        head = config_story(repo)
        workspace = checkout(repo, tmp_path, head)  # the PR's own .leverguard.toml is on disk here
        assert "NOPE_" in (workspace / ".leverguard.toml").read_text()
        result, summary = run_action(tmp_path, standin, workspace, head, repo.git("rev-parse", "main"), WRITE, capsys)
    finally:
        standin.stop()
    assert result.returncode == 1, result.stderr
    assert_base_configuration(summary)


def test_each_lever_diff_runs_once_per_pr(repo: Any) -> None:
    from leverguard.bot import guards

    head = config_story(repo)
    base = repo.git("rev-parse", "main")
    session = Session(str(repo.path))
    work = guards.LeverWork(session, session.config_at(base))
    lever = guards.lever_section(work, base, head)
    messages = guards.message_section(work, base, head)
    assert lever is not None and messages is not None
    assert work.computed == 1  # one commit: the message is held to the Levers section's own diff
    assert guards.LeverWork(session, session.config_at(head)).diff(base, head).transitions == []
    session.close()
