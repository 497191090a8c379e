"""A player's own data (#22 item 5): the download holds theirs and no one else's secrets;
deleting the account puts a pseudonym in every record, page, API answer and CSV, keeps
the records valid and the standings' points and order, asks for the username first, and
is audited."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import TextField
from django.db.models.functions import Cast
from django.test import Client, TestCase
from django.urls import reverse

from games.models import Game, GameStatusChange, GameVersion
from games.past_results import PastResultsError, import_results
from games.records import check_record
from league.models import AuditEntry, ClubOrganiser, Player, Referee
from results.account_deletion import delete_account
from results.models import EventStanding, PlayerRating, StageStanding
from tests.league.factories import PASSWORD, ClubOrganiserFactory
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def ev() -> Played:
    cache.clear()
    ev = played_event(n_players=14)
    ev.play(1, 1, ev.players[:12], seed=11)
    ev.play(2, 1, ev.players[2:14], seed=12)
    ev.play(3, 1, ev.players[:12], seed=13, release=False)  # confirmed, not released
    return ev


def login(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def standings(ev: Played) -> list[tuple[int | None, str, int, bool]]:
    rows = EventStanding.objects.filter(event=ev.event).order_by("position")
    return [(r.player_id, str(r.points), r.rank, r.tied) for r in rows]


def test_the_download_holds_the_users_data_and_no_other_secrets(ev: Played) -> None:
    me = ev.players[2]  # at the tables of rounds 1, 2 and 3
    client = login(me.user)
    page = client.get(reverse("results:my-data"))
    assert page.status_code == 200
    assert reverse("results:my-data-download") in page.content.decode()
    profile = client.get(reverse("my-profile")).content.decode()
    assert reverse("results:my-data-download") in profile
    assert reverse("results:delete-account") in profile

    answer = client.get(reverse("results:my-data-download"))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/json")
    assert "attachment" in answer["Content-Disposition"]
    data = json.loads(answer.content)
    assert data["account"]["username"] == me.user.username
    assert data["account"]["email"] == me.user.email
    assert data["player"]["handle"] == me.handle
    assert data["player"]["display_name"] == me.display_name
    assert [m["club"] for m in data["player"]["memberships"]] == [ev.club.name]
    # the released games only (round 3's game is confirmed, not released)
    released = Game.objects.filter(status="released", table__seats__player=me)
    assert sorted(g["game"] for g in data["games"]) == sorted(g.pk for g in released)
    unreleased = Game.objects.get(table__round__number=3)
    assert unreleased.pk not in {g["game"] for g in data["games"]}
    assert {s["round"] for s in data["player"]["seats"]} == {1, 2, 3}
    for game in data["games"]:
        record = GameVersion.objects.get(game_id=game["game"], status="confirmed").record
        mine = next(s for s in record["seats"] if s["player"] == me.handle)
        assert game["role"] == mine["role"] and game["seat"] == mine["seat"]
        # the table's players, never their roles
        assert all(set(p) == {"seat", "player"} for p in game["players"])
    text = answer.content.decode()
    assert text.count('"role":') == len(data["games"]) + len(data["results"]["rating_history"])
    assert data["results"]["rating"]["games"] == PlayerRating.objects.get(player=me).games
    assert len(data["results"]["standings"]) == 1
    # nobody else's address, no password hash, no token key
    for other in ev.players[3:]:
        assert other.user.email not in text
    assert me.user.password not in text
    assert "pbkdf2" not in text
    assert Client().get(reverse("results:my-data-download")).status_code == 302
    taken = AuditEntry.objects.get(action="personal_data.download")
    assert taken.actor == me.user and taken.data["games"] == len(data["games"])
    # the same as a zip: the JSON and the lists as CSV for a spreadsheet
    packed = client.get(reverse("results:my-data-download") + "?format=zip")
    assert packed.status_code == 200 and packed["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(packed.content)) as archive:
        assert json.loads(archive.read("data.json"))["player"] == data["player"]
        games = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    assert sorted(int(g["game"]) for g in games) == sorted(g["game"] for g in data["games"])
    assert {g["role"] for g in games} <= {"killer", "police", "civilian"}


def test_deletion_needs_the_username_typed(ev: Played) -> None:
    me = ev.players[0]
    handle = me.handle
    client = login(me.user)
    url = reverse("results:delete-account")
    page = client.get(url)
    assert page.status_code == 200 and me.display_name in page.content.decode()
    wrong = client.post(url, {"username": "someone-else"})
    assert wrong.status_code == 400
    assert 'id="delete-account-form"' in wrong.content.decode()
    assert client.post(url, {}).status_code == 400
    me.refresh_from_db()
    me.user.refresh_from_db()
    assert me.user.is_active and me.handle == handle
    assert not AuditEntry.objects.filter(action="account.delete").exists()


def test_deletion_pseudonymises_everywhere_and_keeps_the_standings(ev: Played) -> None:
    me = ev.players[7]  # at the tables of rounds 1, 2 and 3
    old_handle, old_name, old_email = me.handle, me.display_name, me.user.email
    username, user_id = me.user.username, me.user_id
    before = standings(ev)
    stages_before = list(
        StageStanding.objects.filter(event=ev.event)
        .order_by("stage", "position")
        .values_list("player_id", "points", "rank")
    )
    rating = PlayerRating.objects.get(player=me).rating
    # pages, API and CSV (read once before: whatever they cache must not outlive the name)
    reader = Client()
    club, event = ev.club.slug, ev.event.slug
    urls = [
        reverse("home"),
        reverse("results:standings", args=[club, event]),
        reverse("results:standings-csv", args=[club, event]),
        reverse("results:leaderboard"),
        reverse("results:club", args=[club]),
        reverse("results-api:standings", args=[ev.event.pk]),
        reverse("results-api:ratings"),
    ]
    released = Game.objects.filter(status="released", table__seats__player=me)
    for game in released:
        urls += [reverse("results:account", args=[game.pk]), f"/api/v1/games/{game.pk}/"]
    for url in urls:
        text = reader.get(url).content.decode()
        named = old_handle in text or old_name in text or json.dumps(old_name)[1:-1] in text
        assert named or url == reverse("home"), url
    client = login(me.user)
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = client.post(reverse("results:delete-account"), {"username": username})
    assert done.status_code == 302

    me.refresh_from_db()
    assert me.handle.startswith("player-") and me.display_name.startswith("Player-")
    assert me.display_name.removeprefix("Player-") == me.handle.removeprefix("player-")
    assert me.user is None
    user = get_user_model().objects.get(pk=user_id)
    assert not user.is_active and user.email == "" and not user.has_usable_password()
    assert user.username != username
    assert not Client().login(username=username, password=PASSWORD)
    # the session that deleted it is over
    assert client.get(reverse("results:my-data")).status_code == 302

    # every version of every game: the pseudonym in the seat, still valid
    versions = GameVersion.objects.annotate(t=Cast("record", TextField()))
    assert not versions.filter(t__contains=old_handle).exists()
    for version in GameVersion.objects.filter(status="confirmed"):
        assert check_record(version.game, version.record).valid
    mine = GameVersion.objects.filter(status="confirmed", game__table__seats__player=me)
    assert mine.count() == 3
    for version in mine:
        assert me.handle in {s["player"] for s in version.record["seats"]}
    assert GameStatusChange.objects.filter(reason__contains=me.handle).count() == 3

    # the standings: same points, same order, same ranks; only the name changed
    assert standings(ev) == before
    assert (
        list(
            StageStanding.objects.filter(event=ev.event)
            .order_by("stage", "position")
            .values_list("player_id", "points", "rank")
        )
        == stages_before
    )
    assert EventStanding.objects.filter(event=ev.event, handle=me.handle, player=me).exists()
    assert not EventStanding.objects.filter(handle=old_handle).exists()
    assert PlayerRating.objects.get(player=me).rating == rating

    for url in urls:
        answer = reader.get(url)
        assert answer.status_code == 200, url
        text = answer.content.decode()
        assert old_handle not in text and old_name not in text, url
        assert json.dumps(old_name)[1:-1] not in text, url
    assert me.handle in reader.get(urls[1]).content.decode()
    assert reader.get(reverse("results:player", args=[old_handle])).status_code == 404
    assert reader.get(reverse("results:player", args=[me.handle])).status_code == 200

    # the audit log: the deletion is there, the old name nowhere
    entry = AuditEntry.objects.get(action="account.delete")
    assert entry.actor_id == user.pk and entry.data["pseudonym"] == me.handle
    assert entry.data["games"] == 3
    assert entry.data["order_changed"] == [] and entry.data["lots_moved"] == []
    logged = AuditEntry.objects.annotate(t=Cast("data", TextField()))
    for old in (old_handle, username, old_email):
        assert not logged.filter(t__contains=old).exists()


def test_an_only_organiser_is_refused_and_nothing_changes(ev: Played) -> None:
    me = ev.players[0]
    ClubOrganiser.objects.filter(club=ev.club).exclude(user=ev.organiser).delete()
    ClubOrganiser.objects.filter(club=ev.club).update(user=me.user)
    with pytest.raises(Exception) as error:
        delete_account(me.user, confirm=me.user.username)
    assert getattr(error.value, "status", None) == 409
    assert Player.objects.get(pk=me.pk).handle == me.handle
    # with a second organiser, it goes
    ClubOrganiserFactory(club=ev.club)
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = delete_account(me.user, confirm=me.user.username)
    assert done.erasure is not None and done.erasure.games
    assert not ClubOrganiser.objects.filter(user_id=me.user_id).exists()


def test_an_account_without_a_player_is_deleted_too(ev: Played) -> None:
    user = ClubOrganiserFactory(club=ev.club).user
    done = delete_account(user, confirm=user.username)
    assert done.erasure is None
    user.refresh_from_db()
    assert not user.is_active and user.username.startswith("deleted-")


def test_a_referees_username_leaves_the_records_they_refereed(ev: Played) -> None:
    referee = ev.referee.user
    game = Game.objects.get(table__round__number=1)
    record = GameVersion.objects.get(game=game, status="confirmed").record
    ev.correct(game, {**record, "meta": {"referee": referee.username}}, reason="referee")
    old = referee.username
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = delete_account(referee, confirm=old)
    assert done.erasure is None  # no player of their own
    referee.refresh_from_db()
    versions = GameVersion.objects.annotate(t=Cast("record", TextField()))
    assert not versions.filter(t__contains=f'"{old}"').exists()
    current = GameVersion.objects.get(game=game, status="confirmed")
    assert current.record["meta"]["referee"] == referee.username
    assert check_record(game, current.record).valid


@pytest.mark.browser
def test_the_pages_on_a_phone_and_a_desktop(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    ev = played_event(n_players=12)
    ev.play(1, 1, ev.players[:12], seed=3)
    me = ev.players[4]
    username, handle = me.user.username, me.handle
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(30_000)
        target = reverse("results:my-data")
        page.goto(f"{live_server.url}/accounts/login/?next={target}")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}{target}")
        wide = "document.documentElement.scrollWidth <= window.innerWidth"
        assert page.evaluate(wide), width
        page.click("#delete-account-link")
        page.wait_for_selector("#delete-account-form")
        assert page.evaluate(wide), width
        if width == 1280:
            page.fill("#id_username", username)
            page.click("#delete-account-form button[type=submit]")
            page.wait_for_url(f"{live_server.url}/")
        context.close()
    me.refresh_from_db()
    assert me.handle != handle and me.display_name.startswith("Player-") and me.user is None


def test_club_games_and_imported_games_take_the_pseudonym_too(ev: Played) -> None:
    me = ev.players[0]
    others = [p.handle for p in ev.players[1:8]]
    text = (
        "date,event,table,players,roles,winner\n"
        f'2025-05-01,Old Cup,1,"{",".join([me.handle, *others])}","k,p,c,c,k,p,c,c",good\n'
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        plan = import_results(ev.organiser, ev.club, "old.csv", text.encode())
    game = plan.created[0]
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = delete_account(me.user, confirm=me.user.username)
    assert done.erasure is not None and game.pk in done.erasure.games
    game.refresh_from_db()
    me.refresh_from_db()
    assert game.players[0] == me.handle
    version = game.versions.get(status="confirmed")
    assert version.record["seats"][0]["player"] == me.handle
    assert check_record(game, version.record).valid
    # the same file again is still the same game (the name it gives is now unknown:
    # a problem, not a second game)
    with pytest.raises(PastResultsError):
        import_results(ev.organiser, ev.club, "old.csv", text.encode())


def test_a_deleted_referees_name_leaves_the_cached_analytics_page(ev: Played) -> None:
    referee = ev.referee.user
    name = str(ev.referee)
    assert Client().get(reverse("results:analytics")).content.decode().count(name)  # cached
    with TestCase.captureOnCommitCallbacks(execute=True):
        delete_account(referee, confirm=referee.username)
    page = Client().get(reverse("results:analytics")).content.decode()
    assert name not in page and str(Referee.objects.get(pk=ev.referee.pk)) in page
