"""Referee assignment: one referee per table per round.

Hard: a referee never judges a player they conflict with, and judges one table at a
time. Soft, in this order: few repeats (``Σ_(player, referee) C(count, 2)``), an even
load, and strong referees at important tables. Each round is an assignment problem
(tables × referees) solved with the Hungarian method given every other round; sweeping
the rounds until nothing improves is the "improving swaps across rounds".
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from engine.messages import Message
from engine.seating.metrics import spread
from engine.seating.problem import DrawConstraintError, SeatingProblemError

__all__ = [
    "RefereeMetrics",
    "RefereeOptions",
    "RefereePlan",
    "assign_referees",
    "referee_repeats_bound",
]

FloatMatrix = npt.NDArray[np.float64]
_FORBIDDEN = 1e12


class _Round(Protocol):
    @property
    def tables(self) -> Sequence[Sequence[str]]: ...


class Layout(Protocol):
    """Anything with ``rounds[i].tables[j]`` = player ids (a :class:`SeatingDraw`)."""

    @property
    def rounds(self) -> Sequence[_Round]: ...


@dataclass(frozen=True)
class RefereeOptions:
    """Effort and priorities; the same options and seed give the same plan."""

    sweeps: int = 40
    restarts: int = 4
    kicks: int = 30
    repeat_weight: int = 1000
    load_weight: int = 10
    grade_weight: int = 1

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SeatingProblemError([Message("draw.option", {"key": f.name})])


@dataclass(frozen=True)
class RefereeMetrics:
    """``repeats`` against ``repeats_bound``; ``max_count`` is the most times one player
    has one referee; loads are tables judged per referee."""

    repeats: int
    repeats_bound: int
    max_count: int
    load_min: int
    load_max: int


@dataclass(frozen=True)
class RefereePlan:
    """``rounds[i][j]``: referee of round i+1, table j+1; ``warnings`` are
    :class:`Message` s (``referees.*`` codes; ``str()`` is the English)."""

    rounds: tuple[tuple[str, ...], ...]
    metrics: RefereeMetrics
    warnings: tuple[Message, ...]


def _overlap(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]], n: int) -> FloatMatrix:
    where = np.full(n, -1, dtype=np.int64)
    for j, table in enumerate(b):
        where[list(table)] = j
    out = np.zeros((len(a), len(b)))
    for i, table in enumerate(a):
        cols = where[list(table)]
        cols = cols[cols >= 0]
        np.add.at(out[i], cols, 1)
    return out


def referee_repeats_bound(
    rounds: Sequence[Sequence[Sequence[int]]],
    n: int,
    allowed: Sequence[int],
    *,
    referees: int,
) -> int:
    """Lower bound on referee repeats for a fixed seating (player indices).

    ``referees`` is how many referees there are: every one given, not the most any
    player may have (with conflicts that undercounts, and a bound assuming every referee
    judges every round, or that two rounds share more referees than they must, can
    exceed the optimum).

    Three arguments, the largest wins. Players: one playing ``r_p`` rounds under
    ``allowed[p]`` possible referees repeats at least ``spread(r_p, allowed[p])``.
    Rounds: for rounds t, u with ``m_t``, ``m_u`` tables and ``k`` referees, at least
    ``m_t + m_u − k`` referees judge in both, and each such referee repeats once per
    player at both their tables, so the cheapest matching of that size in the overlap
    matrix is a floor for that pair of rounds. Subsets of rounds: see
    :func:`_subset_bound`.
    """
    played = np.zeros(n, dtype=np.int64)
    for rnd in rounds:
        for table in rnd:
            played[list(table)] += 1
    by_player = sum(spread(int(played[p]), allowed[p]) for p in range(n) if allowed[p])
    by_rounds = 0
    overlaps: dict[tuple[int, int], FloatMatrix] = {}  # for the subsets too
    for (t, a), (u, b) in itertools.combinations(enumerate(rounds), 2):
        k = len(a) + len(b) - referees
        if k <= 0:
            continue
        o = overlaps[t, u] = _overlap(a, b, n)
        ma, mb = o.shape
        big = np.full((ma + mb - k, mb + ma - k), _FORBIDDEN)
        big[:ma, :mb] = o
        big[:ma, mb:] = 0
        big[ma:, :mb] = 0
        r, c = linear_sum_assignment(big)
        by_rounds += round(float(big[r, c].sum()))
    return max(by_player, by_rounds, _subset_bound(rounds, overlaps, referees))


# assignments of one subset of rounds tried by the subset bound (its effort per subset)
_SUBSET_EFFORT = 20_000
_SUBSET_MAX = 5
# its whole effort, in array cells added (one array operation counts as _SUBSET_STEP
# cells): about 0.3 s; counted, not timed, so the bound is the same on every machine
_SUBSET_WORK = 500_000_000
_SUBSET_STEP = 2_500


def _subset_work(rounds: int, count: int, size: int) -> int:
    """The subset bound's effort with subsets of ``size`` of ``rounds`` rounds, each
    adding ``C(size, 2)`` arrays of ``count^(size−1)`` assignments; plus the pair costs
    (``count²`` per pair of rounds)."""
    per_subset = math.comb(size, 2) * (int(count ** (size - 1)) + _SUBSET_STEP)
    pairs = math.comb(rounds, 2) * (count**2 + _SUBSET_STEP)
    return math.comb(rounds, size) * per_subset + pairs


def _subset_bound(
    rounds: Sequence[Sequence[Sequence[int]]],
    overlaps: Mapping[tuple[int, int], FloatMatrix],
    refs: int,
) -> int:
    """The round-pairs bound over subsets of K rounds instead of pairs (0 if it does not
    apply): when every round has exactly as many tables as there are referees, each
    referee judges once per round, and the repeats are ``Σ over round pairs (t, u) of
    Σ over referees of overlap_tu(table_t, table_u)``. For a subset S of K rounds, the
    pairs inside S cost at least the cheapest assignment of S alone (found by trying
    them all, the first round's fixed); every pair of rounds lies in ``C(r−2, K−2)`` of
    the K-subsets, so the sum of these minima over all K-subsets, divided by that,
    is a floor. K = 2 is the round-pairs bound; larger K sees that the matchings of
    different pairs must agree. K is the largest (up to 5) whose ``(m!)^(K−1)``
    assignments stay within the effort per subset and whose ``C(r, K)`` subsets stay
    within the whole effort (:data:`_SUBSET_WORK`, counted in array cells, not time, so
    the bound is reproducible); with many rounds K shrinks, and if even K = 3 is too
    much the bound is skipped (0). So only small table counts use it.
    """
    r = len(rounds)
    m = refs
    if (
        m < 2
        or r < 3
        or any(len(rnd) != m for rnd in rounds)
        or math.factorial(m) ** 2 > _SUBSET_EFFORT
    ):
        return 0
    count = math.factorial(m)
    size = 3
    while (
        size < min(r, _SUBSET_MAX)
        and count**size <= _SUBSET_EFFORT
        and _subset_work(r, count, size + 1) <= _SUBSET_WORK
    ):
        size += 1
    if _subset_work(r, count, size) > _SUBSET_WORK:
        return 0  # too many rounds even for triples: the round pairs must do
    perms = np.array(list(itertools.permutations(range(m))), dtype=np.int64)
    cost: dict[tuple[int, int], FloatMatrix] = {}
    for (t, u), o in overlaps.items():  # every pair: each round has a table per referee
        cost[t, u] = o[perms[:, None, :], perms[None, :, :]].sum(axis=2)  # σ_t × σ_u
    total = 0.0
    for subset in itertools.combinations(range(r), size):
        first, rest = subset[0], subset[1:]
        grid = np.zeros((count,) * len(rest))
        for i, t in enumerate(rest):
            shape = [1] * len(rest)
            shape[i] = count
            grid = grid + cost[first, t][0].reshape(shape)  # the first round: identity
        for (i, t), (j, u) in itertools.combinations(enumerate(rest), 2):
            shape = [1] * len(rest)
            shape[i], shape[j] = count, count
            grid = grid + cost[t, u].reshape(shape)
        total += float(grid.min())
    return math.ceil(round(total / math.comb(r - 2, size - 2), 9))


def assign_referees(
    draw: Layout,
    referees: Sequence[str],
    conflicts: Iterable[tuple[str, str]] = (),
    seed: int = 0,
    *,
    fixed: Sequence[Sequence[str]] = (),
    grades: Mapping[str, float] | None = None,
    importance: Sequence[Sequence[float]] | None = None,
    options: RefereeOptions | None = None,
    time_limit: float = 5.0,
    progress: Callable[[float], None] | None = None,
) -> RefereePlan:
    """Give every table of ``draw`` a referee.

    ``conflicts`` holds ``(referee, player)`` pairs that must never meet; ``fixed`` the
    referees of rounds already played (kept, counted as history); ``grades`` (higher is
    stronger) and ``importance[i][j]`` (round i+1, table j+1) steer strong referees to
    important tables. Raises :class:`DrawConstraintError` naming the round, table and
    referees when conflicts leave a table without one.
    """
    started = time.perf_counter()
    opts = options or RefereeOptions()
    refs = list(referees)
    problems: list[Message] = []
    if not refs:
        problems.append(Message("referees.none", {}))
    if len(set(refs)) != len(refs):
        problems.append(Message("referees.not_unique", {}))
    known = set(refs)
    pairs = {(str(r), str(p)) for r, p in conflicts}
    problems += [
        Message("referees.conflict_unknown", {"referee": r})
        for r in sorted({r for r, _ in pairs} - known)
    ]
    if problems:
        raise SeatingProblemError(problems)
    layout = [[tuple(table) for table in rnd.tables] for rnd in draw.rounds]
    players = sorted({p for rnd in layout for table in rnd for p in table})
    index = {p: i for i, p in enumerate(players)}
    rindex = {r: i for i, r in enumerate(refs)}
    n, k = len(players), len(refs)
    rounds = [[[index[p] for p in table] for table in rnd] for rnd in layout]
    conflict = np.zeros((n, k), dtype=bool)
    for r, p in pairs:
        if p in index:
            conflict[index[p], rindex[r]] = True
    fixed_idx = _check_fixed(fixed, layout, rindex)
    grade = np.zeros(k)
    if grades:
        values = np.array([float(grades.get(r, 0.0)) for r in refs])
        grade = values.max() - values
    weight = [
        np.asarray(importance[t], dtype=float)
        if importance and t < len(importance)
        else np.zeros(len(rnd))
        for t, rnd in enumerate(rounds)
    ]
    blocked = [
        np.array([conflict[table].any(axis=0) for table in rnd]).reshape(len(rnd), k)
        for rnd in rounds
    ]
    for t, rnd in enumerate(rounds):
        if t >= len(fixed_idx):
            _check_round(t, rnd, blocked[t], refs, layout, conflict, players)
    allowed = [int((~conflict[p]).sum()) for p in range(n)]
    bound = referee_repeats_bound(rounds, n, allowed, referees=k)
    search = _Search(rounds, fixed_idx, blocked, weight, grade, k, opts, seed)
    deadline = started + time_limit
    best: tuple[tuple[int, int, int, float], list[list[int]]] | None = None
    budget = max(1, opts.restarts)
    for attempt in range(budget):
        if attempt and time.perf_counter() > deadline - 0.2 * time_limit:
            break
        search.start(shuffle=attempt > 0)
        search.descend(deadline - 0.1 * time_limit)
        current = search.score()
        # iterated local search: scramble one round, descend again, keep if no worse
        for _ in range(opts.kicks):
            if time.perf_counter() > deadline - 0.2 * time_limit or not search.order:
                break
            if current[0] <= bound and current[2] <= 1 and importance is None:
                break
            saved = search.save()
            search.kick()
            search.descend(deadline - 0.1 * time_limit)
            trial = search.score()
            if trial <= current:
                current = trial
            else:
                search.restore(saved)
        if best is None or current < best[0]:
            best = (current, [list(a) for a in search.plan])
        if progress is not None:
            progress((attempt + 1) / budget)
        if current[0] <= bound and current[2] <= 1 and importance is None:
            break
    assert best is not None
    plan = best[1]
    return _finish(plan, rounds, refs, n, bound)


@dataclass(frozen=True)
class _Seated:
    """One round as arrays: who plays, at which table, and the table × player one-hot
    that sums players' referee counts per table in one product."""

    players: npt.NDArray[np.int64]
    table: npt.NDArray[np.int64]
    onehot: npt.NDArray[np.float64]

    @classmethod
    def of(cls, rnd: list[list[int]]) -> _Seated:
        players = np.array([p for table in rnd for p in table], dtype=np.int64)
        table = np.repeat(np.arange(len(rnd)), [len(t) for t in rnd])
        onehot = np.zeros((len(rnd), len(players)))
        onehot[table, np.arange(len(players))] = 1.0
        return cls(players, table, onehot)


class _Search:
    """Per-round Hungarian sweeps over a plan, with kicks and restarts."""

    def __init__(
        self,
        rounds: list[list[list[int]]],
        fixed: list[list[int]],
        blocked: list[npt.NDArray[np.bool_]],
        weight: list[npt.NDArray[np.float64]],
        grade: npt.NDArray[np.float64],
        k: int,
        opts: RefereeOptions,
        seed: int,
    ) -> None:
        self.rounds, self.fixed, self.blocked = rounds, fixed, blocked
        self.weight, self.grade, self.opts = weight, grade, opts
        self.rng = np.random.default_rng(seed)
        n = 1 + max((p for rnd in rounds for table in rnd for p in table), default=0)
        self.seated = [_Seated.of(rnd) for rnd in rounds]
        self.counts = np.zeros((n, k), dtype=np.int64)
        self.load = np.zeros(k, dtype=np.int64)
        self.plan: list[list[int]] = []
        self.order = list(range(len(fixed), len(rounds)))

    def start(self, *, shuffle: bool) -> None:
        """A greedy plan, round by round (in random order after the first start)."""
        self.counts[:] = 0
        self.load[:] = 0
        self.plan = [list(a) for a in self.fixed] + [[] for _ in self.order]
        for t in range(len(self.fixed)):
            self._apply(t, +1)
        if shuffle:
            self.rng.shuffle(self.order)
        for t in self.order:
            self.plan[t] = self._solve(t)
            self._apply(t, +1)

    def _apply(self, t: int, sign: int) -> None:
        _apply(self.seated[t], self.plan[t], self.counts, self.load, sign)

    def _solve(self, t: int) -> list[int]:
        """Best referee per table for round t, the other rounds held fixed."""
        seated, opts = self.seated[t], self.opts
        mine = self.counts[seated.players]
        # repeats first; the squared counts then spread them so nobody sees one referee often
        seen = seated.onehot @ mine
        squares = seated.onehot @ (mine * mine)
        cost = opts.repeat_weight * seen + squares + opts.load_weight * (2 * self.load + 1)
        cost += opts.grade_weight * self.weight[t][:, None] * self.grade[None, :]
        cost[self.blocked[t]] = _FORBIDDEN
        rows, cols = linear_sum_assignment(cost)
        out = [0] * len(cols)
        for r, c in zip(rows, cols, strict=True):
            out[int(r)] = int(c)
        return out

    def descend(self, deadline: float) -> None:
        """Re-solve every round given the others, and exchange referees' schedules over
        runs of rounds, until neither improves."""
        for _ in range(self.opts.sweeps):
            if time.perf_counter() > deadline:
                return
            changed = self.swap_segments()
            for t in self.rng.permutation(self.order):
                self._apply(t, -1)
                new = self._solve(t)
                changed |= new != self.plan[t]
                self.plan[t] = new
                self._apply(t, +1)
            if not changed:
                return

    def swap_segments(self) -> bool:
        """Make the best exchange of two referees' tables over a run of rounds.

        Exchanging referees a and b in the rounds of a segment changes the repeats by
        ``−Σ_p (I_pa − I_pb)(O_pa − O_pb)`` (I: counts inside the segment, O: outside),
        so one product ``Iᵀ·O`` prices every pair at once. Moves whole schedules, which
        re-solving one round at a time cannot. Returns whether a swap was made.
        """
        if not self.order:
            return False
        rounds = len(self.rounds)
        segments = [
            (lo, hi)
            for lo in range(min(self.order), rounds)
            for hi in range(lo + 1, rounds + 1)
            if hi - lo < rounds  # swapping everywhere only renames referees
        ]
        if not segments:
            return False
        per_round = np.zeros((rounds, *self.counts.shape), dtype=np.int64)
        for t, (seated, refs) in enumerate(zip(self.seated, self.plan, strict=True)):
            per_round[t, seated.players, np.asarray(refs)[seated.table]] = 1
        prefix = np.concatenate([np.zeros_like(per_round[:1]), np.cumsum(per_round, axis=0)])
        lo_at, hi_at = np.array(segments).T
        inside = (prefix[hi_at] - prefix[lo_at]).astype(float)  # every segment at once
        # Iᵀ·O for all segments in one batched product (floats: exact for counts this small)
        x = np.rint(inside.transpose(0, 2, 1) @ (self.counts[None] - inside)).astype(np.int64)
        diag = np.diagonal(x, axis1=1, axis2=2)
        delta = -(diag[:, :, None] + diag[:, None, :] - x - x.transpose(0, 2, 1))
        seg, ra, rb = np.nonzero((delta < 0) & np.triu(np.ones(delta.shape[1:], dtype=bool), 1))
        # the best swap the conflicts allow; ties go to the earliest segment, then pair
        best: tuple[int, int, int, int, int] | None = None
        for i in np.lexsort((rb, ra, seg, delta[seg, ra, rb])):
            lo, hi = segments[int(seg[i])]
            if self._swappable(int(ra[i]), int(rb[i]), lo, hi):
                best = (int(delta[seg[i], ra[i], rb[i]]), int(ra[i]), int(rb[i]), lo, hi)
                break
        if best is None:
            return False
        _, a, b, lo, hi = best
        for t in range(lo, hi):
            self._apply(t, -1)
            self.plan[t] = [b if r == a else a if r == b else r for r in self.plan[t]]
            self._apply(t, +1)
        return True

    def _swappable(self, a: int, b: int, lo: int, hi: int) -> bool:
        """Conflicts allow exchanging a and b in rounds lo..hi-1."""
        for t in range(lo, hi):
            for j, ref in enumerate(self.plan[t]):
                other = b if ref == a else a if ref == b else -1
                if other >= 0 and self.blocked[t][j, other]:
                    return False
        return True

    def kick(self) -> None:
        """Give one random round a random conflict-free assignment."""
        t = int(self.rng.choice(self.order))
        self._apply(t, -1)
        noise = self.rng.random(self.blocked[t].shape)
        noise[self.blocked[t]] = _FORBIDDEN
        rows, cols = linear_sum_assignment(noise)
        self.plan[t] = [int(c) for _, c in sorted(zip(rows, cols, strict=True))]
        self._apply(t, +1)

    def score(self) -> tuple[int, int, int, float]:
        """Repeats, then squared counts (spread), load spread, grade mismatch."""
        c = self.counts
        return (
            int((c * (c - 1) // 2).sum()),
            int((c**2).sum()),
            int(self.load.max() - self.load.min()),
            float(sum(self.weight[t] @ self.grade[a] for t, a in enumerate(self.plan))),
        )

    def save(self) -> tuple[list[list[int]], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        return [list(a) for a in self.plan], self.counts.copy(), self.load.copy()

    def restore(
        self, saved: tuple[list[list[int]], npt.NDArray[np.int64], npt.NDArray[np.int64]]
    ) -> None:
        self.plan, self.counts, self.load = saved


def _check_fixed(
    fixed: Sequence[Sequence[str]],
    layout: list[list[tuple[str, ...]]],
    rindex: dict[str, int],
) -> list[list[int]]:
    """Referees of rounds already played, as indices; kept as history, not checked."""
    if len(fixed) > len(layout):
        raise SeatingProblemError([Message("referees.fixed_rounds", {})])
    out = []
    for t, refs in enumerate(fixed):
        if len(refs) != len(layout[t]):
            raise SeatingProblemError([Message("referees.fixed_tables", {"round": t + 1})])
        unknown = [str(r) for r in refs if r not in rindex]
        if unknown:
            raise SeatingProblemError(
                [Message("referees.fixed_unknown", {"round": t + 1, "referees": unknown})]
            )
        out.append([rindex[r] for r in refs])
    return out


def _check_round(
    t: int,
    rnd: list[list[int]],
    blocked: npt.NDArray[np.bool_],
    refs: list[str],
    layout: list[list[tuple[str, ...]]],
    conflict: npt.NDArray[np.bool_],
    players: list[str],
) -> None:
    """Raise, naming round, table and referees, when conflicts make the round impossible."""
    m, k = blocked.shape
    if m > k:
        raise DrawConstraintError(
            "referee_count",
            "referees.too_few",
            {"round": t + 1, "tables": m, "count": k},
            round=t + 1,
        )
    for j in range(m):
        if blocked[j].all():
            # each referee with the first player at the table they conflict with
            names = [layout[t][j][int(np.flatnonzero(conflict[rnd[j], r])[0])] for r in range(k)]
            raise DrawConstraintError(
                "referee_conflict",
                "referees.all_conflict",
                {
                    "round": t + 1,
                    "table": j + 1,
                    "referees": list(refs),
                    "names": names,
                    **({"variant": "several"} if k > 1 else {}),
                },
                round=t + 1,
            )
    rows, cols = linear_sum_assignment(blocked.astype(float))
    stuck = [int(r) + 1 for r, c in zip(rows, cols, strict=True) if blocked[r, c]]
    if stuck:
        open_refs = sorted({refs[c] for j in range(m) for c in np.flatnonzero(~blocked[j])})
        raise DrawConstraintError(
            "referee_conflict",
            "referees.stuck",
            {"round": t + 1, "table_numbers": stuck, "tables": m, "referees": open_refs},
            round=t + 1,
        )


def _apply(
    seated: _Seated,
    refs: list[int],
    counts: npt.NDArray[np.int64],
    load: npt.NDArray[np.int64],
    sign: int,
) -> None:
    """Add (or with ``sign`` −1 remove) one round's referees to the counts and loads."""
    counts[seated.players, np.asarray(refs, dtype=np.int64)[seated.table]] += sign
    np.add.at(load, refs, sign)  # counts twice a referee listed twice in given rounds


def _finish(
    plan: list[list[int]],
    rounds: list[list[list[int]]],
    refs: list[str],
    n: int,
    bound: int,
) -> RefereePlan:
    counts = np.zeros((n, len(refs)), dtype=np.int64)
    load = np.zeros(len(refs), dtype=np.int64)
    for rnd, assigned in zip(rounds, plan, strict=True):
        _apply(_Seated.of(rnd), assigned, counts, load, +1)
    repeats = int((counts * (counts - 1) // 2).sum())
    metrics = RefereeMetrics(
        repeats=repeats,
        repeats_bound=bound,
        max_count=int(counts.max(initial=0)),
        load_min=int(load.min()),
        load_max=int(load.max()),
    )
    warnings = []
    if repeats > bound:
        warnings.append(Message("referees.repeats", {"count": repeats, "bound": bound}))
    if metrics.load_max - metrics.load_min > 1:
        loads = {"lo": metrics.load_min, "hi": metrics.load_max}
        warnings.append(Message("referees.loads", loads))
    return RefereePlan(
        rounds=tuple(tuple(refs[r] for r in assigned) for assigned in plan),
        metrics=metrics,
        warnings=tuple(warnings),
    )
