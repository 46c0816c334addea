"""`leverguard check-revert`, `leverguard audit` and the pre-push guard's command."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from leverguard.commands import exit_with, format_option, repo_option


def register(cli: click.Group) -> None:
    cli.add_command(check_revert)
    cli.add_command(audit)
    cli.add_command(pre_push)


@click.command("check-revert")
@repo_option
@format_option("text", "json", "markdown")
@click.option("--window", type=click.IntRange(min=0), default=None, metavar="N",
              help="First-parent commits of BASE examined as candidates [default: 150, or revert.window].")
@click.option("--since", default=None, metavar="DATE", help="Only candidates newer than DATE (git date syntax).")
@click.option("--strict", is_flag=True, help="Fail on silent warnings too, not only errors.")
@click.option("--pr-body", "pr_body", type=click.File("r", encoding="utf-8", errors="replace"), default=None,
              metavar="FILE", help="The PR description: a declaration there counts ('-' reads stdin).")
@click.argument("rev_range", metavar="RANGE")
def check_revert(repo: str, fmt: str, window: int | None, since: str | None, strict: bool,
                 pr_body: TextIO | None, rev_range: str) -> None:
    """Check what landing RANGE (BASE..HEAD) would undo of BASE's recent first-parent commits."""
    from leverguard.revert.command import run_check

    body = pr_body.read() if pr_body is not None else None
    exit_with(run_check(repo, fmt, window, since, strict, body, rev_range))


@click.command("audit")
@repo_option
@format_option("text", "json", "markdown")
@click.option("--max-count", "max_count", type=click.IntRange(min=1), default=None, metavar="N",
              help="Audit the N newest first-parent commits [default: all].")
@click.option("--since", default=None, metavar="DATE", help="Audit commits newer than DATE.")
@click.option("--window", type=click.IntRange(min=0), default=None, metavar="N",
              help="Candidates per audited commit [default: 150, or revert.window].")
@click.option("--strict", is_flag=True, help="Fail on silent warnings too, not only errors.")
@click.option("--all", "include_all", is_flag=True, help="Also list notices and declared or acknowledged reverts.")
@click.argument("branch", required=False, default="HEAD")
def audit(repo: str, fmt: str, max_count: int | None, since: str | None, window: int | None, strict: bool,
          include_all: bool, branch: str) -> None:
    """List every silent revert ever landed on BRANCH's first-parent history (default: current branch)."""
    from leverguard.errors import LeverguardError
    from leverguard.report import to_json
    from leverguard.revert import audit as audit_module
    from leverguard.revert import render_audit
    from leverguard.session import Session

    if max_count is not None and since is not None:
        raise LeverguardError("--max-count and --since exclude each other: give one of them")
    progress = audit_module.TerminalProgress(sys.stderr) if sys.stderr.isatty() else None
    with Session(repo) as session:
        result = audit_module.audit_branch(session, branch, max_count=max_count, since=since, window=window,
                                           strict=strict, progress=progress, include_all=include_all)
    output = {"json": lambda: to_json(result.to_dict()), "markdown": lambda: render_audit.to_markdown(result),
              "text": lambda: render_audit.to_text(result)}[fmt]()
    click.echo(output)
    if result.incomplete:  # after the report: what was checked is out before the incomplete verdict
        count, failing = len(result.unchecked), result.failing()
        # (where the report holds the fix and the note: above in text and markdown, in named fields of the JSON)
        fix = "each `unchecked` entry of the JSON holds its fix" if fmt == "json" else "fix listed above"
        # (else the history ends early, or older commits it compared with lack objects: its note says which)
        gaps = f"{count} commit{'s' if count != 1 else ''} not checked (objects missing, {fix})" if result.unchecked \
            else result.notes[0]
        found = f"; {failing} landed change{'s' if failing != 1 else ''} with a silent revert that fails the check " \
            f"found in what was checked" if failing else ""
        print(f"leverguard: error: incomplete audit: {gaps}{found}", file=sys.stderr)
    exit_with(result.exit_code())


@click.command("pre-push-revert", hidden=True, context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def pre_push(args: tuple[str, ...]) -> None:
    """The pre-push guard (hook id leverguard-revert): what each pushed ref would land on the default branch."""
    from leverguard.revert import prepush

    sys.exit(prepush.main(args))
