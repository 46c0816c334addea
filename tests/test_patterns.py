"""The compiled programs of the lazy patterns, kept between runs in the user's cache folder.

A pattern object compares equal to another only when their flags and compiled programs are the
same (CPython compares the code itself), so each test asks `==` of `re.compile`'s own result.
"""

from __future__ import annotations

import importlib
import json
import marshal
import pkgutil
import re
from pathlib import Path

import pytest

import leverguard
from conftest import Repo, run_leverguard
from leverguard import cache, patterns
from revert_helpers import BOB, land, seed


def every_lazy_pattern() -> list[tuple[str | bytes, int]]:
    """(pattern, flags) of each module-level lazy pattern in the package, tuples of them included."""
    found: dict[tuple[str | bytes, int], None] = {}
    for info in pkgutil.walk_packages(leverguard.__path__, "leverguard."):
        if ".bot" in info.name or info.name.endswith("__main__"):  # the bot's extra need not be installed
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            for item in value if isinstance(value, tuple) else (value,):
                if type(item).__name__ == "lazy" and type(item).__module__ == patterns.__name__:
                    found[(item._args[0], int(item._args[1]))] = None
    return list(found)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "leverguard"


def test_programs_read_back_from_the_cache_are_the_ones_re_compile_writes(cache_home: Path) -> None:
    wanted = every_lazy_pattern()
    assert len(wanted) > 150  # the revert engine's wording and line patterns, the message rules'
    first = patterns._Programs()
    assert all(first.compile(p, f) == re.compile(p, f) for p, f in wanted)
    first._save()
    [stored] = list(cache_home.iterdir())
    second = patterns._Programs()
    compiled = [second.compile(p, f) for p, f in wanted]
    assert second._added is False  # every program came from the file: nothing compiled, nothing to write
    for (pattern, flags), got in zip(wanted, compiled):
        assert got == re.compile(pattern, flags), pattern
    assert stored.name.startswith("regex-")


def test_a_damaged_foreign_or_tampered_cache_falls_back_to_re_compile(cache_home: Path) -> None:
    pattern, flags = r"\b(remov\w*|drop\w*)\s+(?P<what>\w+)", re.IGNORECASE
    path = Path(patterns._path() or "")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not marshal")
    assert patterns._Programs().compile(pattern, flags) == re.compile(pattern, flags)

    program = patterns._generate(pattern, int(flags))
    other_python = (patterns.FORMAT, "cpython", "2.7.18", 0, 4)  # written by another interpreter: not read
    cache.write(str(path), other_python, {(pattern, int(flags)): (program[0], [1, 2, 3], *program[2:])})
    programs = patterns._Programs()
    assert programs.compile(pattern, flags) == re.compile(pattern, flags) and programs._added

    broken = (program[0], [int(op) for op in program[1][:-3]], *program[2:])  # cut short: _sre refuses it
    cache.write(str(path), patterns._key(), {(pattern, int(flags)): broken})
    assert patterns._Programs().compile(pattern, flags) == re.compile(pattern, flags)


def test_a_cache_grown_past_its_bound_keeps_only_the_runs_own_programs(cache_home: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "MAX_PROGRAMS", 3)
    programs = patterns._Programs()
    for i in range(3):
        programs.compile(f"old{i}", 0)
    programs._save()
    fresh = patterns._Programs()
    fresh.compile("new", 0)
    fresh.compile("old0", 0)
    fresh._save()
    kept = marshal.loads(Path(patterns._path() or "").read_bytes())[2]
    assert sorted(kept) == [("new", 0), ("old0", 0)]


def test_a_check_keeps_its_programs_in_the_users_cache_not_in_the_repository(repo: Repo, cache_home: Path) -> None:
    contents = seed(repo)
    land(repo, "Tune the scales (#5)", {"src/mod1.py": contents["src/mod1.py"] + "scale_extra = compute(9)\n"})
    land(repo, "Add a helper (#6)", {"src/mod2.py": contents["src/mod2.py"] + "helper = compute_helper(3)\n",
                                      "src/mod1.py": contents["src/mod1.py"]}, author=BOB)
    cold = run_leverguard("check-revert", "HEAD~1..HEAD", "--format", "json", cwd=repo.path)
    stored = sorted(p.name for p in cache_home.iterdir())
    warm = run_leverguard("check-revert", "HEAD~1..HEAD", "--format", "json", cwd=repo.path)
    assert cold.returncode == warm.returncode, cold.stderr
    assert cold.stdout == warm.stdout and json.loads(cold.stdout)["findings"]
    assert stored and all(name.startswith("regex-") for name in stored)
    assert not (repo.path / ".git" / "leverguard" / "regex").exists()
    assert not any("regex" in p.name for p in (repo.path / ".git").rglob("*"))
