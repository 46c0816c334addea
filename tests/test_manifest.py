"""Self-consistency: every hook id is documented and runnable; every config key is documented."""

from __future__ import annotations

import re

import yaml  # installed with pre-commit

from conftest import ROOT
from leverguard import config, entry

README = (ROOT / "README.md").read_text(encoding="utf-8")
MANIFEST = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_every_manifest_hook_is_documented_and_has_a_command() -> None:
    ids = [hook["id"] for hook in MANIFEST]
    assert len(ids) == len(set(ids))
    for hook in MANIFEST:
        assert f"`{hook['id']}`" in README, f"{hook['id']} is not documented in README.md"
        assert hook["entry"].startswith("leverguard "), hook["entry"]
        assert hook["id"] in entry.HOOKS, f"{hook['id']} cannot run as a plain git hook (entry.HOOKS)"
        assert hook["language"] == "python"
        assert hook.get("minimum_pre_commit_version") == "3.2.0"  # stage names without the git- prefix


def test_every_plain_hook_runs_a_known_hook_id() -> None:
    for script in (ROOT / "hooks").iterdir():
        text = script.read_text(encoding="utf-8")
        assert "leverguard-managed hook" in text, script.name
        ids = re.findall(r"leverguard hook (leverguard-\S+)", text)
        ids += [i for line in re.findall(r'^hooks="([^"]+)"', text, re.M) for i in line.split(",")]
        assert ids, f"hooks/{script.name} runs no hook id"
        for hook_id in ids:
            assert hook_id in entry.HOOKS, f"hooks/{script.name} runs unknown hook id {hook_id}"


def test_every_config_key_is_documented_with_its_default() -> None:
    for key in config.KEYS:
        assert re.search(rf"^\| `{re.escape(key.dotted)}` \|", README, re.M), f"{key.dotted} missing in README"
    assert config.reference_markdown() in README, "README's reference is stale: paste `leverguard config --reference`"
