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
from league.errors import UserError
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
    assert isinstance(losses[0], UserError) and losses[0].code == "game.stale_revision"
    assert losses[0].status == 409
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


def test_a_swap_and_a_submission_at_once_never_leave_a_record_beside_other_seats() -> None:
    """The organiser swaps a player of the table while its referee submits the record:
    either the swap is refused (the record came first) or the record is judged against
    the new seating — never a valid record naming players who no longer sit there."""
    from league.draws import services as league_services
    from league.models import Seat
    from tests.league.factories import PlayerFactory

    world = make_world()
    other = world.round.tables.get(number=2)
    stranger = PlayerFactory()
    Seat.objects.create(round=world.round, table=other, player=stranger, number=1)
    first = Seat.objects.get(table=world.table, number=1).player
    record = world.record()
    barrier = threading.Barrier(2)
    outcome: dict[str, Any] = {}
    original = league_services.audit

    def slow_audit(*a: Any, **k: Any) -> Any:
        time.sleep(0.3)  # the swap holds its locks a moment longer
        return original(*a, **k)

    def swap() -> None:
        try:
            barrier.wait(timeout=10)
            outcome["swap"] = league_services.swap_players(
                world.user("organiser"), world.round, first, stranger
            )
        except UserError as e:
            outcome["swap"] = e
        finally:
            connections.close_all()

    def submit() -> None:
        try:
            barrier.wait(timeout=10)
            time.sleep(0.05)
            outcome["version"] = services.submit_record(
                world.user("referee"), world.game, record, "api"
            )
        finally:
            connections.close_all()

    league_services.audit = slow_audit  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=f) for f in (swap, submit)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        league_services.audit = original  # type: ignore[assignment]
    version = GameVersion.objects.get(game=world.game)
    seated = dict(Seat.objects.filter(table=world.table).values_list("number", "player__handle"))
    recorded = {s["seat"]: s["player"] for s in version.record["seats"]}
    if isinstance(outcome["swap"], UserError):
        assert recorded == seated and version.valid
    else:
        assert recorded != seated and not version.valid  # judged against the new seating
        assert any(v["code"] == "platform.seating" for v in version.violations)


@pytest.mark.parametrize("write", ["confirm", "submit"])
def test_a_game_write_and_an_organisers_referee_move_never_deadlock(write: str) -> None:
    """The organiser's move takes the event lock, then the tables'; a referee's write its
    game's and its table's — never the event row's (Table's ordering used to join and
    lock it), so neither waits on the other in a cycle."""
    from league.draws import services as league_services
    from league.models import Table

    world = make_world()
    other = Table.objects.get(round=world.round, number=2)
    if write == "confirm":
        services.submit_record(world.user("referee"), world.game, world.record(), "api")
    world.game.refresh_from_db()
    revision = world.game.revision
    results: dict[str, Any] = {}
    original = league_services.lock_event
    locked = threading.Event()

    def slow_lock(event: Any) -> Any:
        held = original(event)
        locked.set()
        time.sleep(1.0)  # the game write starts while the organiser holds the event
        return held

    def game_write() -> None:
        locked.wait(10)
        time.sleep(0.2)
        try:
            if write == "confirm":
                results["game"] = services.confirm_version(
                    world.user("organiser"), world.game, 1, revision
                )
            else:
                results["game"] = services.submit_record(
                    world.user("referee"), world.game, world.record(), "api", revision
                )
        except Exception as e:
            results["game"] = e
        finally:
            connections.close_all()

    def move() -> None:
        try:
            results["move"] = league_services.move_referee(
                world.user("organiser"), Table.objects.get(pk=other.pk), world.table.referee
            )
        except Exception as e:
            results["move"] = e
        finally:
            connections.close_all()

    league_services.lock_event = slow_lock  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=f) for f in (game_write, move)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        league_services.lock_event = original  # type: ignore[assignment]
    assert isinstance(results["game"], GameVersion), results
    # the move either went first (the table had no play yet) or was refused after it
    assert isinstance(results["move"], list | UserError), results
