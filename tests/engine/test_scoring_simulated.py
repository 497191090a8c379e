"""The summary read from a record agrees with what the validator's replay computed, on
random legal games of every ruleset, size and record form; and every such game scores."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from engine.record import parse_record
from engine.scoring import score_game, summarize
from engine.simulate import Variant, simulate_game, simulate_games
from engine.standings import compute_standings
from engine.validate import validate

VARIANTS = tuple(Variant)


@pytest.mark.parametrize("seed", range(4))
def test_summary_matches_the_replayed_outcome(seed: int) -> None:
    for i, value in enumerate(simulate_games(60, seed, variants=VARIANTS)):
        verdict = validate(value)
        assert verdict.valid, verdict.violations
        assert verdict.record is not None
        summary = summarize(verdict.record, f"game-{i}")
        assert summary.status == verdict.status.value
        if summary.status == "result-only":
            assert summary.winner == verdict.winner
        if summary.status == "finished":
            assert summary.winner == verdict.winner
            assert summary.night1_victim == verdict.outcome.night1_victim
            assert sorted(summary.ejected) == sorted(verdict.outcome.ejected)
        score = score_game(summary)
        assert score.scored == (summary.status != "in-progress")
        for player in score.players:
            assert player.total == sum((item.points for item in player.items), Decimal(0))


def test_a_simulated_event_ranks_everyone() -> None:
    rng = random.Random(7)
    pool = [f"player-{n:02}" for n in range(20)]
    summaries = []
    for g in range(40):
        players = rng.sample(pool, 12)
        value = simulate_game("mainstream", 12, g, players=players, variant=Variant.FINISHED)
        summaries.append(summarize(parse_record(value), f"g{g}"))
    standing = compute_standings(summaries, seed=3)
    assert sorted(r.player for r in standing.rows) == pool
    assert [r.rank for r in standing.rows] == list(range(1, 21))
    assert sum(r.games for r in standing.rows) == 40 * 12
    kinds = {item.kind for row in standing.rows for item in row.items}
    assert {"best-guess", "ejection", "ci"} <= kinds  # the record-only lines are exercised
