"""The pipeline of an event with stages (formats.md §1): each stage's cumulative standing
and the public final order are the engine's own numbers; a one-stage event is unchanged;
a player seated outside a cut is a warning, never a crash; a hidden stage stays out of
the public rows until it is finished."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import TestCase
from django.utils import timezone

from games.models import Game
from games.services import void_game
from league.events.services import transition_event
from league.models import Event, League, Season
from league.stages.models import Stage
from results.models import EventResults, EventStanding, SeasonStanding, StageStanding
from results.pipeline.standings import mark_event_stale, recompute_event
from tests.results.factories import played_event
from tests.results.stages_factories import expected, freeze_cut, play_all, play_at, three_stages

pytestmark = pytest.mark.django_db


def test_three_stages_give_the_engines_numbers() -> None:
    ev = three_stages()
    played = play_all(ev)
    outcome = expected(ev, played)
    for stage in outcome.stages:
        rows = list(
            StageStanding.objects.filter(event=ev.event, stage=stage.index).order_by("position")
        )
        assert [(r.handle, r.rank, r.tied) for r in rows] == [
            (r.player, r.rank, r.tied) for r in stage.cumulative.rows
        ]
        assert [r.points for r in rows] == [
            r.points.quantize(Decimal("0.0001")) for r in stage.cumulative.rows
        ]
        assert [r.stage_points for r in rows] == [
            stage.stage_points[r.player].quantize(Decimal("0.0001")) for r in stage.cumulative.rows
        ]
    final = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert [(r.handle, r.rank) for r in final] == [(f.player, f.rank) for f in outcome.final]
    assert [r.points for r in final] == [f.points.quantize(Decimal("0.01")) for f in outcome.final]
    # The final's 8 first, then the 8 cut after the semi-final, then the 4 cut first.
    assert {r.handle for r in final[:8]} == {p.handle for p in played["final"]}
    assert {r.handle for r in final[16:]} == {p.handle for p in ev.players} - {
        p.handle for p in played["semi"]
    }
    # Between groups, the stage reached is the reason.
    assert final[7].above_next == {
        "metric": "stage",
        "higher": "3",
        "lower": "2",
        "level_on": [],
    }
    state = EventResults.objects.get(event=ev.event)
    assert state.games == 5 and state.players == 20 and not state.stale


def test_a_stage_waiting_for_its_cut_is_not_computed() -> None:
    ev = three_stages()
    play_at(ev, 1, 1, ev.players[:10], 11)
    play_at(ev, 1, 2, ev.players[10:], 12)
    assert set(StageStanding.objects.filter(event=ev.event).values_list("stage", flat=True)) == {0}
    assert EventStanding.objects.filter(event=ev.event).count() == 20


def test_recomputing_writes_nothing_new() -> None:
    ev = three_stages()
    play_all(ev)
    before = EventResults.objects.get(event=ev.event)
    report = recompute_event(ev.event.pk)
    after = EventResults.objects.get(event=ev.event)
    assert not report.changed and after.version == before.version
    assert after.digest == before.digest


def test_one_stage_event_is_unchanged() -> None:
    """An event without stage rows: the rows are those of compute_standings, and its one
    stage's standing says the same."""
    ev = played_event()
    g1 = ev.play(1, seed=3)
    g2 = ev.play(2, seed=4)
    rows = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    stage = list(StageStanding.objects.filter(event=ev.event).order_by("position"))
    assert [(r.handle, r.rank, r.points, r.above_next) for r in rows] == [
        (s.handle, s.rank, s.points, s.above_next) for s in stage
    ]
    assert all(s.stage == 0 and s.points == s.stage_points for s in stage)
    assert all(r.items for r in rows)  # the point lines kept
    assert EventResults.objects.get(event=ev.event).games == 2
    assert {g1.pk, g2.pk} == {i["game"] for r in rows for i in r.items}


def test_a_player_seated_outside_the_cut_is_a_warning_not_a_crash() -> None:
    ev = three_stages()
    play_at(ev, 1, 1, ev.players[:10], 11)
    play_at(ev, 1, 2, ev.players[10:], 12)
    semi = freeze_cut(ev, 1, 16)
    kept = list(
        EventStanding.objects.filter(event=ev.event)
        .order_by("position")
        .values_list("handle", "points")
    )
    outsider = next(p for p in ev.players if p not in semi)
    play_at(ev, 2, 1, [*semi[:7], outsider], 21)  # does not raise
    state = EventResults.objects.get(event=ev.event)
    assert not state.stale
    assert state.warnings[-1]["code"] == "formats.not_entitled"
    assert state.warnings[-1]["params"]["player"] == outsider.handle
    assert state.warnings[-1]["params"]["stage"] == "semifinal"
    # The standings written before stay as they were.
    assert (
        list(
            EventStanding.objects.filter(event=ev.event)
            .order_by("position")
            .values_list("handle", "points")
        )
        == kept
    )
    # Once the game is voided the event computes again and the warning is gone.
    game = Game.objects.get(table__round__number=2, table__number=1, table__round__event=ev.event)
    with TestCase.captureOnCommitCallbacks(execute=True):
        void_game(ev.organiser, game, "seated by mistake")
    mark_event_stale(ev.event.pk)
    recompute_event(ev.event.pk)
    state = EventResults.objects.get(event=ev.event)
    assert not any(w["code"] == "formats.not_entitled" for w in state.warnings)
    assert StageStanding.objects.filter(event=ev.event, stage=1).count() == 16


def test_a_hidden_stage_stays_out_of_the_public_rows_until_finished() -> None:
    ev = three_stages(final_hidden=True)
    league = League.objects.create(name="Tour", slug="tour", club=ev.club)
    season = Season.objects.create(
        league=league, name="2026", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
    )
    Event.objects.filter(pk=ev.event.pk).update(season=season)
    played = play_all(ev)
    after_semi = expected(ev, played, stages=2)
    final = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    # The public order is the one after the semi-final: nothing of the final shows.
    assert [(r.handle, r.points) for r in final] == [
        (f.player, f.points.quantize(Decimal("0.01"))) for f in after_semi.final
    ]
    totals = dict(
        SeasonStanding.objects.filter(season=season).values_list("player__handle", "points")
    )
    assert totals == {f.player: f.points.quantize(Decimal("0.01")) for f in after_semi.final}
    # The final's own rows exist (for the organisers).
    assert StageStanding.objects.filter(event=ev.event, stage=2).count() == 8
    Stage.objects.filter(event=ev.event, position=2).update(finished_at=timezone.now())
    EventResults.objects.filter(event=ev.event).update(stale=True)
    recompute_event(ev.event.pk)
    whole = expected(ev, played)
    final = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert [r.handle for r in final] == [f.player for f in whole.final]
    totals = dict(
        SeasonStanding.objects.filter(season=season).values_list("player__handle", "points")
    )
    assert totals == {f.player: f.points.quantize(Decimal("0.01")) for f in whole.final}


def test_finishing_the_event_makes_a_hidden_final_public() -> None:
    """A finished event has every stage finished: its status change recomputes."""
    ev = three_stages(final_hidden=True)
    played = play_all(ev)
    assert EventStanding.objects.filter(event=ev.event, rank=1).get().handle == (
        expected(ev, played, stages=2).final[0].player
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        transition_event(ev.organiser, ev.event, Event.Status.FINISHED)
    whole = expected(ev, played)
    assert [f.player for f in whole.final] != [f.player for f in expected(ev, played, 2).final]
    final = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert [r.handle for r in final] == [f.player for f in whole.final]
    assert not EventResults.objects.get(event=ev.event).stale
