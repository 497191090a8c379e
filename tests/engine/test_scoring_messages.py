"""Scoring, standings and ratings speak in codes: every point line, warning and error is a
catalogue code with plain JSON params, and its English is what it always was."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.messages import (
    CATALOGUE,
    PARAMS,
    Message,
    Param,
    ParamKind,
    message_key,
    placeholders,
    render,
)
from engine.ratings import Rater, RaterOptions, RatingHistory
from engine.scoring import (
    AWARD_KINDS,
    CLUB_V1,
    AwardInfo,
    GameSummary,
    PointItem,
    Role,
    SeatInfo,
    format_points,
    get_profile,
    profile_from_dict,
    score_game,
)
from engine.standings import compensation, compute_standings, validate_precedence
from engine.texts import scoring as part

D = Decimal
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
NOTES = st.sampled_from(["", "phone at the table", "good play", "{seat} 100%"])


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


def sample(name: str) -> Param:
    """A value of the kind the catalogue declares for ``name``."""
    return SAMPLES[PARAMS[name]]


@pytest.mark.parametrize("key", sorted(part.TEMPLATES))
def test_every_scoring_template_declares_its_params_and_renders(key: str) -> None:
    template = part.TEMPLATES[key]
    names = placeholders(template)
    assert all(name in part.PARAMS for name in names), (key, names)
    code, _, variant = key.partition("/")
    params: dict[str, Param] = {name: sample(name) for name in names}
    if variant:
        params["variant"] = variant
    assert message_key(code, params) == key
    text = render(code, params)
    assert text and "{" not in text and "}" not in text


# --- point lines -------------------------------------------------------------------------


def expected_reason(item: PointItem, summary: GameSummary) -> str:
    """The English the scorer wrote before point lines became codes (the oracle)."""
    p = item.params
    note = str(p.get("note", ""))
    if item.kind == "result":
        return {
            "draw": "drawn game",
            "win": f"won: {summary.winner} side won",
            "loss": f"lost: {summary.winner} side won",
        }[str(p["variant"])]
    if item.kind in ("bonus", "penalty"):
        label = f"referee {item.kind}"
        return f"{label}: {note}" if note else label
    if item.kind == "warning":
        return f"warning {p['count']}: {note}" if note else f"warning {p['count']}"
    return {
        "bonus-cap": f"referee bonuses capped at +{format_points(CLUB_V1.bonus_cap)} per game",
        "warnings": f"{CLUB_V1.warning_threshold} warnings in one game: automatic penalty (once)",
        "ejection": "ejected by the referee",
        "best-guess": f"best guess: named seat {p.get('seat')} ({p.get('player')}), a killer",
    }[item.kind]


@st.composite
def summaries(draw: st.DrawFn) -> GameSummary:
    winner = draw(st.sampled_from(("good", "killers", "draw")))
    awards = tuple(
        AwardInfo(seat, kind, D(0) if kind == "warning" else D(draw(st.integers(1, 30))) / 20, note)
        for seat, kind, note in draw(
            st.lists(st.tuples(st.integers(1, 8), st.sampled_from(AWARD_KINDS), NOTES), max_size=12)
        )
    )
    victim = draw(st.none() | st.integers(1, 8))
    others = [n for n in range(1, 9) if n != victim]
    suspects = (
        ()
        if victim is None
        else tuple(draw(st.lists(st.sampled_from(others), max_size=2, unique=True)))
    )
    ejected = tuple(draw(st.lists(st.integers(1, 8), max_size=2, unique=True)))
    return GameSummary(
        "g1",
        SEATS,
        "finished",
        winner,  # type: ignore[arg-type]
        night1_victim=victim,
        night1_suspects=suspects,
        ejected=ejected,
        awards=awards,
    )


@settings(max_examples=150, deadline=None)
@given(summaries())
def test_point_lines_are_codes_with_plain_params_and_the_same_english(
    summary: GameSummary,
) -> None:
    for player in score_game(summary).players:
        for item in player.items:
            assert item.code == f"points.{item.kind.replace('-', '_')}"
            assert message_key(item.code, item.params) in CATALOGUE
            # stored as JSON and read back (as the web does), it renders the same sentence
            stored = json.loads(json.dumps({"code": item.code, "params": dict(item.params)}))
            assert render(stored["code"], stored["params"]) == item.reason
            assert item.reason == expected_reason(item, summary)
            assert item.message == Message(item.code, item.params)


def test_a_referee_note_is_a_param_not_part_of_a_sentence() -> None:
    awards = (
        AwardInfo(2, "bonus", D("0.5"), "good play"),
        AwardInfo(2, "bonus", D("0.8")),
        AwardInfo(2, "warning", D(0), "talking"),
    )
    items = score_game(GameSummary("g1", SEATS, "finished", "good", awards=awards)).players[1].items
    assert [(i.code, dict(i.params)) for i in items] == [
        ("points.result", {"variant": "win", "winner": "good"}),
        ("points.bonus", {"variant": "note", "note": "good play"}),
        ("points.bonus", {}),
        ("points.bonus_cap", {"points": "1.0"}),
        ("points.warning", {"variant": "note", "note": "talking", "count": 1}),
    ]
    assert [i.reason for i in items] == [
        "won: good side won",
        "referee bonus: good play",
        "referee bonus",
        "referee bonuses capped at +1.0 per game",
        "warning 1: talking",
    ]


def test_ci_line_has_its_formula_as_params() -> None:
    lost = GameSummary("g1", SEATS, "finished", "killers", night1_victim=3)
    won = GameSummary("g2", SEATS, "finished", "good")
    standing = compute_standings([lost, won, won])
    ci = [i for i in standing.row("p3").items if i.kind == "ci"]
    assert [(i.code, dict(i.params)) for i in ci] == [
        ("points.ci", {"count": 1, "factor": "0.4", "divisor": 1, "games": 3})
    ]
    assert ci[0].reason == (
        "compensation (Ci) for a lost game after a night-1 death: "
        "min(1 × 0.4 / 1, 0.4) with 3 games"
    )


def test_in_progress_warning_is_a_message() -> None:
    standing = compute_standings([GameSummary("pending", SEATS, "in-progress", None)])
    assert standing.warnings == (Message("scoring.in_progress", {"label": "pending"}),)


# --- errors ------------------------------------------------------------------------------


def raises(action: Callable[[], object]) -> EngineError:
    with pytest.raises(EngineError) as caught:
        action()
    return caught.value


@pytest.mark.parametrize(
    ("action", "code", "params", "english"),
    [
        (
            lambda: get_profile("club-v9"),
            "profile.unknown",
            {"profile": "club-v9", "profiles": ["club-v1"]},
            "unknown scoring profile 'club-v9'; known: club-v1",
        ),
        (
            lambda: profile_from_dict({"id": "cup", "version": 1, "draw": "half"}),
            "profile.not_number",
            {"key": "draw", "value": "'half'"},
            "scoring profile 'draw' must be a number, got 'half'",
        ),
        (
            lambda: profile_from_dict({"id": "cup", "version": 0}),
            "profile.at_least_one",
            {"profile": "cup", "key": "version"},
            "profile cup: version must be an integer >= 1",
        ),
        (
            lambda: profile_from_dict({"id": "cup", "version": 1, "bonus": 1, "drew": 2}),
            "profile.unknown_keys",
            None,
            None,
        ),
        (
            lambda: GameSummary("g7", SEATS, "finished", None),
            "summary.winner",
            {"variant": "present", "label": "g7", "status": "finished"},
            "game g7: a finished game must have a winner",
        ),
        (
            lambda: GameSummary(
                "g7", SEATS, "finished", "good", awards=(AwardInfo(2, "penalty", D(0)),)
            ),
            "summary.award_positive",
            {"label": "g7", "seat": 2, "kind": "penalty"},
            "game g7 seat 2: a penalty needs positive points",
        ),
        (
            lambda: GameSummary("g7", SEATS, "finished", "good", night1_suspects=(2,)),
            "summary.suspects_no_victim",
            {"label": "g7"},
            "game g7: day-1 suspects without a night-1 victim",
        ),
        (
            lambda: compensation(2, 3, D("0.4")),
            "standings.ci_range",
            {"count": 3, "games": 2},
            "Ci needs 0 <= K <= N, got K=3, N=2",
        ),
        (
            lambda: compute_standings([]).row("nobody"),
            "standings.no_player",
            {"player": "nobody"},
            "player 'nobody' has no scored game in this standing",
        ),
        (
            lambda: Rater().update([("a", "killer"), ("b", "civilian")], "police"),
            "ratings.winner",
            {"value": "'police'", "winners": ["good", "killers", "draw"]},
            "unknown winner 'police'; expected one of good, killers, draw",
        ),
        (
            lambda: Rater().update([("a", "killer"), ("b", "doctor")], "good"),
            "ratings.player_role",
            {"player": "b", "value": "'doctor'", "roles": ["killer", "police", "civilian"]},
            "player 'b': unknown role 'doctor'; expected one of killer, police, civilian",
        ),
        (
            lambda: Rater().update([("a", "killer"), ("b", "killer")], "good"),
            "ratings.sides",
            {"killer_count": 2, "good_count": 0},
            "a game needs killers and good players; got 2 killer(s) and 0 good player(s)",
        ),
        (
            lambda: Rater().update([("a", "killer"), ("a", "civilian")], "good"),
            "ratings.twice",
            {"player": "a"},
            "player 'a' sits at the table twice",
        ),
        (
            lambda: RaterOptions(police_share=1.5),
            "ratings.option_share",
            {"key": "police_share"},
            "rater option 'police_share' must be between 0 and 1",
        ),
        (
            lambda: RaterOptions.from_mapping({"k_factor": 32, "elo": 1}),
            "ratings.options_unknown",
            None,
            None,
        ),
        (
            lambda: RatingHistory().remove(0),
            "ratings.no_game",
            {"index": 0, "count": 0},
            "no game 0: the history has 0",
        ),
    ],
)
def test_errors_carry_code_and_params(
    action: Callable[[], object],
    code: str,
    params: dict[str, object] | None,
    english: str | None,
) -> None:
    error = raises(action)
    assert error.code == code
    if params is not None:
        assert error.params == params
    if english is not None:
        assert str(error) == english
    assert str(error) == render(error.code, error.params)
    json.dumps(error.params)  # plain JSON values only


def test_unknown_keys_are_listed_as_data() -> None:
    error = raises(lambda: profile_from_dict({"id": "c", "version": 1, "bonus": 1, "drew": 2}))
    assert error.params["keys"] == ["bonus", "drew"]
    assert "best_guess" in error.params["allowed"]  # type: ignore[operator]
    assert str(error).startswith("unknown scoring profile key(s): bonus, drew; allowed: base, ")


@pytest.mark.parametrize(
    ("keys", "variant", "english"),
    [
        ([], "empty", "precedence is empty"),
        (["points", "goals"], "unknown", "unknown metric(s) 'goals'"),
        (["lots", "goals", "lots"], "unknown+repeated+lots", None),
        (["wins", "lots", "wins"], "repeated+lots", None),
    ],
)
def test_precedence_problems_are_one_sentence_chosen_by_variant(
    keys: list[str], variant: str, english: str | None
) -> None:
    error = raises(lambda: validate_precedence(keys))
    assert error.code == "standings.precedence"
    assert error.params["variant"] == variant
    assert error.params["known"] == [
        "points",
        "wins",
        "awards",
        "police-killer-wins",
        "night1-deaths",
        "lots",
    ]
    text = str(error)
    assert text.startswith("invalid tie-break precedence: ")
    assert text.endswith(
        " (known metrics: points, wins, awards, police-killer-wins, night1-deaths, lots)"
    )
    if english is not None:
        assert english in text


def test_precedence_english_is_unchanged_for_every_problem_together() -> None:
    error = raises(lambda: validate_precedence(["lots", "goals", "lots"]))
    assert error.params["metrics"] == ["goals"] and error.params["repeated"] == ["lots"]
    assert str(error) == (
        "invalid tie-break precedence: unknown metric(s) 'goals'; repeated metric(s) 'lots'; "
        "'lots' must be the last metric (known metrics: points, wins, awards, "
        "police-killer-wins, night1-deaths, lots)"
    )
