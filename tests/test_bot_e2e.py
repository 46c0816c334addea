"""End to end: signed deliveries over real HTTP, the worker, real git fetches, the stand-in GitHub."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from bot_helpers import (OWNER_REPO, LiveServer, World, clean_pr, git, make_world, post, publish_pull,
                         pull_payload, serve_bare, stale_pr, story_221)
from github_standin import Fault

from leverguard.bot import github, worker
from leverguard.bot.app import create_app
from leverguard.bot.inbox import open_inbox
from leverguard.bot.report import MARKER

BOT = "leverguard-test[bot]"
# The scenarios issue #13 names run on both backends; the rest on the default (SQLite).
both = pytest.mark.parametrize("world", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def world(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[World]:
    backend = getattr(request, "param", "sqlite")
    db = request.getfixturevalue("pg_url") if backend == "postgres" else str(tmp_path / "inbox.sqlite3")
    w = make_world(tmp_path, db=db)
    yield w
    w.standin.stop()


@pytest.fixture
def web(world: World) -> Iterator[LiveServer]:
    server = LiveServer(create_app(world.settings))
    yield server
    server.stop()


class Setup:
    """The upstream bare repository, published on the stand-in, and helpers to drive the bot."""

    def __init__(self, world: World, web: LiveServer, repo: Any, files: int = 18) -> None:
        self.world, self.web, self.repo = world, web, repo
        self.bare = world.tmp / "upstream.git"
        self.before = story_221(repo, files)
        self.clone_url = serve_bare(repo.path, self.bare)
        world.standin.add_repo(OWNER_REPO, str(self.bare))
        self.inbox = open_inbox(world.settings)

    def open_pr(self, number: int, rev: str, **pull: Any) -> str:
        head = publish_pull(self.repo.path, self.bare, number, rev)
        self.world.standin.add_pull(OWNER_REPO, number, base_ref="main", head_sha=head, **pull)
        return head

    def push(self, number: int, rev: str) -> str:
        head = publish_pull(self.repo.path, self.bare, number, rev)
        self.world.standin.repos[OWNER_REPO].pulls[number]["head_sha"] = head
        return head

    def deliver(self, action: str, number: int, head: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
        return post(self.web.url + "/webhook", pull_payload(action, number, head, self.clone_url), **kwargs)

    def drain(self) -> int:
        settings = self.world.settings
        processor = worker.Processor(settings, github.AppClient(settings), self.inbox, os.environ)
        return self.inbox.work(processor, processor.give_up, worker="test:1", once=True, stop=threading.Event(),
                               log=lambda line: None)

    def settle(self, timeout: float = 10.0) -> None:
        """Drain until nothing is queued or running (retries wait out their back-off)."""
        deadline = time.monotonic() + timeout
        while any(state in ("queued", "running") for state in self.states()) and time.monotonic() < deadline:
            self.drain()
            time.sleep(0.05)

    def comments(self, number: int) -> list[dict[str, Any]]:
        return self.world.standin.comments(OWNER_REPO, number)

    def runs(self, sha: str | None = None) -> list[dict[str, Any]]:
        return self.world.standin.runs(OWNER_REPO, sha)

    def states(self) -> list[str]:
        return [d.state for d in self.inbox.list()]


@pytest.fixture
def setup(world: World, web: LiveServer, repo: Any) -> Setup:
    return Setup(world, web, repo)


@both
def test_signed_delivery_reports_the_221_224_stale_revert(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before), title="refactor(kernel): restructure")
    status, answer = setup.deliver("opened", 224, head)
    assert (status, answer["message"]) == (202, "queued")
    assert setup.states() == ["queued"]  # nothing is processed in the request
    assert setup.drain() == 1
    assert setup.states() == ["done"]
    (comment,) = setup.comments(224)
    assert comment["login"] == BOT and MARKER in comment["body"] and "#221" in comment["body"]
    (run,) = setup.runs(head)
    assert (run["name"], run["status"], run["conclusion"]) == ("leverguard", "completed", "failure")
    assert len(run["annotations"]) == 18 and all(a["annotation_level"] == "failure" for a in run["annotations"])
    assert run["output"]["summary"] in comment["body"]
    log = setup.world.standin.log
    assert [e.path for e in log if "access_tokens" in e.path] == ["/app/installations/42/access_tokens"]
    assert not [e for e in log if e.path.endswith("/files") or "/commits" in e.path and "check-runs" not in e.path]


def test_clean_pr_gets_a_green_check_run_and_no_comment(setup: Setup) -> None:
    head = setup.open_pr(7, clean_pr(setup.repo))
    setup.deliver("opened", 7, head)
    setup.drain()
    assert [r["conclusion"] for r in setup.runs(head)] == ["success"]
    assert setup.comments(7) == []


@both
def test_same_delivery_twice_is_one_job(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    assert setup.deliver("opened", 224, head, delivery="d-1")[0] == 202
    status, answer = setup.deliver("opened", 224, head, delivery="d-1")
    assert (status, answer["message"]) == (202, "duplicate delivery")
    assert len(setup.inbox.list()) == 1
    assert setup.drain() == 1
    assert len(setup.comments(224)) == 1 and len(setup.runs()) == 1


@both
def test_two_synchronize_events_run_only_the_newest_head(setup: Setup) -> None:
    first = setup.open_pr(5, clean_pr(setup.repo, tag="v2"))
    setup.deliver("synchronize", 5, first, delivery="sync-1")
    second = setup.push(5, stale_pr(setup.repo, setup.before, branch="clean"))
    setup.deliver("synchronize", 5, second, delivery="sync-2")
    assert setup.drain() == 1
    assert {d.id: d.state for d in setup.inbox.list()} == {"sync-1": "superseded", "sync-2": "done"}
    assert setup.runs(first) == [] and [r["conclusion"] for r in setup.runs(second)] == ["failure"]


def test_fetched_head_newer_than_the_payload_supersedes_the_job(setup: Setup) -> None:
    old = setup.open_pr(5, clean_pr(setup.repo, tag="v2"))
    publish_pull(setup.repo.path, setup.bare, 5, clean_pr(setup.repo, branch="other", tag="v3"))  # a push lands
    setup.deliver("opened", 5, old)
    setup.drain()
    (row,) = setup.inbox.list()
    assert row.state == "superseded" and "fetched head" in row.note
    assert setup.runs() == []


@both
def test_rerun_keeps_one_comment_one_run_and_sends_annotations_once(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    setup.deliver("opened", 224, head)
    setup.drain()
    (comment,) = setup.comments(224)
    rerun = {"action": "rerequested", "repository": {"full_name": OWNER_REPO, "clone_url": setup.clone_url},
             "installation": {"id": 42}, "check_run": {"name": "leverguard", "head_sha": head,
                                                       "pull_requests": [{"number": 224}]}}
    assert post(setup.web.url + "/webhook", rerun, event="check_run")[0] == 202
    setup.drain()
    assert [c["id"] for c in setup.comments(224)] == [comment["id"]]
    (run,) = setup.runs(head)
    assert len(run["annotations"]) == 18
    assert setup.states() == ["done", "done"]


@both
def test_502_after_comment_creation_still_leaves_exactly_one_comment(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    setup.world.standin.inject(Fault("POST", r"/issues/224/comments$", status=502, after=True))
    setup.deliver("opened", 224, head)
    setup.settle()
    (row,) = setup.inbox.list()
    assert (row.state, row.attempts) == ("done", 2)  # the 502 failed the first attempt; the retry found the comment
    assert len(setup.comments(224)) == 1 and len(setup.runs(head)) == 1
    assert len(setup.world.standin.requests("POST", r"/issues/224/comments$")) == 1


@both
def test_502_after_check_run_creation_still_leaves_exactly_one_run(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    setup.world.standin.inject(Fault("POST", r"/check-runs$", status=502, after=True))
    setup.deliver("opened", 224, head)
    setup.settle()
    (run,) = setup.runs(head)
    assert run["conclusion"] == "failure" and len(run["annotations"]) == 18  # not re-sent
    assert len(setup.comments(224)) == 1


def test_duplicate_comments_are_swept_after_creating(setup: Setup) -> None:
    """A proxy that retries a POST itself can still leave two copies: the sweep keeps the oldest."""
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    original = setup.world.standin.repos[OWNER_REPO].comments
    setup.deliver("opened", 224, head)

    class Doubling(dict):  # type: ignore[type-arg]
        """The stand-in's comment store, storing the first comment twice like a double POST would."""

        def __setitem__(self, key: int, value: dict[str, Any]) -> None:
            super().__setitem__(key, value)
            if len(self) == 1:
                twin = setup.world.standin.next_id()
                super().__setitem__(twin, {**value, "id": twin})

    setup.world.standin.repos[OWNER_REPO].comments = Doubling(original)
    setup.drain()
    assert len(setup.comments(224)) == 1
    assert len(setup.world.standin.requests("DELETE", r"/issues/comments/")) == 1


@both
def test_403_with_retry_after_is_honoured(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    setup.world.standin.inject(Fault("POST", r"/issues/224/comments$", status=403, retry_after=1))
    setup.deliver("opened", 224, head)
    setup.drain()
    denied, accepted = setup.world.standin.requests("POST", r"/issues/224/comments$")
    assert (denied.status, accepted.status) == (403, 201)
    assert accepted.at - denied.at >= 1.0
    assert len(setup.comments(224)) == 1


def test_fork_pr_is_fetched_from_the_base_repository(setup: Setup, tmp_path: Path) -> None:
    fork_bare = tmp_path / "fork.git"
    serve_bare(setup.repo.path, fork_bare)
    stale = stale_pr(setup.repo, setup.before, branch="fork-topic")
    setup.repo.git("push", "-q", str(fork_bare), "fork-topic")  # the branch exists in the fork only
    head = setup.open_pr(9, stale, head_repo="mallory/kernels")
    payload = pull_payload("opened", 9, head, setup.clone_url, fork="mallory/kernels")
    assert post(setup.web.url + "/webhook", payload)[0] == 202
    setup.drain()
    assert [r["conclusion"] for r in setup.runs(head)] == ["failure"]
    assert len(setup.comments(9)) == 1


def test_override_label_from_base_config_makes_the_check_neutral(setup: Setup) -> None:
    setup.repo.write(".leverguard.toml", '[revert]\noverride_label = "revert-ok"\n')
    setup.repo.commit("chore: name the override label")
    publish_pull(setup.repo.path, setup.bare, 0, "main")
    setup.repo.git("push", "-q", str(setup.bare), "main")
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before), labels=("revert-ok",))
    setup.deliver("labeled", 224, head)
    setup.drain()
    (run,) = setup.runs(head)
    assert run["conclusion"] == "neutral" and "revert-ok" in run["output"]["title"]
    assert all(a["annotation_level"] == "notice" for a in run["annotations"])


def test_a_pr_cannot_switch_the_check_off_for_itself(setup: Setup) -> None:
    setup.repo.git("checkout", "-q", "-b", "sneaky")
    setup.repo.write(".leverguard.toml", '[revert]\noverride_label = "docs"\nwindow = 1\n')
    setup.repo.commit("chore: tweak config")
    setup.repo.git("checkout", "-q", "main")
    sneaky = stale_pr(setup.repo, setup.before, branch="sneaky-2")
    setup.repo.git("checkout", "-q", "sneaky")
    setup.repo.git("merge", "-q", "--no-edit", "sneaky-2")
    setup.repo.git("checkout", "-q", "main")
    head = setup.open_pr(8, "sneaky", labels=("docs",))
    assert sneaky
    setup.deliver("labeled", 8, head)
    setup.drain()
    assert [r["conclusion"] for r in setup.runs(head)] == ["failure"]


def test_pr_text_declaring_the_revert_is_neutral(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before),
                         body="This also reverts #221: the fused prep path is broken on H100.")
    setup.deliver("opened", 224, head)
    setup.drain()
    (run,) = setup.runs(head)
    assert run["conclusion"] == "neutral" and "description" in run["output"]["title"]


def test_verdict_flip_reposts_and_fix_edits_in_place(setup: Setup) -> None:
    stale = setup.open_pr(3, stale_pr(setup.repo, setup.before, branch="flip"))
    setup.deliver("opened", 3, stale)
    setup.drain()
    (first,) = setup.comments(3)
    fixed = setup.push(3, clean_pr(setup.repo, branch="flip", tag="fixed"))
    setup.deliver("synchronize", 3, fixed)
    setup.drain()
    (edited,) = setup.comments(3)
    assert edited["id"] == first["id"] and "verdict=clean" in edited["body"]
    again = setup.push(3, stale_pr(setup.repo, setup.before, branch="flip"))
    setup.deliver("synchronize", 3, again)
    setup.drain()
    (reposted,) = setup.comments(3)
    assert reposted["id"] != first["id"] and "verdict=found" in reposted["body"]


def test_comments_by_others_are_never_edited(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    spoof = setup.world.standin.next_id()
    setup.world.standin.repos[OWNER_REPO].comments[spoof] = {
        "id": spoof, "issue": 224, "body": MARKER + " <!-- leverguard:verdict=clean --> looks fine",
        "login": "mallory", "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z"}
    setup.deliver("opened", 224, head)
    setup.drain()
    by_login = {c["login"]: c for c in setup.comments(224)}
    assert set(by_login) == {"mallory", BOT} and "looks fine" in by_login["mallory"]["body"]


@both
def test_failing_api_retries_with_backoff_then_fails(setup: Setup) -> None:
    head = setup.open_pr(224, stale_pr(setup.repo, setup.before))
    for _ in range(3):
        setup.world.standin.inject(Fault("GET", r"/pulls/224$", status=404))
    setup.deliver("opened", 224, head, delivery="doomed")
    started = time.monotonic()
    while setup.inbox.get("doomed").state not in ("failed", "done") and time.monotonic() - started < 10:  # type: ignore[union-attr]
        setup.drain()
        time.sleep(0.05)
    row = setup.inbox.get("doomed")
    assert row is not None and (row.state, row.attempts) == ("failed", 3) and "404" in row.note
    assert time.monotonic() - started >= 0.2 + 0.4  # back-off 0.2 s, then 0.4 s
    (gave_up,) = setup.runs(head)  # the reason is on the check, not only in the inbox
    assert gave_up["conclusion"] == "failure" and "gave up after 3 attempts" in gave_up["output"]["title"]
    assert "404" in gave_up["output"]["summary"] and "bot redeliver doomed" in gave_up["output"]["summary"]
    assert setup.inbox.redeliver("doomed") and setup.drain() == 1
    assert setup.inbox.get("doomed").state == "done"  # type: ignore[union-attr]
    (run,) = setup.runs(head)
    assert run["id"] == gave_up["id"] and "gave up" not in run["output"]["title"]  # the same run, now the verdict


def big_pr(repo: Any, before: str, files: int, commits: int) -> str:
    """A PR of COMMITS commits through git fast-import: a stale restore of FILES files, then new files."""
    blobs = dict(line.split("\t")[::-1] for line in repo.git("ls-tree", "-r", before, "src/prep").splitlines())
    stream, parent = [], repo.git("rev-parse", "main")
    start = int(repo.git("log", "-1", "--format=%ct", "main"))  # minutes after main: a fresh stale tree
    for n in range(commits):
        message = f"wip {n}".encode()
        stream.append(f"commit refs/heads/big\ncommitter Carol <carol@example.com> {start + 60 * (n + 1)} +0000\n"
                      f"data {len(message)}\n{message.decode()}\n" + (f"from {parent}\n" if n == 0 else ""))
        if n == 0:
            stream += [f"M 100644 {blobs[f'src/prep/f{i}.py'].split()[2]} src/prep/f{i}.py\n" for i in range(files)]
        else:
            body = f"VALUE_{n} = {n}\n"
            stream.append(f"M 100644 inline gen/mod_{n:04d}.py\ndata {len(body)}\n{body}")
        stream.append("\n")
    repo.git("fast-import", "--quiet", input="".join(stream).encode())
    return repo.git("rev-parse", "big")


def test_pr_with_300_files_and_250_commits_walks_history_locally(world: World, web: LiveServer, repo: Any) -> None:
    setup = Setup(world, web, repo, files=60)
    head = big_pr(repo, setup.before, files=60, commits=260)
    assert len(repo.git("diff", "--name-only", "main", head).splitlines()) >= 319
    setup.open_pr(300, head, commits=repo.git("rev-list", f"main..{head}").splitlines())
    setup.deliver("opened", 300, head)
    assert setup.drain() == 1 and setup.states() == ["done"]
    (run,) = setup.runs(head)
    assert run["conclusion"] == "failure" and len(run["annotations"]) == 60
    assert len(world.standin.requests("PATCH", r"/check-runs/")) == 1  # 50 with the create, 10 in one update
    assert not world.standin.requests("GET", r"/pulls/300/(files|commits)")
    assert len(setup.comments(300)) == 1


def test_broken_base_config_fails_the_check_once_with_the_reason(setup: Setup) -> None:
    setup.repo.write(".leverguard.toml", "[revert]\nwindow = 'many'\n")
    setup.repo.commit("chore: break the config")
    setup.repo.git("push", "-q", str(setup.bare), "main")
    head = setup.open_pr(4, clean_pr(setup.repo, tag="v4"))
    setup.deliver("opened", 4, head)
    setup.drain()
    (row,) = setup.inbox.list()
    assert (row.state, row.attempts) == ("done", 1)  # no retry can fix it
    (run,) = setup.runs(head)
    assert run["conclusion"] == "failure" and "revert.window" in run["output"]["summary"]
    assert len(setup.comments(4)) == 1


def _lever_pr(repo: Any) -> str:
    """main gains an env-gated lever; the PR hard-wires it (a genuine change, no revert)."""
    repo.write("mpk/attn.cu", "#if MPK_FUSED_ROPE\nint rope = fused_rope();\n#else\nint rope = legacy_rope();\n#endif\n")
    repo.write("mpk/build.py", 'import os\nflags = []\nif os.environ.get("MPK_FUSED_ROPE"):\n'
                               '    flags.append("-DMPK_FUSED_ROPE")\n')
    repo.commit("exp: fused rope lever (#230)")
    repo.git("checkout", "-q", "-B", "hardwire", "main")
    repo.write("mpk/attn.cu", "int rope = fused_rope();\n")
    repo.write("mpk/build.py", "import os\nflags = []\n")
    head = repo.commit("perf: hard-wire fused rope", author="Carol <carol@example.com>")
    repo.git("checkout", "-q", "main")
    return head


def test_app_mode_reports_lever_transitions_from_the_bare_cache(setup: Setup) -> None:
    head = _lever_pr(setup.repo)
    git(setup.repo.path, "push", "-q", str(setup.bare), "main:main")
    setup.open_pr(31, head)
    setup.deliver("opened", 31, head)
    setup.drain()
    (run,) = setup.runs(head)
    assert run["conclusion"] == "success"  # informational: the other guards never fail the check
    summary = run["output"]["summary"]
    assert "Lever transitions" in summary and "`MPK_FUSED_ROPE` | HARD-WIRED" in summary
    assert "not checked" not in summary
    assert "### Commit messages" in summary  # the hard-wiring commit names no lever sections
    assert "lever-sections | missing sections" in summary and "the diff hard-wires MPK_FUSED_ROPE" in summary


def test_app_mode_message_section_uses_the_base_configuration(setup: Setup) -> None:
    setup.repo.write(".leverguard.toml", '[message]\ndisable = ["lever-sections", "lever-coverage"]\n'
                                         'co_author = "validate"\n')
    head = _lever_pr(setup.repo)  # commits the config on main first, with the lever
    git(setup.repo.path, "push", "-q", str(setup.bare), "main:main")
    setup.open_pr(32, head)
    setup.deliver("opened", 32, head)
    setup.drain()
    summary = setup.runs(head)[0]["output"]["summary"]
    assert "HARD-WIRED" in summary and "### Commit messages" not in summary and "not checked" not in summary
