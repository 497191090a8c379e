"""In a real browser: an organiser sets up an event from scratch, and the public sees only
what was released.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from league.models import Event, Registration, Round
from tests.league.factories import PASSWORD, ClubOrganiserFactory, RefereeFactory

pytestmark = [
    pytest.mark.browser,
]


def test_organiser_sets_up_event_and_public_sees_only_round_1(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Path
) -> None:
    org = ClubOrganiserFactory(user__username="org")
    club = org.club
    event_referees = RefereeFactory.create_batch(3)
    url = live_server.url
    page = browser.new_page()
    page.set_default_timeout(20_000)

    page.goto(f"{url}/accounts/login/?next=/manage/")
    page.fill("#id_username", "org")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}/manage/")

    # create the event
    page.click(f"a[href='/manage/clubs/{club.slug}/events/new/']")
    today = timezone.localdate().isoformat()
    page.fill("#id_name", "Browser Cup")
    page.fill("#id_slug", "browser-cup")
    page.fill("#id_venue", "Teahouse 茶馆")
    page.fill("#id_starts_on", today)
    page.fill("#id_ends_on", today)
    page.fill("#id_rounds_count", "3")
    page.fill("#id_min_table", "8")
    page.fill("#id_max_table", "12")
    page.fill("#id_first_round_at", f"{today}T10:00")
    for ref in event_referees:
        page.check(f"#event-form input[name=referees][value='{ref.pk}']")
    page.click("#event-form button[type=submit]")
    page.wait_for_selector("#event-status")
    event = Event.objects.get(slug="browser-cup")
    assert event.rounds.count() == 3
    page.click("button[name=status-registration]")
    page.wait_for_selector("text=Event status changed.")

    # import 30 players from CSV
    csv_file = tmp_path / "players.csv"
    names = ["王芳", "Lucía Pérez", "John Smith", "李娜", "José Martín", "Anna Kowalska"]
    csv_file.write_text(
        "display_name,handle\n"
        + "".join(f"{names[i % len(names)]} {i},b{i:02d}\n" for i in range(30)),
        encoding="utf-8",
    )
    page.goto(f"{url}/manage/events/{event.pk}/registrations/import/")
    page.set_input_files("#id_file", str(csv_file))
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("#checkin-list")
    assert Registration.objects.filter(event=event).count() == 30

    # check them in: search narrows the list; then everyone, one tap each
    page.fill("#q", "b07")
    assert page.locator("#checkin-list li:not([hidden])").count() == 1
    page.fill("#q", "")
    page.dispatch_event("#q", "input")
    for _ in range(30):
        button = page.locator("button[data-checkin]").first
        handle = button.get_attribute("data-handle")
        button.click()
        page.wait_for_selector(f"button[data-handle='{handle}']:not([data-checkin])")
    assert page.locator("button[data-checkin]").count() == 0
    page.wait_for_selector("#reg-counts:has-text('30 of 30')")
    assert Registration.objects.filter(event=event, checked_in_at__isnull=False).count() == 30

    # draw all three rounds
    page.goto(f"{url}/manage/events/{event.pk}/draw/")
    page.fill("#id_from_round", "1")
    page.click("#draw-form button[type=submit]")
    page.wait_for_selector("#job-status:has-text('done')")
    page.wait_for_selector("#measures")
    assert page.locator("section.round").count() == 3
    assert Round.objects.filter(event=event, status="draft").count() == 3

    # confirm and release round 1
    page.click("button[name=confirm-1]")
    page.once("dialog", lambda dialog: dialog.accept())  # releasing asks first
    page.click("button[name=release-1]")
    page.wait_for_selector("#round-1-status:has-text('released')")

    # an anonymous visitor sees round 1, not round 2
    visitor = browser.new_context().new_page()
    visitor.goto(f"{url}/clubs/{club.slug}/browser-cup/")
    assert visitor.locator("#round-1 .table-card").count() >= 3
    assert visitor.locator("#round-2").count() == 0
    seated = visitor.locator("#round-1 .seats li").count()
    assert seated == 30
    response = visitor.goto(f"{url}/clubs/{club.slug}/browser-cup/rounds/2/")
    assert response is not None and response.status == 404
    response = visitor.goto(f"{url}/clubs/{club.slug}/browser-cup/rounds/1/")
    assert response is not None and response.status == 200
    assert visitor.locator("#where tr[data-search]").count() == 30
