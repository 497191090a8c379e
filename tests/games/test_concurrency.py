"""Two officials confirm the same game at the same moment, on two real database
connections: one wins, the other gets a clear conflict, nothing is lost.

Needs PostgreSQL (row locks); SQLite serialises whole-database writes instead.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, connections

from games import services
from games.models import Game, GameStatusChange, GameVersion
from tests.games.conftest import make_world

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks (select_for_update) need PostgreSQL; SQLite locks the whole file",
    ),
]


def _race(calls: list[tuple[Any, ...]], slow: bool = True) -> list[Any]:
    """Run ``services.confirm_version(*args)`` in one thread per call, released together;
    each thread uses (and closes) its own database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, args: tuple[Any, ...]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = services.confirm_version(*args)
        except Exception as e:
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    original = services.audit
    if slow:
        # Hold the lock a little longer so the second confirmation really waits on it.
        def slow_audit(*a: Any, **k: Any) -> None:
            time.sleep(0.3)
            original(*a, **k)

        services.audit = slow_audit  # type: ignore[assignment]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        services.audit = original  # type: ignore[assignment]
    return results


def test_two_officials_confirm_the_same_version_at_once() -> None:
    world = make_world()
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    world.game.refresh_from_db()
    rev = world.game.revision
    results = _race(
        [
            (world.user("organiser"), world.game, 1, rev),
            (world.user("admin"), world.game, 1, rev),
        ]
    )
    wins = [r for r in results if isinstance(r, GameVersion)]
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(wins) == 1 and len(losses) == 1, results
    assert isinstance(losses[0], services.Conflict)
    assert losses[0].status_code == 409
    game = Game.objects.get(pk=world.game.pk)
    assert game.status == Game.Status.CONFIRMED and game.revision == rev + 1
    assert game.versions.filter(status="confirmed").count() == 1
    assert game.versions.count() == 1
    assert GameStatusChange.objects.filter(game=game, to_status="confirmed").count() == 1


def test_two_versions_confirmed_at_once_one_is_stale() -> None:
    """v1 and v2 are both pending; two officials each confirm a different one from the
    same page revision: the second must not silently replace the first."""
    world = make_world()
    services.submit_record(world.user("referee"), world.game, world.record(1), "api")
    services.submit_record(world.user("referee"), world.game, world.record(2), "api")
    world.game.refresh_from_db()
    rev = world.game.revision
    results = _race(
        [
            (world.user("organiser"), world.game, 1, rev),
            (world.user("admin"), world.game, 2, rev),
        ]
    )
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(losses) == 1 and isinstance(losses[0], services.StaleRevision), results
    assert losses[0].current == rev + 1
    game = Game.objects.get(pk=world.game.pk)
    assert game.versions.filter(status="confirmed").count() == 1
    assert game.versions.count() == 2  # nothing lost


def test_database_refuses_a_second_confirmed_version() -> None:
    """The partial unique constraint is the last line of defence."""
    from django.db import IntegrityError, transaction

    world = make_world()
    services.submit_record(world.user("referee"), world.game, world.record(1), "api")
    services.submit_record(world.user("referee"), world.game, world.record(2), "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameVersion.objects.filter(game=world.game, number=2).update(
            status="confirmed", confirmed_by=world.user("admin"), confirmed_at=world.game.created_at
        )
