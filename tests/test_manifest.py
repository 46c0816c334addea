"""Self-consistency: every hook id is documented and runnable, every config key documented, the docs' snippets work."""

from __future__ import annotations

import re
import subprocess

import yaml  # installed with pre-commit

from conftest import ROOT, Repo, run_leverguard
from leverguard import config, entry
from test_framework import hook_repo, pre_commit  # noqa: F401 - the session's pre-commit hook repository

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("*.md")}
MANIFEST = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)


def test_every_manifest_hook_is_documented_and_has_a_command() -> None:
    ids = [hook["id"] for hook in MANIFEST]
    assert len(ids) == len(set(ids))
    for hook in MANIFEST:
        assert f"`{hook['id']}`" in README, f"{hook['id']} is not documented in README.md"
        assert f"`{hook['id']}`" in DOCS["commands.md"], f"{hook['id']} is not documented in docs/commands.md"
        assert hook["entry"].startswith("leverguard "), hook["entry"]
        assert hook["id"] in entry.HOOKS, f"{hook['id']} cannot run as a plain git hook (entry.HOOKS)"
        assert hook["language"] == "python"
        assert hook.get("minimum_pre_commit_version") == "3.2.0"  # stage names without the git- prefix


def test_every_plain_hook_runs_a_known_hook_id() -> None:
    for script in (ROOT / "hooks").iterdir():
        text = script.read_text(encoding="utf-8")
        assert "leverguard-managed hook" in text, script.name
        ids = re.findall(r"leverguard hook (leverguard-\S+)", text)
        ids += [i for line in re.findall(r'^hooks="([^"]+)"', text, re.M) for i in line.split(",")]
        assert ids, f"hooks/{script.name} runs no hook id"
        for hook_id in ids:
            assert hook_id in entry.HOOKS, f"hooks/{script.name} runs unknown hook id {hook_id}"


def test_every_config_key_is_documented_with_its_default() -> None:
    reference = DOCS["configuration.md"]
    for key in config.KEYS:
        assert re.search(rf"^\| `{re.escape(key.dotted)}` \|", reference, re.M), f"{key.dotted} missing"
    assert config.reference_markdown() in reference, \
        "docs/configuration.md is stale: paste `leverguard config --reference`"


def test_the_readme_is_a_short_guide_with_the_two_setup_commands() -> None:
    assert len(README.encode("utf-8")) <= 12 * 1024
    commands = fenced(README, "console")
    assert commands[:3] == ["python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]'\n",
                            "leverguard audit\n", "python -m pytest\n"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == commands[2].strip(), "CI must run exactly the README's test command"


def test_snippets_name_one_owner_and_a_pin_that_exists() -> None:
    texts = {"README.md": README, **{f"docs/{name}": text for name, text in DOCS.items()}}
    for name, text in texts.items():
        for owner in re.findall(r"github\.com/([\w.-]+)/leverguard", text) + re.findall(r"uses: ([\w.-]+)/leverguard@", text):
            assert owner == "OWNER", f"{name}: {owner}/leverguard: use the OWNER placeholder"
        snippets = "".join(fenced(text, "yaml") + fenced(text, "console"))
        for pin in re.findall(r"^\s*rev: (\S+)", snippets, re.M) + re.findall(r"OWNER/leverguard@(\w+)", snippets):
            assert pin == "COMMIT_SHA", f"{name}: pin {pin!r}: no tag exists yet, pin a commit SHA"
    assert "COMMIT_SHA" in README and "git ls-remote" in README  # it says what to put there
    assert not re.search(r"v0\.1\.0", README + "".join(DOCS.values())), "v0.1.0 was never tagged"
    action = (ROOT / "action.yml").read_text(encoding="utf-8")  # what `uses: OWNER/leverguard@...` runs
    assert re.search(r'\bleverguard"? github-action\b', action) and '[bot]"' in action  # the venv's leverguard


def test_the_readme_pre_commit_snippet_works_when_copied(repo: Repo, hook_repo: tuple[str, str]) -> None:  # noqa: F811
    url, rev = hook_repo
    (snippet,) = [block for block in fenced(README, "yaml") if ".pre-commit-config.yaml" in block]
    copied = snippet.replace("https://github.com/OWNER/leverguard", url).replace("COMMIT_SHA", rev)
    assert copied != snippet and yaml.safe_load(copied)["repos"][0]["rev"] == rev
    repo.write(".pre-commit-config.yaml", copied)
    repo.write("README.md", "hello\n")
    repo.commit("initial")
    installed = pre_commit(repo, "install", "--install-hooks")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    for stage in ("pre-commit", "commit-msg", "prepare-commit-msg", "pre-push"):
        assert (repo.path / ".git" / "hooks" / stage).is_file(), stage
    repo.write("scratch/try.py", "x = 1\n")
    repo.git("add", "scratch/try.py")
    refused = subprocess.run(["git", "commit", "-q", "-m", "try\n\nCo-Authored-By: Bob <bob@example.com>"],
                             cwd=repo.path, capture_output=True, encoding="utf-8", errors="replace")
    assert refused.returncode != 0 and "scratch/try.py" in refused.stdout + refused.stderr


def test_the_configuration_examples_are_valid(repo: Repo) -> None:
    examples = [block for text in (README, DOCS["configuration.md"]) for block in fenced(text, "toml")]
    assert len(examples) == 2
    for example in examples:
        repo.write(".leverguard.toml", example)
        shown = run_leverguard("config", cwd=repo.path)
        assert shown.returncode == 0 and "defaults + .leverguard.toml" in shown.stdout, shown.stderr


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {_slug(h) for h in re.findall(r"^#+ (.*)$", outside_code, re.M)}


def test_every_relative_link_and_anchor_resolves() -> None:
    pages = {ROOT / "README.md": README, **{ROOT / "docs" / name: text for name, text in DOCS.items()}}
    for page, text in pages.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            path = (page.parent / file_part).resolve() if file_part else page
            assert path.exists(), f"{page.name}: link to missing {target}"
            if anchor and path.suffix == ".md":
                assert anchor in _anchors(path.read_text(encoding="utf-8")), f"{page.name}: no anchor {target}"


def test_the_docs_name_no_issue_owner_sections() -> None:
    for name, text in {"README.md": README, **DOCS}.items():
        assert "<!-- section:" not in text and "(owner:" not in text, name


def test_benchmarks_hold_one_table() -> None:
    tables = re.findall(r"^\| --- \|", DOCS["benchmarks.md"], re.M)
    assert len(tables) == 1, "docs/benchmarks.md: one table of current numbers"
