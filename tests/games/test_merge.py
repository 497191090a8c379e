"""Merging duplicate players (issue #18): everything moves to the survivor, records are
rewritten through new versions (old ones untouched), results are recomputed by the
pipeline with the same totals, and the merge is refused when it cannot be right."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Sum
from django.test import TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from engine.validate import validate
from games.merge import merge_plan, merge_players, record_handles
from games.models import Game, GameVersion
from games.protests import Filer, file_protest
from games.records import check_record
from games.services import game_for_table, submit_record
from league.audit import AuditEntry
from league.models import (
    League,
    Membership,
    Player,
    PlayerConflict,
    Registration,
    Season,
)
from results.models import EventStanding, PlayerRating, RatingPoint, SeasonStanding
from results.services import rebuild_all
from tests.games.conftest import refused
from tests.league.factories import ClubOrganiserFactory, PlayerFactory
from tests.results.conftest import snapshot
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


class Two:
    """One club, two events of one season; the survivor plays the first, the duplicate
    (same person, another record, no account) the second."""

    def __init__(self) -> None:
        self.first: Played = played_event(n_players=13, rounds=3)
        club = self.first.club
        self.second: Played = played_event(
            n_players=12, rounds=3, club=club, starts_on=dt.date(2026, 4, 1)
        )
        season = Season.objects.create(
            league=League.objects.create(name="L", slug="l", club=club),
            name="2026",
            starts_on=dt.date(2026, 1, 1),
            ends_on=dt.date(2026, 12, 31),
        )
        for played in (self.first, self.second):
            played.event.season = season
            played.event.save()
        self.survivor = self.first.players[0]
        self.survivor.display_name = "刘洋"
        self.survivor.save()
        self.duplicate = PlayerFactory(display_name="Liu Yang", user=None)
        Membership.objects.create(player=self.duplicate, club=club, joined=dt.date(2025, 6, 1))
        self.second.players[0] = self.duplicate
        for p in self.first.players[:12]:
            Registration.objects.create(event=self.first.event, player=p)
        for p in self.second.players:
            Registration.objects.create(event=self.second.event, player=p)
        # the duplicate was also registered (then withdrawn) in the first event
        Registration.objects.create(
            event=self.first.event, player=self.duplicate, status="withdrawn"
        )
        self.organiser = self.first.organiser

    def play(self) -> None:
        a, b = self.first, self.second
        a.play(1, players=a.players[:12], seed=1)
        a.play(2, players=a.players[:12], seed=2)
        b.play(1, players=b.players[:12], seed=3)
        b.play(2, players=b.players[:12], seed=4)


@pytest.fixture
def two() -> Two:
    return Two()


def totals() -> dict[str, Any]:
    return {
        "points": EventStanding.objects.aggregate(s=Sum("points"))["s"],
        "games": EventStanding.objects.aggregate(s=Sum("games"))["s"],
        "wins": EventStanding.objects.aggregate(s=Sum("wins"))["s"],
        "season_points": SeasonStanding.objects.aggregate(s=Sum("points"))["s"],
        "season_games": SeasonStanding.objects.aggregate(s=Sum("games"))["s"],
        "rated_games": PlayerRating.objects.aggregate(s=Sum("games"))["s"],
        "rated_wins": PlayerRating.objects.aggregate(s=Sum("wins"))["s"],
        "points_rows": RatingPoint.objects.count(),
    }


def merge(actor: Any, survivor: Player, duplicate: Player) -> Any:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return merge_players(actor, survivor, duplicate)


def test_merge_keeps_every_total_and_every_record_valid(two: Two) -> None:
    two.play()
    before = totals()
    survivor, duplicate = two.survivor, two.duplicate
    s_rating = PlayerRating.objects.get(player=survivor)
    d_rating = PlayerRating.objects.get(player=duplicate)
    s_points = EventStanding.objects.get(player=survivor).points
    d_points = EventStanding.objects.get(player=duplicate).points
    old = {v.pk: (v.number, v.record) for v in GameVersion.objects.all()}

    plan = merge(two.organiser, survivor, duplicate)

    assert plan.counts() == {
        "seats": 2,
        "registrations": 1,
        "registrations_merged": 1,
        "memberships": 1,
        "player_conflicts": 0,
        "referee_conflicts": 0,
        "records": 2,
        "voided_games": 0,
        "account": 0,
    }
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    after = totals()
    assert after == before
    rating = PlayerRating.objects.get(player=survivor)
    assert (rating.games, rating.wins) == (
        s_rating.games + d_rating.games,
        s_rating.wins + d_rating.wins,
    )
    rows = EventStanding.objects.filter(player=survivor)
    assert sorted(r.points for r in rows) == sorted([s_points, d_points])
    assert not EventStanding.objects.filter(handle=duplicate.handle).exists()
    season = SeasonStanding.objects.get(player=survivor)
    assert (season.events, season.games) == (2, 4)
    assert season.points == Decimal(s_points) + Decimal(d_points)
    # every record still valid; the old versions are untouched
    for version in GameVersion.objects.filter(status="confirmed").select_related("game"):
        assert not validate(version.record).violations
        assert check_record(version.game, version.record).valid
        assert duplicate.handle not in record_handles(version.record)
    for pk, (number, record) in old.items():
        v = GameVersion.objects.get(pk=pk)
        assert (v.number, v.record) == (number, record)
    rewritten = GameVersion.objects.exclude(pk__in=old)
    assert rewritten.count() == 2
    for v in rewritten:
        assert v.status == "confirmed" and v.confirmed_by == two.organiser
        assert v.game.status == Game.Status.RELEASED
        assert survivor.handle in record_handles(v.record)
        assert v.game.history.filter(version=v, to_status="released").exists()
    # what the pipeline computed equals a rebuild from the records
    computed = snapshot()
    rebuild_all()
    assert snapshot() == computed
    entry = AuditEntry.objects.get(action="player.merge")
    assert entry.target_id == survivor.pk
    assert entry.data["duplicate"]["handle"] == duplicate.handle
    assert entry.data["moved"]["records"] == 2


def test_registrations_memberships_and_conflicts_move(two: Two) -> None:
    survivor, duplicate = two.survivor, two.duplicate
    other = two.second.players[1]
    PlayerConflict.objects.create(
        event=two.second.event,
        **dict(
            zip(
                ("player_a", "player_b"),
                sorted((duplicate, other), key=lambda p: p.pk),
                strict=True,
            )
        ),
    )
    PlayerConflict.objects.create(
        event=two.first.event,
        **dict(
            zip(
                ("player_a", "player_b"),
                sorted((duplicate, survivor), key=lambda p: p.pk),
                strict=True,
            )
        ),
    )
    merge(two.organiser, survivor, duplicate)
    regs = Registration.objects.filter(player=survivor)
    assert sorted(r.event_id for r in regs) == sorted([two.first.event.pk, two.second.event.pk])
    assert all(r.status == "registered" for r in regs)
    assert Membership.objects.filter(player=survivor, left__isnull=True).count() == 1
    assert Membership.objects.get(player=survivor).joined == dt.date(2025, 1, 1)
    [conflict] = PlayerConflict.objects.all()
    assert {conflict.player_a_id, conflict.player_b_id} == {survivor.pk, other.pk}


def test_the_account_moves_when_only_the_duplicate_has_one(two: Two) -> None:
    survivor = PlayerFactory(user=None)
    Membership.objects.create(player=survivor, club=two.first.club, joined=dt.date(2025, 1, 1))
    account = two.survivor.user
    merge(two.organiser, survivor, two.survivor)
    survivor.refresh_from_db()
    assert survivor.user == account


def test_two_accounts_refuse(two: Two) -> None:
    with refused(409, "merge.two_accounts"):
        merge_plan(two.organiser, two.survivor, two.first.players[1])


def test_a_game_in_progress_refuses(two: Two) -> None:
    table = two.second.table(1, 1, two.second.players[:12])
    game = game_for_table(table)
    with refused(409, "merge.game_in_progress"):
        merge(two.organiser, two.survivor, two.duplicate)
    submit_record(
        two.second.referee.user, game, two.second.record(two.second.players[:12], 5), "upload"
    )
    with refused(409, "merge.game_in_progress") as info:
        merge(two.organiser, two.survivor, two.duplicate)
    assert info.value.params["games"] == [str(game)]
    assert Player.objects.filter(pk=two.duplicate.pk).exists()


def test_a_pending_correction_refuses(two: Two) -> None:
    two.play()
    game = Game.objects.get(table__round__event=two.second.event, table__round__number=1)
    record = GameVersion.objects.get(game=game, status="confirmed").record
    submit_record(two.second.referee.user, game, record, "upload", reason="again")
    with refused(409, "merge.game_in_progress"):
        merge(two.organiser, two.survivor, two.duplicate)


def test_two_players_of_one_game_refuse(two: Two) -> None:
    two.first.play(1, players=two.first.players[:12], seed=1)
    with refused(409, "merge.same_game"):
        merge(two.organiser, two.first.players[0], two.first.players[1])
    with refused(400, "merge.same_player"):
        merge(two.organiser, two.survivor, two.survivor)


def test_two_seats_of_one_round_refuse(two: Two) -> None:
    a = two.first
    a.table(1, 1, a.players[:12])
    a.table(1, 2, [two.duplicate, *two.second.players[1:12]], referee=two.second.referee)
    with refused(409, "merge.same_round"):
        merge_plan(two.organiser, two.survivor, two.duplicate)


def test_another_clubs_organiser_is_refused(two: Two) -> None:
    stranger = ClubOrganiserFactory().user
    with refused(403, "merge.not_allowed"):
        merge(stranger, two.survivor, two.duplicate)
    # organising the survivor's club is not enough when the duplicate is another club's
    elsewhere = played_event(n_players=12, rounds=1)
    far = elsewhere.players[0]
    far.user = None
    far.save()
    with refused(403, "merge.not_allowed"):
        merge_plan(two.organiser, two.survivor, far)
    assert Player.objects.filter(pk=two.duplicate.pk).exists()


# --- the page and the API ---------------------------------------------------------------


def test_the_page_shows_what_moves_then_merges(client: Any, two: Two) -> None:
    two.play()
    client.force_login(two.organiser)
    url = reverse("games:merge-players")
    query = {"survivor": two.survivor.handle, "duplicate": "@" + two.duplicate.handle}
    page = client.get(url, query)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="merge-plan"' in html and 'id="merge-confirm"' in html
    assert Player.objects.filter(pk=two.duplicate.pk).exists()  # a GET changes nothing
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = client.post(url, query)
    assert done.status_code == 302
    assert done["Location"] == reverse("results:player", args=[two.survivor.handle])
    assert not Player.objects.filter(pk=two.duplicate.pk).exists()
    # the rewritten games read as before: their page, and the survivor's player page
    for version in GameVersion.objects.filter(reason__startswith="merge:"):
        game_page = client.get(reverse("games:game", args=[version.game_id]))
        assert game_page.status_code == 200
        assert "None" not in game_page.content.decode()
    assert client.get(done["Location"]).status_code == 200


def test_the_page_says_why_a_merge_is_refused(client: Any, two: Two) -> None:
    client.force_login(two.organiser)
    url = reverse("games:merge-players")
    page = client.get(url, {"survivor": two.survivor.handle, "duplicate": two.survivor.handle})
    assert page.status_code == 200
    assert 'id="merge-refusal"' in page.content.decode()
    assert 'id="merge-confirm"' not in page.content.decode()


def test_the_page_refuses_another_clubs_organiser(client: Any, two: Two) -> None:
    client.force_login(ClubOrganiserFactory().user)
    url = reverse("games:merge-players")
    query = {"survivor": two.survivor.handle, "duplicate": two.duplicate.handle}
    assert client.get(url, query).status_code == 403
    client.post(url, query)
    assert Player.objects.filter(pk=two.duplicate.pk).exists()
    client.force_login(two.first.players[3].user)  # a player, no organiser
    assert client.get(url).status_code == 403


def test_the_api_previews_then_merges(two: Two) -> None:
    two.play()
    api = APIClient()
    api.force_authenticate(two.organiser)
    body = {"survivor": two.survivor.handle, "duplicate": two.duplicate.handle}
    preview = api.post("/api/v1/player-merges/", body, format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["merged"] is False
    assert preview.json()["moves"]["records"] == 2
    assert Player.objects.filter(pk=two.duplicate.pk).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = api.post("/api/v1/player-merges/", {**body, "confirm": True}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["merged"] is True
    assert not Player.objects.filter(pk=two.duplicate.pk).exists()


def test_the_api_answers_refusals_with_codes(two: Two) -> None:
    api = APIClient()
    api.force_authenticate(ClubOrganiserFactory().user)
    body = {"survivor": two.survivor.handle, "duplicate": two.duplicate.handle, "confirm": True}
    answer = api.post("/api/v1/player-merges/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (403, "merge.not_allowed")
    api.force_authenticate(two.organiser)
    body["duplicate"] = two.first.players[1].handle
    answer = api.post("/api/v1/player-merges/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "merge.two_accounts")
    body["duplicate"] = "nobody-at-all"
    assert api.post("/api/v1/player-merges/", body, format="json").status_code == 404
    body["duplicate"] = "not a handle"
    assert api.post("/api/v1/player-merges/", body, format="json").status_code == 400


def test_a_protest_filed_by_the_duplicate_moves_to_the_survivor(two: Two) -> None:
    two.play()
    game = Game.objects.filter(
        table__round__event=two.second.event,
        table__seats__player=two.duplicate,
        status=Game.Status.RELEASED,
    ).first()
    assert game is not None
    filer = Filer(player=two.duplicate, event_id=two.second.event.pk)
    protest = file_protest(filer, game, phase="day 1", text="The vote was miscounted.")
    merge(two.organiser, two.survivor, two.duplicate)
    protest.refresh_from_db()
    assert protest.player_id == two.survivor.pk
    assert not Player.objects.filter(pk=two.duplicate.pk).exists()
