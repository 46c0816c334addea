"""`default-build`, `abi` and the two lever hooks, through real commits and the real CLI."""

from __future__ import annotations

import json

from conftest import Repo, run_leverguard
from levers_helpers import edit, mpk_repo

from leverguard.config import load
from leverguard.levers.gates.abi import abi_status

NEW_GATED = """\
#ifdef MPK_DSV3_WIDER_TILES
  tile_wide(o);
#endif
"""


def gate(repo: Repo, *args: str) -> tuple[int, list[str]]:
    proc = run_leverguard("default-build", *args, cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    lines = proc.stdout.splitlines()
    assert (proc.returncode == 1) == bool(lines and lines[-1].startswith("leverguard default-build: ")), lines
    return proc.returncode, [line for line in lines if not line.startswith("leverguard default-build: ")]


def test_new_gated_block_and_env_gated_injection_pass(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/attn.cu", "  o[0] = 1.0f;\n", "  o[0] = 1.0f;\n" + NEW_GATED)
    edit(repo, "mpk/build.py", "    return flags\n", '    if os.environ.get("MPK_DSV3_WIDER_TILES") == "1":\n'
         '        flags.append("-DMPK_DSV3_WIDER_TILES")\n    return flags\n')
    repo.git("add", "mpk")
    assert gate(repo) == (0, [])


def test_changes_reaching_the_default_build_are_reported(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", "  q[1] = q[1] * rope_angle(pos);", "  q[1] = q[1] * rope_angle(pos + 1);")
    edit(repo, "mpk/kernels/rope.cuh", "fused_rope_rotate(q, rope_angle(pos));", "fused_rope_rotate(q, rope_angle(2));")
    edit(repo, "mpk/kernels/attn.cu", "  o[0] = 1.0f;\n", "  o[0] = 2.0f;\n")
    edit(repo, "mpk/build.py", "    return flags\n", '    flags.append("-DMPK_DSV3_WIDER_TILES")\n    return flags\n')
    edit(repo, "mpk/tasks.py", 'TENSORS = ["q", "k", "v"]', 'TENSORS = ["q", "k", "v", "w"]')
    repo.git("add", "mpk")
    code, lines = gate(repo)
    assert code == 1
    assert lines == [
        "mpk/build.py:19: default-build: new injection of MPK_DSV3_WIDER_TILES is unconditional: "
        "every new injection must be env-gated (default off)",
        "mpk/kernels/attn.cu:8: default-build: removed outside any region gated by a default-off lever",
        "mpk/kernels/attn.cu:8: default-build: added outside any region gated by a default-off lever",
        "mpk/kernels/rope.cuh:9: default-build: removed in the default path of MPK_DSV3_FUSED_ROPE "
        "(the branch compiled with no lever set)",
        "mpk/kernels/rope.cuh:9: default-build: added in the default path of MPK_DSV3_FUSED_ROPE "
        "(the branch compiled with no lever set)",
        "mpk/tasks.py:3: default-build: removed outside a branch taken only when a lever's environment variable is set",
        "mpk/tasks.py:3: default-build: added outside a branch taken only when a lever's environment variable is set",
    ]


def test_moving_code_behind_a_lever_and_removing_a_gate_are_reported(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/kernels/attn.cu", "  o[0] = 1.0f;\n", "#ifdef MPK_DSV3_SKIP_STORE\n  o[0] = 1.0f;\n#endif\n")
    edit(repo, "mpk/kernels/norm.cu", "#ifdef MPK_DSV3_SPLIT_NORM\n", "")
    repo.git("add", "mpk")
    code, lines = gate(repo)
    assert code == 1
    assert "mpk/kernels/attn.cu:8: default-build: puts existing line 9 behind MPK_DSV3_SKIP_STORE: " \
           "the default build loses it" in lines
    assert any(line.startswith("mpk/kernels/norm.cu:4: default-build: removes the gate") for line in lines)


def test_surface_and_env_gated_python(repo: Repo) -> None:
    mpk_repo(repo)
    repo.write(".leverguard.toml", '[levers]\nsurface = ["mpk/**"]\n')
    repo.commit("surface")
    edit(repo, "mpk/build.py", '        flags.append("-DMPK_DSV3_FUSED_ROPE")\n',
         '        flags.append("-DMPK_DSV3_FUSED_ROPE")\n        flags.append("-lineinfo")\n')
    repo.write("docs/notes.txt", "notes\n")
    repo.git("add", "mpk", "docs")
    code, lines = gate(repo)
    assert (code, lines) == (1, ["docs/notes.txt: default-build: outside the lever surface (levers.surface): "
                                 "a lever change may not touch it"])


def test_waiver_by_trailer_or_sections_lists_gains_and_losses(repo: Repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mpk_repo(repo)
    edit(repo, "mpk/kernels/rope.cuh", "#if defined(MPK_DSV3_FUSED_ROPE)\n", "")
    edit(repo, "mpk/kernels/rope.cuh", "#else\n  q[0] = q[0] * rope_angle(pos);\n  q[1] = q[1] * rope_angle(pos);\n#endif\n", "")
    edit(repo, "mpk/build.py", '    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":\n'
         '        flags.append("-DMPK_DSV3_FUSED_ROPE")\n', "")
    repo.git("add", "mpk")
    assert gate(repo)[0] == 1
    message = tmp_path / "MSG"
    message.write_text("Hard-wire FUSED_ROPE\n\nLeverguard-Default-Build: intentional\n# comment\n", encoding="utf-8")
    code, lines = gate(repo, "--message-file", str(message))
    assert code == 0
    assert lines[0].startswith("default-build: waived by the trailer Leverguard-Default-Build: intentional")
    assert "  gains: MPK_DSV3_FUSED_ROPE: its #if body is now compiled in every build" in lines
    assert "  loses: MPK_DSV3_FUSED_ROPE: the legacy #else path" in lines
    message.write_text("Lever cleanup\n\nHard-wired:\n- FUSED_ROPE\n", encoding="utf-8")
    assert gate(repo, "--message-file", str(message))[0] == 0
    message.write_text("Lever cleanup\n\n  Hard-wired: in prose only\n# Leverguard-Default-Build: intentional\n",
                       encoding="utf-8")
    assert gate(repo, "--message-file", str(message))[0] == 1


def test_default_build_hook_reads_the_message_file(repo: Repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mpk_repo(repo)
    edit(repo, "mpk/kernels/attn.cu", "  o[0] = 1.0f;\n", "  o[0] = 2.0f;\n")
    repo.git("add", "mpk")
    message = tmp_path / "MSG"
    message.write_text("Tune attn\n", encoding="utf-8")
    proc = run_leverguard("hook", "leverguard-default-build", str(message), cwd=repo.path)
    assert proc.returncode == 1 and "mpk/kernels/attn.cu:8: default-build:" in proc.stderr
    skipped = run_leverguard("hook", "leverguard-default-build", str(message), cwd=repo.path,
                             env={"SKIP": "leverguard-default-build"})
    assert skipped.returncode == 0
    missing = run_leverguard("hook", "leverguard-default-build", str(tmp_path / "nope"), cwd=repo.path)
    assert missing.returncode == 2 and "cannot read the message file" in missing.stderr


def test_abi_guard_dead_lever_tensor(repo: Repo) -> None:
    mpk_repo(repo)
    proc = run_leverguard("abi", "--against", "HEAD", cwd=repo.path)
    assert proc.returncode == 1  # the dead lever's tensor is still in the ABI files
    assert "mpk/tasks.py: abi: 0 changed lines (+0 -0) against HEAD; forbidden tokens present: extra_scale_tensor" \
        in proc.stdout
    edit(repo, "mpk/task_register.cc", '#ifdef MPK_DSV3_EXTRA_SCALE\n  register_tensor("extra_scale_tensor");\n#endif\n', "")
    edit(repo, "mpk/tasks.py", 'if os.environ.get("MPK_DSV3_EXTRA_SCALE"):\n    TENSORS.append("extra_scale_tensor")\n'
         '    EXTRA_FLAGS.append("-DMPK_DSV3_EXTRA_SCALE")\n', "")
    repo.git("add", "mpk")
    status = {s.path: (s.changed_lines, s.forbidden_tokens) for s in abi_status(str(repo.path), load(str(repo.path)), "HEAD", None)}
    assert status == {"mpk/task_register.cc": (3, []), "mpk/tasks.py": (3, [])}
    hook = run_leverguard("hook", "leverguard-abi", cwd=repo.path)
    assert hook.returncode == 1 and "the ABI surface changed" in hook.stderr
    repo.commit("Revert EXTRA_SCALE")
    between = run_leverguard("abi", "--against", "HEAD~1", "--head", "HEAD", cwd=repo.path)  # both sides commits
    assert between.returncode == 1 and "mpk/tasks.py: abi: 3 changed lines (+0 -3) against HEAD~1" in between.stdout
    clean = run_leverguard("abi", "--against", "HEAD", "--format", "json", cwd=repo.path)
    assert clean.returncode == 0
    assert [f["changed_lines"] for f in json.loads(clean.stdout)["files"]] == [0, 0]
    assert run_leverguard("hook", "leverguard-abi", cwd=repo.path).returncode == 0


def test_abi_hook_is_silent_without_configuration(repo: Repo) -> None:
    repo.write("graph.cc", "int x;\n")
    repo.commit("init")
    repo.write("graph.cc", "int y;\n")
    repo.git("add", "graph.cc")
    proc = run_leverguard("hook", "leverguard-abi", cwd=repo.path)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_reverting_a_default_off_lever_keeps_the_default_build(repo: Repo) -> None:
    mpk_repo(repo)
    edit(repo, "mpk/graph.cc", "#if MPK_DSV3_PERSISTENT_SCHED >= 1\nvoid schedule(Graph& g) { persistent_megakernel_schedule(g); }\n"
         "#else\n", "")
    edit(repo, "mpk/graph.cc", "void schedule(Graph& g) { round_robin_schedule(g); }\n#endif\n",
         "void schedule(Graph& g) { round_robin_schedule(g); }\n")
    edit(repo, "mpk/task_register.cc", '#ifdef MPK_DSV3_EXTRA_SCALE\n  register_tensor("extra_scale_tensor");\n#endif\n', "")
    edit(repo, "mpk/build.py", '    if os.getenv("MPK_DSV3_PERSISTENT_SCHED"):\n'
         '        flags.append("-DMPK_DSV3_PERSISTENT_SCHED=1")\n', "")
    repo.git("add", "mpk")
    assert gate(repo) == (0, [])


def test_abi_hook_notices_when_abi_files_get_configured(repo: Repo) -> None:
    """The hook caches `levers.abi_files`; editing the configuration must invalidate it."""
    repo.write("graph.cc", "int x;\n")
    repo.commit("init")
    repo.write("graph.cc", "int y;\n")
    repo.git("add", "graph.cc")
    assert run_leverguard("hook", "leverguard-abi", cwd=repo.path).returncode == 0
    repo.write(".leverguard.toml", '[levers]\nabi_files = ["graph.cc"]\n')
    proc = run_leverguard("hook", "leverguard-abi", cwd=repo.path)
    assert proc.returncode == 1 and "graph.cc: abi: 2 changed lines" in proc.stderr


def _stage_hard_wire(repo: Repo) -> None:
    edit(repo, "mpk/kernels/rope.cuh", "#if defined(MPK_DSV3_FUSED_ROPE)\n", "")
    edit(repo, "mpk/kernels/rope.cuh", "#else\n  q[0] = q[0] * rope_angle(pos);\n  q[1] = q[1] * rope_angle(pos);\n#endif\n", "")
    edit(repo, "mpk/build.py", '    if os.environ.get("MPK_DSV3_FUSED_ROPE") == "1":\n'
         '        flags.append("-DMPK_DSV3_FUSED_ROPE")\n', "")
    repo.git("add", "mpk")


def test_a_waiver_in_any_commit_message_of_the_range_counts(repo: Repo) -> None:
    base = mpk_repo(repo)
    _stage_hard_wire(repo)
    repo.commit("Hard-wire FUSED_ROPE\n\nHard-wired:\n- MPK_DSV3_FUSED_ROPE: -3.1 us\n")
    repo.write("notes.txt", "later\n")
    repo.commit("A later, unrelated commit")
    code, lines = gate(repo, f"{base}..HEAD")
    assert code == 0 and lines[0].startswith("default-build: waived: the message has the lever section Hard-wired: "
                                             "(commit ")
    assert "  gains: MPK_DSV3_FUSED_ROPE: its #if body is now compiled in every build" in lines
    assert gate(repo, "HEAD~1")[0] == 0  # one commit as REV: its own message counts


def test_a_range_without_a_waiver_fails_and_says_what_waives_it(repo: Repo) -> None:
    base = mpk_repo(repo)
    _stage_hard_wire(repo)
    repo.commit("Hard-wire FUSED_ROPE, no sections")
    proc = run_leverguard("default-build", f"{base}..HEAD", cwd=repo.path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == (
        "leverguard default-build: 3 changed lines reach the default build: gate the change behind a default-off "
        "lever, or waive the gate with a lever-cleanup message (a section such as `Hard-wired:` or `Reverted:`) or "
        "the trailer `Leverguard-Default-Build: intentional`, in a commit message of the range or the --message-file")
    as_json = run_leverguard("default-build", f"{base}..HEAD", "--format", "json", cwd=repo.path)
    assert '"how_to_waive": "gate the change behind a default-off lever' in as_json.stdout
    repo.git("commit", "-q", "--amend", "--no-verify", "-m", "Hard-wire\n\nLeverguard-Default-Build: intentional")
    assert gate(repo, f"{base}..HEAD")[0] == 0
