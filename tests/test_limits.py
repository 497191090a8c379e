"""Bounded input (issue 15): every limit is a clear 400/413, never a 500 or a stored
monster. Limits are settings read from the environment (docs/security.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.datastructures import MultiValueDict
from rest_framework.test import APIClient

from games.forms import UploadForm
from games.models import GameVersion
from games.records import NotARecordError, check_record
from league.errors import CsvImportError
from league.events import imports as event_imports
from league.inputs import nesting_depth, strict_int, value_depth
from tests.games.conftest import World, make_world
from tests.league.factories import ClubOrganiserFactory, EventFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world() -> World:
    return make_world()


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("12", 12),
        (" 7 ", 7),
        (5, 5),
        ("²", None),
        ("٣", None),
        ("-1", None),
        ("1e3", None),
        ("", None),
        (None, None),
        (True, None),
        ("9" * 30, None),
        (str(2**63), None),
    ],
)
def test_strict_int(raw: Any, want: int | None) -> None:
    assert strict_int(raw) == want


def test_depth_is_measured_without_recursion() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert nesting_depth(deep, 32) == 33  # stops counting past the limit
    assert nesting_depth('{"a": "[[[[[[", "b": [1, [2]]}', 32) == 3
    value: Any = 1
    for _ in range(10_000):
        value = [value]
    assert value_depth(value, 32) == 33


def test_a_record_over_the_size_limit_is_refused_before_parsing(
    world: World, settings: Any
) -> None:
    settings.RECORD_MAX_BYTES = 4096
    record = world.record()
    record["meta"] = {"note": "x" * 5000}
    with pytest.raises(NotARecordError, match="too large"):
        check_record(world.game, json.dumps(record))
    with pytest.raises(NotARecordError, match="too large"):
        check_record(world.game, record)
    response = api_as(world.user("referee")).post(
        f"/api/v1/games/{world.game.pk}/versions/",
        {"record": record, "revision": world.game.revision},
        format="json",
    )
    assert response.status_code == 400 and "too large" in response.json()["detail"]
    assert not GameVersion.objects.exists()


def test_nan_and_deep_nesting_are_not_json(world: World) -> None:
    url = f"/api/v1/games/{world.game.pk}/versions/"
    client = api_as(world.user("referee"))
    text = json.dumps({"record": world.record(), "revision": world.game.revision})
    nan = text.replace('"format": "kgr/1"', '"format": "kgr/1", "x": NaN', 1)
    response = client.post(url, nan, content_type="application/json")
    assert response.status_code == 400 and "NaN" in response.json()["detail"]
    deep = '{"record": ' + "[" * 50_000 + "]" * 50_000 + ', "revision": 1}'
    response = client.post(url, deep, content_type="application/json")
    assert response.status_code == 400 and "deeper" in response.json()["detail"]
    with pytest.raises(NotARecordError, match="NaN"):
        check_record(world.game, nan.encode())
    assert not GameVersion.objects.exists()


def test_violations_are_capped(world: World, settings: Any) -> None:
    settings.RECORD_MAX_VIOLATIONS = 5
    record = world.record()
    record["awards"] = [{"seat": 99, "kind": "bonus", "points": 1}] * 20
    check = check_record(world.game, record)
    assert len(check.violations) == 5
    last = check.violations[-1]
    assert last["code"] == "platform.too_many" and "more problems" in last["message"]


def test_a_body_over_the_request_limit_is_413(client: Client, settings: Any) -> None:
    settings.REQUEST_MAX_BYTES = 1024
    response = client.post("/api/v1/players/", data="x" * 2048, content_type="application/json")
    assert response.status_code == 413 and "too large" in response.json()["detail"]
    response = client.post("/accounts/login/", {"username": "u", "password": "p" * 2000})
    assert response.status_code == 413


def test_too_many_files_in_one_upload(settings: Any) -> None:
    settings.UPLOAD_MAX_FILES = 2
    files = [SimpleUploadedFile(f"g{i}.json", b"{}") for i in range(3)]
    form = UploadForm(data={}, files=MultiValueDict({"records": files}))
    assert not form.is_valid()
    assert "At most 2 files" in str(form.errors)


def test_csv_import_is_bounded(settings: Any) -> None:
    organiser = ClubOrganiserFactory().user
    event = EventFactory(club=organiser.organised_clubs.get().club)
    settings.CSV_MAX_ROWS = 3
    rows = "".join(f"P{i},p-{i}\n" for i in range(4))
    with pytest.raises(CsvImportError, match="too many rows"):
        event_imports.import_players_csv(organiser, event, "display_name,handle\n" + rows)
    settings.CSV_MAX_ROWS = 2000
    settings.CSV_MAX_BYTES = 100
    with pytest.raises(CsvImportError, match="too large"):
        event_imports.import_players_csv(organiser, event, "display_name,handle\n" + rows * 10)
    assert not event.registrations.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/?event=²",
        "/api/v1/games/?event=1&round=²",
        "/api/v1/games/?event=99999999999999999999999",
        "/api/v1/draw-jobs/null/",
        "/api/v1/events/²/",
        "/api/v1/events/1/rounds/99999999/",
    ],
)
def test_odd_numbers_in_urls_are_not_server_errors(client: Client, path: str) -> None:
    assert client.get(path).status_code in (200, 401, 403, 404)


def test_odd_revisions_and_seeds_are_client_errors(world: World) -> None:
    client = api_as(world.user("organiser"))
    response = client.post(
        f"/api/v1/games/{world.game.pk}/release/", {}, format="json", HTTP_IF_MATCH='"²"'
    )
    assert response.status_code == 428
    response = client.post(
        f"/api/v1/events/{world.event.pk}/draws/",
        {"from_round": 2, "seed": 10**30},
        format="json",
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    "path", ["/api/v1/players/%00/", "/rankings/?q=a%00b", "/clubs/x%00y/", "/?x=%00"]
)
def test_a_nul_byte_is_a_clear_400(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 400 and b"NUL" in response.content


def test_a_nul_byte_in_a_form_is_a_clear_400(client: Client) -> None:
    response = client.post("/accounts/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400 and b"NUL" in response.content


def test_a_nul_inside_a_record_or_a_json_body_is_a_clear_400(world: World) -> None:
    client = api_as(world.user("referee"))
    record = world.record()
    record["meta"] = {"note": "a\x00b"}
    url = f"/api/v1/games/{world.game.pk}/versions/"
    response = client.post(url, {"record": record, "revision": world.game.revision}, format="json")
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    with pytest.raises(NotARecordError, match="NUL"):
        check_record(world.game, json.dumps(record))
    assert not GameVersion.objects.exists()
