"""Seat numbers: nobody holds one seat number more than ceil(rounds / table size)."""

from __future__ import annotations

import random

import numpy as np

from engine.seating.seats import assign_seats


def test_worst_case_history_is_repaired() -> None:
    # the same 8 players together every round, 8 rounds: each must take every seat once
    rounds = [[list(range(8))] for _ in range(8)]
    ordered = assign_seats(8, rounds, fixed=0, cap=1)
    counts = np.zeros((8, 8), dtype=int)
    for rnd in ordered:
        for table in rnd:
            counts[table, np.arange(len(table))] += 1
    assert counts.max() == 1


def test_mixed_sizes_random_tables_reach_the_cap() -> None:
    rng = random.Random(3)
    n, r = 90, 8
    rounds = []
    for _ in range(r):
        order = list(range(n))
        rng.shuffle(order)
        sizes = [9, 9] + [8] * 9
        at, rnd = 0, []
        for s in sizes:
            rnd.append(order[at : at + s])
            at += s
        rounds.append(rnd)
    ordered = assign_seats(n, rounds, fixed=0, cap=1, seed=1)
    counts = np.zeros((n, 9), dtype=int)
    for rnd, before in zip(ordered, rounds, strict=True):
        assert [sorted(t) for t in rnd] == [sorted(t) for t in before]
        for table in rnd:
            counts[table, np.arange(len(table))] += 1
    assert counts.max() == 1


def test_fixed_rounds_keep_their_seat_order() -> None:
    rounds = [[[3, 2, 1, 0]], [[0, 1, 2, 3]], [[0, 1, 2, 3]]]
    ordered = assign_seats(4, rounds, fixed=1, cap=1)
    assert ordered[0] == [[3, 2, 1, 0]]
    assert all(sorted(t) == [0, 1, 2, 3] for rnd in ordered for t in rnd)
