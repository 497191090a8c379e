"""The fast paths give way to the full reader whenever a record is not plainly well formed.

JSON text is read with the plain decoder and accepted only when its colons prove that no
duplicate key was dropped; these tests pin the cases where that proof must fail (or must
not be fooled) and check the verdict is the one the full reader gives. The replay's
precomputed values are checked against what they stand for.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.record import Night, _read_slow, _read_text_fast, loads, parse_record, read_record
from engine.rulesets import RULESETS, get_ruleset
from engine.simulate import simulate_game
from engine.state import _DAY, _NIGHT, GameState, day_events
from engine.validate import validate


def _full(text: str | bytes) -> Any:
    """What the full, duplicate-aware reader makes of ``text``."""
    return _read_slow(loads(text))


@pytest.fixture
def game() -> dict[str, Any]:
    return simulate_game("classic", 12, 5)


def test_plain_text_reads_as_its_value(game: dict[str, Any]) -> None:
    text = json.dumps(game)
    assert read_record(text) == read_record(game) == _full(text)
    assert read_record(text.encode()) == read_record(game)
    assert read_record(text.encode("utf-16")) == read_record(game)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"kill": ', '"kill": 1, "kill": '),  # in a night
        ('{"1": ', '{"1": 2, "1": '),  # a voter twice in a ballot
        ('"format": ', '"format": "kgr/1", "format": '),  # at the top
        ('"winner": ', '"winner": "draw", "winner": '),  # in the result
    ],
)
def test_a_dropped_duplicate_key_is_reported(game: dict[str, Any], old: str, new: str) -> None:
    text = json.dumps(game)
    assert old in text
    planted = text.replace(old, new, 1)
    record, problems = read_record(planted)
    assert (record, problems) == _full(planted)
    assert "record.duplicate_key" in [p.code for p in problems]
    assert not validate(planted).valid


def test_a_duplicate_beside_a_colon_in_a_string_is_still_found(game: dict[str, Any]) -> None:
    """A colon inside a name could make up the count a dropped key leaves short."""
    game["seats"][0]["player"] = "Dr: Who"
    planted = json.dumps(game).replace('"kill": ', '"kill": 1, "kill": ', 1)
    problems = read_record(planted)[1]
    assert [p.code for p in problems] == ["record.duplicate_key"]


def test_colons_in_strings_are_accounted_for(game: dict[str, Any]) -> None:
    game["seats"][3]["player"] = "a:b"
    game["meta"] = {"event": "Cup: final", "time:start": "10:30"}
    game["awards"] = [{"seat": 2, "kind": "bonus", "points": 1, "reason": "note: kept"}]
    text = json.dumps(game, indent=2)
    assert _read_text_fast(text) is not None
    assert read_record(text) == read_record(game) == _full(text)
    assert validate(text).valid


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"Cup: final"', '"Cup: final", "event": "x"'),  # a duplicate beside a colon
        ('"event": ', '"event": "dropped: this", "event": '),  # a colon in what was dropped
    ],
)
def test_colons_in_strings_do_not_hide_a_duplicate(
    game: dict[str, Any], old: str, new: str
) -> None:
    game["meta"] = {"event": "Cup: final"}
    planted = json.dumps(game).replace(old, new, 1)
    assert _read_text_fast(planted) is None
    assert "record.duplicate_key" in [p.code for p in read_record(planted)[1]]


def test_an_escaped_colon_cannot_stand_in_for_a_dropped_key(game: dict[str, Any]) -> None:
    """``\\u003a`` is a colon in the string but not in the text: the count cannot use it."""
    game["seats"][0]["player"] = "Dr: Who"
    text = json.dumps(game).replace("Dr: Who", "Dr\\u003a Who")
    assert read_record(text) == read_record(game) == _full(text)
    planted = text.replace('"kill": ', '"kill": 1, "kill": ', 1)
    assert planted.count(":") == text.count(":") + 1  # as if the name's colon were literal
    assert _read_text_fast(planted) is None
    assert [p.code for p in read_record(planted)[1]] == ["record.duplicate_key"]


@pytest.mark.parametrize("text", ["{", '{"a": 1,}', "\ufeff{}", "[1, 2]", "null", b"\xff"])
def test_text_the_fast_path_turns_down_gets_the_full_report(text: str | bytes) -> None:
    record, problems = read_record(text)
    assert record is None
    assert problems and problems[0].code.startswith("record.")


@pytest.mark.parametrize(
    "spec",
    [*RULESETS, {"base": "classic", "overrides": {"abstain": "not-final"}}],
)
def test_the_replays_abstain_limit_agrees_with_the_ruleset(spec: Any) -> None:
    rules = get_ruleset(spec)
    for k in range(1, rules.max_ballots + 1):
        assert rules.abstain_allowed(k) is (k <= rules.abstain_through)


def test_phase_names_past_the_shared_ones_are_still_right() -> None:
    assert (_NIGHT[3], _DAY[99], _NIGHT[100], _DAY[250]) == (
        "night 3",
        "day 99",
        "night 100",
        "day 250",
    )
    assert 250 not in _DAY


def test_a_replay_that_keeps_no_log_judges_alike_but_cannot_write_a_record(
    game: dict[str, Any],
) -> None:
    record = parse_record(game)
    kept = GameState(record.rules, record.seats)
    judged = GameState(record.rules, record.seats, lenient=True, keep_log=False)
    for state in (kept, judged):
        for phase in record.log or ():
            for event in [phase] if isinstance(phase, Night) else day_events(phase):
                state.apply(event)
    assert (judged.winner, judged.ended, judged.deaths) == (kept.winner, kept.ended, kept.deaths)
    assert kept.to_record().log == record.log
    with pytest.raises(RuntimeError):
        judged.to_record()


def test_empty_lists_take_the_fast_path_and_read_as_left_out(game: dict[str, Any]) -> None:
    """Spec §6 ruling 5: the fast readers normalise ``[]`` exactly as the full reader."""
    day = next(p for p in game["log"] if p["phase"] == "day")
    day.update({"eject": [], "last_words": []})
    text = json.dumps(game)
    assert _read_text_fast(text) is not None
    assert read_record(text) == read_record(game) == _full(text)
    for key in ("eject", "last_words"):
        del day[key]
    assert read_record(game) == read_record(text)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_constant_that_is_not_json_goes_to_the_full_report(
    game: dict[str, Any], constant: str
) -> None:
    game["seats"][0]["player"] = f"{constant} fan"  # the word inside a string is no constant
    game["log"][0]["check"] = None
    text = json.dumps(game).replace('"check": null', f'"check": {constant}', 1)
    assert constant in text and _read_text_fast(text) is None
    record, problems = read_record(text)
    assert record is None
    [v] = problems
    assert (v.code, v.params["problem"], v.params["value"]) == ("record.json", "nan", constant)
    assert v.params["column"] == text.index(f": {constant}") + 3
