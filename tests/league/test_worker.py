"""A draw requested on a page runs in a real Celery worker (the PostgreSQL run)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from league.draws import services as draw_services
from league.models import DrawJob, Seat
from tests.league.factories import ClubOrganiserFactory, EventFactory, registered_players


@pytest.mark.worker
def test_draw_runs_in_a_real_worker(transactional_db: None, celery_worker_process: Any) -> None:
    org = ClubOrganiserFactory()
    event = EventFactory(club=org.club, rounds_count=3)
    registered_players(event, 24)
    job = draw_services.request_draw(org.user, event, from_round=1, seed=5)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            break
        time.sleep(0.3)
    assert job.status == "done", job.error
    assert job.progress == 1.0
    assert Seat.objects.filter(round__event=event).count() == 3 * 24
    assert DrawJob.objects.filter(event=event, status__in=["queued", "running"]).count() == 0
