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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from engine.seating.metrics import spread
from engine.seating.search import Weights, anneal

__all__ = [
    "DesignArray",
    "GaloisField",
    "affine_plane",
    "affine_space",
    "array_repeats",
    "delete_runs",
    "difference_scheme_array",
    "disjoint_pads",
    "fit_design",
    "pad_runs",
    "prime_power",
    "puncture_multipliers",
    "punctured_affine_plane",
    "quadratic_array",
    "select_columns",
    "swap_runs",
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


def difference_scheme_array(q: int, *, extended: bool = False) -> DesignArray:
    """OA(2q², 2q, q, 2) from a difference scheme D: run (i, g) takes ``D[i][j] + g``
    in column j. Two runs agree in a column j only if ``D[i][j] − D[i'][j] = g' − g``;
    D's rows are a difference scheme too, so runs from different rows agree exactly
    twice and runs of one row never: max λ = 2.

    ``extended`` adds a column 2q+1 where run (i, g) takes ``i // 2``: each level holds
    two whole rows, which meet every level of another column once each, so it is still
    an OA of index 2 (every two rounds overlap as evenly as possible), at the price of
    the runs of paired rows agreeing three times (max λ = 3)."""
    f = field(q)
    d = difference_scheme(q)
    rows, g = np.divmod(np.arange(2 * q * q), q)
    cols = [f.add[d[rows, j], g] for j in range(2 * q)]
    if extended:
        cols.append(rows // 2)
    return DesignArray(
        f"orthogonal array OA({2 * q * q},{len(cols)},{q},2)", q, np.stack(cols, axis=1)
    )


def quadratic_array(q: int, rounds: int, runs: int) -> DesignArray:
    """Players as polynomials ``f = a·m² + b·m + d`` over GF(q); in round m (one of the
    first ``rounds ≤ q`` field elements) f sits at table ``f(m)``.

    Two distinct polynomials of degree ≤ 2 agree at most twice, so no pair meets more
    than twice. The first q² runs (a = 0) are the affine plane AG(2, q) (lines
    ``y = m·x + c`` with x = −b, y = d), where every pair meets at most once. For two
    rounds m ≠ m', a table pair (c, c') fixes ``b`` once ``a`` is fixed (``b·(m − m') =
    c − c' − a·(m² − m'²)``) and then ``d``, so every whole layer (fixed a) puts exactly
    one player on each table pair, and a partial layer, taken as whole classes of b
    (each class puts one player per table) and then part of one class, at most one.
    Taking runs in that order, every table pair of every two rounds holds ⌊runs/q²⌋ or
    ⌈runs/q²⌉ players: R meets the round-pairs bound exactly, and each round's tables
    differ in size by at most one.
    """
    if not 1 <= runs <= q**3 or not 1 <= rounds <= q:
        raise ValueError(f"the quadratic array over GF({q}) has q³ runs and q rounds")
    f = field(q)
    a, rest = np.divmod(np.arange(runs), q * q)
    b, d = np.divmod(rest, q)
    cols = []
    for m in range(rounds):
        m2 = f.mul[m, m]
        cols.append(f.add[f.add[f.mul[a, m2], f.mul[b, m]], d])
    return DesignArray(f"quadratic array over GF({q})", q, np.stack(cols, axis=1))


@lru_cache(maxsize=32)
def puncture_multipliers(q: int) -> tuple[int, ...]:
    """Multipliers ``α_m`` (one per slope m) for which AG(2, q) less a point is even.

    Rounds m, m' overlap evenly unless ``α_m · α_m' = −(m − m')²`` (see
    :func:`punctured_affine_plane`); one α for every round works when −1 is not a
    square (q ≡ 3 mod 4), and per-round multipliers, found by backtracking, work for
    every field order a Killer table count needs (checked in the tests).
    """
    f = field(q)
    chosen: list[int] = []

    def extend() -> bool:
        m = len(chosen)
        if m == q:
            return True
        for alpha in range(1, q):
            if all(
                f.mul[alpha, a] != f.neg[f.mul[f.sub(m, i), f.sub(m, i)]]
                for i, a in enumerate(chosen)
            ):
                chosen.append(alpha)
                if extend():
                    return True
                chosen.pop()
        return False

    if not extend():  # pragma: no cover - every order up to 17 has them
        return (1,) * q
    return tuple(chosen)


def punctured_affine_plane(q: int, alpha: int | Sequence[int] = 1) -> DesignArray:
    """AG(2, q) less the point (0, 0), on q − 1 tables per round.

    In the class of slope m the line through the missing point keeps q − 1 points; each
    of them, (t, m·t), joins the line y = m·x + α_m·t, so every table holds q + 1
    players. In rounds m, m' those points fall on the table pairs (α_m·t, (m − m')·t)
    and ((m' − m)·t, α_m'·t), two "lines through the origin" of the grid of table
    pairs, every other table pair holding the one point two lines share; so the
    rounds overlap evenly (one pair per table meets twice) unless the two lines
    coincide, α_m·α_m' = −(m − m')². ``alpha`` is one α for every round or one per
    slope (:func:`puncture_multipliers` gives ones that always work).
    """
    f = field(q)
    alphas = [alpha] * q if isinstance(alpha, int) else list(alpha)
    pts = np.arange(1, q * q)
    x, y = np.divmod(pts, q)
    cols = []
    for m in range(q):
        c = f.sub(y, f.mul[m, x])
        c = np.where(c == 0, f.mul[alphas[m], x], c)
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
    """Pick ``rounds`` columns: an orthogonal array's first ones, unless two runs may
    agree in more than two of its columns (AG(3, q): runs agree in every column whose
    direction lies on one line), then greedily those keeping the most agreements
    (max λ), then how many pairs reach it, lowest; otherwise greedily by least pairwise
    repeats. Earlier columns win ties."""
    a = design.array
    if design.orthogonal:
        if design.columns <= rounds or _agreements(a).max() <= 2:
            return a[:, :rounds]
        same = a[:, None, :] == a[None, :, :]
        agree = same[:, :, 0].astype(np.int64)
        chosen = [0]
        while len(chosen) < rounds:
            scores = []
            for c in range(design.columns):
                if c in chosen:
                    continue
                trial = agree + same[:, :, c]
                np.fill_diagonal(trial, 0)
                top = int(trial.max())
                scores.append((top, int((trial == top).sum()), c))
            c = min(scores)[2]
            chosen.append(c)
            agree += same[:, :, c]
        return a[:, chosen]
    pair = column_pair_repeats(a, design.levels)
    chosen = [0]
    while len(chosen) < rounds:
        rest = [c for c in range(design.columns) if c not in chosen]
        chosen.append(min(rest, key=lambda c: (int(pair[c, chosen].sum()), c)))
    return a[:, chosen]


def _agreements(array: IntArray) -> IntArray:
    """Runs × runs: in how many columns two runs agree (zero diagonal)."""
    agree = (array[:, None, :] == array[None, :, :]).sum(axis=2)
    np.fill_diagonal(agree, 0)
    return agree  # type: ignore[no-any-return]


def swap_runs(array: IntArray, levels: int, keep: int, *, max_swaps: int = 200) -> IntArray:
    """Improve a truncation: exchange a kept run for a dropped one while it lowers R.

    ``array`` holds every run, the kept ones first (as :func:`delete_runs` leaves them
    by :func:`fit_design`). Dropping run x saves ``Σ_pairs (cell(x) − 1)`` repeats,
    adding y costs ``Σ_pairs cell(y)``, less the ``C(agree(x, y), 2)`` cells they
    share; only exchanges that keep every table within one of the others are taken.
    Best improvement first; stops at a local minimum or after ``max_swaps`` exchanges.
    """
    runs, cols = array.shape
    if keep >= runs or keep <= 0:
        return array[:keep]
    agree = _agreements(array)
    shared = agree * (agree - 1) // 2
    kept = np.zeros(runs, dtype=bool)
    kept[:keep] = True
    pairs = list(itertools.combinations(range(cols), 2))
    lo, hi = keep // levels, -(-keep // levels)
    col_idx = np.arange(cols)
    for _ in range(max_swaps):
        # cell counts of the kept runs for every column pair, looked up per run
        cell_of = np.zeros((runs, len(pairs)), dtype=np.int64)
        for k, (i, j) in enumerate(pairs):
            key = array[:, i] * levels + array[:, j]
            counts = np.bincount(key[kept], minlength=levels * levels)
            cell_of[:, k] = counts[key]
        save = (cell_of - 1).sum(axis=1)  # for kept runs
        cost = cell_of.sum(axis=1)  # for dropped runs
        ins, outs = np.flatnonzero(kept), np.flatnonzero(~kept)
        delta = cost[outs][None, :] - save[ins][:, None] - shared[np.ix_(ins, outs)]
        sizes = np.stack([np.bincount(array[kept, c], minlength=levels) for c in col_idx])
        tx = array[ins]  # kept × cols
        ty = array[outs]
        can_leave = sizes[col_idx, tx] - 1 >= lo  # kept × cols
        can_join = sizes[col_idx, ty] + 1 <= hi  # dropped × cols
        same = tx[:, None, :] == ty[None, :, :]
        ok = (same | (can_leave[:, None, :] & can_join[None, :, :])).all(axis=2)
        delta = np.where(ok, delta, 0)
        flat = int(np.argmin(delta))
        x, y = divmod(flat, len(outs))
        if delta[x, y] >= 0:
            break
        kept[ins[x]], kept[outs[y]] = False, True
    return array[kept]


def delete_runs(array: IntArray, levels: int, keep: int) -> IntArray:
    """Drop runs until ``keep`` remain, keeping tables even and overlaps spread.

    Each step deletes the run whose deletion removes the most repeats: the cells (pairs
    of columns) it shares with the runs still there, i.e. its own repeats less those
    shared with runs already deleted (in an orthogonal array every run has the same
    own repeats, so this is the fewest shared cells); then the fewest single
    agreements with deleted runs; then the run at the fullest tables.
    """
    return array[_kept_runs(array, levels, keep)]


def _kept_runs(array: IntArray, levels: int, keep: int) -> npt.NDArray[np.bool_]:
    """The runs :func:`delete_runs` keeps, as a mask."""
    runs, cols = array.shape
    alive = np.ones(runs, dtype=bool)
    cells = np.zeros(runs, dtype=np.int64)
    agree = np.zeros(runs, dtype=np.int64)
    counts = np.stack([np.bincount(array[:, c], minlength=levels) for c in range(cols)])
    col_idx = np.arange(cols)
    scale = levels * cols * runs
    # a run's own repeats: deleting it removes them, less the cells it shares with
    # runs deleted before (every run of an orthogonal array has the same)
    agreements = _agreements(array)
    cells -= (agreements * (agreements - 1) // 2).sum(axis=1)
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
    return alive


def fit_design(design: DesignArray, rounds: int, keep: int, seed: int) -> IntArray:
    """The design's columns and runs for ``rounds`` rounds of ``keep`` players.

    When runs must go and there are spare columns, a few column choices (the preferred
    one and some random ones) are tried and the one whose truncation repeats least kept;
    the truncation is then improved by exchanging kept and dropped runs.
    """
    columns = select_columns(design, rounds)
    first = _truncate(columns, design.levels, keep)
    if design.runs <= keep or design.columns <= rounds or not design.orthogonal:
        return first
    rng = np.random.default_rng([seed, design.runs, design.columns])
    best, best_r = first, array_repeats(first, design.levels)
    best_top = int(_agreements(first).max())
    floor = rounds * (rounds - 1) // 2 * spread(keep, design.levels**2)
    for _ in range(12):
        if best_r <= floor:
            break
        cols = np.sort(rng.choice(design.columns, size=rounds, replace=False))
        if int(_agreements(design.array[:, cols]).max()) > best_top:
            continue  # a random choice must not let pairs meet more often
        trial = _truncate(design.array[:, cols], design.levels, keep)
        r = array_repeats(trial, design.levels)
        if r < best_r:
            best, best_r = trial, r
    return best


def _truncate(array: IntArray, levels: int, keep: int) -> IntArray:
    """:func:`delete_runs`, then :func:`swap_runs` over the deleted runs."""
    runs = array.shape[0]
    if runs <= keep:
        return array
    alive = _kept_runs(array, levels, keep)
    order = np.concatenate([np.flatnonzero(alive), np.flatnonzero(~alive)])
    return swap_runs(array[order], levels, keep)


def pad_runs(
    array: IntArray,
    levels: int,
    keep: int,
    *,
    cap: int = 2,
    moves: int = 60_000,
    seed: int = 0,
    search: bool = True,
    out_of_time: Callable[[], bool] = lambda: False,
) -> IntArray:
    """Add runs (players beyond the design) until ``keep``, up to as many as it has.

    Up to one extra player per table, column by column the extra players take distinct
    tables by a min-cost assignment: a table costs the meetings its players already had
    with the extra player. More extras follow a truncated copy of the design itself
    (so they meet each other as rarely as its runs do), its tables matched to the
    design's per column by the same min-cost assignment.

    Then a local search moves only the extra players (swaps within a column), on the
    exact cost of every pair they are in: ``C(λ, 2)``, plus a heavy price per meeting
    beyond ``cap``. With a design of index one (an affine plane) the cost of the
    extras' meetings with the design is the same wherever they sit, so what remains is
    how often the extras meet each other; with a punctured plane, it is which cells
    (pairs of tables of two rounds) already hold two players.

    With ``search`` and at most one extra per table, :func:`disjoint_pads` is tried
    too (until ``out_of_time``), and kept unless the local search did better (fewer
    meetings beyond ``cap``, then R).
    """
    runs, cols = array.shape
    extra = keep - runs
    if extra <= 0:
        return array
    if extra > runs:
        raise ValueError("at most as many extra players as the design has runs")
    member = np.zeros((cols, runs, levels), dtype=np.int64)
    member[np.arange(cols)[:, None], np.arange(runs)[None, :], array.T] = 1
    if extra <= levels:
        shape = np.zeros((extra, cols), dtype=np.int64)
        shape[:] = np.arange(extra)[:, None]  # extra i in group i: one per table
    else:
        shape = delete_runs(array, levels, extra)
    groups = int(shape.max()) + 1
    pads = np.full((extra, cols), -1, dtype=np.int64)
    met = np.zeros((extra, runs), dtype=np.int64)
    # one greedy pass, then passes re-placing each column given all the others
    for c in [*range(cols), *range(cols), *range(cols)]:
        if pads[0, c] >= 0:
            met -= member[c][:, pads[:, c]].T
        price = (met + runs * (met >= cap)) @ member[c]  # extras × tables
        onehot = np.zeros((groups, extra), dtype=np.int64)
        onehot[shape[:, c], np.arange(extra)] = 1
        rows, chosen = linear_sum_assignment(onehot @ price)
        table_of = np.empty(groups, dtype=np.int64)
        table_of[rows] = chosen
        pads[:, c] = table_of[shape[:, c]]
        met += member[c][:, pads[:, c]].T
    full = _improve_pads(np.vstack([array, pads]), runs, levels, cap, moves, seed)
    if search and extra <= levels:
        best = disjoint_pads(array, levels, extra, cap=cap, out_of_time=out_of_time)
        if best is not None:
            found = np.vstack([array, best])
            if _pad_cost(found, runs, cap) <= _pad_cost(full, runs, cap):
                return found
    return full


def _pad_cost(full: IntArray, runs: int, cap: int) -> tuple[int, int]:
    """Meetings beyond ``cap`` of pairs with an extra run in them, then their R."""
    agree = _agreements(full)[runs:]
    agree[:, runs:] = np.triu(agree[:, runs:], 1)
    return int(np.maximum(agree - cap, 0).sum()), int((agree * (agree - 1) // 2).sum())


def disjoint_pads(
    array: IntArray,
    levels: int,
    extra: int,
    *,
    cap: int = 2,
    node_limit: int = 200_000,
    out_of_time: Callable[[], bool] = lambda: False,
) -> IntArray | None:
    """``extra`` cheap runs, one per table in every column (so they never meet each
    other), meeting no run more than ``cap`` times; ``None`` if the bounded search finds
    none. Cheap, not least: what it guarantees is below.

    An extra run x adds ``Σ over column pairs of cell(x)`` to R: the design's runs in
    the pair of tables it sits at. A branch and bound over columns (each partial cost
    plus the least cell of every pair still open is a floor) finds the least cost c of
    one run meeting nobody beyond the cap. Then, for slack 0, 1, … up to
    :data:`_MAX_SLACK`, the runs of cost at most c + slack are listed (at most
    :data:`_MAX_LISTED` of them, in search order, so a cut list may miss some), sorted
    by cost, and a depth-first search takes the first ``extra`` that differ in every
    column, the cheaper ones tried first; the first slack where it succeeds is
    returned. So each run costs at most c + slack, but the total is not proven least
    (a set of cheaper runs may exist that this order does not reach first).
    Deterministic while ``out_of_time`` stays false: the effort is counted in search
    nodes (``node_limit``); once it turns true the search gives up (``None``). Not
    tried on an orthogonal array (every extra costs the same there; the local search
    of :func:`pad_runs` does as well).
    (AG(2, 11) less a point: the ten runs of least cost, 47, differ in every column,
    giving 130 players on 10 tables of 13 with max λ 2 and R 1,370.)
    """
    cols = array.shape[1]
    if extra <= 0 or extra > levels or cols < 2:
        return None
    masks = [[0] * levels for _ in range(cols)]
    for r, row in enumerate(array.tolist()):
        for c, v in enumerate(row):
            masks[c][v] |= 1 << r
    cell = [[[[0] * levels for _ in range(levels)] for _ in range(cols)] for _ in range(cols)]
    floor_after = [0] * (cols + 1)  # least cells of the column pairs not yet fixed
    least = [[0] * cols for _ in range(cols)]
    pairs = list(itertools.combinations(range(cols), 2))
    for i, j in pairs:
        counts = np.bincount(array[:, i] * levels + array[:, j], minlength=levels * levels)
        grid = counts.reshape(levels, levels).tolist()
        cell[i][j] = grid
        least[i][j] = int(counts.min())
    for k in range(cols + 1):
        floor_after[k] = sum(least[i][j] for j in range(k, cols) for i in range(j))
    if all(min(map(min, cell[i][j])) == max(map(max, cell[i][j])) for i, j in pairs):
        return None  # an orthogonal array: every extra costs the same, nothing to choose
    nodes = [0]
    choice: list[int] = []

    def count_node() -> None:
        """One more node; past the limit when the time is out (checked now and then)."""
        nodes[0] += 1
        if nodes[0] % 1024 == 0 and out_of_time():
            nodes[0] = node_limit + 1

    def met_after(met: list[int], table: int) -> list[int]:
        """``met[h]``: runs met more than h times, once the run sits at ``table`` too."""
        return [met[0] | table] + [met[h] | (met[h - 1] & table) for h in range(1, cap)]

    def listing(
        k: int, cost: int, met: list[int], limit: int, out: list[tuple[int, tuple[int, ...]]]
    ) -> None:
        """Every run (as ``(cost, tables)``) within ``limit``."""
        count_node()
        if k == cols:
            out.append((cost, tuple(choice)))
            return
        for v in range(levels):
            table = masks[k][v]
            if table & met[cap - 1] or nodes[0] > node_limit or len(out) >= _MAX_LISTED:
                continue
            add = sum(cell[i][k][choice[i]][v] for i in range(k))
            if cost + add + floor_after[k + 1] > limit:
                continue
            choice.append(v)
            listing(k + 1, cost + add, met_after(met, table), limit, out)
            choice.pop()

    def cheapest(k: int, cost: int, met: list[int], best: list[int]) -> None:
        """Branch and bound: ``best[0]`` becomes the least cost of one run."""
        count_node()
        if k == cols:
            best[0] = cost
            return
        options = []
        for v in range(levels):
            table = masks[k][v]
            if not table & met[cap - 1]:
                options.append((sum(cell[i][k][choice[i]][v] for i in range(k)), v))
        for add, v in sorted(options):
            # options ascend by cost and best[0] only falls, so none after this fits
            if cost + add + floor_after[k + 1] >= best[0] or nodes[0] > node_limit:
                break
            choice.append(v)
            cheapest(k + 1, cost + add, met_after(met, masks[k][v]), best)
            choice.pop()

    lowest = [1 << 62]
    cheapest(0, 0, [0] * cap, lowest)
    if nodes[0] > node_limit or lowest[0] >= 1 << 62:
        return None
    for slack in range(_MAX_SLACK + 1):
        found: list[tuple[int, tuple[int, ...]]] = []
        listing(0, 0, [0] * cap, lowest[0] + slack, found)
        if nodes[0] > node_limit:
            return None
        if len(found) < extra:
            continue
        found.sort()
        vectors = [tables for _, tables in found]
        picked = _disjoint(vectors, extra, node_limit, out_of_time)
        if picked is not None:
            return np.array([vectors[i] for i in picked], dtype=np.int64)
    return None


# disjoint_pads: how far above the least cost it looks, and how many runs it lists
_MAX_SLACK = 6
_MAX_LISTED = 20_000


def _disjoint(
    vectors: list[tuple[int, ...]], count: int, node_limit: int, out_of_time: Callable[[], bool]
) -> list[int] | None:
    """Indices of ``count`` vectors differing in every position, earliest (cheapest)
    first; depth-first, at most ``node_limit`` steps (fewer if ``out_of_time``)."""
    nodes = 0
    chosen: list[int] = []

    def extend(start: int) -> bool:
        nonlocal nodes
        if len(chosen) == count:
            return True
        for i in range(start, len(vectors) - (count - len(chosen)) + 1):
            nodes += 1
            if nodes > node_limit or (nodes % 1024 == 0 and out_of_time()):
                nodes = node_limit + 1  # every level gives up at once, not just this one
                return False
            v = vectors[i]
            if all(all(a != b for a, b in zip(v, vectors[j], strict=True)) for j in chosen):
                chosen.append(i)
                if extend(i + 1):
                    return True
                chosen.pop()
        return False

    return list(chosen) if extend(0) else None


def _improve_pads(
    full: IntArray, runs: int, levels: int, cap: int, moves: int, seed: int
) -> IntArray:
    """:func:`~engine.seating.search.anneal` moving only the extra players (swaps within
    a column), a meeting beyond ``cap`` priced heavily (see pad_runs); it stops at the
    round-pairs bound, which no arrangement beats."""
    keep, cols = full.shape
    extra = keep - runs
    if extra < 2 or moves <= 0:
        return full
    none = np.zeros((keep, keep), dtype=np.bool_)
    w = Weights(
        base=np.zeros((keep, keep), dtype=np.int64),
        avoid=none,
        club=none,
        club_rounds=0,
        cap=cap,
        cap_weight=4 * keep,
        avoid_weight=0,
        club_weight=0,
    )
    # the pairs of the design's own runs cost the same wherever the extras sit
    agree = _agreements(full[:runs])[np.triu_indices(runs, 1)]
    fixed = w.cap_weight * int((np.maximum(agree - cap, 0) ** 2).sum())
    floor = cols * (cols - 1) // 2 * spread(keep, levels * levels) + fixed
    extras = list(range(runs, keep))
    assign = anneal(
        full.T.copy(),
        w,
        moves=moves,
        rng=np.random.default_rng(seed),
        out_of_time=lambda: False,
        movers=[extras] * cols,
        target=floor,
    )
    return assign.T.copy()


def candidate_designs(
    table_counts: tuple[int, ...], players: int, rounds: int, total_rounds: int | None = None
) -> Iterator[DesignArray]:
    """Every design with a usable table count, enough columns, and enough runs give or
    take extra players: up to as many again as the design has runs (see
    :func:`pad_runs`). ``rounds`` are the rounds to draw; on a redraw ``total_rounds``
    counts the kept ones too (a design of that many columns may continue the draw)."""
    whole = {rounds, rounds if total_rounds is None else total_rounds}
    for s in sorted(table_counts):
        players_ = (players + 1) // 2  # runs needed when the extras double the design
        if prime_power(s) and s * s >= players_ and s + 1 >= rounds:
            yield affine_plane(s)
        if prime_power(s) and s * s < players <= s**3 and s >= rounds:
            yield quadratic_array(s, rounds, players)
        if prime_power(s + 1) and s * (s + 2) >= players_ and s + 1 >= rounds:
            yield punctured_affine_plane(s + 1, puncture_multipliers(s + 1))
        if s in difference_scheme_orders() and 2 * s * s >= players_ and 2 * s >= rounds:
            yield difference_scheme_array(s)
        if s in difference_scheme_orders() and 2 * s * s >= players_ and 2 * s + 1 in whole:
            yield difference_scheme_array(s, extended=True)  # only where the column is needed
        if prime_power(s) and s**3 >= players_ and s * s + s + 1 >= rounds and s <= 5:
            yield affine_space(s)
