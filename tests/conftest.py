"""Hermetic real-git fixtures: every test gets its own HOME, git config and fixed dates."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent


class Repo:
    """A real git repository in a temporary folder, driven through the git binary."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._tick = 0

    def git(self, *args: str, check: bool = True, input: bytes | None = None,
            env: dict[str, str] | None = None) -> str:
        # merges and other commits made with plain git keep to the fixture's clock too
        now = f"{1_700_000_000 + self._tick * 3600} +0000"
        proc = subprocess.run(["git", *args], cwd=self.path, input=input, capture_output=True,
                              env={**os.environ, "GIT_AUTHOR_DATE": now, "GIT_COMMITTER_DATE": now, **(env or {})})
        if check and proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
        return proc.stdout.decode("utf-8", "surrogateescape").strip()

    def write(self, relpath: str | bytes, content: str | bytes = "x\n") -> Path:
        path = Path(os.fsdecode(os.path.join(os.fsencode(self.path), os.fsencode(relpath))))
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return path

    def remove(self, relpath: str) -> None:
        self.git("rm", "-q", "-r", "--", relpath)

    def commit(self, message: str, *paths: str, author: str = "Alice <alice@example.com>",
               env: dict[str, str] | None = None) -> str:
        """Stage `paths` (everything when none) and commit with a strictly increasing date."""
        self.git("add", "-A", "--", *(paths or (".",)))
        self._tick += 1
        date = f"{1_700_000_000 + self._tick * 3600} +0000"
        name, _, email = author.partition(" <")
        stamp = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date,
                 "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">")}
        self.git("commit", "-q", "--allow-empty", "--no-verify", "-m", message, env={**stamp, **(env or {})})
        return self.git("rev-parse", "HEAD")

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")


@pytest.fixture(autouse=True)
def hermetic_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seal git from the machine's configuration, like git-revise's test fixture does."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Alice")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "alice@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Alice")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "alice@example.com")
    monkeypatch.setenv("GIT_EDITOR", "true")
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path_factory.getbasetemp() / "pre-commit-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "user-cache"))  # shared, as a user's is
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "SKIP", "LEVERGUARD_PYTHON"):
        monkeypatch.delenv(name, raising=False)
    (home / ".gitconfig").write_text(
        "[init]\n\tdefaultBranch = main\n[user]\n\tname = Alice\n\temail = alice@example.com\n"
        "[commit]\n\tgpgsign = false\n[protocol \"file\"]\n\tallow = always\n", encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    path = tmp_path / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    yield Repo(path)


def run_leverguard(*args: str, cwd: Path | str, env: dict[str, str] | None = None,
                   input: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real console entry point in a subprocess: exit code, stdout and stderr as a user sees them."""
    return subprocess.run([sys.executable, "-m", "leverguard", *args], cwd=cwd, input=input,
                          capture_output=True, env={**os.environ, **(env or {})},
                          encoding="utf-8", errors="surrogateescape")


# ---------------------------------------------------------------------- PostgreSQL (the bot's second backend)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """The test PostgreSQL server; skipped when it cannot be started, except in CI where that fails."""
    import pg_helpers

    try:
        pytest.importorskip("procrastinate")
        server = pg_helpers.start()
        pg_helpers.prepare_template(server)
    except (RuntimeError, OSError, ImportError, pytest.skip.Exception) as exc:
        if pg_helpers.required():
            pytest.fail(f"PostgreSQL is required here (CI or LEVERGUARD_REQUIRE_POSTGRES): {exc}")
        pytest.skip(f"no PostgreSQL server for the bot's PostgreSQL tests: {exc}")
    except Exception as exc:  # psycopg's errors: a server that started but refuses us
        if pg_helpers.required():
            pytest.fail(f"PostgreSQL is required here: {exc}")
        pytest.skip(f"PostgreSQL unusable: {exc}")
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: object) -> Iterator[str]:
    """A fresh database with the bot's schema, dropped after the test."""
    import pg_helpers

    url = pg_helpers.fresh_database(pg_server)  # type: ignore[arg-type]
    yield url
    pg_helpers.drop_database(pg_server, url)  # type: ignore[arg-type]
