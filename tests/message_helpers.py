"""Real repositories, real commits and real hooks for the commit-message guard's tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, Repo, run_leverguard

PYPROJECT = """\
[tool.leverguard.levers]
abi_files = ["mpk/tasks.py"]

[tool.leverguard.message]
co_author = "required"  # the default (`levers`) has its own tests: test_message_defaults.py
co_authors = ["Bob Builder <bob@example.com>"]
"""

BUILD_PY = """\
import os


def nvcc_flags() -> list[str]:
    flags = ["-O3"]
    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":
        flags.append("-DMPK_DSV3_FUSED_ROPE")
    if os.environ.get("MPK_DSV3_EXTRA_SCALE"):
        flags.append("-DMPK_DSV3_EXTRA_SCALE")
    if "MPK_DSV3_PROBE_ATTN" in os.environ:
        flags.append("-DMPK_DSV3_PROBE_ATTN")
    return flags
"""

ROPE_GATED = """\
#if defined(MPK_DSV3_FUSED_ROPE)
  fused_rope_rotate(q, pos);
#else
  q[0] = q[0] * pos;
#endif
"""
ROPE_CUH = f"__device__ void apply_rope(float* q, int pos) {{\n{ROPE_GATED}}}\n"
SCALE_GATED = "#ifdef MPK_DSV3_EXTRA_SCALE\n  register_tensor(\"extra_scale\");\n#endif\n"
SCALE_CC = f"void register_tasks() {{\n  register_tensor(\"q\");\n{SCALE_GATED}}}\n"
PROBE_GATED = "#ifdef MPK_DSV3_PROBE_ATTN\n  probe_dump(o);\n#endif\n"
ATTN_CU = f"__global__ void attn_kernel(float* o) {{\n{PROBE_GATED}  o[0] = 1.0f;\n}}\n"
TASKS_PY = "TENSORS = [\"q\", \"k\", \"v\"]\n"
LEDGER = "lever,verdict\nMPK_DSV3_FUSED_ROPE,WIN\nMPK_DSV3_EXTRA_SCALE,KILL\n"

FILES = {"pyproject.toml": PYPROJECT, ".gitignore": "experiment_history/\n", "mpk/build.py": BUILD_PY,
         "mpk/rope.cuh": ROPE_CUH, "mpk/scale.cc": SCALE_CC, "mpk/attn.cu": ATTN_CU, "mpk/tasks.py": TASKS_PY}

GOOD_CLEANUP = """\
Settle the decode levers

The fused rope won; the extra scale tensor lost; the attention probe is done.

Hard-wired:
- MPK_DSV3_FUSED_ROPE: 27.4 -> 24.9 us per decode step
Reverted:
- EXTRA_SCALE
Diagnostics removed:
- MPK_DSV3_PROBE_ATTN
ABI: unchanged (mpk/tasks.py)
Verification: e2e decode benchmark, 3 runs, numbers above
Pre-merge gate: none

Co-Authored-By: Bob Builder <bob@example.com>
"""

PLAIN = "Fix a typo in the README\n\nThe word was misspelled.\n\nCo-Authored-By: Bob Builder <bob@example.com>\n"


def lever_repo(repo: Repo) -> str:
    """A small MPK-style project with a win, a dead lever and a diagnostic; the ledger stays untracked."""
    for path, content in FILES.items():
        repo.write(path, content)
    repo.write("experiment_history/ledger.csv", LEDGER)
    return repo.commit("mpk: kernels with levers")


def replace(repo: Repo, path: str, old: str, new: str) -> None:
    text = (repo.path / path).read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    repo.write(path, text.replace(old, new, 1))


def stage_cleanup(repo: Repo) -> None:
    """Hard-wire FUSED_ROPE, revert EXTRA_SCALE, delete the PROBE_ATTN diagnostic, and stage it all."""
    replace(repo, "mpk/rope.cuh", ROPE_GATED, "  fused_rope_rotate(q, pos);\n")
    replace(repo, "mpk/scale.cc", SCALE_GATED, "")
    replace(repo, "mpk/attn.cu", PROBE_GATED, "")
    build = (repo.path / "mpk/build.py").read_text(encoding="utf-8").splitlines(keepends=True)
    repo.write("mpk/build.py", "".join(build[:5] + build[11:]))
    repo.git("add", "-A")


def stage_plain_change(repo: Repo) -> None:
    repo.write("README.md", "hello world\n")
    repo.git("add", "README.md")


def check_msg(repo: Repo, message: str | bytes, *args: str, env: dict[str, str] | None = None,
              name: str = "MSG") -> subprocess.CompletedProcess[str]:
    """`leverguard check-msg FILE` on a message file written outside the work tree."""
    path = repo.path.parent / name
    path.write_bytes(message.encode("utf-8") if isinstance(message, str) else message)
    return run_leverguard("check-msg", str(path), *args, cwd=repo.path, env=env)


def install_hooks(repo: Repo) -> None:
    """Copy the two message hooks into .git/hooks as `leverguard install` does (it is tested on its own)."""
    hooks = repo.path / ".git" / "hooks"
    for name in ("commit-msg", "prepare-commit-msg"):
        script = (ROOT / "hooks" / name).read_text(encoding="utf-8").replace("@PYTHON@", sys.executable)
        (hooks / name).write_text(script, encoding="utf-8")
        (hooks / name).chmod(0o755)


def git_commit(repo: Repo, *args: str, message: str | bytes | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A real `git commit` with the hooks enabled; `message` goes through -F; stdout holds stderr too
    (git shows hook output on stderr)."""
    extra: list[str] = []
    if message is not None:
        path = repo.path.parent / "COMMIT_MSG_INPUT"
        path.write_bytes(message.encode("utf-8") if isinstance(message, str) else message)
        extra = ["-F", str(path)]
    return subprocess.run(["git", "commit", *extra, *args], cwd=repo.path, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, encoding="utf-8", errors="replace",
                          env={**os.environ, **(env or {})})


def recording_editor(tmp: Path, reply: str | None = None) -> tuple[str, Path]:
    """A GIT_EDITOR that copies the file git opens to a record; with `reply` it then writes that message."""
    record = tmp / "editor-saw.txt"
    script = tmp / "editor.py"
    lines = ["import shutil, sys", f"shutil.copyfile(sys.argv[1], {str(record)!r})"]
    if reply is not None:
        lines.append(f"open(sys.argv[1], 'w', encoding='utf-8').write({reply!r})")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{sys.executable} {script}", record


def last_message(repo: Repo) -> str:
    return repo.git("log", "-1", "--format=%B")
