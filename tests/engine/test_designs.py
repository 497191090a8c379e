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
    fit_design,
    pad_runs,
    prime_power,
    punctured_affine_plane,
    select_columns,
)

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
def test_difference_scheme_rows_and_columns_differ_evenly(q: int) -> None:
    f = GaloisField(q)
    d = difference_scheme(q)
    for m in (d, d.T):
        for i, j in itertools.combinations(range(2 * q), 2):
            diff = f.sub(m[:, i], m[:, j])
            assert (np.bincount(diff, minlength=q) == 2).all()


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


def test_pad_runs_adds_one_player_per_table_at_most() -> None:
    base = select_columns(punctured_affine_plane(11, 1), 10)
    padded = pad_runs(base, 10, 130)
    assert padded.shape == (130, 10)
    for col in padded.T:
        assert (np.bincount(col, minlength=10) == 13).all()
    with pytest.raises(ValueError):
        pad_runs(base, 10, 131)
