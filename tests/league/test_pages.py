"""Organiser and public pages: the whole set-up flow through the site."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Registration, Round
from tests.league.factories import ClubOrganiserFactory, EventFactory, registered_players

pytestmark = pytest.mark.django_db

#: An event form's fields for a two-round evening (add a name).
NIGHT = {
    "starts_on": "2030-03-01",
    "ends_on": "2030-03-01",
    "ruleset": "classic",
    "scoring_profile": "club-v1",
    "rounds_count": 2,
    "min_table": 8,
    "max_table": 12,
    "round_minutes": 90,
}


@pytest.fixture
def organiser_client(client: Client) -> tuple[Client, Any]:
    org = ClubOrganiserFactory()
    client.force_login(org.user)
    return client, org


def test_organiser_runs_set_up_end_to_end(
    organiser_client: tuple[Client, Any], django_capture_on_commit_callbacks: Any
) -> None:
    client, org = organiser_client
    today = timezone.localdate()
    response = client.post(
        reverse("event-create", args=[org.club.slug]),
        {
            "name": "Winter Cup 冬季杯",
            "slug": "winter-cup",
            "venue": "Hall",
            "starts_on": today.isoformat(),
            "ends_on": today.isoformat(),
            "ruleset": "classic",
            "scoring_profile": "club-v1",
            "tiebreak_precedence": "points, wins, lots",
            "rounds_count": 3,
            "min_table": 8,
            "max_table": 12,
            "first_round_at": f"{today.isoformat()}T10:00",
            "round_minutes": 90,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug="winter-cup")
    assert [r.starts_at.hour for r in event.rounds.order_by("number")] == [10, 11, 13]
    client.post(reverse("event-status", args=[event.pk]), {"to": "registration"})
    rows = "display_name,handle\n" + "".join(f"玩家{i},p{i}\n" for i in range(20))
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("registration-import", args=[event.pk]),
        {"file": SimpleUploadedFile("p.csv", rows.encode()), "check_in": "on"},
    )
    assert response.status_code == 302
    assert Registration.objects.filter(event=event, checked_in_at__isnull=False).count() == 20
    page = client.get(reverse("event-registrations", args=[event.pk]), {"q": "p1"})
    assert "玩家1" in page.content.decode() and "玩家2<" not in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("draw-start", args=[event.pk]), {"from_round": 1, "checked_in_only": "on"}
        )
    assert response.status_code == 302
    page = client.get(reverse("event-draw", args=[event.pk])).content.decode()
    assert "repeat meetings" in page and "Round 3" in page
    client.post(reverse("round-action", args=[event.pk, 1, "confirm"]))
    client.post(reverse("round-action", args=[event.pk, 1, "release"]))
    assert Round.objects.get(event=event, number=1).status == "released"
    for name in ("sheet-tables", "sheet-players", "event-dashboard"):
        assert client.get(reverse(name, args=[event.pk])).status_code == 200
    csv_text = client.get(reverse("draw-csv", args=[event.pk])).content.decode("utf-8-sig")
    assert len(csv_text.strip().splitlines()) == 1 + 3 * 20
    anon = Client()
    public = anon.get(reverse("public-event", args=[org.club.slug, "winter-cup"]))
    assert public.status_code == 200
    assert (
        anon.get(reverse("public-round", args=[org.club.slug, "winter-cup", 1])).status_code == 200
    )
    assert (
        anon.get(reverse("public-round", args=[org.club.slug, "winter-cup", 2])).status_code == 404
    )


def test_csv_import_page_shows_row_problems(organiser_client: tuple[Client, Any]) -> None:
    client, org = organiser_client
    event = EventFactory(club=org.club)
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = "display_name,handle\nA,a\n,b\nC,c d\n"
    response = client.post(
        reverse("registration-import", args=[event.pk]),
        {"file": SimpleUploadedFile("p.csv", bad.encode())},
    )
    body = response.content.decode()
    assert response.status_code == 200 and "import-problems" in body
    assert not Registration.objects.filter(event=event).exists()


def test_ics_feed(client: Client) -> None:
    event = EventFactory(name="Spring, Open; 春")
    response = client.get(reverse("club-calendar", args=[event.club.slug]))
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/calendar")
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
    assert body.count("BEGIN:VEVENT") == 3
    assert "Spring\\, Open\\; 春" in body
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    draft = EventFactory(club=event.club, status="draft", name="Secret")
    assert (
        "Secret"
        not in client.get(reverse("club-calendar", args=[draft.club.slug])).content.decode()
    )


def test_check_in_from_phone_list(organiser_client: tuple[Client, Any]) -> None:
    client, org = organiser_client
    event = EventFactory(club=org.club)
    registered_players(event, 2, checked_in=False)
    reg = Registration.objects.filter(event=event).first()
    assert reg is not None
    url = reverse("registration-check-in", args=[event.pk, reg.pk])
    response = client.post(url, {"next": reverse("event-registrations", args=[event.pk]) + "?q=x"})
    assert response.status_code == 302 and response["Location"].endswith("?q=x")
    reg.refresh_from_db()
    assert reg.checked_in_at is not None


def test_player_registers_and_withdraws_on_the_public_page(client: Client) -> None:
    from tests.league.factories import PlayerFactory, UserFactory

    event = EventFactory()
    user = UserFactory()
    PlayerFactory(user=user)
    client.force_login(user)
    url = reverse("public-event", args=[event.club.slug, event.slug])
    assert "Register me" in client.get(url).content.decode()
    client.post(reverse("register-self", args=[event.club.slug, event.slug]))
    page = client.get(url).content.decode()
    assert "You are registered." in page
    reg = Registration.objects.get(event=event, player__user=user)
    response = client.post(reverse("registration-withdraw", args=[event.pk, reg.pk]))
    assert response.status_code == 302 and response["Location"] == url
    reg.refresh_from_db()
    assert reg.status == "withdrawn"


def test_admin_lists_league_models(admin_client: Client) -> None:
    for model in ("club", "player", "referee", "event", "auditentry"):
        assert admin_client.get(f"/admin/league/{model}/").status_code == 200


def test_check_in_without_reload_answers_json(organiser_client: tuple[Client, Any]) -> None:
    client, org = organiser_client
    event = EventFactory(club=org.club)
    registered_players(event, 3, checked_in=False)
    reg = Registration.objects.filter(event=event).first()
    assert reg is not None
    url = reverse("registration-check-in", args=[event.pk, reg.pk])
    data = client.post(url, HTTP_X_REQUESTED_WITH="fetch").json()
    assert data == {
        "checked_in": True,
        "counts": {"registered": 3, "checked_in": 1, "withdrawn": 0},
    }
    data = client.post(url, {"undo": "1"}, HTTP_X_REQUESTED_WITH="fetch").json()
    assert data["checked_in"] is False


def test_a_page_that_fails_after_taking_the_club_time_zone_still_gives_it_back(
    client: Client,
) -> None:
    from django.utils import timezone as tz

    from tests.league.factories import EventFactory

    event = EventFactory(club__timezone="Asia/Shanghai")
    event.status = Event.Status.REGISTRATION
    event.save()
    url = reverse("public-round", args=[event.club.slug, event.slug, 9])
    assert client.get(url).status_code == 404  # the event is found, its round 9 is not
    assert tz.get_current_timezone_name() == "UTC"


def test_times_are_read_and_shown_in_the_club_time_zone(
    organiser_client: tuple[Client, Any],
) -> None:
    client, org = organiser_client
    org.club.timezone = "Asia/Shanghai"
    org.club.save()
    response = client.post(
        reverse("event-create", args=[org.club.slug]),
        {**NIGHT, "name": "Beijing Night", "first_round_at": "2030-03-01T19:30"},
    )
    assert response.status_code == 302
    event = Event.objects.get(slug="beijing-night")
    first = event.rounds.get(number=1).starts_at
    assert first is not None and (first.hour, first.minute) == (11, 30)  # UTC
    page = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
    assert "Asia/Shanghai" in page and 'value="2030-03-01T19:30"' in page
    ics = client.get(reverse("club-calendar", args=[org.club.slug])).content.decode()
    assert "DTSTART:20300301T113000Z" not in ics  # draft event: not in the feed
    event.status = Event.Status.REGISTRATION
    event.save()
    ics = client.get(reverse("club-calendar", args=[org.club.slug])).content.decode()
    assert "DTSTART:20300301T113000Z" in ics  # 19:30 in Beijing, in UTC
    from django.utils import timezone as tz

    assert tz.get_current_timezone_name() == "UTC"  # switched back after the request


def test_event_form_offers_the_extra_meeting_checked_and_the_dashboard_says_which(
    organiser_client: tuple[Client, Any],
) -> None:
    client, org = organiser_client
    form = client.get(reverse("event-create", args=[org.club.slug])).content.decode()
    box = form[
        form.index('name="allow_extra_meeting"') - 200 : form.index('name="allow_extra_meeting"')
        + 200
    ]
    assert 'type="checkbox"' in box and "checked" in box
    for name, box_value, text in (
        ("Even Night", {"allow_extra_meeting": "on"}, "fewest in all"),
        ("Strict Night", {}, "no pair above the least maximum"),
    ):
        response = client.post(
            reverse("event-create", args=[org.club.slug]), {"name": name, **NIGHT, **box_value}
        )
        assert response.status_code == 302
        event = Event.objects.get(name=name)
        assert event.allow_extra_meeting is bool(box_value)
        page = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
        assert f'id="event-meetings">{text}' in page
    # the percentage is the engine's, written out in every language
    assert "over 5 % more repeat meetings" in form
    dashboard = reverse("event-dashboard", args=[Event.objects.get(name="Even Night").pk])
    assert "over 5 % more even" in client.get(dashboard).content.decode()
    spanish = client.get(dashboard, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "más de un 5 % más parejo" in spanish


def test_draw_page_shows_a_running_draw_and_sheets_list_everyone(
    organiser_client: tuple[Client, Any],
) -> None:
    from league.models import DrawJob
    from tests.league.factories import lay_out

    client, org = organiser_client
    event = EventFactory(club=org.club, rounds_count=2)
    players = registered_players(event, 16)
    lay_out(event.rounds.get(number=1), players)
    DrawJob.objects.create(event=event, from_round=2, to_round=2, status="running", progress=0.4)
    page = client.get(reverse("event-draw", args=[event.pk])).content.decode()
    assert 'id="job-progress"' in page and 'value="0.4"' in page
    job = client.get(reverse("draw-job", args=[event.pk])).json()
    assert job["status"] == "running" and job["progress"] == 0.4
    tables = client.get(reverse("sheet-tables", args=[event.pk])).content.decode()
    assert tables.count('class="sheet"') == 2
    assert all(p.display_name in tables for p in players)
    sheet = client.get(reverse("sheet-players", args=[event.pk])).content.decode()
    assert sheet.count("<tr><td>") == 16 and "1·1" in sheet


def test_event_edit_page_saves_through_the_service(organiser_client: tuple[Client, Any]) -> None:
    client, org = organiser_client
    event = EventFactory(club=org.club, rounds_count=3)
    from league.events.forms import EventForm

    data = {k: v for k, v in EventForm.initial_for(event).items() if v is not None}
    data.update(
        {
            "venue": "New hall",
            "rounds_count": 4,
            "round_minutes": 90,
            "referees": [],
            "first_round_at": "",
            "starts_on": event.starts_on.isoformat(),
            "ends_on": event.ends_on.isoformat(),
        }
    )
    data.pop("registration_opens", None)
    data.pop("registration_closes", None)
    response = client.post(reverse("event-edit", args=[event.pk]), data)
    assert response.status_code == 302, response.content.decode()[:1500]
    event.refresh_from_db()
    assert event.venue == "New hall" and event.rounds.count() == 4
    data["max_table"] = 30
    response = client.post(reverse("event-edit", args=[event.pk]), data)
    assert response.status_code == 200  # the form shows the error, nothing saved
