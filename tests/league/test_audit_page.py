"""The organiser's audit log (issue 15): who did what to the club's events, filterable,
read-only, for the club's organisers only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.events import services as event_services
from league.models import AuditEntry
from tests.league.factories import ClubOrganiserFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_audit_log_lists_filters_and_stays_in_the_club(client: Client) -> None:
    organiser = ClubOrganiserFactory(user=UserFactory(username="mei"))
    club = organiser.club
    first = EventFactory(club=club, name="Spring Open")
    second = EventFactory(club=club, name="Autumn Cup")
    event_services.update_event(organiser.user, first, venue="Hall 2")
    event_services.transition_event(organiser.user, second, "draft")
    other_org = ClubOrganiserFactory()
    elsewhere = EventFactory(club=other_org.club, name="Elsewhere Open")
    event_services.update_event(other_org.user, elsewhere, venue="Far")

    url = reverse("club-audit", args=[club.slug])
    client.force_login(organiser.user)
    html = client.get(url).content.decode()
    assert "event.update" in html and "event.status" in html and "Spring Open" in html
    assert "Elsewhere Open" not in html and "Far" not in html
    html = client.get(url, {"event": first.pk}).content.decode()
    assert "event.update" in html and "event.status</code>" not in html
    html = client.get(url, {"action": "event.status"}).content.decode()
    assert "Autumn Cup" in html and "Hall 2" not in html
    html = client.get(url, {"actor": "nobody"}).content.decode()
    assert "Nothing recorded" in html
    assert client.get(url, {"event": "²", "since": "not a date"}).status_code == 200
    # read-only: there is nothing to post to
    assert client.post(url).status_code in (200, 405)
    assert AuditEntry.objects.filter(event__club=club).count() == 2

    client.force_login(other_org.user)
    assert client.get(url).status_code == 403
    client.logout()
    assert client.get(url).status_code == 302
