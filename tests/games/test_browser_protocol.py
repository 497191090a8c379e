"""In a real browser: an organiser prints the blank protocols of a round (print media, A4:
one table a page, nothing wider or taller than the page), a referee follows the QR code's
address to the live sheet, and a table whose game is not opened yet offers the button
that opens it. The protocol also fits a phone's screen.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from league.models import Seat, Table
from tests.games.conftest import make_world
from tests.games.test_browser import PHONE
from tests.league.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.browser]

#: An A4 page at 96 dpi, and what is left inside the protocol's 10 mm margins.
A4 = {"width": 794, "height": 1123}
PRINTABLE_HEIGHT = (297 - 20) / 25.4 * 96
PRINTABLE_WIDTH = (210 - 20) / 25.4 * 96


def login(browser: Any, url: str, user: Any, next_path: str, **context: Any) -> Any:
    page = browser.new_context(**(context or {"viewport": A4})).new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("#id_username", user.get_username())
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}{next_path}")
    return page


def test_print_the_rounds_protocols_and_follow_the_qr_code(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    world = make_world("classic", 12)
    table2 = Table.objects.get(round=world.round, number=2)
    for i in range(1, 9):
        Seat.objects.create(round=world.round, table=table2, player=PlayerFactory(), number=i)
    url = live_server.url

    # the draw page links to the round's protocols
    draw_path = reverse("event-draw", args=[world.event.pk])
    page = login(browser, url, world.user("organiser"), draw_path)
    page.click(f"#round-{world.round.number}-protocol")
    path = reverse("games:round-protocol", args=[world.event.pk, world.round.number])
    page.wait_for_url(f"{url}{path}")
    assert page.locator("section.protocol").count() == 2

    page.emulate_media(media="print")
    page.set_viewport_size({"width": round(PRINTABLE_WIDTH), "height": A4["height"]})
    assert page.locator(".site-header").is_hidden() and page.locator("[data-print]").is_hidden()
    sheets = page.evaluate(
        """() => [...document.querySelectorAll('section.protocol')].map(s => {
            const r = s.getBoundingClientRect();
            return {w: r.width, h: r.height, scroll: s.scrollWidth, client: s.clientWidth,
                    after: getComputedStyle(s).breakAfter,
                    inside: getComputedStyle(s).breakInside};
        })"""
    )
    assert [s["after"] for s in sheets] == ["page", "auto"]  # a page break between tables
    for s in sheets:
        assert s["inside"] == "avoid"
        assert s["scroll"] <= s["client"] + 1  # nothing sticks out sideways
        assert s["h"] <= PRINTABLE_HEIGHT, s  # one table fits one page
    # and chromium's own print: exactly one A4 page a table
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 2

    # the QR code of table 1 opens its live sheet for the referee
    qr_url = page.locator('section.protocol[data-table="1"] .protocol-url').get_attribute("href")
    assert qr_url == url + reverse("games:table-entry", args=[world.table.pk])
    assert page.locator('section.protocol[data-table="1"] .protocol-qr svg').count() == 1
    referee = login(browser, url, world.user("referee"), "/games/", **PHONE)
    referee.goto(qr_url)
    referee.wait_for_url(f"{url}{reverse('games:sheet', args=[world.game.pk])}")

    # table 2's game is not opened yet: its QR code offers the button that opens it
    qr2 = page.locator('section.protocol[data-table="2"] .protocol-url').get_attribute("href")
    page.emulate_media(media="screen")
    page.goto(qr2)
    page.click("#open-table")
    game2 = Game.objects.get(table=table2)
    page.wait_for_url(f"{url}{reverse('games:sheet', args=[game2.pk])}")


@pytest.mark.parametrize(("ruleset", "seats"), [("classic", 12), ("mainstream", 17)])
def test_the_games_protocol_fits_a_phone_and_a_page(
    live_server: Any, transactional_db: None, browser: Any, ruleset: str, seats: int
) -> None:
    world = make_world(ruleset, seats)  # 17: the largest table a ruleset allows
    url = live_server.url
    game_path = reverse("games:game", args=[world.game.pk])
    page = login(browser, url, world.user("referee"), game_path, **PHONE)
    page.click("#print-protocol")
    page.wait_for_url(f"{url}{reverse('games:protocol', args=[world.game.pk])}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("section.protocol .protocol-seats tbody tr").count() == seats
    page.emulate_media(media="print")
    page.set_viewport_size({"width": round(PRINTABLE_WIDTH), "height": A4["height"]})
    box = page.locator("section.protocol").bounding_box()
    assert box is not None and box["height"] <= PRINTABLE_HEIGHT
    assert box["width"] <= PRINTABLE_WIDTH
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1


@pytest.mark.parametrize("width", [390, 1280])
def test_paper_entry_keeps_what_was_typed_on_a_phone_and_a_desk(
    live_server: Any, transactional_db: None, browser: Any, width: int
) -> None:
    world = make_world("classic", 12)
    url = live_server.url
    path = reverse("games:paper", args=[world.game.pk])
    size = {"viewport": {"width": width, "height": 900}}
    page = login(browser, url, world.user("referee"), path, **size)
    roles = ["killer"] * 4 + ["police"] * 2 + ["civilian"] * 6  # one killer too many
    for i, role in enumerate(roles, 1):
        page.select_option(f"#id_role_{i}", role)
    page.select_option("#id_night_1_kill", "7")
    page.fill("#id_day_1", "lw7 v 1>2 2>1")
    page.select_option("#id_winner", "good")
    page.click("form.paper button[type=submit]")
    page.wait_for_selector("#draft-banner")
    assert "Draft — not submitted" in page.locator("#draft-banner").inner_text()
    assert page.locator("#id_role_1").input_value() == "killer"
    assert page.locator("#id_night_1_kill").input_value() == "7"
    assert page.locator("#id_day_1").input_value() == "lw7 v 1>2 2>1"
    assert "12 players under classic" in page.locator('[data-for="roles"]').inner_text()
    assert "setup.role_counts" not in page.locator("main").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.click("#notation-mode")
    page.wait_for_selector("textarea.notation")
    assert "N1 k7" in page.locator("textarea.notation").input_value()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
