"""Ci, the tie-break ladder, ranks, lots and explanations (scoring.md §2–§3)."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from engine.errors import EngineError
from engine.scoring import (
    AwardInfo,
    GameSummary,
    Role,
    SeatInfo,
    Winner,
    profile_from_dict,
)
from engine.standings import (
    DEFAULT_PRECEDENCE,
    METRICS,
    PrecedenceError,
    Standings,
    StandingsError,
    compensation,
    compute_standings,
    draw_lots,
    validate_precedence,
)

D = Decimal
ROLES: tuple[Role, ...] = (
    "killer",
    "police",
    "civilian",
    "civilian",
    "killer",
    "police",
    "civilian",
    "civilian",
)
_ids = itertools.count(1)


def solo(
    player: str,
    role: Role,
    winner: Winner,
    *,
    killed_n1: bool = False,
    bonus: str | None = None,
) -> GameSummary:
    """One game of ``player`` at a table of one-game fillers."""
    number = next(_ids)
    seat = ROLES.index(role) + 1
    seats = tuple(
        SeatInfo(n, player if n == seat else f"filler-{number}-{n}", r)
        for n, r in enumerate(ROLES, start=1)
    )
    awards = (AwardInfo(seat, "bonus", D(bonus)),) if bonus else ()
    return GameSummary(
        f"g{number}",
        seats,
        "finished",
        winner,
        night1_victim=seat if killed_n1 else None,
        awards=awards,
    )


def civ_win(p: str) -> GameSummary:
    return solo(p, "civilian", "good")


def civ_draw(p: str, **kw: bool) -> GameSummary:
    return solo(p, "civilian", "draw", **kw)  # type: ignore[arg-type]


# --- Ci ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "k", "ci"),
    [
        (10, 1, "0.1"),  # N = 10 → B = 4
        (10, 2, "0.2"),
        (10, 5, "0.4"),  # 5 × 0.4 / 4 = 0.5, capped at 0.4
        (1, 1, "0.4"),  # B = max(1, round(0.4)) = 1
        (3, 1, "0.4"),  # B = round(1.2) = 1
        (7, 1, "0.13"),  # B = round(2.8) = 3: 0.1333… → 0.13
        (40, 1, "0.03"),  # B = 16: 0.025 → 0.03 (half up, not half even)
        (5, 0, "0"),
    ],
)
def test_compensation_formula(n: int, k: int, ci: str) -> None:
    assert compensation(n, k, D("0.4")) == D(ci)


def test_compensation_rounds_its_divisor_half_up_for_other_factors() -> None:
    assert compensation(5, 1, D("0.5")) == D("0.17")  # B = round(2.5) = 3, not 2


def test_compensation_refuses_impossible_counts() -> None:
    with pytest.raises(StandingsError, match="K=3, N=2"):
        compensation(2, 3, D("0.4"))


def test_ci_is_paid_only_in_lost_night1_death_games() -> None:
    p = "li-wei"
    games = [
        solo(p, "civilian", "killers", killed_n1=True),  # lost after a night-1 death: Ci
        solo(p, "police", "good", killed_n1=True),  # won: counts in K, no Ci
        solo(p, "civilian", "draw", killed_n1=True),  # drawn is not lost
        solo(p, "civilian", "killers"),  # lost without a night-1 death
        solo(p, "killer", "good", killed_n1=True),  # a killer's death is no compensation
        *(civ_win(p) for _ in range(5)),
    ]
    row = compute_standings(games).row(p)
    assert row.games == 10 and row.metrics["night1-deaths"] == 3
    assert row.ci == D("0.3")  # K = 3, B = 4: 0.3, paid once
    ci_items = [i for i in row.items if i.kind == "ci"]
    assert [(i.game, i.points) for i in ci_items] == [(games[0].game, D("0.3"))]
    assert "min(3 × 0.4 / 4, 0.4) with 10 games" in ci_items[0].reason
    assert row.points == D(1 + 5) + D("0.5") + D("0.3")
    assert row.awards == 0  # Ci is not an award


def test_n_counts_result_only_games_and_ci_follows_the_profile() -> None:
    p = "li-wei"
    n1 = solo(p, "civilian", "killers", killed_n1=True)
    paper = GameSummary("paper", n1.seats, "result-only", "good")
    standing = compute_standings([n1, paper, paper, paper, paper])
    assert standing.row(p).games == 5 and standing.row(p).ci == D("0.2")  # B = 2
    generous = profile_from_dict({"id": "gen", "version": 1, "ci_factor": "0.6"})
    assert compute_standings([n1], generous).row(p).ci == D("0.6")


# --- the ladder -------------------------------------------------------------------------


def ladder_event() -> list[GameSummary]:
    """Seven players, each adjacent pair decided by the next rung of the default ladder."""
    return [
        # A: 3.5 points, above everyone
        *(civ_win("A") for _ in range(3)),
        civ_draw("A"),
        # B: 3.0 points from 3 wins
        *(civ_win("B") for _ in range(3)),
        # D: 3.0 points, 2 wins, 0.5 of awards
        civ_win("D"),
        solo("D", "civilian", "good", bonus="0.5"),
        civ_draw("D"),
        # E: 3.0, 2 wins, no awards, both wins as police
        *(solo("E", "police", "good") for _ in range(2)),
        *(civ_draw("E") for _ in range(2)),
        # F: like C, but killed on night 1 once (in a draw: no Ci)
        *(civ_win("F") for _ in range(2)),
        civ_draw("F", killed_n1=True),
        civ_draw("F"),
        # C and G: identical records, only lots separate them
        *(g for p in "CG" for g in (civ_win(p), civ_win(p), civ_draw(p), civ_draw(p))),
    ]


def focus(standing: Standings) -> list[tuple[str, int, bool]]:
    return [(r.player, r.rank, r.tied) for r in standing.rows if len(r.player) == 1]


def test_every_rung_of_the_default_ladder_decides_once() -> None:
    standing = compute_standings(ladder_event(), seed=0)
    order = [p for p, _, _ in focus(standing)]
    assert order[:5] == ["A", "B", "D", "E", "F"] and set(order[5:]) == {"C", "G"}
    assert [r for _, r, _ in focus(standing)] == [1, 2, 3, 4, 5, 6, 7]
    assert not any(t for _, _, t in focus(standing))
    decided = [standing.explain(a, b).metric for a, b in itertools.pairwise(order)]
    assert decided == list(DEFAULT_PRECEDENCE)


def test_explanations_name_the_metric_and_values() -> None:
    standing = compute_standings(ladder_event(), seed=0)
    wins = standing.explain("D", "B")  # order of the arguments does not matter
    assert (wins.higher, wins.lower, wins.metric) == ("B", "D", "wins")
    assert (wins.higher_value, wins.lower_value, wins.level_on) == (D(3), D(2), ("points",))
    assert wins.text == "B ranks above D on wins (3 vs 2); level on total points (3.0)"
    awards = standing.explain("D", "E")
    assert awards.text == (
        "D ranks above E on award points (0.5 vs 0.0); level on total points (3.0), wins (2)"
    )
    assert standing.explain("A", "B").text == "A ranks above B on total points (3.5 vs 3.0)"
    lots = standing.explain("C", "G")
    assert lots.metric == "lots" and "seed 0" in lots.text and "lot " in lots.text


def test_without_lots_equal_players_share_a_rank_and_are_tied() -> None:
    precedence = [k for k in DEFAULT_PRECEDENCE if k != "lots"]
    standing = compute_standings(ladder_event(), precedence=precedence)
    assert focus(standing)[5:] == [("C", 6, True), ("G", 6, True)]  # listed by name
    after = standing.rows[7]
    assert after.rank == 8 and not after.player.startswith(("C", "G"))
    explanation = standing.explain("G", "C")
    assert explanation.metric is None and explanation.higher_value is None
    assert explanation.text.startswith("C and G are tied; level on total points (3.0), wins (2)")
    assert standing.lots == ()


def test_lots_are_reproducible_and_depend_on_the_seed() -> None:
    def c_above_g(seed: int) -> bool:
        order = [p for p, _, _ in focus(compute_standings(ladder_event(), seed=seed))]
        return order.index("C") < order.index("G")

    outcomes = {seed: c_above_g(seed) for seed in range(16)}
    assert set(outcomes.values()) == {True, False}  # different seeds may differ
    assert all(c_above_g(seed) == outcomes[seed] for seed in (0, 7, 15))  # same seed, same draw


def test_the_draw_is_recorded_and_independent_of_entry_order() -> None:
    games = ladder_event()
    forward = compute_standings(games, seed=42)
    backward = compute_standings(reversed(games), seed=42)
    assert forward.seed == 42
    assert forward.lots == backward.lots and len(forward.lots) == len(forward.rows)
    assert [r.player for r in forward.rows] == [r.player for r in backward.rows]
    lot = {p: n for n, p in enumerate(forward.lots, start=1)}
    assert all(r.metrics["lots"] == lot[r.player] for r in forward.rows)


def test_draw_lots_is_a_function_of_seed_and_names_only() -> None:
    assert draw_lots(["a", "b", "c"], 3) == draw_lots(["c", "a", "b", "a"], 3)
    assert sorted(draw_lots(["a", "b", "c"], 3)) == ["a", "b", "c"]


def test_an_organiser_can_reorder_the_ladder() -> None:
    standing = compute_standings(ladder_event(), precedence=["wins", "points"])
    assert standing.precedence == ("wins", "points")
    assert [p for p, _, _ in focus(standing)][:2] == ["A", "B"]  # 3 wins, then points
    assert standing.explain("A", "B").metric == "points"
    assert set(standing.rows[0].metrics) == {"wins", "points"}


# --- precedence -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ([], "precedence is empty"),
        (["points", "goals"], "unknown metric\\(s\\) 'goals'"),
        (["points", "wins", "points"], "repeated metric\\(s\\) 'points'"),
        (["lots", "points"], "'lots' must be the last metric"),
    ],
)
def test_precedence_validation(keys: list[str], message: str) -> None:
    with pytest.raises(PrecedenceError, match=message):
        validate_precedence(keys)
    with pytest.raises(PrecedenceError):
        compute_standings([], precedence=keys)


def test_precedence_errors_are_reported_together() -> None:
    with pytest.raises(PrecedenceError) as caught:
        validate_precedence(["lots", "goals", "lots"])
    text = str(caught.value)
    assert "'goals'" in text and "repeated" in text and "last" in text
    assert "known metrics: points, wins, awards" in text
    assert issubclass(PrecedenceError, EngineError) and issubclass(PrecedenceError, ValueError)


def test_the_registry_declares_names_and_directions() -> None:
    assert tuple(METRICS) == DEFAULT_PRECEDENCE
    assert {k: m.direction for k, m in METRICS.items()}["lots"] == "lower"
    assert METRICS["night1-deaths"].direction == "higher"  # more early deaths ranks higher
    assert validate_precedence(DEFAULT_PRECEDENCE) == DEFAULT_PRECEDENCE


# --- the rest ---------------------------------------------------------------------------


def test_in_progress_games_warn_and_count_for_nothing() -> None:
    played = civ_win("A")
    pending = GameSummary("pending", played.seats, "in-progress", None)
    standing = compute_standings([played, pending])
    assert standing.row("A").games == 1
    assert [str(w) for w in standing.warnings] == [
        "pending: in-progress record skipped (no result to score)"
    ]
    assert standing.warnings[0].code == "scoring.in_progress"
    assert [g.scored for g in standing.games] == [True, False]


def test_unknown_player_cannot_be_explained() -> None:
    with pytest.raises(StandingsError, match="'nobody' has no scored game"):
        compute_standings([civ_win("A")]).explain("A", "nobody")


def test_empty_event() -> None:
    standing = compute_standings([])
    assert standing.rows == () and standing.games == () and standing.profile == "club-v1"


def test_a_count_with_a_fraction_keeps_it_when_shown() -> None:
    """A stage's carry of 0.5 makes counts fractional: 3 wins carried at half are 1.5."""
    wins = METRICS["wins"]
    assert (wins.show(Decimal("1.5")), wins.show(Decimal("2")), wins.show(Decimal("2.0"))) == (
        "1.5",
        "2",
        "2",
    )
