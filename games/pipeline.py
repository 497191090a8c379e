"""The seam between recorded games and everything computed from them (standings,
ratings: issue 8).

``games.services`` calls :func:`results_changed` exactly once per committed change to
what counts — a version confirmed (first time or a correction) or a game released —
always from ``transaction.on_commit``, so the pipeline only ever sees committed data.
"""

from __future__ import annotations

from games.models import Game


def results_changed(game: Game) -> None:
    """A game's confirmed record or its release changed. Issue 8 fills this in
    (recompute the event's standings and the ratings); until then nothing depends on it.

    Read what changed with ``games.selectors.confirmed_version(game)`` and
    ``game.status`` / ``game.event`` / ``game.round``.

    Marks the event's standings stale, then enqueues ``games.process_game_results``. If
    the broker is down the game stays counted as out of date and ``games.heal_results``
    (beat) or the next task run picks it up: a failed enqueue never fails the caller.
    """
    import logging

    from kombu.exceptions import OperationalError as BrokerError

    from games.results import mark_event_stale
    from games.tasks import process_game_results

    table = game.table
    if table is not None:
        mark_event_stale(table.round.event_id)
    try:
        process_game_results.delay(game.pk)
    except (BrokerError, OSError):  # the broker is down: heal_results catches up later
        logging.getLogger(__name__).exception("could not enqueue results of game %s", game.pk)
