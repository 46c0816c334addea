"""`leverguard levers`, `levers diff`, `default-build` and `abi`: options in, one engine call, output out."""

from __future__ import annotations

import click

from leverguard.commands import emit, exit_with, format_option, repo_option


def register(cli: click.Group) -> None:
    cli.add_command(levers_group)
    cli.add_command(default_build_command)
    cli.add_command(abi_command)


@click.group("levers", invoke_without_command=True)
@click.option("--rev", default="HEAD", show_default=True, help="The revision to inventory; `index` for the staged state.")
@format_option("table", "json", "markdown", default="table")
@repo_option
@click.pass_context
def levers_group(ctx: click.Context, rev: str, fmt: str, repo: str) -> None:
    """Inventory env-gated levers: gate sites, injections, class and evidence."""
    if ctx.invoked_subcommand is not None:
        return
    from leverguard.levers import api

    text, code = api.inventory_report(repo, None if rev == "index" else rev, fmt)
    click.echo(text)
    exit_with(code)


@levers_group.command("diff")
@click.argument("range_", metavar="[BASE..HEAD]", required=False)
@format_option("table", "json", "markdown", default="table")
@repo_option
def levers_diff(range_: str | None, fmt: str, repo: str) -> None:
    """What a change did to each lever (default: HEAD against the index). Exit 1 on findings."""
    from leverguard.levers import api

    text, code = api.diff_report(repo, range_, fmt)
    click.echo(text)
    exit_with(code)


@click.command("default-build")
@click.argument("range_", metavar="[RANGE]", required=False)
@click.option("--message-file", type=click.Path(dir_okay=False), help="Commit message file (commit-msg hook argument).")
@format_option("text", "json")
@repo_option
def default_build_command(range_: str | None, message_file: str | None, fmt: str, repo: str) -> None:
    """Check that the default build (no lever set) is unchanged; waived by a lever-cleanup message."""
    from leverguard.levers import api

    emit(*api.default_build_report(repo, range_, message_file, fmt))


@click.command("abi")
@click.option("--against", "against", required=True, metavar="REV", help="The revision to compare with.")
@click.option("--head", "head", default=None, metavar="REV", help="Compare this revision instead of the index.")
@format_option("text", "json")
@repo_option
def abi_command(against: str, head: str | None, fmt: str, repo: str) -> None:
    """Changed lines and forbidden tokens in the configured ABI files. Exit 1 when anything changed."""
    from leverguard.levers import api

    emit(*api.abi_report(repo, against, head, fmt))
