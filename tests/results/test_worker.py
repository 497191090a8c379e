"""The pipeline through a real Celery worker, and under concurrent confirmations."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Game
from games.services import game_for_table, submit_record
from results import services
from results.models import EventResults, EventStanding, PlayerRating, RatingPoint
from tests.league.factories import RefereeFactory
from tests.results.conftest import snapshot
from tests.results.factories import played_event


def _wait_for(check: Any, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.worker
def test_confirmation_reaches_standings_through_a_real_worker(
    transactional_db: None, celery_worker_process: Any
) -> None:
    ev = played_event()
    started = time.monotonic()
    game = ev.play(1, seed=7)  # submit, confirm, release: the worker does the rest
    assert _wait_for(
        lambda: (
            RatingPoint.objects.filter(game_id=game.pk).count() == 12
            and EventStanding.objects.filter(event=ev.event).count() == 12
            and not EventResults.objects.get(event=ev.event).stale
        )
    ), "the worker did not update standings and ratings within 30 s"
    assert time.monotonic() - started < 30
    assert PlayerRating.objects.count() == 12
    # Same as a rebuild from the records.
    done = snapshot()
    services.rebuild_all()
    assert snapshot() == done


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (SQLite serialises)"
)
def test_concurrent_confirmations_end_as_a_rebuild(transactional_db: None) -> None:
    ev = played_event(n_players=24, rounds=2)
    games = []
    second = RefereeFactory()
    ev.event.referees.add(second)
    for table_no, seated, referee in (
        (1, ev.players[:12], ev.referee),
        (2, ev.players[12:24], second),
    ):
        table = ev.table(1, table_no, seated, referee)
        game = game_for_table(table)
        submit_record(referee.user, game, ev.record(seated, table_no), "upload")
        games.append(game)
    barrier = threading.Barrier(len(games))
    errors: list[BaseException] = []

    def confirm_and_release(game: Game) -> None:
        from games.services import confirm_version, release_game

        try:
            barrier.wait()
            confirm_version(ev.organiser, Game.objects.get(pk=game.pk), 1)
            release_game(ev.organiser, Game.objects.get(pk=game.pk))
        except BaseException as e:
            errors.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm_and_release, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert EventStanding.objects.filter(event=ev.event).count() == 24
    assert RatingPoint.objects.count() == 24
    concurrent = snapshot()
    services.rebuild_all()
    rebuilt = snapshot()
    assert concurrent["points"] == rebuilt["points"]
    assert concurrent["ratings"] == rebuilt["ratings"]
    assert concurrent["standings"] == rebuilt["standings"]
