"""Building played events for the results tests: real records through the real services."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.test import TestCase

from engine.simulate import simulate_game
from games.models import Game
from games.services import confirm_version, game_for_table, release_game, submit_record
from league.models import Club, Event, Membership, Player, Referee, Round, Seat, Table
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
)


@dataclass
class Played:
    """An event with players, a referee and an organiser, and helpers to play games."""

    club: Club
    event: Event
    organiser: Any
    referee: Referee
    players: list[Player]
    tables: dict[tuple[int, int], Table] = field(default_factory=dict)

    def table(
        self, round_no: int, table_no: int, players: list[Player], referee: Referee | None = None
    ) -> Table:
        rnd = Round.objects.get(event=self.event, number=round_no)
        if rnd.status != Round.Status.RELEASED:
            rnd.status = Round.Status.RELEASED
            rnd.released_at = rnd.starts_at or dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
            rnd.save()
        table = Table.objects.create(round=rnd, number=table_no, referee=referee or self.referee)
        Seat.objects.bulk_create(
            Seat(round=rnd, table=table, player=p, number=i) for i, p in enumerate(players, 1)
        )
        self.tables[(round_no, table_no)] = table
        return table

    def record(self, players: list[Player], seed: int) -> dict[str, Any]:
        return simulate_game(
            self.event.ruleset, len(players), seed, players=[p.handle for p in players]
        )

    def play(
        self,
        round_no: int,
        table_no: int = 1,
        players: list[Player] | None = None,
        seed: int = 1,
        release: bool = True,
        record: dict[str, Any] | None = None,
    ) -> Game:
        """Seat, submit (referee), confirm (organiser) and by default release a game."""
        seated = players if players is not None else self.players[:12]
        table = self.table(round_no, table_no, seated)
        game = game_for_table(table)
        rec = record if record is not None else self.record(seated, seed)
        version = submit_record(self.referee.user, game, rec, "upload")
        assert version.status == "submitted", version.violations
        with TestCase.captureOnCommitCallbacks(execute=True):
            confirm_version(self.organiser, game, version.number)
        if release:
            self.release(game)
        return Game.objects.get(pk=game.pk)

    def correct(self, game: Game, record: dict[str, Any], reason: str = "typo") -> None:
        version = submit_record(self.referee.user, game, record, "upload", reason=reason)
        assert version.status == "submitted", version.violations
        with TestCase.captureOnCommitCallbacks(execute=True):
            confirm_version(self.organiser, Game.objects.get(pk=game.pk), version.number)

    def release(self, game: Game) -> None:
        with TestCase.captureOnCommitCallbacks(execute=True):
            release_game(self.organiser, Game.objects.get(pk=game.pk))


def played_event(
    n_players: int = 12,
    rounds: int = 3,
    club: Club | None = None,
    starts_on: dt.date | None = None,
    **event_kwargs: Any,
) -> Played:
    club = club or ClubFactory()
    event = EventFactory(
        club=club,
        rounds_count=rounds,
        status=Event.Status.RUNNING,
        starts_on=starts_on or dt.date(2026, 3, 1),
        max_table=12,
        **event_kwargs,
    )
    organiser = ClubOrganiserFactory(club=club).user
    referee = RefereeFactory()
    event.referees.add(referee)
    players = []
    for _ in range(n_players):
        p = PlayerFactory(user=UserFactory())
        Membership.objects.create(player=p, club=club, joined=dt.date(2025, 1, 1))
        players.append(p)
    return Played(club, event, organiser, referee, players)


def superuser(name: str = "root") -> Any:
    return get_user_model().objects.create_superuser(name, f"{name}@example.org", "pw")
