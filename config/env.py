"""Reading settings from the environment, with parsing that fails loudly."""

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false).")


def env_int(name: str, default: int) -> int:
    """A positive whole number (a limit); anything else stops the start with its name."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    value = raw.strip()
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a positive whole number.")
    return int(value)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str, base_dir: Path) -> dict[str, object]:
    """Turn a DATABASE_URL (postgres://… or sqlite:///…) into a Django DATABASES entry."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        path = unquote(parts.path)
        # sqlite:///relative.db → relative to the project; sqlite:////abs/path.db → absolute
        if path.startswith("//"):
            name = path[1:]
        else:
            name = str(base_dir / path.lstrip("/")) if path.strip("/") else ":memory:"
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
    if scheme in {"postgres", "postgresql", "pgsql"}:
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {scheme!r} is not supported; use postgres:// or sqlite:///."
    )
