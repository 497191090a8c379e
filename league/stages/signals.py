"""What the stages room tells whoever listens (the ``results`` app), so that the league
never imports what sits above it.

:data:`stages_changed` is sent after the commit of every change to an event's stages —
its list replaced (rounds, scoring, multiplier, carry, entry, hidden), a cut confirmed or
reopened, a stage finished — with ``sender=Stage``, ``event_id`` and ``action`` (the
audit action: ``stage.set``, ``stage.cut``, ``stage.cut_reopen``, ``stage.finish``): the
event's standings (and its stage standings) must be computed again.
"""

from __future__ import annotations

from django.dispatch import Signal

#: After the commit (a receiver must never fail the caller: enqueue, don't compute).
stages_changed = Signal()
