"""Bot settings: the LEVERGUARD_* environment over an optional TOML settings file, into one frozen value."""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import sys
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import urlsplit

from leverguard.errors import ConfigError, LeverguardError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SETTINGS_ENV = "LEVERGUARD_BOT_SETTINGS"
GITHUB_ACK_SECONDS = 10.0  # GitHub drops a delivery not answered within 10 s


@dataclass(frozen=True)
class Settings:
    """Everything the service needs; the defaults suit one machine talking to github.com."""

    webhook_secret: str = ""
    app_id: str = ""
    private_key_file: str = ""
    private_key: str = ""  # the PEM itself (from $LEVERGUARD_APP_PRIVATE_KEY); wins over the file
    github_api_url: str = "https://api.github.com"
    git_url: str = ""  # where repositories are fetched from; empty: the web host of github_api_url
    db: str = "leverguard-bot.sqlite3"
    database_url: str = ""  # postgresql://...: the PostgreSQL backend instead of the SQLite file (docs/bot-postgres.md)
    cache_dir: str = "leverguard-cache"
    bind: str = "127.0.0.1:8080"
    max_body_bytes: int = 25 * 1024 * 1024  # GitHub caps webhook payloads at 25 MB
    lease_seconds: float = 60.0  # a crashed worker's job is claimed again after at most this long
    max_attempts: int = 5
    backoff_seconds: float = 30.0  # first retry delay, doubled on each further attempt
    poll_seconds: float = 1.0
    request_interval: float = 0.25  # PyGithub's pacing between API requests
    write_interval: float = 1.0  # and between writes (GitHub's secondary rate-limit advice)
    web_workers: int = 2
    web_threads: int = 32  # threads only wait on sockets and SQLite; 64 cost little memory
    read_timeout: float = 5.0  # seconds a client has to send its whole request (headers and body)
    ack_timeout: float = 5.0  # seconds the webhook waits on the inbox before answering 503


# environment variable -> field; the environment wins over the settings file.
ENVIRONMENT = {
    "LEVERGUARD_WEBHOOK_SECRET": "webhook_secret",
    "LEVERGUARD_APP_ID": "app_id",
    "LEVERGUARD_PRIVATE_KEY_FILE": "private_key_file",
    "LEVERGUARD_APP_PRIVATE_KEY": "private_key",
    "LEVERGUARD_GITHUB_API_URL": "github_api_url",
    "LEVERGUARD_GIT_URL": "git_url",
    "LEVERGUARD_DB": "db",
    "LEVERGUARD_DATABASE_URL": "database_url",
    "LEVERGUARD_CACHE_DIR": "cache_dir",
    "LEVERGUARD_BIND": "bind",
}
SECRETS = frozenset({"webhook_secret", "private_key"})  # never read from a file another user may see

_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}
# field -> (lowest, highest, why): every number is bounded so no value disables the service.
BOUNDS: dict[str, tuple[float, float, str]] = {
    "max_body_bytes": (1024, 100 * 1024 * 1024, "GitHub sends up to 25 MB (26214400)"),
    "lease_seconds": (0.1, 60.0, "a crashed job must run again within 60 s"),
    "max_attempts": (1, 100, ""),
    "backoff_seconds": (0.0, 3600.0, ""),
    "poll_seconds": (0.01, 60.0, "an idle worker sleeps this long between polls"),
    "request_interval": (0.0, 60.0, ""),
    "write_interval": (0.0, 60.0, ""),
    "web_workers": (1, 64, ""),
    "web_threads": (1, 1024, ""),
    "read_timeout": (0.5, 60.0, "slow clients are cut off after it"),
    "ack_timeout": (0.5, GITHUB_ACK_SECONDS - 2, "GitHub waits 10 s for the answer"),
}
BIND = re.compile(r"^(unix:/.+|\[[0-9A-Fa-f:.]+\]:\d{1,5}|[A-Za-z0-9.-]+:\d{1,5})$")


def load(environ: Mapping[str, str], path: str | None = None) -> Settings:
    """Defaults, then the settings file (PATH or $LEVERGUARD_BOT_SETTINGS), then the environment."""
    values: dict[str, Any] = {}
    path = path or environ.get(SETTINGS_ENV) or None
    if path:
        values.update(_read_file(path))
    for variable, name in ENVIRONMENT.items():
        if environ.get(variable):
            values[name] = environ[variable]
    settings = Settings(**values)
    validate(settings, path or "the bot settings")
    return settings


def validate(settings: Settings, where: str) -> None:
    """One clear line for the first value that would break the service (issue #11)."""
    for name, (low, high, why) in BOUNDS.items():
        value = getattr(settings, name)
        if not low <= value <= high:
            reason = f" ({why})" if why else ""
            raise ConfigError(f"{where}: bot setting '{name}' must be at least {low:g} and at most {high:g}{reason}, "
                              f"got {value:g}")
    if not BIND.fullmatch(settings.bind):
        raise ConfigError(f"{where}: bot setting 'bind' must be HOST:PORT or unix:/PATH, got {settings.bind!r}")
    for name, value in (("github_api_url", settings.github_api_url), ("git_url", settings.git_url)):
        if value:
            _check_url(where, name, value, allow_file=name == "git_url")


def _check_url(where: str, name: str, url: str, *, allow_file: bool) -> None:
    """https only: the token travels there. Plain http only to this machine (a local proxy, tests)."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and is_loopback(parts.hostname or ""):
        return
    if allow_file and parts.scheme == "file" and parts.path.startswith("/"):
        return  # a local mirror the operator set up; no token is ever sent to it
    extra = " or file:///PATH (a local mirror)" if allow_file else ""
    raise ConfigError(f"{where}: bot setting '{name}' must be an https:// URL{extra}, got {url!r}")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def git_url(settings: Settings) -> str:
    """Where repositories are fetched: the configured git host, or the API's web host.

    api.github.com serves github.com; GitHub Enterprise serves its API at HOST/api/v3.
    """
    if settings.git_url:
        return settings.git_url.rstrip("/")
    parts = urlsplit(settings.github_api_url)
    host = parts.netloc.removeprefix("api.") if parts.netloc == "api.github.com" else parts.netloc
    path = parts.path.rstrip("/").removesuffix("/api/v3")
    return f"{parts.scheme}://{host}{path}"


def _read_file(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            document = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the bot settings file ({exc.strerror}): check the path") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML ({exc}): fix the file") from exc
    table = document.get("bot", document)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: 'bot' must be a table ([bot]), got {type(table).__name__} {table!r}")
    values = {}
    for name, value in table.items():
        if name not in _FIELDS:
            raise ConfigError(f"{path}: unknown bot setting '{name}': known settings are {', '.join(_FIELDS)}")
        default = _FIELDS[name].default
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not type(default):
            raise ConfigError(f"{path}: bot setting '{name}' must be {type(default).__name__}, got {value!r}")
        values[name] = value
    return values


def require_secret(settings: Settings) -> None:
    """The service never accepts unsigned deliveries (python/bedevere's flaw): no secret, no start."""
    if not settings.webhook_secret:
        raise LeverguardError("no webhook secret: set LEVERGUARD_WEBHOOK_SECRET (or webhook_secret in the "
                              "settings file) to the secret configured on the GitHub App; leverguard refuses "
                              "to accept unsigned deliveries")


def require_app(settings: Settings) -> None:
    """The worker talks to GitHub as the App: it needs the App id and its private key."""
    if not settings.app_id or not (settings.private_key_file or settings.private_key):
        raise LeverguardError("the worker needs the GitHub App's credentials: set LEVERGUARD_APP_ID and "
                              "LEVERGUARD_APP_PRIVATE_KEY (the PEM) or LEVERGUARD_PRIVATE_KEY_FILE (its path)")
    if not settings.app_id.isdigit():
        raise LeverguardError(f"LEVERGUARD_APP_ID {settings.app_id!r} is not a number: use the App ID shown on "
                              "the App's settings page")


def key_source(settings: Settings) -> str:
    """How error messages name the key: never its content."""
    return "LEVERGUARD_APP_PRIVATE_KEY" if settings.private_key else settings.private_key_file


def private_key(settings: Settings) -> str:
    if settings.private_key:
        return settings.private_key.replace("\\n", "\n")  # a one-line variable may carry the PEM's newlines as \n
    try:
        with open(settings.private_key_file, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise LeverguardError(f"{settings.private_key_file}: cannot read the App's private key "
                              f"({exc.strerror}): download it from the App's settings page") from exc
