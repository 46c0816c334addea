"""`leverguard bot inbox`: the stored deliveries for operators (text) and tests (JSON)."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Sequence

from leverguard.bot.inbox import Delivery


def to_json(rows: Sequence[Delivery]) -> str:
    return json.dumps({"deliveries": [dataclasses.asdict(row) for row in rows]}, indent=2)


def to_text(rows: Sequence[Delivery]) -> str:
    if not rows:
        return "the inbox is empty"
    lines = []
    for row in rows:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(row.received))
        target = f"{row.repo}#{row.pr}" if row.pr is not None else "-"
        lines.append(f"{when}  {row.id}  {row.state:<10}  {row.event}.{row.action:<18} {target:<28} "
                     f"attempts={row.attempts}  {row.note}")
    return "\n".join(lines)
