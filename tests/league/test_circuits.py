"""Circuit profiles of a league (#19 item 3): created and versioned by the league's club's
organisers (services, pages, API), checked by the engine, audited; a season ranks by one
version of its own league's profiles; an event's circuit category must be one of its
season's circuit categories."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from league.audit import AuditEntry
from league.clubs import circuits, services
from league.clubs.models import CircuitProfile, League, Season
from league.errors import UserError
from league.events import services as event_services
from league.events.forms import EventForm
from league.events.models import Event
from tests.league.factories import ClubOrganiserFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db

PROFILE: dict[str, Any] = {
    "places": ["100", "80", "65"],
    "categories": {"club": "1", "open": "1.5"},
    "field": {"reference": 40, "min": "0.5", "max": "1.5"},
    "best": 3,
    "min_events": 2,
}


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def organiser_league() -> tuple[Any, League]:
    row = ClubOrganiserFactory()
    league = League.objects.create(club=row.club, name="City", slug=f"{row.club.slug}-city")
    return row.user, league


def season_of(league: League, circuit: CircuitProfile | None = None) -> Season:
    return Season.objects.create(
        league=league,
        name="2026",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        circuit=circuit,
    )


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def api_for(user: Any) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


# --- services ---------------------------------------------------------------------------------


def test_create_then_edit_makes_versions_that_never_change() -> None:
    user, league = organiser_league()
    v1 = circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    assert (v1.key, v1.data["best"], v1.data["places"]) == ("tour-v1", 3, ["100", "80", "65"])
    v2 = circuits.new_circuit_version(user, v1, data={**PROFILE, "best": None})
    assert v2.key == "tour-v2" and v2.data["best"] is None
    v1.refresh_from_db()
    assert v1.data["best"] == 3  # the old version is kept as it was
    # from an older version too: the next number after the newest
    v3 = circuits.new_circuit_version(user, v1, data={**PROFILE, "min_events": 1})
    assert v3.version == 3
    # the same profile again: nothing new
    assert circuits.new_circuit_version(user, v3, data={**PROFILE, "min_events": 1}).pk == v3.pk
    assert [c.key for c in circuits.league_circuits(league)] == ["tour-v3", "tour-v2", "tour-v1"]
    actions = list(
        AuditEntry.objects.filter(target_type="league.circuitprofile")
        .order_by("pk")
        .values_list("action", "data__key")
    )
    assert actions == [
        ("circuit.create", "tour-v1"),
        ("circuit.version", "tour-v2"),
        ("circuit.version", "tour-v3"),
    ]


def test_the_engine_refuses_a_bad_profile_with_a_400() -> None:
    user, league = organiser_league()
    with pytest.raises(UserError) as err:
        circuits.create_circuit(user, league, slug="tour", data={**PROFILE, "places": []})
    assert err.value.status == 400 and err.value.code == "circuit_profile"
    assert err.value.params["engine_code"] == "circuit.profile"
    assert err.value.params["engine_params"]["variant"] == "empty"
    assert "places" in err.value.message
    with pytest.raises(UserError) as err:
        circuits.create_circuit(user, league, slug="tour", data={**PROFILE, "best": 0})
    assert err.value.params["engine_params"]["variant"] == "too_small"
    with pytest.raises(UserError) as err:
        circuits.create_circuit(user, league, slug="Tour 1", data=PROFILE)
    assert err.value.code == "circuit.slug_invalid"
    circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    with pytest.raises(UserError) as err:
        circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    assert err.value.status == 409
    assert not CircuitProfile.objects.exclude(slug="tour").exists()


def test_only_the_leagues_organisers_make_profiles() -> None:
    user, league = organiser_league()
    v1 = circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    stranger = ClubOrganiserFactory().user  # organiser of another club
    for who in (stranger, UserFactory()):
        with pytest.raises(UserError) as err:
            circuits.create_circuit(who, league, slug="mine", data=PROFILE)
        assert err.value.status == 403
        with pytest.raises(UserError):
            circuits.new_circuit_version(who, v1, data={**PROFILE, "best": 1})
    assert CircuitProfile.objects.count() == 1


def test_a_season_ranks_by_a_version_of_its_own_league() -> None:
    user, league = organiser_league()
    v1 = circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    other_user, other = organiser_league()
    theirs = circuits.create_circuit(other_user, other, slug="tour", data=PROFILE)
    season = season_of(league)
    dates = {"name": "2026", "starts_on": season.starts_on, "ends_on": season.ends_on}
    with pytest.raises(UserError) as err:
        services.save_season(user, league, season=season, circuit=theirs, **dates)
    assert err.value.params["problems"][0]["code"] == "circuit.other_league"
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        services.save_season(user, league, season=season, circuit=v1, **dates)
    assert len(callbacks) == 1  # the circuit change announced after the commit
    season.refresh_from_db()
    assert season.circuit == v1
    entry = AuditEntry.objects.filter(action="season.update").latest("pk")
    assert entry.data["circuit"] == "tour-v1"
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        services.save_season(user, league, season=season, **{**dates, "name": "2026 again"})
    assert callbacks == []  # the circuit left as it was
    assert Season.objects.get(pk=season.pk).circuit == v1


# --- an event's circuit category ------------------------------------------------------------


def test_an_events_category_must_be_one_of_its_seasons_circuit() -> None:
    user, league = organiser_league()
    v1 = circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    season = season_of(league, v1)
    event = EventFactory(club=league.club, status=Event.Status.REGISTRATION)
    with pytest.raises(UserError) as err:
        event_services.update_event(user, event, season=season, circuit_category="major")
    assert err.value.code == "event_settings"
    message = err.value.message
    assert "major" in message and "club, open" in message and "tour-v1" in message
    event.refresh_from_db()
    assert event.season is None
    event_services.update_event(user, event, season=season, circuit_category="open")
    event.refresh_from_db()
    assert (event.season, event.circuit_category) == (season, "open")
    # a season without circuit takes any slug; never a non-slug
    plain = season_of(league)
    event_services.update_event(user, event, season=plain, circuit_category="major")
    with pytest.raises(UserError):
        event_services.update_event(user, event, circuit_category="Major Cup!")


def _event_form_data(event: Event, **changes: Any) -> dict[str, Any]:
    data = {k: v for k, v in EventForm.initial_for(event).items() if v is not None}
    data.update(
        {
            "round_minutes": 90,
            "referees": [],
            "first_round_at": "",
            "starts_on": event.starts_on.isoformat(),
            "ends_on": event.ends_on.isoformat(),
            **changes,
        }
    )
    return data


def test_the_event_form_and_api_take_the_category() -> None:
    user, league = organiser_league()
    season = season_of(league, circuits.create_circuit(user, league, slug="tour", data=PROFILE))
    event = EventFactory(club=league.club, status=Event.Status.REGISTRATION)
    c = client_for(user)
    url = reverse("event-edit", args=[event.pk])
    assert 'name="circuit_category"' in c.get(url).content.decode()
    refused = c.post(url, _event_form_data(event, season=season.pk, circuit_category="major"))
    assert refused.status_code in (200, 400)
    assert "club, open" in refused.content.decode()
    event.refresh_from_db()
    assert event.circuit_category == "club"
    ok = c.post(url, _event_form_data(event, season=season.pk, circuit_category="open"))
    assert ok.status_code == 302
    event.refresh_from_db()
    assert event.circuit_category == "open"
    api = api_for(user)
    bad = api.patch(f"/api/v1/events/{event.pk}/", {"circuit_category": "major"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["params"]["problems"][0]["code"] == "circuit_category"
    good = api.patch(f"/api/v1/events/{event.pk}/", {"circuit_category": "club"}, format="json")
    assert good.status_code == 200 and good.json()["circuit_category"] == "club"


# --- pages --------------------------------------------------------------------------------------


FORM = {
    "slug": "tour",
    "places": "100, 80\n65",
    "categories": "club=1\nopen=1.5",
    "field_reference": "40",
    "field_min": "0.5",
    "field_max": "1.5",
    "best": "3",
    "min_events": "2",
}


def test_the_pages_create_a_profile_and_its_next_version() -> None:
    user, league = organiser_league()
    c = client_for(user)
    club_page = c.get(reverse("club-leagues", args=[league.club.slug])).content.decode()
    assert reverse("circuit-create", args=[league.slug]) in club_page
    response = c.post(reverse("circuit-create", args=[league.slug]), FORM)
    assert response.status_code == 302
    v1 = CircuitProfile.objects.get(league=league)
    assert v1.data == {**PROFILE, "places": ["100", "80", "65"]}
    edit = reverse("circuit-edit", args=[league.slug, "tour"])
    assert edit in c.get(reverse("club-leagues", args=[league.club.slug])).content.decode()
    page = c.get(edit).content.decode()
    assert "tour-v1" in page and "100, 80, 65" in page
    response = c.post(edit, {**FORM, "best": ""})
    assert response.status_code == 302 and response["Location"] == edit
    page = c.get(edit).content.decode()
    assert "tour-v2" in page and "tour-v1" in page  # both versions listed
    assert CircuitProfile.objects.get(slug="tour", version=2).data["best"] is None
    # the engine's refusal, shown in the form with what was typed
    bad = c.post(edit, {**FORM, "field_min": "2", "field_max": "1"})
    assert bad.status_code == 400
    assert "field.min" in bad.content.decode()
    assert CircuitProfile.objects.count() == 2
    bad = c.post(edit, {**FORM, "categories": "club"})
    assert bad.status_code == 400 and "name=weight" in bad.content.decode()


def test_the_profile_pages_are_the_organisers_only() -> None:
    user, league = organiser_league()
    circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    stranger = client_for(ClubOrganiserFactory().user)
    assert stranger.get(reverse("circuit-create", args=[league.slug])).status_code == 403
    assert stranger.post(reverse("circuit-create", args=[league.slug]), FORM).status_code == 403
    edit = reverse("circuit-edit", args=[league.slug, "tour"])
    assert stranger.post(edit, {**FORM, "best": "1"}).status_code == 403
    assert client_for(user).get(reverse("circuit-edit", args=[league.slug, "x"])).status_code == 404
    assert CircuitProfile.objects.count() == 1


def test_the_season_form_offers_the_leagues_versions() -> None:
    user, league = organiser_league()
    v1 = circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    other_user, other = organiser_league()
    theirs = circuits.create_circuit(other_user, other, slug="elsewhere", data=PROFILE)
    season = season_of(league)
    c = client_for(user)
    url = reverse("season-edit", args=[league.slug, season.pk])
    page = c.get(url).content.decode()
    assert "tour-v1" in page and "elsewhere" not in page
    data = {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"}
    assert c.post(url, {**data, "circuit": theirs.pk}).status_code == 200  # not a choice
    assert c.post(url, {**data, "circuit": v1.pk}).status_code == 302
    season.refresh_from_db()
    assert season.circuit == v1
    assert "tour-v1" in c.get(reverse("club-leagues", args=[league.club.slug])).content.decode()
    assert c.post(url, {**data, "circuit": ""}).status_code == 302
    season.refresh_from_db()
    assert season.circuit is None


# --- API --------------------------------------------------------------------------------------


def test_the_api_reads_creates_and_versions_profiles() -> None:
    user, league = organiser_league()
    api = api_for(user)
    url = f"/api/v1/leagues/{league.slug}/circuits/"
    made = api.post(url, {"slug": "tour", "profile": PROFILE}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["key"] == "tour-v1" and made.json()["profile"]["best"] == 3
    bad = api.post(url, {"slug": "cup", "profile": {**PROFILE, "places": "100"}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["params"]["engine_params"]["variant"] == "type"
    assert api.post(url, {"slug": "tour", "profile": PROFILE}, format="json").status_code == 409
    nxt = api.post(f"{url}tour/", {"profile": {**PROFILE, "best": 2}}, format="json")
    assert nxt.status_code == 201 and nxt.json()["key"] == "tour-v2"
    same = api.post(f"{url}tour/", {"profile": {**PROFILE, "best": 2}}, format="json")
    assert same.status_code == 200 and same.json()["key"] == "tour-v2"
    anyone = api_for(None)
    assert [p["key"] for p in anyone.get(url).json()] == ["tour-v2", "tour-v1"]
    assert anyone.get(f"{url}tour-v1/").json()["profile"]["best"] == 3
    assert anyone.get(f"{url}tour/").json()["key"] == "tour-v2"
    assert anyone.get(f"{url}nope-v9/").status_code == 404
    assert anyone.get(f"{url}tour-v9/").status_code == 404
    assert anyone.post(url, {"slug": "x", "profile": PROFILE}, format="json").status_code in (
        401,
        403,
    )
    stranger = api_for(ClubOrganiserFactory().user)
    assert stranger.post(url, {"slug": "x", "profile": PROFILE}, format="json").status_code == 403


def test_the_season_api_sets_and_shows_the_circuit() -> None:
    user, league = organiser_league()
    circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    api = api_for(user)
    made = api.post(
        "/api/v1/seasons/",
        {
            "league": league.slug,
            "name": "2026",
            "starts_on": "2026-01-01",
            "ends_on": "2026-12-31",
            "circuit": "tour-v1",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["circuit"] == "tour-v1"
    pk = made.json()["id"]
    wrong = api.patch(f"/api/v1/seasons/{pk}/", {"circuit": "tour-v7"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "circuit.unknown"
    assert api.patch(f"/api/v1/seasons/{pk}/", {"name": "S"}, format="json").json()["circuit"] == (
        "tour-v1"
    )
    cleared = api.patch(f"/api/v1/seasons/{pk}/", {"circuit": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["circuit"] is None
    seasons = api_for(None).get(f"/api/v1/leagues/{league.slug}/").json()["seasons"]
    assert seasons[0]["circuit"] is None


def test_the_profile_form_writes_decimals_in_the_readers_notation() -> None:
    user, league = organiser_league()
    circuits.create_circuit(user, league, slug="tour", data=PROFILE)
    c = client_for(user)
    edit = reverse("circuit-edit", args=[league.slug, "tour"])
    page = c.get(edit, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'value="0,5"' in page and 'value="1,5"' in page
    response = c.post(edit, {**FORM, "field_min": "0,25"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    assert CircuitProfile.objects.get(version=2).data["field"]["min"] == "0.25"
