"""The public game account (issue #20, item 6): once released, who voted for whom ballot
by ballot (names and seats), last words and suspects, ejections, awards with reasons
and the rulings on protests; nothing of it before release."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Protest
from games.protests import Filer, file_protest, rule_protest
from games.selectors import confirmed_record
from league.models import Event, Player
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


def spec_game(players: list[Player]) -> dict[str, Any]:
    """The example of the record spec (8 players, classic), with a tie on day 2 (ballot 2
    restricted to the tied seats 2 and 5) and two awards."""
    roles = ["killer", "police", "civilian", "civilian", "killer", "police", "civilian", "civilian"]
    return {
        "format": "kgr/1",
        "ruleset": "classic",
        "seats": [
            {"seat": i, "player": p.handle, "role": r}
            for i, (p, r) in enumerate(zip(players, roles, strict=True), 1)
        ],
        "log": [
            {"phase": "night", "n": 1, "kill": 3, "check": 1},
            {
                "phase": "day",
                "n": 1,
                "last_words": [{"seat": 3, "suspects": [1, 5]}],
                "ballots": [{"1": 2, "2": 1, "4": 1, "5": 2, "6": 1, "7": 1, "8": None}],
                "eliminated": 1,
            },
            {"phase": "night", "n": 2, "kill": 6, "check": 5},
            {
                "phase": "day",
                "n": 2,
                "ballots": [
                    {"2": 5, "4": 5, "5": 2, "7": 2, "8": None},
                    {"2": 5, "4": 5, "5": 2, "7": 5, "8": 5},
                ],
                "eliminated": 5,
            },
        ],
        "awards": [
            {"seat": 2, "kind": "bonus", "points": 0.3, "reason": "FOUND-BOTH-KILLERS"},
            {"seat": 7, "kind": "warning", "reason": "SPOKE-OUT-OF-TURN"},
        ],
        "result": {"winner": "good"},
    }


@pytest.fixture
def ev() -> Played:
    return played_event(n_players=8)


def play(ev: Played, release: bool = True) -> Game:
    return ev.play(1, 1, ev.players, record=spec_game(ev.players), release=release)


def page(game: Game, client: Client | None = None) -> Any:
    return (client or Client()).get(reverse("results:account", args=[game.pk]))


def cells(html: str, table_id: str) -> list[tuple[str, str]]:
    """(voter, target) texts of one vote table."""
    body = html.split(f'id="{table_id}"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-voter="\d+"><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td></tr>', body)
    return [(re.sub("<[^>]+>", "", a), re.sub("<[^>]+>", "", b)) for a, b in rows]


def test_the_account_shows_every_vote_ballot_by_ballot(ev: Played) -> None:
    game = play(ev)
    html = page(game).content.decode()
    name = {i: p.display_name for i, p in enumerate(ev.players, 1)}
    assert cells(html, "votes-1-1") == [
        (f"1 · {name[1]}", f"2 · {name[2]}"),
        (f"2 · {name[2]}", f"1 · {name[1]}"),
        (f"4 · {name[4]}", f"1 · {name[1]}"),
        (f"5 · {name[5]}", f"2 · {name[2]}"),
        (f"6 · {name[6]}", f"1 · {name[1]}"),
        (f"7 · {name[7]}", f"1 · {name[1]}"),
        (f"8 · {name[8]}", "abstained"),
    ]
    # day 2: a tie, then a ballot between the tied seats
    first, second = cells(html, "votes-2-1"), cells(html, "votes-2-2")
    assert len(first) == len(second) == 5
    assert (f"7 · {name[7]}", f"2 · {name[2]}") in first
    assert (f"7 · {name[7]}", f"5 · {name[5]}") in second
    tally = html.split('id="votes-2-2"')[1].split("</tfoot>")[0]
    assert f"5 {name[5]}: 4" in tally and f"2 {name[2]}: 1" in tally
    assert 'id="votes-1-2"' not in html  # day 1 had one ballot


def test_the_account_shows_last_words_ejections_and_awards(ev: Played) -> None:
    game = play(ev)
    html = page(game).content.decode()
    words = re.search(r'<li data-seat="3">(.*?)</li>', html)
    assert words is not None
    text = re.sub("<[^>]+>", "", words.group(1))
    assert ev.players[2].display_name in text
    assert f"1 {ev.players[0].display_name}" in text and f"5 {ev.players[4].display_name}" in text
    awards = html.split('id="awards"')[1].split("</section>")[0]
    assert "FOUND-BOTH-KILLERS" in awards and "SPOKE-OUT-OF-TURN" in awards
    assert "0.3" in awards and ev.players[1].display_name in awards


def test_the_account_shows_rulings_with_their_reasons_and_versions(ev: Played) -> None:
    game = play(ev)
    filer = Filer.from_user(ev.players[3].user)
    rejected = file_protest(filer, game, phase="day 2 ballot 1", text="SEAT-8-DID-VOTE")
    upheld = file_protest(filer, game, phase="awards", text="WARNING-WAS-MISSED")
    still_open = file_protest(filer, game, phase="night 1", text="STILL-OPEN")
    html = page(game).content.decode()
    assert 'id="rulings"' not in html  # nothing ruled yet
    rule_protest(ev.organiser, rejected, decision="rejected", ruling="THE-SHEET-SAYS-ABSTAINED")
    record = confirmed_record(game)
    assert record is not None
    record["awards"].append({"seat": 4, "kind": "warning", "reason": "late"})
    ruled = rule_protest(
        ev.organiser, upheld, decision="upheld", ruling="ADD-THE-WARNING", record=record
    )
    html = page(game).content.decode()
    rulings = html.split('id="rulings"')[1].split("</section>")[0]
    for text in (
        "SEAT-8-DID-VOTE",
        "THE-SHEET-SAYS-ABSTAINED",
        "WARNING-WAS-MISSED",
        "ADD-THE-WARNING",
    ):
        assert text in rulings
    assert "STILL-OPEN" not in html and still_open.status == Protest.Status.OPEN
    assert "Day 2, ballot 1" in rulings and "Rejected" in rulings and "Upheld" in rulings
    assert ruled.version is not None
    assert f"version {ruled.version.number}, awaits confirmation" in rulings


def test_nothing_before_release(ev: Played) -> None:
    game = play(ev, release=False)
    response = page(game)
    html = response.content.decode()
    assert response.status_code == 200 and response.context["record"] is None
    assert 'id="not-released"' in html
    for secret in ('id="votes-', 'id="awards"', 'id="rulings"', "FOUND-BOTH-KILLERS", "killer"):
        assert secret not in html.split('id="not-released"')[1], secret
    api = Client().get(reverse("results-api:game", args=[game.pk])).json()
    assert api["account"] == [] and api["seats"] == []
    ev.release(game)
    assert 'id="votes-1-1"' in page(game).content.decode()


def test_an_unpublished_event_game_is_404(ev: Played) -> None:
    game = play(ev)
    Event.objects.filter(pk=ev.event.pk).update(status=Event.Status.DRAFT)
    assert page(game).status_code == 404
    client = Client()
    client.force_login(ev.organiser)
    assert page(game, client).status_code == 200


def test_account_query_budget(ev: Played, django_assert_max_num_queries: Any) -> None:
    game = play(ev)
    protest = file_protest(Filer.from_user(ev.players[0].user), game, phase="night 1", text="x")
    rule_protest(ev.organiser, protest, decision="rejected", ruling="no")
    client = Client()
    page(game, client)  # warm Django's own caches
    with django_assert_max_num_queries(5):
        assert page(game, client).status_code == 200


def test_a_rulings_time_is_in_the_clubs_zone_as_on_the_protests_page(ev: Played) -> None:
    game = play(ev)
    club = game.the_club
    club.timezone = "Asia/Shanghai"
    club.save()
    protest = file_protest(Filer.from_user(ev.players[3].user), game, phase="night 1", text="x")
    rule_protest(ev.organiser, protest, decision="rejected", ruling="no")
    Protest.objects.filter(pk=protest.pk).update(
        ruled_at=datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)
    )
    rulings = page(game).content.decode().split('id="rulings"')[1].split("</section>")[0]
    listed = Client().get(reverse("games:protests", args=[game.pk])).content.decode()
    assert "March 2, 2026, 7:30" in rulings  # 23:30 UTC is 07:30 the next day in Shanghai
    assert "March 2, 2026, 7:30" in listed
