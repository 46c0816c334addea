"""One line of one of the latest commits: undone, or edited where it stood.

A stale copy of a file lacks the line a recent commit added and writes nothing in its place, so one
such line taken out is a warning. A hunk that takes it out and writes new lines right there edited it
(termbox's `keyMax` renamed `key_min`, django-constance's `except` clause narrowed): a notice. Two shapes
keep the warning: a block re-wrapped with its other lines kept and that one gone (crossbeam's rebased `pop`
losing `guard.unlinked(head)`), and an old line put back beside new ones (a conflict resolution restoring
a line the commit had deleted).
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, seed

HEAD = [f"def step_{i}(queue, guard):\n    value_{i} = queue.pop_front(limit={i * 3})\n" for i in range(6)]
TAIL = body("tail", 12)
LINE = "    guard.release_segment(head_index)\n"
NEW = "queue_metrics = collect_metrics(window=30)\n"  # the change's own work, far from the line


def _edit(repo: Repo, written: list[str], *, block: list[str] | None = None) -> tuple[int, dict]:
    """Bob's #301 adds LINE after the loop head; Carol's topic, branched after another commit, writes WRITTEN
    in its place (or BLOCK for the whole region)."""
    seed(repo)
    around = ["    while queue.has_items(head_index):\n", "        head_index = queue.advance(head_index)\n"]
    land(repo, "feat: the queue", {"src/queue.py": "".join(HEAD + around + ["    return head_index\n"]) + TAIL})
    land(repo, "fix: free segments (#301)",
         {"src/queue.py": "".join(HEAD + around + [LINE, "    return head_index\n"]) + TAIL}, author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    region = block if block is not None else around + written
    land(repo, "perf: faster queue", {"src/queue.py": "".join(HEAD + region + ["    return head_index\n"]) + TAIL + NEW},
         author=CAROL)
    code, report = check(repo, "main..topic")
    return code, by_pr(report)[301]


def test_a_line_of_the_latest_commits_taken_out_alone_is_a_warning(repo: Repo) -> None:
    code, finding = _edit(repo, [])
    assert finding["severity"] == "warning", finding["reason"]
    assert finding["reason"].startswith("a line of one of the latest commits undone exactly")


def test_new_lines_written_in_its_place_make_it_an_edit(repo: Repo) -> None:
    code, finding = _edit(repo, ["    segments.recycle_all(queue.tail_index)\n"])
    assert (code, finding["severity"]) == (0, "notice"), finding["reason"]
    assert "new lines written in its place" in finding["reason"]


def test_a_block_rewrapped_without_the_line_stays_a_warning(repo: Repo) -> None:
    # the loop kept, re-indented under a new guard, the freeing call gone from it: a stale rebase's shape
    block = ["    if queue.segmented_mode:\n", "        while queue.has_items(head_index):\n",
             "            head_index = queue.advance(head_index)\n"]
    code, finding = _edit(repo, [], block=block)
    assert finding["severity"] == "warning", finding["reason"]
    assert "in its place" not in finding["reason"]


def test_an_old_line_put_back_beside_new_ones_stays_a_warning(repo: Repo) -> None:
    # #301 took a line out; the change puts it back and writes a new line beside it: no edit of #301's work
    seed(repo)
    lines = HEAD + ["    queue.compact_segments(head_index)\n", "    return head_index\n"]
    land(repo, "feat: the queue", {"src/queue.py": "".join(lines) + TAIL})
    land(repo, "perf: no compaction (#301)", {"src/queue.py": "".join(HEAD + ["    return head_index\n"]) + TAIL},
         author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    back = HEAD + ["    queue.compact_segments(head_index)\n", "    metrics.count_compactions(queue)\n",
                   "    return head_index\n"]
    land(repo, "perf: faster queue", {"src/queue.py": "".join(back) + TAIL + NEW}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == "warning", finding["reason"]
    assert "in its place" not in finding["reason"]


def test_entries_dropped_from_a_list_a_commit_only_reordered_undo_nothing(repo: Repo) -> None:
    # #301 re-sorts a generated list and re-indents it: each line it adds, it also removes. Deleting two
    # entries from that list later takes out no work of #301's (squid's `Stub.am` read as "1/1 hunks undone")
    seed(repo)
    names = [f"tests/stub_{name}.cc \\\n" for name in
             ("tools", "acl", "Port", "cbdata", "SBuf", "comm", "debug", "Store", "event", "fd", "http", "ipc")]
    land(repo, "feat: the stubs", {"src/Stub.am": "STUB = \\\n" + "".join("    " + n for n in names) + "\n"})
    land(repo, "build: stable stub order (#301)",
         {"src/Stub.am": "STUB = \\\n" + "".join("\t" + n for n in sorted(names)) + "\n"}, author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    kept = [n for n in sorted(names) if "Port" not in n and "event" not in n]
    land(repo, "refactor: no Port or event stubs", {"src/Stub.am": "STUB = \\\n" + "".join("\t" + n for n in kept) + "\n",
                                                    "src/mod1.py": body("new", 6)}, author=CAROL)
    code, report = check(repo, "main..topic")
    assert code == 0 and 301 not in by_pr(report), report["findings"]


def _dependency(artifact: str) -> str:
    return (f"    <dependency>\n      <groupId>org.openhab.core.bundles</groupId>\n      <artifactId>{artifact}</artifactId>\n"
            "      <version>${project.version}</version>\n      <scope>compile</scope>\n    </dependency>\n")


@pytest.mark.parametrize(("written", "found"), [
    ("org.openhab.core.addon.eclipse", False),  # openhab's new block: only the boilerplate it shares matches
    ("org.openhab.core.thing.xml", True),  # the block #301 took out, back whole: a stale copy
])
def test_a_new_block_sharing_boilerplate_with_one_a_commit_took_out(repo: Repo, written: str, found: bool) -> None:
    seed(repo)
    kept = [f"org.openhab.core.module{i}" for i in range(6)]
    def pom(blocks: list[str]) -> str:
        return "<dependencies>\n" + "".join(_dependency(name) for name in blocks) + "</dependencies>\n"
    land(repo, "bom: modules", {"bom/pom.xml": pom(kept[:2] + ["org.openhab.core.thing.xml"] + kept[2:4] +
                                                 ["org.openhab.core.config.xml"] + kept[4:])})
    land(repo, "Refactor XML handling (#301)", {"bom/pom.xml": pom(kept)}, author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: an eclipse add-on", {"bom/pom.xml": pom(kept[:2] + [written] + kept[2:]),
                                           "src/mod1.py": body("eclipse", 6)}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding and (finding["reason"], finding["evidence"])


@pytest.mark.parametrize(("copies", "found"), [
    (1, False),  # active_merchant's entry, written twice by #301: one copy taken out, the other kept
    (0, True),  # both copies gone: its entry lost
])
def test_one_copy_of_a_line_a_commit_wrote_twice_taken_out(repo: Repo, copies: int, found: bool) -> None:
    seed(repo)
    head = "= ActiveMerchant CHANGELOG\n\n== HEAD\n"
    older = "".join(f"* Gateway {i}: support the refund flow for partial captures [dev{i}] #{4700 + i}\n" for i in range(8))
    entry = "* Ogone: add the 3DS2 browser info fields to purchases [ajawadmirza] #4771\n"
    land(repo, "changelog", {"CHANGELOG": head + older})
    half = older.splitlines(keepends=True)
    land(repo, "Ogone: 3DS2 browser info (#301)", {"CHANGELOG": head + entry + "".join(half[:4]) + entry + "".join(half[4:])},
         author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Ogone: add the network token fields",
         {"CHANGELOG": head + "* Ogone: network token fields [dev] #4780\n" + entry * copies + older, "src/mod1.py": body("tok", 6)},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding and (finding["reason"], finding["evidence"])


def test_code_a_commit_wrote_in_two_places_taken_out_of_one_is_lost(repo: Repo) -> None:
    # rq's deferred-job fix, the same two lines in `enqueue_job` and `_enqueue_async_job`: one of them undone
    # by a stale copy is that code path broken again, whatever the other keeps
    seed(repo)
    def method(name: str, fixed: bool) -> str:
        check = "        is_deferred = job.get_status(refresh=False) == JobStatus.DEFERRED\n"
        fix = "            if is_deferred:\n                self.deferred_job_registry.remove(job, pipeline=pipe)\n"
        steps = "".join(f"        step_{name}_{i} = job.run_step({i}, timeout=self.timeout_{i})\n" for i in range(6))
        return (f"    def {name}(self, job, pipe):\n" + (check if fixed else "") + steps
                + "        with self.connection.pipeline() as pipe:\n            job.prepare_for_execution(pipe)\n"
                + (fix if fixed else "") + "            return job.save(pipeline=pipe)\n\n")

    def queue(first: bool, second: bool) -> str:
        return "class Queue:\n" + method("enqueue_job", first) + \
            "".join(f"    def helper_{i}(self):\n        return self.registry_{i}.count()\n\n" for i in range(6)) + \
            method("enqueue_async_job", second)
    land(repo, "queue", {"rq/queue.py": queue(False, False)})
    land(repo, "Remove deferred jobs from the registry when enqueued (#301)", {"rq/queue.py": queue(True, True)}, author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: queue metrics", {"rq/queue.py": queue(True, False) + "METRICS = collect_metrics(window=30)\n"},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert finding is not None and finding["severity"] in ("warning", "error"), finding and finding["reason"]


FLAGGED = ["#[cfg(feature = \"macros\")]\n", "fn parse_macro_args_and_defaults(&mut self) -> Result<(), Error> {\n",
           "    self.stream.expect_token(Token::ParenOpen)\n", "}\n"]


@pytest.mark.parametrize(("subject", "severity"), [
    # minijinja's `Added missing conditional compilation flag`: the attribute #301 dropped, put back alone
    ("Added missing conditional compilation flag", "notice"),
    ("perf: a faster parser", "warning"),  # nothing said of it
])
def test_a_line_only_put_back_under_a_title_adding_what_was_missing(repo: Repo, subject: str, severity: str) -> None:
    seed(repo)
    land(repo, "feat: macros", {"src/parser.rs": "".join(FLAGGED) + TAIL})
    land(repo, "Add do tag (#301)", {"src/parser.rs": "".join(FLAGGED[1:]) + TAIL, "src/mod1.py": body("do", 4)}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"src/parser.rs": "".join(FLAGGED) + TAIL + NEW}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


@pytest.mark.parametrize(("count", "severity"), [(2, "notice"), (3, "warning")])  # MISSING_LINES, either side
def test_how_many_lines_put_back_under_add_missing(repo: Repo, count: int, severity: str) -> None:
    seed(repo)
    body_lines = [f"    self.stream.expect_token(Token::Step{i})\n" for i in range(count)]
    flagged = FLAGGED[:3] + body_lines + FLAGGED[3:]
    land(repo, "feat: macros", {"src/parser.rs": "".join(flagged) + TAIL})
    land(repo, "Add do tag (#301)", {"src/parser.rs": "".join(flagged[:3] + flagged[3 + count:]) + TAIL,
                                     "src/mod1.py": body("do", 4)}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Added missing docs", {"src/parser.rs": "".join(flagged) + TAIL + NEW}, author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1])[301]
    assert finding["severity"] == severity, finding["reason"]


SPEC = ('      it("rejects an empty list") {{\n'
        '{body}'
        '      }}\n')
CHECKS = ('        e1.failedCodeFileName.get should be ("ListSpec.scala")\n'
          '        e1.failedCodeLineNumber.get should be (thisLineNumber - 3)\n'
          '        e1.message should be (Some(Resources.onlyEmpty))\n')
INTERCEPT = '        val e1 = intercept[NotAllowedException] {{\n          fumList should contain only ()\n        }}\n'


def _indented(text: str) -> str:
    return "".join("  " + line for line in text.splitlines(keepends=True))


def _guarded(orelse: str = "") -> str:
    """The test's body under #301's guard (its old lines indented), with ORELSE as an `else` branch."""
    inner = _indented(INTERCEPT.format() + CHECKS)
    return SPEC.format(body='        if (BuiltForScalaVersion != "2.13") {\n' + inner +
                       ("        } else {\n" + orelse if orelse else "") + "        }\n")


@pytest.mark.parametrize(("written", "found"), [
    # scalatest's `Add 2.13 version of ListShouldContainOnlySpec test`: an `else` branch beside #301's guard, its
    # lines those #301 only re-indented (git's diff pairs them apart, into hunks of their own)
    (_guarded(_indented(INTERCEPT.format().replace("only ()", "only.apply()") + CHECKS)), False),
    (SPEC.format(body=INTERCEPT.format() + CHECKS), True),  # the guard taken out, the old body back: a stale copy
])
def test_lines_a_commit_only_re_indented_across_hunks_are_no_work(repo: Repo, written: str, found: bool) -> None:
    seed(repo)
    land(repo, "test: the list spec", {"src/ListSpec.scala": SPEC.format(body=INTERCEPT.format() + CHECKS) + TAIL})
    land(repo, "Get the empty-list test to pass on 2.13 (#301)", {"src/ListSpec.scala": _guarded() + TAIL}, author=BOB)
    land(repo, "docs: notes (#302)", {"docs/notes.md": "notes\n"}, author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "Cover the other compiler too", {"src/ListSpec.scala": written + TAIL, "src/mod1.py": body("new", 6)},
         author=CAROL)
    finding = by_pr(check(repo, "main..topic")[1]).get(301)
    assert (finding is not None and finding["severity"] in ("warning", "error")) is found, finding and finding["reason"]
