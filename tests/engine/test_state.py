"""GameState: what it expects next, what it refuses, and its agreement with validate()."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import (
    Ballot,
    GameRecord,
    LastWordsEntry,
    Night,
    Role,
    Seat,
    Violation,
    Winner,
    parse_record,
    read_record,
)
from engine.rulesets import RULESETS, FinalTie, get_ruleset
from engine.simulate import Variant, simulate_game
from engine.state import (
    Eject,
    Eliminate,
    EndReason,
    Event,
    GameState,
    IllegalEventError,
    Lot,
    NightAction,
    Step,
    Surrender,
    Tie,
    TieKind,
    day_events,
)
from engine.validate import validate
from tests.engine.fixtures import B
from tests.engine.fixtures.mutations import CATALOGUE
from tests.engine.test_validate_properties import SPECS

CLASSIC8 = [
    Seat(i, f"p{i}", Role(r))
    for i, r in enumerate(
        ["killer", "police", "civilian", "civilian", "killer", "police", "civilian", "civilian"], 1
    )
]
TIE8 = "1:2,3,4,6 3:1,5,7,8"


def ballot(spec: str) -> Ballot:
    return Ballot(tuple((int(v), t) for v, t in B(spec).items()))


def state(ruleset: str = "classic", seats: list[Seat] = CLASSIC8) -> GameState:
    return GameState(RULESETS[ruleset], seats)


def test_a_new_game_expects_night_one() -> None:
    e = state().expected()
    assert (e.step, e.phase) == (Step.NIGHT, "night 1")
    assert e.kill_targets == e.check_targets == frozenset(range(1, 9))


def test_the_day_expects_ejections_surrender_or_ballot_one() -> None:
    s = state()
    s.apply(NightAction(3, 1))
    e = s.expected()
    assert (e.step, e.phase, e.ballot, e.abstain) == (Step.DAY, "day 1", 1, True)
    assert e.voters == e.candidates == e.ejectable == frozenset({1, 2, 4, 5, 6, 7, 8})
    assert e.may_surrender == frozenset()  # both killers and both police alive
    assert e.last_words == frozenset({3})


def test_the_tie_ladder_step_by_step() -> None:
    s = state("mainstream")
    s.apply(NightAction(None, None))
    s.apply(ballot(TIE8))
    e = s.expected()
    assert (e.step, e.ballot, e.candidates) == (Step.BALLOT, 2, frozenset({1, 3}))
    assert e.tie == Tie(TieKind.TIE_BREAK, 1, (1, 3))
    assert (e.tie.code, e.tie.params) == ("tie.tie_break", {"k": 1, "seats": [1, 3]})
    assert str(e.tie) == "ballot 1 tied between seats 1, 3: tie-break"
    s.apply(ballot(TIE8))
    e = s.expected()
    assert (e.ballot, e.abstain) == (3, False)  # 002: everyone votes in the off-site PK
    assert e.tie == Tie(TieKind.OFF_SITE_PK, 2, (1, 3))
    assert str(e.tie) == "ballot 2 tied between seats 1, 3: off-site PK"
    s.apply(ballot(TIE8))
    e = s.expected()
    assert (e.step, e.winner, e.reason) == (Step.OVER, Winner.DRAW, EndReason.FINAL_TIE_DRAW)
    assert str(e.ending) == "a third tied ballot draws the game"
    assert s.tie == Tie(TieKind.FINAL, 3, (1, 3), FinalTie.DRAW)
    assert str(s.tie) == "ballot 3 tied between seats 1, 3: final tie (draw)"


def test_lot_then_declaration() -> None:
    s = GameState(get_ruleset({"base": "mainstream", "overrides": {"final_tie": "lot"}}), CLASSIC8)
    s.apply(NightAction(None, None))
    for _ in range(3):
        s.apply(ballot(TIE8))
    e = s.expected()
    assert (e.step, e.lot_candidates) == (Step.LOT, frozenset({1, 3}))
    with pytest.raises(IllegalEventError) as err:
        s.apply(Lot(4))
    assert (err.value.code, err.value.where) == ("lot.not_tied", "day 1")
    s.apply(Lot(3))
    assert (s.expected().step, s.expected().eliminated) == (Step.DECLARE, 3)
    s.apply(Eliminate(3))
    e = s.expected()
    assert (e.step, e.phase, e.last_words) == (Step.NIGHT, "night 2", frozenset({3}))


def test_illegal_events_are_refused_and_leave_the_state_unchanged() -> None:
    s = state()
    s.apply(NightAction(3, 1))
    before = s.expected()
    with pytest.raises(IllegalEventError) as err:
        s.apply(ballot("1:2,4,5,6 5:1,7,8 2:3"))
    assert err.value.code == "vote.dead_voter"
    assert err.value.where == "day 1 ballot 1"
    assert err.value.message == "day 1 ballot 1: seat 3 voted but was killed on night 1"
    assert isinstance(err.value, ValueError)
    assert s.expected() == before
    with pytest.raises(IllegalEventError, match=r"surrender\.teammate_alive"):
        s.apply(Surrender(1))
    with pytest.raises(IllegalEventError, match=r"day\.missing_ballots"):
        s.apply(NightAction(4, None))
    s.apply(LastWordsEntry(3, (1,)))
    s.apply(ballot("1:2,4,5,6 5:1,7,8"))
    with pytest.raises(IllegalEventError, match=r"event\.unexpected"):
        s.apply(Eject(2))  # ejections come before the first ballot


def test_game_over_and_why() -> None:
    s = state()
    s.apply(NightAction(1, None))
    s.apply(ballot("5:2,3,4,6,7 2:5,8"))
    assert s.expected().eliminated == 5
    s.apply(Eliminate(5))
    e = s.expected()
    assert (e.step, e.winner, e.reason) == (Step.OVER, Winner.GOOD, EndReason.KILLERS_OUT)
    assert e.ending is not None
    assert (e.ending.code, e.ending.params) == ("end.killers_out", {})
    assert str(e.ending) == "every killer is out"
    with pytest.raises(IllegalEventError) as err:
        s.apply(NightAction(None, None))
    assert (err.value.code, err.value.where) == ("phase.after_end", "night 2")
    record = s.to_record()
    assert record.result is Winner.GOOD
    assert validate(record).valid


# --- agreement with whole-record validation -----------------------------------------------


def events_of(record: GameRecord) -> list[Event]:
    events: list[Event] = []
    for phase in record.log or ():
        if isinstance(phase, Night):
            events.append(NightAction(phase.kill, phase.check))
        else:
            events.extend(day_events(phase))
    return events


def strict_play(record: GameRecord) -> tuple[GameState, tuple[Violation, ...]]:
    s = GameState(record.rules, record.seats)
    for event in events_of(record):
        try:
            s.apply(event)
        except IllegalEventError as e:
            return s, e.violations
    return s, ()


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(list(Variant)), st.integers(0, 2**32))
def test_live_play_rebuilds_every_simulated_record(spec: Any, variant: Variant, seed: int) -> None:
    n = min(get_ruleset(spec).table_sizes) + seed % 3
    n = n if n in get_ruleset(spec).table_sizes else min(get_ruleset(spec).table_sizes)
    raw = simulate_game(spec, n, seed, variant=variant)
    record = parse_record(raw)
    s, refused = strict_play(record)
    assert refused == ()
    if record.log is not None:
        assert s.to_record(result=record.result is not None) == record


LOG_MUTATIONS = sorted(
    set(CATALOGUE)
    - {"wrong_winner", "bad_role_counts", "phase_out_of_order", "unknown_key", "play_after_end"}
)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(LOG_MUTATIONS), st.integers(0, 2**32))
def test_live_play_and_validation_agree(spec: Any, name: str, seed: int) -> None:
    sizes = sorted(get_ruleset(spec).table_sizes)
    raw = copy.deepcopy(simulate_game(spec, sizes[seed % len(sizes)], seed))
    planted = CATALOGUE[name](raw, random.Random(seed))
    if planted is None:
        return
    record, problems = read_record(raw)
    assert record is not None and problems == []
    _, refused = strict_play(record)
    in_log = [v for v in validate(record).violations if v.where not in ("result", "awards")]
    assert refused, f"{name}: live play accepted what validation rejects: {in_log}"
    assert in_log[: len(refused)] == list(refused)


def test_a_bad_deal_is_refused_like_a_bad_record() -> None:
    with pytest.raises(IllegalEventError) as err:
        GameState(RULESETS["classic"], [*CLASSIC8[:7], Seat(8, "p8", Role.KILLER)])
    assert (err.value.code, err.value.where) == ("setup.role_counts", "setup")
    with pytest.raises(IllegalEventError, match=r"setup\.players"):
        GameState(RULESETS["majority"], CLASSIC8)
    with pytest.raises(IllegalEventError, match=r"setup\.seats") as err:
        GameState(RULESETS["classic"], [*CLASSIC8[:7], Seat(9, "p9", Role.CIVILIAN)])
    assert err.value.params == {"variant": "deal", "n": 8}
    assert err.value.message == "setup: seats must be 1..8, each once"
    with pytest.raises(TypeError, match="not a game event"):
        state().apply("kill 3")  # type: ignore[arg-type]


# --- codes and params ----------------------------------------------------------------------


def test_a_refusal_carries_the_first_violations_code_and_params() -> None:
    s = state()
    s.apply(NightAction(3, 1))
    with pytest.raises(IllegalEventError) as err:
        s.apply(ballot("1:2,4,5,6 5:1,7,8 2:3"))
    e = err.value
    assert (e.code, e.where) == ("vote.dead_voter", "day 1 ballot 1")
    assert e.params == {"voter": 3, "variant": "kill", "cause": "kill", "on": "night 1"}
    assert e.violations[0].as_dict() == {
        "code": "vote.dead_voter",
        "where": "day 1 ballot 1",
        "params": {"voter": 3, "variant": "kill", "cause": "kill", "on": "night 1"},
        "message": "day 1 ballot 1: seat 3 voted but was killed on night 1",
    }
    assert str(e) == (
        "day 1 ballot 1: day 1 ballot 1: seat 3 voted but was killed on night 1 [vote.dead_voter]"
    )


@pytest.mark.parametrize(
    ("event", "variant", "message"),
    [
        (Eject(2), "eject_after_ballot", "ejections come before the day's first ballot now"),
        (
            Surrender(1),
            "surrender_after_ballot",
            "a surrender comes before the day's first ballot now",
        ),
        (Eliminate(1), "eliminate_twice", "the day's elimination is already declared now"),
    ],
)
def test_an_event_out_of_place_names_what_and_the_next_step(
    event: Event, variant: str, message: str
) -> None:
    s = state()
    s.apply(NightAction(3, None))
    s.apply(ballot("1:2,4,5,6 5:1,7,8"))
    s.apply(Eliminate(1))
    with pytest.raises(IllegalEventError) as err:
        s.apply(event)
    assert err.value.code == "event.unexpected"
    assert err.value.params == {"variant": variant, "what": variant, "step": "night"}
    assert err.value.message == f"day 1: {message}; next: night"


def test_a_night_out_of_order_in_live_play() -> None:
    s = state()
    with pytest.raises(IllegalEventError) as err:
        s.apply(Night(2, None, None))
    assert (err.value.code, err.value.where) == ("phase.order", "night 2")
    assert err.value.params == {"variant": "live", "next_phase": "night 1"}
    assert err.value.message == "night 2: out of order; night 1 is next"


def test_plural_teammates_and_a_lot_victim_in_the_words() -> None:
    eleven = [Seat(i, f"p{i}", Role(r)) for i, r in enumerate(
        ["killer", "police", "civilian", "civilian", "killer", "police", "civilian", "civilian",
         "killer", "police", "civilian"], 1)]  # fmt: skip
    s = GameState(RULESETS["classic"], eleven)
    s.apply(NightAction(3, None))
    with pytest.raises(IllegalEventError) as err:
        s.apply(Surrender(1))
    assert err.value.params == {"variant": "many", "seat": 1, "seats": [5, 9], "role": "killer"}
    assert err.value.message == "day 1: seat 1 surrendered while seats 5, 9 (killer) still alive"
    lot = GameState(
        get_ruleset({"base": "mainstream", "overrides": {"final_tie": "lot"}}), CLASSIC8
    )
    lot.apply(NightAction(None, None))
    for _ in range(3):
        lot.apply(ballot(TIE8))
    assert str(lot.tie) == "ballot 3 tied between seats 1, 3: final tie (lot)"
    lot.apply(Lot(3))
    lot.apply(Eliminate(3))
    with pytest.raises(IllegalEventError) as err:
        lot.apply(NightAction(3, None))
    assert err.value.params["variant"] == "lot"
    assert (
        err.value.message == "night 2: the killers chose seat 3, who was drawn out by lot on day 1"
    )


def test_a_missing_tie_break_names_the_tie() -> None:
    s = state()
    s.apply(NightAction(None, None))
    s.apply(ballot(TIE8))
    with pytest.raises(IllegalEventError) as err:
        s.apply(NightAction(None, None))
    assert (err.value.code, err.value.where) == ("ballot.missing", "day 1 ballot 2")
    assert err.value.params == {
        "variant": "tie_break",
        "k": 1,
        "seats": [1, 3],
        "next_ballot": 2,
    }
    assert err.value.message == (
        "day 1 ballot 2: ballot 1 tied between seats 1, 3: tie-break, but no ballot 2"
    )
