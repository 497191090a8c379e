"""Finite fields, affine geometry and orthogonal arrays behind the seating draws."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine.seating.designs import (
    GaloisField,
    affine_plane,
    affine_space,
    array_repeats,
    delete_runs,
    difference_scheme,
    difference_scheme_array,
    difference_scheme_orders,
    disjoint_pads,
    fit_design,
    pad_runs,
    prime_power,
    puncture_multipliers,
    punctured_affine_plane,
    quadratic_array,
    select_columns,
    swap_runs,
)
from engine.seating.metrics import meeting_matrix, spread

ORDERS = (2, 3, 4, 5, 7, 8, 9, 11, 13, 16)


def test_prime_power() -> None:
    assert prime_power(16) == (2, 4)
    assert prime_power(9) == (3, 2)
    assert prime_power(11) == (11, 1)
    assert prime_power(12) is None
    assert prime_power(1) is None
    with pytest.raises(ValueError):
        GaloisField(6)


@pytest.mark.parametrize("q", ORDERS)
def test_field_axioms(q: int) -> None:
    f = GaloisField(q)
    x = np.arange(q)
    a, b, c = x[:, None, None], x[None, :, None], x[None, None, :]
    assert (f.add == f.add.T).all() and (f.mul == f.mul.T).all()
    assert (f.add[f.add[a, b], c] == f.add[a, f.add[b, c]]).all()
    assert (f.mul[f.mul[a, b], c] == f.mul[a, f.mul[b, c]]).all()
    assert (f.mul[a, f.add[b, c]] == f.add[f.mul[a, b], f.mul[a, c]]).all()
    assert (f.add[0] == x).all() and (f.mul[1] == x).all()
    assert (f.add[x, f.neg[x]] == 0).all()
    assert (f.mul[x[1:], f.inv[x[1:]]] == 1).all()
    # no zero divisors: every nonzero row of the multiplication table is a permutation
    for v in range(1, q):
        assert sorted(f.mul[v, 1:]) == list(range(1, q))


def _pair_counts(array: np.ndarray) -> np.ndarray:
    runs = array.shape[0]
    return (array[:, None, :] == array[None, :, :]).sum(axis=2)[np.triu_indices(runs, 1)]


@pytest.mark.parametrize("q", ORDERS)
def test_affine_plane_every_pair_once(q: int) -> None:
    plane = affine_plane(q)
    assert plane.array.shape == (q * q, q + 1)
    for col in plane.array.T:
        assert (np.bincount(col, minlength=q) == q).all()
    assert (_pair_counts(plane.array) == 1).all()


@pytest.mark.parametrize("q", (2, 3, 4))
def test_affine_space_is_orthogonal_array_of_index_q(q: int) -> None:
    space = affine_space(q)
    assert space.array.shape == (q**3, q * q + q + 1)
    for i, j in itertools.combinations(range(space.columns), 2):
        cells = np.bincount(space.array[:, i] * q + space.array[:, j], minlength=q * q)
        assert (cells == q).all()


@pytest.mark.parametrize("q", difference_scheme_orders())
def test_difference_scheme_array_is_orthogonal_with_two_meetings(q: int) -> None:
    oa = difference_scheme_array(q)
    assert oa.array.shape == (2 * q * q, 2 * q)
    for i, j in itertools.combinations(range(oa.columns), 2):
        cells = np.bincount(oa.array[:, i] * q + oa.array[:, j], minlength=q * q)
        assert (cells == 2).all()
    assert _pair_counts(oa.array).max() == 2


@pytest.mark.parametrize("q", difference_scheme_orders())
def test_extended_difference_scheme_array_stays_orthogonal_with_three_meetings(q: int) -> None:
    oa = difference_scheme_array(q, extended=True)
    assert oa.array.shape == (2 * q * q, 2 * q + 1)
    assert oa.name == f"orthogonal array OA({2 * q * q},{2 * q + 1},{q},2)"
    for i, j in itertools.combinations(range(oa.columns), 2):
        cells = np.bincount(oa.array[:, i] * q + oa.array[:, j], minlength=q * q)
        assert (cells == 2).all()
    meetings = _pair_counts(oa.array)
    assert meetings.max() == 3
    # the runs of two paired rows (2q runs) meet three times: q² pairs per row pair
    assert int((meetings == 3).sum()) == q * q * q


@pytest.mark.parametrize("q", difference_scheme_orders())
def test_difference_scheme_rows_and_columns_differ_evenly(q: int) -> None:
    f = GaloisField(q)
    d = difference_scheme(q)
    for m in (d, d.T):
        for i, j in itertools.combinations(range(2 * q), 2):
            diff = f.sub(m[:, i], m[:, j])
            assert (np.bincount(diff, minlength=q) == 2).all()


def _excess(array: np.ndarray) -> int:
    """Σ over pairs of the squared meetings beyond two (what pad_runs removes first)."""
    return int((np.maximum(_pair_counts(array) - 2, 0) ** 2).sum())


def test_fit_design_truncates_oa_128_to_the_bound_for_100_players() -> None:
    array = fit_design(difference_scheme_array(8), 7, 100, seed=1)
    assert array.shape == (100, 7)
    for col in array.T:
        assert sorted(set(np.bincount(col, minlength=8))) == [12, 13]
    # 64 cells per pair of rounds, 100 players: 36 pairs meet twice, 21 pairs of rounds
    assert array_repeats(array, 8) == 21 * 36


def test_punctured_plane_reaches_round_pair_bound() -> None:
    design = punctured_affine_plane(11, 1)
    array = select_columns(design, 10)
    assert array.shape == (120, 10)
    for col in array.T:
        assert (np.bincount(col, minlength=10) == 12).all()
    # 45 round pairs × 10 tables × one pair meeting twice (12 players into 10 tables)
    assert array_repeats(array, 10) == 900
    assert _pair_counts(array).max() == 2


def test_delete_runs_keeps_tables_even_and_overlaps_spread() -> None:
    array = delete_runs(difference_scheme_array(5).array[:, :7], 5, 47)
    assert array.shape == (47, 7)
    for col in array.T:
        assert sorted(np.bincount(col, minlength=5)) == [9, 9, 9, 10, 10]
    assert array_repeats(array, 5) == 462  # the round-pairs bound for 47 at 5 tables


def test_pad_runs_adds_one_player_per_table_when_that_is_enough() -> None:
    base = select_columns(punctured_affine_plane(11, 1), 10)
    padded = pad_runs(base, 10, 130, seed=1)
    assert padded.shape == (130, 10)
    assert (padded[:120] == base).all()  # the design itself is kept
    for col in padded.T:
        assert (np.bincount(col, minlength=10) == 13).all()
    # the local search beats the column-by-column assignment it starts from on meetings
    # beyond two (R may rise a little for it)
    start = pad_runs(base, 10, 130, moves=0, search=False)
    assert _excess(padded) < _excess(start)
    with pytest.raises(ValueError):
        pad_runs(base, 10, 241)


def test_disjoint_pads_on_the_punctured_plane_of_eleven_reach_1370_at_max_lambda_two() -> None:
    base = select_columns(punctured_affine_plane(11, puncture_multipliers(11)), 10)
    extras = disjoint_pads(base, 10, 10)
    assert extras is not None
    full = np.vstack([base, extras])
    for col in full.T:
        assert (np.bincount(col, minlength=10) == 13).all()
    lam = meeting_matrix(130, [[list(np.flatnonzero(c == j)) for j in range(10)] for c in full.T])
    assert lam.max() == 2
    assert array_repeats(full, 10) == 1370  # bound 1,350: each extra costs 47, not 45
    # pad_runs keeps it: the local search alone leaves pairs meeting three times
    assert (pad_runs(base, 10, 130, seed=1) == full).all()


def test_disjoint_pads_least_cost_matches_brute_force() -> None:
    design = punctured_affine_plane(5, puncture_multipliers(5))  # 24 runs, 4 tables
    outcomes = set()
    for cols, cap in [(3, 2), (4, 2), (5, 2), (5, 3)]:
        base = select_columns(design, cols)
        costs = []
        for vec in itertools.product(range(4), repeat=cols):
            agree = (base == np.array(vec)).sum(axis=1)
            if agree.max() <= cap:
                costs.append(int((agree * (agree - 1) // 2).sum()))
        extras = disjoint_pads(base, 4, 1, cap=cap)
        outcomes.add(extras is None)
        if not costs:
            assert extras is None
            continue
        assert extras is not None
        agree = (base == extras[0]).sum(axis=1)
        assert agree.max() <= cap
        assert int((agree * (agree - 1) // 2).sum()) == min(costs)
    assert outcomes == {True, False}  # both kinds of case were met
    # an orthogonal array gives every extra the same cost: left to pad_runs' search
    assert disjoint_pads(affine_plane(5).array[:, :5], 5, 1) is None
    padded = pad_runs(affine_plane(5).array[:, :5], 5, 30)
    assert padded.shape == (30, 5)


def test_pad_runs_extras_beyond_one_per_table_follow_a_copy_of_the_design() -> None:
    base = affine_plane(7).array[:, :5]
    start = pad_runs(base, 7, 70, moves=0)
    # a truncated copy of a plane: the extras never meet twice, and an index-one
    # design costs the same wherever they sit, so the start is at the round-pairs bound
    assert array_repeats(start, 7) == 10 * spread(70, 49)
    padded = pad_runs(base, 7, 70, seed=1)
    assert padded.shape == (70, 5)
    assert (padded[:49] == base).all()
    for col in padded.T:
        assert (np.bincount(col, minlength=7) == 10).all()
    assert _excess(padded) < _excess(start)


def test_pad_runs_same_seed_same_extras() -> None:
    base = affine_plane(7).array[:, :8]
    first = pad_runs(base, 7, 60, seed=3, search=False)
    assert (pad_runs(base, 7, 60, seed=3, search=False) == first).all()
    assert (pad_runs(base, 7, 60, seed=4, search=False) != first).any()
    assert (first[:49] == base).all()


@pytest.mark.parametrize("q", (4, 5, 7, 8, 9, 11, 13, 16, 17))
def test_puncture_multipliers_make_every_punctured_plane_even(q: int) -> None:
    design = punctured_affine_plane(q, puncture_multipliers(q))
    assert design.array.shape == (q * q - 1, q)
    # every pair of its q rounds: q² − 1 players over (q − 1)² table pairs, evenly
    assert array_repeats(design.array, q - 1) == q * (q - 1) // 2 * spread(q * q - 1, (q - 1) ** 2)
    assert _pair_counts(design.array).max() == 2


def test_one_multiplier_leaves_uneven_rounds_when_minus_one_is_a_square() -> None:
    design = punctured_affine_plane(13, 1)
    assert array_repeats(design.array, 12) > 78 * spread(168, 144)


@pytest.mark.parametrize(("q", "rounds", "runs"), [(7, 7, 84), (9, 9, 99), (5, 5, 60), (4, 3, 64)])
def test_quadratic_array_reaches_the_round_pairs_bound_with_pairs_meeting_twice(
    q: int, rounds: int, runs: int
) -> None:
    design = quadratic_array(q, rounds, runs)
    array = design.array
    assert array.shape == (runs, rounds)
    for col in array.T:
        sizes = np.bincount(col, minlength=q)
        assert sizes.max() - sizes.min() <= 1
    assert array_repeats(array, q) == rounds * (rounds - 1) // 2 * spread(runs, q * q)
    assert _pair_counts(array).max() <= 2
    # its first q² runs are the affine plane: nobody meets twice
    assert _pair_counts(array[: min(runs, q * q)]).max() == 1
    with pytest.raises(ValueError):
        quadratic_array(q, q + 1, runs)


def test_select_columns_keeps_affine_space_pairs_meeting_at_most_three_times() -> None:
    design = affine_space(4)
    # the first nine directions include whole lines of PG(2,4): five agreements
    assert _pair_counts(design.array[:, :9]).max() == 5
    assert _pair_counts(select_columns(design, 9)).max() == 3


def test_swap_runs_lowers_repeats_and_keeps_tables_even() -> None:
    array = difference_scheme_array(5).array[:, :6]
    # keep the first 36 runs: whole rows of the difference scheme and one part row
    start = array_repeats(array[:36], 5)
    better = swap_runs(array, 5, 36)
    assert better.shape == (36, 6)
    for col in better.T:
        assert sorted(set(np.bincount(col, minlength=5))) == [7, 8]
    assert 15 * spread(36, 25) <= array_repeats(better, 5) < start


def test_delete_runs_drops_the_runs_that_repeat_most() -> None:
    # AG(2,8) less a point is not an orthogonal array: its runs repeat unequally, and
    # the best three to drop (by exhaustion over all of them) leave R = 350
    array = punctured_affine_plane(8, puncture_multipliers(8)).array
    agree = _pair_counts(array)
    cells = np.zeros((63, 63), dtype=np.int64)
    cells[np.triu_indices(63, 1)] = agree * (agree - 1) // 2
    cells += cells.T
    own = cells.sum(axis=1)
    i, j, k = np.array(list(itertools.combinations(range(63), 3))).T
    left = array_repeats(array, 7) - own[i] - own[j] - own[k] + cells[i, j] + cells[i, k]
    best = int((left + cells[j, k]).min())
    assert array_repeats(delete_runs(array, 7, 60), 7) == best == 350
