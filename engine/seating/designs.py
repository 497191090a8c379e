"""Combinatorial designs that make near-perfect draws: finite fields, affine geometry,
orthogonal arrays, and the truncations that fit them to an event.

Every design here is an *array*: one row per player ("run"), one column per round, the
entry being the player's table in that round. An orthogonal array of strength 2 and
index λ (every two columns show every pair of tables exactly λ times) is exactly a
draw in which every two rounds overlap as evenly as possible, so it meets the
round-pairs lower bound.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from engine.seating.metrics import spread

__all__ = [
    "DesignArray",
    "GaloisField",
    "affine_plane",
    "affine_space",
    "array_repeats",
    "delete_runs",
    "difference_scheme_array",
    "fit_design",
    "pad_runs",
    "prime_power",
    "punctured_affine_plane",
    "select_columns",
]

IntArray = npt.NDArray[np.int64]


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q = p**k`` for a prime ``p``, or ``None``."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


class GaloisField:
    """GF(p^k) as lookup tables on the integers ``0..q-1``.

    An element is the polynomial whose base-``p`` digits are its coefficients, so
    addition is digit-wise mod ``p`` (XOR when ``p == 2``); multiplication reduces by the
    first monic polynomial of degree ``k`` that leaves no zero divisors, i.e. an
    irreducible one.
    """

    def __init__(self, q: int) -> None:
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.q = q
        self.p, self.k = pk
        self.add: IntArray
        self.neg: IntArray
        self.mul: IntArray
        self.inv: IntArray
        if self.k == 1:
            ints = np.arange(q, dtype=np.int64)
            self.add = (ints[:, None] + ints[None, :]) % q
            self.neg = -ints % q
            self.mul = (ints[:, None] * ints[None, :]) % q
            self.inv = np.array([pow(int(a), q - 2, q) if a else 0 for a in ints], dtype=np.int64)
            return
        digits = np.array([[(x // self.p**i) % self.p for i in range(self.k)] for x in range(q)])
        weights = self.p ** np.arange(self.k)
        add_digits = (digits[:, None, :] + digits[None, :, :]) % self.p
        self.add = (add_digits * weights).sum(axis=2).astype(np.int64)
        self.neg = ((-digits % self.p) * weights).sum(axis=1).astype(np.int64)
        self.mul = self._multiplication(digits, weights)
        self.inv = np.zeros(q, dtype=np.int64)
        for a in range(1, q):
            self.inv[a] = int(np.flatnonzero(self.mul[a] == 1)[0])

    def _multiplication(self, digits: IntArray, weights: IntArray) -> IntArray:
        p, k, q = self.p, self.k, self.q
        modulus = next(
            f
            for f in ([*tail, 1] for tail in itertools.product(range(p), repeat=k))
            if f[0]
            and not any(
                _poly_mod(f, g, p) == [0] * (len(g) - 1)
                for d in range(1, k // 2 + 1)
                for g in ([*t, 1] for t in itertools.product(range(p), repeat=d))
            )
        )
        rows = [[int(v) for v in digits[a]] for a in range(q)]
        table = np.zeros((q, q), dtype=np.int64)
        for a in range(q):
            for b in range(a, q):
                prod = [0] * (2 * k - 1)
                for i, x in enumerate(rows[a]):
                    for j, y in enumerate(rows[b]):
                        prod[i + j] += x * y
                rem = _poly_mod(prod, modulus, p)
                table[a, b] = table[b, a] = int((np.array(rem) * weights).sum())
        return table

    def sub(self, a: IntArray | int, b: IntArray | int) -> IntArray:
        """``a - b`` elementwise."""
        return self.add[a, self.neg[b]]  # type: ignore[no-any-return]


def _poly_mod(f: list[int], g: list[int], p: int) -> list[int]:
    """Remainder of f by the monic g over GF(p), as len(g) − 1 coefficients, low first."""
    rem = [c % p for c in f]
    d = len(g) - 1
    for top in range(len(rem) - 1, d - 1, -1):
        coef = rem[top]
        if coef:
            for i in range(d + 1):
                rem[top - d + i] = (rem[top - d + i] - coef * g[i]) % p
    return (rem + [0] * d)[:d]


@lru_cache(maxsize=64)
def field(q: int) -> GaloisField:
    """Shared field instance (the tables cost milliseconds to build)."""
    return GaloisField(q)


@dataclass(frozen=True)
class DesignArray:
    """Runs × columns of table indices ``0..levels-1``; ``name`` says where it came from.

    ``orthogonal`` marks a strength-2 orthogonal array, where every two columns overlap
    alike; otherwise columns are chosen by their pairwise repeats.
    """

    name: str
    levels: int
    array: IntArray
    orthogonal: bool = True

    @property
    def runs(self) -> int:
        return int(self.array.shape[0])

    @property
    def columns(self) -> int:
        return int(self.array.shape[1])


def affine_plane(q: int) -> DesignArray:
    """AG(2, q): points (x, y); round m groups points on the lines y = m·x + c, plus the
    vertical class x = c. Any two points share exactly one line: an OA of index 1."""
    f = field(q)
    x, y = np.divmod(np.arange(q * q), q)
    cols = [f.sub(y, f.mul[m, x]) for m in range(q)] + [x]
    return DesignArray(f"affine plane AG(2,{q})", q, np.stack(cols, axis=1))


def affine_space(q: int) -> DesignArray:
    """AG(3, q) by its parallel classes of planes: runs are points of GF(q)³ and a column
    is a linear form a·x (one per direction), so any two columns are independent forms
    and every pair of values occurs q times: an OA of index q."""
    f = field(q)
    pts = np.array(list(itertools.product(range(q), repeat=3)), dtype=np.int64)
    forms = [
        v
        for v in itertools.product(range(q), repeat=3)
        if any(v) and v[next(i for i in range(3) if v[i])] == 1
    ]
    cols = []
    for a in forms:
        acc = np.zeros(len(pts), dtype=np.int64)
        for i in range(3):
            acc = f.add[acc, f.mul[a[i], pts[:, i]]]
        cols.append(acc)
    return DesignArray(f"affine space AG(3,{q})", q, np.stack(cols, axis=1))


# A generalised Hadamard matrix GH(5, 2) (difference scheme D(10, 10, 5)) over GF(5),
# found once by a randomised search and checked in the tests: any two columns differ by
# every field element exactly twice. Powers of two come from difference_scheme().
_DIFFERENCE_SCHEMES: dict[int, tuple[tuple[int, ...], ...]] = {
    5: (
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (0, 1, 4, 3, 0, 1, 3, 2, 2, 4),
        (0, 4, 3, 1, 2, 0, 4, 2, 3, 1),
        (0, 0, 1, 4, 2, 4, 1, 3, 2, 3),
        (0, 3, 2, 1, 4, 2, 0, 3, 1, 4),
        (0, 1, 2, 2, 1, 3, 4, 0, 4, 3),
        (0, 4, 1, 3, 3, 2, 2, 1, 4, 0),
        (0, 3, 3, 4, 1, 1, 2, 4, 0, 2),
        (0, 2, 0, 2, 3, 4, 3, 4, 1, 1),
        (0, 2, 4, 0, 4, 3, 1, 1, 3, 2),
    ),
}


def difference_scheme_orders() -> tuple[int, ...]:
    """Field orders q (Killer-sized) for which an OA(2q², 2q, q, 2) is available."""
    return (4, 5, 8)


def difference_scheme(q: int) -> IntArray:
    """D(2q, 2q, q) over the additive group of GF(q).

    For q a power of two: the multiplication table of GF(2q) with the lowest bit of each
    entry dropped. Two columns y, y' differ by x·(y − y') over the rows x, which runs
    through all of GF(2q) once; dropping a bit is additive and two-to-one, so every
    element of GF(q) appears exactly twice. The same holds for rows.
    """
    if q in _DIFFERENCE_SCHEMES:
        return np.array(_DIFFERENCE_SCHEMES[q], dtype=np.int64)
    pk = prime_power(q)
    if pk is None or pk[0] != 2:
        raise ValueError(f"no difference scheme of order {q}")
    return field(2 * q).mul >> 1


def difference_scheme_array(q: int) -> DesignArray:
    """OA(2q², 2q, q, 2) from a difference scheme D: run (i, g) takes ``D[i][j] + g``
    in column j. Two runs agree in a column j only if ``D[i][j] − D[i'][j] = g' − g``;
    D's rows are a difference scheme too, so runs from different rows agree exactly
    twice and runs of one row never: max λ = 2."""
    f = field(q)
    d = difference_scheme(q)
    rows, g = np.divmod(np.arange(2 * q * q), q)
    cols = [f.add[d[rows, j], g] for j in range(2 * q)]
    return DesignArray(f"orthogonal array OA({2 * q * q},{2 * q},{q},2)", q, np.stack(cols, axis=1))


def punctured_affine_plane(q: int, alpha: int) -> DesignArray:
    """AG(2, q) less the point (0, 0), on q − 1 tables per round.

    In the class of slope m the line through the missing point keeps q − 1 points; each
    of them, (t, m·t), joins the line y = m·x + α·t, so every table holds q + 1 players.
    Two rounds m, m' then overlap evenly (one pair per table meets twice) unless
    α² = −(m − m')², which never happens when −1 is not a square (q ≡ 3 mod 4).
    """
    f = field(q)
    pts = np.arange(1, q * q)
    x, y = np.divmod(pts, q)
    cols = []
    for m in range(q):
        c = f.sub(y, f.mul[m, x])
        c = np.where(c == 0, f.mul[alpha, x], c)
        cols.append(c - 1)  # intercepts 1..q-1 are the tables
    return DesignArray(
        f"affine plane AG(2,{q}) less a point", q - 1, np.stack(cols, axis=1), orthogonal=False
    )


def column_pair_repeats(array: IntArray, levels: int) -> IntArray:
    """R contributed by every pair of columns: Σ over table pairs of C(overlap, 2)."""
    k = array.shape[1]
    out = np.zeros((k, k), dtype=np.int64)
    for i, j in itertools.combinations(range(k), 2):
        cells = np.bincount(array[:, i] * levels + array[:, j], minlength=levels * levels)
        out[i, j] = out[j, i] = int((cells * (cells - 1) // 2).sum())
    return out


def array_repeats(array: IntArray, levels: int) -> int:
    """R of the draw the array describes."""
    return int(np.triu(column_pair_repeats(array, levels), 1).sum())


def select_columns(design: DesignArray, rounds: int) -> IntArray:
    """Pick ``rounds`` columns greedily by least pairwise repeats, earlier ones on ties."""
    if design.orthogonal:
        return design.array[:, :rounds]
    pair = column_pair_repeats(design.array, design.levels)
    chosen = [0]
    while len(chosen) < rounds:
        rest = [c for c in range(design.columns) if c not in chosen]
        chosen.append(min(rest, key=lambda c: (int(pair[c, chosen].sum()), c)))
    return design.array[:, chosen]


def delete_runs(array: IntArray, levels: int, keep: int) -> IntArray:
    """Drop runs until ``keep`` remain, keeping tables even and overlaps spread.

    Each step deletes the run that shares the fewest cells (pairs of columns in which
    both agree) with those already deleted, since every shared cell leaves a pair of
    tables overlapping unevenly; then the fewest single agreements; then the run at the
    fullest tables.
    """
    runs, cols = array.shape
    alive = np.ones(runs, dtype=bool)
    cells = np.zeros(runs, dtype=np.int64)
    agree = np.zeros(runs, dtype=np.int64)
    counts = np.stack([np.bincount(array[:, c], minlength=levels) for c in range(cols)])
    col_idx = np.arange(cols)
    scale = levels * cols * runs
    for _ in range(runs - keep):
        fullness = counts[col_idx, array].sum(axis=1)
        score = (cells * (cols * runs) + agree) * scale - fullness
        score[~alive] = np.iinfo(np.int64).max
        y = int(np.argmin(score))
        alive[y] = False
        same = (array == array[y]).sum(axis=1)
        cells += same * (same - 1) // 2
        agree += same
        counts[col_idx, array[y]] -= 1
    return array[alive]


def fit_design(design: DesignArray, rounds: int, keep: int, seed: int) -> IntArray:
    """The design's columns and runs for ``rounds`` rounds of ``keep`` players.

    When runs must go and there are spare columns, a few column choices (the preferred
    one and some random ones) are tried and the one whose truncation repeats least kept.
    """
    first = delete_runs(select_columns(design, rounds), design.levels, keep)
    if design.runs <= keep or design.columns <= rounds or not design.orthogonal:
        return first
    rng = np.random.default_rng([seed, design.runs, design.columns])
    best, best_r = first, array_repeats(first, design.levels)
    floor = rounds * (rounds - 1) // 2 * spread(keep, design.levels**2)
    for _ in range(12):
        if best_r <= floor:
            break
        cols = np.sort(rng.choice(design.columns, size=rounds, replace=False))
        trial = delete_runs(design.array[:, cols], design.levels, keep)
        r = array_repeats(trial, design.levels)
        if r < best_r:
            best, best_r = trial, r
    return best


def pad_runs(array: IntArray, levels: int, keep: int) -> IntArray:
    """Add runs (players beyond the design) until ``keep``, at most one per table.

    Column by column, the extra players take distinct tables by a min-cost assignment:
    a table costs the meetings its players already had with the extra player, and a
    meeting that would be the third with the same player costs far more, so extra
    players meet the design's players at most twice where possible.
    """
    runs, cols = array.shape
    extra = keep - runs
    if extra <= 0:
        return array
    if extra > levels:
        raise ValueError("at most one extra player per table")
    pads = np.full((extra, cols), -1, dtype=np.int64)
    met = np.zeros((extra, runs), dtype=np.int64)
    members = []
    for c in range(cols):
        member = np.zeros((runs, levels), dtype=np.int64)
        member[np.arange(runs), array[:, c]] = 1
        members.append(member)
    # one greedy pass, then passes re-placing each column given all the others
    for c in [*range(cols), *range(cols), *range(cols)]:
        member = members[c]
        if pads[0, c] >= 0:
            met -= member[:, pads[:, c]].T
        price = met + runs * (met >= 2)
        rows, chosen = linear_sum_assignment(price @ member)
        pads[rows, c] = chosen
        met += member[:, pads[:, c]].T
    return np.vstack([array, pads])


def candidate_designs(
    table_counts: tuple[int, ...], players: int, rounds: int
) -> Iterator[DesignArray]:
    """Every design with a usable table count, enough columns, and enough runs give or
    take one extra player per table (see :func:`pad_runs`)."""
    for s in sorted(table_counts):
        players_ = players - s  # runs needed when every table takes one extra player
        if prime_power(s) and s * s >= players_ and s + 1 >= rounds:
            yield affine_plane(s)
        if prime_power(s + 1) and s * (s + 2) >= players_ and s + 1 >= rounds:
            # any α works when q ≡ 3 (mod 4); otherwise the better of two
            q = s + 1
            yield min(
                (punctured_affine_plane(q, a) for a in range(1, min(q, 3))),
                key=lambda d: array_repeats(select_columns(d, rounds), d.levels),
            )
        if s in difference_scheme_orders() and 2 * s * s >= players_ and 2 * s >= rounds:
            yield difference_scheme_array(s)
        if prime_power(s) and s**3 >= players_ and s * s + s + 1 >= rounds and s <= 5:
            yield affine_space(s)
