"""Self-registration with a capacity and a waiting list (issue #18, item 4)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.db import IntegrityError, connection, connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from league.audit import AuditEntry
from league.clubs.profiles import save_language
from league.errors import UserError
from league.events import services, waitlist
from league.events.forms import EventForm
from league.events.imports import import_players_csv
from league.models import Event, Registration
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RegistrationFactory,
    UserFactory,
)

WAITLISTED = Registration.Status.WAITLISTED
REGISTERED = Registration.Status.REGISTERED


def _player_with_account(email: str = "") -> Any:
    user = UserFactory(email=email)
    return PlayerFactory(user=user)


@pytest.fixture
def full_event(db: None) -> Event:
    """Registration open, two places, both taken."""
    event = EventFactory(capacity=2)
    RegistrationFactory(event=event)
    RegistrationFactory(event=event)
    return event


def test_registering_when_full_joins_the_waiting_list_in_order(full_event: Event) -> None:
    first, second = _player_with_account(), _player_with_account()
    a = services.register_player(first.user, full_event, first)
    b = services.register_player(second.user, full_event, second)
    assert a.status == b.status == WAITLISTED
    assert (waitlist.position(a), waitlist.position(b)) == (1, 2)
    assert [r.pk for r in waitlist.waiting_list(full_event)] == [a.pk, b.pk]
    assert AuditEntry.objects.filter(action="registration.waitlist").count() == 2
    with pytest.raises(UserError) as exc:
        services.register_player(first.user, full_event, first)
    assert exc.value.code == "already_registered" and exc.value.status == 409


def test_no_capacity_means_no_waiting_list(db: None) -> None:
    event = EventFactory()
    for _ in range(5):
        p = _player_with_account()
        assert services.register_player(p.user, event, p).status == REGISTERED


def test_a_withdrawal_promotes_the_first_waiting_and_tells_them(
    full_event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    first, second = _player_with_account("first@example.org"), _player_with_account()
    a = services.register_player(first.user, full_event, first)
    b = services.register_player(second.user, full_event, second)
    leaving = Registration.objects.filter(event=full_event, status=REGISTERED).first()
    organiser = ClubOrganiserFactory(club=full_event.club).user
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.withdraw(organiser, leaving)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.status == REGISTERED and a.waitlisted_at is None
    assert [n["code"] for n in a.notices] == ["promoted"]
    assert b.status == WAITLISTED and waitlist.position(b) == 1
    assert waitlist.registered_count(full_event) == 2
    assert AuditEntry.objects.filter(action="registration.promote", target_id=a.pk).exists()
    assert len(callbacks) == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["first@example.org"]
    assert full_event.name in mail.outbox[0].subject
    assert "you are now registered" in mail.outbox[0].body


def test_the_mail_is_in_the_players_language_and_not_escaped(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    event = EventFactory(capacity=1, name="O'Brien & Co Open")
    RegistrationFactory(event=event)
    p = _player_with_account("es@example.org")
    save_language(p.user, "es")
    services.register_player(p.user, event, p)
    leaving = Registration.objects.get(event=event, status=REGISTERED)
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(ClubOrganiserFactory(club=event.club).user, leaving)
    (message,) = mail.outbox
    assert "O'Brien & Co Open" in message.subject and "&amp;" not in message.body
    with translation.override("es"):
        expected = translation.gettext("A place is yours: %(event)s") % {"event": event.name}
    assert message.subject == expected


def test_no_mail_without_an_address_and_none_when_a_waiting_player_leaves(
    full_event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    first, second = _player_with_account(), _player_with_account("second@example.org")
    a = services.register_player(first.user, full_event, first)
    b = services.register_player(second.user, full_event, second)
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(first.user, a)  # a waiting player leaves: no place freed
    b.refresh_from_db()
    assert b.status == WAITLISTED and waitlist.position(b) == 1
    assert mail.outbox == []
    leaving = Registration.objects.filter(event=full_event, status=REGISTERED).first()
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(ClubOrganiserFactory(club=full_event.club).user, leaving)
    b.refresh_from_db()
    assert b.status == REGISTERED
    assert [m.to for m in mail.outbox] == [["second@example.org"]]


def test_more_places_promote_in_order(full_event: Event) -> None:
    waiting = []
    for _ in range(3):
        p = _player_with_account()
        waiting.append(services.register_player(p.user, full_event, p))
    organiser = ClubOrganiserFactory(club=full_event.club).user
    services.update_event(organiser, full_event, capacity=4)
    statuses = [Registration.objects.get(pk=r.pk).status for r in waiting]
    assert statuses == [REGISTERED, REGISTERED, WAITLISTED]


def test_a_waiting_player_cannot_be_checked_in(full_event: Event) -> None:
    p = _player_with_account()
    reg = services.register_player(p.user, full_event, p)
    organiser = ClubOrganiserFactory(club=full_event.club).user
    with pytest.raises(UserError) as exc:
        services.check_in(organiser, reg)
    assert exc.value.code == "waitlisted" and exc.value.status == 409


def test_the_database_refuses_a_waiting_registration_without_its_time(full_event: Event) -> None:
    reg = RegistrationFactory(event=full_event)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.filter(pk=reg.pk).update(status=WAITLISTED, waitlisted_at=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.filter(pk=full_event.pk).update(capacity=0)


def test_the_page_says_the_place_on_the_waiting_list(full_event: Event, client: Client) -> None:
    p = _player_with_account()
    client.force_login(p.user)
    url = reverse("register-self", args=[full_event.club.slug, full_event.slug])
    response = client.post(url)
    assert response.status_code == 302
    text = [str(m) for m in get_messages(response.wsgi_request)]
    assert text == ["The event is full: you are number 1 on the waiting list."]
    page = client.get(reverse("public-event", args=[full_event.club.slug, full_event.slug]))
    assert b"You are number 1 on the waiting list." in page.content
    assert b"2 of 2 places taken." in page.content


def test_organisers_see_the_waiting_list(full_event: Event, client: Client) -> None:
    p = _player_with_account()
    services.register_player(p.user, full_event, p)
    client.force_login(ClubOrganiserFactory(club=full_event.club).user)
    page = client.get(reverse("event-registrations", args=[full_event.pk])).content.decode()
    assert 'id="waiting-list"' in page and p.display_name in page
    assert "2 of 2 places taken; 1 on the waiting list." in page


def test_registration_closed_refuses_self_registration(db: None) -> None:
    event = EventFactory(capacity=1, registration_closes=timezone.now())
    p = _player_with_account()
    with pytest.raises(UserError) as exc:
        services.register_player(p.user, event, p)
    assert exc.value.status == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks (select_for_update) need PostgreSQL; SQLite locks the whole file",
)
@pytest.mark.parametrize("racers", [2, 4])
def test_racing_for_the_last_place_never_goes_over_capacity(racers: int) -> None:
    event = EventFactory(capacity=2)
    RegistrationFactory(event=event)
    players = [_player_with_account() for _ in range(racers)]
    barrier = threading.Barrier(racers)
    results: list[Any] = [None] * racers
    original = waitlist.audit

    def slow_audit(*a: Any, **k: Any) -> Any:
        time.sleep(0.2)  # the winner holds the lock a while: the others really wait
        return original(*a, **k)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = services.register_player(players[i].user, event, players[i])
        except Exception as e:
            results[i] = e
        finally:
            connections.close_all()

    services.audit = slow_audit  # type: ignore[attr-defined]
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(racers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        services.audit = original  # type: ignore[attr-defined]
    assert all(isinstance(r, Registration) for r in results), results
    assert sorted(r.status for r in results) == sorted([REGISTERED] + [WAITLISTED] * (racers - 1))
    assert Registration.objects.filter(event=event, status=REGISTERED).count() == 2
    positions = sorted(waitlist.position(r) for r in results if r.status == WAITLISTED)
    assert positions == list(range(1, racers))


def test_the_event_form_sets_places_and_the_check_in_window(
    full_event: Event, client: Client
) -> None:
    p = _player_with_account()
    waiting = services.register_player(p.user, full_event, p)
    client.force_login(ClubOrganiserFactory(club=full_event.club).user)
    url = reverse("event-edit", args=[full_event.pk])
    page = client.get(url).content.decode()
    assert 'name="capacity"' in page and 'name="check_in_opens_minutes"' in page
    data = {k: v for k, v in EventForm.initial_for(full_event).items() if v is not None}
    data.update(
        round_minutes=90,
        referees=[],
        first_round_at="",
        starts_on=full_event.starts_on.isoformat(),
        ends_on=full_event.ends_on.isoformat(),
    )
    data.update(capacity=3, check_in_opens_minutes=30, check_in_closes_minutes="")
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    full_event.refresh_from_db()
    assert (full_event.capacity, full_event.check_in_opens_minutes) == (3, 30)
    assert full_event.check_in_closes_minutes == 15  # left empty: unchanged
    waiting.refresh_from_db()
    assert waiting.status == REGISTERED  # the new place went to the waiting player


def test_the_event_api_shows_and_sets_the_capacity_and_promotes(full_event: Event) -> None:
    waiting = _player_with_account()
    services.register_player(waiting.user, full_event, waiting)
    organiser = ClubOrganiserFactory(club=full_event.club).user
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/events/{full_event.pk}/"
    shown = api.get(url).json()
    assert (shown["capacity"], shown["check_in_opens_minutes"]) == (2, 60)
    assert api.patch(url, {"capacity": 0}, format="json").status_code == 400
    raised = api.patch(url, {"capacity": 3, "check_in_closes_minutes": 30}, format="json")
    assert raised.status_code == 200, raised.json()
    assert (raised.json()["capacity"], raised.json()["check_in_closes_minutes"]) == (3, 30)
    assert Registration.objects.get(player=waiting).status == REGISTERED  # a place freed up


def test_a_csv_import_past_the_capacity_fills_the_waiting_list_in_file_order(
    full_event: Event,
) -> None:
    organiser = ClubOrganiserFactory(club=full_event.club).user
    full_event.capacity = 3
    full_event.save(update_fields=["capacity"])
    rows = "display_name,handle\nAda,ada\nBo,bo\nCy,cy\n"
    result = import_players_csv(organiser, full_event, rows, check_in=True)
    assert (result.registered, result.waitlisted, result.checked_in) == (1, 2, 1)
    ada, bo, cy = (Registration.objects.get(player__handle=h) for h in ("ada", "bo", "cy"))
    assert ada.status == REGISTERED and ada.checked_in_at is not None
    assert [r.pk for r in waitlist.waiting_list(full_event)] == [bo.pk, cy.pk]
    assert bo.checked_in_at is None and waitlist.position(cy) == 2
