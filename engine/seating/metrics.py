"""Measures of a draw and the lower bounds they are compared against.

Every bound here holds for *any* draw of the problem, so a measure equal to its bound
is optimal; see docs/draws.md for the reasoning in plain words.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from engine.seating.problem import SeatingProblem

__all__ = [
    "SeatingMetrics",
    "feasible_table_counts",
    "meeting_matrix",
    "partition",
    "seating_bounds",
    "seating_metrics",
    "spread",
]

IntMatrix = npt.NDArray[np.int64]


def spread(items: int, cells: int) -> int:
    """Least ``Σ C(x_i, 2)`` over ways to put ``items`` into ``cells`` (an even split)."""
    if cells <= 0:
        return 0
    q, extra = divmod(items, cells)
    return extra * (q + 1) * q // 2 + (cells - extra) * q * (q - 1) // 2


@lru_cache(maxsize=4096)
def partition(players: int, tables: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The most even split of ``players`` into ``tables`` tables of the given sizes.

    "Most even" minimises ``Σ s²`` (hence the meetings a round creates); ``None`` when no
    split exists. Sizes come back largest first.
    """
    if tables <= 0 or not sizes:
        return None
    if not tables * sizes[0] <= players <= tables * sizes[-1]:
        return None
    q, extra = divmod(players, tables)
    if q in sizes and (not extra or q + 1 in sizes):
        return (q + 1,) * extra + (q,) * (tables - extra)
    # best[j][x]: least Σ s² seating x players at j tables; choice[j][x]: last size used.
    inf = 1 << 60
    best = [[inf] * (players + 1) for _ in range(tables + 1)]
    choice = [[0] * (players + 1) for _ in range(tables + 1)]
    best[0][0] = 0
    for j in range(1, tables + 1):
        for x in range(players + 1):
            for s in sizes:
                if s <= x and best[j - 1][x - s] + s * s < best[j][x]:
                    best[j][x] = best[j - 1][x - s] + s * s
                    choice[j][x] = s
    if best[tables][players] >= inf:
        return None
    out = []
    x = players
    for j in range(tables, 0, -1):
        s = choice[j][x]
        out.append(s)
        x -= s
    return tuple(sorted(out, reverse=True))


def feasible_table_counts(players: int, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Table counts for which ``players`` can be split into allowed sizes."""
    if not sizes or players <= 0:
        return ()
    lo = -(-players // sizes[-1])
    hi = players // sizes[0]
    return tuple(m for m in range(lo, hi + 1) if partition(players, m, sizes) is not None)


def repeat_meetings(lam: IntMatrix) -> int:
    """R = Σ over pairs of C(λ, 2), from the symmetric λ matrix (zero diagonal)."""
    return int((lam * (lam - 1)).sum()) // 4


def meeting_matrix(n: int, rounds: Sequence[Sequence[Sequence[int]]]) -> IntMatrix:
    """λ as an n×n matrix (zero diagonal) from rounds of tables of player indices."""
    lam = np.zeros((n, n), dtype=np.int64)
    for rnd in rounds:
        for table in rnd:
            idx = np.asarray(table, dtype=np.int64)
            lam[np.ix_(idx, idx)] += 1
    np.fill_diagonal(lam, 0)
    return lam


@dataclass(frozen=True)
class Bounds:
    """Lower bounds on repeat meetings and on the largest meeting count."""

    repeats: int
    max_meetings: int


def seating_bounds(problem: SeatingProblem) -> Bounds:
    """Bounds valid for every draw of ``problem`` (fixed rounds counted as played).

    Two arguments, the larger wins: the meetings all rounds create, spread evenly over
    all pairs; and for every two rounds, players present in both fall into
    ``m_t · m_u`` table pairs, so ``spread(n_tu, m_t · m_u)`` pairs meet in both.
    Both shrink as tables get smaller, so each round is taken at its largest table count.
    """
    n = len(problem.players)
    sizes = problem.sizes()
    index = problem.index
    present: list[frozenset[int]] = []
    table_counts: list[int] = []
    meetings = 0
    fixed_cells: dict[int, IntMatrix] = {}
    for t in range(1, problem.rounds + 1):
        if t <= len(problem.fixed_rounds):
            rnd = problem.fixed_rounds[t - 1]
            present.append(frozenset(index[p] for table in rnd for p in table))
            table_counts.append(len(rnd))
            meetings += sum(len(table) * (len(table) - 1) // 2 for table in rnd)
            where = np.full(n, -1, dtype=np.int64)
            for j, table in enumerate(rnd):
                for p in table:
                    where[index[p]] = j
            fixed_cells[t - 1] = where
            continue
        here = frozenset(index[p] for p in problem.present(t))
        present.append(here)
        counts = (
            (problem.tables,)
            if problem.tables is not None
            else feasible_table_counts(len(here), sizes)
        )
        options = [(m, partition(len(here), m, sizes)) for m in counts]
        valid = [(m, parts) for m, parts in options if parts is not None]
        if not valid:
            table_counts.append(1)
            continue
        table_counts.append(max(m for m, _ in valid))
        meetings += min(sum(s * (s - 1) // 2 for s in parts) for _, parts in valid)
    pairs = n * (n - 1) // 2
    even = spread(meetings, pairs)
    by_rounds = 0
    for t, u in itertools.combinations(range(problem.rounds), 2):
        if t in fixed_cells and u in fixed_cells:
            a, b = fixed_cells[t], fixed_cells[u]
            both = (a >= 0) & (b >= 0)
            cells = np.bincount(a[both] * table_counts[u] + b[both])
            by_rounds += int((cells * (cells - 1) // 2).sum())
        else:
            by_rounds += spread(len(present[t] & present[u]), table_counts[t] * table_counts[u])
    repeats = max(even, by_rounds)
    max_meet = -(-meetings // pairs) if pairs else 0
    if repeats > 0:
        max_meet = max(max_meet, 2)
    return Bounds(repeats=repeats, max_meetings=max_meet)


@dataclass(frozen=True)
class SeatingMetrics:
    """A draw's fairness measures with their lower bounds beside them.

    ``repeats`` is R = Σ over pairs of C(λ, 2); ``max_meetings`` is max λ;
    ``seat_max`` is the most times any player holds one seat number, against
    ``seat_ideal`` = ceil(rounds / smallest table size); ``club_meetings`` counts pairs
    of club-mates sharing a table within the club-apart rounds.
    """

    repeats: int
    repeats_bound: int
    max_meetings: int
    max_meetings_bound: int
    seat_max: int
    seat_ideal: int
    club_meetings: int

    @property
    def seat_excess(self) -> int:
        """How far the worst seat repeat lies above its ideal (0 when balanced)."""
        return max(0, self.seat_max - self.seat_ideal)


def seating_metrics(
    problem: SeatingProblem, rounds: Sequence[Sequence[Sequence[str]]], bounds: Bounds
) -> SeatingMetrics:
    """Measure a finished draw (tables in seat order) of ``problem``."""
    index = problem.index
    n = len(index)
    as_idx = [[[index[p] for p in table] for table in rnd] for rnd in rounds]
    lam = meeting_matrix(n, as_idx)
    repeats = repeat_meetings(lam)
    max_meet = int(lam.max(initial=0))
    width = max((len(table) for rnd in rounds for table in rnd), default=1)
    seat_counts = np.zeros((n, width), dtype=np.int64)
    for rnd in as_idx:
        for table in rnd:
            seat_counts[table, np.arange(len(table))] += 1
    smallest = min((len(table) for rnd in rounds for table in rnd if table), default=1)
    club_meetings = 0
    if problem.clubs and problem.club_apart_rounds:
        for early in rounds[: problem.club_apart_rounds]:
            for seated in early:
                mates = Counter(problem.clubs[p] for p in seated if p in problem.clubs)
                club_meetings += sum(c * (c - 1) // 2 for c in mates.values())
    return SeatingMetrics(
        repeats=repeats,
        repeats_bound=bounds.repeats,
        max_meetings=max_meet,
        max_meetings_bound=bounds.max_meetings,
        seat_max=int(seat_counts.max()) if seat_counts.size else 0,
        seat_ideal=-(-problem.rounds // smallest),
        club_meetings=club_meetings,
    )
