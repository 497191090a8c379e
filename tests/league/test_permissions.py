"""Every role on every league page and endpoint: what each may do, and nothing more.

The cast (see conftest): one running event with round 1 released, round 2 confirmed,
round 3 a draft; a site admin, the club's organiser, another club's organiser, event
staff, the event's referee, a registered player with an account, a stranger, anonymous.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from league.models import DrawJob, Registration, Round
from tests.league.conftest import ROLES, Cast

pytestmark = pytest.mark.django_db

MANAGE = {"admin", "organiser"}
STAFF = MANAGE | {"staff"}
EVERYONE = set(ROLES)


def login(client: Client, cast: Cast, role: str) -> Client:
    user = cast.user(role)
    if user is not None:
        client.force_login(user)
    return client


def reg_of_player(cast: Cast) -> int:
    return Registration.objects.get(event=cast.event, player__user=cast.player).pk


def table_of_round3(cast: Cast) -> int:
    return Round.objects.get(event=cast.event, number=3).tables.order_by("number")[0].pk


def handles_round3(cast: Cast) -> dict[str, str]:
    rnd = Round.objects.get(event=cast.event, number=3)
    a, b = rnd.tables.order_by("number")
    return {"a": a.seats.get(number=1).player.handle, "b": b.seats.get(number=1).player.handle}


# (name, method, url args, POST data, roles allowed)
Page = tuple[str, str, Callable[[Cast], list[Any]], Callable[[Cast], dict[str, Any]], set[str]]
EV: Callable[[Cast], list[Any]] = lambda c: [c.event.pk]  # noqa: E731
NONE: Callable[[Cast], dict[str, Any]] = lambda c: {}  # noqa: E731

PAGES: list[Page] = [
    ("manage-home", "get", lambda c: [], NONE, EVERYONE - {"anonymous"}),
    ("event-create", "get", lambda c: [c.event.club.slug], NONE, MANAGE),
    ("event-dashboard", "get", EV, NONE, STAFF),
    ("event-edit", "get", EV, NONE, MANAGE),
    ("event-status", "post", EV, lambda c: {"to": "finished"}, MANAGE),
    ("round-start", "post", lambda c: [c.event.pk, 3], lambda c: {"3-starts_at": ""}, MANAGE),
    ("event-registrations", "get", EV, NONE, STAFF),
    ("registration-add", "post", EV, lambda c: {"handle": "new-one", "display_name": "N"}, STAFF),
    ("registration-import", "get", EV, NONE, STAFF),
    ("registration-check-in", "post", lambda c: [c.event.pk, reg_of_player(c)], NONE, STAFF),
    (
        "registration-withdraw",
        "post",
        lambda c: [c.event.pk, reg_of_player(c)],
        NONE,
        STAFF | {"player"},
    ),
    ("event-draw", "get", EV, NONE, STAFF),
    ("draw-start", "post", EV, lambda c: {"from_round": 3}, MANAGE),
    ("draw-job", "get", EV, NONE, STAFF),
    ("draw-csv", "get", EV, NONE, STAFF),
    ("referees-assign", "post", EV, NONE, MANAGE),
    ("round-swap", "post", lambda c: [c.event.pk, 3], handles_round3, MANAGE),
    ("round-unpin", "post", lambda c: [c.event.pk, 3], NONE, MANAGE),
    ("club-audit", "get", lambda c: [c.event.club.slug], NONE, MANAGE),
    ("round-action", "post", lambda c: [c.event.pk, 3, "confirm"], NONE, MANAGE),
    ("round-action", "post", lambda c: [c.event.pk, 2, "release"], NONE, MANAGE),
    (
        "table-referee",
        "post",
        lambda c: [c.event.pk, table_of_round3(c)],
        lambda c: {"referee": ""},
        MANAGE,
    ),
    ("event-conflicts", "get", EV, NONE, STAFF),
    ("referee-rounds", "get", EV, NONE, STAFF | {"referee"}),
    (
        "conflict-add",
        "post",
        EV,
        lambda c: {"kind": "player", **dict(zip("ab", handles_round3(c).values(), strict=True))},
        MANAGE,
    ),
    ("sheet-tables", "get", EV, NONE, STAFF),
    ("sheet-players", "get", EV, NONE, STAFF),
    ("club", "get", lambda c: [c.event.club.slug], NONE, EVERYONE),
    ("club-calendar", "get", lambda c: [c.event.club.slug], NONE, EVERYONE),
    ("public-event", "get", lambda c: [c.event.club.slug, c.event.slug], NONE, EVERYONE),
    ("public-round", "get", lambda c: [c.event.club.slug, c.event.slug, 1], NONE, EVERYONE),
]


def check_page(client: Client, cast: Cast, role: str, page: Page, capture: Any) -> None:
    name, method, args, data, allowed = page
    client.logout()
    login(client, cast, role)
    url = reverse(name, args=args(cast))
    with capture(execute=False):
        response = getattr(client, method)(url, data(cast))
    location = response.get("Location", "")
    if role in allowed:
        assert response.status_code in (200, 302), (role, name, response.status_code)
        assert "/accounts/login/" not in location
        if method == "post":
            # the action went through: no error message was queued
            errors = [m for m in response.wsgi_request._messages if m.level_tag == "error"]
            assert not errors, [str(m) for m in errors]
    elif role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in location, (role, name)
    else:
        assert response.status_code == 403, (role, name, response.status_code)


GET_PAGES = [p for p in PAGES if p[1] == "get"]
POST_PAGES = [p for p in PAGES if p[1] == "post"]


@pytest.mark.parametrize("page", GET_PAGES, ids=[f"{p[0]}-{i}" for i, p in enumerate(GET_PAGES)])
def test_page_permissions_read(
    client: Client, cast: Cast, page: Page, django_capture_on_commit_callbacks: Any
) -> None:
    """Reads change nothing, so one cast serves every role."""
    for role in ROLES:
        check_page(client, cast, role, page, django_capture_on_commit_callbacks)


@pytest.mark.parametrize("page", POST_PAGES, ids=[f"{p[0]}-{i}" for i, p in enumerate(POST_PAGES)])
def test_page_permissions_write(
    client: Client, cast: Cast, page: Page, django_capture_on_commit_callbacks: Any
) -> None:
    """Each role acts on the same state: its changes are rolled back before the next."""
    for role in ROLES:
        with transaction.atomic():
            check_page(client, cast, role, page, django_capture_on_commit_callbacks)
            transaction.set_rollback(True)


@pytest.mark.parametrize("role", ROLES)
def test_public_pages_show_released_rounds_only(client: Client, cast: Cast, role: str) -> None:
    login(client, cast, role)
    club, slug = cast.event.club.slug, cast.event.slug
    for number in (2, 3):
        assert client.get(reverse("public-round", args=[club, slug, number])).status_code == 404
    page = client.get(reverse("public-event", args=[club, slug])).content.decode()
    assert 'id="round-1"' in page and 'id="round-2"' not in page and 'id="round-3"' not in page


def test_referee_page_shows_their_tables_not_drafts(client: Client, cast: Cast) -> None:
    login(client, cast, "referee")
    page = client.get(reverse("referee-rounds", args=[cast.event.pk])).content.decode()
    assert 'id="round-1"' in page and 'id="round-2"' in page and 'id="round-3"' not in page
    assert 'id="my-tables"' in page


def test_draft_event_is_hidden_from_the_public(client: Client, cast: Cast) -> None:
    Round.objects.filter(event=cast.event).update(status="none", released_at=None)
    cast.event.status = "draft"
    cast.event.save()
    club, slug = cast.event.club.slug, cast.event.slug
    assert client.get(reverse("public-event", args=[club, slug])).status_code == 404
    assert "BEGIN:VEVENT" not in client.get(reverse("club-calendar", args=[club])).content.decode()


@pytest.mark.parametrize(
    ("role", "visible"),
    [
        ("admin", {1, 2, 3}),
        ("organiser", {1, 2, 3}),
        ("staff", {1, 2, 3}),
        ("referee", {1, 2}),
        ("player", {1}),
        ("stranger", {1}),
        ("other_organiser", {1}),
        ("anonymous", {1}),
    ],
)
def test_staff_pages_and_api_show_rounds_by_role(
    client: Client, cast: Cast, role: str, visible: set[int]
) -> None:
    login(client, cast, role)
    rounds = client.get(f"/api/v1/events/{cast.event.pk}/rounds/").json()
    assert {r["number"] for r in rounds} == visible
    for number in (1, 2, 3):
        response = client.get(f"/api/v1/events/{cast.event.pk}/rounds/{number}/")
        assert response.status_code == (200 if number in visible else 404)


# --- API ------------------------------------------------------------------------------------

Api = tuple[str, str, Callable[[Cast], str], Callable[[Cast], dict[str, Any]], set[str]]
E: Callable[[Cast], str] = lambda c: f"/api/v1/events/{c.event.pk}"  # noqa: E731

ENDPOINTS: list[Api] = [
    ("list-events", "get", lambda c: "/api/v1/events/", NONE, EVERYONE),
    ("event", "get", lambda c: E(c) + "/", NONE, EVERYONE),
    ("patch-event", "patch", lambda c: E(c) + "/", lambda c: {"venue": "New hall"}, MANAGE),
    (
        "create-event",
        "post",
        lambda c: "/api/v1/events/",
        lambda c: {
            "club": c.event.club.slug,
            "name": "Next",
            "starts_on": "2030-01-01",
            "ends_on": "2030-01-01",
            "rounds_count": 2,
        },
        MANAGE,
    ),
    ("transition", "post", lambda c: E(c) + "/transition/", lambda c: {"to": "finished"}, MANAGE),
    ("registrations", "get", lambda c: E(c) + "/registrations/", NONE, STAFF),
    (
        "register",
        "post",
        lambda c: E(c) + "/registrations/",
        lambda c: {"handle": "fresh", "display_name": "Fresh"},
        STAFF,
    ),
    (
        "check-in",
        "post",
        lambda c: E(c) + f"/registrations/{reg_of_player(c)}/check-in/",
        NONE,
        STAFF,
    ),
    (
        "withdraw",
        "post",
        lambda c: E(c) + f"/registrations/{reg_of_player(c)}/withdraw/",
        NONE,
        STAFF | {"player"},
    ),
    (
        "absences",
        "post",
        lambda c: E(c) + f"/registrations/{reg_of_player(c)}/absences/",
        lambda c: {"rounds": [3]},
        STAFF,
    ),
    (
        "import",
        "post",
        lambda c: E(c) + "/import/",
        lambda c: {"text": "display_name,handle\nZ,zed\n"},
        STAFF,
    ),
    ("draw", "post", lambda c: E(c) + "/draws/", lambda c: {"from_round": 3}, MANAGE),
    ("measures", "get", lambda c: E(c) + "/measures/", NONE, EVERYONE),
    ("rounds", "get", lambda c: E(c) + "/rounds/", NONE, EVERYONE),
    (
        "round-start",
        "patch",
        lambda c: E(c) + "/rounds/3/",
        lambda c: {"starts_at": "2030-01-01T10:00:00Z"},
        MANAGE,
    ),
    ("confirm", "post", lambda c: E(c) + "/rounds/3/confirm/", NONE, MANAGE),
    ("reopen", "post", lambda c: E(c) + "/rounds/2/reopen/", NONE, MANAGE),
    ("release", "post", lambda c: E(c) + "/rounds/2/release/", NONE, MANAGE),
    ("swap", "post", lambda c: E(c) + "/rounds/3/swap/", handles_round3, MANAGE),
    ("unpin", "post", lambda c: E(c) + "/rounds/3/unpin/", NONE, MANAGE),
    (
        "referee",
        "post",
        lambda c: E(c) + "/rounds/3/referee/",
        lambda c: {"table": 1, "referee": None},
        MANAGE,
    ),
    ("export", "get", lambda c: E(c) + "/export/", NONE, STAFF),
    ("conflicts", "get", lambda c: E(c) + "/conflicts/", NONE, STAFF),
    ("add-conflict", "post", lambda c: E(c) + "/conflicts/", handles_round3, MANAGE),
    ("referee-conflicts", "get", lambda c: E(c) + "/referee-conflicts/", NONE, STAFF),
    (
        "add-referee-conflict",
        "post",
        lambda c: E(c) + "/referee-conflicts/",
        lambda c: {
            "referee": c.event.referees.order_by("pk")[0].pk,
            "player": handles_round3(c)["a"],
        },
        MANAGE,
    ),
    ("leagues", "get", lambda c: "/api/v1/leagues/", NONE, EVERYONE),
    (
        "create-player",
        "post",
        lambda c: "/api/v1/players/",
        lambda c: {"display_name": "Nueva", "handle": "nueva"},
        MANAGE | {"other_organiser"},
    ),
    (
        "create-club-member",  # a club's members are added by its own organisers only
        "post",
        lambda c: "/api/v1/players/",
        lambda c: {"display_name": "Nueva", "handle": "nueva", "club": c.event.club.slug},
        MANAGE,
    ),
    ("players", "get", lambda c: "/api/v1/players/", NONE, EVERYONE),
    ("clubs", "get", lambda c: f"/api/v1/clubs/{c.event.club.slug}/events/", NONE, EVERYONE),
]


def check_endpoint(client: Client, cast: Cast, role: str, endpoint: Api, capture: Any) -> None:
    name, method, url, data, allowed = endpoint
    client.logout()
    login(client, cast, role)
    with capture(execute=False):
        response = getattr(client, method)(url(cast), data(cast), content_type="application/json")
    if role in allowed:
        assert response.status_code in (200, 201, 202), (
            name,
            role,
            response.status_code,
            response.content[:300],
        )
    elif role == "anonymous":
        assert response.status_code in (401, 403), name
    else:
        assert response.status_code == 403, (
            name,
            role,
            response.status_code,
            response.content[:300],
        )


GET_ENDPOINTS = [e for e in ENDPOINTS if e[1] == "get"]
WRITE_ENDPOINTS = [e for e in ENDPOINTS if e[1] != "get"]


@pytest.mark.parametrize("endpoint", GET_ENDPOINTS, ids=[e[0] for e in GET_ENDPOINTS])
def test_api_permissions_read(
    client: Client, cast: Cast, endpoint: Api, django_capture_on_commit_callbacks: Any
) -> None:
    """Reads change nothing, so one cast serves every role."""
    for role in ROLES:
        check_endpoint(client, cast, role, endpoint, django_capture_on_commit_callbacks)


@pytest.mark.parametrize("endpoint", WRITE_ENDPOINTS, ids=[e[0] for e in WRITE_ENDPOINTS])
def test_api_permissions_write(
    client: Client, cast: Cast, endpoint: Api, django_capture_on_commit_callbacks: Any
) -> None:
    """Each role acts on the same state: its changes are rolled back before the next."""
    for role in ROLES:
        with transaction.atomic():
            check_endpoint(client, cast, role, endpoint, django_capture_on_commit_callbacks)
            transaction.set_rollback(True)


@pytest.mark.parametrize("role", ROLES)
def test_api_draw_job_visible_to_staff_only(client: Client, cast: Cast, role: str) -> None:
    job = DrawJob.objects.create(event=cast.event, from_round=3, to_round=3, status="done")
    login(client, cast, role)
    response = client.get(f"/api/v1/draw-jobs/{job.pk}/")
    assert response.status_code == (
        200 if role in STAFF else 404 if role != "anonymous" else response.status_code
    )
    if role == "anonymous":
        assert response.status_code in (401, 403, 404)


def test_api_draft_event_is_404_for_outsiders(client: Client, cast: Cast) -> None:
    cast.event.status = "draft"
    cast.event.save()
    url = f"/api/v1/events/{cast.event.pk}/"
    for role in ("stranger", "player", "other_organiser", "anonymous", "referee"):
        client.logout()
        login(client, cast, role)
        assert client.get(url).status_code == 404, role
    login(client, cast, "staff")
    assert client.get(url).status_code == 200


def test_token_auth_works(client: Client, cast: Cast) -> None:
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=cast.organiser)
    response = client.get(
        f"/api/v1/events/{cast.event.pk}/registrations/", HTTP_AUTHORIZATION=f"Token {token.key}"
    )
    assert response.status_code == 200
    assert client.get(f"/api/v1/events/{cast.event.pk}/registrations/").status_code in (401, 403)
