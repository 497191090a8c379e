"""Rating pages never wait on a ratings rebuild or a correction (issue 14, item 7).

A second PostgreSQL connection — a page's — reads the leaderboard, a player's history and
the point count while a rebuild or a correction is in the middle of its transaction, with
a short ``lock_timeout`` and ``statement_timeout``: it must get the complete old ratings
at once (a wait would raise). After the commit it sees the new ones, through statements it
prepared before the swap. SQLite has no concurrent readers to speak of: skipped there.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from games.models import Game
from games.selectors import confirmed_record
from results.models import PlayerRating, RatingPoint, ScoredGame
from results.pipeline import ratings, swap
from tests.results.conftest import snapshot
from tests.results.factories import played_event

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent readers need PostgreSQL"
)

LEADERBOARD = (
    "SELECT player_id, rating, games FROM league_playerrating ORDER BY rating DESC, player_id"
)
HISTORY = (
    "SELECT game_id, rating FROM league_ratingpoint WHERE player_id = %s"
    " ORDER BY played_on, game_id"
)
COUNTS = (
    "SELECT (SELECT count(*) FROM league_ratingpoint), (SELECT count(*) FROM league_scoredgame)"
)


@pytest.fixture
def reader(transactional_db: None) -> Iterator[psycopg.Connection[Any]]:
    """A page's own connection: autocommit, and it gives up instead of waiting."""
    s = connection.settings_dict
    conn = psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"] or None,
        password=s["PASSWORD"] or None,
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        autocommit=True,
    )
    conn.execute("SET lock_timeout = '200ms'")
    conn.execute("SET statement_timeout = '2s'")
    yield conn
    conn.close()


def read(conn: psycopg.Connection[Any], player_id: int) -> dict[str, Any]:
    """What the rating pages read, as prepared statements (as the site runs them)."""
    return {
        "leaderboard": conn.execute(LEADERBOARD, prepare=True).fetchall(),
        "history": conn.execute(HISTORY, [player_id], prepare=True).fetchall(),
        "counts": conn.execute(COUNTS, prepare=True).fetchone(),
    }


def _marked(conn: psycopg.Connection[Any]) -> None:
    """Make the live ratings recognisably old: a rebuild from the records undoes this."""
    with conn.transaction():
        conn.execute("UPDATE league_playerrating SET rating = rating + 1000")
        conn.execute("UPDATE league_ratingpoint SET rating = rating + 1000")


def _during(monkeypatch: pytest.MonkeyPatch, check: Callable[[], None]) -> list[Callable[[], None]]:
    """Run ``check`` inside the pipeline's open transaction, right after the replay has
    written every new row (just before a rebuild's swap)."""
    original = ratings._write_player_ratings
    ran: list[Callable[[], None]] = []

    def hooked(*args: Any, **kwargs: Any) -> None:
        original(*args, **kwargs)
        check()
        ran.append(check)

    monkeypatch.setattr(ratings, "_write_player_ratings", hooked)
    return ran


def _two_events() -> Any:
    ev = played_event(n_players=16)
    games = [
        ev.play(1, 1, ev.players[:12], seed=1),
        ev.play(2, 1, ev.players[4:16], seed=2),
        ev.play(3, 1, ev.players[2:14], seed=3),
    ]
    return ev, games


def test_readers_see_the_old_ratings_while_a_rebuild_runs(
    reader: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev, _games = _two_events()
    player = ev.players[5].pk
    fresh = read(reader, player)
    assert len(fresh["leaderboard"]) == 16 and fresh["counts"] == (36, 3)
    _marked(reader)
    old = read(reader, player)
    assert old != fresh
    # Prepared statements on every query (psycopg prepares after 5 uses; prepare=True now).
    seen: list[dict[str, Any]] = []
    ran = _during(monkeypatch, lambda: seen.append(read(reader, player)))
    ratings.rebuild_ratings()
    assert ran, "the hook did not run"
    assert seen == [old]  # at once, complete, old
    assert read(reader, player) == fresh  # the same statements see the swapped tables
    assert PlayerRating.objects.count() == 16


def test_rebuild_keeps_the_tables_names_indexes_and_constraints(
    reader: psycopg.Connection[Any],
) -> None:
    _two_events()

    def shape() -> list[tuple[Any, ...]]:
        tables = [m._meta.db_table for m in (RatingPoint, ScoredGame, PlayerRating)]
        rows = reader.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM"
            " pg_constraint WHERE conrelid = ANY(%s::regclass[]) UNION ALL"
            " SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)"
            " UNION ALL SELECT table_name, column_name, coalesce(column_default, '') ||"
            " is_identity || is_nullable FROM information_schema.columns"
            " WHERE table_name = ANY(%s) ORDER BY 1, 2, 3",
            [tables, tables, tables],
        ).fetchall()
        return rows

    before = shape()
    rows = snapshot()
    ratings.rebuild_ratings()
    assert shape() == before
    assert snapshot() == rows
    schemas = reader.execute(
        "SELECT count(*) FROM pg_namespace WHERE nspname = %s", [swap.ASIDE_SCHEMA]
    ).fetchone()
    assert schemas == (0,)
    # New rows get ids from the new tables' own sequences.
    ev = played_event(n_players=12)
    ev.play(1, 1, ev.players, seed=9)
    assert RatingPoint.objects.count() == 48


def test_a_failed_rebuild_leaves_the_live_ratings(
    reader: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev, _games = _two_events()
    before = read(reader, ev.players[5].pk)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(ratings, "_write_player_ratings", broken)
    with pytest.raises(RuntimeError):
        ratings.rebuild_ratings()
    assert read(reader, ev.players[5].pk) == before
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('search_path')")
        assert swap.ASIDE_SCHEMA not in cursor.fetchone()[0]


def test_readers_see_the_old_ratings_while_a_correction_runs(
    reader: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev, games = _two_events()
    player = ev.players[5].pk
    old = read(reader, player)
    seen: list[dict[str, Any]] = []
    ran = _during(monkeypatch, lambda: seen.append(read(reader, player)))
    record = dict(confirmed_record(games[0]))
    winner = record["result"]["winner"]
    record = {k: v for k, v in record.items() if k not in ("log", "awards")}
    record["result"] = {"winner": "killers" if winner == "good" else "good"}
    ev.correct(Game.objects.get(pk=games[0].pk), record)
    assert ran, "the correction did not replay"
    assert seen == [old]
    assert read(reader, player) != old


def test_the_swap_waits_out_a_long_reader(
    reader: psycopg.Connection[Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A reader inside a long transaction holds a live table: the swap backs off and tries
    again, each try short (so pages are never queued behind it for long), until the reader
    is done; then it succeeds."""
    _two_events()
    monkeypatch.setattr(swap, "SWAP_LOCK_TIMEOUT_MS", 20)
    reader.autocommit = False
    reader.execute("SELECT count(*) FROM league_playerrating").fetchone()  # holds its lock
    timers: list[threading.Timer] = []
    lock = swap._lock_for_swap

    def reader_done_soon(tables: list[str]) -> None:
        timers.append(threading.Timer(0.3, reader.commit))
        timers[0].start()
        lock(tables)

    monkeypatch.setattr(swap, "_lock_for_swap", reader_done_soon)
    with caplog.at_level(logging.INFO, logger="results.pipeline.swap"):
        report = ratings.rebuild_ratings()
    timers[0].join()
    reader.autocommit = True
    assert report.points_written == 36
    assert any("busy" in r.getMessage() for r in caplog.records)
