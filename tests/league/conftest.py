"""League fixtures: users in every role around one event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from league.models import Event
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    RegistrationFactory,
    UserFactory,
    lay_out,
    registered_players,
)


@dataclass
class Cast:
    """One event and a user in each role (``None`` is the anonymous visitor)."""

    event: Event
    admin: Any
    organiser: Any
    other_organiser: Any
    staff: Any
    referee: Any
    player: Any
    stranger: Any

    def user(self, role: str) -> Any:
        return None if role == "anonymous" else getattr(self, role)


ROLES = (
    "admin",
    "organiser",
    "other_organiser",
    "staff",
    "referee",
    "player",
    "stranger",
    "anonymous",
)


@pytest.fixture
def cast(db: None) -> Cast:
    club = ClubFactory()
    event = EventFactory(club=club, status="running")
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    organiser = ClubOrganiserFactory(club=club).user
    other_organiser = ClubOrganiserFactory(club=ClubFactory()).user
    staff = UserFactory()
    event.staff.add(staff)
    referee = RefereeFactory()
    event.referees.add(referee, RefereeFactory())
    player_user = UserFactory()
    player = PlayerFactory(user=player_user)
    RegistrationFactory(event=event, player=player)
    others = registered_players(event, 15)
    seated = [player, *others]
    lay_out(event.rounds.get(number=1), seated, status="released")
    lay_out(event.rounds.get(number=2), seated, status="confirmed")
    tables = lay_out(event.rounds.get(number=3), seated, status="draft")
    tables[0].referee = referee
    tables[0].save()
    return Cast(
        event=event,
        admin=admin,
        organiser=organiser,
        other_organiser=other_organiser,
        staff=staff,
        referee=referee.user,
        player=player_user,
        stranger=UserFactory(),
    )


@pytest.fixture(autouse=True)
def _quick_draws(settings: Any) -> None:
    """Draws in tests stop searching early: validity, not fairness, is tested here."""
    settings.LEAGUE_DRAW_TIME_LIMIT = 0.15
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _language_restored() -> Any:
    """A request with Accept-Language activates its language in this thread and leaves it
    there; each test ends in the language it started in, so none leaks into the next."""
    before = translation.get_language()
    yield
    if before:
        translation.activate(before)
    else:
        translation.deactivate()
