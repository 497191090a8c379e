"""A league refusal is one :class:`UserError` (code, params, status), answered in one
place per kind of request: the API's exception handler (the status, with ``detail``,
``code`` and ``params``), and the page middleware (after a POST: the sentence as a
message and back where the form was; a refused page: ``user_error.html`` with the status).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from league.errors import UserError, every_problem
from league.events import conflicts as event_conflicts
from league.events import services as event_services
from league.models import Event, Round
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RegistrationFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club, status="draft")


def api_for(user: Any, lang: str = "en") -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    api.force_authenticate(user)
    return api


# --- the type -------------------------------------------------------------------------------


def test_the_sentence_is_rendered_from_params_when_read() -> None:
    error = UserError(
        translation.gettext_lazy("Round %(n)s is %(status)s and cannot become %(to)s."),
        code="bad_transition",
        params={"n": 2, "status": Round.Status.NONE, "to": Round.Status.CONFIRMED},
        status=409,
    )
    with translation.override("en"):
        assert error.message == "Round 2 is not drawn and cannot become confirmed."
    with translation.override("es"):
        gettext = translation.gettext
        assert error.message == gettext("Round %(n)s is %(status)s and cannot become %(to)s.") % {
            "n": 2,
            "status": gettext("not drawn"),
            "to": gettext("confirmed"),
        }
        assert "sin sortear" in error.message
    # the API gives the plain values, whatever the reader's language
    assert error.data()["params"] == {"n": 2, "status": "none", "to": "confirmed"}
    assert (error.code, error.status) == ("bad_transition", 409)


def test_several_problems_are_one_refusal_saying_each() -> None:
    error = every_problem(
        [
            UserError("100% wrong.", code="a"),
            UserError("Between %(lo)s and %(hi)s.", code="b", params={"lo": 6, "hi": 17}),
        ],
        code="settings",
    )
    assert error.message == "100% wrong. Between 6 and 17."
    assert error.data()["params"] == {
        "problems": [{"code": "a", "params": {}}, {"code": "b", "params": {"lo": 6, "hi": 17}}]
    }


# --- the API: status, detail, code, params --------------------------------------------------


def test_an_api_refusal_answers_its_status_code_and_params(organiser: Any, event: Event) -> None:
    base = f"/api/v1/events/{event.pk}"
    bad = api_for(organiser).post(base + "/transition/", {"to": "finished"}, format="json")
    assert bad.status_code == 400
    assert bad.json() == {
        "detail": "An event cannot go from draft to finished.",
        "code": "bad_transition",
        "params": {"from": "draft", "to": "finished"},
    }
    # a state that refuses the action: 409, the status a param, its label in the sentence
    busy = api_for(organiser, "es").post(base + "/draws/", {"from_round": 1}, format="json")
    assert busy.status_code == 409
    body = busy.json()
    assert (body["code"], body["params"]) == ("status", {"status": "draft"})
    with translation.override("es"):
        assert body["detail"] == translation.gettext(
            "Open registration before drawing (the event is %(status)s)."
        ) % {"status": translation.gettext("draft")}
    assert "borrador" in body["detail"]


def test_a_round_move_refused_by_its_status_is_a_conflict(organiser: Any, event: Event) -> None:
    answer = api_for(organiser).post(f"/api/v1/events/{event.pk}/rounds/1/confirm/")
    assert answer.status_code == 409
    assert answer.json() == {
        "detail": "Round 1 is not drawn and cannot become confirmed.",
        "code": "bad_transition",
        "params": {"n": 1, "status": "none", "to": "confirmed"},
    }


def test_a_refused_permission_is_403_with_its_code(event: Event) -> None:
    event.status = "registration"  # published: seen by all, managed by its organisers
    event.save()
    answer = api_for(UserFactory()).post(
        f"/api/v1/events/{event.pk}/transition/", {"to": "running"}, format="json"
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "not_allowed"


def test_a_csv_refusal_keeps_its_problems_beside_code_and_params(
    organiser: Any, event: Event
) -> None:
    answer = api_for(organiser).post(
        f"/api/v1/events/{event.pk}/import/", {"text": "name,nick\nA,b\n"}, format="json"
    )
    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body["params"]) == ("csv", {})
    assert [p["code"] for p in body["problems"]] == ["csv.missing_columns"]


def test_every_setting_problem_is_listed_by_code(organiser: Any) -> None:
    club = organiser.organised_clubs.get().club
    answer = api_for(organiser).post(
        "/api/v1/events/",
        {
            "club": club.slug,
            "name": "Backwards",
            "starts_on": "2030-05-02",
            "ends_on": "2030-05-01",
            "rounds_count": 3,
            "min_table": 8,
            "max_table": 12,
            "ruleset": "nope",
        },
        format="json",
    )
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["code"] == "event_settings"
    assert [p["code"] for p in body["params"]["problems"]] == ["dates", "ruleset"]
    assert body["detail"].startswith("The event cannot end before it starts. Ruleset: ")
    # the engine's reason is data (its code and params), said in words only in ``detail``
    ruleset = body["params"]["problems"][1]["params"]
    assert ruleset["engine_code"] == "ruleset.unknown"
    assert ruleset["engine_params"]["ruleset"] == "nope"


# --- pages: a refused POST goes back with the message; a refused page has its status --------


def test_a_refused_page_action_says_why_and_goes_back(
    client: Client, organiser: Any, event: Event
) -> None:
    client.force_login(organiser)
    dashboard = reverse("event-dashboard", args=[event.pk])
    response = client.post(
        reverse("event-status", args=[event.pk]), {"to": "finished"}, HTTP_REFERER=dashboard
    )
    assert response.status_code == 302 and response["Location"] == dashboard
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert said == ["An event cannot go from draft to finished."]
    event.refresh_from_db()
    assert event.status == "draft"


def test_a_refused_page_action_in_the_readers_language(
    client: Client, organiser: Any, event: Event
) -> None:
    """The sentence is rendered when the middleware reads it, in the request's language."""
    event_services.transition_event(organiser, event, "registration")
    reg = RegistrationFactory(event=event)
    event_services.withdraw(organiser, reg)
    client.force_login(organiser)
    page = reverse("event-registrations", args=[event.pk])
    response = client.post(
        reverse("registration-check-in", args=[event.pk, reg.pk]),
        HTTP_REFERER=page,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 302 and response["Location"] == page
    with translation.override("es"):
        expected = translation.gettext("A withdrawn player cannot check in.")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [expected]


def test_a_refused_page_is_the_error_page_with_its_status(client: Client, event: Event) -> None:
    client.force_login(UserFactory())
    response = client.get(reverse("event-dashboard", args=[event.pk]))
    assert response.status_code == 403
    assert "user_error.html" in [t.name for t in response.templates]
    assert b'data-code="not_allowed"' in response.content
    assert b"You may not do this." in response.content


def test_a_post_refused_to_who_asks_is_the_error_page_too(client: Client, event: Event) -> None:
    """Going back would not help someone who may not do it: 403 and the error page."""
    event.status = "registration"
    event.save()
    reg = RegistrationFactory(event=event)
    client.force_login(UserFactory())
    response = client.post(reverse("registration-withdraw", args=[event.pk, reg.pk]))
    assert response.status_code == 403
    assert b'data-code="not_allowed"' in response.content
    reg.refresh_from_db()
    assert reg.status == "registered"


# --- services: the status says what kind of refusal it is ----------------------------------


def refused(status: int, code: str) -> Any:
    return pytest.raises(UserError, check=lambda e: (e.status, e.code) == (status, code))


def test_each_refusal_has_the_status_of_its_kind(organiser: Any, event: Event) -> None:
    a = PlayerFactory()
    with refused(400, "same_player"):
        event_conflicts.declare_player_conflict(organiser, event, a, a)
    event_services.transition_event(organiser, event, "registration")
    event_services.register_player(organiser, event, a)
    with refused(409, "already_registered"):
        event_services.register_player(organiser, event, a)
    with refused(409, "has_players"):
        event_services.transition_event(organiser, event, "draft")
    with refused(409, "slug_taken"):
        event_services.create_event(
            organiser,
            event.club,
            name="Again",
            slug=event.slug,
            starts_on=event.starts_on,
            ends_on=event.ends_on,
            rounds_count=2,
            min_table=8,
            max_table=12,
        )
    with refused(403, "not_allowed"):
        event_services.withdraw(UserFactory(), event.registrations.get())
