"""Missing objects and read-only repositories: audit and check-revert report what they could not
read (with the fetch that brings it back), never fetch on their own, and write nothing into a
repository they merely check (issue #9)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import Repo, run_leverguard
from revert_helpers import CAROL, body, land, seed
from test_revert_audit import build_history
from test_revert_story import build_224


def _with_backup_remote(repo: Repo, tmp_path: Path) -> None:
    """A full copy of REPO as its `origin`, so that a lost object can really be fetched back."""
    backup = tmp_path / "backup.git"
    repo.git("clone", "-q", "--mirror", str(repo.path), str(backup))
    repo.git("remote", "add", "origin", str(backup))


def _delete_loose(repo: Repo, oid: str) -> None:
    """Lose one object: the tests' commits write loose objects (no gc ran), one file each."""
    path = repo.path / ".git" / "objects" / oid[:2] / oid[2:]
    assert path.is_file()
    path.unlink()


def _steps(repo: Repo) -> list[str]:
    old = seed(repo)
    return [land(repo, f"feat: step {i} (#{300 + i})", {f"src/mod{i}.py": old[f"src/mod{i}.py"] + body(f"s{i}", 4)})
            for i in range(4)]


def _fix_args(fix: str) -> list[str]:
    """The git arguments of a fix such as `fetch it with git fetch origin OID`."""
    command = fix.split(" with git ", 1)[1].split(" (")[0]
    return command.split()


def _snapshot(root: Path) -> list[tuple[str, int, int, int]]:
    """Every file and folder under ROOT: (path, size, mtime in ns, mode)."""
    rows = []
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            st = os.lstat(os.path.join(folder, name))
            rows.append((os.path.relpath(os.path.join(folder, name), root), st.st_size, st.st_mtime_ns, st.st_mode))
    return sorted(rows)


def _blobless(repo: Repo, tmp_path: Path, *extra: str) -> Path:
    repo.git("config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "partial"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", *extra, f"file://{repo.path}", str(clone)], check=True)
    return clone


def test_a_missing_blob_leaves_one_commit_unchecked(repo: Repo, tmp_path: Path) -> None:
    shas = _steps(repo)
    _with_backup_remote(repo, tmp_path)
    blob = repo.git("rev-parse", f"{shas[1]}:src/mod1.py")
    _delete_loose(repo, blob)
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode == 2, proc.stderr
    data = json.loads(proc.stdout)
    assert data["checked"] == 4 and data["incomplete"] is True and data["unchecked_count"] == 1
    assert data["unchecked"] == [{"commit": shas[1], "subject": "feat: step 1 (#301)", "reason": "objects missing",
                                  "missing": [blob], "fix": f"fetch it with git fetch origin {blob}"}]
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1 and "incomplete audit" in proc.stderr
    assert "each `unchecked` entry of the JSON holds its fix" in proc.stderr  # nothing is listed above JSON
    text = run_leverguard("audit", cwd=repo.path)
    assert text.returncode == 2 and "fix listed above" in text.stderr
    assert f"  {shas[1][:7]} feat: step 1 (#301): objects missing; fetch it with git fetch origin {blob}" in text.stdout
    assert "checked 4 commits on main (1 not checked: objects missing): no commit landed" in text.stdout
    markdown = run_leverguard("audit", "--format", "markdown", cwd=repo.path).stdout
    assert "#### Not checked (1)" in markdown and "checked 4 commits, 1 not checked (objects missing)" in markdown
    repo.git(*_fix_args(data["unchecked"][0]["fix"]))  # the fix named is one that works
    done = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert done.returncode == 0 and json.loads(done.stdout)["checked"] == 5 and done.stderr == ""


def test_an_older_commit_lacking_objects_is_named_as_what_makes_an_audit_incomplete(repo: Repo) -> None:
    # OpenTripPlanner's mirror: every audited commit checked, one it compared with unreadable
    shas = _steps(repo)
    _delete_loose(repo, repo.git("rev-parse", f"{shas[0]}:src/mod0.py"))
    proc = run_leverguard("audit", "--max-count", "2", "--format", "json", cwd=repo.path)
    assert proc.returncode == 2 and json.loads(proc.stdout)["unchecked"] == []
    assert proc.stderr == ("leverguard: error: incomplete audit: 1 older commit, compared with but not audited, lacks "
                           "objects too: only whole-file evidence (object ids) covers it\n")


def test_an_incomplete_audit_exits_2_and_reports_its_findings(repo: Repo) -> None:
    shas = build_history(repo)
    readme = repo.git("rev-parse", "main:README.md")  # only #229 holds it
    _delete_loose(repo, readme)
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    assert proc.returncode == 2, proc.stderr  # incomplete outranks findings, as grep's error does its matches
    data = json.loads(proc.stdout)
    assert {r["commit"] for r in data["results"]} == {shas["224"], shas["226"]}
    assert [u["commit"] for u in data["unchecked"]] == [repo.head()] and data["checked"] == 7
    assert "fetch it from another clone" in data["unchecked"][0]["fix"]  # no remote to name
    assert "leverguard: error: incomplete audit: 1 commit not checked" in proc.stderr
    assert "; 2 landed changes with a silent revert that fails the check found in what was checked" in proc.stderr
    text = run_leverguard("audit", cwd=repo.path).stdout
    assert f"== {shas['224'][:7]} kernel: restructure (#224)" in text
    assert f"  {repo.head()[:7]} docs: readme (#229): objects missing; fetch it" in text
    assert "checked 7 commits on main (1 not checked: objects missing): 2 landed silent reverts" in text


def test_a_missing_tree_or_commit(repo: Repo) -> None:
    shas = _steps(repo)
    tree = repo.git("rev-parse", f"{shas[1]}^{{tree}}")
    _delete_loose(repo, tree)
    data = json.loads(run_leverguard("audit", "--format", "json", cwd=repo.path).stdout)
    # both commits whose change needs that tree are left out; the audit goes on to the root
    assert [(u["commit"], u["reason"]) for u in data["unchecked"]] == \
        [(shas[2], "a tree it needs is missing"), (shas[1], "a tree it needs is missing")]
    assert data["checked"] == 3 and data["unchecked"][0]["missing"] == [tree]
    _delete_loose(repo, shas[0])
    proc = run_leverguard("audit", "--format", "json", cwd=repo.path)
    data = json.loads(proc.stdout)
    assert proc.returncode == 2 and data["unchecked"][-1]["commit"] == shas[0]
    assert data["unchecked"][-1]["reason"] == "commit missing: the history ends here"


def test_a_blobless_clone_is_audited_offline(repo: Repo, tmp_path: Path) -> None:
    shas = build_history(repo)
    clone = _blobless(repo, tmp_path)
    objects = _snapshot(clone / ".git" / "objects")
    proc = run_leverguard("audit", "--format", "json", cwd=clone)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert _snapshot(clone / ".git" / "objects") == objects  # nothing was fetched
    data = json.loads(proc.stdout)
    assert data["unchecked_count"] >= 5 and data["checked"] + data["unchecked_count"] == 8
    assert all(u["reason"] == "objects missing (partial clone)" and u["fix"].startswith("fetch ")
               for u in data["unchecked"])
    fix = "git fetch --refetch --filter=blob:limit=1g origin"
    assert any(fix in note for note in data["notes"])
    text = run_leverguard("audit", cwd=clone)
    assert text.returncode == 2 and "not checked (" in text.stdout and "Traceback" not in text.stderr
    Repo(clone).git(*fix.split()[1:])  # the whole-history fetch the note names: then a complete audit
    done = run_leverguard("audit", "--format", "json", cwd=clone)
    assert done.returncode == 1 and json.loads(done.stdout)["unchecked"] == []
    assert {r["commit"] for r in json.loads(done.stdout)["results"]} == {shas["224"], shas["226"]}


def test_check_revert_in_a_blobless_clone_names_the_fetch(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    clone = _blobless(repo, tmp_path)
    packs = _snapshot(clone / ".git" / "objects" / "pack")  # a fetch from the promisor remote adds a pack
    proc = run_leverguard("check-revert", "origin/main..origin/carol", cwd=clone)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stdout + proc.stderr
    assert "missing from the repository: fetch it with git fetch origin " in proc.stderr
    assert _snapshot(clone / ".git" / "objects" / "pack") == packs  # never fetched behind the user's back
    for _ in range(40):  # each named fetch brings one more object: the check then runs through
        if proc.returncode != 2:
            break
        Repo(clone).git(*_fix_args(proc.stderr.strip()))
        proc = run_leverguard("check-revert", "origin/main..origin/carol", cwd=clone)
    assert proc.returncode == 1 and "#221" in proc.stdout


def test_a_configuration_blob_missing_is_no_default_configuration(repo: Repo, tmp_path: Path) -> None:
    seed(repo)
    land(repo, "chore: config", {".leverguard.toml": "[revert]\nwindow = 20\n"})
    land(repo, "feat: more (#301)", {"a.py": body("a", 3)})
    clone = _blobless(repo, tmp_path, "--bare")
    # main~1 is in main: nothing lands, so only the configuration is read (it was: the defaults, exit 0)
    proc = run_leverguard("check-revert", "--repo", str(clone), "main..main~1", cwd=tmp_path)
    config = repo.git("rev-parse", "main:.leverguard.toml")
    assert proc.returncode == 2 and f"object {config} is missing" in proc.stderr and ":.leverguard.toml" in proc.stderr


def test_a_mirror_is_left_byte_identical(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)  # main..carol does not fast-forward: merge-tree writes trees
    mirror = tmp_path / "mirror.git"
    repo.git("clone", "-q", "--mirror", str(repo.path), str(mirror))
    before = _snapshot(mirror)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    check = run_leverguard("check-revert", "--repo", str(mirror), "main..carol", cwd=tmp_path, env={"TMPDIR": str(scratch)})
    assert check.returncode == 1 and "#221" in check.stdout, check.stderr
    assert list(scratch.iterdir()) == []  # merge-tree's scratch objects are gone with the check
    audit = run_leverguard("audit", "--repo", str(mirror), "--format", "json", "carol", cwd=tmp_path)
    assert audit.returncode == 1 and json.loads(audit.stdout)["unchecked"] == []
    assert _snapshot(mirror) == before


def test_the_config_cache_is_written_only_into_the_users_own_repository(repo: Repo, tmp_path: Path) -> None:
    build_224(repo)
    other = tmp_path / "other"
    repo.git("clone", "-q", str(repo.path), str(other))
    Repo(other).git("branch", "-q", "carol", "origin/carol")
    before = _snapshot(other / ".git")
    proc = run_leverguard("check-revert", "--repo", str(other), "main..carol", cwd=repo.path)
    assert proc.returncode == 1 and _snapshot(other / ".git") == before
    proc = run_leverguard("check-revert", "main..carol", cwd=other)  # its own repository: the cache may go in
    assert proc.returncode == 1 and (other / ".git" / "leverguard" / "revert-config").is_file()


def _as_reader(home: Path) -> tuple[list[str], dict[str, str]]:
    """How to run leverguard as someone who may only read: root writes anywhere, so root runs it as
    `nobody` (git's ownership check waived for that user alone, as a shared mirror's readers do)."""
    if os.geteuid() != 0:
        return [], {}
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv (util-linux): cannot drop to a reading user")
    home.mkdir(mode=0o777)
    return (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
            {"HOME": str(home), "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory",
             "GIT_CONFIG_VALUE_0": "*"})


def test_a_read_only_repository(repo: Repo) -> None:
    build_224(repo)
    outside = Path(tempfile.mkdtemp(prefix="lg-readonly-"))  # pytest's own folders are root's alone
    try:
        os.chmod(outside, 0o755)
        shared = outside / "repo"
        shutil.copytree(repo.path, shared, symlinks=True)
        subprocess.run(["chmod", "-R", "a-w,a+rX", str(shared)], check=True)
        prefix, env = _as_reader(outside / "home")

        def leverguard(*args: str, cwd: Path) -> int:
            proc = subprocess.run([*prefix, sys.executable, "-m", "leverguard", *args], cwd=cwd,
                                  capture_output=True, text=True, env={**os.environ, **env})
            assert proc.returncode in (0, 1), proc.stderr
            return proc.returncode

        before = _snapshot(shared / ".git")
        assert leverguard("check-revert", "main..carol", cwd=shared) == 1
        assert leverguard("check-revert", "--repo", str(shared), "main..carol", cwd=outside) == 1
        assert leverguard("audit", "--repo", str(shared), "carol", cwd=outside) == 1
        assert _snapshot(shared / ".git") == before
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(outside)], check=True)
        shutil.rmtree(outside)


def test_the_patch_stream_survives_odd_paths_and_contents(repo: Repo) -> None:
    """Each commit's patch ends at a marker line diff-tree echoes: no path or line may end it early."""
    seed(repo)
    odd = "src/odd\nname ~leverguard-0123.py"
    original = body("odd", 4)
    repo.write(odd, original)
    repo.write("data.bin", b"~leverguard-00\n\0\x1e\n" * 20)
    repo.commit("add the odd files")
    sha = land(repo, "feat: odd work (#301)", {odd: original + body("work", 5),
                                                "data.bin": b"~leverguard-11\n\0\x1e\n" * 21})
    stale = land(repo, "refactor: tidy", {odd: original, "kernel.c": "int k;\n"}, author=CAROL)
    data = json.loads(run_leverguard("audit", "--format", "json", cwd=repo.path).stdout)
    assert data["checked"] == 4 and data["unchecked"] == []
    assert [(r["commit"], r["findings"][0]["commit"]) for r in data["results"]] == [(stale, sha)]
