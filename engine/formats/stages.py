"""An event's stages: cuts, multipliers and carry-over (formats.md §1).

A championship is scored stage by stage: each stage's own standing is scoring.md §3 over
its games alone (Ci counts the games of that stage), scaled by the stage's multiplier;
the cumulative standing weighs what was brought in by ``carry`` and adds the stage. A
``{"top": N}`` entry takes exactly N players from the cumulative standing, lots
included, so a cut never needs a human decision. Everything is exact decimals and the
lots are drawn from ``seed + stage index``, so the same records give the same event
anywhere; the league freezes a cut with :meth:`EventOutcome.entrants_for`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from types import MappingProxyType

from engine.errors import EngineError
from engine.messages import Message
from engine.scoring import (
    DEFAULT_PROFILE,
    PROFILES,
    GameScore,
    GameSummary,
    PlayerScore,
    PointItem,
    ProfileError,
    ScoringProfile,
    get_profile,
    profile_from_dict,
    side_of,
)
from engine.standings import (
    DEFAULT_PRECEDENCE,
    LOTS,
    METRICS,
    StandingRow,
    Standings,
    compute_standings,
    draw_lots,
    validate_precedence,
)

__all__ = [
    "Entry",
    "EntryKind",
    "EventOutcome",
    "FinalRow",
    "FormatError",
    "NotEntitledError",
    "StageGames",
    "StageOutcome",
    "StageSpec",
    "compute_event",
]


class FormatError(EngineError):
    """An event's stages (or their input) that cannot be computed as given."""


class NotEntitledError(FormatError):
    """A player who played a game in a stage they were not entitled to enter."""


ZERO = Decimal("0")
ONE = Decimal("1")


class EntryKind(StrEnum):
    """Who may play a stage: everyone carried in, the top N, or a list."""

    ALL = "all"
    TOP = "top"
    PLAYERS = "players"


def _shown(value: object) -> str:
    """A bad value shown back to the organiser as written (JSON-ish repr)."""
    return repr(value)


@dataclass(frozen=True)
class Entry:
    """A stage's entry rule (``"all"``, ``{"top": N}`` or ``{"players": [...]}``)."""

    kind: EntryKind
    top: int | None = None
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kind = self.kind
        ok = (
            (kind is EntryKind.ALL and self.top is None and not self.players)
            or (
                kind is EntryKind.TOP
                and type(self.top) is int
                and self.top >= 1
                and not self.players
            )
            or (
                kind is EntryKind.PLAYERS
                and self.top is None
                and bool(self.players)
                and all(isinstance(p, str) and p for p in self.players)
                and len(set(self.players)) == len(self.players)
            )
        )
        if not ok:
            raise FormatError("formats.entry", {"value": _shown(self.as_json())})

    @classmethod
    def parse(cls, value: object) -> Entry:
        """The entry of its JSON form; anything else is ``formats.entry``."""
        if value == "all":
            return cls(EntryKind.ALL)
        if isinstance(value, Mapping) and len(value) == 1:
            if "top" in value and type(value["top"]) is int:
                return cls(EntryKind.TOP, top=value["top"])
            listed = value.get("players")
            if isinstance(listed, list) and all(isinstance(p, str) for p in listed):
                return cls(EntryKind.PLAYERS, players=tuple(listed))
        raise FormatError("formats.entry", {"value": _shown(value)})

    def as_json(self) -> str | dict[str, object]:
        """The JSON form :meth:`parse` reads."""
        if self.kind is EntryKind.TOP:
            return {"top": self.top}
        if self.kind is EntryKind.PLAYERS:
            return {"players": list(self.players)}
        return "all"


_STAGE_KEYS = ("name", "profile", "multiplier", "carry", "entry", "hidden")


@dataclass(frozen=True)
class StageSpec:
    """One stage's rules; ``profile`` None scores its games with the event's profile."""

    name: str
    profile: ScoringProfile | None = None
    multiplier: Decimal = ONE
    carry: Decimal = ONE
    entry: Entry = field(default_factory=lambda: Entry(EntryKind.ALL))
    hidden: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise FormatError("formats.stage_name", {"value": _shown(self.name)})
        stage = {"stage": self.name}
        for key in ("multiplier", "carry"):
            value = getattr(self, key)
            if not isinstance(value, Decimal) or not value.is_finite():
                raise FormatError("formats.decimal", {**stage, "key": key, "value": _shown(value)})
        if self.multiplier <= 0:
            raise FormatError("formats.multiplier", {**stage, "value": str(self.multiplier)})
        if self.carry < 0:
            raise FormatError("formats.carry", {**stage, "value": str(self.carry)})
        if type(self.hidden) is not bool:
            raise FormatError("formats.hidden", {**stage, "value": _shown(self.hidden)})
        if not isinstance(self.entry, Entry):
            raise FormatError(
                "formats.entry", {"variant": "stage", **stage, "value": _shown(self.entry)}
            )

    @classmethod
    def parse(cls, data: object) -> StageSpec:
        """A stage from its JSON (formats.md §4 without ``games``); decimals as strings.

        Unknown fields are refused, not ignored: a misspelt ``multipler`` must not
        silently score the stage at 1.
        """
        if not isinstance(data, Mapping):
            raise FormatError("formats.stage_type", {"value": _shown(data)})
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise FormatError("formats.stage_name", {"value": _shown(name)})
        stage = {"stage": name}
        unknown = sorted(str(k) for k in data if k not in _STAGE_KEYS)
        if unknown:
            raise FormatError(
                "formats.stage_keys", {**stage, "keys": unknown, "allowed": list(_STAGE_KEYS)}
            )
        try:
            entry = Entry.parse(data.get("entry", "all"))
        except FormatError:
            shown = _shown(data.get("entry"))
            raise FormatError(
                "formats.entry", {"variant": "stage", **stage, "value": shown}
            ) from None
        return cls(
            name=name,
            profile=_parse_profile(data.get("profile"), name),
            multiplier=_parse_decimal(data, "multiplier", name),
            carry=_parse_decimal(data, "carry", name),
            entry=entry,
            hidden=data.get("hidden", False),
        )

    def as_json(self) -> dict[str, object]:
        """The JSON form :meth:`parse` reads (a built-in profile by key, else its fields)."""
        out: dict[str, object] = {"name": self.name}
        if self.profile is not None:
            out["profile"] = _profile_json(self.profile)
        out["multiplier"] = str(self.multiplier)
        out["carry"] = str(self.carry)
        out["entry"] = self.entry.as_json()
        out["hidden"] = self.hidden
        return out


def _profile_json(profile: ScoringProfile) -> str | dict[str, object]:
    if PROFILES.get(profile.key) == profile:
        return profile.key
    return {
        k: (str(v) if isinstance(v, Decimal) else v)
        for k, v in vars(profile).items()
        if not k.startswith("_")
    }


def _parse_profile(value: object, stage: str) -> ScoringProfile | None:
    """A built-in profile by key or an organiser's as a mapping (``profile_from_dict``)."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            return get_profile(value)
        if isinstance(value, Mapping):
            return profile_from_dict(value)
    except ProfileError:
        pass
    raise FormatError(
        "formats.profile", {"stage": stage, "value": _shown(value), "profiles": sorted(PROFILES)}
    )


def _parse_decimal(data: Mapping[str, object], key: str, stage: str) -> Decimal:
    """A decimal field, written as a string (``"1.5"``) or an integer; never a float."""
    if key not in data:
        return ONE
    value = data[key]
    bad = {"stage": stage, "key": key, "value": _shown(value)}
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FormatError("formats.decimal", bad)
    try:
        result = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        raise FormatError("formats.decimal", bad) from None
    if not result.is_finite():
        raise FormatError("formats.decimal", bad)
    return result


@dataclass(frozen=True)
class StageGames:
    """A stage's rules and its games, in the order they were played."""

    spec: StageSpec
    games: tuple[GameSummary, ...]


@dataclass(frozen=True)
class StageOutcome:
    """A stage computed: its entrants, its own standing and the cumulative one.

    ``own`` is the stage's games alone with every point × multiplier; ``cumulative`` ranks
    the entrants on carry-weighted totals (an entrant who never played is in it), lots
    from ``seed + index``; ``stage_points`` is each entrant's multiplied points here.
    In ``cumulative`` a row's ``wins`` and ``games`` count the games that still weigh
    (since the last ``carry`` 0); its ``metrics`` hold the weighted ladder values.
    """

    index: int
    spec: StageSpec
    entrants: tuple[str, ...]
    own: Standings
    cumulative: Standings
    stage_points: Mapping[str, Decimal]


@dataclass(frozen=True)
class FinalRow:
    """A player's place in the event's final order (formats.md §1)."""

    player: str
    rank: int
    tied: bool
    points: Decimal
    last_stage: str
    stages: Mapping[str, Decimal]


@dataclass(frozen=True)
class EventOutcome:
    """Every stage computed, the final order, and what reproduces them."""

    stages: tuple[StageOutcome, ...]
    final: tuple[FinalRow, ...]
    seed: int
    precedence: tuple[str, ...]
    warnings: tuple[Message, ...]

    def entrants_for(self, entry: Entry) -> tuple[str, ...]:
        """Who enters a next stage with ``entry``, from the last cumulative standing.

        ``top`` N is exact (lots included); N beyond the field takes everyone.
        """
        last = self.stages[-1]
        if entry.kind is EntryKind.PLAYERS:
            return entry.players
        if entry.kind is EntryKind.TOP:
            assert entry.top is not None  # Entry guarantees it
            return tuple(r.player for r in last.cumulative.rows[: entry.top])
        return last.entrants


# --- computing --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tally:
    """A player's ladder values (points already multiplied and weighted) and what to show."""

    points: Decimal = ZERO
    wins: Decimal = ZERO
    awards: Decimal = ZERO
    police_killer_wins: Decimal = ZERO
    night1_deaths: Decimal = ZERO
    ci: Decimal = ZERO
    games: int = 0
    win_count: int = 0
    items: tuple[PointItem, ...] = ()

    def weighted(self, carry: Decimal) -> _Tally:
        """What is brought into the next stage: values × carry; nothing when carry is 0."""
        if carry == 0:
            return _Tally()
        if carry == 1:
            return self
        return _Tally(
            self.points * carry,
            self.wins * carry,
            self.awards * carry,
            self.police_killer_wins * carry,
            self.night1_deaths * carry,
            self.ci * carry,
            self.games,
            self.win_count,
            tuple(replace(i, points=i.points * carry) for i in self.items),
        )

    def plus(self, other: _Tally) -> _Tally:
        """Two tallies added (the one brought in, then the stage's)."""
        return _Tally(
            self.points + other.points,
            self.wins + other.wins,
            self.awards + other.awards,
            self.police_killer_wins + other.police_killer_wins,
            self.night1_deaths + other.night1_deaths,
            self.ci + other.ci,
            self.games + other.games,
            self.win_count + other.win_count,
            self.items + other.items,
        )

    def metric(self, key: str) -> Decimal:
        return {
            "points": self.points,
            "wins": self.wins,
            "awards": self.awards,
            "police-killer-wins": self.police_killer_wins,
            "night1-deaths": self.night1_deaths,
        }[key]


def _scale_items(items: tuple[PointItem, ...], m: Decimal) -> tuple[PointItem, ...]:
    return tuple(replace(i, points=i.points * m) for i in items)


def _scale_own(own: Standings, m: Decimal) -> Standings:
    """The stage's standing with every point × multiplier (ranks unchanged: m > 0)."""
    if m == 1:
        return own
    scaled = ("points", "awards")
    rows = tuple(
        replace(
            row,
            points=row.points * m,
            awards=row.awards * m,
            ci=row.ci * m,
            metrics=MappingProxyType(
                {k: v * m if k in scaled else v for k, v in row.metrics.items()}
            ),
            items=_scale_items(row.items, m),
        )
        for row in own.rows
    )
    games = tuple(
        replace(
            g,
            players=tuple(replace(p, items=_scale_items(p.items, m)) for p in g.players),
        )
        for g in own.games
    )
    return replace(own, rows=rows, games=games)


def _own_tallies(own: Standings) -> dict[str, _Tally]:
    """Each player's values in the stage alone, from its (multiplied) standing and games."""
    scores: dict[str, list[PlayerScore]] = {}
    for game in own.games:
        for score in game.players:
            scores.setdefault(score.player, []).append(score)
    out = {}
    for row in own.rows:
        mine = scores.get(row.player, [])
        out[row.player] = _Tally(
            points=row.points,
            wins=Decimal(row.wins),
            awards=row.awards,
            police_killer_wins=Decimal(
                sum(1 for s in mine if s.outcome == "win" and s.role in ("police", "killer"))
            ),
            night1_deaths=Decimal(
                sum(1 for s in mine if s.night1_victim and side_of(s.role) == "good")
            ),
            ci=row.ci,
            games=row.games,
            win_count=row.wins,
            items=row.items,
        )
    return out


def _rank(
    tallies: Mapping[str, _Tally],
    keys: tuple[str, ...],
    seed: int,
    games: tuple[GameScore, ...],
    profile: str,
    warnings: tuple[Message, ...],
) -> Standings:
    """A standing over ``tallies`` by the ladder ``keys``, as ``compute_standings`` ranks."""
    lots_order = draw_lots(tallies, seed)
    lot = {player: Decimal(n) for n, player in enumerate(lots_order, start=1)}

    def value(player: str, key: str) -> Decimal:
        return lot[player] if key == LOTS else tallies[player].metric(key)

    def order(player: str) -> tuple[Decimal, ...]:
        out = []
        for key in keys:
            v = value(player, key)
            out.append(-v if METRICS[key].direction == "higher" else v)
        return tuple(out)

    ordered = sorted(tallies, key=lambda p: (order(p), p))
    group_size = Counter(order(p) for p in ordered)
    rows: list[StandingRow] = []
    for index, player in enumerate(ordered):
        t = tallies[player]
        shares_previous = index > 0 and order(ordered[index - 1]) == order(player)
        rows.append(
            StandingRow(
                player=player,
                rank=rows[-1].rank if shares_previous else index + 1,
                tied=group_size[order(player)] > 1,
                points=t.points,
                wins=t.win_count,
                games=t.games,
                awards=t.awards,
                ci=t.ci,
                metrics=MappingProxyType({k: value(player, k) for k in keys}),
                items=t.items,
            )
        )
    return Standings(
        rows=tuple(rows),
        games=games,
        profile=profile,
        precedence=keys,
        seed=seed,
        lots=lots_order if LOTS in keys else (),
        warnings=warnings,
    )


def _check_specs(stages: Sequence[StageGames]) -> None:
    if not stages:
        raise FormatError("formats.no_stages", {})
    seen: set[str] = set()
    for stage in stages:
        if stage.spec.name in seen:
            raise FormatError("formats.duplicate_stage", {"stage": stage.spec.name})
        seen.add(stage.spec.name)
    first = stages[0].spec
    if first.entry.kind is EntryKind.TOP:
        assert first.entry.top is not None
        raise FormatError("formats.first_top", {"stage": first.name, "count": first.entry.top})


def _check_entitled(stage: StageGames, entrants: Iterable[str]) -> None:
    """Every player of every game (in progress too) must be an entrant of the stage."""
    allowed = set(entrants)
    for number, game in enumerate(stage.games, start=1):
        for seat in game.seats:
            if seat.player not in allowed:
                raise NotEntitledError(
                    "formats.not_entitled",
                    {
                        "player": seat.player,
                        "stage": stage.spec.name,
                        "game": number,
                        "label": game.game,
                    },
                )


def compute_event(
    stages: Sequence[StageGames],
    *,
    profile: ScoringProfile = DEFAULT_PROFILE,
    precedence: Iterable[str] | None = None,
    seed: int = 0,
) -> EventOutcome:
    """Score every stage, rank cumulatively, apply the cuts and give the final order.

    A stage's entrants come from the cumulative standing before it (or its list); a
    player seated in a game of a stage they did not enter raises
    :class:`NotEntitledError`, since a cut the games ignore would be silently undone.
    """
    _check_specs(stages)
    keys = validate_precedence(DEFAULT_PRECEDENCE if precedence is None else precedence)
    outcomes: list[StageOutcome] = []
    latest: dict[str, _Tally] = {}  # each player's cumulative at their last stage
    all_games: tuple[GameScore, ...] = ()
    scoring_warnings: tuple[Message, ...] = ()  # the games' own (in-progress skipped)
    warnings: list[Message] = []
    for index, stage in enumerate(stages):
        spec = stage.spec
        stage_profile = spec.profile or profile
        raw = compute_standings(stage.games, stage_profile, keys, seed + index)
        if index == 0 and spec.entry.kind is EntryKind.ALL:
            entrants = tuple(r.player for r in raw.rows)  # whoever played: entitled by playing
        else:
            entrants = _entrants(spec.entry, outcomes[-1] if outcomes else None)
            _check_entitled(stage, entrants)
        own = _scale_own(raw, spec.multiplier)
        mine = _own_tallies(own)
        cumulative_tallies = {
            p: latest.get(p, _Tally()).weighted(spec.carry).plus(mine.get(p, _Tally()))
            for p in entrants
        }
        all_games += own.games
        scoring_warnings += own.warnings
        warnings.extend(own.warnings)
        if not any(g.scored for g in own.games):
            warnings.append(Message("stages.no_games", {"stage": spec.name}))
        cumulative = _rank(
            cumulative_tallies, keys, seed + index, all_games, stage_profile.key, scoring_warnings
        )
        latest.update(cumulative_tallies)
        outcomes.append(
            StageOutcome(
                index=index,
                spec=spec,
                entrants=entrants,
                own=own,
                cumulative=cumulative,
                stage_points=MappingProxyType(
                    {p: (mine[p].points if p in mine else ZERO) for p in entrants}
                ),
            )
        )
    return EventOutcome(
        stages=tuple(outcomes),
        final=_final(outcomes),
        seed=seed,
        precedence=keys,
        warnings=tuple(warnings),
    )


def _entrants(entry: Entry, previous: StageOutcome | None) -> tuple[str, ...]:
    """Who may play a stage with ``entry``: its list, or from the standing before it."""
    if entry.kind is EntryKind.PLAYERS:
        return entry.players
    assert previous is not None  # the first stage's "all" and "top" are handled before
    if entry.kind is EntryKind.TOP:
        assert entry.top is not None
        return tuple(r.player for r in previous.cumulative.rows[: entry.top])
    return previous.entrants


def _final(outcomes: Sequence[StageOutcome]) -> tuple[FinalRow, ...]:
    """Last stage's entrants first, then those cut earlier by the stage they left at.

    A tie is shared only inside one group: reaching a later stage always ranks higher.
    """
    last_index: dict[str, int] = {}
    for outcome in outcomes:
        for player in outcome.entrants:
            last_index[player] = outcome.index
    rows: list[FinalRow] = []
    for outcome in reversed(outcomes):
        group = [r for r in outcome.cumulative.rows if last_index[r.player] == outcome.index]
        ranks = Counter(r.rank for r in group)
        for i, row in enumerate(group):
            shares = i > 0 and group[i - 1].rank == row.rank
            rows.append(
                FinalRow(
                    player=row.player,
                    rank=rows[-1].rank if shares else len(rows) + 1,
                    tied=ranks[row.rank] > 1,
                    points=row.points,
                    last_stage=outcome.spec.name,
                    stages=MappingProxyType(
                        {
                            o.spec.name: o.stage_points[row.player]
                            for o in outcomes[: outcome.index + 1]
                            if row.player in o.stage_points
                        }
                    ),
                )
            )
    return tuple(rows)
