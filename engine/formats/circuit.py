"""Circuits: a season's events ranked by place points (formats.md §3).

A circuit turns each event's final order into points by place, weighted by the event's
category and the size of its field, and ranks the players on the sum of their best
events. Everything is exact (fractions, rounded once per event to 0.01 half up), every
line says which events counted and which were dropped and why, and the standing can say
which rung put one player above another, so a season's table can be checked by hand.
The drawing of lots is :func:`engine.standings.draw_lots`: the same events and seed give
the same standing anywhere.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from engine.errors import EngineError
from engine.messages import Message, Param, Params
from engine.scoring import format_points
from engine.standings import draw_lots

__all__ = [
    "FORMAT",
    "LIMITS",
    "CircuitError",
    "CircuitEvent",
    "CircuitExplanation",
    "CircuitLine",
    "CircuitProfile",
    "CircuitResult",
    "CircuitStanding",
    "compute_circuit",
    "event_points",
    "field_factor",
    "parse_circuit",
]

#: The ``format`` of a CIRCUIT.json document (formats.md §4).
FORMAT = "kgc/1"

#: Bounds on every input (conventions §15): a season fits well inside them, and the
#: largest total (places × category × field × events) stays below 10^10, which the
#: results tables store with two decimals.
LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "places": 500,
        "categories": 50,
        "category_length": 100,
        "place_points": 10_000,  # the largest place points
        "weight": 10,  # the largest category weight or field bound
        "decimals": 6,  # decimal places of any profile number
        "reference": 100_000,
        "events": 1_000,
        "players": 100_000,  # in one event
        "name_length": 200,  # an event's or a player's name
    }
)

Criterion = Literal["ranked", "points", "best_place", "events", "lots"]
Reason = Literal["all", "best", "beyond_best"]

_CENT = Fraction(1, 100)


class CircuitError(EngineError):
    """A circuit profile, event or document that cannot be ranked as given."""


# --- the profile ------------------------------------------------------------------------


_PROFILE_KEYS = ("places", "categories", "field", "best", "min_events")
_FIELD_KEYS = ("reference", "min", "max")


@dataclass(frozen=True)
class CircuitProfile:
    """How a circuit turns places into points and which events count (formats.md §3)."""

    places: tuple[Decimal, ...]
    categories: Mapping[str, Decimal]
    field_reference: int = 1
    field_min: Decimal = Decimal(1)
    field_max: Decimal = Decimal(1)
    best: int | None = None
    min_events: int = 1

    @classmethod
    def parse(cls, data: Mapping[str, object]) -> CircuitProfile:
        """The profile of the spec's JSON, or a :class:`CircuitError` ``circuit.profile``.

        ``places`` and ``categories`` are required; ``field`` defaults to no field
        factor (reference 1, min and max 1), ``best`` to null (every event counts) and
        ``min_events`` to 1. Unknown keys are refused, not ignored, so a misspelt
        ``min_event`` never silently ranks everyone. The error's variant says what is
        wrong and ``fields`` names every field wrong in that way.
        """
        return _ProfileReader(data).read()

    def as_json(self) -> dict[str, object]:
        """The spec's JSON, decimals as strings: :meth:`parse` gives this profile back."""
        return {
            "places": [str(p) for p in self.places],
            "categories": {k: str(v) for k, v in self.categories.items()},
            "field": {
                "reference": self.field_reference,
                "min": str(self.field_min),
                "max": str(self.field_max),
            },
            "best": self.best,
            "min_events": self.min_events,
        }


class _ProfileReader:
    """Reads a profile, collecting the fields wrong in each way before raising."""

    def __init__(self, data: object) -> None:
        self.data = data
        self.problems: dict[str, list[str]] = {}

    def bad(self, problem: str, name: str) -> None:
        self.problems.setdefault(problem, []).append(name)

    def read(self) -> CircuitProfile:
        data = self.data
        if not isinstance(data, Mapping):
            raise CircuitError("circuit.profile", {"variant": "type", "fields": ["profile"]})
        for key in data:
            if key not in _PROFILE_KEYS:
                self.bad("unknown", str(key))
        places = self.places(data.get("places"))
        categories = self.categories(data.get("categories"))
        reference, low, high = self.field(data.get("field", {}))
        best = None if data.get("best") is None else self.whole(data["best"], "best", 1)
        min_events = self.whole(data.get("min_events", 1), "min_events", 0)
        if self.problems:
            # the first kind of problem, in the reader's order, with every field it hit
            problem, names = next(iter(self.problems.items()))
            raise CircuitError("circuit.profile", {"variant": problem, "fields": names})
        return CircuitProfile(
            places=places,
            categories=MappingProxyType(categories),
            field_reference=reference,
            field_min=low,
            field_max=high,
            best=best,
            min_events=min_events,
        )

    def places(self, value: object) -> tuple[Decimal, ...]:
        if value is None:
            self.bad("missing", "places")
            return ()
        if not isinstance(value, list | tuple):
            self.bad("type", "places")
            return ()
        if not value:
            self.bad("empty", "places")
        if len(value) > LIMITS["places"]:
            self.bad("too_many", "places")
            return ()
        out = []
        for i, item in enumerate(value):
            out.append(self.decimal(item, f"places[{i}]", LIMITS["place_points"]))
        return tuple(out)

    def categories(self, value: object) -> dict[str, Decimal]:
        if value is None:
            self.bad("missing", "categories")
            return {}
        if not isinstance(value, Mapping):
            self.bad("type", "categories")
            return {}
        if not value:
            self.bad("empty", "categories")
        if len(value) > LIMITS["categories"]:
            self.bad("too_many", "categories")
            return {}
        out: dict[str, Decimal] = {}
        for name, weight in value.items():
            if not isinstance(name, str) or not name or len(name) > LIMITS["category_length"]:
                self.bad("name", f"categories.{name}")
                continue
            out[name] = self.decimal(weight, f"categories.{name}", LIMITS["weight"])
        return out

    def field(self, value: object) -> tuple[int, Decimal, Decimal]:
        one = Decimal(1)
        if not isinstance(value, Mapping):
            self.bad("type", "field")
            return 1, one, one
        for key in value:
            if key not in _FIELD_KEYS:
                self.bad("unknown", f"field.{key}")
        reference = self.whole(value.get("reference", 1), "field.reference", 1)
        if reference > LIMITS["reference"]:
            self.bad("too_large", "field.reference")
        low = self.decimal(value.get("min", one), "field.min", LIMITS["weight"])
        high = self.decimal(value.get("max", one), "field.max", LIMITS["weight"])
        if low > high:
            self.bad("order", "field.min")
        return reference, low, high

    def decimal(self, value: object, name: str, limit: int) -> Decimal:
        """An exact, finite, bounded decimal from a string or an integer (never a float:
        ``0.1`` in JSON is not the organiser's 0.1 by the time it is read)."""
        zero = Decimal(0)
        if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
            self.bad("not_decimal", name)
            return zero
        try:
            result = Decimal(value)
        except InvalidOperation:
            self.bad("not_decimal", name)
            return zero
        if not result.is_finite():
            self.bad("not_decimal", name)
            return zero
        if result < 0:
            self.bad("negative", name)
            return zero
        if result > limit or -result.as_tuple().exponent > LIMITS["decimals"]:  # type: ignore[operator]
            self.bad("too_large", name)
            return zero
        return result

    def whole(self, value: object, name: str, least: int) -> int:
        if type(value) is not int:
            self.bad("not_integer", name)
            return least
        if value < least:
            self.bad("too_small", name)
            return least
        return value


# --- events and their points ------------------------------------------------------------


@dataclass(frozen=True)
class CircuitEvent:
    """One event of the circuit: its final order (a rank per player; ties = equal ranks)
    and how many played, for the field factor. Players not listed score nothing."""

    key: str
    category: str
    players: int
    ranks: tuple[tuple[str, int], ...]


def _factor(profile: CircuitProfile, players: int) -> Fraction:
    share = Fraction(players, profile.field_reference)
    return min(max(share, Fraction(profile.field_min)), Fraction(profile.field_max))


def field_factor(profile: CircuitProfile, players: int) -> Decimal:
    """``min(max(players / R, a), b)``, as a Decimal to the context's precision.

    Points are computed from the exact fraction, so a factor like 48/36 never rounds a
    result twice.
    """
    factor = _factor(profile, players)
    return Decimal(factor.numerator) / Decimal(factor.denominator)


def _round(value: Fraction) -> Decimal:
    """Two decimals, half up (every value is non-negative)."""
    cents = math.floor(value / _CENT + Fraction(1, 2))
    return Decimal(cents).scaleb(-2)


def _place(profile: CircuitProfile, place: int) -> Fraction:
    return Fraction(profile.places[place - 1]) if place <= len(profile.places) else Fraction(0)


def event_points(profile: CircuitProfile, event: CircuitEvent) -> Mapping[str, Decimal]:
    """Each ranked player's circuit points from ``event``, in the event's order.

    ``places[rank − 1] × category × field factor``, rounded to 0.01 half up; t players
    tied at rank r share the mean of places r … r + t − 1 (a place beyond the list is
    worth 0). The event is checked first (:func:`_check_event`).
    """
    _check_event(profile, event)
    weight = Fraction(profile.categories[event.category]) * _factor(profile, event.players)
    sharing = Counter(rank for _, rank in event.ranks)
    shared: dict[int, Fraction] = {}
    for rank, count in sharing.items():
        spanned = sum((_place(profile, p) for p in range(rank, rank + count)), Fraction(0))
        shared[rank] = spanned / count
    return MappingProxyType({player: _round(shared[rank] * weight) for player, rank in event.ranks})


def _check_event(profile: CircuitProfile, event: CircuitEvent) -> None:
    """Refuse an event that cannot be scored: each problem has its own code."""
    name: Params = {"event": event.key}
    if not event.key or len(event.key) > LIMITS["name_length"]:
        raise CircuitError("circuit.event_name", {"event": event.key[: LIMITS["name_length"]]})
    if event.category not in profile.categories:
        raise CircuitError(
            "circuit.category",
            {**name, "category": event.category, "categories": sorted(profile.categories)},
        )
    if not 1 <= event.players <= LIMITS["players"]:
        raise CircuitError(
            "circuit.field_size", {**name, "field_size": event.players, "limit": LIMITS["players"]}
        )
    if len(event.ranks) > event.players:
        raise CircuitError(
            "circuit.ranks_over",
            {**name, "count": len(event.ranks), "field_size": event.players},
        )
    seen: set[str] = set()
    for player, rank in event.ranks:
        if not player or len(player) > LIMITS["name_length"]:
            raise CircuitError("circuit.player_name", dict(name))
        if player in seen:
            raise CircuitError("circuit.player_twice", {**name, "player": player})
        seen.add(player)
        if rank < 1:
            raise CircuitError(
                "circuit.rank", {"variant": "low", **name, "player": player, "rank": rank}
            )
    sharing = Counter(rank for _, rank in event.ranks)
    for rank, count in sorted(sharing.items()):
        last = rank + count - 1
        if last > event.players:
            variant = "high" if count == 1 else "shared_high"
            raise CircuitError(
                "circuit.rank",
                {
                    **name,
                    "variant": variant,
                    "rank": rank,
                    "count": count,
                    "field_size": event.players,
                },
            )
        inside = [r for r in sharing if rank < r <= last]
        if inside:
            raise CircuitError(
                "circuit.rank",
                {"variant": "inside", **name, "rank": inside[0], "tie_rank": rank, "count": count},
            )


# --- the standing -----------------------------------------------------------------------


@dataclass(frozen=True)
class CircuitResult:
    """One event of a player: their rank, circuit points, and whether and why it counted.

    ``reason`` is a code word: ``"all"`` (counted: the circuit counts every event),
    ``"best"`` (counted: among the best B) or ``"beyond_best"`` (dropped: not among them).
    """

    event: str
    rank: int
    points: Decimal
    counted: bool
    reason: Reason


@dataclass(frozen=True)
class CircuitLine:
    """A player's line of the standing.

    ``points`` is the sum over ``counted``; ``events`` counts every event played;
    ``ranked`` is false below ``min_events`` (such lines follow the ranked ones, ordered
    the same way, and their ranks continue the numbering); ``best_place`` is the best
    rank among the counted events; ``results`` are in the circuit's event order.
    """

    player: str
    rank: int
    tied: bool
    points: Decimal
    counted: tuple[str, ...]
    dropped: tuple[str, ...]
    events: int
    ranked: bool
    best_place: int | None
    results: tuple[CircuitResult, ...]


@dataclass(frozen=True)
class CircuitExplanation:
    """Why ``higher`` stands above ``lower``: the deciding rung and both values as shown,
    or ``criterion`` None when nothing separates them; ``code`` and ``params`` are the
    sentence (:attr:`message`)."""

    higher: str
    lower: str
    criterion: Criterion | None
    higher_value: str | None
    lower_value: str | None
    code: str
    params: Mapping[str, Param]

    @property
    def message(self) -> Message:
        """The sentence as a :class:`engine.messages.Message` (``str()`` is English)."""
        return Message(self.code, self.params)


#: The ladder after the points' sum, in order (formats.md §3).
LADDER: tuple[Criterion, ...] = ("ranked", "points", "best_place", "events", "lots")


@dataclass(frozen=True)
class CircuitStanding:
    """A circuit's standing with what is needed to reproduce and explain it.

    ``lots`` is the seed's order of every player, best first; ``best`` and
    ``min_events`` are the profile's, for the sentences that name them.
    """

    lines: tuple[CircuitLine, ...]
    seed: int
    lots: tuple[str, ...]
    best: int | None = None
    min_events: int = 1

    def line(self, player: str) -> CircuitLine:
        """The line of ``player``."""
        for line in self.lines:
            if line.player == player:
                return line
        raise CircuitError("circuit.no_player", {"player": player})

    def explain(self, a: str, b: str) -> CircuitExplanation:
        """Which rung of the ladder separated ``a`` and ``b``, with both values."""
        first, second = sorted((self.line(a), self.line(b)), key=self.lines.index)
        lot = {player: n for n, player in enumerate(self.lots, start=1)}
        names: dict[str, Param] = {"higher": first.player, "lower": second.player}
        for criterion in LADDER:
            x, y = _ladder_value(first, criterion, lot), _ladder_value(second, criterion, lot)
            if x == y:
                continue
            shown = _show(first, criterion, lot), _show(second, criterion, lot)
            params: dict[str, Param] = {"variant": criterion, **names}
            if criterion == "ranked":
                params |= {"lower_events": second.events, "min_events": self.min_events}
            elif criterion == "points":
                params |= {"higher_points": shown[0], "lower_points": shown[1]}
            elif criterion == "best_place":
                params |= {"higher_place": first.best_place, "lower_place": second.best_place}
            elif criterion == "events":
                params |= {"higher_events": len(first.counted), "lower_events": len(second.counted)}
            else:
                params |= {"higher_lot": lot[first.player], "lower_lot": lot[second.player]}
                params["seed"] = self.seed
            return CircuitExplanation(
                first.player,
                second.player,
                criterion,
                shown[0],
                shown[1],
                "circuit.explain",
                MappingProxyType(params),
            )
        return CircuitExplanation(
            first.player,
            second.player,
            None,
            None,
            None,
            "circuit.explain",
            MappingProxyType({"variant": "tied", **names}),
        )

    def result_message(self, result: CircuitResult) -> Message:
        """Why one event counted or was dropped, as a sentence."""
        params: dict[str, Param] = {
            "variant": result.reason,
            "event": result.event,
            "rank": result.rank,
            "points": format_points(result.points),
        }
        if result.reason != "all":
            params["best"] = self.best
        return Message("circuit.result", params)


def _ladder_value(line: CircuitLine, criterion: Criterion, lot: Mapping[str, int]) -> object:
    """The line's value on one rung, as a key that sorts the better line first."""
    if criterion == "ranked":
        return not line.ranked
    if criterion == "points":
        return -line.points
    if criterion == "best_place":
        return math.inf if line.best_place is None else line.best_place
    if criterion == "events":
        return -len(line.counted)
    return lot[line.player]


def _show(line: CircuitLine, criterion: Criterion, lot: Mapping[str, int]) -> str:
    if criterion == "ranked":
        return str(line.events)
    if criterion == "points":
        return format_points(line.points)
    if criterion == "best_place":
        return "-" if line.best_place is None else str(line.best_place)
    if criterion == "events":
        return str(len(line.counted))
    return str(lot[line.player])


def compute_circuit(
    profile: CircuitProfile, events: Sequence[CircuitEvent], seed: int = 0
) -> CircuitStanding:
    """Score every event and rank the players (formats.md §3).

    A player's best B events are chosen by points, then by the better place (so the
    best-place rung sees the best the player did), then the earlier event in the order
    given; so the order events are listed in changes nothing but which of two events
    with equal points and equal places is named as counted.
    """
    if len(events) > LIMITS["events"]:
        raise CircuitError(
            "circuit.too_many_events", {"count": len(events), "limit": LIMITS["events"]}
        )
    keys = Counter(e.key for e in events)
    twice = [k for k in keys if keys[k] > 1]
    if twice:
        raise CircuitError("circuit.event_twice", {"event": twice[0]})
    played: dict[str, list[tuple[int, str, int, Decimal]]] = {}
    for index, event in enumerate(events):
        points = event_points(profile, event)
        for player, rank in event.ranks:
            played.setdefault(player, []).append((index, event.key, rank, points[player]))
    lots = draw_lots(played, seed)
    lot = {player: n for n, player in enumerate(lots, start=1)}
    unordered = [_line(profile, player, results) for player, results in played.items()]

    def order(line: CircuitLine) -> tuple[object, ...]:
        return tuple(_ladder_value(line, c, lot) for c in LADDER)

    ordered = sorted(unordered, key=lambda ln: (order(ln), ln.player))
    sharing = Counter(order(ln) for ln in ordered)
    lines: list[CircuitLine] = []
    for i, line in enumerate(ordered):
        shares_previous = i > 0 and order(ordered[i - 1]) == order(line)
        rank = lines[-1].rank if shares_previous else i + 1
        lines.append(replace(line, rank=rank, tied=sharing[order(line)] > 1))
    return CircuitStanding(
        lines=tuple(lines),
        seed=seed,
        lots=lots,
        best=profile.best,
        min_events=profile.min_events,
    )


def _line(
    profile: CircuitProfile, player: str, played: Sequence[tuple[int, str, int, Decimal]]
) -> CircuitLine:
    """A player's line before ranking: which events count, the sum and the rungs."""
    best = profile.best
    chosen = sorted(played, key=lambda r: (-r[3], r[2], r[0]))
    keep = {r[0] for r in (chosen if best is None else chosen[:best])}
    results = tuple(
        CircuitResult(
            event=key,
            rank=rank,
            points=points,
            counted=index in keep,
            reason="all" if best is None else ("best" if index in keep else "beyond_best"),
        )
        for index, key, rank, points in played
    )
    counted = [r for r in results if r.counted]
    return CircuitLine(
        player=player,
        rank=0,
        tied=False,
        points=sum((r.points for r in counted), Decimal("0.00")),
        counted=tuple(r.event for r in counted),
        dropped=tuple(r.event for r in results if not r.counted),
        events=len(results),
        ranked=len(results) >= profile.min_events,
        best_place=min((r.rank for r in counted), default=None),
        results=results,
    )


# --- the CIRCUIT.json document ----------------------------------------------------------


def parse_circuit(data: object) -> tuple[CircuitProfile, tuple[CircuitEvent, ...], int]:
    """The profile, events and seed of a CIRCUIT.json document (formats.md §4).

    The shape is checked here (``circuit.document/*`` naming the JSON path), the profile
    by :meth:`CircuitProfile.parse` and each event's ranks by :func:`compute_circuit`.
    """
    doc = _object(data, "$", ("format", "seed", "profile", "events"))
    if doc.get("format") != FORMAT:
        raise CircuitError(
            "circuit.document", {"variant": "format", "value": repr(doc.get("format"))}
        )
    seed = doc.get("seed", 0)
    if type(seed) is not int:
        raise CircuitError(
            "circuit.document", {"variant": "integer", "path": "seed", "value": repr(seed)}
        )
    if "profile" not in doc:
        raise CircuitError("circuit.document", {"variant": "missing", "path": "profile"})
    profile = CircuitProfile.parse(_object(doc["profile"], "profile", None))
    raw = doc.get("events")
    if not isinstance(raw, list):
        raise CircuitError(
            "circuit.document", {"variant": "list", "path": "events", "value": _kind(raw)}
        )
    if len(raw) > LIMITS["events"]:
        raise CircuitError(
            "circuit.too_many_events", {"count": len(raw), "limit": LIMITS["events"]}
        )
    events = tuple(_event(item, f"events[{i}]") for i, item in enumerate(raw))
    return profile, events, seed


def _kind(value: object) -> str:
    return repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."


def _object(value: object, path: str, keys: tuple[str, ...] | None) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise CircuitError(
            "circuit.document", {"variant": "object", "path": path, "value": _kind(value)}
        )
    if keys is not None:
        unknown = sorted(str(k) for k in value if k not in keys)
        if unknown:
            raise CircuitError(
                "circuit.document",
                {"variant": "unknown", "path": path, "keys": unknown, "allowed": list(keys)},
            )
    return value


def _event(value: object, path: str) -> CircuitEvent:
    event = _object(value, path, ("name", "category", "players", "ranks"))
    for key in ("name", "category", "players", "ranks"):
        if key not in event:
            raise CircuitError("circuit.document", {"variant": "missing", "path": f"{path}.{key}"})
    name, category, players = event["name"], event["category"], event["players"]
    if not isinstance(name, str):
        raise CircuitError(
            "circuit.document", {"variant": "text", "path": f"{path}.name", "value": _kind(name)}
        )
    if not isinstance(category, str):
        raise CircuitError(
            "circuit.document",
            {"variant": "text", "path": f"{path}.category", "value": _kind(category)},
        )
    if type(players) is not int:
        raise CircuitError(
            "circuit.document",
            {"variant": "integer", "path": f"{path}.players", "value": _kind(players)},
        )
    ranks = event["ranks"]
    if not isinstance(ranks, list):
        raise CircuitError(
            "circuit.document", {"variant": "list", "path": f"{path}.ranks", "value": _kind(ranks)}
        )
    if len(ranks) > LIMITS["players"]:
        raise CircuitError(
            "circuit.ranks_over", {"event": name, "count": len(ranks), "field_size": players}
        )
    out: list[tuple[str, int]] = []
    for i, item in enumerate(ranks):
        where = f"{path}.ranks[{i}]"
        entry = _object(item, where, ("player", "rank"))
        for key in ("player", "rank"):
            if key not in entry:
                raise CircuitError(
                    "circuit.document", {"variant": "missing", "path": f"{where}.{key}"}
                )
        player, rank = entry["player"], entry["rank"]
        if not isinstance(player, str):
            raise CircuitError(
                "circuit.document",
                {"variant": "text", "path": f"{where}.player", "value": _kind(player)},
            )
        if type(rank) is not int:
            raise CircuitError(
                "circuit.document",
                {"variant": "integer", "path": f"{where}.rank", "value": _kind(rank)},
            )
        out.append((player, rank))
    return CircuitEvent(key=name, category=category, players=players, ranks=tuple(out))
