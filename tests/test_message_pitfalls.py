"""Lever pitfalls caught at commit time (issue #12): each through a real `git commit` and `check-msg --range`.

| kind               | severity                                  | what it means                               |
| WIN-BODY-MISSING   | error                                     | a win's #if body deleted with its gate      |
| STALE-INJECTION    | error                                     | env injected/read for a gate that is gone   |
| PARTIAL            | error (lever-coverage when it is listed)  | gate without injection, or the reverse, ... |
| ORPHANED-FUNCTION  | warning; a note when the message names it | only called from a deleted branch           |
"""

from __future__ import annotations

import pytest

from conftest import Repo, run_leverguard
from message_helpers import ROPE_GATED, SCALE_GATED, git_commit, install_hooks, lever_repo, replace

TRAILER = "Co-Authored-By: Bob Builder <bob@example.com>"
ROPE_INJECTION = '    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":\n        flags.append("-DMPK_DSV3_FUSED_ROPE")\n'
PROBE_INJECTION = '    if "MPK_DSV3_PROBE_ATTN" in os.environ:\n        flags.append("-DMPK_DSV3_PROBE_ATTN")\n'
LEGACY_ROPE = ("__device__ static void legacy_rope(float* q, int pos) { q[0] = q[0] * pos; }\n"
               "__device__ void apply_rope(float* q, int pos) {\n"
               "#if defined(MPK_DSV3_FUSED_ROPE)\n  fused_rope_rotate(q, pos);\n#else\n  legacy_rope(q, pos);\n#endif\n}\n")


def message(subject: str, hard_wired: str = "none", reverted: str = "none", extra: str = "") -> str:
    return (f"{subject}\n\n{extra}Hard-wired: {hard_wired}\nReverted: {reverted}\nDiagnostics removed: none\n"
            "ABI: unchanged (mpk/tasks.py)\nVerification: e2e decode benchmark, 3 runs\nPre-merge gate: none\n\n"
            f"{TRAILER}\n")


@pytest.fixture
def hooked(repo: Repo) -> Repo:
    lever_repo(repo)
    install_hooks(repo)
    return repo


def stage_win_deleted(repo: Repo) -> None:
    """FUSED_ROPE (a WIN in the ledger) loses its gate and its #if body: the legacy #else stays."""
    replace(repo, "mpk/rope.cuh", ROPE_GATED, "  q[0] = q[0] * pos;\n")
    replace(repo, "mpk/build.py", ROPE_INJECTION, "")
    repo.git("add", "-A")


def test_a_win_deleted_with_its_gate_is_refused(hooked: Repo) -> None:
    stage_win_deleted(hooked)
    result = git_commit(hooked, message=message("Drop the fused rope", reverted="MPK_DSV3_FUSED_ROPE"))
    assert result.returncode == 1
    assert "lever-pitfalls: WIN-BODY-MISSING MPK_DSV3_FUSED_ROPE at mpk/rope.cuh:2: the lever is gone and so " \
           "is its former #if body" in result.stdout


def test_the_same_deletion_passes_when_skipped_or_configured_as_a_warning(hooked: Repo) -> None:
    stage_win_deleted(hooked)
    skipped = message("Drop the fused rope", reverted="MPK_DSV3_FUSED_ROPE").replace(
        TRAILER, f"{TRAILER}\nLeverguard-Skip: lever-pitfalls")
    result = git_commit(hooked, message=skipped)
    assert result.returncode == 0 and "lever-pitfalls skipped by the Leverguard-Skip trailer" in result.stdout
    hooked.git("reset", "-q", "--soft", "HEAD~1")
    text = (hooked.path / "pyproject.toml").read_text(encoding="utf-8")
    hooked.write("pyproject.toml", text + 'pitfall_errors = ["STALE-INJECTION"]\n')
    hooked.git("add", "-A")
    warned = git_commit(hooked, message=message("Drop the fused rope", reverted="MPK_DSV3_FUSED_ROPE"))
    assert warned.returncode == 0 and "lever-pitfalls: warning: WIN-BODY-MISSING" in warned.stdout


def test_a_stale_env_injection_is_refused(hooked: Repo) -> None:
    replace(hooked, "mpk/scale.cc", SCALE_GATED, "")  # the gate goes, mpk/build.py still injects it
    hooked.git("add", "-A")
    result = git_commit(hooked, message=message("Drop the extra scale gate"))
    assert result.returncode == 1
    assert "lever-pitfalls: STALE-INJECTION MPK_DSV3_EXTRA_SCALE at mpk/build.py:9: Python still injects " \
           "MPK_DSV3_EXTRA_SCALE but no gate uses it any more" in result.stdout
    assert "lever-pitfalls: PARTIAL MPK_DSV3_EXTRA_SCALE" in result.stdout
    replace(hooked, "mpk/build.py", '    if os.environ.get("MPK_DSV3_EXTRA_SCALE"):\n'
            '        flags.append("-DMPK_DSV3_EXTRA_SCALE")\n', "")
    hooked.git("add", "-A")
    done = git_commit(hooked, message=message("Drop the extra scale lever", reverted="EXTRA_SCALE"))
    assert done.returncode == 0, done.stdout


def test_a_partial_cleanup_is_refused(hooked: Repo) -> None:
    replace(hooked, "mpk/build.py", PROBE_INJECTION, "")  # the injection goes, the #ifdef stays
    hooked.git("add", "-A")
    result = git_commit(hooked, message=message("Stop injecting the probe"))
    assert result.returncode == 1
    assert "lever-pitfalls: PARTIAL MPK_DSV3_PROBE_ATTN at mpk/attn.cu:2: partial cleanup: the gate without " \
           "the injection" in result.stdout


def test_a_partial_cleanup_listed_in_a_section_is_reported_once(hooked: Repo) -> None:
    replace(hooked, "mpk/build.py", PROBE_INJECTION, "")
    hooked.git("add", "-A")
    result = git_commit(hooked, message=message("Stop the probe").replace(
        "Diagnostics removed: none", "Diagnostics removed:\n- MPK_DSV3_PROBE_ATTN"))
    assert result.returncode == 1 and "lever-coverage" in result.stdout and "lever-pitfalls" not in result.stdout


@pytest.fixture
def orphaning(hooked: Repo) -> Repo:
    """Hard-wiring FUSED_ROPE deletes the #else, the only caller of legacy_rope."""
    hooked.write("mpk/rope.cuh", LEGACY_ROPE)
    hooked.commit("rope: a legacy path")
    gated = "#if defined(MPK_DSV3_FUSED_ROPE)\n  fused_rope_rotate(q, pos);\n#else\n  legacy_rope(q, pos);\n#endif\n"
    replace(hooked, "mpk/rope.cuh", gated, "  fused_rope_rotate(q, pos);\n")
    replace(hooked, "mpk/build.py", ROPE_INJECTION, "")
    hooked.git("add", "-A")
    return hooked


def test_an_orphaned_function_is_a_warning(orphaning: Repo) -> None:
    result = git_commit(orphaning, message=message("Hard-wire the fused rope", "MPK_DSV3_FUSED_ROPE: -3.1 us"))
    assert result.returncode == 0, result.stdout
    assert "lever-pitfalls: warning: ORPHANED-FUNCTION legacy_rope at mpk/rope.cuh:1" in result.stdout


def test_a_known_orphan_named_in_the_message_is_a_note(orphaning: Repo) -> None:
    known = message("Hard-wire the fused rope", "MPK_DSV3_FUSED_ROPE: -3.1 us",
                    extra="Known orphan: legacy_rope stays for the CPU fallback.\n\n")
    result = git_commit(orphaning, message=known)
    assert result.returncode == 0, result.stdout
    assert "warning: ORPHANED-FUNCTION" not in result.stdout


def test_check_msg_range_reports_the_same_pitfalls(hooked: Repo) -> None:
    stage_win_deleted(hooked)
    hooked.commit(message("Drop the fused rope", reverted="MPK_DSV3_FUSED_ROPE"))
    result = run_leverguard("check-msg", "--range", "HEAD~1..HEAD", cwd=hooked.path)
    assert result.returncode == 1 and "lever-pitfalls: WIN-BODY-MISSING MPK_DSV3_FUSED_ROPE" in result.stdout


def test_a_clean_cleanup_has_no_pitfalls(hooked: Repo) -> None:
    from message_helpers import GOOD_CLEANUP, stage_cleanup

    stage_cleanup(hooked)
    result = git_commit(hooked, message=GOOD_CLEANUP)
    assert result.returncode == 0 and "lever-pitfalls" not in result.stdout
