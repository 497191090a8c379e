"""In a real browser, at 390 px and 1280 px: site staff import a club's archive through
the preview and the confirmation; the organiser's archive buttons fit the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from league.models import Club
from results.archives.export import export_archive
from tests.league.factories import PASSWORD, UserFactory
from tests.results.test_archives import small

pytestmark = [pytest.mark.browser]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def login(browser: Any, url: str, user: User, next_path: str, size: str) -> Any:
    page = browser.new_context(viewport=SIZES[size]).new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda dialog: dialog.accept())  # the "Import this archive now?" step
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("#id_username", user.get_username())
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}{next_path}")
    return page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_staff_import_an_archive_through_the_preview(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Path, size: str
) -> None:
    ev = small()
    archive = tmp_path / "club.zip"
    archive.write_bytes(export_archive(ev.club, public=False))
    organiser = login(browser, live_server.url, ev.organiser, "/manage/", size)
    organiser.goto(f"{live_server.url}/manage/events/{ev.event.pk}/")
    assert organiser.locator("#event-archive").is_visible()
    assert organiser.evaluate(OVERFLOW) <= 0
    organiser.goto(f"{live_server.url}/manage/clubs/{ev.club.slug}/people/")
    assert organiser.locator("#club-archive").is_visible()
    assert organiser.locator("#club-public-archive").is_visible()
    assert organiser.evaluate(OVERFLOW) <= 0
    with organiser.expect_download() as download:
        organiser.click("#club-archive")
    assert download.value.suggested_filename.startswith(f"{ev.club.slug}-archive-")

    call_command("flush", interactive=False, verbosity=0)
    staff = UserFactory(is_superuser=True, is_staff=True)
    page = login(browser, live_server.url, staff, "/manage/archives/import/", size)
    page.set_input_files("#archive-file", str(tmp_path / "club.zip"))
    page.click("#archive-upload button[type=submit]")
    page.wait_for_selector("#archive-preview")
    assert ev.club.slug in page.inner_text("#archive-preview")
    assert page.evaluate(OVERFLOW) <= 0
    assert not Club.objects.exists()
    page.click("#archive-confirm")
    page.wait_for_url(f"{live_server.url}/clubs/{ev.club.slug}/")
    assert Club.objects.filter(slug=ev.club.slug).exists()
    assert "Imported" in page.inner_text("body")
    assert page.evaluate(OVERFLOW) <= 0
