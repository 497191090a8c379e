"""A season's circuit standing as its page and API read it (formats.md §3).

:func:`season_circuit` reads the season's ``SeasonStanding.circuit_*`` columns (written
by :mod:`results.pipeline.circuit`) and says everything in the reader's language: each
player's counted and dropped events with the reason, why each line is above the next,
why a player is unranked, and the warning kept when the engine refused the circuit.
Numbers stay :class:`~decimal.Decimal` here; the template and the API format them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from itertools import pairwise
from typing import Any

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.engine_text import message_text
from league.models import Event, Player, Season
from results.models import SeasonCircuit, SeasonStanding


@dataclass
class CircuitEventLine:
    """One event of a player's circuit line."""

    event: int
    name: str
    url: str  # the event's public standings
    rank: int
    points: Decimal
    counted: bool
    reason: str  # the engine's code word: all, best, beyond_best
    reason_text: str


@dataclass
class CircuitRow:
    """A player's line of the circuit standing."""

    player: Player
    rank: int
    tied: bool
    ranked: bool
    points: Decimal
    events: int
    counted: list[CircuitEventLine]
    dropped: list[CircuitEventLine]
    above_next: dict[str, Any]
    why: str  # why above the next line ("" on the last)
    unranked_reason: str  # why not ranked ("" when ranked)


@dataclass
class CircuitView:
    """The season's circuit: its profile version, its rows and what went wrong."""

    key: str
    best: int | None
    min_events: int
    ranked: list[CircuitRow] = field(default_factory=list)
    unranked: list[CircuitRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[CircuitRow]:
        return self.ranked + self.unranked


def points_text(value: Decimal | str | None) -> str:
    """Circuit points with two decimals, in the reader's notation (187.50 / 187,50)."""
    if value is None:
        return "—"
    return number_format(Decimal(value), 2)


def reason_text(reason: str, best: int | None) -> str:
    """Why one event counted or was dropped, in words."""
    if reason == "beyond_best":
        return ngettext(
            "dropped: not among the best %(best)s event",
            "dropped: not among the best %(best)s events",
            best or 0,
        ) % {"best": best}
    if reason == "best":
        return ngettext(
            "counted: among the best %(best)s event",
            "counted: among the best %(best)s events",
            best or 0,
        ) % {"best": best}
    return _("counted: every event counts")


def unranked_text(events: int, min_events: int) -> str:
    return ngettext(
        "not ranked: %(events)s event played, %(min)s needed",
        "not ranked: %(events)s events played, %(min)s needed",
        events,
    ) % {"events": events, "min": min_events}


def why_text(higher: str, lower: str, above: dict[str, Any]) -> str:
    """Why ``higher`` stands above ``lower`` (the stored ``circuit_above_next``)."""
    criterion = above.get("criterion")
    a, b = above.get("higher"), above.get("lower")
    names = {"higher": higher, "next": lower}
    if criterion == "points":
        return _("%(higher)s is above %(next)s on circuit points: %(a)s vs %(b)s") % {
            **names,
            "a": points_text(a),
            "b": points_text(b),
        }
    if criterion == "best_place":
        return _("%(higher)s is above %(next)s on the best single place: %(a)s vs %(b)s") % {
            **names,
            "a": a,
            "b": b,
        }
    if criterion == "events":
        return _("%(higher)s is above %(next)s on the number of counted events: %(a)s vs %(b)s") % {
            **names,
            "a": a,
            "b": b,
        }
    if criterion == "lots":
        return _(
            "%(higher)s is above %(next)s by the drawing of lots (seed %(seed)s): "
            "lot %(a)s vs %(b)s"
        ) % {**names, "a": a, "b": b, "seed": above.get("seed")}
    if criterion == "ranked":
        return _(
            "%(higher)s is above %(next)s, who played %(b)s event(s), fewer than the "
            "%(min)s needed to be ranked"
        ) % {**names, "b": b, "min": above.get("min_events")}
    return _("%(higher)s and %(next)s are level on every tie-break") % names


def _name(player: Player) -> str:
    return player.display_name or player.handle


def _warning(warning: dict[str, Any], events: dict[int, Event]) -> str:
    """An engine refusal, its event named (the engine knows events by id)."""
    params = dict(warning.get("params") or {})
    event_id = str(params.get("event", ""))
    if event_id.isdigit() and int(event_id) in events:
        params["event"] = events[int(event_id)].name
    return message_text({"code": warning.get("code", ""), "params": params})


def season_circuit(season: Season) -> CircuitView | None:
    """The season's circuit standing (None: the season is no circuit)."""
    circuit = season.circuit
    if circuit is None:
        return None
    best = circuit.data.get("best")
    min_events = int(circuit.data.get("min_events", 1))
    view = CircuitView(key=circuit.key, best=best, min_events=min_events)
    state = SeasonCircuit.objects.filter(season=season).first()
    events = {
        e.pk: e
        for e in Event.objects.filter(season=season)
        .select_related("club")
        .only("pk", "name", "slug", "club__slug")
    }
    if state is not None and state.warnings:
        view.warnings = [_warning(w, events) for w in state.warnings]
        return view  # the standing is not current: the plain totals only
    rows = list(
        SeasonStanding.objects.filter(season=season, circuit_rank__isnull=False)
        .select_related("player")
        .order_by("circuit_rank", "player__handle")
    )
    players = {r.player_id: r.player for r in rows}
    lines = [_row(r, events, best, min_events) for r in rows]
    for line, below in pairwise(lines):
        nxt = players.get(line.above_next.get("next", 0), below.player)
        line.why = why_text(_name(line.player), _name(nxt), line.above_next)
    view.ranked = [line for line in lines if line.ranked]
    view.unranked = [line for line in lines if not line.ranked]
    return view


def _row(
    row: SeasonStanding, events: dict[int, Event], best: int | None, min_events: int
) -> CircuitRow:
    results = []
    for r in row.circuit_results:
        event = events.get(r["event"])
        results.append(
            CircuitEventLine(
                event=r["event"],
                name=event.name if event is not None else "—",
                url=(
                    reverse("results:standings", args=[event.club.slug, event.slug])
                    if event is not None
                    else ""
                ),
                rank=r["rank"],
                points=Decimal(r["points"]),
                counted=r["counted"],
                reason=r["reason"],
                reason_text=reason_text(r["reason"], best),
            )
        )
    return CircuitRow(
        player=row.player,
        rank=row.circuit_rank or 0,
        tied=row.circuit_tied,
        ranked=row.circuit_ranked,
        points=row.circuit_points or Decimal(0),
        events=len(results),
        counted=[r for r in results if r.counted],
        dropped=[r for r in results if not r.counted],
        above_next=row.circuit_above_next or {},
        why="",
        unranked_reason="" if row.circuit_ranked else unranked_text(len(results), min_events),
    )
