"""Stages, the organiser's side: the list (validation, what protects recorded play, the
round count), the cut, the finish, their pages and their API."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.errors import UserError
from league.models import AuditEntry, Event, Round, Stage
from league.stages import services
from league.stages.selectors import event_stages
from league.stages.signals import stages_changed
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    UserFactory,
    lay_out,
    registered_players,
)

pytestmark = pytest.mark.django_db

QUALI_SEMI_FINAL = [
    {"name": "qualifying", "rounds": 3},
    {"name": "semi-final", "rounds": 2, "entry": {"top": 20}, "multiplier": "1.5"},
    {
        "name": "final",
        "rounds": 4,
        "entry": {"top": 10},
        "carry": "0",
        "hidden": True,
        "seating": "final",
    },
]


def refused(code: str, status: int = 400) -> Any:
    return pytest.raises(UserError, check=lambda e: (e.code, e.status) == (code, status))


def problems(err: UserError) -> list[str]:
    return [p["code"] for p in err.params.get("problems", [])]


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club, rounds_count=3)


def release(event: Event, numbers: range, players: list[Any], per_table: int = 8) -> None:
    for n in numbers:
        lay_out(
            Round.objects.get(event=event, number=n),
            players,
            per_table=per_table,
            status="released",
        )


# --- set_stages --------------------------------------------------------------------------


def test_set_stages_writes_the_rows_and_the_rounds(organiser: Any, event: Event) -> None:
    saved = services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    assert [s.name for s in saved] == ["qualifying", "semi-final", "final"]
    event.refresh_from_db()
    assert event.rounds_count == 9
    assert list(event.rounds.values_list("number", flat=True)) == list(range(1, 10))
    plans = event_stages(event)
    assert [(p.first_round, p.last_round) for p in plans] == [(1, 3), (4, 5), (6, 9)]
    assert plans[1].entry_top == 20 and str(plans[1].multiplier) == "1.500"
    assert plans[2].hidden and plans[2].seating == "final" and plans[2].carry == 0
    entry = AuditEntry.objects.get(action="stage.set")
    assert entry.data["rounds_after"] == 9 and entry.data["rounds_before"] == 3
    # shorter again: the undrawn rounds go
    services.set_stages(organiser, event, QUALI_SEMI_FINAL[:2])
    event.refresh_from_db()
    assert event.rounds_count == 5 and event.rounds.count() == 5
    assert Stage.objects.filter(event=event).count() == 2


def test_set_stages_reports_every_problem(organiser: Any, event: Event) -> None:
    bad = [
        {"name": "", "rounds": 0},
        {"name": "x" * 61, "rounds": 2, "entry": {"top": 1}, "multiplier": "0"},
        {"name": "b", "rounds": 2, "entry": "some", "carry": "-1", "seating": "round"},
        {"name": "c", "rounds": 2, "multipler": "2"},
        {"name": "B", "rounds": 1},
        {"name": "b ", "rounds": 1},
    ]
    with refused("stages") as info:
        services.set_stages(organiser, event, bad)
    codes = problems(info.value)
    for code in ("name", "rounds", "entry_top", "multiplier", "entry", "carry", "seating"):
        assert code in codes
    assert "unknown_fields" in codes and "names_unique" in codes
    assert not Stage.objects.exists()


def test_first_stage_takes_everyone_or_listed_players(organiser: Any, event: Event) -> None:
    with refused("stages") as info:
        services.set_stages(organiser, event, [{"name": "a", "rounds": 2, "entry": {"top": 8}}])
    assert problems(info.value) == ["first_entry"]
    with refused("stages") as info:
        services.set_stages(
            organiser, event, [{"name": "a", "rounds": 2, "entry": {"players": [999999]}}]
        )
    assert problems(info.value) == ["entry_unknown"]


def test_bounds_of_the_list(organiser: Any, event: Event) -> None:
    with refused("stages_count"):
        services.set_stages(organiser, event, [])
    with refused("stages_count"):
        services.set_stages(organiser, event, [{"name": f"s{i}", "rounds": 1} for i in range(11)])
    with refused("stages") as info:
        services.set_stages(
            organiser, event, [{"name": "a", "rounds": 20}, {"name": "b", "rounds": 11}]
        )
    assert problems(info.value) == ["rounds_total"]
    with refused("stages") as info:
        services.set_stages(
            organiser,
            event,
            [
                {"name": "a", "rounds": 2},
                {"name": "f", "rounds": 2, "entry": {"top": 20}, "seating": "final"},
            ],
        )
    assert problems(info.value) == ["final_size"]


def test_only_organisers_set_stages(event: Event) -> None:
    with refused("not_allowed", 403):
        services.set_stages(UserFactory(), event, QUALI_SEMI_FINAL)


def test_drawn_stage_keeps_its_rounds_but_scoring_may_change(organiser: Any, event: Event) -> None:
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    players = registered_players(event, 16)
    release(event, range(1, 2), players)
    shorter = [dict(QUALI_SEMI_FINAL[0], rounds=2), *QUALI_SEMI_FINAL[1:]]
    with refused("stage_rounds", 409):
        services.set_stages(organiser, event, shorter)
    with refused("stages_count"):
        services.set_stages(organiser, event, [])
    rescored = [dict(QUALI_SEMI_FINAL[0], multiplier="2", name="heats"), *QUALI_SEMI_FINAL[1:]]
    services.set_stages(organiser, event, rescored)
    assert Stage.objects.get(event=event, position=0).name == "heats"
    with refused("stage_seating", 409):
        services.set_stages(organiser, event, [dict(rescored[0], seating="final")])


def test_a_drawn_stage_cannot_be_removed(organiser: Any, event: Event) -> None:
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    players = registered_players(event, 16)
    release(event, range(1, 4), players)
    services.confirm_cut(organiser, event, 1, [p.pk for p in players])
    lay_out(Round.objects.get(event=event, number=4), players[:8], status="draft")
    with refused("stage_kept", 409):
        services.set_stages(organiser, event, QUALI_SEMI_FINAL[:1])
    with refused("stage_entry", 409):
        services.set_stages(
            organiser,
            event,
            [
                QUALI_SEMI_FINAL[0],
                dict(QUALI_SEMI_FINAL[1], entry={"top": 12}),
                QUALI_SEMI_FINAL[2],
            ],
        )


def test_default_stage_may_become_stages_after_drawing(organiser: Any) -> None:
    event = EventFactory(club=organiser.organised_clubs.get().club, rounds_count=9)
    players = registered_players(event, 16)
    release(event, range(1, 3), players)
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    event.refresh_from_db()
    assert event.rounds_count == 9


# --- the cut ---------------------------------------------------------------------------


@pytest.fixture
def staged(organiser: Any, event: Event) -> tuple[Event, list[Any]]:
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    players = registered_players(event, 24)
    return event, players


def test_confirm_cut_freezes_the_entrants(organiser: Any, staged: Any) -> None:
    event, players = staged
    release(event, range(1, 4), players)
    top = [p.pk for p in reversed(players[4:])]
    sent: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        sent.append(kwargs)

    stages_changed.connect(listen)
    try:
        with pytest.raises(UserError) as info:
            services.confirm_cut(organiser, event, 1, top[:19])
        assert info.value.code == "entry_count" and info.value.params["n"] == 20
        stage = services.confirm_cut(organiser, event, 1, top)
    finally:
        stages_changed.disconnect(listen)
    assert stage.entrants == top and stage.cut_confirmed_by == organiser
    plans = event_stages(event)
    assert plans[1].entrants == tuple(top) and plans[0].finished
    entry = AuditEntry.objects.get(action="stage.cut")
    assert entry.data["entrants"] == top and entry.data["position"] == 1
    assert any(s.get("action") == "stage.cut" for s in sent) or sent == []  # on_commit
    with refused("cut_confirmed", 409):
        services.confirm_cut(organiser, event, 1, top)


def test_confirm_cut_refusals(organiser: Any, staged: Any) -> None:
    event, players = staged
    ids = [p.pk for p in players]
    release(event, range(1, 3), players)
    with refused("previous_not_released", 409):
        services.confirm_cut(organiser, event, 1, ids[:20])
    release(event, range(3, 4), players)
    with refused("first_stage"):
        services.confirm_cut(organiser, event, 0, ids[:20])
    with refused("no_stage", 404):
        services.confirm_cut(organiser, event, 5, ids[:20])
    with refused("duplicates"):
        services.confirm_cut(organiser, event, 1, ids[:19] + ids[:1])
    stranger = registered_players(event, 1)[0]  # registered but never seated
    with refused("not_in_field"):
        services.confirm_cut(organiser, event, 1, [*ids[:19], stranger.pk])
    with refused("previous_not_released", 409):
        services.confirm_cut(organiser, event, 2, ids[:10])
    with refused("not_allowed", 403):
        services.confirm_cut(UserFactory(), event, 1, ids[:20])
    services.confirm_cut(organiser, event, 1, ids[:20])


def test_top_n_of_a_small_field_takes_everyone(organiser: Any, event: Event) -> None:
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    players = registered_players(event, 16)
    release(event, range(1, 4), players)
    with refused("entry_count"):
        services.confirm_cut(organiser, event, 1, [p.pk for p in players[:15]])
    services.confirm_cut(organiser, event, 1, [p.pk for p in players])


def test_reopen_cut_only_before_the_draw(organiser: Any, staged: Any) -> None:
    event, players = staged
    ids = [p.pk for p in players]
    release(event, range(1, 4), players)
    services.confirm_cut(organiser, event, 1, ids[:20])
    services.reopen_cut(organiser, event, 1)
    assert event_stages(event)[1].entrants is None
    assert AuditEntry.objects.get(action="stage.cut_reopen").data["entrants"] == ids[:20]
    services.confirm_cut(organiser, event, 1, ids[4:])
    lay_out(Round.objects.get(event=event, number=4), players[4:], status="draft")
    with refused("stage_drawn", 409):
        services.reopen_cut(organiser, event, 1)


def test_finish_stage_after_its_rounds(organiser: Any, staged: Any) -> None:
    event, players = staged
    release(event, range(1, 3), players)
    with refused("not_released", 409):
        services.finish_stage(organiser, event, 0)
    release(event, range(3, 4), players)
    services.finish_stage(organiser, event, 0)
    assert event_stages(event)[0].finished
    assert AuditEntry.objects.filter(action="stage.finish").count() == 1
    with refused("finished", 409):
        services.finish_stage(organiser, event, 0)


# --- pages -----------------------------------------------------------------------------------


def formset_data(rows: list[dict[str, Any]], initial: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        "stages-TOTAL_FORMS": str(len(rows)),
        "stages-INITIAL_FORMS": str(initial),
        "stages-MIN_NUM_FORMS": "0",
        "stages-MAX_NUM_FORMS": "10",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            if value is True:
                data[f"stages-{i}-{key}"] = "on"
            elif value is not False:
                data[f"stages-{i}-{key}"] = str(value)
    return data


ROW = {"multiplier": "1", "carry": "1", "entry_kind": "all", "seating": "draw"}


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("organiser", 200),
        ("admin", 200),
        ("other_organiser", 403),
        ("staff", 403),
        ("referee", 403),
        ("player", 403),
        ("stranger", 403),
        ("anonymous", 302),
    ],
)
def test_stages_page_is_for_organisers(cast: Any, client: Any, role: str, status: int) -> None:
    user = cast.user(role)
    if user is not None:
        client.force_login(user)
    url = reverse("event-stages", args=[cast.event.pk])
    assert client.get(url).status_code == status
    response = client.post(url, formset_data([dict(ROW, name="one", rounds=3)]))
    assert response.status_code == (302 if status == 200 else status)
    assert Stage.objects.exists() == (status == 200)


def test_stages_page_missing_event_is_404(organiser: Any, client: Any) -> None:
    client.force_login(organiser)
    assert client.get(reverse("event-stages", args=[999999])).status_code == 404


def test_stages_page_default_row_then_the_list(organiser: Any, event: Event, client: Any) -> None:
    client.force_login(organiser)
    url = reverse("event-stages", args=[event.pk])
    page = client.get(url)
    text = page.content.decode()
    assert 'value="3 rounds"' in text and "no-stages" in text
    assert reverse("event-stages", args=[event.pk]) in text  # the nav's link
    rows = [
        dict(ROW, name="qualifying", rounds=3),
        dict(ROW, name="semi", rounds=2, entry_kind="top", entry_top=20, multiplier="1.5"),
        dict(
            ROW,
            name="final",
            rounds=4,
            entry_kind="top",
            entry_top=10,
            seating="final",
            hidden=True,
        ),
    ]
    response = client.post(url, formset_data(rows, initial=1))
    assert response.status_code == 302 and response["Location"] == url
    event.refresh_from_db()
    assert event.rounds_count == 9
    text = client.get(url).content.decode()
    assert "the best 20 of the standing" in text and "Seat plan" in text
    assert reverse("stage-seat-plan", args=[event.pk, 2]) in text
    # a row removed, one added
    rows[1]["DELETE"] = True
    rows.append(dict(ROW, name="extra", rounds=1))
    response = client.post(url, formset_data(rows, initial=3))
    assert response.status_code == 302
    assert list(Stage.objects.filter(event=event).values_list("name", flat=True)) == [
        "qualifying",
        "final",
        "extra",
    ]


def test_stages_page_shows_the_refusal_and_keeps_the_rows(
    organiser: Any, event: Event, client: Any
) -> None:
    client.force_login(organiser)
    url = reverse("event-stages", args=[event.pk])
    rows = [dict(ROW, name="a", rounds=20), dict(ROW, name="b", rounds=11)]
    response = client.post(url, formset_data(rows))
    assert response.status_code == 400
    text = response.content.decode()
    assert "stages-error" in text and "at most 30" in text and 'value="11"' in text
    assert not Stage.objects.exists()
    # a typing error stays beside its field
    response = client.post(url, formset_data([dict(ROW, name="a", rounds=2, entry_kind="top")]))
    assert response.status_code == 200 and "Say how many" in response.content.decode()
    response = client.post(
        url,
        formset_data(
            [dict(ROW, name="a", rounds=2, entry_kind="players", entry_players="nobody-here")]
        ),
    )
    assert "Not registered for this event: nobody-here" in response.content.decode()


def test_stages_page_lists_players_by_handle(organiser: Any, event: Event, client: Any) -> None:
    players = registered_players(event, 9)
    client.force_login(organiser)
    url = reverse("event-stages", args=[event.pk])
    handles = ", ".join(p.handle for p in players[:8])
    client.post(
        url,
        formset_data([dict(ROW, name="a", rounds=2, entry_kind="players", entry_players=handles)]),
    )
    assert event_stages(event)[0].entry_players == tuple(p.pk for p in players[:8])
    assert players[0].display_name in client.get(url).content.decode()


def test_cut_shown_then_reopened_and_stage_finished_from_the_page(
    organiser: Any, staged: Any, client: Any
) -> None:
    event, players = staged
    release(event, range(1, 4), players)
    client.force_login(organiser)
    url = reverse("event-stages", args=[event.pk])
    text = client.get(url).content.decode()
    assert "Not confirmed yet" in text and "finish-0" in text
    assert reverse("results:stage-cut", kwargs={"pk": event.pk, "position": 1}) in text
    assert 'id="cut-2"' not in text  # the semi-final is not released: no cut page yet
    services.confirm_cut(organiser, event, 1, [p.pk for p in players[:20]])
    text = client.get(url).content.decode()
    assert "Confirmed: 20 players" in text and text.index(players[0].display_name) < text.index(
        players[19].display_name
    )
    assert "finish-0" not in text  # the cut finished the qualifying
    response = client.post(reverse("stage-reopen-cut", args=[event.pk, 1]))
    assert response.status_code == 302 and event_stages(event)[1].entrants is None
    stranger = UserFactory()
    client.force_login(stranger)
    assert client.post(reverse("stage-finish", args=[event.pk, 1])).status_code == 403


# --- API -----------------------------------------------------------------------------------


def api_for(user: Any) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_api_reads_and_replaces_the_stages(organiser: Any, event: Event) -> None:
    url = f"/api/v1/events/{event.pk}/stages/"
    event.status = Event.Status.REGISTRATION
    event.save()
    default = api_for(None).get(url)
    assert default.status_code == 200
    assert [(s["name"], s["rounds"], s["entry"]) for s in default.json()] == [("main", 3, "all")]
    put = api_for(organiser).put(url, QUALI_SEMI_FINAL, format="json")
    assert put.status_code == 200, put.json()
    body = put.json()
    assert [s["name"] for s in body] == ["qualifying", "semi-final", "final"]
    assert body[1]["entry"] == {"top": 20} and body[1]["multiplier"] == "1.500"
    assert body[2]["first_round"] == 6 and body[2]["last_round"] == 9
    assert body[2]["seating"] == "final" and body[2]["hidden"] is True
    assert body[1]["entrants"] is None and body[1]["cut_confirmed"] is False
    wrapped = api_for(organiser).put(url, {"stages": QUALI_SEMI_FINAL[:2]}, format="json")
    assert wrapped.status_code == 200 and len(wrapped.json()) == 2
    event.refresh_from_db()
    assert event.rounds_count == 5


def test_api_refusals(organiser: Any, event: Event) -> None:
    url = f"/api/v1/events/{event.pk}/stages/"
    bad = api_for(organiser).put(
        url, [{"name": "a", "rounds": 40, "entry": {"top": 1}}], format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["code"] == "stages"
    assert {p["code"] for p in bad.json()["params"]["problems"]} == {
        "rounds",
        "first_entry",
        "entry_top",
    }
    shape = api_for(organiser).put(url, {"name": "a"}, format="json")
    assert shape.status_code == 400 and shape.json()["code"] == "stages_type"
    assert api_for(UserFactory()).put(url, QUALI_SEMI_FINAL, format="json").status_code == 403
    assert api_for(None).put(url, QUALI_SEMI_FINAL, format="json").status_code in (401, 403)
    assert not Stage.objects.exists()
    services.set_stages(organiser, event, QUALI_SEMI_FINAL)
    players = registered_players(event, 16)
    release(event, range(1, 2), players)
    drawn = api_for(organiser).put(url, [dict(QUALI_SEMI_FINAL[0], rounds=1)], format="json")
    assert drawn.status_code == 409 and drawn.json()["code"] == "stage_rounds"
    finish = api_for(organiser).post(f"{url}0/finish/")
    assert finish.status_code == 409 and finish.json()["code"] == "not_released"


def test_api_hides_a_draft_event(organiser: Any) -> None:
    event = EventFactory(club=organiser.organised_clubs.get().club, status=Event.Status.DRAFT)
    assert api_for(UserFactory()).get(f"/api/v1/events/{event.pk}/stages/").status_code == 404
    assert api_for(organiser).get(f"/api/v1/events/{event.pk}/stages/").status_code == 200


# --- the public page ----------------------------------------------------------------------


def test_public_event_page_lists_the_stages(organiser: Any, staged: Any, client: Any) -> None:
    event, players = staged
    url = reverse("public-event", args=[event.club.slug, event.slug])
    text = client.get(url).content.decode()
    assert 'id="stages"' in text and "semi-final" in text
    assert "the best 20 of the standing" in text and "cut not confirmed yet" in text
    assert "points ×1.5" in text and "one final table" in text
    release(event, range(1, 4), players)
    services.confirm_cut(organiser, event, 1, [p.pk for p in players[:20]])
    assert "cut confirmed" in client.get(url).content.decode()


def test_public_event_page_without_stages_has_no_block(event: Event, client: Any) -> None:
    url = reverse("public-event", args=[event.club.slug, event.slug])
    assert 'id="stages"' not in client.get(url).content.decode()
