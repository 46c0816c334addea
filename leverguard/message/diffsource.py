"""The lever changes a message is held to, from the lever engine; its cost is paid only when needed."""

from __future__ import annotations

import os

from leverguard import git
from leverguard import cache
from leverguard.message.model import Change
from leverguard.message.settings import Settings

# The hooks of one `git commit` (prepare-commit-msg, then commit-msg) see the same index within
# seconds: the first computes the lever changes, the next reads them. The age limit bounds what
# the key cannot see (the untracked ledger that feeds the lever classes).
STAGED_CACHE = "staged-lever-changes.marshal"
STAGED_MAX_AGE = 120.0


def lever_changes(root: str, settings: Settings, base: str, head: str | None) -> tuple[Change, ...]:
    """What BASE..HEAD (HEAD None: the index) does to each lever, as plain data for the rules.

    A change that adds or removes no lever-like line never imports the lever engine. The test is
    `levers.quick.mentions_levers`'s own: its regex (cached in the settings), one `git diff -G`;
    spawned here without `subprocess` and `typing`, which would cost the hook a third of its budget.
    """
    regex = settings.lever_regex or _regex(settings)
    # --text: a `-diff` attribute must not hide a lever (issue #11); only lever sources: a README that
    # names a lever moves none, and a large binary beside them is never read.
    sources = [f"*{ext}" for ext in (*settings.source_extensions, ".py")]
    args = ["diff", "--name-only", "-z", *git.OWN_DIFF, f"-G{regex}", base,
            *([head] if head is not None else ["--cached"]), "--", *sources]
    if not git.start(args, root).result().stdout:
        return ()
    from leverguard import config
    from leverguard.levers.transitions import compute_diff

    diff = compute_diff(root, config.load(root), base, head)
    return tuple(Change(t.lever, t.kind, tuple(t.evidence)) for t in diff.transitions)


def _regex(settings: Settings) -> str:
    from leverguard.levers.quick import lever_regex

    return lever_regex(list(settings.lever_patterns))


def staged_changes(root: str, git_dir: str, settings: Settings, head: str | None,
                   index_file: str | None = None, base: str | None = None) -> tuple[Change, ...]:
    """`lever_changes` of the index against `base` (default HEAD, or the empty tree), once per index state.

    `index_file` is the index git hands its hooks (GIT_INDEX_FILE: a temporary one for
    `git commit PATH`); `base` is HEAD's parent for an amend. The key is the index's identity,
    HEAD, the base and both configuration files'.
    """
    index = os.path.join(root, index_file) if index_file else os.path.join(git_dir, "index")
    base = base or head or git.EMPTY_TREE
    key = (cache.config_identity(root), head, base, cache.file_identity(os.path.abspath(index)))
    cache_path = cache.path(git_dir, STAGED_CACHE)
    cached = cache.read(cache_path, key, STAGED_MAX_AGE)
    if isinstance(cached, tuple):
        try:
            return tuple(Change(str(lever), str(kind), tuple(map(str, evidence))) for lever, kind, evidence in cached)
        except (TypeError, ValueError):
            pass  # a hand-damaged cache: compute the changes again
    changes = lever_changes(root, settings, base, None)
    cache.write(cache_path, key, tuple((c.lever, c.kind, c.evidence) for c in changes))
    return changes


def abi_status(root: str, base: str, head: str | None) -> list[tuple[str, int, list[str]]] | None:
    """(path, changed lines or -1 for binary, forbidden tokens present) per ABI file; None when none is configured."""
    from leverguard import config
    from leverguard.levers.abi import abi_status as engine_abi_status

    cfg = config.load(root)
    if not cfg.get("levers.abi_files"):
        return None
    return [(s.path, s.changed_lines, list(s.forbidden_tokens)) for s in engine_abi_status(root, cfg, base, head)]
