"""Migration 0012–0013: a draw job written as text keeps its text as a legacy note, shown
as stored on the page and in the API (docs/organisers.md, "Draw messages")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from rest_framework.test import APIClient

from league.models import DrawJob
from tests.league.factories import ClubOrganiserFactory, EventFactory

BEFORE = [("league", "0011_protect_recorded_people")]
AFTER = [("league", "0013_draw_job_error_is_a_note")]

OLD_ERROR = "round 1: 5 players present, fewer than the minimum table size 8"
OLD_WARNINGS = ["第1轮：共3桌，但只有2名法官", "The event lists no referees; tables have none."]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    """Back to today's tables, which the factories and pages use (later migrations add
    columns to the league's tables)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_old_draw_jobs_migrate_to_legacy_notes_and_show_as_stored() -> None:
    leaf = migrate(BEFORE)
    try:
        OldClub = leaf.get_model("league", "Club")
        OldEvent = leaf.get_model("league", "Event")
        OldJob = leaf.get_model("league", "DrawJob")
        club = OldClub.objects.create(name="Old", slug="old")
        event = OldEvent.objects.create(
            club=club,
            name="Old Open",
            slug="old-open",
            starts_on=dt.date(2030, 1, 1),
            ends_on=dt.date(2030, 1, 1),
            rounds_count=1,
            status="running",
        )
        failed = OldJob.objects.create(
            event=event, from_round=1, to_round=1, status="failed", error=OLD_ERROR
        )
        done = OldJob.objects.create(
            event=event, from_round=1, to_round=1, status="done", warnings=OLD_WARNINGS
        )
        clean = OldJob.objects.create(event=event, from_round=1, to_round=1, status="done")
    finally:
        migrate(AFTER)
        migrate_to_latest()

    def legacy(text: str) -> dict[str, Any]:
        return {"code": "legacy", "params": {"text": text}}

    failed_now = DrawJob.objects.get(pk=failed.pk)
    assert failed_now.error == legacy(OLD_ERROR) and failed_now.warnings == []
    done_now = DrawJob.objects.get(pk=done.pk)
    assert done_now.error is None
    assert done_now.warnings == [legacy(w) for w in OLD_WARNINGS]
    assert DrawJob.objects.get(pk=clean.pk).error is None

    organiser = ClubOrganiserFactory(club=failed_now.event.club).user
    for lang in ("en", "zh-hans", "es"):
        api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
        api.force_authenticate(organiser)
        shown = api.get(f"/api/v1/draw-jobs/{done.pk}/").json()
        assert [w["message"] for w in shown["warnings"]] == OLD_WARNINGS
        assert api.get(f"/api/v1/draw-jobs/{failed.pk}/").json()["error"] == {
            **legacy(OLD_ERROR),
            "message": OLD_ERROR,
        }
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser)
    DrawJob.objects.filter(pk=done.pk).delete()  # the page shows the latest job: the failed one
    DrawJob.objects.filter(pk=clean.pk).delete()
    page = client.get(reverse("event-draw", args=[failed_now.event_id])).content.decode()
    assert escape(OLD_ERROR) in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_goes_back_to_text() -> None:
    migrate_to_latest()
    current = ClubOrganiserFactory().club
    event = EventFactory(club=current)
    job = DrawJob.objects.create(
        event=event,
        from_round=1,
        to_round=1,
        status="failed",
        error={"code": "legacy", "params": {"text": "old words"}},
        warnings=[{"code": "league.draw.no_referees", "params": {}}],
    )
    try:
        apps = migrate(BEFORE)
        old = apps.get_model("league", "DrawJob").objects.get(pk=job.pk)
        assert old.error == "old words" and old.warnings == ["league.draw.no_referees"]
    finally:
        migrate_to_latest()
