"""The live sheet, through its services: every step replayed by the engine."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services, sheet
from games.models import Game, GameVersion
from games.replay import StepError, record_to_steps
from tests.games.conftest import World, make_world, refused

pytestmark = pytest.mark.django_db


def play(world: World, steps: list[dict], user=None) -> dict:
    user = user or world.user("referee")
    state = sheet.sheet_state(user, world.game)
    for i, s in enumerate(steps):
        state = sheet.add_step(user, world.game, {**s, "id": f"s{i}"}, state["revision"])
    return state


@pytest.mark.parametrize(
    "ruleset,n,seed",
    [
        ("classic", 12, 3),
        ("classic", 8, 4),
        ("mainstream", 6, 5),
        ("mainstream", 17, 6),
        ("civilian-draw", 11, 7),
        ("majority", 10, 8),
    ],
)
def test_simulated_games_play_through_the_sheet(ruleset: str, n: int, seed: int) -> None:
    world = make_world(ruleset, n)
    record = world.record(seed)
    state = play(world, record_to_steps(record))
    assert state["over"] and state["expected"]["step"] == "over"
    assert state["record"]["result"] == record["result"]
    assert state["record"]["log"] == record["log"]
    version = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert version.valid, version.violations
    assert version.status == GameVersion.Status.SUBMITTED
    assert version.source == GameVersion.Source.SHEET
    assert version.record["meta"]["table"] == "1"


def test_deal_counts_are_checked_against_the_ruleset(world: World) -> None:
    roles = {str(i): "civilian" for i in range(1, 13)}
    roles["1"] = "killer"
    with pytest.raises(StepError, match="3 killers"):
        play(world, [{"type": "deal", "roles": roles}])
    state = sheet.sheet_state(world.user("referee"), world.game)
    assert state["expected"]["step"] == "deal"
    assert state["counts"] == {"killer": 3, "police": 3, "civilian": 6}


def _deal12() -> dict:
    roles = {str(i): "civilian" for i in range(1, 13)}
    roles.update(
        {"1": "killer", "2": "killer", "3": "killer", "4": "police", "5": "police", "6": "police"}
    )
    return {"type": "deal", "roles": roles}


def test_illegal_steps_get_the_engine_message_and_change_nothing(world: World) -> None:
    state = play(world, [_deal12(), {"type": "night", "kill": 7, "check": 1}])
    assert state["expected"]["step"] == "day" and 7 not in state["expected"]["alive"]
    votes = {str(s): 8 for s in state["expected"]["voters"] if s != 8}
    votes["8"] = 7  # a vote for the dead
    with pytest.raises(StepError) as e:
        sheet.add_step(
            world.user("referee"),
            world.game,
            {"type": "ballot", "votes": votes, "id": "x"},
            state["revision"],
        )
    assert e.value.code == "vote.dead_target" and "seat 7" in e.value.message
    assert sheet.sheet_state(world.user("referee"), world.game)["revision"] == state["revision"]


def test_tie_ladder_prompts_and_computed_elimination(world: World) -> None:
    state = play(world, [_deal12(), {"type": "night", "kill": 7, "check": 1}])
    voters = state["expected"]["voters"]
    assert voters == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
    # 5–5 with one abstention: 2..6 vote for 1; 1 and 9..12 vote for 8; 8 abstains
    half = {str(v): 1 for v in (2, 3, 4, 5, 6)} | {str(v): 8 for v in (1, 9, 10, 11, 12)}
    half["8"] = None
    state = play_more(world, state, [{"type": "ballot", "votes": half}])
    e = state["expected"]
    assert e["step"] == "ballot" and e["ballot"] == 2 and e["candidates"] == [1, 8]
    assert "tie-break" in e["tie"]
    state = play_more(world, state, [{"type": "ballot", "votes": half}])
    e = state["expected"]
    assert e["ballot"] == 3 and "off-site PK" in e["tie"]
    final = {str(v): 1 for v in voters if v != 1}
    final["1"] = 8
    state = play_more(world, state, [{"type": "ballot", "votes": final}])
    assert state["expected"]["step"] == "declare" and state["expected"]["eliminated"] == 1
    with pytest.raises(StepError, match="ballots put seat 1 out"):
        play_more(world, state, [{"type": "eliminate", "seat": 8}])
    state = play_more(world, state, [{"type": "eliminate", "seat": 1}])
    assert 1 in state["expected"]["last_words"]  # classic: first-round deaths speak


def play_more(world: World, state: dict, steps: list[dict]) -> dict:
    for s in steps:
        state = sheet.add_step(
            world.user("referee"), world.game, {**s, "id": None}, state["revision"]
        )
    return state


def test_retry_of_a_saved_step_is_not_applied_twice_and_stale_is_409(world: World) -> None:
    ref = world.user("referee")
    state = sheet.add_step(ref, world.game, {**_deal12(), "id": "deal-1"}, 0)
    again = sheet.add_step(ref, world.game, {**_deal12(), "id": "deal-1"}, 0)
    assert again["revision"] == state["revision"] == 1 and len(again["steps"]) == 1
    with refused(409, "sheet.stale_revision") as e:
        sheet.add_step(ref, world.game, {"type": "night", "kill": 7, "check": 1, "id": "n"}, 0)
    assert isinstance(e.value, sheet.StaleSheet) and e.value.state["revision"] == 1
    assert e.value.data()["revision"] == 1 and e.value.data()["state"]["revision"] == 1


def test_undo_takes_back_the_last_step(world: World) -> None:
    state = play(world, [_deal12(), {"type": "night", "kill": 7, "check": 1}])
    state = sheet.undo_step(world.user("referee"), world.game, state["revision"])
    assert state["expected"]["step"] == "night" and len(state["steps"]) == 1
    with pytest.raises(sheet.StaleSheet):
        sheet.undo_step(world.user("referee"), world.game, state["revision"] - 1)


def test_awards_are_checked_by_the_engine(world: World) -> None:
    state = play(world, [_deal12()])
    with pytest.raises(StepError, match="positive number of points"):
        play_more(world, state, [{"type": "award", "seat": 2, "kind": "bonus"}])
    state = play_more(
        world, state, [{"type": "award", "seat": 2, "kind": "bonus", "points": 0.3, "reason": "x"}]
    )
    assert state["awards"] == [{"seat": 2, "kind": "bonus", "points": 0.3, "reason": "x"}]


def test_in_progress_sheet_submits_as_draft(world: World) -> None:
    state = play(world, [_deal12(), {"type": "night", "kill": 7, "check": 1}])
    v = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert v.valid and v.status == GameVersion.Status.DRAFT and v.completeness == "in-progress"


def test_sheet_is_officials_only_and_closes_on_confirmation(world: World) -> None:
    for role in ("other_referee", "player_at_table", "other_player"):
        with refused(403, "game.not_allowed"):
            sheet.sheet_state(world.user(role), world.game)
    record = world.record(9)
    state = play(world, record_to_steps(record))
    sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    services.confirm_version(world.user("organiser"), world.game, 1)
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.CONFIRMED
    with refused(409, "sheet.closed"):
        sheet.undo_step(world.user("referee"), world.game, state["revision"])


def test_event_ruleset_overrides_reach_the_sheet_lots_included(db: None) -> None:
    """mainstream with ``final_tie: lot``: the sheet asks for lots, and the submitted
    record names the ruleset with its overrides."""
    from engine.rulesets import get_ruleset
    from engine.simulate import simulate_game

    world = make_world("mainstream", 12)
    spec = {"base": "mainstream", "overrides": {"final_tie": "lot"}}
    world.event.ruleset_overrides = spec["overrides"]
    world.event.save()
    record = simulate_game(get_ruleset(spec), 12, 4, players=world.handles)
    assert any("lot" in p for p in record["log"])
    steps = record_to_steps(record)
    lot_at = next(i for i, s in enumerate(steps) if s["type"] == "lot")
    state = play(world, steps[:lot_at])
    assert state["expected"]["step"] == "lot" and state["expected"]["lot_candidates"]
    assert "final tie (lot)" in state["expected"]["tie"]
    state = play_more(world, state, steps[lot_at:])
    assert state["over"]
    version = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert version.valid, version.violations
    assert version.record["ruleset"] == spec
    # the same game recorded under the plain ruleset is not this game's
    plain = dict(version.record, ruleset="mainstream")
    other = services.submit_record(world.user("referee"), world.game, plain, "api")
    assert any(v["code"] == "platform.ruleset" for v in other.violations)


def test_submitting_the_same_sheet_twice_adds_one_version(world: World) -> None:
    state = play(world, record_to_steps(world.record(14)))
    first = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    again = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert again.pk == first.pk and world.game.versions.count() == 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(["classic", "mainstream", "civilian-draw", "majority"]),
    seed=st.integers(min_value=0, max_value=2**31),
    data=st.data(),
)
@pytest.mark.django_db
def test_any_legal_game_of_any_ruleset_plays_through_the_sheet(
    ruleset: str, seed: int, data: st.DataObject
) -> None:
    """The engine's simulator writes legal games; every one replays on the sheet, step by
    step, to the same record, and is accepted as a valid submission."""
    from engine.rulesets import get_ruleset

    sizes = sorted(get_ruleset(ruleset).table_sizes)
    n = data.draw(st.sampled_from(sizes), label="players")
    world = make_world(ruleset, n)
    record = world.record(seed)
    state = play(world, record_to_steps(record))
    assert state["record"]["log"] == record["log"]
    assert state["record"]["result"] == record["result"]
    version = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert version.valid and version.status == GameVersion.Status.SUBMITTED, version.violations
