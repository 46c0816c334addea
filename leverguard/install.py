"""`leverguard install` / `uninstall`: plain git hooks for teams without the pre-commit framework."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import NamedTuple, Sequence

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


# Opt-in hooks and the plain script that runs them: the ABI guard needs `levers.abi_files`, and the
# default-build gate is a team rule for the exploring phase only, so neither runs unless asked.
OPTIONAL = {"leverguard-abi": "pre-commit", "leverguard-default-build": "commit-msg"}
_HOOKS_LINE = re.compile(r'^hooks="([^"]*)"', re.M)


def render(script: str, python: str, extra: Sequence[str] = ()) -> str:
    """The script with the interpreter that has leverguard installed, and its opted-in hooks, baked in."""
    script = script.replace("@PYTHON@", python)
    if extra:
        script = _HOOKS_LINE.sub(lambda m: f'hooks="{",".join([m.group(1), *extra])}"', script, count=1)
    return script


def install(repo: str, *, force: bool = False, python: str | None = None, extra: Sequence[str] = ()) -> list[Action]:
    """Write every bundled hook; refuse to overwrite a foreign hook unless `force` (kept as a backup).

    EXTRA names opt-in hook ids (`OPTIONAL`) to run after the standard hook of their stage.
    """
    wrong = [hook_id for hook_id in extra if hook_id not in OPTIONAL]
    if wrong:
        raise LeverguardError(f"--with {wrong[0]}: not an opt-in hook; choose from {', '.join(OPTIONAL)}")
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
        content = render(script, python or sys.executable, [h for h in extra if OPTIONAL[h] == name])
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
