"""The four built-in rulesets against their source texts, and ruleset overrides."""

from __future__ import annotations

from enum import StrEnum

import pytest

from engine.messages import message_key, render
from engine.rulesets import (
    RULESETS,
    AbstainRule,
    BallotRule,
    FinalTie,
    KillersWin,
    LastWordsRule,
    RulesetError,
    get_ruleset,
)
from engine.texts import records as records_texts


def test_registry_holds_one_ruleset_per_source() -> None:
    assert {r: RULESETS[r].source for r in RULESETS} == {
        "classic": "003",
        "mainstream": "002",
        "civilian-draw": "000",
        "majority": "001",
    }


@pytest.mark.parametrize(
    ("ruleset", "n", "counts"),
    [
        # 003 §1: 8~10人则为2警2匪配置,11~14人为3警3匪配置,15~16人为4警4匪配置.
        ("classic", 8, (2, 2, 4)),
        ("classic", 10, (2, 2, 6)),
        ("classic", 12, (3, 3, 6)),
        ("classic", 16, (4, 4, 8)),
        # 002 configurations A–D: 6–7 two bandits (no police), 8–10 2/2, 11–14 3/3, 15–17 4/4.
        ("mainstream", 6, (2, 0, 4)),
        ("mainstream", 7, (2, 0, 5)),
        ("mainstream", 9, (2, 2, 5)),
        ("mainstream", 14, (3, 3, 8)),
        ("mainstream", 17, (4, 4, 9)),
        # 000 §1: 11~14 3 policías y 3 bandidos, 15~16 4 y 4.
        ("civilian-draw", 11, (3, 3, 5)),
        ("civilian-draw", 15, (4, 4, 7)),
        # 001 §1 counts 11 with a judge: 10 players, 2 killers, 2 police, 6 good guys.
        ("majority", 10, (2, 2, 6)),
    ],
)
def test_role_counts_follow_the_sources(ruleset: str, n: int, counts: tuple[int, int, int]) -> None:
    assert RULESETS[ruleset].role_counts(n) == counts


@pytest.mark.parametrize(
    ("ruleset", "sizes"),
    [
        ("classic", range(8, 17)),
        ("mainstream", range(6, 18)),
        ("civilian-draw", range(11, 17)),
        ("majority", range(10, 11)),
    ],
)
def test_table_sizes(ruleset: str, sizes: range) -> None:
    assert RULESETS[ruleset].table_sizes == frozenset(sizes)
    assert RULESETS[ruleset].role_counts(min(sizes) - 1) is None
    assert RULESETS[ruleset].role_counts(max(sizes) + 1) is None


def test_parameters_of_the_table() -> None:
    classic, main, cd, maj = (RULESETS[r] for r in RULESETS)
    assert (classic.final_tie, main.final_tie, cd.final_tie, maj.final_tie) == (
        FinalTie.KILLERS,  # 003 §4.5
        FinalTie.DRAW,  # 002 win/lose §3
        FinalTie.DRAW,  # 000 §4.5
        None,  # 001 has no tie ladder
    )
    assert maj.ballot is BallotRule.MAJORITY and classic.ballot is BallotRule.PLURALITY
    assert [r.killers_win for r in (classic, main, cd, maj)] == [
        KillersWin.ANY_SIDE_OUT,
        KillersWin.ALL_GOOD_OUT,
        KillersWin.POLICE_OUT,
        KillersWin.ALL_GOOD_OUT,
    ]
    assert [r.last_words for r in (classic, main, cd, maj)] == [
        LastWordsRule.FIRST_ROUND,
        LastWordsRule.FIRST_DEATHS,
        LastWordsRule.FIRST_DEATHS,
        LastWordsRule.ALL_BUT_KILLERS_VOTED_OUT,
    ]
    assert classic.surrender and classic.first_night_repeat_ban
    assert not any(r.surrender or r.first_night_repeat_ban for r in (main, cd, maj))


def test_abstention_by_ballot() -> None:
    # 002 §16: everyone votes in the off-site PK (ballot 3); 001 §8: no abstention at all.
    main, maj = RULESETS["mainstream"], RULESETS["majority"]
    assert [main.abstain_allowed(k) for k in (1, 2, 3)] == [True, True, False]
    assert not any(maj.abstain_allowed(k) for k in range(1, 6))
    assert RULESETS["classic"].abstain_allowed(3)


def test_overrides() -> None:
    lot = get_ruleset({"base": "mainstream", "overrides": {"final_tie": "lot"}})
    assert lot.final_tie is FinalTie.LOT and lot.id == "mainstream"
    assert lot.to_spec() == {"base": "mainstream", "overrides": {"final_tie": "lot"}}
    assert RULESETS["classic"].to_spec() == "classic"
    small = get_ruleset(
        {"base": "classic", "overrides": {"players": [6, 7], "roles": {"6": [2, 0], "7": [2, 0]}}}
    )
    assert small.role_counts(6) == (2, 0, 4) and small.table_sizes == frozenset({6, 7})
    assert get_ruleset({"base": "majority", "overrides": {"abstain": "not-final"}}).abstain is (
        AbstainRule.NOT_FINAL
    )
    assert get_ruleset("classic") is RULESETS["classic"]
    assert get_ruleset(lot) is lot


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("poker", "ruleset.unknown"),
        ({"base": "poker", "overrides": {}}, "ruleset.unknown"),
        ({"base": "classic", "overrides": {"speed": 2}}, "ruleset.unknown_parameter"),
        ({"base": "classic", "overrides": {}, "x": 1}, "ruleset.unknown_parameter"),
        ({"base": "classic"}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"ballot": "approval"}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"abstain": "sometimes"}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"surrender": 1}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"players": [8]}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"players": [8, 18]}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"roles": {"8": [4, 4]}}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"roles": {"x": [2, 2]}}}, "ruleset.bad_value"),
        ({"base": "classic", "overrides": {"final_tie": None}}, "ruleset.bad_value"),
        ({"base": "majority", "overrides": {"final_tie": "draw"}}, "ruleset.bad_value"),
        ({"base": "majority", "overrides": {"ballot": "plurality"}}, "ruleset.bad_value"),
    ],
)
def test_bad_specs_are_refused(spec: object, code: str) -> None:
    with pytest.raises(RulesetError) as e:
        get_ruleset(spec)  # type: ignore[arg-type]
    assert e.value.code == code
    assert isinstance(e.value, ValueError)


#: (spec, params, English) of every sentence a ruleset error says.
RULESET_ERRORS: list[tuple[object, dict[str, object], str]] = [
    (
        "poker",
        {"ruleset": "poker", "known": ["classic", "mainstream", "civilian-draw", "majority"]},
        "unknown ruleset 'poker' (known: classic, mainstream, civilian-draw, majority)",
    ),
    (3, {"variant": "spec"}, "ruleset must be an id or {base, overrides}"),
    (
        {"base": "classic", "overrides": {}, "x": 1},
        {"variant": "key", "key": "x"},
        "unknown ruleset key 'x'",
    ),
    (
        {"base": "classic", "overrides": {"speed": 2}},
        {"variant": "parameter", "key": "speed"},
        "unknown ruleset parameter 'speed' in overrides",
    ),
    (
        {"base": "classic"},
        {"variant": "incomplete"},
        "a ruleset object needs both base and overrides",
    ),
    ({"base": 3, "overrides": {}}, {"variant": "base"}, "ruleset base must be a ruleset id"),
    (
        {"base": "classic", "overrides": []},
        {"variant": "overrides"},
        "ruleset overrides must be an object",
    ),
    (
        {"base": "classic", "overrides": {"players": [9, 2]}},
        {"variant": "players_range", "lo": 9, "hi": 2},
        "players [9, 2] is not a valid range",
    ),
    (
        {"base": "classic", "overrides": {"players": [8, 17]}},
        {"variant": "roles_missing", "n": 17},
        "roles give no cards for 17 players",
    ),
    (
        {"base": "classic", "overrides": {"roles": {str(n): [4, 4] for n in range(8, 17)}}},
        {"variant": "roles_fit", "n": 8, "killer_count": 4, "police_count": 4},
        "roles for 8 players: 4 killers and 4 police do not fit",
    ),
    (
        {"base": "majority", "overrides": {"ballot": "plurality"}},
        {"variant": "plurality_final_tie"},
        "a plurality ballot needs a final_tie",
    ),
    (
        {"base": "majority", "overrides": {"final_tie": "draw"}},
        {"variant": "majority_final_tie"},
        "a majority ballot has no final_tie",
    ),
    (
        {"base": "classic", "overrides": {"players": [8]}},
        {"variant": "players", "rule": "players", "value": "[8]"},
        "override players=[8]: expected [min, max]",
    ),
    (
        {"base": "classic", "overrides": {"roles": {"x": [2, 2]}}},
        {"variant": "roles", "rule": "roles", "value": "{'x': [2, 2]}"},
        """override roles={'x': [2, 2]}: expected {"N": [killers, police], ...}""",
    ),
    (
        {"base": "classic", "overrides": {"abstain": "sometimes"}},
        {"variant": "abstain", "rule": "abstain", "value": "'sometimes'"},
        """override abstain='sometimes': expected true, false or "not-final\"""",
    ),
    (
        {"base": "classic", "overrides": {"first_night_repeat_ban": 1}},
        {"variant": "flag", "rule": "first_night_repeat_ban", "value": "1"},
        "override first_night_repeat_ban=1: expected true or false",
    ),
    (
        {"base": "classic", "overrides": {"ballot": "approval"}},
        {"variant": "ballot", "rule": "ballot", "value": "'approval'"},
        "override ballot='approval': expected 'plurality' or 'majority'",
    ),
    (
        {"base": "classic", "overrides": {"final_tie": 2}},
        {"variant": "final_tie", "rule": "final_tie", "value": "2"},
        "override final_tie=2: expected 'killers' or 'draw' or 'lot'",
    ),
    (
        {"base": "classic", "overrides": {"last_words": None}},
        {"variant": "last_words", "rule": "last_words", "value": "None"},
        "override last_words=None: expected 'first-round' or 'first-deaths' or "
        "'all-but-killers-voted-out'",
    ),
    (
        {"base": "classic", "overrides": {"killers_win": "all"}},
        {"variant": "killers_win", "rule": "killers_win", "value": "'all'"},
        "override killers_win='all': expected 'any-side-out' or 'all-good-out' or 'police-out'",
    ),
]


@pytest.mark.parametrize(("spec", "params", "message"), RULESET_ERRORS)
def test_errors_are_codes_with_params(
    spec: object, params: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesetError) as e:
        get_ruleset(spec)  # type: ignore[arg-type]
    assert e.value.params == params
    assert str(e.value) == e.value.message == message


def test_every_ruleset_sentence_is_reached() -> None:
    """The cases above say every ``ruleset.*`` sentence of the catalogue."""
    reached = set()
    for spec, _, _ in RULESET_ERRORS:
        with pytest.raises(RulesetError) as e:
            get_ruleset(spec)  # type: ignore[arg-type]
        reached.add(message_key(e.value.code, e.value.params))
    assert reached == {k for k in records_texts.TEMPLATES if k.startswith("ruleset.")}


@pytest.mark.parametrize(
    ("rule", "enum"),
    [
        ("ballot", BallotRule),
        ("final_tie", FinalTie),
        ("last_words", LastWordsRule),
        ("killers_win", KillersWin),
    ],
)
def test_the_choices_in_sentences_are_the_enums(rule: str, enum: type[StrEnum]) -> None:
    choices = " or ".join(repr(e.value) for e in enum)
    params = {"variant": rule, "rule": rule, "value": "'x'"}
    assert render("ruleset.bad_value", params) == f"override {rule}='x': expected {choices}"


def test_narrowed_players_keep_the_spec_short() -> None:
    narrow = get_ruleset({"base": "classic", "overrides": {"players": [8, 10]}})
    assert dict(narrow.roles) == {8: (2, 2), 9: (2, 2), 10: (2, 2)}
    assert narrow.to_spec() == {"base": "classic", "overrides": {"players": [8, 10]}}
    assert get_ruleset(narrow.to_spec()) == narrow
    other = get_ruleset(
        {"base": "classic", "overrides": {"players": [8, 8], "roles": {"8": [1, 1]}}}
    )
    assert get_ruleset(other.to_spec()) == other
