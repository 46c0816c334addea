"""From path hits to one finding per undone commit: tallies, whole folders, declarations, severity."""

from __future__ import annotations

import posixpath
from collections import Counter
from typing import NamedTuple, Sequence

from leverguard.revert.context import Context
from leverguard.revert.declared import Declarations, is_revert, pr_number
from leverguard.revert.findings import EXACT_KINDS, Evidence, RevertFinding, Tally, silent_severity
from leverguard.revert.model import Change, Commit, display
from leverguard.revert.signals import PathHit, moved_away

MIN_FOLDER_FILES = 2  # a "whole module folder" holds at least this many files the commit added


class Landed(NamedTuple):
    """What the checked change is: its path changes, authors, declarations and acknowledgements."""

    changes: Sequence[Change]
    authors: frozenset[str]  # lower-cased e-mails of the range's commits
    declarations: Declarations
    acks: Declarations
    own_pr: int | None = None
    own_commits: frozenset[str] = frozenset()  # the checked commit(s), matched against ack entries


def findings(hits: list[PathHit], commits: Sequence[Commit], landed: Landed, ctx: Context,
             all_added: Counter[bytes] | None) -> list[RevertFinding]:
    """One finding per candidate with hits, newest first."""
    hits = _without_moves(hits, landed.changes, ctx, all_added)
    by_position: dict[int, list[PathHit]] = {}
    for hit in hits:
        if ctx.reported(hit.path):
            by_position.setdefault(hit.position, []).append(hit)
    results = []
    for position in sorted(by_position):
        commit = commits[position]
        if landed.own_pr is not None and pr_number(commit) == landed.own_pr:
            continue  # the PR's own earlier landing: a rebased copy or continuation, not someone else's work
        results.append(_finding(commit, by_position[position], commits, landed, ctx))
    return results


def _without_moves(hits: list[PathHit], changes: Sequence[Change], ctx: Context,
                   all_added: Counter[bytes] | None) -> list[PathHit]:
    deletions = {c.path: c for c in changes if c.deleted}
    if not any(h.kind == "deleted-added" for h in hits):
        return hits
    added_oids = {c.new.oid for c in changes if c.new is not None and c.old is None}
    added_lines = all_added if all_added is not None else Counter()
    return [h for h in hits if h.kind != "deleted-added"
            or not moved_away(deletions[h.path], ctx.cache, added_lines, added_oids)]


def _finding(commit: Commit, hits: list[PathHit], commits: Sequence[Commit], landed: Landed,
             ctx: Context) -> RevertFinding:
    tally = _tally(commit, hits, landed, ctx)
    inner = ctx.inner(commit)
    own = bool(landed.authors & {email for _, email, _ in inner})
    severity = silent_severity(tally, own)
    explanation = _explanation(commit, inner, landed)
    author = inner[-1][2] if commit.is_merge and inner else commit.author_name
    evidence = tuple(_evidence(h, commits) for h in sorted(hits, key=lambda h: h.path))
    return RevertFinding(
        commit.sha, pr_number(commit), commit.subject, author, "info" if explanation else severity,
        explanation.startswith("declared") or explanation.startswith("acknowledged"),
        tuple(e.path for e in evidence), tally, evidence, commit.time, severity, explanation)


def _explanation(commit: Commit, inner: list[tuple[str, str, str]], landed: Landed) -> str:
    inner_shas = [sha for sha, _, _ in inner]
    ref = landed.declarations.matches(commit, inner_shas)
    if ref is not None:
        return f"declared: the range says it reverts {ref}"
    ack = landed.acks.matches(commit, inner_shas) or _own_ack(landed)
    if ack is not None:
        reason = landed.acks.reasons.get(ack.lower(), "")
        return f"acknowledged in the ack file ({ack}{': ' + reason if reason else ''})"
    if is_revert(commit):
        return "re-land: the undone commit was itself a revert, so this re-applies the original"
    return ""


def _own_ack(landed: Landed) -> str | None:
    for sha in landed.own_commits:
        for prefix in landed.acks.shas:
            if sha.startswith(prefix):
                return prefix
    if landed.own_pr is not None and landed.own_pr in landed.acks.prs:
        return f"#{landed.own_pr}"
    return None


def _tally(commit: Commit, hits: list[PathHit], landed: Landed, ctx: Context) -> Tally:
    kinds = tuple(sorted({h.kind for h in hits}))
    exact = [h for h in hits if h.kind in EXACT_KINDS]
    folders = whole_folders(commit, hits, landed.changes, ctx)
    return Tally(
        kinds=kinds, undone_paths=len({h.path for h in hits}),
        touched_paths=sum(1 for c in commit.changes if ctx.reported(c.path)),
        undone_lines=sum(h.lines for h in hits), touched_lines=ctx.touched_lines(commit),
        exact_paths=len(exact), exact_binary=any(not h.text for h in exact),
        whole_folders=tuple(display(f) for f in folders),
        inverse_files=sum(1 for h in hits if h.kind == "inverse-hunk"))


def whole_folders(commit: Commit, hits: list[PathHit], changes: Sequence[Change], ctx: Context) -> list[bytes]:
    """Folders the commit created whose files HEAD deletes entirely, touching nothing else there."""
    deleted = {h.path for h in hits if h.kind == "deleted-added"}
    if len(deleted) < MIN_FOLDER_FILES:
        return []
    added = [c.path for c in commit.changes if c.added]
    found: set[bytes] = set()
    for path in deleted:
        best = None
        folder = posixpath.dirname(path)
        while folder and _whole(folder, added, deleted, changes) and not ctx.folder_existed(commit, folder):
            best, folder = folder, posixpath.dirname(folder)
        if best is not None:
            found.add(best)
    return sorted(found)


def _whole(folder: bytes, added: list[bytes], deleted: set[bytes], changes: Sequence[Change]) -> bool:
    prefix = folder + b"/"
    mine = [p for p in added if p.startswith(prefix)]
    others = [c for c in changes if c.path.startswith(prefix) and not c.deleted]
    return len(mine) >= MIN_FOLDER_FILES and all(p in deleted for p in mine) and not others


def _evidence(hit: PathHit, commits: Sequence[Commit]) -> Evidence:
    path = display(hit.path)
    if hit.kind == "rollback" and hit.before is not None:
        detail = f"rolled back to before {commits[hit.before].short}, which also undoes this commit's change"
    elif hit.kind == "rollback":
        detail = "byte-identical to its version before this commit"
    elif hit.kind == "resurrected":
        detail = "re-added after this commit deleted it"
    elif hit.kind == "deleted-added":
        detail = "deleted; this commit added it"
    else:
        detail = f"{hit.lines}/{hit.total} of this commit's lines undone"
    return Evidence(path, hit.kind, hit.lines, hit.total, detail)
