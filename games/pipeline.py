"""The seam between recorded games and everything computed from them (standings,
ratings: issue 8).

``games.services`` calls :func:`results_pending` inside the transaction of every change to
what counts — a version confirmed (first time or a correction) or a game released — and
:func:`results_changed` from ``transaction.on_commit``, so the task only ever sees
committed data.
"""

from __future__ import annotations

import logging

from games.models import Game

logger = logging.getLogger(__name__)


def results_pending(game: Game) -> None:
    """Inside the confirming transaction: mark the event's standings stale, so the flag
    commits with the result and a lost task is always visible (and healed later)."""
    from games.results import mark_event_stale

    table = game.table
    if table is not None:
        mark_event_stale(table.round.event_id)


def results_changed(game: Game) -> None:
    """After commit: enqueue ``games.process_game_results`` for the game.

    Read what changed with ``games.selectors.confirmed_version(game)`` and
    ``game.status`` / ``game.event`` / ``game.round``. If the broker is down the event
    stays stale and ``games.heal_results`` (beat) or the next task run picks it up: a
    failed enqueue never fails the caller (``league.outages.enqueue`` catches whatever a
    broker or result-backend outage raises and logs it).
    """
    from games.tasks import process_game_results
    from league.outages import enqueue

    enqueue(process_game_results, game.pk)
