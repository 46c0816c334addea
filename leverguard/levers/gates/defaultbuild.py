"""The default-build gate: with no lever set, a change must leave the build byte-identical."""

from __future__ import annotations

from dataclasses import dataclass, field

from leverguard.config import Config
from leverguard.levers.text import cpp, cppexpr, pyscan
from leverguard.levers.model import hunks
from leverguard.levers.model.scan import is_c_source, source_suffixes
from leverguard.levers.model.lever import LeverNames
from leverguard.levers.model.sides import Sides
from leverguard.report import Finding
from leverguard.session import Session

RULE = "default-build"


@dataclass(frozen=True)
class GateResult:
    violations: list[Finding]
    waiver: str | None = None  # why the gate is waived, when it is
    gains: list[str] = field(default_factory=list)
    loses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lever sources over max_file_size, left unread


def _violation(path: str, line: int, message: str) -> Finding:
    return Finding(RULE, "default build unchanged", path, line, message)


def check(session: Session, config: Config, base: str, head: str | None) -> tuple[list[Finding], list[str]]:
    """Every changed line that the default build (no lever set) would see, with the reason; and a note for
    each changed lever source over `max_file_size`, whose lines were not read (issue #11)."""
    names = LeverNames(config)
    limit = config.get("max_file_size")
    found: list[Finding] = []
    sides = Sides(session.repo, session.reader, base, head, limit)
    for change in hunks.changes(session.repo, base, head, limit, session.reader):
        found += _surface(change, config)
        if change.size:
            if change.path.endswith(source_suffixes(config)):
                sides.unread[(head, change.path)] = change.size
        elif is_c_source(change.path, config):
            found += _c_file(sides, change, names)
        elif change.path.endswith(".py"):
            found += _py_file(sides, change, names)
    return found, sides.notes()


def _surface(change: hunks.FileChange, config: Config) -> list[Finding]:
    globs = config.get("levers.surface")
    if not globs:
        return []
    import pathspec

    if pathspec.PathSpec.from_lines("gitwildmatch", globs).match_file(change.path):
        return []
    return [_violation(change.path, 0, "outside the lever surface (levers.surface): a lever change may not touch it")]


def _changed_sides(sides: Sides, change: hunks.FileChange) -> list[tuple[str | None, str, dict[int, str], str]]:
    """(revision, path, changed lines, verb) for the side that lost lines and the side that gained them."""
    both = ((sides.base, change.old_path, change.removed, "removed"), (sides.head, change.new_path, change.added, "added"))
    return [(rev, path, lines, verb) for rev, path, lines, verb in both if path is not None and lines]


def _c_file(sides: Sides, change: hunks.FileChange, names: LeverNames) -> list[Finding]:
    found = []
    for rev, path, lines, verb in _changed_sides(sides, change):
        cfile = cpp.scan(path, sides.raw(rev, path) or b"")
        directives = _directive_lines(cfile)
        text_lines = cfile.text.split("\n")  # once per file: per changed line it cost O(lines x size)
        changed = set(lines)
        for line in sorted(lines):
            reason = _c_reason(cfile, text_lines, line, directives, names, changed, verb)
            if reason:
                found.append(_violation(path, line, reason))
    return found


def _directive_lines(cfile: cpp.CppFile) -> dict[int, tuple[cpp.Conditional, int]]:
    """Line of each conditional directive -> (its chain, arm index; len(branches) for #endif)."""
    lines = {}
    for cond in cfile.conditionals:
        for index, branch in enumerate(cond.branches):
            lines[branch.line] = (cond, index)
        lines[cond.endif] = (cond, len(cond.branches))
    return lines


def _levers_of(cond: cpp.Conditional, names: LeverNames) -> list[str]:
    return sorted({m for b in cond.branches for m in b.uses if names.is_lever(m)})


def default_arm(cond: cpp.Conditional, names: LeverNames) -> int | None:
    """The arm the default build compiles (levers undefined, other macros unknown); None: cannot tell."""
    known: dict[str, int | None] = {m: None for m in _levers_of(cond, names)}
    for index, branch in enumerate(cond.branches):
        if branch.kind == "else":
            return index
        value = cppexpr.evaluate(branch.node, known) if branch.node is not None else None
        if value is None:
            return None
        if value:
            return index
    return len(cond.branches)  # no arm taken


def _c_reason(cfile: cpp.CppFile, text_lines: list[str], line: int,
              directives: dict[int, tuple[cpp.Conditional, int]], names: LeverNames, changed: set[int],
              verb: str) -> str | None:
    if line in directives:
        return _directive_reason(text_lines, directives[line], names, changed, verb)
    undecided = []
    for cond, index in reversed(cpp.enclosing(cfile.conditionals, line)):
        levers = _levers_of(cond, names)
        if not levers:
            continue
        default = default_arm(cond, names)
        if default is None:
            undecided += levers
        elif default != index:
            return None  # inside an arm only a lever turns on
        else:
            return f"{verb} in the default path of {', '.join(levers)} (the branch compiled with no lever set)"
    if line > len(text_lines) or not text_lines[line - 1].strip():
        return None  # blank lines and comments never change what the compiler sees
    if undecided:
        return f"{verb} under {', '.join(undecided)}, but the default build's branch cannot be told: gate it plainly"
    return f"{verb} outside any region gated by a default-off lever"


def _directive_reason(text_lines: list[str], where: tuple[cpp.Conditional, int], names: LeverNames,
                      changed: set[int], verb: str) -> str | None:
    cond, index = where
    levers = ", ".join(_levers_of(cond, names))
    if not levers:
        return f"{verb} a conditional that names no lever"
    if cond.branches[0].line not in changed:
        return f"{verb} a directive inside the existing chain of {levers}: check the default path"
    if index != 0:
        return None  # judged once, at the opening directive
    default = default_arm(cond, names)
    for arm_index, branch in enumerate(cond.branches):
        if arm_index == default:
            continue  # its changed lines are judged one by one
        kept = [n for n in range(branch.start, branch.end + 1) if n not in changed and _code(text_lines, n)]
        if kept and verb == "removed":
            return f"removes the gate of {levers}: line {kept[0]} of its gated body joins the default build"
        if kept:
            return f"puts existing line {kept[0]} behind {levers}: the default build loses it"
    return None


def _code(text_lines: list[str], line: int) -> bool:
    text = text_lines[line - 1].strip() if line <= len(text_lines) else ""
    return bool(text) and not text.startswith("#")


def _py_file(sides: Sides, change: hunks.FileChange, names: LeverNames) -> list[Finding]:
    found = []
    for rev, path, lines, verb in _changed_sides(sides, change):
        pyfile = pyscan.scan(path, sides.raw(rev, path) or b"")
        blocks = [(a, b) for a, b, env in pyfile.env_blocks if any(names.is_lever(v) or not names.patterns for v in env)]
        injections = {i.line: i for i in pyfile.injections}
        for line in sorted(lines):
            if verb == "added" and line in injections and injections[line].condition != "env":
                inj = injections[line]
                found.append(_violation(path, line, f"new injection of {inj.macro} is {inj.condition}: "
                                        "every new injection must be env-gated (default off)"))
            elif not any(a <= line <= b for a, b in blocks) and lines[line].strip() and not lines[line].strip().startswith("#"):
                found.append(_violation(path, line, f"{verb} outside a branch taken only when a lever's environment variable is set"))
    return found
