"""Who someone is across e-mail addresses: mailmapped e-mails, names, GitHub noreply ids, co-authors.

"Own work" matters only for the weakest evidence (deleting fresh lines of one's own), and one
person under two addresses must still be one person (REVERTS.md, "Severity and who wrote it").
"""

from __future__ import annotations

import re

from leverguard.patterns import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable

    from leverguard.revert.model import RangeCommit


NOREPLY = lazy(r"^(?:\d+\+)?([^@]+)@users\.noreply\.github\.com$", re.IGNORECASE)
CO_AUTHOR = lazy(r"^\s*co-authored-by:\s*(.*?)\s*<([^>]*)>\s*$", re.IGNORECASE | re.MULTILINE)
# (GitHub Actions' own account commits what a workflow wrote on a fresh checkout: vendored schemas, bindings)
DEPENDENCY_BOT = lazy(r"\b(dependabot|renovate|pre-commit-ci|depfu|greenkeeper|snyk-bot|pyup-bot|github-actions)\b",
                      re.IGNORECASE)
# coding agents, by the trailers, footers and accounts they write (their e-mails, not names people share)
# (not Copilot's co-author trailer: GitHub writes it for a review suggestion applied in the browser too)
AGENT = lazy(r"^\s*co-authored-by:[^<\n]*<[^>\n]*(?:@anthropic\.com|cursoragent@cursor\.com|@openai\.com|"
             r"devin-ai-integration|@all-hands\.dev)|^\s*co-authored-by:\s*(?:claude|cursor agent|openhands|aider)\s*<|"
             r"generated with \[?claude code|^aider: |\b(?:copilot-swe-agent|claude|cursor|chatgpt-codex-connector|"
             r"openhands-agent)\[bot\]", re.IGNORECASE | re.MULTILINE)
# a bot account named in CamelCase (Prometheus' `PrometheusBot` syncing common files from upstream): a person's
# name that ends so is spelled `Talbot`
NAMED_BOT = lazy(r"[a-z]Bot$")
MIN_NAME_LOGIN = 6  # a full name squeezed to this many letters also matches a login spelled that way
# (and an organisation's own `ory-bot`, the `actions-user <actions@github.com>` a workflow commits as)
BOT = lazy(r"\[bot\]|^(dependabot|renovate|github-actions|pre-commit-ci|actions-user)\b|\w-bot$|\w-bot@|^actions@github\.com$",
           re.IGNORECASE)


def keys(email: str, name: str) -> set[str]:
    """Every key that names the person: the e-mail, a GitHub login, a normalized full name."""
    found = set()
    email = email.strip().lower()
    if email:
        found.add(email)
        login = NOREPLY.match(email)
        if login:
            found.add("login:" + login.group(1).lower())
    squeezed = re.sub(r"[^a-z0-9]", "", name.lower())
    if len(squeezed) >= 4 and " " in name.strip():  # a one-word name ("admin", "dev") is no identity
        found.add("name:" + squeezed)
        if len(squeezed) >= MIN_NAME_LOGIN:  # `Jakub Roztocil` commits as `jakubroztocil` too
            found.add("login:" + squeezed)
    elif squeezed and " " not in name.strip() and len(squeezed) >= 3:
        found.add("login:" + name.strip().lower())  # a bare login used as a display name
    return found


class Identities:
    """The people behind a set of commits: who committed them, and who their `Co-authored-by` trailers name."""

    __slots__ = ("_authors", "_keys")

    def __init__(self, people: Iterable[tuple[str, str]] = (), messages: Iterable[str] = ()) -> None:
        self._authors: set[str] = set()
        for email, name in people:
            if not is_bot(name, email):
                self._authors |= keys(email, name)
        self._keys = set(self._authors)
        for message in messages:
            for name, email in CO_AUTHOR.findall(message):
                self._keys |= keys(email, name)

    def matches(self, email: str, name: str, co_authors: bool = True) -> bool:
        """Whether EMAIL/NAME is one of these people; CO_AUTHORS False: one who committed, not a trailer's
        name (GitHub's squash names everyone who pushed to the branch, an `Update branch` merge included)."""
        return bool((self._keys if co_authors else self._authors) & keys(email, name))

    def __bool__(self) -> bool:
        return bool(self._keys)


def is_bot(name: str, email: str) -> bool:
    """An account that is no person (`github-actions[bot]`, Dependabot, Renovate, pre-commit.ci)."""
    return bool(BOT.search(name) or BOT.search(email))


def is_dependency_bot(name: str, email: str) -> bool:
    """Dependabot, Renovate, pre-commit.ci, a GitHub Actions workflow and friends: they regenerate files on a
    fresh checkout.

    Not merge bots (kodiak, bors, mergify): those land people's work, stale trees included.
    """
    return bool(DEPENDENCY_BOT.search(name) or DEPENDENCY_BOT.search(email) or NAMED_BOT.search(name.strip()))


def by_dependency_bots(rows: Iterable[RangeCommit]) -> bool:
    """Whether a dependency bot wrote every commit of ROWS ((sha, email, name, message); a merge's own row,
    which has no email, aside): trio's `Merge pull request #2412 from .../dependabot/pip/...`, merged by a
    person, is the bot's change."""
    authors = [(row.name, row.email) for row in rows if row.email]
    return bool(authors) and all(is_dependency_bot(name, email) for name, email in authors)


def is_agent_work(messages: Iterable[str], people: Iterable[tuple[str, str]] = ()) -> bool:
    """A coding agent wrote (or co-wrote) the change: Claude Code, Copilot's coding agent, Cursor, Codex, Devin, ...

    An agent writes whole files from what it read earlier, so a copy it read before another session's
    commit undoes that commit's hunks in a tree that holds it (the #221/#224 story's sessions).
    """
    return any(AGENT.search(text) for text in messages) or \
        any(AGENT.search(f"co-authored-by: {name} <{email}>") for email, name in people)
