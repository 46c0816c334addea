"""`leverguard bot serve|worker|inbox|redeliver` and `leverguard github-action`."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

import click

from leverguard.commands import exit_with, format_option

settings_option = click.option("--settings", "settings_file", metavar="FILE", default=None,
                               help="A TOML settings file (default: $LEVERGUARD_BOT_SETTINGS); LEVERGUARD_* variables win.")


def register(cli: click.Group) -> None:
    cli.add_command(bot_group)
    cli.add_command(github_action)


@click.group("bot")
def bot_group() -> None:
    """The GitHub App service: webhook server, worker and inbox."""


@bot_group.command("serve")
@settings_option
@click.option("--bind", metavar="HOST:PORT", default=None, help="Where to listen (default 127.0.0.1:8080).")
def serve(settings_file: str | None, bind: str | None) -> None:
    """Serve POST /webhook and GET /healthz with gunicorn; refuses to start without a webhook secret."""
    from leverguard.bot import serve as serving
    from leverguard.bot.settings import load, require_secret

    from leverguard.bot.queue import resolve

    settings = resolve(load(os.environ, settings_file))  # a database_url becomes the inbox create_app opens
    require_secret(settings)
    serving.run(settings, bind or settings.bind)


@bot_group.command("worker")
@settings_option
@click.option("--once", is_flag=True, help="Process what is runnable now, then exit.")
@click.option("--concurrency", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes on this host, each running one job at a time.")
def worker(settings_file: str | None, once: bool, concurrency: int) -> None:
    """Run inbox jobs: check each PR, and report (comment + check run).

    The backend is SQLite (LEVERGUARD_DB) or PostgreSQL (LEVERGUARD_DATABASE_URL); on PostgreSQL any
    number of workers on any number of hosts share the queue, each host with its own LEVERGUARD_CACHE_DIR.
    """
    from leverguard.bot import worker as work
    from leverguard.bot.settings import load, require_app

    settings = load(os.environ, settings_file)
    require_app(settings)
    exit_with(work.processes(concurrency, lambda: _work(settings, once)))


def _work(settings: Any, once: bool) -> int:
    """One worker process: its own GitHub client and database connections (never shared across a fork)."""
    from leverguard.bot import github, worker as work
    from leverguard.bot.queue import open_inbox
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
    from leverguard.bot.queue import open_inbox
    from leverguard.bot.settings import load

    for step in open_inbox(load(os.environ, settings_file)).migrate():
        click.echo(step)


@bot_group.command("inbox")
@settings_option
@format_option("text", "json")
def inbox_command(settings_file: str | None, fmt: str) -> None:
    """List stored deliveries with their state (queued, running, done, failed, superseded)."""
    from leverguard.bot import listing
    from leverguard.bot.queue import open_inbox
    from leverguard.bot.settings import load

    rows = open_inbox(load(os.environ, settings_file)).list()
    click.echo(listing.to_json(rows) if fmt == "json" else listing.to_text(rows))


@bot_group.command("redeliver")
@settings_option
@click.argument("delivery_id")
def redeliver(settings_file: str | None, delivery_id: str) -> None:
    """Queue a stored delivery again (for example one marked failed)."""
    from leverguard.bot.queue import open_inbox
    from leverguard.bot.settings import load
    from leverguard.errors import LeverguardError

    if not open_inbox(load(os.environ, settings_file)).redeliver(delivery_id):
        raise LeverguardError(f"no stored job delivery {delivery_id!r} to replay: list them with "
                              "`leverguard bot inbox` (running jobs and ignored events cannot be replayed)")
    click.echo(f"queued {delivery_id}")


@click.command("github-action")
def github_action() -> None:
    """Check the pull request of a GitHub Actions run (fetch-depth: 0) and report it."""
    from leverguard.bot import action

    exit_with(action.main(os.environ))

