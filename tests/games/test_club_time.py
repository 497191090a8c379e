"""Game pages show times in the club's time zone, like the rest of the event."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import GameVersion
from tests.games.conftest import make_world

pytestmark = pytest.mark.django_db


def test_version_and_void_times_in_the_clubs_zone(client: Client, settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"
    world = make_world()
    club = world.event.club
    club.timezone = "Asia/Shanghai"
    club.save()
    services.submit_record(world.user("referee"), world.game, world.record(), "upload")
    at = dt.datetime(2026, 3, 1, 2, 5, tzinfo=dt.UTC)  # 10:05 in Shanghai
    GameVersion.objects.filter(game=world.game).update(submitted_at=at)
    client.force_login(world.user("organiser"))
    pages = [
        reverse("games:game", args=[world.game.pk]),
        reverse("games:review", args=[world.game.pk, 1]),
    ]
    for url in pages:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "10:05 a.m." in html, url
        assert "2:05 a.m." not in html, url
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # switched back
