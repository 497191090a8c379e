"""Secrecy: until a game is released its roles reach only its referee, the event's
organisers and site admins — on every page, endpoint, export and error message."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from tests.games.conftest import ROLES, SEES_SECRETS, World

pytestmark = pytest.mark.django_db

MARK = "SECRET-AWARD-REASON"
ROLE_WORDS = re.compile(r"\b(killer|police|civilian)s?\b")


def _prepare(world: World) -> None:
    """A confirmed version, a pending correction and an invalid draft (with violations
    that name roles)."""
    rec = world.record(11)
    rec["awards"] = [{"seat": 1, "kind": "warning", "reason": MARK}]
    ref, org = world.user("referee"), world.user("organiser")
    services.submit_record(ref, world.game, rec, "api")
    services.confirm_version(org, world.game, 1)
    bad = world.record(12)
    bad["seats"][0]["role"] = "killer" if bad["seats"][0]["role"] != "killer" else "civilian"
    services.submit_record(ref, world.game, bad, "api", reason="oops")
    world.game.refresh_from_db()


def _leaks(text: str) -> list[str]:
    found = ROLE_WORDS.findall(text)
    if MARK in text:
        found.append(MARK)
    return found


def _page_client(user: Any) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _api_client(user: Any) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _pages(world: World) -> dict[str, str]:
    pk = world.game.pk
    return {
        "game": reverse("games:game", args=[pk]),
        "export": reverse("games:export", args=[pk]),
        "export_v2": reverse("games:export", args=[pk]) + "?version=2",
        "sheet": reverse("games:sheet", args=[pk]),
        "paper": reverse("games:paper", args=[pk]),
        "upload": reverse("games:upload", args=[pk]),
        "event": reverse("games:event", args=[world.event.pk]),
        "mine": reverse("games:mine"),
    }


def _endpoints(world: World) -> dict[str, str]:
    pk = world.game.pk
    return {
        "list": reverse("games-api:list") + f"?event={world.event.pk}",
        "detail": reverse("games-api:detail", args=[pk]),
        "versions": reverse("games-api:versions", args=[pk]),
        "sheet": reverse("games-api:sheet", args=[pk]),
    }


@pytest.mark.parametrize("role", ROLES)
def test_pages_before_release(world: World, role: str) -> None:
    _prepare(world)
    c = _page_client(world.user(role))
    for name, path in _pages(world).items():
        r = c.get(path)
        text = r.content.decode()
        if role in SEES_SECRETS:
            assert r.status_code == 200, (name, r.status_code)
            if name in ("game", "export", "export_v2"):
                assert _leaks(text), name
        else:
            assert not _leaks(text), (role, name, _leaks(text))
            if name in ("export", "export_v2", "sheet", "paper", "upload"):
                assert r.status_code in (302, 404), (role, name, r.status_code)
    if role in SEES_SECRETS:
        page = c.get(_pages(world)["game"]).content.decode()
        assert "setup.role_counts" in page  # the draft's violations are shown to officials


@pytest.mark.parametrize("role", ROLES)
def test_api_before_release(world: World, role: str) -> None:
    _prepare(world)
    c = _api_client(world.user(role))
    for name, path in _endpoints(world).items():
        r = c.get(path)
        text = r.content.decode()
        if role in SEES_SECRETS:
            assert r.status_code == 200, (name, r.status_code)
            if name != "list":
                assert _leaks(text), name
        else:
            assert not _leaks(text), (role, name, _leaks(text))
            if name in ("versions", "sheet"):
                assert r.status_code in (401, 403), (role, name)


@pytest.mark.parametrize("role", [r for r in ROLES if r not in SEES_SECRETS])
def test_refusals_never_echo_roles(world: World, role: str) -> None:
    _prepare(world)
    c = _api_client(world.user(role))
    pk = world.game.pk
    rec = world.record(13)
    attempts = [
        ("games-api:versions", {"record": rec, "revision": world.game.revision}),
        ("games-api:corrections", {"record": rec, "reason": "x", "revision": 1}),
        ("games-api:confirm", {"version": 2, "revision": world.game.revision}),
        ("games-api:release", {"revision": world.game.revision}),
        ("games-api:sheet-step", {"step": {"type": "night", "kill": 1, "check": 2}, "revision": 0}),
        ("games-api:sheet-undo", {"revision": 0}),
        ("games-api:sheet-submit", {"revision": 0}),
    ]
    for name, body in attempts:
        r = c.post(reverse(name, args=[pk]), body, format="json")
        assert r.status_code in (401, 403, 404), (name, r.status_code)
        assert not _leaks(r.content.decode()), (name, r.content)
    assert world.game.versions.count() == 2


@pytest.mark.parametrize("role", ROLES)
def test_everything_public_after_release(world: World, role: str) -> None:
    _prepare(world)
    services.release_game(world.user("organiser"), world.game)
    page = _page_client(world.user(role)).get(reverse("games:game", args=[world.game.pk]))
    assert page.status_code == 200 and _leaks(page.content.decode())
    export = _page_client(world.user(role)).get(reverse("games:export", args=[world.game.pk]))
    assert export.status_code == 200 and MARK in export.content.decode()
    api = _api_client(world.user(role)).get(reverse("games-api:detail", args=[world.game.pk]))
    assert api.json()["confirmed"]["record"]["awards"][0]["reason"] == MARK
    versions = (
        _api_client(world.user(role))
        .get(reverse("games-api:versions", args=[world.game.pk]))
        .json()
    )
    numbers = [v["number"] for v in versions]
    # the public reads the confirmed version; officials also see the pending draft
    assert numbers == ([1, 2] if role in SEES_SECRETS else [1])


def test_draft_event_games_are_hidden_from_the_public(world: World) -> None:
    world.event.status = "draft"
    world.event.save()
    for role in ("anonymous", "player_at_table", "other_player"):
        r = _page_client(world.user(role)).get(reverse("games:game", args=[world.game.pk]))
        assert r.status_code == 404
        r = _api_client(world.user(role)).get(reverse("games-api:detail", args=[world.game.pk]))
        assert r.status_code == 404
