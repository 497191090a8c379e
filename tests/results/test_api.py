"""The results API: same data and gates as the pages, documented in the schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from league.models import Event
from results.models import EventStanding, PlayerRating
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def ev() -> Played:
    ev = played_event(n_players=14)
    ev.play(1, 1, ev.players[:12], seed=21)
    ev.play(2, 1, ev.players[2:14], seed=22)
    return ev


def test_standings(api: APIClient, ev: Played) -> None:
    url = reverse("results-api:standings", args=[ev.event.pk])
    data = api.get(url).json()
    rows = list(EventStanding.objects.filter(event=ev.event).order_by("position"))
    assert [r["handle"] for r in data["rows"]] == [r.handle for r in rows]
    assert data["precedence"][-1] == "lots" and not data["stale"] and data["games"] == 2
    first = data["rows"][0]
    assert set(first["metrics"]) == set(data["precedence"])
    assert first["why"] and "items" not in first
    detailed = api.get(url + "?items=1").json()["rows"][0]
    assert sum(float(i["points"]) for i in detailed["items"]) == pytest.approx(
        float(detailed["points"])
    )


def test_standings_of_draft_event_404(api: APIClient, ev: Played) -> None:
    Event.objects.filter(pk=ev.event.pk).update(status=Event.Status.DRAFT)
    assert api.get(reverse("results-api:standings", args=[ev.event.pk])).status_code == 404


def test_leaderboard(api: APIClient, ev: Played) -> None:
    data = api.get(reverse("results-api:ratings") + "?min_games=2").json()
    assert data["count"] == 10
    ratings = [r["rating"] for r in data["results"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [r["position"] for r in data["results"]] == list(range(1, 11))
    by_role = api.get(reverse("results-api:ratings") + "?role=police&club=" + ev.club.slug).json()
    assert all(r["police_games"] >= 1 for r in by_role["results"])


def test_player_profile(api: APIClient, ev: Played) -> None:
    player = ev.players[4]
    data = api.get(reverse("results-api:player", args=[player.handle])).json()
    rating = PlayerRating.objects.get(player=player)
    assert data["rating"] == pytest.approx(rating.rating)
    assert len(data["history"]) == 2 and len(data["recent_games"]) == 2
    assert {r["role"] for r in data["roles"]} == {"killer", "police", "civilian"}
    for r in data["roles"]:
        assert 0 <= r["ci_low"] <= r["ci_high"] <= 1
    assert data["events"][0]["slug"] == ev.event.slug
    assert api.get(reverse("results-api:player", args=["nobody"])).status_code == 404


def test_club_and_rankings(api: APIClient, ev: Played) -> None:
    data = api.get(reverse("results-api:club", args=[ev.club.slug])).json()
    assert len(data["members"]) == 14
    assert data["events"][0]["podium"][0]["rank"] == 1


@pytest.mark.parametrize("who", ["anonymous", "referee"])
def test_game_result_gate(api: APIClient, who: str) -> None:
    ev = played_event()
    game = ev.play(1, seed=4, release=False)
    if who == "referee":
        api.force_authenticate(ev.referee.user)
    url = reverse("results-api:game", args=[game.pk])
    data = api.get(url).json()
    if who == "anonymous":
        assert data["seats"] == [] and data["account"] == [] and data["winner"] is None
        assert "killer" not in str(data)
    else:
        assert len(data["seats"]) == 12
    ev.release(Game.objects.get(pk=game.pk))
    api.force_authenticate(None)
    data = api.get(url).json()
    assert data["released"] and len(data["seats"]) == 12 and data["account"]
    assert {s["role"] for s in data["seats"]} >= {"killer", "civilian"}


def test_schema_documents_results(api: APIClient) -> None:
    schema: Any = api.get(reverse("api-schema") + "?format=json").json()
    paths = schema["paths"]
    for p in (
        "/api/v1/rankings/ratings/",
        "/api/v1/rankings/players/{handle}/",
        "/api/v1/rankings/clubs/{slug}/",
        "/api/v1/rankings/seasons/{id}/",
        "/api/v1/rankings/leagues/{slug}/",
        "/api/v1/results/events/{id}/standings/",
        "/api/v1/results/games/{id}/",
    ):
        assert p in paths, p
    params = {p["name"] for p in paths["/api/v1/rankings/ratings/"]["get"]["parameters"]}
    assert {"club", "season", "role", "min_games", "page"} <= params


def _game_ids(value: Any) -> set[Any]:
    """Every ``game`` value anywhere in a JSON answer."""
    if isinstance(value, list):
        return set().union(*(_game_ids(v) for v in value))
    if isinstance(value, dict):
        found = {value["game"]} if "game" in value else set()
        return found.union(*(_game_ids(v) for v in value.values()))
    return set()


def test_unreleased_game_is_in_no_api_answer(api: APIClient, ev: Played) -> None:
    hidden = ev.play(3, 1, ev.players[:12], seed=23, release=False)
    answers = [
        api.get(reverse("results-api:ratings")).json(),
        api.get(reverse("results-api:player", args=[ev.players[0].handle])).json(),
        api.get(reverse("results-api:club", args=[ev.club.slug])).json(),
        api.get(reverse("results-api:standings", args=[ev.event.pk]) + "?items=1").json(),
    ]
    released = set(Game.objects.filter(status=Game.Status.RELEASED).values_list("pk", flat=True))
    assert released & _game_ids(answers)  # the walk finds the games that are shown
    assert hidden.pk not in _game_ids(answers)
    profile = answers[1]
    assert all(g["game"] != hidden.pk for g in profile["recent_games"])
    assert all(h["game"] != hidden.pk for h in profile["history"])
    standings = answers[3]
    assert all(i["game"] != hidden.pk for r in standings["rows"] for i in r["items"])
    assert standings["games"] == 2


@pytest.mark.parametrize("lang", ["en", "zh-hans", "es"])
def test_point_lines_carry_code_params_and_reason_in_the_readers_language(
    ev: Played, lang: str
) -> None:
    """Stored lines keep code and params (no sentence); the API renders the reason."""
    from django.utils import translation

    from league.engine_text import engine_text

    stored = [i for r in EventStanding.objects.filter(event=ev.event) for i in r.items]
    assert stored and all(set(i) == {"game", "kind", "points", "code", "params"} for i in stored)
    api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    url = reverse("results-api:standings", args=[ev.event.pk]) + "?items=1"
    items = [i for r in api.get(url).json()["rows"] for i in r["items"]]
    game = ev.event.rounds.get(number=1).tables.get(number=1).game
    seats = api.get(reverse("results-api:game", args=[game.pk])).json()["seats"]
    items += [i for s in seats for i in s["items"]]
    assert {i["code"] for i in items} >= {"points.result"}
    with translation.override(lang):
        for i in items:
            assert isinstance(i["params"], dict)
            assert i["reason"] == engine_text(i["code"], i["params"])
    won = next(i for i in items if i["params"].get("variant") == "win")
    assert won["reason"].startswith({"en": "won: ", "zh-hans": "胜：", "es": "victoria: "}[lang])
