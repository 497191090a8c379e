"""The links that join the public pages (#21 item 1): the site's menu, the clubs page,
a club's page, an event's page, a season's and a league's ranking — and what they must
not show (a draft event is nobody's business but its organisers')."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from league.models import Event, League, Season
from tests.league.factories import ClubFactory, EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    club = ClubFactory(name="Club Sur", slug="sur", city="Sevilla")
    league = League.objects.create(name="Liga Sur", slug="liga-sur", club=club)
    soon = timezone.localdate() + dt.timedelta(days=20)  # upcoming on the club's page
    season = Season.objects.create(
        league=league,
        name="this year",
        starts_on=soon - dt.timedelta(days=100),
        ends_on=soon + dt.timedelta(days=100),
    )
    for name, slug, status in (
        ("Copa Abierta", "copa", Event.Status.FINISHED),
        ("Liga de Otoño", "otono", Event.Status.REGISTRATION),
        ("Borrador Secreto", "secreto", Event.Status.DRAFT),
    ):
        EventFactory(
            club=club,
            season=season,
            name=name,
            slug=slug,
            status=status,
            starts_on=soon,
            ends_on=soon,
        )
    return season


def test_the_menu_leads_to_clubs_rankings_and_analytics(client: Client) -> None:
    html = client.get(reverse("results:leaderboard")).content.decode()
    menu = html[html.index('class="site-nav"') : html.index("</nav>")]
    for href in (reverse("home"), reverse("results:clubs"), reverse("results:leaderboard")):
        assert f'href="{href}"' in menu
    try:
        analytics = reverse("results:analytics")
    except NoReverseMatch:  # built by another part of #21
        return
    assert f'href="{analytics}"' in menu


def test_the_clubs_page_counts_published_events_only(client: Client, season: Season) -> None:
    club = season.league.club
    assert club is not None
    ClubFactory(name="Club Vacío", slug="vacio")
    html = client.get(reverse("results:clubs")).content.decode()
    assert f'href="{reverse("club", args=["sur"])}"' in html
    assert f'href="{reverse("results:club", args=["sur"])}"' in html
    assert "2 events and their results" in html  # the draft is not counted
    assert "0 events and their results" in html  # a club without events is listed
    assert html.index("Club Sur") < html.index("Club Vacío")  # by name


def test_a_club_page_leads_to_results_rankings_and_each_events_standings(
    client: Client, season: Season
) -> None:
    html = client.get(reverse("club", args=["sur"])).content.decode()
    assert reverse("results:club", args=["sur"]) in html
    assert reverse("results:league", args=["liga-sur"]) in html
    # the upcoming published event, with its standings; never the draft
    assert reverse("results:standings", args=["sur", "otono"]) in html
    assert "secreto" not in html


def test_an_event_page_leads_to_its_standings_season_and_league(
    client: Client, season: Season
) -> None:
    html = client.get(reverse("public-event", args=["sur", "copa"])).content.decode()
    for href in (
        reverse("results:standings", args=["sur", "copa"]),
        reverse("results:season", args=[season.pk]),
        reverse("results:league", args=["liga-sur"]),
        reverse("results:club", args=["sur"]),
    ):
        assert f'href="{href}"' in html, href


def test_a_season_lists_its_published_events_and_its_league(client: Client, season: Season) -> None:
    html = client.get(reverse("results:season", args=[season.pk])).content.decode()
    events = html[html.index('id="season-events"') :]
    assert reverse("public-event", args=["sur", "copa"]) in events
    assert reverse("results:standings", args=["sur", "otono"]) in events
    assert "Borrador Secreto" not in html and "secreto" not in html
    assert reverse("results:league", args=["liga-sur"]) in html


def test_a_league_leads_to_its_seasons_and_club_and_the_leaderboard_to_leagues(
    client: Client, season: Season
) -> None:
    html = client.get(reverse("results:league", args=["liga-sur"])).content.decode()
    assert reverse("results:season", args=[season.pk]) in html
    assert reverse("club", args=["sur"]) in html
    board = client.get(reverse("results:leaderboard")).content.decode()
    assert reverse("results:league", args=["liga-sur"]) in board


def test_a_player_page_leads_to_their_role_win_rates(client: Client) -> None:
    player = PlayerFactory(handle="li-wei")
    page = client.get(reverse("results:player", args=[player.handle])).content.decode()
    link = reverse("results:analytics-players") + "?a=li-wei"
    assert f'href="{link}"' in page
    assert client.get(link).status_code == 200


def test_the_leaderboards_league_links_speak_each_readers_language(
    client: Client, season: Season
) -> None:
    url = reverse("results:leaderboard")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="league-links"' in english and "League rankings" in english
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "联赛排名" in chinese and "League rankings" not in chinese  # not the cached English
