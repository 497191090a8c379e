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
    """
