"""Properties of any standing: totals add up, ranks are a competition ranking, lots are
reproducible and the order games are entered in does not matter."""

from __future__ import annotations

import itertools
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring import (
    AWARD_KINDS,
    STATUSES,
    WINNERS,
    AwardInfo,
    GameSummary,
    Role,
    SeatInfo,
    score_game,
)
from engine.standings import DEFAULT_PRECEDENCE, Standings, compute_standings

POOL = [f"player-{i}" for i in range(10)]
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
AMOUNTS = st.integers(1, 30).map(lambda n: Decimal(n) / 20)  # 0.05 .. 1.5


@st.composite
def games(draw: st.DrawFn, label: str) -> GameSummary:
    players = draw(st.permutations(POOL))[:8]
    roles = draw(st.permutations(ROLES))
    seats = tuple(SeatInfo(n, p, r) for n, (p, r) in enumerate(zip(players, roles, strict=True), 1))
    status = draw(st.sampled_from(STATUSES))
    winner = None if status == "in-progress" else draw(st.sampled_from(WINNERS))
    awards = tuple(
        AwardInfo(seat, kind, Decimal(0) if kind == "warning" else draw(AMOUNTS))
        for seat, kind in draw(
            st.lists(st.tuples(st.integers(1, 8), st.sampled_from(AWARD_KINDS)), max_size=10)
        )
    )
    if status == "result-only":
        return GameSummary(label, seats, status, winner, awards=awards)
    victim = draw(st.none() | st.integers(1, 8))
    others = [n for n in range(1, 9) if n != victim]
    suspects = (
        ()
        if victim is None
        else tuple(draw(st.lists(st.sampled_from(others), max_size=2, unique=True)))
    )
    ejected = tuple(draw(st.lists(st.integers(1, 8), max_size=2, unique=True)))
    return GameSummary(label, seats, status, winner, None, victim, suspects, ejected, awards)


events = st.integers(0, 8).flatmap(
    lambda n: st.tuples(*(games(f"g{i}") for i in range(n))).map(list)
)
WITHOUT_LOTS = DEFAULT_PRECEDENCE[:-1]


def keys(standing: Standings, player: str) -> tuple[Decimal, ...]:
    row = standing.row(player)
    return tuple(row.metrics[k] for k in standing.precedence)


@settings(max_examples=60, deadline=None)
@given(events)
def test_totals_are_the_sum_of_their_lines(summaries: list[GameSummary]) -> None:
    for summary in summaries:
        for player in score_game(summary).players:
            assert player.total == sum((i.points for i in player.items), Decimal(0))
            bonus = sum(
                (i.points for i in player.items if i.kind in ("bonus", "bonus-cap")), Decimal(0)
            )
            assert bonus <= 1
    standing = compute_standings(summaries)
    for row in standing.rows:
        assert row.points == sum((i.points for i in row.items), Decimal(0))
        assert row.ci == sum((i.points for i in row.items if i.kind == "ci"), Decimal(0))
        results = sum((i.points for i in row.items if i.kind == "result"), Decimal(0))
        assert row.awards == row.points - results - row.ci
        assert row.games == sum(
            1
            for s in summaries
            if s.status != "in-progress" and row.player in {x.player for x in s.seats}
        )


@settings(max_examples=60, deadline=None)
@given(events, st.booleans())
def test_ranks_are_a_competition_ranking(summaries: list[GameSummary], lots: bool) -> None:
    precedence = DEFAULT_PRECEDENCE if lots else WITHOUT_LOTS
    standing = compute_standings(summaries, precedence=precedence)
    rows = standing.rows
    for i, row in enumerate(rows):
        same_as_previous = i > 0 and keys(standing, row.player) == keys(
            standing, rows[i - 1].player
        )
        assert row.rank == (rows[i - 1].rank if same_as_previous else i + 1)
        level = [r for r in rows if keys(standing, r.player) == keys(standing, row.player)]
        assert row.tied == (len(level) > 1)
        assert all(r.rank == row.rank for r in level)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    if lots:
        assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
        assert not any(r.tied for r in rows)


@settings(max_examples=40, deadline=None)
@given(events, st.integers(-(2**40), 2**40))
def test_standing_is_reproducible_and_independent_of_entry_order(
    summaries: list[GameSummary], seed: int
) -> None:
    def table(s: Standings) -> list[tuple[str, int, bool, Decimal]]:
        return [(r.player, r.rank, r.tied, r.points) for r in s.rows]

    standing = compute_standings(summaries, seed=seed)
    assert table(standing) == table(compute_standings(summaries, seed=seed))
    assert table(standing) == table(compute_standings(summaries[::-1], seed=seed))
    for upper, lower in itertools.pairwise(standing.rows):
        explanation = standing.explain(lower.player, upper.player)
        assert (explanation.higher, explanation.lower) == (upper.player, lower.player)
        assert explanation.metric is not None
