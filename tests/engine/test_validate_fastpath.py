"""The fast paths give way to the full reader whenever a record is not plainly well formed.

JSON text is read with the plain decoder and accepted only when its colons prove that no
duplicate key was dropped; these tests pin the cases where that proof must fail (or must
not be fooled) and check the verdict is the one the full reader gives. The replay's
precomputed values are checked against what they stand for, and the replay of a record
(``GameState.replay``) against playing its events one by one through ``GameState.step``.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import (
    Day,
    GameRecord,
    LastWordsEntry,
    Night,
    Violation,
    _read_slow,
    _read_text_fast,
    loads,
    parse_record,
    phase_label,
    read_record,
)
from engine.rulesets import RULESETS, get_ruleset
from engine.simulate import simulate_game
from engine.state import _DAY, _NIGHT, UNPLAYABLE_SETUP, GameState, day_events
from engine.validate import validate
from tests.engine.fixtures.mutations import CATALOGUE


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


@pytest.mark.parametrize(
    ("before", "after"),
    [("", ""), ("", "\n"), ("", " \t\r\n "), (" \n", ""), ("", " x"), ("", "{}"), ("", "\u00a0")],
)
def test_text_around_the_value_is_read_as_the_full_reader_reads_it(
    game: dict[str, Any], before: str, after: str
) -> None:
    """The fast reader takes the value where the text starts and only JSON's whitespace
    after it; anything else is the full reader's, with the same result."""
    text = before + json.dumps(game, indent=2) + after
    record, problems = read_record(text)
    try:
        assert (record, problems) == _full(text)
    except json.JSONDecodeError as e:  # not JSON: reported as the decoder says
        assert record is None
        assert [(p.code, p.params["problem"]) for p in problems] == [("record.json", "extra_data")]
        assert e.msg.startswith("Extra data")
    else:
        assert record == parse_record(game)
    fast = before == "" and after.strip(" \t\r\n") == ""
    assert (_read_text_fast(text) is not None) is fast


def _stepped(record: GameRecord) -> tuple[bool, list[Violation], GameState]:
    """The record's log played event by event through ``GameState.step`` (lenient), as
    whole-record validation did before ``GameState.replay``: the reference."""
    state = GameState(record.rules, record.seats, lenient=True, keep_log=False)
    found: list[Violation] = []
    for i, phase in enumerate(record.log or ()):
        is_night = i % 2 == 0
        if state.winner is not None and not (
            isinstance(phase, Day) and phase.n == state.round and not state.day_touched
        ):
            found.append(Violation("phase.after_end", phase_label(phase), {"ended": state.ended}))
            return False, found, state
        if isinstance(phase, Night) is not is_night or phase.n != i // 2 + 1:
            label = phase_label(phase)
            params = {
                "variant": "log",
                "path": f"log[{i}]",
                "phase": label,
                "next_phase": f"{'night' if is_night else 'day'} {i // 2 + 1}",
            }
            found.append(Violation("phase.order", label, params))
            return False, found, state
        if isinstance(phase, Night):
            found += state.step(phase, False)
            continue
        ended = False
        for event in day_events(phase):
            if ended and not isinstance(event, LastWordsEntry):
                continue
            got = state.step(event, False)
            if got and got[0].code == "phase.after_end":
                ended = True
                found.append(got[0])
            else:
                found += got
        if ended:
            return False, found, state
    return True, found, state


def _outcome(state: GameState) -> tuple[Any, ...]:
    return (
        state.winner,
        state.ending,
        state.ended,
        state.deaths,
        state.entitled,
        state.night1_victim,
        state.ejected,
        state.stage,
        state.outcome,
        state.tie,
    )


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.sampled_from([*RULESETS, {"base": "mainstream", "overrides": {"final_tie": "lot"}}]),
    st.integers(0, 2**32),
    st.sampled_from([None, *sorted(CATALOGUE)]),
    st.integers(0, 2**16),
)
def test_the_replay_judges_as_playing_each_event_does(
    spec: Any, seed: int, mistake: str | None, mistake_seed: int
) -> None:
    """``GameState.replay`` sends each event straight to its check and commit: on legal
    records and on records with a planted mistake it must report and end as ``step``."""
    rules = get_ruleset(spec)
    n = random.Random(seed).choice(sorted(rules.table_sizes))
    raw = copy.deepcopy(simulate_game(spec, n, seed))
    if mistake is not None:
        CATALOGUE[mistake](raw, random.Random(mistake_seed))
    record = read_record(raw)[0]
    if record is None or record.log is None:
        return
    state = GameState(record.rules, record.seats, lenient=True, keep_log=False)
    if any(p.code in UNPLAYABLE_SETUP for p in state.setup_problems):
        return
    found: list[Violation] = []
    went_through = state.replay(record.log, found)
    reference, expected, stepped = _stepped(record)
    assert (went_through, found) == (reference, expected)
    assert _outcome(state) == _outcome(stepped)
