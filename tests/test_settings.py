"""Settings load in both modes, and production settings pass `check --deploy`."""

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


def probe(env: dict[str, str]) -> dict[str, object]:
    result = run_with(env, "-c", PROBE)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_embedded_defaults_are_sqlite_eager_and_local_cache() -> None:
    loaded = probe({})
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
        }
    )
    assert loaded["db_options"] == {}


def test_debug_off_without_secret_key_refuses_to_start() -> None:
    result = run_with({"DEBUG": "0"}, "-c", PROBE)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_unsupported_database_url_is_a_clear_error() -> None:
    result = run_with({"DATABASE_URL": "mysql://x@y/z"}, "-c", PROBE)
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
            "SECRET_KEY": "x7#Qm2!vLp9@Rt4$Wz8^Kd3&Hs6*Jf1(Gb5)Nc0_Ye-Ua+Io=Pl",
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
