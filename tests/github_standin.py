"""A stateful stand-in for the GitHub REST API on 127.0.0.1: real HTTP, the endpoints PyGithub calls."""

from __future__ import annotations

import base64
import re
import secrets
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import jwt
from flask import Flask, Response, jsonify, request
from werkzeug.serving import make_server

PREFIX = "/api/v3"  # served like GitHub Enterprise, so LEVERGUARD_GITHUB_API_URL is exercised
ISO = "%Y-%m-%dT%H:%M:%SZ"


@dataclass
class Logged:
    """One request as the stand-in saw it."""

    at: float
    method: str
    path: str
    status: int
    auth: str


@dataclass
class Fault:
    """A canned failure for the next request matching METHOD and a path regex."""

    method: str
    pattern: str
    status: int = 502
    after: bool = False  # perform the request first, then answer the failure (a lost response)
    retry_after: int | None = None
    delay: float = 0.0


@dataclass
class RepoState:
    full_name: str
    installation_id: int
    git_dir: str
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    check_runs: dict[int, dict[str, Any]] = field(default_factory=dict)


class Standin:
    """GitHub for one test: repositories, pulls, comments, check runs, tokens and a request log."""

    def __init__(self, app_id: int, public_key_pem: bytes, app_slug: str = "leverguard-test") -> None:
        self.app_id, self.public_key, self.slug = app_id, public_key_pem, app_slug
        self.repos: dict[str, RepoState] = {}
        self.tokens: dict[str, dict[str, Any]] = {}  # token -> {"installation": id | None, "write": bool}
        self.faults: list[Fault] = []
        self.log: list[Logged] = []
        self.lock = threading.RLock()
        self._ids = iter(range(1000, 10**9))
        self._server: Any = None
        self.flask = _build(self)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Standin:
        self._server = make_server("127.0.0.1", 0, self.flask, threaded=True)
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    @property
    def url(self) -> str:
        return self.root + PREFIX

    # ------------------------------------------------------------------ state set-up
    def add_repo(self, full_name: str, git_dir: str, installation_id: int = 42) -> RepoState:
        self.repos[full_name] = RepoState(full_name, installation_id, git_dir)
        return self.repos[full_name]

    def add_pull(self, full_name: str, number: int, *, base_ref: str, head_sha: str, title: str = "A change",
                 body: str = "", labels: tuple[str, ...] = (), head_repo: str | None = None,
                 commits: list[str] | None = None) -> dict[str, Any]:
        pull = {"number": number, "title": title, "body": body, "state": "open", "labels": list(labels),
                "base_ref": base_ref, "head_sha": head_sha, "head_repo": head_repo or full_name,
                "commits": commits or [head_sha]}
        self.repos[full_name].pulls[number] = pull
        return pull

    def add_token(self, token: str, *, write: bool) -> None:
        self.tokens[token] = {"installation": None, "write": write}

    def inject(self, fault: Fault) -> None:
        with self.lock:
            self.faults.append(fault)

    def comments(self, full_name: str, number: int) -> list[dict[str, Any]]:
        return [c for c in self.repos[full_name].comments.values() if c["issue"] == number]

    def runs(self, full_name: str, sha: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.repos[full_name].check_runs.values() if sha in (None, r["head_sha"])]

    def requests(self, method: str, pattern: str) -> list[Logged]:
        return [e for e in self.log if e.method == method and re.search(pattern, e.path)]

    def next_id(self) -> int:
        with self.lock:
            return next(self._ids)

    def take_fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and re.search(fault.pattern, path):
                    self.faults.remove(fault)
                    return fault
        return None

    def git_show(self, full_name: str, ref: str, path: str) -> bytes | None:
        proc = subprocess.run(["git", "cat-file", "blob", f"{ref}:{path}"], cwd=self.repos[full_name].git_dir,
                              capture_output=True)
        return proc.stdout if proc.returncode == 0 else None


# ---------------------------------------------------------------------- HTTP layer


class Denied(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def _build(s: Standin) -> Flask:
    from github_standin_routes import routes

    app = Flask("github-standin")
    table = routes(s)

    @app.route(PREFIX + "/<path:rest>", methods=["GET", "POST", "PATCH", "DELETE"])
    def dispatch(rest: str) -> Response:
        path, method = "/" + rest, request.method
        fault = s.take_fault(method, path)
        if fault and fault.delay:
            time.sleep(fault.delay)
        if fault and not fault.after and fault.status:
            return _record(s, method, path, _fault_response(fault))
        response = _handle(table, method, path)
        if fault and fault.after and fault.status:
            response = _fault_response(fault)
        return _record(s, method, path, response)

    return app


def _fault_response(fault: Fault) -> Response:
    response = jsonify({"message": "injected fault", "documentation_url": "https://docs.github.com/rest"})
    response.status_code = fault.status
    if fault.retry_after is not None:
        response.headers["Retry-After"] = str(fault.retry_after)
    return response


def _record(s: Standin, method: str, path: str, response: Response) -> Response:
    with s.lock:
        s.log.append(Logged(time.monotonic(), method, path, response.status_code,
                            request.headers.get("Authorization", "").split(" ")[0]))
    return response


def _handle(table: list[Any], method: str, path: str) -> Response:
    for verb, pattern, fn in table:
        match = pattern.match(path)
        if verb == method and match:
            try:
                result = fn(**match.groupdict())
            except Denied as exc:
                result = ({"message": exc.message}, exc.status)
            if isinstance(result, Response):
                return result
            body, status = result if isinstance(result, tuple) else (result, 200)
            response = jsonify(body) if body is not None else Response(status=status)
            response.status_code = status
            return response
    response = jsonify({"message": "Not Found"})
    response.status_code = 404
    return response


def jwt_ok(s: Standin) -> None:
    """The App's JWT: RS256, signed by the App key, issued by the App id."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer":
        raise Denied(401, "A JSON web token could not be decoded")
    try:
        claims = jwt.decode(token, s.public_key, algorithms=["RS256"], options={"require": ["iat", "exp", "iss"]})
    except jwt.PyJWTError as exc:
        raise Denied(401, f"'Expiration time' claim or signature is invalid: {exc}") from exc
    if str(claims["iss"]) != str(s.app_id):
        raise Denied(401, "Integration not found")


def token_ok(s: Standin, repo: RepoState, write: bool = False) -> str:
    """A live token for REPO's installation (or a static one); write access when asked; the login it acts as."""
    _, _, token = request.headers.get("Authorization", "").partition(" ")
    grant = s.tokens.get(token)
    if grant is None or grant.get("expires", 1e18) < time.time():
        raise Denied(401, "Bad credentials")
    if grant["installation"] not in (None, repo.installation_id):
        raise Denied(404, "Not Found")
    if write and not grant["write"]:
        raise Denied(403, "Resource not accessible by integration")
    return f"{s.slug}[bot]" if grant["installation"] is not None else "github-actions[bot]"


def now() -> str:
    return time.strftime(ISO, time.gmtime())


def page(s: Standin, items: list[Any], wrap: str | None = None) -> Response:
    """One page of ITEMS with a Link header pointing at absolute URLs on the stand-in's own host."""
    per_page = min(int(request.args.get("per_page", 30)), 100)
    page = int(request.args.get("page", 1))
    chunk = items[(page - 1) * per_page: page * per_page]
    response = jsonify({"total_count": len(items), wrap: chunk} if wrap else chunk)
    last = max(1, -(-len(items) // per_page))
    base = s.url + request.path[len(PREFIX):]
    args = {k: v for k, v in request.args.items() if k not in ("page", "per_page")}
    extra = "".join(f"&{k}={v}" for k, v in args.items())
    links = []
    if page < last:
        links.append(f'<{base}?page={page + 1}&per_page={per_page}{extra}>; rel="next"')
        links.append(f'<{base}?page={last}&per_page={per_page}{extra}>; rel="last"')
    if links:
        response.headers["Link"] = ", ".join(links)
    return response


def installation_token(s: Standin, installation_id: int) -> str:
    token = "ghs_" + secrets.token_hex(16)
    s.tokens[token] = {"installation": installation_id, "write": True, "expires": time.time() + 3600}
    return token


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


