"""The results pipeline: confirmation → standings, seasons and ratings; corrections,
idempotence, stale-and-heal, the rebuild command."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from engine.record import parse_record
from engine.scoring import summarize
from engine.standings import compute_standings
from games.models import Game
from games.selectors import confirmed_record
from games.services import release_game
from league.models import League, Season
from results import services
from results.models import (
    EventResults,
    EventStanding,
    PlayerRating,
    RatingPoint,
    ScoredGame,
    SeasonStanding,
)
from results.pipeline import ratings
from results.tasks import heal_results, process_game_results
from tests.league.factories import ClubFactory
from tests.results.conftest import snapshot
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


def _flip(record: dict[str, Any]) -> dict[str, Any]:
    """The same game recorded as result-only with the other side winning."""
    winner = record["result"]["winner"]
    out = {k: v for k, v in record.items() if k not in ("log", "awards")}
    out["result"] = {"winner": "killers" if winner == "good" else "good"}
    return out


def test_released_game_updates_standings_and_ratings() -> None:
    ev = played_event()
    game = ev.play(1, seed=3)
    rows = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert len(rows) == 12
    expected = compute_standings(
        [summarize(parse_record(confirmed_record(game)), str(game.pk))], seed=ev.event.pk
    )
    assert [(r.handle, r.rank, r.points) for r in rows] == [
        (r.player, r.rank, r.points) for r in expected.rows
    ]
    state = EventResults.objects.get(event=ev.event)
    assert not state.stale and state.games == 1 and state.version == 1
    assert RatingPoint.objects.filter(game_id=game.pk).count() == 12
    assert PlayerRating.objects.count() == 12
    assert ScoredGame.objects.get(game_id=game.pk).winner in ("good", "killers")
    winners = {r.player_id for r in RatingPoint.objects.filter(outcome="win")}
    assert all(PlayerRating.objects.get(pk=p).wins == 1 for p in winners)


def test_unreleased_games_count_for_nothing() -> None:
    ev = played_event()
    ev.play(1, seed=3, release=False)
    assert not EventStanding.objects.exists()
    assert not RatingPoint.objects.exists()
    assert not PlayerRating.objects.exists()
    assert EventResults.objects.get(event=ev.event).stale is False


def test_running_twice_changes_nothing() -> None:
    ev = played_event()
    game = ev.play(1, seed=3)
    ev.play(2, seed=4)
    before = snapshot()
    state = EventResults.objects.get(event=ev.event)
    report = services.process_game(game.pk)
    assert report.event is not None and not report.event.changed
    assert report.ratings.changed == 0
    assert snapshot() == before
    after = EventResults.objects.get(event=ev.event)
    assert (after.version, after.computed_at, after.digest) == (
        state.version,
        state.computed_at,
        state.digest,
    )
    services.heal()
    assert snapshot() == before


def _league(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Played], list[Game]]:
    """Two events of one club on different days, games with overlapping players."""
    monkeypatch.setattr(ratings, "CHECKPOINT_EVERY", 2)
    club = ClubFactory()
    first = played_event(n_players=16, club=club, starts_on=dt.date(2026, 3, 1))
    second = played_event(n_players=4, club=club, starts_on=dt.date(2026, 3, 8))
    mixed = first.players[4:16]
    late = first.players[:8] + second.players
    games = [
        first.play(1, 1, first.players[:12], seed=1),
        first.play(2, 1, first.players[4:16], seed=2),
        first.play(3, 1, first.players[2:14], seed=3),
        second.play(1, 1, mixed, seed=4),
        second.play(2, 1, late, seed=5),
        second.play(3, 1, late, seed=6),
    ]
    return [first, second], games


def test_correcting_an_old_game_equals_a_fresh_rebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    events, games = _league(monkeypatch)
    before = snapshot()
    old = games[0]
    events[0].correct(Game.objects.get(pk=old.pk), _flip(confirmed_record(old)))
    corrected = snapshot()
    assert corrected["points"] != before["points"]  # ratings moved…
    assert corrected["standings"] != before["standings"]  # …and so did the standings
    # Later games were replayed too: a player's rating after the last game changed.
    last = games[-1].pk
    assert [p for p in corrected["points"] if p[1] == last] != [
        p for p in before["points"] if p[1] == last
    ]
    services.rebuild_all()
    assert snapshot() == corrected


def test_checkpoints_make_no_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    events, games = _league(monkeypatch)
    events[1].correct(Game.objects.get(pk=games[3].pk), _flip(confirmed_record(games[3])))
    incremental = snapshot()
    monkeypatch.setattr(ratings, "CHECKPOINT_EVERY", 1000)
    services.rebuild_all()
    assert snapshot() == incremental


def broker_down(m: pytest.MonkeyPatch) -> None:
    """Publishing fails as it does with the broker stopped (league.outages.enqueue)."""

    def down(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("connection refused")

    m.setitem(process_game_results.app.conf, "task_always_eager", False)
    m.setattr(process_game_results, "apply_async", down)


def test_stale_when_the_broker_is_down_then_healed(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = played_event()
    with monkeypatch.context() as m:
        broker_down(m)
        game = ev.play(1, seed=5)  # confirming still succeeds
    assert Game.objects.get(pk=game.pk).status == Game.Status.RELEASED
    state = EventResults.objects.get(event=ev.event)
    assert state.stale and state.stale_since is not None
    assert not EventStanding.objects.exists() and not RatingPoint.objects.exists()
    assert services.games_out_of_date() == {game.pk}

    outcome = heal_results.delay().get()
    assert outcome["events"] == [ev.event.pk]
    assert EventStanding.objects.filter(event=ev.event).count() == 12
    assert not EventResults.objects.get(event=ev.event).stale
    assert RatingPoint.objects.filter(game_id=game.pk).count() == 12
    assert services.games_out_of_date() == set()
    assert heal_results.delay().get() == {"events": [], "ratings_changed": 0}


def test_the_stale_flag_commits_with_the_confirmation() -> None:
    """Even if the process dies between commit and enqueue, the event is already stale."""
    ev = played_event()
    game = ev.play(1, seed=5, release=False)  # confirmed and processed; nothing public yet
    assert not EventResults.objects.get(event=ev.event).stale
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        release_game(ev.organiser, Game.objects.get(pk=game.pk))
    assert len(callbacks) == 1  # the enqueue never ran
    state = EventResults.objects.get(event=ev.event)
    assert state.stale and state.stale_since is not None
    assert services.games_out_of_date() == {game.pk}


def test_the_next_task_heals_events_left_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = played_event()
    with monkeypatch.context() as m:
        broker_down(m)
        ev.play(1, seed=5)  # its task is lost
    assert not EventStanding.objects.filter(event=ev.event).exists()
    EventResults.objects.filter(event=ev.event).update(
        stale_since=timezone.now() - dt.timedelta(minutes=5)
    )
    other = played_event()
    other.play(1, seed=6)  # the task of another game heals the lost one's event
    assert EventStanding.objects.filter(event=ev.event).count() == 12
    assert not EventResults.objects.get(event=ev.event).stale


def test_season_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    from league.models import League, Season

    league = League.objects.create(name="City league", slug="city")
    season = Season.objects.create(
        league=league, name="2026", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
    )
    club = ClubFactory()
    a = played_event(club=club, season=season)
    b = played_event(club=club, season=season, starts_on=dt.date(2026, 4, 1))
    b.players = a.players
    a.play(1, seed=1)
    b.play(1, seed=2)
    rows = SeasonStanding.objects.filter(season=season)
    assert rows.count() == 12
    for row in rows:
        event_rows = EventStanding.objects.filter(player=row.player)
        assert row.events == 2
        assert row.points == sum((r.points for r in event_rows), Decimal(0))


def test_rebuild_command(capsys: pytest.CaptureFixture[str]) -> None:
    ev = played_event()
    ev.play(1, seed=1)
    ev.play(2, seed=2)
    before = snapshot()
    EventStanding.objects.all().delete()
    RatingPoint.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("rebuild_results")
    assert snapshot() == before
    assert "rebuilt" in capsys.readouterr().out


def test_rebuild_drops_the_totals_of_a_season_left_without_games() -> None:
    # The played event has no season; an emptied season's totals must still go (a NULL
    # season among the events once made "every season but these" match nothing).
    ev = played_event(n_players=12)
    ev.play(1, 1, ev.players, seed=7)
    assert ev.event.season_id is None
    league = League.objects.create(name="Spring league", slug="spring")
    emptied = Season.objects.create(
        league=league, name="2025", starts_on=dt.date(2025, 1, 1), ends_on=dt.date(2025, 12, 31)
    )
    SeasonStanding.objects.create(season=emptied, player=ev.players[0], events=1, games=3)
    services.rebuild_all()
    assert not SeasonStanding.objects.filter(season=emptied).exists()
