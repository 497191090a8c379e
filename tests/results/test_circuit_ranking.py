"""A season's circuit standing (formats.md §3) on the site: the pipeline against numbers
worked out by hand, the season page (counted and dropped events, why a player is above
the next, decimals in the reader's language) and the season API."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.db import transaction
from django.test import Client, TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from engine.formats.circuit import CircuitProfile as EngineProfile
from league.models import CircuitProfile, Event, League, Player, Season
from results.models import EventStanding, SeasonCircuit, SeasonStanding
from results.pipeline.standings import recompute_season
from results.services import recompute_seasons
from tests.league.factories import ClubFactory, EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db

#: Places 100/80/60/40, open events weigh 1.5, the field factor is players / 4 between
#: 0.5 and 1.5, only a player's best event counts, two events are needed to be ranked.
PROFILE = {
    "places": ["100", "80", "60", "40"],
    "categories": {"club": "1", "open": "1.5"},
    "field": {"reference": 4, "min": "0.5", "max": "1.5"},
    "best": 1,
    "min_events": 2,
}


def _profile(league: League, data: dict[str, Any] = PROFILE, slug: str = "tour") -> CircuitProfile:
    return CircuitProfile.objects.create(
        league=league, slug=slug, version=1, data=EngineProfile.parse(data).as_json()
    )


def _event(season: Season, name: str, category: str, status: str, day: int) -> Event:
    event: Event = EventFactory(
        club=season.league.club,
        season=season,
        name=name,
        circuit_category=category,
        status=status,
        starts_on=dt.date(2026, 3, day),
        ends_on=dt.date(2026, 3, day),
    )
    return event


def _final_order(event: Event, order: list[tuple[Player | str, int]]) -> None:
    """The event's public final order, as the event pipeline writes it."""
    EventStanding.objects.bulk_create(
        EventStanding(
            event=event,
            position=i,
            handle=who if isinstance(who, str) else who.handle,
            player=None if isinstance(who, str) else who,
            rank=rank,
            points=Decimal(10 - i),
            wins=0,
            games=1,
            awards=0,
            ci=0,
        )
        for i, (who, rank) in enumerate(order, start=1)
    )


class Circuit:
    """Two finished events of a season with a circuit, one running, one elsewhere."""

    def __init__(self) -> None:
        club = ClubFactory()
        self.league = League.objects.create(name="Tour", slug="tour", club=club)
        self.profile = _profile(self.league)
        self.season = Season.objects.create(
            league=self.league,
            name="2026",
            starts_on=dt.date(2026, 1, 1),
            ends_on=dt.date(2026, 12, 31),
            circuit=self.profile,
            circuit_seed=7,
        )
        self.p = [PlayerFactory(display_name=f"P{i}", handle=f"p{i}") for i in range(7)]
        p = self.p
        self.spring = _event(self.season, "Spring", "club", Event.Status.FINISHED, 1)
        self.open = _event(self.season, "Open", "open", Event.Status.FINISHED, 8)
        self.later = _event(self.season, "Later", "club", Event.Status.RUNNING, 15)
        # Spring, 4 players (factor 1): p1 100; p2 and p3 tied 2nd share (80 + 60) / 2
        _final_order(self.spring, [(p[1], 1), (p[2], 2), (p[3], 2), (p[4], 4)])
        # Open, 5 lines (factor 5/4, weight 1.5 × 1.25 = 1.875): 187.50, 150, the third
        # line has no player, p4 75, p5 beyond the places: 0
        _final_order(self.open, [(p[2], 1), (p[1], 2), ("ghost", 3), (p[4], 4), (p[5], 5)])
        # not finished: no circuit points
        _final_order(self.later, [(p[3], 1), (p[6], 2)])
        other = Season.objects.create(
            league=self.league,
            name="2025",
            starts_on=dt.date(2025, 1, 1),
            ends_on=dt.date(2025, 12, 31),
        )
        elsewhere = _event(other, "Old", "club", Event.Status.FINISHED, 20)
        _final_order(elsewhere, [(p[5], 1)])

    def recompute(self) -> None:
        with transaction.atomic():
            recompute_season(self.season.pk)

    def row(self, i: int) -> SeasonStanding:
        return SeasonStanding.objects.get(season=self.season, player=self.p[i])


@pytest.fixture
def circuit() -> Circuit:
    c = Circuit()
    c.recompute()
    return c


def _result(row: SeasonStanding, event: Event) -> dict[str, Any]:
    return next(r for r in row.circuit_results if r["event"] == event.pk)


def test_points_places_and_ranks_by_hand(circuit: Circuit) -> None:
    c = circuit
    expected = {  # player: (points, rank, ranked)
        2: (Decimal("187.50"), 1, True),
        1: (Decimal("150.00"), 2, True),
        4: (Decimal("75.00"), 3, True),
        3: (Decimal("70.00"), 4, False),  # one event: listed after, unranked
        5: (Decimal("0.00"), 5, False),
    }
    for i, (points, rank, ranked) in expected.items():
        row = c.row(i)
        assert (row.circuit_points, row.circuit_rank, row.circuit_ranked) == (points, rank, ranked)
        assert row.circuit_tied is False
    # p6 played only the running event: a totals row, no circuit line
    assert c.row(6).events == 1
    assert c.row(6).circuit_rank is None and c.row(6).circuit_results == []


def test_best_event_counts_and_the_other_is_dropped(circuit: Circuit) -> None:
    c = circuit
    p1 = c.row(1)
    assert _result(p1, c.open) == {
        "event": c.open.pk,
        "rank": 2,
        "points": "150.00",
        "counted": True,
        "reason": "best",
    }
    assert _result(p1, c.spring) == {
        "event": c.spring.pk,
        "rank": 1,
        "points": "100.00",
        "counted": False,
        "reason": "beyond_best",
    }
    assert [r["event"] for r in p1.circuit_results] == [c.spring.pk, c.open.pk]  # by date
    assert all(r["event"] != c.later.pk for r in c.row(3).circuit_results)


def test_a_tie_at_a_place_shares_its_points(circuit: Circuit) -> None:
    c = circuit
    for i in (2, 3):
        assert _result(c.row(i), c.spring)["points"] == "70.00"
        assert _result(c.row(i), c.spring)["rank"] == 2


def test_why_above_the_next_line(circuit: Circuit) -> None:
    c = circuit
    assert c.row(2).circuit_above_next == {
        "criterion": "points",
        "higher": "187.5",
        "lower": "150.0",
        "next": c.p[1].pk,
    }
    assert c.row(4).circuit_above_next == {
        "criterion": "ranked",
        "higher": "2",
        "lower": "1",
        "next": c.p[3].pk,
        "min_events": 2,
    }
    assert c.row(5).circuit_above_next == {}  # the last line


def test_best_place_then_lots_break_level_points() -> None:
    club = ClubFactory()
    league = League.objects.create(name="Cup", slug="cup", club=club)
    profile = _profile(league, {"places": ["100", "50"], "categories": {"club": "1", "open": "2"}})
    season = Season.objects.create(
        league=league,
        name="S",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        circuit=profile,
    )
    a, b, x, y = (PlayerFactory(handle=h) for h in ("a", "b", "x", "y"))
    _final_order(_event(season, "Club", "club", Event.Status.FINISHED, 1), [(a, 1), (x, 2)])
    _final_order(_event(season, "Open", "open", Event.Status.FINISHED, 2), [(y, 1), (b, 2)])
    with transaction.atomic():
        recompute_season(season.pk)
    rows = {r.player.handle: r for r in SeasonStanding.objects.filter(season=season)}
    # y 200; a 100 (1st) above b 100 (2nd) on the best place; x 50
    assert [rows[h].circuit_rank for h in "yabx"] == [1, 2, 3, 4]
    assert rows["a"].circuit_above_next == {
        "criterion": "best_place",
        "higher": "1",
        "lower": "2",
        "next": b.pk,
    }


def test_an_unknown_category_is_a_warning_not_a_crash(circuit: Circuit) -> None:
    c = circuit
    Event.objects.filter(pk=c.open.pk).update(circuit_category="major")
    c.recompute()
    state = SeasonCircuit.objects.get(season=c.season)
    assert state.warnings == [
        {
            "code": "circuit.category",
            "params": {
                "event": str(c.open.pk),
                "category": "major",
                "categories": ["club", "open"],
            },
        }
    ]
    Event.objects.filter(pk=c.open.pk).update(circuit_category="open")
    c.recompute()
    assert SeasonCircuit.objects.get(season=c.season).warnings == []
    assert c.row(2).circuit_points == Decimal("187.50")


def test_a_season_without_circuit_has_its_circuit_columns_cleared(circuit: Circuit) -> None:
    c = circuit
    Season.objects.filter(pk=c.season.pk).update(circuit=None)
    c.recompute()
    rows = SeasonStanding.objects.filter(season=c.season)
    assert rows.count() == 6
    assert not rows.exclude(circuit_points=None).exists()
    assert not rows.exclude(circuit_results=[]).exists()
    assert not SeasonCircuit.objects.filter(season=c.season).exists()


def test_recompute_writes_nothing_when_unchanged(circuit: Circuit) -> None:
    c = circuit
    before = list(
        SeasonStanding.objects.filter(season=c.season)
        .order_by("player_id")
        .values_list("player_id", "circuit_points", "circuit_rank", "circuit_results")
    )
    recompute_seasons([c.season.pk])
    after = list(
        SeasonStanding.objects.filter(season=c.season)
        .order_by("player_id")
        .values_list("player_id", "circuit_points", "circuit_rank", "circuit_results")
    )
    assert before == after


def test_finishing_an_event_enqueues_the_season(circuit: Circuit) -> None:
    """An event of a circuit season finishes: the season's circuit is computed again
    (after the commit, through ``results.recompute_seasons``)."""
    c = circuit
    with TestCase.captureOnCommitCallbacks(execute=True):
        later = Event.objects.get(pk=c.later.pk)
        later.status = Event.Status.FINISHED
        later.save(update_fields=["status"])
    # two players: the field factor is its minimum, 0.5 (p3 50, p6 40); p3 has two
    # events now (70 in Spring counts): ranked
    assert c.row(3).circuit_ranked is True
    assert c.row(3).circuit_points == Decimal("70.00")
    assert _result(c.row(3), c.later)["points"] == "50.00"
    assert (c.row(6).circuit_points, c.row(6).circuit_ranked) == (Decimal("40.00"), False)


def test_changing_a_category_enqueues_the_season(circuit: Circuit) -> None:
    c = circuit
    with TestCase.captureOnCommitCallbacks(execute=True):
        spring = Event.objects.get(pk=c.spring.pk)
        spring.circuit_category = "open"
        spring.save(update_fields=["circuit_category"])
    # Spring now weighs 1.5: p1's 150 there ties their Open 150; the better place counts
    assert _result(c.row(1), c.spring) == {
        "event": c.spring.pk,
        "rank": 1,
        "points": "150.00",
        "counted": True,
        "reason": "best",
    }
    assert c.row(1).circuit_points == Decimal("150.00")


# --- the season page and API ------------------------------------------------------------------


def _page(circuit: Circuit, language: str = "en") -> str:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = c.get(reverse("results:season", args=[circuit.season.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _line(page: str, name: str) -> str:
    """The circuit table's row of a player (from its player cell to the row's end)."""
    start = page.index(f">{name}</a>")
    return page[start : page.index("</tr>", start)]


def test_the_page_shows_counted_and_dropped_events_and_why(circuit: Circuit) -> None:
    page = _page(circuit)
    ranked = page[page.index('id="circuit-ranking"') : page.index('id="circuit-unranked"')]
    assert [n for n in ("P2", "P1", "P4") if f">{n}</a>" in ranked] == ["P2", "P1", "P4"]
    p1 = _line(page, "P1")
    assert "</details>" in p1  # the events unfold under the name
    counted = p1[p1.index('class="counted"') : p1.index('class="dropped"')]
    assert "Open" in counted and "place 2, 150.00 points" in counted
    assert "counted: among the best 1 event" in counted
    dropped = p1[p1.index('class="dropped"') :]
    assert "Spring" in dropped and "place 1, 100.00 points" in dropped
    assert "dropped: not among the best 1 event" in dropped
    assert "P1 is above P4 on circuit points: 150.00 vs 75.00" in p1
    assert ">150.00</td>" in p1 and ">1/2</td>" in p1
    assert "P4 is above P3, who played 1 event(s), fewer than the 2 needed" in _line(page, "P4")
    unranked = page[page.index('id="circuit-unranked"') :]
    assert "P3" in unranked and "P5" in unranked
    assert "not ranked: 1 event played, 2 needed" in _line(page, "P3")
    assert "Later" not in page[page.index('id="circuit"') : page.index('id="totals"')]
    # the plain totals stay: every player of the season, p6 (running event only) too
    totals = page[page.index('id="totals"') :]
    assert all(f">P{i}</a>" in totals for i in range(1, 7))


def test_the_why_line_on_the_best_single_place() -> None:
    club = ClubFactory()
    league = League.objects.create(name="Cup", slug="cup", club=club)
    profile = _profile(league, {"places": ["100", "50"], "categories": {"club": "1", "open": "2"}})
    season = Season.objects.create(
        league=league,
        name="S",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        circuit=profile,
    )
    a, b = (
        PlayerFactory(display_name="Ann", handle="ann"),
        PlayerFactory(display_name="Bo", handle="bo"),
    )
    _final_order(_event(season, "Club", "club", Event.Status.FINISHED, 1), [(a, 1)])
    _final_order(
        _event(season, "Open", "open", Event.Status.FINISHED, 2), [(PlayerFactory(), 1), (b, 2)]
    )
    with transaction.atomic():
        recompute_season(season.pk)
    page = Client().get(reverse("results:season", args=[season.pk])).content.decode()
    assert "Ann is above Bo on the best single place: 1 vs 2" in page


@pytest.mark.parametrize(
    ("language", "points", "shared"),
    [("es", "187,50", "70,00"), ("zh-hans", "187.50", "70.00")],
)
def test_decimals_in_the_readers_language(
    circuit: Circuit, language: str, points: str, shared: str
) -> None:
    page = _page(circuit, language)
    assert f">{points}</td>" in _line(page, "P2")
    assert shared in _line(page, "P3")
    assert "187.5<" not in page and "187,5<" not in page  # never the raw value


def test_a_refused_circuit_is_a_warning_on_the_page(circuit: Circuit) -> None:
    Event.objects.filter(pk=circuit.open.pk).update(circuit_category="major")
    circuit.recompute()
    page = _page(circuit)
    assert "The circuit standing could not be computed" in page
    assert "Open" in page and "major" in page  # the event by its name
    assert 'id="circuit-ranking"' not in page
    assert 'id="totals"' in page  # the plain totals still


def test_a_season_without_circuit_shows_the_plain_totals(circuit: Circuit) -> None:
    Season.objects.filter(pk=circuit.season.pk).update(circuit=None)
    page = _page(circuit)
    assert 'id="circuit"' not in page and 'id="ranking"' in page


def test_the_api_gives_the_circuit_lines(circuit: Circuit) -> None:
    c = circuit
    rows = APIClient().get(f"/api/v1/rankings/seasons/{c.season.pk}/").json()
    assert [r["handle"] for r in rows] == ["p2", "p1", "p4", "p3", "p5", "p6"]
    p1 = rows[1]["circuit"]
    assert (p1["rank"], p1["ranked"], p1["points"], p1["events"]) == (2, True, "150.00", 2)
    assert p1["counted"] == [
        {
            "event": c.open.pk,
            "name": "Open",
            "rank": 2,
            "points": "150.00",
            "counted": True,
            "reason": "best",
            "reason_text": "counted: among the best 1 event",
        }
    ]
    assert [(e["name"], e["reason"]) for e in p1["dropped"]] == [("Spring", "beyond_best")]
    assert p1["above_next"] == {
        "criterion": "points",
        "higher": "150.0",
        "lower": "75.0",
        "next": "p4",
        "text": "P1 is above P4 on circuit points: 150.00 vs 75.00",
    }
    p3 = rows[3]["circuit"]
    assert p3["ranked"] is False and p3["unranked_reason"] == "not ranked: 1 event played, 2 needed"
    assert rows[4]["circuit"]["above_next"] is None  # the last line
    assert rows[5]["circuit"] is None  # p6: no finished event
    assert rows[0]["points"] is not None and "wins" in rows[0]  # the plain totals kept
