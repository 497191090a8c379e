"""Circuits (formats.md §3): known answers worked by hand, every error's code, and
properties of any circuit (order of events, best B, totals, monotonicity)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats.circuit import (
    CircuitError,
    CircuitEvent,
    CircuitProfile,
    CircuitStanding,
    compute_circuit,
    event_points,
    field_factor,
    parse_circuit,
)
from engine.messages import render
from engine.standings import draw_lots

D = Decimal

#: The spec's example profile (formats.md §4) with a "major" category.
SPEC: dict[str, object] = {
    "places": ["100", "80", "65", "50"],
    "categories": {"club": "1", "open": "1.5", "major": "2"},
    "field": {"reference": 40, "min": "0.5", "max": "1.5"},
    "best": 3,
    "min_events": 2,
}


def profile(**changes: object) -> CircuitProfile:
    return CircuitProfile.parse({**SPEC, **changes})


def flat(places: Sequence[str], best: int | None = None, min_events: int = 1) -> CircuitProfile:
    """A profile without category or field weights: points are the places."""
    return CircuitProfile.parse(
        {
            "places": list(places),
            "categories": {"club": "1"},
            "best": best,
            "min_events": min_events,
        }
    )


def event(
    key: str, *ranks: tuple[str, int], players: int = 40, category: str = "club"
) -> CircuitEvent:
    return CircuitEvent(key, category, players, tuple(ranks))


def points(p: CircuitProfile, *ranks: tuple[str, int], **kw: object) -> dict[str, Decimal]:
    return dict(event_points(p, event("e", *ranks, **kw)))  # type: ignore[arg-type]


def error(excinfo: pytest.ExceptionInfo[CircuitError]) -> tuple[str, dict[str, object]]:
    e = excinfo.value
    return e.code, dict(e.params)


# --- the profile -----------------------------------------------------------------------------


def test_the_spec_profile_reads_and_round_trips() -> None:
    p = profile()
    assert p.places == (D(100), D(80), D(65), D(50))
    assert dict(p.categories) == {"club": D(1), "open": D("1.5"), "major": D(2)}
    assert (p.field_reference, p.field_min, p.field_max) == (40, D("0.5"), D("1.5"))
    assert (p.best, p.min_events) == (3, 2)
    assert CircuitProfile.parse(p.as_json()) == p
    assert p.as_json()["places"] == ["100", "80", "65", "50"]


def test_defaults_no_field_factor_every_event_counts() -> None:
    p = CircuitProfile.parse({"places": ["10"], "categories": {"club": "1"}})
    assert (p.field_reference, p.field_min, p.field_max, p.best, p.min_events) == (
        1,
        D(1),
        D(1),
        None,
        1,
    )
    assert field_factor(p, 1) == field_factor(p, 500) == 1
    assert CircuitProfile.parse(p.as_json()) == p


@pytest.mark.parametrize(
    ("changes", "code", "fields"),
    [
        ({"min_event": 2}, "circuit.profile/unknown", ["min_event"]),
        ({"places": None}, "circuit.profile/missing", ["places"]),
        ({"places": "100"}, "circuit.profile/type", ["places"]),
        ({"places": []}, "circuit.profile/empty", ["places"]),
        ({"places": ["1"] * 501}, "circuit.profile/too_many", ["places"]),
        (
            {"categories": {f"c{i}": "1" for i in range(51)}},
            "circuit.profile/too_many",
            ["categories"],
        ),
        ({"categories": {"": "1"}}, "circuit.profile/name", ["categories."]),
        (
            {"places": ["x", "1", 0.5, True]},
            "circuit.profile/not_decimal",
            ["places[0]", "places[2]", "places[3]"],
        ),
        ({"places": ["NaN"]}, "circuit.profile/not_decimal", ["places[0]"]),
        (
            {"places": ["-1"], "categories": {"club": "-2"}},
            "circuit.profile/negative",
            ["places[0]", "categories.club"],
        ),
        ({"places": ["10001"]}, "circuit.profile/too_large", ["places[0]"]),
        ({"places": ["1.0000001"]}, "circuit.profile/too_large", ["places[0]"]),
        ({"field": {"reference": 100_001}}, "circuit.profile/too_large", ["field.reference"]),
        ({"field": {"min": "2", "max": "1"}}, "circuit.profile/order", ["field.min"]),
        ({"field": {"mid": "1"}}, "circuit.profile/unknown", ["field.mid"]),
        ({"field": []}, "circuit.profile/type", ["field"]),
        ({"best": "3", "min_events": 1.0}, "circuit.profile/not_integer", ["best", "min_events"]),
        (
            {"best": 0, "field": {"reference": 0}},
            "circuit.profile/too_small",
            ["field.reference", "best"],
        ),
        ({"min_events": -1}, "circuit.profile/too_small", ["min_events"]),
    ],
)
def test_profile_errors_name_every_field_wrong_that_way(
    changes: dict[str, object], code: str, fields: list[str]
) -> None:
    with pytest.raises(CircuitError) as excinfo:
        profile(**changes)
    assert error(excinfo) == ("circuit.profile", {"variant": code.split("/")[1], "fields": fields})
    assert str(excinfo.value).startswith("circuit profile")


def test_a_profile_that_is_not_an_object() -> None:
    with pytest.raises(CircuitError) as excinfo:
        CircuitProfile.parse([])  # type: ignore[arg-type]
    assert excinfo.value.params == {"variant": "type", "fields": ["profile"]}


# --- the points of one event -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "factor"),
    [
        (1, "0.5"),
        (10, "0.5"),
        (20, "0.5"),
        (30, "0.75"),
        (40, "1"),
        (48, "1.2"),
        (60, "1.5"),
        (80, "1.5"),
    ],
)
def test_field_factor_is_clamped_at_min_and_max(players: int, factor: str) -> None:
    assert field_factor(profile(), players) == D(factor)


def test_places_times_category_times_field() -> None:
    p = profile()
    assert points(p, ("a", 1), ("b", 2), players=40) == {"a": D(100), "b": D(80)}
    assert points(p, ("a", 1), ("b", 2), players=48, category="open") == {"a": D(180), "b": D(144)}
    assert points(p, ("a", 1), players=80, category="major") == {"a": D(300)}
    assert points(p, ("a", 3), players=10, category="major") == {"a": D(65)}
    assert points(p, ("a", 5), ("b", 40)) == {"a": D(0), "b": D(0)}  # beyond the list


def test_rounding_is_half_up_to_two_decimals() -> None:
    p = CircuitProfile.parse(
        {"places": ["10.005", "0.125"], "categories": {"club": "1", "third": "0.333333"}}
    )
    assert points(p, ("a", 1), ("b", 2)) == {"a": D("10.01"), "b": D("0.13")}  # not 10.00, 0.12
    assert points(p, ("a", 1), category="third") == {"a": D("3.33")}  # 3.334996…
    thirds = CircuitProfile.parse(
        {
            "places": ["1"],
            "categories": {"club": "1"},
            "field": {"reference": 3, "min": "0", "max": "1"},
        }
    )
    assert field_factor(thirds, 2) == D(2) / D(3)
    assert points(thirds, ("a", 1), players=1) == {"a": D("0.33")}
    assert points(thirds, ("a", 1), players=2) == {"a": D("0.67")}
    assert str(points(thirds, ("a", 1), players=3)["a"]) == "1.00"


def test_tied_players_share_the_mean_of_the_places_they_span() -> None:
    p = flat(["100", "80", "65", "50", "40.01"])
    # two at 3: (65 + 50) / 2
    assert points(p, ("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 5)) == {
        "a": D(100),
        "b": D(80),
        "c": D("57.5"),
        "d": D("57.5"),
        "e": D("40.01"),
    }
    # three at 1: (100 + 80 + 65) / 3 = 81.666…
    assert points(p, ("a", 1), ("b", 1), ("c", 1), ("d", 4)) == {
        "a": D("81.67"),
        "b": D("81.67"),
        "c": D("81.67"),
        "d": D(50),
    }
    # two at 4, rounded half up: (50 + 40.01) / 2 = 45.005
    assert points(p, ("a", 4), ("b", 4)) == {"a": D("45.01"), "b": D("45.01")}


def test_ties_past_the_end_of_the_list_share_zeros() -> None:
    p = flat(["100", "80", "65", "50"])
    assert points(p, ("a", 4), ("b", 4)) == {"a": D(25), "b": D(25)}  # (50 + 0) / 2
    assert points(p, ("a", 4), ("b", 4), ("c", 4)) == {
        "a": D("16.67"),
        "b": D("16.67"),
        "c": D("16.67"),
    }
    assert points(p, ("a", 5), ("b", 5)) == {"a": D(0), "b": D(0)}


def test_tie_shares_are_weighted_after_averaging() -> None:
    # (65 + 50) / 2 × 1.5 × 1.2 = 103.5
    assert points(profile(), ("a", 3), ("b", 3), players=48, category="open") == {
        "a": D("103.5"),
        "b": D("103.5"),
    }


@pytest.mark.parametrize(
    ("bad", "code", "params"),
    [
        (
            event("e", category="cup"),
            "circuit.category",
            {"category": "cup", "categories": ["club", "major", "open"]},
        ),
        (event("e", ("a", 1), ("a", 2)), "circuit.player_twice", {"player": "a"}),
        (event("e", ("a", 0)), "circuit.rank", {"variant": "low", "player": "a", "rank": 0}),
        (
            event("e", ("a", 1), ("b", 2), ("c", 3), players=2),
            "circuit.ranks_over",
            {"count": 3, "field_size": 2},
        ),
        (
            event("e", ("a", 5), players=4),
            "circuit.rank",
            {"variant": "high", "rank": 5, "count": 1, "field_size": 4},
        ),
        (
            event("e", ("a", 4), ("b", 4), players=4),
            "circuit.rank",
            {"variant": "shared_high", "rank": 4, "count": 2, "field_size": 4},
        ),
        (
            event("e", ("a", 1), ("b", 1), ("c", 2)),
            "circuit.rank",
            {"variant": "inside", "rank": 2, "tie_rank": 1, "count": 2},
        ),
        (event("e", players=0), "circuit.field_size", {"field_size": 0, "limit": 100_000}),
        (event("e", ("", 1)), "circuit.player_name", {}),
        (event(""), "circuit.event_name", {"event": ""}),
    ],
)
def test_an_event_that_cannot_be_scored(
    bad: CircuitEvent, code: str, params: dict[str, object]
) -> None:
    with pytest.raises(CircuitError) as excinfo:
        event_points(profile(), bad)
    got_code, got = error(excinfo)
    assert got_code == code
    assert got == ({"event": bad.key, **params} if code != "circuit.event_name" else params)
    assert str(excinfo.value)  # renders


def test_two_events_with_one_name() -> None:
    with pytest.raises(CircuitError) as excinfo:
        compute_circuit(profile(), [event("a"), event("b"), event("a")])
    assert error(excinfo) == ("circuit.event_twice", {"event": "a"})


def test_ranks_need_not_be_contiguous() -> None:
    assert points(flat(["3", "2", "1"]), ("a", 1), ("b", 3)) == {"a": D(3), "b": D(1)}


# --- the standing ----------------------------------------------------------------------------


def standing(p: CircuitProfile, *events: CircuitEvent, seed: int = 0) -> CircuitStanding:
    return compute_circuit(p, events, seed)


def rows(s: CircuitStanding) -> list[tuple[str, int, Decimal, bool]]:
    return [(ln.player, ln.rank, ln.points, ln.ranked) for ln in s.lines]


def test_best_b_counts_the_best_and_says_why_the_rest_dropped() -> None:
    p = flat(["100", "80", "65", "50"], best=2)
    s = standing(
        p,
        event("e1", ("a", 3), ("b", 1)),
        event("e2", ("a", 1), ("b", 2)),
        event("e3", ("a", 4)),
        event("e4", ("a", 2), ("b", 4)),
    )
    a = s.line("a")
    assert (a.points, a.counted, a.dropped, a.events, a.best_place) == (
        D(180),
        ("e2", "e4"),
        ("e1", "e3"),
        4,
        1,
    )
    assert [(r.event, r.rank, r.points, r.counted, r.reason) for r in a.results] == [
        ("e1", 3, D(65), False, "beyond_best"),
        ("e2", 1, D(100), True, "best"),
        ("e3", 4, D(50), False, "beyond_best"),
        ("e4", 2, D(80), True, "best"),
    ]
    b = s.line("b")
    assert (b.points, b.counted, b.dropped) == (D(180), ("e1", "e2"), ("e4",))
    assert str(s.result_message(a.results[0])) == (
        "e1: place 3, 65.0 points, dropped (not among the best 2 events)"
    )
    assert str(s.result_message(a.results[1])) == (
        "e2: place 1, 100.0 points, counted (among the best 2 events)"
    )


def test_without_best_every_event_counts() -> None:
    s = standing(flat(["10", "5"]), event("e1", ("a", 1)), event("e2", ("a", 2)))
    a = s.line("a")
    assert (a.points, a.counted, a.dropped) == (D(15), ("e1", "e2"), ())
    assert {r.reason for r in a.results} == {"all"}
    assert (
        str(s.result_message(a.results[1]))
        == "e2: place 2, 5.0 points, counted (every event counts)"
    )


def test_equal_points_choose_the_better_place_then_the_earlier_event() -> None:
    p = CircuitProfile.parse(
        {"places": ["100", "50"], "categories": {"club": "1", "major": "2"}, "best": 1}
    )
    # 100 points either way: place 1 at a club, place 2 at a major; the better place counts
    s = standing(p, event("club", ("a", 1)), event("major", ("a", 2), category="major"))
    assert (s.line("a").counted, s.line("a").best_place) == (("club",), 1)
    s = standing(p, event("major", ("a", 2), category="major"), event("club", ("a", 1)))
    assert (s.line("a").counted, s.line("a").best_place) == (("club",), 1)
    # equal points and place: the earlier event in the order given
    s = standing(p, event("x", ("a", 1)), event("y", ("a", 1)))
    assert (s.line("a").counted, s.line("a").dropped) == (("x",), ("y",))
    s = standing(p, event("y", ("a", 1)), event("x", ("a", 1)))
    assert (s.line("a").counted, s.line("a").dropped) == (("y",), ("x",))


def test_players_below_min_events_follow_unranked_and_ranks_continue() -> None:
    p = flat(["100", "80", "65"], min_events=2)
    s = standing(
        p,
        event("e1", ("star", 1), ("a", 2), ("b", 3)),
        event("e2", ("new", 1), ("b", 2), ("a", 3)),
        event("e3", ("a", 1)),
    )
    luckier, other = draw_lots(["new", "star"], 0)
    assert rows(s) == [
        ("a", 1, D(245), True),
        ("b", 2, D(145), True),
        (luckier, 3, D(100), False),
        (other, 4, D(100), False),
    ]
    assert [ln.tied for ln in s.lines] == [False] * 4
    why = s.explain("star", "b")
    assert (why.higher, why.lower, why.criterion, why.higher_value, why.lower_value) == (
        "b",
        "star",
        "ranked",
        "2",
        "1",
    )
    assert str(why.message) == (
        "b ranks above star: star played 1 event(s), fewer than the 2 needed to be ranked"
    )
    # the unranked among themselves: points, best place, events, then lots
    assert s.explain("new", "star").criterion == "lots"


def test_each_rung_of_the_ladder() -> None:
    p = flat(["100", "75", "50", "25"])
    s = standing(
        p,
        # points: top 200 (two wins) above the rest
        event("e1", ("top", 1), ("first", 2), ("second", 3)),
        event("e2", ("top", 1), ("first", 4), ("second", 2)),
        # first 75 + 25 + 25 = 125 and second 50 + 75 = 125: best place 2 vs 2, events 3 vs 2
        event("e3", ("first", 4)),
        # two players with one win each in separate events: only lots part them
        event("e4", ("x", 1)),
        event("e5", ("y", 1)),
        seed=11,
    )
    assert [ln.player for ln in s.lines[:1]] == ["top"]
    assert s.explain("top", "x").criterion == "points"
    points_why = s.explain("x", "top")
    assert (points_why.higher, points_why.higher_value, points_why.lower_value) == (
        "top",
        "200.0",
        "100.0",
    )
    assert str(points_why.message) == "top ranks above x on points (200.0 vs 100.0)"

    events_why = s.explain("second", "first")
    assert (
        events_why.higher,
        events_why.criterion,
        events_why.higher_value,
        events_why.lower_value,
    ) == (
        "first",
        "events",
        "3",
        "2",
    )
    assert str(events_why.message) == (
        "first ranks above second on counted events (3 vs 2), level on points and best place"
    )

    lots_why = s.explain("x", "y")
    lots = draw_lots(["x", "y"], 11)
    assert (lots_why.higher, lots_why.lower, lots_why.criterion) == (lots[0], lots[1], "lots")
    order = {p: n for n, p in enumerate(s.lots, start=1)}
    assert (
        lots_why.params["higher_lot"]
        == order[lots[0]]
        < order[lots[1]]
        == lots_why.params["lower_lot"]
    )
    assert lots_why.params["seed"] == 11
    assert "by the drawing of lots" in str(lots_why.message)


def test_best_place_rung() -> None:
    s = standing(
        flat(["100", "75", "50", "25"]),
        event("e1", ("ace", 1), ("steady", 2)),
        event("e2", ("steady", 3), ("ace", 4)),
    )
    assert rows(s) == [("ace", 1, D(125), True), ("steady", 2, D(125), True)]
    why = s.explain("steady", "ace")
    assert (why.criterion, why.higher_value, why.lower_value) == ("best_place", "1", "2")
    assert str(why.message) == (
        "ace ranks above steady on the best place in a counted event (1 vs 2), level on points"
    )


def test_best_place_looks_at_counted_events_only() -> None:
    p = CircuitProfile.parse(
        {"places": ["100", "80"], "categories": {"club": "1", "major": "2"}, "best": 1}
    )
    s = standing(
        p, event("club", ("a", 1), ("b", 2)), event("major", ("a", 2), ("b", 1), category="major")
    )
    # a: 100 (place 1, club) dropped behind 160 (place 2, major)
    a = s.line("a")
    assert (a.points, a.counted, a.dropped, a.best_place) == (D(160), ("major",), ("club",), 2)


def test_lots_follow_the_seed_and_are_reproducible() -> None:
    events = [event(f"e{i}", (f"p{i}", 1)) for i in range(6)]
    p = flat(["10"])
    first = standing(p, *events, seed=5)
    again = standing(p, *reversed(events), seed=5)
    assert [ln.player for ln in first.lines] == [ln.player for ln in again.lines]
    assert [ln.player for ln in first.lines] == list(draw_lots([f"p{i}" for i in range(6)], 5))
    assert first.lots == again.lots
    orders = {tuple(ln.player for ln in standing(p, *events, seed=s).lines) for s in range(10)}
    assert len(orders) > 1


def test_explain_a_player_with_themselves_is_a_tie_and_unknown_players_are_refused() -> None:
    s = standing(flat(["10"]), event("e", ("a", 1)))
    why = s.explain("a", "a")
    assert (why.criterion, why.higher_value, why.code) == (None, None, "circuit.explain")
    assert str(why.message) == "a and a are tied"
    with pytest.raises(CircuitError) as excinfo:
        s.explain("a", "ghost")
    assert error(excinfo) == ("circuit.no_player", {"player": "ghost"})


def test_an_empty_circuit() -> None:
    s = compute_circuit(profile(), [], 1)
    assert (s.lines, s.lots, s.seed) == ((), (), 1)


# --- the document ------------------------------------------------------------------------------


def spec_document(**changes: object) -> dict[str, object]:
    return {
        "format": "kgc/1",
        "seed": 3,
        "profile": dict(SPEC),
        "events": [
            {
                "name": "Spring Cup",
                "category": "open",
                "players": 48,
                "ranks": [{"player": "li-wei", "rank": 1}, {"player": "chen-jie", "rank": 2}],
            }
        ],
        **changes,
    }


def test_the_spec_document_reads() -> None:
    p, events, seed = parse_circuit(spec_document())
    assert (p, seed) == (profile(), 3)
    assert events == (CircuitEvent("Spring Cup", "open", 48, (("li-wei", 1), ("chen-jie", 2))),)


def _with_event(**changes: object) -> dict[str, object]:
    e = {
        "name": "E",
        "category": "club",
        "players": 4,
        "ranks": [{"player": "a", "rank": 1}],
        **changes,
    }
    return spec_document(events=[e])


@pytest.mark.parametrize(
    ("document", "variant", "params"),
    [
        ([], "object", {"path": "$", "value": "[]"}),
        (spec_document(format="kgc/2"), "format", {"value": "'kgc/2'"}),
        (spec_document(seed="3"), "integer", {"path": "seed", "value": "'3'"}),
        (
            spec_document(extra=1),
            "unknown",
            {"path": "$", "keys": ["extra"], "allowed": ["format", "seed", "profile", "events"]},
        ),
        ({"format": "kgc/1", "events": []}, "missing", {"path": "profile"}),
        (spec_document(events={}), "list", {"path": "events", "value": "{}"}),
        (_with_event(name=1), "text", {"path": "events[0].name", "value": "1"}),
        (_with_event(category=None), "text", {"path": "events[0].category", "value": "None"}),
        (_with_event(players="4"), "integer", {"path": "events[0].players", "value": "'4'"}),
        (_with_event(ranks=None), "list", {"path": "events[0].ranks", "value": "None"}),
        (_with_event(ranks=[{"player": "a"}]), "missing", {"path": "events[0].ranks[0].rank"}),
        (
            _with_event(ranks=[{"player": "a", "rank": 1.0}]),
            "integer",
            {"path": "events[0].ranks[0].rank", "value": "1.0"},
        ),
        (
            _with_event(ranks=[{"player": 7, "rank": 1}]),
            "text",
            {"path": "events[0].ranks[0].player", "value": "7"},
        ),
        (_with_event(ranks=["a"]), "object", {"path": "events[0].ranks[0]", "value": "'a'"}),
    ],
)
def test_document_errors_name_the_path(
    document: object, variant: str, params: dict[str, object]
) -> None:
    with pytest.raises(CircuitError) as excinfo:
        parse_circuit(document)
    assert error(excinfo) == ("circuit.document", {"variant": variant, **params})
    assert render("circuit.document", {"variant": variant, **params}) == str(excinfo.value)


def test_a_seed_defaults_to_zero() -> None:
    doc = spec_document()
    del doc["seed"]
    assert parse_circuit(doc)[2] == 0


# --- properties ------------------------------------------------------------------------------

POOL = [f"p{i}" for i in range(8)]
CATEGORIES = {"club": "1", "open": "1.5", "major": "2"}


@st.composite
def profiles(draw: st.DrawFn) -> CircuitProfile:
    cents = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=8))
    places = [str(D(c) / 100) for c in sorted(cents, reverse=True)]  # never rising
    low = draw(st.sampled_from(["0", "0.5", "1"]))
    return CircuitProfile.parse(
        {
            "places": places,
            "categories": CATEGORIES,
            "field": {
                "reference": draw(st.integers(1, 50)),
                "min": low,
                "max": draw(st.sampled_from(["1", "1.5", "3"])),
            },
            "best": draw(st.none() | st.integers(1, 4)),
            "min_events": draw(st.integers(0, 3)),
        }
    )


@st.composite
def final_orders(draw: st.DrawFn, key: str) -> CircuitEvent:
    """A competition ranking (1, 2, 2, 4 …) of some of the pool."""
    chosen = draw(st.permutations(POOL))[: draw(st.integers(0, len(POOL)))]
    ranks: list[tuple[str, int]] = []
    place = 1
    i = 0
    while i < len(chosen):
        size = draw(st.integers(1, 3))
        group = chosen[i : i + size]
        ranks += [(player, place) for player in group]
        place += len(group)
        i += len(group)
    players = len(ranks) + draw(st.integers(0, 60))
    return CircuitEvent(
        key, draw(st.sampled_from(sorted(CATEGORIES))), max(players, 1), tuple(ranks)
    )


@st.composite
def circuits(draw: st.DrawFn) -> tuple[CircuitProfile, list[CircuitEvent], int]:
    count = draw(st.integers(0, 6))
    events = [draw(final_orders(f"event-{i}")) for i in range(count)]
    return draw(profiles()), events, draw(st.integers(0, 1000))


def summary(s: CircuitStanding) -> list[tuple[object, ...]]:
    """Everything but which of two equal events was named as counted."""
    return [
        (
            ln.player,
            ln.rank,
            ln.tied,
            ln.points,
            ln.events,
            ln.ranked,
            ln.best_place,
            sorted((r.points, r.rank, r.counted) for r in ln.results),
        )
        for ln in s.lines
    ]


@settings(max_examples=150, deadline=None)
@given(circuits(), st.randoms(use_true_random=False))
def test_the_order_events_are_listed_in_does_not_matter(
    circuit: tuple[CircuitProfile, list[CircuitEvent], int], rnd: random.Random
) -> None:
    p, events, seed = circuit
    shuffled = list(events)
    rnd.shuffle(shuffled)
    first, second = compute_circuit(p, events, seed), compute_circuit(p, shuffled, seed)
    assert summary(first) == summary(second)


@settings(max_examples=150, deadline=None)
@given(circuits())
def test_totals_counted_events_and_ranks(
    circuit: tuple[CircuitProfile, list[CircuitEvent], int],
) -> None:
    p, events, seed = circuit
    s = compute_circuit(p, events, seed)
    played: dict[str, list[str]] = {}
    for e in events:
        for player, _ in e.ranks:
            played.setdefault(player, []).append(e.key)
    assert sorted(ln.player for ln in s.lines) == sorted(played)
    assert [ln.rank for ln in s.lines] == list(range(1, len(s.lines) + 1))  # lots part everyone
    ranked = [ln.ranked for ln in s.lines]
    assert ranked == sorted(ranked, reverse=True)  # the ranked first
    for ln in s.lines:
        assert ln.points == sum((r.points for r in ln.results if r.counted), D(0))
        assert p.best is None or len(ln.counted) <= p.best
        assert len(ln.counted) == (ln.events if p.best is None else min(p.best, ln.events))
        assert sorted(ln.counted + ln.dropped) == sorted(played[ln.player])
        assert ln.ranked == (ln.events >= p.min_events)
        counted_points = [r.points for r in ln.results if r.counted]
        dropped_points = [r.points for r in ln.results if not r.counted]
        assert not dropped_points or min(counted_points) >= max(dropped_points)
    for higher, lower in zip(s.lines, s.lines[1:], strict=False):
        why = s.explain(lower.player, higher.player)
        assert (why.higher, why.lower) == (higher.player, lower.player)
        assert why.criterion is not None
        assert str(why.message)


@settings(max_examples=150, deadline=None)
@given(circuits(), st.data())
def test_improving_a_rank_never_lowers_points(
    circuit: tuple[CircuitProfile, list[CircuitEvent], int], data: st.DataObject
) -> None:
    p, events, seed = circuit
    strict = [
        e for e in events if len({r for _, r in e.ranks}) == len(e.ranks) and len(e.ranks) > 1
    ]
    if not strict:
        return
    e = data.draw(st.sampled_from(strict))
    i = data.draw(st.integers(1, len(e.ranks) - 1))
    ranks = list(e.ranks)
    (up, up_rank), (down, down_rank) = ranks[i], ranks[i - 1]
    ranks[i], ranks[i - 1] = (up, down_rank), (down, up_rank)
    better = CircuitEvent(e.key, e.category, e.players, tuple(ranks))
    assert event_points(p, better)[up] >= event_points(p, e)[up]
    before = compute_circuit(p, events, seed).line(up).points
    after = compute_circuit(p, [better if x is e else x for x in events], seed).line(up).points
    assert after >= before


@settings(max_examples=150, deadline=None)
@given(profiles(), final_orders("e"))
def test_tied_players_share_what_their_places_are_worth(p: CircuitProfile, e: CircuitEvent) -> None:
    got: Mapping[str, Decimal] = event_points(p, e)
    weight = p.categories[e.category] * field_factor(p, e.players)
    by_rank: dict[int, list[str]] = {}
    for player, rank in e.ranks:
        by_rank.setdefault(rank, []).append(player)
    for rank, group in by_rank.items():
        assert len({got[x] for x in group}) == 1
        spanned = sum(
            (
                p.places[k - 1] if k <= len(p.places) else D(0)
                for k in range(rank, rank + len(group))
            ),
            D(0),
        )
        assert abs(got[group[0]] * len(group) - spanned * weight) <= D("0.005") * len(group) + D(
            "1e-20"
        )
