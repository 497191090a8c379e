"""In a real browser at a phone's width: sign up, confirm the address, create a club,
invite a referee, and the referee (logging in from the link) accepts.

Headless Debian chromium through Playwright, against pytest-django's live server; the
sign-up steps are those of ``tests/accounts/test_browser.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from league.clubs.models import Club, ClubOrganiser, Invitation, Referee
from tests.accounts.test_browser import LINK, PHONE, fits
from tests.league.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser]


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_up(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", "Lantern-Harbour-59")
    page.fill("#id_password2", "Lantern-Harbour-59")
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}/accounts/signup/done/")
    found = LINK.search(mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    page.goto(found.group(0))
    page.click("#confirm-email")
    page.wait_for_url(f"{url}/")


def test_sign_up_create_a_club_invite_a_referee_who_accepts(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    url = live_server.url
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(20_000)

    sign_up(page, url, "mei")
    assert get_user_model().objects.get(username="mei").is_active

    page.goto(f"{url}/manage/")
    page.click("#create-club")
    page.wait_for_url(f"{url}/manage/clubs/new/")
    assert fits(page)
    page.fill("#id_name", "Harbour Mahjong")
    page.fill("#id_city", "Porto")
    page.select_option("#id_timezone", "Europe/Lisbon")
    page.click("#club-form button[type=submit]")
    page.wait_for_url(f"{url}/manage/clubs/harbour-mahjong/people/")
    assert fits(page)
    club = Club.objects.get(slug="harbour-mahjong")
    assert club.timezone == "Europe/Lisbon"
    assert ClubOrganiser.objects.filter(club=club, user__username="mei").exists()

    page.select_option("#id_role", "referee")
    page.fill("#id_email", "ref@example.org")
    page.click("#invite-form button[type=submit]")
    page.wait_for_selector("#invitation-link")
    assert fits(page)
    link = page.input_value("#invitation-link")
    assert "/invitations/" in link
    assert any(link in m.body for m in mail.outbox if m.to == ["ref@example.org"])

    referee = UserFactory(username="ren")
    other = browser.new_page(viewport=PHONE)
    other.set_default_timeout(20_000)
    other.goto(link)
    other.wait_for_url(f"{url}/accounts/login/**")
    other.fill("#id_username", "ren")
    other.fill("#id_password", PASSWORD)
    other.click("button[type=submit].primary")
    other.wait_for_url(link)
    assert fits(other)
    assert "Harbour Mahjong" in other.inner_text("#invitation-offer")
    other.click("#accept")
    other.wait_for_url(f"{url}/manage/")
    assert Referee.objects.get(user=referee).club == club
    assert Invitation.objects.get().accepted_by == referee

    page.goto(f"{url}/manage/clubs/harbour-mahjong/people/")
    assert "ren" in page.inner_text("#referees")
