"""Public results pages: content, release gates and secrecy, query budgets, CSV."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.selectors import confirmed_record
from league.models import Event
from results.models import EventStanding, PlayerRating, RatingPoint
from tests.league.factories import UserFactory
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def ev() -> Played:
    ev = played_event(n_players=14)
    ev.play(1, 1, ev.players[:12], seed=11)
    ev.play(2, 1, ev.players[2:14], seed=12)
    return ev


def urls(ev: Played, game: Game | None = None) -> list[str]:
    club, event = ev.club.slug, ev.event.slug
    handle = ev.players[5].handle
    out = [
        reverse("results:leaderboard"),
        reverse("results:leaderboard") + "?role=killer&min_games=1",
        reverse("results:player", args=[handle]),
        reverse("results:club", args=[club]),
        reverse("results:standings", args=[club, event]),
        reverse("results:standings-csv", args=[club, event]),
        reverse("results:standings-player", args=[club, event, handle]),
    ]
    if game is not None:
        out.append(reverse("results:account", args=[game.pk]))
    return out


def test_every_page_renders(client: Client, ev: Played) -> None:
    game = Game.objects.filter(status=Game.Status.RELEASED).first()
    for url in urls(ev, game):
        response = client.get(url)
        assert response.status_code == 200, url


def test_standings_page_shows_ranks_ladder_and_reasons(client: Client, ev: Played) -> None:
    html = client.get(reverse("results:standings", args=[ev.club.slug, ev.event.slug])).content
    text = html.decode()
    rows = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert len(rows) == 14
    for label in ("wins", "award points", "wins as police or killer", "drawing of lots"):
        assert label in text
    # Every line but the last says why it is above the next.
    assert text.count('class="why"') == len(rows) - 1
    assert f"above {rows[1].player.display_name}" in text


def test_standings_points_in_the_readers_number_format(client: Client, ev: Played) -> None:
    url = reverse("results:standings", args=[ev.club.slug, ev.event.slug])
    first = EventStanding.objects.get(event=ev.event, position=1)
    shown = {
        lang: client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode() for lang in ("en", "es")
    }
    assert f"<strong>{first.points:.2f}</strong>" in shown["en"]
    assert f"<strong>{first.points:.2f}</strong>".replace(".", ",") in shown["es"]


def test_csv_export(client: Client, ev: Played) -> None:
    response = client.get(reverse("results:standings-csv", args=[ev.club.slug, ev.event.slug]))
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0][:5] == ["rank", "tied", "player", "name", "points"]
    assert "metric:lots" in table[0]
    assert len(table) == 15
    first = EventStanding.objects.get(event=ev.event, position=1)
    assert table[1][2] == first.handle and table[1][4] == str(first.points)


def test_breakdown_sums_to_points(client: Client, ev: Played) -> None:
    row = EventStanding.objects.filter(event=ev.event).first()
    assert row is not None
    response = client.get(
        reverse("results:standings-player", args=[ev.club.slug, ev.event.slug, row.handle])
    )
    assert response.status_code == 200
    assert sum(g["total"] for g in response.context["games"]) == row.points
    assert "lost:" in response.content.decode() or "won:" in response.content.decode()


def test_player_page(client: Client, ev: Played) -> None:
    player = ev.players[5]
    response = client.get(reverse("results:player", args=[player.handle]))
    text = response.content.decode()
    assert 'id="rating-chart"' in text and "<polyline" in text and 'class="band"' in text
    last = RatingPoint.objects.filter(player=player).order_by("-played_on", "-game_id").first()
    assert last is not None
    assert reverse("results:account", args=[last.game_id]) in text
    rating = PlayerRating.objects.get(player=player)
    assert sum(r.games for r in response.context["roles"]) == rating.games == 2
    assert ev.event.name in text
    # Event points keep their two places on every database (SQLite stores 3.00 as 3).
    standing = EventStanding.objects.get(event=ev.event, player=player)
    events = text[text.index('<table id="events">') :]
    assert f'<td class="num">{standing.points:.2f}</td>' in events
    table = text[
        text.index('<table id="role-record">') : text.index("</table>", text.index("role-record"))
    ]
    assert table.count("<tr>") == 4  # the header and one row a role
    for role in response.context["roles"]:
        row = table[table.index(f'class="role-{role.role}"') :].split("</tr>")[0]
        assert f'<td class="num">{role.games}</td><td class="num">{role.wins}</td>' in row
        if role.games:  # win rate and its Wilson interval, as "50%" and "0.09–0.91"
            low, high = role.interval
            assert f"{round(100 * role.wins / role.games)}%" in row
            assert f"{low:.2f}–{high:.2f}" in row
        else:
            assert row.count("—") >= 2


def test_game_account_tells_the_nights(client: Client, ev: Played) -> None:
    game = Game.objects.filter(status=Game.Status.RELEASED).order_by("pk").first()
    assert game is not None
    text = client.get(reverse("results:account", args=[game.pk])).content.decode()
    assert "Night 1" in text and "Day 1" in text
    record = confirmed_record(game)
    assert record is not None
    killer = next(s for s in record["seats"] if s["role"] == "killer")
    assert "killer" in text and killer["player"] in text


def _board(client: Client, query: str = "") -> list[str]:
    """Handles listed on the leaderboard page for ``query``, in order."""
    text = client.get(reverse("results:leaderboard") + query).content.decode()
    return re.findall(r'<tr id="player-([^"]+)">', text)


def test_leaderboard_filters_and_pagination(client: Client, ev: Played) -> None:
    other = played_event(n_players=12)
    other.play(1, seed=3)
    assert len(_board(client)) == 26
    assert len(_board(client, f"?club={ev.club.slug}")) == 14
    assert len(_board(client, "?min_games=2")) == 10
    killers = _board(client, "?role=killer")
    ratings = [PlayerRating.objects.get(player__handle=h) for h in killers]
    assert [r.killer_rating for r in ratings] == sorted(
        (r.killer_rating for r in ratings), reverse=True
    )
    assert all(r.killer_games >= 1 for r in ratings)
    assert _board(client, f"?q={ev.players[0].handle}") == [ev.players[0].handle]
    # Pages of 50.
    rest = played_event(n_players=40)
    rest.play(1, 1, rest.players[:12], seed=4)
    rest.play(2, 1, rest.players[12:24], seed=5)
    rest.play(3, 1, rest.players[24:36], seed=6)
    first, second = _board(client), _board(client, "?page=2")
    assert len(first) == 50 and len(second) == 12 and not set(first) & set(second)
    assert "page 2 of 2" in client.get(reverse("results:leaderboard") + "?page=2").content.decode()


def test_leaderboard_cache_ignores_unknown_parameters_and_follows_club_members(
    client: Client, ev: Played
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from league.models import Membership

    board = reverse("results:leaderboard")

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    cache.clear()
    cold = queries(board + "?role=killer")
    warm = queries(board + "?role=killer")
    assert warm < cold
    # parameters nobody reads neither make a new entry nor ride along in the links
    assert queries(board + "?utm_source=x&role=killer") == warm
    page = client.get(board + "?page=1&junk=1&role=killer")
    assert page.context["query_string"] == "role=killer"  # the "show me" link
    assert "junk" not in page.context["table"]  # the pager's links
    # joining a club shows on its leaderboard at once, not after the cache expires
    other = played_event(n_players=12)
    other.play(1, seed=3)
    newcomer = other.players[0]
    assert newcomer.handle not in _board(client, f"?club={ev.club.slug}")
    Membership.objects.create(player=newcomer, club=ev.club, joined=timezone.localdate())
    assert newcomer.handle in _board(client, f"?club={ev.club.slug}")


def test_a_player_finds_their_position(client: Client, ev: Played) -> None:
    player = ev.players[3]
    client.force_login(player.user)
    response = client.get(reverse("results:leaderboard"))
    assert response.context["my_position"] is not None
    assert f"#player-{player.handle}" in response.content.decode()


# --- secrecy -------------------------------------------------------------------------------


def test_unreleased_game_shows_nowhere(client: Client, ev: Played) -> None:
    hidden = ev.play(3, 1, ev.players[:12], seed=13, release=False)
    record = confirmed_record(hidden)
    assert record is not None
    assert not RatingPoint.objects.filter(game_id=hidden.pk).exists()
    account = reverse("results:account", args=[hidden.pk])
    for url in [*urls(ev), account]:
        text = client.get(url).content.decode()
        assert f"#{hidden.pk}<" not in text and f"/games/{hidden.pk}/" not in text.replace(
            account, ""
        ), url
    page = client.get(account)
    assert page.status_code == 200
    assert page.context["record"] is None and "not-released" in page.content.decode()
    assert "killer" not in page.content.decode().split('id="not-released"')[1]


@pytest.mark.parametrize("who", ["anonymous", "stranger", "player", "referee", "organiser"])
def test_game_account_gate(client: Client, who: str) -> None:
    ev = played_event()
    game = ev.play(1, seed=2, release=False)
    users: dict[str, Any] = {
        "anonymous": None,
        "stranger": UserFactory(),
        "player": ev.players[0].user,
        "referee": ev.referee.user,
        "organiser": ev.organiser,
    }
    if users[who] is not None:
        client.force_login(users[who])
    response = client.get(reverse("results:account", args=[game.pk]))
    official = who in ("referee", "organiser")
    assert response.status_code == 200
    assert (response.context["record"] is not None) is official
    ev.release(game)
    response = client.get(reverse("results:account", args=[game.pk]))
    assert response.context["record"] is not None


def test_draft_event_standings_are_hidden(client: Client, ev: Played) -> None:
    Event.objects.filter(pk=ev.event.pk).update(status=Event.Status.DRAFT)
    for name in ("results:standings", "results:standings-csv"):
        assert client.get(reverse(name, args=[ev.club.slug, ev.event.slug])).status_code == 404
    client.force_login(ev.organiser)
    assert (
        client.get(reverse("results:standings", args=[ev.club.slug, ev.event.slug])).status_code
        == 200
    )
    client.logout()
    text = client.get(reverse("results:player", args=[ev.players[0].handle])).content.decode()
    assert ev.event.name not in text.split('id="events"')[1]


# --- query budgets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "budget"),
    [("leaderboard", 6), ("player", 4), ("club", 4), ("standings", 3), ("account", 4)],
)
def test_query_budgets(
    client: Client, django_assert_max_num_queries: Any, page: str, budget: int
) -> None:
    ev = played_event(n_players=20, rounds=3)
    for r in (1, 2, 3):
        ev.play(r, 1, ev.players[r : r + 12], seed=r)
    game = Game.objects.filter(status=Game.Status.RELEASED).first()
    assert game is not None
    url = {
        "leaderboard": reverse("results:leaderboard") + f"?club={ev.club.slug}&min_games=1",
        "player": reverse("results:player", args=[ev.players[5].handle]),
        "club": reverse("results:club", args=[ev.club.slug]),
        "standings": reverse("results:standings", args=[ev.club.slug, ev.event.slug]),
        "account": reverse("results:account", args=[game.pk]),
    }[page]
    client.get(url)  # warm Django's own caches (content types, sessions)…
    cache.clear()  # …but measure the page's own cold path
    with django_assert_max_num_queries(budget):
        assert client.get(url).status_code == 200
