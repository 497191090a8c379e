"""Seat numbers: spread every player over the seat positions.

Seat order decides who speaks first, so nobody should hold one seat number more than
``ceil(rounds / table size)`` times. Each table is an assignment problem (players ×
seats, cost = how often the player already held the seat), solved with the Hungarian
method; sweeping over all tables again with the others fixed removes most of the excess
a single round-by-round pass leaves, and alternating swaps (a random walk along Kempe
chains: p takes a seat it lacks from q, q takes p's surplus seat) clear the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

__all__ = ["assign_seats"]

_OVER_CAP = 10_000


def assign_seats(
    n: int,
    rounds: Sequence[Sequence[Sequence[int]]],
    fixed: int,
    cap: int,
    *,
    passes: int = 6,
    walk: int = 20_000,
    seed: int = 0,
    out_of_time: Callable[[], bool] = lambda: False,
) -> list[list[list[int]]]:
    """Order every table's players by seat; the first ``fixed`` rounds keep their order."""
    width = max((len(table) for rnd in rounds for table in rnd), default=1)
    counts = np.zeros((n, width), dtype=np.int64)
    ordered: list[list[list[int]]] = [[list(table) for table in rnd] for rnd in rounds]
    for rnd in ordered[:fixed]:
        for table in rnd:
            counts[table, np.arange(len(table))] += 1

    def seat(t: int, j: int) -> None:
        table = ordered[t][j]
        k = len(table)
        held = counts[table, :k]
        cost = 2 * held + _OVER_CAP * (held + 1 > cap)
        rows, cols = linear_sum_assignment(cost)
        order = [0] * k
        for r, c in zip(rows, cols, strict=True):
            order[int(c)] = table[int(r)]
        ordered[t][j] = order
        counts[order, np.arange(k)] += 1

    for t in range(fixed, len(ordered)):
        for j in range(len(ordered[t])):
            seat(t, j)
    for _ in range(passes):
        if counts.max(initial=0) <= cap or out_of_time():
            break
        for t in range(fixed, len(ordered)):
            for j, table in enumerate(ordered[t]):
                counts[table, np.arange(len(table))] -= 1
                seat(t, j)
    _kempe_walk(ordered, counts, fixed, cap, walk, np.random.default_rng(seed), out_of_time)
    return ordered


def _kempe_walk(
    ordered: list[list[list[int]]],
    counts: npt.NDArray[np.int64],
    fixed: int,
    cap: int,
    steps: int,
    rng: np.random.Generator,
    out_of_time: Callable[[], bool],
) -> None:
    """Move surplus seats along swap chains until nobody exceeds ``cap`` (or give up)."""
    for step in range(steps):
        over = np.argwhere(counts > cap)
        if not len(over) or (step % 64 == 0 and out_of_time()):
            return
        p, s = (int(v) for v in over[rng.integers(len(over))])
        spots = [
            (t, j)
            for t in range(fixed, len(ordered))
            for j, table in enumerate(ordered[t])
            if s < len(table) and table[s] == p
        ]
        t, j = spots[rng.integers(len(spots))]
        table = ordered[t][j]
        lacking = [x for x in range(len(table)) if counts[p, x] < cap]
        if not lacking:
            continue
        # prefer a partner who does not already hold s often; otherwise pass it on
        clean = [x for x in lacking if counts[table[x], s] < cap]
        x = int(rng.choice(clean if clean else lacking))
        q = table[x]
        table[s], table[x] = q, p
        counts[p, s] -= 1
        counts[p, x] += 1
        counts[q, x] -= 1
        counts[q, s] += 1
