"""The text notation (``engine.notation``, ``docs/notation.md``): hand-written examples of
every construct, errors at their line and column, the exact round trip with KGR/1 over
10,000 simulated records of all four rulesets and over generated odd-but-readable records,
fuzzing of the parser, and ``python -m engine convert``."""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.messages import CATALOGUE, PARAMS, placeholders
from engine.notation import (
    MAX_CHARS,
    MAX_LINES,
    MAX_SEATS,
    NotationError,
    UnprintableRecord,
    parse_notation,
    print_notation,
)
from engine.record import RecordError, parse_record, read_record
from engine.rulesets import RULESETS
from engine.simulate import simulate_game, simulate_games
from engine.validate import validate
from tests.engine.fixtures import HERE

SPEC_EXAMPLE = json.loads((HERE / "spec-example.json").read_text())

SPEC_NOTATION = """\
# Spring Cup, round 3, table B
ruleset classic
meta event="Spring Cup" round=3 table=B date=2026-11-29 referee=zhang-san
1 k li-wei
2 p chen-jie
3 c wang-fang
4 c zhao-min
5 k liu-yang
6 p sun-li
7 c zhou-tao
8 c wu-hui
N1 k3 c1
D1 lw3:1,5 v 1>2 2>1 4>1 5>2 6>1 7>1 8- out1
N2 k6 c5
D2 v 2>5 4>5 5>2 7>5 8>5 out5
bonus 2 0.3 "found both killers"
result good
"""

SEATS8 = "1 k a\n2 p b\n3 c c\n4 c d\n5 k e\n6 p f\n7 c g\n8 c h\n"


def seats8() -> list[dict[str, Any]]:
    roles = ["killer", "police", "civilian", "civilian", "killer", "police", "civilian"]
    return [
        {"seat": i + 1, "player": name, "role": role}
        for i, (name, role) in enumerate(zip("abcdefgh", [*roles, "civilian"], strict=True))
    ]


def round_trips(value: dict[str, Any]) -> str:
    text = print_notation(value)
    assert parse_notation(text) == value, text
    return text


# --- examples ------------------------------------------------------------------------------


def test_the_spec_example_reads_as_its_json_and_prints_back() -> None:
    assert parse_notation(SPEC_NOTATION) == SPEC_EXAMPLE
    printed = print_notation(SPEC_EXAMPLE)
    assert printed == "".join(
        line + "\n" for line in SPEC_NOTATION.splitlines() if not line.startswith("#")
    )
    assert print_notation(parse_record(SPEC_EXAMPLE)) == printed  # a GameRecord prints too
    assert validate(parse_notation(SPEC_NOTATION)).valid


def test_keywords_roles_and_tags_ignore_case_names_keep_it() -> None:
    text = SPEC_NOTATION.replace("ruleset", "Ruleset").replace("N1 k3 c1", "n1 K3 C1")
    text = text.replace("1 k li-wei", "1 K Li-Wei").replace("result good", "RESULT Good")
    text = text.replace("2 p chen-jie", "2 police chen-jie")
    value = parse_notation(text)
    assert value["seats"][0] == {"seat": 1, "player": "Li-Wei", "role": "killer"}
    assert value["seats"][1]["role"] == "police"
    assert value["log"][0] == {"phase": "night", "n": 1, "kill": 3, "check": 1}
    assert value["result"] == {"winner": "good"}


def test_comments_blank_lines_and_spaces_are_ignored() -> None:
    text = "\n\n  # a comment\r\n\truleset classic   # the house rules\n\n" + SEATS8 + "  \n"
    assert parse_notation(text) == {"format": "kgr/1", "ruleset": "classic", "seats": seats8()}


def test_a_result_only_record_and_an_empty_log() -> None:
    base = "ruleset classic\n" + SEATS8
    assert "log" not in parse_notation(base + "result killers\n")
    assert parse_notation(base + "log\n")["log"] == []
    round_trips({"format": "kgr/1", "ruleset": "classic", "seats": seats8(), "log": []})


def test_a_night_without_kill_or_check() -> None:
    value = parse_notation("ruleset classic\n" + SEATS8 + "N1 k- c-\nN2\nN3 c4\n")
    assert value["log"] == [
        {"phase": "night", "n": 1, "kill": None, "check": None},
        {"phase": "night", "n": 2, "kill": None, "check": None},
        {"phase": "night", "n": 3, "kill": None, "check": 4},
    ]


def test_every_day_item() -> None:
    text = "ruleset classic\n" + SEATS8 + "D2 ej4,7 sur5 lw3:1,5 lw6 lw2: v 1>2 8- v out- lot4\n"
    (day,) = parse_notation(text)["log"]
    assert day == {
        "phase": "day",
        "n": 2,
        "eject": [4, 7],
        "surrender": 5,
        "last_words": [
            {"seat": 3, "suspects": [1, 5]},
            {"seat": 6, "suspects": []},
            {"seat": 2, "suspects": []},
        ],
        "ballots": [{"1": 2, "8": None}, {}],
        "eliminated": None,
        "lot": 4,
    }


def test_a_long_day_goes_on_over_lines() -> None:
    text = "ruleset classic\n" + SEATS8 + "D1 v 1>2 2>1\n  3>1 4>2\n  v 1>2 2>1 3>2 4>2\n out2\n"
    (day,) = parse_notation(text)["log"]
    assert day["ballots"] == [{"1": 2, "2": 1, "3": 1, "4": 2}, {"1": 2, "2": 1, "3": 2, "4": 2}]
    assert day["eliminated"] == 2


def test_empty_lists_differ_from_absent_keys() -> None:
    text = "ruleset classic\nmeta\n" + SEATS8 + "D1 ej- lw- v-\nawards\n"
    value = parse_notation(text)
    assert value["meta"] == {}
    assert value["log"] == [{"phase": "day", "n": 1, "eject": [], "last_words": [], "ballots": []}]
    assert value["awards"] == []
    assert round_trips(value) == "ruleset classic\nmeta\n" + SEATS8 + "D1 ej- lw- v-\nawards\n"


def test_rulesets_with_overrides() -> None:
    base = "\n" + SEATS8
    value = parse_notation(
        "ruleset mainstream final_tie=lot abstain=false players=[8,12] "
        'roles={"8":[2,2],"9":[2,2],"10":[2,2],"11":[3,3],"12":[3,3]}' + base
    )
    assert value["ruleset"] == {
        "base": "mainstream",
        "overrides": {
            "final_tie": "lot",
            "abstain": False,
            "players": [8, 12],
            "roles": {"8": [2, 2], "9": [2, 2], "10": [2, 2], "11": [3, 3], "12": [3, 3]},
        },
    }
    round_trips(value)
    assert parse_notation("ruleset classic {}" + base)["ruleset"] == {
        "base": "classic",
        "overrides": {},
    }
    assert parse_notation('ruleset mainstream {"abstain":"not-final"}' + base)["ruleset"] == {
        "base": "mainstream",
        "overrides": {"abstain": "not-final"},
    }
    assert parse_notation("ruleset mainstream abstain=not-final" + base)["ruleset"][
        "overrides"
    ] == {"abstain": "not-final"}
    value = parse_notation('ruleset mainstream ballot="majority" final_tie=null' + base)
    assert value["ruleset"]["overrides"] == {"ballot": "majority", "final_tie": None}
    assert print_notation(value).startswith("ruleset mainstream ballot=majority final_tie=null\n")


def test_awards() -> None:
    text = (
        "ruleset classic\n"
        + SEATS8
        + 'bonus 2 0.3 "found both killers"\npenalty 5 1\nwarning 4\nwarning 3 0 late\n'
        + 'bonus 1 1e-05 ""\npenalty 6 -2.5\n'
    )
    assert parse_notation(text)["awards"] == [
        {"seat": 2, "kind": "bonus", "points": 0.3, "reason": "found both killers"},
        {"seat": 5, "kind": "penalty", "points": 1},
        {"seat": 4, "kind": "warning"},
        {"seat": 3, "kind": "warning", "points": 0, "reason": "late"},
        {"seat": 1, "kind": "bonus", "points": 1e-05, "reason": ""},
        {"seat": 6, "kind": "penalty", "points": -2.5},
    ]
    value = parse_notation(text)
    assert type(value["awards"][1]["points"]) is int
    round_trips(value)


def test_results_of_every_kind() -> None:
    for winner in ("good", "killers", "draw"):
        value = parse_notation(f"ruleset mainstream\n{SEATS8}result {winner}\n")
        assert value["result"] == {"winner": winner}


def test_free_text_is_quoted_with_escapes_where_needed() -> None:
    names = ["李伟", "a b", 'say "hi"', "back\\slash", "#hash", "x=y", "tab\there", "\u2028", "-"]
    value = {
        "format": "kgr/1",
        "ruleset": "classic",
        "meta": {"": "", "key with space": "v#1", "é": "\U0001f600"},
        "seats": [
            {"seat": i + 1, "player": name, "role": s["role"]}
            for i, (name, s) in enumerate(zip([*names[:7], "\u2028x"], seats8(), strict=True))
        ],
    }
    text = round_trips(value)
    assert "1 k 李伟\n" in text
    assert '2 p "a b"\n' in text
    assert '7 c "tab\\there"\n' in text
    assert '8 c "\\u2028x"\n' in text
    assert '"é"="\\ud83d\\ude00"' not in text and "é=😀" in text
    assert parse_notation('ruleset classic\n1 k "\\ud83d\\ude00"\n')["seats"][0]["player"] == "😀"


def test_a_game_record_and_its_json_print_alike() -> None:
    for seed in range(20):
        value = simulate_game("mainstream", 9, seed)
        assert print_notation(parse_record(value)) == print_notation(value)


def test_an_unreadable_record_is_refused_by_the_printer() -> None:
    with pytest.raises(RecordError):
        print_notation({"format": "kgr/1", "ruleset": "nope", "seats": seats8()})
    with pytest.raises(RecordError):
        print_notation({**SPEC_EXAMPLE, "extra": 1})


def test_a_record_beyond_the_bounds_is_unprintable() -> None:
    value = json.loads(json.dumps(SPEC_EXAMPLE))
    value["log"][0]["kill"] = 10**7
    with pytest.raises(UnprintableRecord) as e:
        print_notation(value)
    assert e.value.code == "notation.unprintable"
    assert e.value.params == {"variant": "number", "path": "log[0].kill", "value": "10000000"}
    many = [{"seat": i, "player": f"p{i}", "role": "civilian"} for i in range(1, 101)]
    with pytest.raises(UnprintableRecord):
        print_notation({"format": "kgr/1", "ruleset": "classic", "seats": many})
    huge = {**SPEC_EXAMPLE, "meta": {"note": "x" * MAX_CHARS}}
    with pytest.raises(UnprintableRecord):
        print_notation(huge)


# --- errors --------------------------------------------------------------------------------

H = "ruleset classic\n" + SEATS8  # 9 lines


@pytest.mark.parametrize(
    ("text", "key", "line", "column"),
    [
        ("", "notation.missing/ruleset", 1, 1),
        ("# only a comment", "notation.missing/ruleset", 1, 17),
        ("ruleset classic\n", "notation.missing/seats", 2, 1),
        ("ruleset\n", "notation.missing/value", 1, 1),
        ("ruleset classic\nruleset classic", "notation.twice", 2, 1),
        ("ruleset nope\n" + SEATS8, "notation.ruleset/unknown", 1, 9),
        ("ruleset classic foo=1\n" + SEATS8, "notation.ruleset/parameter", 1, 17),
        ('ruleset classic a=1 ""=1\n' + SEATS8, "notation.ruleset/parameter", 1, 17),
        ('ruleset classic surrender=true ""=1\n' + SEATS8, "notation.ruleset/parameter", 1, 32),
        ("ruleset classic ballot=x surrender=1\n" + SEATS8, "notation.ruleset/value", 1, 17),
        ("ruleset classic surrender=1\n" + SEATS8, "notation.ruleset/value", 1, 17),
        ("ruleset classic players=[20,10]\n" + SEATS8, "notation.ruleset/inconsistent", 1, 9),
        ("ruleset classic players=[8, 12]\n" + SEATS8, "notation.json", 1, 28),
        ("ruleset classic players\n" + SEATS8, "notation.item/ruleset", 1, 17),
        ('ruleset classic {"a":1,"a":2}\n' + SEATS8, "notation.json", 1, 17),
        ("ruleset classic a=1 a=2\n" + SEATS8, "notation.twice", 1, 21),
        ("ruleset classic\nmeta a=1 a=2", "notation.twice", 2, 10),
        ("ruleset classic\nmeta a", "notation.item/meta", 2, 6),
        ('ruleset classic\nmeta a="x', "notation.unterminated", 2, 8),
        ('ruleset classic\nmeta a="x\\q"', "notation.escape", 2, 10),
        ("ruleset classic\nmeta a=b\x00c", "notation.character", 2, 9),
        ('ruleset classic\nmeta a="b"c', "notation.text", 2, 11),
        ("ruleset classic\n1 k a\n3 p b", "notation.seats", 3, 1),
        ("ruleset classic\n1 k a\n1 p b", "notation.twice", 3, 1),
        ("ruleset classic\n1 x a", "notation.role", 2, 3),
        ("ruleset classic\n1 k", "notation.item/seat", 2, 1),
        ("ruleset classic\n1 k a b", "notation.item/seat", 2, 7),
        ("ruleset classic\n1 k a\n2 p a", "notation.twice", 3, 5),
        ('ruleset classic\n1 k "  "', "notation.blank_player", 2, 5),
        ('ruleset classic\n1 k ""', "notation.blank_player", 2, 5),
        ("ruleset classic\n01 k a", "notation.seat", 2, 1),
        ("ruleset classic\n1000000 k a", "notation.seat", 2, 1),
        (H + "N0 k1", "notation.round", 10, 2),
        (H + "N1 k1 x2", "notation.item/night", 10, 7),
        (H + "N1 k1 k2", "notation.twice", 10, 7),
        (H + "N1 k", "notation.missing/value", 10, 4),
        (H + "N1 k0", "notation.seat", 10, 5),
        (H + "D1 1>2", "notation.vote", 10, 4),
        (H + "D1 v 1>2 1>3", "notation.twice", 10, 10),
        (H + "D1 v 1>2 out1 3>2", "notation.vote", 10, 15),
        (H + "D1 v 1>x", "notation.seat", 10, 8),
        (H + "D1 v 1>2 zz", "notation.item/day", 10, 10),
        (H + "D1 out1 out2", "notation.twice", 10, 9),
        (H + "D1 out", "notation.missing/value", 10, 4),
        (H + "D1 ej1,,2", "notation.seat", 10, 8),
        (H + "D1 lw", "notation.missing/value", 10, 4),
        (H + "D1 lw- lw3", "notation.twice", 10, 8),
        (H + "D1 v- v", "notation.twice", 10, 7),
        (H + "D1 lot-", "notation.seat", 10, 7),
        (H + "N1 k1\nv 1>2", "notation.continued", 11, 1),
        ("v 1>2", "notation.continued", 1, 1),
        (H + "X1", "notation.line", 10, 1),
        (H + "log x", "notation.item/keyword", 10, 5),
        (H + "log\nlog", "notation.twice", 11, 1),
        (H + "bonus", "notation.missing/value", 10, 1),
        (H + "bonus 2 1.", "notation.number", 10, 9),
        (H + "bonus 2 1e999", "notation.number", 10, 9),
        (H + "bonus 2 1 a b", "notation.item/award", 10, 13),
        (H + "bonus 2 a b", "notation.item/award", 10, 11),
        (H + "result", "notation.missing/value", 10, 1),
        (H + "result good\nresult draw", "notation.twice", 11, 1),
        (H + "result win", "notation.winner", 10, 8),
        (H + "result good bad", "notation.item/keyword", 10, 13),
    ],
)
def test_errors_name_their_line_and_column(text: str, key: str, line: int, column: int) -> None:
    with pytest.raises(NotationError) as caught:
        parse_notation(text)
    e = caught.value
    code, _, variant = key.partition("/")
    assert (e.code, e.params.get("variant", ""), e.line, e.column) == (code, variant, line, column)
    assert str(e).startswith(f"{line}:{column}: ")


def test_the_input_is_bounded() -> None:
    with pytest.raises(NotationError) as e:
        parse_notation("#" * (MAX_CHARS + 1))
    assert (e.value.params["variant"], e.value.line, e.value.column) == ("size", 1, MAX_CHARS + 1)
    with pytest.raises(NotationError) as e:
        parse_notation("\n" * MAX_LINES)
    assert (e.value.params["variant"], e.value.line) == ("lines", MAX_LINES + 1)
    seats = "".join(f"{i} c p{i}\n" for i in range(1, MAX_SEATS + 2))
    with pytest.raises(NotationError) as e:
        parse_notation("ruleset classic\n" + seats)
    assert (e.value.params["variant"], e.value.line) == ("seats", MAX_SEATS + 2)


def test_every_template_uses_declared_params() -> None:
    for key in (k for k in CATALOGUE if k.startswith("notation.")):
        assert set(placeholders(CATALOGUE[key])) <= PARAMS.keys()


# --- the round trip ------------------------------------------------------------------------

VARIANTS = ("finished", "in-progress", "result-only")


def test_ten_thousand_simulated_records_round_trip_exactly() -> None:
    """Every ruleset, every table size, finished, in progress and result-only games."""
    start = time.monotonic()
    seen: set[str] = set()
    count = 0
    for record in simulate_games(10_000, seed=20261201, variants=VARIANTS):
        seen.add(record["ruleset"])
        text = print_notation(record)
        assert parse_notation(text) == record, text
        count += 1
    assert count == 10_000
    assert seen == set(RULESETS)
    assert time.monotonic() - start < 60


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(RULESETS)),
    st.integers(0, 2**32 - 1),
    st.sampled_from(VARIANTS),
    st.data(),
)
def test_simulated_records_round_trip(
    ruleset: str, seed: int, variant: str, data: st.DataObject
) -> None:
    n = data.draw(st.sampled_from(sorted(RULESETS[ruleset].table_sizes)))
    record = simulate_game(ruleset, n, seed, variant=variant)
    assert parse_notation(print_notation(record)) == record


# Odd but readable records: any free text, empty lists, floats, seats out of order, any
# numbers within the bounds; none of them needs to be a legal game.
seat_no = st.integers(1, 999_999)
free = st.text(min_size=0, max_size=12)
player = free.filter(lambda s: bool(s) and not s.isspace())
nights = st.builds(
    lambda n, k, c: {"phase": "night", "n": n, "kill": k, "check": c},
    seat_no,
    st.none() | seat_no,
    st.none() | seat_no,
)


@st.composite
def days(draw: st.DrawFn) -> dict[str, Any]:
    day: dict[str, Any] = {"phase": "day", "n": draw(seat_no)}
    if draw(st.booleans()):
        day["eject"] = draw(st.lists(seat_no, max_size=3))
    if draw(st.booleans()):
        day["surrender"] = draw(seat_no)
    if draw(st.booleans()):
        day["last_words"] = draw(
            st.lists(
                st.fixed_dictionaries({"seat": seat_no, "suspects": st.lists(seat_no, max_size=3)}),
                max_size=3,
            )
        )
    if draw(st.booleans()):
        ballot = st.dictionaries(seat_no.map(str), st.none() | seat_no, max_size=6)
        day["ballots"] = draw(st.lists(ballot, max_size=4))
    if draw(st.booleans()):
        day["eliminated"] = draw(st.none() | seat_no)
    if draw(st.booleans()):
        day["lot"] = draw(seat_no)
    return day


awards = st.fixed_dictionaries(
    {"seat": seat_no, "kind": st.sampled_from(["bonus", "penalty", "warning"])},
    optional={
        "points": st.integers(-(10**20), 10**20) | st.floats(allow_nan=False, allow_infinity=False),
        "reason": free,
    },
)
rulesets = st.sampled_from(sorted(RULESETS)) | st.sampled_from(
    [
        {"base": "classic", "overrides": {}},
        {"base": "mainstream", "overrides": {"final_tie": "lot", "abstain": "not-final"}},
        {"base": "majority", "overrides": {"ballot": "plurality", "final_tie": "draw"}},
        {"base": "mainstream", "overrides": {"ballot": "majority", "final_tie": None}},
        {"base": "classic", "overrides": {"players": [8, 9], "surrender": False}},
        {
            "base": "mainstream",
            "overrides": {"players": [6, 7], "roles": {"6": [1, 1], "7": [2, 1]}},
        },
    ]
)


@st.composite
def odd_records(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.lists(player, min_size=1, max_size=12, unique=True))
    numbers = draw(st.permutations(range(1, len(players) + 1)))
    roles = st.sampled_from(["killer", "police", "civilian"])
    record: dict[str, Any] = {"format": "kgr/1", "ruleset": draw(rulesets)}
    if draw(st.booleans()):
        record["meta"] = draw(st.dictionaries(free, free, max_size=4))
    record["seats"] = [
        {"seat": s, "player": p, "role": draw(roles)} for s, p in zip(numbers, players, strict=True)
    ]
    if draw(st.booleans()):
        record["log"] = draw(st.lists(nights | days(), max_size=6))
    if draw(st.booleans()):
        record["awards"] = draw(st.lists(awards, max_size=3))
    if draw(st.booleans()):
        record["result"] = {"winner": draw(st.sampled_from(["good", "killers", "draw"]))}
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_records())
def test_odd_but_readable_records_round_trip_exactly(record: dict[str, Any]) -> None:
    assert read_record(record)[1] == []
    text = print_notation(record)
    back = parse_notation(text)
    assert back == record, text
    for award, again in zip(record.get("awards", ()), back.get("awards", ()), strict=True):
        if "points" in award:  # 1 and 1.0 are equal, but each keeps its JSON type
            assert type(award["points"]) is type(again["points"])
            assert math.copysign(1, award["points"]) == math.copysign(1, again["points"])


# --- fuzzing -------------------------------------------------------------------------------


def located(e: NotationError, text: str) -> bool:
    """The error's place is in the text: a line it has, a column up to that line's end."""
    lines = text.split("\n")
    return 1 <= e.line <= len(lines) and 1 <= e.column <= len(lines[e.line - 1]) + 1


def parse_or_locate(text: str) -> None:
    try:
        value = parse_notation(text)
    except NotationError as e:
        assert located(e, text), (e.params, text)
        assert str(e)  # renders
        return
    assert read_record(value)[1] == []  # what parses is a readable record
    assert parse_notation(print_notation(value)) == value


ALPHABET = st.sampled_from(list('0123456789kcpvNDnd>-:,=#" \n\t\\{}[]ejlwsurotb.é李\x00\u2028'))


@settings(max_examples=500, deadline=None)
@given(st.text() | st.text(ALPHABET))
def test_arbitrary_text_raises_only_located_notation_errors(text: str) -> None:
    parse_or_locate(text)
    parse_or_locate(H + text)
    parse_or_locate(H + "D1 " + text)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(RULESETS)), st.data())
def test_mutated_notation_raises_only_located_notation_errors(
    seed: int, ruleset: str, data: st.DataObject
) -> None:
    n = data.draw(st.sampled_from(sorted(RULESETS[ruleset].table_sizes)))
    text = print_notation(simulate_game(ruleset, n, seed, variant="finished"))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        char = data.draw(ALPHABET | st.characters())
        if action == "delete":
            text = text[:i] + text[i + 1 :]
        elif action == "insert":
            text = text[:i] + char + text[i:]
        else:
            text = text[:i] + char + text[i + 1 :]
    parse_or_locate(text)


# --- python -m engine convert ---------------------------------------------------------------


def convert(tmp_path: Path, name: str, content: str | bytes, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["convert", str(path), *flags])
    return code, out.getvalue(), err.getvalue()


def test_convert_prints_json_for_notation_and_notation_for_json(tmp_path: Path) -> None:
    code, out, err = convert(tmp_path, "game.txt", SPEC_NOTATION)
    assert (code, err) == (0, "")
    assert json.loads(out) == SPEC_EXAMPLE
    code, back, err = convert(tmp_path, "game.json", out)
    assert (code, err) == (0, "")
    assert back == print_notation(SPEC_EXAMPLE)


def test_convert_decides_by_content_not_by_name(tmp_path: Path) -> None:
    code, out, _ = convert(tmp_path, "game.json", SPEC_NOTATION)
    assert code == 0 and json.loads(out) == SPEC_EXAMPLE
    bom = b"\xef\xbb\xbf \n\t" + json.dumps(SPEC_EXAMPLE).encode()
    code, out, _ = convert(tmp_path, "game.txt", bom)
    assert code == 0 and out == print_notation(SPEC_EXAMPLE)
    code, out, _ = convert(tmp_path, "game.txt", b"\xef\xbb\xbf" + SPEC_NOTATION.encode())
    assert code == 0 and json.loads(out) == SPEC_EXAMPLE


def test_convert_exits_2_naming_file_line_and_column(tmp_path: Path) -> None:
    code, out, err = convert(tmp_path, "bad.txt", H + "D1 v 1>2 1>3\n")
    path = tmp_path / "bad.txt"
    assert (code, out) == (2, "")
    assert err == f"{path}:10:10: 1>3 is given twice\n"
    code, out, err = convert(tmp_path, "bad.json", '{"format": "kgr/1",\n "x": NaN}')
    assert (code, out) == (2, "")
    assert err.startswith(f"{tmp_path / 'bad.json'}:2:7: ")
    code, _, err = convert(tmp_path, "latin.txt", b"ruleset classic\n1 k \xe9\n")
    assert (code, err) == (2, f"{tmp_path / 'latin.txt'}:2:5: not UTF-8 text\n")
    out_, err_ = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out_), contextlib.redirect_stderr(err_):
        assert main(["convert", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in err_.getvalue()


def test_convert_refuses_a_json_record_of_broken_form(tmp_path: Path) -> None:
    code, out, err = convert(tmp_path, "g.json", json.dumps({**SPEC_EXAMPLE, "extra": 1}))
    assert (code, out) == (2, "")
    assert "unknown key 'extra'" in err and "[record.unknown_key]" in err
    dup = json.dumps(SPEC_EXAMPLE)[:-1] + ', "result": {"winner": "good"}}'
    code, _, err = convert(tmp_path, "dup.json", dup)
    assert code == 2 and "record.duplicate_key" in err


def test_convert_does_not_judge_the_rules_unless_asked(tmp_path: Path) -> None:
    illegal = SPEC_NOTATION.replace("N2 k6 c5", "N2 k1 c5")  # seat 1 is already out
    code, out, err = convert(tmp_path, "illegal.txt", illegal)
    assert (code, err) == (0, "")
    code, out2, err = convert(tmp_path, "illegal.txt", illegal, "--check")
    assert code == 1 and out2 == out and "illegal.txt: night 2: " in err
    assert convert(tmp_path, "ok.txt", SPEC_NOTATION, "--check")[0] == 0
    json_illegal = json.loads(out)
    code, _, err = convert(tmp_path, "illegal.json", json.dumps(json_illegal), "--check")
    assert code == 1 and err


def test_convert_as_a_process(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(SPEC_NOTATION, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "convert", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == SPEC_EXAMPLE
    path.write_text("ruleset classic\n1 q a\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "convert", str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{path}:2:3: expected a role, k, p or c, got q\n"


def test_the_documented_examples_read_as_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    blocks = doc.split("```")
    example = next(b for b in blocks if b.startswith("\n# Spring Cup"))
    assert parse_notation(example) == SPEC_EXAMPLE
    long_day = next(b for b in blocks if b.startswith("\nD3 lw5"))
    (day,) = parse_notation("ruleset classic\n" + SEATS8 + long_day)["log"]
    assert len(day["ballots"]) == 3 and day["eliminated"] == 1
    assert parse_notation("ruleset classic\n1 k\u3000a\u3000\n")["seats"][0]["player"] == "a"
