"""Celery tasks of the results app: adapters that load by id and call a service.

The task names are the ones they had in the games app (``games.*``): beat's schedule and
any message already queued under them keep working.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from results.services import heal, heal_stale_events, process_game, recompute_seasons

#: Every results task: acknowledged once done (a worker lost mid-task gives it to another),
#: retried with backoff while the database is unreachable.
RETRIED: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(
    name="games.process_game_results",
    **RETRIED,
)
def process_game_results(game_id: int) -> dict[str, Any]:
    """A game's confirmed record or release changed: recompute its event's standings and
    the ratings (:func:`results.services.process_game`)."""
    report = process_game(game_id, only_if_stale=True)
    healed = heal_stale_events()  # events whose own task was lost while no worker ran
    return {
        "game": game_id,
        "event_changed": bool(report.event and report.event.changed),
        "ratings_changed": report.ratings.changed,
        "healed_events": healed,
    }


@shared_task(
    name="games.heal_results",
    **RETRIED,
)
def heal_results() -> dict[str, Any]:
    """Recompute stale events and any game the ratings missed (schedule it with beat,
    e.g. every minute; it is cheap when there is nothing to do)."""
    report = heal()
    return {"events": report.events, "ratings_changed": report.ratings.changed}


@shared_task(
    name="results.recompute_seasons",
    **RETRIED,
)
def recompute_season_totals(season_ids: list[int]) -> dict[str, Any]:
    """An event moved between seasons: add those seasons' totals up again."""
    return {"seasons": recompute_seasons(season_ids)}
