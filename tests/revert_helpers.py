"""Scenario builders for the revert engine's tests: real repositories with realistic histories."""

from __future__ import annotations

import json
from typing import Any

from conftest import Repo, run_leverguard
from leverguard.report import to_json
from leverguard.revert.engine import RevertOptions, check_range
from leverguard.session import Session

BOB = "Bob <bob@example.com>"
CAROL = "Carol <carol@example.com>"
DAVE = "Dave <dave@example.com>"


def body(tag: str, count: int) -> str:
    """COUNT distinct, non-trivial source lines tagged TAG."""
    return "".join(f"value_{tag}_{i} = compute_{tag}({i}, scale={i * 7})\n" for i in range(count))


def tune(lines: list[str], at: list[int], tag: str = "t") -> list[str]:
    """LINES of `body("m", ...)` with the lines numbered AT given a new scale (one replaced line each)."""
    return [f"value_m_{i} = compute_m({i}, scale={tag}_{i})\n" if i in at else line for i, line in enumerate(lines)]


def seed(repo: Repo, files: int = 20, prefix: str = "src/mod") -> dict[str, str]:
    """An initial commit of FILES modules; returns their contents."""
    contents = {f"{prefix}{i}.py": body(f"base{i}", 6) for i in range(files)}
    contents["kernel.c"] = "".join(f"int kernel_step_{i}(int x) {{ return x * {i}; }}\n" for i in range(12))
    for path, text in contents.items():
        repo.write(path, text)
    repo.commit("initial import")
    return contents


def land(repo: Repo, subject: str, edits: dict[str, str | None], author: str = BOB) -> str:
    """Commit EDITS (path -> content, None deletes) on the current branch, as a squash merge lands."""
    for path, text in edits.items():
        if text is None:
            repo.remove(path)
        else:
            repo.write(path, text)
    return repo.commit(subject, author=author)


def merge_pr(repo: Repo, branch: str, number: int, title: str, author: str = DAVE) -> str:
    """Merge BRANCH into the current branch with a GitHub-style merge commit."""
    repo.git("merge", "--no-ff", "-q", branch, "-m", f"Merge pull request #{number} from team/{branch}",
             "-m", title, env={"GIT_AUTHOR_NAME": author.split(" <")[0],
                               "GIT_AUTHOR_EMAIL": author.split(" <")[1].rstrip(">")})
    return repo.head()


def check(repo: Repo, rev_range: str, *args: str, **options: Any) -> tuple[int, dict[str, Any]]:
    """The engine's core on RANGE: (exit code, the JSON contract). `--strict` is the one flag."""
    base, _, head = rev_range.partition("..")
    opts = RevertOptions(strict="--strict" in args, **options)
    with Session(str(repo.path)) as session:
        report = check_range(session, base, head.lstrip("."), opts)
    return report.exit_code(), json.loads(to_json(report.to_dict()))


def check_cli(repo: Repo, rev_range: str, *args: str) -> tuple[int, dict[str, Any]]:
    """`leverguard check-revert --format json RANGE` through the real CLI: (exit code, JSON)."""
    proc = run_leverguard("check-revert", "--format", "json", *args, rev_range, cwd=repo.path)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def by_pr(report: dict[str, Any]) -> dict[int | None, dict[str, Any]]:
    return {f["pr"]: f for f in report["findings"]}
