"""Clubs on the site (#18): any verified user creates a club and organises it; its
organisers edit it (a time zone Python knows: pages, API and admin refuse others), remove
people (never the last organiser), run its leagues and seasons; an event is put in a
season (form and API) and the season's and league's rankings follow; players are claimed
and approved; a linked player edits their profile."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.admin import ClubAdminForm
from league.audit import AuditEntry
from league.clubs import invitations as inv
from league.clubs import services
from league.clubs.models import Club, ClubOrganiser, League, PlayerClaim, Season
from league.clubs.profiles import preferred_language
from league.clubs.timezones import validate_timezone
from league.errors import UserError
from league.events.forms import EventForm
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    MembershipFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
)
from tests.results.factories import played_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user: Any) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def api_for(user: Any) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def organiser_and_club() -> tuple[Any, Club]:
    row = ClubOrganiserFactory()
    return row.user, row.club


CLUB = {"name": "Harbour Mahjong", "slug": "", "city": "Porto", "description": "Thursdays."}


# --- creating and editing a club ------------------------------------------------------------


def test_organisers_find_the_merge_page_from_their_home() -> None:
    user, _club = organiser_and_club()
    merge = reverse("games:merge-players")
    assert merge in client_for(user).get("/manage/").content.decode()
    assert merge not in client_for(UserFactory()).get("/manage/").content.decode()


def test_a_verified_user_creates_a_club_on_the_site_and_organises_it() -> None:
    user = UserFactory()
    c = client_for(user)
    home = c.get("/manage/")
    assert reverse("club-create") in home.content.decode()
    assert c.get(reverse("club-create")).status_code == 200
    response = c.post(reverse("club-create"), {**CLUB, "timezone": "Europe/Lisbon"})
    assert response.status_code == 302
    club = Club.objects.get(slug="harbour-mahjong")
    assert (club.city, club.description, club.timezone) == ("Porto", "Thursdays.", "Europe/Lisbon")
    assert ClubOrganiser.objects.filter(club=club, user=user).exists()
    assert AuditEntry.objects.filter(action="club.create", actor=user).exists()
    assert c.get(reverse("club-people", args=[club.slug])).status_code == 200


def test_an_unverified_or_anonymous_visitor_creates_no_club() -> None:
    response = Client().get(reverse("club-create"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    sleeper = UserFactory(is_active=False)
    with pytest.raises(UserError) as e:
        services.create_club(sleeper, name="Night club")
    assert e.value.code == "not_allowed"
    assert api_for(None).post("/api/v1/clubs/", {"name": "X"}, format="json").status_code in (
        401,
        403,
    )
    assert not Club.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_organiser"])
def test_only_the_clubs_organisers_edit_it(who: str) -> None:
    _organiser, club = organiser_and_club()
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "other_organiser": ClubOrganiserFactory().user,
    }[who]
    data = {"name": "Taken over", "slug": club.slug, "timezone": "UTC"}
    response = client_for(user).post(reverse("club-edit", args=[club.slug]), data)
    assert response.status_code == (302 if who == "anonymous" else 403)
    api = api_for(user).patch(f"/api/v1/clubs/{club.slug}/", {"name": "Taken"}, format="json")
    assert api.status_code in (401, 403)
    for page in ("club-people", "club-leagues", "club-edit"):
        assert client_for(user).get(reverse(page, args=[club.slug])).status_code in (302, 403)
    club.refresh_from_db()
    assert club.name != "Taken over"


def test_the_organiser_edits_the_club() -> None:
    organiser, club = organiser_and_club()
    data = {"name": "New name", "slug": club.slug, "city": "Lyon", "timezone": "Europe/Paris"}
    response = client_for(organiser).post(reverse("club-edit", args=[club.slug]), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.city, club.timezone) == ("New name", "Lyon", "Europe/Paris")
    assert AuditEntry.objects.filter(action="club.update").exists()
    kept = client_for(organiser).post(
        reverse("club-edit", args=[club.slug]), {**data, "slug": "", "city": "Nice"}
    )
    assert kept.status_code == 302  # an emptied address keeps the club's
    club.refresh_from_db()
    assert (club.slug, club.city) == (data["slug"], "Nice")


# --- the time zone --------------------------------------------------------------------------


def test_an_unknown_time_zone_is_refused_by_the_validator_form_admin_and_api() -> None:
    with pytest.raises(ValidationError):
        validate_timezone("Europe/Valenca")
    validate_timezone("Europe/Lisbon")
    organiser, club = organiser_and_club()
    page = client_for(organiser).post(
        reverse("club-edit", args=[club.slug]),
        {"name": club.name, "slug": club.slug, "timezone": "Europe/Valenca"},
    )
    assert page.status_code == 200 and "has-error" in page.content.decode()
    admin_form = ClubAdminForm(
        data={"name": "A", "slug": "a", "timezone": "Europe/Valenca"}, instance=Club()
    )
    assert not admin_form.is_valid() and "timezone" in admin_form.errors
    assert ClubAdminForm(data={"name": "A", "slug": "a", "timezone": "Asia/Shanghai"}).is_valid()
    model = Club(name="B", slug="b", timezone="Europe/Valenca")
    with pytest.raises(ValidationError):
        model.full_clean()
    api = api_for(organiser).patch(
        f"/api/v1/clubs/{club.slug}/", {"timezone": "Europe/Valenca"}, format="json"
    )
    assert api.status_code == 400
    body = api.json()
    assert body["code"] == "club"
    assert [p["code"] for p in body["params"]["problems"]] == ["club.timezone_invalid"]
    created = api_for(UserFactory()).post(
        "/api/v1/clubs/", {"name": "C", "timezone": "Mars/Olympus"}, format="json"
    )
    assert created.status_code == 400
    club.refresh_from_db()
    assert club.timezone == "UTC"


def test_admin_club_page_refuses_an_unknown_time_zone() -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    c = client_for(admin)
    response = c.post(
        "/admin/league/club/add/",
        {
            "name": "Valenca",
            "slug": "valenca",
            "timezone": "Europe/Valenca",
            "organisers-TOTAL_FORMS": "0",
            "organisers-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200
    assert not Club.objects.filter(slug="valenca").exists()


# --- the API --------------------------------------------------------------------------------


def test_api_creates_a_club_whose_creator_organises_it_and_patches_it() -> None:
    user = UserFactory()
    api = api_for(user)
    response = api.post(
        "/api/v1/clubs/", {"name": "Tea House", "timezone": "Asia/Shanghai"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["slug"] == "tea-house"
    assert ClubOrganiser.objects.filter(club__slug="tea-house", user=user).exists()
    again = api.post("/api/v1/clubs/", {"name": "Tea House"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "slug_taken"
    patched = api.patch("/api/v1/clubs/tea-house/", {"city": "Chengdu"}, format="json")
    assert patched.status_code == 200 and patched.json()["city"] == "Chengdu"


def test_api_leagues_and_seasons_for_the_clubs_organisers_only() -> None:
    organiser, club = organiser_and_club()
    api = api_for(organiser)
    league = api.post("/api/v1/leagues/", {"club": club.slug, "name": "City"}, format="json")
    assert league.status_code == 201, league.json()
    slug = league.json()["slug"]
    season = api.post(
        "/api/v1/seasons/",
        {"league": slug, "name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
        format="json",
    )
    assert season.status_code == 201, season.json()
    pk = season.json()["id"]
    bad = api.patch(f"/api/v1/seasons/{pk}/", {"ends_on": "2025-01-01"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["params"]["problems"][0]["code"] == "season.dates"
    assert api.patch(f"/api/v1/leagues/{slug}/", {"name": "Town"}, format="json").status_code == 200
    other = api_for(ClubOrganiserFactory().user)
    assert other.post("/api/v1/leagues/", {"club": club.slug, "name": "X"}).status_code == 403
    assert other.patch(f"/api/v1/leagues/{slug}/", {"name": "Mine"}).status_code == 403
    assert other.patch(f"/api/v1/seasons/{pk}/", {"name": "Mine"}).status_code == 403
    assert League.objects.get(slug=slug).name == "Town"
    assert api_for(None).get(f"/api/v1/seasons/{pk}/").json()["league"] == slug


# --- people ---------------------------------------------------------------------------------


def test_organisers_are_removed_but_never_the_last() -> None:
    organiser, club = organiser_and_club()
    c = client_for(organiser)
    with pytest.raises(UserError) as e:
        services.remove_organiser(organiser, club, organiser.pk)
    assert e.value.code == "club.last_organiser"
    second = ClubOrganiserFactory(club=club).user
    response = c.post(reverse("organiser-remove", args=[club.slug, second.pk]))
    assert response.status_code == 302
    assert list(club.organisers.values_list("user_id", flat=True)) == [organiser.pk]
    stranger = client_for(UserFactory())
    assert (
        stranger.post(reverse("organiser-remove", args=[club.slug, organiser.pk])).status_code
        == 403
    )
    assert AuditEntry.objects.filter(action="club.organiser_remove").count() == 1


def test_a_referee_is_removed_from_the_club_and_keeps_the_record() -> None:
    organiser, club = organiser_and_club()
    referee = RefereeFactory(club=club)
    page = client_for(organiser).get(reverse("club-people", args=[club.slug]))
    assert str(referee) in page.content.decode()
    response = client_for(organiser).post(reverse("referee-remove", args=[club.slug, referee.pk]))
    assert response.status_code == 302
    referee.refresh_from_db()
    assert referee.club is None
    other_club = ClubOrganiserFactory().user
    foreign = RefereeFactory(club=club)
    assert (
        client_for(other_club)
        .post(reverse("referee-remove", args=[club.slug, foreign.pk]))
        .status_code
        == 403
    )


# --- leagues and seasons on the site, events in seasons, rankings --------------------------


def test_leagues_and_seasons_pages() -> None:
    organiser, club = organiser_and_club()
    c = client_for(organiser)
    response = c.post(reverse("club-leagues", args=[club.slug]), {"name": "Winter league"})
    assert response.status_code == 302
    league = League.objects.get(club=club)
    response = c.post(
        reverse("season-create", args=[league.slug]),
        {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-03-31"},
    )
    assert response.status_code == 302
    season = Season.objects.get(league=league)
    response = c.post(
        reverse("season-edit", args=[league.slug, season.pk]),
        {"name": "2026 Q1", "starts_on": "2026-01-01", "ends_on": "2025-03-31"},
    )
    assert response.status_code == 200  # the form shows the error
    page = c.get(reverse("club-leagues", args=[club.slug]))
    assert "Winter league" in page.content.decode() and "2026" in page.content.decode()
    other = client_for(ClubOrganiserFactory().user)
    assert other.get(reverse("season-create", args=[league.slug])).status_code == 403


def season_of(club: Club, name: str = "2026") -> Season:
    league, _ = League.objects.get_or_create(
        club=club, slug=f"{club.slug}-l", defaults={"name": f"{club.name} league"}
    )
    return Season.objects.create(
        league=league, name=name, starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
    )


def test_the_event_form_offers_only_the_clubs_seasons() -> None:
    organiser, club = organiser_and_club()
    mine = season_of(club)
    theirs = season_of(ClubFactory())
    event = EventFactory(club=club)
    data = {k: v for k, v in EventForm.initial_for(event).items() if v is not None}
    data.update(
        {
            "round_minutes": 90,
            "referees": [],
            "first_round_at": "",
            "starts_on": event.starts_on.isoformat(),
            "ends_on": event.ends_on.isoformat(),
            "season": theirs.pk,
        }
    )
    c = client_for(organiser)
    response = c.post(reverse("event-edit", args=[event.pk]), data)
    assert response.status_code == 200  # not a choice
    event.refresh_from_db()
    assert event.season is None
    data["season"] = mine.pk
    response = c.post(reverse("event-edit", args=[event.pk]), data)
    assert response.status_code == 302, response.content.decode()[:800]
    event.refresh_from_db()
    assert event.season == mine
    form = c.get(reverse("event-edit", args=[event.pk])).content.decode()
    assert mine.name in form and f'value="{theirs.pk}"' not in form


def test_the_event_api_shows_and_takes_a_season_of_its_club() -> None:
    organiser, club = organiser_and_club()
    mine, theirs = season_of(club), season_of(ClubFactory())
    event = EventFactory(club=club, status="registration")
    api = api_for(organiser)
    refused = api.patch(f"/api/v1/events/{event.pk}/", {"season": theirs.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "season.other_club"
    assert (
        api.patch(f"/api/v1/events/{event.pk}/", {"season": 10**12}, format="json").status_code
        == 400
    )
    ok = api.patch(f"/api/v1/events/{event.pk}/", {"season": mine.pk}, format="json")
    assert ok.status_code == 200 and ok.json()["season"] == mine.pk
    assert api_for(None).get(f"/api/v1/events/{event.pk}/").json()["season"] == mine.pk
    cleared = api.patch(f"/api/v1/events/{event.pk}/", {"season": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["season"] is None


def test_an_event_put_in_a_season_shows_in_the_season_and_league_rankings() -> None:
    ev = played_event()
    season = season_of(ev.club)
    response = api_for(ev.organiser).patch(
        f"/api/v1/events/{ev.event.pk}/", {"season": season.pk}, format="json"
    )
    assert response.status_code == 200, response.json()
    ev.event.refresh_from_db()
    ev.play(1, seed=3)  # submitted, confirmed and released
    name = ev.players[0].display_name
    page = Client().get(reverse("results:season", args=[season.pk]))
    assert page.status_code == 200 and name in page.content.decode()
    league_page = Client().get(reverse("results:league", args=[season.league.slug]))
    assert name in league_page.content.decode()


def test_moving_a_played_event_between_seasons_moves_its_totals(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ev = played_event()
    ev.play(1, seed=3)  # released before the event had a season
    first, second = season_of(ev.club, "2026"), season_of(ev.club, "2027")
    name = ev.players[0].display_name
    api = api_for(ev.organiser)

    def season_page(season: Season) -> str:
        return Client().get(reverse("results:season", args=[season.pk])).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        assert (
            api.patch(
                f"/api/v1/events/{ev.event.pk}/", {"season": first.pk}, format="json"
            ).status_code
            == 200
        )
    assert name in season_page(first)
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            api.patch(
                f"/api/v1/events/{ev.event.pk}/", {"season": second.pk}, format="json"
            ).status_code
            == 200
        )
    assert name not in season_page(first)
    assert name in season_page(second)


# --- claims and the profile -----------------------------------------------------------------


def test_a_user_claims_a_player_and_the_organiser_approves() -> None:
    organiser, club = organiser_and_club()
    player = PlayerFactory()
    MembershipFactory(player=player, club=club)
    user = UserFactory()
    c = client_for(user)
    assert c.get(reverse("my-profile")).status_code == 200
    response = c.post(reverse("player-claim"), {"handle": f"@{player.handle}"})
    assert response.status_code == 302
    claim = PlayerClaim.objects.get()
    with pytest.raises(UserError) as e:
        inv.claim_player(user, player)
    assert e.value.code == "claim.pending"
    other = client_for(ClubOrganiserFactory().user)
    assert (
        other.post(reverse("claim-decide", args=[club.slug, claim.pk, "approve"])).status_code
        == 403
    )
    page = client_for(organiser).get(reverse("club-people", args=[club.slug]))
    assert user.username in page.content.decode()
    response = client_for(organiser).post(
        reverse("claim-decide", args=[club.slug, claim.pk, "approve"])
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user == user
    assert AuditEntry.objects.filter(action="claim.approve").exists()
    with pytest.raises(UserError) as e:
        inv.decide_claim(organiser, claim, approve=False)
    assert e.value.code == "claim.decided"


def test_claims_are_refused_for_linked_players_and_accounts_and_can_be_rejected() -> None:
    organiser, club = organiser_and_club()
    linked = PlayerFactory(user=UserFactory())
    MembershipFactory(player=linked, club=club)
    with pytest.raises(UserError) as e:
        inv.claim_player(UserFactory(), linked)
    assert e.value.code == "claim.player_linked"
    with pytest.raises(UserError) as e:
        inv.claim_player(linked.user, PlayerFactory())
    assert e.value.code == "claim.already_player"
    lonely = PlayerFactory()
    with pytest.raises(UserError) as e:
        inv.claim_player(UserFactory(), lonely)
    assert e.value.code == "claim.no_club"
    free = PlayerFactory()
    MembershipFactory(player=free, club=club)
    claim = inv.claim_player(UserFactory(), free)
    inv.decide_claim(organiser, claim, approve=False)
    free.refresh_from_db()
    assert free.user is None and PlayerClaim.objects.get().status == "rejected"


def test_a_linked_player_edits_display_name_and_language() -> None:
    user = UserFactory()
    player = PlayerFactory(user=user, display_name="Old")
    c = client_for(user)
    assert "Old" in c.get(reverse("my-profile")).content.decode()
    response = c.post(reverse("my-profile"), {"display_name": "李明", "language": "zh-hans"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "李明"
    assert preferred_language(user) == "zh-hans"
    assert AuditEntry.objects.filter(action="player.profile").exists()
    too_long = c.post(reverse("my-profile"), {"display_name": "x" * 121, "language": ""})
    assert too_long.status_code == 200
