"""Cross-club access (issue 15): an organiser acts on their own club only.

Referee conflicts belong to the club that declared them; a player's club membership is
changed only by their own club; anonymous API answers hold nothing personal.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from league.errors import CsvImportError
from league.events import conflicts as event_conflicts
from league.events import imports as event_imports
from league.events import selectors as event_selectors
from league.events import services as event_services
from league.models import Event, Membership, RefereeConflict
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
    registered_players,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def club_event(**kwargs: Any) -> tuple[Any, Event]:
    organiser = ClubOrganiserFactory().user
    return organiser, EventFactory(club=organiser.organised_clubs.get().club, **kwargs)


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def two_clubs() -> dict[str, Any]:
    """Clubs A and B each run an event; one referee and one player take part in both."""
    org_a, event_a = club_event()
    org_b, event_b = club_event()
    referee = RefereeFactory()
    player = registered_players(event_a, 1)[0]
    event_services.register_player(org_b, event_b, player)
    event_a.referees.add(referee)
    event_b.referees.add(referee)
    return {"a": (org_a, event_a), "b": (org_b, event_b), "referee": referee, "player": player}


def test_a_referee_conflict_stays_with_the_club_that_declared_it(two_clubs: Any) -> None:
    (org_a, event_a), (org_b, event_b) = two_clubs["a"], two_clubs["b"]
    referee, player = two_clubs["referee"], two_clubs["player"]
    conflict = event_conflicts.declare_referee_conflict(
        org_a, event_a, referee, player, "private: family matter"
    )
    assert conflict.club_id == event_a.club_id

    mine = api(org_a).get(f"/api/v1/events/{event_a.pk}/referee-conflicts/")
    assert [c["reason"] for c in mine.json()] == ["private: family matter"]
    theirs = api(org_b).get(f"/api/v1/events/{event_b.pk}/referee-conflicts/")
    assert theirs.status_code == 200 and theirs.json() == []
    assert "family" not in theirs.content.decode()
    url = f"/api/v1/events/{event_b.pk}/referee-conflicts/{conflict.pk}/"
    assert api(org_b).delete(url).status_code == 404
    assert RefereeConflict.objects.filter(pk=conflict.pk).exists()

    # club A's draws honour it; club B's draws do not know it
    assert (referee.pk, player.pk) in event_selectors.referee_conflicts(event_a)
    assert (referee.pk, player.pk) not in event_selectors.referee_conflicts(event_b)
    # club B may declare its own, separately
    event_conflicts.declare_referee_conflict(org_b, event_b, referee, player, "B's own reason")
    assert RefereeConflict.objects.filter(referee=referee, player=player).count() == 2
    url = f"/api/v1/events/{event_a.pk}/referee-conflicts/{conflict.pk}/"
    assert api(org_a).delete(url).status_code == 204


def test_another_club_cannot_make_a_player_its_member() -> None:
    org_a, _event_a = club_event()
    org_b, event_b = club_event()
    club_a = org_a.organised_clubs.get().club
    club_b = org_b.organised_clubs.get().club
    response = api(org_b).post(
        "/api/v1/players/", {"display_name": "Lin", "handle": "lin-a", "club": club_a.slug}
    )
    assert response.status_code == 403
    assert not Membership.objects.filter(club=club_a).exists()
    response = api(org_b).post(
        "/api/v1/players/", {"display_name": "Lin", "handle": "lin-b", "club": club_b.slug}
    )
    assert response.status_code == 201

    ours = PlayerFactory(handle="ours")
    Membership.objects.create(player=ours, club=club_a, joined=dt.date(2025, 1, 1))
    csv_text = f"display_name,handle,club\nOurs,ours,{club_b.slug}\nNew,brand-new,{club_b.slug}\n"
    with pytest.raises(CsvImportError) as refused:
        event_imports.import_players_csv(org_b, event_b, csv_text)
    assert [(p.row, p.column) for p in refused.value.problems] == [(2, "club")]
    assert "another club" in refused.value.problems[0].message
    assert not Membership.objects.filter(player=ours, club=club_b).exists()
    csv_text = f"display_name,handle,club\nOurs,ours,{club_a.slug}\n"
    with pytest.raises(CsvImportError) as refused:
        event_imports.import_players_csv(org_b, event_b, csv_text)
    assert "do not organise" in refused.value.problems[0].message
    # without a club column the known player is simply registered
    event_imports.import_players_csv(org_b, event_b, "display_name,handle\nOurs,ours\n")
    assert event_b.registrations.filter(player=ours).exists()
    assert list(Membership.objects.filter(player=ours).values_list("club", flat=True)) == [
        club_a.pk
    ]


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_organiser"])
def test_event_answers_hold_no_login_names_for_outsiders(who: str) -> None:
    organiser, event = club_event()
    staff = UserFactory(username="helper-login")
    event.staff.add(staff)
    viewer = {
        "anonymous": None,
        "stranger": UserFactory(),
        "other_organiser": ClubOrganiserFactory().user,
    }[who]
    for url in (f"/api/v1/events/{event.pk}/", "/api/v1/events/"):
        response = api(viewer).get(url)
        assert response.status_code == 200
        assert "helper-login" not in response.content.decode()
    body = api(organiser).get(f"/api/v1/events/{event.pk}/").json()
    assert body["staff"] == ["helper-login"]
    assert api(staff).get(f"/api/v1/events/{event.pk}/").json()["staff"] == ["helper-login"]
