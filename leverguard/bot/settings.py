"""Bot settings: the LEVERGUARD_* environment over an optional TOML settings file, into one frozen value."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from typing import Any, Mapping

from leverguard.errors import ConfigError, LeverguardError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SETTINGS_ENV = "LEVERGUARD_BOT_SETTINGS"


@dataclass(frozen=True)
class Settings:
    """Everything the service needs; the defaults suit one machine talking to github.com."""

    webhook_secret: str = ""
    app_id: str = ""
    private_key_file: str = ""
    github_api_url: str = "https://api.github.com"
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
    web_threads: int = 8


# environment variable -> field; the environment wins over the settings file.
ENVIRONMENT = {
    "LEVERGUARD_WEBHOOK_SECRET": "webhook_secret",
    "LEVERGUARD_APP_ID": "app_id",
    "LEVERGUARD_PRIVATE_KEY_FILE": "private_key_file",
    "LEVERGUARD_GITHUB_API_URL": "github_api_url",
    "LEVERGUARD_DB": "db",
    "LEVERGUARD_DATABASE_URL": "database_url",
    "LEVERGUARD_CACHE_DIR": "cache_dir",
    "LEVERGUARD_BIND": "bind",
}

_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}


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
    if not 0 < settings.lease_seconds <= 60:  # the promise: a crashed job runs again within 60 s
        raise ConfigError(f"lease_seconds must be above 0 and at most 60, got {settings.lease_seconds:g}")
    if settings.max_attempts < 1:
        raise ConfigError(f"max_attempts must be at least 1, got {settings.max_attempts}")
    return settings


def _read_file(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            document = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the bot settings file ({exc.strerror}): check the path") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML ({exc}): fix the file") from exc
    table = document.get("bot", document)
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
    if not settings.app_id or not settings.private_key_file:
        raise LeverguardError("the worker needs the GitHub App's credentials: set LEVERGUARD_APP_ID and "
                              "LEVERGUARD_PRIVATE_KEY_FILE (or app_id and private_key_file in the settings file)")
    if not settings.app_id.isdigit():
        raise LeverguardError(f"LEVERGUARD_APP_ID {settings.app_id!r} is not a number: use the App ID shown on "
                              "the App's settings page")


def private_key(settings: Settings) -> str:
    try:
        with open(settings.private_key_file, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise LeverguardError(f"{settings.private_key_file}: cannot read the App's private key "
                              f"({exc.strerror}): download it from the App's settings page") from exc
