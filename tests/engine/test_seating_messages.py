"""Seating and referee draws speak in codes: every warning is a Message and every
user-fixable error an EngineError with a code and plain JSON params; the English is
rendered from them."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.messages import PARAMS, Message, Param, ParamKind, message_key, placeholders, render
from engine.seating import (
    DrawConstraintError,
    SearchOptions,
    SeatingProblem,
    SeatingProblemError,
    draw_seating,
    options_from_mapping,
)
from engine.texts import draws as part

QUICK = SearchOptions(iterations=300, anneal_moves=20_000, relabel_iterations=300)
SAMPLES: dict[ParamKind, Param] = {
    ParamKind.INT: 3,
    ParamKind.SEAT: 4,
    ParamKind.SEATS: [1, 7],
    ParamKind.INTS: [8, 9],
    ParamKind.PHASE: "night 2",
    ParamKind.TEXT: "x",
    ParamKind.TEXTS: ["a", "b"],
    ParamKind.WORD: "killer",
    ParamKind.WORDS: ["killer", "police"],
    ParamKind.DECIMAL: "0.5",
}


def ids(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


@pytest.mark.parametrize("key", sorted(part.TEMPLATES))
def test_every_draw_template_declares_its_params_and_renders(key: str) -> None:
    names = placeholders(part.TEMPLATES[key])
    assert all(name in part.PARAMS for name in names), (key, names)
    code, _, variant = key.partition("/")
    params: dict[str, Param] = {name: SAMPLES[PARAMS[name]] for name in names}
    if variant:
        params["variant"] = variant
    assert message_key(code, params) == key
    text = render(code, params)
    assert text and "{" not in text and "}" not in text


def assert_plain(message: Message) -> None:
    """Stored as JSON and read back, a message renders the same sentence."""
    stored = json.loads(json.dumps(message.as_dict()))
    assert render(stored["code"], stored["params"]) == str(message) == stored["message"]


# --- warnings ----------------------------------------------------------------------------


def test_unavoidable_club_meetings_warn_with_count_and_rounds() -> None:
    players = ids(16)
    problem = SeatingProblem(
        players=players,
        rounds=2,
        tables=2,
        clubs={p: "north" for p in players[:10]},
        club_apart_rounds=1,
    )
    draw = draw_seating(problem, options=QUICK)
    club = [w for w in draw.warnings if w.code == "draw.club_meetings"]
    assert club == [
        Message("draw.club_meetings", {"count": draw.metrics.club_meetings, "rounds": 1})
    ]
    assert draw.metrics.club_meetings >= 2 * 10  # two tables of 5 club-mates at least
    assert str(club[0]) == (
        f"{draw.metrics.club_meetings} club-mate meetings in rounds 1–1 could not be avoided"
    )
    for warning in draw.warnings:
        assert_plain(warning)


def test_a_fixed_round_that_broke_an_avoid_pair_is_reported() -> None:
    players = ids(16)
    fixed = [[players[:8], players[8:]]]
    problem = SeatingProblem(
        players=players, rounds=2, tables=2, avoid=[(players[0], players[1])], fixed_rounds=fixed
    )
    draw = draw_seating(problem, options=QUICK)
    found = [w for w in draw.warnings if w.code == "draw.fixed_avoid"]
    assert found == [
        Message("draw.fixed_avoid", {"round": 1, "player": players[0], "other": players[1]})
    ]
    assert str(found[0]) == f"fixed round 1 already seats {players[0]} with {players[1]}"


def test_a_search_cut_short_says_so() -> None:
    draw = draw_seating(SeatingProblem(players=ids(47), rounds=7), time_limit=0.0, options=QUICK)
    assert Message("draw.cut_short", {}) in draw.warnings
    excess = [w for w in draw.warnings if w.code == "draw.seat_excess"]
    for warning in excess:
        assert warning.params == {"max": draw.metrics.seat_max, "ideal": draw.metrics.seat_ideal}


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("problem", "constraint", "code", "params", "english"),
    [
        (
            {"players": ids(23), "rounds": 3, "absent": {p: {3} for p in ids(16)}},
            "table_size",
            "draw.too_few_players",
            {"round": 3, "count": 7, "min": 8},
            "round 3: 7 players present, fewer than the minimum table size 8",
        ),
        (
            {"players": ids(20), "rounds": 1, "tables": 3},
            "tables",
            "draw.table_count",
            {"variant": "range", "round": 1, "count": 20, "tables": 3, "min": 8, "max": 16},
            "round 1: 20 players present cannot sit at exactly 3 tables with sizes 8–16",
        ),
        (
            {"players": ids(20), "rounds": 1, "tables": 1, "allowed_sizes": {8, 9, 12}},
            "tables",
            "draw.table_count",
            {"variant": "one_list", "round": 1, "count": 20, "tables": 1, "sizes": [8, 9, 12]},
            "round 1: 20 players present cannot sit at exactly 1 table with sizes 8, 9, 12",
        ),
        (
            {"players": ids(19), "rounds": 1, "max_table": 9},
            "table_size",
            "draw.table_sizes",
            {"variant": "range", "round": 1, "count": 19, "min": 8, "max": 9},
            "round 1: 19 players present cannot be split into tables of sizes 8–9",
        ),
        (
            {"players": ids(10), "rounds": 1, "avoid": [("p000", "p001")]},
            "avoid",
            "draw.avoid_one_table",
            {"player": "p000", "other": "p001", "round": 1},
            "players p000 and p001 must not meet but round 1 seats everyone present at a "
            "single table",
        ),
        (
            {
                "players": ids(16),
                "rounds": 1,
                "avoid": [("p000", f"p{i:03d}") for i in range(1, 10)],
            },
            "avoid",
            "draw.avoid_too_many",
            {"player": "p000", "count": 9, "n": 16, "round": 1, "mates": 6, "min": 8, "need": 7},
            "player p000 must not meet 9 of the 16 players present in round 1, leaving 6 "
            "possible table-mates where a table of 8 needs 7",
        ),
    ],
)
def test_impossible_draws_name_the_constraint_with_code_and_params(
    problem: dict[str, object],
    constraint: str,
    code: str,
    params: dict[str, object],
    english: str,
) -> None:
    with pytest.raises(DrawConstraintError) as caught:
        draw_seating(SeatingProblem(**problem), options=QUICK)  # type: ignore[arg-type]
    error = caught.value
    assert (error.constraint, error.code, error.params) == (constraint, code, params)
    assert error.round == params["round"]
    assert str(error) == english


def test_a_malformed_problem_lists_every_problem_as_a_message() -> None:
    with pytest.raises(SeatingProblemError) as caught:
        SeatingProblem(
            players=["a", "b"],
            rounds=2,
            min_table=9,
            max_table=8,
            avoid=[("a", "zz")],
            absent={"b": {0, 5}},
            fixed_rounds=[[["a", "q", "r"]]],
        )
    error = caught.value
    assert [(p.code, dict(p.params)) for p in error.problems] == [
        ("draw.table_range", {"min": 9, "max": 8}),
        ("draw.unknown_player", {"variant": "avoid", "player": "zz"}),
        ("draw.absent_rounds", {"player": "b", "outside": [0, 5], "rounds": 2}),
        ("draw.fixed_unknown", {"round": 1, "names": ["q", "r"]}),
    ]
    assert [str(p) for p in error.problems] == [
        "table sizes [9, 8] are not a valid range",
        "avoid names unknown player zz",
        "player b absent from rounds [0, 5] outside 1..2",
        "fixed round 1 names unknown players q, r",
    ]
    assert (error.code, error.params) == ("draw.table_range", {"min": 9, "max": 8})
    assert str(error) == "; ".join(str(p) for p in error.problems)
    for problem in error.problems:
        assert_plain(problem)


def test_unknown_and_bad_options_are_codes() -> None:
    with pytest.raises(SeatingProblemError) as caught:
        options_from_mapping(SearchOptions, {"effort": 3, "zeal": 1})
    assert [(p.code, p.params) for p in caught.value.problems] == [
        ("draw.option_unknown", {"key": "effort"}),
        ("draw.option_unknown", {"key": "zeal"}),
    ]
    assert str(caught.value) == "unknown option 'effort'; unknown option 'zeal'"
    with pytest.raises(SeatingProblemError) as bad:
        SearchOptions(iterations=-1)
    assert bad.value.problems == (Message("draw.option", {"key": "iterations"}),)
    assert str(bad.value) == "option iterations must be a non-negative integer"


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 40),
    tables=st.integers(1, 6),
    low=st.integers(2, 10),
    span=st.integers(0, 6),
)
def test_any_refused_draw_renders_from_its_code(
    players: int, tables: int, low: int, span: int
) -> None:
    problem = SeatingProblem(
        players=ids(players), rounds=1, tables=tables, min_table=low, max_table=low + span
    )
    try:
        draw = draw_seating(problem, time_limit=0.5, options=QUICK)
    except DrawConstraintError as error:
        assert error.constraint in {"table_size", "tables"}
        assert error.round == error.params["round"] == 1
        assert str(error) == render(error.code, error.params)
        json.dumps(error.params)
    else:
        for warning in draw.warnings:
            assert_plain(warning)


def test_draw_errors_survive_pickling_whole() -> None:
    """A worker's error reaches the caller with its code, params, problems and round."""
    with pytest.raises(SeatingProblemError) as problems:
        SeatingProblem(players=[], rounds=0)
    again = pickle.loads(pickle.dumps(problems.value))
    assert again.problems == problems.value.problems and str(again) == str(problems.value)
    with pytest.raises(DrawConstraintError) as constraint:
        draw_seating(SeatingProblem(players=ids(7), rounds=1), options=QUICK)
    back = pickle.loads(pickle.dumps(constraint.value))
    assert (back.constraint, back.round, back.code, back.params) == (
        "table_size",
        1,
        "draw.too_few_players",
        {"round": 1, "count": 7, "min": 8},
    )
    assert str(back) == str(constraint.value)
