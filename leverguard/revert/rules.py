"""Which paths are reported and which get line-level work: config excludes and `.gitattributes`."""

from __future__ import annotations

import re

from leverguard import git
from leverguard.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

GENERATED_ATTRS = ("linguist-generated", "linguist-generated=true", "linguist-vendored", "linguist-vendored=true")
NO_DIFF_ATTRS = ("-diff", "binary", "-text")


class Rules(NamedTuple):
    """Path predicates: reported (not excluded or generated), line_level (diffable text), regenerated (lock
    and built files, whose lines are no evidence), built (bundles and snapshots: one put back is a notice),
    fragment (changelog fragments, which a release folds into the changelog)."""

    reported: Callable[[bytes], bool]
    line_level: Callable[[bytes], bool]
    regenerated: Callable[[bytes], bool] = lambda path: False
    built: Callable[[bytes], bool] = lambda path: False
    fragment: Callable[[bytes], bool] = lambda path: False


def build(exclude: Sequence[str], gitattributes: str, lock_files: Sequence[str] = (),
          built_files: Sequence[str] = (), fragments: Sequence[str] = ()) -> Rules:
    """Rules from `revert.exclude` patterns and the root `.gitattributes` read from the checked BASE."""
    generated, no_diff = list(exclude), []
    for line in gitattributes.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if any(attr in GENERATED_ATTRS for attr in parts[1:]):
            generated.append(parts[0])
        if any(attr in NO_DIFF_ATTRS for attr in parts[1:]):
            no_diff.append(parts[0])
    skip = gitignore_matcher(generated)
    flat = gitignore_matcher(no_diff)
    lock, built = _named(lock_files), _named(built_files)

    def regenerated(path: bytes) -> bool:
        return lock(path) or built(path)

    listed = gitignore_matcher(list(fragments))

    def fragment(path: bytes) -> bool:  # (a hidden file or a README among them is the tool's: pulp's
        name = path.rpartition(b"/")[2]  # `CHANGES/.TEMPLATE.md`, towncrier's `changelog/README.rst`)
        return not name.startswith(b".") and not name.upper().startswith(b"README") and listed(path)

    def line_level(path: bytes) -> bool:  # a fragment's lines are prose a release rewords: whole files only
        return not skip(path) and not flat(path) and not regenerated(path) and not fragment(path)

    return Rules(lambda path: not skip(path), line_level, regenerated, built, fragment)


def _named(patterns: Sequence[str]) -> Callable[[bytes], bool]:
    """Bare names match in any folder (a set lookup); the others are gitignore-style patterns."""
    names = frozenset(name.encode() for name in patterns if "/" not in name and "*" not in name)
    patterned = gitignore_matcher([name for name in patterns if "/" in name or "*" in name])
    return lambda path: path.rsplit(b"/", 1)[-1] in names or patterned(path)


def gitignore_matcher(patterns: list[str]) -> Callable[[bytes], bool]:
    """git wildmatch through pathspec, imported (~20 ms) only for a path that could match at all:
    a match needs every literal run of some pattern ("CHANGES/", both "tests/" and ".wat" of `**/tests/**/*.wat`)."""
    if not patterns:
        return lambda path: False
    runs = [sorted((run.encode() for run in _literals(p)), key=len, reverse=True) for p in patterns]
    if any(not pattern_runs for pattern_runs in runs):  # a pattern of wildcards only: any path may match
        runs = [[b""]]
    longest = [pattern_runs[0] for pattern_runs in runs]  # (one test each first: most paths hold none)
    cache: dict[bytes, bool] = {}
    specs: list[Any] = []

    def match(path: bytes) -> bool:
        if path not in cache:
            if not any(needle in path for needle in longest) or \
                    not any(all(run in path for run in pattern_runs) for pattern_runs in runs):
                cache[path] = False
            else:
                if not specs:
                    import pathspec

                    specs.append(pathspec.PathSpec.from_lines("gitignore", patterns))
                cache[path] = specs[0].match_file(git.fsdecode(path))
        return cache[path]

    return match


def _literals(pattern: str) -> list[str]:
    """The runs of a pattern without wildcards that every matching path contains: a leading `!`, bracket
    classes and leading slashes (anchors) dropped, a trailing one kept (`CHANGES/*` needs `CHANGES/`, not
    `CHANGES.md`)."""
    runs = re.split(r"[*?\\]|\[[^\]]*\]", pattern.lstrip("!"))
    return [run.lstrip("/") for run in runs if run.lstrip("/")]
