"""The embedded thread mode (``TASKS_RUN_IN=thread``, what ``make run`` uses): ``delay()``
returns at once and the task runs later in a pool thread; eager mode is unchanged."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings

from config import embedded_tasks
from config.celery import app
from league.draws import services as draw_services
from league.models import DrawJob
from results.models import EventStanding
from tests.league.factories import ClubOrganiserFactory, EventFactory, registered_players
from tests.results.factories import played_event

#: The embedded modes (eager, thread) exist only without a broker: with one (the
#: PostgreSQL run of CI) tasks go to the real worker, and thread mode refuses to start.
pytestmark = pytest.mark.skipif(
    bool(django_settings.CELERY_BROKER_URL),
    reason="the embedded task modes run without a broker (make run, make test)",
)

#: Set by a test to let :func:`gated` finish; the task records the thread it ran in.
gate = threading.Event()
ran_in: list[int] = []


@app.task(name="tests.embedded.gated")
def gated(value: int) -> int:
    ran_in.append(threading.get_ident())
    if not gate.wait(timeout=60):
        raise TimeoutError("the test never opened the gate")
    return value * 2


@app.task(name="tests.embedded.broken")
def broken() -> None:
    raise RuntimeError("boom in a task thread")


@pytest.fixture
def thread_mode(settings: Any) -> Iterator[None]:
    settings.TASKS_RUN_IN = "thread"
    gate.clear()
    ran_in.clear()
    yield
    gate.set()
    embedded_tasks.shutdown(wait=True)


def test_delay_returns_at_once_and_the_task_runs_later_in_another_thread(
    thread_mode: None,
) -> None:
    started = time.perf_counter()
    result = gated.delay(21)
    elapsed = time.perf_counter() - started
    # Run inline, delay() would have waited on the gate (up to 60 s) and then raised.
    assert elapsed < 1.0
    assert not result.ready()
    assert result.state == "PENDING"
    gate.set()
    assert result.get(timeout=5) == 42
    assert result.state == "SUCCESS"
    assert ran_in and ran_in[0] != threading.get_ident()


def test_eager_mode_still_runs_the_task_inside_delay(settings: Any) -> None:
    assert settings.TASKS_RUN_IN == "eager"  # the suite's default
    gate.set()
    ran_in.clear()
    result = gated.delay(5)
    assert result.ready() and result.get() == 10
    assert ran_in == [threading.get_ident()]


def test_a_failing_task_is_logged_and_reported(
    thread_mode: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="config.embedded_tasks"):
        result = broken.delay()
        with pytest.raises(RuntimeError, match="boom"):
            result.get(timeout=5)
    assert result.state == "FAILURE"
    assert any("tests.embedded.broken" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_requested_draw_runs_in_a_task_thread(thread_mode: None, settings: Any) -> None:
    settings.LEAGUE_DRAW_TIME_LIMIT = 1.0
    organiser = ClubOrganiserFactory().user
    event = EventFactory(club=organiser.organised_clubs.get().club, rounds_count=2)
    registered_players(event, 16)
    main = threading.get_ident()
    seen: list[int] = []
    from league.draws import bridge as draws

    run = draws.run_draw_job

    def spy(job_id: int, **kwargs: Any) -> DrawJob:
        seen.append(threading.get_ident())
        return run(job_id, **kwargs)

    draws.run_draw_job = spy  # type: ignore[assignment]
    try:
        job = draw_services.request_draw(organiser, event, from_round=1, checked_in_only=False)
        embedded_tasks.shutdown(wait=True)  # wait for the pool before reading the database
    finally:
        draws.run_draw_job = run
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert seen and seen[0] != main
    assert event.rounds.filter(status="draft").count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_released_game_reaches_the_standings_through_a_task_thread(
    thread_mode: None, settings: Any
) -> None:
    # One pool thread, held by a gated task: the results tasks queue behind it, so they run
    # after the test's own writes (the in-memory test database's shared cache cannot wait
    # for a lock the way the SQLite file of `make run` does).
    settings.TASKS_THREADS = 1
    embedded_tasks.shutdown(wait=True)
    blocker = gated.delay(1)
    ev = played_event()
    ev.play(1, seed=3)
    assert not EventStanding.objects.filter(event=ev.event).exists()  # not computed inline
    gate.set()
    assert blocker.get(timeout=60) == 2
    embedded_tasks.shutdown(wait=True)
    assert EventStanding.objects.filter(event=ev.event).count() == 12
