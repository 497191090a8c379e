"""The access gate: each question's per-game answer and its queryset filter agree, over a
grid of users × games × states (event status, round status, game status, voided,
stand-alone), and one request asks the database for each membership once."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.permissions import Access, access_for
from league.models import Event, Round, Table
from league.permissions import LeagueAccess
from league.permissions import access_for as league_access_for
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
)

ROUND_STATUSES = [s.value for s in Round.Status]
GAME_STATUSES = ["draft", "submitted", "confirmed", "released"]


def _grid() -> tuple[Event, dict[str, Any]]:
    club = ClubFactory()
    other_club = ClubFactory()
    event = EventFactory(club=club, rounds_count=len(ROUND_STATUSES))
    table_referee = RefereeFactory()
    event_referee = RefereeFactory()
    club_referee = RefereeFactory()
    event.referees.add(table_referee, event_referee)
    staff = UserFactory()
    event.staff.add(staff)
    inactive = ClubOrganiserFactory(club=club).user
    inactive.is_active = False
    inactive.save()
    users: dict[str, Any] = {
        "nobody": None,
        "anonymous": AnonymousUser(),
        "player": PlayerFactory(user=UserFactory()).user,
        "staff": staff,
        "event_referee": event_referee.user,
        "table_referee": table_referee.user,
        "club_referee": club_referee.user,
        "organiser": ClubOrganiserFactory(club=club).user,
        "other_organiser": ClubOrganiserFactory(club=other_club).user,
        "inactive_organiser": inactive,
        "admin": get_user_model().objects.create_superuser("root", "root@example.org", "pw"),
    }
    now = timezone.now()
    for rnd, round_status in zip(event.rounds.order_by("number"), ROUND_STATUSES, strict=True):
        rnd.status = round_status
        rnd.released_at = now if round_status == Round.Status.RELEASED else None
        rnd.save()
        for number, status in enumerate(GAME_STATUSES, start=1):
            referee = table_referee if number == 1 else None
            table = Table.objects.create(round=rnd, number=number, referee=referee)
            Game.objects.create(table=table, status=status)
    for status, owner in product(GAME_STATUSES, (club, other_club)):
        Game.objects.create(club=owner, referee=club_referee, status=status)
        Game.objects.create(club=owner, status=status)
    Game.objects.create(
        status=Game.Status.VOIDED,
        voided_event=event,
        voided_round=1,
        voided_table=9,
        void_reason="test",
        voided_at=now,
    )
    return event, users


def _agree(access: Access, games: list[Game]) -> None:
    for question, per_game in (
        (access.official_games, access.is_game_official),
        (access.secret_games, access.can_see_secrets),
        (access.visible_games, access.can_view_game),
    ):
        by_filter = set(Game.objects.filter(question()).values_list("pk", flat=True))
        by_game = {g.pk for g in games if per_game(g)}
        assert by_filter == by_game, (question.__name__, access.user)


@pytest.mark.django_db
def test_each_question_per_game_and_as_a_filter_agree() -> None:
    event, users = _grid()
    seen: dict[str, set[tuple[str, int]]] = {}
    for event_status in Event.Status.values:
        Event.objects.filter(pk=event.pk).update(status=event_status)
        games = list(
            Game.objects.select_related("table__round__event", "table__referee", "referee")
        )
        for name, user in users.items():
            access = Access(user)
            _agree(access, games)
            for question in ("is_game_official", "can_see_secrets", "can_view_game"):
                answer = getattr(access, question)
                seen.setdefault(name, set()).update((question, g.pk) for g in games if answer(g))
    # the grid is not trivial: the kinds of reader get different answers
    assert len({frozenset(s) for s in seen.values()}) >= 8
    assert seen["nobody"] == seen["anonymous"] == seen["inactive_organiser"] == seen["player"]
    assert {pk for _q, pk in seen["admin"]} == set(Game.objects.values_list("pk", flat=True))


@pytest.mark.django_db
def test_the_answers_are_the_rules() -> None:
    event, users = _grid()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    games = Game.objects.select_related("table__round__event", "table__referee", "referee")

    def game(round_status: str, number: int = 2) -> Game:
        return games.get(table__round__status=round_status, table__number=number)

    draft = game(Round.Status.DRAFT)
    released_round = game(Round.Status.RELEASED)
    at_table = game(Round.Status.CONFIRMED, number=1)  # the table referee's, status draft
    voided = games.get(status=Game.Status.VOIDED)
    a = {name: Access(user) for name, user in users.items()}
    assert not a["anonymous"].can_view_game(draft) and a["staff"].can_view_game(draft)
    assert a["anonymous"].can_view_game(released_round)
    assert a["event_referee"].can_view_game(at_table)
    assert not a["event_referee"].can_see_secrets(at_table)
    assert a["table_referee"].can_see_secrets(at_table)
    assert not a["table_referee"].can_release(at_table)
    assert a["organiser"].can_release(at_table) and a["admin"].can_release(at_table)
    assert not a["other_organiser"].can_view_game(draft)
    assert a["organiser"].can_view_game(voided) and not a["staff"].can_view_game(voided)


@pytest.mark.django_db
def test_one_request_reads_each_membership_once() -> None:
    _event, users = _grid()
    request = RequestFactory().get("/")
    request.user = users["staff"]
    games = list(Game.objects.select_related("table__round__event", "table__referee", "referee"))
    with CaptureQueriesContext(connection) as first:
        assert True in [access_for(request).can_view_game(g) for g in games]
    with CaptureQueriesContext(connection) as again:
        [access_for(request).can_view_game(g) for g in games]
    assert len(first) <= 3 and len(again) == 0
    assert access_for(request) is access_for(request)
    request.user = users["organiser"]  # a sign-in on this request: a new gate
    assert access_for(request).user is users["organiser"]


@pytest.mark.django_db
def test_one_gate_per_request_whichever_app_asks_first() -> None:
    event, users = _grid()
    request = RequestFactory().get("/")
    request.user = users["organiser"]
    league = league_access_for(request)
    assert type(league) is LeagueAccess and league.can_manage_event(event)
    games = access_for(request)  # the games' kind: the league's gate becomes one
    assert isinstance(games, Access) and league_access_for(request) is games
    with CaptureQueriesContext(connection) as reads:
        assert games.can_manage_event(event)  # what the league's gate read is kept
    assert len(reads) == 0
