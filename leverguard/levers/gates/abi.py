"""The ABI guard: changed lines and forbidden tokens in the files that define the ABI surface."""

from __future__ import annotations

from dataclasses import dataclass, field

from leverguard import git
from leverguard.config import Config


@dataclass(frozen=True)
class AbiFileStatus:
    path: str
    changed_lines: int  # added + deleted lines against the base; -1 for a binary change
    forbidden_tokens: list[str] = field(default_factory=list)  # forbidden tokens present in HEAD's version
    added: int = 0
    deleted: int = 0

    @property
    def failing(self) -> bool:
        return self.changed_lines != 0 or bool(self.forbidden_tokens)


def pathspecs(globs: list[str]) -> list[str]:
    """`graph.cc` matches that name in any folder; a glob with a slash is rooted at the top."""
    return [f":(glob){g}" if "/" in g else f":(glob)**/{g}" for g in globs]


def abi_status(repo: str, config: Config, base: str, head: str | None) -> list[AbiFileStatus]:
    """One status per ABI file that exists in HEAD (None: the index) or changed since BASE."""
    globs = list(config.get("levers.abi_files"))
    if not globs:
        return []
    specs = pathspecs(globs)
    limit = config.get("max_file_size")  # a file over it: a binary change by its size, never read (issue #11)
    changed = {path: (added, deleted) for added, deleted, path in git.numstat(base, head, specs, repo, limit)}
    present = git.list_paths(head, specs, repo)
    tokens: dict[str, set[str]] = {}
    forbidden = list(config.get("levers.abi_forbidden_tokens"))
    large = git.large_files(head, ("",), limit, repo) if forbidden else {}
    for path, _, text in git.grep_fixed(forbidden, head, [*specs, *git.excluding(large)], repo):
        tokens.setdefault(path, set()).update(t for t in forbidden if t in text)
    statuses = []
    for path in sorted(set(present) | set(changed)):
        added, deleted = changed.get(path, (0, 0))
        total = -1 if added < 0 else added + deleted
        statuses.append(AbiFileStatus(path, total, sorted(tokens.get(path, ())), max(added, 0), max(deleted, 0)))
    return statuses


def to_text(statuses: list[AbiFileStatus], against: str) -> str:
    if not statuses:
        return "abi: no abi_files configured (levers.abi_files): nothing to check"
    lines = []
    for s in statuses:
        change = "binary change" if s.changed_lines < 0 else f"{s.changed_lines} changed lines (+{s.added} -{s.deleted})"
        lines.append(f"{s.path}: abi: {change} against {against}"
                     + (f"; forbidden tokens present: {', '.join(s.forbidden_tokens)}" if s.forbidden_tokens else ""))
    return "\n".join(lines)
