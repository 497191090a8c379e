"""A CSV import warns about likely duplicates before creating anyone (issue #18): a new
row whose name folds (accents, case, spacing, pinyin) to an existing player's is a
problem by row and column, with a code and params, and nothing is created until the
organiser gives the existing handle or writes yes in the ``new`` column."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.errors import CsvImportError, ImportProblem
from league.events import imports as event_imports
from league.models import Event, Player, Registration
from tests.league.factories import ClubOrganiserFactory, EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db

LIKELY = (
    "“%(name)s” (@%(handle)s) may already exist as %(existing)s: give that handle to "
    "register them, or write yes in a “new” column to create another player"
)


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club)


def _problems(organiser: Any, event: Event, text: str) -> list[ImportProblem]:
    with pytest.raises(CsvImportError) as info:
        event_imports.import_players_csv(organiser, event, text)
    problems = [p for p in info.value.problems if isinstance(p, ImportProblem)]
    assert len(problems) == len(info.value.problems)
    return problems


@pytest.mark.parametrize(
    ("existing", "new"),
    [("Liu Yang", "刘洋"), ("刘洋", "liu yang"), ("jose nunez", "José Núñez"), ("ANA", "Ána")],
)
def test_a_likely_duplicate_stops_the_import(
    organiser: Any, event: Event, existing: str, new: str
) -> None:
    PlayerFactory(display_name=existing, handle="known")
    problems = _problems(organiser, event, f"display_name,handle\nOther,other\n{new},fresh\n")
    assert [(p.row, p.column, p.code, dict(p.params)) for p in problems] == [
        (
            3,
            "display_name",
            "csv.likely_duplicate",
            {"name": new, "handle": "fresh", "existing": ["@known"]},
        )
    ]
    assert Player.objects.count() == 1  # nobody created, not even the other row
    assert not Registration.objects.exists()


def test_every_existing_namesake_is_named(organiser: Any, event: Event) -> None:
    PlayerFactory(display_name="刘洋", handle="liu-yang")
    PlayerFactory(display_name="Liu Yang", handle="liu-yang-2")
    [problem] = _problems(organiser, event, "display_name,handle\n刘 洋,liuyang3\n")
    assert problem.params["existing"] == ["@liu-yang", "@liu-yang-2"]
    with translation.override("en"):
        assert problem.message == (
            "“刘 洋” (@liuyang3) may already exist as @liu-yang, @liu-yang-2: give that handle "
            "to register them, or write yes in a “new” column to create another player"
        )


def test_giving_the_existing_handle_registers_the_existing_player(
    organiser: Any, event: Event
) -> None:
    known = PlayerFactory(display_name="Liu Yang", handle="liu-yang")
    result = event_imports.import_players_csv(
        organiser, event, "display_name,handle\n刘洋,liu-yang\n"
    )
    assert (result.created, result.existing, result.registered) == (0, 1, 1)
    assert Registration.objects.get(event=event).player == known


def test_yes_in_the_new_column_creates_another_player(organiser: Any, event: Event) -> None:
    PlayerFactory(display_name="Liu Yang", handle="liu-yang")
    text = "display_name,handle,new\n刘洋,liu-yang-2,yes\n"
    result = event_imports.import_players_csv(organiser, event, text)
    assert result.created == 1
    assert Player.objects.filter(display_name="刘洋", handle="liu-yang-2").exists()


def test_two_new_rows_of_one_name_are_flagged(organiser: Any, event: Event) -> None:
    text = "display_name,handle,new\nJosé Núñez,jose,\njose nunez,jose-2,\nAna,ana,\n"
    problems = _problems(organiser, event, text)
    assert [(p.row, p.column, p.code, dict(p.params)) for p in problems] == [
        (
            3,
            "display_name",
            "csv.likely_duplicate_row",
            {"name": "jose nunez", "handle": "jose-2", "row": 2},
        )
    ]
    text = "display_name,handle,new\nJosé Núñez,jose,\njose nunez,jose-2,yes\n"
    assert event_imports.import_players_csv(organiser, event, text).created == 2


def test_different_names_are_not_flagged(organiser: Any, event: Event) -> None:
    PlayerFactory(display_name="Liu Yang", handle="liu-yang")
    PlayerFactory(display_name="王芳", handle="wang-fang")
    text = "display_name,handle\n刘洋洋,lyy\nWang Fan,wang-fan\n"
    assert event_imports.import_players_csv(organiser, event, text).created == 2


@pytest.mark.parametrize("lang", ["en", "zh-hans", "es"])
def test_the_warning_is_rendered_by_code_in_the_readers_language(
    lang: str, organiser: Any, event: Event
) -> None:
    PlayerFactory(display_name="Liu Yang", handle="liu-yang")
    params = {"name": "刘洋", "handle": "ly", "existing": "@liu-yang"}
    with translation.override(lang):
        [problem] = _problems(organiser, event, "display_name,handle\n刘洋,ly\n")
        assert problem.code == "csv.likely_duplicate"
        assert problem.message == translation.gettext(LIKELY) % params


@pytest.mark.parametrize("lang", ["en", "zh-hans", "es"])
def test_the_api_reports_the_warning_and_creates_nobody(
    lang: str, organiser: Any, event: Event
) -> None:
    PlayerFactory(display_name="José Núñez", handle="jose")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    url = f"/api/v1/events/{event.pk}/import/"
    answer = api.post(
        url,
        {"text": "display_name,handle\njose nunez,jn\n"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert answer.status_code == 400
    [problem] = answer.json()["problems"]
    assert (problem["row"], problem["column"], problem["code"]) == (
        2,
        "display_name",
        "csv.likely_duplicate",
    )
    assert problem["params"] == {"name": "jose nunez", "handle": "jn", "existing": ["@jose"]}
    with translation.override(lang):
        params = {"name": "jose nunez", "handle": "jn", "existing": "@jose"}
        assert problem["message"] == translation.gettext(LIKELY) % params
    assert Player.objects.count() == 1
    answer = api.post(url, {"text": "display_name,handle,new\njose nunez,jn,yes\n"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert Player.objects.count() == 2


def test_the_page_lists_the_warning(client: Any, organiser: Any, event: Event) -> None:
    PlayerFactory(display_name="Liu Yang", handle="liu-yang")
    client.force_login(organiser)
    data = {"file": _upload("display_name,handle\n刘洋,ly\n")}
    page = client.post(reverse("registration-import", kwargs={"pk": event.pk}), data)
    assert page.status_code == 200
    html = page.content.decode()
    assert "import-problems" in html and "@liu-yang" in html
    assert Player.objects.count() == 1


def _upload(text: str) -> Any:
    return SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
