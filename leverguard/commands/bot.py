"""`leverguard bot serve|worker|inbox|redeliver` and `leverguard github-action`."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

import click

from leverguard.commands import exit_with, format_option

# What each command reads from the environment, listed in its --help (issue #12).
SERVE_ENV = """\b
Environment:
  LEVERGUARD_WEBHOOK_SECRET   the App's webhook secret (required)
  LEVERGUARD_DB               the inbox database (default leverguard-bot.sqlite3)
  LEVERGUARD_BIND             HOST:PORT or unix:/PATH (default 127.0.0.1:8080)
  LEVERGUARD_BOT_SETTINGS     a TOML settings file (read_timeout, ack_timeout, web_threads, ...)"""
WORKER_ENV = """\b
Environment:
  LEVERGUARD_APP_ID           the App ID (required)
  LEVERGUARD_APP_PRIVATE_KEY  the App's PEM private key, or
  LEVERGUARD_PRIVATE_KEY_FILE the path of that PEM file (one of the two is required)
  LEVERGUARD_GITHUB_API_URL   the REST API (default https://api.github.com; GHES: https://HOST/api/v3)
  LEVERGUARD_GIT_URL          where repositories are fetched (default: the API's web host)
  LEVERGUARD_DB               the inbox database (default leverguard-bot.sqlite3)
  LEVERGUARD_CACHE_DIR        the blobless repository caches (default leverguard-cache)
  LEVERGUARD_BOT_SETTINGS     a TOML settings file (poll_seconds, lease_seconds, ...)"""
INBOX_ENV = """\b
Environment:
  LEVERGUARD_DB               the inbox database the service writes (must exist)
  LEVERGUARD_BOT_SETTINGS     a TOML settings file that names it (db = ...)"""
ACTION_ENV = """\b
Environment (set by GitHub Actions):
  GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
  GITHUB_TOKEN                to comment on the PR (optional: without it, summary and annotations)
  GITHUB_API_URL              the REST API of this GitHub"""

settings_option = click.option("--settings", "settings_file", metavar="FILE", default=None,
                               help="A TOML settings file (default: $LEVERGUARD_BOT_SETTINGS); LEVERGUARD_* variables win.")


# The `bot` extra of pyproject.toml, distribution -> import name (tests/test_packaging.py keeps them in step).
BOT_EXTRA = {"PyGithub": "github", "Flask": "flask", "gunicorn": "gunicorn", "procrastinate": "procrastinate",
             "psycopg": "psycopg"}


def require_bot_extra() -> None:
    """One line saying how to install the bot's packages, instead of an ImportError deep inside (issue #12)."""
    from importlib.util import find_spec

    from leverguard.errors import LeverguardError

    missing = [name for name, module in BOT_EXTRA.items() if find_spec(module) is None]
    if missing:
        raise LeverguardError(f"the bot's packages are not installed ({', '.join(missing)}): "
                              "pip install 'leverguard[bot]'")


def register(cli: click.Group) -> None:
    cli.add_command(bot_group)
    cli.add_command(github_action)


@click.group("bot")
def bot_group() -> None:
    """The GitHub App service: webhook server, worker and inbox (needs pip install 'leverguard[bot]')."""


@bot_group.command("serve", epilog=SERVE_ENV)
@settings_option
@click.option("--bind", metavar="HOST:PORT", default=None, help="Where to listen (default 127.0.0.1:8080).")
def serve(settings_file: str | None, bind: str | None) -> None:
    """Serve POST /webhook and GET /healthz with gunicorn; refuses to start without a webhook secret."""
    require_bot_extra()
    from leverguard.bot import serve as serving
    from leverguard.bot.settings import load, require_secret

    from leverguard.bot.inbox import resolve

    settings = resolve(load(os.environ, settings_file))  # a database_url becomes the inbox create_app opens
    require_secret(settings)
    serving.run(settings, bind or settings.bind)


@bot_group.command("worker", epilog=WORKER_ENV)
@settings_option
@click.option("--once", is_flag=True, help="Process what is runnable now, then exit.")
@click.option("--concurrency", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes on this host, each running one job at a time.")
def worker(settings_file: str | None, once: bool, concurrency: int) -> None:
    """Run inbox jobs: check each PR, and report (comment + check run).

    The backend is SQLite (LEVERGUARD_DB) or PostgreSQL (LEVERGUARD_DATABASE_URL); on PostgreSQL any
    number of workers on any number of hosts share the queue, each host with its own LEVERGUARD_CACHE_DIR.
    """
    require_bot_extra()
    from leverguard.bot import worker as work
    from leverguard.bot.settings import load, require_app

    settings = load(os.environ, settings_file)
    require_app(settings)
    exit_with(work.processes(concurrency, lambda: _work(settings, once)))


def _work(settings: Any, once: bool) -> int:
    """One worker process: its own GitHub client and database connections (never shared across a fork)."""
    from leverguard.bot import github, worker as work
    from leverguard.bot.inbox import open_inbox
    from leverguard.errors import guarded

    def body() -> int:
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())  # finish the current job, then exit 0
        inbox, me = open_inbox(settings), work.worker_id()
        inbox.release_orphans(me.rpartition(":")[0], work.pid_alive)  # a crashed predecessor's job runs at once
        processor = work.Processor(settings, github.AppClient(settings), inbox, os.environ)
        inbox.work(processor, processor.give_up, worker=me, once=once, stop=stop,
                   log=lambda line: print(f"leverguard bot: {line}", file=sys.stderr, flush=True))
        return 0

    return guarded(body)


@bot_group.command("migrate")
@settings_option
def migrate(settings_file: str | None) -> None:
    """Create or upgrade the inbox schema (PostgreSQL: procrastinate's tables and the bot's own)."""
    require_bot_extra()
    from leverguard.bot.inbox import open_inbox
    from leverguard.bot.settings import load

    for step in open_inbox(load(os.environ, settings_file)).migrate():
        click.echo(step)


@bot_group.command("inbox", epilog=INBOX_ENV)
@settings_option
@format_option("text", "json")
def inbox_command(settings_file: str | None, fmt: str) -> None:
    """List stored deliveries with their state (queued, running, done, failed, superseded)."""
    require_bot_extra()
    from leverguard.bot import listing
    from leverguard.bot.inbox import open_inbox
    from leverguard.bot.settings import load

    rows = open_inbox(_existing(load(os.environ, settings_file))).list()
    click.echo(listing.to_json(rows) if fmt == "json" else listing.to_text(rows))


@bot_group.command("redeliver", epilog=INBOX_ENV)
@settings_option
@click.argument("delivery_id")
def redeliver(settings_file: str | None, delivery_id: str) -> None:
    """Queue a stored delivery again (for example one marked failed)."""
    require_bot_extra()
    from leverguard.bot.inbox import open_inbox
    from leverguard.bot.settings import load
    from leverguard.errors import LeverguardError

    if not open_inbox(_existing(load(os.environ, settings_file))).redeliver(delivery_id):
        raise LeverguardError(f"no stored job delivery {delivery_id!r} to replay: list them with "
                              "`leverguard bot inbox` (running jobs and ignored events cannot be replayed)")
    click.echo(f"queued {delivery_id}")


@click.command("github-action", epilog=ACTION_ENV)
def github_action() -> None:
    """Check the pull request of a GitHub Actions run (fetch-depth: 0) and report it."""
    require_bot_extra()
    from leverguard.bot import action

    exit_with(action.main(os.environ))



def _existing(settings: Any) -> Any:
    """Reading commands open the service's inbox; they never create an empty one where they stand."""
    from leverguard.errors import LeverguardError

    if getattr(settings, "database_url", "") or "://" in settings.db:
        return settings  # PostgreSQL: the server holds the inbox
    if not os.path.isfile(settings.db):
        raise LeverguardError(f"no inbox database at {os.path.abspath(settings.db)}: set LEVERGUARD_DB (or db in "
                              "the settings file) to the database `leverguard bot serve` writes")
    return settings
