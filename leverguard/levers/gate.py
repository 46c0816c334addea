"""Run the default-build gate with its waiver, and say what a waived change gains and loses."""

from __future__ import annotations

from leverguard.config import Config
from leverguard.levers import defaultbuild
from leverguard.levers.defaultbuild import GateResult
from leverguard.levers.waiver import waiver
from leverguard.report import to_json, to_text


def run(repo: str, config: Config, base: str, head: str | None, message: str | None) -> GateResult:
    reason = waiver(message, config.get("message.sections").values())
    violations = defaultbuild.check(repo, config, base, head)
    if reason is None:
        return GateResult(violations)
    gains, loses = gains_and_losses(repo, config, base, head)
    return GateResult(violations, reason, gains, loses)


def gains_and_losses(repo: str, config: Config, base: str, head: str | None) -> tuple[list[str], list[str]]:
    """What the default build (no lever set) gains and loses, lever by lever."""
    from leverguard.levers.transitions import compute_diff

    gains, loses = [], []
    for t in compute_diff(repo, config, base, head).transitions:
        if t.kind == "HARD-WIRED":
            gains.append(f"{t.lever}: its #if body is now compiled in every build")
            if any("#else gone" in e for e in t.evidence):
                loses.append(f"{t.lever}: the legacy #else path")
        elif t.kind in ("REVERTED", "DIAGNOSTIC-DELETED", "WIN-BODY-MISSING") and t.class_before == "ALREADY-ON":
            loses.append(f"{t.lever}: it was injected in every build ({t.kind})")
        elif t.kind == "WIN-BODY-MISSING":
            loses.append(f"{t.lever}: its win body (deleted with the gate)")
        elif t.kind in ("REVERTED", "DIAGNOSTIC-DELETED"):
            loses.append(f"{t.lever}: nothing of the default build (it was off by default; {t.kind})")
    return gains, loses


def render(result: GateResult, fmt: str) -> str:
    if fmt == "json":
        return to_json({"waiver": result.waiver, "violations": result.violations,
                        "gains": result.gains, "loses": result.loses})
    if result.waiver is None:
        return to_text(result.violations)
    lines = [f"default-build: {result.waiver} ({len(result.violations)} changed lines reach the default build)"]
    lines += [f"  gains: {g}" for g in result.gains] or ["  gains: nothing"]
    lines += [f"  loses: {item}" for item in result.loses] or ["  loses: nothing"]
    return "\n".join(lines)
