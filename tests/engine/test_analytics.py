"""engine.analytics: intervals against hand-computed values, figures of a small set of
games counted by hand, and properties of the intervals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.analytics import (
    Contribution,
    GameFacts,
    Proportion,
    SeatFact,
    contributions,
    facts_from_record,
    figures,
    head_to_head,
    mean_from_sums,
    mean_interval,
    referee_figures,
    role_rates,
    seat_rates,
    shown,
    side_rates,
    t_quantile,
    victim_shares,
    wilson,
)
from engine.record import parse_record
from engine.simulate import simulate_game


def close(pair: tuple[float, float] | None, low: float, high: float) -> bool:
    assert pair is not None
    return math.isclose(pair[0], low, abs_tol=5e-5) and math.isclose(pair[1], high, abs_tol=5e-5)


# --- hand-computed intervals ---------------------------------------------------------------
# Wilson: centre = (p + z²/2n) / (1 + z²/n), half = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n),
# z = 1.959964, z² = 3.841459.


def test_wilson_seven_of_ten() -> None:
    # p = 0.7, 1 + z²/n = 1.384146; centre = (0.7 + 0.192073) / 1.384146 = 0.644492;
    # half = 1.959964 · √(0.021 + 0.009604) / 1.384146 = 0.247721 → [0.3968, 0.8922]
    assert close(wilson(7, 10), 0.3968, 0.8922)


def test_wilson_at_the_ends() -> None:
    # 0/10: centre = 0.192073 / 1.384146 = 0.138767 = half → [0, 0.2775]
    assert close(wilson(0, 10), 0.0, 0.2775)
    # 10/10 mirrors it → [0.7225, 1]
    assert close(wilson(10, 10), 0.7225, 1.0)
    # 1/1: centre = (1 + 1.920730) / 4.841459 = 0.603255, half = 0.396745 → [0.2065, 1]
    assert close(wilson(1, 1), 0.2065, 1.0)
    assert wilson(0, 0) is None


def test_wilson_one_of_four() -> None:
    # p = 0.25, n = 4: 1 + z²/n = 1.960365; centre = (0.25 + 0.480182) / 1.960365 = 0.372472;
    # half = 1.959964 · √(0.046875 + 0.060023) / 1.960365 = 0.326886 → [0.0456, 0.6994]
    assert close(wilson(1, 4), 0.0456, 0.6994)


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


def test_t_quantiles_known_values() -> None:
    # tables of Student's t, two-sided 95 %
    assert math.isclose(t_quantile(1), 12.7062, abs_tol=1e-4)
    assert math.isclose(t_quantile(3), 3.1824, abs_tol=1e-4)
    assert math.isclose(t_quantile(9), 2.2622, abs_tol=1e-4)
    assert math.isclose(t_quantile(100000), 1.9600, abs_tol=1e-4)


def test_mean_interval_hand_values() -> None:
    # 3, 4, 5, 6: mean 4.5; s² = (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3, s/√n = 0.645497;
    # t(0.975, 3) = 3.182446 → half 2.054260 → [2.4457, 6.5543]
    m = mean_interval([3, 4, 5, 6])
    assert m.n == 4 and m.mean == 4.5
    assert m.low is not None and m.high is not None
    assert math.isclose(m.low, 2.4457, abs_tol=5e-5)
    assert math.isclose(m.high, 6.5543, abs_tol=5e-5)


def test_mean_interval_needs_two_values() -> None:
    assert mean_interval([]) == mean_interval([])
    assert mean_interval([]).mean is None
    one = mean_interval([7])
    assert (one.n, one.mean, one.low, one.high) == (1, 7, None, None)
    same = mean_interval([2, 2, 2])
    assert (same.low, same.high) == (2, 2)


# --- figures of a hand-made set --------------------------------------------------------------


def seats(roles: str, names: str = "abcdefgh") -> tuple[SeatFact, ...]:
    full = {"k": "killer", "p": "police", "c": "civilian"}
    return tuple(
        SeatFact(i, names[i - 1], full[r])  # type: ignore[arg-type]
        for i, r in enumerate(roles, 1)
    )


# Four classic games of 8 and one mainstream game of 8 (which can end drawn).
GAMES = [
    GameFacts("classic", seats("kkppcccc"), "good", night1_victim=3, rounds=3, bonuses=1,
              referee="r1", protests=1, protests_upheld=1),
    GameFacts("classic", seats("ppkkcccc"), "killers", night1_victim=1, rounds=2, penalties=2,
              referee="r1"),
    GameFacts("classic", seats("kpkpcccc"), "good", night1_victim=3, rounds=4, referee="r2",
              protests=2),
    GameFacts("classic", seats("ccccppkk"), "good", night1_victim=None, rounds=None,
              referee=None),
    GameFacts("mainstream", seats("kkppcccc"), "draw", night1_victim=5, rounds=5, bonuses=2,
              referee="r1"),
]  # fmt: skip


def test_side_rates_by_ruleset_and_size() -> None:
    rates = {(r.ruleset, r.size, r.side): r.rate for r in side_rates(GAMES)}
    # classic, 8 players: good won 3 of 4, killers 1 of 4; classic cannot draw: no row
    assert rates[("classic", 8, "good")] == Proportion(3, 4)
    assert rates[("classic", 8, "killers")] == Proportion(1, 4)
    assert ("classic", 8, "draw") not in rates
    # mainstream can draw: 1 of 1
    assert rates[("mainstream", 8, "draw")] == Proportion(1, 1)
    assert rates[("mainstream", 8, "good")] == Proportion(0, 1)
    # 3/4: Wilson [0.3006, 0.9544]
    assert close(rates[("classic", 8, "good")].interval, 0.3006, 0.9544)


def test_seat_rates() -> None:
    rates = {r.seat: r.rate for r in seat_rates(GAMES)}
    # seat 1: killer (good won: no), police (killers won: no), killer (good: no),
    # civilian (good: yes), killer (draw: no) → 1 of 5
    assert rates[1] == Proportion(1, 5)
    # seat 5: civilian in every game; good won games 1, 3, 4 → 3 of 5
    assert rates[5] == Proportion(3, 5)
    # seat 7: civilian, civilian, civilian, killer (good won: no), civilian (draw) → 2 of 5
    assert rates[7] == Proportion(2, 5)


def test_victim_shares() -> None:
    shares = {(v.size, v.seat): v.share for v in victim_shares(GAMES)}
    # four games of 8 with a night-1 kill: seat 3 twice, seats 1 and 5 once
    assert shares[(8, 3)] == Proportion(2, 4)
    assert shares[(8, 1)] == Proportion(1, 4)
    assert shares[(8, 8)] == Proportion(0, 4)
    assert len(shares) == 8
    assert sum(s.successes for s in shares.values()) == 4


def test_role_rates_of_one_player() -> None:
    rates = {r.role: r.rate for r in role_rates(GAMES, player="a")}
    # "a" sits in seat 1: killer in games 1, 3, 5 (won none), police in 2 (lost),
    # civilian in 4 (won)
    assert rates == {
        "killer": Proportion(0, 3),
        "police": Proportion(0, 1),
        "civilian": Proportion(1, 1),
    }
    everyone = role_rates(GAMES)
    assert {r.player for r in everyone} == set("abcdefgh")
    assert sum(r.rate.n for r in everyone) == 5 * 8


def test_head_to_head() -> None:
    # a (seat 1) and b (seat 2): same side in games 1, 2, 4, 5 (their side won game 4
    # only: 1 of 4), opposite sides in game 3 (a killer, good won: b's side) → 0 of 1
    h = head_to_head(GAMES, "a", "b")
    assert h.together == Proportion(1, 4) and h.against == Proportion(0, 1)
    assert h.b_wins == 1
    # a and c (seat 3): together in game 3 (both killers, lost) and 4 (civilians, won);
    # against in games 1 (c police, good won), 2 (c killer, killers won), 5 (drawn)
    h = head_to_head(GAMES, "a", "c")
    assert h.together == Proportion(1, 2)
    assert h.against == Proportion(0, 3)
    assert h.b_wins == 2
    assert head_to_head(GAMES, "a", "nobody").together.n == 0
    assert head_to_head(GAMES, "a", "a").together.n == 0


def test_referee_figures() -> None:
    refs = {r.referee: r for r in referee_figures(GAMES)}
    assert set(refs) == {"r1", "r2"}  # the game without a referee is left out
    r1 = refs["r1"]
    assert r1.games == 3
    # rounds 3, 2, 5: mean 10/3; s² = (0.1111 + 1.7778 + 2.7778) / 2 = 2.3333, s/√3 = 0.881917;
    # t(0.975, 2) = 4.302653 → half 3.794582 → [-0.4612, 7.1279], a count is never below 0:
    # [0, 7.1279]
    assert r1.rounds.mean is not None and math.isclose(r1.rounds.mean, 10 / 3)
    assert r1.rounds.low == 0.0
    assert r1.rounds.high is not None and math.isclose(r1.rounds.high, 7.1279, abs_tol=5e-5)
    assert r1.bonuses.mean == 1.0 and r1.penalties.mean == pytest.approx(2 / 3)
    assert r1.protests_upheld == Proportion(1, 1)
    r2 = refs["r2"]
    assert r2.games == 1 and r2.rounds.low is None  # one game: no interval
    assert r2.protests_upheld == Proportion(0, 2)


def test_figures_bundle() -> None:
    f = figures(GAMES)
    assert f.games == 5
    assert len(f.referees) == 2 and len(f.seats) == 8


def test_facts_from_a_simulated_record() -> None:
    rec = simulate_game("classic", 10, 7, players=[f"p{i}" for i in range(10)])
    record = parse_record(rec)
    facts = facts_from_record(record, referee="ref", protests=1)
    assert facts is not None
    assert facts.size == 10 and facts.ruleset == "classic"
    assert facts.winner == rec["result"]["winner"]
    assert facts.night1_victim == rec["log"][0]["kill"]
    assert facts.rounds == rec["log"][-1]["n"]
    assert [s.player for s in facts.seats] == [f"p{i}" for i in range(10)]
    assert facts.referee == "ref" and facts.protests == 1
    only = facts_from_record(parse_record(simulate_game("classic", 8, 3, variant="result-only")))
    assert only is not None and only.rounds is None and only.night1_victim is None
    running = parse_record(simulate_game("classic", 8, 3, variant="in-progress"))
    assert facts_from_record(running) is None


def test_facts_count_awards_by_kind() -> None:
    rec = simulate_game("classic", 8, 11)
    rec["awards"] = [
        {"seat": 1, "kind": "bonus", "points": 0.5},
        {"seat": 2, "kind": "penalty", "points": 0.5},
        {"seat": 3, "kind": "penalty", "points": 1},
        {"seat": 4, "kind": "warning"},
    ]
    facts = facts_from_record(parse_record(rec))
    assert facts is not None and (facts.bonuses, facts.penalties) == (1, 2)


# --- properties -------------------------------------------------------------------------------


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(1, 5000))
    return draw(st.integers(0, n)), n


@given(counts())
def test_wilson_contains_the_estimate_within_bounds(c: tuple[int, int]) -> None:
    k, n = c
    ci = wilson(k, n)
    assert ci is not None
    low, high = ci
    assert 0.0 <= low <= k / n <= high <= 1.0
    assert low < high


@given(counts(), st.integers(2, 20))
def test_wilson_narrows_with_n(c: tuple[int, int], factor: int) -> None:
    k, n = c
    small, large = wilson(k, n), wilson(k * factor, n * factor)
    assert small is not None and large is not None
    assert large[1] - large[0] < small[1] - small[0]


@given(st.lists(st.integers(0, 30), min_size=2, max_size=60))
def test_mean_interval_contains_the_mean(values: list[int]) -> None:
    m = mean_interval(values)
    assert m.mean is not None and m.low is not None and m.high is not None
    assert m.low <= m.mean <= m.high
    assert math.isclose(m.high - m.mean, m.mean - m.low, abs_tol=1e-9)


@given(
    st.lists(st.integers(0, 30), min_size=2, max_size=30).filter(lambda v: len(set(v)) > 1),
    st.integers(2, 5),
)
def test_mean_interval_narrows_with_n(values: list[int], factor: int) -> None:
    small, large = mean_interval(values), mean_interval(values * factor)
    assert small.low is not None and small.high is not None
    assert large.low is not None and large.high is not None
    assert large.high - large.low < small.high - small.low


@given(st.integers(0, 2**31), st.sampled_from([8, 10, 12]))
def test_figures_of_simulated_games_add_up(seed: int, size: int) -> None:
    games = []
    for i in range(4):
        record = parse_record(simulate_game("mainstream", size, seed + i))
        facts = facts_from_record(record, referee="r")
        assert facts is not None
        games.append(facts)
    sides = side_rates(games)
    # the sides' shares of one ruleset and size add up to all of its games
    assert sum(s.rate.successes for s in sides) == len(games)
    assert all(s.rate.n == len(games) for s in sides)
    # every game puts each of its seats into the seat counts once
    assert sum(r.rate.n for r in seat_rates(games)) == size * len(games)
    for r in [*sides, *seat_rates(games)]:
        low, high = r.rate.interval or (0.0, 1.0)
        assert low <= (r.rate.estimate or 0.0) <= high
    (ref,) = referee_figures(games)
    assert ref.games == len(games)


def totals(items: list[Contribution]) -> dict[tuple[str, str], tuple[int, int, float, float]]:
    out: dict[tuple[str, str], tuple[int, int, float, float]] = {}
    for c in items:
        n, k, total, squares = out.get((c.kind, c.key), (0, 0, 0.0, 0.0))
        out[(c.kind, c.key)] = (
            n + c.n,
            k + (c.successes or 0),
            total + c.total,
            squares + c.squares,
        )
    return out


@given(st.integers(0, 2**31), st.integers(1, 6))
def test_contributions_add_up_to_the_figures(seed: int, count: int) -> None:
    """Kept game by game (the pipeline) or computed at once: the same figures."""
    games = []
    for i in range(count):
        rec = simulate_game(
            "mainstream" if i % 2 else "classic", 8 + i % 3, seed + i, variant="finished"
        )
        facts = facts_from_record(parse_record(rec), referee=f"r{i % 2}", protests=i % 3,
                                  protests_upheld=i % 2 if i % 3 else 0)  # fmt: skip
        assert facts is not None
        games.append(facts)
    t = totals([c for g in games for c in contributions(g)])
    f = figures(games, every_side=True)
    for s in f.sides:
        assert t[("side", f"{s.ruleset}/{s.size}/{s.side}")][:2] == (s.rate.n, s.rate.successes)
    assert {k for k in t if k[0] == "side"} == {
        ("side", f"{s.ruleset}/{s.size}/{s.side}") for s in f.sides
    }
    for r in f.seats:
        assert t[("seat", str(r.seat))][:2] == (r.rate.n, r.rate.successes)
    for v in f.victims:
        assert t[("victim", f"{v.size}/{v.seat}")][:2] == (v.share.n, v.share.successes)
    for ref in f.referees:
        for measure, mean in (("rounds", ref.rounds), ("bonuses", ref.bonuses)):
            n, _, total, squares = t[("referee", f"{ref.referee}/{measure}")]
            kept = mean_from_sums(n, total, squares, floor=0.0)
            assert (kept.n, kept.total, kept.squares) == (mean.n, mean.total, mean.squares)
            assert kept.low == mean.low and kept.high == mean.high
        n, upheld, _, _ = t[("referee", f"{ref.referee}/protests")]
        assert (n, upheld) == (ref.protests_upheld.n, ref.protests_upheld.successes)
    # the sides shown are those side_rates lists
    listed = {(s.ruleset, s.size, s.side) for s in side_rates(games)}
    kept = {
        (s.ruleset, s.size, s.side)
        for s in f.sides
        if shown("side", {"ruleset": s.ruleset, "side": s.side}, s.rate.successes)
    }
    assert kept == listed
