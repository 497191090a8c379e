"""Query-count budgets on the hot pages: they must not grow with the event."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    RefereeFactory,
    lay_out,
    registered_players,
)

pytestmark = pytest.mark.django_db

DRAW_PAGE_BUDGET = 14
PUBLIC_ROUND_BUDGET = 6
PUBLIC_EVENT_BUDGET = 8
API_ROUNDS_BUDGET = 12


def drawn_event(players: int) -> tuple[Event, Any]:
    org = ClubOrganiserFactory()
    event = EventFactory(club=org.club, status="running", rounds_count=4)
    seated = registered_players(event, players)
    refs = RefereeFactory.create_batch(players // 8)
    event.referees.add(*refs)
    for number, status in ((1, "released"), (2, "released"), (3, "confirmed"), (4, "draft")):
        tables = lay_out(
            event.rounds.get(number=number), seated[number:] + seated[:number], status=status
        )
        for table, ref in zip(tables, refs, strict=False):
            table.referee = ref
            table.save()
    return event, org.user


@pytest.mark.parametrize("players", [16, 96])
def test_draw_page_budget(client: Client, players: int, django_assert_max_num_queries: Any) -> None:
    event, organiser = drawn_event(players)
    client.force_login(organiser)
    url = reverse("event-draw", args=[event.pk])
    with django_assert_max_num_queries(DRAW_PAGE_BUDGET):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('class="table-card"') == 4 * players // 8


@pytest.mark.parametrize("players", [16, 96])
def test_public_round_budget(
    client: Client, players: int, django_assert_max_num_queries: Any
) -> None:
    event, _ = drawn_event(players)
    url = reverse("public-round", args=[event.club.slug, event.slug, 2])
    with django_assert_max_num_queries(PUBLIC_ROUND_BUDGET):
        response = client.get(url)
    assert response.status_code == 200
    event_url = reverse("public-event", args=[event.club.slug, event.slug])
    with django_assert_max_num_queries(PUBLIC_EVENT_BUDGET):
        assert client.get(event_url).status_code == 200


@pytest.mark.parametrize("players", [16, 96])
def test_api_rounds_budget(
    client: Client, players: int, django_assert_max_num_queries: Any
) -> None:
    event, organiser = drawn_event(players)
    client.force_login(organiser)
    with django_assert_max_num_queries(API_ROUNDS_BUDGET):
        response = client.get(f"/api/v1/events/{event.pk}/rounds/")
    assert len(response.json()) == 4
