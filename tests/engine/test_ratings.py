"""Tests for engine.ratings: the Rater contract of spec §4 and the replayable history."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.ratings import (
    Rater,
    RaterOptions,
    RatingHistory,
    RatingInputError,
)

CLASSIC = {8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 4, 16: 4}


def table(players: list[str]) -> list[tuple[str, str]]:
    """Classic roles for the given players: killers first, then police, then civilians."""
    k = CLASSIC[len(players)]
    roles = ["killer"] * k + ["police"] * k + ["civilian"] * (len(players) - 2 * k)
    return list(zip(players, roles, strict=True))


def league(seed: int, games: int, pool: int = 30) -> list[tuple[list[tuple[str, str]], str]]:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(pool)]
    out = []
    for _ in range(games):
        seats = table(rng.sample(names, rng.randint(8, 16)))
        out.append((seats, rng.choice(["good", "good", "killers", "draw"])))
    return out


def snapshot(rater: Rater) -> dict[str, tuple[float, float]]:
    return {p: (rater.rating(p), rater.uncertainty(p)) for p in rater.players()}


SEATS = table([f"p{i}" for i in range(12)])


def test_contract_example() -> None:
    rater = Rater()
    seats = [("li-wei", "civilian"), ("chen-jie", "police"), ("wang-fang", "killer")]
    seats += [(f"x{i}", "civilian") for i in range(5)]
    p = rater.predict(seats)
    assert 0.0 < p < 1.0
    rater.update(seats, winner="good")
    assert rater.rating("li-wei") > 1500.0
    assert rater.rating("wang-fang") < 1500.0
    assert rater.uncertainty("li-wei") > 0.0


def test_deterministic() -> None:
    games = league(1, 300)
    a, b = Rater.replay(games), Rater.replay(games)
    assert snapshot(a) == snapshot(b)
    assert a.predict(SEATS) == b.predict(SEATS)


def test_unknown_players_start_at_prior_and_predict_does_not_learn() -> None:
    rater = Rater.replay(league(2, 50))
    assert rater.rating("nobody") == 1500.0
    assert rater.uncertainty("nobody") == Rater().uncertainty("anyone")
    strangers = table([f"new{i}" for i in range(10)])
    before = rater.state()
    assert 0.0 < rater.predict(strangers) < 1.0
    assert rater.state() == before
    assert "new0" not in rater.players()


def test_win_raises_and_loss_lowers() -> None:
    rater = Rater()
    rater.update(SEATS, "killers")
    for pid, role in SEATS:
        if role == "killer":
            assert rater.rating(pid) > 1500.0
            assert rater.rating(pid, role) > rater.rating(pid)
        else:
            assert rater.rating(pid) < 1500.0


def test_draw_is_half() -> None:
    rater = Rater()
    p = rater.predict(SEATS)
    rater.update(SEATS, "draw")
    # A draw is good news for the side that was expected to lose.
    good_moved = rater.rating("p11") - 1500.0
    assert (good_moved > 0) == (p < 0.5)
    # Between a win and a loss.
    win, loss = Rater(), Rater()
    win.update(SEATS, "good")
    loss.update(SEATS, "killers")
    assert loss.rating("p11") < rater.rating("p11") < win.rating("p11")


def test_stronger_good_side_is_favoured() -> None:
    rater = Rater()
    strong = [f"s{i}" for i in range(9)]
    for _ in range(20):  # the s-players beat the w-players as either side
        rater.update(table([*strong[:3], *[f"w{i}" for i in range(9)]][:12]), "killers")
        rater.update(table([*[f"w{i}" for i in range(3)], *strong]), "good")
    good_strong = table([*[f"w{i}" for i in range(3)], *strong])
    good_weak = table([*strong[:3], *[f"w{i}" for i in range(3, 12)]])
    assert rater.predict(good_strong) > rater.predict(good_weak)
    assert rater.rating("s0") > 1500.0 > rater.rating("w0")


def test_uncertainty_shrinks_with_games() -> None:
    rater = Rater()
    seen = [rater.uncertainty("p0")]
    for seats, winner in league(3, 200, pool=16):
        rater.update(seats, winner)
        seen.append(rater.uncertainty("p0"))
    assert seen[-1] < seen[0] * 0.8
    assert rater.uncertainty("p0", "police") >= rater.uncertainty("p0")


def test_side_bias_is_learned_per_table() -> None:
    rater = Rater()
    for seats, _ in league(4, 400):
        rater.update(seats, "good" if len(seats) <= 12 else "killers")
    assert rater.side_bias(9, 2) > 0.5
    assert rater.side_bias(15, 4) < -0.5


@pytest.mark.parametrize(
    ("seats", "winner", "message"),
    [
        (SEATS, "police", "unknown winner 'police'"),
        ([*SEATS[:-1], ("p11", "doctor")], "good", "player 'p11': unknown role 'doctor'"),
        (table([f"p{i}" for i in range(8)])[2:], "good", "got 0 killer(s)"),
        ([("a", "killer"), ("b", "killer")], "good", "0 good player(s)"),
        ([*SEATS[:-1], ("p0", "civilian")], "good", "player 'p0' sits at the table twice"),
    ],
)
def test_bad_input(seats: list[tuple[str, str]], winner: str, message: str) -> None:
    rater = Rater.replay(league(5, 20))
    before = rater.state()
    with pytest.raises(RatingInputError, match=re.escape(message)) as err:
        rater.update(seats, winner)
    assert isinstance(err.value, EngineError)
    assert isinstance(err.value, ValueError)
    assert rater.state() == before  # a rejected game leaves no trace


def test_options_reject_unknown_and_bad_values() -> None:
    assert RaterOptions.from_mapping({"skill_sd": 0.8}).skill_sd == 0.8
    with pytest.raises(EngineError, match="unknown rater option"):
        RaterOptions.from_mapping({"k_factor": 32})
    with pytest.raises(EngineError, match="must be positive"):
        RaterOptions(role_sd=0.0)


def test_state_round_trip() -> None:
    games = league(6, 120)
    first = Rater.replay(games[:60])
    resumed = Rater.from_state(first.state())
    for seats, winner in games[60:]:
        resumed.update(seats, winner)
    assert snapshot(resumed) == snapshot(Rater.replay(games))


@pytest.mark.parametrize("every", [1, 7, 256])
def test_history_correction_equals_fresh_replay(every: int) -> None:
    games = league(7, 150)
    history = RatingHistory(checkpoint_every=every)
    for seats, winner in games:
        history.append(seats, winner)
    corrected = list(games)
    corrected[40] = (corrected[40][0], "killers" if games[40][1] != "killers" else "good")
    history.replace(40, *corrected[40])
    fresh = RatingHistory(checkpoint_every=3)
    for seats, winner in corrected:
        fresh.append(seats, winner)
    assert snapshot(history.rater) == snapshot(Rater.replay(corrected))
    for pid in history.rater.players():
        assert history.trajectory(pid) == fresh.trajectory(pid)
    assert [history.prediction(i) for i in range(150)] == [fresh.prediction(i) for i in range(150)]

    history.remove(0)
    assert snapshot(history.rater) == snapshot(Rater.replay(corrected[1:]))
    assert history.trajectory("p0")[0].game >= 0

    history.insert(10, SEATS, "draw")
    expected = [*corrected[1:11], (SEATS, "draw"), *corrected[11:]]
    assert snapshot(history.rater) == snapshot(Rater.replay(expected))
    assert len(history) == 150


def test_history_trajectory_and_rater_before() -> None:
    games = league(8, 60)
    history = RatingHistory(checkpoint_every=16)
    for seats, winner in games:
        history.append(seats, winner)
    points = history.trajectory("p3")
    played = [i for i, (seats, _) in enumerate(games) if any(p == "p3" for p, _ in seats)]
    assert [pt.game for pt in points] == played
    last = played[-1]
    before = history.rater_before(last + 1)
    assert points[-1].rating == before.rating("p3")
    assert points[-1].uncertainty == before.uncertainty("p3")
    assert history.trajectory("nobody") == []


def test_history_rejects_bad_correction_untouched() -> None:
    history = RatingHistory()
    for seats, winner in league(9, 10):
        history.append(seats, winner)
    before = history.rater.state()
    with pytest.raises(RatingInputError):
        history.replace(3, SEATS, "nobody")
    with pytest.raises(RatingInputError, match="no game 10"):
        history.remove(10)
    assert history.rater.state() == before and len(history) == 10


seat_lists = st.integers(8, 16).flatmap(
    lambda n: st.permutations([f"q{i}" for i in range(24)]).map(lambda ps: table(ps[:n]))
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(seat_lists, st.sampled_from(["good", "killers", "draw"])), max_size=30),
    seat_lists,
)
def test_property_predict_in_open_interval_and_finite(
    games: list[tuple[list[tuple[str, str]], str]], probe: list[tuple[str, str]]
) -> None:
    rater = Rater.replay(games)
    p = rater.predict(probe)
    assert 0.0 < p < 1.0
    for pid in rater.players():
        assert rater.uncertainty(pid) > 0.0
        assert 0.0 < rater.uncertainty(pid) <= Rater().uncertainty(pid) + 1.0


@settings(max_examples=60, deadline=None)
@given(seat_lists, st.sampled_from(["good", "killers"]))
def test_property_winners_gain_losers_lose(seats: list[tuple[str, str]], winner: str) -> None:
    rater = Rater.replay(league(10, 30, pool=24))
    before = {pid: rater.rating(pid) for pid, _ in seats}
    rater.update(seats, winner)
    for pid, role in seats:
        won = (role == "killer") == (winner == "killers")
        assert (rater.rating(pid) > before[pid]) == won


def test_tables_without_police_are_rated() -> None:
    rater = Rater()
    seats = [("a", "killer"), ("b", "killer"), *[(f"c{i}", "civilian") for i in range(5)]]
    rater.update(seats, "good")
    assert rater.rating("c0") > 1500.0 > rater.rating("a")
    assert rater.police_share == RaterOptions().police_share


def test_police_share_is_learned() -> None:
    """When the better police always win, the police are given more of the good side's weight."""
    rater = Rater()
    rng = random.Random(11)
    names = [f"p{i}" for i in range(40)]
    for _ in range(3000):
        seats = table(rng.sample(names, 12))
        police = [int(pid[1:]) for pid, role in seats if role == "police"]
        killers = [int(pid[1:]) for pid, role in seats if role == "killer"]
        rater.update(seats, "good" if sum(police) > sum(killers) else "killers")
    assert rater.police_share > RaterOptions().police_share + 0.1


def test_rating_is_the_average_over_roles() -> None:
    rater = Rater.replay(league(12, 200))
    by_role = [rater.rating("p1", role) for role in ("killer", "police", "civilian")]
    assert rater.rating("p1") == pytest.approx(sum(by_role) / 3)
    assert rater.uncertainty("p1") < min(rater.uncertainty("p1", r) for r in ("killer", "police"))
    with pytest.raises(RatingInputError, match="unknown role 'judge'"):
        rater.rating("p1", "judge")


def test_player_seated_twice_is_caught_for_newcomers_and_in_predict() -> None:
    rater = Rater.replay(league(13, 20))
    newcomers = [*table([f"n{i}" for i in range(12)])[:-1], ("n0", "civilian")]
    known = [*SEATS[:-1], ("p3", "civilian")]
    for seats in (newcomers, known):
        before = rater.state()
        with pytest.raises(RatingInputError, match="sits at the table twice"):
            rater.predict(seats)
        with pytest.raises(RatingInputError, match="sits at the table twice"):
            rater.update(seats, "good")
        assert rater.state() == before
    rater.update(SEATS, "good")  # the stamps left by the rejected games do no harm
    rater.update(SEATS, "killers")
