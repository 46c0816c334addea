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


# The `bot` extra of pyproject.toml, distribution -> import name (tests/test_packaging.py keeps them in step).
BOT_EXTRA = {"PyGithub": "github", "Flask": "flask", "gunicorn": "gunicorn"}


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


@bot_group.command("serve")
@settings_option
@click.option("--bind", metavar="HOST:PORT", default=None, help="Where to listen (default 127.0.0.1:8080).")
def serve(settings_file: str | None, bind: str | None) -> None:
    """Serve POST /webhook and GET /healthz with gunicorn; refuses to start without a webhook secret."""
    require_bot_extra()
    from leverguard.bot import serve as serving
    from leverguard.bot.settings import load, require_secret

    settings = load(os.environ, settings_file)
    require_secret(settings)
    serving.run(settings, bind or settings.bind)


@bot_group.command("worker")
@settings_option
@click.option("--once", is_flag=True, help="Process what is runnable now, then exit.")
def worker(settings_file: str | None, once: bool) -> None:
    """Claim inbox jobs, check each PR, and report (comment + check run)."""
    require_bot_extra()
    from leverguard.bot import github, worker as work
    from leverguard.bot.settings import load, require_app

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # finish the current job, then exit 0
    settings = load(os.environ, settings_file)
    require_app(settings)
    inbox = _inbox(settings)
    me = work.worker_id()
    inbox.release_orphans(me.rpartition(":")[0], work.pid_alive)  # a crashed predecessor's job runs at once
    processor = work.Processor(settings, github.AppClient(settings), inbox, os.environ)
    work.run(inbox, processor, worker=me, lease_seconds=settings.lease_seconds, poll_seconds=settings.poll_seconds,
             once=once, stop=stop, log=lambda line: print(f"leverguard bot: {line}", file=sys.stderr, flush=True))


@bot_group.command("inbox")
@settings_option
@format_option("text", "json")
def inbox_command(settings_file: str | None, fmt: str) -> None:
    """List stored deliveries with their state (queued, running, done, failed, superseded)."""
    require_bot_extra()
    from leverguard.bot import listing
    from leverguard.bot.settings import load

    rows = _inbox(load(os.environ, settings_file)).list()
    click.echo(listing.to_json(rows) if fmt == "json" else listing.to_text(rows))


@bot_group.command("redeliver")
@settings_option
@click.argument("delivery_id")
def redeliver(settings_file: str | None, delivery_id: str) -> None:
    """Queue a stored delivery again (for example one marked failed)."""
    require_bot_extra()
    from leverguard.bot.settings import load
    from leverguard.errors import LeverguardError

    if not _inbox(load(os.environ, settings_file)).redeliver(delivery_id):
        raise LeverguardError(f"no stored job delivery {delivery_id!r} to replay: list them with "
                              "`leverguard bot inbox` (running jobs and ignored events cannot be replayed)")
    click.echo(f"queued {delivery_id}")


@click.command("github-action")
def github_action() -> None:
    """Check the pull request of a GitHub Actions run (fetch-depth: 0) and report it."""
    require_bot_extra()
    from leverguard.bot import action

    exit_with(action.main(os.environ))


def _inbox(settings: Any) -> Any:
    from leverguard.bot.inbox import Inbox

    return Inbox(settings.db, lease_seconds=settings.lease_seconds, max_attempts=settings.max_attempts,
                 backoff_seconds=settings.backoff_seconds)
