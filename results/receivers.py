"""The pipeline's side of the seam with ``games`` (connected in :mod:`results.apps`).

Receivers of :data:`games.signals.results_pending` and
:data:`games.signals.results_changed`: the first marks the event's standings stale inside
the confirming transaction, so the flag commits with the result and a lost task is always
visible (and healed later); the second, after the commit, enqueues the recomputation.
And of :data:`league.events.signals.event_season_changed`: the seasons' totals again.
And of an event's save (Django's ``post_save``, connected here): an event of a season
ranked as a circuit finished, reopened or changed category, so the circuit again; and of
:data:`league.clubs.circuits.season_circuit_changed` (connected here): likewise.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Game
from league.clubs.circuits import season_circuit_changed
from league.models import Event, Season
from league.outages import enqueue
from results.pipeline.standings import mark_event_stale
from results.tasks import heal_results, process_game_results, recompute_season_totals


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


def enqueue_imported_games(game_ids: list[int]) -> None:
    """After an import's commit: one heal for the whole file (every stale event and every
    game the ratings missed, so one ratings replay) instead of one task per game."""
    if game_ids:
        enqueue(heal_results)


def enqueue_season_totals(sender: Any, event_id: int, seasons: set[int], **kwargs: Any) -> None:
    """After commit: an event moved into, out of or between seasons; add up those
    seasons' totals again (a lost task: ``manage.py rebuild_results`` settles them)."""
    if seasons:
        enqueue(recompute_season_totals, sorted(seasons))


#: The event fields a circuit standing reads (its season's, its status, its category).
CIRCUIT_FIELDS = frozenset({"status", "circuit_category", "season"})


@receiver(post_save, sender=Event, dispatch_uid="results.circuit_event_saved")
def enqueue_circuit(sender: Any, instance: Event, update_fields: Any = None, **kwargs: Any) -> None:
    """An event of a circuit season saved with what the circuit reads (a whole save may
    have changed any of it): its season's totals and circuit again, after the commit."""
    if update_fields is not None and not CIRCUIT_FIELDS & set(update_fields):
        return
    season_id = instance.season_id
    if season_id is None or not Season.objects.filter(pk=season_id, circuit__isnull=False).exists():
        return
    transaction.on_commit(lambda: enqueue(recompute_season_totals, [season_id]))


@receiver(season_circuit_changed, dispatch_uid="results.season_circuit_changed")
def enqueue_circuit_season(sender: Any, season_id: int, **kwargs: Any) -> None:
    """After commit: a season's circuit profile changed; rank the season again."""
    enqueue(recompute_season_totals, [season_id])
