"""Click command groups, one module per engine; each exposes `register(cli)`.

Command bodies only parse options and make one engine call; engines are imported inside
the command functions so that `leverguard --help` stays fast.
"""

from __future__ import annotations

from typing import Any, Callable

import click

F = Callable[..., Any]


def repo_option(func: F) -> F:
    return click.option("--repo", "repo", default=".", show_default=True, metavar="DIR",
                        help="The repository to work on.")(func)


def format_option(*choices: str, default: str = "text") -> Callable[[F], F]:
    return click.option("--format", "fmt", type=click.Choice(choices), default=default, show_default=True,
                        help="Output format.")


def exit_with(code: int) -> None:
    """End a command with an exit code (0 clean, 1 findings, 2 error)."""
    raise SystemExit(code)


def emit(text: str, code: int) -> None:
    """Print an engine's report (when it has one) and end with its exit code."""
    if text:
        click.echo(text)
    exit_with(code)
