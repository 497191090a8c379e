"""In a real browser at a phone's width: from the log-in page to a new account, its
confirmation link from the outbox, and the user logged in.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https?://\S+/accounts/verify/[^/\s]+/")


def fits(page: Any) -> bool:
    """Nothing wider than the screen: no sideways scrolling."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_sign_up_confirm_from_the_outbox_and_be_logged_in(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    url = live_server.url
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(20_000)

    page.goto(f"{url}/accounts/login/")
    assert fits(page)
    page.click("a[href='/accounts/signup/']")
    page.wait_for_url(f"{url}/accounts/signup/")
    assert fits(page)
    page.fill("#id_username", "lin")
    page.fill("#id_email", "lin@example.org")
    page.fill("#id_password1", "Lantern-Harbour-59")
    page.fill("#id_password2", "Lantern-Harbour-59")
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}/accounts/signup/done/")
    assert not get_user_model().objects.get(username="lin").is_active

    assert len(mail.outbox) == 1
    found = LINK.search(mail.outbox[0].body)
    assert found, mail.outbox[0].body
    page.goto(found.group(0))
    assert fits(page)
    page.click("#confirm-email")
    page.wait_for_url(f"{url}/")
    assert page.locator("form[action='/accounts/logout/'] button").inner_text().endswith("(lin)")
    assert get_user_model().objects.get(username="lin").is_active

    page.goto(f"{url}/accounts/password_change/")
    assert fits(page)
    page.goto(f"{url}/accounts/password_reset/")
    assert fits(page)
