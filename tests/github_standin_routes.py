"""The stand-in's endpoints: exactly the REST calls leverguard's bot makes through PyGithub."""

from __future__ import annotations

import time
from typing import Any, Callable

from flask import request

import github_standin as gs

R = r"/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)"


def install(s: gs.Standin, route: Callable[..., Any], jwt_ok: Callable[..., None], token: Callable[..., None],
            page: Callable[..., Any], now: Callable[[], str], Denied: type[gs.Denied]) -> None:
    def repo_of(owner: str, name: str, write: bool = False) -> gs.RepoState:
        repo = next(gs.iter_repo(s, owner, name))
        token(s, repo, write)
        return repo

    def user(login: str) -> dict[str, Any]:
        return {"login": login, "id": abs(hash(login)) % 10**6, "type": "Bot" if login.endswith("[bot]") else "User"}

    def pull_json(repo: gs.RepoState, p: dict[str, Any]) -> dict[str, Any]:
        base = f"{s.url}/repos/{repo.full_name}"
        head_repo = {"full_name": p["head_repo"], "clone_url": f"file://{repo.git_dir}", "fork": p["head_repo"] != repo.full_name}
        return {"number": p["number"], "title": p["title"], "body": p["body"], "state": p["state"],
                "url": f"{base}/pulls/{p['number']}", "html_url": f"{s.root}/{repo.full_name}/pull/{p['number']}",
                "issue_url": f"{base}/issues/{p['number']}", "labels": [{"name": n} for n in p["labels"]],
                "head": {"sha": p["head_sha"], "ref": f"topic-{p['number']}", "repo": head_repo},
                "base": {"sha": _rev(s, repo, p["base_ref"]), "ref": p["base_ref"],
                         "repo": {"full_name": repo.full_name, "clone_url": f"file://{repo.git_dir}"}},
                "commits": len(p["commits"]), "user": user("author")}

    def comment_json(repo: gs.RepoState, c: dict[str, Any]) -> dict[str, Any]:
        return {"id": c["id"], "body": c["body"], "user": user(c["login"]), "created_at": c["created"],
                "updated_at": c["updated"], "url": f"{s.url}/repos/{repo.full_name}/issues/comments/{c['id']}",
                "html_url": f"{s.root}/{repo.full_name}/pull/{c['issue']}#issuecomment-{c['id']}"}

    def run_json(repo: gs.RepoState, r: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in r.items() if k != "annotations"},
                "url": f"{s.url}/repos/{repo.full_name}/check-runs/{r['id']}",
                "output": {**r["output"], "annotations_count": len(r["annotations"])},
                "app": {"id": r["app_id"], "slug": s.slug}}

    def login_of_token() -> str:
        grant = s.tokens[request.headers["Authorization"].partition(" ")[2]]
        return f"{s.slug}[bot]" if grant["installation"] is not None else "github-actions[bot]"

    @route("GET", "/app")
    def get_app() -> Any:
        jwt_ok(s)
        return {"id": s.app_id, "slug": s.slug, "name": s.slug}

    @route("GET", R + "/installation")
    def repo_installation(owner: str, name: str) -> Any:
        jwt_ok(s)
        repo = next(gs.iter_repo(s, owner, name))
        return {"id": repo.installation_id, "app_id": s.app_id, "account": user(owner)}

    @route("POST", r"/app/installations/(?P<iid>\d+)/access_tokens")
    def access_token(iid: str) -> Any:
        jwt_ok(s)
        if int(iid) not in {r.installation_id for r in s.repos.values()}:
            raise Denied(404, "Not Found")
        expires = time.strftime(gs.ISO, time.gmtime(time.time() + 3600))
        return {"token": gs.installation_token(s, int(iid)), "expires_at": expires, "permissions": {}}, 201

    @route("GET", R)
    def get_repo(owner: str, name: str) -> Any:
        repo = repo_of(owner, name)
        return {"full_name": repo.full_name, "name": name, "owner": user(owner), "url": f"{s.url}/repos/{repo.full_name}",
                "clone_url": f"file://{repo.git_dir}", "default_branch": "main"}

    @route("GET", R + r"/pulls/(?P<n>\d+)")
    def get_pull(owner: str, name: str, n: str) -> Any:
        repo = repo_of(owner, name)
        if int(n) not in repo.pulls:
            raise Denied(404, "Not Found")
        return pull_json(repo, repo.pulls[int(n)])

    @route("GET", R + r"/pulls/(?P<n>\d+)/commits")
    def pull_commits(owner: str, name: str, n: str) -> Any:
        repo = repo_of(owner, name)
        return page(s, [{"sha": sha, "url": f"{s.url}/repos/{repo.full_name}/commits/{sha}"}
                        for sha in repo.pulls[int(n)]["commits"]][:250])  # GitHub stops at 250

    @route("GET", R + r"/issues/(?P<n>\d+)/labels")
    def labels(owner: str, name: str, n: str) -> Any:
        repo = repo_of(owner, name)
        return page(s, [{"name": label} for label in repo.pulls[int(n)]["labels"]])

    @route("GET", R + r"/issues/(?P<n>\d+)/comments")
    def list_comments(owner: str, name: str, n: str) -> Any:
        repo = repo_of(owner, name)
        return page(s, [comment_json(repo, c) for c in sorted(repo.comments.values(), key=lambda c: c["id"])
                        if c["issue"] == int(n)])

    @route("POST", R + r"/issues/(?P<n>\d+)/comments")
    def create_comment(owner: str, name: str, n: str) -> Any:
        repo = repo_of(owner, name, write=True)
        cid = s.next_id()
        repo.comments[cid] = {"id": cid, "issue": int(n), "body": request.get_json()["body"],
                              "login": login_of_token(), "created": now(), "updated": now()}
        return comment_json(repo, repo.comments[cid]), 201

    @route("PATCH", R + r"/issues/comments/(?P<cid>\d+)")
    def edit_comment(owner: str, name: str, cid: str) -> Any:
        repo = repo_of(owner, name, write=True)
        comment = repo.comments.get(int(cid)) or _missing(Denied)
        if comment["login"] != login_of_token():
            raise Denied(403, "Resource not accessible by integration")
        comment.update(body=request.get_json()["body"], updated=now())
        return comment_json(repo, comment)

    @route("DELETE", R + r"/issues/comments/(?P<cid>\d+)")
    def delete_comment(owner: str, name: str, cid: str) -> Any:
        repo = repo_of(owner, name, write=True)
        if repo.comments.pop(int(cid), None) is None:
            raise Denied(404, "Not Found")
        return None, 204

    @route("POST", R + r"/check-runs")
    def create_run(owner: str, name: str) -> Any:
        repo = repo_of(owner, name, write=True)
        data, rid = request.get_json(), s.next_id()
        repo.check_runs[rid] = {"id": rid, "name": data["name"], "head_sha": data["head_sha"], "app_id": s.app_id,
                                "status": data.get("status", "queued"), "conclusion": data.get("conclusion"),
                                "output": {}, "annotations": []}
        _apply_output(repo.check_runs[rid], data.get("output"), Denied)
        return run_json(repo, repo.check_runs[rid]), 201

    @route("PATCH", R + r"/check-runs/(?P<rid>\d+)")
    def update_run(owner: str, name: str, rid: str) -> Any:
        repo = repo_of(owner, name, write=True)
        run, data = repo.check_runs.get(int(rid)) or _missing(Denied), request.get_json()
        run.update({k: data[k] for k in ("status", "conclusion") if k in data})
        _apply_output(run, data.get("output"), Denied)
        return run_json(repo, run)

    @route("GET", R + r"/commits/(?P<sha>[0-9a-f]{40})/check-runs")
    def runs_for_commit(owner: str, name: str, sha: str) -> Any:
        repo = repo_of(owner, name)
        wanted = request.args.get("check_name")
        return page(s, [run_json(repo, r) for r in repo.check_runs.values()
                        if r["head_sha"] == sha and wanted in (None, r["name"])], wrap="check_runs")

    @route("GET", R + r"/contents/(?P<path>.+)")
    def contents(owner: str, name: str, path: str) -> Any:
        repo = repo_of(owner, name)
        data = s.git_show(repo.full_name, request.args.get("ref", "HEAD"), path)
        if data is None:
            raise Denied(404, "Not Found")
        return {"type": "file", "encoding": "base64", "content": gs.b64(data), "path": path,
                "name": path.rsplit("/", 1)[-1], "size": len(data), "sha": "0" * 40}


def _apply_output(run: dict[str, Any], output: dict[str, Any] | None, Denied: type[gs.Denied]) -> None:
    """GitHub's limits: a 65,535-character summary and 50 annotations per request, appended."""
    if not output:
        return
    if len(output.get("summary", "")) > 65535:
        raise Denied(422, "Invalid request: summary is too long (maximum is 65535 characters)")
    annotations = output.get("annotations", [])
    if len(annotations) > 50:
        raise Denied(422, "Invalid request: only 50 annotations are allowed per request")
    run["annotations"].extend(annotations)
    run["output"] = {k: v for k, v in output.items() if k != "annotations"}


def _rev(s: gs.Standin, repo: gs.RepoState, ref: str) -> str:
    import subprocess

    return subprocess.run(["git", "rev-parse", ref], cwd=repo.git_dir, capture_output=True, text=True).stdout.strip()


def _missing(Denied: type[gs.Denied]) -> Any:
    raise Denied(404, "Not Found")
