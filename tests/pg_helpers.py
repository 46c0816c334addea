"""A PostgreSQL server for the bot's tests: the one .ci/run starts (LEVERGUARD_TEST_DATABASE_URL), or a
throwaway cluster started here through the same .ci/postgres.sh; one fresh database per test."""

from __future__ import annotations

import os
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "leverguard_template"


@dataclass
class Server:
    """A running server: its admin URL and, when we can drive it, pg_ctl and the data folder."""

    url: str
    pg_ctl: str = ""
    data: str = ""
    owned: bool = False  # started by this test session, stopped at its end

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path="/" + name))

    def pg_ctl_as_owner(self, *args: str) -> subprocess.CompletedProcess[str]:
        """pg_ctl as the cluster's owner (initdb and pg_ctl refuse root). Its output goes to a file, never a
        pipe: a (re)started server inherits pg_ctl's descriptors and would hold a pipe open for good."""
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        log = str(Path(self.data).parent / "server.log")
        with tempfile.TemporaryFile("w+") as out:
            proc = subprocess.run([*prefix, self.pg_ctl, "-D", self.data, "-l", log, "-w", "-s", *args],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=60,
                                  cwd="/tmp")  # the owner may not read the current folder
            out.seek(0)
            return subprocess.CompletedProcess(proc.args, proc.returncode, out.read(), "")

    def stop(self) -> None:
        if self.owned:
            self.pg_ctl_as_owner("-m", "immediate", "stop")
            subprocess.run(["rm", "-rf", str(Path(self.data).parent)], check=False)


def required() -> bool:
    """In CI a missing server fails the tests instead of skipping them."""
    return bool(os.environ.get("CI") or os.environ.get("LEVERGUARD_REQUIRE_POSTGRES"))


def start() -> Server:
    """The server .ci/run exported, or one started now; raises RuntimeError with the reason."""
    if os.environ.get("LEVERGUARD_TEST_DATABASE_URL"):
        return Server(os.environ["LEVERGUARD_TEST_DATABASE_URL"], os.environ.get("LEVERGUARD_TEST_PG_CTL", ""),
                      os.environ.get("LEVERGUARD_TEST_PG_DATA", ""))
    script = ('. "$1" >&2 || exit 1; trap - EXIT; '
              'printf "%s\\n%s\\n%s\\n" "$LEVERGUARD_TEST_DATABASE_URL" "$LEVERGUARD_TEST_PG_CTL" "$LEVERGUARD_TEST_PG_DATA"')
    proc = subprocess.run(["bash", "-c", script, "postgres.sh", str(ROOT / ".ci" / "postgres.sh")],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"cannot start PostgreSQL: {proc.stderr.strip()[-500:]}")
    url, pg_ctl, data = proc.stdout.split("\n")[:3]
    return Server(url, pg_ctl, data, owned=True)


def admin(server: Server, sql: str) -> None:
    import psycopg

    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql)


def prepare_template(server: Server) -> None:
    """A database with the bot's schema (through `leverguard bot migrate`'s code) to copy for each test."""
    from leverguard.bot.inbox_postgres import PostgresInbox

    admin(server, f"DROP DATABASE IF EXISTS {TEMPLATE}")
    admin(server, f"CREATE DATABASE {TEMPLATE}")
    inbox = PostgresInbox(server.database_url(TEMPLATE))
    inbox.migrate()
    inbox.close()


def fresh_database(server: Server) -> str:
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin(server, f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    return server.database_url(name)


def drop_database(server: Server, url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
