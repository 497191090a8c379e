"""The venue screen, its overlay and the JSON they poll (results.views.venue): each
table's status, the round and its clock, the released standings; secrecy of games not
released; drafts are 404; a warm poll costs one query."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameVersion
from league.models import Event
from results import venue as reads
from results.models import EventStanding
from tests.results.factories import Played, played_event
from tests.results.stages_factories import expected, play_all, three_stages
from tests.results.venue_factories import STATUSES, advance, seat, venue_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> tuple[Played, dict[int, Game | None]]:
    return venue_world()


def urls(ev: Played) -> dict[str, str]:
    args = [ev.club.slug, ev.event.slug]
    return {
        "page": reverse("results:venue", args=args),
        "overlay": reverse("results:venue-overlay", args=args),
        "json": reverse("results:venue-json", args=args),
    }


def test_the_addresses() -> None:
    assert reverse("results:venue", args=["c", "e"]) == "/clubs/c/e/venue/"
    assert reverse("results:venue-overlay", args=["c", "e"]) == "/clubs/c/e/venue/overlay/"
    assert reverse("results:venue-json", args=["c", "e"]) == "/clubs/c/e/venue.json"


def test_each_table_shows_its_status(client: Client, world: Any) -> None:
    ev, _games = world
    data = client.get(urls(ev)["json"]).json()
    assert [(t["number"], t["status"]) for t in data["tables"]] == list(STATUSES.items())
    assert data["round"]["number"] == 1  # round 2 is drawn, not released: not shown
    assert data["event"]["rounds"] == 3
    assert data["done"] == 2 and data["complete"] is False
    assert data["counts"] == {
        "waiting": 2,
        "playing": 1,
        "submitted": 1,
        "confirmed": 1,
        "released": 1,
    }
    assert data["next"]["number"] == 2 and data["next"]["starts_text"] == "11:00"
    assert isinstance(data["now"], float)
    page = client.get(urls(ev)["page"]).content.decode()
    for number, status in STATUSES.items():
        assert (
            f'<li class="table-card status-{status}" data-table="{number}" data-status="{status}">'
        ) in page
    assert "Round 1 of 3" in page and "2/6 tables confirmed" in page
    assert "Round 2 starts at 11:00" in page


def test_the_clock_counts_from_the_rounds_start(client: Client, world: Any) -> None:
    ev, _games = world
    data = client.get(urls(ev)["json"]).json()
    start = ev.event.rounds.get(number=1).starts_at
    assert data["round"]["starts_at"] == start.timestamp()
    assert data["round"]["starts_text"] == "10:00"
    page = client.get(urls(ev)["page"]).content.decode()
    assert re.search(r'id="venue-clock" class="clock">\d+:\d\d:\d\d<', page)
    assert "since the start of the round" in page  # the factory's event is in the past


def test_the_standings_count_released_games_only(client: Client, world: Any) -> None:
    ev, games = world
    released = {s.player.display_name for s in games[6].table.seats.all()}  # type: ignore[union-attr]
    data = client.get(urls(ev)["json"]).json()
    assert len(data["standings"]) == min(reads.TOP, 8)  # one released table of eight
    assert {r["name"] for r in data["standings"]} <= released
    assert all(r["games"] == 1 for r in data["standings"])
    first = EventStanding.objects.get(event=ev.event, position=1)
    assert data["standings"][0]["points"] == str(first.points)
    es = client.get(urls(ev)["page"], HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f'<td class="num points">{str(first.points).replace(".", ",")}</td>' in es


def test_a_confirmed_game_shows_nothing_before_its_release(client: Client, world: Any) -> None:
    """Table 5 is confirmed, not released: its status shows, never a role, a winner or a
    point of it, on the page, the overlay or the JSON."""
    ev, games = world
    confirmed = games[5]
    assert confirmed is not None and confirmed.status == Game.Status.CONFIRMED
    record = confirmed.versions.get(status=GameVersion.Status.CONFIRMED).record
    at_table = [s.player for s in confirmed.table.seats.all()]  # type: ignore[union-attr]
    client.force_login(ev.organiser)  # even the organiser's screen is the public one
    for url in urls(ev).values():
        for lang in ("en", "es", "zh-hans"):
            body = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
            if url.endswith(".json"):
                body = json.dumps(json.loads(body), ensure_ascii=False)
            for player in at_table:
                assert player.display_name not in body, (url, player)
                assert player.handle not in body, (url, player)
            for word in ("killer", "police", "civilian", "winner", "record", "role", "seats"):
                assert f'"{word}' not in body, (url, word)
            assert record["result"]["winner"] not in re.sub(r"<[^>]+>", " ", body).split()
    assert not EventStanding.objects.filter(event=ev.event, player__in=at_table).exists()


def test_drafts_and_unknown_events_are_404(client: Client, world: Any) -> None:
    ev, _games = world
    Event.objects.filter(pk=ev.event.pk).update(status=Event.Status.DRAFT)
    client.force_login(ev.organiser)
    for url in urls(ev).values():
        assert client.get(url).status_code == 404, url
    for url in (
        reverse("results:venue", args=[ev.club.slug, "nope"]),
        reverse("results:venue-json", args=["nope", ev.event.slug]),
    ):
        assert client.get(url).status_code == 404, url
    assert client.get("/clubs/a%00b/x/venue.json").status_code == 400  # refused before


def test_a_warm_poll_costs_one_query(
    client: Client, world: Any, django_assert_max_num_queries: Any
) -> None:
    ev, _games = world
    url = urls(ev)["json"]
    with django_assert_max_num_queries(4):  # the event, then the snapshot: 3
        cold = client.get(url).json()
    with django_assert_max_num_queries(1):  # the event's lookup; the snapshot is cached
        warm = client.get(url).json()
    with django_assert_max_num_queries(1):
        assert client.get(urls(ev)["overlay"]).status_code == 200
    assert {k: v for k, v in warm.items() if k != "now"} == {
        k: v for k, v in cold.items() if k != "now"
    }


def test_a_change_shows_in_the_next_interval(
    client: Client, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ev, games = world
    now = [1_000_000.0]
    monkeypatch.setattr(reads.time, "time", lambda: now[0])
    url = urls(ev)["json"]
    assert client.get(url).json()["tables"][4]["status"] == "confirmed"
    ev.release(games[5])  # type: ignore[arg-type]
    # the same interval: the cached snapshot (a screen's poll costs nothing more)
    assert client.get(url).json()["tables"][4]["status"] == "confirmed"
    now[0] += reads.POLL_SECONDS
    assert client.get(url).json()["tables"][4]["status"] == "released"


def test_the_cache_down_the_screen_reads_the_database(
    client: Client, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from league import outages

    ev, _games = world
    monkeypatch.setattr(outages.cache, "is_down", lambda: True)
    for url in urls(ev).values():
        assert client.get(url).status_code == 200, url


def test_the_overlay_views(client: Client, world: Any) -> None:
    ev, _games = world
    url = urls(ev)["overlay"]
    both = client.get(url).content.decode()
    assert '<html lang="en" class="overlay">' in both and 'class="overlay show-all"' in both
    assert 'id="overlay-round"' in both and 'id="overlay-standings"' in both
    assert both.count('<td class="name">') == 5  # the top five
    only_round = client.get(url + "?show=round").content.decode()
    assert 'id="overlay-round"' in only_round and 'id="overlay-standings"' not in only_round
    only_table = client.get(url + "?show=standings").content.decode()
    assert 'id="overlay-round"' not in only_table and 'id="overlay-standings"' in only_table
    odd = client.get(url + "?show=<b>x").content.decode()
    assert 'class="overlay show-all"' in odd


def test_no_inline_script_and_words_for_the_script(client: Client, world: Any) -> None:
    ev, _games = world
    for url in (urls(ev)["page"], urls(ev)["overlay"]):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        body = response.content.decode()
        assert "script-src 'self'" in response["Content-Security-Policy"]
        scripts = re.findall(r"<script[^>]*>", body)
        assert scripts == ['<script src="/static/js/venue.js" defer>']
        assert " on" not in re.sub(r'"[^"]*"', '""', "".join(re.findall(r"<[^>]+>", body)))
        assert f'data-json="{urls(ev)["json"]}"' in body
        assert 'data-decimal=","' in body
        assert 'data-round-text="{n}' in body or "{n}" in body


def test_a_finished_event_and_one_not_started(client: Client) -> None:
    ev = played_event(n_players=8, rounds=1)
    game = advance(ev, seat(ev, 1, 1, 0), "released", seed=7)
    assert game is not None
    Event.objects.filter(pk=ev.event.pk).update(status=Event.Status.FINISHED)
    data = client.get(urls(ev)["json"]).json()
    assert data["complete"] is True and data["next"] is None and data["done"] == 1
    page = client.get(urls(ev)["page"]).content.decode()
    assert "All tables released" in page and "1/1 tables confirmed" in page

    later = played_event(n_players=8, rounds=2)  # running, nothing released yet
    data = client.get(urls(later)["json"]).json()
    assert data["round"] is None and data["tables"] == [] and data["standings"] == []
    assert data["next"]["number"] == 1 and data["next"]["starts_text"] == "10:00"
    page = client.get(urls(later)["page"]).content.decode()
    assert "No round released yet" in page and 'id="venue-no-tables"' in page
    assert "Round 1 starts at 10:00" in page and "No released games yet." in page


def test_a_hidden_final_stays_hidden_on_the_screens(client: Client) -> None:
    """A hidden stage that is not finished: the screens show the public order (after the
    semi-final), never the final's points, as the standings page does."""
    ev = three_stages(final_hidden=True)
    played = play_all(ev)
    after_semi = expected(ev, played, stages=2).final
    data = client.get(urls(ev)["json"]).json()
    shown = [(r["name"], Decimal(r["points"])) for r in data["standings"]]
    names = {p.handle: p.display_name for p in ev.players}
    assert shown == [
        (names[f.player], f.points.quantize(Decimal("0.01"))) for f in after_semi[: reads.TOP]
    ]
    whole = expected(ev, played).final
    assert shown != [
        (names[f.player], f.points.quantize(Decimal("0.01"))) for f in whole[: reads.TOP]
    ]
