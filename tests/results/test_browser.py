"""In a real browser: a player finds themselves in the leaderboard, opens their page and
sees their rating chart and their last game (headless Debian chromium via Playwright)."""

from __future__ import annotations

from typing import Any

import pytest

from results.models import RatingPoint
from tests.league.factories import PASSWORD
from tests.results.factories import played_event

pytestmark = [
    pytest.mark.browser,
]


def test_player_finds_themselves_and_sees_chart_and_last_game(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    ev = played_event(n_players=14)
    ev.play(1, 1, ev.players[:12], seed=31)
    ev.play(2, 1, ev.players[2:14], seed=32)
    ev.play(3, 1, ev.players[:12], seed=33)
    me = ev.players[6]
    last = RatingPoint.objects.filter(player=me).order_by("-played_on", "-game_id").first()
    assert last is not None

    url = live_server.url
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.set_default_timeout(20_000)
    page.goto(f"{url}/accounts/login/?next=/rankings/")
    page.fill("#id_username", me.user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}/rankings/")

    # The leaderboard points me to my line.
    page.click("#my-position a")
    row = page.locator(f"#player-{me.handle}")
    assert page.url.endswith(f"#player-{me.handle}")
    assert row.is_visible() and me.display_name in row.inner_text()
    background = row.locator("td").first.evaluate("td => getComputedStyle(td).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")  # my line is highlighted

    # Searching works for anybody, too.
    page.fill("input[name=q]", me.handle)
    page.click("#leaderboard-filters button[type=submit]")
    assert page.locator("#leaderboard tbody tr").count() == 1

    # My page: the chart with its uncertainty band, and my last game first.
    page.click(f"#player-{me.handle} a")
    page.wait_for_url(f"{url}/players/{me.handle}/")
    chart = page.locator("#rating-chart")
    assert chart.is_visible()
    assert page.locator("#rating-chart polyline.line").count() == 1
    assert page.locator("#rating-chart polygon.band").count() == 1
    last_row = page.locator("#last-game")
    assert f"#{last.game_id}" in last_row.inner_text()
    assert page.locator("#role-record tbody tr").count() == 3

    # …which opens as a night-by-night account.
    last_row.locator("a").click()
    page.wait_for_url(f"{url}/games/{last.game_id}/account/")
    assert "Night 1" in page.locator("#account").inner_text()
    assert me.display_name in page.locator("#seats").inner_text()
