"""An organiser runs a whole event set-up through the API alone (token auth)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.league.factories import ClubOrganiserFactory, RefereeFactory

pytestmark = pytest.mark.django_db


def test_event_set_up_through_the_api(django_capture_on_commit_callbacks: Any) -> None:
    org = ClubOrganiserFactory()
    refs = RefereeFactory.create_batch(3)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=org.user).key}")
    created = api.post(
        "/api/v1/events/",
        {
            "club": org.club.slug,
            "name": "API Open",
            "starts_on": "2030-05-01",
            "ends_on": "2030-05-01",
            "rounds_count": 3,
            "min_table": 8,
            "max_table": 12,
            "allow_extra_meeting": False,
            "round_starts": ["2030-05-01T10:00:00Z", "2030-05-01T12:00:00Z", None],
            "referees": [r.pk for r in refs],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    event = created.json()
    assert event["allow_extra_meeting"] is False
    base = f"/api/v1/events/{event['id']}"
    assert [r["starts_at"] is not None for r in event["rounds"]] == [True, True, False]
    bad = api.post(base + "/transition/", {"to": "finished"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_transition"
    assert api.post(base + "/transition/", {"to": "registration"}, format="json").status_code == 200

    rows = "display_name,handle\n" + "".join(f"Jugador {i},j{i}\n" for i in range(24))
    bad_csv = api.post(base + "/import/", {"text": "display_name,handle\nA,a b\n"}, format="json")
    assert bad_csv.status_code == 400
    [problem] = bad_csv.json()["problems"]
    assert (problem["row"], problem["column"], problem["code"]) == (
        2,
        "handle",
        "player.handle_invalid",
    )
    assert problem["params"] == {} and problem["message"].startswith("A handle may hold only")
    imported = api.post(base + "/import/", {"text": rows}, format="json")
    assert imported.json()["registered"] == 24
    regs = api.get(base + "/registrations/", {"q": "j1"}).json()["results"]
    assert {r["player"]["handle"] for r in regs} >= {"j1", "j10"}
    for reg in api.get(base + "/registrations/").json()["results"]:
        assert api.post(base + f"/registrations/{reg['id']}/check-in/").status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        job = api.post(base + "/draws/", {"from_round": 1}, format="json")
    assert job.status_code == 202
    done = api.get(f"/api/v1/draw-jobs/{job.json()['id']}/").json()
    assert done["status"] == "done", done
    rounds = api.get(base + "/rounds/").json()
    assert [r["status"] for r in rounds] == ["draft"] * 3
    assert all(t["referee"] for r in rounds for t in r["tables"])
    measures = {m["key"]: m for m in api.get(base + "/measures/").json()}
    assert measures["repeats"]["bound"] is not None

    t1, t2 = rounds[0]["tables"][:2]
    a, b = t1["seats"][0]["player"]["handle"], t2["seats"][0]["player"]["handle"]
    swapped = api.post(base + "/rounds/1/swap/", {"a": a, "b": b}, format="json").json()
    assert swapped["tables"][0]["seats"][0]["player"]["handle"] == b
    assert api.post(base + "/rounds/1/confirm/").status_code == 200
    released = api.post(base + "/rounds/1/release/")
    assert released.json()["status"] == "released"
    export = api.get(base + "/export/")
    assert export.status_code == 200 and export["Content-Type"].startswith("text/csv")

    anon = APIClient()
    public = anon.get(base + "/rounds/").json()
    assert [r["number"] for r in public] == [1]
    assert anon.get(base + "/rounds/2/").status_code == 404


def test_schema_and_docs_are_served(client: Any) -> None:
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    body = schema.content.decode()
    for path in (
        "/api/v1/events/{id}/draws/",
        "/api/v1/events/{id}/rounds/{number}/swap/",
        "/api/v1/clubs/{slug}/events/",
        "/api/v1/draw-jobs/{id}/",
    ):
        assert path in body
    assert client.get("/api/docs/").status_code == 200
