"""Hand-written games from the source texts (../shared/seeds), each test naming its rule.

Sources: 000 Spanish (civilian-draw), 001 English "complex version" (majority),
002 English "mainstream configurations" (mainstream), 003 Chinese standard rules (classic).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.record import RecordError, Role, Winner
from engine.state import Cause, Death, Ending, EndReason
from engine.validate import Status, Verdict, validate, validate_series
from tests.engine.fixtures import D, N, game, load

CLASSIC8 = "KPCCKPCC"  # killers 1, 5; police 2, 6; civilians 3, 4, 7, 8
MAJ10 = "KPCCKPCCCC"  # killers 1, 5; police 2, 6; civilians 3, 4, 7, 8, 9, 10
CD11 = "KPCCKPCCKPC"  # killers 1, 5, 9; police 2, 6, 10; civilians 3, 4, 7, 8, 11
TIE8 = "1:2,3,4,6 3:1,5,7,8"  # eight voters split 4-4 between seats 1 and 3


def ok(record: dict[str, Any]) -> Verdict:
    v = validate(record)
    assert v.valid, v.violations
    return v


def found(record: dict[str, Any]) -> list[tuple[str, str]]:
    return [(x.code, x.where) for x in validate(record).violations]


# --- classic (003) ------------------------------------------------------------------------


def test_spec_example_replays_to_a_good_win() -> None:
    v = ok(load("spec-example.json"))
    assert (v.status, v.winner, v.ended) == (Status.FINISHED, Winner.GOOD, "day 2")
    assert v.outcome.deaths == (
        Death(3, Cause.KILL, "night 1"),
        Death(1, Cause.VOTE, "day 1"),
        Death(6, Cause.KILL, "night 2"),
        Death(5, Cause.VOTE, "day 2"),
    )
    assert v.outcome.night1_victim == 3
    assert v.outcome.last_words == (3, 1)  # first-round: the two round-1 deaths


def test_classic_killers_win_when_all_police_are_out() -> None:
    # 003 §4.2: 警察或平民方全部死去,杀手一方获胜 — police out ends it at dawn.
    r = game(
        "classic",
        CLASSIC8,
        N(2),
        D("3:1,4,5 4:3,6,7,8", out=4),
        N(6),
        winner="killers",
    )
    v = ok(r)
    assert (v.winner, v.ended, v.outcome.reason) == (
        Winner.KILLERS,
        "night 2",
        EndReason.POLICE_OUT,
    )
    assert str(v.outcome.ending) == "every police officer is out"


def test_classic_killers_win_when_all_civilians_are_out() -> None:
    # 003 §4.2: the civilians' side out is a kill-a-side (屠边) too.
    r = game(
        "classic",
        CLASSIC8,
        N(3),
        D("4:1,2,5,6 7:4,8 1:7", out=4),
        N(7),
        D("8:1,5,2 1:8,6", out=8),
        winner="killers",
    )
    assert ok(r).ended == "day 2"


def test_classic_good_wins_when_all_killers_are_out() -> None:
    # 003 §4.1: 杀手一方全部死去,警察一方获胜.
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(4), D("5:2,6,7,8 2:5"))
    r["log"][-1]["eliminated"] = 5
    r["result"] = {"winner": "good"}
    assert ok(r).ended == "day 2"


def test_classic_tie_ladder_three_ballots_then_killers_win() -> None:
    # 003 §4.5: a tie → the tied speak and are voted on; again → the others speak; still tied →
    # 法官硬性判定为杀手胜.
    r = game("classic", CLASSIC8, N(None), D(TIE8, TIE8, TIE8, out=None), winner="killers")
    v = ok(r)
    assert (v.winner, v.ended) == (Winner.KILLERS, "day 1")


def test_classic_tie_ladder_resolved_in_the_off_site_pk() -> None:
    # 003 §4.5: ballot 3 after the off-site speeches decides: 得票多的人出局.
    r = game(
        "classic",
        CLASSIC8,
        N(None),
        D(TIE8, "1:2,4,6 3:1,5,7 -:3,8", "1:2,3,4,6,8 3:1,5,7", out=1),
    )
    v = ok(r)
    assert v.outcome.deaths == (Death(1, Cause.VOTE, "day 1"),)
    assert v.status is Status.IN_PROGRESS


def test_tie_break_ballot_is_restricted_to_the_tied() -> None:
    r = game("classic", CLASSIC8, N(None), D(TIE8, "1:2,3,4 3:1,5,7 4:6,8", "1:2,3,4,6,8 3:1,5,7"))
    assert found(r) == [("vote.not_candidate", "day 1 ballot 2")] * 2


def test_ballot_after_a_clear_result_is_extra() -> None:
    r = game("classic", CLASSIC8, N(None), D("1:2,3,4,6,8 3:1,5,7", TIE8, out=1))
    assert found(r) == [("ballot.extra", "day 1 ballot 2")]


def test_declared_elimination_without_the_tie_break_ballot() -> None:
    r = game("classic", CLASSIC8, N(None), D(TIE8, out=1), N(2))
    assert found(r) == [("ballot.missing", "day 1 ballot 2")]


def test_abstaining_everyone_puts_nobody_out() -> None:
    # Ruling (spec §3.3): an all-abstain ballot puts nobody out that day.
    r = game("classic", CLASSIC8, N(3), D("-:1,2,4,5,6,7,8", out=None), N(4))
    assert ok(r).outcome.deaths[-1] == Death(4, Cause.KILL, "night 2")
    r["log"][1]["eliminated"] = 1
    assert found(r) == [("day.wrong_elimination", "day 1")]


def test_classic_first_round_last_words_only() -> None:
    # Spec §3.5 ruling on 003 §3.20: only the round-1 deaths leave last words.
    r = game(
        "classic",
        CLASSIC8,
        N(3),
        D("4:1,2,5,6 7:4,8 1:7", out=4, words={3: [1, 5], 4: [5]}),
        N(7),
        D("8:1,5,2 1:8,6", words={7: [1]}),
    )
    assert found(r) == [("last_words.not_entitled", "day 2")]
    assert validate(r).outcome.last_words == (3, 4)


def test_classic_surrender_of_the_last_killer() -> None:
    # 003 §5.5: 玩家(平民除外)有权选择投降,但己方不只一人活着的时候严禁投降.
    r = game(
        "classic",
        CLASSIC8,
        N(3),
        D("1:2,4,5,6 5:1,7,8", out=1, words={3: []}),
        N(4),
        D(surrender=5),
        winner="good",
    )
    v = ok(r)
    assert (v.winner, v.ended, v.outcome.reason) == (Winner.GOOD, "day 2", EndReason.SURRENDER)
    assert v.outcome.ending == Ending(EndReason.SURRENDER, 5, Role.KILLER)
    assert v.outcome.ending.params == {"seat": 5, "role": "killer"}
    assert str(v.outcome.ending) == "seat 5 (killer) surrendered"


def test_classic_surrender_of_the_last_police_officer() -> None:
    r = game("classic", CLASSIC8, N(3), D("6:1,4,5,7 4:2,6,8", out=6), N(4), D(surrender=6))
    assert found(r) == [("surrender.dead_seat", "day 2")]  # seat 6 was voted out on day 1
    r = game("classic", CLASSIC8, N(3), D("6:1,4,5,7 4:2,6,8", out=6), N(4), D(surrender=2))
    r["result"] = {"winner": "killers"}
    assert ok(r).ended == "day 2"


def test_classic_surrender_refused_while_a_teammate_lives() -> None:
    r = game("classic", CLASSIC8, N(3), D(surrender=1))
    assert found(r) == [("surrender.teammate_alive", "day 1")]


def test_civilians_may_not_surrender() -> None:
    r = game("classic", CLASSIC8, N(None), D(surrender=3))
    assert found(r) == [("surrender.civilian", "day 1")]


def test_surrender_is_classic_only() -> None:
    r = game("mainstream", CLASSIC8, N(None), D(surrender=1))
    assert found(r) == [("surrender.not_allowed", "day 1")]


def test_play_after_a_surrender() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(4))
    r["log"].append({"phase": "day", "n": 2, "surrender": 5, "ballots": [{"2": 6}]})
    r["result"] = {"winner": "good"}
    assert found(r) == [("phase.after_end", "day 2")]


def test_killers_may_kill_one_of_their_own() -> None:
    # 003 §3.6: 杀掉某号玩家(当然也可以自杀). Killing the last killer hands the good side the win.
    r = game("classic", CLASSIC8, N(1), D("5:2,3,4,6,7 2:5,8", out=5), winner="good")
    v = ok(r)
    assert (v.winner, v.ended) == (Winner.GOOD, "day 1")
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1), N(5), winner="good")
    assert ok(r).ended == "night 2"


def test_first_night_repeat_ban_across_an_event() -> None:
    # 003 §5.8: 不允许连续两局第一轮杀同一个人.
    g1 = game("classic", CLASSIC8, N(3), meta={"event": "cup"})
    g2 = game("classic", CLASSIC8, N(3), meta={"event": "cup"})
    v1, v2 = validate_series([g1, g2])
    assert v1.valid and not v2.valid
    assert [(x.code, x.where) for x in v2.violations] == [("series.repeat_night1_victim", "series")]
    other = game("classic", CLASSIC8, N(3), meta={"event": "league"})
    assert all(v.valid for v in validate_series([g1, other]))
    assert all(v.valid for v in validate_series([g1, {**g2, "ruleset": "mainstream"}]))
    unknown = game("classic", CLASSIC8, log=False, winner="good", meta={"event": "cup"})
    assert all(v.valid for v in validate_series([g1, unknown, g2]))  # result-only: victim unknown


# --- mainstream (002) ---------------------------------------------------------------------


def test_mainstream_final_tie_is_a_draw() -> None:
    # 002 win/lose §3: still tied after the off-site PK → 判为平局.
    r = game("mainstream", CLASSIC8, N(None), D(TIE8, TIE8, TIE8, out=None), winner="draw")
    assert ok(r).ended == "day 1"


def test_mainstream_off_site_pk_forbids_abstaining() -> None:
    # 002 §16: "Off-court PK, everyone has to vote".
    r = game("mainstream", CLASSIC8, N(None), D(TIE8, TIE8, "1:2,4,6 3:1,5,7,8 -:3", out=3))
    assert found(r) == [("vote.abstain_forbidden", "day 1 ballot 3")]
    r = game("mainstream", CLASSIC8, N(None), D("1:2,4,6 3:1,5,7,8 -:3", out=3))
    assert ok(r)


def test_mainstream_lot_by_override() -> None:
    # 002 win/lose §3: "decided by lot in the high-standard competition".
    lot = {"base": "mainstream", "overrides": {"final_tie": "lot"}}
    r = game(lot, CLASSIC8, N(None), D(TIE8, TIE8, TIE8, lot=3, out=3))
    assert ok(r).outcome.deaths == (Death(3, Cause.LOT, "day 1"),)
    r = game(lot, CLASSIC8, N(None), D(TIE8, TIE8, TIE8, lot=4, out=4))
    assert found(r) == [("lot.not_tied", "day 1")]
    r = game(lot, CLASSIC8, N(None), D(TIE8, TIE8, TIE8, out=3), N(4))
    assert found(r) == [("lot.missing", "day 1")]
    r = game("mainstream", CLASSIC8, N(None), D("1:2,3,4,6,7 3:1,5,8", lot=3, out=1))
    assert found(r) == [("lot.unexpected", "day 1")]


def test_mainstream_six_players_without_police() -> None:
    # 002 configuration A: 6–7 players, two killers and no police: nobody may check.
    r = game("mainstream", "KKCCCC", N(3, None), D("1:2,4,5 4:1,6", out=1))
    assert ok(r).outcome.last_words == (3, 1)
    r = game("mainstream", "KKCCCC", N(3, 4))
    assert found(r) == [("check.no_police", "night 1")]


def test_mainstream_killers_need_every_good_player_out() -> None:
    # 002 win/lose §2: "When the police and civilians are dead, the murderer wins".
    r = game(
        "mainstream",
        "KKCCCC",
        N(3),
        D("4:1,2,5 5:4,6", out=4),
        N(5),
        D("6:1,2 -:6", out=6),
        winner="killers",
    )
    assert ok(r).ended == "day 2"


def test_a_role_dealt_to_nobody_is_never_out() -> None:
    # Spec §3.6: under any-side-out, no police at 6 players does not hand killers the win.
    six = {
        "base": "classic",
        "overrides": {"players": [6, 6], "roles": {"6": [2, 0]}},
    }
    r = game(six, "KKCCCC", N(3), D("4:1,2,5 5:4,6", out=4))
    v = ok(r)
    assert v.winner is None and v.status is Status.IN_PROGRESS


def test_first_deaths_quota_counts_kills_and_eliminations_not_ejections() -> None:
    # 002 §19: the first K dead (killed or voted) leave last words; K = 2 at 8 players.
    r = game(
        "mainstream",
        CLASSIC8,
        N(3),
        D("4:1,2,5,6 7:4 1:7", eject=[8], out=4, words={3: [1], 4: [1, 5], 8: []}),
        N(7),
        D("1:2,5 2:1,6", words={7: [5]}),
    )
    assert found(r) == [("last_words.not_entitled", "day 1"), ("last_words.not_entitled", "day 2")]
    v = validate(r)
    assert v.outcome.last_words == (3, 4)
    assert v.outcome.ejected == (8,)


# --- civilian-draw (000) ------------------------------------------------------------------


def test_civilian_draw_all_police_out_is_a_killer_win() -> None:
    # 000 §4.2: Cuando todos los policías están muertos, gana el asesino.
    r = game(
        "civilian-draw",
        CD11,
        N(2),
        D("6:1,3,4,5,7,8 3:6,9,10,11", out=6),
        N(10),
        winner="killers",
    )
    v = ok(r)
    assert v.ended == "night 2" and v.outcome.reason is EndReason.POLICE_OUT
    assert str(v.outcome.ending) == "every police officer is out"


def test_civilian_draw_all_civilians_out_is_a_draw() -> None:
    # 000 §4.3: Todos los civiles mueren en empate.
    r = game(
        "civilian-draw",
        CD11,
        N(3),
        D("4:1,2,5,6,7,8 1:4,9,10,11", out=4),
        N(7),
        D("8:1,2,5,6,9 1:8,10,11", out=8),
        N(11),
        winner="draw",
    )
    v = ok(r)
    assert (v.winner, v.ended) == (Winner.DRAW, "night 3")
    assert v.outcome.last_words == (3, 4, 7)  # first K = 3 deaths (000 §19)


def test_civilian_draw_final_tie_is_a_draw() -> None:
    # 000 §4.5: sigue empatado → empate.
    tie = "1:2,3,4,6,10 3:1,5,7,8,9 -:11"
    r = game("civilian-draw", CD11, N(None), D(tie, tie, tie, out=None), winner="draw")
    assert ok(r).ended == "day 1"


# --- majority (001) -----------------------------------------------------------------------


def test_majority_runoff_keeps_the_leader_and_the_second_highest() -> None:
    # 001 §9: votes 5, 2, 2, 1 → the players with 5, 2, 2 defend.
    r = game(
        "majority",
        MAJ10,
        N(None),
        D("1:2,3,4,6,7 3:1,5 4:8,9 5:10", "1:2,3,4,6,7,8 3:1,5,9,10", out=1),
    )
    assert ok(r).outcome.deaths == (Death(1, Cause.VOTE, "day 1"),)
    r["log"][1]["ballots"][1] = {**r["log"][1]["ballots"][1], "10": 5}
    assert found(r) == [("vote.not_candidate", "day 1 ballot 2")]


def test_majority_runoff_between_three_tied_leaders() -> None:
    # 001 §9: votes 3, 3, 3, 1 → the three players with 3 defend.
    r = game(
        "majority",
        MAJ10,
        N(None),
        D("1:2,3,4 3:1,5,6 4:7,8,9 5:10", "4:1,2,3,5,6,7 1:4,8,9,10", out=4),
    )
    ok(r)
    r["log"][1]["ballots"][1]["10"] = 5
    assert ("vote.not_candidate", "day 1 ballot 2") in found(r)


def test_majority_needs_more_than_half() -> None:
    # 001 §8: 'more than half of the votes' — 5 of 10 is not enough.
    half = "1:2,3,4,6,7 3:1,5,8,9,10"
    r = game("majority", MAJ10, N(None), D(half, out=1))
    assert found(r) == [("ballot.missing", "day 1 ballot 2")]
    r = game("majority", MAJ10, N(None), D(*[half] * 5, out=None), N(3))
    assert ok(r)  # ruling: after five ballots without a majority nobody is out
    r = game("majority", MAJ10, N(None), D(*[half] * 6, out=None))
    assert found(r) == [("ballot.extra", "day 1 ballot 6")]


def test_majority_forbids_abstaining() -> None:
    # 001 §6 and §8: 'abstention is not allowed'.
    r = game("majority", MAJ10, N(None), D("1:2,3,4,6,7,8 3:1,5,9 -:10", out=1))
    assert found(r) == [("vote.abstain_forbidden", "day 1 ballot 1")]


def test_majority_last_words_spare_a_voted_out_killer() -> None:
    # 001 §8: 'If a good person is killed by mistake, he will have his last words, but the
    # killer will have no last words.' Night victims speak (001 §5).
    r = game(
        "majority",
        MAJ10,
        N(3),
        D("1:2,4,5,6,7,8 4:1,9,10", out=1, words={3: [1], 1: [5]}),
    )
    assert found(r) == [("last_words.not_entitled", "day 1")]
    r = game("majority", MAJ10, N(3), D("4:1,2,5,6,7,8 1:4,9,10", out=4, words={3: [1], 4: [1]}))
    assert ok(r).outcome.last_words == (3, 4)


def test_majority_killers_win_when_every_good_player_is_out() -> None:
    # 001 §10: 'if all the good guys and all the police are killed, the killer wins'.
    phases: list[dict[str, Any]] = [
        N(2),
        D("3:1,4,5,6,7,8 4:3,9,10", out=3),
        N(4),
        D("6:1,5,7,8,9 7:6,10", out=6),
        N(7),
        D("8:1,5,9 9:8,10", out=8),
        N(9),
    ]
    r = game("majority", MAJ10, *phases)
    assert ok(r).winner is None
    r = game("majority", MAJ10, *phases, D("10:1,5 -:10"))
    assert ("vote.abstain_forbidden", "day 4 ballot 1") in found(r)
    r = game("majority", MAJ10, *phases, D("10:1,5 1:10", out=10), winner="killers")
    assert ok(r).ended == "day 4"


# --- ejection, end of game, results -------------------------------------------------------


def test_ejection_comes_first_and_can_end_the_game() -> None:
    # 003 §5.12: 任何时候法官都有权令违反规则的玩家出局.
    r = game(
        "classic",
        CLASSIC8,
        N(3),
        D("1:2,4,5,6 5:1,7,8", out=1),
        N(4),
        D(eject=[5], words={5: []}),
        winner="good",
    )
    assert found(r) == [("last_words.not_entitled", "day 2")]
    del r["log"][-1]["last_words"]
    v = ok(r)
    assert v.ended == "day 2" and v.outcome.deaths[-1] == Death(5, Cause.EJECT, "day 2")


def test_ejecting_a_dead_player() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", eject=[3], out=1))
    assert found(r) == [("eject.dead_seat", "day 1")]


def test_a_final_day_may_carry_only_last_words() -> None:
    r = game(
        "classic",
        CLASSIC8,
        N(3),
        D("1:2,4,5,6 5:1,7,8", out=1),
        N(5),
        D(words={5: []}),
        winner="good",
    )
    assert found(r) == [("last_words.not_entitled", "day 2")]  # night 2 is not round 1
    r["log"][-1] = {"phase": "day", "n": 2, "ballots": [{"2": 4}]}
    assert found(r) == [("phase.after_end", "day 2")]
    r["log"][-1] = {"phase": "night", "n": 3, "kill": 2, "check": None}
    assert found(r) == [("phase.after_end", "night 3")]


def test_phase_out_of_order_stops_the_replay() -> None:
    r = game("classic", CLASSIC8, N(3), N(4), D("-:1"))
    assert found(r) == [("phase.order", "night 1")]


def test_results_checked_against_the_replay() -> None:
    base = game("classic", CLASSIC8, N(2), D("3:1,4,5 4:3,6,7,8", out=4), N(6))
    assert found(base) == [("result.missing", "result")]
    assert found({**base, "result": {"winner": "good"}}) == [("result.wrong_winner", "result")]
    early = game("classic", CLASSIC8, N(2), winner="killers")
    assert found(early) == [("result.unfinished", "result")]


def test_in_progress_records_may_stop_part_way_through_a_day() -> None:
    assert ok(game("classic", CLASSIC8)).status is Status.IN_PROGRESS
    assert ok(game("classic", CLASSIC8, log=False)).status is Status.IN_PROGRESS
    assert ok(game("classic", CLASSIC8, N(None), D(TIE8)))  # tie-break not voted yet
    assert ok(game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8")))  # not yet declared
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8"), N(4))
    assert found(r) == [("day.missing_eliminated", "day 1")]
    r = game("classic", CLASSIC8, N(3), D(), N(4))
    assert found(r) == [("day.missing_ballots", "day 1")]


def test_result_only_records_check_cards_and_result() -> None:
    v = ok(game("classic", CLASSIC8, log=False, winner="killers"))
    assert (v.status, v.winner, v.outcome.replayed) == (Status.RESULT_ONLY, Winner.KILLERS, False)
    assert found(game("classic", "KKKCCPCC", log=False, winner="good")) == [
        ("setup.role_counts", "setup")
    ]
    assert found(game("majority", CLASSIC8, log=False, winner="good")) == [
        ("setup.players", "setup")
    ]


def test_votes_illegal_in_every_way_are_each_reported_and_not_counted() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,6,7 5:1 9:3,8", out=1))
    r["log"][1]["ballots"][0]["5"] = 5
    assert found(r) == [
        ("vote.dead_voter", "day 1 ballot 1"),
        ("vote.unknown_seat", "day 1 ballot 1"),
        ("vote.self_vote", "day 1 ballot 1"),
    ]
    assert "seat 3 voted but was killed on night 1" in validate(r).violations[0].message


def test_last_words_suspects() -> None:
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1, words={3: [1, 5, 6]}))
    assert found(r) == [("last_words.too_many_suspects", "day 1")]
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1, words={3: [3]}))
    assert found(r) == [("last_words.bad_suspect", "day 1")]
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1, words={3: [9]}))
    assert found(r) == [("last_words.bad_suspect", "day 1")]
    r = game("classic", CLASSIC8, N(3), D("1:2,4,5,6 5:1,7,8", out=1, words={4: [1]}))
    assert found(r) == [("last_words.not_entitled", "day 1")]


def test_awards() -> None:
    r = game("classic", CLASSIC8, log=False, winner="good")
    r["awards"] = [
        {"seat": 2, "kind": "bonus", "points": 0.5},
        {"seat": 3, "kind": "warning"},
        {"seat": 4, "kind": "penalty", "points": 1, "reason": "talked at night"},
    ]
    ok(r)
    r["awards"] = [
        {"seat": 2, "kind": "bonus"},
        {"seat": 3, "kind": "warning", "points": 1},
        {"seat": 9, "kind": "penalty", "points": -1},
    ]
    assert found(r) == [("awards.points", "awards")] * 2 + [
        ("awards.unknown_seat", "awards"),
        ("awards.points", "awards"),
    ]


def test_strict_mode_raises_with_every_violation() -> None:
    r = game("classic", CLASSIC8, N(2), winner="killers")
    with pytest.raises(RecordError) as e:
        validate(r, strict=True)
    assert [v.code for v in e.value.violations] == ["result.unfinished"]
    assert isinstance(e.value, ValueError)
