"""The stand-in's endpoints: exactly the REST calls leverguard's bot makes through PyGithub."""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any, Callable

import github_standin as gs
from flask import request

R = r"/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)"
N = r"(?P<n>\d+)"

# (method, path pattern, handler name): the table the dispatcher walks.
ROUTES = (
    ("GET", r"/app", "get_app"),
    ("GET", R + r"/installation", "repo_installation"),
    ("POST", r"/app/installations/(?P<iid>\d+)/access_tokens", "access_token"),
    ("GET", R, "get_repo"),
    ("GET", R + rf"/pulls/{N}", "get_pull"),
    ("GET", R + rf"/pulls/{N}/commits", "pull_commits"),
    ("GET", R + rf"/issues/{N}/labels", "labels"),
    ("GET", R + rf"/issues/{N}/comments", "list_comments"),
    ("POST", R + rf"/issues/{N}/comments", "create_comment"),
    ("PATCH", R + r"/issues/comments/(?P<cid>\d+)", "edit_comment"),
    ("DELETE", R + r"/issues/comments/(?P<cid>\d+)", "delete_comment"),
    ("POST", R + r"/check-runs", "create_run"),
    ("PATCH", R + r"/check-runs/(?P<rid>\d+)", "update_run"),
    ("GET", R + r"/commits/(?P<sha>[0-9a-f]{40})/check-runs", "runs_for_commit"),
    ("GET", R + r"/contents/(?P<path>.+)", "contents"),
)


def routes(s: gs.Standin) -> list[tuple[str, re.Pattern[str], Callable[..., Any]]]:
    api = Api(s)
    return [(method, re.compile(pattern + "$"), getattr(api, name)) for method, pattern, name in ROUTES]


def _user(login: str) -> dict[str, Any]:
    return {"login": login, "id": sum(map(ord, login)), "type": "Bot" if login.endswith("[bot]") else "User"}


class Api:
    """Handlers: each returns a JSON body, (body, status), or a paged Response."""

    def __init__(self, s: gs.Standin) -> None:
        self.s = s

    def _repo(self, owner: str, name: str, write: bool = False) -> tuple[gs.RepoState, str]:
        repo = self.s.repos.get(f"{owner}/{name}")
        if repo is None:
            raise gs.Denied(404, "Not Found")
        return repo, gs.token_ok(self.s, repo, write)

    def _base(self, repo: gs.RepoState) -> str:
        return f"{self.s.url}/repos/{repo.full_name}"

    # ------------------------------------------------------------------ the App
    def get_app(self) -> Any:
        gs.jwt_ok(self.s)
        return {"id": self.s.app_id, "slug": self.s.slug, "name": self.s.slug}

    def repo_installation(self, owner: str, name: str) -> Any:
        gs.jwt_ok(self.s)
        repo = self.s.repos.get(f"{owner}/{name}") or _missing()
        return {"id": repo.installation_id, "app_id": self.s.app_id, "account": _user(owner)}

    def access_token(self, iid: str) -> Any:
        gs.jwt_ok(self.s)
        if int(iid) not in {r.installation_id for r in self.s.repos.values()}:
            raise gs.Denied(404, "Not Found")
        expires = time.strftime(gs.ISO, time.gmtime(time.time() + 3600))
        return {"token": gs.installation_token(self.s, int(iid)), "expires_at": expires, "permissions": {}}, 201

    # ------------------------------------------------------------------ repositories and pulls
    def get_repo(self, owner: str, name: str) -> Any:
        repo, _ = self._repo(owner, name)
        return {"full_name": repo.full_name, "name": name, "owner": _user(owner), "url": self._base(repo),
                "clone_url": f"file://{repo.git_dir}", "default_branch": "main"}

    def get_pull(self, owner: str, name: str, n: str) -> Any:
        repo, _ = self._repo(owner, name)
        p = repo.pulls.get(int(n)) or _missing()
        head_repo = {"full_name": p["head_repo"], "fork": p["head_repo"] != repo.full_name}
        base_sha = subprocess.run(["git", "rev-parse", p["base_ref"]], cwd=repo.git_dir, capture_output=True,
                                  text=True).stdout.strip()
        return {"number": p["number"], "title": p["title"], "body": p["body"], "state": p["state"],
                "url": f"{self._base(repo)}/pulls/{n}", "issue_url": f"{self._base(repo)}/issues/{n}",
                "html_url": f"{self.s.root}/{repo.full_name}/pull/{n}", "user": _user("author"),
                "labels": [{"name": label} for label in p["labels"]], "commits": len(p["commits"]),
                "head": {"sha": p["head_sha"], "ref": f"topic-{n}", "repo": head_repo},
                "base": {"sha": base_sha, "ref": p["base_ref"], "repo": {"full_name": repo.full_name}}}

    def pull_commits(self, owner: str, name: str, n: str) -> Any:
        repo, _ = self._repo(owner, name)
        commits = (repo.pulls.get(int(n)) or _missing())["commits"][:250]  # GitHub lists at most 250
        return gs.page(self.s, [{"sha": sha, "url": f"{self._base(repo)}/commits/{sha}"} for sha in commits])

    def labels(self, owner: str, name: str, n: str) -> Any:
        repo, _ = self._repo(owner, name)
        return gs.page(self.s, [{"name": label} for label in (repo.pulls.get(int(n)) or _missing())["labels"]])

    def contents(self, owner: str, name: str, path: str) -> Any:
        repo, _ = self._repo(owner, name)
        data = self.s.git_show(repo.full_name, request.args.get("ref", "HEAD"), path)
        if data is None:
            raise gs.Denied(404, "Not Found")
        return {"type": "file", "encoding": "base64", "content": gs.b64(data), "path": path,
                "name": path.rsplit("/", 1)[-1], "size": len(data)}

    # ------------------------------------------------------------------ issue comments
    def _comment(self, repo: gs.RepoState, c: dict[str, Any]) -> dict[str, Any]:
        return {"id": c["id"], "body": c["body"], "user": _user(c["login"]), "created_at": c["created"],
                "updated_at": c["updated"], "url": f"{self._base(repo)}/issues/comments/{c['id']}",
                "html_url": f"{self.s.root}/{repo.full_name}/pull/{c['issue']}#issuecomment-{c['id']}"}

    def list_comments(self, owner: str, name: str, n: str) -> Any:
        repo, _ = self._repo(owner, name)
        ours = sorted((c for c in repo.comments.values() if c["issue"] == int(n)), key=lambda c: c["id"])
        return gs.page(self.s, [self._comment(repo, c) for c in ours])

    def create_comment(self, owner: str, name: str, n: str) -> Any:
        repo, login = self._repo(owner, name, write=True)
        cid = self.s.next_id()
        repo.comments[cid] = {"id": cid, "issue": int(n), "body": request.get_json()["body"], "login": login,
                              "created": gs.now(), "updated": gs.now()}
        return self._comment(repo, repo.comments[cid]), 201

    def edit_comment(self, owner: str, name: str, cid: str) -> Any:
        repo, login = self._repo(owner, name, write=True)
        comment = repo.comments.get(int(cid)) or _missing()
        if comment["login"] != login:
            raise gs.Denied(403, "Resource not accessible by integration")
        comment.update(body=request.get_json()["body"], updated=gs.now())
        return self._comment(repo, comment)

    def delete_comment(self, owner: str, name: str, cid: str) -> Any:
        repo, _ = self._repo(owner, name, write=True)
        repo.comments.pop(int(cid), None) or _missing()
        return None, 204

    # ------------------------------------------------------------------ check runs
    def _run(self, repo: gs.RepoState, r: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in r.items() if k != "annotations"}, "url": f"{self._base(repo)}/check-runs/{r['id']}",
                "output": {**r["output"], "annotations_count": len(r["annotations"])},
                "app": {"id": r["app_id"], "slug": self.s.slug}}

    def create_run(self, owner: str, name: str) -> Any:
        repo, _ = self._repo(owner, name, write=True)
        data, rid = request.get_json(), self.s.next_id()
        repo.check_runs[rid] = {"id": rid, "name": data["name"], "head_sha": data["head_sha"], "output": {},
                                "app_id": self.s.app_id, "status": data.get("status", "queued"),
                                "conclusion": data.get("conclusion"), "annotations": []}
        _apply_output(repo.check_runs[rid], data.get("output"))
        return self._run(repo, repo.check_runs[rid]), 201

    def update_run(self, owner: str, name: str, rid: str) -> Any:
        repo, _ = self._repo(owner, name, write=True)
        run, data = repo.check_runs.get(int(rid)) or _missing(), request.get_json()
        run.update({k: data[k] for k in ("status", "conclusion") if k in data})
        _apply_output(run, data.get("output"))
        return self._run(repo, run)

    def runs_for_commit(self, owner: str, name: str, sha: str) -> Any:
        repo, _ = self._repo(owner, name)
        wanted = request.args.get("check_name")
        found = [self._run(repo, r) for r in repo.check_runs.values() if r["head_sha"] == sha and wanted in (None, r["name"])]
        return gs.page(self.s, found, wrap="check_runs")


def _apply_output(run: dict[str, Any], output: dict[str, Any] | None) -> None:
    """GitHub's limits: a 65,535-character summary and 50 annotations per request, appended."""
    if not output:
        return
    if len(output.get("summary", "")) > 65535:
        raise gs.Denied(422, "Invalid request: summary is too long (maximum is 65535 characters)")
    annotations = output.get("annotations", [])
    if len(annotations) > 50:
        raise gs.Denied(422, "Invalid request: only 50 annotations are allowed per request")
    run["annotations"].extend(annotations)
    run["output"] = {k: v for k, v in output.items() if k != "annotations"}


def _missing() -> Any:
    raise gs.Denied(404, "Not Found")
