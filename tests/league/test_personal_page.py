"""Personal event pages (issue #18, item 5): the private link, self check-in within its
window, where a player sits, their released results, the calendar feed, the referee's
page, and what must stay secret."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from league.audit import AuditEntry
from league.events import personal
from league.events.models import PersonalLink
from league.models import Event, Registration, Round
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    RegistrationFactory,
    UserFactory,
    lay_out,
    registered_players,
)
from tests.results.factories import Played, played_event

ROLE_WORDS = re.compile(r"killer|police|civilian|\brole", re.IGNORECASE)


def _main(html: str) -> str:
    """The page's own content (the site's footer names the game, killers and all)."""
    return html[html.index("<h1>") : html.index('<footer class="site-footer">')]


def _token(reg: Registration) -> str:
    token = personal.own_token(reg)
    assert token is not None
    return token


def _page(client: Client, token: str) -> Any:
    return client.get(reverse("personal-page", args=[token]))


@pytest.fixture
def event(db: None) -> Event:
    """Running, round 1 starting in 30 minutes: self check-in is open."""
    event = EventFactory(status=Event.Status.RUNNING, starts_on=timezone.localdate())
    first = timezone.now() + dt.timedelta(minutes=30)
    for rnd in event.rounds.all():
        rnd.starts_at = first + dt.timedelta(hours=rnd.number - 1)
        rnd.save()
    return event


@pytest.fixture
def reg(event: Event) -> Registration:
    return RegistrationFactory(event=event, player=PlayerFactory(user=UserFactory()))


def test_the_link_opens_the_page_without_logging_in(client: Client, reg: Registration) -> None:
    response = _page(client, _token(reg))
    assert response.status_code == 200
    html = response.content.decode()
    assert reg.player.display_name in html and "You are registered." in html
    assert 'id="check-in"' in html
    assert response["Cache-Control"].startswith("no-store")
    assert response["Referrer-Policy"] == "same-origin"


def test_only_a_hash_is_stored_and_a_wrong_token_is_a_404(
    client: Client, reg: Registration
) -> None:
    token = _token(reg)
    link = PersonalLink.objects.get(registration=reg)
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in (link.nonce, link.token_hash)
    flipped = token[:-1] + ("0" if token[-1] != "0" else "1")
    for bad in (flipped, token.upper(), token[:-1], "x" * 32, token + "0", "%2e%2e"):
        assert _page(client, bad).status_code == 404, bad


def test_another_players_link_shows_only_that_player(client: Client, event: Event) -> None:
    a = RegistrationFactory(event=event, player=PlayerFactory(display_name="Alice Ng"))
    b = RegistrationFactory(event=event, player=PlayerFactory(display_name="Bruno Diaz"))
    players = registered_players(event, 6)
    lay_out(event.rounds.get(number=1), [a.player, b.player, *players], status="released")
    page_b = _page(client, _token(b)).content.decode()
    assert "Bruno Diaz" in page_b and "Alice Ng" not in page_b
    assert a.player.handle not in page_b
    # checking in with B's link checks in B, never A
    client.post(reverse("personal-check-in", args=[_token(b)]))
    a.refresh_from_db()
    b.refresh_from_db()
    assert b.checked_in_at is not None and a.checked_in_at is None


def test_self_check_in_within_the_window(client: Client, reg: Registration) -> None:
    token = _token(reg)
    response = client.post(reverse("personal-check-in", args=[token]))
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.checked_in_at is not None
    assert AuditEntry.objects.filter(action="registration.self_check_in", target_id=reg.pk)
    assert "You are checked in" in _page(client, token).content.decode()
    assert client.get(reverse("personal-check-in", args=[token])).status_code == 405


@pytest.mark.parametrize("minutes", [120, -60])
def test_self_check_in_outside_the_window_is_refused(
    client: Client, reg: Registration, minutes: int
) -> None:
    """Too early (the first round starts in two hours) or too late (an hour ago)."""
    for rnd in Round.objects.filter(event=reg.event):
        rnd.starts_at = timezone.now() + dt.timedelta(minutes=minutes, hours=rnd.number - 1)
        rnd.save()
    token = _token(reg)
    assert 'id="check-in"' not in _page(client, token).content.decode()
    response = client.post(reverse("personal-check-in", args=[token]))
    assert response.status_code == 409
    assert "You can check yourself in from" in response.content.decode()
    reg.refresh_from_db()
    assert reg.checked_in_at is None


def test_a_waiting_player_sees_their_place_and_cannot_check_in(
    client: Client, event: Event
) -> None:
    reg = RegistrationFactory(
        event=event, status=Registration.Status.WAITLISTED, waitlisted_at=timezone.now()
    )
    token = _token(reg)
    assert "You are number 1 on the waiting list." in _page(client, token).content.decode()
    response = client.post(reverse("personal-check-in", args=[token]))
    assert response.status_code == 409
    reg.refresh_from_db()
    assert reg.checked_in_at is None


def test_revoked_and_regenerated_links(client: Client, reg: Registration) -> None:
    token = _token(reg)
    link = PersonalLink.objects.get(registration=reg)
    organiser = ClubOrganiserFactory(club=reg.event.club).user
    client.force_login(UserFactory())  # not an organiser: no such link for them
    url = reverse("personal-link-revoke", args=[reg.event.pk, link.pk])
    assert client.post(url).status_code == 404
    client.force_login(organiser)
    assert client.post(url).status_code == 302
    client.logout()
    assert _page(client, token).status_code == 404
    assert personal.own_token(reg) is None  # a revoked link is not made again
    client.force_login(organiser)
    client.post(reverse("personal-link-regenerate", args=[reg.event.pk, link.pk]))
    client.logout()
    new = _token(reg)
    assert new != token
    assert _page(client, token).status_code == 404
    assert _page(client, new).status_code == 200
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"personal_link.revoke", "personal_link.regenerate"} <= actions


def test_where_do_i_sit_shows_released_rounds_only(client: Client, event: Event) -> None:
    me = RegistrationFactory(event=event, player=PlayerFactory())
    referee = RefereeFactory()
    event.referees.add(referee)
    others = registered_players(event, 7)
    tables = lay_out(event.rounds.get(number=1), [me.player, *others], status="released")
    tables[0].referee = referee
    tables[0].save()
    lay_out(event.rounds.get(number=2), [*others, me.player], status="confirmed")
    html = _page(client, _token(me)).content.decode()
    assert "Round 1: table 1, seat 1" in html
    assert str(referee) in html
    assert "Round 2" not in html  # confirmed, not released: not shown
    assert not ROLE_WORDS.search(_main(html))


def test_the_calendar_feed_has_own_rounds_and_seats_of_released_rounds(
    client: Client, event: Event
) -> None:
    me = RegistrationFactory(event=event, player=PlayerFactory())
    others = registered_players(event, 7)
    lay_out(event.rounds.get(number=1), [*others, me.player], status="released")
    lay_out(event.rounds.get(number=2), [me.player, *others], status="draft")
    response = client.get(reverse("personal-calendar", args=[_token(me)]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.count("BEGIN:VEVENT") == 3
    assert "table 1\\, seat 8" in body
    assert "seat 1" not in body  # round 2 is a draft: no seat
    assert not ROLE_WORDS.search(body)


@pytest.fixture
def played(db: None) -> Played:
    ev = played_event(n_players=12, rounds=2)
    ev.play(1, 1, ev.players[:12], seed=11)  # released
    ev.play(2, 1, ev.players[:12], seed=12, release=False)  # confirmed, not released
    return ev


def test_released_results_only_and_never_a_role(client: Client, played: Played) -> None:
    player = played.players[0]
    reg = Registration.objects.create(event=played.event, player=player)
    html = _page(client, _token(reg)).content.decode()
    results = html[html.index('id="results"') :]
    assert results.count("<tr>") == 2  # the header and the one released game
    assert not ROLE_WORDS.search(_main(html))
    body = client.get(reverse("personal-calendar", args=[_token(reg)])).content.decode()
    assert not ROLE_WORDS.search(body)
    released = Game.objects.get(table__round__number=1, table__round__event=played.event)
    rows = personal.released_results(played.event, player)
    assert [r["game"] for r in rows] == [released.pk]
    assert rows[0]["outcome"] in {"win", "loss", "draw"}


def test_a_referees_page_lists_their_tables_and_live_sheets(client: Client, played: Played) -> None:
    tokens = dict(personal.referee_tokens(played.event))
    html = _page(client, tokens[played.referee]).content.decode()
    assert html.count("Round 1: table 1") == 1 and "Round 2: table 1" in html
    for table in played.tables.values():
        assert reverse("games:open-table", args=[table.pk]) in html
    assert not ROLE_WORDS.search(_main(html))


def test_the_printed_sheets_carry_a_qr_code_per_player(client: Client, event: Event) -> None:
    regs = [RegistrationFactory(event=event) for _ in range(3)]
    referee = RefereeFactory()
    event.referees.add(referee)
    others = registered_players(event, 5)
    tables = lay_out(
        event.rounds.get(number=1), [*(r.player for r in regs), *others], status="released"
    )
    tables[0].referee = referee
    tables[0].save()
    client.force_login(ClubOrganiserFactory(club=event.club).user)
    html = client.get(reverse("sheet-players", args=[event.pk])).content.decode()
    assert html.count("<svg") == 8
    tables_html = client.get(reverse("sheet-tables", args=[event.pk])).content.decode()
    assert tables_html.count("<svg") == 1


def test_a_referee_taken_off_the_event_loses_the_page(client: Client, played: Played) -> None:
    tokens = dict(personal.referee_tokens(played.event))
    token = tokens[played.referee]
    assert _page(client, token).status_code == 200
    played.event.referees.remove(played.referee)
    assert _page(client, token).status_code == 404
    assert client.get(reverse("personal-calendar", args=[token])).status_code == 404


def test_a_withdrawn_player_keeps_the_page_but_no_rounds_in_the_feed(
    client: Client, reg: Registration
) -> None:
    token = _token(reg)
    reg.status = Registration.Status.WITHDRAWN
    reg.save()
    assert "You have withdrawn" in _page(client, token).content.decode()
    body = client.get(reverse("personal-calendar", args=[token])).content.decode()
    assert "BEGIN:VEVENT" not in body
