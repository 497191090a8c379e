"""``draw_seating``: constructions first, local search where they fall short.

Order of work: check every round can be seated at all; compute the lower bounds; build
every design that fits the event (affine planes, orthogonal arrays and their
truncations), relabel players onto its points so avoid pairs, club-mates and earlier
meetings land where the design keeps them apart (and absent players where their empty
seats remove the most repeats); add a greedy draw; unless a design already meets the
bounds, polish the best start and the best of the other kind (annealing from the greedy
draw, tabu search for both) under a cap on max λ at its bound. If that draw's R is far
above R's bound, search again with the cap one higher and take that draw where it cuts
R by more than ``cap_relief_percent`` (saying so in a warning); then give seat numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.messages import Message, Param, Params
from engine.seating.designs import (
    DesignArray,
    candidate_designs,
    fit_design,
    pad_runs,
)
from engine.seating.metrics import (
    SeatingMetrics,
    feasible_table_counts,
    meeting_matrix,
    partition,
    repeat_meetings,
    seating_bounds,
    seating_metrics,
)
from engine.seating.problem import DrawConstraintError, SearchOptions, SeatingProblem
from engine.seating.search import (
    BoolArray,
    IntArray,
    Weights,
    anneal,
    constraint_meetings,
    fit_sizes,
    greedy_round,
    marginal,
    meetings,
    objective,
    relabel,
    round_adjacency,
    tabu_search,
)
from engine.seating.seats import assign_seats

__all__ = ["SeatingDraw", "SeatingRound", "draw_seating"]

_GREEDY = "greedy"
_PREVIOUS = "previous draw"
# Relabelling weight that keeps two players absent from a round at different tables.
_ABSENT_APART = 5
# Share of the time limit kept back for seat numbers and the final checks.
_RESERVE = 0.2


@dataclass(frozen=True)
class SeatingRound:
    """One round: ``tables[j]`` lists table j+1's players in seat order (seat 1 first)."""

    number: int
    tables: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class SeatingDraw:
    """A valid draw with its measures; ``method`` names the design or search used;
    ``warnings`` are :class:`Message` s (``draw.*`` codes; ``str()`` is the English)."""

    problem: SeatingProblem
    rounds: tuple[SeatingRound, ...]
    metrics: SeatingMetrics
    method: str
    warnings: tuple[Message, ...]


def _round_plans(
    problem: SeatingProblem, index: dict[str, int]
) -> list[tuple[IntArray, tuple[int, ...]]]:
    """Present players and the table counts each free round may use, or a clear error."""
    sizes = problem.sizes()
    plans = []
    for t in range(len(problem.fixed_rounds) + 1, problem.rounds + 1):
        present = np.array([index[p] for p in problem.present(t)], dtype=np.int64)
        count = len(present)
        if count < sizes[0]:
            raise DrawConstraintError(
                "table_size",
                "draw.too_few_players",
                {"round": t, "count": count, "min": sizes[0]},
                round=t,
            )
        if problem.tables is not None:
            if partition(count, problem.tables, sizes) is None:
                shape, params = _sizes_params(sizes)
                variant = f"one_{shape}" if problem.tables == 1 else shape
                params.update(variant=variant, round=t, count=count, tables=problem.tables)
                raise DrawConstraintError("tables", "draw.table_count", params, round=t)
            counts: tuple[int, ...] = (problem.tables,)
        else:
            counts = feasible_table_counts(count, sizes)
            if not counts:
                shape, params = _sizes_params(sizes)
                params.update(variant=shape, round=t, count=count)
                raise DrawConstraintError("table_size", "draw.table_sizes", params, round=t)
        plans.append((present, counts))
    return plans


def _sizes_params(sizes: Sequence[int]) -> tuple[str, dict[str, Param]]:
    """Table sizes as the params of a sentence: a ``range`` (``min``–``max``) when they
    run without a gap, else a ``list`` (``sizes``)."""
    if list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return "range", {"min": sizes[0], "max": sizes[-1]}
    return "list", {"sizes": list(sizes)}


def _check_avoid_possible(
    problem: SeatingProblem, plans: list[tuple[IntArray, tuple[int, ...]]], index: dict[str, int]
) -> None:
    """Fail early, naming the players, where avoiding is plainly impossible: one table
    in a round, or a player who must avoid so many that too few table-mates are left."""
    fixed = len(problem.fixed_rounds)
    shunned: dict[str, set[str]] = {}
    for a, b in problem.avoid:
        shunned.setdefault(a, set()).add(b)
        shunned.setdefault(b, set()).add(a)
    smallest = problem.sizes()[0]
    for t, (present, _) in enumerate(plans, start=fixed + 1):
        here = {problem.players[i] for i in present}
        for a in sorted(shunned.keys() & here):
            mates = len(here) - 1 - len(shunned[a] & here)
            if mates < smallest - 1:
                raise DrawConstraintError(
                    "avoid",
                    "draw.avoid_too_many",
                    {
                        "player": a,
                        "count": len(shunned[a] & here),
                        "n": len(here),
                        "round": t,
                        "mates": mates,
                        "min": smallest,
                        "need": smallest - 1,
                    },
                    round=t,
                )
    for a, b in sorted(problem.avoid):
        for t, (present, counts) in enumerate(plans, start=fixed + 1):
            if max(counts) == 1 and index[a] in present and index[b] in present:
                raise DrawConstraintError(
                    "avoid",
                    "draw.avoid_one_table",
                    {"player": a, "other": b, "round": t},
                    round=t,
                )


def draw_seating(
    problem: SeatingProblem,
    time_limit: float = 10.0,
    *,
    options: SearchOptions | None = None,
    progress: Callable[[float], None] | None = None,
) -> SeatingDraw:
    """Draw the seating of ``problem``; see docs/draws.md for what it guarantees.

    The same problem, seed and options give the same draw; ``time_limit`` (seconds)
    only cuts the effort short. Raises :class:`DrawConstraintError` naming the
    constraint that cannot be met.
    """
    started = time.perf_counter()
    opts = options or SearchOptions()
    deadline = started + max(0.0, time_limit) * (1 - _RESERVE)
    cut_short = [False]
    budget = max(deadline - started, 1e-9)
    shown = [0.0]  # the fraction last reported: progress never goes backwards
    next_tick = [started]

    def report(fraction: float) -> None:
        if progress is not None:
            shown[0] = max(shown[0], min(1.0, max(0.0, fraction)))
            progress(shown[0])

    def out_of_time() -> bool:
        now = time.perf_counter()
        if now >= deadline:
            cut_short[0] = True
            return True
        if progress is not None and now >= next_tick[0]:
            # the search asks often: the share of the time used is the progress a person
            # watching sees between the milestones (at most 50 reports per draw)
            next_tick[0] = now + budget / 50
            report(0.95 * (now - started) / budget)
        return False

    report(0.0)
    index = problem.index
    n = len(index)
    fixed = len(problem.fixed_rounds)
    plans = _round_plans(problem, index)
    _check_avoid_possible(problem, plans, index)
    bounds = seating_bounds(problem)
    sizes = problem.sizes()
    fixed_idx = [[[index[p] for p in table] for table in rnd] for rnd in problem.fixed_rounds]
    avoid = np.zeros((n, n), dtype=bool)
    for a, b in problem.avoid:
        avoid[index[a], index[b]] = avoid[index[b], index[a]] = True
    club = np.zeros((n, n), dtype=bool)
    if problem.clubs:
        label = np.array([problem.clubs.get(p, f"\0{p}") for p in problem.players])
        club = label[:, None] == label[None, :]
        np.fill_diagonal(club, False)
    weights = Weights(
        base=meeting_matrix(n, fixed_idx),
        avoid=avoid,
        club=club,
        club_rounds=max(0, problem.club_apart_rounds - fixed),
        cap=max(1, bounds.max_meetings),
        cap_weight=opts.cap_weight,
        avoid_weight=opts.avoid_weight,
        club_weight=opts.club_weight,
    )
    rng = np.random.default_rng(problem.seed)
    method, assign = "fixed rounds only", np.zeros((0, n), dtype=np.int64)
    relief_note: Params | None = None
    if plans:

        def search(w: Weights, at: float, width: float) -> list[tuple[str, IntArray]]:
            return _best_draws(
                problem,
                plans,
                sizes,
                w,
                opts,
                bounds.repeats,
                rng,
                deadline,
                out_of_time,
                cut_short,
                _scaled(report, at, width),
            )

        # max λ at its bound first; one above it only where that cuts R by more than
        # cap_relief_percent (docs/draws.md: "Fewest repeats or smallest maximum")
        first = search(weights, 0.0, 0.6)
        method, assign = first[0]
        lam = meetings(assign, weights.base)
        strict, top = repeat_meetings(lam), int(lam.max(initial=0))
        percent = opts.cap_relief_percent
        if (
            percent
            and top <= weights.cap  # over the cap already: no meeting left to trade
            and strict * 100 > bounds.repeats * (100 + percent)
            and not out_of_time()
        ):
            relieved = replace(weights, cap=weights.cap + 1)
            # the first search's other draws count too: one may already be there; none
            # may break a pair that must not meet or seat more club-mates together
            kept = constraint_meetings(assign, weights)
            pool = [
                c
                for c in search(relieved, 0.6, 0.3) + first[1:]
                if all(
                    x <= y for x, y in zip(constraint_meetings(c[1], weights), kept, strict=True)
                )
            ]
            if pool:
                other_method, other = min(pool, key=lambda c: _rank(c[1], relieved))
                lam = meetings(other, weights.base)
                loose, other_top = repeat_meetings(lam), int(lam.max(initial=0))
                if other_top <= top and loose < strict:
                    method, assign = other_method, other  # better on both: nothing traded
                elif other_top == top + 1 and loose * (100 + percent) < strict * 100:
                    method, assign = other_method, other
                    relief_note = {
                        "max": other_top,
                        "bound": bounds.max_meetings,
                        "hi": strict,
                        "lo": loose,
                    }
    report(0.9)
    warnings: list[Message] = []
    _check_avoid_met(problem, assign, fixed)
    warnings.extend(_fixed_round_warnings(problem))
    if relief_note is not None:
        warnings.append(Message("draw.cap_relief", relief_note))
    rounds_idx = fixed_idx + [_tables_of(row) for row in assign]
    smallest = min((len(table) for rnd in rounds_idx for table in rnd if table), default=1)
    seat_cap = -(-problem.rounds // smallest)
    ordered = assign_seats(
        n,
        rounds_idx,
        fixed,
        seat_cap,
        seed=problem.seed,
        out_of_time=lambda: time.perf_counter() >= started + time_limit * (1 - _RESERVE / 2),
    )
    rounds = tuple(
        SeatingRound(t, tuple(tuple(problem.players[p] for p in table) for table in rnd))
        for t, rnd in enumerate(ordered, start=1)
    )
    metrics = seating_metrics(problem, [r.tables for r in rounds], bounds)
    if metrics.club_meetings:
        warnings.append(
            Message(
                "draw.club_meetings",
                {"count": metrics.club_meetings, "rounds": problem.club_apart_rounds},
            )
        )
    if metrics.seat_excess:
        warnings.append(
            Message("draw.seat_excess", {"max": metrics.seat_max, "ideal": metrics.seat_ideal})
        )
    if cut_short[0]:
        warnings.append(Message("draw.cut_short", {}))
    report(1.0)
    return SeatingDraw(problem, rounds, metrics, method, tuple(warnings))


def _best_draws(
    problem: SeatingProblem,
    plans: list[tuple[IntArray, tuple[int, ...]]],
    sizes: tuple[int, ...],
    weights: Weights,
    opts: SearchOptions,
    target: int,
    rng: np.random.Generator,
    deadline: float,
    out_of_time: Callable[[], bool],
    cut_short: list[bool],
    report: Callable[[float], None],
) -> list[tuple[str, IntArray]]:
    """Draws under ``weights.cap``, the fairest first: every design that fits and a
    greedy draw, then (unless one is at ``target``) the best start and the best of the
    other kind (design or greedy) polished, each with an equal share of the effort and
    of the time left before ``deadline``."""
    n = len(problem.players)
    candidates: list[tuple[int, int, str, IntArray]] = []
    greedy = _greedy_draw(plans, sizes, weights, rng, n)
    candidates.append((objective(greedy, weights), _tables(greedy), _GREEDY, greedy))
    if problem.previous_draw:
        earlier = _previous_draw(problem, plans, sizes, weights)
        candidates.append((objective(earlier, weights), _tables(earlier), _PREVIOUS, earlier))
    for name, assign in _constructions(problem, plans, sizes, weights, opts, n, out_of_time):
        candidates.append((objective(assign, weights), _tables(assign), name, assign))
        if candidates[-1][0] <= target:
            break  # designs come fewest tables first: none later can beat this one
    report(0.125)
    candidates.sort(key=lambda c: (c[0], c[1]))
    score, _, method, assign = candidates[0]
    if score <= target:
        return [(method, assign)]
    other = [c for c in candidates if (c[2] == _GREEDY) != (method == _GREEDY)][:1]
    starts = [candidates[0], *other]
    window = deadline - time.perf_counter()
    polished = []
    for i, (_, count, name, start) in enumerate(starts):
        until = time.perf_counter() + window / len(starts)
        rank, name, start = _polish(
            start,
            name,
            weights,
            opts,
            target,
            rng,
            len(starts),
            _stopper(until, out_of_time, cut_short),
            _scaled(report, 0.125 + 0.875 * i / len(starts), 0.875 / len(starts)),
        )
        polished.append((rank, name, start, count))
    polished.sort(key=lambda c: (c[0], c[3]))
    return [(name, found) for _, name, found, _ in polished]


def _stopper(
    until: float, out_of_time: Callable[[], bool], cut_short: list[bool]
) -> Callable[[], bool]:
    """Stop at this start's share of the time; running out of it counts as cut short."""

    def stop() -> bool:
        if time.perf_counter() >= until:
            cut_short[0] = True
            return True
        return out_of_time()

    return stop


def _scaled(report: Callable[[float], None], at: float, width: float) -> Callable[[float], None]:
    return lambda f: report(at + width * f)


def _polish(
    assign: IntArray,
    name: str,
    w: Weights,
    opts: SearchOptions,
    target: int,
    rng: np.random.Generator,
    share: int,
    out_of_time: Callable[[], bool],
    report: Callable[[float], None],
) -> tuple[tuple[int, int, int], str, IntArray]:
    """Annealing (from a greedy draw only: it would scramble a design) then tabu.

    The annealing prices meetings beyond the cap ever more dearly (see
    :func:`anneal`); if it still cannot bring max λ down to the cap, the cap moves up
    to what was reached, so tabu's effort goes into R rather than into a cap out of
    reach. (A design's start keeps the cap: its few excess meetings are easy to
    repair.) Returns the :func:`_rank` of the result.
    """
    if name == _GREEDY:
        half = opts.anneal_moves // 2
        assign = anneal(assign, w, moves=half, rng=rng, out_of_time=out_of_time)
        capped = _reachable_cap(assign, w)  # if out of reach: spend the rest on R under it
        assign = anneal(assign, capped, moves=half, rng=rng, out_of_time=out_of_time)
        w = capped if capped is not w else _reachable_cap(assign, w)
        name = "greedy + annealing"
    report(0.3)
    tables = [int(row.max()) + 1 for row in assign]
    assign, _ = tabu_search(
        assign,
        tables,
        w,
        iterations=_tabu_budget(opts.iterations, len(assign[0])) // share,
        tenure=opts.tabu_tenure,
        target=target,
        rng=rng,
        out_of_time=out_of_time,
        progress=lambda f: report(0.3 + 0.7 * f),
    )
    return _rank(assign, w), f"{name} + tabu search", assign


def _reachable_cap(assign: IntArray, w: Weights) -> Weights:
    """The weights with the cap raised to the draw's max λ when it is above the cap."""
    top = int(meetings(assign, w.base).max(initial=0))
    return replace(w, cap=top) if top > w.cap else w


def _rank(assign: IntArray, w: Weights) -> tuple[int, int, int]:
    """Avoid-pair meetings, then max λ, then the objective with the cap at that max λ."""
    lam = meetings(assign, w.base)
    top = int(lam.max(initial=0))
    broken, _ = constraint_meetings(assign, w, lam)
    return broken, max(top, w.cap), objective(assign, replace(w, cap=max(top, w.cap)))


def _tabu_budget(iterations: int, players: int) -> int:
    """Tabu iterations for this event: each costs ~players², so the budget (set for
    events of up to 130 players) shrinks for larger ones to keep the time alike."""
    return iterations if players <= 130 else iterations * 130**2 // players**2


def _tables(assign: IntArray) -> int:
    return int(sum(int(row.max()) + 1 for row in assign))


def _tables_of(row: IntArray) -> list[list[int]]:
    m = int(row.max()) + 1
    return [[int(p) for p in np.flatnonzero(row == j)] for j in range(m)]


def _greedy_draw(
    plans: list[tuple[IntArray, tuple[int, ...]]],
    sizes: tuple[int, ...],
    w: Weights,
    rng: np.random.Generator,
    n: int,
) -> IntArray:
    """Round by round, the greedy draw at the largest table count (smallest tables)."""
    assign = np.full((len(plans), n), -1, dtype=np.int64)
    prior = w.base.copy()
    for t, (present, counts) in enumerate(plans):
        parts = partition(len(present), max(counts), sizes)
        assert parts is not None
        assign[t] = greedy_round(parts, present, prior, w, t, rng)
        prior += round_adjacency(assign[t])
    return assign


def _previous_draw(
    problem: SeatingProblem,
    plans: list[tuple[IntArray, tuple[int, ...]]],
    sizes: tuple[int, ...],
    w: Weights,
) -> IntArray:
    """The draw being replaced, fitted to who plays now: its tables at the usable table
    count nearest its own, players gone dropped, newcomers at the table they cost least
    (the emptiest among equals), sizes evened by the cheapest moves; rounds it lacks are
    drawn greedily."""
    index = problem.index
    n = len(index)
    assign = np.full((len(plans), n), -1, dtype=np.int64)
    prior = w.base.copy()
    rng = np.random.default_rng(problem.seed)  # its own: the search's stream stays as it was
    for t, (present, counts) in enumerate(plans):
        earlier = problem.previous_draw[t] if t < len(problem.previous_draw) else ()
        m = min(counts, key=lambda c: (abs(c - len(earlier)), -c))
        parts = partition(len(present), m, sizes)
        assert parts is not None
        here = np.zeros(n, dtype=bool)
        here[present] = True
        row = np.full(n, -1, dtype=np.int64)
        for j, table in enumerate(earlier[:m]):
            for p in table:
                if p in index and here[index[p]]:
                    row[index[p]] = j
        if (row >= 0).any():
            cost = marginal(prior, w, t)
            for newcomer in np.flatnonzero(here & (row < 0)):
                seated = row >= 0
                price = np.bincount(row[seated], weights=cost[newcomer, seated], minlength=m)
                load = np.bincount(row[seated], minlength=m)
                row[newcomer] = int(np.lexsort((load, price))[0])
            assign[t] = fit_sizes(row, parts, prior, w, t)
        else:
            assign[t] = greedy_round(parts, present, prior, w, t, rng)
        prior += round_adjacency(assign[t])
    return assign


def _constructions(
    problem: SeatingProblem,
    plans: list[tuple[IntArray, tuple[int, ...]]],
    sizes: tuple[int, ...],
    w: Weights,
    opts: SearchOptions,
    n: int,
    out_of_time: Callable[[], bool],
) -> Iterator[tuple[str, IntArray]]:
    """Every design that fits, relabelled and adjusted to absences and table sizes.

    On a redraw, a design whose first rounds are exactly the fixed rounds (the earlier
    draw came from it) is continued as it stands; every design is also tried afresh on
    the remaining rounds with players relabelled away from their earlier meetings.
    """
    free = len(plans)
    fixed = problem.rounds - free
    usable = set(plans[0][1]).intersection(*(set(c) for _, c in plans[1:]))
    away_now = [_away(n, present) for present, _ in plans]
    # on a redraw a design is continued relabelled as the earlier draw was: with no
    # absences known then (a player withdrawn since), or with the same absences as now
    attempts: list[list[BoolArray]] = []
    if fixed:
        away_all = [
            _away(n, [problem.index[p] for p in problem.present(t)])
            for t in range(1, problem.rounds + 1)
        ]
        attempts = [[], away_all] if any(a.any() for a in away_all) else [[]]
    for design in candidate_designs(tuple(sorted(usable)), n, free, problem.rounds):
        if out_of_time():
            return
        if fixed and design.columns >= problem.rounds:
            for away in attempts:
                whole = _relabelled(
                    design,
                    problem.rounds,
                    n,
                    w,
                    opts,
                    problem.seed,
                    problem.club_apart_rounds,
                    away,
                    history=False,
                    out_of_time=out_of_time,
                )
                if _continues(whole, problem, fixed):
                    yield (
                        f"{design.name} (continued)",
                        _adjust(whole[fixed:], design.levels, plans, sizes, w),
                    )
                    break
        array = _relabelled(
            design,
            free,
            n,
            w,
            opts,
            problem.seed,
            w.club_rounds,
            away_now,
            history=True,
            out_of_time=out_of_time,
        )
        yield design.name, _adjust(array, design.levels, plans, sizes, w)


def _away(n: int, present: Sequence[int] | IntArray) -> BoolArray:
    """Who is absent from a round, as a mask over all n players."""
    away = np.ones(n, dtype=bool)
    away[np.asarray(present, dtype=np.int64)] = False
    return away


def _relabelled(
    design: DesignArray,
    rounds: int,
    n: int,
    w: Weights,
    opts: SearchOptions,
    seed: int,
    club_rounds: int,
    absent: Sequence[BoolArray],
    *,
    history: bool,
    out_of_time: Callable[[], bool],
) -> IntArray:
    """The design cut to ``rounds`` columns and ``n`` runs, players permuted onto runs so
    avoid pairs, club-mates (and with ``history`` earlier meetings) fall apart, and
    players absent from a round (``absent[t]``, one mask per column, or none) sit at
    different tables of it (so the tables stay even without moving anyone) and where
    their empty seats remove the most repeats; returned as ``assign[t, p]``."""
    array = fit_design(design, rounds, n, seed)
    array = pad_runs(array, design.levels, n, cap=max(2, w.cap), out_of_time=out_of_time)
    lmat = meeting_matrix(n, [_tables_of(col) for col in array.T])
    h = w.avoid.astype(np.int64) * w.avoid_weight + (w.base if history else 0)
    terms = [(h, lmat)]
    if club_rounds and w.club.any():
        early = meeting_matrix(n, [_tables_of(col) for col in array.T[:club_rounds]])
        terms.append((w.club.astype(np.int64) * w.club_weight, early))
    for t, away in enumerate(absent):
        if not away.any():
            continue
        together = round_adjacency(array[:, t])
        if away.sum() > 1:
            both = (away[:, None] & away[None, :]).astype(np.int64) * _ABSENT_APART
            np.fill_diagonal(both, 0)
            terms.append((both, together))
        # an absent player's empty seat removes the most repeats at a table of players
        # they meet again elsewhere: price its once-met table-mates (where some meet
        # twice: in a design of index one every seat is alike)
        if (together * (lmat > 1)).any():
            either = (away[:, None] | away[None, :]).astype(np.int64)
            np.fill_diagonal(either, 0)
            terms.append((either, together * (lmat == 1)))
    # a generator per design, so a design relabels alike whatever was tried before it
    rng = np.random.default_rng([seed, design.runs, design.columns, design.levels])
    perm = relabel(terms, iterations=opts.relabel_iterations, rng=rng, out_of_time=out_of_time)
    return array[perm].T.copy()


def _continues(whole: IntArray, problem: SeatingProblem, fixed: int) -> bool:
    """Whether the fixed rounds are exactly the design's first rounds (tables as sets)."""
    index = problem.index
    for t, rnd in enumerate(problem.fixed_rounds[:fixed]):
        seen: set[int] = set()
        for table in rnd:
            levels = {int(whole[t, index[p]]) for p in table}
            if len(levels) != 1 or levels & seen:
                return False
            seen |= levels
    return True


def _adjust(
    assign: IntArray,
    m: int,
    plans: list[tuple[IntArray, tuple[int, ...]]],
    sizes: tuple[int, ...],
    w: Weights,
) -> IntArray:
    """Remove absent players and move players until every table has an allowed size."""
    n = assign.shape[1]
    out = np.full_like(assign, -1)
    prior = w.base.copy()
    for t, (present, _) in enumerate(plans):
        row = np.full(n, -1, dtype=np.int64)
        row[present] = assign[t, present]
        parts = partition(len(present), m, sizes)
        assert parts is not None
        out[t] = fit_sizes(row, parts, prior, w, t)
        prior += round_adjacency(out[t])
    return out


def _check_avoid_met(problem: SeatingProblem, assign: IntArray, fixed: int) -> None:
    """Raise naming the first avoid pair the draw still seats together."""
    index = problem.index
    for a, b in sorted(problem.avoid):
        for t, row in enumerate(assign, start=fixed + 1):
            i, j = index[a], index[b]
            if row[i] >= 0 and row[i] == row[j]:
                raise DrawConstraintError(
                    "avoid",
                    "draw.avoid_unmet",
                    {"player": a, "other": b, "round": t},
                    round=t,
                )


def _fixed_round_warnings(problem: SeatingProblem) -> list[Message]:
    """Earlier rounds are history: report, not fix, what they broke."""
    out = []
    for t, rnd in enumerate(problem.fixed_rounds, start=1):
        for table in rnd:
            seated = set(table)
            for a, b in sorted(problem.avoid):
                if a in seated and b in seated:
                    out.append(Message("draw.fixed_avoid", {"round": t, "player": a, "other": b}))
    return out
