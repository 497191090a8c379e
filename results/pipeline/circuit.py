"""A season's circuit standing (formats.md §3), from its events' final orders.

:func:`recompute_circuit` reads the public final order of each finished event of the
season (its :class:`~results.models.EventStanding` rows), turns them into the engine's
:class:`~engine.formats.circuit.CircuitEvent` (the field is the number of rows, the
category the event's ``circuit_category``), ranks them with the season's circuit
profile and seed (:func:`engine.formats.circuit.compute_circuit`) and writes each
player's ``SeasonStanding.circuit_*`` columns. Events and players are named by their
ids inside the engine (names may repeat; the pages show the names). An engine refusal
(an event whose category the profile lacks, say) writes no standing: it is logged and
kept as a warning (:class:`~results.models.SeasonCircuit`) that the season page shows.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from engine.formats.circuit import (
    CircuitError,
    CircuitEvent,
    CircuitProfile,
    CircuitStanding,
    compute_circuit,
)
from league.models import Event, Season
from results.models import EventStanding, SeasonCircuit, SeasonStanding

log = logging.getLogger(__name__)

#: The circuit columns of a season's standing row.
CIRCUIT_COLUMNS = (
    "circuit_points",
    "circuit_rank",
    "circuit_tied",
    "circuit_ranked",
    "circuit_results",
    "circuit_above_next",
)
_BLANK: dict[str, Any] = {
    "circuit_points": None,
    "circuit_rank": None,
    "circuit_tied": False,
    "circuit_ranked": False,
    "circuit_results": [],
    "circuit_above_next": {},
}


def circuit_events(season: Season) -> list[CircuitEvent]:
    """The season's finished events, in date order, as the engine's circuit events:
    each one's final order (players without a player row take their place but score for
    nobody), its field the number of lines."""
    events = list(
        Event.objects.filter(season=season, status=Event.Status.FINISHED)
        .order_by("starts_on", "pk")
        .values_list("pk", "circuit_category")
    )
    ranks: dict[int, list[tuple[str, int]]] = {pk: [] for pk, _ in events}
    sizes: dict[int, int] = dict.fromkeys(ranks, 0)
    rows = EventStanding.objects.filter(event_id__in=list(ranks)).order_by("event_id", "position")
    for event_id, player_id, rank in rows.values_list("event_id", "player_id", "rank"):
        sizes[event_id] += 1
        if player_id is not None:
            ranks[event_id].append((str(player_id), rank))
    return [
        CircuitEvent(key=str(pk), category=category, players=sizes[pk], ranks=tuple(ranks[pk]))
        for pk, category in events
        if sizes[pk]  # an event without a released game has no final order yet
    ]


def recompute_circuit(season_id: int) -> None:
    """Circuit points and places of a season with a circuit profile (its circuit columns
    cleared when it has none). Runs in the caller's transaction (the season's totals are
    written just before, under the season's lock)."""
    season = Season.objects.select_related("circuit").get(pk=season_id)
    rows = SeasonStanding.objects.filter(season_id=season_id)
    if season.circuit is None:
        rows.exclude(circuit_points=None, circuit_rank=None, circuit_results=[]).update(**_BLANK)
        SeasonCircuit.objects.filter(season_id=season_id).delete()
        return
    try:
        profile = CircuitProfile.parse(season.circuit.data)
        standing = compute_circuit(profile, circuit_events(season), seed=season.circuit_seed)
    except CircuitError as err:
        log.warning("season %s: circuit not computed: %s", season_id, err)
        _state(season_id, [{"code": err.code, "params": _plain(err.params)}])
        return
    _write(season_id, standing)
    _state(season_id, [])


def _plain(params: Any) -> dict[str, Any]:
    """The error's params as JSON (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple | list) else v for k, v in dict(params).items()}


def _state(season_id: int, warnings: list[dict[str, Any]]) -> None:
    SeasonCircuit.objects.update_or_create(
        season_id=season_id, defaults={"warnings": warnings, "computed_at": timezone.now()}
    )


def _write(season_id: int, standing: CircuitStanding) -> None:
    """Every line's columns; rows created for players without one, rows of players
    outside the circuit (no finished event yet) cleared."""
    lines = standing.lines
    existing = {r.player_id: r for r in SeasonStanding.objects.filter(season_id=season_id)}
    changed: list[SeasonStanding] = []
    new: list[SeasonStanding] = []
    seen: set[int] = set()
    for i, line in enumerate(lines):
        player_id = int(line.player)
        seen.add(player_id)
        values = {
            "circuit_points": line.points,
            "circuit_rank": line.rank,
            "circuit_tied": line.tied,
            "circuit_ranked": line.ranked,
            "circuit_results": [
                {
                    "event": int(r.event),
                    "rank": r.rank,
                    "points": str(r.points),
                    "counted": r.counted,
                    "reason": r.reason,
                }
                for r in line.results
            ],
            "circuit_above_next": (
                _above(standing, line.player, lines[i + 1].player) if i + 1 < len(lines) else {}
            ),
        }
        row = existing.get(player_id)
        if row is None:
            new.append(SeasonStanding(season_id=season_id, player_id=player_id, **values))
        elif _differs(row, values):
            for key, value in values.items():
                setattr(row, key, value)
            changed.append(row)
    for player_id, row in existing.items():
        if player_id not in seen and _differs(row, _BLANK):
            for key, value in _BLANK.items():
                setattr(row, key, value)
            changed.append(row)
    if new:
        SeasonStanding.objects.bulk_create(new, batch_size=2000)
    if changed:
        SeasonStanding.objects.bulk_update(changed, list(CIRCUIT_COLUMNS), batch_size=2000)


def _above(standing: CircuitStanding, higher: str, lower: str) -> dict[str, Any]:
    """Why ``higher`` is above the next line: the rung (None: tied on the whole ladder),
    both values as the engine shows them, the next player's id, the lots' seed."""
    why = standing.explain(higher, lower)
    out: dict[str, Any] = {
        "criterion": why.criterion,
        "higher": why.higher_value,
        "lower": why.lower_value,
        "next": int(lower),
    }
    if why.criterion == "ranked":
        out["min_events"] = standing.min_events
    elif why.criterion == "lots":
        out["seed"] = standing.seed
    return out


def _differs(row: SeasonStanding, values: dict[str, Any]) -> bool:
    return any(getattr(row, key) != value for key, value in values.items())
