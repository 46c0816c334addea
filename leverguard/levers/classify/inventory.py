"""The classified inventory of a revision: every lever with its class and evidence (`leverguard levers`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from leverguard import git
from leverguard.config import Config
from leverguard.levers.classify.ledger import read_rows
from leverguard.levers.classify.rules import Policy, Verdict, classify
from leverguard.levers.model.lever import Lever, LeverNames, Scanned, build_levers
from leverguard.levers.model.scan import c_pathspecs, scan_tree, source_suffixes
from leverguard.session import Session


@dataclass(frozen=True)
class Entry:
    lever: Lever
    verdict: Verdict


@dataclass(frozen=True)
class Inventory:
    rev: str | None  # None: the index
    entries: tuple[Entry, ...]
    scanned: Scanned


def policy_of(config: Config) -> Policy:
    return Policy(config.get("levers.geometry"), config.get("levers.leave_untouched"),
                  config.get("levers.diagnostic_markers"), config.get("levers.win_words"),
                  config.get("levers.dead_words"))


def inventory(session: Session, config: Config, rev: str | None) -> Inventory:
    """Levers at REV (None: the index), each classified with its evidence."""
    return inventory_at(session, config, git.rev_parse(rev, session.repo) if rev is not None else None)


def inventory_at(session: Session, config: Config, commit: str | None) -> Inventory:
    """`inventory` for a resolved commit id (None: the index); the session's repo is the working tree's top."""
    scanned = scan_tree(session, config, commit)
    levers = build_levers(scanned, LeverNames(config))
    history_rev = commit or _head(session.repo)
    return Inventory(scanned.rev, tuple(classify_levers(session.repo, config, levers, history_rev)), scanned)


def classify_levers(root: str, config: Config, levers: dict[str, Lever], history_rev: str | None) -> list[Entry]:
    """Classify the given levers; `git log -S` runs only for levers whose ledger row says WIN."""
    rows = read_rows(root, config, levers)
    policy = policy_of(config)
    pathspecs = [*c_pathspecs(config), "*.py"]
    excludes: list[str] = []

    def history(name: str) -> tuple[str, str] | None:
        if history_rev is None:
            return None
        if not excludes:  # `log -S --text` loads every version it walks: none of a source over max_file_size
            large = git.large_files(history_rev, source_suffixes(config), config.get("max_file_size"), root)
            excludes.extend(git.excluding(large) or [""])
        return git.first_commit_adding(name, history_rev, [*pathspecs, *filter(None, excludes)], root)

    return [Entry(lever, classify(lever, [r for r in rows if r.lever == name], policy, history))
            for name, lever in levers.items()]


def _head(root: str) -> str | None:
    return "HEAD" if git.has_commits(root) else None


def to_dict(inv: Inventory) -> dict[str, Any]:
    """The stable `levers --format json` schema (issue #4); extra fields are additions, never renames."""
    return {
        "rev": inv.rev or "index",
        "levers": [_lever_dict(e) for e in inv.entries],
        "warnings": inv.scanned.warnings,
    }


def _lever_dict(entry: Entry) -> dict[str, Any]:
    lever = entry.lever
    return {
        "name": lever.name,
        "class": entry.verdict.cls,
        "evidence": list(entry.verdict.evidence),
        "env": lever.env,
        "gates": [{"path": g.path, "line": g.line, "kind": g.kind, "has_else": g.has_else, "usage": g.usage,
                   "condition": g.condition, "branches": [list(s) for s in g.spans]} for g in lever.gates],
        "injections": [{"path": i.path, "line": i.line, "condition": i.condition, "guard": i.guard,
                        "value": i.value, "env": list(i.env)} for i in lever.injections],
        "reads": [{"path": r.path, "line": r.line, "var": r.var, "how": r.how} for r in lever.reads],
    }
