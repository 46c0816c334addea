"""The package as a user installs it: a wheel of the tracked tree in a fresh venv without extras (issue #12)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from conftest import ROOT, Repo
from leverguard import __version__
from leverguard.commands.bot import BOT_EXTRA

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# Captured before the hermetic fixture moves HOME: the machine's pip cache keeps the venv cheap.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or os.path.expanduser("~/.cache/pip")
BOT_PACKAGES = {name.lower() for name in BOT_EXTRA}
DROPPED = {"gitpython", "unidiff"}  # declared once, never imported: removed (docs/README.md says why)
ADVICE = "pip install 'leverguard[bot]'"


def _run(*args: str | Path, cwd: Path | str = ROOT, env: dict[str, str] | None = None,
         input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, encoding="utf-8", input=input,
                          env={**os.environ, "PIP_CACHE_DIR": PIP_CACHE, **(env or {})})


def _git(*args: str, cwd: Path | str = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built (isolated, as pip builds it) from the tracked files as they are now, uncommitted edits too."""
    snapshot = _git("stash", "create") or _git("rev-parse", "HEAD")
    source = tmp_path_factory.mktemp("source") / "leverguard"
    _git("clone", "-q", "--shared", "--no-checkout", str(ROOT), str(source))
    _git("checkout", "-q", "--detach", snapshot, cwd=source)
    out = tmp_path_factory.mktemp("wheelhouse")
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, source)
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("leverguard-*.whl")
    return found


@pytest.fixture(scope="session")
def bare_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel without extras, as `pip install .` gives a pre-commit hook environment."""
    start = time.monotonic()
    venv = tmp_path_factory.mktemp("venv") / "bare"
    made = _run(sys.executable, "-m", "venv", venv)
    assert made.returncode == 0, made.stderr
    installed = _run(venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel)
    assert installed.returncode == 0, installed.stderr
    print(f"fresh venv with the wheel in {time.monotonic() - start:.1f} s")  # about 4 s on the 2-core machine
    return venv


def test_the_wheel_carries_the_version_license_types_and_hook_scripts(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"leverguard-{__version__}.dist-info"
        metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode("utf-8"))
        license_text = archive.read(f"{info}/licenses/LICENSE").decode("utf-8")
    assert wheel.name == f"leverguard-{__version__}-py3-none-any.whl" and metadata["Version"] == __version__
    assert "leverguard/py.typed" in names
    assert {f"leverguard/hook_scripts/{hook.name}" for hook in (ROOT / "hooks").iterdir()} <= names
    assert metadata["License-Expression"] == "MIT" and license_text.startswith("MIT License")
    assert "leverguard contributors" in license_text
    requires = metadata.get_all("Requires-Dist") or []
    core = {re.split(r"[ <>=;\[]", r)[0].lower() for r in requires if "extra ==" not in r}
    bot = {re.split(r"[ <>=;\[]", r)[0].lower() for r in requires if 'extra == "bot"' in r}
    assert core == {"click", "packaging", "pathspec", "tomli-w", "tomli"} and bot == BOT_PACKAGES


def test_the_bare_install_has_no_bot_packages_and_runs_the_hooks(bare_venv: Path, repo: Repo) -> None:
    listed = _run(bare_venv / "bin" / "python", "-m", "pip", "list", "--format", "freeze")
    packages = {line.split("==")[0].lower() for line in listed.stdout.splitlines()}
    assert "leverguard" in packages and not packages & (BOT_PACKAGES | DROPPED), packages
    leverguard = bare_venv / "bin" / "leverguard"
    assert _run(leverguard, "--version").stdout == f"leverguard {__version__}\n"
    repo.write("src/model.py", "speed = 1\n")
    repo.write("scratch/try.py", "x = 1\n")
    repo.git("add", "src/model.py")
    assert _run(leverguard, "check-paths", cwd=repo.path).returncode == 0
    repo.git("add", "scratch/try.py")
    refused = _run(leverguard, "check-paths", cwd=repo.path)
    assert refused.returncode == 1 and "scratch/try.py: forbidden by 'scratch/'" in refused.stderr
    installed = _run(leverguard, "install", cwd=repo.path)
    assert installed.returncode == 0 and "pre-commit" in installed.stdout, installed.stderr
    message = "Add the model\n\nCo-Authored-By: Bob Builder <bob@example.com>\n"
    blocked = _run("git", "commit", "-q", "-F", "-", cwd=repo.path, input=message)
    assert blocked.returncode != 0 and "scratch/try.py" in blocked.stdout + blocked.stderr
    repo.git("rm", "-q", "--cached", "scratch/try.py")
    committed = _run("git", "commit", "-q", "-F", "-", cwd=repo.path, input=message)
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert repo.git("log", "--format=%s") == "Add the model"
    malformed = _run("git", "commit", "-q", "--allow-empty", "-m", "Tidy\n\nCo-Authored-By: Bob", cwd=repo.path)
    assert malformed.returncode != 0 and "co-author" in malformed.stdout + malformed.stderr  # commit-msg ran


@pytest.mark.parametrize("command", [("bot", "serve"), ("bot", "worker", "--once"), ("bot", "migrate"),
                                     ("bot", "inbox"), ("bot", "redeliver", "x"), ("github-action",)])
def test_bot_commands_without_the_extra_say_how_to_install_it(bare_venv: Path, tmp_path: Path,
                                                              command: tuple[str, ...]) -> None:
    proc = _run(bare_venv / "bin" / "leverguard", *command, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"leverguard: error: the bot's packages are not installed ({', '.join(BOT_EXTRA)}): "
                           f"{ADVICE}\n")
    assert list(tmp_path.iterdir()) == []  # nothing started, no inbox created
    helped = _run(bare_venv / "bin" / "leverguard", "bot", "--help", cwd=tmp_path)
    assert helped.returncode == 0 and ADVICE in " ".join(helped.stdout.split())


def test_with_the_extra_the_bot_commands_get_past_the_check(tmp_path: Path) -> None:
    proc = _run(sys.executable, "-m", "leverguard", "bot", "serve", cwd=tmp_path,
                env={"LEVERGUARD_WEBHOOK_SECRET": "", "LEVERGUARD_BOT_SETTINGS": ""})
    assert proc.returncode == 2 and ADVICE not in proc.stderr and "secret" in proc.stderr


def test_pyproject_declares_one_version_a_modern_backend_and_the_bot_extra() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "leverguard.__version__"}
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"] and project["license"] == "MIT"
    extra = {re.split(r"[ <>=;\[]", r)[0]: r for r in project["optional-dependencies"]["bot"]}
    assert set(extra) == set(BOT_EXTRA)  # the missing-extra check names what the extra installs
    assert "leverguard[bot]" in project["optional-dependencies"]["test"]  # CI tests the bot


def test_every_core_dependency_is_imported_by_the_package() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "leverguard").rglob("*.py"))
    for requirement in PYPROJECT["project"]["dependencies"]:
        module = re.split(r"[ <>=;]", requirement)[0].replace("-", "_").lower()
        assert re.search(rf"^\s*(import|from) {module}\b", sources, re.M), f"{requirement} is never imported"
    for module in ("git", "unidiff"):  # GitPython's and unidiff's import names
        assert not re.search(rf"^\s*(import|from) {module}(\.| |$)", sources, re.M), module
