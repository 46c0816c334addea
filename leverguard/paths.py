"""`leverguard check-paths`: no local artifact (scratch/, caches, CSV outputs) is ever committed.

This is the leanest path in the tool: it runs on every commit, so it imports neither click
nor the config parser on a warm start. Patterns compiled by pathspec are cached inside
the git directory, keyed by the configuration files' identity (see `rulecache`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; this hook runs on every commit
if TYPE_CHECKING:
    from typing import Sequence

from leverguard import git, rulecache
from leverguard.errors import EXIT_CLEAN, EXIT_FINDINGS, LeverguardError, guarded
from leverguard.quoting import quote_path, shell_quote

USAGE = """usage: leverguard check-paths [--format text|json] [--repo DIR] [--] [PATH...]

Refuse staged paths that match a forbidden pattern (scratch/, .claude/, *.csv, ...).
With no PATH, check what the index adds, copies, modifies, renames to or type-changes;
deleting a forbidden file is cleanup and always allowed. --repo DIR works on the repository
at DIR (PATHs are then relative to DIR). Exit 0 clean, 1 forbidden, 2 error.
"""


class PathFinding:
    """A staged path and the forbidden pattern it matches (a slotted class: no typing import)."""

    __slots__ = ("path", "pattern", "origin")
    rule = "forbidden-path"

    def __init__(self, path: str, pattern: str, origin: str) -> None:
        self.path = path
        self.pattern = pattern
        self.origin = origin  # "default" or the configuration file that set the pattern


def check(paths: Sequence[str], rules: rulecache.Rules) -> list[PathFinding]:
    """Every path that matches a forbidden pattern and no allowed one."""
    findings = []
    for path in paths:
        hit = rules.forbidden_match(path)
        if hit is not None and not rules.allowed(path):
            findings.append(PathFinding(path, hit.pattern, hit.origin))
    return findings


def _staged(root: str) -> list[str]:
    return [git.fsdecode(name) for name in git.staged_names(root)]


def _relative(paths: Sequence[str], cwd: str, root: str) -> list[str]:
    if os.path.samefile(cwd, root):
        return [os.path.normpath(p).replace(os.sep, "/") for p in paths]
    return [os.path.relpath(os.path.join(cwd, p), root).replace(os.sep, "/") for p in paths]


def report_text(findings: Sequence[PathFinding], config_name: str) -> str:
    lines = [f"{quote_path(f.path)}: forbidden by '{f.pattern}' ({f.origin})" for f in findings]
    names = " ".join(shell_quote(f.path) for f in findings)
    count = f"{len(findings)} forbidden path{'s'[:len(findings) != 1]}"
    lines.append(
        f"leverguard check-paths: {count}: unstage with: git restore --staged -- {names}   "
        f"(or allow a path: add it to allowed_paths in {config_name})"
    )
    return "\n".join(lines)


def report_json(findings: Sequence[PathFinding]) -> str:
    import json

    rows = [{"rule": f.rule, "path": f.path, "pattern": f.pattern, "origin": f.origin} for f in findings]
    return json.dumps({"findings": rows}, indent=2, ensure_ascii=False)


def _parse(argv: Sequence[str]) -> tuple[str, str | None, list[str]] | None:
    """(format, --repo DIR or None, paths) by hand: click costs this hook twice its budget."""
    fmt, repo, files, rest = "text", None, [], list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            files += rest
            break
        if arg in ("-h", "--help"):
            return None
        if arg == "--format" or arg.startswith("--format="):
            fmt = arg.partition("=")[2] or (rest.pop(0) if rest else "")
            if fmt not in ("text", "json"):
                raise LeverguardError(f"--format must be text or json, not {fmt!r}")
        elif arg == "--repo" or arg.startswith("--repo="):
            repo = arg.partition("=")[2] or (rest.pop(0) if rest else "")
            if not repo or not os.path.isdir(repo):
                raise LeverguardError(f"--repo {repo!r}: no such directory: pass an existing repository")
        elif arg.startswith("-") and arg != "-":
            raise LeverguardError(f"check-paths: unknown option {arg!r}: see leverguard check-paths --help")
        else:
            files.append(arg)
    return fmt, repo, files


def _run(argv: Sequence[str]) -> int:
    parsed = _parse(argv)
    if parsed is None:
        print(USAGE, end="")
        return EXIT_CLEAN
    fmt, repo, files = parsed
    cwd = os.path.abspath(repo) if repo else os.getcwd()
    root, git_dir = git.locate(cwd)
    rules = rulecache.load(root, git_dir)
    paths = _relative(files, cwd, root) if files else _staged(root)
    findings = check(paths, rules)
    if fmt == "json":
        print(report_json(findings))
    elif findings:
        print(report_text(findings, rules.config_name), file=sys.stderr)
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def main(argv: Sequence[str] | None = None) -> int:
    return guarded(lambda: _run(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    raise SystemExit(main())
