"""The event dashboard leads to the event's games and to the games awaiting confirmation
(issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.league.factories import ClubOrganiserFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_dashboard_links_games_and_awaiting_list(client: Client) -> None:
    organiser = ClubOrganiserFactory().user
    event = EventFactory(club=organiser.organised_clubs.get().club)
    client.force_login(organiser)
    html = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
    assert f'href="{reverse("games:event", args=[event.pk])}"' in html
    assert f'href="{reverse("games:awaiting", args=[event.pk])}"' in html
    assert client.get(reverse("games:awaiting", args=[event.pk])).status_code == 200
    staff = UserFactory()
    event.staff.add(staff)
    client.force_login(staff)
    html = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
    assert reverse("games:awaiting", args=[event.pk]) not in html
