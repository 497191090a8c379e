"""Notifications by e-mail (issue #18 item 6): a released round tells each seated player
their table and seat, in their language, by a task after the commit, once; the profile
page saves which e-mails a user wants; the waiting-list e-mail respects its choice."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from league.clubs.profiles import (
    Notification,
    Preferences,
    notification_choices,
    save_language,
    save_notifications,
)
from league.draws import services as draw_services
from league.draws import tasks
from league.engine_text.games import WORDS
from league.events import services as event_services
from league.models import Event, Registration, Round, Seat
from tests.league.factories import (
    PASSWORD,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    RegistrationFactory,
    UserFactory,
    lay_out,
)

ROLES = ("killer", "police", "civilian")


def role_words() -> set[str]:
    """Every role's name in English, Chinese and Spanish (none may appear in an e-mail)."""
    words = set(ROLES)
    for lang in ("zh-hans", "es"):
        with translation.override(lang):
            words |= {str(WORDS[r]) for r in ROLES}
    return {w.lower() for w in words}


@pytest.fixture
def confirmed_round(db: None) -> dict[str, Any]:
    """A running event whose round 1 is confirmed: 8 players at one table, 4 of them with
    an account (a Chinese, a Spanish, an English speaker, one who turned the e-mail off)
    and one account without an address."""
    event = EventFactory(status=Event.Status.RUNNING)
    event.club.timezone = "Asia/Shanghai"
    event.club.save()
    organiser = ClubOrganiserFactory(club=event.club).user
    users = {
        "zh": UserFactory(username="zh"),
        "es": UserFactory(username="es"),
        "en": UserFactory(username="en"),
        "off": UserFactory(username="off"),
        "noaddress": UserFactory(username="noaddress", email=""),
    }
    save_language(users["zh"], "zh-hans")
    save_language(users["es"], "es")
    save_notifications(users["off"], notify_round_released=False)
    players = [PlayerFactory(user=u) for u in users.values()] + PlayerFactory.create_batch(3)
    for p in players:
        RegistrationFactory(event=event, player=p)
    rnd = event.rounds.get(number=1)
    rnd.starts_at = dt.datetime(2030, 12, 9, 10, 0, tzinfo=dt.UTC)
    (table,) = lay_out(rnd, players, status="confirmed")
    table.referee = RefereeFactory(user=UserFactory(first_name="Wang", last_name="Fang"))
    table.save()
    return {"event": event, "round": rnd, "organiser": organiser, "users": users}


def _seat(rnd: Round, username: str) -> Seat:
    return Seat.objects.select_related("table").get(round=rnd, player__user__username=username)


def test_a_released_round_mails_each_seated_player_once_in_their_language(
    confirmed_round: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    rnd = confirmed_round["round"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        draw_services.release_round(confirmed_round["organiser"], rnd)
    assert mail.outbox == []  # nothing is sent in the request itself
    assert len(callbacks) == 1
    callbacks[0]()  # the commit: the task runs (eagerly, in the tests)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert sorted(by_address) == ["en@example.org", "es@example.org", "zh@example.org"]
    assert len(mail.outbox) == 3
    zh, es, en = (
        by_address["zh@example.org"],
        by_address["es@example.org"],
        by_address["en@example.org"],
    )
    for username, message in (("zh", zh), ("es", es), ("en", en)):
        seat = _seat(rnd, username)
        assert f"{seat.table.number}" in message.subject and f"{seat.number}" in message.subject
        assert f"{seat.number}" in message.body and "Wang Fang" in message.body
        assert confirmed_round["event"].name in message.subject
    # each in its reader's language: the start's date at least (our new sentences are
    # translated once /tmp/notify_translations.json is merged into locale/)
    assert "年" in zh.body and "diciembre" in es.body and "Dec." in en.body, es.body
    assert "Table: 1" in en.body and "Seat: 3" in en.body
    # the start in the club's time zone (10:00 UTC is 18:00 in Shanghai)
    assert "18:00" in zh.body and "Asia/Shanghai" in zh.body  # the club's time zone
    assert "6 p.m. (Asia/Shanghai)" in en.body
    words = role_words()
    for message in mail.outbox:
        text = f"{message.subject}\n{message.body}".lower()
        assert not [w for w in words if w in text], text


def test_a_retried_task_sends_nobody_twice(
    confirmed_round: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    rnd = confirmed_round["round"]
    with django_capture_on_commit_callbacks(execute=True):
        draw_services.release_round(confirmed_round["organiser"], rnd)
    assert len(mail.outbox) == 3
    assert tasks.notify_round_released.apply(args=[rnd.pk]).get() == 0
    assert len(mail.outbox) == 3
    assert Notification.objects.filter(kind="round_released", object_id=rnd.pk).count() == 3


def test_a_refused_mail_is_not_logged_so_a_retry_sends_it(
    confirmed_round: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = confirmed_round["round"]
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.RELEASED, released_at=timezone.now())
    monkeypatch.setattr("league.draws.notify.send_rendered", lambda *a, **k: False)
    assert tasks.notify_round_released(rnd.pk) == 0
    assert not Notification.objects.exists()
    monkeypatch.undo()
    assert tasks.notify_round_released(rnd.pk) == 3


def test_an_unreleased_round_mails_nobody(confirmed_round: dict[str, Any]) -> None:
    assert tasks.notify_round_released(confirmed_round["round"].pk) == 0
    assert mail.outbox == []


def test_the_profile_page_saves_the_three_choices(db: None) -> None:
    user = UserFactory()
    c = Client()
    c.login(username=user.username, password=PASSWORD)
    page = c.get(reverse("my-profile")).content.decode()
    assert "notify_round_released" in page and "notify_waitlist" in page
    assert notification_choices(user) == {
        "notify_round_released": True,
        "notify_game_results": True,
        "notify_waitlist": True,
    }
    response = c.post(
        reverse("my-profile"), {"save_notifications": "1", "notify_game_results": "on"}
    )
    assert response.status_code == 302
    assert notification_choices(user) == {
        "notify_round_released": False,
        "notify_game_results": True,
        "notify_waitlist": False,
    }
    # and for a linked player too, without touching their name or language
    player = PlayerFactory(user=user, display_name="Li")
    c.post(reverse("my-profile"), {"save_notifications": "1", "notify_waitlist": "on"})
    assert notification_choices(user)["notify_waitlist"] is True
    assert notification_choices(user)["notify_game_results"] is False
    player.refresh_from_db()
    assert player.display_name == "Li"
    assert Preferences.objects.filter(user=user).count() == 1


def test_the_waiting_list_mail_respects_the_choice(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    event = EventFactory(capacity=2)
    RegistrationFactory(event=event)
    leaving = RegistrationFactory(event=event)
    wants = PlayerFactory(user=UserFactory(username="wants"))
    declines = PlayerFactory(user=UserFactory(username="declines"))
    save_notifications(declines.user, notify_waitlist=False)
    event_services.register_player(declines.user, event, declines)
    event_services.register_player(wants.user, event, wants)
    organiser = ClubOrganiserFactory(club=event.club).user
    with django_capture_on_commit_callbacks(execute=True):
        event_services.withdraw(organiser, leaving)  # promotes "declines": no e-mail
    assert Registration.objects.get(player=declines).status == Registration.Status.REGISTERED
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        event_services.withdraw(organiser, Registration.objects.get(player=declines))
    assert [m.to for m in mail.outbox] == [["wants@example.org"]]
