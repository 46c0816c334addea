"""Self-consistency: every bot setting, variable and command is in docs/bot.md; its workflow is the tested one."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import yaml

from leverguard.bot import settings

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "bot.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def table_rows(text: str, heading: str) -> list[str]:
    section = text[text.index(heading):]
    section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
    return [line for line in section.splitlines() if line.startswith("| `")]


def docs_workflow() -> dict[str, Any]:
    block = re.search(r"```yaml\n(name: leverguard\n.*?)```", GUIDE, re.S)
    assert block, "docs/bot.md has no workflow"
    return yaml.safe_load(block.group(1))  # type: ignore[no-any-return]


def test_every_setting_and_variable_is_in_the_settings_table() -> None:
    rows = "\n".join(table_rows(GUIDE, "## Settings"))
    for field in dataclasses.fields(settings.Settings):
        assert re.search(rf"`{field.name}`", rows), field.name
    for variable in settings.ENVIRONMENT:
        assert f"`{variable}`" in rows, variable
    for name, (low, high, _) in settings.BOUNDS.items():  # the documented ranges are the enforced ones
        row = next(r for r in rows.splitlines() if f"`{name}`" in r)
        assert f"{low:g} to" in row, (name, row)


def test_every_command_is_documented() -> None:
    for command in ("bot serve", "bot worker", "bot inbox", "bot redeliver", "bot migrate", "github-action"):
        assert f"leverguard {command}" in GUIDE, command
        assert f"leverguard {command}" in README, command


def test_the_docs_workflow_asks_for_what_the_action_needs() -> None:
    workflow = docs_workflow()
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write", "checks": "write"}
    steps = workflow["jobs"]["leverguard"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    assert steps[1]["id"] == "leverguard" and re.fullmatch(r"OWNER/leverguard@\S+", steps[1]["uses"])
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    used = set(re.findall(r"steps\.leverguard\.outputs\.([a-z-]+)", yaml.safe_dump(steps[2])))
    assert used and used <= set(action["outputs"]), used
    for output in action["outputs"]:
        assert f"| `{output}` |" in GUIDE, output


def test_the_guide_names_the_shipped_files() -> None:
    for path in ("app.yml", "deploy/leverguard-bot-serve.service", "deploy/leverguard-bot-worker.service",
                 "deploy/bot.env.example"):
        assert (ROOT / path).is_file(), path
        assert Path(path).name in GUIDE, path
    for word in ("nginx", "caddy", "Require status checks", "`leverguard`", "Install App", "private key"):
        assert word in GUIDE, word
