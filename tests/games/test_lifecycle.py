"""Event-day integrity (issue 14): no organiser action deletes or rewrites recorded play.

Through the services, the organiser pages and the API: games exist only for released
rounds; tables with a recorded game are frozen for swaps and referee changes until the
game is voided; redraws keep played and hand-placed tables; "assign referees" keeps
referees placed by hand; a void keeps everything and counts for nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from engine.simulate import simulate_game
from games import services as games
from games.models import Game, GameSheet, GameVersion
from league.draws import services as draw_services
from league.errors import UserError
from league.models import AuditEntry, DrawJob, Event, Round, Seat, Table
from tests.games.conftest import refused
from tests.league.factories import (
    ClubOrganiserFactory,
    EventFactory,
    RefereeFactory,
    registered_players,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    event = EventFactory(club=organiser.organised_clubs.get().club, rounds_count=3)
    registered_players(event, 24)
    event.referees.add(*RefereeFactory.create_batch(3))
    return event


def draw(actor: Any, event: Event, capture: Any, **kwargs: Any) -> DrawJob:
    with capture(execute=True):
        job = draw_services.request_draw(actor, event, **kwargs)
    job.refresh_from_db()
    assert job.status == "done", job.error
    return job


def release(actor: Any, rnd: Round) -> Round:
    draw_services.confirm_round(actor, rnd)
    return draw_services.release_round(actor, Round.objects.get(pk=rnd.pk))


def seating(rnd: Round) -> dict[int, list[int]]:
    return {
        t.number: list(t.seats.order_by("number").values_list("player_id", flat=True))
        for t in Table.objects.filter(round=rnd)
    }


def record_for(table: Table, seed: int = 3) -> dict[str, Any]:
    handles = list(table.seats.order_by("number").values_list("player__handle", flat=True))
    return simulate_game(table.round.event.ruleset, len(handles), seed, players=handles)


def played_game(actor: Any, table: Table) -> Game:
    """A game at ``table`` with one submitted version (recorded play)."""
    game = games.game_for_table(table, actor)
    version = games.submit_record(actor, game, record_for(table), "upload")
    assert version.status == "submitted", version.violations
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def released_round(organiser: Any, event: Event, django_capture_on_commit_callbacks: Any) -> Round:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=2)
    return release(organiser, event.rounds.get(number=1))


# --- no game before release ------------------------------------------------------------------


def test_no_game_for_an_unreleased_round(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    table = rnd.tables.first()
    with refused(409, "game.round_not_released"):
        games.game_for_table(table, organiser)
    with refused(409, "game.round_not_released"):
        games.create_round_games(organiser, rnd)
    draw_services.confirm_round(organiser, rnd)
    with refused(409, "game.round_not_released"):
        games.game_for_table(table, organiser)
    assert not Game.objects.exists()
    rnd = draw_services.release_round(organiser, Round.objects.get(pk=rnd.pk))
    assert len(games.create_round_games(organiser, rnd)) == rnd.tables.count()


def test_the_open_table_page_creates_no_game_for_a_draft_round(
    client: Any, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    table = event.rounds.get(number=1).tables.first()
    client.force_login(organiser)
    page = reverse("games:event", args=[event.pk])
    response = client.post(
        reverse("games:open-table", args=[table.pk]), HTTP_REFERER="http://testserver" + page
    )
    assert response.status_code == 302 and response["Location"] == page
    assert "not released" in client.get(page).content.decode()
    assert not Game.objects.exists()
    assert client.get(reverse("games:open-table", args=[table.pk])).status_code == 405


# --- frozen tables -------------------------------------------------------------------------


def test_swap_and_referee_change_refused_at_a_played_table_until_void(
    organiser: Any, event: Event, released_round: Round
) -> None:
    t1, t2 = released_round.tables.order_by("number")[:2]
    game = played_game(organiser, t1)
    before = seating(released_round)
    a = t1.seats.get(number=1).player
    b = t2.seats.get(number=1).player
    with pytest.raises(UserError, match="round 1 table 1") as swap:
        draw_services.swap_players(organiser, released_round, a, b)
    assert swap.value.code == "played"
    free = RefereeFactory()
    event.referees.add(free)
    with pytest.raises(UserError, match="round 1 table 1"):
        draw_services.move_referee(organiser, t1, free)
    assert seating(released_round) == before
    version = game.versions.get()
    assert version.record["seats"][0]["player"] == a.handle

    games.void_game(organiser, game, "dealt to the wrong table")
    game.refresh_from_db()
    assert game.status == "voided" and game.table_id is None
    assert (game.voided_event_id, game.voided_round, game.voided_table) == (event.pk, 1, 1)
    assert game.players[0] == a.handle
    assert game.versions.get().record == version.record  # kept, unchanged
    draw_services.swap_players(organiser, released_round, a, b)
    assert Seat.objects.get(round=released_round, player=a).table_id == t2.pk
    assert AuditEntry.objects.filter(action="game.void", target_id=game.pk).exists()


def test_a_sheet_step_freezes_the_table_too(
    organiser: Any, event: Event, released_round: Round
) -> None:
    t1, t2 = released_round.tables.order_by("number")[:2]
    game = games.game_for_table(t1, organiser)
    GameSheet.objects.create(game=game, revision=1, steps=[{"id": "1", "type": "deal"}])
    with pytest.raises(UserError, match="round 1 table 1"):
        draw_services.swap_players(
            organiser, released_round, t1.seats.first().player, t2.seats.first().player
        )


def test_released_round_allows_a_substitution_at_an_unplayed_table(
    organiser: Any, event: Event, released_round: Round
) -> None:
    t1, t2, *_ = released_round.tables.order_by("number")
    played_game(organiser, t1)
    a, b = t2.seats.get(number=1).player, t2.seats.get(number=2).player
    assert draw_services.swap_players(organiser, released_round, a, b) == [2]
    assert Seat.objects.get(round=released_round, player=a).number == 2
    assert Seat.objects.get(round=released_round, player=a).pinned


def test_a_void_needs_an_organiser_and_a_reason(
    organiser: Any, event: Event, released_round: Round
) -> None:
    game = played_game(organiser, released_round.tables.first())
    referee = RefereeFactory()
    with refused(403, "game.not_allowed"):
        games.void_game(referee.user, game, "no")
    with refused(400, "game.reason_required"):
        games.void_game(organiser, game, "  ")
    games.void_game(organiser, game, "replayed")
    with refused(409, "game.voided"):
        games.void_game(organiser, Game.objects.get(pk=game.pk), "again")
    with refused(409, "game.voided"):
        games.submit_record(
            organiser,
            Game.objects.get(pk=game.pk),
            record_for(released_round.tables.first()),
            "upload",
        )
    # the table is free: a new game may be played there
    fresh = games.game_for_table(Table.objects.get(pk=released_round.tables.first().pk))
    assert fresh.pk != game.pk and fresh.status == "draft"


def test_a_voided_game_counts_for_nothing(
    organiser: Any, event: Event, released_round: Round, django_capture_on_commit_callbacks: Any
) -> None:
    from results.models import EventStanding

    table = released_round.tables.first()
    game = played_game(organiser, table)
    confirmer = ClubOrganiserFactory(club=event.club).user
    with django_capture_on_commit_callbacks(execute=True):
        games.confirm_version(confirmer, game, 1)
    with django_capture_on_commit_callbacks(execute=True):
        games.release_game(organiser, Game.objects.get(pk=game.pk))
    assert EventStanding.objects.filter(event=event).count() == table.seats.count()
    with django_capture_on_commit_callbacks(execute=True):
        games.void_game(organiser, Game.objects.get(pk=game.pk), "wrong players at the table")
    assert not EventStanding.objects.filter(event=event, games__gt=0).exists()
    assert GameVersion.objects.filter(game=game, status="confirmed").exists()
    from results.models import RatingPoint, ScoredGame

    assert not ScoredGame.objects.filter(game_id=game.pk).exists()
    assert not RatingPoint.objects.filter(game_id=game.pk).exists()


def test_voiding_a_confirmed_game_leaves_no_stale_event(
    organiser: Any, event: Event, released_round: Round, django_capture_on_commit_callbacks: Any
) -> None:
    """Its task finds the event through the voided game itself (it has left its table)."""
    from results.models import EventResults

    game = played_game(organiser, released_round.tables.first())
    confirmer = ClubOrganiserFactory(club=event.club).user
    with django_capture_on_commit_callbacks(execute=True):
        games.confirm_version(confirmer, game, 1)
    with django_capture_on_commit_callbacks(execute=True):
        games.void_game(organiser, Game.objects.get(pk=game.pk), "played at the wrong table")
    assert not EventResults.objects.get(event=event).stale


# --- redraws keep recorded play and hand-placed tables ---------------------------------------


def test_redraw_keeps_a_table_with_recorded_play_and_says_so(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    """A game recorded in a draft round (legacy data) survives a redraw of that round."""
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    rnd = event.rounds.get(number=2)
    table = rnd.tables.get(number=1)
    players = list(table.seats.order_by("number").values_list("player_id", flat=True))
    game = Game.objects.create(table=table)  # as earlier code could
    GameVersion.objects.create(game=game, number=1, record={"seats": []}, source="upload")
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=2, seed=99)
    table.refresh_from_db()
    assert list(table.seats.order_by("number").values_list("player_id", flat=True)) == players
    assert Game.objects.get(pk=game.pk).table_id == table.pk
    assert GameVersion.objects.filter(game=game).count() == 1
    kept = [w["params"]["tables"] for w in job.warnings if w["code"] == "league.draw.kept"]
    assert kept == [[{"round": 2, "table": 1, "why": "played"}]]
    seated = list(Seat.objects.filter(round=rnd).values_list("player_id", flat=True))
    assert len(seated) == len(set(seated)) == 24
    numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))


def test_redraw_keeps_swapped_seats(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    rnd = event.rounds.get(number=2)
    t1, t2 = rnd.tables.order_by("number")[:2]
    a, b = t1.seats.get(number=2).player, t2.seats.get(number=5).player
    draw_services.swap_players(organiser, rnd, a, b)
    pinned = seating(rnd)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=2, seed=7)
    after = seating(rnd)
    assert after[t1.number] == pinned[t1.number] and after[t2.number] == pinned[t2.number]
    kept = [w["params"]["tables"] for w in job.warnings if w["code"] == "league.draw.kept"]
    assert len(kept) == 1 and {t["why"] for t in kept[0]} == {"pinned"}
    draw_services.unpin_round(organiser, Round.objects.get(pk=rnd.pk))
    assert not Seat.objects.filter(round=rnd, pinned=True).exists()


def test_redraw_of_a_released_round_is_still_refused(
    organiser: Any, event: Event, released_round: Round, django_capture_on_commit_callbacks: Any
) -> None:
    with pytest.raises(UserError, match="released"):
        draw_services.request_draw(organiser, event, from_round=1)


# --- pinned referees ---------------------------------------------------------------------------


def test_assign_referees_keeps_a_referee_placed_by_hand(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    event.referees.add(*RefereeFactory.create_batch(2))
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    table = rnd.tables.get(number=2)
    chosen = next(r for r in event.referees.all() if r.pk != table.referee_id)
    draw_services.move_referee(organiser, table, chosen)
    table.refresh_from_db()
    assert table.referee_pinned and table.referee_id == chosen.pk
    for seed in range(5):
        done = draw_services.assign_referees(organiser, event, seed=seed)
        assert done.kept >= 1
        assert Table.objects.get(pk=table.pk).referee_id == chosen.pk
        refs = list(rnd.tables.values_list("referee_id", flat=True))
        assert None not in refs and len(set(refs)) == len(refs)


# --- pages: return where you were, with the new status -----------------------------------------


def test_failed_action_returns_to_the_page_it_came_from(
    client: Any, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    client.force_login(organiser)
    page = reverse("event-draw", args=[event.pk])
    swap = reverse("round-swap", args=[event.pk, 1])
    response = client.post(
        swap, {"a": "nobody-here", "b": "nor-here"}, HTTP_REFERER="http://testserver" + page
    )
    assert response.status_code == 302 and response["Location"] == page
    followed = client.get(page)
    assert "No player has the handle @nobody-here" in followed.content.decode()
    # a Referer from elsewhere is not followed
    response = client.post(swap, {"a": "x", "b": "y"}, HTTP_REFERER="https://evil.example/")
    assert response["Location"] == reverse("home")
    response = client.post(swap, {"a": "x", "b": "y", "next": "//evil.example/x"})
    assert "evil" not in response["Location"]


def test_round_message_names_the_new_status(
    client: Any, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    client.force_login(organiser)
    response = client.post(reverse("round-action", args=[event.pk, 1, "confirm"]), follow=True)
    assert "Round 1 is now confirmed." in response.content.decode()
    response = client.post(reverse("round-action", args=[event.pk, 1, "release"]), follow=True)
    assert "Round 1 is now released." in response.content.decode()


def test_draw_page_shows_pins_and_asks_before_release(
    client: Any, organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")[:2]
    client.force_login(organiser)
    response = client.post(
        reverse("round-swap", args=[event.pk, 1]),
        {"a": t1.seats.get(number=1).player.handle, "b": t2.seats.get(number=1).player.handle},
        follow=True,
    )
    html = response.content.decode()
    assert "swapped (tables 1, 2)" in html
    assert html.count("📌") >= 2
    draw_services.confirm_round(organiser, rnd)
    html = client.get(reverse("event-draw", args=[event.pk])).content.decode()
    assert 'data-confirm="Release round 1?' in html


# --- API ----------------------------------------------------------------------------------------


def test_api_void_and_unpin(organiser: Any, event: Event, released_round: Round) -> None:
    game = played_game(organiser, released_round.tables.first())
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/games/{game.pk}/void/"
    assert api.post(url, {"reason": "x"}, format="json").status_code == 428
    stranger = get_user_model().objects.create_user("someone", password="pw")
    other = APIClient()
    other.force_authenticate(stranger)
    assert other.post(url, {"reason": "x", "revision": game.revision}).status_code in (403, 404)
    response = api.post(url, {"reason": "", "revision": game.revision}, format="json")
    assert response.status_code == 400
    response = api.post(url, {"reason": "wrong table", "revision": game.revision}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "voided" and body["void"]["reason"] == "wrong table"
    assert (body["round"], body["table"]) == (1, 1)
    t2 = released_round.tables.get(number=2)
    swap = f"/api/v1/events/{event.pk}/rounds/1/swap/"
    a, b = t2.seats.get(number=1).player.handle, t2.seats.get(number=2).player.handle
    data = api.post(swap, {"a": a, "b": b}, format="json").json()
    table = next(t for t in data["tables"] if t["number"] == 2)
    assert [s["pinned"] for s in table["seats"]][:2] == [True, True]
    data = api.post(f"/api/v1/events/{event.pk}/rounds/1/unpin/").json()
    assert not any(s["pinned"] for t in data["tables"] for s in t["seats"])


# --- no side doors ------------------------------------------------------------------------------


def test_admin_cannot_change_or_delete_recorded_play(
    client: Any, organiser: Any, event: Event, released_round: Round
) -> None:
    game = played_game(organiser, released_round.tables.first())
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    for model, pk in (
        ("games/game", game.pk),
        ("games/gameversion", game.versions.get().pk),
        ("league/round", released_round.pk),
        ("league/table", released_round.tables.first().pk),
        ("league/seat", Seat.objects.filter(round=released_round).first().pk),
    ):
        change = f"/admin/{model}/{pk}/change/"
        page = client.get(change)
        assert page.status_code == 200, model
        assert 'name="_save"' not in page.content.decode(), model
        assert client.post(change, {}).status_code == 403, model
        assert client.post(f"/admin/{model}/{pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk, table__isnull=False).exists()
    # deleting who judged or submitted is refused too (the database protects them)
    table = released_round.tables.first()
    referee = table.referee
    client.post(f"/admin/league/referee/{referee.pk}/delete/", {"post": "yes"})
    client.post(f"/admin/auth/user/{referee.user_id}/delete/", {"post": "yes"})
    client.post(f"/admin/auth/user/{organiser.pk}/delete/", {"post": "yes"})
    table.refresh_from_db()
    assert table.referee_id == referee.pk
    assert game.versions.get().submitted_by_id == organiser.pk


def test_releasing_a_round_releases_its_confirmed_games_at_once(
    organiser: Any, event: Event, released_round: Round, django_capture_on_commit_callbacks: Any
) -> None:
    from results.models import EventStanding

    confirmer = ClubOrganiserFactory(club=event.club).user
    tables = list(released_round.tables.order_by("number"))
    for table in tables:
        game = played_game(organiser, table)
        with django_capture_on_commit_callbacks(execute=True):
            games.confirm_version(confirmer, game, 1)
    draft = games.game_for_table(Table.objects.create(round=released_round, number=99))
    url = f"/api/v1/events/{event.pk}/rounds/1/release-games/"
    referee = APIClient()
    referee.force_authenticate(event.referees.first().user)
    assert referee.post(url).status_code in (403, 404)
    api = APIClient()
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = api.post(url)
    assert response.status_code == 200 and response.json() == {"released": len(tables)}
    assert len(callbacks) == 1  # one results task for the whole round
    released = Game.objects.filter(table__round=released_round, status="released")
    assert released.count() == len(tables)
    assert Game.objects.get(pk=draft.pk).status == "draft"
    assert AuditEntry.objects.filter(action="game.release").count() == len(tables)
    seated = sum(t.seats.count() for t in tables)
    assert EventStanding.objects.filter(event=event).count() == seated
    assert api.post(url).json() == {"released": 0}
