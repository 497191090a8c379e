"""Game points by profile, line by line (scoring.md §1), on hand-made game summaries."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import EngineError
from engine.scoring import (
    CLUB_V1,
    PROFILES,
    AwardInfo,
    GameSummary,
    ProfileError,
    Role,
    SeatInfo,
    Status,
    SummaryError,
    Winner,
    format_points,
    get_profile,
    profile_from_dict,
    score_game,
)

D = Decimal
# An 8-player classic table: killers at 1 and 5, police at 2 and 6, civilians elsewhere.
ROLES: tuple[Role, ...] = (
    "killer",
    "police",
    "civilian",
    "civilian",
    "killer",
    "police",
    "civilian",
    "civilian",
)
SEATS = tuple(SeatInfo(n, f"p{n}", role) for n, role in enumerate(ROLES, start=1))


def game(
    winner: Winner | None = "good",
    status: Status = "finished",
    awards: tuple[AwardInfo, ...] = (),
    **extra: object,
) -> GameSummary:
    return GameSummary("g1", SEATS, status, winner, awards=awards, **extra)  # type: ignore[arg-type]


def points(summary: GameSummary, profile: object = CLUB_V1) -> dict[str, Decimal]:
    return score_game(summary, profile).points  # type: ignore[arg-type]


def kinds(summary: GameSummary, player: str) -> list[tuple[str, Decimal]]:
    score = next(p for p in score_game(summary).players if p.player == player)
    return [(i.kind, i.points) for i in score.items]


# --- profiles ---------------------------------------------------------------------------


def test_club_v1_is_the_spec_table() -> None:
    assert get_profile("club-v1") is CLUB_V1
    assert CLUB_V1.key == "club-v1" and set(PROFILES) == {"club-v1"}
    assert (CLUB_V1.good_win, CLUB_V1.killers_win, CLUB_V1.draw, CLUB_V1.loss) == (
        D(1),
        D(1),
        D("0.5"),
        D(0),
    )
    assert (CLUB_V1.bonus_cap, CLUB_V1.warning_threshold, CLUB_V1.warning_penalty) == (
        D(1),
        4,
        D("0.5"),
    )
    assert (CLUB_V1.ejection_penalty, CLUB_V1.best_guess, CLUB_V1.ci_factor) == (
        D("0.5"),
        D("0.2"),
        D("0.4"),
    )


def test_unknown_profile_lists_the_known_ones() -> None:
    with pytest.raises(ProfileError, match="unknown scoring profile 'club-v9'; known: club-v1"):
        get_profile("club-v9")


def test_profile_from_dict_overrides_the_base() -> None:
    profile = profile_from_dict({"id": "cup", "version": 2, "killers_win": "1.5", "draw": 0.4})
    assert profile.key == "cup-v2"
    assert profile.killers_win == D("1.5") and profile.draw == D("0.4")  # float read by repr
    assert profile.good_win == CLUB_V1.good_win and profile.ci_factor == CLUB_V1.ci_factor


def test_profile_from_dict_rejects_unknown_keys_by_name() -> None:
    with pytest.raises(ProfileError, match=r"unknown scoring profile key\(s\): bonus, drew"):
        profile_from_dict({"id": "cup", "version": 1, "drew": "0.5", "bonus": 1})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": 1}, "needs 'id'"),
        ({"id": "cup"}, "needs 'version'"),
        ({"id": "cup", "version": 1, "base": "nope-v1"}, "unknown scoring profile 'nope-v1'"),
        ({"id": "cup", "version": "1"}, "'version' must be an integer"),
        ({"id": "cup", "version": 0}, "version must be an integer >= 1"),
        ({"id": "cup", "version": 1, "draw": True}, "'draw' must be a number"),
        ({"id": "cup", "version": 1, "draw": "half"}, "'draw' must be a number"),
        ({"id": "cup", "version": 1, "draw": "NaN"}, "'draw' must be finite"),
        ({"id": "cup", "version": 1, "ejection_penalty": -1}, "must not be negative"),
        ({"id": "cup", "version": 1, "warning_threshold": 0}, "warning_threshold"),
        ({"id": "two words", "version": 1}, "non-empty word"),
    ],
)
def test_profile_from_dict_rejects_bad_values(data: dict[str, object], message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        profile_from_dict(data)


def test_errors_are_value_errors() -> None:
    assert issubclass(ProfileError, EngineError) and issubclass(SummaryError, ValueError)


# --- result -----------------------------------------------------------------------------


def test_good_win_scores_police_and_civilians() -> None:
    assert points(game("good")) == {
        "p1": 0,
        "p2": 1,
        "p3": 1,
        "p4": 1,
        "p5": 0,
        "p6": 1,
        "p7": 1,
        "p8": 1,
    }


def test_killers_win_and_per_side_points() -> None:
    assert points(game("killers")) == {p.player: D(p.role == "killer") for p in SEATS}
    lopsided = profile_from_dict({"id": "cup", "version": 1, "killers_win": "1.5"})
    assert points(game("killers"), lopsided)["p1"] == D("1.5")
    assert points(game("good"), lopsided)["p2"] == 1


def test_draw_scores_half_to_everyone() -> None:
    assert set(points(game("draw")).values()) == {D("0.5")}


def test_loss_is_an_explicit_zero_line_with_its_reason() -> None:
    (item,) = next(p for p in score_game(game("good")).players if p.player == "p1").items
    assert (item.kind, item.points, item.reason) == ("result", D(0), "lost: good side won")


# --- awards -----------------------------------------------------------------------------


def test_bonuses_are_capped_per_player_per_game() -> None:
    summary = game(
        awards=(
            AwardInfo(3, "bonus", D("0.6"), "great speech"),
            AwardInfo(3, "bonus", D("0.7")),
            AwardInfo(4, "bonus", D("1.0")),
        )
    )
    assert kinds(summary, "p3") == [
        ("result", D(1)),
        ("bonus", D("0.6")),
        ("bonus", D("0.7")),
        ("bonus-cap", D("-0.3")),
    ]
    assert points(summary)["p3"] == D("2.0")
    assert kinds(summary, "p4") == [("result", D(1)), ("bonus", D(1))]  # exactly the cap: no line


def test_penalties_are_uncapped_and_not_netted_before_the_cap() -> None:
    summary = game(
        awards=(
            AwardInfo(2, "bonus", D("1.5")),
            AwardInfo(2, "penalty", D("1.0"), "phone at the table"),
            AwardInfo(2, "penalty", D("1.0")),
        )
    )
    assert points(summary)["p2"] == D("1.0") + D("1.0") - D("2.0")
    reasons = [i.reason for i in score_game(summary).players[1].items]
    assert "referee penalty: phone at the table" in reasons
    assert "referee bonuses capped at +1.0 per game" in reasons


@pytest.mark.parametrize(("count", "expected"), [(3, "1"), (4, "0.5"), (8, "0.5")])
def test_fourth_warning_costs_half_a_point_once(count: int, expected: str) -> None:
    summary = game(awards=tuple(AwardInfo(3, "warning") for _ in range(count)))
    assert points(summary)["p3"] == D(expected)
    assert [k for k, _ in kinds(summary, "p3")].count("warning") == count


def test_warnings_of_different_players_do_not_add_up() -> None:
    summary = game(awards=tuple(AwardInfo(seat, "warning") for seat in (3, 3, 4, 4)))
    assert points(summary)["p3"] == points(summary)["p4"] == 1


def test_warning_threshold_is_a_profile_parameter() -> None:
    strict = profile_from_dict({"id": "strict", "version": 1, "warning_threshold": 2})
    summary = game(awards=(AwardInfo(3, "warning"), AwardInfo(3, "warning")))
    assert points(summary, strict)["p3"] == D("0.5")


def test_ejected_player_keeps_the_side_result_and_loses_half() -> None:
    summary = game("good", ejected=(3, 5))
    assert points(summary)["p3"] == D("0.5")
    assert points(summary)["p5"] == D("-0.5")
    assert kinds(summary, "p3") == [("result", D(1)), ("ejection", D("-0.5"))]


# --- best guess -------------------------------------------------------------------------


def test_best_guess_counts_only_killers_named() -> None:
    summary = game("killers", night1_victim=3, night1_suspects=(1, 4))
    assert kinds(summary, "p3") == [("result", D(0)), ("best-guess", D("0.2"))]
    reason = score_game(summary).players[2].items[1].reason
    assert reason == "best guess: named seat 1 (p1), a killer"


def test_best_guess_both_killers() -> None:
    summary = game("good", night1_victim=6, night1_suspects=(5, 1))  # a police victim
    assert points(summary)["p6"] == D("1.4")


def test_no_best_guess_when_no_suspect_is_a_killer() -> None:
    summary = game("killers", night1_victim=3, night1_suspects=(4, 2))
    assert kinds(summary, "p3") == [("result", D(0))]


def test_no_best_guess_for_a_killer_killed_on_night_one() -> None:
    summary = game("good", night1_victim=1, night1_suspects=(5,))
    assert points(summary)["p1"] == 0


def test_suspects_without_a_victim_or_beyond_the_killers_are_refused() -> None:
    with pytest.raises(SummaryError, match="without a night-1 victim"):
        game(night1_suspects=(1,))
    with pytest.raises(SummaryError, match="more suspects named than the 2 killers dealt"):
        game(night1_victim=3, night1_suspects=(1, 4, 5))
    with pytest.raises(SummaryError, match="other than the speaker"):
        game(night1_victim=3, night1_suspects=(3,))


# --- record status ----------------------------------------------------------------------


def test_result_only_scores_result_and_awards() -> None:
    summary = game("killers", "result-only", awards=(AwardInfo(1, "bonus", D("0.3")),))
    assert points(summary)["p1"] == D("1.3")
    assert score_game(summary).scored and not score_game(summary).warnings


def test_result_only_cannot_carry_log_facts() -> None:
    with pytest.raises(SummaryError, match="result-only game has no victim"):
        game("good", "result-only", night1_victim=3)
    with pytest.raises(SummaryError, match="result-only game has no victim"):
        game("good", "result-only", ejected=(3,))


def test_in_progress_is_skipped_with_a_warning() -> None:
    score = score_game(game(None, "in-progress"))
    assert not score.scored and score.players == () and score.points == {}
    assert [str(w) for w in score.warnings] == [
        "g1: in-progress record skipped (no result to score)"
    ]
    assert [(w.code, w.params) for w in score.warnings] == [
        ("scoring.in_progress", {"label": "g1"})
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winner": None}, "finished game must have a winner"),
        ({"winner": "draw", "status": "in-progress"}, "in-progress game must have no winner"),
        ({"awards": (AwardInfo(9, "bonus", D(1)),)}, "seat 9 is not at the table"),
        ({"awards": (AwardInfo(2, "warning", D(1)),)}, "a warning carries no points"),
        ({"awards": (AwardInfo(2, "penalty", D(0)),)}, "a penalty needs positive points"),
        ({"ejected": (2, 2)}, "ejected twice"),
    ],
)
def test_inconsistent_summaries_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SummaryError, match=message):
        game(**kwargs)  # type: ignore[arg-type]


def test_duplicate_players_and_seats_are_refused() -> None:
    with pytest.raises(SummaryError, match="unique"):
        GameSummary(
            "g", (SeatInfo(1, "a", "killer"), SeatInfo(2, "a", "police")), "result-only", "good"
        )
    with pytest.raises(SummaryError, match="distinct"):
        GameSummary(
            "g", (SeatInfo(1, "a", "killer"), SeatInfo(1, "b", "police")), "result-only", "good"
        )


def test_profile_key_is_recorded_with_the_score() -> None:
    assert score_game(game()).profile == "club-v1"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("1", "1.0"),
        ("1.20", "1.2"),
        ("-0.5", "-0.5"),
        ("0", "0.0"),
        ("-0", "0.0"),
        ("1E+1", "10.0"),
    ],
)
def test_format_points(value: str, text: str) -> None:
    assert format_points(D(value)) == text
