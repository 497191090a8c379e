"""An event's stages (formats.md §1): multipliers, carry, cuts decided by the ladder and
by lots, entitlement, the final order, and a one-stage event being scoring.md §3 itself."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats.stages import (
    Entry,
    EntryKind,
    EventOutcome,
    FormatError,
    NotEntitledError,
    StageGames,
    StageSpec,
    compute_event,
)
from engine.scoring import AwardInfo, GameSummary, Role, SeatInfo, Winner
from engine.standings import DEFAULT_PRECEDENCE, compute_standings, draw_lots
from tests.engine.test_standings_properties import events

D = Decimal
EIGHT: tuple[Role, ...] = (
    "killer",
    "police",
    "civilian",
    "civilian",
    "killer",
    "police",
    "civilian",
    "civilian",
)
FOUR: tuple[Role, ...] = ("killer", "police", "civilian", "civilian")


def game(
    label: str,
    players: Sequence[str],
    winner: Winner,
    *,
    roles: Sequence[Role] | None = None,
    victim: int | None = None,
    bonus: dict[int, str] | None = None,
) -> GameSummary:
    """A finished game: ``players`` by seat, roles of an 8-seat (or 4-seat) table."""
    cards = roles or (EIGHT if len(players) == 8 else FOUR)
    seats = tuple(SeatInfo(n, p, r) for n, (p, r) in enumerate(zip(players, cards, strict=True), 1))
    awards = tuple(AwardInfo(seat, "bonus", D(v)) for seat, v in (bonus or {}).items())
    return GameSummary(label, seats, "finished", winner, night1_victim=victim, awards=awards)


QUAL_PLAYERS = ("kim", "ann", "bob", "cai", "dan", "eve", "fay", "gus")
#: Good wins; bob (a civilian) is killed on night 1; ann +0.5 and kim +1.0 from the referee.
QUAL = game("q1", QUAL_PLAYERS, "good", victim=3, bonus={2: "0.5", 1: "1.0"})
LEVEL = ("cai", "fay", "gus")  # level on every metric after the qualifying: lots decide


def spec(name: str, **kw: object) -> StageSpec:
    data: dict[str, object] = {"name": name, **kw}
    return StageSpec.parse(data)


def by_lots(seed: int) -> tuple[str, ...]:
    """The level three in the order the qualifying's lots put them."""
    return tuple(p for p in draw_lots(QUAL_PLAYERS, seed) if p in LEVEL)


def example(seed: int = 7) -> EventOutcome:
    """The worked example of docs/scoring.md "Stages"."""
    fourth = by_lots(seed)[0]
    final = game("f1", ("ann", "eve", "bob", fourth), "killers")
    return compute_event(
        [
            StageGames(spec("qualifying"), (QUAL,)),
            StageGames(spec("final", entry={"top": 4}, multiplier="1.5", carry="0.5"), (final,)),
        ],
        seed=seed,
    )


# --- the cut: the ladder, then lots --------------------------------------------------------


def test_qualifying_standing_and_why() -> None:
    out = example()
    q = out.stages[0].cumulative
    assert [r.player for r in q.rows][:3] == ["ann", "eve", "bob"]
    assert [r.player for r in q.rows][-2:] == ["kim", "dan"]
    assert q.explain("eve", "bob").metric == "police-killer-wins"
    assert q.explain("ann", "eve").metric == "points"
    # kim's 1.0 is a referee bonus, not a win: level on points with the civilians, below on wins
    last_civilian = q.rows[5].player
    why = q.explain(last_civilian, "kim")
    assert (why.metric, why.higher_value, why.lower_value) == ("wins", D(1), D(0))
    assert why.level_on == ("points",)
    middle = [r.player for r in q.rows[3:6]]
    assert tuple(middle) == by_lots(7)
    assert q.explain(middle[0], middle[1]).metric == "lots"


@pytest.mark.parametrize("seed", range(6))
def test_top_n_cut_is_exact_with_lots_drawn_from_the_seed(seed: int) -> None:
    out = example(seed)
    entrants = out.stages[1].entrants
    assert entrants == ("ann", "eve", "bob", by_lots(seed)[0])
    assert out.entrants_for(Entry(EntryKind.TOP, top=2)) == tuple(
        r.player for r in out.stages[1].cumulative.rows[:2]
    )


def test_the_lots_are_reproducible_and_move_with_the_seed() -> None:
    assert example(7) == example(7)
    fourths = {example(seed).stages[1].entrants[3] for seed in range(12)}
    assert len(fourths) > 1  # the seed, not the names, picks who goes through
    out = example(7)
    assert out.stages[0].cumulative.seed == 7 and out.stages[1].cumulative.seed == 8
    assert out.stages[1].cumulative.lots == draw_lots(out.stages[1].entrants, 8)


def test_a_cut_decided_by_the_ladder() -> None:
    """Six go through: kim, level on points with the civilians, is out on wins."""
    out = compute_event(
        [
            StageGames(spec("q"), (QUAL,)),
            StageGames(spec("f", entry={"top": 6}), ()),
        ]
    )
    assert set(out.stages[1].entrants) == {"ann", "eve", "bob", *LEVEL}
    assert out.stages[0].cumulative.row("kim").points == D("1.0")
    assert "kim" not in out.stages[1].entrants


# --- multipliers and carry -----------------------------------------------------------------


def test_worked_example_numbers() -> None:
    """The numbers docs/scoring.md prints for its worked example."""
    out = example(7)
    fourth = by_lots(7)[0]
    assert fourth == "fay"  # the docs name her
    final = out.stages[1]
    assert dict(final.stage_points) == {"ann": D("1.5"), "eve": 0, "bob": 0, "fay": 0}
    cumulative = {r.player: r.points for r in final.cumulative.rows}
    assert cumulative == {"ann": D("2.25"), "eve": D("0.5"), "bob": D("0.5"), "fay": D("0.5")}
    assert final.cumulative.explain("eve", "bob").metric == "police-killer-wins"
    assert final.cumulative.explain("bob", "fay").metric == "night1-deaths"
    rows = [(r.rank, r.player, r.points, r.last_stage) for r in out.final]
    assert rows == [
        (1, "ann", D("2.25"), "final"),
        (2, "eve", D("0.5"), "final"),
        (3, "bob", D("0.5"), "final"),
        (4, "fay", D("0.5"), "final"),
        (5, "gus", D("1.0"), "qualifying"),
        (6, "cai", D("1.0"), "qualifying"),
        (7, "kim", D("1.0"), "qualifying"),
        (8, "dan", D("0"), "qualifying"),
    ]
    assert dict(out.final[0].stages) == {"qualifying": D("1.5"), "final": D("1.5")}
    assert dict(out.final[5].stages) == {"qualifying": D("1.0")}
    assert not any(r.tied for r in out.final)


def test_multiplier_scales_every_point_items_and_ci_too() -> None:
    # bob, a civilian killed on night 1, loses: Ci 0.4 in a one-game stage
    lost = game("g", QUAL_PLAYERS, "killers", victim=3, bonus={2: "0.3"})
    plain = compute_event([StageGames(spec("s"), (lost,))])
    doubled = compute_event([StageGames(spec("s", multiplier="2.5"), (lost,))])
    for row in plain.stages[0].own.rows:
        big = doubled.stages[0].own.row(row.player)
        assert big.points == row.points * D("2.5")
        assert big.ci == row.ci * D("2.5") and big.awards == row.awards * D("2.5")
        assert [i.points for i in big.items] == [i.points * D("2.5") for i in row.items]
        assert big.points == sum((i.points for i in big.items), D(0))
        assert doubled.stages[0].stage_points[row.player] == big.points
    assert doubled.stages[0].own.row("bob").ci == D("1.0")
    assert doubled.stages[0].own.row("ann").points == D("0.75")
    assert doubled.stages[0].own.row("kim").points == D("2.5")
    assert [r.player for r in plain.stages[0].own.rows] == [
        r.player for r in doubled.stages[0].own.rows
    ]


@pytest.mark.parametrize("carry", ["0", "0.5", "1"])
def test_carry_weighs_what_is_brought_in(carry: str) -> None:
    second = game("g2", QUAL_PLAYERS, "killers")  # kim and dan win
    out = compute_event(
        [
            StageGames(spec("a"), (QUAL,)),
            StageGames(spec("b", carry=carry, multiplier="2"), (second,)),
        ]
    )
    a, b = out.stages
    c = D(carry)
    for player in QUAL_PLAYERS:
        before, after = a.cumulative.row(player), b.cumulative.row(player)
        assert after.points == c * before.points + b.stage_points[player]
        assert after.metrics["wins"] == c * before.metrics["wins"] + b.own.row(player).wins
        assert after.metrics["awards"] == c * before.metrics["awards"] + b.own.row(player).awards
        assert after.points == sum((i.points for i in after.items), D(0))
    kim, ann = b.cumulative.row("kim"), b.cumulative.row("ann")
    assert kim.points == c * D("1.0") + D("2.0")
    assert ann.points == c * D("1.5")
    assert b.cumulative.row("eve").metrics["police-killer-wins"] == c
    assert b.cumulative.row("bob").metrics["night1-deaths"] == c
    if carry == "0":  # a fresh start: only the second stage's games count
        assert {r.player for r in b.cumulative.rows[:2]} == {"kim", "dan"}
        assert b.cumulative.row("kim").games == 1
    else:
        assert b.cumulative.row("kim").games == 2


def test_an_entrant_who_never_played_is_ranked_with_what_they_carry() -> None:
    out = compute_event(
        [
            StageGames(spec("a"), (QUAL,)),
            StageGames(spec("b"), (game("g2", QUAL_PLAYERS[:4], "good"),)),
        ]
    )
    b = out.stages[1]
    assert set(b.entrants) == set(QUAL_PLAYERS)
    assert b.stage_points["eve"] == 0 and "eve" not in {r.player for r in b.own.rows}
    assert b.cumulative.row("eve").points == out.stages[0].cumulative.row("eve").points
    assert dict(next(r for r in out.final if r.player == "eve").stages) == {
        "a": D("1.0"),
        "b": D(0),
    }
    listed = compute_event(
        [StageGames(spec("only", entry={"players": ["ann", "zoe"]}), ())], seed=3
    )
    zoe = listed.stages[0].cumulative.row("zoe")
    assert (zoe.points, zoe.games, zoe.wins) == (0, 0, 0)
    assert [r.player for r in listed.final] == list(draw_lots(["ann", "zoe"], 3))
    assert [w.code for w in listed.warnings] == ["stages.no_games"]


# --- entitlement ---------------------------------------------------------------------------


def test_a_player_outside_the_cut_is_refused_naming_player_stage_and_game() -> None:
    outsider = "dan"
    final = game("f/g2.json", ("ann", "eve", "bob", outsider), "good")
    with pytest.raises(NotEntitledError) as caught:
        compute_event(
            [
                StageGames(spec("qualifying"), (QUAL,)),
                StageGames(
                    spec("final", entry={"top": 4}),
                    (game("f/g1.json", ("ann", "eve", "bob", by_lots(0)[0]), "good"), final),
                ),
            ]
        )
    error = caught.value
    assert isinstance(error, FormatError)
    assert error.code == "formats.not_entitled"
    assert error.params == {"player": "dan", "stage": "final", "game": 2, "label": "f/g2.json"}
    assert "dan" in str(error) and "final" in str(error) and "f/g2.json" in str(error)


def test_a_first_stage_of_listed_players_refuses_anyone_else() -> None:
    with pytest.raises(NotEntitledError) as caught:
        compute_event([StageGames(spec("q", entry={"players": list(QUAL_PLAYERS[:7])}), (QUAL,))])
    assert caught.value.params["player"] == "gus"


# --- the final order -----------------------------------------------------------------------


def test_reaching_a_later_stage_ranks_above_more_points_and_ties_stay_in_a_group() -> None:
    """Three stages, lots off: cut players are listed by the stage they left at."""
    no_lots = DEFAULT_PRECEDENCE[:-1]
    out = compute_event(
        [
            StageGames(spec("q"), (QUAL,)),
            StageGames(spec("s", entry={"top": 6}, carry="0"), ()),
            StageGames(spec("f", entry={"top": 2}, carry="0"), ()),
        ],
        precedence=no_lots,
    )
    # after a fresh start with no games all six are level: top 2 takes the first two by name
    final = out.final
    assert [r.last_stage for r in final] == ["f", "f", "s", "s", "s", "s", "q", "q"]
    assert [r.rank for r in final] == [1, 1, 3, 3, 3, 3, 7, 8]
    assert [r.tied for r in final] == [True, True, True, True, True, True, False, False]
    assert [r.player for r in final[-2:]] == ["kim", "dan"]
    assert final[-2].points == D("1.0") > final[0].points == 0


# --- a one-stage event is scoring.md §3 ----------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(events, st.integers(0, 50), st.booleans())
def test_one_stage_is_compute_standings(
    summaries: list[GameSummary], seed: int, lots: bool
) -> None:
    precedence = DEFAULT_PRECEDENCE if lots else DEFAULT_PRECEDENCE[:-1]
    expected = compute_standings(summaries, precedence=precedence, seed=seed)
    out = compute_event(
        [StageGames(StageSpec("only", carry=D("0.3")), tuple(summaries))],
        precedence=precedence,
        seed=seed,
    )
    (stage,) = out.stages
    assert stage.own == expected
    assert stage.cumulative == expected
    assert [(r.player, r.rank, r.tied, r.points) for r in out.final] == [
        (r.player, r.rank, r.tied, r.points) for r in expected.rows
    ]


# --- specs ---------------------------------------------------------------------------------


def test_entry_parses_and_round_trips() -> None:
    for value in ("all", {"top": 3}, {"players": ["ann", "bob"]}):
        assert Entry.parse(value).as_json() == value
    for bad in ("top", {"top": 0}, {"top": "3"}, {"top": True}, {"players": []}, {"x": 1}, None):
        with pytest.raises(FormatError) as caught:
            Entry.parse(bad)
        assert caught.value.code == "formats.entry"


def test_stage_spec_parses_and_refuses_bad_fields() -> None:
    s = StageSpec.parse(
        {"name": "final", "entry": {"top": 10}, "multiplier": "1.5", "carry": "0", "hidden": True}
    )
    assert (s.multiplier, s.carry, s.entry.top, s.hidden, s.profile) == (
        D("1.5"),
        D(0),
        10,
        True,
        None,
    )
    assert StageSpec.parse(s.as_json()) == s
    assert StageSpec.parse({"name": "q", "profile": "club-v1"}).profile is not None
    cases = {
        "formats.multiplier": {"name": "f", "multiplier": "0"},
        "formats.carry": {"name": "f", "carry": "-0.5"},
        "formats.decimal": {"name": "f", "carry": 0.5},
        "formats.hidden": {"name": "f", "hidden": "yes"},
        "formats.profile": {"name": "f", "profile": "nope-v9"},
        "formats.stage_keys": {"name": "f", "multipler": "2"},
        "formats.stage_name": {"name": ""},
        "formats.entry": {"name": "f", "entry": {"top": 0}},
    }
    for code, data in cases.items():
        with pytest.raises(FormatError) as caught:
            StageSpec.parse(data)
        assert caught.value.code == code
        if code != "formats.stage_name":
            assert caught.value.params["stage"] == "f"


def test_event_level_refusals() -> None:
    with pytest.raises(FormatError, match="at least one stage"):
        compute_event([])
    with pytest.raises(FormatError) as caught:
        compute_event([StageGames(spec("a"), ()), StageGames(spec("a"), ())])
    assert caught.value.code == "formats.duplicate_stage"
    with pytest.raises(FormatError) as caught:
        compute_event([StageGames(spec("a", entry={"top": 4}), (QUAL,))])
    assert caught.value.code == "formats.first_top"


def test_the_docs_print_the_worked_example() -> None:
    """docs/scoring.md "Stages" shows the final order computed here, row by row."""
    from pathlib import Path

    from engine.scoring import format_points

    docs = (Path(__file__).parents[2] / "docs" / "scoring.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Stages") :]
    out = example(7)
    for row in out.final:
        cells = [str(row.rank), row.player, format_points(row.points), row.last_stage]
        cells += [
            format_points(row.stages[n]) if n in row.stages else "" for n in ("qualifying", "final")
        ]
        assert "| " + " | ".join(cells).replace("|  |", "| |") in section, cells
    q = out.stages[0].cumulative
    for row in q.rows:
        assert (
            f"| {row.rank} | {row.player} | {format_points(row.points)} | {row.wins} |" in section
        )
