"""One lever's transition from its sites before and after, and the fate of its removed bodies."""

from __future__ import annotations

from typing import Sequence

from leverguard.levers.transitions.bodies import Fate, fate
from leverguard.levers.classify.inventory import Entry
from leverguard.levers.model.lever import GateSite, Lever
from leverguard.levers.text.pyscan import Injection
from leverguard.levers.transitions.results import LeverFinding, Transition
from leverguard.levers.model.sides import Sides

Judged = tuple[Transition, list[LeverFinding]]
WINNERS = ("WIN", "ALREADY-ON")


def _where(sites: Sequence[GateSite | Injection]) -> str:
    return ", ".join(f"{s.path}:{s.line}" for s in sites[:4]) + (" ..." if len(sites) > 4 else "")


def judge(sides: Sides, entry: Entry, after: Lever | None) -> Judged:
    lever, cls = entry.lever, entry.verdict.cls
    gates = after.gates if after else ()
    injections = after.injections if after else ()
    if gates:
        return _still_gated(lever, cls, gates, injections)
    if not lever.gates:
        kind = "DIAGNOSTIC-DELETED" if cls == "DIAGNOSTIC" else "REVERTED"
        return Transition(lever.name, kind, cls, [f"injection removed: {_where(lever.injections)}"]), []
    f = _combined_fate(sides, lever)
    if injections and not (cls in WINNERS and _body_gone(f)):
        return _partial(lever, cls, f"the injection without the gate: {_where(injections)} still injects it",
                        injections[0].path, injections[0].line)
    return _gate_gone(sides, lever, cls, f)


def _body_gone(f: Fate) -> bool:
    return not (f.body_kept if f.body_kept is not None else not f.else_kept)


def _partial(lever: Lever, cls: str, what: str, path: str, line: int) -> Judged:
    finding = LeverFinding("PARTIAL", lever.name, path, line, f"partial cleanup: {what}")
    return Transition(lever.name, "PARTIAL", cls, [what]), [finding]


def _still_gated(lever: Lever, cls: str, gates: Sequence[GateSite], injections: Sequence[Injection]) -> Judged:
    if lever.injections and not injections:
        return _partial(lever, cls, f"the gate without the injection: gated at {_where(gates)}, "
                        f"injection removed from {_where(lever.injections)}", gates[0].path, gates[0].line)
    if len(gates) < len(lever.gates):
        return _partial(lever, cls, f"{len(lever.gates) - len(gates)} of {len(lever.gates)} gate sites removed; "
                        f"still gated at {_where(gates)}", gates[0].path, gates[0].line)
    return Transition(lever.name, "STILL-GATED", cls, [f"still gated at {_where(gates)}"]), []


def _combined_fate(sides: Sides, lever: Lever) -> Fate:
    fates = []
    for path in sorted({g.path for g in lever.gates}):
        mine = [g for g in lever.gates if g.path == path]
        fates.append(fate(sides.text(sides.base, path) or "", sides.text(sides.head, path), mine, lever.name))
    known_body = [f.body_kept for f in fates if f.body_kept is not None]
    known_else = [f.else_kept for f in fates if f.else_kept is not None]
    return Fate(all(known_body) if known_body else None, any(known_else) if known_else else None,
                tuple(s for f in fates for s in f.body_symbols), tuple(s for f in fates for s in f.missing))


def _gate_gone(sides: Sides, lever: Lever, cls: str, f: Fate) -> Judged:
    gone = f"gate removed at {_where(lever.gates)}"
    injected = f"; env injection removed from {_where(lever.injections)}" if lever.injections else ""
    if cls == "DIAGNOSTIC":
        if f.body_kept:
            return _partial(lever, cls, "a diagnostic's body was kept unconditionally", lever.gates[0].path,
                            lever.gates[0].line)
        return Transition(lever.name, "DIAGNOSTIC-DELETED", cls, [gone + " with its body" + injected]), []
    if not _body_gone(f):
        return _hard_wired(sides, lever, cls, f, gone + injected)
    if cls in WINNERS:
        what = (f"the lever is gone and so is its former #if body (missing: {', '.join(f.missing) or 'its lines'}); "
                f"it was {cls}: a win deleted by mistake?")
        finding = LeverFinding("WIN-BODY-MISSING", lever.name, lever.gates[0].path, lever.gates[0].line, what)
        return Transition(lever.name, "WIN-BODY-MISSING", cls, [gone + injected, what]), [finding]
    legacy = "legacy path kept" if f.else_kept else "no legacy path"
    return Transition(lever.name, "REVERTED", cls, [f"{gone} with its body{injected}", legacy]), []


def _hard_wired(sides: Sides, lever: Lever, cls: str, f: Fate, gone: str) -> Judged:
    if f.else_kept:
        return _partial(lever, cls, "a #else kept: the legacy path still sits next to the hard-wired body",
                        lever.gates[0].path, lever.gates[0].line)
    lost = _lost_guards(sides, lever)
    if lost:
        inj = lost[0]
        return _partial(lever, cls, f"geometry guard `{' and '.join(inj.guard_tests)}` at {inj.path}:{inj.line} "
                        "is gone: keep it when hard-wiring", inj.path, inj.line)
    kept = f"#if body kept unconditionally ({', '.join(f.body_symbols[:5]) or 'its lines'})"
    return Transition(lever.name, "HARD-WIRED", cls, [gone, kept, "#else gone" if f.else_kept is False else "no #else"]), []


def _lost_guards(sides: Sides, lever: Lever) -> list[Injection]:
    """Injections under a geometry guard whose guard text no longer appears in the file."""
    lost = []
    for inj in lever.injections:
        if not inj.guard_tests:
            continue
        after = (sides.raw(sides.head, inj.path) or b"").decode("utf-8", "replace")
        squeezed = "".join(after.split())
        if any("".join(t.split()) not in squeezed for t in inj.guard_tests if not t.startswith("not (")):
            lost.append(inj)
    return lost
