"""Stage pages and API: the cut page (organisers only, the line where the entry draws it,
the entrants frozen through the league's service), each stage's standing with the
switcher and the next stage's cut line, the stage API, and the final table."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from engine.formats.stages import Entry, EntryKind
from games.models import Game
from league.events.models import Round
from league.stages.models import Stage
from results.models import EventResults, StageStanding
from tests.league.factories import ClubOrganiserFactory, RefereeFactory
from tests.results.factories import Played, played_event
from tests.results.stages_factories import expected, freeze_cut, play_all, play_at, three_stages

pytestmark = pytest.mark.django_db


def cut_url(ev: Played, position: int) -> str:
    return reverse("results:stage-cut", kwargs={"pk": ev.event.pk, "position": position})


def stage_url(ev: Played, position: int) -> str:
    return reverse("results:stage-standings", args=[ev.club.slug, ev.event.slug, position])


def qualified(ev: Played) -> Played:
    """The qualifying stage played and released (two tables of ten)."""
    play_at(ev, 1, 1, ev.players[:10], 11)
    play_at(ev, 1, 2, ev.players[10:], 12)
    return ev


def test_the_cut_page_is_for_the_events_organisers(client: Client) -> None:
    ev = qualified(three_stages())
    assert client.get(cut_url(ev, 1)).status_code == 302  # log in first
    client.force_login(ev.players[0].user)
    assert client.get(cut_url(ev, 1)).status_code == 403
    other = ClubOrganiserFactory().user  # organiser of another club
    client.force_login(other)
    assert client.get(cut_url(ev, 1)).status_code == 403
    client.force_login(ev.referee.user)
    assert client.get(cut_url(ev, 1)).status_code == 403
    assert client.post(cut_url(ev, 1), {"entrants": "1"}).status_code == 403
    client.force_login(ev.organiser)
    assert client.get(cut_url(ev, 1)).status_code == 200
    assert client.get(cut_url(ev, 0)).status_code == 404  # the first stage has no cut
    assert client.get(cut_url(ev, 7)).status_code == 404
    assert Stage.objects.get(event=ev.event, position=1).entrants is None


def _page_entrants(html: str) -> list[int]:
    start = html.index('name="entrants" value="') + len('name="entrants" value="')
    return [int(x) for x in html[start : html.index('"', start)].split(",")]


def test_the_cut_page_draws_the_line_after_n_and_freezes_the_engines_entrants(
    client: Client,
) -> None:
    ev = qualified(three_stages())
    client.force_login(ev.organiser)
    html = client.get(cut_url(ev, 1)).content.decode()
    outcome = expected(ev, {"q": _games(ev, 1)}, stages=1)
    handles = outcome.entrants_for(Entry(EntryKind.TOP, top=16))
    rows = outcome.stages[0].cumulative.rows
    # the line comes right after the 16th line of the standing, before the 17th
    line = html.index('id="cut-line"')
    assert (
        html.index(f'id="cut-{rows[15].player}"') < line < html.index(f'id="cut-{rows[16].player}"')
    )
    ids = {p.handle: p.pk for p in ev.players}
    assert _page_entrants(html) == [ids[h] for h in handles]
    assert "data-confirm" in html  # the browser asks before freezing
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(cut_url(ev, 1), {"entrants": ",".join(str(ids[h]) for h in handles)})
    assert response.status_code == 302
    assert response["Location"] == reverse("event-stages", args=[ev.event.pk])
    stage = Stage.objects.get(event=ev.event, position=1)
    assert stage.entrants == [ids[h] for h in handles]
    assert stage.cut_confirmed_by == ev.organiser
    # the league's stages_changed made the pipeline compute the semi-final's standing
    assert StageStanding.objects.filter(event=ev.event, stage=1).count() == 16
    html = client.get(cut_url(ev, 1)).content.decode()
    assert 'id="cut-confirmed"' in html and 'id="confirm-cut"' not in html


def _games(ev: Played, round_no: int) -> list[Any]:
    return list(
        Game.objects.filter(table__round__event=ev.event, table__round__number=round_no).order_by(
            "table__number"
        )
    )


def test_a_cut_the_standing_no_longer_gives_is_refused(client: Client) -> None:
    ev = qualified(three_stages())
    client.force_login(ev.organiser)
    html = client.get(cut_url(ev, 1)).content.decode()
    shown = _page_entrants(html)
    changed = list(reversed(shown))
    response = client.post(
        cut_url(ev, 1), {"entrants": ",".join(map(str, changed))}, HTTP_REFERER=cut_url(ev, 1)
    )
    assert response.status_code == 302
    assert Stage.objects.get(event=ev.event, position=1).entrants is None
    page = client.get(response["Location"]).content.decode()
    assert "The standing changed since the page was shown" in page
    damaged = client.post(cut_url(ev, 1), {"entrants": "x,1"}, HTTP_REFERER=cut_url(ev, 1))
    assert damaged.status_code == 302
    assert Stage.objects.get(event=ev.event, position=1).entrants is None


def test_the_league_refuses_a_cut_before_the_stage_is_released(client: Client) -> None:
    ev = qualified(three_stages())
    Round.objects.filter(event=ev.event, number=1).update(status=Round.Status.CONFIRMED)
    client.force_login(ev.organiser)
    html = client.get(cut_url(ev, 1)).content.decode()
    assert 'id="not-released"' in html
    response = client.post(
        cut_url(ev, 1),
        {"entrants": ",".join(map(str, _page_entrants(html)))},
        HTTP_REFERER=cut_url(ev, 1),
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Release every round of “qualifying”" in page
    assert Stage.objects.get(event=ev.event, position=1).entrants is None


def test_a_tie_at_the_line_says_how_it_was_decided(client: Client) -> None:
    """Results-only games: many players level on points, so the line falls inside a tie
    decided further down the ladder (or by lots, with the seed)."""
    ev = three_stages()
    Stage.objects.filter(event=ev.event, position=1).update(entry_top=8)
    for table, (players, winner) in enumerate(
        ((ev.players[:10], "good"), (ev.players[10:], "good")), start=1
    ):
        record = ev.record(players, table)
        record = {k: v for k, v in record.items() if k not in ("log", "awards")}
        record["result"] = {"winner": winner}
        play_at_record(ev, 1, table, players, record)
    client.force_login(ev.organiser)
    html = client.get(cut_url(ev, 1)).content.decode()
    tie = html[html.index('id="cut-tie"') : html.index('id="cut-standing"')]
    seed = EventResults.objects.get(event=ev.event).seed
    # everybody of the good side won: level on every metric but the lots
    assert "16 players are level on points at the line" in tie
    assert "by drawing lots" in tie and f"seed {seed}." in tie


def play_at_record(
    ev: Played, round_no: int, table: int, players: list[Any], record: dict[str, Any]
) -> None:
    if table == 1:
        ev.play(round_no, table, players, record=record)
        return
    referee = RefereeFactory()
    ev.event.referees.add(referee)
    first, ev.referee = ev.referee, referee
    try:
        ev.play(round_no, table, players, record=record)
    finally:
        ev.referee = first


def test_stage_standings_show_the_switcher_the_points_and_the_cut_line(client: Client) -> None:
    ev = three_stages()
    played = play_all(ev)
    outcome = expected(ev, played)
    standings = client.get(
        reverse("results:standings", args=[ev.club.slug, ev.event.slug])
    ).content.decode()
    assert 'id="stage-switcher"' in standings
    for name in ("qualifying", "semifinal", "final"):
        assert name in standings
    html = client.get(stage_url(ev, 1)).content.decode()
    assert 'id="stage-switcher"' in html
    rows = outcome.stages[1].cumulative.rows
    # the final takes the top 8: the rule after the 8th line, with its legend
    line = html.index('id="cut-line"')
    assert (
        html.index(f'id="row-{rows[7].player}"') < line < html.index(f'id="row-{rows[8].player}"')
    )
    assert "The top 8 enter final." in html
    # this stage's points and the carried total: the semi-final's multiplied points
    first = rows[0]
    stage_points = outcome.stages[1].stage_points[first.player]
    assert _short(first.points) in html and _short(stage_points) in html
    # the last stage has no next cut
    assert 'id="cut-line"' not in client.get(stage_url(ev, 2)).content.decode()
    assert client.get(stage_url(ev, 3)).status_code == 404
    csv = client.get(
        reverse("results:stage-standings-csv", args=[ev.club.slug, ev.event.slug, 1])
    ).content.decode()
    lines = csv.strip().splitlines()
    assert lines[0].startswith("rank,tied,player")
    assert [line.split(",")[2] for line in lines[1:]] == [r.player for r in rows]
    assert sum(1 for line in lines[1:] if ",yes," in line) == 8


def _short(value: Decimal) -> str:
    d = value.normalize()
    return format(d.quantize(Decimal(1)) if d == d.to_integral() else d, "f")


def test_one_stage_events_have_no_switcher(client: Client) -> None:
    ev = played_event()
    ev.play(1, seed=3)
    html = client.get(
        reverse("results:standings", args=[ev.club.slug, ev.event.slug])
    ).content.decode()
    assert 'id="stage-switcher"' not in html and "final-table-link" not in html
    assert (
        client.get(reverse("results:final-table", args=[ev.club.slug, ev.event.slug])).status_code
        == 404
    )


def test_the_stage_api(client: Client) -> None:
    ev = three_stages()
    played = play_all(ev)
    outcome = expected(ev, played)
    data = client.get(reverse("results-api:event-stages", args=[ev.event.pk])).json()
    assert [s["name"] for s in data["stages"]] == ["qualifying", "semifinal", "final"]
    assert data["stages"][1]["entry"] == {"top": 16} and data["stages"][1]["multiplier"] == "1.500"
    assert all(s["computed"] and not s["withheld"] for s in data["stages"])
    data = client.get(reverse("results-api:stage-standings", args=[ev.event.pk, 2])).json()
    rows = outcome.stages[2].cumulative.rows
    assert [r["handle"] for r in data["rows"]] == [r.player for r in rows]
    assert [Decimal(r["points"]) for r in data["rows"]] == [
        r.points.quantize(Decimal("0.0001")).normalize() for r in rows
    ]
    assert data["cut"] is None and data["rows"][0]["enters_next"] is None
    semi = client.get(reverse("results-api:stage-standings", args=[ev.event.pk, 1])).json()
    assert semi["cut"] == 8
    assert [r["enters_next"] for r in semi["rows"]] == [True] * 8 + [False] * 8
    assert (
        client.get(reverse("results-api:stage-standings", args=[ev.event.pk, 5])).status_code == 404
    )


def test_the_final_table(client: Client) -> None:
    ev = three_stages()
    Stage.objects.filter(event=ev.event, position=2).update(rounds=1)
    played = play_all(ev)
    outcome = expected(ev, played)
    url = reverse("results:final-table", args=[ev.club.slug, ev.event.slug])
    html = client.get(url).content.decode()
    assert '<meta http-equiv="refresh" content="30">' in html
    assert "<script" not in html and "style=" not in html
    finalists = {p.display_name for p in played["final"]}
    assert all(name in html for name in finalists)
    game = played["f"][0]
    assert reverse("results:account", args=[game.pk]) in html
    # the running total after the one game of the final: the engine's cumulative points
    top = outcome.stages[2].cumulative.rows[0]
    assert _short(top.points) in html
    assert 'class="final dark"' in html
    assert 'class="final light"' in client.get(url + "?theme=light").content.decode()


def test_the_standings_page_says_which_stage_it_stops_before(client: Client) -> None:
    ev = three_stages(final_hidden=True)
    play_all(ev)
    html = client.get(
        reverse("results:standings", args=[ev.club.slug, ev.event.slug])
    ).content.decode()
    assert 'id="stage-withheld"' in html


def test_the_organisers_see_a_player_seated_outside_the_cut(client: Client) -> None:
    ev = qualified(three_stages())
    semi = freeze_cut(ev, 1, 16)
    outsider = next(p for p in ev.players if p not in semi)
    play_at(ev, 2, 1, [*semi[:7], outsider], 21)
    url = reverse("results:standings", args=[ev.club.slug, ev.event.slug])
    assert 'id="pipeline-warnings"' not in client.get(url).content.decode()
    client.force_login(ev.referee.user)
    assert 'id="pipeline-warnings"' not in client.get(url).content.decode()
    client.force_login(ev.organiser)
    html = client.get(url).content.decode()
    warnings = html[html.index('id="pipeline-warnings"') :]
    assert outsider.handle in warnings[: warnings.index("</div>")]
    assert "semifinal" in warnings[: warnings.index("</div>")]
    assert 'id="pipeline-warnings"' in client.get(stage_url(ev, 0)).content.decode()
