"""Inventories and lever diffs as text tables and Markdown."""

from __future__ import annotations

from typing import Any, Sequence

from leverguard.report import markdown_escape


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def _sites(lever: dict[str, Any]) -> tuple[str, str]:
    gates = ", ".join(f"{g['path']}:{g['line']}" + (" (#else)" if g["has_else"] else "") for g in lever["gates"])
    injections = ", ".join(f"{i['path']}:{i['line']} {i['condition']}" for i in lever["injections"])
    return gates or "-", injections or "-"


def inventory_text(doc: dict[str, Any]) -> str:
    """One row per lever, then its evidence indented below it; warnings last."""
    if not doc["levers"]:
        return _with_warnings(f"no levers at {doc['rev']}", doc)
    blocks = []
    for lever in doc["levers"]:
        gates, injections = _sites(lever)
        blocks.append(f"{lever['name']}  {lever['class']}\n  gates: {gates}\n  injections: {injections}"
                      + (f"\n  env: {', '.join(lever['env'])}" if lever["env"] else "")
                      + "".join(f"\n  - {e}" for e in lever["evidence"]))
    summary = _table(["lever", "class", "gates", "injections"],
                     [[l["name"], l["class"], str(len(l["gates"])), str(len(l["injections"]))] for l in doc["levers"]])
    return _with_warnings(summary + "\n\n" + "\n\n".join(blocks), doc)


def _with_warnings(text: str, doc: dict[str, Any]) -> str:
    warnings = doc.get("warnings") or []
    return text + "".join(f"\nwarning: {w}" for w in warnings)


def inventory_markdown(doc: dict[str, Any]) -> str:
    rows = ["| lever | class | gates | injections | evidence |", "| --- | --- | --- | --- | --- |"]
    for lever in doc["levers"]:
        gates, injections = _sites(lever)
        evidence = "<br>".join(markdown_escape(e) for e in lever["evidence"])
        rows.append(f"| `{lever['name']}` | {lever['class']} | {markdown_escape(gates)} | "
                    f"{markdown_escape(injections)} | {evidence} |")
    warnings = [f"- warning: {markdown_escape(w)}" for w in doc.get("warnings") or []]
    return "\n".join([f"### Levers at {doc['rev']}", "", *rows, *([""] + warnings if warnings else [])])


def diff_text(doc: dict[str, Any]) -> str:
    lines = [f"levers diff {doc['range']}"]
    for t in doc["transitions"]:
        lines.append(f"{t['lever']}  {t['kind']}  (was {t['class_before']})")
        lines += [f"  - {e}" for e in t["evidence"]]
    lines += [f"{f['path']}:{f['line']}: {f['kind']}: {f['name']}" + (f": {f['message']}" if f.get("message") else "")
              for f in doc["findings"]]
    skipped = len(doc.get("skipped") or [])
    if len(lines) == 1 and skipped:  # a file it could not read is said, never a silent "no lever changed"
        lines.append(f"no lever changed in the files read; {skipped} lever source{'s'[:skipped != 1]} over "
                     "max_file_size not read (see the warnings)")
    elif len(lines) == 1:
        lines.append("no lever changed")
    lines += [f"warning: {w}" for w in doc.get("warnings") or []]
    return "\n".join(lines)


def diff_markdown(doc: dict[str, Any]) -> str:
    rows = [f"### Lever transitions {markdown_escape(doc['range'])}", "", "| lever | transition | was | evidence |",
            "| --- | --- | --- | --- |"]
    for t in doc["transitions"]:
        evidence = "<br>".join(markdown_escape(e) for e in t["evidence"])
        rows.append(f"| `{t['lever']}` | {t['kind']} | {t['class_before']} | {evidence} |")
    rows += ["", *[f"- `{markdown_escape(f['path'])}:{f['line']}` **{f['kind']}** `{f['name']}`: "
                   f"{markdown_escape(f.get('message', ''))}" for f in doc["findings"]]]
    rows += [f"- warning: {markdown_escape(w)}" for w in doc.get("warnings") or []]
    return "\n".join(rows).rstrip()


def inventory_as(doc: dict[str, Any], fmt: str) -> str:
    return {"json": compact_json, "markdown": inventory_markdown}.get(fmt, inventory_text)(doc)


def compact_json(doc: dict[str, Any]) -> str:
    """One JSON document per line of lever: the C encoder (no indent) keeps big inventories fast."""
    import json

    levers = doc.get("levers", [])
    head = json.dumps({k: v for k, v in doc.items() if k != "levers"}, ensure_ascii=False)[:-1]
    rows = ",\n  ".join(json.dumps(lever, ensure_ascii=False) for lever in levers)
    if not levers or head == "{":
        return json.dumps(doc, ensure_ascii=False)
    return f'{head}, "levers": [\n  {rows}\n]}}'


def diff_as(doc: dict[str, Any], fmt: str) -> str:
    from leverguard.report import to_json

    return {"json": to_json, "markdown": diff_markdown}.get(fmt, diff_text)(doc)
