"""The home page (results.views.home): live events with their round's progress, upcoming
events, recent results and their winners, the top of the rankings, seasons and clubs —
links into every public area; drafts nowhere; a fixed number of queries; a cache that
may be down."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, League, Season
from results.models import EventStanding, PlayerRating
from tests.league.factories import ClubFactory, EventFactory
from tests.results.factories import Played, played_event
from tests.results.venue_factories import venue_world

pytestmark = pytest.mark.django_db


class World:
    def __init__(self) -> None:
        self.live, _games = venue_world(name="Live Open")
        self.season = Season.objects.create(
            league=League.objects.create(name="Plum League", slug="plum"),
            name="Plum 2025",
            starts_on=dt.date(2025, 1, 1),
            ends_on=dt.date(2025, 12, 31),
        )
        self.done: Played = played_event(
            n_players=12,
            rounds=1,
            club=ClubFactory(name="Harbour Club", slug="harbour", city="Dalian"),
            name="Autumn Final",
            starts_on=dt.date(2025, 10, 4),
            season=self.season,
        )
        self.done.play(1, 1, seed=5)
        Event.objects.filter(pk=self.done.event.pk).update(status=Event.Status.FINISHED)
        self.upcoming = EventFactory(name="Spring Open", status=Event.Status.REGISTRATION)
        self.draft = EventFactory(name="Secret Draft", status=Event.Status.DRAFT)
        EventFactory(
            name="Long Gone",
            status=Event.Status.REGISTRATION,
            starts_on=dt.date(2020, 1, 1),
            ends_on=dt.date(2020, 1, 2),
        )


@pytest.fixture
def world() -> World:
    return World()


def section(page: str, name: str) -> str:
    match = re.search(
        rf'<section class="card home-{name}" id="home-{name}">(.*?)</section>', page, re.S
    )
    assert match, name
    return match.group(1)


def test_every_section_with_its_links(client: Client, world: World) -> None:
    page = client.get(reverse("home")).content.decode()
    live = section(page, "live")
    ev = world.live.event
    assert "Live Open" in live and "Round 1 of 3, 2/6 tables confirmed" in live
    assert reverse("public-event", args=[ev.club.slug, ev.slug]) in live
    assert reverse("results:venue", args=[ev.club.slug, ev.slug]) in live
    assert reverse("results:standings", args=[ev.club.slug, ev.slug]) in live

    upcoming = section(page, "upcoming")
    up = world.upcoming
    assert "Spring Open" in upcoming
    assert reverse("public-event", args=[up.club.slug, up.slug]) in upcoming
    assert "Long Gone" not in page and "Live Open" not in upcoming

    results = section(page, "results")
    done = world.done.event
    assert "Autumn Final" in results and "Harbour Club" in results
    assert reverse("results:standings", args=["harbour", done.slug]) in results
    winners = EventStanding.objects.filter(event=done, rank=1).select_related("player")
    assert winners
    for w in winners:
        assert f'<a href="{reverse("results:player", args=[w.handle])}">' in results
        assert w.player.display_name in results  # type: ignore[union-attr]

    top = section(page, "top")
    best = list(PlayerRating.objects.order_by("-rating", "player_id")[:10])
    assert len(best) == 10
    shown = re.findall(r'<a href="/players/([^/]+)/">', top)
    assert shown == [r.player.handle for r in best]
    assert f'href="{reverse("results:leaderboard")}"' in top

    seasons = section(page, "seasons")
    assert reverse("results:season", args=[world.season.pk]) in seasons
    assert reverse("results:league", args=["plum"]) in seasons

    clubs = section(page, "clubs")
    assert reverse("club", args=["harbour"]) in clubs
    assert reverse("results:club", args=["harbour"]) in clubs

    # every link on the page answers
    for href in set(re.findall(r'href="(/[^"]*)"', page)):
        if href.startswith(("/static/", "/accounts/")):
            continue
        assert client.get(href).status_code == 200, href


def test_unpublished_events_are_nowhere(client: Client, world: World) -> None:
    running_draft = played_event(n_players=8, rounds=1, name="Hidden Running")
    Event.objects.filter(pk=running_draft.event.pk).update(status=Event.Status.DRAFT)
    client.force_login(world.live.organiser)
    page = client.get(reverse("home")).content.decode()
    assert "Secret Draft" not in page and "Hidden Running" not in page
    assert world.draft.slug not in page


def test_a_fixed_number_of_queries_and_a_cache(
    client: Client, world: World, django_assert_max_num_queries: Any
) -> None:
    more = played_event(n_players=8, rounds=2, name="Second Live")
    Event.objects.filter(pk=more.event.pk).update(status=Event.Status.RUNNING)
    for i in range(5):
        EventFactory(name=f"Later {i}", status=Event.Status.REGISTRATION)
    with django_assert_max_num_queries(8):
        cold = client.get(reverse("home"))
    assert "Second Live" in cold.content.decode()
    with django_assert_max_num_queries(0):
        warm = client.get(reverse("home"))
    grid = re.compile(rb'<div class="home-grid">.*</div>', re.S)
    assert grid.findall(warm.content) == grid.findall(cold.content)  # the same sections


def test_the_page_reads_the_database_while_the_cache_is_down(
    client: Client, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from league import outages

    monkeypatch.setattr(outages.cache, "is_down", lambda: True)
    page = client.get(reverse("home")).content.decode()
    assert "Live Open" in page and "Autumn Final" in page
    EventFactory(name="Just Announced", status=Event.Status.REGISTRATION)
    assert "Just Announced" in client.get(reverse("home")).content.decode()


def test_an_empty_site(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert 'id="no-live"' in page and "No finished events yet." in page
    assert f'href="{reverse("results:leaderboard")}"' in page


def test_the_page_in_spanish(client: Client, world: World) -> None:
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es">' in page and "Cae la noche. Cierren los ojos." in page
