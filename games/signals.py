"""What the games app tells whoever listens when a game's result changes.

``games.services`` sends :data:`results_pending` inside the transaction of every change to
what counts — a version confirmed (first time or a correction), a game released or
voided — and :data:`results_changed` from ``transaction.on_commit``, so a receiver only
ever sees committed data. Both are sent with ``sender=Game`` and ``game=`` the game.

The games app knows nothing of who listens: the ``results`` app connects its pipeline to
these in ``results.apps`` (it marks the event's standings stale, then enqueues the
recomputation), so dependencies keep pointing one way, ``results → games``.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Inside the changing transaction (a receiver's writes commit or roll back with it).
results_pending = Signal()
#: After the commit (a receiver must never fail the caller: enqueue, don't compute).
results_changed = Signal()
