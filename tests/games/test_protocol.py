"""The blank paper protocol (issue #20 item 4): who may print it, what it shows (seats and
players, never a role), and the QR code's address."""

from __future__ import annotations

import re

import pytest
import segno
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from league.models import Seat, Table
from tests.games.conftest import ROLES, World
from tests.league.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def client(world: World, role: str) -> Client:
    c = Client()
    if world.user(role) is not None:
        c.force_login(world.user(role))
    return c


def game_path(world: World) -> str:
    return reverse("games:protocol", args=[world.game.pk])


def round_path(world: World) -> str:
    return reverse("games:round-protocol", args=[world.event.pk, world.round.number])


def without_tokens(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


@pytest.mark.parametrize("role", ROLES)
def test_who_may_print_a_games_protocol(world: World, role: str) -> None:
    r = client(world, role).get(game_path(world))
    if role == "anonymous":
        assert r.status_code == 302 and "/login" in r["Location"]
    elif role in ("referee", "organiser", "admin"):  # the game's officials
        assert r.status_code == 200
    else:
        assert r.status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_who_may_print_a_rounds_protocols(world: World, role: str) -> None:
    r = client(world, role).get(round_path(world))
    if role == "anonymous":
        assert r.status_code == 302
    elif role in ("organiser", "admin"):  # whoever manages the event
        assert r.status_code == 200
    else:
        assert r.status_code == 404


def test_seats_and_players_one_sheet_per_table(world: World) -> None:
    seat2 = [PlayerFactory() for _ in range(8)]
    table2 = Table.objects.get(round=world.round, number=2)
    for i, p in enumerate(seat2, 1):
        Seat.objects.create(round=world.round, table=table2, player=p, number=i)
    html = client(world, "organiser").get(round_path(world)).content.decode()
    sheets = re.findall(
        r'<section class="protocol[^"]*" data-table="(\d+)" data-seats="(\d+)"', html
    )
    assert sheets == [("1", "12"), ("2", "8")]
    for seat in Seat.objects.filter(round=world.round).select_related("player"):
        assert f"@{seat.player.handle}" in html and seat.player.display_name in html
    # a ballot column per seat, a row per night and day
    first = html[: html.index('data-table="2"')]
    assert len(re.findall(r'<th data-seat="\d+">', first)) == 12
    assert 'data-round="6"' in first and 'data-day="6" data-ballot="2"' in first
    assert "Referee's signature" in html


def test_the_protocol_shows_no_role_even_after_the_record_is_in(world: World) -> None:
    c = client(world, "referee")
    before = without_tokens(c.get(game_path(world)).content.decode())
    rec = world.record(3)
    services.submit_record(world.user("referee"), world.game, rec, "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    after = without_tokens(c.get(game_path(world)).content.decode())
    assert before == after
    org = client(world, "organiser")
    rounds_html = org.get(round_path(world)).content.decode()
    grids = re.findall(r'<table class="protocol-seats">.*?</table>', after + rounds_html, re.S)
    assert len(grids) == 3
    for grid in grids:  # the seat rows hold empty K P C boxes, never a card
        for word in ("role-", "killer", "police", "civilian"):
            assert word not in grid


def test_the_qr_code_opens_the_tables_entry(world: World) -> None:
    html = client(world, "referee").get(game_path(world)).content.decode()
    url = "http://testserver" + reverse("games:table-entry", args=[world.table.pk])
    assert segno.make(url, error="m").svg_inline(scale=3, dark="#000", light="#fff") in html
    assert f'href="{url}"' in html
    # the round's sheets: each table's own address
    table2 = Table.objects.get(round=world.round, number=2)
    rounds_html = client(world, "organiser").get(round_path(world)).content.decode()
    for table in (world.table, table2):
        target = "http://testserver" + reverse("games:table-entry", args=[table.pk])
        assert segno.make(target, error="m").svg_inline(scale=3, dark="#000", light="#fff") in (
            rounds_html
        )


def test_the_table_entry_leads_to_the_game(world: World) -> None:
    entry = reverse("games:table-entry", args=[world.table.pk])
    r = client(world, "referee").get(entry)
    assert r.status_code == 302 and r["Location"] == reverse("games:sheet", args=[world.game.pk])
    assert client(world, "other_player").get(entry).status_code == 404
    assert client(world, "other_referee").get(entry).status_code == 404
    # a table whose game is not opened yet: the button that opens it
    table2 = Table.objects.get(round=world.round, number=2)
    page = client(world, "other_referee").get(reverse("games:table-entry", args=[table2.pk]))
    assert page.status_code == 200
    assert reverse("games:open-table", args=[table2.pk]) in page.content.decode()
    opened = client(world, "other_referee").post(reverse("games:open-table", args=[table2.pk]))
    game2 = Game.objects.get(table=table2)
    assert opened["Location"] == reverse("games:sheet", args=[game2.pk])
    # once confirmed, the game's page
    services.submit_record(world.user("referee"), world.game, world.record(4), "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    r = client(world, "referee").get(entry)
    assert r["Location"] == reverse("games:game", args=[world.game.pk])


def test_links_from_the_game_page_and_the_draw_page(world: World) -> None:
    game_html = client(world, "referee").get(reverse("games:game", args=[world.game.pk]))
    assert game_path(world) in game_html.content.decode()
    assert (
        game_path(world)
        not in client(world, "player_at_table")
        .get(reverse("games:game", args=[world.game.pk]))
        .content.decode()
    )
    draw = client(world, "organiser").get(reverse("event-draw", args=[world.event.pk]))
    assert round_path(world) in draw.content.decode()


def test_a_draft_round_says_its_seating_may_change(world: World) -> None:
    world.round.status = world.round.Status.CONFIRMED
    world.round.save()
    html = client(world, "organiser").get(round_path(world)).content.decode()
    assert "Seating not released yet" in html
    table2 = Table.objects.get(round=world.round, number=2)
    page = client(world, "organiser").get(reverse("games:table-entry", args=[table2.pk]))
    assert 'id="round-not-released"' in page.content.decode()


def test_a_voided_game_has_no_protocol(world: World) -> None:
    services.void_game(world.user("organiser"), world.game, "played at the wrong table")
    assert client(world, "organiser").get(game_path(world)).status_code == 404


def test_the_protocol_says_which_cards_to_deal(world: World) -> None:
    html = client(world, "referee").get(game_path(world)).content.decode()
    assert "Cards to deal: 3 killers, 3 police officers, 6 civilians." in html
