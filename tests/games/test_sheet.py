"""The live sheet, through its services: every step replayed by the engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from engine.record import parse_record
from engine.scoring import score_game, summarize
from games import services, sheet
from games.models import Game, GameSheet, GameVersion
from games.replay import StepError, record_to_steps
from league.events.forms import EventForm
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
    assert state["awards"] == [
        {"seat": 2, "kind": "bonus", "points": 0.3, "reason": "x", "phase": "night 1"}
    ]
    assert state["fouls"]["seats"] == []  # a bonus is no foul


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


# --- the referee's console (issue #20): names, timers, fouls ---------------------------


def test_state_names_every_seat(world: World) -> None:
    state = sheet.sheet_state(world.user("referee"), world.game)
    seats = world.table.seats.select_related("player")
    assert state["names"] == {str(s.number): s.player.display_name for s in seats}
    assert len(state["names"]) == 12


def test_timers_follow_the_event_and_the_phase(world: World) -> None:
    world.event.speech_seconds, world.event.tie_speech_seconds = 45, 25
    world.event.last_words_seconds = 15
    world.event.save()
    state = play(world, [_deal12()])
    timer = state["timer"]
    assert timer["seconds"] == {"speech": 45, "tie_speech": 25, "last_words": 15}
    assert timer["speakers"] == []  # nobody speaks at night
    state = play_more(world, state, [{"type": "night", "kill": 7, "check": 1}])
    timer = state["timer"]
    # the victim's last words, then everyone alive clockwise from the seat after them
    assert timer["speakers"][0] == {"seat": 7, "kind": "last_words", "seconds": 15}
    order = [s["seat"] for s in timer["speakers"][1:]]
    assert order == [8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
    assert {s["kind"] for s in timer["speakers"][1:]} == {"speech"}
    assert timer["phase"] == "day 1" and timer["round"] == "day 1:1"
    state = play_more(world, state, [{"type": "last_words", "seat": 7, "suspects": [1]}])
    assert [s["seat"] for s in state["timer"]["speakers"]] == order
    # a 5–5 tie: the tied speak again; tied again: the others speak before the PK
    half = {str(v): 1 for v in (2, 3, 4, 5, 6)} | {str(v): 8 for v in (1, 9, 10, 11, 12)}
    half["8"] = None
    state = play_more(world, state, [{"type": "ballot", "votes": half}])
    timer = state["timer"]
    assert timer["round"] == "day 1:2"
    assert [(s["seat"], s["kind"], s["seconds"]) for s in timer["speakers"]] == [
        (1, "tie_speech", 25),
        (8, "tie_speech", 25),
    ]
    state = play_more(world, state, [{"type": "ballot", "votes": half}])
    others = [s["seat"] for s in state["timer"]["speakers"]]
    assert others == [2, 3, 4, 5, 6, 9, 10, 11, 12]


def test_a_club_game_has_the_default_timers(world: World) -> None:
    referee = world.user("referee")
    club = world.event.club
    ref = referee.referee
    ref.club = club
    ref.save()
    game = services.create_club_game(referee, club, "classic", players=world.handles)
    state = sheet.sheet_state(referee, game)
    assert state["timer"]["seconds"] == {"speech": 60, "tie_speech": 30, "last_words": 20}
    assert state["fouls"]["profile"] is None  # nothing shown depends on it yet
    state = sheet.add_step(referee, game, {**_deal12(), "id": "d"}, state["revision"])
    warning = {"type": "award", "seat": 2, "kind": "warning", "id": "w"}
    state = sheet.add_step(referee, game, warning, state["revision"])
    assert state["fouls"]["profile"] == "club-v1" and state["fouls"]["threshold"] == 4
    assert state["fouls"]["seats"][0]["warnings"] == 1


def _warn(world: World, state: dict, seat: int, reason: str = "") -> dict:
    step = {"type": "award", "seat": seat, "kind": "warning", "phase": "night 9"}
    return play_more(world, state, [{**step, "reason": reason} if reason else step])


def test_the_fourth_warning_shows_its_half_point_at_once(world: World) -> None:
    state = play(world, [_deal12(), {"type": "night", "kill": 7, "check": 1}])
    for _ in range(3):
        state = _warn(world, state, 9)
    (row,) = state["fouls"]["seats"]
    assert (row["seat"], row["warnings"], row["automatic"], row["total"]) == (9, 3, [], "0.0")
    assert row["name"] == state["names"]["9"]
    assert row["next_warning_costs"] == "-0.5"  # said before the fourth is given
    state = _warn(world, state, 9, "phone at the table")
    (row,) = state["fouls"]["seats"]
    assert row["warnings"] == 4 and row["total"] == "-0.5" and row["next_warning_costs"] is None
    (line,) = row["automatic"]
    assert line["kind"] == "warnings" and line["points"] == "-0.5"
    assert line["text"] == "4 warnings in one game: automatic penalty (once)"
    # the phase is the engine's, whatever the client said, and kept in the sheet's steps
    assert [a["phase"] for a in state["awards"]] == ["day 1"] * 4
    assert state["steps"][-1]["summary"] == "warning for seat 9 (day 1)"
    stored = GameSheet.objects.get(game=world.game).steps
    assert [s["phase"] for s in stored if s["type"] == "award"] == ["day 1"] * 4
    state = _warn(world, state, 9)  # a fifth: still one half point
    assert state["fouls"]["seats"][0]["total"] == "-0.5"


def test_an_ejection_and_a_penalty_are_shown_and_reach_the_record(world: World) -> None:
    state = play(world, [_deal12()])
    assert state["fouls"]["ejection_penalty"] is None  # at night: no ejection to confirm
    state = play_more(world, state, [{"type": "night", "kill": 7, "check": 1}])
    assert 10 in state["expected"]["ejectable"]
    assert state["fouls"]["ejection_penalty"] == "-0.5"  # said by the eject confirmation
    state = play_more(
        world,
        state,
        [
            {"type": "eject", "seat": 10},
            {"type": "award", "seat": 11, "kind": "penalty", "points": 0.3, "reason": "noise"},
        ],
    )
    seat10 = next(s for s in state["seats"] if s["seat"] == 10)
    assert not seat10["alive"] and 10 not in state["expected"]["voters"]
    rows = {r["seat"]: r for r in state["fouls"]["seats"]}
    assert rows[10]["ejected"] and rows[10]["total"] == "-0.5"
    assert rows[10]["automatic"][0]["text"] == "ejected by the referee"
    assert rows[11]["penalties"] == "0.3" and rows[11]["total"] == "-0.3"
    for _ in range(4):
        state = _warn(world, state, 10)  # a dead seat may still be warned
    assert {r["seat"]: r["total"] for r in state["fouls"]["seats"]}[10] == "-1.0"
    version = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    record = version.record
    assert record["log"][1]["eject"] == [10]
    assert record["awards"][0] == {"seat": 11, "kind": "penalty", "points": 0.3, "reason": "noise"}
    assert record["awards"][1:] == [{"seat": 10, "kind": "warning"}] * 4  # KGR/1: no phase
    assert version.valid, version.violations


def test_console_foul_totals_equal_the_scorer(world: World) -> None:
    """The whole game played, fouls included: each seat's console total is its scored
    penalties and automatic lines."""
    record = world.record(5)
    steps = record_to_steps(record)
    fouls = [{"type": "award", "seat": 3, "kind": "warning"}] * 4 + [
        {"type": "award", "seat": 4, "kind": "penalty", "points": 1}
    ]
    state = play(world, steps[:2] + fouls + steps[2:])
    version = sheet.submit_sheet(world.user("referee"), world.game, state["revision"])
    assert version.valid, version.violations
    scored = score_game(summarize(parse_record(version.record), "g"))
    foul_kinds = {"penalty", "warnings", "ejection"}
    for row in state["fouls"]["seats"]:
        player = next(p for p in scored.players if p.seat == row["seat"])
        expected = sum((i.points for i in player.items if i.kind in foul_kinds), Decimal(0))
        assert Decimal(row["total"]) == expected
    assert {r["seat"] for r in state["fouls"]["seats"]} >= {3, 4}


def test_a_long_award_reason_is_refused(world: World) -> None:
    state = play(world, [_deal12()])
    with refused(400, "sheet.invalid"):
        play_more(
            world, state, [{"type": "award", "seat": 1, "kind": "warning", "reason": "x" * 201}]
        )


def test_event_timers_are_set_through_the_api_within_bounds(world: World) -> None:
    api = APIClient()
    api.force_authenticate(world.user("organiser"))
    url = f"/api/v1/events/{world.event.pk}/"
    bad = api.patch(url, {"speech_seconds": 4, "last_words_seconds": 601}, format="json")
    assert bad.status_code == 400 and set(bad.json()) >= {"speech_seconds", "last_words_seconds"}
    ok = api.patch(url, {"speech_seconds": 90, "tie_speech_seconds": 40}, format="json")
    assert ok.status_code == 200, ok.json()
    assert (ok.json()["speech_seconds"], ok.json()["tie_speech_seconds"]) == (90, 40)
    assert ok.json()["last_words_seconds"] == 20
    game = Game.objects.get(pk=world.game.pk)
    state = sheet.sheet_state(world.user("referee"), game)
    assert state["timer"]["seconds"] == {"speech": 90, "tie_speech": 40, "last_words": 20}


def test_the_sheet_api_gives_the_console_and_stamps_the_phase(world: World) -> None:
    api = APIClient()
    api.force_authenticate(world.user("referee"))
    base = f"/api/v1/games/{world.game.pk}/sheet/"
    state = api.get(base).json()
    assert state["timer"]["speakers"] == [] and state["names"]["1"]
    for step in (_deal12(), {"type": "night", "kill": 7, "check": 1}):
        r = api.post(base + "steps/", {"step": step, "revision": state["revision"]}, format="json")
        assert r.status_code == 200, r.json()
        state = r.json()
    warning = {"type": "award", "seat": 3, "kind": "warning", "phase": "night 1", "x": 1}
    r = api.post(base + "steps/", {"step": warning, "revision": state["revision"]}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["awards"][0]["phase"] == "day 1"
    assert GameSheet.objects.get(game=world.game).steps[-1] == {
        "type": "award",
        "seat": 3,
        "kind": "warning",
        "id": "",
        "phase": "day 1",
    }
    too_long = {**warning, "reason": "x" * 201}
    r = api.post(
        base + "steps/", {"step": too_long, "revision": r.json()["revision"]}, format="json"
    )
    assert r.status_code == 400 and r.json()["code"] == "sheet.invalid"
    assert "200" in r.json()["detail"]


def test_the_event_form_sets_the_timers(world: World, client: Any) -> None:
    client.force_login(world.user("organiser"))
    url = f"/manage/events/{world.event.pk}/edit/"
    page = client.get(url).content.decode()
    assert 'name="speech_seconds"' in page and 'value="60"' in page
    form = EventForm.initial_for(world.event)
    data = {
        k: v
        for k, v in form.items()
        if v is not None and k not in ("referees", "first_round_at", "season")
    }
    data["referees"] = [r.pk for r in form["referees"]]
    data["allow_extra_meeting"] = "on" if data.pop("allow_extra_meeting") else ""
    data["round_minutes"] = 90
    bad = client.post(url, {**data, "speech_seconds": 700, "tie_speech_seconds": 2})
    assert bad.status_code == 200
    assert b'id="id_speech_seconds_error"' in bad.content
    assert b'id="id_tie_speech_seconds_error"' in bad.content
    world.event.refresh_from_db()
    assert world.event.speech_seconds == 60
    ok = client.post(url, {**data, "speech_seconds": 75, "last_words_seconds": 15})
    assert ok.status_code == 302, ok.content.decode()
    world.event.refresh_from_db()
    timers = world.event.speech_seconds, world.event.tie_speech_seconds
    assert (*timers, world.event.last_words_seconds) == (75, 30, 15)


@pytest.mark.parametrize("points", [1e308, 11, 0.001, 1e-300])
def test_award_points_out_of_bounds_are_refused(world: World, points: float) -> None:
    state = play(world, [_deal12()])
    with refused(400, "sheet.invalid"):
        play_more(world, state, [{"type": "award", "seat": 1, "kind": "penalty", "points": points}])


def test_award_points_within_bounds_are_kept(world: World) -> None:
    state = play(world, [_deal12()])
    state = play_more(world, state, [{"type": "award", "seat": 1, "kind": "penalty", "points": 10}])
    state = play_more(world, state, [{"type": "award", "seat": 2, "kind": "bonus", "points": 0.25}])
    assert [a["points"] for a in state["awards"]] == [10, 0.25]
