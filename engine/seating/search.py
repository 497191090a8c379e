"""Local search over draws: a greedy start, tabu search and player relabelling.

A draw is held as ``assign[t, p]`` = table of player p in free round t (−1 when absent).
Table sizes never change during the search (only swaps), so the sizes chosen up front
stay valid. The objective is Σ over pairs of a convex cost of λ:

* C(λ, 2), the repeat meetings R;
* ``cap_weight`` times the square of every pair's meetings beyond the cap on max λ
  (squared, so a pair far over the cap is always worth breaking up);
* ``avoid_weight`` per meeting of a pair that must never meet (hard, checked after);
* ``club_weight`` per meeting of club-mates in the club-apart rounds (soft).

Swapping players a (table A) and b (table B) in round t changes it by
``S[a,B] − S[a,A] + S[b,A] − S[b,B] − 2·W[a,b]`` where W is the marginal cost of one
more meeting given the other rounds and ``S = W · onehot(tables)``; all swaps of a
round are priced at once with a few matrix operations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.seating.metrics import repeat_meetings

__all__ = ["Weights", "anneal", "fit_sizes", "greedy_round", "relabel", "tabu_search"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Weights:
    """Everything the objective needs beside the draw itself."""

    base: IntArray  # meetings already fixed (earlier rounds), n×n
    avoid: BoolArray  # n×n, symmetric
    club: BoolArray  # n×n, symmetric
    club_rounds: int  # free rounds (0-based, < this) where clubs are kept apart
    cap: int
    cap_weight: int
    avoid_weight: int
    club_weight: int


def onehot(row: IntArray, m: int) -> IntArray:
    """n×m indicator of a round's tables (absent players give a zero row)."""
    out = np.zeros((len(row), m), dtype=np.int64)
    here = row >= 0
    out[np.flatnonzero(here), row[here]] = 1
    return out


def round_adjacency(row: IntArray) -> IntArray:
    """n×n: 1 where two present players share a table in this round."""
    here = row >= 0
    same = (row[:, None] == row[None, :]) & here[:, None] & here[None, :]
    adj: IntArray = same.astype(np.int64)
    np.fill_diagonal(adj, 0)
    return adj


def meetings(assign: IntArray, base: IntArray) -> IntArray:
    """λ over fixed and free rounds."""
    lam = base.copy()
    for row in assign:
        lam += round_adjacency(row)
    return lam


def marginal(prior: IntArray, w: Weights, t: int) -> IntArray:
    """Cost of one more meeting in round t for every pair, given ``prior`` meetings."""
    over = np.maximum(prior - w.cap + 1, 0)
    cost = prior + w.cap_weight * (2 * over - 1) * (over > 0) + w.avoid_weight * w.avoid
    if t < w.club_rounds:
        cost = cost + w.club_weight * w.club
    np.fill_diagonal(cost, 0)
    return cost  # type: ignore[no-any-return]


def constraint_meetings(
    assign: IntArray, w: Weights, lam: IntArray | None = None
) -> tuple[int, int]:
    """Meetings (in the free rounds) of pairs that must not meet, and of club-mates in
    the club-apart rounds; ``lam``, if given, is ``meetings(assign, w.base)``."""
    if lam is None:
        lam = meetings(assign, w.base)
    iu = np.triu_indices(len(lam), 1)
    avoid = int((lam - w.base)[iu][w.avoid[iu]].sum())
    clubs = sum(
        int(round_adjacency(assign[t])[iu][w.club[iu]].sum())
        for t in range(min(w.club_rounds, len(assign)))
    )
    return avoid, clubs


def objective(assign: IntArray, w: Weights) -> int:
    """The search objective (see module docstring) of a whole draw."""
    lam = meetings(assign, w.base)
    u = lam[np.triu_indices(len(lam), 1)]
    over = w.cap_weight * int((np.maximum(u - w.cap, 0) ** 2).sum())
    avoid, clubs = constraint_meetings(assign, w, lam)
    return repeat_meetings(lam) + over + w.avoid_weight * avoid + w.club_weight * clubs


def greedy_round(
    sizes: tuple[int, ...],
    present: IntArray,
    prior: IntArray,
    w: Weights,
    t: int,
    rng: np.random.Generator,
) -> IntArray:
    """Seat present players one by one (random order) at the open table they would add
    the least cost to; the largest-constraint players go first."""
    n = len(prior)
    cost = marginal(prior, w, t)
    row = np.full(n, -1, dtype=np.int64)
    load = np.zeros(len(sizes), dtype=np.int64)
    cap = np.asarray(sizes, dtype=np.int64)
    order = rng.permutation(present)
    hard = w.avoid[order].sum(axis=1)
    order = order[np.argsort(-hard, kind="stable")]
    acc = np.zeros((n, len(sizes)), dtype=np.int64)
    for p in order:
        price = np.where(load < cap, acc[p], np.iinfo(np.int64).max)
        j = int(np.argmin(price))
        row[p] = j
        load[j] += 1
        acc[:, j] += cost[:, p]
    return row


def fit_sizes(
    row: IntArray, sizes: tuple[int, ...], prior: IntArray, w: Weights, t: int
) -> IntArray:
    """Move players from over-full to under-full tables (cheapest moves first) until the
    round has exactly ``sizes`` (matched largest table to largest target)."""
    row = row.copy()
    m = len(sizes)
    cost = marginal(prior, w, t)
    counts = np.bincount(row[row >= 0], minlength=m)
    order = np.argsort(-counts, kind="stable")
    relabel = np.empty(m, dtype=np.int64)
    relabel[order] = np.arange(m)
    row = np.where(row >= 0, relabel[np.maximum(row, 0)], -1)
    target = np.asarray(sizes, dtype=np.int64)
    counts = np.bincount(row[row >= 0], minlength=m)
    acc = cost @ onehot(row, m)
    while True:
        over = np.flatnonzero(counts > target)
        under = np.flatnonzero(counts < target)
        if not len(over):
            return row
        movers = np.flatnonzero(np.isin(row, over))
        own = acc[movers, row[movers]]
        gain = acc[np.ix_(movers, under)] - own[:, None]
        i, j = np.unravel_index(int(np.argmin(gain)), gain.shape)
        p, old, new = movers[i], row[movers[i]], under[j]
        row[p] = new
        counts[old] -= 1
        counts[new] += 1
        acc[:, old] -= cost[:, p]
        acc[:, new] += cost[:, p]


def tabu_search(
    assign: IntArray,
    m: list[int],
    w: Weights,
    *,
    iterations: int,
    tenure: int,
    target: int,
    rng: np.random.Generator,
    out_of_time: Callable[[], bool],
    progress: Callable[[float], None] | None = None,
) -> tuple[IntArray, int]:
    """Whole-round best-swap tabu search; returns the best draw seen and its objective.

    Each iteration takes a random round, prices every swap there, and makes the best one
    not forbidden by tabu (a player moved in that round stays put for ``tenure``
    iterations) unless it beats the best draw so far.
    """
    rounds, n = assign.shape
    assign = assign.copy()
    lam = meetings(assign, w.base)
    current = objective(assign, w)
    best, best_assign = current, assign.copy()
    tabu = np.zeros((rounds, n), dtype=np.int64)
    big = np.iinfo(np.int64).max // 4
    for it in range(iterations):
        if best <= target or out_of_time():
            break
        if progress is not None and it % 200 == 0:
            progress(it / iterations)
        t = int(rng.integers(rounds))
        row = assign[t]
        adj = round_adjacency(row)
        cost = marginal(lam - adj, w, t)
        s = cost @ onehot(row, m[t])
        here = row >= 0
        tab = np.where(here, row, 0)
        own = s[np.arange(n), tab]
        gain = s - own[:, None]
        x = gain[:, tab]
        delta = x + x.T - 2 * cost
        ok = here[:, None] & here[None, :] & (row[:, None] != row[None, :])
        free = tabu[t] <= it
        allowed = ok & ((free[:, None] & free[None, :]) | (current + delta < best))
        delta = np.where(allowed, delta, big)
        flat = int(np.argmin(delta))
        a, b = divmod(flat, n)
        if delta[a, b] >= big:
            continue
        ta, tb = row[a], row[b]
        lam -= adj
        row[a], row[b] = tb, ta
        lam += round_adjacency(row)
        current += int(delta[a, b])
        tabu[t, a] = tabu[t, b] = it + tenure + int(rng.integers(tenure + 1))
        if current < best:
            best, best_assign = current, assign.copy()
    return best_assign, best


def relabel(
    terms: list[tuple[IntArray, IntArray]],
    *,
    iterations: int,
    rng: np.random.Generator,
    out_of_time: Callable[[], bool],
) -> IntArray:
    """Permute which player takes which point of a construction.

    Minimises Σ_k Σ_pairs H_k[a,b] · L_k[π a, π b] (avoid pairs and club-mates get large
    H, earlier meetings give H = λ so far) by best-improvement swaps of two players'
    points, taken from a random player who still costs something; a sideways swap
    (no change) is taken at random to walk off plateaus. The construction's own
    fairness is unchanged. Returns π as an index array.
    """
    n = len(terms[0][1])
    perm = np.arange(n)
    if not any(h.any() for h, _ in terms):
        return perm
    # terms with one H add up: Σ_k H·L_k = H·Σ_k L_k (an absent player's rounds, say)
    merged: dict[bytes, tuple[IntArray, IntArray]] = {}
    for hk, lk in terms:
        key = hk.tobytes()
        merged[key] = (hk, merged[key][1] + lk) if key in merged else (hk, lk)
    terms = list(merged.values())
    # player-major stacks: h[a, k] is H_k[a], lp[a, k] is L_k[π a, π ·], kept as π changes;
    # floats for the products (BLAS): every value is a small integer, exact in a double
    h = np.stack([hk for hk, _ in terms], axis=1).astype(float)
    lp = np.stack([lk for _, lk in terms], axis=1).astype(float)
    flat_h, flat_lp = h.reshape(n, -1), lp.reshape(n, -1)
    own = (h * lp).sum(axis=2)  # own[a, k] = Σ_c H_k[a,c] L_k[π a, π c]
    for _ in range(iterations):
        if out_of_time():
            break
        cost = own.sum(axis=1)
        bad = np.flatnonzero(cost > 0)
        if not len(bad):
            break
        a = int(rng.choice(bad))
        # swap a with every b: Σ_k Σ_c (H[a,c] − H[b,c]) (L[b,c] − L[a,c]), c ∉ {a, b}
        gain = flat_lp @ flat_h[a] + flat_h @ flat_lp[a] - cost[a] - cost
        delta = np.rint(gain + 2 * (h[a] * lp[a]).sum(axis=0)).astype(np.int64)
        delta[a] = 0
        best = int(delta.min())
        if best > 0:
            continue
        # take an improving swap, or a random sideways one to leave a plateau
        ties = np.flatnonzero(delta == best)
        b = int(ties[rng.integers(len(ties))])
        if b == a:
            continue
        perm[[a, b]] = perm[[b, a]]
        own -= h[:, :, a] * lp[:, :, a] + h[:, :, b] * lp[:, :, b]
        lp[[a, b]] = lp[[b, a]]
        lp[:, :, [a, b]] = lp[:, :, [b, a]]
        own += h[:, :, a] * lp[:, :, a] + h[:, :, b] * lp[:, :, b]
        own[[a, b]] = (h[[a, b]] * lp[[a, b]]).sum(axis=2)
    return perm


def anneal(
    assign: IntArray,
    w: Weights,
    *,
    moves: int,
    rng: np.random.Generator,
    out_of_time: Callable[[], bool],
    movers: Sequence[Sequence[int]] | None = None,
    target: int | None = None,
) -> IntArray:
    """Simulated annealing on the same objective, one random swap at a time.

    Pure-Python lists make a move cost a few microseconds, so a search started from a
    greedy draw covers far more ground than whole-round tabu before tabu polishes it.
    Temperatures fall geometrically from 2 to 0.05 over ``moves``. The price of a
    meeting beyond the cap rises with them, geometrically from 1 to ``cap_weight``:
    a cap priced in full from the start freezes the walk wherever the greedy draw
    left pairs above it, while a cheap one early lets them be broken up on the way.
    The best draw under the full price is returned.

    A move swaps the tables of two players of one round: any two present players, or
    two of ``movers[t]`` in round t if given (players who must stay put are left out).
    The search stops early once the objective reaches ``target`` (a lower bound, say).
    """
    rounds, n = assign.shape
    lam = meetings(assign, w.base).tolist()
    depth = rounds + int(w.base.max(initial=0)) + 2
    over = [2 * (d - w.cap) + 1 if d >= w.cap else 0 for d in range(depth)]
    # per-pair prices beside λ (avoid pairs, club-mates early); None when all zero, as
    # in most draws and in pad_runs: their lookups are a third of a move's time
    hard = (w.avoid_weight * w.avoid).astype(np.int64)
    early = hard + w.club_weight * w.club
    static_all: list[list[int]] | None = hard.tolist() if hard.any() else None
    static_early: list[list[int]] | None = early.tolist() if early.any() else None
    tables: list[list[list[int]]] = []
    where = assign.tolist()
    for row in assign:
        m = int(row.max()) + 1
        tables.append([[int(p) for p in np.flatnonzero(row == j)] for j in range(m)])
    if movers is None:
        present = [[p for p in range(n) if row[p] >= 0] for row in where]
    else:
        present = [list(ps) for ps in movers]
    full = objective(assign, w)
    iu = np.triu_indices(n, 1)
    excess = int((np.maximum(meetings(assign, w.base)[iu] - w.cap, 0) ** 2).sum())
    rest = full - w.cap_weight * excess  # R, avoid and club terms
    best, best_assign = full, [list(r) for r in where]
    if target is not None and best <= target:
        moves = 0
    ratio = 0.05 / 2.0
    weight = 1.0
    step: list[float] = []
    for i in range(moves):
        if i % 4096 == 0:
            if out_of_time():
                break
            temp = 2.0 * ratio ** (i / moves)
            weight = max(1.0, w.cap_weight ** (i / moves)) if w.cap_weight else 0.0
            step = [d + weight * over[d] for d in range(depth)]
            draws = rng.random(4096).tolist()
            picks = rng.integers(0, 1 << 30, size=(4096, 3)).tolist()
        k0, k1, k2 = picks[i % 4096]
        t = k0 % rounds
        here = present[t]
        a, b = here[k1 % len(here)], here[k2 % len(here)]
        wt = where[t]
        ja, jb = wt[a], wt[b]
        if ja == jb:
            continue
        ta, tb = tables[t][ja], tables[t][jb]
        la, lb = lam[a], lam[b]
        static = static_early if t < w.club_rounds else static_all
        delta = 0
        if static is None:
            for x in ta:
                if x != a:
                    delta += step[lb[x]] - step[la[x] - 1]
            for x in tb:
                if x != b:
                    delta += step[la[x]] - step[lb[x] - 1]
        else:
            sa, sb = static[a], static[b]
            for x in ta:
                if x != a:
                    delta += step[lb[x]] + sb[x] - step[la[x] - 1] - sa[x]
            for x in tb:
                if x != b:
                    delta += step[la[x]] + sa[x] - step[lb[x] - 1] - sb[x]
        if delta > 0 and draws[i % 4096] >= math.exp(-delta / temp):
            continue
        grown = 0
        for x in ta:
            if x != a:
                grown += over[lb[x]] - over[la[x] - 1]
        for x in tb:
            if x != b:
                grown += over[la[x]] - over[lb[x] - 1]
        excess += grown
        rest += round(delta - weight * grown)
        for x in ta:
            if x != a:
                la[x] -= 1
                lam[x][a] -= 1
                lb[x] += 1
                lam[x][b] += 1
        for x in tb:
            if x != b:
                lb[x] -= 1
                lam[x][b] -= 1
                la[x] += 1
                lam[x][a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        wt[a], wt[b] = jb, ja
        full = rest + w.cap_weight * excess
        if full < best:
            best, best_assign = full, [list(r) for r in where]
            if target is not None and best <= target:
                break
    return np.array(best_assign, dtype=np.int64)
