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
    """A hook leverguard wrote, or an empty file (what an older install left on a full disk)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return MARKER in text or not text.strip()


def _usable_dir(target_dir: Path) -> None:
    """The hooks folder exists as a folder (or can be made one); one clear line when it cannot."""
    if target_dir.exists() and not target_dir.is_dir():
        raise LeverguardError(f"the hooks folder {target_dir} is not a folder (core.hooksPath?), so git runs no "
                              "hooks from it: point core.hooksPath at a folder, or unset it with "
                              "git config --unset core.hooksPath")
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LeverguardError(f"cannot create the hooks folder {target_dir}: {exc.strerror}: "
                              "make it writable, or point core.hooksPath elsewhere") from exc


def write_hook(path: Path, content: str) -> None:
    """Write a hook atomically: a temporary file beside it, fsync, mode 0755, then rename.

    A plain write on a full disk left a 0-byte, non-executable hook that git skips without a
    word (issue #11); now the old hook (or none) stays until the new one is complete.
    """
    import tempfile

    data = content.encode("utf-8")
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _write_error(path, exc) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temporary, 0o755)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise _write_error(path, exc) from exc


def _write_error(path: Path, exc: OSError) -> LeverguardError:
    import errno

    advice = {errno.ENOSPC: "free some disk space", errno.EFBIG: "the file size limit (ulimit -f) is too low",
              errno.EROFS: "the file system is read-only", errno.EDQUOT: "the disk quota is exhausted"}
    why = advice.get(exc.errno or 0, "make the hooks folder writable")
    return LeverguardError(f"cannot write the hook {path}: {exc.strerror or exc}: {why}, then rerun leverguard "
                           "install (the previous hook, if any, is unchanged)")


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
    _usable_dir(target_dir)
    scripts = bundled_scripts()
    foreign = [name for name in scripts if (target_dir / name).exists() and not is_ours(target_dir / name)]
    if foreign and not force:
        listed = ", ".join(str(target_dir / name) for name in foreign)
        raise LeverguardError(f"refusing to overwrite hooks leverguard did not write: {listed}: "
                              f"rerun with --force (they are kept as NAME{BACKUP_SUFFIX}), or chain them yourself")
    actions = []
    for name, script in scripts.items():
        path = target_dir / name
        content = render(script, python or sys.executable, [h for h in extra if OPTIONAL[h] == name])
        what = "installed"
        if name in foreign:
            _backup(path)
            what = "replaced"
        elif path.exists() and path.read_text(encoding="utf-8", errors="replace") == content:
            what = "unchanged"
            if os.access(path, os.X_OK):
                actions.append(Action(name, str(path), what))
                continue
        write_hook(path, content)
        actions.append(Action(name, str(path), what))
    return actions


def _backup(path: Path) -> None:
    """Keep a foreign hook as NAME.pre-leverguard; a hard link, so it stays in place until replaced."""
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    try:
        if backup.exists():
            backup.unlink()
        os.link(path, backup)
    except OSError as exc:
        raise _write_error(backup, exc) from exc


def uninstall(repo: str) -> list[Action]:
    """Remove only the hooks leverguard wrote, restoring any backup `install --force` kept."""
    target_dir = hooks_dir(repo)
    actions = []
    for name in bundled_scripts():
        path = target_dir / name
        if not path.exists() or not is_ours(path):
            continue
        backup = path.with_name(name + BACKUP_SUFFIX)
        try:
            if backup.exists():
                os.replace(backup, path)
                actions.append(Action(name, str(path), "restored"))
            else:
                path.unlink()
                actions.append(Action(name, str(path), "removed"))
        except OSError as exc:
            raise LeverguardError(f"cannot remove the hook {path}: {exc.strerror}: make the hooks folder "
                                  "writable, then rerun leverguard uninstall") from exc
    return actions
