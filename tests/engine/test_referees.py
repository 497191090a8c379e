"""Referee assignment: conflicts are hard, repeats reach the bound on designed draws."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine.messages import Message, render
from engine.referees import RefereeOptions, assign_referees, referee_repeats_bound
from engine.seating import DrawConstraintError, SeatingProblem, SeatingProblemError, draw_seating


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Layout:
    rounds: tuple[Round, ...]


def ids(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def repeats(layout: object, plan_rounds: tuple[tuple[str, ...], ...]) -> int:
    counts: Counter[tuple[str, str]] = Counter()
    for rnd, refs in zip(layout.rounds, plan_rounds, strict=True):  # type: ignore[attr-defined]
        for table, ref in zip(rnd.tables, refs, strict=True):
            for p in table:
                counts[(p, ref)] += 1
    return sum(c * (c - 1) // 2 for c in counts.values())


@pytest.mark.parametrize(("players", "rounds", "tables"), [(120, 10, 10), (50, 10, 5), (64, 6, 8)])
def test_designed_draws_reach_the_referee_bound(players: int, rounds: int, tables: int) -> None:
    draw = draw_seating(SeatingProblem(players=ids(players), rounds=rounds, tables=tables))
    refs = [f"r{j}" for j in range(tables)]
    plan = assign_referees(draw, refs, seed=3)
    m = plan.metrics
    assert m.repeats == repeats(draw, plan.rounds) == m.repeats_bound
    assert m.load_min == m.load_max == rounds
    for refs_of_round in plan.rounds:
        assert sorted(refs_of_round) == sorted(refs)


def test_conflicts_are_respected_and_load_spread_with_spare_referees() -> None:
    draw = draw_seating(SeatingProblem(players=ids(64), rounds=6, tables=8, seed=2))
    refs = [f"r{j}" for j in range(10)]
    conflicts = {(refs[j], p) for j in range(10) for p in ids(64)[j * 6 : j * 6 + 3]}
    plan = assign_referees(draw, refs, conflicts, seed=1)
    for rnd, assigned in zip(draw.rounds, plan.rounds, strict=True):
        for table, ref in zip(rnd.tables, assigned, strict=True):
            assert not any((ref, p) in conflicts for p in table)
    assert plan.metrics.load_max - plan.metrics.load_min <= 1
    assert plan.metrics.repeats <= 1.1 * plan.metrics.repeats_bound


def test_same_seed_same_plan() -> None:
    draw = draw_seating(SeatingProblem(players=ids(90), rounds=8, seed=1))
    refs = [f"r{j}" for j in range(12)]
    assert assign_referees(draw, refs, seed=4) == assign_referees(draw, refs, seed=4)


def test_fixed_referees_are_kept() -> None:
    draw = draw_seating(SeatingProblem(players=ids(64), rounds=6, tables=8))
    refs = [f"r{j}" for j in range(8)]
    first = tuple(reversed(refs))
    plan = assign_referees(draw, refs, fixed=[first], seed=1)
    assert plan.rounds[0] == first


def test_grades_put_strong_referees_at_important_tables() -> None:
    draw = draw_seating(SeatingProblem(players=ids(64), rounds=6, tables=8))
    refs = [f"r{j}" for j in range(9)]
    grades = {r: 1.0 for r in refs} | {"r8": 5.0}
    importance = [[10.0] + [0.0] * 7 for _ in range(6)]
    plan = assign_referees(draw, refs, grades=grades, importance=importance, seed=1)
    assert sum(rnd[0] == "r8" for rnd in plan.rounds) >= 5


def test_a_table_every_referee_conflicts_with_is_named() -> None:
    layout = Layout((Round((("a", "b"), ("c", "d"))), Round((("a", "c"), ("b", "d")))))
    conflicts = {("x", "b"), ("y", "c"), ("x", "x0")}
    with pytest.raises(DrawConstraintError) as info:
        assign_referees(layout, ["x", "y"], conflicts | {("y", "d"), ("x", "d")})
    assert info.value.constraint == "referee_conflict"
    assert str(info.value) == (
        "round 1, table 2: every referee has a conflict there (x, y with d, c respectively)"
    )
    assert info.value.code == "referees.all_conflict"
    assert info.value.params == {
        "variant": "several",
        "round": 1,
        "table": 2,
        "referees": ["x", "y"],
        "names": ["d", "c"],
    }


def test_conflicts_that_leave_no_matching_are_named() -> None:
    layout = Layout((Round((("a", "b"), ("c", "d"), ("e", "f"))),))
    # tables 1 and 2 can only have y
    conflicts = {("x", "a"), ("x", "c"), ("z", "b"), ("z", "d"), ("y", "e")}
    with pytest.raises(DrawConstraintError) as info:
        assign_referees(layout, ["x", "y", "z"], conflicts)
    assert info.value.round == 1 and info.value.constraint == "referee_conflict"
    assert "round 1: conflicts leave tables" in str(info.value)


def test_no_matching_error_carries_its_tables_and_referees() -> None:
    layout = Layout((Round((("a", "b"), ("c", "d"), ("e", "f"))),))
    conflicts = {("x", "a"), ("x", "c"), ("z", "b"), ("z", "d"), ("y", "e")}
    with pytest.raises(DrawConstraintError) as info:
        assign_referees(layout, ["x", "y", "z"], conflicts)
    assert info.value.code == "referees.stuck"
    assert info.value.params == {
        "round": 1,
        "table_numbers": [2],
        "tables": 3,
        "referees": ["x", "y", "z"],
    }
    assert str(info.value) == (
        "round 1: conflicts leave tables [2] without a referee; the 3 tables can only share "
        "referees x, y, z"
    )


def test_a_lone_referee_in_conflict_is_named_with_the_player() -> None:
    layout = Layout((Round((("a", "b"),)),))
    with pytest.raises(DrawConstraintError) as info:
        assign_referees(layout, ["x"], {("x", "b")})
    assert info.value.params == {"round": 1, "table": 1, "referees": ["x"], "names": ["b"]}
    assert str(info.value) == "round 1, table 1: every referee has a conflict there (x with b)"


def test_plan_warnings_are_messages_with_their_numbers() -> None:
    layout = Layout(tuple(Round((("a", "b"),)) for _ in range(4)))
    plan = assign_referees(layout, ["x", "y"], fixed=[["x"], ["x"], ["x"]])
    m = plan.metrics
    assert plan.warnings == (
        Message("referees.repeats", {"count": m.repeats, "bound": m.repeats_bound}),
        Message("referees.loads", {"lo": m.load_min, "hi": m.load_max}),
    )
    assert (m.repeats, m.repeats_bound, m.load_min, m.load_max) == (6, 4, 1, 3)
    assert [str(w) for w in plan.warnings] == [
        "players meet the same referee 6 extra times; the lower bound is 4",
        "referee loads range from 1 to 3 tables",
    ]


def test_malformed_referee_requests_list_their_problems_as_codes() -> None:
    layout = Layout((Round((("a",), ("b",))),))
    with pytest.raises(SeatingProblemError) as info:
        assign_referees(layout, ["x", "x"], {("nobody", "a"), ("ghost", "b")})
    assert [(p.code, p.params) for p in info.value.problems] == [
        ("referees.not_unique", {}),
        ("referees.conflict_unknown", {"referee": "ghost"}),
        ("referees.conflict_unknown", {"referee": "nobody"}),
    ]
    assert str(info.value) == (
        "referee ids are not unique; conflict names unknown referee ghost; "
        "conflict names unknown referee nobody"
    )
    with pytest.raises(SeatingProblemError) as fixed:
        assign_referees(layout, ["x", "y"], fixed=[["x", "q"]])
    assert fixed.value.problems == (
        Message("referees.fixed_unknown", {"round": 1, "referees": ["q"]}),
    )
    assert str(fixed.value) == "fixed round 1 names unknown referees q"
    assert str(fixed.value) == render(fixed.value.code, fixed.value.params)


def test_too_few_referees() -> None:
    layout = Layout((Round((("a",), ("b",), ("c",))),))
    with pytest.raises(DrawConstraintError, match="round 1: 3 tables but only 2 referees") as info:
        assign_referees(layout, ["x", "y"])
    assert info.value.constraint == "referee_count" and info.value.code == "referees.too_few"
    assert info.value.params == {"round": 1, "tables": 3, "count": 2}


def test_bad_input_is_rejected() -> None:
    layout = Layout((Round((("a",),)),))
    with pytest.raises(SeatingProblemError):
        assign_referees(layout, [])
    with pytest.raises(SeatingProblemError, match="unknown referee"):
        assign_referees(layout, ["x"], {("nobody", "a")})
    with pytest.raises(SeatingProblemError):
        RefereeOptions(sweeps=-1)


def test_bound_counts_rounds_and_players() -> None:
    rounds = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]]]
    # players: each plays 3 rounds under 2 referees, so 4 repeats at least; rounds: both
    # referees judge every round and any two tables of different rounds share a player,
    # so each referee repeats 3 times: 6, which the assignment reaches
    assert referee_repeats_bound(rounds, 4, [2, 2, 2, 2], referees=2) == 6
    layout = Layout(tuple(Round(tuple(tuple(str(p) for p in t) for t in r)) for r in rounds))
    assert assign_referees(layout, ["x", "y"]).metrics.repeats == 6


def _plan_repeats(rounds: Sequence[Sequence[Sequence[Any]]], plan: Sequence[Sequence[Any]]) -> int:
    """Referee repeats of one plan: Σ over (player, referee) of C(times together, 2)."""
    seen: Counter[tuple[Any, Any]] = Counter()
    for rnd, sigma in zip(rounds, plan, strict=True):
        for table, ref in zip(rnd, sigma, strict=True):
            for p in table:
                seen[p, ref] += 1
    return sum(c * (c - 1) // 2 for c in seen.values())


def _best_assignment(rounds: list[list[list[int]]], m: int) -> int:
    """The least referee repeats over every assignment (m referees, m tables a round;
    the first round's referees fixed, as renaming them changes nothing)."""
    perms = list(itertools.permutations(range(m)))
    return min(
        _plan_repeats(rounds, [tuple(range(m)), *choice])
        for choice in itertools.product(perms, repeat=len(rounds) - 1)
    )


def _pair_bound(rounds: list[list[list[int]]], m: int) -> int:
    """The round-pairs bound alone: the cheapest matching of every two rounds."""
    total = 0
    for a, b in itertools.combinations(rounds, 2):
        total += min(
            sum(len(set(a[i]) & set(b[j])) for i, j in enumerate(sigma))
            for sigma in itertools.permutations(range(m))
        )
    return total


def test_subsets_of_rounds_bound_is_valid_and_beats_round_pairs() -> None:
    rng = random.Random(5)
    stronger = 0
    for _ in range(12):
        players = list(range(9))
        rounds = []
        for _ in range(4):
            rng.shuffle(players)
            rounds.append([sorted(players[0:3]), sorted(players[3:6]), sorted(players[6:9])])
        bound = referee_repeats_bound(rounds, 9, [3] * 9, referees=3)
        optimum = _best_assignment(rounds, 3)
        pairs = _pair_bound(rounds, 3)
        assert pairs <= bound <= optimum
        stronger += bound > max(pairs, 9 * 1)  # 4 rounds under 3 referees: 1 each
    assert stronger  # the subsets see what the pairs cannot, at least sometimes


def test_progress_and_time_limit() -> None:
    import time

    draw = draw_seating(SeatingProblem(players=ids(130), rounds=10, tables=10))
    seen: list[float] = []
    started = time.perf_counter()
    plan = assign_referees(
        draw, [f"r{j}" for j in range(10)], seed=1, time_limit=1.0, progress=seen.append
    )
    assert time.perf_counter() - started < 1.0
    assert seen and seen == sorted(seen) and 0 < seen[-1] <= 1
    assert plan.metrics.repeats >= plan.metrics.repeats_bound


def _best_with_conflicts(
    rounds: list[list[list[str]]], refs: list[str], conflicts: set[tuple[str, str]]
) -> int | None:
    """The least repeats over every plan (any referees, conflicts forbidden); None if
    the conflicts leave some table without a referee."""
    options = []
    for rnd in rounds:
        here = [
            sigma
            for sigma in itertools.permutations(refs, len(rnd))
            if all(
                (ref, p) not in conflicts
                for table, ref in zip(rnd, sigma, strict=True)
                for p in table
            )
        ]
        if not here:
            return None
        options.append(here)
    return min(_plan_repeats(rounds, plan) for plan in itertools.product(*options))


def test_bound_with_conflicts_never_exceeds_the_optimum() -> None:
    # every player conflicts with one referee, so no player has all of them: the bound
    # must still count every referee (some may sit a round out)
    rng = random.Random(11)
    refs = ["x", "y", "z"]
    checked = 0
    for case in range(100):
        n = rng.choice([4, 5, 6])
        players = [f"p{i}" for i in range(n)]
        rounds = []
        for _ in range(rng.choice([3, 4])):
            rng.shuffle(players)
            cut = n // 2
            rounds.append([sorted(players[:cut]), sorted(players[cut:])])
        conflicts = {(rng.choice(refs), p) for p in players}
        optimum = _best_with_conflicts(rounds, refs, conflicts)
        if optimum is None:
            continue
        layout = Layout(tuple(Round(tuple(tuple(t) for t in r)) for r in rounds))
        metrics = assign_referees(layout, refs, conflicts, seed=case).metrics
        assert metrics.repeats_bound <= optimum <= metrics.repeats, (rounds, conflicts)
        checked += 1
    assert checked > 25


def test_bound_counts_the_referee_who_sits_out() -> None:
    # 6 players, 3 referees, 2 tables a round: each player refuses one referee, so no
    # player may have all three, but all three referees are there (one rests each round).
    # The best plan repeats 6 times; a bound that counted only two referees said 8.
    rounds = [
        [["p0", "p4", "p5"], ["p1", "p2", "p3"]],
        [["p0", "p3", "p5"], ["p1", "p2", "p4"]],
        [["p1", "p3", "p4"], ["p0", "p2", "p5"]],
    ]
    conflicts = {("x", "p3"), ("y", "p0"), ("y", "p5"), ("z", "p1"), ("z", "p2"), ("z", "p4")}
    assert _best_with_conflicts(rounds, ["x", "y", "z"], conflicts) == 6
    layout = Layout(tuple(Round(tuple(tuple(t) for t in r)) for r in rounds))
    metrics = assign_referees(layout, ["x", "y", "z"], conflicts, seed=1).metrics
    assert metrics.repeats == 6
    assert metrics.repeats_bound <= 6


def test_bound_over_subsets_of_many_rounds_stays_cheap() -> None:
    # subsets of 5 of 40 rounds would take seconds; the effort picks fewer rounds a
    # subset, by count, not by the clock
    import time

    rng = random.Random(3)
    players = ids(8)
    rounds = []
    for _ in range(40):
        rng.shuffle(players)
        rounds.append(Round((tuple(sorted(players[:4])), tuple(sorted(players[4:])))))
    started = time.process_time()
    plan = assign_referees(Layout(tuple(rounds)), ["x", "y"], time_limit=0.5)
    assert time.process_time() - started < 1.5
    assert plan.metrics.repeats >= plan.metrics.repeats_bound > 0
