"""The KGR/1 reader and writer: every problem reported with its place, exact round trip."""

from __future__ import annotations

import errno
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.record as record_module
from engine.messages import message_key, render
from engine.record import (
    UNDECLARED,
    AwardKind,
    Day,
    Night,
    RecordError,
    Role,
    RulesetOverride,
    UnreadableFile,
    Winner,
    _read_fast,
    _read_slow,
    dump_record,
    json_problem,
    load_file,
    parse_record,
    read_record,
)
from engine.simulate import simulate_game
from engine.texts import records as records_texts
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


# --- codes and params ----------------------------------------------------------------------


def _with(change: Any) -> dict[str, Any]:
    raw = load("spec-example.json")
    change(raw)
    return raw


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(raw: Any) -> None:
        for key in path[:-1]:
            raw = raw[key]
        raw[path[-1]] = value

    return change


_TEXT = json.dumps(load("spec-example.json"))

#: Texts that are not JSON, one per complaint.
NOT_JSON: list[str | bytes] = [
    "",
    '{"a": 1 "b": 2}',
    '{"a" 1}',
    "{1: 2}",
    '{"a": "b',
    '{"a": "\x01"}',
    '{"a": "\\q"}',
    '{"a": "\\u12"}',
    "{} x",
    '{"a": NaN}',
    b"\xff",
    "[" * 100_000,
]

#: Inputs that between them make the reader say every sentence of its catalogue part.
READER_CASES: list[Any] = [
    "[]",
    _with(_set(("log", 1, "eject"), "x")),
    _with(_set(("seats", 0, "player"), 3)),
    _with(_set(("ruleset",), 3)),
    _with(_set(("seats",), [])),
    _with(_set(("log", 1, "ballots"), ["x"])),
    _with(_set(("log", 1, "last_words"), "x")),
    _with(_set(("log",), "x")),
    _with(_set(("log", 0), "night")),
    _with(_set(("awards", 0, "points"), "many")),
    _with(_set(("awards", 0, "reason"), 3)),
    _with(_set(("meta",), "x")),
    _with(_set(("log", 1, "eject"), [0])),
    _with(_set(("log", 0, "kill"), "3")),
    _with(_set(("awards", 0, "points"), math.inf)),
    _with(_set(("ruleset",), {"base": 3, "overrides": {}})),
    _TEXT.replace('"kill": 3', '"kill": 3, "kill": 4'),
    _TEXT.replace(
        '"ruleset": "classic"',
        '"ruleset": {"base": "classic", "overrides": {"surrender": true, "surrender": true}}',
    ),
    _TEXT.replace('{"1": 2', '{"1": 2, "1": 2'),
    _with(_set(("colour",), "red")),
    _with(lambda raw: raw["log"][0].pop("check")),
    _with(_set(("seats", 0, "role"), "judge")),
    _with(_set(("result", "winner"), "police")),
    _with(_set(("awards", 0, "kind"), "medal")),
    _with(_set(("log", 1, "ballots", 0, "x"), 1)),
    _with(_set(("log", 1), {"phase": "dusk", "n": 1})),
    _with(_set(("seats", 0, "player"), " ")),
    _with(_set(("format",), "kgr/2")),
    *NOT_JSON,
    _with(_set(("seats", 1, "seat"), 9)),
    _with(_set(("seats", 1, "player"), "li-wei")),
    _with(_set(("ruleset",), "poker")),
]


def _file_cases(tmp: Path) -> list[Path]:
    paths = []
    for i, data in enumerate(
        [
            b"\xef\xbb\xbf\n\xff",
            b'{"a": 1 "b": 2}',
            b"{",
            b'{"a": "b',
            b'[1, "\x02"]',
            b"[" * 100_000,
        ]
    ):
        path = tmp / f"f{i}.json"
        path.write_bytes(data)
        paths.append(path)
    for text in NOT_JSON[:-2]:  # every JSON complaint, and NaN
        path = tmp / f"t{len(paths)}.json"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        paths.append(path)
    return [*paths, tmp / "missing.json", tmp]


def test_every_sentence_of_the_reader_is_reached_and_its_params_are_plain_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, dict[str, Any]] = {}
    for case in READER_CASES:
        problems = read_record(case)[1]
        assert problems, case
        for v in problems:
            assert v.message  # renders
            seen[message_key(v.code, v.params)] = dict(v.params)
    for path in _file_cases(tmp_path):
        with pytest.raises(UnreadableFile) as e:
            load_file(path)
        seen[message_key(e.value.code, e.value.params)] = dict(e.value.params)
    for error in (PermissionError(errno.EACCES, "Permission denied"), OSError(errno.EIO, "I/O")):

        def refuse(*args: Any, error: OSError = error) -> Any:
            raise error

        monkeypatch.setattr(record_module, "open", refuse, raising=False)
        with pytest.raises(UnreadableFile) as e:
            load_file(tmp_path / "x.json")
        seen[message_key(e.value.code, e.value.params)] = dict(e.value.params)
    other = json.JSONDecodeError("Illegal trailing comma before end of object", "{1,}", 2)
    seen["record.json/other"] = json_problem(other)  # a newer Python's complaint
    newer = UnreadableFile("file.json", {**json_problem(other), "path": "g.json"})
    assert str(newer) == "g.json:1:3: not JSON: Illegal trailing comma before end of object"
    seen["file.json/other"] = dict(newer.params)
    ours = {k for k in records_texts.TEMPLATES if not k.startswith("ruleset.")}
    assert set(seen) - {k for k in seen if k.startswith("ruleset.")} == ours
    for key, params in seen.items():
        assert json.loads(json.dumps(params)) == params, key
        assert params.get("got", "null") in records_texts.KINDS


@pytest.mark.parametrize(
    ("case", "key", "message"),
    [
        ('{"a": 1 "b": 2}', "record.json/expecting_comma", None),
        (
            '{"a": "b',
            "record.json/unterminated_string",
            "$: not JSON: Unterminated string starting at line 1 column 7",
        ),
        (
            '{"a": "\x01"}',
            "record.json/control_character",
            "$: not JSON: Invalid control character at line 1 column 8",
        ),
        (
            '{"a": "\\q"}',
            "record.json/invalid_escape",
            "$: not JSON: Invalid \\escape at line 1 column 8",
        ),
        (b"\xff", "record.json/not_utf8", None),
    ],
)
def test_json_complaints_are_tokens(case: Any, key: str, message: str | None) -> None:
    [v] = read_record(case)[1]
    assert message_key(v.code, v.params) == key
    assert v.params["problem"] == v.params["variant"] == key.split("/")[1]
    if message is not None:
        assert v.message == message


def test_the_enumerations_in_sentences_are_the_enums() -> None:
    for enum, variant in ((Role, "role"), (Winner, "winner"), (AwardKind, "award_kind")):
        listed = ", ".join(repr(e.value) for e in enum)
        assert render("record.bad_value", {"variant": variant, "value": "x"}) == (
            f"x is not one of {listed}"
        )


def test_a_record_error_carries_its_first_violation_and_says_them_all() -> None:
    raw = load("spec-example.json")
    raw["colour"] = "red"
    raw["seats"][2]["role"] = "judge"
    with pytest.raises(RecordError) as e:
        parse_record(raw)
    first, second = e.value.violations
    assert (e.value.code, e.value.params, e.value.where) == (first.code, first.params, first.where)
    assert str(e.value) == f"{first}; {second}"
    assert str(first) == "setup: $: unknown key 'colour' [record.unknown_key]"
    assert first.as_dict() == {
        "code": "record.unknown_key",
        "where": "setup",
        "params": {"key": "colour", "path": "$"},
        "message": "$: unknown key 'colour'",
    }


def test_unreadable_files_carry_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a":\n  1,\n  "b" 2}')
    with pytest.raises(UnreadableFile) as e:
        load_file(bad)
    assert e.value.code == "file.json"
    assert e.value.params == {
        "variant": "expecting_colon",
        "problem": "expecting_colon",
        "line": 3,
        "column": 7,
        "path": str(bad),
    }
    assert str(e.value) == f"{bad}:3:7: not JSON: Expecting ':' delimiter"
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"a":\n "caf\xe9"}')
    with pytest.raises(UnreadableFile) as e:
        load_file(latin)
    assert (e.value.code, e.value.params) == (
        "file.not_utf8",
        {"path": str(latin), "line": 2, "column": 6},
    )
    with pytest.raises(UnreadableFile) as e:
        load_file(tmp_path / "gone.json")
    assert (e.value.code, e.value.params["problem"]) == ("file.unreadable", "not_found")
    assert str(e.value) == f"{tmp_path / 'gone.json'}: cannot read: No such file or directory"


def test_a_player_in_two_seats_is_reported_and_the_record_still_read() -> None:
    """Spec §6 ruling 2, the reader's part: the seats can still be replayed."""
    raw = load("spec-example.json")
    raw["seats"][3]["player"] = raw["seats"][4]["player"]
    record, problems = read_record(raw)
    assert record is not None and record.seats[3].player == record.seats[4].player
    [v] = problems
    assert (v.code, v.where, dict(v.params)) == (
        "setup.duplicate_player",
        "setup",
        {"player": "liu-yang", "path": "seats"},
    )
    assert v.message == "seats: player 'liu-yang' holds two seats"
    assert read_record(json.dumps(raw)) == (record, problems)
    with pytest.raises(RecordError):
        parse_record(raw)
