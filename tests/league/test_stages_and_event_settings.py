"""An event with stages: its round count is the stages' (the event form cannot make them
disagree), and a rebuild leaves no stage rows of an event without released games."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from league.errors import UserError
from league.events.services import update_event
from league.models import Event
from league.stages import services
from results.models import StageStanding
from results.services import rebuild_all
from tests.league.factories import ClubOrganiserFactory, EventFactory

pytestmark = pytest.mark.django_db

TWO_STAGES = [
    {"name": "qualifying", "rounds": 2},
    {"name": "final", "rounds": 2, "entry": {"top": 8}},
]


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club, rounds_count=3)


def test_the_event_form_cannot_change_the_rounds_of_an_event_with_stages(
    organiser: Any, event: Event
) -> None:
    services.set_stages(organiser, event, TWO_STAGES)
    event.refresh_from_db()
    assert event.rounds_count == 4
    with pytest.raises(UserError) as refused:
        update_event(organiser, event, rounds_count=6)
    assert (refused.value.code, refused.value.status) == ("rounds_by_stages", 409)
    event.refresh_from_db()
    assert event.rounds_count == 4
    # other settings still change, and an unchanged round count is no change
    update_event(organiser, event, name="Spring Final", rounds_count=4)
    event.refresh_from_db()
    assert event.name == "Spring Final"


def test_without_stages_the_round_count_changes_as_before(organiser: Any, event: Event) -> None:
    update_event(organiser, event, rounds_count=5)
    event.refresh_from_db()
    assert event.rounds_count == 5


def test_a_rebuild_drops_stage_rows_of_an_event_without_released_games(event: Event) -> None:
    StageStanding.objects.create(
        event=event,
        stage=0,
        position=1,
        handle="left-over",
        rank=1,
        points=1,
        stage_points=1,
        games=1,
    )
    rebuild_all(ratings=False)
    assert not StageStanding.objects.filter(event=event).exists()


def test_the_public_event_page_leads_to_the_standings_of_each_stage_and_the_final_table(
    client: Any, organiser: Any, event: Event
) -> None:
    services.set_stages(organiser, event, [*TWO_STAGES[:1], {**TWO_STAGES[1], "seating": "final"}])
    Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION)
    page = client.get(reverse("public-event", args=[event.club.slug, event.slug]))
    html = page.content.decode()
    for target in (
        reverse("results:standings", args=[event.club.slug, event.slug]),
        reverse("results:stage-standings", args=[event.club.slug, event.slug, 0]),
        reverse("results:stage-standings", args=[event.club.slug, event.slug, 1]),
        reverse("results:final-table", args=[event.club.slug, event.slug]),
    ):
        assert f'href="{target}"' in html, target


def test_a_stage_name_with_a_control_character_is_refused(organiser: Any, event: Event) -> None:
    with pytest.raises(UserError) as refused:
        services.set_stages(organiser, event, [{"name": "qual\x00ifying", "rounds": 2}])
    assert refused.value.code == "stages"
    assert [p["code"] for p in refused.value.params["problems"]] == ["name"]


def test_stages_that_swap_names_are_saved(organiser: Any, event: Event) -> None:
    """Names move between positions through a temporary name PostgreSQL accepts."""
    services.set_stages(organiser, event, TWO_STAGES)
    swapped = [{**TWO_STAGES[0], "name": "final"}, {**TWO_STAGES[1], "name": "qualifying"}]
    services.set_stages(organiser, event, swapped)
    assert list(event.stages.order_by("position").values_list("name", flat=True)) == [
        "final",
        "qualifying",
    ]
