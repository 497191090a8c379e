"""A CSV import's problems are data (row, column, code, params), rendered in the reader's
language: the column is decided where the problem is found, never by reading the sentence
(issue #16: in 简体中文 and Español every handle error used to land under display_name)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.clubs import services as club_services
from league.errors import CsvImportError, ImportProblem, RowProblem, UserError
from league.events import imports as event_imports
from league.i18n import IMPORT_PROBLEMS, import_problem_text
from league.models import Event, Registration
from tests.league.factories import ClubOrganiserFactory, EventFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "zh-hans", "es"]

# row 2: no name; row 3: a handle with a space; row 4: no handle; row 5: a name too long
BAD = "display_name,handle\n,ok-handle\nName,bad handle\nOther,\n" + "N" * 121 + ",long\n"
EXPECTED = [
    (2, "display_name", "player.name_required"),
    (3, "handle", "player.handle_invalid"),
    (4, "handle", "player.handle_required"),
    (5, "display_name", "player.name_too_long"),
]
ENGLISH = {
    "player.name_required": "A display name is required.",
    "player.handle_invalid": (
        "A handle may hold only letters, digits, “-” and “_”, at most 60 characters."
    ),
    "player.handle_required": "A handle is required.",
    "player.name_too_long": "The display name is longer than 120 characters.",
}


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bad_handle_is_reported_under_handle_in_every_language(
    lang: str, organiser: Any, event: Event
) -> None:
    with translation.override(lang), pytest.raises(CsvImportError) as info:
        event_imports.import_players_csv(organiser, event, BAD)
    problems = info.value.problems
    assert all(isinstance(p, ImportProblem) for p in problems)
    assert [(p.row, p.column, getattr(p, "code", None)) for p in problems] == EXPECTED
    with translation.override(lang):
        for problem in problems:
            english = ENGLISH[getattr(problem, "code", "")]
            assert problem.message == translation.gettext(english)
            # the sentence is in the reader's language (not a copy of the English)
            assert (problem.message == english) == (lang == "en"), problem.message
    assert not Registration.objects.filter(event=event).exists()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_reports_import_problems_by_column_and_code_in_the_readers_language(
    lang: str, organiser: Any, event: Event
) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    answer = api.post(
        f"/api/v1/events/{event.pk}/import/",
        {"text": BAD},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert answer.status_code == 400
    problems = answer.json()["problems"]
    assert [(p["row"], p["column"], p["code"]) for p in problems] == EXPECTED
    assert all(p["params"] == {} for p in problems)
    with translation.override(lang):
        assert [p["message"] for p in problems] == [
            translation.gettext(ENGLISH[code]) for _r, _c, code in EXPECTED
        ]


def test_problems_with_params_keep_them_as_data(organiser: Any, event: Event) -> None:
    text = "display_name,handle,club\nAna,ana,\nDup,ana,\nX,x,nowhere\n"
    with translation.override("es"), pytest.raises(CsvImportError) as info:
        event_imports.import_players_csv(organiser, event, text)
    problems = info.value.problems
    assert all(isinstance(p, ImportProblem) for p in problems)
    got = [(p.row, p.column, p.code, p.params) for p in problems if isinstance(p, ImportProblem)]
    assert got == [
        (3, "handle", "csv.handle_repeated", {"handle": "ana", "row": 2}),
        (4, "club", "csv.no_club", {"slug": "nowhere"}),
    ]
    with translation.override("es"):
        repeated = translation.gettext("@%(handle)s repeats row %(row)s")
        assert repeated != "@%(handle)s repeats row %(row)s"
        assert problems[0].message == repeated % {"handle": "ana", "row": 2}


def test_a_missing_column_names_the_columns_as_data(organiser: Any, event: Event) -> None:
    with pytest.raises(CsvImportError) as info:
        event_imports.import_players_csv(organiser, event, "name,nick\nA,b\n")
    [problem] = info.value.problems
    assert isinstance(problem, ImportProblem)
    assert (problem.row, problem.column, problem.code) == (
        1,
        "display_name, handle",
        "csv.missing_columns",
    )
    assert problem.params == {"cols": ["display_name", "handle", "club"]}
    with translation.override("en"):
        assert problem.message == "missing column; the header must name display_name, handle, club"


def test_creating_one_player_says_every_field_problem_in_the_readers_language(
    organiser: Any,
) -> None:
    for lang in LANGUAGES:
        with translation.override(lang), pytest.raises(UserError) as info:
            club_services.create_player(organiser, display_name=" ", handle="")
        with translation.override(lang):
            assert info.value.message == " ".join(
                translation.gettext(ENGLISH[c])
                for c in ("player.name_required", "player.handle_required")
            )


@settings(max_examples=60, deadline=None)
@given(
    name=st.text(alphabet="ab Z", max_size=3) | st.just("x" * 121),
    handle=st.text(alphabet="ab -_", max_size=4) | st.just("h" * 61),
)
def test_every_player_problem_names_the_column_it_is_about(name: str, handle: str) -> None:
    found = club_services.player_problems(name, handle)
    for column, code in found:
        assert code in IMPORT_PROBLEMS
        assert column == ("handle" if code.startswith("player.handle") else "display_name")
    assert any(c == "display_name" for c, _ in found) == (
        not name.strip() or len(name.strip()) > 120
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_import_problem_renders_in_every_language(lang: str) -> None:
    sample = {"size": 300, "limit": 256, "cols": ["display_name", "handle"], "handle": "ana"}
    sample |= {"row": 2, "slug": "north", "name": "Ana", "existing": ["@ana"]}
    # the past-results import's problems (games.past_results_words) join the same table
    sample |= {"value": "x", "seat": 3, "game": 7, "roles": 11, "players": 12}
    sample |= {"choices": ["date", "event"], "violation": "seat 3 voted twice"}
    with translation.override(lang):
        for code in IMPORT_PROBLEMS:
            text = import_problem_text(code, sample)
            assert text and "%(" not in text, code


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_every_import_problem_is_translated(lang: str) -> None:
    for code, template in IMPORT_PROBLEMS.items():
        with translation.override("en"):
            english = str(template)
        with translation.override(lang):
            assert str(template) != english, code


def test_a_row_problem_reads_in_the_readers_language_and_a_file_problem_names_no_row() -> None:
    assert str(RowProblem(3, "handle", "bad")) == "row 3, handle: bad"
    assert str(RowProblem(0, "file", "too many rows")) == "the whole file: too many rows"
    with translation.override("es"):
        said = str(RowProblem(3, "handle", "bad"))
        assert said != "row 3, handle: bad" and "3" in said and "handle" in said
