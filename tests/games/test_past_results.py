"""Past results from a spreadsheet (#22 item 3): .csv and .xlsx, a preview of every problem
by row and column, all or nothing, idempotent, result-only records, players matched by
handle then by name with the duplicate warning, bounded input, the page and the command."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from openpyxl import Workbook

from games.models import Game, GameStatusChange, GameVersion
from games.past_results import (
    PastResultsError,
    import_results,
    plan_import,
    register_batch_announcer,
)
from games.records import check_record
from league.models import AuditEntry, Membership, Player
from results.models import PlayerRating
from results.services import heal
from tests.league.factories import PASSWORD, ClubOrganiserFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

HEADER = "date,event,table,ruleset,players,roles,winner,awards\n"
ROLES8 = "k,p,c,c,k,p,c,c"


@pytest.fixture
def org() -> Any:
    organiser = ClubOrganiserFactory()
    for i in range(1, 8):
        PlayerFactory(handle=f"p{i}", display_name=f"Player {i}")
    PlayerFactory(handle="wang-fang", display_name="王芳")
    return organiser


def row(table: str = "1", players: str = "p1,p2,p3,p4,p5,p6,p7,wang-fang", **kw: str) -> str:
    cells = {
        "date": "2026-01-05",
        "event": "Spring Cup",
        "table": table,
        "ruleset": "classic",
        "players": players,
        "roles": ROLES8,
        "winner": "good",
        "awards": "",
    }
    cells.update(kw)
    return ",".join(f'"{cells[c]}"' for c in HEADER.strip().split(",")) + "\n"


def run(org: Any, text: str, **kw: Any) -> Any:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return import_results(org.user, org.club, "past.csv", text.encode(), **kw)


def problems(error: Any) -> set[tuple[int, str, str]]:
    return {(p.row, p.column, p.code) for p in error.value.problems}


def test_csv_games_are_released_result_only_records_and_rated(org: Any) -> None:
    text = HEADER + row("1", awards="2:bonus:0.5:found both killers") + row("2", winner="killers")
    plan = run(org, text)
    assert len(plan.created) == 2
    games = Game.objects.filter(club=org.club).order_by("import_key")
    assert games.count() == 2
    for game in games:
        assert game.status == Game.Status.RELEASED
        assert game.title == "Spring Cup"
        assert game.played_on == dt.date(2026, 1, 5)
        assert game.import_key
        version = game.versions.get()
        assert version.status == GameVersion.Status.CONFIRMED
        assert version.completeness == "result-only"
        assert "log" not in version.record
        assert version.confirmed_by == org.user and version.submitted_by is None
        assert check_record(game, version.record).valid
        moves = list(GameStatusChange.objects.filter(game=game).values_list("to_status", flat=True))
        assert moves == ["submitted", "confirmed", "released"]
    awarded = [g for g in games if g.versions.get().record.get("awards")]
    assert awarded[0].versions.get().record["awards"] == [
        {"seat": 2, "kind": "bonus", "points": 0.5, "reason": "found both killers"}
    ]
    # the results pipeline took them in: every player has a rating of two games
    assert PlayerRating.objects.get(player__handle="p1").games == 2
    assert AuditEntry.objects.filter(action="game.import").count() == 2
    assert AuditEntry.objects.filter(action="results.import", target_id=org.club.pk).exists()


def test_xlsx_with_a_column_per_seat_and_date_cells(org: Any) -> None:
    book = Workbook()
    sheet = book.active
    seats = [f"seat{i}" for i in range(1, 9)]
    roles = [f"role{i}" for i in range(1, 9)]
    sheet.append(["date", "event", "table", *seats, *roles, "winner"])
    names = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "@wang-fang"]
    sheet.append([dt.datetime(2025, 12, 24), "Xmas", 3, *names, *ROLES8.split(","), "good"])
    sheet.append([dt.date(2025, 12, 25), "Xmas", "4", *names, *ROLES8.split(","), "draw"])
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(PastResultsError) as error:
        import_results(org.user, org.club, "past.xlsx", out.getvalue())
    # classic cannot end drawn (spec §6 ruling 9): the engine says so on row 3's winner
    assert problems(error) == {(3, "winner", "results.record")}
    assert Game.objects.count() == 0
    sheet.delete_rows(3)
    out = io.BytesIO()
    book.save(out)
    with TestCase.captureOnCommitCallbacks(execute=True):
        plan = import_results(org.user, org.club, "past.xlsx", out.getvalue())
    game = plan.created[0]
    assert game.played_on == dt.date(2025, 12, 24)
    assert game.versions.get().record["meta"]["table"] == "3"
    assert game.players[-1] == "wang-fang"


def test_preview_lists_every_problem_by_row_and_column_and_saves_nothing(org: Any) -> None:
    text = (
        HEADER
        + row("1", date="5/1/2026")
        + row("2", roles="k,p,c,c,k,x,c,c", winner="maybe")
        + row("3", players="p1,p2,p3", roles="k,p,c")
        + row("", awards="9:bonus:1")
        + row("5", ruleset="chess")
        + row("5")
        + row("7", event="bell\x07")
        + row("8", roles="")
    )
    plan = plan_import(org.user, org.club, "past.csv", text.encode())
    found = {(p.row, p.column, p.code) for p in plan.problems}
    assert found == {
        (2, "date", "results.date_invalid"),
        (3, "roles", "results.role_unknown"),
        (3, "winner", "results.winner_unknown"),
        (4, "roles", "results.record"),  # 3 players: the engine's table size
        (5, "table", "results.table_required"),
        (5, "awards", "results.award_invalid"),
        (6, "ruleset", "results.ruleset_unknown"),
        (8, "event", "results.control_character"),
        (9, "roles", "results.roles_count"),
    }
    # each problem is a sentence naming what is wrong
    messages = {p.code: str(p.message) for p in plan.problems}
    assert "5/1/2026" in messages["results.date_invalid"]
    assert "“x”" in messages["results.role_unknown"]
    with pytest.raises(PastResultsError):
        run(org, text)
    assert Game.objects.count() == 0 and GameVersion.objects.count() == 0


def test_all_or_nothing(org: Any) -> None:
    players_before = Player.objects.count()
    text = HEADER + row("1", players="p1,p2,p3,p4,p5,p6,p7,Brand New") + row("2", winner="?")
    with pytest.raises(PastResultsError) as error:
        run(org, text)
    assert problems(error) == {(3, "winner", "results.winner_unknown")}
    assert error.value.status == 400
    assert Game.objects.count() == 0
    assert Player.objects.count() == players_before  # the new player of row 2 neither


def test_the_same_file_twice_changes_nothing(org: Any) -> None:
    text = HEADER + row("1") + row("2", players="p1,p2,p3,p4,p5,p6,p7,Zhang San")
    first = run(org, text)
    assert len(first.created) == 2 and [p.handle for p in first.new_players] == ["zhang-san"]
    counts = (
        Game.objects.count(),
        GameVersion.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
        GameStatusChange.objects.count(),
    )
    rating = PlayerRating.objects.get(player__handle="p1").rating
    again = run(org, text)
    assert again.created == [] and len(again.skipped) == 2 and again.new_players == []
    assert {w.code for w in again.warnings} == {"results.already_imported"}
    assert counts == (
        Game.objects.count(),
        GameVersion.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
        GameStatusChange.objects.count(),
    )
    assert PlayerRating.objects.get(player__handle="p1").rating == rating
    # spacing and case of the event and table do not make another game
    assert run(org, HEADER + row(" 1 ", event="spring  cup")).created == []


def test_a_changed_result_for_an_imported_game_is_a_problem(org: Any) -> None:
    run(org, HEADER + row("1"))
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER + row("1", winner="killers") + row("2"))
    assert problems(error) == {(2, "row", "results.already_different")}
    assert Game.objects.count() == 1


def test_the_same_game_twice_in_one_file(org: Any) -> None:
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER + row("1") + row("1", winner="killers"))
    assert problems(error) == {(3, "table", "results.key_repeated")}


def test_players_by_handle_then_by_name_with_the_duplicate_warning(org: Any) -> None:
    PlayerFactory(handle="li-wei-1", display_name="Li Wei")
    PlayerFactory(handle="li-wei-2", display_name="李伟")  # the same search key: liwei
    # "wang fang" finds 王芳 by name; "Player Sevem" is one letter from "Player Seven"?
    PlayerFactory(handle="p-seven", display_name="Player Seven")
    by_name = "p1,p2,p3,p4,p5,p6,Player Sevem,wang fang"
    plan = plan_import(org.user, org.club, "f.csv", (HEADER + row("1", players=by_name)).encode())
    assert plan.problems == []
    seats = plan.games[0].seats
    assert (seats[7].handle, seats[7].how) == ("wang-fang", "name")
    assert (seats[6].handle, seats[6].how) == ("player-sevem", "new")
    assert [(w.row, w.code) for w in plan.warnings] == [(2, "results.close_name")]
    assert "@p-seven" in str(plan.warnings[0].message)
    # a name two players share is a problem: the handle is needed
    ambiguous = "p1,p2,p3,p4,p5,p6,p7,li wei"
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER + row("1", players=ambiguous))
    assert problems(error) == {(2, "players", "results.name_ambiguous")}
    assert "@li-wei-1" in str(error.value.problems[0].message)
    # an unknown @handle is a problem, not a new player
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER + row("1", players="p1,p2,p3,p4,p5,p6,p7,@nobody"))
    assert problems(error) == {(2, "players", "results.handle_unknown")}
    # the new player is created once, a member of the club
    plan = run(org, HEADER + row("1", players=by_name) + row("2", players=by_name))
    made = Player.objects.get(handle="player-sevem")
    assert made.display_name == "Player Sevem"
    assert Membership.objects.filter(player=made, club=org.club).exists()


def test_only_the_clubs_organisers_import(org: Any) -> None:
    other = UserFactory()
    with pytest.raises(Exception) as error:
        plan_import(other, org.club, "f.csv", (HEADER + row()).encode())
    assert getattr(error.value, "status", None) == 403


@override_settings(RESULTS_IMPORT_MAX_ROWS=3, RESULTS_IMPORT_MAX_BYTES=4096)
def test_bounded_size_and_rows(org: Any) -> None:
    too_many = HEADER + "".join(row(str(t)) for t in range(1, 5))
    with pytest.raises(PastResultsError) as error:
        run(org, too_many)
    assert error.value.status == 413
    assert problems(error) == {(0, "file", "results.too_many_rows")}
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER + "x" * 5000)
    assert error.value.status == 413
    assert problems(error) == {(0, "file", "csv.too_large")}
    with pytest.raises(PastResultsError) as error:
        import_results(org.user, org.club, "f.xlsx", b"PK\x03\x04 not a workbook")
    assert problems(error) == {(0, "file", "results.not_xlsx")}
    with pytest.raises(PastResultsError) as error:
        run(org, HEADER.replace("winner", "date") + row())
    assert (1, "date", "results.column_repeated") in problems(error)
    with pytest.raises(PastResultsError) as error:
        run(org, "date,colour\n2026-01-01,red\n")
    assert {c for _r, _c, c in problems(error)} == {
        "results.unknown_column",
        "results.missing_columns",
    }


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _upload(name: str, text: str) -> Any:
    f = io.BytesIO(text.encode())
    f.name = name
    return f


def test_the_page_previews_then_imports_after_confirmation(org: Any) -> None:
    client = _client(org.user)
    url = reverse("games:past-results", args=[org.club.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert reverse("games:past-results-template", args=[org.club.slug]) in page.content.decode()
    template = client.get(reverse("games:past-results-template", args=[org.club.slug]))
    assert template.status_code == 200
    assert template.content.decode("utf-8-sig").startswith(HEADER.strip())
    home = client.get(reverse("manage-home"))
    assert url in home.content.decode()

    # a file with problems: 400, every problem with its row and column, nothing saved
    bad = client.post(url, {"file": _upload("bad.csv", HEADER + row("1", winner="nobody"))})
    assert bad.status_code == 400
    html = bad.content.decode()
    assert 'id="past-results-problems"' in html and "nobody" in html
    assert 'id="past-results-confirm"' not in html

    text = HEADER + row("1") + row("2", players="p1,p2,p3,p4,p5,p6,p7,New Face")
    preview = client.post(url, {"file": _upload("good.csv", text)})
    assert preview.status_code == 200
    html = preview.content.decode()
    assert 'id="past-results-confirm"' in html and "New Face" in html and "@new-face" in html
    assert Game.objects.count() == 0  # a preview saves nothing
    digest = preview.context["plan"].digest

    confirm = reverse("games:past-results-confirm", args=[org.club.slug])
    stale = client.post(confirm, {"digest": "0" * 64}, HTTP_REFERER=url)
    assert stale.status_code == 302 and Game.objects.count() == 0
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = client.post(confirm, {"digest": digest})
    assert done.status_code == 302 and done["Location"] == url
    assert Game.objects.filter(club=org.club, status="released").count() == 2
    # the confirmation was used: a second one finds nothing to import
    assert client.post(confirm, {"digest": digest}, HTTP_REFERER=url).status_code == 302
    assert Game.objects.count() == 2
    again = client.post(url, {"file": _upload("good.csv", text)})
    assert 'id="past-results-nothing"' in again.content.decode()


@override_settings(RESULTS_IMPORT_MAX_BYTES=2048)
def test_the_page_refuses_a_large_file_with_413_and_strangers_with_403(org: Any) -> None:
    client = _client(org.user)
    url = reverse("games:past-results", args=[org.club.slug])
    big = client.post(url, {"file": _upload("big.csv", HEADER + "x" * 4096)})
    assert big.status_code == 413
    assert "KiB" in big.content.decode()
    stranger = _client(UserFactory())
    assert stranger.get(url).status_code == 403
    assert stranger.post(url, {"file": _upload("f.csv", HEADER + row())}).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page


def test_the_command(org: Any, tmp_path: Path) -> None:
    path = tmp_path / "past.csv"
    path.write_text(HEADER + row("1") + row("2"), encoding="utf-8")
    out = io.StringIO()
    call_command("import_results", str(path), club=org.club.slug, dry_run=True, stdout=out)
    assert "dry run" in out.getvalue() and Game.objects.count() == 0
    out = io.StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("import_results", str(path), club=org.club.slug, stdout=out)
    assert Game.objects.count() == 2
    assert "imported 2 games" in out.getvalue()
    call_command("import_results", str(path), club=org.club.slug, stdout=io.StringIO())
    assert Game.objects.count() == 2
    path.write_text(HEADER + row("3", date="tomorrow"), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_results", str(path), club=org.club.slug, stderr=err)
    assert "row 2, date" in err.getvalue()
    with pytest.raises(CommandError):
        call_command("import_results", str(path), club="no-such-club")


def test_an_imported_game_reads_like_any_released_game(org: Any) -> None:
    game = run(org, HEADER + row("1", awards="2:warning"))
    pk = game.created[0].pk
    public = Client()
    account = public.get(reverse("results:account", args=[pk]))
    assert account.status_code == 200
    assert "王芳" in account.content.decode()
    assert public.get(f"/api/v1/games/{pk}/").status_code == 200
    page = _client(org.user).get(reverse("games:game", args=[pk]))
    assert page.status_code == 200 and "Spring Cup" in page.content.decode()
    assert public.get(reverse("results:player", args=["wang-fang"])).status_code == 200


@pytest.mark.browser
def test_the_page_on_a_phone_and_a_desktop(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Path
) -> None:
    organiser = ClubOrganiserFactory()
    for i in range(1, 8):
        PlayerFactory(handle=f"p{i}", display_name=f"Player {i}")
    path = tmp_path / "past.csv"
    long = "p1,p2,p3,p4,p5,p6,p7,Someone With A Very Long Name Indeed"
    path.write_text(
        HEADER + row("1", players=long) + row("2", players=long, winner="???"), encoding="utf-8"
    )
    url = reverse("games:past-results", args=[organiser.club.slug])
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{live_server.url}/accounts/login/?next={url}")
        page.fill("#id_username", organiser.user.get_username())
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}{url}")
        wide = "document.documentElement.scrollWidth <= window.innerWidth"
        assert page.evaluate(wide)
        page.set_input_files("#id_file", str(path))
        page.click("#past-results-upload button[type=submit]")
        page.wait_for_selector("#past-results-problems")
        assert page.evaluate(wide), width
        assert page.locator("#past-results-confirm").count() == 0
        context.close()
    # fixed: the preview asks, the confirmation imports
    path.write_text(HEADER + row("1", players=long) + row("2", players=long), encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={url}")
    page.fill("#id_username", organiser.user.get_username())
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{url}")
    page.set_input_files("#id_file", str(path))
    page.click("#past-results-upload button[type=submit]")
    page.wait_for_selector("#past-results-confirm")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Game.objects.count() == 0
    page.click("#past-results-confirm button[type=submit]")
    page.wait_for_url(f"{live_server.url}{url}")
    assert Game.objects.filter(status="released").count() == 2
    context.close()


def test_a_registered_batch_announcer_hears_the_whole_file_once(org: Any) -> None:
    calls: list[list[int]] = []

    def announce(ids: list[int]) -> None:
        calls.append(ids)
        heal()  # one ratings replay for every game the ratings missed

    register_batch_announcer(announce)
    try:
        plan = run(org, HEADER + "".join(row(str(t)) for t in range(1, 6)))
    finally:
        register_batch_announcer(None)
    assert calls == [[g.pk for g in plan.created]]
    assert PlayerRating.objects.get(player__handle="p1").games == 5


def test_a_csv_with_semicolons_or_tabs(org: Any) -> None:
    line = '2026-01-05;Cup;1;classic;"p1,p2,p3,p4,p5,p6,p7,wang-fang";"k,p,c,c,k,p,c,c";good;\n'
    plan = plan_import(org.user, org.club, "f.csv", (HEADER.replace(",", ";") + line).encode())
    assert plan.problems == [] and len(plan.games) == 1
    tabbed = HEADER.replace(",", "\t") + line.replace(";", "\t")
    plan = plan_import(org.user, org.club, "f.csv", tabbed.encode("utf-8-sig"))
    assert plan.problems == [] and len(plan.games) == 1
