"""Property tests: simulated games validate, planted mistakes are caught, the schema agrees."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.messages import CATALOGUE as MESSAGES
from engine.messages import message_key, render
from engine.record import dump_record, parse_record
from engine.rulesets import RULESETS, get_ruleset
from engine.simulate import Variant, simulate_game
from engine.validate import Status, validate
from tests.engine.fixtures.mutations import CATALOGUE

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "kgr-1.schema.json").read_text())
SCHEMA_CHECK = jsonschema.Draft202012Validator(SCHEMA)
FAST = settings(
    max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Built-in rulesets plus overrides that reach the branches the defaults never take.
SPECS: list[Any] = [
    *RULESETS,
    {"base": "mainstream", "overrides": {"final_tie": "lot"}},
    {
        "base": "majority",
        "overrides": {
            "abstain": True,
            "players": [8, 10],
            "roles": {"8": [2, 2], "9": [2, 2], "10": [2, 2]},
        },
    },
    {"base": "classic", "overrides": {"abstain": "not-final", "last_words": "first-deaths"}},
]


@st.composite
def games(draw: st.DrawFn, variant: Variant = Variant.FINISHED) -> dict[str, Any]:
    spec = draw(st.sampled_from(SPECS))
    n = draw(st.sampled_from(sorted(get_ruleset(spec).table_sizes)))
    return simulate_game(spec, n, draw(st.integers(0, 2**32)), variant=variant)


@FAST
@given(games(), st.sampled_from(list(Variant)), st.integers(0, 2**32))
def test_simulated_games_always_validate(g: dict[str, Any], variant: Variant, seed: int) -> None:
    spec, n = g["ruleset"], len(g["seats"])
    record = simulate_game(spec, n, seed, variant=variant)
    v = validate(record)
    assert v.valid, v.violations
    assert v.status is Status(variant.value)
    if variant is Variant.FINISHED:
        assert v.winner is not None and v.ended is not None
        assert v.winner.value == record["result"]["winner"]


@FAST
@given(games())
def test_round_trip_is_exact(g: dict[str, Any]) -> None:
    record = parse_record(g)
    assert dump_record(record) == g
    assert parse_record(dump_record(record)) == record
    assert parse_record(json.dumps(g)) == record


@FAST
@given(games(), st.sampled_from(list(Variant)))
def test_schema_accepts_every_simulated_record(g: dict[str, Any], variant: Variant) -> None:
    SCHEMA_CHECK.validate(g)
    if variant is Variant.RESULT_ONLY:
        SCHEMA_CHECK.validate({k: v for k, v in g.items() if k != "log"})


MALFORMED = [
    lambda r: r.update(format="kgr/2"),
    lambda r: r.update(extra=1),
    lambda r: r["seats"][0].update(role="judge"),
    lambda r: r["seats"][0].pop("player"),
    lambda r: r["log"][0].update(kill="3"),
    lambda r: r["log"][0].pop("check"),
    lambda r: r["log"][1].update(ballots=[{"x": 1}]),
    lambda r: r["log"][1].update(ballots=[{"1": True}]),
    lambda r: r["log"][1].update(eliminated=0),
    lambda r: r["log"].append({"phase": "dusk", "n": 9}),
    lambda r: r.update(result={"winner": "police"}),
    lambda r: r.update(meta={"round": 3}),
    lambda r: r.update(awards=[{"seat": 1, "kind": "medal"}]),
    lambda r: r.update(ruleset={"base": "classic"}),
    lambda r: r.update(ruleset={"base": "classic", "overrides": {"surrender": "yes"}}),
]


@pytest.mark.parametrize("break_it", MALFORMED)
def test_schema_and_reader_reject_malformed_records(break_it: Any) -> None:
    record = simulate_game("classic", 10, 7)
    break_it(record)
    assert not SCHEMA_CHECK.is_valid(record)
    v = validate(record)
    assert not v.valid
    assert v.violations[0].code.startswith(("record.", "ruleset."))


@settings(max_examples=250, derandomize=True, deadline=None)
@given(games(), st.sampled_from(sorted(CATALOGUE)), st.integers(0, 2**16))
def test_every_planted_mistake_is_caught_where_it_was_planted(
    g: dict[str, Any], name: str, seed: int
) -> None:
    record = copy.deepcopy(g)
    planted = CATALOGUE[name](record, random.Random(seed))
    assume(planted is not None)
    assert planted is not None
    code, where, exact = planted
    got = [(v.code, v.where) for v in validate(record).violations]
    if exact:
        assert got == [(code, where)]
    else:
        assert got[0] == (code, where)


def test_every_mutation_is_exercised() -> None:
    """The catalogue is not vacuous: each mutation finds a place in some simulated game."""
    rng = random.Random(3)
    for name, mutate in CATALOGUE.items():
        for seed in range(200):
            spec = SPECS[seed % len(SPECS)]
            n = min(get_ruleset(spec).table_sizes)
            if mutate(simulate_game(spec, n, seed), rng) is not None:
                break
        else:
            pytest.fail(f"mutation {name} never applied")


def test_duplicate_keys_are_errors() -> None:
    text = json.dumps(simulate_game("classic", 8, 1))
    doubled = text.replace('"format": "kgr/1"', '"format": "kgr/1", "format": "kgr/1"', 1)
    assert [(v.code, v.where) for v in validate(doubled).violations] == [
        ("record.duplicate_key", "setup")
    ]
    one_ballot = text.replace('"ballots": [{"', '"ballots": [{"1": 2, "', 1)
    assert ("record.duplicate_key", "day 1 ballot 1") in [
        (v.code, v.where) for v in validate(one_ballot).violations
    ]


def _plain(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, str)):
        return True
    return isinstance(value, (list, tuple)) and all(
        isinstance(x, (int, str)) and not isinstance(x, bool) for x in value
    )


@settings(max_examples=150, derandomize=True, deadline=None)
@given(games(), st.sampled_from(sorted(CATALOGUE)), st.integers(0, 2**16))
def test_every_violation_is_a_code_with_plain_params(
    g: dict[str, Any], name: str, seed: int
) -> None:
    """Violations are data: a catalogue key, plain JSON params, the English made from them."""
    record = copy.deepcopy(g)
    CATALOGUE[name](record, random.Random(seed))
    for v in validate(record).violations:
        assert isinstance(v.params, Mapping) and all(_plain(x) for x in v.params.values()), v
        assert message_key(v.code, v.params) in MESSAGES, v
        place = v.params.get("path") or v.where
        assert v.message == f"{place}: {render(v.code, v.params)}"
        assert json.loads(json.dumps(v.as_dict())) == v.as_dict()
