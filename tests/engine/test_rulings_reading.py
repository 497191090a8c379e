"""Spec §6 (second audit), the rulings about reading a record: 1, 3, 5, 6 and 10.

Each ruling is checked through :func:`engine.validate.validate` (a JSON value and its
text), and through :func:`engine.record.load_file` where it is a matter of files; a
property checks that the fast readers and the full reader agree on these inputs.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.record import (
    UnreadableFile,
    _read_fast,
    _read_slow,
    _read_text_fast,
    load_file,
    loads,
    parse_record,
    read_record,
)
from engine.rulesets import AbstainRule, BallotRule, FinalTie, RulesetError, get_ruleset
from engine.simulate import simulate_game
from engine.validate import Status, validate
from tests.engine.fixtures import load


def found(value: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """(code, where, params) of every violation of ``value``; its text says the same."""
    verdict = validate(value)
    got = [(v.code, v.where, dict(v.params)) for v in verdict.violations]
    if not isinstance(value, str):
        text = [(v.code, v.where, dict(v.params)) for v in validate(json.dumps(value)).violations]
        assert text == got
    return got


def with_ruleset(overrides: dict[str, Any]) -> dict[str, Any]:
    raw = load("spec-example.json")
    raw["ruleset"] = {"base": "classic", "overrides": overrides}
    return raw


# --- 1. JSON is RFC 8259 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "line", "column"),
    [
        ('{"a": NaN}', "NaN", 1, 7),
        ('{"a": [1,\n  Infinity]}', "Infinity", 2, 3),
        ('{"a": -Infinity}', "-Infinity", 1, 7),
        # the word inside a string before it does not move the place named
        ('{"note": "NaN, -Infinity", "x": NaN}', "NaN", 1, 33),
        ('{"note": "say \\"NaN\\"", "x": Infinity}', "Infinity", 1, 30),
    ],
)
def test_nan_and_infinity_make_a_file_unreadable_at_their_place(
    tmp_path: Path, text: str, value: str, line: int, column: int
) -> None:
    path = tmp_path / "g.json"
    path.write_text(text)
    with pytest.raises(UnreadableFile) as e:
        load_file(path)
    assert e.value.code == "file.json"
    assert e.value.params == {
        "variant": "nan",
        "problem": "nan",
        "value": value,
        "line": line,
        "column": column,
        "path": str(path),
    }
    assert str(e.value) == f"{path}:{line}:{column}: not JSON: {value} is not a JSON number"


def test_the_cli_exits_2_naming_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = json.dumps(load("spec-example.json"), indent=1)
    path = tmp_path / "g.json"
    path.write_text(raw.replace('"points": 0.3', '"points": Infinity'))
    line = next(i for i, t in enumerate(raw.splitlines(), 1) if '"points"' in t)
    column = raw.splitlines()[line - 1].index("0.3") + 1
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {path}:{line}:{column}: not JSON: Infinity is not a JSON number\n"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_text_are_a_violation(constant: str) -> None:
    text = json.dumps(load("spec-example.json")).replace("0.3", constant)
    [(code, where, params)] = found(text)
    assert (code, where, params["problem"], params["value"]) == (
        "record.json",
        "setup",
        "nan",
        constant,
    )
    assert params["column"] == text.index(constant) + 1 and params["line"] == 1


@pytest.mark.parametrize("points", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_in_memory_is_a_violation_not_a_crash(points: float) -> None:
    raw = load("spec-example.json")
    raw["awards"][0]["points"] = points
    verdict = validate(raw)
    assert not verdict.valid
    [v] = verdict.violations
    assert (v.code, v.where, v.params["variant"]) == ("record.type", "awards", "finite_number")
    shown = json.dumps(points)
    assert v.message == f"awards[0].points: expected a finite number, got {shown}"
    assert _read_fast(raw) is None


NON_FINITE = st.sampled_from([math.nan, math.inf, -math.inf])


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


def _replace(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.integers(0, 300), st.data())
def test_a_non_finite_number_anywhere_in_memory_is_reported(seed: int, data: st.DataObject) -> None:
    """No part of a record takes a NaN or an infinity: the verdict says so, never raises."""
    record = simulate_game(("classic", "mainstream", "majority")[seed % 3], 10, seed)
    record["awards"] = [{"seat": 1, "kind": "bonus", "points": 1}]
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    _replace(record, path, data.draw(NON_FINITE))
    assert not validate(record).valid
    assert _read_fast(record) is None


# --- 3. Overrides are free within their own parameter -----------------------------------


def test_players_may_be_narrowed_and_rows_outside_are_ignored() -> None:
    raw = with_ruleset({"players": [8, 9]})
    assert found(raw) == []
    assert parse_record(raw).rules.table_sizes == frozenset({8, 9})
    # a row outside players is ignored, even one that could not be dealt
    raw = with_ruleset({"players": [8, 8], "roles": {"8": [2, 2], "3": [5, 5], "40": [1, 0]}})
    assert found(raw) == []
    assert dict(parse_record(raw).rules.roles) == {8: (2, 2)}


def test_players_may_be_widened_when_every_size_has_a_row() -> None:
    roles = {str(n): [2, 2] for n in range(5, 12)}
    rules = get_ruleset({"base": "classic", "overrides": {"players": [5, 11], "roles": roles}})
    assert rules.table_sizes == frozenset(range(5, 12))
    assert found(with_ruleset({"players": [5, 11], "roles": roles})) == []


@pytest.mark.parametrize(
    ("overrides", "n"),
    [
        ({"players": [6, 16]}, 6),  # classic deals nothing at 6 or 7
        ({"players": [8, 10], "roles": {"8": [2, 2], "10": [2, 2]}}, 9),
        ({"players": [8, 18]}, 17),
    ],
)
def test_every_size_inside_players_needs_a_row(overrides: dict[str, Any], n: int) -> None:
    [(code, where, params)] = found(with_ruleset(overrides))
    assert (code, where) == ("ruleset.bad_value", "setup")
    assert params == {"variant": "roles_missing", "n": n, "path": "ruleset"}


def test_a_majority_ballot_leaves_the_bases_final_tie_unused() -> None:
    for base in ("classic", "mainstream", "civilian-draw"):
        rules = get_ruleset({"base": base, "overrides": {"ballot": "majority"}})
        assert rules.ballot is BallotRule.MAJORITY and rules.final_tie is None
        assert rules.max_ballots == 5
        assert rules.to_spec() == {"base": base, "overrides": {"ballot": "majority"}}
    assert found(with_ruleset({"ballot": "majority"})) == []


def test_a_final_tie_the_overrides_name_beside_a_majority_is_still_refused() -> None:
    """The ruling frees the base's final tie; one the record writes down is a mistake."""
    with pytest.raises(RulesetError) as e:
        get_ruleset({"base": "classic", "overrides": {"ballot": "majority", "final_tie": "draw"}})
    assert (e.value.code, e.value.params["variant"]) == ("ruleset.bad_value", "majority_final_tie")
    rules = get_ruleset({"base": "classic", "overrides": {"ballot": "majority", "final_tie": None}})
    assert rules.final_tie is None


@pytest.mark.parametrize(
    ("value", "rule"),
    [(True, AbstainRule.ALWAYS), (False, AbstainRule.NEVER), ("not-final", AbstainRule.NOT_FINAL)],
)
def test_abstain_takes_true_false_or_not_final(value: object, rule: AbstainRule) -> None:
    assert get_ruleset({"base": "majority", "overrides": {"abstain": value}}).abstain is rule


@pytest.mark.parametrize(
    "value", ["always", "never", "yes", "Not-Final", "not_final", 1, 0, None, [], {}]
)
def test_abstain_takes_nothing_else(value: object) -> None:
    [(code, where, params)] = found(with_ruleset({"abstain": value}))
    assert (code, where) == ("ruleset.bad_value", "setup")
    assert params == {
        "variant": "abstain",
        "rule": "abstain",
        "value": repr(value),
        "path": "ruleset",
    }


def test_final_tie_keeps_its_values() -> None:
    rules = get_ruleset({"base": "mainstream", "overrides": {"final_tie": "lot"}})
    assert rules.final_tie is FinalTie.LOT


# --- 5. An empty list is the same as an absent key ---------------------------------------


def _dawn_end(seed_from: int = 0) -> dict[str, Any]:
    """A finished classic game that ended at dawn (its log's last phase is a night)."""
    for seed in range(seed_from, seed_from + 500):
        game = simulate_game("classic", 10, seed)
        if game["log"][-1]["phase"] == "night":
            return game
    raise AssertionError("no game ends at dawn")  # pragma: no cover


@pytest.mark.parametrize("key", ["eject", "last_words", "ballots"])
def test_an_empty_list_reads_as_the_key_left_out(key: str) -> None:
    raw = load("spec-example.json")
    raw["log"][3].pop(key, None)
    empty = copy.deepcopy(raw)
    empty["log"][3][key] = []
    absent = read_record(raw)
    assert read_record(empty) == absent
    assert _read_fast(empty) == _read_fast(raw) == absent[0]
    assert _read_slow(empty) == _read_slow(raw)
    assert read_record(json.dumps(empty)) == read_record(json.dumps(raw))
    assert found(empty) == found(raw)


def test_a_final_day_after_a_dawn_end_may_carry_empty_lists() -> None:
    game = _dawn_end()
    n = game["log"][-1]["n"]
    game["log"].append({"phase": "day", "n": n, "ballots": [], "eject": [], "last_words": []})
    verdict = validate(game)
    assert verdict.valid and verdict.status is Status.FINISHED
    day = parse_record(game).log[-1]  # type: ignore[index]
    assert (day.ballots, day.eject, day.last_words) == (None, None, None)  # type: ignore[union-attr]


def test_a_day_that_must_vote_with_empty_ballots_has_not_voted_yet() -> None:
    raw = load("spec-example.json")
    del raw["result"]
    raw["log"][3] = {"phase": "day", "n": 2, "ballots": []}
    verdict = validate(raw)
    assert verdict.valid and verdict.status is Status.IN_PROGRESS
    raw["log"][3].pop("ballots")
    assert validate(raw).violations == verdict.violations


# --- 6. Seat keys are canonical decimals --------------------------------------------------


@pytest.mark.parametrize("key", ["08", "+8", " 8", "8 ", "٨", "８", "8.0", "0", "-8", "1e1", ""])
def test_a_voter_key_that_is_not_a_canonical_decimal_is_a_violation(key: str) -> None:
    raw = load("spec-example.json")
    ballot = raw["log"][1]["ballots"][0]
    ballot[key] = ballot.pop("8")
    [(code, where, params)] = found(raw)
    assert (code, where) == ("record.bad_value", "day 1 ballot 1")
    assert params == {"variant": "voter", "key": key, "path": "log[1].ballots[0]"}
    assert _read_fast(raw) is None and _read_text_fast(json.dumps(raw)) is None


def test_the_canonical_voter_key_is_read() -> None:
    raw = load("spec-example.json")
    assert found(raw) == []
    assert "8" in raw["log"][1]["ballots"][0]


@pytest.mark.parametrize("key", ["08", "+8", " 8", "٨", "８", "8.0"])
def test_a_roles_key_that_is_not_a_canonical_decimal_is_refused(key: str) -> None:
    [(code, _, params)] = found(with_ruleset({"players": [8, 8], "roles": {key: [2, 2]}}))
    assert (code, params["variant"], params["rule"]) == ("ruleset.bad_value", "roles", "roles")


# --- 10. Player ids are not blank ---------------------------------------------------------


@pytest.mark.parametrize("player", [" ", "  ", "\t", "\n", "\u3000", " \u00a0\r\n"])
def test_a_blank_player_id_is_a_violation(player: str) -> None:
    raw = load("spec-example.json")
    raw["seats"][2]["player"] = player
    [(code, where, params)] = found(raw)
    assert (code, where) == ("record.bad_value", "setup")
    assert params == {
        "variant": "blank_player",
        "value": json.dumps(player),
        "path": "seats[2].player",
    }
    assert _read_fast(raw) is None


@pytest.mark.parametrize("player", ["a", " a", "a b", "\u3000张三", "0"])
def test_a_player_id_with_something_that_is_not_white_space_is_read(player: str) -> None:
    raw = load("spec-example.json")
    raw["seats"][2]["player"] = player
    assert found(raw) == []
    assert _read_fast(raw) is not None


def test_a_blank_player_id_does_not_stop_the_replay() -> None:
    raw = load("spec-example.json")
    raw["seats"][2]["player"] = " "
    raw["log"][3]["ballots"][0]["3"] = 5  # seat 3 was killed on night 1
    codes = [code for code, _, _ in found(raw)]
    assert codes[0] == "record.bad_value" and len(codes) > 1


def test_an_empty_player_id_is_still_a_type_error() -> None:
    raw = load("spec-example.json")
    raw["seats"][2]["player"] = ""
    [(code, _, params)] = found(raw)
    assert (code, params["variant"], params["got"]) == (
        "record.type",
        "non_empty_string",
        "a string",
    )


# --- the fast and the full readers agree on all of these ---------------------------------

RULING_INPUTS = st.one_of(
    st.sampled_from([[], "x", math.nan, " ", "\u3000", "08", math.inf, "٨", -math.inf]),
    st.text(alphabet="x \t\n\u3000\u00a08٨", max_size=3),
)
POINTS = st.sampled_from([0.5, math.nan, 1, math.inf, -math.inf])
VOTER_KEYS = st.sampled_from(["8", "08", "1", "+8", " 8", "12", "8 ", "٨", "８", "0"])


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.integers(0, 400), st.data())
def test_fast_and_full_readers_agree_on_the_rulings_inputs(seed: int, data: st.DataObject) -> None:
    """Empty lists, blank ids, non-canonical voter keys, non-finite numbers: whenever a
    fast reader reads the record, the full reader reads the same with no problem."""
    record = simulate_game(("classic", "mainstream", "civilian-draw")[seed % 3], 11, seed)
    record["awards"] = [{"seat": 2, "kind": "bonus", "points": 0.5}]
    days = [p for p in record["log"] if p["phase"] == "day"]
    for _ in range(data.draw(st.integers(1, 2))):
        choice = data.draw(st.integers(0, 3))
        if choice == 0:  # empty (or other) lists in a day
            day = data.draw(st.sampled_from(days))
            for key in data.draw(st.permutations(["eject", "last_words", "ballots"]))[:2]:
                day[key] = data.draw(st.sampled_from([[], [[]], [{}]]))
        elif choice == 1:  # a player id
            seat = data.draw(st.integers(0, len(record["seats"]) - 1))
            record["seats"][seat]["player"] = data.draw(RULING_INPUTS)
        elif choice == 3:  # an award's points
            record["awards"][0]["points"] = data.draw(POINTS)
        else:  # a voter key
            ballots = [b for d in days for b in d.get("ballots", ()) if b]
            if ballots:
                ballot = data.draw(st.sampled_from(ballots))
                voter = data.draw(st.sampled_from(sorted(ballot)))
                ballot[data.draw(VOTER_KEYS)] = ballot.pop(voter)
    if data.draw(st.integers(0, 3)) == 0:  # and one of these anywhere
        path = data.draw(st.sampled_from(_paths(record)[1:]))
        _replace(record, path, data.draw(RULING_INPUTS))
    fast = _read_fast(record)
    if fast is not None:
        assert _read_slow(record) == (fast, [])
    text = json.dumps(record)
    if any(isinstance(x, float) and not math.isfinite(x) for x in _leaves(record)):
        [v] = read_record(text)[1]
        assert (v.code, v.params["problem"]) == ("record.json", "nan")
        return
    text_fast = _read_text_fast(text)
    if text_fast is not None:
        assert _read_slow(loads(text)) == (text_fast, [])
    assert read_record(text) == _read_slow(loads(text))


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]
