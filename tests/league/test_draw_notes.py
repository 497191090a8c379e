"""A draw job's warnings and error are stored as codes and params and rendered in the
reader's language when read (the draw page, the dashboard, the page's JSON, the API);
rows written before codes migrate to legacy notes shown as stored (issue #16)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine.messages import PARAMS, Message, ParamKind, placeholders
from engine.seating import SeatingProblemError
from engine.texts import draws as engine_draws
from league.draws import services as draw_services
from league.draws.bridge import engine_note, kept_note
from league.engine_text.draws import ENGINE, LEAGUE
from league.errors import UserError
from league.events import lifecycle
from league.i18n import LEGACY, draw_note_text, engine_error_text
from league.models import DrawJob, Event
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    RefereeFactory,
    lay_out,
    registered_players,
)

LANGUAGES = ["en", "zh-hans", "es"]


def named(template: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", template))


# --- the table ------------------------------------------------------------------------------


def test_every_engine_draw_key_has_a_sentence_with_the_same_params() -> None:
    assert set(ENGINE) == set(engine_draws.TEMPLATES)
    with translation.override("en"):
        for key, template in engine_draws.TEMPLATES.items():
            assert named(str(ENGINE[key])) == set(placeholders(template)), key


SAMPLES: dict[ParamKind, Any] = {
    ParamKind.INT: 3,
    ParamKind.SEAT: 4,
    ParamKind.SEATS: [1, 7],
    ParamKind.INTS: [8, 9],
    ParamKind.PHASE: "night 2",
    ParamKind.TEXT: "ann",
    ParamKind.TEXTS: ["ann", "bob"],
    ParamKind.WORD: "x",
    ParamKind.WORDS: ["x"],
    ParamKind.DECIMAL: "1.5",
}
INNER = {"code": "referees.too_few", "params": {"round": 1, "tables": 3, "count": 2}}
LEAGUE_SAMPLES: dict[str, Any] = {
    "error": INNER,
    "problems": [INNER, {"code": "draw.no_players", "params": {}}],
    "tables": [
        {"round": 2, "table": 1, "why": "played"},
        {"round": 2, "table": 3, "why": "pinned"},
    ],
    "round": 2,
    "table": 4,
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_draw_key_renders_in_every_language(lang: str) -> None:
    with translation.override(lang):
        for key, template in {**ENGINE, **LEAGUE}.items():
            params: dict[str, Any] = {
                name: LEAGUE_SAMPLES[name] if key in LEAGUE else SAMPLES[PARAMS[name]]
                for name in named(str(template))
            }
            code, _, variant = key.partition("/")
            if variant:
                params["variant"] = variant
            text = draw_note_text({"code": code, "params": params})
            assert text and "%(" not in text and "{" not in text, (key, text)


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_every_draw_sentence_is_translated(lang: str) -> None:
    for key, template in {**ENGINE, **LEAGUE}.items():
        with translation.override("en"):
            english = str(template)
        with translation.override(lang):
            assert str(template) != english, key


def test_english_is_the_engines_word_for_word() -> None:
    with translation.override("en"):
        for key, template in engine_draws.TEMPLATES.items():
            params: dict[str, Any] = {n: SAMPLES[PARAMS[n]] for n in placeholders(template)}
            code, _, variant = key.partition("/")
            if variant:
                params["variant"] = variant
            english = template.format_map(
                {
                    k: ", ".join(map(str, v)) if isinstance(v, list) else str(v)
                    for k, v in params.items()
                }
            )
            assert draw_note_text({"code": code, "params": params}) == english, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_kept_tables_read_as_the_draw_pages_notice(lang: str) -> None:
    kept = [
        lifecycle.KeptTable(1, 2, 1, lifecycle.PLAYED),
        lifecycle.KeptTable(2, 2, 3, lifecycle.PINNED),
    ]
    stored = kept_note(kept)
    assert stored == {"code": "league.draw.kept", "params": {"tables": LEAGUE_SAMPLES["tables"]}}
    with translation.override(lang):
        assert draw_note_text(stored) == translation.gettext("Kept as they were: %(tables)s.") % {
            "tables": lifecycle.describe(kept)
        }
    if lang == "en":
        with translation.override(lang):
            assert draw_note_text(stored) == (
                "Kept as they were: round 2 table 1 (a game is recorded), round 2 table 3 "
                "(placed by hand)."
            )


def test_a_legacy_note_is_shown_as_stored_in_every_language() -> None:
    old = {"code": LEGACY, "params": {"text": "第1轮：共3桌，但只有2名法官"}}
    for lang in LANGUAGES:
        with translation.override(lang):
            assert draw_note_text(old) == "第1轮：共3桌，但只有2名法官"


def test_nothing_stored_reads_as_nothing() -> None:
    assert draw_note_text(None) == "" and draw_note_text({}) == ""


# --- draw jobs through the service, read in three languages ---------------------------------


@pytest.fixture
def organiser(db: None) -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club)


def draw(actor: Any, event: Event, capture: Any, **kwargs: Any) -> DrawJob:
    with capture(execute=True):
        job = draw_services.request_draw(actor, event, **kwargs)
    job.refresh_from_db()
    return job


def read_everywhere(organiser: Any, job: DrawJob, lang: str) -> dict[str, Any]:
    """The job as the draw page, the dashboard, the page's JSON and the API show it."""
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(organiser)
    api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    out = {
        "page": client.get(reverse("event-draw", args=[job.event_id])).content.decode(),
        "dashboard": client.get(reverse("event-dashboard", args=[job.event_id])).content.decode(),
        "json": client.get(reverse("draw-job", args=[job.event_id])).json(),
        "api": api.get(f"/api/v1/draw-jobs/{job.pk}/").json(),
    }
    Token.objects.filter(user=organiser).delete()
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_failed_draw_reads_in_the_readers_language(
    lang: str, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16, checked_in=False)
    with translation.override("zh-hans"):  # the language of the request changes nothing stored
        job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert job.status == "failed"
    assert job.error == {"code": "league.draw.no_checked_in", "params": {}}
    english = "Nobody is checked in yet: check players in, or draw all registered players."
    with translation.override(lang):
        expected = translation.gettext(english)
    assert (expected == english) == (lang == "en")
    seen = read_everywhere(organiser, job, lang)
    assert escape(expected) in seen["page"] and escape(expected) in seen["dashboard"]
    note = {"code": "league.draw.no_checked_in", "params": {}, "message": expected}
    assert seen["json"]["error"] == note and seen["api"]["error"] == note
    assert seen["api"]["warnings"] == [] and seen["json"]["warnings"] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_engine_refusal_is_stored_as_its_code_and_read_in_the_readers_language(
    lang: str, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 5)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert job.error == {
        "code": "draw.too_few_players",
        "params": {"round": 1, "count": 5, "min": 8},
    }
    with translation.override(lang):
        expected = str(ENGINE["draw.too_few_players"]) % {"round": 1, "count": 5, "min": 8}
    english = "round 1: 5 players present, fewer than the minimum table size 8"
    assert (expected == english) == (lang == "en"), expected
    seen = read_everywhere(organiser, job, lang)
    assert escape(expected) in seen["page"]
    assert seen["api"]["error"] == {**job.error, "message": expected}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_warnings_nest_the_engines_refusal_and_read_in_the_readers_language(
    lang: str, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16)  # two tables, one referee
    event.referees.add(RefereeFactory())
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert job.status == "done", job.error
    refused = {
        "code": "league.draw.referees_not_assigned",
        "params": {
            "error": {"code": "referees.too_few", "params": {"round": 1, "tables": 2, "count": 1}}
        },
    }
    assert refused in job.warnings
    assert all(set(w) == {"code", "params"} for w in job.warnings)
    with translation.override(lang):
        inner = str(ENGINE["referees.too_few"]) % {"round": 1, "tables": 2, "count": 1}
        expected = translation.gettext("Referees were not assigned: %(error)s") % {"error": inner}
    if lang == "en":
        assert expected == "Referees were not assigned: round 1: 2 tables but only 1 referees"
    else:
        assert not expected.startswith("Referees were not assigned")
    seen = read_everywhere(organiser, job, lang)
    assert escape(expected) in seen["page"]
    assert {**refused, "message": expected} in seen["api"]["warnings"]
    assert {**refused, "message": expected} in seen["json"]["warnings"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_draw_without_referees_says_so_in_the_readers_language(
    lang: str, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert {"code": "league.draw.no_referees", "params": {}} in job.warnings
    english = "The event lists no referees; tables have none."
    with translation.override(lang):
        expected = translation.gettext(english)
    assert (expected == english) == (lang == "en")
    seen = read_everywhere(organiser, job, lang)
    assert escape(expected) in seen["page"]
    messages = [w["message"] for w in seen["api"]["warnings"]]
    assert expected in messages
    with translation.override(lang):
        assert messages == job.warning_texts()


# --- refusals shown at once: the engine's, by code, in the language of the request ----------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_assigning_too_few_referees_is_refused_in_the_readers_language(
    lang: str, organiser: Any, event: Event
) -> None:
    lay_out(event.rounds.get(number=1), registered_players(event, 16), status="draft")
    event.referees.add(RefereeFactory())
    with translation.override(lang), pytest.raises(UserError) as refused:
        draw_services.assign_referees(organiser, event, seed=1)
    assert refused.value.code == "referees"
    with translation.override(lang):  # said when read, in the reader's language
        expected = str(ENGINE["referees.too_few"]) % {"round": 1, "tables": 2, "count": 1}
        assert refused.value.message == expected
    if lang == "en":
        assert expected == "round 1: 2 tables but only 1 referees"


def test_several_problems_of_one_request_are_all_said() -> None:
    error = SeatingProblemError([Message("draw.no_players", {}), Message("draw.no_rounds", {})])
    stored = engine_note(error)
    assert stored == {
        "code": "league.draw.problems",
        "params": {
            "problems": [
                {"code": "draw.no_players", "params": {}},
                {"code": "draw.no_rounds", "params": {}},
            ]
        },
    }
    with translation.override("en"):
        assert draw_note_text(stored) == (
            "The draw was asked wrongly: no players; rounds must be at least 1"
        )
        assert engine_error_text(error) == "no players; rounds must be at least 1"


@pytest.mark.parametrize(
    ("why", "code", "english"),
    [
        (
            "bug",
            "league.draw.failed",
            "The draw failed because of an internal error; it has been logged.",
        ),
        (
            "queue",
            "league.draw.queue_down",
            "The task queue is unavailable; start the draw again in a minute.",
        ),
    ],
)
def test_a_draw_the_league_could_not_run_says_why_in_every_language(
    why: str,
    code: str,
    english: str,
    organiser: Any,
    event: Event,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    registered_players(event, 16)
    if why == "bug":

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr("league.draws.bridge.engine_draw", broken)
    else:
        monkeypatch.setattr("league.outages.enqueue", lambda task, *args: False)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert job.status == "failed" and job.error == {"code": code, "params": {}}
    for lang in LANGUAGES:
        with translation.override(lang):
            assert job.error_text() == translation.gettext(english)
            assert (job.error_text() == english) == (lang == "en")
