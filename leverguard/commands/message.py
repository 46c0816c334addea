"""`leverguard check-msg` and `leverguard template`: options in, one engine call, output out."""

from __future__ import annotations

import click

from leverguard.commands import emit, format_option, repo_option


def register(cli: click.Group) -> None:
    cli.add_command(check_msg_command)
    cli.add_command(template_command)


@click.command("check-msg")
@click.argument("msgfile", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--range", "range_", metavar="BASE..HEAD", help="Check every commit of a range against its own diff.")
@format_option("text", "json", "markdown")
@repo_option
def check_msg_command(msgfile: str | None, range_: str | None, fmt: str, repo: str) -> None:
    """Check a commit message (file, or - for stdin) against the staged diff. Exit 1 on violations."""
    from leverguard.message import run

    emit(*run.check_msg(repo, msgfile, range_, fmt))


@click.command("template")
@click.option("--range", "range_", metavar="BASE..HEAD", help="Build it for an existing range (a squash commit).")
@repo_option
def template_command(range_: str | None, repo: str) -> None:
    """Print the commit-message template pre-filled from the staged diff's lever changes."""
    from leverguard.message import run

    click.echo(run.template_text(repo, range_), nl=False)
