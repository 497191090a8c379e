"""Event standings: compensation (Ci), the tie-break ladder and ranks (scoring.md §2–§3).

Tie-breaks are a registry of metrics and an event's precedence is a validated list of
their keys, so organisers reorder the ladder without code. Ranks are ``(rank, tied)``
and every standing can say which metric put one player above another, so a disputed
table can be checked by hand. The drawing of lots is seeded and recorded: the same
games and seed give the same standing anywhere.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType
from typing import Literal

from engine.errors import EngineError
from engine.messages import Message, Params
from engine.scoring import (
    DEFAULT_PROFILE,
    GameScore,
    GameSummary,
    PlayerScore,
    PointItem,
    ScoringProfile,
    format_points,
    score_game,
    side_of,
)

Direction = Literal["higher", "lower"]
Unit = Literal["points", "count"]


class StandingsError(EngineError):
    """A standing that cannot be computed or explained as asked."""


class PrecedenceError(StandingsError):
    """A tie-break precedence naming unknown metrics, repeats, or lots before the end."""


def compensation(games: int, night1_deaths: int, factor: Decimal) -> Decimal:
    """Ci for one qualifying game: ``min(K × f / max(1, round(f × N)), f)``, to 0.01.

    Both roundings are half up (the spec's ``f × N`` with f = 0.4 never ends in .5, but
    an organiser's factor might, and half up is what people do by hand).
    """
    if games < 0 or night1_deaths < 0 or night1_deaths > games:
        raise StandingsError("standings.ci_range", {"count": night1_deaths, "games": games})
    value = min(night1_deaths * factor / _divisor(games, factor), factor)
    return value.quantize(Decimal("0.01"), ROUND_HALF_UP)


def _divisor(games: int, factor: Decimal) -> int:
    return max(1, int((factor * games).quantize(Decimal(1), ROUND_HALF_UP)))


@dataclass(frozen=True)
class PlayerTally:
    """A player's event totals: what every tie-break metric is computed from."""

    player: str
    games: int
    wins: int
    police_killer_wins: int
    night1_deaths: int
    result_points: Decimal
    game_points: Decimal
    ci: Decimal
    lot: int
    items: tuple[PointItem, ...]

    @property
    def points(self) -> Decimal:
        """Total points: game points plus Ci."""
        return self.game_points + self.ci

    @property
    def awards(self) -> Decimal:
        """Total minus result points minus Ci: bonuses, penalties, warnings, ejections,
        best guess."""
        return self.game_points - self.result_points


@dataclass(frozen=True)
class Metric:
    """One rung of the tie-break ladder; ``direction`` says which values rank higher."""

    key: str
    name: str
    direction: Direction
    unit: Unit
    compute: Callable[[PlayerTally], Decimal]

    def show(self, value: Decimal) -> str:
        """A value as people write it: points with a decimal place, counts without (a
        count carried at a fraction of its weight into a later stage keeps its fraction)."""
        if self.unit == "points" or value != value.to_integral_value():
            return format_points(value)
        return str(int(value))

    def order_key(self, tally: PlayerTally) -> Decimal:
        """A key that sorts better players first."""
        value = self.compute(tally)
        return -value if self.direction == "higher" else value


def _points(t: PlayerTally) -> Decimal:
    return t.points


def _wins(t: PlayerTally) -> Decimal:
    return Decimal(t.wins)


def _awards(t: PlayerTally) -> Decimal:
    return t.awards


def _police_killer_wins(t: PlayerTally) -> Decimal:
    return Decimal(t.police_killer_wins)


def _night1_deaths(t: PlayerTally) -> Decimal:
    return Decimal(t.night1_deaths)


def _lot(t: PlayerTally) -> Decimal:
    return Decimal(t.lot)


LOTS = "lots"

#: Every tie-break metric an event may use, by key.
METRICS: Mapping[str, Metric] = MappingProxyType(
    {
        m.key: m
        for m in (
            Metric("points", "total points", "higher", "points", _points),
            Metric("wins", "wins", "higher", "count", _wins),
            Metric("awards", "award points", "higher", "points", _awards),
            Metric(
                "police-killer-wins",
                "wins as police or killer",
                "higher",
                "count",
                _police_killer_wins,
            ),
            Metric(
                "night1-deaths",
                "times killed on night 1 as good",
                "higher",
                "count",
                _night1_deaths,
            ),
            Metric(LOTS, "drawing of lots", "lower", "count", _lot),
        )
    }
)

#: The spec's default ladder (scoring.md §3).
DEFAULT_PRECEDENCE: tuple[str, ...] = (
    "points",
    "wins",
    "awards",
    "police-killer-wins",
    "night1-deaths",
    LOTS,
)


def validate_precedence(keys: Iterable[str]) -> tuple[str, ...]:
    """The precedence as a tuple, or every problem with it in one :class:`PrecedenceError`.

    Lots must come last: after a draw nobody is level, so anything later is dead.
    """
    precedence = tuple(keys)
    problems: list[str] = []
    params: dict[str, list[str]] = {"known": list(METRICS)}
    if not precedence:
        problems.append("empty")
    unknown = [k for k in precedence if k not in METRICS]
    if unknown:
        problems.append("unknown")
        params["metrics"] = unknown
    repeated = sorted({k for k in precedence if precedence.count(k) > 1})
    if repeated:
        problems.append("repeated")
        params["repeated"] = repeated
    if LOTS in precedence[:-1]:
        problems.append("lots")
    if problems:
        # one sentence naming every problem: the variant lists them (engine.texts.scoring)
        raise PrecedenceError("standings.precedence", {"variant": "+".join(problems), **params})
    return precedence


def draw_lots(players: Iterable[str], seed: int) -> tuple[str, ...]:
    """The order of the lots for ``seed``, best first.

    Each player's lot is a hash of the seed and their name, so the draw does not depend
    on the order games were entered or on Python's ``random`` implementation.
    """

    def lot(player: str) -> tuple[bytes, str]:
        return hashlib.sha256(f"{seed}\x00{player}".encode()).digest(), player

    return tuple(sorted(set(players), key=lot))


@dataclass(frozen=True)
class StandingRow:
    """One player's line: rank, whether shared, totals and each precedence metric."""

    player: str
    rank: int
    tied: bool
    points: Decimal
    wins: int
    games: int
    awards: Decimal
    ci: Decimal
    metrics: Mapping[str, Decimal]
    items: tuple[PointItem, ...]


@dataclass(frozen=True)
class Explanation:
    """Why ``higher`` stands above ``lower``: the deciding metric, or None when tied."""

    higher: str
    lower: str
    metric: str | None
    higher_value: Decimal | None
    lower_value: Decimal | None
    level_on: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Standings:
    """An event's standing with everything needed to reproduce and explain it."""

    rows: tuple[StandingRow, ...]
    games: tuple[GameScore, ...]
    profile: str
    precedence: tuple[str, ...]
    seed: int
    lots: tuple[str, ...]
    warnings: tuple[Message, ...]

    def row(self, player: str) -> StandingRow:
        """The row of ``player``."""
        for row in self.rows:
            if row.player == player:
                return row
        raise StandingsError("standings.no_player", {"player": player})

    def explain(self, a: str, b: str) -> Explanation:
        """Which metric separated ``a`` and ``b`` and with what values, or that none did."""
        first, second = sorted((self.row(a), self.row(b)), key=self.rows.index)
        level: list[str] = []
        for key in self.precedence:
            x, y = first.metrics[key], second.metrics[key]
            if x != y:
                metric = METRICS[key]
                decided = f"{first.player} ranks above {second.player} on {metric.name}"
                values = f"{metric.show(x)} vs {metric.show(y)}"
                if key == LOTS:
                    values = f"lot {values}, seed {self.seed}"
                return Explanation(
                    first.player,
                    second.player,
                    key,
                    x,
                    y,
                    tuple(level),
                    f"{decided} ({values}){_level_text(level, first)}",
                )
            level.append(key)
        return Explanation(
            first.player,
            second.player,
            None,
            None,
            None,
            tuple(level),
            f"{first.player} and {second.player} are tied{_level_text(level, first)}",
        )


def _level_text(level: Sequence[str], row: StandingRow) -> str:
    if not level:
        return ""
    shown = ", ".join(f"{METRICS[k].name} ({METRICS[k].show(row.metrics[k])})" for k in level)
    return f"; level on {shown}"


def compute_standings(
    summaries: Iterable[GameSummary],
    profile: ScoringProfile = DEFAULT_PROFILE,
    precedence: Iterable[str] | None = None,
    seed: int = 0,
) -> Standings:
    """Score the games of one event and rank the players (scoring.md §2–§3).

    In-progress games are skipped with a warning and count for nothing, not even N.
    Players level on every metric are listed by name within their shared rank.
    """
    keys = validate_precedence(DEFAULT_PRECEDENCE if precedence is None else precedence)
    games = tuple(score_game(s, profile) for s in summaries)
    tallies = _tally(games, profile, seed)
    metrics = [METRICS[k] for k in keys]

    def order(t: PlayerTally) -> tuple[Decimal, ...]:
        return tuple(m.order_key(t) for m in metrics)

    ordered = sorted(tallies, key=lambda t: (order(t), t.player))
    group_size = Counter(order(t) for t in ordered)
    rows: list[StandingRow] = []
    for index, tally in enumerate(ordered):
        shares_previous = index > 0 and order(ordered[index - 1]) == order(tally)
        rank = rows[-1].rank if shares_previous else index + 1
        rows.append(
            StandingRow(
                player=tally.player,
                rank=rank,
                tied=group_size[order(tally)] > 1,
                points=tally.points,
                wins=tally.wins,
                games=tally.games,
                awards=tally.awards,
                ci=tally.ci,
                metrics=MappingProxyType({m.key: m.compute(tally) for m in metrics}),
                items=tally.items,
            )
        )
    return Standings(
        rows=tuple(rows),
        games=games,
        profile=profile.key,
        precedence=keys,
        seed=seed,
        lots=draw_lots((t.player for t in tallies), seed) if LOTS in keys else (),
        warnings=tuple(w for g in games for w in g.warnings),
    )


def _tally(games: Sequence[GameScore], profile: ScoringProfile, seed: int) -> list[PlayerTally]:
    """Each player's totals over the scored games, Ci items placed after their game's."""
    entries: dict[str, list[tuple[str, PlayerScore]]] = {}
    for game in games:
        for score in game.players:
            entries.setdefault(score.player, []).append((game.game, score))
    lots = {player: n for n, player in enumerate(draw_lots(entries, seed), start=1)}
    factor = profile.ci_factor
    tallies = []
    for player, played in entries.items():
        scores = [score for _, score in played]
        n = len(scores)
        k = sum(1 for s in scores if _killed_night1_as_good(s))
        ci = compensation(n, k, factor)
        reason: Params = {
            "count": k,
            "factor": str(factor),
            "divisor": _divisor(n, factor),
            "games": n,
        }
        items: list[PointItem] = []
        total_ci = Decimal("0")
        for label, score in played:
            items.extend(score.items)
            if _killed_night1_as_good(score) and score.outcome == "loss":
                items.append(PointItem(label, player, "ci", ci, "points.ci", reason))
                total_ci += ci
        tallies.append(
            PlayerTally(
                player=player,
                games=n,
                wins=sum(1 for s in scores if s.outcome == "win"),
                police_killer_wins=sum(
                    1 for s in scores if s.outcome == "win" and s.role in ("police", "killer")
                ),
                night1_deaths=k,
                result_points=sum((s.result_points for s in scores), Decimal("0")),
                game_points=sum((s.total for s in scores), Decimal("0")),
                ci=total_ci,
                lot=lots[player],
                items=tuple(items),
            )
        )
    return tallies


def _killed_night1_as_good(score: PlayerScore) -> bool:
    return score.night1_victim and side_of(score.role) == "good"
