"""Migrations games 0006–0007: data stored as English gets its codes and params.

A database made before (violations ``{code, where, message}``, standings' point lines
``{game, kind, points, reason}``, results warnings as text) migrates forward with nothing
lost: what the engine can judge or score again gets its params and is then shown in the
reader's language; what it cannot keeps its English, with params null, shown as stored.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone, translation

from engine.scoring import format_points, get_profile, summarize
from engine.simulate import simulate_game
from engine.standings import compute_standings
from engine.validate import validate
from games.models import GameVersion
from games.serializers import violation_data
from league.engine_text import stored_reason_text, stored_violation_text
from results.models import EventResults, EventStanding
from tests.engine.fixtures.mutations import self_vote, vote_for_dead

BEFORE = ("games", "0005_protect_recorded_people")
AFTER = ("games", "0007_point_lines_as_codes")
PLAYERS = [f"p{i}" for i in range(1, 9)]


#: The league these migrations ran beside: its last state that still held the standings
#: tables (``league.0014`` hands them to the ``results`` app).
LEAGUE = ("league", "0013_draw_job_error_is_a_note")


def migrate(target: tuple[str, str]) -> Any:
    """Migrate games to ``target``; the models of that state (league at :data:`LEAGUE`)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target, LEAGUE]).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _old(v: dict[str, Any]) -> dict[str, Any]:
    """A violation as the previous code stored it: no params."""
    return {"code": v["code"], "where": v["where"], "message": v["message"]}


PLATFORM_OLD = [
    {
        "code": "platform.ruleset",
        "where": "setup",
        "message": "setup: the record's ruleset is not this game's (\"mainstream\")",
    },
    {
        "code": "platform.seating",
        "where": "setup",
        "message": "setup: seats 2, 5 do not match the table's seating",
    },
    {"code": "platform.unknown_player", "where": "setup", "message": "setup: unknown players a, b"},
    {
        "code": "platform.too_many",
        "where": "record",
        "message": "record: and 12 more problems not listed",
    },
]
PLATFORM_PARAMS = [
    {"ruleset": '"mainstream"'},
    {"seats": [2, 5]},
    {"names": ["a", "b"]},
    {"count": 12},
]
STALE = {"code": "vote.self_vote", "where": "day 1", "message": "day 1: words no engine says"}


def _broken_records() -> list[dict[str, Any]]:
    records = []
    for seed, plant in ((1, self_vote), (4, vote_for_dead)):
        record = simulate_game("classic", 8, seed, players=PLAYERS)
        assert plant(record, random.Random(seed)) is not None
        records.append(record)
    few = simulate_game("classic", 8, 3, players=PLAYERS)
    few["seats"] = few["seats"][:5]
    del few["log"], few["result"]
    records.append(few)
    return records


def _scored_records() -> list[dict[str, Any]]:
    records = []
    for seed in range(4):
        record = simulate_game("classic", 8, 10 + seed, players=PLAYERS)
        record["awards"] = [
            {"seat": 1, "kind": "bonus", "points": 1.5, "reason": "kept order"},
            {"seat": 2, "kind": "warning", "reason": "late"},
            {"seat": 3, "kind": "penalty", "points": 1},
        ]
        assert validate(record).valid
        records.append(record)
    return records


def _fresh_lines(records: dict[int, dict[str, Any]]) -> dict[str, list[Any]]:
    from engine.record import parse_record

    summaries = [summarize(parse_record(r), str(g)) for g, r in sorted(records.items())]
    standings = compute_standings(summaries, get_profile("club-v1"))
    return {row.player: list(row.items) for row in standings.rows}


@pytest.mark.django_db(transaction=True)
def test_stored_english_migrates_to_codes_and_params() -> None:
    apps = migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        Club = apps.get_model("league", "Club")
        Event = apps.get_model("league", "Event")
        Game = apps.get_model("games", "Game")
        Version = apps.get_model("games", "GameVersion")
        OldResults = apps.get_model("league", "EventResults")
        OldStanding = apps.get_model("league", "EventStanding")
        referee = User.objects.create(username="ref")
        organiser = User.objects.create(username="org")
        club = Club.objects.create(name="Old", slug="old")
        # versions with violations, stored as the previous code did
        judged = []
        for record in _broken_records():
            fresh = [v.as_dict() for v in validate(record).violations]
            assert fresh
            game = Game.objects.create(club=club, ruleset="classic", players=PLAYERS)
            version = Version.objects.create(
                game=game,
                number=1,
                record=record,
                source="upload",
                violations=[_old(v) for v in fresh] + PLATFORM_OLD + [STALE],
            )
            judged.append((version.pk, fresh))
        unreadable = Version.objects.create(
            game=Game.objects.create(club=club, ruleset="classic"),
            number=1,
            record=["not", "a", "record"],
            source="api",
            violations=[{"code": "record.type", "where": "record", "message": "record: old"}],
        )
        # an event's standings, stored as the previous pipeline did
        event = Event.objects.create(
            club=club,
            name="Old Open",
            slug="old-open",
            starts_on=dt.date(2030, 1, 1),
            ends_on=dt.date(2030, 1, 1),
            rounds_count=1,
            status="running",
        )
        records = {}
        for record in _scored_records():
            game = Game.objects.create(club=club, ruleset="classic", players=PLAYERS)
            Version.objects.create(
                game=game,
                number=1,
                record=record,
                source="upload",
                status="confirmed",
                valid=True,
                completeness="finished",
                submitted_by=referee,
                confirmed_by=organiser,
                confirmed_at=timezone.now(),
            )
            records[game.pk] = record
        lines = _fresh_lines(records)
        OldResults.objects.create(
            event=event, seed=event.pk, warnings=["game 77: record skipped", "something else"]
        )
        for position, (player, items) in enumerate(sorted(lines.items()), start=1):
            old_items = [
                {
                    "game": int(i.game),
                    "kind": i.kind,
                    "points": format_points(i.points),
                    "reason": i.reason,
                }
                for i in items
            ]
            if position == 1:  # a line the engine no longer gives (the game was corrected since)
                old_items.append(
                    {"game": 999, "kind": "bonus", "points": "2", "reason": "old words"}
                )
            OldStanding.objects.create(
                event=event,
                position=position,
                handle=player,
                rank=position,
                points=Decimal(0),
                wins=0,
                games=4,
                awards=Decimal(0),
                ci=Decimal(0),
                items=old_items,
            )
    finally:
        migrate(AFTER)
        migrate_to_latest()

    # violations: the engine's get the fresh params, the platform's theirs, the rest null
    for pk, fresh in judged:
        stored = GameVersion.objects.get(pk=pk).violations
        engine_part = stored[: len(fresh)]
        assert engine_part == [{**_old(v), "params": v["params"]} for v in fresh]
        platform = stored[len(fresh) : len(fresh) + len(PLATFORM_OLD)]
        assert [v["params"] for v in platform] == PLATFORM_PARAMS
        assert [v["message"] for v in platform] == [v["message"] for v in PLATFORM_OLD]
        assert stored[-1] == {**STALE, "params": None}
        with translation.override("es"):
            shown = [stored_violation_text(v) for v in stored]
            assert shown[-1] == STALE["message"]  # as stored
            assert all(s != v["message"] for s, v in zip(shown[:-1], stored[:-1], strict=True))
            assert shown[len(fresh)].startswith("preparación: el reglamento del acta")
            api = violation_data(stored[0])
            assert api["params"] == fresh[0]["params"] and api["message"] == shown[0]
        with translation.override("en"):
            # the English a reader sees is the sentence that was stored
            assert [stored_violation_text(v) for v in stored] == [v["message"] for v in stored]
    assert GameVersion.objects.get(pk=unreadable.pk).violations == [
        {"code": "record.type", "where": "record", "message": "record: old", "params": None}
    ]

    # standings: every line recomputed by the engine gets its code and params
    for row in EventStanding.objects.filter(event_id=event.pk):
        want = [
            {
                "game": int(i.game),
                "kind": i.kind,
                "points": format_points(i.points),
                "code": i.code,
                "params": dict(i.params),
            }
            for i in lines[row.handle]
        ]
        if row.position == 1:
            want.append(
                {
                    "game": 999,
                    "kind": "bonus",
                    "points": "2",
                    "reason": "old words",
                    "code": None,
                    "params": None,
                }
            )
        assert row.items == want
        with translation.override("zh-hans"):
            reasons = [stored_reason_text(i) for i in row.items]
        assert all(r and "%(" not in r for r in reasons)
        if row.handle == "p1":  # the bonus of seat 1, in Chinese; the old line as stored
            assert "法官加分：kept order" in reasons and reasons[-1] == "old words"
    assert {i["code"] for r in EventStanding.objects.all() for i in r.items} >= {
        "points.result",
        "points.bonus",
        "points.warning",
        "points.penalty",
    }
    assert EventResults.objects.get(event_id=event.pk).warnings == [
        {"code": "results.record_skipped", "params": {"game": 77}},
        {"code": None, "params": None, "message": "something else"},
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migrations_go_back_to_english() -> None:
    apps = migrate(AFTER)
    try:
        Club = apps.get_model("league", "Club")
        Event = apps.get_model("league", "Event")
        Game = apps.get_model("games", "Game")
        Version = apps.get_model("games", "GameVersion")
        Results = apps.get_model("league", "EventResults")
        Standing = apps.get_model("league", "EventStanding")
        club = Club.objects.create(name="New", slug="new")
        violation = {
            "code": "vote.self_vote",
            "where": "day 1",
            "params": {"voter": 3},
            "message": "day 1: seat 3 voted for themself",
        }
        version = Version.objects.create(
            game=Game.objects.create(club=club),
            number=1,
            record={},
            source="api",
            violations=[violation],
        )
        event = Event.objects.create(
            club=club,
            name="New Open",
            slug="new-open",
            starts_on=dt.date(2030, 1, 1),
            ends_on=dt.date(2030, 1, 1),
            rounds_count=1,
            status="running",
        )
        Results.objects.create(
            event=event, warnings=[{"code": "results.record_skipped", "params": {"game": 5}}]
        )
        line = {
            "game": 5,
            "kind": "warning",
            "points": "0",
            "code": "points.warning",
            "params": {"count": 2},
        }
        standing = Standing.objects.create(
            event=event,
            position=1,
            handle="p1",
            rank=1,
            points=Decimal(0),
            wins=0,
            games=1,
            awards=Decimal(0),
            ci=Decimal(0),
            items=[line],
        )
        old = migrate(BEFORE)
        assert old.get_model("games", "GameVersion").objects.get(pk=version.pk).violations == [
            {k: v for k, v in violation.items() if k != "params"}
        ]
        assert old.get_model("league", "EventStanding").objects.get(pk=standing.pk).items == [
            {"game": 5, "kind": "warning", "points": "0", "reason": "warning 2"}
        ]
        assert old.get_model("league", "EventResults").objects.get(pk=event.pk).warnings == [
            "game 5: record skipped"
        ]
    finally:
        migrate(AFTER)
        migrate_to_latest()
