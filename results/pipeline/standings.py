"""An event's standings and its season's totals, from the event's released games.

:func:`recompute_event` loads the event's confirmed records in one pass, scores them with
the event's profile and ranks them by its ladder (``engine.scoring`` /
``engine.standings``), and writes the rows with bulk inserts inside one transaction,
under a lock on the event's :class:`~results.models.EventResults` row; then the season's
totals (:func:`recompute_season`). Idempotent: an unchanged recomputation writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from engine.errors import EngineError
from engine.record import parse_record
from engine.scoring import format_points, get_profile, summarize
from engine.standings import DEFAULT_PRECEDENCE, compute_standings
from league.models import Event, Player, Season
from results.models import EventResults, EventStanding, SeasonStanding
from results.pipeline.circuit import recompute_circuit
from results.pipeline.rated import released_versions

log = logging.getLogger(__name__)


@dataclass
class EventReport:
    event_id: int
    changed: bool
    games: int = 0
    warnings: list[dict[str, Any]] = field(default_factory=list)  # [{"code", "params"}]


def _dec(value: Decimal) -> str:
    return format_points(value)


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
        versions = list(
            released_versions()
            .filter(game__table__round__event_id=event_id)
            .order_by("game__table__round__number", "game__table__number", "game_id")
            .values_list("game_id", "record")
        )
        warnings: list[dict[str, Any]] = []  # stored as codes and params, shown translated
        summaries = []
        for game_id, record in versions:
            try:
                summaries.append(summarize(parse_record(record), str(game_id)))
            except (EngineError, ValueError) as e:  # a confirmed record always parses
                log.error("game %s: record does not parse: %s", game_id, e)
                warnings.append({"code": "results.record_skipped", "params": {"game": game_id}})
        profile = get_profile(event.scoring_profile or "club-v1")
        precedence = tuple(event.tiebreak_precedence or DEFAULT_PRECEDENCE)
        standings = compute_standings(summaries, profile, precedence, seed=state.seed)
        warnings.extend({"code": w.code, "params": dict(w.params)} for w in standings.warnings)
        ids = dict(
            Player.objects.filter(handle__in=[r.player for r in standings.rows]).values_list(
                "handle", "pk"
            )
        )
        rows = []
        for position, row in enumerate(standings.rows, start=1):
            above: dict[str, Any] = {}
            if position < len(standings.rows):
                ex = standings.explain(row.player, standings.rows[position].player)
                above = {
                    "metric": ex.metric,
                    "higher": None if ex.higher_value is None else str(ex.higher_value),
                    "lower": None if ex.lower_value is None else str(ex.lower_value),
                    "level_on": list(ex.level_on),
                }
            rows.append(
                {
                    "position": position,
                    "handle": row.player,
                    "player_id": ids.get(row.player),
                    "rank": row.rank,
                    "tied": row.tied,
                    "points": _dec(row.points),
                    "wins": row.wins,
                    "games": row.games,
                    "awards": _dec(row.awards),
                    "ci": _dec(row.ci),
                    "metrics": {k: str(v) for k, v in row.metrics.items()},
                    "above_next": above,
                    "items": [
                        {
                            "game": int(i.game),
                            "kind": i.kind,
                            "points": _dec(i.points),
                            "code": i.code,
                            "params": dict(i.params),
                        }
                        for i in row.items
                    ],
                }
            )
        digest = hashlib.sha256(
            json.dumps(
                [standings.profile, list(standings.precedence), rows, warnings], sort_keys=True
            ).encode()
        ).hexdigest()
        never_had_rows = not rows and not state.digest
        report = EventReport(
            event_id,
            force or (digest != state.digest and not never_had_rows),
            len(versions),
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
            state.version += 1
            state.digest = digest
            state.profile = standings.profile
            state.precedence = list(standings.precedence)
            state.games = len(versions)
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
