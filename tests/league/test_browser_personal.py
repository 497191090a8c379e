"""In a real browser (issue #18): a player registers for a full event and is waitlisted,
is promoted when another withdraws, checks in from their personal link (a fresh browser,
not logged in), and sees their seat once the organiser has drawn and released the round.

A phone (390 px). Headless Debian chromium through Playwright, against pytest-django's
live server; the organiser's side goes through the same services as their pages.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.utils import timezone

from league.draws import services as draw_services
from league.events import services
from league.models import Event, Registration, Round, Seat
from tests.league.factories import (
    PASSWORD,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
    registered_players,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


def test_waitlisted_promoted_checks_in_and_sees_the_seat(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    organiser = ClubOrganiserFactory().user
    event = EventFactory(
        club=organiser.organised_clubs.get().club,
        capacity=8,
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        rounds_count=1,
    )
    Round.objects.filter(event=event).update(starts_at=timezone.now() + dt.timedelta(minutes=20))
    others = registered_players(event, 8)  # full, all checked in
    me = PlayerFactory(user=UserFactory(username="mei"), display_name="Mei Lin")
    url = live_server.url

    # the player logs in and registers: the event is full
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(20_000)
    page.goto(f"{url}/accounts/login/?next=/clubs/{event.club.slug}/{event.slug}/")
    page.fill("#id_username", "mei")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf".*/clubs/{event.club.slug}/{event.slug}/$"))
    assert "8 of 8 places taken." in page.inner_text("#places")
    with page.expect_navigation():
        page.click("#register-me")
    assert "number 1 on the waiting list" in page.inner_text(".messages")
    assert "number 1 on the waiting list" in page.inner_text("#my-status")
    _fits(page)

    # another player withdraws: the first on the list is promoted
    leaving = Registration.objects.get(event=event, player=others[0])
    services.withdraw(organiser, leaving)
    page.reload()
    assert page.inner_text("#my-status").startswith("You are registered.")
    link = page.get_attribute("#my-personal-page", "href")
    assert link and link.startswith("/e/")

    # the personal link, in a fresh browser that has never logged in
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(20_000)
    phone.goto(url + link)
    assert "you are now registered" in phone.inner_text(".notice")
    assert "No seating has been published for you yet." in phone.inner_text("#where")
    with phone.expect_navigation():
        phone.click("#check-in")
    assert "You are checked in" in phone.inner_text("#status")
    assert Registration.objects.get(event=event, player=me).checked_in_at is not None
    _fits(phone)

    # the organiser draws, confirms and releases round 1
    draw_services.request_draw(organiser, event, from_round=1, to_round=1, seed=7)
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.status == Round.Status.DRAFT, "the draw did not run"
    phone.reload()
    assert "No seating has been published for you yet." in phone.inner_text("#where")
    draw_services.confirm_round(organiser, rnd)
    draw_services.release_round(organiser, Round.objects.get(pk=rnd.pk))
    phone.reload()
    seat = Seat.objects.select_related("table").get(round=rnd, player=me)
    where = phone.inner_text("#where")
    assert f"Round 1: table {seat.table.number}, seat {seat.number}" in where
    _fits(phone)
    phone.screenshot(path="/tmp/personal_page_390.png", full_page=True)
    assert Event.objects.get(pk=event.pk).registrations.filter(status="registered").count() == 8
