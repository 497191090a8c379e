"""The games API: submit, read versions, confirm, correct, release; 409 on stale writes."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, GameVersion
from tests.games.conftest import World

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def url(name: str, world: World) -> str:
    return reverse(f"games-api:{name}", args=[world.game.pk])


def test_submit_confirm_release_round_trip(world: World) -> None:
    ref, org = client_for(world.user("referee")), client_for(world.user("organiser"))
    detail = ref.get(url("detail", world))
    assert detail.status_code == 200 and detail["ETag"] == '"1"'
    r = ref.post(
        url("versions", world),
        {"record": world.record()},
        format="json",
        HTTP_IF_MATCH=detail["ETag"],
    )
    assert r.status_code == 201, r.content
    assert r.json()["status"] == "submitted" and r["ETag"] == '"2"'
    versions = org.get(url("versions", world)).json()
    assert [v["number"] for v in versions] == [1]
    assert versions[0]["record"]["seats"][0]["role"] in ("killer", "police", "civilian")
    own = ref.post(url("confirm", world), {"version": 1, "revision": 2}, format="json")
    assert own.status_code == 403 and "another official" in own.json()["detail"]
    ok = org.post(url("confirm", world), {"version": 1, "revision": 2}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "confirmed"
    assert ok.json()["confirmed"]["number"] == 1
    rel = org.post(url("release", world), {"revision": 3}, format="json")
    assert rel.status_code == 200 and rel.json()["status"] == "released"


def test_stale_write_gets_409_with_the_current_revision(world: World) -> None:
    ref, org = client_for(world.user("referee")), client_for(world.user("organiser"))
    assert (
        ref.post(
            url("versions", world), {"record": world.record(), "revision": 1}, format="json"
        ).status_code
        == 201
    )
    stale = org.post(
        url("versions", world), {"record": world.record(2), "revision": 1}, format="json"
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "game.stale_revision" and body["params"] == {"rev": 2}
    assert body["detail"].startswith("This game changed since you loaded it (now at revision 2)")
    assert body["revision"] == 2 and body["game"]["revision"] == 2
    assert body["game"]["id"] == world.game.pk
    assert GameVersion.objects.filter(game=world.game).count() == 1
    missing = org.post(url("versions", world), {"record": world.record(2)}, format="json")
    assert missing.status_code == 428 and missing.json()["code"] == "game.revision_required"


def test_a_refusal_answers_with_detail_code_params_and_its_status(world: World) -> None:
    """Every refusal of a service reaches the client through the API's one exception
    handler: the sentence, a stable code, its params and the status of the refusal."""
    ref, org = client_for(world.user("referee")), client_for(world.user("organiser"))
    ref.post(url("versions", world), {"record": world.record(), "revision": 1}, format="json")
    answers = {
        "own": ref.post(url("confirm", world), {"version": 1, "revision": 2}, format="json"),
        "missing": org.post(url("confirm", world), {"version": 7, "revision": 2}, format="json"),
        "early": org.post(url("release", world), {"revision": 2}, format="json"),
        "secret": client_for(world.user("other_player")).get(url("versions", world)),
        "outsider": client_for(world.user("other_referee")).post(
            url("sheet-step", world), {"step": {"type": "deal"}, "revision": 0}, format="json"
        ),
    }
    expected = {
        "own": (403, "game.own_submission", {}),
        "missing": (400, "game.no_version", {"n": 7}),
        "early": (409, "game.not_confirmed", {}),
        "secret": (403, "game.not_released", {}),
        "outsider": (403, "game.not_allowed", {}),
    }
    for name, (status, code, params) in expected.items():
        r = answers[name]
        body = r.json()
        assert (r.status_code, body["code"], body["params"]) == (status, code, params), name
        assert body["detail"] and "game" not in body, name
    assert answers["missing"].json()["detail"] == "This game has no version 7."
    es = APIClient(HTTP_ACCEPT_LANGUAGE="es")
    es.force_authenticate(world.user("referee"))
    translated = es.post(url("confirm", world), {"version": 1, "revision": 2}, format="json")
    assert translated.json()["code"] == "game.own_submission"
    assert translated.json()["detail"] != answers["own"].json()["detail"]


def test_invalid_record_is_stored_as_draft_with_violations(world: World) -> None:
    ref = client_for(world.user("referee"))
    rec = world.record()
    rec["log"][0]["kill"] = 99
    r = ref.post(url("versions", world), {"record": rec, "revision": 1}, format="json")
    assert r.status_code == 201
    body = r.json()
    assert body["status"] == "draft" and not body["valid"]
    assert any(v["code"] == "kill.unknown_seat" for v in body["violations"])
    conf = client_for(world.user("organiser")).post(
        url("confirm", world), {"version": 1, "revision": 2}, format="json"
    )
    assert conf.status_code == 409


def test_wrong_format_is_400_and_stores_nothing(world: World) -> None:
    ref = client_for(world.user("referee"))
    r = ref.post(
        url("versions", world), {"record": {"format": "pgn"}, "revision": 1}, format="json"
    )
    assert r.status_code == 400 and "wrong format" in r.json()["detail"]
    assert r.json()["code"] == "record.format"
    assert r.json()["params"] == {"want": '"kgr/1"', "got": '"pgn"'}
    assert not world.game.versions.exists()


def test_correction_with_reason(world: World) -> None:
    ref, org = client_for(world.user("referee")), client_for(world.user("organiser"))
    ref.post(url("versions", world), {"record": world.record(), "revision": 1}, format="json")
    org.post(url("confirm", world), {"version": 1, "revision": 2}, format="json")
    rec = world.record()
    rec["awards"] = [{"seat": 3, "kind": "penalty", "points": 0.5, "reason": "talked at night"}]
    no_reason = ref.post(url("versions", world), {"record": rec, "revision": 3}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["detail"]
    fixed = ref.post(
        url("corrections", world),
        {"record": rec, "reason": "penalty left off", "revision": 3},
        format="json",
    )
    assert fixed.status_code == 201 and fixed.json()["reason"] == "penalty left off"
    conf = org.post(url("confirm", world), {"version": 2, "revision": 4}, format="json")
    assert conf.status_code == 200
    assert conf.json()["confirmed"]["record"]["awards"][0]["reason"] == "talked at night"
    assert dict(world.game.versions.values_list("number", "status")) == {
        1: "superseded",
        2: "confirmed",
    }


def test_sheet_api_step_undo_submit(world: World) -> None:
    ref = client_for(world.user("referee"))
    s = ref.get(url("sheet", world)).json()
    assert s["revision"] == 0 and s["expected"]["step"] == "deal"
    roles = {str(i): "civilian" for i in range(1, 13)}
    roles.update(
        {"1": "killer", "2": "killer", "3": "killer", "4": "police", "5": "police", "6": "police"}
    )
    r = ref.post(
        url("sheet-step", world),
        {"step": {"type": "deal", "roles": roles, "id": "a"}, "revision": 0},
        format="json",
    )
    assert r.status_code == 200 and r.json()["expected"]["step"] == "night"
    bad = ref.post(
        url("sheet-step", world),
        {"step": {"type": "night", "kill": 40, "check": None, "id": "b"}, "revision": 1},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "kill.unknown_seat"
    stale = ref.post(
        url("sheet-step", world),
        {"step": {"type": "night", "kill": 7, "check": 1, "id": "c"}, "revision": 0},
        format="json",
    )
    assert stale.status_code == 409 and stale.json()["state"]["revision"] == 1
    undo = ref.post(url("sheet-undo", world), {"revision": 1}, format="json")
    assert undo.status_code == 200 and undo.json()["expected"]["step"] == "deal"
    sub = ref.post(url("sheet-submit", world), {"revision": 2}, format="json")
    assert sub.status_code == 400  # nothing dealt


def test_schema_lists_the_games_endpoints(client) -> None:
    r = client.get(reverse("api-schema"), {"format": "json"})
    assert r.status_code == 200
    paths = json.loads(r.content)["paths"]
    assert "/api/v1/games/{id}/confirm/" in paths
    assert "/api/v1/games/{id}/sheet/steps/" in paths


def test_list_filters_by_event(world: World) -> None:
    r = client_for(None).get(reverse("games-api:list"), {"event": world.event.pk})
    assert r.status_code == 200
    assert [g["id"] for g in r.json()] == [world.game.pk]
    assert Game.objects.count() == 1


def test_list_asks_event_gates_once(world: World, django_assert_max_num_queries) -> None:
    from games.services import game_for_table
    from league.models import Table

    for table in Table.objects.filter(round=world.round).exclude(pk=world.table.pk):
        game_for_table(table)
    c = client_for(world.user("other_player"))
    with django_assert_max_num_queries(12):
        r = c.get(reverse("games-api:list"), {"event": world.event.pk})
    assert len(r.json()) == 2
    assert all(g["confirmed"] is None and not g["secrets_visible"] for g in r.json())
