"""Club and event archives (issue #22): the round trip into an empty database, the public
variant's secrecy, idempotent re-import, refused files, the pages and the commands."""

from __future__ import annotations

import difflib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, TestCase
from django.urls import reverse

from games.models import Game, GameVersion
from games.services import submit_record
from league.events.services import transition_event
from league.models import Club, Event
from results.archives.digest import results_digest
from results.archives.export import export_archive
from results.archives.imports import import_archive
from results.models import PlayerRating
from tests.results.factories import Played, superuser
from tests.results.stages_factories import play_all, three_stages

pytestmark = pytest.mark.django_db

SECRET = "secret-marker-7f3a"


def championship() -> tuple[Played, dict[str, Any]]:
    """A finished three-stage event: released games, one corrected twice (three
    versions), then a pending correction (submitted, never confirmed) of another."""
    ev = three_stages()
    played = play_all(ev)
    corrected = played["q"][0]
    seated = ev.players[:10]
    ev.correct(corrected, ev.record(seated, 101), reason="wrong vote")
    ev.correct(corrected, ev.record(seated, 102), reason="wrong night")
    pending = ev.record(ev.players[10:], 555)
    pending["meta"] = {"note": SECRET}
    submit_record(ev.organiser, played["q"][1], pending, "upload", reason="maybe")
    with TestCase.captureOnCommitCallbacks(execute=True):
        transition_event(ev.organiser, ev.event, Event.Status.FINISHED)
    return ev, played


def _normal(html: str) -> str:
    """A page without what differs between two databases: ids in links, tokens."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'nonce="[^"]*"', "", html)
    html = re.sub(r" · updated [^<]*", "", html)  # when the standings were computed
    html = re.sub(r"/games/\d+/", "/games/N/", html)
    return re.sub(r"(game|row|g)-\d+", r"\1-N", html)


def pages(ev: Played, game_keys: list[tuple[int, int]]) -> dict[str, str]:
    club, slug = ev.club.slug, ev.event.slug
    client = Client()
    urls = [
        reverse("results:standings", args=[club, slug]),
        *(reverse("results:stage-standings", args=[club, slug, n]) for n in range(3)),
        *(reverse("results:player", args=[p.handle]) for p in ev.players[:3]),
    ]
    for rnd, table in game_keys:
        game = Game.objects.get(
            table__round__event__slug=slug, table__round__number=rnd, table__number=table
        )
        urls.append(reverse("results:account", args=[game.pk]))
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[re.sub(r"/games/\d+/", "/games/N/", url)] = _normal(response.content.decode())
    return out


def test_round_trip_into_an_empty_database_gives_identical_results_and_pages() -> None:
    ev, _played = championship()
    keys = [(1, 1), (1, 2), (2, 1), (3, 1)]
    before_pages = pages(ev, keys)
    before = results_digest()
    assert before["standings"] and before["ratings"]
    data = export_archive(ev.club, public=False)

    call_command("flush", interactive=False, verbosity=0)
    assert not Club.objects.exists() and not PlayerRating.objects.exists()
    report = import_archive(data, actor=superuser("importer"))

    assert report.differences == []
    assert len(report.events) == 1 and report.games == 5
    assert results_digest() == before
    after_pages = pages(ev, keys)
    assert list(after_pages) == list(before_pages)
    for url, html in after_pages.items():
        diff = difflib.unified_diff(before_pages[url].splitlines(), html.splitlines(), lineterm="")
        assert html == before_pages[url], url + "\n" + "\n".join(list(diff)[:40])
    versions = GameVersion.objects.filter(game__table__round__number=1, game__table__number=1)
    assert list(versions.order_by("number").values_list("status", flat=True)) == [
        "superseded",
        "superseded",
        "confirmed",
    ]
    pending = GameVersion.objects.get(record__meta__note=SECRET)
    assert pending.status == "submitted" and pending.submitted_by.username == ev.organiser.username
    organiser = User.objects.get(username=ev.organiser.username)
    assert not organiser.is_active and not organiser.has_usable_password()
    assert organiser.email == ev.organiser.email
