"""The demo (`make run`): released games simulated by the engine and one in progress on
the demo event; last year's season of finished events played through the services and
the results pipeline, so the rankings, standings and home page are full at once."""

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game, GameSheet, GameVersion
from league.demo import DEMO_CLUB, DEMO_EVENT, PAST_EVENTS
from league.models import Event, Round, Season
from results.models import EventStanding, PlayerRating, ScoredGame, SeasonStanding


@pytest.mark.django_db
def test_seed_demo_records_games() -> None:
    call_command("seed_demo")
    demo = Event.objects.get(club__slug=DEMO_CLUB, slug=DEMO_EVENT)
    games = Game.objects.filter(table__round__event=demo, table__round__number=1)
    assert games.count() >= 2
    released = games.filter(status=Game.Status.RELEASED)
    assert released.count() == games.count() - 1
    for game in released:
        v = game.versions.get(status=GameVersion.Status.CONFIRMED)
        assert v.valid and v.confirmed_by_id != v.submitted_by_id
    live = games.get(status=Game.Status.DRAFT)
    assert GameSheet.objects.get(game=live).revision >= 2
    assert demo.status == Event.Status.RUNNING

    # last year's season: every event finished, every table played and released
    past = Event.objects.filter(slug__in=[p.slug for p in PAST_EVENTS])
    assert past.count() == len(PAST_EVENTS) >= 3
    assert set(past.values_list("status", flat=True)) == {Event.Status.FINISHED}
    assert {e.starts_on.year for e in past} == {demo.season.starts_on.year - 1}  # type: ignore[union-attr]
    assert not Round.objects.filter(event__in=past).exclude(status=Round.Status.RELEASED).exists()
    played = Game.objects.filter(table__round__event__in=past)
    assert played.count() >= 40
    assert not played.exclude(status=Game.Status.RELEASED).exists()
    assert {r for e in past for r in [e.ruleset]} >= {"classic", "mainstream"}
    # … through the results pipeline: standings, season totals, ratings
    counted = Game.objects.filter(status=Game.Status.RELEASED).count()
    assert ScoredGame.objects.count() == counted
    for event in past:
        assert EventStanding.objects.filter(event=event).count() >= 30, event.slug
    past_season = Season.objects.get(events__slug="spring-cup")
    assert SeasonStanding.objects.filter(season=past_season).count() == 48
    assert PlayerRating.objects.count() == 48

    client = Client()
    board = client.get(reverse("results:leaderboard")).content.decode()
    assert board.count('href="/players/') >= 48
    spring = next(e for e in past if e.slug == "spring-cup")
    standings = client.get(
        reverse("results:standings", args=[spring.club.slug, spring.slug])
    ).content.decode()
    assert standings.count('id="row-') >= 30
    home = client.get(reverse("home")).content.decode()
    assert demo.name in home and "Round 1 of 4" in home and spring.name in home
    venue = client.get(reverse("results:venue", args=[DEMO_CLUB, DEMO_EVENT])).content.decode()
    assert 'data-status="playing"' in venue and 'data-status="released"' in venue

    total = Game.objects.count()
    call_command("seed_demo")  # idempotent
    assert Game.objects.count() == total
    assert Event.objects.count() == len(PAST_EVENTS) + 2  # the demo event, the next one
