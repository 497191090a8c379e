"""A running event whose current round's tables are in every status the venue screen
shows, built through the real services (for the venue tests and the browser test)."""

from __future__ import annotations

from typing import Any

from django.test import TestCase

from games.models import Game
from games.replay import record_to_steps
from games.services import confirm_version, game_for_table, submit_record
from games.sheet import add_step, sheet_state
from league.models import Round, Table
from tests.league.factories import RefereeFactory
from tests.results.factories import Played, played_event

#: Table number → what happened there, in the order a round moves.
STATUSES = {
    1: "waiting",  # no game yet
    2: "waiting",  # a game opened, nobody wrote in it
    3: "playing",  # the sheet has begun
    4: "submitted",
    5: "confirmed",  # confirmed, not released: nothing of it may show
    6: "released",
}


def seat(ev: Played, round_no: int, number: int, offset: int) -> Table:
    """Table ``number`` of round ``round_no``, eight players from ``offset``, its own
    referee (one table per referee per round)."""
    referee = RefereeFactory()
    ev.event.referees.add(referee)
    players = ev.players[offset : offset + 8]
    return ev.table(round_no, number, players, referee=referee)


def advance(ev: Played, table: Table, status: str, seed: int, opened: bool = True) -> Game | None:
    """Move ``table``'s game to ``status`` through the services."""
    if status == "waiting" and not opened:
        return None
    game = game_for_table(table)
    if status == "waiting":
        return game
    referee = table.referee.user  # type: ignore[union-attr]
    players = [s.player for s in table.seats.order_by("number")]
    record = ev.record(players, seed)
    if status == "playing":
        step = record_to_steps(record)[0]
        add_step(referee, game, {**step, "id": "first"}, sheet_state(referee, game)["revision"])
        return game
    version = submit_record(referee, game, record, "upload")
    assert version.status == "submitted", version.violations
    if status == "submitted":
        return game
    with TestCase.captureOnCommitCallbacks(execute=True):
        confirm_version(ev.organiser, Game.objects.get(pk=game.pk), version.number)
    if status == "released":
        ev.release(game)
    return Game.objects.get(pk=game.pk)


def venue_world(**event_kwargs: Any) -> tuple[Played, dict[int, Game | None]]:
    """A running event of 3 rounds, 48 players; round 1 released with the six tables of
    :data:`STATUSES`; round 2 drawn and confirmed but not released."""
    ev = played_event(n_players=48, rounds=3, **event_kwargs)
    games: dict[int, Game | None] = {}
    for number, status in STATUSES.items():
        table = seat(ev, 1, number, 8 * (number - 1))
        games[number] = advance(ev, table, status, seed=100 + number, opened=number != 1)
    later = Round.objects.get(event=ev.event, number=2)
    Table.objects.bulk_create(Table(round=later, number=n) for n in range(1, 8))
    later.status = Round.Status.CONFIRMED
    later.save(update_fields=["status"])
    return ev, games
