"""An event's standings and its season's totals, from the event's released games.

:func:`recompute_event` loads the event's confirmed records in one pass, scores them stage
by stage (:mod:`results.pipeline.stages`: ``engine.standings`` for a one-stage event,
``engine.formats.stages`` otherwise), and writes the rows — the public final order and
every computed stage's cumulative standing — with bulk inserts inside one transaction,
under a lock on the event's :class:`~results.models.EventResults` row; then the season's
totals (:func:`recompute_season`). Idempotent: an unchanged recomputation writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from league.models import Event, Season
from results.models import EventResults, EventStanding, SeasonStanding, StageStanding
from results.pipeline.circuit import recompute_circuit
from results.pipeline.stages import StageResult, compute, load

log = logging.getLogger(__name__)


@dataclass
class EventReport:
    event_id: int
    changed: bool
    games: int = 0
    warnings: list[dict[str, Any]] = field(default_factory=list)  # [{"code", "params"}]


def recompute_event(
    event_id: int, force: bool = False, season: bool = True, only_if_stale: bool = False
) -> EventReport:
    """Score the event's released games with its profile, rank them by its ladder and
    write the standings (and its season's totals) if anything changed (``force``: write
    them anyway, as a rebuild does).

    ``only_if_stale``: do nothing if the standings are not stale once their row is
    locked. Every change that counts marks them stale in its own transaction
    (:func:`mark_event_stale`, which waits for this lock), so a fresh row means a
    recomputation that started after the change committed — the burst of a round's end
    costs one recomputation per wave instead of one per game."""
    EventResults.objects.get_or_create(event_id=event_id, defaults={"seed": event_id})
    with transaction.atomic():
        _share_event(event_id)
        state = EventResults.objects.select_for_update().get(pk=event_id)
        if only_if_stale and not state.stale and not force:
            return EventReport(event_id, False)
        event = Event.objects.select_related("season").get(pk=event_id)
        computed = compute(load(event), state.seed)
        if computed.error is not None:
            return _refused(state, computed)
        rows, stage_rows, warnings = computed.rows, computed.stage_rows, computed.warnings
        digest = hashlib.sha256(
            json.dumps(
                [computed.profile, computed.precedence, rows, stage_rows, warnings]
                + ([computed.plans] if computed.plans else []),
                sort_keys=True,
            ).encode()
        ).hexdigest()
        never_had_rows = not rows and not stage_rows and not state.digest
        report = EventReport(
            event_id,
            force or (digest != state.digest and not never_had_rows),
            computed.games,
            warnings,
        )
        if not report.changed and not state.stale:
            return report
        if report.changed:
            before = set(
                EventStanding.objects.filter(event_id=event_id, player__isnull=False).values_list(
                    "player_id", flat=True
                )
            )
            EventStanding.objects.filter(event_id=event_id).delete()
            EventStanding.objects.bulk_create(
                [EventStanding(event_id=event_id, **r) for r in rows], batch_size=1000
            )
            StageStanding.objects.filter(event_id=event_id).delete()
            StageStanding.objects.bulk_create(
                [StageStanding(event_id=event_id, **r) for r in stage_rows], batch_size=1000
            )
            state.version += 1
            state.digest = digest
            state.profile = computed.profile
            state.precedence = computed.precedence
            state.games = computed.games
            state.players = len(rows)
            state.warnings = warnings
            if season and event.season_id is not None:
                players: set[int] = set(before)
                players.update(r["player_id"] for r in rows if isinstance(r["player_id"], int))
                recompute_season(event.season_id, players)
        state.stale = False
        state.stale_since = None
        state.computed_at = timezone.now()
        state.save()
    return report


def _refused(state: EventResults, computed: StageResult) -> EventReport:
    """The engine refused the event's stages (a player seated outside a cut, a stage it
    cannot compute): the standings written before stay, the refusal is the warning the
    organisers see, and the digest no longer matches any rows, so the next good
    computation writes everything again."""
    assert computed.error is not None
    warnings = [*computed.warnings, computed.error]
    state.warnings = warnings
    state.digest = hashlib.sha256(json.dumps(computed.error, sort_keys=True).encode()).hexdigest()
    state.version += 1
    state.stale = False
    state.stale_since = None
    state.computed_at = timezone.now()
    state.save()
    return EventReport(state.pk, False, computed.games, warnings)


def recompute_season(season_id: int, players: Iterable[int] | None = None) -> None:
    """A season's per-player totals over its events' standings, for ``players`` (None:
    everybody). Runs in the caller's transaction; the season row is locked so that two
    events of the season do not write it at once."""
    Season.objects.select_for_update().filter(pk=season_id).first()
    rows = EventStanding.objects.filter(event__season_id=season_id, player__isnull=False)
    old = SeasonStanding.objects.filter(season_id=season_id)
    if players is not None:
        ids = list(players)
        rows = rows.filter(player_id__in=ids)
        old = old.filter(player_id__in=ids)
    totals = rows.values("player_id").annotate(
        n_events=Count("event_id"),
        n_games=Sum("games"),
        n_wins=Sum("wins"),
        total=Sum("points"),
    )
    old.delete()
    SeasonStanding.objects.bulk_create(
        [
            SeasonStanding(
                season_id=season_id,
                player_id=t["player_id"],
                events=t["n_events"],
                games=t["n_games"] or 0,
                wins=t["n_wins"] or 0,
                points=t["total"] or 0,
            )
            for t in totals
        ],
        batch_size=2000,
    )
    recompute_circuit(season_id)  # a season without a circuit: its circuit columns cleared


def _share_event(event_id: int) -> None:
    """Lock the event's row in key-share mode (PostgreSQL) until the end of the
    transaction: the lock order is the event, then its standings row."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {connection.ops.quote_name(Event._meta.db_table)}"
                " WHERE id = %s FOR KEY SHARE",
                [event_id],
            )


def mark_event_stale(event_id: int) -> None:
    """Flag an event's standings as out of date (cleared by :func:`recompute_event`).

    The event's row first (PostgreSQL: a key-share lock, which the commit's foreign-key
    checks of the audit rows take anyway): taken after the standings row it closed a
    deadlock cycle between two confirmations of one event (seen in ``bench/burst.py``)."""
    _share_event(event_id)
    now = timezone.now()
    updated = EventResults.objects.filter(pk=event_id).update(stale=True, stale_since=now)
    if not updated:
        EventResults.objects.get_or_create(
            event_id=event_id, defaults={"seed": event_id, "stale": True, "stale_since": now}
        )
