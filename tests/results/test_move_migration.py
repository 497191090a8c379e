"""Migrations league 0014 and results 0001: the standings and ratings tables move from
the ``league`` app to the ``results`` app by state alone.

A database made before the move (rows in every one of the eight tables, their content
types and permissions under ``league``) migrates forward with nothing lost: the same
rows are read through the new models, and the content types — with the permissions and
admin log entries that point at them — now belong to ``results``.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps as installed
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from results.models import (
    EventResults,
    EventStanding,
    PlayerRating,
    RaterCheckpoint,
    RatingPoint,
    RatingsLedger,
    ScoredGame,
    SeasonStanding,
)

BEFORE = [("results", None), ("league", "0013_draw_job_error_is_a_note")]
MOVED = [
    "eventresults",
    "eventstanding",
    "seasonstanding",
    "scoredgame",
    "playerrating",
    "ratingpoint",
    "ratercheckpoint",
    "ratingsledger",
]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


def _before() -> Any:
    """Migrate back to just before the move; the models of that state."""
    executor = _executor()
    executor.migrate(BEFORE)
    return executor.loader.project_state([BEFORE[1], ("games", "0007_point_lines_as_codes")]).apps


def _latest() -> None:
    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _fill(apps: Any) -> dict[str, Any]:
    """One row (or two) in each of the old tables, through the old models."""
    m = {name: apps.get_model("league", name) for name in MOVED}
    Club = apps.get_model("league", "Club")
    League = apps.get_model("league", "League")
    Season = apps.get_model("league", "Season")
    Event = apps.get_model("league", "Event")
    Player = apps.get_model("league", "Player")
    club = Club.objects.create(name="Old", slug="old")
    league = League.objects.create(name="Old league", slug="old-league")
    season = Season.objects.create(
        league=league, name="2029", starts_on=dt.date(2029, 1, 1), ends_on=dt.date(2029, 12, 31)
    )
    event = Event.objects.create(
        club=club,
        season=season,
        name="Old Open",
        slug="old-open",
        starts_on=dt.date(2029, 5, 1),
        ends_on=dt.date(2029, 5, 1),
        rounds_count=1,
        status="finished",
    )
    a = Player.objects.create(handle="ann", display_name="Ann")
    b = Player.objects.create(handle="bo", display_name="Bo")
    m["eventresults"].objects.create(
        event=event, stale=False, version=3, seed=7, profile="club-v1", games=1, players=2
    )
    for position, (player, points) in enumerate(((a, "3.50"), (b, "1.00")), start=1):
        m["eventstanding"].objects.create(
            event=event,
            position=position,
            handle=player.handle,
            player=player,
            rank=position,
            points=Decimal(points),
            wins=1,
            games=1,
            awards=Decimal(0),
            ci=Decimal(0),
            items=[{"game": 9, "kind": "win", "points": points, "code": "points.win"}],
        )
        m["seasonstanding"].objects.create(
            season=season, player=player, events=1, games=1, wins=1, points=Decimal(points)
        )
        m["playerrating"].objects.create(
            player=player,
            rating=1500.0 + position,
            uncertainty=100.0,
            games=1,
            killer_rating=1500.0,
            police_rating=1500.0,
            civilian_rating=1500.0,
            last_game_id=9,
            last_played=dt.date(2029, 5, 1),
        )
        m["ratingpoint"].objects.create(
            player=player,
            game_id=9,
            played_on=dt.date(2029, 5, 1),
            seat=position,
            role="civilian",
            outcome="win",
            rating=1500.0 + position,
            uncertainty=100.0,
            event=event,
            club=club,
        )
    m["scoredgame"].objects.create(
        game_id=9,
        version_id=11,
        event=event,
        club=club,
        played_on=dt.date(2029, 5, 1),
        winner="good",
        players=2,
    )
    m["ratercheckpoint"].objects.create(
        games=1, played_on=dt.date(2029, 5, 1), game_id=9, state=b"state"
    )
    m["ratingsledger"].objects.create(id=1, games=1)
    return {"event": event.pk, "players": (a.pk, b.pk)}


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_every_row() -> None:
    # Start from the latest state (an earlier migration test may have left an app's
    # migrations unapplied), with the content types and permissions as migrate makes them
    # (an earlier transactional test may have flushed them); migrating back then hands them
    # to league, as before the move.
    _latest()
    create_permissions(installed.get_app_config("results"), verbosity=0)
    try:
        made = _fill(_before())
        old_types = {
            ct.model: ct.pk
            for ct in ContentType.objects.filter(app_label="league", model__in=MOVED)
        }
        assert sorted(old_types) == sorted(MOVED)  # the pre-move database has them as league's
        old_perms = set(
            Permission.objects.filter(content_type_id__in=old_types.values()).values_list(
                "pk", flat=True
            )
        )
        assert old_perms
    finally:
        _latest()

    # every row, read through the new models
    counts = {
        model.__name__: model.objects.count()
        for model in (
            EventResults,
            EventStanding,
            SeasonStanding,
            ScoredGame,
            PlayerRating,
            RatingPoint,
            RaterCheckpoint,
            RatingsLedger,
        )
    }
    assert counts == {
        "EventResults": 1,
        "EventStanding": 2,
        "SeasonStanding": 2,
        "ScoredGame": 1,
        "PlayerRating": 2,
        "RatingPoint": 2,
        "RaterCheckpoint": 1,
        "RatingsLedger": 1,
    }
    state = EventResults.objects.get(pk=made["event"])
    assert (state.version, state.seed, state.stale) == (3, 7, False)
    rows = list(EventStanding.objects.filter(event_id=made["event"]).order_by("position"))
    assert [(r.handle, r.points, r.player_id) for r in rows] == [
        ("ann", Decimal("3.50"), made["players"][0]),
        ("bo", Decimal("1.00"), made["players"][1]),
    ]
    assert rows[0].items == [{"game": 9, "kind": "win", "points": "3.50", "code": "points.win"}]
    assert bytes(RaterCheckpoint.objects.get().state) == b"state"
    assert PlayerRating.objects.get(pk=made["players"][1]).rating == 1502.0
    # the reverse relations the pages use still join
    assert EventStanding.objects.filter(player__handle="ann", event__slug="old-open").exists()

    # the content types moved with the models, and the permissions with them
    new_types = {
        ct.model: ct.pk for ct in ContentType.objects.filter(app_label="results", model__in=MOVED)
    }
    assert new_types == old_types
    assert not ContentType.objects.filter(app_label="league", model__in=MOVED).exists()
    assert (
        set(
            Permission.objects.filter(
                content_type__app_label="results", content_type__model__in=MOVED
            ).values_list("pk", flat=True)
        )
        == old_perms
    )
