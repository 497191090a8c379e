"""The second audit's rulings on play and validation (spec §6: 2–9 and 11), one section each.

Each ruling is tested through :func:`engine.validate.validate` / ``validate_series`` and,
where it is about a live game, through :meth:`engine.state.GameState.apply`; properties
over simulated games check that the rulings hold everywhere, not only in the examples.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.record import Ballot, Day, Role, Seat, Winner, parse_record
from engine.rulesets import RULESETS, get_ruleset
from engine.simulate import Variant, simulate_game
from engine.state import (
    Eject,
    Eliminate,
    EndReason,
    GameState,
    IllegalEventError,
    NightAction,
    Step,
    Surrender,
    can_end_drawn,
)
from engine.validate import Status, validate, validate_series
from tests.engine.fixtures import B, D, N, game

CLASSIC8 = "KPCCKPCC"  # killers 1, 5; police 2, 6; civilians 3, 4, 7, 8
MAJ10 = "KPCCKPCCCC"  # killers 1, 5; police 2, 6; civilians 3, 4, 7, 8, 9, 10
TIE8 = "1:2,3,4,6 3:1,5,7,8"  # eight voters split 4-4 between seats 1 and 3
ABSTAIN8 = "-:1,2,3,4,5,6,7,8"  # all eight abstain
SEATS8 = [
    Seat(i, f"p{i}", Role({"K": "killer", "P": "police", "C": "civilian"}[c]))
    for i, c in enumerate(CLASSIC8, 1)
]
FAST = settings(
    max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def found(record: Any) -> list[tuple[str, str]]:
    return [(x.code, x.where) for x in validate(record).violations]


def ballot(spec: str) -> Ballot:
    return Ballot(tuple((int(v), t) for v, t in B(spec).items()))


def sizes(spec: Any) -> list[int]:
    return sorted(get_ruleset(spec).table_sizes)


# --- 2. every violation, also after a setup problem ---------------------------------------


def test_a_duplicated_player_does_not_stop_the_replay() -> None:
    full = parse_record(game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1)))
    doubled = replace(
        full, seats=tuple(replace(s, player="p1") if s.seat == 2 else s for s in full.seats)
    )
    v = validate(doubled)
    assert [(x.code, x.where) for x in v.violations] == [("setup.duplicate_player", "setup")]
    assert v.violations[0].params == {"variant": "deal", "player": "p1", "seats": [1, 2]}
    assert v.violations[0].message == "setup: a player holds two seats"
    assert v.outcome.replayed and v.outcome.deaths[-1].seat == 1
    # … and the log's own violations are reported with it
    assert doubled.log is not None
    day = doubled.log[1]
    assert isinstance(day, Day)
    broken = replace(doubled, log=(doubled.log[0], replace(day, eliminated=2)))
    assert [(x.code, x.where) for x in validate(broken).violations] == [
        ("setup.duplicate_player", "setup"),
        ("day.wrong_elimination", "day 1"),
    ]


def test_a_duplicated_player_in_json_does_not_stop_the_replay() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=2))
    r["seats"][1]["player"] = "p1"
    v = validate(r)
    assert [(x.code, x.where) for x in v.violations] == [
        ("setup.duplicate_player", "setup"),  # once: in the reader's words, naming the player
        ("day.wrong_elimination", "day 1"),
    ]
    assert v.violations[0].params["player"] == "p1"
    assert v.outcome.replayed


def test_every_setup_problem_is_reported() -> None:
    full = parse_record(game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1)))
    cards = [Role.KILLER, Role.KILLER, *[Role.CIVILIAN] * 6]
    bad = tuple(
        Seat(s.seat, "p1" if s.seat in (1, 2) else s.player, c)
        for s, c in zip(full.seats, cards, strict=True)
    )
    v = validate(replace(full, seats=bad))
    assert [x.code for x in v.violations] == ["setup.duplicate_player", "setup.role_counts"]
    assert v.violations[1].params["held"] == [2, 0, 6]
    assert not v.outcome.replayed  # the cards do not fit the table: no replay (§6.2)
    # live play refuses the deal with every problem, the first one's code on the error
    with pytest.raises(IllegalEventError) as err:
        GameState(RULESETS["majority"], list(bad))
    assert [x.code for x in err.value.violations] == ["setup.duplicate_player", "setup.players"]
    assert err.value.code == "setup.duplicate_player"
    assert err.value.params == {"variant": "deal", "player": "p1", "seats": [1, 2]}
    assert str(err.value) == (
        "setup: setup: a player holds two seats [setup.duplicate_player]; "
        "setup: setup: 8 seat(s), but majority seats 10–10 [setup.players]"
    )


@FAST
@given(st.integers(0, 2**32), st.sampled_from(list(RULESETS)))
def test_a_duplicated_player_adds_exactly_one_violation(seed: int, ruleset: str) -> None:
    raw = simulate_game(ruleset, sizes(ruleset)[seed % len(sizes(ruleset))], seed)
    record = parse_record(raw)
    rng = random.Random(seed)
    a, b = rng.sample(range(len(record.seats)), 2)
    name = record.seats[a].player
    seats = tuple(replace(s, player=name) if i == b else s for i, s in enumerate(record.seats))
    v = validate(replace(record, seats=seats))
    assert [(x.code, x.where) for x in v.violations] == [("setup.duplicate_player", "setup")]
    assert v.outcome == validate(record).outcome  # replayed as if nothing were wrong


# --- 3. abstain: "not-final" forbids abstaining in the last ballot a day can have -----------


def test_not_final_under_plurality_is_ballot_three() -> None:
    rules = {"base": "classic", "overrides": {"abstain": "not-final"}}
    tie_abstaining = "1:2,4,6 3:1,5,7 -:3,8"  # still 3-3 between seats 1 and 3
    r = game(rules, CLASSIC8, N(None), D(TIE8, tie_abstaining, "1:2,4,6,8 3:1,5,7 -:3", out=1))
    assert found(r) == [("vote.abstain_forbidden", "day 1 ballot 3")]
    r = game(rules, CLASSIC8, N(None), D(TIE8, tie_abstaining, "1:2,3,4,6,8 3:1,5,7", out=1))
    assert found(r) == []
    s = GameState(get_ruleset(rules), SEATS8)
    s.apply(NightAction(None, None))
    s.apply(ballot(TIE8))
    assert (s.expected().ballot, s.expected().abstain) == (2, True)
    s.apply(ballot(tie_abstaining))
    assert (s.expected().ballot, s.expected().abstain) == (3, False)
    with pytest.raises(IllegalEventError, match=r"vote\.abstain_forbidden"):
        s.apply(ballot("1:2,4,6,8 3:1,5,7 -:3"))


def test_not_final_under_majority_is_ballot_five() -> None:
    rules = {"base": "majority", "overrides": {"abstain": "not-final"}}
    split = "1:2,4,6,7 3:5,8,9,10 -:1,3"  # 4-4 with two abstentions: no majority
    five = "1:2,4,6,7,8 3:5,9,10 -:1,3"
    r = game(rules, MAJ10, N(None), D(split, split, split, split, five, out=1))
    assert found(r) == [("vote.abstain_forbidden", "day 1 ballot 5")] * 2
    r = game(
        rules, MAJ10, N(None), D(split, split, split, split, "1:2,3,4,6,7,8 3:1,5,9,10", out=1)
    )
    assert found(r) == []
    s = GameState(
        get_ruleset(rules), [*SEATS8, Seat(9, "p9", Role.CIVILIAN), Seat(10, "p10", Role.CIVILIAN)]
    )
    s.apply(NightAction(None, None))
    for k in range(1, 5):
        assert (s.expected().ballot, s.expected().abstain) == (k, True)
        s.apply(ballot(split))
    assert (s.expected().ballot, s.expected().abstain) == (5, False)


# --- 4. eliminated is required on every day that voted in a finished record -----------------


def test_a_final_tie_day_declares_nobody_out() -> None:
    r = game("classic", CLASSIC8, N(None), D(TIE8, TIE8, TIE8, out=None), winner="killers")
    assert found(r) == []
    del r["log"][-1]["eliminated"]
    v = validate(r)
    assert [(x.code, x.where) for x in v.violations] == [("day.missing_eliminated", "day 1")]
    assert v.violations[0].message == "day 1: nobody was declared out"
    r = game("mainstream", CLASSIC8, N(None), D(TIE8, TIE8, TIE8), winner="draw")
    assert found(r) == [("day.missing_eliminated", "day 1")]


def test_a_missing_declaration_is_reported_at_its_day_not_the_result() -> None:
    # The last ballot puts seat 5, the last killer, out; the record forgets to say so.
    r = game("classic", CLASSIC8, N(1), D("5:2,3,4,6,7 2:5,8"), winner="good")
    v = validate(r)
    assert [(x.code, x.where) for x in v.violations] == [("day.missing_eliminated", "day 1")]
    assert (v.winner, v.ended) == (Winner.GOOD, "day 1")  # judged with the ballots' outcome
    # a wrong result is still caught
    assert found({**r, "result": {"winner": "killers"}}) == [
        ("day.missing_eliminated", "day 1"),
        ("result.wrong_winner", "result"),
    ]
    # nobody out (all abstained) and no declaration: the game goes on, so the result is wrong
    r = game("classic", CLASSIC8, N(1), D("-:2,3,4,5,6,7,8"), winner="good")
    assert found(r) == [("day.missing_eliminated", "day 1"), ("result.unfinished", "result")]


def test_a_middle_day_without_declaration_is_reported_at_that_day() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8"), N(4))
    assert found(r) == [("day.missing_eliminated", "day 1")]


def test_only_the_last_day_of_an_in_progress_record_may_stay_undeclared() -> None:
    assert found(game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8"))) == []
    assert found(game("classic", CLASSIC8, N(None), D(TIE8, TIE8, TIE8))) == [
        ("result.missing", "result")  # the game ended: only the result is missing
    ]


def test_live_play_writes_the_final_ties_declaration() -> None:
    s = GameState(RULESETS["classic"], SEATS8)
    s.apply(NightAction(None, None))
    for _ in range(3):
        s.apply(ballot(TIE8))
    assert (s.expected().step, s.expected().reason) == (Step.OVER, EndReason.FINAL_TIE_KILLERS)
    record = s.to_record()
    assert record.log is not None
    last = record.log[-1]
    assert isinstance(last, Day) and last.eliminated is None
    assert validate(record).valid
    s.apply(Eliminate(None))  # declaring it by hand is the same
    assert s.to_record() == record


@FAST
@given(st.integers(0, 2**32), st.sampled_from(list(RULESETS)))
def test_forgetting_the_last_declaration_is_one_violation_at_that_day(
    seed: int, ruleset: str
) -> None:
    raw = simulate_game(ruleset, sizes(ruleset)[seed % len(sizes(ruleset))], seed)
    last = raw["log"][-1]
    if last["phase"] != "day" or "eliminated" not in last:
        return
    day = f"day {last['n']}"
    out = last.pop("eliminated")
    # the eliminated seat's last words lose their ground with the declaration: that is
    # the one other thing reported, at the same day
    own_words = [w for w in last.get("last_words") or [] if w["seat"] == out]
    expected = [("day.missing_eliminated", day)]
    if own_words:
        expected.append(("last_words.not_entitled", day))
    assert sorted((x.code, x.where) for x in validate(raw).violations) == sorted(expected)
    last["last_words"] = [w for w in last.get("last_words") or [] if w["seat"] != out]
    v = validate(raw)
    assert [(x.code, x.where) for x in v.violations] == [("day.missing_eliminated", day)]
    in_progress = {k: x for k, x in raw.items() if k != "result"}
    assert [x.code for x in validate(in_progress).violations] in ([], ["result.missing"])


# --- 5. an empty list is the same as an absent key -----------------------------------------


def test_a_final_day_after_a_dawn_end_may_carry_empty_ballots() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(5), winner="good")
    r["log"].append({"phase": "day", "n": 2, "ballots": [], "eject": [], "last_words": []})
    v = validate(r)
    assert v.valid, v.violations
    assert v.ended == "night 2"


def test_a_day_with_empty_ballots_has_not_voted() -> None:
    base = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(4))
    base["log"].append({"phase": "day", "n": 2, "ballots": []})
    assert found(base) == []  # in progress: day 2 has not voted yet
    # finished: the day that must vote and did not is the mistake, reported at that day
    assert found({**base, "result": {"winner": "good"}}) == [("day.missing_ballots", "day 2")]
    base["log"].append({"phase": "night", "n": 3, "kill": 2, "check": None})
    assert found(base) == [("day.missing_ballots", "day 2")]


def test_the_state_reads_an_empty_tuple_as_no_ballots() -> None:
    record = parse_record(
        game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(4), D(eject=[2]))
    )
    assert record.log is not None
    day = record.log[-1]
    assert isinstance(day, Day)
    for ballots in ((), None):
        played = replace(record, log=(*record.log[:-1], replace(day, ballots=ballots)))
        assert validate(played).valid
        finished = replace(played, result=Winner.GOOD)
        assert [x.code for x in validate(finished).violations] == ["day.missing_ballots"]


# --- 6. ballots in a record are complete -------------------------------------------------


def test_an_incomplete_ballot_is_an_error_also_in_progress() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7"))
    assert found(r) == [("vote.missing_voter", "day 1 ballot 1")]
    assert validate(r).violations[0].params == {"voter": 8}
    s = GameState(RULESETS["classic"], SEATS8)
    s.apply(NightAction(3, None))
    with pytest.raises(IllegalEventError, match=r"vote\.missing_voter"):
        s.apply(ballot("1:2,4,5,6 5:1,7"))


@FAST
@given(st.integers(0, 2**32), st.sampled_from(list(RULESETS)))
def test_dropping_a_voter_is_caught_in_any_record(seed: int, ruleset: str) -> None:
    raw = simulate_game(ruleset, sizes(ruleset)[0], seed, variant=Variant.IN_PROGRESS)
    ballots = [
        (p["n"], k, b)
        for p in raw["log"]
        if p["phase"] == "day"
        for k, b in enumerate(p.get("ballots", ()), 1)
    ]
    if not ballots:
        return
    day, k, b = random.Random(seed).choice(ballots)
    del b[random.Random(seed).choice(sorted(b))]
    assert ("vote.missing_voter", f"day {day} ballot {k}") in found(raw)


# --- 7. all-abstain: nobody out, not a tie -------------------------------------------------


def test_all_abstain_in_ballot_three_is_not_a_final_tie() -> None:
    r = game("classic", CLASSIC8, N(None), D(TIE8, TIE8, ABSTAIN8, out=None), N(3))
    v = validate(r)
    assert v.valid, v.violations
    assert v.winner is None and v.status is Status.IN_PROGRESS
    assert found({**r, "result": {"winner": "killers"}}) == [("result.unfinished", "result")]
    s = GameState(RULESETS["classic"], SEATS8)
    s.apply(NightAction(None, None))
    s.apply(ballot(TIE8))
    s.apply(ballot(TIE8))
    s.apply(ballot(ABSTAIN8))
    e = s.expected()
    assert (e.step, e.eliminated, e.tie, e.winner) == (Step.DECLARE, None, None, None)
    assert not s.over


def test_all_abstain_in_ballot_one_needs_no_tie_break() -> None:
    r = game(
        "civilian-draw", "KPCCKPCCKPC", N(None), D("-:1,2,3,4,5,6,7,8,9,10,11", out=None), N(3)
    )
    assert found(r) == []
    r["log"][1]["ballots"].append(B("1:2,3,4 3:1,5,6 4:7,8,9,10,11"))
    assert found(r) == [("ballot.extra", "day 1 ballot 2")]


# --- 8. surrender after ejection -----------------------------------------------------------


def test_the_last_killer_may_surrender_after_an_ejection_the_same_day() -> None:
    r = game("classic", CLASSIC8, N(3), D(eject=[1], surrender=5), winner="good")
    v = validate(r)
    assert v.valid, v.violations
    assert (v.winner, v.ended, v.outcome.reason) == (Winner.GOOD, "day 1", EndReason.SURRENDER)
    assert v.outcome.ejected == (1,)
    s = GameState(RULESETS["classic"], SEATS8)
    s.apply(NightAction(3, None))
    assert s.expected().may_surrender == frozenset()
    s.apply(Eject(1))
    assert s.expected().may_surrender == frozenset({5})
    s.apply(Surrender(5))
    assert s.over and s.winner is Winner.GOOD and str(s.ending) == "seat 5 (killer) surrendered"


def test_an_ejection_that_leaves_a_teammate_still_forbids_surrender() -> None:
    r = game("classic", "KPCCKPCCKPC", N(3), D(eject=[1], surrender=5))
    assert found(r) == [("surrender.teammate_alive", "day 1")]
    v = validate(r).violations[0]
    assert v.params == {"variant": "one", "seat": 5, "seats": [9], "role": "killer"}
    assert v.message == "day 1: seat 5 surrendered while seat 9 (killer) still alive"


# --- 9. a result must be possible under the ruleset ----------------------------------------


@pytest.mark.parametrize(
    ("spec", "possible"),
    [
        ("classic", False),
        ("majority", False),
        ("mainstream", True),
        ("civilian-draw", True),
        ({"base": "classic", "overrides": {"final_tie": "draw"}}, True),
        ({"base": "classic", "overrides": {"killers_win": "police-out"}}, True),
        ({"base": "mainstream", "overrides": {"final_tie": "lot"}}, False),
        ({"base": "mainstream", "overrides": {"ballot": "majority"}}, False),
        ({"base": "civilian-draw", "overrides": {"ballot": "majority"}}, True),
        ({"base": "majority", "overrides": {"ballot": "plurality", "final_tie": "draw"}}, True),
    ],
)
def test_a_draw_where_the_ruleset_has_none(spec: Any, possible: bool) -> None:
    n = sizes(spec)[0]
    rules = get_ruleset(spec)
    assert can_end_drawn(rules) is possible
    raw = simulate_game(spec, n, 1, variant=Variant.RESULT_ONLY)
    raw["result"] = {"winner": "draw"}
    v = validate(raw)
    if possible:
        assert v.valid, v.violations
    else:
        assert [(x.code, x.where) for x in v.violations] == [("result.impossible", "result")]
        assert v.violations[0].params == {"declared": "draw", "ruleset": rules.id}
        assert v.violations[0].message == (
            f"result: draw declared, but no game under {rules.id} can end in a draw"
        )


def test_a_draw_in_a_full_record_is_reported_once() -> None:
    r = game("classic", CLASSIC8, N(None), D(TIE8, TIE8, TIE8, out=None), winner="draw")
    assert found(r) == [("result.wrong_winner", "result")]  # the replay already says it
    r = game("classic", CLASSIC8, N(None), N(3), winner="draw")  # a replay that stops early
    assert found(r) == [("phase.order", "night 1"), ("result.impossible", "result")]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.sampled_from(list(RULESETS)),
    st.sampled_from([None, "killers", "draw", "lot"]),
    st.sampled_from([None, "any-side-out", "all-good-out", "police-out"]),
    st.integers(0, 2**16),
)
def test_no_ruleset_draws_where_it_says_it_cannot(
    base: str, final_tie: str | None, killers_win: str | None, seed: int
) -> None:
    overrides: dict[str, Any] = {}
    if final_tie and RULESETS[base].final_tie is not None:
        overrides["final_tie"] = final_tie
    if killers_win:
        overrides["killers_win"] = killers_win
    spec = {"base": base, "overrides": overrides}
    rules = get_ruleset(spec)
    for i in range(8):
        v = validate(simulate_game(spec, sizes(spec)[(seed + i) % len(sizes(spec))], seed + i))
        assert v.valid, v.violations
        if v.winner is Winner.DRAW:
            assert can_end_drawn(rules)


# --- 11. series ----------------------------------------------------------------------------


def _cup(*phases: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return game("classic", CLASSIC8, *phases, meta={"event": "cup"}, **kw)


def test_an_unresolvable_ruleset_breaks_the_chain() -> None:
    g1, g2 = _cup(N(3)), _cup(N(3))
    assert not validate_series([g1, g2])[1].valid
    unknown = {**_cup(N(3)), "ruleset": "house-rules"}
    v1, vx, v2 = validate_series([g1, unknown, g2])
    assert v1.valid and not vx.valid and v2.valid  # the house-rules game was played between
    assert [x.code for x in vx.violations] == ["ruleset.unknown"]
    other = {**unknown, "meta": {"event": "league"}}  # a game of another event does not count
    assert [x.code for x in validate_series([g1, other, g2])[2].violations] == [
        "series.repeat_night1_victim"
    ]


def test_a_record_that_cannot_be_replayed_breaks_the_chain() -> None:
    g1, g2 = _cup(N(3)), _cup(N(3))
    bad_cards = copy.deepcopy(g1)
    bad_cards["seats"][2]["role"] = "killer"
    verdicts = validate_series([g1, bad_cards, g2])
    assert [x.code for x in verdicts[1].violations] == ["setup.role_counts"]
    assert verdicts[2].valid
    result_only = _cup(log=False, winner="good")
    assert validate_series([g1, result_only, g2])[2].valid


def test_an_unreadable_record_stops_the_series_check() -> None:
    g1, g2, g3 = (json.dumps(_cup(N(3))) for _ in range(3))
    verdicts = validate_series([g1, g2, "{not json", g3])
    assert len(verdicts) == 4
    assert [x.code for x in verdicts[1].violations] == ["series.repeat_night1_victim"]
    assert verdicts[1].violations[0].params == {"player": "p3", "seat": 3, "game": 1}
    assert verdicts[1].violations[0].message == (
        "series: p3 (seat 3) is the night-1 victim again; they were the night-1 victim of "
        "their previous game (game 1)"
    )
    assert [x.code for x in verdicts[2].violations] == ["record.json"]
    assert verdicts[3].valid  # judged alone: the series check stopped at the unreadable one


def test_every_record_counts_in_the_given_order() -> None:
    killed = _cup(N(3))
    spared = _cup(N(4))
    codes = [[x.code for x in v.violations] for v in validate_series([killed, spared, killed])]
    assert codes == [[], [], []]
    codes = [[x.code for x in v.violations] for v in validate_series([spared, killed, killed])]
    assert codes == [[], [], ["series.repeat_night1_victim"]]
