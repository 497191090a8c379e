"""Issue 14 through the pages: no game for an unreleased round anywhere in the games UI,
and the organiser's audited void (it keeps everything and frees the table)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from league.models import Round, Seat, Table
from tests.games.conftest import World
from tests.league.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def section(html: str, ident: str) -> str:
    """The HTML of ``<section ... id="ident">`` up to its end."""
    start = html.index(f'id="{ident}"')
    return html[start : html.index("</section>", start)]


def messages_of(html: str) -> str:
    m = re.search(r'<ul class="messages">(.*?)</ul>', html, re.S)
    return m.group(1) if m else ""


def draft_table(world: World) -> Table:
    """Table 1 of round 2 (a draft round), refereed by the world's referee."""
    rnd = world.event.rounds.get(number=2)
    rnd.status = Round.Status.DRAFT
    rnd.save(update_fields=["status"])
    table = Table.objects.create(round=rnd, number=1, referee=world.table.referee)
    for i in range(1, 9):
        Seat.objects.create(round=rnd, table=table, player=PlayerFactory(), number=i)
    return table


# --- no game for an unreleased round -------------------------------------------------------


def test_event_page_offers_games_only_for_released_rounds(world: World) -> None:
    table = draft_table(world)
    c = logged_in(world.user("organiser"))
    path = reverse("games:event", args=[world.event.pk])
    html = c.get(path).content.decode()
    assert "Create the games" in section(html, "round-1")
    draft = section(html, "round-2")
    assert "Create the games" not in draft and 'value="create"' not in draft
    assert "can be created once the round is released" in draft
    # releasing asks first and says it cannot be undone
    assert "data-confirm=" in section(html, "round-1")
    assert "cannot be undone" in section(html, "round-1")

    # refused: back to the round, as the form's next says (league.errors.UserErrorMiddleware)
    r = c.post(path, {"verb": "create", "round": "2", "next": f"{path}#round-2"}, follow=True)
    assert r.status_code == 200
    assert r.redirect_chain == [(f"{path}#round-2", 302)]
    assert "Round 2 is not released yet" in messages_of(r.content.decode())
    assert not Game.objects.filter(table=table).exists()


def test_creating_games_says_which_tables(world: World) -> None:
    c = logged_in(world.user("organiser"))
    path = reverse("games:event", args=[world.event.pk])
    r = c.post(path, {"verb": "create", "round": "1"}, follow=True)
    text = messages_of(r.content.decode())
    assert "Round 1: 1 new games ready (tables 2)" in text
    again = c.post(path, {"verb": "create", "round": "1"}, follow=True)
    assert "every table already had its game" in messages_of(again.content.decode())


def test_my_games_never_opens_a_draft_round(world: World) -> None:
    table = draft_table(world)
    world.game.delete()  # round 1's table has no game yet: it is offered
    c = logged_in(world.user("referee"))
    html = c.get(reverse("games:mine")).content.decode()
    assert reverse("games:open-table", args=[world.table.pk]) in html
    assert reverse("games:open-table", args=[table.pk]) not in html

    mine = reverse("games:mine")
    r = c.post(reverse("games:open-table", args=[table.pk]), {"next": mine}, follow=True)
    assert r.status_code == 200 and r.redirect_chain[-1][0] == mine
    assert "Round 2 is not released yet" in messages_of(r.content.decode())
    assert not Game.objects.filter(table=table).exists()


def test_open_table_goes_back_to_the_referer(world: World) -> None:
    table = draft_table(world)
    c = logged_in(world.user("organiser"))
    came_from = reverse("games:event", args=[world.event.pk])
    r = c.post(
        reverse("games:open-table", args=[table.pk]),
        HTTP_REFERER=f"http://testserver{came_from}",
    )
    assert r.status_code == 302 and r["Location"] == came_from
    assert not Game.objects.filter(table=table).exists()


def test_upload_to_a_draft_round_is_refused_per_file(world: World) -> None:
    table = draft_table(world)
    c = logged_in(world.user("organiser"))
    rec = world.record(5, meta={"round": "2", "table": "1"})
    f = SimpleUploadedFile("r2t1.json", json.dumps(rec).encode(), "application/json")
    r = c.post(reverse("games:event", args=[world.event.pk]), {"verb": "upload", "records": [f]})
    assert r.status_code == 200
    report = r.context["reports"][0]
    assert not report["ok"] and "Round 2 is not released yet" in report["message"]
    assert not Game.objects.filter(table=table).exists()


# --- void ----------------------------------------------------------------------------------


def test_only_organisers_can_void(world: World) -> None:
    path = reverse("games:void", args=[world.game.pk])
    assert logged_in(world.user("referee")).post(path, {"reason": "x"}).status_code == 403
    for role in ("other_referee", "player_at_table", "event_staff", "other_player"):
        assert logged_in(world.user(role)).post(path, {"reason": "x"}).status_code == 404, role
    assert Client().post(path, {"reason": "x"}).status_code == 302  # to the log-in page
    assert Game.objects.get(pk=world.game.pk).status == "draft"
    # only organisers see the form
    page = logged_in(world.user("referee")).get(reverse("games:game", args=[world.game.pk]))
    assert path not in page.content.decode()


def test_void_needs_a_reason(world: World) -> None:
    c = logged_in(world.user("organiser"))
    game_path = reverse("games:game", args=[world.game.pk])
    html = c.get(game_path).content.decode()
    form = section(html, "void")
    assert "data-confirm=" in form and "cannot be undone" in form and "required" in form
    void = reverse("games:void", args=[world.game.pk])
    r = c.post(void, {"reason": "  ", "next": game_path}, follow=True)
    assert r.redirect_chain[-1][0] == game_path
    assert "Say why the game is voided" in messages_of(r.content.decode())
    assert Game.objects.get(pk=world.game.pk).status == "draft"


def test_void_keeps_versions_lists_the_game_and_frees_the_table(world: World) -> None:
    referee, organiser = world.user("referee"), world.user("organiser")
    services.submit_record(referee, world.game, world.record(3), "api")
    services.confirm_version(organiser, world.game, 1)
    c = logged_in(organiser)
    game_path = reverse("games:game", args=[world.game.pk])
    r = c.post(
        reverse("games:void", args=[world.game.pk]),
        {"reason": "wrong seating at table 1", "revision": "3", "next": game_path},
        follow=True,
    )
    assert r.redirect_chain[-1][0] == game_path
    text = messages_of(r.content.decode())
    assert "Round 1, table 1: game voided" in text and "no longer counts" in text

    game = Game.objects.get(pk=world.game.pk)
    assert game.status == "voided" and game.table is None
    assert game.voided_round == 1 and game.voided_table == 1
    assert list(game.versions.values_list("number", "status")) == [(1, "confirmed")]

    html = r.content.decode()
    voided = section(html, "voided")
    assert "Voided" in voided and "wrong seating at table 1" in voided
    assert "round 1, table 1" in voided and organiser.get_username() in voided
    assert 'id="version-1"' in html  # its versions are still shown
    assert reverse("games:void", args=[game.pk]) not in html  # no second void
    assert reverse("games:sheet", args=[game.pk]) not in html

    event_page = c.get(reverse("games:event", args=[world.event.pk])).content.decode()
    listed = section(event_page, "voided-games")
    assert game_path in listed and "wrong seating at table 1" in listed
    assert "Round 1, table 1" in listed

    # the table is free: a new game can be opened for it
    assert not Game.objects.filter(table=world.table).exists()
    fresh = services.game_for_table(world.table, organiser)
    assert fresh.pk != game.pk and fresh.status == "draft"

    # a second void is refused with a message, not an error page
    again = c.post(reverse("games:void", args=[game.pk]), {"reason": "again"}, follow=True)
    assert "voided" in messages_of(again.content.decode())


def test_voided_game_is_hidden_from_non_officials(world: World) -> None:
    services.void_game(world.user("organiser"), world.game, "test")
    path = reverse("games:game", args=[world.game.pk])
    assert logged_in(world.user("player_at_table")).get(path).status_code == 404
    assert logged_in(world.user("referee")).get(path).status_code == 200
    # non-organisers of the event do not get the voided list
    staff = logged_in(world.user("event_staff")).get(reverse("games:event", args=[world.event.pk]))
    assert 'id="voided-games"' not in staff.content.decode()
