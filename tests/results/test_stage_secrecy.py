"""A hidden stage's standing is its organisers' until the stage is finished (formats.md
§1): as anonymous, a player of the final, the event's referee and an organiser, on every
surface — the stage's page, its CSV, the stage API, the event's standings (page, CSV,
API, breakdowns), the final table, and the page cache — and public once finished."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from league.stages.services import finish_stage
from tests.results.factories import Played
from tests.results.stages_factories import expected, play_all, three_stages

pytestmark = pytest.mark.django_db

READERS = ("organiser", "anonymous", "player", "referee")


@pytest.fixture
def hidden_final() -> tuple[Played, dict[str, Any]]:
    ev = three_stages(final_hidden=True)
    return ev, play_all(ev)


def login(client: Client, ev: Played, played: dict[str, Any], who: str) -> None:
    client.logout()
    if who == "organiser":
        client.force_login(ev.organiser)
    elif who == "player":
        client.force_login(played["final"][0].user)  # they played the final
    elif who == "referee":
        client.force_login(ev.referee.user)


def urls(ev: Played) -> dict[str, str]:
    args = [ev.club.slug, ev.event.slug]
    return {
        "page": reverse("results:stage-standings", args=[*args, 2]),
        "csv": reverse("results:stage-standings-csv", args=[*args, 2]),
        "api": reverse("results-api:stage-standings", args=[ev.event.pk, 2]),
        "stages": reverse("results-api:event-stages", args=[ev.event.pk]),
        "standings": reverse("results:standings", args=args),
        "standings_csv": reverse("results:standings-csv", args=args),
        "standings_api": reverse("results-api:standings", args=[ev.event.pk]) + "?items=1",
        "final": reverse("results:final-table", args=args),
    }


def final_order(client: Client, ev: Played) -> list[tuple[str, Decimal]]:
    data = client.get(urls(ev)["standings_api"]).json()
    return [(r["handle"], Decimal(r["points"])) for r in data["rows"]]


def test_hidden_until_finished_for_everyone_but_the_organisers(
    client: Client, hidden_final: tuple[Played, dict[str, Any]]
) -> None:
    ev, played = hidden_final
    u = urls(ev)
    whole = expected(ev, played)
    after_semi = expected(ev, played, stages=2)
    final_rows = whole.stages[2].cumulative.rows
    final_games = {g.pk for g in played["f"]}
    for who in READERS:  # the organiser first: whatever they saw is cached
        login(client, ev, played, who)
        organiser = who == "organiser"
        page = client.get(u["page"]).content.decode()
        csv = client.get(u["csv"])
        api = client.get(u["api"]).json()
        stages = client.get(u["stages"]).json()["stages"]
        final = client.get(u["final"]).content.decode()
        if organiser:
            assert 'id="stage-secret"' in page
            assert all(f'id="row-{r.player}"' in page for r in final_rows)
            assert csv.status_code == 200
            assert [line.split(",")[2] for line in csv.content.decode().splitlines()[1:]] == [
                r.player for r in final_rows
            ]
            assert [r["handle"] for r in api["rows"]] == [r.player for r in final_rows]
            assert not api["withheld"] and not stages[2]["withheld"]
            assert 'class="num total"' in final and 'id="final-hidden"' not in final
        else:
            assert 'id="stage-hidden"' in page, who
            assert 'id="stage-standings"' not in page and 'id="row-' not in page, who
            assert "download CSV" not in page
            assert csv.status_code == 403, who
            assert api["withheld"] and api["rows"] == [], who
            assert stages[2]["withheld"] and not stages[1]["withheld"], who
            assert 'id="final-hidden"' in final, who
            assert 'class="num total"' not in final and 'class="winner"' not in final, who
            # the seat plan is public: the finalists and the games' statuses
            assert all(p.display_name in final for p in played["final"])
        # The event's standings: the order after the semi-final, for everybody.
        assert final_order(client, ev) == [
            (f.player, f.points.quantize(Decimal("0.01"))) for f in after_semi.final
        ], who
        items = client.get(u["standings_api"]).json()["rows"]
        assert not {i["game"] for r in items for i in r["items"]} & final_games, who
        standings = client.get(u["standings"]).content.decode()
        assert 'id="stage-withheld"' in standings
        rows_csv = client.get(u["standings_csv"]).content.decode().splitlines()[1:]
        assert [line.split(",")[2] for line in rows_csv] == [f.player for f in after_semi.final]

    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_stage(ev.organiser, ev.event, 2)

    for who in READERS:
        login(client, ev, played, who)
        page = client.get(u["page"]).content.decode()
        assert all(f'id="row-{r.player}"' in page for r in final_rows), who
        assert 'id="stage-hidden"' not in page and 'id="stage-secret"' not in page
        assert client.get(u["csv"]).status_code == 200, who
        api = client.get(u["api"]).json()
        assert not api["withheld"] and len(api["rows"]) == 8, who
        assert final_order(client, ev) == [
            (f.player, f.points.quantize(Decimal("0.01"))) for f in whole.final
        ], who
        final = client.get(u["final"]).content.decode()
        assert 'class="num total"' in final and 'id="final-hidden"' not in final, who
        standings = client.get(u["standings"]).content.decode()
        assert 'id="stage-withheld"' not in standings


def test_an_unfinished_visible_stage_is_public(
    client: Client,
) -> None:
    """Only ``hidden`` hides: a plain stage shows as its games are released."""
    ev = three_stages()
    play_all(ev)
    page = client.get(urls(ev)["page"]).content.decode()
    assert 'id="stage-standings"' in page and 'id="stage-hidden"' not in page
    assert client.get(urls(ev)["csv"]).status_code == 200
