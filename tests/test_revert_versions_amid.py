"""Versions a bump moved on, set back by a change that keeps the file's later changes.

A stale squash can take a manifest's hunks back without being a copy of the whole file (hoppscotch's
`perf(desktop): cache store path resolution` writing `vite` 7.3.0 back to 6.3.5 and its crates back, while
later edits of those files stayed). Hunks undone amid kept later changes are a notice, as a deliberate edit
reads; versions set back are graded as a version set back is, a warning at any age, whatever scope the two
titles share.
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, by_pr, check, land, seed

TOP = "[package]\nname = \"desktop-shell\"\nedition = \"2021\"\n\n[dependencies]\n"
OLD = "tauri = { version = \"2.2.1\" }\ntauri-plugin-store = \"2.2.0\"\ntauri-plugin-dialog = \"2.2.0\"\n"
NEW = "tauri = { version = \"2.9.3\" }\ntauri-plugin-store = \"2.4.1\"\ntauri-plugin-dialog = \"2.4.2\"\n"
# a bump's lines whose numbers stay, their features changed instead
FEATURES_OLD = "tauri = { version = \"2.9.3\", features = [] }\ntauri-plugin-store = { version = \"2.4.1\" }\n"
FEATURES_NEW = "tauri = { version = \"2.9.3\", features = [\"devtools\"] }\n" \
               "tauri-plugin-store = { version = \"2.4.1\", features = [\"json\"] }\n"
BUILD_OLD, BUILD_NEW = "\n[build-dependencies]\ntauri-build = \"2.2.1\"\n", "\n[build-dependencies]\ntauri-build = \"2.5.2\"\n"
TAIL = "\n[profile.release]\nlto = true\n"


def _stale_hunks(repo: Repo, title: str, old: str = OLD, new: str = NEW) -> dict:
    seed(repo)
    land(repo, "chore(desktop): the shell manifest", {"desktop/Cargo.toml": TOP + old + BUILD_OLD + TAIL})
    land(repo, "chore(desktop): bump desktop shell dependencies (#301)",
         {"desktop/Cargo.toml": TOP + new + BUILD_NEW + TAIL}, author=BOB)
    # a later change to the file, which the squash keeps, as it keeps the bump's other hunk
    land(repo, "build: thin LTO (#302)", {"desktop/Cargo.toml": TOP + new + BUILD_NEW + TAIL.replace("true", "\"thin\"")},
         author=DAVE)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, title, {"desktop/Cargo.toml": TOP + old + BUILD_NEW + TAIL.replace("true", "\"thin\""),
                       "src/mod1.py": "cache_store_path = resolve_once()\n"}, author=CAROL)
    return by_pr(check(repo, "main..topic")[1])[301]


@pytest.mark.parametrize("title", ["perf: cache store path resolution", "perf(desktop): cache store path resolution"])
def test_versions_set_back_amid_kept_later_changes_are_a_warning(repo: Repo, title: str) -> None:
    finding = _stale_hunks(repo, title)
    assert finding["severity"] == "warning" and "version" in finding["reason"], finding["reason"]


def test_the_same_hunk_taken_back_without_a_version_going_back_stays_a_notice(repo: Repo) -> None:
    # negative control: the bump's hunk only added features; taking them back amid kept changes reads as an edit
    finding = _stale_hunks(repo, "perf(desktop): cache store path resolution", FEATURES_OLD, FEATURES_NEW)
    assert finding["severity"] == "notice", finding["reason"]
