"""Games fixtures: a 12-player table of a confirmed round and a user in every role."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine.simulate import simulate_game
from games.models import Game
from games.services import game_for_table
from league.errors import UserError
from league.models import Event, Round, Seat, Table
from tests.league.conftest import _language_restored  # noqa: F401 (each test, its language)
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
)


@contextmanager
def refused(status: int, code: str | None = None) -> Iterator[pytest.ExceptionInfo[UserError]]:
    """The block must raise a :class:`UserError` with this HTTP status (and code)."""
    with pytest.raises(UserError) as error:
        yield error
    assert error.value.status == status, (error.value.code, error.value.status)
    if code is not None:
        assert error.value.code == code, error.value.code


ROLES = (
    "anonymous",
    "event_staff",
    "player_at_table",
    "other_player",
    "other_referee",
    "referee",
    "organiser",
    "admin",
)
#: Who may see a game's roles before it is released.
SEES_SECRETS = {"referee", "organiser", "admin"}


@dataclass
class World:
    event: Event
    round: Round
    table: Table
    game: Game
    handles: list[str]
    users: dict[str, Any]

    def user(self, role: str) -> Any:
        return self.users.get(role)

    def record(self, seed: int = 1, **kwargs: Any) -> dict[str, Any]:
        """A legal finished game at this table (the engine's simulator)."""
        rec = simulate_game(
            self.event.ruleset, len(self.handles), seed, players=self.handles, **kwargs
        )
        return rec


def make_world(ruleset: str = "classic", n: int = 12) -> World:
    event = EventFactory(ruleset=ruleset, status=Event.Status.RUNNING, max_table=max(12, n))
    organiser = ClubOrganiserFactory(club=event.club).user
    admin = get_user_model().objects.create_superuser(
        f"root{event.pk}", f"root{event.pk}@example.org", "pw"
    )
    referee = RefereeFactory()
    other_referee = RefereeFactory()
    event.referees.add(referee, other_referee)
    round_ = event.rounds.get(number=1)
    round_.status = Round.Status.RELEASED  # the draw is public; the results are not
    round_.released_at = timezone.now()
    round_.save()
    table = Table.objects.create(round=round_, number=1, referee=referee)
    Table.objects.create(round=round_, number=2, referee=other_referee)
    players = []
    for i in range(1, n + 1):
        p = PlayerFactory(user=UserFactory() if i == 1 else None)
        Seat.objects.create(round=round_, table=table, player=p, number=i)
        players.append(p)
    other = PlayerFactory(user=UserFactory())
    staff = UserFactory()
    event.staff.add(staff)
    game = game_for_table(table)
    return World(
        event=event,
        round=round_,
        table=table,
        game=game,
        handles=[p.handle for p in players],
        users={
            "anonymous": None,
            "event_staff": staff,
            "player_at_table": players[0].user,
            "other_player": other.user,
            "other_referee": other_referee.user,
            "referee": referee.user,
            "organiser": organiser,
            "admin": admin,
        },
    )


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Hashing test passwords with the production hasher costs a second per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    return make_world()
