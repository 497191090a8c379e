"""The KGR/1 reader and writer: every problem reported with its place, exact round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import (
    UNDECLARED,
    Day,
    Night,
    RecordError,
    Role,
    RulesetOverride,
    Winner,
    _read_fast,
    _read_slow,
    dump_record,
    parse_record,
    read_record,
)
from engine.simulate import simulate_game
from engine.validate import validate
from tests.engine.fixtures import load


def problems(value: Any) -> list[tuple[str, str]]:
    return [(v.code, v.where) for v in read_record(value)[1]]


def test_spec_example_reads_into_typed_values() -> None:
    r = parse_record(load("spec-example.json"))
    assert r.ruleset_spec == "classic" and r.rules.id == "classic"
    assert r.seats[0].role is Role.KILLER and r.n_players == 8
    assert r.log is not None
    assert r.log[0] == Night(1, 3, 1)
    day = r.log[1]
    assert isinstance(day, Day) and day.eliminated == 1 and day.ballots is not None
    assert day.ballots[0].votes[-1] == (8, None)
    assert r.result is Winner.GOOD
    assert r.meta is not None and r.meta["event"] == "Spring Cup"
    assert dump_record(r) == load("spec-example.json")


def test_absent_and_null_stay_distinct() -> None:
    raw = load("spec-example.json")
    del raw["log"][3]["eliminated"]
    del raw["result"]
    r = parse_record(raw)
    assert r.log is not None and isinstance(r.log[3], Day) and r.log[3].eliminated is UNDECLARED
    assert dump_record(r) == raw
    raw["log"][3]["eliminated"] = None
    assert dump_record(parse_record(raw)) == raw


def test_override_spec_round_trips() -> None:
    raw = load("spec-example.json")
    raw["ruleset"] = {"base": "classic", "overrides": {"final_tie": "draw"}}
    r = parse_record(raw)
    assert isinstance(r.ruleset_spec, RulesetOverride) and r.rules.final_tie == "draw"
    assert dump_record(r) == raw
    assert parse_record(json.dumps(raw)) == r


def test_every_problem_is_reported_with_its_place() -> None:
    raw = load("spec-example.json")
    raw["format"] = "kgr/2"
    raw["colour"] = "red"
    raw["seats"][2]["role"] = "judge"
    raw["log"][0]["kill"] = "3"
    raw["log"][1]["ballots"][0]["x"] = 1
    raw["log"][2]["check"] = True
    raw["log"][3]["lot"] = None
    raw["awards"][0]["points"] = "many"
    raw["result"] = {"winner": "police", "margin": 2}
    raw["meta"]["round"] = 3
    with pytest.raises(RecordError) as e:
        parse_record(raw)
    got = [(v.code, v.where) for v in e.value.violations]
    assert got == [
        ("record.unknown_key", "setup"),
        ("record.format", "setup"),
        ("record.bad_value", "setup"),
        ("record.type", "setup"),
        ("record.type", "night 1"),
        ("record.bad_value", "day 1 ballot 1"),
        ("record.type", "night 2"),
        ("record.type", "day 2"),
        ("record.type", "awards"),
        ("record.unknown_key", "result"),
        ("record.bad_value", "result"),
    ]
    assert "log[1].ballots[0]: voter 'x' is not a seat number" in str(e.value)


def test_missing_keys_and_broken_seats() -> None:
    raw = load("spec-example.json")
    del raw["log"][0]["check"]
    del raw["seats"][0]["player"]
    assert problems(raw) == [("record.missing_key", "setup"), ("record.missing_key", "night 1")]
    raw = load("spec-example.json")
    raw["seats"][1]["seat"] = 9
    raw["seats"][3]["player"] = raw["seats"][4]["player"]
    assert problems(raw) == [("setup.seats", "setup"), ("setup.duplicate_player", "setup")]
    assert read_record(raw)[0] is None


def test_unknown_keys_do_not_stop_the_record_being_read() -> None:
    raw = load("spec-example.json")
    raw["log"][2]["note"] = "quiet night"
    record, found = read_record(raw)
    assert record is not None
    assert [(v.code, v.where) for v in found] == [("record.unknown_key", "night 2")]
    with pytest.raises(RecordError):
        parse_record(raw)


def test_json_text_duplicates_and_syntax() -> None:
    text = json.dumps(load("spec-example.json"))
    assert parse_record(text) == parse_record(load("spec-example.json"))
    dup = text.replace('"n": 1, "kill": 3', '"n": 1, "kill": 3, "kill": 4')
    assert problems(dup) == [("record.duplicate_key", "night 1")]
    assert problems(text[:-5]) == [("record.json", "setup")]
    assert problems("[]") == [("record.type", "setup")]
    assert problems(text.replace('"ruleset": "classic"', '"ruleset": "poker"')) == [
        ("ruleset.unknown", "setup")
    ]


@pytest.mark.parametrize(
    "bad",
    [
        {"phase": "dusk", "n": 1},
        {"phase": "night", "n": 0, "kill": None, "check": None},
        {"phase": "night", "n": True, "kill": None, "check": None},
        "night",
    ],
)
def test_unreadable_phases(bad: Any) -> None:
    raw = load("spec-example.json")
    raw["log"][0] = bad
    assert problems(raw)[0][1] == "night 1"


def test_booleans_are_not_seats() -> None:
    raw = load("spec-example.json")
    raw["log"][1]["eliminated"] = True
    assert problems(raw) == [("record.type", "day 1")]
    raw["log"][1]["eliminated"] = 1
    raw["log"][1]["ballots"][0]["01"] = 2
    assert problems(raw) == [("record.bad_value", "day 1 ballot 1")]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in items:
        found += _paths(child, (*path, key))
    return found


@settings(max_examples=120, derandomize=True, deadline=None)
@given(st.integers(0, 500), st.data())
def test_any_damage_is_reported_never_raised(seed: int, data: st.DataObject) -> None:
    """The reader is total: whatever replaces any part of a record, validation reports it."""
    record = simulate_game(("classic", "mainstream", "majority")[seed % 3], 10, seed)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(record)[1:]))
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON)
    for value in (record, json.dumps(record)):
        verdict = validate(value)
        where = {v.where.split()[0] for v in verdict.violations}
        assert where <= {"setup", "night", "day", "awards", "result"}


@settings(max_examples=120, derandomize=True, deadline=None)
@given(st.integers(0, 500), st.data())
def test_fast_and_full_readers_agree(seed: int, data: st.DataObject) -> None:
    """The fast path is only a shortcut: whenever it reads a record, the full reader agrees."""
    record = simulate_game(("classic", "mainstream", "civilian-draw")[seed % 3], 11, seed)
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(JSON)
    fast = _read_fast(record)
    if fast is not None:
        assert _read_slow(record) == (fast, [])
