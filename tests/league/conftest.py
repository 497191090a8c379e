"""League fixtures: users in every role around one event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from league.models import Event
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    RegistrationFactory,
    UserFactory,
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
    event = EventFactory(club=club)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    organiser = ClubOrganiserFactory(club=club).user
    other_organiser = ClubOrganiserFactory(club=ClubFactory()).user
    staff = UserFactory()
    event.staff.add(staff)
    referee = RefereeFactory()
    event.referees.add(referee)
    player_user = UserFactory()
    player = PlayerFactory(user=player_user)
    RegistrationFactory(event=event, player=player)
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
    settings.LEAGUE_DRAW_TIME_LIMIT = 0.3
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
