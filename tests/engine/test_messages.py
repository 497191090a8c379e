"""The catalogue as a whole: every key renders from its declared params, unknown keys are
a bug, and engine errors travel (pickle: a task result, a cache) as code and params."""

from __future__ import annotations

import pickle

import pytest

from engine.errors import EngineError
from engine.messages import CATALOGUE, PARAMS, ParamKind, UnknownCode, placeholders, render
from engine.record import RecordError, Violation, read_record
from engine.rulesets import RulesetError, get_ruleset
from engine.state import GameState, IllegalEventError, NightAction

SAMPLES = {
    ParamKind.INT: 3,
    ParamKind.SEAT: 7,
    ParamKind.SEATS: [1, 7],
    ParamKind.INTS: [8, 9],
    ParamKind.PHASE: "day 2 ballot 1",
    ParamKind.TEXT: "x",
    ParamKind.TEXTS: ["a", "b"],
    ParamKind.WORD: "killer",
    ParamKind.WORDS: ["killer", "police"],
    ParamKind.DECIMAL: "1.5",
}


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_key_renders_from_its_declared_params(key: str) -> None:
    code, _, variant = key.partition("/")
    names = placeholders(CATALOGUE[key])
    assert set(names) <= PARAMS.keys(), f"{key}: undeclared params {set(names) - PARAMS.keys()}"
    params: dict[str, object] = {name: SAMPLES[PARAMS[name]] for name in names}
    if variant:
        params["variant"] = variant
    text = render(code, params)  # type: ignore[arg-type]
    assert text
    assert not any("{" + name + "}" in text for name in names)


def test_an_unknown_code_is_a_bug_not_a_sentence() -> None:
    with pytest.raises(UnknownCode):
        render("no.such.code", {})
    with pytest.raises(UnknownCode):
        EngineError("a sentence in English, as errors were once raised")


def _errors() -> list[EngineError]:
    found: list[EngineError] = []
    try:
        get_ruleset("no-such-ruleset")
    except RulesetError as e:
        found.append(e)
    record, problems = read_record({"format": "KGR/1"})
    assert record is None and problems
    found.append(RecordError(problems))
    state = GameState(get_ruleset("classic"), _seats(12))
    try:
        state.apply(NightAction(kill=99, check=None))
    except IllegalEventError as e:
        found.append(e)
    return found


def _seats(n: int) -> list[object]:
    from engine.record import Role, Seat

    roles = [Role.KILLER] * 3 + [Role.POLICE] * 3 + [Role.CIVILIAN] * (n - 6)
    return [Seat(i + 1, f"p{i + 1}", r) for i, r in enumerate(roles)]


def test_engine_errors_pickle_as_code_and_params() -> None:
    errors = _errors()
    assert {type(e) for e in errors} == {RulesetError, RecordError, IllegalEventError}
    for e in errors:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e)
        assert (back.code, back.params, str(back)) == (e.code, e.params, str(e))
        if isinstance(e, (RecordError, IllegalEventError)):
            assert back.violations == e.violations


def test_a_violation_renders_its_place_and_sentence() -> None:
    v = Violation("vote.duplicate_voter", "day 1 ballot 1", {"voter": 4})
    assert v.message.startswith("day 1 ballot 1: ")
    assert v.as_dict()["params"] == {"voter": 4}
