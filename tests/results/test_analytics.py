"""Analytics (issue 21) on a small fixture league, every figure computed by hand.

The league: club "alpha" (season S, classic, referee R1) plays G1–G3 released and G4
confirmed but not released; club "beta" (no season, mainstream, referee R2) plays G5 and
G6, result-only. The same eight players p0–p7 sit at every table.

    game  ruleset     seats 1..8 (roles)  players          winner   night-1  rounds  awards
    G1    classic     k k p p c c c c     p0..p7           good     seat 5   2       bonus
    G2    classic     p p k k c c c c     p0..p7           killers  seat 1   2       penalty
    G3    classic     c c c c k k p p     p4..p7, p0..p3   good     seat 1   2       —
    G4    classic     (not released: never counted)
    G5    mainstream  k k p p c c c c     p0..p7           draw     —        —       —
    G6    mainstream  p p c c k k c c     p0..p7           killers  —        —       —

Wilson 95 % intervals (z = 1.959964, centre = (p + z²/2n)/(1 + z²/n),
half = z·√(p(1−p)/n + z²/4n²)/(1 + z²/n)), computed by hand:
    2/3 → [0.2077, 0.9385]   1/3 → [0.0615, 0.7923]   1/2 → [0.0945, 0.9055]
    0/2 → [0, 0.6576]        1/5 → [0.0362, 0.6245]   3/5 → [0.2307, 0.8824]
    2/4 → [0.1500, 0.8500]   1/1 → [0.2065, 1]        0/4 → [0, 0.4899]
    0/1 → [0, 0.7935]        3/4 → [0.3006, 0.9544]
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, TestCase
from django.urls import reverse

from games.models import Game
from games.protests import Filer, file_protest, rule_protest
from games.services import release_game, void_game
from league.models import Event, League, Player, Season
from results.models import AnalyticsFigure, AnalyticsGame, AnalyticsScope
from results.services import heal, rebuild_all
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


def approx(value: float | None, expected: float) -> bool:
    return value is not None and abs(value - expected) < 5e-5


# --- records written by hand -----------------------------------------------------------------


def seats_of(handles: list[str], roles: str) -> list[dict[str, Any]]:
    full = {"k": "killer", "p": "police", "c": "civilian"}
    pairs = enumerate(zip(handles, roles, strict=True), 1)
    return [{"seat": i, "player": h, "role": full[r]} for i, (h, r) in pairs]


def seats_with(roles: str, letter: str) -> list[int]:
    return [i for i, r in enumerate(roles, 1) if r == letter]


def ballot(alive: list[int], target: int, target_votes: int) -> dict[str, int]:
    """Everyone alive votes ``target``; the target votes ``target_votes``."""
    return {str(s): (target_votes if s == target else target) for s in alive}


def good_wins(handles: list[str], roles: str) -> dict[str, Any]:
    """Night 1 the killers kill the first civilian, day 1 the first killer is voted out,
    night 2 the second civilian dies, day 2 the second killer is out: good wins (2 rounds,
    night-1 victim: the first civilian's seat)."""
    (k1, k2), c = seats_with(roles, "k"), seats_with(roles, "c")
    alive = list(range(1, 9))
    alive.remove(c[0])
    day1 = ballot(alive, k1, c[1])
    alive.remove(k1)
    alive.remove(c[1])
    day2 = ballot(alive, k2, c[2])
    return {
        "format": "kgr/1",
        "ruleset": "classic",
        "seats": seats_of(handles, roles),
        "log": [
            {"phase": "night", "n": 1, "kill": c[0], "check": k1},
            {"phase": "day", "n": 1, "ballots": [day1], "eliminated": k1},
            {"phase": "night", "n": 2, "kill": c[1], "check": k2},
            {"phase": "day", "n": 2, "ballots": [day2], "eliminated": k2},
        ],
        "result": {"winner": "good"},
    }


def killers_win(handles: list[str], roles: str) -> dict[str, Any]:
    """Night 1 the first police officer dies, day 1 a civilian is voted out, night 2 the
    second officer dies: every police officer out, the killers win (classic)."""
    k, (p1, p2), c = seats_with(roles, "k"), seats_with(roles, "p"), seats_with(roles, "c")
    alive = list(range(1, 9))
    alive.remove(p1)
    return {
        "format": "kgr/1",
        "ruleset": "classic",
        "seats": seats_of(handles, roles),
        "log": [
            {"phase": "night", "n": 1, "kill": p1, "check": c[0]},
            {"phase": "day", "n": 1, "ballots": [ballot(alive, c[0], c[1])], "eliminated": c[0]},
            {"phase": "night", "n": 2, "kill": p2, "check": k[0]},
        ],
        "result": {"winner": "killers"},
    }


def result_only(handles: list[str], roles: str, ruleset: str, winner: str) -> dict[str, Any]:
    return {
        "format": "kgr/1",
        "ruleset": ruleset,
        "seats": seats_of(handles, roles),
        "result": {"winner": winner},
    }


class League8:
    def __init__(self) -> None:
        league = League.objects.create(name="Alpha league", slug="alpha-league")
        self.season = Season.objects.create(
            league=league, name="S", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
        )
        self.alpha: Played = played_event(
            n_players=8, rounds=4, season=self.season, ruleset="classic"
        )
        self.beta: Played = played_event(n_players=0, rounds=3, ruleset="mainstream")
        self.beta.players = self.alpha.players
        p = self.alpha.players
        self.p = p
        h = [x.handle for x in p]
        rotated = p[4:] + p[:4]
        g1 = good_wins(h, "kkppcccc")
        g1["awards"] = [{"seat": 3, "kind": "bonus", "points": 0.5}]
        g2 = killers_win(h, "ppkkcccc")
        g2["awards"] = [{"seat": 5, "kind": "penalty", "points": 0.5}]
        self.g1 = self.alpha.play(1, players=p, record=g1)
        self.g2 = self.alpha.play(2, players=p, record=g2)
        self.g3 = self.alpha.play(
            3, players=rotated, record=good_wins([x.handle for x in rotated], "cccckkpp")
        )
        self.g4 = self.alpha.play(4, players=p, record=killers_win(h, "kkppcccc"), release=False)
        self.g5 = self.beta.play(
            1, players=p, record=result_only(h, "kkppcccc", "mainstream", "draw")
        )
        self.g6 = self.beta.play(
            2, players=p, record=result_only(h, "ppcckkcc", "mainstream", "killers")
        )


@pytest.fixture
def lg() -> League8:
    return League8()


def figures(scope: str, kind: str) -> dict[str, AnalyticsFigure]:
    return {f.key: f for f in AnalyticsFigure.objects.filter(scope__scope=scope, kind=kind)}


def check(f: AnalyticsFigure, k: int, n: int, low: float, high: float) -> None:
    assert (f.successes, f.n) == (k, n)
    assert approx(f.value, k / n)
    assert approx(f.low, low) and approx(f.high, high), (f.low, f.high)


# --- the figures ------------------------------------------------------------------------------


def test_side_win_rates_by_ruleset_and_size(lg: League8) -> None:
    sides = figures("all", "side")
    # classic, 8 players: G1, G3 good, G2 killers (G4 not released); classic cannot draw
    check(sides["classic/8/good"], 2, 3, 0.2077, 0.9385)
    check(sides["classic/8/killers"], 1, 3, 0.0615, 0.7923)
    # classic cannot end drawn: its draw count is kept (0 of 3) but never shown
    assert (sides["classic/8/draw"].successes, sides["classic/8/draw"].n) == (0, 3)
    # mainstream, 8 players: G5 drawn, G6 killers
    check(sides["mainstream/8/draw"], 1, 2, 0.0945, 0.9055)
    check(sides["mainstream/8/killers"], 1, 2, 0.0945, 0.9055)
    check(sides["mainstream/8/good"], 0, 2, 0.0, 0.6576)
    assert AnalyticsScope.objects.get(scope="all").games == 5


def test_seat_win_rates(lg: League8) -> None:
    seats = figures("all", "seat")
    # seat 1: killer G1 (lost), police G2 (lost), civilian G3 (won), killer G5 (draw),
    # police G6 (lost) → 1 of 5
    check(seats["1"], 1, 5, 0.0362, 0.6245)
    # seat 3: police G1 (won), killer G2 (won), civilian G3 (won), police G5, civilian G6
    check(seats["3"], 3, 5, 0.2307, 0.8824)
    # seat 5: civilian G1 (won), G2 (lost), killer G3 (lost), civilian G5, killer G6 (won)
    check(seats["5"], 2, 5, 0.1176, 0.7693)
    assert len(seats) == 8


def test_night1_victim_seat(lg: League8) -> None:
    victims = figures("all", "victim")
    # games with a recorded night 1: G1 (seat 5), G2 (seat 1), G3 (seat 1)
    check(victims["8/1"], 2, 3, 0.2077, 0.9385)
    check(victims["8/5"], 1, 3, 0.0615, 0.7923)
    check(victims["8/2"], 0, 3, 0.0, 0.5615)
    assert len(victims) == 8


def test_referee_figures(lg: League8) -> None:
    refs = figures("all", "referee")
    r1, r2 = lg.alpha.referee.pk, lg.beta.referee.pk
    rounds = refs[f"{r1}/rounds"]
    # G1–G3 all last 2 rounds: mean 2, s = 0 → [2, 2]
    assert (rounds.n, rounds.value, rounds.low, rounds.high) == (3, 2.0, 2.0, 2.0)
    assert (rounds.total, rounds.squares) == (6.0, 12.0)
    # bonuses 1, 0, 0: mean 1/3, s² = (4/9 + 1/9 + 1/9)/2 = 1/3, s/√3 = 1/3,
    # t(0.975, 2) = 4.302653 → 1/3 ± 1.434218 → [0 (cut at 0), 1.7676]
    bonuses = refs[f"{r1}/bonuses"]
    assert approx(bonuses.value, 1 / 3) and bonuses.low == 0.0 and approx(bonuses.high, 1.7676)
    penalties = refs[f"{r1}/penalties"]
    assert approx(penalties.value, 1 / 3) and approx(penalties.high, 1.7676)
    assert f"{r1}/protests" not in refs  # no ruled protest: n = 0, not stored
    # R2: result-only games, no length (not stored); no bonuses: mean 0 over 2 games → [0, 0]
    assert f"{r2}/rounds" not in refs
    bonuses2 = refs[f"{r2}/bonuses"]
    assert (bonuses2.n, bonuses2.value, bonuses2.low, bonuses2.high) == (2, 0.0, 0.0, 0.0)


def test_scopes_filter_by_club_season_and_ruleset(lg: League8) -> None:
    club = lg.alpha.club.pk
    season = lg.season.pk
    for scope in (f"club={club}", f"season={season}", f"club={club}&season={season}"):
        sides = figures(scope, "side")
        check(sides["classic/8/good"], 2, 3, 0.2077, 0.9385)
        assert not any(k.startswith("mainstream") for k in sides)
    mainstream = figures("ruleset=mainstream", "side")
    assert set(mainstream) == {"mainstream/8/good", "mainstream/8/killers", "mainstream/8/draw"}
    beta = figures(f"club={lg.beta.club.pk}", "seat")
    # beta's seat 5: civilian in G5 (draw), killer in G6 (won) → 1 of 2
    check(beta["5"], 1, 2, 0.0945, 0.9055)
    assert not AnalyticsScope.objects.filter(scope__contains=f"season={season}&ruleset=main")


def test_release_and_void_recompute(lg: League8) -> None:
    assert not AnalyticsGame.objects.filter(game_id=lg.g4.pk).exists()  # not released
    lg.alpha.release(lg.g4)
    # G4: killers won → classic killers 2 of 4
    check(figures("all", "side")["classic/8/killers"], 2, 4, 0.1500, 0.8500)
    with TestCase.captureOnCommitCallbacks(execute=True):
        void_game(lg.alpha.organiser, Game.objects.get(pk=lg.g1.pk), "wrong table")
    # G1 gone: classic good 1 of 3 (G3), killers 2 of 3 (G2, G4)
    sides = figures("all", "side")
    check(sides["classic/8/good"], 1, 3, 0.0615, 0.7923)
    check(sides["classic/8/killers"], 2, 3, 0.2077, 0.9385)
    assert AnalyticsScope.objects.get(scope="all").games == 5


def test_the_page_renders_its_figures_once_per_version(
    client: Client, lg: League8, django_assert_max_num_queries: Any
) -> None:
    """The charts (most of the page's cost) are rendered once per version of the scope's
    figures and language; a release makes a new version, shown at once."""
    cache.clear()
    url = reverse("results:analytics")
    first = client.get(url).content.decode()
    assert "66.7 %" in first and "2 of n = 3" in first  # classic good 2 of 3
    with django_assert_max_num_queries(3):  # the form (clubs, seasons), the scope: no figures
        again = client.get(url).content.decode()
    assert again.split('id="sides"')[1] == first.split('id="sides"')[1]
    lg.alpha.release(lg.g4)  # G4: killers won → classic good 2 of 4, killers 2 of 4
    after = client.get(url).content.decode()
    assert "6 released games" in after and "2 of n = 4" in after and "2 of n = 3" not in after
    client.cookies["django_language"] = "es"
    assert "2 de n = 4" in client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_rebuild_gives_the_same_figures(lg: League8) -> None:
    """The figures kept game by game (releases above, a void here) equal the figures of
    a rebuild from all games at once."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        void_game(lg.alpha.organiser, Game.objects.get(pk=lg.g2.pk), "wrong table")

    def rows() -> list[tuple[Any, ...]]:
        return sorted(
            AnalyticsFigure.objects.values_list(
                "scope__scope",
                "kind",
                "key",
                "params",
                "referee_id",
                "n",
                "successes",
                "total",
                "squares",
                "value",
                "low",
                "high",
            )
        )

    def scopes() -> list[tuple[Any, ...]]:
        return sorted(AnalyticsScope.objects.values_list("scope", "games"))

    before, before_scopes = rows(), scopes()
    assert len(before) > 40
    AnalyticsFigure.objects.all().delete()
    AnalyticsScope.objects.all().delete()
    rebuild_all(ratings=False)
    assert rows() == before
    assert scopes() == before_scopes


def test_a_rejected_protest_reaches_the_referee_figures_by_the_heal(lg: League8) -> None:
    organiser, player = lg.alpha.organiser, lg.p[0].user
    game = Game.objects.get(pk=lg.g1.pk)
    first = file_protest(Filer.from_user(player), game, phase="night 1", text="wrong kill")
    file_protest(Filer.from_user(player), game, phase="day 1", text="wrong vote")  # open
    rule_protest(organiser, first, decision="rejected", ruling="the kill was right")
    heal()  # a rejection changes no record: the heal task finds the new counts
    protests = figures("all", "referee")[f"{lg.alpha.referee.pk}/protests"]
    # one ruled protest (the open one is not counted), none upheld: 0 of 1 → [0, 0.7935]
    check(protests, 0, 1, 0.0, 0.7935)
    row = AnalyticsGame.objects.get(game_id=game.pk)
    assert (row.protests, row.protests_upheld) == (1, 0)


def test_a_release_whose_task_was_lost_is_counted_by_the_heal(lg: League8) -> None:
    release_game(lg.alpha.organiser, Game.objects.get(pk=lg.g4.pk))  # its task never runs
    assert not AnalyticsGame.objects.filter(game_id=lg.g4.pk).exists()
    heal()
    # G4 (killers won) now counts: classic killers 2 of 4 → [0.1500, 0.8500]
    check(figures("all", "side")["classic/8/killers"], 2, 4, 0.1500, 0.8500)
    assert AnalyticsScope.objects.get(scope="all").games == 6
    heal()  # nothing left to do: the figures do not move
    check(figures("all", "side")["classic/8/killers"], 2, 4, 0.1500, 0.8500)


def test_an_event_moved_out_of_its_season_is_healed(lg: League8) -> None:
    key = f"season={lg.season.pk}"
    assert AnalyticsScope.objects.get(scope=key).games == 3
    Event.objects.filter(pk=lg.alpha.event.pk).update(season=None)
    heal()
    assert not AnalyticsScope.objects.filter(scope__contains=key).exists()
    assert set(AnalyticsGame.objects.values_list("season_id", flat=True)) == {None}
    assert AnalyticsScope.objects.get(scope="all").games == 5


# --- per player -----------------------------------------------------------------------------


def test_role_rates_and_head_to_head(client: Client, lg: League8) -> None:
    p0, p4 = lg.p[0].handle, lg.p[4].handle
    url = reverse("results-api:analytics-players")
    data = client.get(url, {"a": p4, "b": p0}).json()
    roles = {r["role"]: r for r in data["a"]["roles"]}
    # p4: civilian in G1 (won), G2 (lost), G3 (won), G5 (draw) → 2 of 4; killer in G6 (won)
    assert (roles["civilian"]["successes"], roles["civilian"]["n"]) == (2, 4)
    assert approx(roles["civilian"]["ci_low"], 0.15) and approx(roles["civilian"]["ci_high"], 0.85)
    assert (roles["killer"]["successes"], roles["killer"]["n"]) == (1, 1)
    assert approx(roles["killer"]["ci_low"], 0.2065) and roles["killer"]["ci_high"] == 1.0
    assert roles["police"]["n"] == 0 and roles["police"]["ci_low"] is None
    # p4 and p0: together in G2 only (good side, killers won) → 0 of 1; against in G1, G3
    # (good won: p4's side), G5 (draw), G6 (p4 killer, won) → p4 3 of 4, p0 0
    assert (data["together"]["successes"], data["together"]["n"]) == (0, 1)
    assert approx(data["together"]["ci_high"], 0.7935)
    assert (data["against"]["successes"], data["against"]["n"]) == (3, 4)
    assert approx(data["against"]["ci_low"], 0.3006) and approx(data["against"]["ci_high"], 0.9544)
    assert data["b_wins"] == 0
    # filtered to club alpha: G1–G3 only; against in G1, G3 → 2 of 2
    alpha = client.get(url, {"a": p4, "b": p0, "club": lg.alpha.club.slug}).json()
    assert (alpha["against"]["successes"], alpha["against"]["n"]) == (2, 2)


def test_unreleased_game_never_counted_for_players(client: Client, lg: League8) -> None:
    # G4 (not released): p0 was a killer there; p0's released killer games are G1, G3
    # (seat 5 of "cccckkpp") and G5
    data = client.get(reverse("results-api:analytics-players"), {"a": lg.p[0].handle}).json()
    killer = next(r for r in data["a"]["roles"] if r["role"] == "killer")
    assert killer["n"] == 3 and data["b"] is None


# --- pages and API ----------------------------------------------------------------------------


def test_pages_show_figures_with_n_and_interval(client: Client, lg: League8) -> None:
    page = client.get(reverse("results:analytics")).content.decode()
    assert "5 released games" in page
    # classic good 2 of 3: 66.7 %, interval [0.2077, 0.9385] → 20.8–93.9 %
    assert "66.7 %" in page and "20.8–93.9 %" in page and "2 of n = 3" in page
    assert "<svg" in page and "<script" not in page.split("</header>")[1]
    players = client.get(
        reverse("results:analytics-players"), {"a": lg.p[4].handle, "b": lg.p[0].handle}
    ).content.decode()
    assert "Head-to-head" in players and "75.0 %" in players and "1 of n = 1" in players


def test_referee_cells_and_ruleset_filter_read_in_words(client: Client, lg: League8) -> None:
    """A referee with games but no ruled protest, or only result-only games, is not said to
    have "no games"; the ruleset filter names each ruleset as every other select does."""
    page = client.get(reverse("results:analytics")).content.decode()
    table = page.split('id="referee-table"')[1].split("</table>")[0]
    assert "no games" not in table
    assert table.count("no ruled protests") == 2  # R1 and R2: no protest ruled
    assert table.count("no full record") == 1  # R2: result-only games
    assert '<option value="classic">classic — 003 rules' in page


def test_numbers_in_the_readers_language(client: Client, lg: League8) -> None:
    client.cookies["django_language"] = "es"
    page = client.get(reverse("results:analytics"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "66,7" in page
    # SVG coordinates keep their dot
    assert 'width="66.67"' in page


@pytest.mark.parametrize(
    "query",
    [
        {"club": "no-such-club"},
        {"season": "abc"},
        {"season": "99999999999999999999"},
        {"ruleset": "chess"},
        {"club": "x" * 5000},
        {"club": "a\x00b"},
    ],
)
def test_bad_filters_are_400(client: Client, query: dict[str, str]) -> None:
    page = client.get(reverse("results:analytics"), query)
    assert page.status_code == 400
    if "\x00" not in query.get("club", ""):  # NUL: the site's middleware answers first
        assert b'id="filter-error"' in page.content
    api = client.get(reverse("results-api:analytics"), query)
    assert api.status_code == 400
    if "\x00" not in query.get("club", ""):
        assert api.json()["code"] == "analytics.filter"


def test_unknown_player_is_400(client: Client) -> None:
    assert client.get(reverse("results:analytics-players"), {"a": "ghost"}).status_code == 400
    api = client.get(reverse("results-api:analytics-players"), {"a": "ghost"})
    assert api.status_code == 400 and api.json()["code"] == "analytics.player"
    assert client.get(reverse("results-api:analytics-players")).status_code == 400
    assert client.get(reverse("results:analytics-players")).status_code == 200


def test_a_player_against_themself_is_400(client: Client, lg: League8) -> None:
    same = {"a": lg.p[0].handle, "b": lg.p[0].handle}
    page = client.get(reverse("results:analytics-players"), same)
    assert page.status_code == 400 and b'id="filter-error"' in page.content
    assert b'id="head-to-head"' not in page.content
    api = client.get(reverse("results-api:analytics-players"), same)
    assert api.status_code == 400 and api.json()["params"]["parameter"] == "b"


def test_api_figures_carry_n_and_interval(client: Client, lg: League8) -> None:
    data = client.get(reverse("results-api:analytics"), {"season": lg.season.pk}).json()
    assert data["filters"]["season"] == lg.season.pk and data["games"] == 3
    assert {s["side"] for s in data["sides"]} == {"good", "killers"}  # classic: no draws
    good = next(s for s in data["sides"] if s["side"] == "good")
    assert (good["ruleset"], good["size"], good["successes"], good["n"]) == ("classic", 8, 2, 3)
    assert approx(good["ci_low"], 0.2077) and approx(good["ci_high"], 0.9385)
    for figure in [*data["sides"], *data["seats"], *data["night1_victims"]]:
        assert {"n", "successes", "estimate", "ci_low", "ci_high"} <= set(figure)
    (ref,) = data["referees"]
    assert ref["games"] == 3 and ref["rounds"]["estimate"] == 2.0
    empty = client.get(reverse("results-api:analytics"), {"ruleset": "majority"}).json()
    assert empty["games"] == 0 and empty["sides"] == []


@pytest.mark.parametrize(("name", "budget"), [("analytics", 6), ("analytics-players", 9)])
def test_query_budgets(
    client: Client, django_assert_max_num_queries: Any, lg: League8, name: str, budget: int
) -> None:
    query = {"club": lg.alpha.club.slug, "season": lg.season.pk, "ruleset": "classic"}
    if name == "analytics-players":
        query |= {"a": lg.p[4].handle, "b": lg.p[0].handle}
    url = reverse(f"results:{name}")
    client.get(url, query)
    cache.clear()
    with django_assert_max_num_queries(budget):
        assert client.get(url, query).status_code == 200


def test_player_handles_are_bounded(client: Client) -> None:
    Player.objects.create(display_name="X", handle="x")
    page = client.get(reverse("results:analytics-players"), {"a": "x" * 10000})
    assert page.status_code == 400


# --- in a real browser ------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pages_fit_a_phone_and_a_desktop(live_server: Any, browser: Any) -> None:
    """No sideways scrolling at 390 px and 1280 px, in each language; the bars drawn."""
    lg = League8()
    a, b = lg.p[4].handle, lg.p[0].handle
    pages = ["/analytics/", f"/analytics/players/?a={a}&b={b}", "/analytics/?ruleset=chess"]
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        for language in ("en", "zh-hans", "es"):
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            for path in pages:
                page.goto(live_server.url + path)
                wide = page.evaluate(
                    "() => document.documentElement.scrollWidth - window.innerWidth"
                )
                assert wide <= 0, (width, language, path, wide)
                if path == "/analytics/":
                    assert page.locator("#sides .ab-fill").count() == 5
                    if language == "en" and width == 390:
                        page.screenshot(path="/tmp/analytics_390.png", full_page=True)
        context.close()
