"""The restore drill of docs/backup.md, run in CI (issue #22): seed released games and
their computed results, back the database up the documented way, restore the backup
into a new database, and check that every standing and rating there is the same —
through the documented ``manage.py compare_results --against`` and table by table.

PostgreSQL (the CI's second run): ``pg_dump -Fc`` of the test database, ``pg_restore
--clean --if-exists`` into a new database. SQLite (the embedded default): the online
backup API (``sqlite3.Connection.backup``, what ``sqlite3 db.sqlite3 ".backup …"``
does) of a file database, and the ``sqlite3`` shell's ``.backup`` when it is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from results.archives.digest import results_digest
from results.models import EventStanding, PlayerRating, RatingPoint, SeasonStanding
from tests.results.factories import Played, played_event

ROOT = Path(__file__).resolve().parent.parent

#: The results tables compared row by row (ids included: a restore keeps them).
TABLES = {
    EventStanding._meta.db_table: "event_id, position",
    SeasonStanding._meta.db_table: "season_id, player_id",
    PlayerRating._meta.db_table: "player_id",
    RatingPoint._meta.db_table: "played_on, game_id, seat",
    "games_gameversion": "id",
}
#: What the seeded data fills (the event has no season).
NONEMPTY = ("league_eventstanding", "league_playerrating", "league_ratingpoint")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def seeded() -> Played:
    """Two released rounds (one game corrected), a third confirmed but not released."""
    ev = played_event(rounds=3)
    first = ev.play(1, seed=7)
    ev.correct(first, ev.record(ev.players[:12], 8))
    ev.play(2, seed=9)
    ev.play(3, seed=10, release=False)
    assert RatingPoint.objects.exists() and EventStanding.objects.exists()
    return ev


def compare_against(database_url: str, saved: Path) -> subprocess.CompletedProcess[str]:
    """``manage.py compare_results --against saved`` on another database, as an admin
    would run it after a restore."""
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": database_url}
    env.pop("CELERY_BROKER_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", "compare_results", "--against", str(saved)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def save_digest(path: Path) -> dict[str, Any]:
    digest = results_digest()
    path.write_text(json.dumps(digest, sort_keys=True), encoding="utf-8")
    return digest


# --- PostgreSQL -------------------------------------------------------------------------------


def _postgres_ready() -> str | None:
    if connection.vendor != "postgresql":
        return "the PostgreSQL drill needs DATABASE_URL=postgres://…"
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


def _pg_env() -> dict[str, str]:
    db = settings.DATABASES["default"]
    env = {**os.environ}
    env["PGHOST"] = str(db["HOST"] or "127.0.0.1")
    env["PGPORT"] = str(db["PORT"] or "5432")
    env["PGUSER"] = str(db["USER"] or "postgres")
    if db["PASSWORD"]:
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env


def _pg_url(name: str) -> str:
    env = _pg_env()
    auth = quote(env["PGUSER"]) + (":" + quote(env["PGPASSWORD"]) if "PGPASSWORD" in env else "")
    return f"postgres://{auth}@{env['PGHOST']}:{env['PGPORT']}/{quote(name)}"


def _pg_rows(name: str) -> dict[str, list[Any]]:
    out = {}
    with psycopg.connect(_pg_url(name)) as conn:
        for table, order in TABLES.items():
            out[table] = conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
    return out


@pytest.mark.django_db(transaction=True)
def test_postgres_dump_and_restore_keep_every_standing_and_rating(tmp_path: Path) -> None:
    reason = _postgres_ready()
    if reason:
        pytest.skip(reason)
    seeded()
    saved = tmp_path / "before.json"
    save_digest(saved)
    source = str(settings.DATABASES["default"]["NAME"])
    dump = tmp_path / "tianhei.dump"
    env = _pg_env()
    subprocess.run(["pg_dump", "-Fc", "-f", str(dump), source], env=env, check=True, timeout=300)
    assert dump.stat().st_size > 0
    before = _pg_rows(source)
    assert all(before[t] for t in NONEMPTY)

    new = f"{source}_restore_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{new}"')
    try:
        subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", new, str(dump)],
            env=env,
            check=True,
            timeout=300,
        )
        assert _pg_rows(new) == before
        done = compare_against(_pg_url(new), saved)
        assert done.returncode == 0, done.stderr
        assert "identical" in done.stdout
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{new}" WITH (FORCE)')


# --- SQLite -----------------------------------------------------------------------------------


def _sqlite_rows(path: Path) -> dict[str, list[Any]]:
    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            for table, order in TABLES.items()
        }
    finally:
        conn.close()


def _online_backup(source: Path, target: Path) -> None:
    """What docs/backup.md prescribes for a running site: SQLite's online backup API."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


@pytest.mark.django_db(transaction=True)
def test_sqlite_online_backup_keeps_every_standing_and_rating(tmp_path: Path) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite drill runs on the SQLite suite")
    seeded()
    saved = tmp_path / "before.json"
    digest = save_digest(saved)
    assert digest["standings"] and digest["ratings"]
    # The site's database file (the test database lives in memory: copy it to a file).
    live = tmp_path / "db.sqlite3"
    connection.ensure_connection()
    target = sqlite3.connect(live)
    try:
        connection.connection.backup(target)
    finally:
        target.close()

    backup = tmp_path / "backup.sqlite3"
    _online_backup(live, backup)
    check = sqlite3.connect(backup)
    try:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        check.close()
    before = _sqlite_rows(live)
    assert all(before[t] for t in NONEMPTY)
    assert _sqlite_rows(backup) == before
    done = compare_against(f"sqlite:///{backup}", saved)
    assert done.returncode == 0, done.stderr
    assert "identical" in done.stdout

    if shutil.which("sqlite3"):  # the shell's `.backup`, as the docs show it
        shell = tmp_path / "shell-backup.sqlite3"
        subprocess.run(["sqlite3", str(live), f".backup '{shell}'"], check=True, timeout=120)
        assert _sqlite_rows(shell) == before


@pytest.mark.django_db(transaction=True)
def test_the_drill_would_notice_a_different_result(tmp_path: Path) -> None:
    """compare_results is not a rubber stamp: a changed rating is reported, exit 1."""
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite drill runs on the SQLite suite")
    seeded()
    saved = tmp_path / "before.json"
    save_digest(saved)
    PlayerRating.objects.filter(pk=PlayerRating.objects.order_by("pk").first().pk).update(
        rating=1.0
    )
    live = tmp_path / "db.sqlite3"
    connection.ensure_connection()
    target = sqlite3.connect(live)
    try:
        connection.connection.backup(target)
    finally:
        target.close()
    done = compare_against(f"sqlite:///{live}", saved)
    assert done.returncode == 1
    assert "ratings/" in done.stderr
