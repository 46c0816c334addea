"""The other guards in the PR report (App and Actions mode): lever transitions and commit messages, informational.

Every guard takes BASE's configuration, read at the BASE commit (issue #9): the message guard's
lever changes are computed here with it, not by `check-msg`, which reads the configuration from
disk (the App's bare cache has none; Actions mode's checkout holds the PR's own file). Each lever
diff is computed once per PR: a one-commit PR's message is held to the Levers section's own diff.
Every object both guards read comes through the PR's session reader (the revert check's too).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from leverguard import git
from leverguard.bot.verdict import Verdict
from leverguard.config import Config
from leverguard.session import Session

if TYPE_CHECKING:
    from leverguard.levers.transitions.diff import LeverDiff
    from leverguard.message.model import Change
    from leverguard.message.settings import Settings as MessageSettings


@dataclass(frozen=True)
class Section:
    """One guard's part of the report; it never sets the check's conclusion (README: why)."""

    title: str
    markdown: str
    findings: int


class LeverWork:
    """The lever diffs of one PR with BASE's configuration, each range computed at most once."""

    def __init__(self, session: Session, config: Config) -> None:
        self.session, self.config = session, config
        self.root = session.repo
        self._diffs: dict[tuple[str, str], LeverDiff] = {}
        self.computed = 0  # how many diffs ran (tests hold it to one per range)

    def diff(self, base: str, head: str) -> LeverDiff:
        from leverguard.levers.transitions.diff import compute_diff

        key = (base, head)
        if key not in self._diffs:
            self._diffs[key] = compute_diff(self.session, self.config, base, head)
            self.computed += 1
        return self._diffs[key]

    def changes(self, settings: MessageSettings, base: str, head: str) -> tuple[Change, ...]:
        """What BASE..HEAD does to each lever, for the message rules; the lever engine only when a
        lever-like line changed (the same `git diff -G` gate as the commit-msg hook)."""
        from leverguard.levers.model.quick import lever_regex
        from leverguard.message.model import Change

        if (base, head) not in self._diffs:
            regex = settings.lever_regex or lever_regex(list(settings.lever_patterns))
            args = ["diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", f"-G{regex}",
                    base, head]
            if not git.run(args, self.root).stdout:
                return ()
        return tuple(Change(t.lever, t.kind, tuple(t.evidence)) for t in self.diff(base, head).transitions)


def lever_section(work: LeverWork, base: str, head: str) -> Section | None:
    """`levers diff BASE..HEAD` with BASE's configuration; nothing when no lever changes."""
    from leverguard.levers.render import diff_as

    diff = work.diff(base, head)
    if not diff.transitions and not diff.findings:
        return None
    return Section("Levers", diff_as(diff.to_dict(), "markdown"), len(diff.findings))


def message_section(work: LeverWork, base: str, head: str) -> Section | None:
    """`check-msg --range BASE..HEAD` with BASE's configuration, run once for both renderings."""
    from leverguard.message import render

    outcomes = check_messages(work, base, head)
    summary = json.loads(render.to_json(outcomes))["summary"]
    found = summary.get("errors", 0) + summary.get("warnings", 0)
    if not found:
        return None
    return Section("Commit messages", render.to_markdown(outcomes), found)


def check_messages(work: LeverWork, base: str, head: str) -> list[Any]:
    """Every commit of BASE..HEAD, oldest first, against its own diff, all with BASE's settings."""
    from leverguard.message import check as checker, parse, sources

    info = sources.open_commits(work.root, work.config)
    outcomes = []
    for commit, parents in git.rev_list(f"{base}..{head}", info.root):
        encoding, raw = git.commit_message(work.session.reader, commit)
        message = parse.parse(raw, parse.STORED._replace(encoding=encoding))
        text = message.text.encode("utf-8", "surrogateescape")
        trailers = git.parse_trailers(text, info.root) if message.lines else []
        special = parse.special_kind(message, len(parents) > 1)
        parent = parents[0] if parents else git.EMPTY_TREE
        changes = work.changes(info.settings, parent, commit) if message.lines and not special else ()
        outcomes.append(checker.check(message, trailers, changes, info.settings, path=commit[:12],
                                      special=special, commit=commit, separators=info.separators))
    return outcomes


GUARDS: tuple[Callable[[LeverWork, str, str], Section | None], ...] = (lever_section, message_section)


def sections(session: Session, config: Config, base: str, head: str) -> list[Section]:
    """Every guard's section; a guard that cannot run says so instead of staying silent."""
    from leverguard.bot.fetch import prefetch_blobs

    root = session.repo
    work = LeverWork(session, config)
    try:
        commits = git.run(["rev-list", f"{base}..{head}"], root).stdout.decode().split()
        prefetch_blobs(root, needed_blobs(root, config, base, head, commits), [base, head, *commits])
    except Exception:  # a prefetch is an optimisation: the guards' own lazy reads still work or say why
        pass
    found = []
    for guard in GUARDS:
        try:
            section = guard(work, base, head)
        except Exception as exc:  # an informational guard must not take the revert check down with it
            name = guard.__name__.replace("_section", "")
            section = Section(name, f"### {name}\n\nnot checked: {' '.join(str(exc).split())[:300]}", 0)
        if section is not None:
            found.append(section)
    return found


def needed_blobs(root: str, config: Config, base: str, head: str, commits: list[str]) -> list[str]:
    """The blobs the guards read: BASE's C and Python sources (the lever scan greps them all) and
    both sides of every file any commit of the range changes."""
    suffixes = tuple(ext.encode() for ext in [*config.get("levers.source_extensions"), ".py"])
    tree = git.run(["ls-tree", "-r", "-z", "--full-tree", base], root).stdout  # its paths are prefixes, not globs
    oids = []
    for entry in git.split_z(tree):
        meta, _, path = entry.partition(b"\t")
        _, kind, oid = meta.split(b" ")
        if kind == b"blob" and path.endswith(suffixes):
            oids.append(oid.decode())
    listing = "".join(f"{c}\n" for c in commits)
    raw = git.run(["diff-tree", "--stdin", "-r", "-z", "--no-renames", "--no-commit-id", "-m", "--raw"], root,
                  input=(f"{base} {head}\n" + listing).encode()).stdout
    fields = raw.split(b"\0")
    for meta in fields[::2]:  # -z --raw without renames: a meta field, then its path
        if meta.startswith(b":"):
            old_mode, new_mode, old, new, _ = meta[1:].split(b" ", 4)
            oids += [o.decode() for mode, o in ((old_mode, old), (new_mode, new))
                     if o.strip(b"0") and mode != b"160000"]  # no gitlinks: a submodule's commit is not here
    return oids


INFORMATIONAL = "_Informational: this section does not change the check's conclusion._"


def to_markdown(found: list[Section]) -> str:
    """Each guard's own markdown (it carries its heading), marked as informational."""
    return "".join(f"\n\n{s.markdown}\n\n{INFORMATIONAL}" for s in found)


def with_sections(result: Verdict, session: Session, config: Config, base: str, head: str) -> Verdict:
    """The revert verdict with every other guard's section appended to its markdown."""
    return replace(result, markdown=result.markdown + to_markdown(sections(session, config, base, head)))
