"""Decimals on the public results pages are written the reader's way (#21 item 4): two
places for points, a decimal comma in Spanish, a point in English and Chinese — the
league ranking included, whose sums come from the database as floats or long Decimals
("1.20000000000000" was printed) — and never a raw float or Decimal."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Event, League, Player, Season
from results.models import EventResults, EventStanding, SeasonStanding
from results.reasons import amount
from tests.league.factories import ClubFactory, EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db

#: A float or a Decimal printed as it is ("1.20000000000000", "0,4000000000000001").
RAW = re.compile(r"\d[.,]\d{4,}|\d[eE][+-]\d|Decimal\(")
_HIDDEN = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S | re.I)
LANGS = {"en": ".", "zh-hans": ".", "es": ","}


class World:
    """One league, two seasons, one event in each; points with decimals everywhere."""

    def __init__(self) -> None:
        self.club = ClubFactory(name="Club Norte", slug="norte")
        self.league = League.objects.create(name="Liga Norte", slug="liga-norte", club=self.club)
        self.seasons = [
            Season.objects.create(
                league=self.league,
                name=str(year),
                starts_on=dt.date(year, 1, 1),
                ends_on=dt.date(year, 12, 31),
            )
            for year in (2025, 2026)
        ]
        self.ana, self.bo = PlayerFactory(display_name="Ana"), PlayerFactory(display_name="Bo")
        self.events = [
            EventFactory(
                club=self.club,
                season=season,
                status=Event.Status.FINISHED,
                starts_on=season.starts_on,
                ends_on=season.starts_on,
            )
            for season in self.seasons
        ]
        # Ana: 1.2 and 0.4 (the sum 1.6 is 1.6000000000000001 as a float); Bo: 0.1 and 0.2.
        for season, ana, bo in zip(self.seasons, ("1.20", "0.40"), ("0.10", "0.20"), strict=True):
            SeasonStanding.objects.create(
                season=season, player=self.ana, events=1, games=2, wins=1, points=Decimal(ana)
            )
            SeasonStanding.objects.create(
                season=season, player=self.bo, events=1, games=2, wins=0, points=Decimal(bo)
            )
        event = self.events[1]
        EventResults.objects.create(
            event=event,
            stale=False,
            version=1,
            seed=3,
            profile="club-v1",
            precedence=["points", "wins", "awards", "lots"],
            games=2,
            players=2,
            digest="d" * 64,
        )
        self._line(event, 1, self.ana, "1.20", "0.13", {"awards": "0.2", "lots": "1"})
        self._line(event, 2, self.bo, "0.40", "0", {"awards": "0.4", "lots": "2"}, last=True)

    @staticmethod
    def _line(
        event: Event,
        position: int,
        player: Player,
        points: str,
        ci: str,
        metrics: dict[str, str],
        last: bool = False,
    ) -> None:
        EventStanding.objects.create(
            event=event,
            position=position,
            handle=player.handle,
            player=player,
            rank=position,
            points=Decimal(points),
            wins=2 - position,
            games=2,
            awards=Decimal(metrics["awards"]),
            ci=Decimal(ci),
            metrics={"points": points, "wins": str(2 - position), **metrics},
            above_next={}
            if last
            else {"metric": "points", "higher": points, "lower": "0.40", "level_on": []},
            items=[],
        )


@pytest.fixture
def world() -> World:
    return World()


def _get(path: str, lang: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def raw(html: str) -> list[str]:
    """Raw floats or Decimals in what the page says (its text, not its markup)."""
    return RAW.findall(_HIDDEN.sub(" ", html))


def _cells(html: str, table_id: str) -> str:
    start = html.index(f'id="{table_id}"')
    return html[start : html.index("</table>", start)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_league_ranking_sums_with_two_places_in_the_readers_mark(
    world: World, lang: str
) -> None:
    html = _get(reverse("results:league", args=[world.league.slug]), lang)
    table = _cells(html, "ranking")
    mark = LANGS[lang]
    assert f'<td class="num">1{mark}60</td>' in table  # Ana: 1.20 + 0.40
    assert f'<td class="num">0{mark}30</td>' in table  # Bo: 0.10 + 0.20
    assert not raw(html), raw(html)
    if mark == ",":
        assert "1.60" not in table and "0.30" not in table


@pytest.mark.parametrize("lang", LANGS)
def test_a_season_ranking_in_the_readers_mark(world: World, lang: str) -> None:
    html = _get(reverse("results:season", args=[world.seasons[0].pk]), lang)
    mark = LANGS[lang]
    assert f'<td class="num">1{mark}20</td>' in _cells(html, "ranking")
    assert not raw(html), raw(html)


@pytest.mark.parametrize("lang", LANGS)
def test_standings_points_ci_and_tie_breaks_in_the_readers_mark(world: World, lang: str) -> None:
    event = world.events[1]
    html = _get(reverse("results:standings", args=[world.club.slug, event.slug]), lang)
    mark = LANGS[lang]
    table = _cells(html, "standings")
    assert f"<strong>1{mark}20</strong>" in table  # points, two places
    assert f">0{mark}13</td>" in table  # Ci
    assert f">0{mark}2</td>" in table  # a tie-break value as it is kept (award points)
    # the reason under the name: "(1.20 vs 0.40)" (Chinese brackets are full width)
    assert re.search(rf"[(（]1{re.escape(mark)}20\b", table)
    assert not raw(html), raw(html)
    if mark == ",":
        assert not re.search(r">\d+\.\d+<", table)


@pytest.mark.parametrize("lang", LANGS)
def test_a_players_points_and_the_clubs_podium_in_the_readers_mark(world: World, lang: str) -> None:
    event, mark = world.events[1], LANGS[lang]
    points = _get(
        reverse("results:standings-player", args=[world.club.slug, event.slug, world.ana.handle]),
        lang,
    )
    assert f"<strong>1{mark}20</strong>" in points and f"0{mark}13" in points
    club = _get(reverse("results:club", args=[world.club.slug]), lang)
    assert f"(1{mark}20)" in club  # the podium
    for html in (points, club):
        assert not raw(html), raw(html)


def test_amounts_from_any_source() -> None:
    """Floats and long Decimals of a database sum, negative zero, nothing."""
    assert amount(1.6000000000000001, ".") == "1.60"
    assert amount(Decimal("1.20000000000000"), ",") == "1,20"
    assert amount(Decimal("-0.001"), ".") == "0.00"
    assert amount(Decimal("-0.5"), ",") == "-0,50"
    assert amount(3, ".") == "3.00"
    assert amount(None) == "—"
    with translation.override("es"):
        assert amount(Decimal("2.5")) == "2,50"
    with translation.override("zh-hans"):
        assert amount(Decimal("2.5")) == "2.50"


def test_the_standings_legend_explains_every_column(world: World) -> None:
    event = world.events[1]
    html = _get(reverse("results:standings", args=[world.club.slug, event.slug]), "en")
    legend = html[html.index('id="legend"') :]
    for words in ("Ci", "Compensation for an early death", "Award points", "Drawing of lots"):
        assert words in legend, words
    # the why as an expandable detail of each line (not wrapped text in the cell)
    assert html.count('<details class="line">') == 2
    assert html.count('class="why"') == 1  # the last line is above nobody
