"""Offline generator of ``engine/formats/final_designs.json``: the final table's designs.

Not imported at run time. For every n in 8..16 and g in 3..16 it looks for a g×n array
(game × seat → player) meeting both rules of formats.md §2, as checked by
:func:`engine.formats.final_seating.check_design`:

* the seat rule by blocks of n games: within each block no player repeats a seat;
* the neighbour bound: no pair side by side (seat n next to seat 1) more than
  ``ceil(2g/(n-1))`` times.

The search is simulated annealing on the neighbour excess (the counts beyond the bound)
with moves that keep every block a Latin rectangle, so the seat rule holds throughout:

* a *column swap*: swap seats i and j in one game, then in every game of the block that
  the swap now clashes with, closing the chain (a cycle of the 2-column permutation in a
  full block, a path in a partial one) — the classic Latin-trade move;
* a *relabelling*: swap two players throughout one block (changes only the pairs across
  blocks, so only when g > n).

It starts from cyclic Latin squares (translates of Walecki's zigzag), is seeded per
(n, g) with SplitMix-free ``random.Random(f"{n},{g},{attempt}")`` and restarts with the
next attempt on stagnation, so a run is reproducible.

Before the annealing, a cell with g ≤ n gets an exact depth-first search with Luby
restarts (:func:`restarts`, ``FD_EXACT`` seconds), and every cell is first tried as
:func:`derive`-d from the cells already within the bound (a prefix of a design for more
games, or a tight (n, n−1) design followed by a relabelled uniform one); the tight
g = n−1 cells come first in a full run. Usage::

    nice python bench/final_designs.py            # all cells, writes the JSON
    nice python bench/final_designs.py 11 5 15 7  # only these (n, g) cells, merged in
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from pathlib import Path

from engine.formats.final_seating import (
    check_design,
    decode_rows,
    encode_rows,
    neighbour_bound,
    neighbour_counts,
)

OUT = Path(__file__).resolve().parent.parent / "engine" / "formats" / "final_designs.json"
NS = range(8, 17)
GS = range(3, 17)
STEPS = int(os.environ.get("FD_STEPS", 100_000))  # moves per attempt
ATTEMPTS = int(os.environ.get("FD_ATTEMPTS", 2))
EXACT = float(os.environ.get("FD_EXACT", 120))  # seconds of exact search (cells with g ≤ n)
REPAIRS = int(
    os.environ.get("FD_REPAIRS", 1000)
)  # refills of the large-neighbourhood search after each annealing
REPAIR_NODES = 3000  # nodes of one refill's depth-first search
# SQUARE=0: the cost is the excess alone (FD_SQUARE=0 FD_T0=0.6 FD_T1=0.02 solved cells
# the squared cost missed, and the other way round)
SQUARE = int(os.environ.get("FD_SQUARE", 1))
OVER = int(os.environ.get("FD_OVER", 4))  # weight of a count beyond the bound in the annealed cost
# T0, T1: temperatures at the start and the end of an attempt
T0, T1 = (
    float(os.environ.get("FD_T0", 3.0)),
    float(os.environ.get("FD_T1", 0.2)),
)  # temperatures at the start and the end of an attempt


class Anneal:
    def __init__(self, n: int, g: int, rng: random.Random) -> None:
        self.n, self.g, self.rng = n, g, rng
        self.bound = neighbour_bound(n, g)
        m = n - 1
        zig = [0] + [(j + 1) // 2 if j % 2 else (-(j // 2)) % m for j in range(1, m)]
        base = [m, *zig]
        self.rows: list[list[int]] = []
        for b in range(-(-g // n)):
            perm = list(range(n))
            rng.shuffle(perm)  # a random relabelling per block
            shifts = list(range(n))
            rng.shuffle(shifts)
            for k in range(min(n, g - b * n)):
                self.rows.append([perm[(v + shifts[k]) % n] for v in base])
        self.where: list[list[list[int]]] = []  # where[block][player][seat] = row or -1
        for b in range(-(-g // n)):
            w = [[-1] * n for _ in range(n)]
            for k in range(b * n, min(g, b * n + n)):
                for s, p in enumerate(self.rows[k]):
                    w[p][s] = k
            self.where.append(w)
        self.cnt = [[0] * n for _ in range(n)]
        for row in self.rows:
            for s in range(n):
                a, c = row[s], row[(s + 1) % n]
                self.cnt[a][c] += 1
                self.cnt[c][a] += 1
        # the annealed cost: c² per pair (smooth, least when the counts are even) plus a
        # weight on the counts beyond the bound; ``excess`` (the goal, 0) is kept beside it
        self.pen = [SQUARE * c * c + OVER * max(0, c - self.bound) for c in range(4 * g + 2)]
        pairs = [self.cnt[a][c] for a in range(n) for c in range(a + 1, n)]
        self.cost = sum(self.pen[c] for c in pairs)
        self.excess = sum(max(0, c - self.bound) for c in pairs)

    def _edge(self, a: int, c: int, d: int) -> int:
        """Add d to pair (a, c); the change of cost (the excess's change is tallied)."""
        cnt, bound = self.cnt, self.bound
        before = cnt[a][c]
        after = before + d
        cnt[a][c] = after
        cnt[c][a] = after
        self.excess += max(0, after - bound) - max(0, before - bound)
        return self.pen[after] - self.pen[before]

    def _row_edges(self, row: list[int], seats: set[int], d: int) -> int:
        n = self.n
        delta = 0
        for s in seats:
            delta += self._edge(row[s], row[(s + 1) % n], d)
        return delta

    def chain(self, k: int, i: int, j: int) -> list[int]:
        b = k // self.n
        w = self.where[b]
        todo, seen = [k], {k}
        while todo:
            r = todo.pop()
            row = self.rows[r]
            for sym, dest in ((row[i], j), (row[j], i)):
                other = w[sym][dest]
                if other >= 0 and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return list(seen)

    def swap_seats(self, rows: list[int], i: int, j: int) -> int:
        n = self.n
        seats = {(i - 1) % n, i, (j - 1) % n, j}
        delta = 0
        for r in rows:
            row = self.rows[r]
            delta += self._row_edges(row, seats, -1)
            w = self.where[r // n]
            w[row[i]][i] = -1
            w[row[j]][j] = -1
        for r in rows:
            row = self.rows[r]
            row[i], row[j] = row[j], row[i]
            w = self.where[r // n]
            w[row[i]][i] = r
            w[row[j]][j] = r
            delta += self._row_edges(row, seats, 1)
        return delta

    def relabel(self, b: int, x: int, y: int) -> int:
        n = self.n
        delta = 0
        rows = range(b * n, min(self.g, b * n + n))
        every = set(range(n))
        for r in rows:
            delta += self._row_edges(self.rows[r], every, -1)
        for r in rows:
            self.rows[r] = [y if p == x else x if p == y else p for p in self.rows[r]]
            delta += self._row_edges(self.rows[r], every, 1)
        w = self.where[b]
        w[x], w[y] = w[y], w[x]
        return delta

    def refill(self, chosen: list[int], nodes: int) -> bool:
        """Take the games ``chosen`` out and seat them again by an exact depth-first search
        (seat by seat, each block Latin) whose excess stays at most what it was; keeps
        the old games when the search finds nothing within ``nodes`` nodes."""
        n, rng = self.n, self.rng
        target = self.excess
        old = {k: list(self.rows[k]) for k in chosen}
        every = set(range(n))
        for k in chosen:
            self._row_edges(self.rows[k], every, -1)
            w = self.where[k // n]
            for s, p in enumerate(self.rows[k]):
                w[p][s] = -1
        budget = [nodes]

        def place(idx: int, s: int, row: list[int], free: list[int]) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if idx == len(chosen):
                return True
            k = chosen[idx]
            w = self.where[k // n]
            cands = [p for p in free if w[p][s] < 0]
            rng.shuffle(cands)
            if s > 0:
                prev = row[-1]
                cands.sort(key=lambda p: self.cnt[prev][p])
            for p in cands:
                d = 0
                if s > 0:
                    d += self._edge(row[-1], p, 1)
                if s == n - 1:
                    d += self._edge(p, row[0], 1)
                if self.excess <= target:
                    w[p][s] = k
                    row.append(p)
                    if s == n - 1:
                        self.rows[k] = row
                        if place(idx + 1, 0, [], list(range(n))):
                            return True
                    elif place(idx, s + 1, row, [q for q in free if q != p]):
                        return True
                    row.pop()
                    w[p][s] = -1
                if s == n - 1:
                    self._edge(p, row[0], -1)
                if s > 0:
                    self._edge(row[-1], p, -1)
                if budget[0] < 0:
                    return False
            return False

        if place(0, 0, [], list(range(n))):
            return True
        for k in chosen:  # put the old games back
            self.rows[k] = old[k]
            self._row_edges(self.rows[k], every, 1)
            w = self.where[k // n]
            for s, p in enumerate(self.rows[k]):
                w[p][s] = k
        return False

    def repair(self, rounds: int, nodes: int) -> bool:
        """Large-neighbourhood search: refill two or three games at a time, preferring
        games where a pair beyond the bound sits."""
        n, g, rng = self.n, self.g, self.rng
        for _ in range(rounds):
            if self.excess == 0:
                return True
            bad = [
                k
                for k, row in enumerate(self.rows)
                if any(self.cnt[row[s]][row[(s + 1) % n]] > self.bound for s in range(n))
            ]
            first = rng.choice(bad) if bad else rng.randrange(g)
            size = min(g, rng.choice((2, 3, 3)))
            others = [k for k in range(g) if k != first]
            chosen = [first, *rng.sample(others, size - 1)]
            self.refill(chosen, nodes)
        return self.excess == 0

    def run(self, steps: int) -> bool:
        n, g, rng = self.n, self.g, self.rng
        blocks = -(-g // n)
        t0, t1 = T0, T1
        for step in range(steps):
            if self.excess == 0:
                return True
            temp = t0 * (t1 / t0) ** (step / steps)
            if blocks > 1 and rng.random() < 0.1:
                b = rng.randrange(blocks)
                x, y = rng.sample(range(n), 2)
                d = self.relabel(b, x, y)
                if d > 0 and rng.random() >= math.exp(-d / temp):
                    self.relabel(b, x, y)
                else:
                    self.cost += d
                continue
            k = rng.randrange(g)
            i, j = rng.sample(range(n), 2)
            rows = self.chain(k, i, j)
            d = self.swap_seats(rows, i, j)
            if d > 0 and rng.random() >= math.exp(-d / temp):
                self.swap_seats(rows, i, j)
            else:
                self.cost += d
        return self.excess == 0


def _walecki_like(n: int, rng: random.Random) -> list[list[int]]:
    """n odd: a Hamiltonian decomposition of K_n, 1-rotational like Walecki's: players ∞
    and Z_{2m} (2m = n−1), a random path p_0..p_{m-1} distinct mod m whose steps take
    each difference ±1..±(m−1) once, closed by its translate by m; its m translates are
    edge-disjoint and cover every pair once."""
    big = n - 1
    m = big // 2
    seq: list[int] = []
    used_mod = [False] * m
    used_cls = [False] * (m + 1)

    def cls(d: int) -> int:
        return min(d % big, (-d) % big)

    def dfs() -> bool:
        if len(seq) == m:
            return True
        for x in rng.sample(range(big), big):
            c = cls(x - seq[-1]) if seq else 0
            if used_mod[x % m] or (seq and (c == m or used_cls[c])):
                continue
            used_cls[c] = bool(seq)
            used_mod[x % m] = True
            seq.append(x)
            if dfs():
                return True
            seq.pop()
            used_mod[x % m] = False
            used_cls[c] = False
        return False

    dfs()
    path = seq + [(p + m) % big for p in reversed(seq)]
    return [[big, *((v + k) % big for v in path)] for k in range(m)]


def _orient(cycles: list[list[int]], n: int, rng: random.Random, limit: int) -> list[list[int]]:
    """Rotations and reflections of the cycles making a Latin rectangle (exact backtracking,
    the most constrained game first), or [] after ``limit`` nodes."""
    options = [
        rng.sample(
            [[c[(shift + d * s) % n] for s in range(n)] for d in (1, -1) for shift in range(n)],
            2 * n,
        )
        for c in cycles
    ]
    used = [0] * n
    chosen: list[list[int]] = [[] for _ in cycles]
    nodes = 0

    def fits(row: list[int]) -> bool:
        return all(not (used[s] >> p) & 1 for s, p in enumerate(row))

    def dfs(left: list[int]) -> bool:
        nonlocal nodes
        nodes += 1
        if not left:
            return True
        if nodes > limit:
            return False
        best: tuple[int, list[list[int]]] | None = None
        for i in left:
            fit = [row for row in options[i] if fits(row)]
            if best is None or len(fit) < len(best[1]):
                best = (i, fit)
        assert best is not None
        i, fit = best
        rest = [j for j in left if j != i]
        for row in fit:
            for s, p in enumerate(row):
                used[s] |= 1 << p
            chosen[i] = row
            if dfs(rest):
                return True
            for s, p in enumerate(row):
                used[s] &= ~(1 << p)
            if nodes > limit:
                return False
        return False

    return chosen if dfs(list(range(len(cycles)))) else []


def algebraic(n: int, g: int, rng: random.Random, tries: int = 100) -> list[list[int]]:
    """n odd and g a multiple of (n−1)/2 (every pair exactly at the bound): g/((n−1)/2)
    1-rotational Hamiltonian decompositions, each game oriented by :func:`_orient`
    block by block; [] when none of ``tries`` decompositions orients."""
    m = (n - 1) // 2
    if n % 2 == 0 or g % m:
        return []
    for _ in range(tries):
        cycles = [c for _ in range(g // m) for c in _walecki_like(n, rng)]
        rng.shuffle(cycles)
        rows: list[list[int]] = []
        for start in range(0, g, n):
            block = _orient(cycles[start : start + n], n, rng, 20_000)
            if not block:
                break
            rows += block
        else:
            return rows
    return []


# --- Exact search for the tight cells (every pair exactly at the bound) ------------------


def exact(n: int, g: int, seed: str, nodes_limit: int) -> list[list[int]]:
    """An exact depth-first search, game by game and seat by seat, game 0 the identity
    (relabelling symmetry); candidates: players not yet in this game whose seat is free
    for them in the block and whose count with the previous seat's player (and, at the
    last seat, the first's) stays within the bound, fewest-counted first, ties broken by
    ``random.Random(seed)``. Tight cells (every pair exactly at the bound) also prune after
    each game a pair still short of the bound by more than the games left. [] after
    ``nodes_limit`` nodes."""
    B = neighbour_bound(n, g)
    tight = (2 * g) % (n - 1) == 0
    rng = random.Random(seed)
    cnt = [[0] * n for _ in range(n)]
    used = [[0] * n for _ in range((g + n - 1) // n)]  # used[block][player]: seat mask
    rows = [list(range(n))] + [[0] * n for _ in range(g - 1)]
    for s in range(n):
        used[0][s] |= 1 << s
        cnt[s][(s + 1) % n] += 1
        cnt[(s + 1) % n][s] += 1
    budget = [nodes_limit]
    pairs = [(p, q) for p in range(n) for q in range(p + 1, n)]

    def feasible(k: int) -> bool:  # after row k is complete
        left = g - 1 - k
        lo = B - left
        return lo <= 0 or all(cnt[p][q] >= lo for p, q in pairs)

    def dfs(k: int, s: int, free: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        row = rows[k]
        u = used[k // n]
        prev = row[s - 1] if s else -1
        cands = [
            p
            for p in range(n)
            if free >> p & 1
            and not u[p] >> s & 1
            and (prev < 0 or cnt[prev][p] < B)
            and (s < n - 1 or cnt[p][row[0]] < B)
        ]
        rng.shuffle(cands)
        if prev >= 0:
            cp = cnt[prev]
            cands.sort(key=lambda p: cp[p])
        for p in cands:
            row[s] = p
            u[p] |= 1 << s
            if prev >= 0:
                cnt[prev][p] += 1
                cnt[p][prev] += 1
            if s == n - 1:
                q = row[0]
                cnt[p][q] += 1
                cnt[q][p] += 1
                if (not tight or feasible(k)) and (k == g - 1 or dfs(k + 1, 0, (1 << n) - 1)):
                    return True
                cnt[p][q] -= 1
                cnt[q][p] -= 1
            elif dfs(k, s + 1, free & ~(1 << p)):
                return True
            if prev >= 0:
                cnt[prev][p] -= 1
                cnt[p][prev] -= 1
            u[p] &= ~(1 << s)
            if budget[0] < 0:
                return False
        return False

    return [list(r) for r in rows] if dfs(1, 0, (1 << n) - 1) else []


def luby(i: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, …: the node budgets of the restarts."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        if i >= (1 << (k - 1)):
            i -= (1 << (k - 1)) - 1
            k = 1
            while (1 << k) - 1 < i:
                k += 1
        else:
            k -= 1


def restarts(n: int, g: int, unit: int = 20000, tmax: float = 60) -> tuple[list[list[int]], int]:
    """:func:`exact` with Luby restarts (budget ``unit``·luby(i), seed ``"n,g,i"``) for at
    most ``tmax`` seconds: the rows ([] if none) and the restarts it took."""
    t = time.time()
    i = 0
    while time.time() - t < tmax:
        i += 1
        rows = exact(n, g, f"{n},{g},{i}", unit * luby(i))
        if rows:
            return rows, i
    return [], i


# --- Open cells derived from solved ones (no search) -------------------------------------


def _completion(rows: list[list[int]], n: int) -> list[int]:
    """The row completing an (n−1)×n Latin rectangle to a Latin square."""
    every = set(range(n))
    return [(every - {row[s] for row in rows}).pop() for s in range(n)]


def _uniform(rows: list[list[int]], n: int) -> bool:
    """Every pair neighbours equally often (so any relabelling keeps the counts)."""
    counts = {c for a, row in enumerate(neighbour_counts(rows, n)) for c in row[a + 1 :]}
    return len(counts) == 1


def _append(first: list[list[int]], second: list[list[int]], n: int) -> list[list[int]]:
    """``first`` (n−1 games, a Latin rectangle, pairs uniform) then ``second`` (a Latin
    rectangle, pairs uniform) relabelled so that its first game completes ``first``'s block
    to a Latin square: the rest of ``second`` is the next block, Latin on its own, and
    the pair counts add (uniform + uniform)."""
    target = _completion(first, n)
    base = second[0]
    sigma = {base[s]: target[s] for s in range(n)}
    return [list(r) for r in first] + [[sigma[p] for p in row] for row in second]


def derive(n: int, g: int, solved: dict[tuple[int, int], list[list[int]]]) -> list[list[int]]:
    """An open cell built from solved ones, or []:

    * g < n−1 … g' ≤ n: the first g games of a design for (n, g') with the same bound
      (fewer games never raise a count, a block stays Latin);
    * g = (n−1) + g2: a tight (n, n−1) design (every pair exactly twice) followed by a
      uniform (n, g2) design (every pair equally often) relabelled to complete the first
      block (:func:`_append`).
    """
    bound = neighbour_bound(n, g)
    for g2 in range(g + 1, n + 1):
        rows = solved.get((n, g2))
        if rows and neighbour_bound(n, g2) == bound:
            return [list(r) for r in rows[:g]]
    first = solved.get((n, n - 1))
    if g > n and first and _uniform(first, n):
        for g2 in range(1, g - n + 2):
            second = solved.get((n, g2))
            if g - (n - 1) == g2 and second and _uniform(second, n):
                return _append(first, second, n)
    return []


def solve(n: int, g: int) -> tuple[list[list[int]], int]:
    """The rows of the best array found and the attempts it took."""
    rows = algebraic(n, g, random.Random(f"{n},{g},design"))
    if rows:
        return rows, 0
    if g <= n and EXACT > 0:
        rows, restarts_taken = restarts(n, g, tmax=EXACT)
        if rows:
            return rows, restarts_taken
    best: tuple[int, list[list[int]]] | None = None
    for attempt in range(ATTEMPTS):
        a = Anneal(n, g, random.Random(f"{n},{g},{attempt}"))
        ok = a.run(STEPS) or a.repair(REPAIRS, REPAIR_NODES)
        if best is None or a.excess < best[0]:
            best = (a.excess, [list(r) for r in a.rows])
        if ok:
            return a.rows, attempt + 1
    assert best is not None
    return best[1], ATTEMPTS


def write(table: dict[str, dict[str, object]]) -> None:
    designs = sorted(table.values(), key=lambda e: (int(str(e["n"])), int(str(e["g"]))))
    lines = ",\n".join("  " + json.dumps(e, separators=(",", ":")) for e in designs)
    OUT.write_text(
        '{"about":"formats.md §2 final-table designs; rows = games, one base-36 digit per '
        'seat = player; made by bench/final_designs.py","designs":[\n' + lines + "\n]}\n",
        encoding="utf-8",
    )


def main(argv: list[str]) -> int:
    cells = (
        [(int(argv[i]), int(argv[i + 1])) for i in range(0, len(argv), 2)]
        if argv
        else sorted(((n, g) for n in NS for g in GS), key=lambda c: (c[1] != c[0] - 1, c))
    )  # the tight g = n−1 cells first: other cells are derived from them
    table: dict[str, dict[str, object]] = {}
    if OUT.exists():
        table = {
            f"{e['n']},{e['g']}": e for e in json.loads(OUT.read_text(encoding="utf-8"))["designs"]
        }
    start = time.perf_counter()
    for n, g in cells:
        old = table.get(f"{n},{g}")
        if old is not None and int(str(old["max_neighbours"])) <= int(str(old["bound"])):
            print(f"n={n} g={g}: stored, meets the bound", flush=True)
            continue
        t = time.perf_counter()
        solved = {
            (int(str(e["n"])), int(str(e["g"]))): [list(r) for r in decode_rows(e["rows"])]  # type: ignore[arg-type]
            for e in table.values()
            if int(str(e["max_neighbours"])) <= int(str(e["bound"]))
        }
        rows, attempts = derive(n, g, solved), 0
        if not rows:
            rows, attempts = solve(n, g)
        problems, most = check_design(rows, n, g)
        print(
            f"n={n} g={g}: max {most} / bound {neighbour_bound(n, g)}, "
            f"{attempts} attempt(s), {time.perf_counter() - t:.1f} s"
            + (f"  PROBLEMS {problems}" if problems else ""),
            flush=True,
        )
        if old is not None and int(str(old["max_neighbours"])) <= most:
            continue
        if any("neighbours" not in p for p in problems):
            raise SystemExit(f"n={n} g={g}: {problems}")
        table[f"{n},{g}"] = {
            "n": n,
            "g": g,
            "bound": neighbour_bound(n, g),
            "max_neighbours": most,
            "rows": encode_rows(rows),
        }
        write(table)
    print(f"{len(cells)} cells in {time.perf_counter() - start:.0f} s -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
