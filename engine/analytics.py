"""Analytics of released games: proportions and means, each with its 95 % interval.

Everything here works on :class:`GameFacts`, a small flat view of one finished game (its
ruleset, seats, winner, night-1 victim, length, awards, referee and protests), made from
a KGR/1 record by :func:`facts_from_record`. The platform stores these facts and hands
them back as plain objects; the figures are computed here, so the web and the command
line count alike.

**Proportions** (a win rate, a share) carry their sample size ``n`` and a 95 % *Wilson
score* interval. Wilson rather than the textbook Wald interval (p ± z·√(p(1−p)/n)): Wald
collapses to a zero-width interval at 0/n and n/n, leaves [0, 1] for small n, and covers
the true rate far less often than 95 % when n is small or p is near 0 or 1 — exactly the
win rates of a player's rare role or a seat at a small club. Wilson stays inside [0, 1],
is never empty, and keeps close to its nominal coverage from n ≈ 5 (Brown, Cai and
DasGupta, *Interval Estimation for a Binomial Proportion*, 2001).

**Means** (rounds per game, awards per game) carry ``n`` and a 95 % *Student t* interval,
mean ± t(0.975, n−1) · s/√n with s the sample standard deviation: the variance is estimated
from the same few games, so t (wider than the normal interval for small n, equal to it in
the limit) is the honest choice. With n < 2 there is no spread to estimate: no interval.
The interval of a mean of counts is cut at 0 (no game has fewer than none).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scipy.special import stdtrit

from engine.record import Day, GameRecord, Night
from engine.rulesets import RULESETS, FinalTie, KillersWin

Role = Literal["killer", "police", "civilian"]
Side = Literal["good", "killers"]
Winner = Literal["good", "killers", "draw"]

ROLES: tuple[Role, ...] = ("killer", "police", "civilian")
WINNERS: tuple[Winner, ...] = ("good", "killers", "draw")

_ROLE: dict[str, Role] = {r: r for r in ROLES}
_WINNER: dict[str, Winner] = {w: w for w in WINNERS}

#: The 97.5th percentile of the standard normal distribution (two-sided 95 %).
Z95 = 1.959963984540054


# --- intervals ---------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` out of ``n`` (None when n = 0)."""
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"successes {successes} out of {n}")
    if n == 0:
        return None
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # The exact ends at 0/n and n/n are 0 and 1; rounding must not move them inside.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (min(low, p), max(high, p))


def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom {df}")
    return float(stdtrit(df, 0.5 + level / 2))


@dataclass(frozen=True, slots=True)
class Proportion:
    """``successes`` out of ``n``, the estimate and its 95 % Wilson interval (None: n = 0)."""

    successes: int
    n: int

    @property
    def estimate(self) -> float | None:
        return self.successes / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.successes, self.n)

    @property
    def low(self) -> float | None:
        ci = self.interval
        return ci[0] if ci else None

    @property
    def high(self) -> float | None:
        ci = self.interval
        return ci[1] if ci else None


@dataclass(frozen=True, slots=True)
class Mean:
    """The mean of ``n`` values and its 95 % t interval (None: n < 2, or no values);
    ``total`` and ``squares`` are the sums of the values and of their squares, so means
    can be kept up to date game by game (:func:`mean_from_sums`)."""

    n: int
    mean: float | None
    low: float | None
    high: float | None
    total: float = 0.0
    squares: float = 0.0


def mean_from_sums(n: int, total: float, squares: float, floor: float | None = None) -> Mean:
    """The mean of ``n`` values given their sum and the sum of their squares, with its 95 %
    Student t interval; its lower end no lower than ``floor`` (counts: 0), where no
    value can be."""
    if n <= 0:
        return Mean(0, None, None, None, 0.0, 0.0)
    mean = total / n
    if n < 2:
        return Mean(n, mean, None, None, total, squares)
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = t_quantile(n - 1) * math.sqrt(var / n)
    low = mean - half if floor is None else max(floor, mean - half)
    return Mean(n, mean, min(low, mean), mean + half, total, squares)


def mean_interval(values: Sequence[float], floor: float | None = None) -> Mean:
    """The mean of ``values`` with its 95 % Student t interval; its lower end no lower
    than ``floor`` (counts: 0), where no value can be."""
    return mean_from_sums(len(values), math.fsum(values), math.fsum(v * v for v in values), floor)


# --- one game ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatFact:
    seat: int
    player: str
    role: Role

    @property
    def side(self) -> Side:
        return "killers" if self.role == "killer" else "good"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the analytics need from one finished game.

    ``ruleset`` is the built-in ruleset's id (the base of an overridden one); ``rounds``
    the number of the last round played (None for a result-only record); ``bonuses`` and
    ``penalties`` count the referee's awards of each kind; ``referee`` names who ran the
    table; ``protests`` and ``protests_upheld`` come from the platform (0 when unknown).
    """

    ruleset: str
    seats: tuple[SeatFact, ...]
    winner: Winner
    night1_victim: int | None = None
    rounds: int | None = None
    bonuses: int = 0
    penalties: int = 0
    referee: str | None = None
    protests: int = 0
    protests_upheld: int = 0

    @property
    def size(self) -> int:
        return len(self.seats)

    def won(self, seat: SeatFact) -> bool:
        return self.winner == seat.side


def facts_from_record(
    record: GameRecord, referee: str | None = None, protests: int = 0, protests_upheld: int = 0
) -> GameFacts | None:
    """The facts of a finished record (None while it is in progress)."""
    if record.result is None:
        return None
    spec = record.ruleset_spec
    ruleset = spec if isinstance(spec, str) else spec.base
    seats = tuple(SeatFact(s.seat, s.player, _ROLE[s.role.value]) for s in record.seats)
    victim = None
    rounds = None
    if record.log is not None:
        victim = next((p.kill for p in record.log if isinstance(p, Night) and p.n == 1), None)
        rounds = max((p.n for p in record.log if isinstance(p, Night | Day)), default=0)
    kinds = Counter(a.kind.value for a in record.awards or ())
    return GameFacts(
        ruleset=ruleset,
        seats=tuple(sorted(seats, key=lambda s: s.seat)),
        winner=_WINNER[record.result.value],
        night1_victim=victim,
        rounds=rounds,
        bonuses=kinds["bonus"],
        penalties=kinds["penalty"],
        referee=referee,
        protests=protests,
        protests_upheld=protests_upheld,
    )


def can_draw(ruleset: str) -> bool:
    """Whether a built-in ruleset can end drawn (a final tie or civilians out): an
    unknown id can (its draws, if any, are shown)."""
    rules = RULESETS.get(ruleset)
    if rules is None:
        return True
    return rules.final_tie is FinalTie.DRAW or rules.killers_win is KillersWin.POLICE_OUT


# --- figures -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideRate:
    """How often ``side`` (good, killers, or draw) ended the games of one ruleset and
    table size."""

    ruleset: str
    size: int
    side: Winner
    rate: Proportion


@dataclass(frozen=True, slots=True)
class SeatRate:
    """How often the side of the player in ``seat`` won (n: games with that seat)."""

    seat: int
    rate: Proportion


@dataclass(frozen=True, slots=True)
class VictimShare:
    """The share of games at tables of ``size`` whose night-1 victim sat in ``seat``
    (n: games of that size with a recorded night-1 kill)."""

    size: int
    seat: int
    share: Proportion


@dataclass(frozen=True, slots=True)
class RoleRate:
    """How often ``player`` won when dealt ``role``."""

    player: str
    role: Role
    rate: Proportion


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players at the same tables: on the same side (``together``: games, wins of
    their side) and on opposite sides (``against``: games, wins of ``a``'s side;
    ``b_wins`` the other side's, the rest drawn)."""

    a: str
    b: str
    together: Proportion
    against: Proportion
    b_wins: int


@dataclass(frozen=True, slots=True)
class RefereeFigures:
    """One referee's games: their count, the mean length in rounds (games with a log),
    bonuses and penalties per game, and the share of protests upheld."""

    referee: str
    games: int
    rounds: Mean
    bonuses: Mean
    penalties: Mean
    protests_upheld: Proportion


def side_rates(games: Iterable[GameFacts], every_side: bool = False) -> list[SideRate]:
    """Each side's win rate (and the draw rate where the ruleset can draw, or with
    ``every_side`` always), per ruleset and table size, in ruleset then size order."""
    tally: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    for g in games:
        tally[(g.ruleset, g.size)][g.winner] += 1
    out = []
    for (ruleset, size), counts in sorted(tally.items()):
        n = sum(counts.values())
        for side in WINNERS:
            if side == "draw" and not every_side and not counts[side] and not can_draw(ruleset):
                continue
            out.append(SideRate(ruleset, size, side, Proportion(counts[side], n)))
    return out


def seat_rates(games: Iterable[GameFacts]) -> list[SeatRate]:
    """Each seat number's win rate (its player's side won), in seat order."""
    # Games that share their seats' tuple (the platform hands one tuple per pattern of
    # roles) and their winner are counted once, then weighted: a large scope is mostly
    # repeats of a few thousand patterns.
    patterns: dict[tuple[int, str], tuple[tuple[SeatFact, ...], int]] = {}
    for g in games:
        key = (id(g.seats), g.winner)
        hit = patterns.get(key)
        patterns[key] = (g.seats, 1) if hit is None else (hit[0], hit[1] + 1)
    n: dict[int, int] = {}
    won: dict[int, int] = {}
    for (_, winner), (seats, times) in patterns.items():
        killers_won = winner == "killers"
        for s in seats:
            n[s.seat] = n.get(s.seat, 0) + times
            if winner != "draw" and (s.role == "killer") == killers_won:
                won[s.seat] = won.get(s.seat, 0) + times
    return [SeatRate(seat, Proportion(won.get(seat, 0), n[seat])) for seat in sorted(n)]


def victim_shares(games: Iterable[GameFacts]) -> list[VictimShare]:
    """The night-1 victim's seat, per table size: every seat of the size is listed
    (0 shares included), over the games with a recorded night-1 kill."""
    victims: dict[int, Counter[int]] = defaultdict(Counter)
    for g in games:
        if g.night1_victim is not None:
            victims[g.size][g.night1_victim] += 1
    out = []
    for size, counts in sorted(victims.items()):
        n = sum(counts.values())
        for seat in range(1, size + 1):
            out.append(VictimShare(size, seat, Proportion(counts[seat], n)))
    return out


def role_rates(games: Iterable[GameFacts], player: str | None = None) -> list[RoleRate]:
    """Each player's win rate in each role they were dealt (only ``player``'s if given),
    in player then role order."""
    n: Counter[tuple[str, Role]] = Counter()
    won: Counter[tuple[str, Role]] = Counter()
    for g in games:
        for s in g.seats:
            if player is None or s.player == player:
                n[(s.player, s.role)] += 1
                won[(s.player, s.role)] += g.won(s)
    order = {r: i for i, r in enumerate(ROLES)}
    keys = sorted(n, key=lambda k: (k[0], order[k[1]]))
    return [RoleRate(p, r, Proportion(won[(p, r)], n[(p, r)])) for p, r in keys]


def head_to_head(games: Iterable[GameFacts], a: str, b: str) -> HeadToHead:
    """``a`` and ``b`` with and against each other (games where both sat)."""
    together = together_won = against = a_won = b_won = 0
    for g in games:
        sa = next((s for s in g.seats if s.player == a), None)
        sb = next((s for s in g.seats if s.player == b), None)
        if sa is None or sb is None or a == b:
            continue
        if sa.side == sb.side:
            together += 1
            together_won += g.won(sa)
        else:
            against += 1
            a_won += g.won(sa)
            b_won += g.won(sb)
    return HeadToHead(a, b, Proportion(together_won, together), Proportion(a_won, against), b_won)


def referee_figures(games: Iterable[GameFacts]) -> list[RefereeFigures]:
    """Per referee (games without one are left out), in referee order."""
    by: dict[str, list[GameFacts]] = defaultdict(list)
    for g in games:
        if g.referee is not None:
            by[g.referee].append(g)
    out = []
    for ref, mine in sorted(by.items()):
        out.append(
            RefereeFigures(
                ref,
                len(mine),
                mean_interval([g.rounds for g in mine if g.rounds is not None], floor=0.0),
                mean_interval([g.bonuses for g in mine], floor=0.0),
                mean_interval([g.penalties for g in mine], floor=0.0),
                Proportion(sum(g.protests_upheld for g in mine), sum(g.protests for g in mine)),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Figures:
    """Every figure of a set of games that does not name a player."""

    games: int
    sides: tuple[SideRate, ...]
    seats: tuple[SeatRate, ...]
    victims: tuple[VictimShare, ...]
    referees: tuple[RefereeFigures, ...]


def figures(games: Sequence[GameFacts], every_side: bool = False) -> Figures:
    """The figures of ``games`` (the per-player ones: :func:`role_rates`,
    :func:`head_to_head`); ``every_side`` keeps the draw rates that are not shown."""
    return Figures(
        len(games),
        tuple(side_rates(games, every_side)),
        tuple(seat_rates(games)),
        tuple(victim_shares(games)),
        tuple(referee_figures(games)),
    )


# --- one game's share: figures kept up to date game by game -------------------------------

#: The per-referee means and the kind of figure each contribution feeds.
MEANS = ("rounds", "bonuses", "penalties")


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one game adds to one figure: ``n`` (and ``successes``, for a proportion) or,
    for a mean (``successes`` None), ``n`` values summing to ``total`` with squares
    summing to ``squares``. Keys and params name the figure as :func:`figures` does:
    ``side`` ``ruleset/size/side``, ``seat`` ``seat``, ``victim`` ``size/seat``,
    ``referee`` ``referee/measure``. Adding every game's contributions gives the totals
    behind :func:`figures` (a game taken out subtracts its own)."""

    kind: str
    key: str
    params: tuple[tuple[str, str | int], ...]
    n: int
    successes: int | None
    total: float = 0.0
    squares: float = 0.0


def contributions(g: GameFacts) -> list[Contribution]:
    """Everything game ``g`` adds to the figures of the scopes it counts in."""
    out = [
        Contribution(
            "side",
            f"{g.ruleset}/{g.size}/{side}",
            (("ruleset", g.ruleset), ("size", g.size), ("side", side)),
            1,
            int(g.winner == side),
        )
        for side in WINNERS
    ]
    out += [
        Contribution("seat", str(s.seat), (("seat", s.seat),), 1, int(g.won(s))) for s in g.seats
    ]
    if g.night1_victim is not None:
        out += [
            Contribution(
                "victim",
                f"{g.size}/{seat}",
                (("size", g.size), ("seat", seat)),
                1,
                int(seat == g.night1_victim),
            )
            for seat in range(1, g.size + 1)
        ]
    if g.referee is not None:
        ref = g.referee
        values = {"rounds": g.rounds, "bonuses": g.bonuses, "penalties": g.penalties}
        for measure in MEANS:
            v = values[measure]
            if v is not None:
                out.append(
                    Contribution(
                        "referee",
                        f"{ref}/{measure}",
                        (("measure", measure),),
                        1,
                        None,
                        float(v),
                        float(v * v),
                    )
                )
        out.append(
            Contribution(
                "referee",
                f"{ref}/protests",
                (("measure", "protests"),),
                g.protests,
                g.protests_upheld,
            )
        )
    return out


def shown(kind: str, params: Mapping[str, object], successes: int | None) -> bool:
    """Whether a figure kept from contributions is shown: a draw rate only where the
    ruleset can end drawn or a game did (as :func:`side_rates` lists them)."""
    if kind != "side" or params.get("side") != "draw" or successes:
        return True
    return can_draw(str(params.get("ruleset", "")))
