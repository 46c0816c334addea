"""The click CLI: parses options and makes one engine call per command. Nothing else lives here."""

from __future__ import annotations

import sys
from typing import Sequence

import click

from leverguard import __version__
from leverguard.commands import repo_option
from leverguard.errors import broken_pipe, guarded

PASSTHROUGH = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


class _PipeClosed(Exception):
    """stdout's reader went away inside a command; click itself would make that exit 1 (issue #11)."""


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise _PipeClosed from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="leverguard", message="%(prog)s %(version)s")
def cli() -> None:
    """A git hygiene and regression guard for teams that land many performance experiments."""


@cli.command("check-paths", context_settings=PASSTHROUGH, add_help_option=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def check_paths(args: tuple[str, ...]) -> None:
    """Refuse staged artifacts: scratch/, .claude/, *.csv, .pk_compile ... (see --help)."""
    from leverguard import paths

    sys.exit(paths.main(args))


@cli.command("config")
@repo_option
@click.option("--reference", is_flag=True, help="Print every key, its type and default as a markdown table.")
def config_command(repo: str, reference: bool) -> None:
    """Print the effective configuration (defaults + file) as TOML."""
    from leverguard import config, git

    if reference:
        click.echo(config.reference_markdown())
        return
    click.echo(config.to_toml(config.load(git.toplevel(repo))), nl=False)


@cli.command("install")
@repo_option
@click.option("--force", is_flag=True, help="Replace hooks leverguard did not write (kept as a backup).")
@click.option("--with", "extra", multiple=True, metavar="HOOK_ID",
              help="Also run an opt-in hook: leverguard-abi (pre-commit), leverguard-default-build (commit-msg).")
def install_command(repo: str, force: bool, extra: tuple[str, ...]) -> None:
    """Install leverguard's plain git hooks (respects core.hooksPath)."""
    from leverguard import install

    for action in install.install(repo, force=force, extra=extra):
        click.echo(f"{action.what}: {action.path}")


@cli.command("uninstall")
@repo_option
def uninstall_command(repo: str) -> None:
    """Remove the hooks leverguard installed, and only those."""
    from leverguard import install

    actions = install.uninstall(repo)
    for action in actions:
        click.echo(f"{action.what}: {action.path}")
    if not actions:
        click.echo("no leverguard hooks installed")


# Each engine's commands live in leverguard/commands/<engine>.py and register here, one line each.
from leverguard.commands import revert; revert.register(cli)  # issue #3
from leverguard.commands import levers; levers.register(cli)  # issue #4
from leverguard.commands import message; message.register(cli)  # issue #5
from leverguard.commands import bot; bot.register(cli)  # issue #6


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)

    def run() -> int:
        try:
            result = cli.main(args=args, prog_name="leverguard", standalone_mode=False)
        except click.exceptions.Exit as exc:
            return int(exc.exit_code)
        except click.UsageError as exc:
            exc.show()
            return 2
        except click.Abort:
            raise KeyboardInterrupt from None
        except _PipeClosed:
            return broken_pipe()
        except SystemExit as exc:
            return int(exc.code or 0) if not isinstance(exc.code, str) else 2
        return result if isinstance(result, int) else 0  # click returns ctx.exit(N)'s N without raising

    return guarded(run)
