"""`leverguard levers diff`: every transition and finding produced by a real commit, positive and negative."""

from __future__ import annotations

from conftest import Repo, run_leverguard
from levers_helpers import edit, finding_kinds, kinds, levers_json, mpk_repo

ROPE_GATED = """\
#if defined(MPK_DSV3_FUSED_ROPE)
  fused_rope_rotate(q, rope_angle(pos));  // one pass over q
#else
  q[0] = q[0] * rope_angle(pos);
  q[1] = q[1] * rope_angle(pos);
#endif
"""
ROPE_INJECTION = """\
    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":
        flags.append("-DMPK_DSV3_FUSED_ROPE")
"""
NORM_GATED = """\
#ifdef MPK_DSV3_SPLIT_NORM
  split_norm_body(x);
#else
  legacy_norm(x);
#endif
"""
NORM_INJECTION = """\
    if os.environ.get("MPK_DSV3_SPLIT_NORM", "0") == "1":
        flags.append("-DMPK_DSV3_SPLIT_NORM")
"""
SCHED_GATED = """\
#if MPK_DSV3_PERSISTENT_SCHED >= 1
void schedule(Graph& g) { persistent_megakernel_schedule(g); }
#else
void schedule(Graph& g) { round_robin_schedule(g); }
#endif
"""
SCHED_INJECTION = """\
    if os.getenv("MPK_DSV3_PERSISTENT_SCHED"):
        flags.append("-DMPK_DSV3_PERSISTENT_SCHED=1")
"""


def diff(repo: Repo, *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    return levers_json(repo, "levers", "diff", *args)


def test_hard_wired_leaf_win_is_clean(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, rope_angle(pos));  // one pass over q\n")
    edit(repo, "mpk/build.py", ROPE_INJECTION, "")
    repo.commit("Hard-wire FUSED_ROPE")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc), doc["findings"]) == (0, {"MPK_DSV3_FUSED_ROPE": "HARD-WIRED"}, [])
    (transition,) = doc["transitions"]
    assert transition["class_before"] == "WIN" and doc["range"] == "HEAD~1..HEAD"
    assert any("fused_rope_rotate" in e for e in transition["evidence"])


def test_reverted_dead_lever_keeps_legacy_path(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/task_register.cc", '#ifdef MPK_DSV3_EXTRA_SCALE\n  register_tensor("extra_scale_tensor");\n#endif\n', "")
    edit(repo, "mpk/tasks.py", 'if os.environ.get("MPK_DSV3_EXTRA_SCALE"):\n    TENSORS.append("extra_scale_tensor")\n'
         '    EXTRA_FLAGS.append("-DMPK_DSV3_EXTRA_SCALE")\n', "")
    repo.commit("Revert EXTRA_SCALE")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc), doc["findings"]) == (0, {"MPK_DSV3_EXTRA_SCALE": "REVERTED"}, [])
    assert doc["transitions"][0]["class_before"] == "DEAD"


def test_win_body_missing_and_its_negative(repo: Repo) -> None:
    mpk_repo(repo)
    # The structural win's gate is deleted together with its #if body: the win is gone.
    edit(repo, "mpk/graph.cc", SCHED_GATED, "void schedule(Graph& g) { round_robin_schedule(g); }\n")
    edit(repo, "mpk/build.py", SCHED_INJECTION, "")
    repo.commit("Remove PERSISTENT_SCHED")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_PERSISTENT_SCHED": "WIN-BODY-MISSING"}
    (finding,) = doc["findings"]
    assert (finding["kind"], finding["path"], finding["line"]) == ("WIN-BODY-MISSING", "mpk/graph.cc", 3)
    assert "persistent_megakernel_schedule" in finding["message"]
    # Negative: hard-wiring it keeps the body, and only "zero references to the macro" remains.
    repo.git("reset", "-q", "--hard", "HEAD~1")
    edit(repo, "mpk/graph.cc", SCHED_GATED, "void schedule(Graph& g) { persistent_megakernel_schedule(g); }\n")
    edit(repo, "mpk/build.py", SCHED_INJECTION, "")
    repo.commit("Hard-wire PERSISTENT_SCHED")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc)) == (0, {"MPK_DSV3_PERSISTENT_SCHED": "HARD-WIRED"})


def test_diagnostic_deleted(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/attn.cu", "#ifdef MPK_DSV3_PROBE_ATTN\n  probe_dump(o);\n#endif\n", "")
    edit(repo, "mpk/build.py", '    if "MPK_DSV3_PROBE_ATTN" in os.environ:\n        flags.append("-DMPK_DSV3_PROBE_ATTN")\n', "")
    repo.commit("Delete PROBE_ATTN")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc), doc["findings"]) == (0, {"MPK_DSV3_PROBE_ATTN": "DIAGNOSTIC-DELETED"}, [])


def test_still_gated_and_untouched_levers_are_quiet(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", "fused_rope_rotate(q, rope_angle(pos));", "fused_rope_rotate(q, rope_angle(pos + 1));")
    repo.commit("Tune FUSED_ROPE")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc)) == (0, {"MPK_DSV3_FUSED_ROPE": "STILL-GATED"})


def test_partial_injection_without_gate_is_stale(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, rope_angle(pos));\n")
    repo.commit("Hard-wire FUSED_ROPE, forget build.py")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_FUSED_ROPE": "PARTIAL"}
    assert finding_kinds(doc) == {("PARTIAL", "MPK_DSV3_FUSED_ROPE"), ("STALE-INJECTION", "MPK_DSV3_FUSED_ROPE")}
    stale = [f for f in doc["findings"] if f["kind"] == "STALE-INJECTION"]
    assert {(f["path"], f["line"]) for f in stale} == {("mpk/build.py", 7), ("mpk/build.py", 8)}


def test_partial_gate_without_injection(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/build.py", ROPE_INJECTION, "")
    repo.commit("Drop the FUSED_ROPE injection only")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_FUSED_ROPE": "PARTIAL"}
    assert "the gate without the injection" in doc["transitions"][0]["evidence"][0]
    assert finding_kinds(doc) == {("PARTIAL", "MPK_DSV3_FUSED_ROPE")}


def test_partial_else_kept(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", ROPE_GATED, ROPE_GATED.replace("#if defined(MPK_DSV3_FUSED_ROPE)\n", "")
         .replace("#else\n", "").replace("#endif\n", ""))
    edit(repo, "mpk/build.py", ROPE_INJECTION, "")
    repo.commit("Hard-wire FUSED_ROPE, keep the legacy lines")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_FUSED_ROPE": "PARTIAL"}
    assert "#else kept" in doc["transitions"][0]["evidence"][0]


def test_orphaned_function_and_its_negatives(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/norm.cu", NORM_GATED, "  split_norm_body(x);\n")
    edit(repo, "mpk/build.py", NORM_INJECTION, "")
    repo.commit("Hard-wire SPLIT_NORM")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_SPLIT_NORM": "HARD-WIRED"}
    assert [(f["kind"], f["name"], f["path"], f["line"]) for f in doc["findings"]] == [
        ("ORPHANED-FUNCTION", "legacy_norm", "mpk/kernels/norm.cu", 1)]
    # Negative: the legacy function is deleted with its call site.
    edit(repo, "mpk/kernels/norm.cu", "__device__ void legacy_norm(float* x) { x[0] = 0.0f; }\n", "")
    repo.commit("Delete legacy_norm")
    code, doc = diff(repo, "HEAD~2..HEAD")
    assert (code, doc["findings"]) == (0, [])
    # Negative: another caller (in a comment-free other file) keeps it alive.
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.write("mpk/kernels/other.cu", "// legacy_norm(x) in a comment is no use\nvoid f(float* x) { legacy_norm(x); }\n")
    repo.commit("Another caller")
    code, doc = diff(repo, "HEAD~2..HEAD")
    assert (code, doc["findings"]) == (0, [])


def test_staged_change_against_head_by_default(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, rope_angle(pos));\n")
    repo.git("add", "mpk/kernels/rope.cuh")
    code, doc = diff(repo)
    assert doc["range"] == "HEAD..index" and code == 1
    assert kinds(doc) == {"MPK_DSV3_FUSED_ROPE": "PARTIAL"}
    text = run_leverguard("levers", "diff", cwd=repo.path)
    assert "mpk/build.py:8: STALE-INJECTION: MPK_DSV3_FUSED_ROPE" in text.stdout


def test_bad_range_is_a_usage_error(repo: Repo) -> None:
    mpk_repo(repo)
    for spec in ("HEAD...HEAD", "..HEAD", "nope..HEAD"):
        proc = run_leverguard("levers", "diff", spec, cwd=repo.path)
        assert proc.returncode == 2 and proc.stderr.startswith("leverguard: error:"), spec


BIG_TILES_C = "#ifdef MPK_DSV3_BIG_TILES\n  o[1] = big_tile_store(o);\n#endif\n"
BIG_TILES_PY = '    if world_size == 8:\n        flags.append("-DMPK_DSV3_BIG_TILES")\n'


def test_hard_wiring_must_keep_the_geometry_guard(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/attn.cu", "  o[0] = 1.0f;\n", "  o[0] = 1.0f;\n" + BIG_TILES_C)
    edit(repo, "mpk/build.py", "    return flags\n", BIG_TILES_PY + "    return flags\n")
    repo.commit("BIG_TILES at the production geometry")
    _, doc = levers_json(repo, "levers")
    assert {lever["name"]: lever["class"] for lever in doc["levers"]}["MPK_DSV3_BIG_TILES"] == "ALREADY-ON"
    edit(repo, "mpk/kernels/attn.cu", BIG_TILES_C, "  o[1] = big_tile_store(o);\n")
    edit(repo, "mpk/build.py", BIG_TILES_PY, "")
    repo.commit("Hard-wire BIG_TILES, guard lost")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_BIG_TILES": "PARTIAL"}
    assert "geometry guard `world_size == 8` at mpk/build.py:20 is gone" in doc["transitions"][0]["evidence"][0]
    # Negative: the guard stays (now selecting the production tile rows).
    edit(repo, "mpk/build.py", "    return flags\n", '    if world_size == 8:\n        flags.append("-DTILE_ROWS=8")\n'
         "    return flags\n")
    repo.commit("Keep the geometry guard")
    code, doc = diff(repo, "HEAD~2..HEAD")
    assert (code, kinds(doc)) == (0, {"MPK_DSV3_BIG_TILES": "HARD-WIRED"})


def test_guard_split_from_env_condition() -> None:
    from leverguard.levers.text import pyscan

    src = b'import os\nif world_size == 8 and os.environ.get("MPK_X"):\n    F = "-DMPK_X"\n'
    (inj,) = pyscan.scan("b.py", src).injections
    assert (inj.condition, inj.env, inj.guard_tests) == ("env", ("MPK_X",), ("world_size == 8",))


def test_no_stale_injection_for_a_macro_never_gated(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/build.py", "    return flags\n", '    if os.environ.get("MPK_DSV3_PY_ONLY"):\n'
         '        flags.append("-DMPK_DSV3_PY_ONLY")\n    return flags\n')
    repo.commit("A Python-only switch")
    edit(repo, "mpk/build.py", 'os.environ.get("MPK_DSV3_PY_ONLY")', 'os.environ.get("MPK_DSV3_PY_ONLY", "")')
    repo.commit("Touch it")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, doc["findings"]) == (0, [])


def test_helper_deleted_with_its_branch_is_no_orphan(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("mpk/kernels/probe.cuh", "#ifdef MPK_DSV3_PROBE_ATTN\nstatic inline void probe_dump(float* o) { o[9] = 0; }\n#endif\n")
    repo.commit("probe helper")
    edit(repo, "mpk/kernels/attn.cu", "#ifdef MPK_DSV3_PROBE_ATTN\n  probe_dump(o);\n#endif\n", "")
    repo.write("mpk/kernels/probe.cuh", "")
    edit(repo, "mpk/build.py", '    if "MPK_DSV3_PROBE_ATTN" in os.environ:\n        flags.append("-DMPK_DSV3_PROBE_ATTN")\n', "")
    repo.commit("Delete PROBE_ATTN and its helper")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert (code, kinds(doc), doc["findings"]) == (0, {"MPK_DSV3_PROBE_ATTN": "DIAGNOSTIC-DELETED"}, [])
    # Positive twin: the static helper left behind is an orphan.
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.write("mpk/kernels/probe.cuh", "static inline void probe_dump(float* o) { o[9] = 0; }\n")
    repo.commit("helper outside the gate")
    edit(repo, "mpk/kernels/attn.cu", "#ifdef MPK_DSV3_PROBE_ATTN\n  probe_dump(o);\n#endif\n", "")
    repo.commit("Delete the PROBE_ATTN call only")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert ("ORPHANED-FUNCTION", "probe_dump") in finding_kinds(doc)
    (orphan,) = [f for f in doc["findings"] if f["kind"] == "ORPHANED-FUNCTION"]
    assert (orphan["path"], orphan["line"]) == ("mpk/kernels/probe.cuh", 1)


def test_partial_when_some_gate_sites_are_left(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write("mpk/kernels/rope_bwd.cu", "#ifdef MPK_DSV3_FUSED_ROPE\n  fused_rope_bwd(q);\n#endif\n")
    repo.commit("FUSED_ROPE backward")
    edit(repo, "mpk/kernels/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, rope_angle(pos));  // one pass over q\n")
    repo.commit("Hard-wire the forward only")
    code, doc = diff(repo, "HEAD~1..HEAD")
    assert code == 1 and kinds(doc) == {"MPK_DSV3_FUSED_ROPE": "PARTIAL"}
    assert doc["transitions"][0]["evidence"] == ["1 of 2 gate sites removed; still gated at mpk/kernels/rope_bwd.cu:1"]
    markdown = run_leverguard("levers", "diff", "HEAD~1..HEAD", "--format", "markdown", cwd=repo.path)
    assert "| `MPK_DSV3_FUSED_ROPE` | PARTIAL | WIN |" in markdown.stdout
