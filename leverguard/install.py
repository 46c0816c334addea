"""`leverguard install` / `uninstall`: plain git hooks for teams without the pre-commit framework."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NamedTuple

from leverguard import git
from leverguard.errors import LeverguardError

MARKER = "leverguard-managed hook"
BACKUP_SUFFIX = ".pre-leverguard"
SCRIPTS_DIR = Path(__file__).resolve().parent / "hook_scripts"


class Action(NamedTuple):
    hook: str
    path: str
    what: str  # "installed", "replaced", "unchanged", "removed", "restored"


def bundled_scripts() -> dict[str, str]:
    """The hook scripts shipped inside the package (the repository's hooks/ folder)."""
    if not SCRIPTS_DIR.is_dir():
        raise LeverguardError(f"the bundled hook scripts are missing ({SCRIPTS_DIR}): reinstall leverguard")
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(SCRIPTS_DIR.iterdir())
            if p.is_file() and not p.name.startswith((".", "_"))}


def hooks_dir(repo: str) -> Path:
    """The folder git runs hooks from, honouring core.hooksPath."""
    return Path(git.git_path("hooks", repo))


def is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def render(script: str, python: str) -> str:
    """The script with the interpreter that has leverguard installed baked in."""
    return script.replace("@PYTHON@", python)


def install(repo: str, *, force: bool = False, python: str | None = None) -> list[Action]:
    """Write every bundled hook; refuse to overwrite a foreign hook unless `force` (kept as a backup)."""
    target_dir = hooks_dir(repo)
    scripts = bundled_scripts()
    foreign = [name for name in scripts if (target_dir / name).exists() and not is_ours(target_dir / name)]
    if foreign and not force:
        listed = ", ".join(str(target_dir / name) for name in foreign)
        raise LeverguardError(f"refusing to overwrite hooks leverguard did not write: {listed}: "
                              f"rerun with --force (they are kept as NAME{BACKUP_SUFFIX}), or chain them yourself")
    target_dir.mkdir(parents=True, exist_ok=True)
    actions = []
    for name, script in scripts.items():
        path = target_dir / name
        content = render(script, python or sys.executable)
        what = "installed"
        if name in foreign:
            os.replace(path, path.with_name(name + BACKUP_SUFFIX))
            what = "replaced"
        elif path.exists() and path.read_text(encoding="utf-8", errors="replace") == content:
            what = "unchanged"
        path.write_text(content, encoding="utf-8")
        path.chmod(0o755)
        actions.append(Action(name, str(path), what))
    return actions


def uninstall(repo: str) -> list[Action]:
    """Remove only the hooks leverguard wrote, restoring any backup `install --force` kept."""
    target_dir = hooks_dir(repo)
    actions = []
    for name in bundled_scripts():
        path = target_dir / name
        if not path.exists() or not is_ours(path):
            continue
        path.unlink()
        backup = path.with_name(name + BACKUP_SUFFIX)
        if backup.exists():
            os.replace(backup, path)
            actions.append(Action(name, str(path), "restored"))
        else:
            actions.append(Action(name, str(path), "removed"))
    return actions
