"""Issue 14: the confirming official reads the whole record — roles, the log with each
ballot's voters, the engine's verdict and the differences from the previous version —
before the confirm button; and organisers see what awaits confirmation."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.simulate import simulate_game
from games import services
from games.models import Game, GameVersion
from league.models import Player, Seat
from tests.games.conftest import World
from tests.league.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def section(html: str, ident: str) -> str:
    start = html.index(f'id="{ident}"')
    return html[start : html.index("</section>", start)]


def messages_of(html: str) -> str:
    m = re.search(r'<ul class="messages">(.*?)</ul>', html, re.S)
    return m.group(1) if m else ""


def review_path(game: Game, number: int) -> str:
    return reverse("games:review", args=[game.pk, number])


def first_ballot(record: dict[str, Any]) -> tuple[int, list[int]]:
    """The most-voted target of the record's first ballot and its voters."""
    for p in record["log"]:
        for ballot in p.get("ballots") or []:
            voters: dict[int, list[int]] = {}
            for voter, target in ballot.items():
                if target is not None:
                    voters.setdefault(target, []).append(int(voter))
            target = max(voters, key=lambda t: len(voters[t]))
            return target, sorted(voters[target])
    raise AssertionError("no ballot in the record")


def test_review_shows_seats_roles_log_and_ballot_voters(world: World) -> None:
    record = world.record(3)
    services.submit_record(world.user("referee"), world.game, record, "api")
    c = logged_in(world.user("organiser"))

    # the game page links to the review instead of confirming directly
    game_html = c.get(reverse("games:game", args=[world.game.pk])).content.decode()
    assert review_path(world.game, 1) in game_html and "Review and confirm version 1" in game_html
    assert reverse("games:confirm", args=[world.game.pk]) not in game_html

    r = c.get(review_path(world.game, 1))
    assert r.status_code == 200
    html = r.content.decode()
    seats = section(html, "review-seats")
    for s in record["seats"]:
        assert f"@{s['player']}" in seats
    assert seats.count("role-killer") == sum(s["role"] == "killer" for s in record["seats"])

    log = section(html, "review-log")
    assert "Night 1" in log and "Day 1" in log
    assert "The killers killed" in log
    target, voters = first_ballot(record)
    names = dict(Player.objects.values_list("handle", "display_name"))
    by_seat = {s["seat"]: names[s["player"]] for s in record["seats"]}
    listed = ", ".join(f"{v} {by_seat[v]}" for v in voters)
    assert listed in log  # who voted for the leading target
    assert f"seat {target} {by_seat[target]}" in log

    verdict = section(html, "verdict")
    assert "✓ valid" in verdict and "Winner" in verdict
    assert "first version of this game" in section(html, "diff")

    confirm = section(html, "confirm")
    assert 'id="confirm-button"' in confirm and "data-confirm=" in confirm
    assert f'name="revision" value="{Game.objects.get(pk=world.game.pk).revision}"' in confirm


def test_confirming_from_the_review_returns_to_the_game(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(4), "api")
    game = Game.objects.get(pk=world.game.pk)
    c = logged_in(world.user("organiser"))
    here = review_path(game, 1)
    r = c.post(
        reverse("games:confirm", args=[game.pk]),
        {"version": "1", "revision": str(game.revision), "next": here},
        follow=True,
    )
    assert r.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    text = messages_of(r.content.decode())
    assert "Round 1, table 1: version 1 confirmed; the game is now confirmed." in text
    assert Game.objects.get(pk=game.pk).status == "confirmed"
    # a stale confirm goes back to the review with the reason
    stale = c.post(
        reverse("games:confirm", args=[game.pk]),
        {"version": "1", "revision": str(game.revision), "next": here},
        follow=True,
    )
    assert stale.redirect_chain[-1][0] == here
    assert "changed since you loaded it" in messages_of(stale.content.decode())


def test_own_submission_has_no_confirm_button(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(5), "api")
    html = logged_in(world.user("referee")).get(review_path(world.game, 1)).content.decode()
    confirm = section(html, "confirm")
    assert "another official confirms it" in confirm and "confirm-button" not in confirm


def test_review_of_a_draft_shows_its_violations(world: World) -> None:
    illegal = world.record(22)
    illegal["log"][0]["kill"] = 40
    v = services.submit_record(world.user("referee"), world.game, illegal, "api")
    assert v.status == "draft"
    html = logged_in(world.user("organiser")).get(review_path(world.game, 1)).content.decode()
    verdict = section(html, "verdict")
    assert "✗ not valid" in verdict and "kill.unknown_seat" in verdict
    assert "confirm-button" not in html and "A draft cannot be confirmed" in html


def _other_winner(world: World, winner: str) -> dict[str, Any]:
    for seed in range(100, 200):
        rec = world.record(seed)
        if rec["result"]["winner"] != winner:
            return rec
    raise AssertionError("no record with another winner")


def test_review_of_a_correction_shows_the_differences(world: World) -> None:
    referee, organiser = world.user("referee"), world.user("organiser")
    first = world.record(3)
    services.submit_record(referee, world.game, first, "api")
    services.confirm_version(organiser, world.game, 1)
    second = _other_winner(world, first["result"]["winner"])
    v2 = services.submit_record(referee, world.game, second, "upload", reason="wrong sheet")
    assert v2.status == "submitted"
    html = logged_in(organiser).get(review_path(world.game, 2)).content.decode()

    diff = section(html, "diff")
    assert "Changes from version 1 (confirmed)" in diff
    assert 'id="winner-change"' in diff
    changed_roles = [
        (a["seat"], a["role"], b["role"])
        for a, b in zip(first["seats"], second["seats"], strict=True)
        if a["role"] != b["role"]
    ]
    assert changed_roles
    seat_rows = diff[diff.index('id="seat-changes"') :]
    for seat, _before, _after in changed_roles:
        assert f"<td>{seat}</td>" in seat_rows
    assert 'id="phase-changes"' in diff and "Night 1" in diff
    assert "wrong sheet" in section(html, "verdict")
    confirm = section(html, "confirm")
    assert "in place of the confirmed version" in confirm and "confirm-button" in confirm

    # the same record again: nothing differs
    v3 = services.submit_record(referee, world.game, first, "upload", reason="back")
    same = logged_in(organiser).get(review_path(world.game, v3.number)).content.decode()
    assert 'id="no-changes"' in section(same, "diff")


def test_only_officials_see_the_review(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(6), "api")
    path = review_path(world.game, 1)
    for role in ("player_at_table", "other_player", "other_referee", "event_staff"):
        r = logged_in(world.user(role)).get(path)
        assert r.status_code == 404, role
        assert "killer" not in r.content.decode()
    assert Client().get(path).status_code == 302  # log in first
    for role in ("referee", "organiser", "admin"):
        assert logged_in(world.user(role)).get(path).status_code == 200, role
    assert logged_in(world.user("organiser")).get(review_path(world.game, 9)).status_code == 404
    # nobody else learns of the review from the game page
    page = logged_in(world.user("player_at_table")).get(reverse("games:game", args=[world.game.pk]))
    assert path not in page.content.decode()


def test_awaiting_lists_submitted_games_with_their_age(world: World) -> None:
    referee, organiser = world.user("referee"), world.user("organiser")
    services.submit_record(referee, world.game, world.record(7), "api")
    GameVersion.objects.filter(game=world.game).update(
        submitted_at=timezone.now() - dt.timedelta(minutes=12)
    )
    # table 2: submitted and confirmed, so not awaiting
    other_table = world.round.tables.get(number=2)
    players = [PlayerFactory() for _ in range(8)]
    for i, p in enumerate(players, start=1):
        Seat.objects.create(round=world.round, table=other_table, player=p, number=i)
    other = services.game_for_table(other_table)
    rec = simulate_game(world.event.ruleset, 8, 9, players=[p.handle for p in players])
    v = services.submit_record(world.user("other_referee"), other, rec, "api")
    assert v.status == "submitted", v.violations
    services.confirm_version(organiser, other, v.number)

    c = logged_in(organiser)
    event_page = c.get(reverse("games:event", args=[world.event.pk])).content.decode()
    path = reverse("games:awaiting", args=[world.event.pk])
    link = event_page[event_page.index('id="awaiting-link"') :]
    assert path in link and "1 game awaiting confirmation" in link

    html = c.get(path).content.decode()
    table = section(html, "awaiting")
    assert f'data-game="{world.game.pk}"' in table
    assert f'data-game="{other.pk}"' not in table
    assert "12\xa0minutes ago" in table or "12 minutes ago" in table
    assert review_path(world.game, 1) in table
    assert referee.get_username() in table  # submitted by

    services.confirm_version(organiser, world.game, 1)
    empty = c.get(path).content.decode()
    assert 'id="nothing-awaiting"' in empty


def test_awaiting_is_for_organisers_only(world: World) -> None:
    path = reverse("games:awaiting", args=[world.event.pk])
    assert logged_in(world.user("referee")).get(path).status_code in (403, 404)
    assert logged_in(world.user("event_staff")).get(path).status_code in (403, 404)
    assert logged_in(world.user("other_player")).get(path).status_code in (403, 404)
    assert logged_in(world.user("organiser")).get(path).status_code == 200


@pytest.mark.browser
def test_surrender_on_the_phone_sheet_asks_first(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    """Day 3 of this game opens with a surrender: the sheet names the seat and asks; a
    "no" sends nothing, a "yes" records it."""
    from games import sheet
    from games.replay import record_to_steps
    from tests.games.conftest import make_world
    from tests.games.test_browser import login

    world = make_world("classic", 12)
    record = world.record(3)
    seat = record["log"][-1].get("surrender")
    assert seat, "seed 3 ends with a surrender"
    steps = record_to_steps(record)
    assert steps[-1]["type"] == "surrender"
    ref = world.user("referee")
    state = sheet.sheet_state(ref, world.game)
    for i, s in enumerate(steps[:-1]):
        state = sheet.add_step(ref, world.game, {**s, "id": str(i)}, state["revision"])
    page = login(browser, live_server.url, ref, f"/games/{world.game.pk}/sheet/")
    asked: list[str] = []

    def answer(yes: bool) -> Any:
        def handle(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if yes else dialog.dismiss()

        return handle

    button = page.locator(f'.day .seat-grid button[data-seat="{seat}"]').first
    page.once("dialog", answer(False))
    button.click()
    page.wait_for_timeout(300)
    assert asked and f"Seat {seat} " in asked[0] and "surrender" in asked[0]
    assert sheet.sheet_state(ref, world.game)["revision"] == state["revision"]
    page.once("dialog", answer(True))
    button.click()
    page.wait_for_selector("#winner")
    assert sheet.sheet_state(ref, world.game)["revision"] == state["revision"] + 1
