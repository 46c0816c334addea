"""The #230 story: whole module folders, probe tools, a hook, profile, test and ledger lines undone."""

from __future__ import annotations

from conftest import Repo
from revert_helpers import BOB, CAROL, DAVE, body, by_pr, check, land, seed


def build_230(repo: Repo) -> dict[str, str]:
    old = seed(repo)
    tests = "import pytest\n" + body("oldtest", 10)
    ledger = "| lever | verdict |\n| --- | --- |\n| MPK_OLD_LEVER | KILL |\n"
    model = body("model", 10)
    profile = "[profile]\nwarmup_iterations = 3\n"
    land(repo, "chore: baseline files (#200)", {"tests/test_models.py": tests, "ledger.md": ledger,
                                                "model.py": model, "profile.cfg": profile,
                                                "modules/__init__.py": "from . import registry\n"})
    state = {"tests/test_models.py": tests, "ledger.md": ledger, "model.py": model, "profile.cfg": profile}
    for number, name, author in ((225, "alpha", BOB), (226, "beta", DAVE), (227, "gamma", BOB)):
        state["tests/test_models.py"] += body(f"test_{name}", 110)
        edits: dict[str, str | None] = {f"modules/{name}/{f}.py": body(f"{name}_{f}", 20) for f in ("__init__", "core", "ops")}
        edits["tests/test_models.py"] = state["tests/test_models.py"]
        if name == "gamma":
            state["model.py"] += "register_hook(gamma_attention_hook, layer='decode')\n"
            edits["model.py"] = state["model.py"]
        land(repo, f"feat({name}): the {name} module (#{number})", edits, author=author)
    state["profile.cfg"] += "trace_kernels = fused_prep, gamma_attention\nprofile_decode_steps = 64\n"
    probes = {f"tools/probe_{i}.py": body(f"probe{i}", 8) for i in range(5)}
    land(repo, "tools: five probes and profile lines (#228)", {**probes, "profile.cfg": state["profile.cfg"]}, author=DAVE)
    state["tests/test_models.py"] += body("test_ledger", 89)
    state["ledger.md"] += "| MPK_FUSED_PREP | WIN |\n| MPK_GAMMA_ATTN | WIN |\n| MPK_PROBE_X | NULL |\n"
    land(repo, "exp: ledger and tests (#229)", {"ledger.md": state["ledger.md"],
                                                "tests/test_models.py": state["tests/test_models.py"]}, author=BOB)
    repo.git("checkout", "-q", "-b", "stale")
    stale: dict[str, str | None] = {f"modules/{n}/{f}.py": None for n in ("alpha", "beta", "gamma")
                                    for f in ("__init__", "core", "ops")}
    stale.update({p: None for p in probes})
    stale.update({"tests/test_models.py": tests + "def test_kernel_restructure():\n    assert run_kernel_suite()\n",
                  "ledger.md": ledger, "model.py": model, "profile.cfg": profile,
                  "kernel.c": old["kernel.c"].replace("x * 5", "x * 5 + kernel_bias(x)")})
    land(repo, "kernel: restructure the decode kernel", stale, author=CAROL)
    repo.git("checkout", "-q", "main")
    return state


def test_230_every_undone_pr_is_reported_and_the_genuine_edit_is_not(repo: Repo) -> None:
    build_230(repo)
    code, report = check(repo, "main..stale")
    found = by_pr(report)
    assert code == 1
    assert set(found) == {225, 226, 227, 228, 229}
    assert found[227]["severity"] == "error" and "rollback" in found[227]["kinds"]  # the model hook
    assert found[228]["severity"] == "error" and found[228]["undone_paths"] == 6  # probes + profile
    for number, name in ((225, "alpha"), (226, "beta")):  # whole folders gone and their other lines undone
        assert found[number]["severity"] == "error" and found[number]["reason"] == "every change it made is undone"
        assert found[number]["whole_folders"] == [f"modules/{name}"]
        assert {"deleted-added", "inverse-hunk"} <= set(found[number]["kinds"])
    assert found[229]["severity"] == "error"  # the ledger rolled back byte for byte
    assert all("kernel.c" not in f["paths"] for f in report["findings"])
    assert sum(f["undone_lines"] for f in report["findings"] if "tests/test_models.py" in f["paths"]) >= 419
