"""A fixture repository modeled on a real lever cleanup of a persistent-kernel project (MPK-style)."""

from __future__ import annotations

import json
from typing import Any

from conftest import Repo, run_leverguard

PYPROJECT = """\
[tool.leverguard.levers]
geometry = {world_size = 8}
abi_files = ["task_register.cc", "tasks.py"]
abi_forbidden_tokens = ["extra_scale_tensor"]
"""

BUILD_PY = """\
\"\"\"Compile flags for the persistent kernel.\"\"\"
import os


def nvcc_flags(world_size: int) -> list[str]:
    flags = ["-O3", "-DMPK_DSV3_WIDE_DECODE=1", "-DMPK_MAX_TOKENS=4096"]
    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":
        flags.append("-DMPK_DSV3_FUSED_ROPE")
    if os.environ.get("MPK_DSV3_SPLIT_NORM", "0") == "1":
        flags.append("-DMPK_DSV3_SPLIT_NORM")
    if os.getenv("MPK_DSV3_PERSISTENT_SCHED"):
        flags.append("-DMPK_DSV3_PERSISTENT_SCHED=1")
    if world_size < 8:
        flags.append("-DMPK_SMALL_GEOM_ROUTER")
    if "MPK_DSV3_PROBE_ATTN" in os.environ:
        flags.append("-DMPK_DSV3_PROBE_ATTN")
    if os.environ.get("MPK_DSV3_NOOP_MOE"):
        flags += ["-DMPK_DSV3_NOOP_MOE"]
    return flags
"""

TASKS_PY = """\
import os

TENSORS = ["q", "k", "v"]
EXTRA_FLAGS: list[str] = []
if os.environ.get("MPK_DSV3_EXTRA_SCALE"):
    TENSORS.append("extra_scale_tensor")
    EXTRA_FLAGS.append("-DMPK_DSV3_EXTRA_SCALE")
"""

# A leaf win with a clean #else.
ROPE_CUH = """\
#pragma once
__device__ inline float rope_angle(int pos) { return pos * 0.5f; }

__device__ void apply_rope(float* q, int pos) {
#if defined(MPK_DSV3_FUSED_ROPE)
  fused_rope_rotate(q, rope_angle(pos));  // one pass over q
#else
  q[0] = q[0] * rope_angle(pos);
  q[1] = q[1] * rope_angle(pos);
#endif
}
"""

# A win whose #else calls a legacy __device__ function defined outside the gate.
NORM_CU = """\
__device__ void legacy_norm(float* x) { x[0] = 0.0f; }

__global__ void norm_kernel(float* x) {
#ifdef MPK_DSV3_SPLIT_NORM
  split_norm_body(x);
#else
  legacy_norm(x);
#endif
}
"""

# A structural win selecting a whole alternate path, a smaller-geometry router, and a
# lever injected in every build.
GRAPH_CC = """\
#include "graph.h"

#if MPK_DSV3_PERSISTENT_SCHED >= 1
void schedule(Graph& g) { persistent_megakernel_schedule(g); }
#else
void schedule(Graph& g) { round_robin_schedule(g); }
#endif

#ifdef MPK_SMALL_GEOM_ROUTER
int route(int expert) { return expert % 4; }
#else
int route(int expert) { return expert; }
#endif

#ifdef MPK_DSV3_WIDE_DECODE
constexpr int kDecodeWidth = 8;
#else
constexpr int kDecodeWidth = 4;
#endif
"""

# A dead lever that had added a tensor to the ABI files.
TASK_REGISTER_CC = """\
void register_tasks() {
  register_tensor("q");
#ifdef MPK_DSV3_EXTRA_SCALE
  register_tensor("extra_scale_tensor");
#endif
}
"""

ATTN_CU = """\
__global__ void attn_kernel(float* o) {
#ifdef MPK_DSV3_PROBE_ATTN
  probe_dump(o);
#endif
#if MPK_DSV3_NOOP_MOE
  return;
#endif
  o[0] = 1.0f;
}
"""

LEDGER_CSV = """\
date,lever,verdict,notes
2026-01-02,MPK_DSV3_FUSED_ROPE,WIN,-3% decode
2026-01-03,SPLIT_NORM,WIN,
2026-01-04,MPK_DSV3_PERSISTENT_SCHED,WIN,structural
2026-01-05,MPK_DSV3_WIDE_DECODE,NULL,experimental; assumed default-OFF
2026-01-06,MPK_DSV3_EXTRA_SCALE,KILL,added a tensor
2026-01-07,MPK_SMALL_GEOM_ROUTER,KILL,assumed obsolete
"""

FILES = {
    "pyproject.toml": PYPROJECT, ".gitignore": "experiment_history/\n",
    "mpk/build.py": BUILD_PY, "mpk/tasks.py": TASKS_PY, "mpk/kernels/rope.cuh": ROPE_CUH,
    "mpk/kernels/norm.cu": NORM_CU, "mpk/graph.cc": GRAPH_CC, "mpk/task_register.cc": TASK_REGISTER_CC,
    "mpk/kernels/attn.cu": ATTN_CU,
}

EXPECTED_CLASSES = {
    "MPK_DSV3_FUSED_ROPE": "WIN", "MPK_DSV3_SPLIT_NORM": "WIN", "MPK_DSV3_PERSISTENT_SCHED": "WIN",
    "MPK_DSV3_WIDE_DECODE": "ALREADY-ON", "MPK_DSV3_EXTRA_SCALE": "DEAD",
    "MPK_SMALL_GEOM_ROUTER": "LEAVE-UNTOUCHED", "MPK_DSV3_PROBE_ATTN": "DIAGNOSTIC",
    "MPK_DSV3_NOOP_MOE": "DIAGNOSTIC",
}


def mpk_repo(repo: Repo) -> str:
    """Write and commit the fixture; the ledger stays untracked and ignored, as in real life."""
    for path, content in FILES.items():
        repo.write(path, content)
    repo.write("experiment_history/ledger.csv", LEDGER_CSV)
    return repo.commit("mpk: persistent kernel with levers")


def edit(repo: Repo, path: str, old: str, new: str) -> None:
    """Replace one exact fragment of a committed file (fails loudly when the fragment is absent)."""
    text = (repo.path / path).read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    repo.write(path, text.replace(old, new, 1))


def levers_json(repo: Repo, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_leverguard(*args, "--format", "json", cwd=repo.path)
    assert proc.stdout.strip(), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def kinds(doc: dict[str, Any]) -> dict[str, str]:
    return {t["lever"]: t["kind"] for t in doc["transitions"]}


def finding_kinds(doc: dict[str, Any]) -> set[tuple[str, str]]:
    return {(f["kind"], f["name"]) for f in doc["findings"]}
