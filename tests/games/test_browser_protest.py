"""In a phone-sized browser (issue #20): a player files a protest from their personal page
(no account: the personal link), reads it back and confirms; the chief referee upholds it
with a corrected record; another official confirms the correction; the ruling appears on
the public game account. No page scrolls sideways at 390 px.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Protest
from games.selectors import confirmed_record
from games.services import confirm_version
from league.events import personal
from tests.games.test_browser import PHONE, login
from tests.league.factories import RegistrationFactory
from tests.results.factories import played_event

pytestmark = [pytest.mark.browser]


def fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), (page.url, width)


def test_a_protest_from_the_personal_page_to_the_public_ruling(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    ev = played_event(n_players=12)
    game = ev.play(1, 1, ev.players[:12], seed=21)
    player = ev.players[2]
    RegistrationFactory(event=ev.event, player=player)
    token = personal.player_tokens(ev.event)[player.pk]
    url = live_server.url

    # the player, on their phone, from their personal page
    phone = browser.new_context(**PHONE).new_page()
    phone.set_default_timeout(30_000)
    phone.goto(f"{url}/e/{token}/")
    fits(phone)
    phone.click(f'a.file-protest[data-game="{game.pk}"]')
    phone.wait_for_selector("#protest-form")
    fits(phone)
    phone.select_option("#id_phase", "day 1 ballot 1")
    phone.fill("#id_text", "Seat 5 raised their hand twice.")
    phone.fill("#id_evidence", "https://video.example/table-1")
    phone.click("#protest-next")
    phone.wait_for_selector("#protest-confirm")
    assert "Day 1, ballot 1" in phone.inner_text("#protest-confirm")
    assert not Protest.objects.exists()  # nothing is filed before the confirmation
    fits(phone)
    phone.click("#protest-confirm-button")
    phone.wait_for_url(f"{url}/e/{token}/")
    assert "Your protest was filed" in phone.inner_text("main")
    protest = Protest.objects.get()
    assert protest.player == player and protest.status == Protest.Status.OPEN

    # the public sees nothing of it yet
    public = browser.new_context(**PHONE).new_page()
    public.goto(f"{url}/games/{game.pk}/account/")
    assert "raised their hand twice" not in public.inner_text("main")

    # the chief referee (an organiser, not the game's referee) upholds it
    record = confirmed_record(game)
    assert record is not None
    record["awards"] = [*record.get("awards", []), {"seat": 5, "kind": "warning"}]
    chief = login(browser, url, ev.organiser, f"/games/{game.pk}/")
    chief.on("dialog", lambda d: d.accept())
    chief.click(f"#protest-{protest.pk} .rule-link")
    chief.wait_for_selector("#ruling-form")
    fits(chief)
    chief.check('input[name="decision"][value="upheld"]')
    chief.fill("#id_ruling", "Upheld: seat 5 gets a warning.")
    chief.fill("#id_record", json.dumps(record))
    chief.click("#ruling-submit")
    chief.wait_for_url(f"{url}/games/{game.pk}/protests/")
    assert "awaits confirmation by another official" in chief.inner_text(f"#protest-{protest.pk}")
    fits(chief)
    protest.refresh_from_db()
    assert protest.status == Protest.Status.UPHELD and protest.version is not None

    # another official (the game's referee) confirms the correction, the normal way
    confirm_version(ev.referee.user, game, protest.version.number)

    # the ruling is public on the game's account
    public.goto(f"{url}/games/{game.pk}/account/")
    rulings = public.inner_text("#rulings")
    assert "raised their hand twice" in rulings and "seat 5 gets a warning" in rulings
    assert "confirmed" in rulings
    assert public.locator("#votes-1-1 tbody tr").count() >= 10  # the vote table
    fits(public)
