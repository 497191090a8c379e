"""Games pages: paper results, uploads with per-file reports, confirmation, query budgets."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import services, sheet
from games.models import Game, GameVersion
from games.replay import record_to_steps
from tests.games.conftest import World

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def upload(name: str, data: bytes | str) -> SimpleUploadedFile:
    raw = data.encode() if isinstance(data, str) else data
    return SimpleUploadedFile(name, raw, content_type="application/json")


def test_paper_result_only_entry(world: World) -> None:
    c = logged_in(world.user("referee"))
    path = reverse("games:paper", args=[world.game.pk])
    assert c.get(path).status_code == 200
    roles = ["killer"] * 3 + ["police"] * 3 + ["civilian"] * 6
    data = {f"role_{i}": r for i, r in enumerate(roles, start=1)} | {"winner": "good"}
    r = c.post(path, data, follow=True)
    assert r.status_code == 200
    v = world.game.versions.get()
    assert v.source == "paper" and v.status == "submitted" and v.completeness == "result-only"
    assert "log" not in v.record
    # wrong counts: stored as a draft, the violation shown on the game page
    data["role_12"] = "killer"
    r = c.post(path, data, follow=True)
    v2 = world.game.versions.get(number=2)
    assert v2.status == "draft" and v2.violations[0]["code"] == "setup.role_counts"
    assert "setup.role_counts" in r.content.decode()


def test_upload_reports_each_file(world: World) -> None:
    c = logged_in(world.user("referee"))
    good = world.record(21)
    illegal = world.record(22)
    illegal["log"][1]["eliminated"] = None if illegal["log"][1].get("eliminated") else 1
    files = [
        upload("good.json", json.dumps(good)),
        upload("notjson.json", "{this is not json"),
        upload("wrongformat.json", json.dumps({"format": "pgn/1", "moves": []})),
        upload("illegal.json", json.dumps(illegal)),
    ]
    r = c.post(reverse("games:upload", args=[world.game.pk]), {"records": files})
    assert r.status_code == 200
    report = {x["file"]: x for x in r.context["reports"]}
    assert report["good.json"]["ok"] and "accepted as version 1" in report["good.json"]["message"]
    assert not report["notjson.json"]["ok"]
    assert "not JSON" in report["notjson.json"]["message"]
    assert "line 1 column 2" in report["notjson.json"]["message"]
    assert "wrong format" in report["wrongformat.json"]["message"]
    assert not report["illegal.json"]["ok"] and report["illegal.json"]["violations"]
    assert "draft version 2" in report["illegal.json"]["message"]
    assert list(world.game.versions.values_list("number", "status")) == [
        (1, "submitted"),
        (2, "draft"),
    ]


def test_event_upload_matches_files_to_tables(world: World) -> None:
    c = logged_in(world.user("organiser"))
    rec = world.record(23, meta={"event": "x", "round": "1", "table": "1"})
    nowhere = world.record(24, meta={"round": "1", "table": "9"})
    no_meta = world.record(25)
    files = [
        upload("t1.json", json.dumps(rec)),
        upload("t9.json", json.dumps(nowhere)),
        upload("nometa.json", json.dumps(no_meta)),
    ]
    r = c.post(reverse("games:event", args=[world.event.pk]), {"verb": "upload", "records": files})
    report = {x["file"]: x for x in r.context["reports"]}
    assert report["t1.json"]["ok"]
    assert "no table 9 in round 1" in report["t9.json"]["message"]
    assert "meta.round and meta.table" in report["nometa.json"]["message"]
    assert world.game.versions.count() == 1


def test_confirm_and_release_through_pages(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    world.game.refresh_from_db()
    own = logged_in(world.user("referee")).post(
        reverse("games:confirm", args=[world.game.pk]), {"version": 1, "revision": 2}, follow=True
    )
    assert "another official" in own.content.decode()
    org = logged_in(world.user("organiser"))
    org.post(reverse("games:confirm", args=[world.game.pk]), {"version": 1, "revision": 2})
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.CONFIRMED
    stale = org.post(reverse("games:release", args=[world.game.pk]), {"revision": 2}, follow=True)
    assert "changed since you loaded it" in stale.content.decode()
    org.post(reverse("games:release", args=[world.game.pk]), {"revision": 3})
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.RELEASED


def test_a_refused_page_action_goes_back_with_the_message(world: World) -> None:
    """A service's refusal on a page (here a stale release) is answered in one place
    (``league.errors.UserErrorMiddleware``): back where the form was, the sentence as an
    error message, nothing changed."""
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    game_path = reverse("games:game", args=[world.game.pk])
    org = logged_in(world.user("organiser"))
    r = org.post(
        reverse("games:release", args=[world.game.pk]),
        {"revision": 1, "next": game_path},
    )
    assert r.status_code == 302 and r["Location"] == game_path
    page = org.get(game_path).content.decode()
    assert '<li class="msg-error">This game changed since you loaded it (now at revision 3)' in page
    assert Game.objects.get(pk=world.game.pk).status == Game.Status.CONFIRMED
    # without a form's next, back to the Referer; in the reader's language
    es = logged_in(world.user("organiser"))
    r = es.post(
        reverse("games:void", args=[world.game.pk]),
        {"reason": " ", "revision": 3},
        HTTP_REFERER=f"http://testserver{game_path}",
        HTTP_ACCEPT_LANGUAGE="es",
        follow=True,
    )
    assert r.redirect_chain == [(game_path, 302)]
    assert "msg-error" in r.content.decode()
    assert Game.objects.get(pk=world.game.pk).status == Game.Status.CONFIRMED


def test_referee_opens_the_table_from_my_games(world: World) -> None:
    world.game.delete()
    c = logged_in(world.user("referee"))
    page = c.get(reverse("games:mine"))
    assert page.status_code == 200 and world.event.name in page.content.decode()
    r = c.post(reverse("games:open-table", args=[world.table.pk]))
    game = Game.objects.get(table=world.table)
    assert r.status_code == 302 and r["Location"] == reverse("games:sheet", args=[game.pk])
    other = logged_in(world.user("other_referee"))
    assert other.post(reverse("games:open-table", args=[world.table.pk])).status_code == 404


def test_organiser_creates_and_releases_round_games(world: World) -> None:
    c = logged_in(world.user("organiser"))
    path = reverse("games:event", args=[world.event.pk])
    c.post(path, {"verb": "create", "round": "1"})
    assert Game.objects.filter(table__round=world.round).count() == 2
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    c.post(path, {"verb": "release", "round": "1"})
    world.game.refresh_from_db()
    assert world.game.status == "released"


def test_club_game_outside_events(db: None) -> None:
    from tests.league.factories import ClubOrganiserFactory, PlayerFactory

    org = ClubOrganiserFactory()
    players = [PlayerFactory() for _ in range(8)]
    c = logged_in(org.user)
    path = reverse("games:club-new", args=[org.club.slug])
    nobody = "\n".join(f"nobody-{i}" for i in range(8))
    bad = c.post(path, {"ruleset": "classic", "players": nobody})
    assert bad.status_code == 200 and "Unknown players" in bad.content.decode()
    handles = "\n".join("@" + p.handle for p in players)
    r = c.post(path, {"ruleset": "classic", "title": "Friday", "players": handles})
    game = Game.objects.get(club=org.club)
    assert r.status_code == 302 and game.players == [p.handle for p in players]
    roles = ["killer", "killer", "police", "police"] + ["civilian"] * 4
    step = {"type": "deal", "roles": {str(i): r for i, r in enumerate(roles, 1)}, "id": "d"}
    state = sheet.add_step(org.user, game, step, 0)
    assert state["expected"]["step"] == "night"
    assert [s["player"] for s in state["seats"]] == [p.handle for p in players]
    page = c.get(reverse("games:game", args=[game.pk])).content.decode()
    assert players[0].display_name in page
    paper = {f"role_{i}": r for i, r in enumerate(roles, 1)} | {"winner": "good"}
    c.post(reverse("games:paper", args=[game.pk]), paper)
    v = game.versions.get()
    assert v.status == "submitted", v.violations
    # a record with other players is not this game's
    rec = dict(v.record, seats=[dict(x, player=x["player"] + "x") for x in v.record["seats"]])
    other = services.submit_record(org.user, game, rec, "api")
    assert other.violations[0]["code"] == "platform.seating"


def test_query_budget_game_page(world: World, django_assert_max_num_queries) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    for role in ("anonymous", "referee", "organiser"):
        user = world.user(role)
        c = logged_in(user) if user else Client()
        with django_assert_max_num_queries(10):
            assert c.get(reverse("games:game", args=[world.game.pk])).status_code == 200


def test_query_budget_sheet(world: World, django_assert_max_num_queries) -> None:
    record = world.record(31)
    steps = record_to_steps(record)
    ref = world.user("referee")
    state = sheet.sheet_state(ref, world.game)
    for i, s in enumerate(steps[: len(steps) // 2]):
        state = sheet.add_step(ref, world.game, {**s, "id": str(i)}, state["revision"])
    c = logged_in(ref)
    with django_assert_max_num_queries(9):
        assert c.get(reverse("games:sheet", args=[world.game.pk])).status_code == 200
    nxt = steps[len(steps) // 2]
    with django_assert_max_num_queries(12):
        r = c.post(
            reverse("games-api:sheet-step", args=[world.game.pk]),
            {"step": {**nxt, "id": "q"}, "revision": state["revision"]},
            content_type="application/json",
        )
    assert r.status_code == 200, r.content


def test_version_source_is_recorded(world: World) -> None:
    v = services.submit_record(world.user("referee"), world.game, world.record(), "api")
    assert v.source == GameVersion.Source.API and v.submitted_by == world.user("referee")


def test_status_dependent_parts_of_the_pages(world: World) -> None:
    """The pages compare statuses with the models' enums (a wrong name in a template is
    silently false): each part shows at the status it belongs to."""
    ref, org = logged_in(world.user("referee")), logged_in(world.user("organiser"))
    services.submit_record(world.user("referee"), world.game, world.record(), "api")
    sheet_link = reverse("games:sheet", args=[world.game.pk])
    assert sheet_link in ref.get(reverse("games:mine")).content.decode()
    review = reverse("games:review", args=[world.game.pk, 1])
    assert "another official confirms it" in ref.get(review).content.decode()
    assert 'id="confirm-button"' in org.get(review).content.decode()
    services.confirm_version(world.user("organiser"), world.game, 1)
    assert (
        'id="release-form"' in org.get(reverse("games:game", args=[world.game.pk])).content.decode()
    )
    assert "the game's confirmed record" in org.get(review).content.decode()
    assert (
        'value="create"' in org.get(reverse("games:event", args=[world.event.pk])).content.decode()
    )
