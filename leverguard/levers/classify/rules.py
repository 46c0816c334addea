"""Classify each lever from facts (injections, geometry, ledger, history), with the evidence printed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from leverguard.levers.classify import geometry
from leverguard.levers.classify.ledger import LedgerRow
from leverguard.levers.model.lever import Lever
from leverguard.levers.text.pyscan import Injection

CLASSES = ("ALREADY-ON", "WIN", "DEAD", "DIAGNOSTIC", "LEAVE-UNTOUCHED", "UNKNOWN")

# (commit, subject) of the commit that introduced a lever, or None.
History = Callable[[str], "tuple[str, str] | None"]


@dataclass(frozen=True)
class Policy:
    """The configuration classification needs, passed in so the rules stay pure."""

    geometry: Mapping[str, Any]
    leave_untouched: Sequence[str]
    diagnostic_markers: Sequence[str]
    win_words: Sequence[str]
    dead_words: Sequence[str]


@dataclass(frozen=True)
class Verdict:
    cls: str
    evidence: tuple[str, ...]


def classify(lever: Lever, rows: Sequence[LedgerRow], policy: Policy, history: History) -> Verdict:
    """The first rule that holds wins; facts (ALREADY-ON, fallbacks) outrank the ledger's memory."""
    memory = [f"ledger {r.path}:{r.line}: {r.verdict}" for r in rows]
    if lever.name in policy.leave_untouched:
        return Verdict("LEAVE-UNTOUCHED", ("listed in levers.leave_untouched", *memory))
    on = _already_on(lever.injections, policy.geometry)
    if on:
        overridden = [f"{m} (overridden: the injection is a fact)" for m in memory]
        return Verdict("ALREADY-ON", (*on, *overridden))
    fallback = _fallback(lever.injections, policy.geometry)
    if fallback:
        return Verdict("LEAVE-UNTOUCHED", (*fallback, *memory))
    marker = next((m for m in policy.diagnostic_markers if m in lever.name), None)
    if marker:
        return Verdict("DIAGNOSTIC", (f"name contains {marker}", *memory))
    unknown = _unknown_guards(lever.injections, policy.geometry)
    if rows:
        return _from_ledger(lever, rows[-1], policy, history, (*memory, *unknown))
    return Verdict("UNKNOWN", (*_missing(lever), *unknown))


def _guard_value(inj: Injection, geo: Mapping[str, Any]) -> bool | None:
    values = [geometry.evaluate(test, geo) for test in inj.guard_tests]
    if any(v is False for v in values):
        return False
    return None if any(v is None for v in values) else True


def _already_on(injections: Sequence[Injection], geo: Mapping[str, Any]) -> list[str]:
    found = []
    for inj in injections:
        if inj.condition == "unconditional":
            found.append(f"injected unconditionally at {inj.path}:{inj.line}")
        elif inj.condition == "guard" and _guard_value(inj, geo) is True:
            found.append(f"injected at {inj.path}:{inj.line} under `{inj.guard}`, which holds at the production geometry")
    return found


def _fallback(injections: Sequence[Injection], geo: Mapping[str, Any]) -> list[str]:
    """A lever injected only under guards that are false at the production geometry routes a fallback path."""
    guarded = [i for i in injections if i.condition == "guard"]
    if not guarded or len(guarded) != len(injections) or any(_guard_value(i, geo) is not False for i in guarded):
        return []
    return [f"a fallback path: injected at {i.path}:{i.line} only under `{i.guard}`, false at the production geometry"
            for i in guarded]


def _unknown_guards(injections: Sequence[Injection], geo: Mapping[str, Any]) -> list[str]:
    notes = []
    for inj in injections:
        if inj.condition == "guard" and _guard_value(inj, geo) is None:
            names = sorted({n for t in inj.guard_tests for n in geometry.unknown_names(t, geo)})
            notes.append(f"guard `{inj.guard}` at {inj.path}:{inj.line} cannot be evaluated: "
                         f"set {', '.join(names) or 'its names'} in levers.geometry")
    return notes


def _from_ledger(lever: Lever, row: LedgerRow, policy: Policy, history: History, evidence: tuple[str, ...]) -> Verdict:
    if row.verdict in policy.dead_words:
        return Verdict("DEAD", evidence)
    introduced = history(lever.name)
    if introduced is None:
        return Verdict("UNKNOWN", (*evidence, "the ledger says WIN but no commit in history adds it: commit it first"))
    commit, subject = introduced
    return Verdict("WIN", (*evidence, f"introduced in {commit[:12]} {subject}"))


def _missing(lever: Lever) -> list[str]:
    sites = [f"{g.path}:{g.line}" for g in lever.gates[:3]] + [f"{i.path}:{i.line}" for i in lever.injections[:3]]
    where = f" (sites: {', '.join(sites)})" if sites else ""
    return [f"no ledger row names {lever.name}, it is not injected unconditionally, and no geometry guard "
            f"decides it{where}: add a ledger row or list it in levers.leave_untouched"]
