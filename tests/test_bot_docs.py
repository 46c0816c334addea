"""Self-consistency: every bot setting, environment variable and command is documented in docs/bot.md."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from leverguard.bot import settings

SECTION = (Path(__file__).resolve().parent.parent / "docs" / "bot.md").read_text(encoding="utf-8")


def test_every_setting_and_variable_is_in_the_readme_table() -> None:
    for field in dataclasses.fields(settings.Settings):
        assert re.search(rf"`{field.name}`", SECTION), field.name
    for variable in settings.ENVIRONMENT:
        assert f"`{variable}`" in SECTION, variable


def test_every_command_is_documented() -> None:
    for command in ("bot serve", "bot worker", "bot inbox", "bot redeliver", "github-action"):
        assert f"leverguard {command}" in SECTION, command


def test_the_readme_workflow_asks_for_the_needed_permissions() -> None:
    for line in ("contents: read", "pull-requests: write", "checks: write", "fetch-depth: 0"):
        assert line in SECTION, line
