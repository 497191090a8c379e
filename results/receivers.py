"""The pipeline's side of the seam with ``games`` (connected in :mod:`results.apps`).

Receivers of :data:`games.signals.results_pending` and
:data:`games.signals.results_changed`: the first marks the event's standings stale inside
the confirming transaction, so the flag commits with the result and a lost task is always
visible (and healed later); the second, after the commit, enqueues the recomputation.
And of :data:`league.events.signals.event_season_changed`: the seasons' totals again.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from league.outages import enqueue
from results.pipeline.standings import mark_event_stale
from results.tasks import process_game_results, recompute_season_totals


def mark_stale(sender: Any, game: Game, **kwargs: Any) -> None:
    """Inside the confirming transaction: mark the event's standings stale."""
    table = game.table
    if table is not None:
        mark_event_stale(table.round.event_id)


def enqueue_results(sender: Any, game: Game, **kwargs: Any) -> None:
    """After commit: enqueue ``games.process_game_results`` for the game.

    If the broker is down the event stays stale and ``games.heal_results`` (beat) or the
    next task run picks it up: a failed enqueue never fails the caller
    (``league.outages.enqueue`` catches whatever a broker or result-backend outage raises
    and logs it)."""
    enqueue(process_game_results, game.pk)


def enqueue_season_totals(sender: Any, event_id: int, seasons: set[int], **kwargs: Any) -> None:
    """After commit: an event moved into, out of or between seasons; add up those
    seasons' totals again (a lost task: ``manage.py rebuild_results`` settles them)."""
    if seasons:
        enqueue(recompute_season_totals, sorted(seasons))
