"""Stage-aware draws: a draw stays within one stage, a later stage is drawn after its cut
and among its entrants, a final table is seated by its design; the seat plan."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.draws import services as draw_services
from league.draws.final_table import draw_final_table
from league.errors import UserError
from league.models import AuditEntry, DrawJob, Event, Round, Seat
from league.stages import services as stage_services
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    UserFactory,
    registered_players,
)

pytestmark = pytest.mark.django_db

STAGES = [
    {"name": "qualifying", "rounds": 2},
    {"name": "semi-final", "rounds": 2, "entry": {"top": 16}},
    {"name": "final", "rounds": 4, "entry": {"top": 8}, "seating": "final"},
]


def refused(code: str, status: int = 400) -> Any:
    return pytest.raises(UserError, check=lambda e: (e.code, e.status) == (code, status))


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    event = EventFactory(club=organiser.organised_clubs.get().club, rounds_count=2)
    stage_services.set_stages(organiser, event, STAGES)
    event.refresh_from_db()
    return event


def draw(actor: Any, event: Event, capture: Any, **kwargs: Any) -> DrawJob:
    with capture(execute=True):
        job = draw_services.request_draw(actor, event, **kwargs)
    job.refresh_from_db()
    return job


def release_through(organiser: Any, event: Event, last: int) -> None:
    for rnd in event.rounds.filter(number__lte=last).exclude(status="released"):
        if rnd.status == "draft":
            draw_services.confirm_round(organiser, rnd)
        draw_services.release_round(organiser, rnd)


def seated(event: Event, number: int) -> list[list[int]]:
    rnd = event.rounds.get(number=number)
    return [[s.player_id for s in t.seats.order_by("number")] for t in rnd.tables.all()]


def test_a_draw_stays_within_its_stage(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 24)
    with refused("stage_boundary"):
        draw_services.request_draw(organiser, event, from_round=1, to_round=3)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    assert (job.from_round, job.to_round, job.status) == (1, 2, "done")
    assert set(
        Round.objects.filter(event=event).exclude(status="none").values_list("number", flat=True)
    ) == {1, 2}


def test_a_later_stage_waits_for_its_cut_then_seats_only_its_entrants(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 24)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    release_through(organiser, event, 2)
    with refused("cut_needed", 409) as info:
        draw_services.request_draw(organiser, event, from_round=3)
    assert "semi-final" in info.value.message
    top = [p.pk for p in players[5:21]]
    stage_services.confirm_cut(organiser, event, 1, top)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=3)
    assert (job.from_round, job.to_round, job.status) == (3, 4, "done"), job.error
    for number in (3, 4):
        assert sorted(p for t in seated(event, number) for p in t) == sorted(top)
    # the earlier rounds are as they were
    assert sorted(p for t in seated(event, 1) for p in t) == sorted(p.pk for p in players)
    with refused("final_table", 409):
        draw_services.request_draw(organiser, event, from_round=5)


def test_final_table_by_the_design(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 24)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    release_through(organiser, event, 2)
    stage_services.confirm_cut(organiser, event, 1, [p.pk for p in players[:16]])
    with refused("cut_needed", 409):
        draw_final_table(organiser, event, 2, seed=3)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=3)
    with refused("cut_needed", 409):
        draw_final_table(organiser, event, 2, seed=3)
    release_through(organiser, event, 4)
    final = [p.pk for p in players[:8]]
    stage_services.confirm_cut(organiser, event, 2, final)
    with refused("not_allowed", 403):
        draw_final_table(UserFactory(), event, 2)
    with refused("not_final", 409):
        draw_final_table(organiser, event, 1)
    design = draw_final_table(organiser, event, 2, seed=3)
    games = [seated(event, n) for n in range(5, 9)]
    assert all(len(g) == 1 and sorted(g[0]) == sorted(final) for g in games)
    assert [list(map(int, g)) for g in design.games] == [g[0] for g in games]
    assert all(Round.objects.get(event=event, number=n).status == "draft" for n in range(5, 9))
    # nobody in the same seat twice (4 games ≤ 8 players)
    for player in final:
        seats = [g[0].index(player) for g in games]
        assert len(set(seats)) == len(seats)
    # no pair neighbours more often than ⌈2g/(n−1)⌉
    together: Counter[frozenset[int]] = Counter()
    for g in games:
        table = g[0]
        for i, p in enumerate(table):
            together[frozenset((p, table[(i + 1) % len(table)]))] += 1
    assert max(together.values()) <= math.ceil(2 * 4 / 7)
    entry = AuditEntry.objects.get(action="draw.final_table")
    assert entry.data["seed"] == 3 and entry.data["players"] == final
    # seated again (a draft), not after a release
    draw_final_table(organiser, event, 2, seed=4)
    assert Seat.objects.filter(round__event=event, round__number=5).count() == 8
    release_through(organiser, event, 5)
    with refused("released", 409):
        draw_final_table(organiser, event, 2, seed=5)


def test_final_table_must_be_one_table(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = EventFactory(club=organiser.organised_clubs.get().club, rounds_count=2)
    stage_services.set_stages(
        organiser,
        event,
        [
            {"name": "q", "rounds": 1},
            {"name": "f", "rounds": 2, "entry": "all", "seating": "final"},
        ],
    )
    players = registered_players(event, 16)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    release_through(organiser, event, 1)
    stage_services.confirm_cut(organiser, event, 1, [p.pk for p in players])
    with refused("final_size", 409) as info:
        draw_final_table(organiser, event, 1)
    assert info.value.params["n"] == 16


def test_seat_plan_page(
    organiser: Any, event: Event, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 16)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    release_through(organiser, event, 2)
    stage_services.confirm_cut(organiser, event, 1, [p.pk for p in players])
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=3)
    release_through(organiser, event, 4)
    stage_services.confirm_cut(organiser, event, 2, [p.pk for p in players[:8]])
    url = reverse("stage-seat-plan", args=[event.pk, 2])
    client.force_login(organiser)
    empty = client.get(url)
    assert empty.status_code == 200
    draw_final_table(organiser, event, 2, seed=1)
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    for p in players[:8]:
        assert text.count(p.display_name) == 4  # once a game
    assert players[9].display_name not in text
    client.force_login(UserFactory())
    assert client.get(url).status_code in (403, 404)
    client.force_login(organiser)
    assert client.get(reverse("stage-seat-plan", args=[event.pk, 1])).status_code == 404


def to_the_final(organiser: Any, event: Event, capture: Any) -> list[Any]:
    players = registered_players(event, 16)
    draw(organiser, event, capture, from_round=1)
    release_through(organiser, event, 2)
    stage_services.confirm_cut(organiser, event, 1, [p.pk for p in players])
    draw(organiser, event, capture, from_round=3)
    release_through(organiser, event, 4)
    stage_services.confirm_cut(organiser, event, 2, [p.pk for p in players[:8]])
    return players


def test_draw_page_per_stage(
    organiser: Any, event: Event, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(organiser)
    url = reverse("event-draw", args=[event.pk])
    registered_players(event, 16)
    text = client.get(url).content.decode()
    assert 'id="stages"' in text and "draw-stage-0" in text
    assert text.count("its cut is not confirmed") == 2
    # the stage's button draws exactly that stage
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("draw-start", args=[event.pk]),
            {"from_round": 1, "to_round": 2, "checked_in_only": "on"},
        )
    assert response.status_code == 302
    assert DrawJob.objects.get().to_round == 2
    # a draw across the boundary is refused with the stage's name
    response = client.post(
        reverse("draw-start", args=[event.pk]), {"from_round": 1, "to_round": 4}, follow=True
    )
    assert "“qualifying” ends with round 2" in response.content.decode()


def test_final_table_from_the_draw_page(
    organiser: Any, event: Event, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    to_the_final(organiser, event, django_capture_on_commit_callbacks)
    client.force_login(organiser)
    text = client.get(reverse("event-draw", args=[event.pk])).content.decode()
    assert "final-table-form" in text and "data-confirm" in text and "8 players" in text
    response = client.post(reverse("draw-final-table", args=[event.pk, 2]), {"seed": "7"})
    assert response.status_code == 302
    assert Seat.objects.filter(round__event=event, round__number__gte=5).count() == 32
    assert AuditEntry.objects.get(action="draw.final_table").data["seed"] == 7
    client.force_login(UserFactory())
    assert client.post(reverse("draw-final-table", args=[event.pk, 2])).status_code == 403


def test_final_table_through_the_api(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = to_the_final(organiser, event, django_capture_on_commit_callbacks)
    url = f"/api/v1/events/{event.pk}/stages/2/final-table/"
    api = APIClient()
    api.force_authenticate(UserFactory())
    assert api.post(url, {}, format="json").status_code == 403
    api.force_authenticate(organiser)
    assert api.post(url, {"seed": -1}, format="json").status_code == 400
    wrong = api.post(f"/api/v1/events/{event.pk}/stages/1/final-table/", {}, format="json")
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_final"
    done = api.post(url, {"seed": 11}, format="json")
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["seed"] == 11 and body["first_round"] == 5 and len(body["games"]) == 4
    assert all(sorted(g) == sorted(p.pk for p in players[:8]) for g in body["games"])
    assert body["games"] == [seated(event, n)[0] for n in range(5, 9)]
    assert body["max_neighbours"] <= body["bound"]
