"""Settings load in both modes, DEBUG is off unless set, and production settings pass
`check --deploy` with the security settings of docs/security.md."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'],"
    " 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'cache': s.CACHES['default']['BACKEND'],"
    " 'conn_max_age': s.DATABASES['default'].get('CONN_MAX_AGE', 0), 'debug': s.DEBUG,"
    " 'db_options': s.DATABASES['default'].get('OPTIONS', {})}))"
)
SECURITY_PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'debug': s.DEBUG, 'session_age': s.SESSION_COOKIE_AGE,"
    " 'session_secure': s.SESSION_COOKIE_SECURE, 'csrf_secure': s.CSRF_COOKIE_SECURE,"
    " 'language_secure': s.LANGUAGE_COOKIE_SECURE, 'httponly': s.SESSION_COOKIE_HTTPONLY,"
    " 'failure_limit': s.AXES_FAILURE_LIMIT, 'cooloff': s.AXES_COOLOFF_TIME.total_seconds(),"
    " 'token_age': s.API_TOKEN_MAX_AGE, 'otp_staff': s.OTP_REQUIRED_FOR_STAFF,"
    " 'statics': s.STORAGES['staticfiles']['BACKEND']}))"
)
#: A strong key, for starts with DEBUG off.
KEY = "x7#Qm2!vLp9@Rt4$Wz8^Kd3&Hs6*Jf1(Gb5)Nc0_Ye-Ua+Io=Pl"
DEV = {"DEBUG": "1"}


def run_with(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "CONN_MAX_AGE",
            "DB_PREPARED_STATEMENTS",
            "SESSION_IDLE_SECONDS",
            "LOGIN_FAILURE_LIMIT",
            "LOGIN_LOCKOUT_SECONDS",
            "API_TOKEN_MAX_AGE",
            "OTP_REQUIRED_FOR_STAFF",
        }
    }
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def probe(env: dict[str, str], script: str = PROBE) -> dict[str, object]:
    result = run_with(env, "-c", script)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_embedded_defaults_are_sqlite_eager_and_local_cache() -> None:
    loaded = probe(DEV)
    assert loaded == {
        "engine": "django.db.backends.sqlite3",
        "eager": True,
        "cache": "django.core.cache.backends.locmem.LocMemCache",
        "conn_max_age": 0,
        "debug": True,
        "db_options": {"timeout": 20},
    }


def test_scale_mode_uses_postgres_broker_and_redis_cache() -> None:
    loaded = probe(
        {
            "DATABASE_URL": "postgres://tianhei:pw@db.example:5433/tianhei",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
            "REDIS_URL": "redis://127.0.0.1:6379/1",
            **DEV,
        }
    )
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["eager"] is False
    assert loaded["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert loaded["conn_max_age"] == 60
    # Prepared statements: psycopg binds on the server and prepares after five uses.
    assert loaded["db_options"] == {"server_side_binding": True, "prepare_threshold": 5}


def test_prepared_statements_can_be_switched_off_for_a_transaction_pooler() -> None:
    loaded = probe(
        {
            "DATABASE_URL": "postgres://tianhei:pw@db.example:5433/tianhei",
            "DB_PREPARED_STATEMENTS": "0",
            **DEV,
        }
    )
    assert loaded["db_options"] == {}


@pytest.mark.parametrize("env", [{"DEBUG": "0"}, {}], ids=["DEBUG=0", "DEBUG unset"])
def test_debug_off_without_secret_key_refuses_to_start(env: dict[str, str]) -> None:
    result = run_with(env, "-c", PROBE)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    assert "DEBUG=1" in result.stderr  # says how to start for development


def test_debug_is_off_unless_set_and_cookies_are_then_secure() -> None:
    loaded = probe({"SECRET_KEY": KEY}, SECURITY_PROBE)
    assert loaded == {
        "debug": False,
        "session_age": 8 * 60 * 60,  # an idle session ends after 8 hours
        "session_secure": True,
        "csrf_secure": True,
        "language_secure": True,
        "httponly": True,
        "failure_limit": 5,
        "cooloff": 15 * 60.0,
        "token_age": 30 * 24 * 60 * 60,
        "otp_staff": False,
        "statics": "whitenoise.storage.CompressedManifestStaticFilesStorage",
    }


def test_development_cookies_work_over_plain_http() -> None:
    loaded = probe(DEV, SECURITY_PROBE)
    assert loaded["debug"] is True
    assert loaded["session_secure"] is False and loaded["csrf_secure"] is False


def test_security_limits_are_set_by_environment() -> None:
    loaded = probe(
        {
            **DEV,
            "SESSION_IDLE_SECONDS": "900",
            "LOGIN_FAILURE_LIMIT": "3",
            "LOGIN_LOCKOUT_SECONDS": "60",
            "API_TOKEN_MAX_AGE": "3600",
            "OTP_REQUIRED_FOR_STAFF": "1",
        },
        SECURITY_PROBE,
    )
    assert loaded["session_age"] == 900
    assert loaded["failure_limit"] == 3
    assert loaded["cooloff"] == 60.0
    assert loaded["token_age"] == 3600
    assert loaded["otp_staff"] is True


def test_a_bad_security_limit_is_a_clear_error() -> None:
    result = run_with({**DEV, "LOGIN_FAILURE_LIMIT": "five"}, "-c", PROBE)
    assert result.returncode != 0
    assert "LOGIN_FAILURE_LIMIT='five' is not a positive whole number" in result.stderr


def test_unsupported_database_url_is_a_clear_error() -> None:
    result = run_with({"DATABASE_URL": "mysql://x@y/z", **DEV}, "-c", PROBE)
    assert result.returncode != 0
    assert "DATABASE_URL scheme 'mysql' is not supported" in result.stderr


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_bad_boolean_is_a_clear_error(value: str) -> None:
    result = run_with({"DEBUG": value}, "-c", PROBE)
    assert result.returncode != 0
    assert f"DEBUG={value!r} is not a boolean" in result.stderr


def test_production_settings_pass_check_deploy_without_warnings() -> None:
    result = run_with(
        {
            "DEBUG": "0",
            "SECRET_KEY": KEY,
            "ALLOWED_HOSTS": "tianhei.example.org",
            "DATABASE_URL": "postgres://tianhei@127.0.0.1:5432/tianhei",
        },
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
