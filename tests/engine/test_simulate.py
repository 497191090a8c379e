"""The simulator: deterministic, legal, and reaching every branch the tests rely on."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import EngineError
from engine.rulesets import RULESETS
from engine.simulate import SimOptions, Variant, simulate_game, simulate_games
from engine.state import Cause, EndReason
from engine.validate import Status, validate


def test_same_seed_same_game() -> None:
    assert simulate_game("classic", 12, 5) == simulate_game("classic", 12, 5)
    assert simulate_game("classic", 12, 5) != simulate_game("classic", 12, 6)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_size_of_every_ruleset(ruleset: str) -> None:
    for n in sorted(RULESETS[ruleset].table_sizes):
        v = validate(simulate_game(ruleset, n, n))
        assert v.valid and v.status is Status.FINISHED, (n, v.violations)


def test_variants() -> None:
    assert "result" not in simulate_game("mainstream", 9, 1, variant=Variant.IN_PROGRESS)
    assert "log" not in simulate_game("mainstream", 9, 1, variant="result-only")
    with pytest.raises(ValueError, match="does not seat") as err:
        simulate_game("majority", 12, 1)
    assert isinstance(err.value, EngineError)
    assert (err.value.code, err.value.params) == (
        "simulate.table_size",
        {"ruleset": "majority", "n": 12},
    )
    assert str(err.value) == "majority does not seat 12 players"
    with pytest.raises(EngineError) as err:
        simulate_game("classic", 8, 1, players=["a", "b"])
    assert (err.value.code, err.value.params) == ("simulate.player_names", {"count": 2, "n": 8})
    assert str(err.value) == "2 player names for 8 seats"


def test_a_final_tie_that_ends_the_game_declares_nobody_out() -> None:
    # Spec §6.4: a finished record declares eliminated (null) on the final tie's day too.
    finals = 0
    for seed in range(300):
        g = simulate_game("mainstream", 8, seed)
        v = validate(g)
        assert v.valid, v.violations
        if v.outcome.reason is EndReason.FINAL_TIE_DRAW:
            finals += 1
            last = g["log"][-1]
            assert last["phase"] == "day" and len(last["ballots"]) == 3
            assert "eliminated" in last and last["eliminated"] is None
    assert finals > 0


def test_names_and_meta() -> None:
    names = [f"n{i}" for i in range(8)]
    g = simulate_game("classic", 8, 1, players=names, meta={"event": "cup"})
    assert [s["player"] for s in g["seats"]] == names and g["meta"] == {"event": "cup"}


def test_many_games_cover_the_rare_branches() -> None:
    seen: Counter[str] = Counter()
    for g in simulate_games(600, seed=11):
        v = validate(g)
        assert v.valid, v.violations
        seen[f"winner {v.winner}"] += 1
        seen.update(f"cause {d.cause}" for d in v.outcome.deaths)
        for p in g["log"]:
            seen.update(k for k in p if k in ("eject", "surrender", "last_words"))
            seen[f"ballots {len(p.get('ballots', []))}"] += 1
            seen.update("abstain" for b in p.get("ballots", []) for t in b.values() if t is None)
            if p["phase"] == "night" and p["kill"] is None:
                seen["no kill"] += 1
    for branch in (
        "winner good",
        "winner killers",
        "winner draw",
        "cause kill",
        "cause vote",
        "cause eject",
        "eject",
        "surrender",
        "last_words",
        "ballots 2",
        "ballots 3",
        "ballots 5",
        "abstain",
        "no kill",
    ):
        assert seen[branch] > 0, branch
    lots = [
        validate(simulate_game({"base": "mainstream", "overrides": {"final_tie": "lot"}}, 8, s))
        for s in range(200)
    ]
    assert any(d.cause is Cause.LOT for v in lots for d in v.outcome.deaths)


def test_options_shape_the_games() -> None:
    calm = SimOptions(no_kill=1.0, eject=0.0, abstain=0.0)
    g = simulate_game("classic", 10, 3, options=calm)
    assert all(p.get("kill") is None for p in g["log"] if p["phase"] == "night")
