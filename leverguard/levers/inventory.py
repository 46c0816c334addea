"""Scan a revision (or the index): one `git grep` pre-filter, then parse only the files that can matter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from leverguard import git
from leverguard.config import Config
from leverguard.levers import cpp, pyscan
from leverguard.levers.classify import Policy, Verdict, classify
from leverguard.levers.ledger import read_rows
from leverguard.levers.model import Lever, LeverNames, Scanned, build_levers
from leverguard.levers.quick import unread_note


@dataclass(frozen=True)
class Entry:
    lever: Lever
    verdict: Verdict


@dataclass(frozen=True)
class Inventory:
    rev: str | None  # None: the index
    entries: tuple[Entry, ...]
    scanned: Scanned

    def by_name(self) -> dict[str, Entry]:
        return {e.lever.name: e for e in self.entries}


def c_pathspecs(config: Config) -> list[str]:
    return [f"*{ext}" for ext in config.get("levers.source_extensions")]


def source_suffixes(config: Config) -> tuple[str, ...]:
    """The endings of every file the lever engine parses: C-family sources and Python."""
    return (*config.get("levers.source_extensions"), ".py")


def is_c_source(path: str, config: Config) -> bool:
    return path.endswith(tuple(config.get("levers.source_extensions")))


def scan_tree(repo: str, config: Config, rev: str | None, reuse: Scanned | None = None,
              changed: frozenset[str] = frozenset(), large: Mapping[str, int] | None = None) -> Scanned:
    """Parse every C-family and Python file at REV (None: the index) that mentions a lever-like token.

    With `reuse` (the other side of a diff), files outside `changed` are taken from it unparsed
    and only the changed files are read: the second side of `levers diff` needs no `git grep`.
    Sources over `max_file_size` (LARGE: those known already, path -> size) are never read, and
    never handed to `git grep`, which would load each one whole (issue #11): each gets a note.
    """
    limit = config.get("max_file_size")
    scanned = Scanned(rev)
    if reuse is None:
        if large is None:
            large = git.large_files(rev, source_suffixes(config), limit, repo)
        _unread(scanned, large, limit)
        # Parse each file while git grep is still searching the rest of the tree.
        specs = [*c_pathspecs(config), "*.py", *git.excluding(large)]
        with git.ObjectReader(repo) as reader:
            for path in git.grep_files_stream(LeverNames(config).grep_patterns(), rev, specs, repo):
                blob = reader.read(git.blob_spec(rev, path))
                if blob is not None and blob[0] == "blob":
                    _parse_into(scanned, config, path, blob[1])
        return scanned
    # Unchanged files parse the same on both sides; changed ones are few, so parse them all.
    for path in [*reuse.cfiles, *reuse.pyfiles]:
        if path not in changed:
            _copy(reuse, scanned, path)
    scanned.unread.update((path, size) for path, size in reuse.unread.items() if path not in changed)
    fresh_large = {path: size for path, size in (large or {}).items() if path not in reuse.unread}
    _unread(scanned, fresh_large, limit)  # said once: those unread on the other side already were
    scanned.unread.update(large or {})
    fresh = sorted(p for p in changed if (p.endswith(".py") or is_c_source(p, config)) and p not in scanned.unread)
    blobs = git.read_blobs([git.blob_spec(rev, path) for path in fresh], repo)
    for path in fresh:
        data = blobs.get(git.blob_spec(rev, path))
        if data is not None:
            _parse_into(scanned, config, path, data)
    return scanned


def _unread(scanned: Scanned, large: Mapping[str, int], limit: int) -> None:
    scanned.unread.update(large)
    scanned.notes.extend(unread_note(path, size, limit) for path, size in sorted(large.items()))


def _parse_into(scanned: Scanned, config: Config, path: str, data: bytes) -> None:
    if path.endswith(".py"):
        scanned.pyfiles[path] = pyscan.scan(path, data)
    elif is_c_source(path, config):
        scanned.cfiles[path] = cpp.scan(path, data)


def _copy(source: Scanned, target: Scanned, path: str) -> None:
    if path in source.pyfiles:
        target.pyfiles[path] = source.pyfiles[path]
    elif path in source.cfiles:
        target.cfiles[path] = source.cfiles[path]


def policy_of(config: Config) -> Policy:
    return Policy(config.get("levers.geometry"), config.get("levers.leave_untouched"),
                  config.get("levers.diagnostic_markers"), config.get("levers.win_words"),
                  config.get("levers.dead_words"))


def inventory(repo: str, config: Config, rev: str | None) -> Inventory:
    """Levers at REV (None: the index), each classified with its evidence."""
    root = git.work_root(repo)
    return inventory_at(root, config, git.rev_parse(rev, root) if rev is not None else None)


def inventory_at(root: str, config: Config, commit: str | None) -> Inventory:
    """`inventory` for a resolved commit id (None: the index) at the top of the working tree."""
    return classify_scanned(root, config, scan_tree(root, config, commit), history_rev=commit or _head(root))


def classify_scanned(root: str, config: Config, scanned: Scanned, history_rev: str | None) -> Inventory:
    levers = build_levers(scanned, LeverNames(config))
    return Inventory(scanned.rev, tuple(classify_levers(root, config, levers, history_rev)), scanned)


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
