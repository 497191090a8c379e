"""In a real browser (issue 21): the venue screen updates itself when a table's status
changes, its clock runs, nothing overflows the screen at 1280 px (nor at 390 px); the
overlay's page is transparent (headless Debian chromium via Playwright)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from games.models import Game, GameVersion
from games.services import confirm_version
from results import venue as reads
from tests.results.venue_factories import venue_world

pytestmark = [pytest.mark.browser]

LAPTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
WIDER = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_the_venue_screen_follows_the_tables(
    live_server: Any, transactional_db: None, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reads, "POLL_SECONDS", 1)  # the script polls every 2 s at least
    ev, games = venue_world()
    args = [ev.club.slug, ev.event.slug]
    page = browser.new_page(viewport=LAPTOP)
    page.set_default_timeout(20_000)
    page.goto(live_server.url + reverse("results:venue", args=args))
    card = page.locator('#venue-tables li[data-table="4"]')
    assert card.get_attribute("data-status") == "submitted"
    assert page.inner_text("#venue-progress") == "2/6 tables confirmed"
    assert page.evaluate(WIDER) <= 0
    first = page.inner_text("#venue-clock")
    page.wait_for_function(
        "t => document.getElementById('venue-clock').textContent !== t", arg=first
    )

    submitted = games[4]
    assert submitted is not None
    version = GameVersion.objects.get(game=submitted, status=GameVersion.Status.SUBMITTED)
    with TestCase.captureOnCommitCallbacks(execute=True):
        confirm_version(ev.organiser, Game.objects.get(pk=submitted.pk), version.number)
    page.wait_for_selector('#venue-tables li[data-table="4"][data-status="confirmed"]')
    assert page.inner_text('#venue-tables li[data-table="4"] .table-status').lower() == (
        "confirmed"
    )
    page.wait_for_function(
        "() => document.getElementById('venue-progress').textContent === '3/6 tables confirmed'"
    )
    # a confirmed game adds nothing to the standings: only released games count
    names = page.locator("#venue-standings td.name").all_inner_texts()
    at_four = {s.player.display_name for s in submitted.table.seats.all()}  # type: ignore[union-attr]
    assert names and not set(names) & at_four
    assert page.evaluate(WIDER) <= 0

    phone = browser.new_page(viewport=PHONE)
    phone.goto(live_server.url + reverse("results:venue", args=args))
    assert phone.evaluate(WIDER) <= 0


def test_the_overlay_is_transparent(live_server: Any, transactional_db: None, browser: Any) -> None:
    ev, _games = venue_world()
    args = [ev.club.slug, ev.event.slug]
    page = browser.new_page(viewport=LAPTOP)
    page.set_default_timeout(20_000)
    page.goto(live_server.url + reverse("results:venue-overlay", args=args))
    backgrounds = page.evaluate(
        "() => [document.documentElement, document.body].map("
        "e => getComputedStyle(e).backgroundColor)"
    )
    assert backgrounds == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    assert page.locator("#overlay-standings tbody tr").count() == 5
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('#venue-round')).fontSize)"
    )
    assert size >= 24  # large text
    assert page.evaluate(WIDER) <= 0
    page.goto(live_server.url + reverse("results:venue-overlay", args=args) + "?show=round")
    assert page.locator("#overlay-standings").count() == 0
    assert page.inner_text("#venue-round") == "Round 1 of 3"
