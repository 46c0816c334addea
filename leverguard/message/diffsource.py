"""The lever changes a message is held to, from the lever engine; its cost is paid only when needed."""

from __future__ import annotations

import os

from leverguard import git
from leverguard import cache
from leverguard.message.model import Change, LeverWork, Pitfall
from leverguard.message.settings import Settings

TYPE_CHECKING = False  # the hook path imports this module: no typing
if TYPE_CHECKING:
    from typing import Any

    from leverguard.session import Session

# The hooks of one `git commit` (prepare-commit-msg, then commit-msg) see the same index within
# seconds: the first computes the lever changes, the next reads them. The age limit bounds what
# the key cannot see (the untracked ledger that feeds the lever classes).
STAGED_CACHE = "staged-lever-changes.marshal"
STAGED_MAX_AGE = 120.0


def lever_changes(session: Session, settings: Settings, base: str, head: str | None) -> LeverWork:
    """What BASE..HEAD (HEAD None: the index) does to each lever, and the pitfalls it leaves, as plain data.

    A change that adds or removes no lever-like line in a lever source never imports the lever
    engine. The test is the lever patterns as one regex (`levers.model.quick.lever_regex`, cached in the
    settings) and one `git diff -G`; spawned here without `subprocess` and `typing`, which would cost the hook a
    third of its budget. A change that touches no lever source at all stops after `git diff --raw`,
    before the session's object reader starts. SESSION's repo is the working tree's top.
    """
    root = session.repo
    regex = settings.lever_regex or _regex(settings)
    sources = [f"*{ext}" for ext in (*settings.source_extensions, ".py")]
    side = [head] if head is not None else ["--cached"]
    large = _large_sources(session, settings, base, side, sources)
    if large is None:
        return LeverWork()
    unread = _unread_notes(large, settings.max_file_size) if large else ()
    # --text: a `-diff` attribute must not hide a lever (issue #11); only lever sources: a README that
    # names a lever moves none; and none over max_file_size, which git would load whole.
    args = ["diff", "--name-only", "-z", *git.OWN_DIFF, f"-G{regex}", base, *side, "--", *sources,
            *git.excluding(large)]
    if not git.start(args, root).result().stdout:
        return LeverWork(unread=unread)
    from leverguard import config
    from leverguard.levers.transitions.diff import compute_diff

    cfg = config.load(root)
    diff = compute_diff(session, cfg, base, head)
    measured = _ledger_deltas(root, cfg, [t.lever for t in diff.transitions if t.kind == "HARD-WIRED"])
    changes = tuple(Change(t.lever, t.kind, tuple(t.evidence), *measured.get(t.lever, ("", "")))
                    for t in diff.transitions)
    pitfalls = tuple(Pitfall(f.kind, f.name, f.path, f.line, f.message) for f in diff.findings)
    return LeverWork(changes, pitfalls, tuple(diff.unread))


def _large_sources(session: Session, settings: Settings, base: str, side: list[str],
                   sources: list[str]) -> dict[str, int] | None:
    """path -> size of the changed lever sources over max_file_size; None when no lever source changed.

    `git diff --raw` names the changed sources and their blobs without reading any; the session's
    reader gives the sizes (issue #11: `-G` would load a 200 MB source whole), and starts only
    when a lever source changed: the lever engine then reads its blobs through the same process.
    """
    listing = git.start(["diff", "--raw", "-z", "--no-abbrev", "--no-renames", base, *side, "--", *sources],
                        session.repo)
    fields = git.split_z(listing.result().stdout)
    rows = [(meta.split(b" ")[2:4], git.fsdecode(path)) for meta, path in zip(fields[::2], fields[1::2])]
    if not rows:
        return None
    sizes = session.reader.sizes(sorted({oid.decode() for pair, _ in rows for oid in pair if oid.strip(b"0")}))
    large = {}
    for pair, path in rows:
        size = max(sizes.get(oid.decode(), ("", 0))[1] for oid in pair)
        if size > settings.max_file_size:
            large[path] = size
    return large


def _unread_notes(large: dict[str, int], limit: int) -> tuple[str, ...]:
    from leverguard.levers.model.quick import unread_note

    return tuple(unread_note(path, size, limit) for path, size in sorted(large.items()))


def _ledger_deltas(root: str, cfg: Any, levers: list[str]) -> dict[str, tuple[str, str]]:
    """lever -> (delta, `path:line`) from the last ledger row of each lever that records one."""
    if not levers:
        return {}
    from leverguard.levers.classify.ledger import read_rows

    found = {}
    for row in read_rows(root, cfg, levers):
        if row.delta:
            found[row.lever] = (row.delta, f"{row.path}:{row.line}")
    return found


def _regex(settings: Settings) -> str:
    from leverguard.levers.model.quick import lever_regex

    return lever_regex(list(settings.lever_patterns))


def staged_changes(session: Session, git_dir: str, settings: Settings, head: str | None,
                   index_file: str | None = None, base: str | None = None) -> LeverWork:
    """`lever_changes` of the index against `base` (default HEAD, or the empty tree), once per index state.

    `index_file` is the index git hands its hooks (GIT_INDEX_FILE: a temporary one for
    `git commit PATH`); `base` is HEAD's parent for an amend. The key is the index's identity,
    HEAD, the base and both configuration files'.
    """
    root = session.repo
    index = os.path.join(root, index_file) if index_file else os.path.join(git_dir, "index")
    base = base or head or git.EMPTY_TREE
    key = (cache.config_identity(root), head, base, cache.file_identity(os.path.abspath(index)))
    cache_path = cache.path(git_dir, STAGED_CACHE)
    cached = cache.read(cache_path, key, STAGED_MAX_AGE)
    if isinstance(cached, tuple) and len(cached) == 3:
        try:
            return _restore(*cached)
        except (TypeError, ValueError):
            pass  # a hand-damaged cache: compute the changes again
    work = lever_changes(session, settings, base, None)
    cache.write(cache_path, key, (tuple(tuple(c) for c in work.changes), tuple(tuple(p) for p in work.pitfalls),
                                  work.unread))
    return work


def _restore(changes: Any, pitfalls: Any, unread: Any) -> LeverWork:
    """A cached LeverWork, checked field by field (a cache is trusted only when it validates)."""
    return LeverWork(
        tuple(Change(str(lever), str(kind), tuple(map(str, evidence)), str(delta), str(at))
              for lever, kind, evidence, delta, at in changes),
        tuple(Pitfall(str(kind), str(name), str(path), int(line), str(text)) for kind, name, path, line, text in pitfalls),
        tuple(map(str, unread)))


def touches_scope(root: str, settings: Settings, base: str, head: str | None, work: LeverWork) -> bool:
    """Does BASE..HEAD (HEAD None: the index) change a `co_author_paths` glob? Asked only when it matters.

    git matches the globs itself (`:(glob)` pathspecs, git's wildmatch), in one call.
    """
    if settings.co_author != "levers" or not settings.co_author_paths or work.changes:
        return False
    specs = [f":(glob){glob}" for glob in settings.co_author_paths]
    args = ["diff", "--name-only", "-z", "--no-renames", base, *([head] if head is not None else ["--cached"]),
            "--", *specs]
    return bool(git.start(args, root).result().stdout)


def abi_status(root: str, base: str, head: str | None) -> list[tuple[str, int, list[str]]] | None:
    """(path, changed lines or -1 for binary, forbidden tokens present) per ABI file; None when none is configured."""
    from leverguard import config
    from leverguard.levers.gates.abi import abi_status as engine_abi_status

    cfg = config.load(root)
    if not cfg.get("levers.abi_files"):
        return None
    return [(s.path, s.changed_lines, list(s.forbidden_tokens)) for s in engine_abi_status(root, cfg, base, head)]
