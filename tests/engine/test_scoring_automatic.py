"""The profile's automatic points (``engine.scoring.automatic_points``): the fourth
warning's −0.5 once, an ejection's −0.5 — and exactly the lines ``score_game`` adds,
which is what the referee's live sheet shows while the game is played (issue #20)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import (
    CLUB_V1,
    AwardInfo,
    AwardKind,
    GameSummary,
    SeatInfo,
    automatic_points,
    profile_from_dict,
    score_game,
)

D = Decimal


def warnings(seat: int, n: int) -> list[AwardInfo]:
    return [AwardInfo(seat, "warning") for _ in range(n)]


def test_three_warnings_cost_nothing_the_fourth_costs_half_a_point_once() -> None:
    assert automatic_points(warnings(3, 3)) == ()
    (line,) = automatic_points(warnings(3, 4))
    assert (line.seat, line.kind, line.points) == (3, "warnings", D("-0.5"))
    assert (line.code, line.params) == ("points.warnings", {"count": 4})
    assert automatic_points(warnings(3, 6)) == (line,)  # once per game, not per warning


def test_each_seat_counts_its_own_warnings() -> None:
    awards = warnings(1, 2) + warnings(2, 2) + warnings(5, 4)
    assert [(a.seat, a.kind) for a in automatic_points(awards)] == [(5, "warnings")]


def test_an_ejection_costs_its_penalty_and_comes_after_the_warnings() -> None:
    lines = automatic_points([*warnings(7, 4), AwardInfo(7, "penalty", D("1"))], ejected=[7, 2])
    assert [(a.seat, a.kind, a.points) for a in lines] == [
        (2, "ejection", D("-0.5")),
        (7, "warnings", D("-0.5")),
        (7, "ejection", D("-0.5")),
    ]


def test_bonuses_and_penalties_are_the_referee_s_not_automatic() -> None:
    awards = [AwardInfo(1, "bonus", D("0.3")), AwardInfo(1, "penalty", D("2"))]
    assert automatic_points(awards) == ()


def test_the_profile_sets_threshold_and_points() -> None:
    strict = profile_from_dict(
        {"id": "strict", "version": 1, "warning_threshold": 2, "warning_penalty": "1"}
    )
    (line,) = automatic_points(warnings(4, 2), profile=strict)
    assert (line.points, line.params) == (D("-1"), {"count": 2})
    assert automatic_points(warnings(4, 2)) == ()  # club-v1: four


KINDS: tuple[AwardKind, ...] = ("bonus", "penalty", "warning")
SEATS = tuple(SeatInfo(n, f"p{n}", "killer" if n <= 2 else "civilian") for n in range(1, 9))
award_st = st.builds(
    lambda seat, kind, tenths: AwardInfo(seat, kind, D(0) if kind == "warning" else D(tenths) / 10),
    st.integers(1, 8),
    st.sampled_from(KINDS),
    st.integers(1, 20),
)


@given(
    awards=st.lists(award_st, max_size=20),
    ejected=st.lists(st.integers(1, 8), unique=True, max_size=3),
    winner=st.sampled_from(["good", "killers", "draw"]),
)
def test_score_game_adds_exactly_the_automatic_lines(
    awards: list[AwardInfo], ejected: list[int], winner: str
) -> None:
    summary = GameSummary(
        "g",
        SEATS,
        "finished",
        winner,
        awards=tuple(awards),
        ejected=tuple(ejected),  # type: ignore[arg-type]
    )
    scored = [
        (p.seat, i.kind, i.points, i.code, i.params)
        for p in score_game(summary, CLUB_V1).players
        for i in p.items
        if i.kind in ("warnings", "ejection")
    ]
    expected = [
        (a.seat, a.kind, a.points, a.code, a.params) for a in automatic_points(awards, ejected)
    ]
    assert scored == expected
    for seat in {a.seat for a in awards}:
        n = sum(1 for a in awards if a.seat == seat and a.kind == "warning")
        fined = [
            a for a in automatic_points(awards, ejected) if a.seat == seat and a.kind == "warnings"
        ]
        assert len(fined) == (1 if n >= 4 else 0)
