"""What the events room tells whoever listens (the ``results`` app, connected in
``results.apps``), so that the league never imports what sits above it.

:data:`event_season_changed` is sent after the commit of an event's move into, out of or
between seasons, with ``event_id`` and ``seasons`` (the season ids concerned, without
``None``): each of those seasons' totals must be added up again.
"""

from __future__ import annotations

from django.dispatch import Signal

event_season_changed = Signal()
