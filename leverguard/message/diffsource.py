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
    engine: `_moves_a_lever` asks git for the sources' `-U0` patch in one call, spawned here
    without `subprocess` and `typing`, which would cost the hook a third of its budget.
    SESSION's repo is the working tree's top.
    """
    root = session.repo
    side = [head] if head is not None else ["--cached"]
    moved, unread = _moves_a_lever(session, settings, base, side)
    if not moved:
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


def _moves_a_lever(session: Session, settings: Settings, base: str, side: list[str]) -> tuple[bool, tuple[str, ...]]:
    """(does an added or removed line of a lever source match a lever pattern, notes of sources left unread).

    Only lever sources: a README that names a lever moves none. One `git diff -p -U0` answers for
    every text source; `core.bigFileThreshold` makes git treat a source over max_file_size as
    binary, so it is sized, never loaded (issue #11: a 200 MB source). When git calls a source
    binary (rare: a large file, a NUL byte, a `-diff` attribute), `_binary_sources` asks again
    with sizes and `--text`, so an attribute never hides a lever.
    """
    sources = [f"*{ext}" for ext in (*settings.source_extensions, ".py")]
    args = ["-c", f"core.bigFileThreshold={settings.max_file_size}", "diff", "-p", "-U0", "--no-ext-diff",
            "--no-textconv", "--no-color", "--no-renames", base, *side, "--", *sources]
    patch = git.start(args, session.repo).result().stdout
    matched, binary = _patch_matches(patch, _patterns(settings))
    if matched or not binary:
        return matched, ()
    return _binary_sources(session, settings, base, side, sources)


def _binary_sources(session: Session, settings: Settings, base: str, side: list[str],
                    sources: list[str]) -> tuple[bool, tuple[str, ...]]:
    """`_moves_a_lever` where git called a source binary: the sources over max_file_size are named as
    unread (their sizes from `--raw` and the session's reader), the rest searched with `-G --text`."""
    large = _large_sources(session, settings, base, side, sources)
    unread = _unread_notes(large, settings.max_file_size) if large else ()
    regex = settings.lever_regex or _regex(settings)
    args = ["diff", "--name-only", "-z", *git.OWN_DIFF, f"-G{regex}", base, *side, "--", *sources,
            *git.excluding(large)]
    return bool(git.start(args, session.repo).result().stdout), unread


def _patch_matches(patch: bytes, patterns: Any) -> tuple[bool, bool]:
    """(does an added or removed line of a `-U0` patch match one of PATTERNS, did git call a file binary)."""
    in_hunk = binary = False
    for line in patch.decode("utf-8", "surrogateescape").split("\n"):
        if line.startswith("@@"):
            in_hunk = True
        elif line.startswith("diff --git "):
            in_hunk = False
        elif in_hunk:
            if line[:1] in ("+", "-") and any(p.search(line[1:]) for p in patterns):
                return True, binary
        elif line.startswith("Binary files "):  # a header line: file content is always prefixed
            binary = True
    return False, binary


def _patterns(settings: Settings) -> Any:
    """The compiled lever patterns (a bad one is a configuration error, named); without patterns, any
    line that may gate a lever."""
    from leverguard.message.model import compile_patterns

    if not settings.lever_patterns:
        from leverguard.levers.model.quick import BROAD_PYTHON

        return compile_patterns((BROAD_PYTHON,))
    return compile_patterns(settings.lever_patterns)


def _large_sources(session: Session, settings: Settings, base: str, side: list[str],
                   sources: list[str]) -> dict[str, int]:
    """path -> size of the changed lever sources over max_file_size.

    `git diff --raw` names the changed sources and their blobs without reading any; the session's
    reader gives the sizes (`-G` would load a 200 MB source whole).
    """
    listing = git.start(["diff", "--raw", "-z", "--no-abbrev", "--no-renames", base, *side, "--", *sources],
                        session.repo)
    fields = git.split_z(listing.result().stdout)
    rows = [(meta.split(b" ")[2:4], git.fsdecode(path)) for meta, path in zip(fields[::2], fields[1::2])]
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
