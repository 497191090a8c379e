"""In a real browser (issue 14): an organiser walks the error paths of the draw page, the
questions irreversible actions ask first, pins, the review before confirming, and a void.

A phone (390 px) for the draw page's error paths and the review; a desktop (1280 px)
for the rest. Headless Debian chromium through Playwright, against pytest-django's live
server. Screenshots of the phone pages go to /tmp/ (see SHOTS) for a look by eye.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.simulate import simulate_game
from games import services as game_services
from games.models import Game, GameVersion
from league.models import Player, Registration, Round, Seat, Table
from tests.league.factories import (
    PASSWORD,
    ClubOrganiserFactory,
    EventFactory,
    RefereeFactory,
    lay_out,
    registered_players,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SEED = 20240614  # the draw's seed: the same seating on every run
SHOTS = Path("/tmp")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Organiser:
    """The organiser's browser tab, with what every step checks."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.dialogs: list[str] = []
        self.posts: list[str] = []
        page.on("request", lambda r: self.posts.append(r.url) if r.method == "POST" else None)

    def go(self, path: str) -> None:
        self.page.goto(self.url + path)

    def submit(self, selector: str) -> None:
        """Click a submit button and wait for the page it leads to."""
        with self.page.expect_navigation():
            self.page.click(selector)

    def answer(self, accept: bool) -> None:
        def handle(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        self.page.once("dialog", handle)

    def refuse_dialog(self, selector: str) -> str:
        """Click, say no to the question it asks; nothing is sent. Returns the question."""
        asked, posted = len(self.dialogs), len(self.posts)
        here = self.page.url
        self.answer(False)
        self.page.click(selector)
        self.page.wait_for_timeout(400)  # room for a submission that should not happen
        assert len(self.dialogs) == asked + 1, "no question was asked"
        assert len(self.posts) == posted, f"sent anyway: {self.posts[posted:]}"
        assert self.page.url == here
        return self.dialogs[-1]

    def accept_dialog(self, selector: str) -> str:
        asked = len(self.dialogs)
        self.answer(True)
        self.submit(selector)
        assert len(self.dialogs) == asked + 1, "no question was asked"
        return self.dialogs[-1]

    def messages(self, kind: str) -> list[str]:
        return [
            t.strip() for t in self.page.locator(f"ul.messages li.msg-{kind}").all_inner_texts()
        ]

    def error(self) -> str:
        errors = self.messages("error")
        assert len(errors) == 1, errors
        assert not self.messages("success")
        return errors[0]

    def success(self) -> str:
        done = self.messages("success")
        assert len(done) == 1, done
        assert not self.messages("error")
        return done[0]

    def fits(self) -> None:
        """Nothing is wider than the window (no sideways scrolling on a phone)."""
        wide = self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"the page is {wide}px wider than the window"


def seated(rnd: Round) -> dict[int, list[str]]:
    """Table number → handles in seat order."""
    tables: dict[int, list[str]] = {}
    for s in (
        Seat.objects.filter(round=rnd)
        .select_related("table", "player")
        .order_by("table__number", "number")
    ):
        tables.setdefault(s.table.number, []).append(s.player.handle)
    return tables


def test_organiser_error_paths_questions_pins_review_and_void(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    org = ClubOrganiserFactory(user__username="org")
    event = EventFactory(
        club=org.club, ruleset="classic", rounds_count=3, min_table=8, max_table=12
    )
    referees = RefereeFactory.create_batch(3)
    event.referees.add(*referees)
    registered_players(event, 24)
    draw_path = f"/manage/events/{event.pk}/draw/"
    games_path = f"/games/events/{event.pk}/"
    url = live_server.url

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(20_000)
    o = Organiser(page, url)
    o.go(f"/accounts/login/?next={draw_path}")
    page.fill("#id_username", "org")
    page.fill("#id_password", PASSWORD)
    o.submit("main button[type=submit]")
    assert page.url == url + draw_path

    # --- the draw: three rounds, a fixed seed --------------------------------------------
    page.fill("#id_from_round", "1")
    page.fill("#id_seed", str(SEED))
    o.submit("#draw-form button[type=submit]")
    page.wait_for_selector("#job-status:has-text('done')")
    assert page.locator("section.round").count() == 3
    r1, r2 = (Round.objects.get(event=event, number=n) for n in (1, 2))
    round1, round2 = seated(r1), seated(r2)
    assert len(round1) >= 2 and sum(map(len, round1.values())) == 24

    # --- pins: a swap in a draft round shows 📌 on both seats; "Unpin this round" ----------
    a, b = round2[1][0], round2[2][0]
    assert page.locator("#round-2 .pin").count() == 0
    form = page.locator("#round-2 form.swap")
    form.locator("input[name=a]").fill(a)
    form.locator("input[name=b]").fill("@" + b)
    o.submit("#round-2 form.swap button[type=submit]")
    assert page.url == f"{url}{draw_path}#round-2"
    assert o.success() == (
        f"Round 2: @{a} and @{b} swapped (tables 1, 2); both seats are now pinned."
    )
    pinned = page.locator("#round-2 .seats li:has(.pin)")
    assert pinned.count() == 2
    assert sorted(pinned.locator("small").all_inner_texts()) == sorted([f"@{a}", f"@{b}"])
    assert seated(r2)[1][0] == b and seated(r2)[2][0] == a
    o.submit("button[name=unpin-2]")
    assert page.url == f"{url}{draw_path}#round-2"
    assert o.success().startswith("Round 2: pins removed from 2 tables")
    assert page.locator("#round-2 .pin").count() == 0
    assert not Seat.objects.filter(round=r2, pinned=True).exists()
    round2 = seated(r2)

    # --- releasing asks first: no → nothing changes; yes → released ----------------------
    o.submit("button[name=confirm-1]")
    assert o.success() == "Round 1 is now confirmed."
    question = o.refuse_dialog("button[name=release-1]")
    assert "Release round 1?" in question and "can never be redrawn" in question
    r1.refresh_from_db()
    assert r1.status == "confirmed"
    assert page.inner_text("#round-1-status") == "confirmed"
    o.accept_dialog("button[name=release-1]")
    assert page.url == f"{url}{draw_path}#round-1"
    assert o.success() == "Round 1 is now released."
    assert page.inner_text("#round-1-status") == "released"
    r1.refresh_from_db()
    assert r1.status == "released"

    # --- failed actions on a phone come back to the same place, saying why --------------
    page.set_viewport_size(PHONE)
    o.go(draw_path)
    form = page.locator("#round-2 form.swap")
    form.locator("input[name=a]").fill(a)
    form.locator("input[name=b]").fill("nobody-here")
    o.submit("#round-2 form.swap button[type=submit]")
    assert page.url == f"{url}{draw_path}#round-2"
    assert "No player has the handle @nobody-here" in o.error()
    assert seated(r2) == round2

    page.fill("#id_from_round", "1")
    page.fill("#id_seed", str(SEED))
    o.submit("#draw-form button[type=submit]")
    assert page.url == url + draw_path
    assert o.error() == "Round 1 is released and cannot be redrawn; draw from round 2."
    assert seated(r1) == round1

    # the organiser opens round 1's games; table 1's referee submits its record
    page.set_viewport_size(DESKTOP)
    o.go(games_path)
    o.submit("#round-1 button[name=verb][value=create]")
    assert page.url == f"{url}{games_path}#round-1"
    assert o.success().startswith(f"Round 1: {len(round1)} new games ready")
    table1 = Table.objects.select_related("referee__user").get(round=r1, number=1)
    game = Game.objects.get(table=table1)
    referee = table1.referee
    assert referee is not None
    first = simulate_game("classic", len(round1[1]), 11, players=round1[1])
    game_services.submit_record(referee.user, game, first, "api")

    # a swap and a referee change at the played table are refused, naming round and table
    page.set_viewport_size(PHONE)
    o.go(draw_path)
    p1, p2 = round1[1][0], round1[2][0]
    form = page.locator("#round-1 form.swap")
    form.locator("input[name=a]").fill(p1)
    form.locator("input[name=b]").fill(p2)
    o.submit("#round-1 form.swap button[type=submit]")
    assert page.url == f"{url}{draw_path}#round-1"
    text = o.error()
    assert text.startswith("Cannot swap these players: a game is recorded at round 1 table 1.")
    assert "voids that game" in text
    assert seated(r1) == round1
    o.fits()
    page.screenshot(path=str(SHOTS / "lifecycle-draw-error-390.png"), full_page=True)

    other = next(r for r in referees if r.pk != referee.pk)
    page.select_option(f"#ref-{table1.pk}", str(other.pk))
    o.submit(f"#round-1-table-1 form[action$='/tables/{table1.pk}/referee/'] button")
    assert page.url == f"{url}{draw_path}#round-1-table-1"
    assert o.error().startswith(
        "Cannot change this referee: a game is recorded at round 1 table 1."
    )
    table1.refresh_from_db()
    assert table1.referee_id == referee.pk and not table1.referee_pinned

    # --- the awaiting list, then the review before confirming ----------------------------
    page.set_viewport_size(DESKTOP)
    o.go(games_path)
    assert "1 game awaiting confirmation" in page.inner_text("#awaiting-link")
    o.submit("#awaiting-link a")
    assert page.url == f"{url}/games/events/{event.pk}/awaiting/"
    assert page.locator(f"#awaiting tr[data-game='{game.pk}']").count() == 1

    page.set_viewport_size(PHONE)
    game_path = f"/games/{game.pk}/"
    o.go(game_path)
    o.submit("#version-1 a.review-link")
    assert page.url == f"{url}/games/{game.pk}/versions/1/review/"
    seats = page.inner_text("#review-seats")
    for s in first["seats"]:
        assert f"@{s['player']}" in seats
    killers = sum(s["role"] == "killer" for s in first["seats"])
    assert page.locator("#review-seats td.role-killer").count() == killers > 0
    log = page.inner_text("#review-log")
    assert "Night 1" in log and "Day 1" in log
    # the first ballot: its leading target, with who voted for it, by seat and name
    names = dict(Player.objects.values_list("handle", "display_name"))
    name = {s["seat"]: names[s["player"]] for s in first["seats"]}
    ballot = next(b for p in first["log"] for b in p.get("ballots") or [])
    votes: dict[int, list[int]] = {}
    for voter, target in ballot.items():
        if target is not None:
            votes.setdefault(target, []).append(int(voter))
    target = max(votes, key=lambda t: (len(votes[t]), -t))
    row = page.locator("#review-log .ballot-view").first.locator("tbody tr").first
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    assert cells[1] == str(len(votes[target]))
    assert cells[2] == ", ".join(f"{v} {name[v]}" for v in sorted(votes[target]))
    assert f"seat {target} {name[target]}" in cells[0]
    verdict = page.inner_text("#verdict")
    assert "✓ valid" in verdict and "Winner" in verdict
    assert first["result"]["winner"] in page.inner_text("#outcome").lower()
    assert "first version of this game" in page.inner_text("#diff")
    before_button(page, ["#verdict", "#diff", "#review-seats", "#review-log"])
    o.fits()
    page.screenshot(path=str(SHOTS / "lifecycle-review-390.png"), full_page=True)

    question = o.accept_dialog("#confirm-button")
    assert question == "Confirm version 1 as the game's record?"
    assert page.url == url + game_path
    assert o.success() == "Round 1, table 1: version 1 confirmed; the game is now confirmed."
    assert GameVersion.objects.get(game=game, number=1).status == "confirmed"

    page.set_viewport_size(DESKTOP)
    o.go(f"/games/events/{event.pk}/awaiting/")
    assert page.locator(f"#awaiting tr[data-game='{game.pk}']").count() == 0
    assert page.locator("#nothing-awaiting").count() == 1

    # a correction: its review shows what changed, before the button
    second = simulate_game("classic", len(round1[1]), 12, players=round1[1])
    assert [s["role"] for s in second["seats"]] != [s["role"] for s in first["seats"]]
    game_services.submit_record(referee.user, game, second, "api", reason="cards misread")
    page.reload()
    row = page.locator(f"#awaiting tr[data-game='{game.pk}']")
    assert row.count() == 1 and "correction" in row.inner_text()

    page.set_viewport_size(PHONE)
    o.go(game_path)
    o.submit("#version-2 a.review-link")
    diff = page.inner_text("#diff")
    assert "Changes from version 1 (confirmed)" in diff
    assert page.locator("#seat-changes tbody tr").count() >= 1
    assert page.locator("#seat-changes ins").count() >= 1
    assert "cards misread" in page.inner_text("#verdict")
    before_button(page, ["#verdict", "#diff", "#seat-changes", "#review-seats", "#review-log"])
    o.fits()
    page.screenshot(path=str(SHOTS / "lifecycle-review-correction-390.png"), full_page=True)
    o.accept_dialog("#confirm-button")
    assert page.url == url + game_path
    assert o.success() == "Round 1, table 1: version 2 confirmed; the game is now confirmed."
    statuses = dict(GameVersion.objects.filter(game=game).values_list("number", "status"))
    assert statuses == {1: "superseded", 2: "confirmed"}
    o.go(f"/games/events/{event.pk}/awaiting/")
    assert page.locator(f"#awaiting tr[data-game='{game.pk}']").count() == 0

    # --- voiding asks first, is listed with its reason, and frees the table --------------
    page.set_viewport_size(DESKTOP)
    o.go(game_path)
    page.fill("#void-reason", "wrong table played")
    question = o.refuse_dialog("#void button.danger")
    assert question.startswith("Void this game for good?")
    assert Game.objects.get(pk=game.pk).status != "voided"
    o.accept_dialog("#void button.danger")
    assert page.url == url + game_path
    assert o.success().startswith("Round 1, table 1: game voided.")
    assert page.locator('#voided [data-status="voided"]').count() == 1
    o.go(games_path)
    voided = page.inner_text("#voided-games")
    assert "Round 1, table 1" in voided and "wrong table played" in voided
    assert Game.objects.get(pk=game.pk).status == "voided"

    o.go(draw_path)
    form = page.locator("#round-1 form.swap")
    form.locator("input[name=a]").fill(p1)
    form.locator("input[name=b]").fill(p2)
    o.submit("#round-1 form.swap button[type=submit]")
    assert page.url == f"{url}{draw_path}#round-1"
    assert o.success() == (
        f"Round 1: @{p1} and @{p2} swapped (tables 1, 2); both seats are now pinned."
    )
    assert seated(r1)[1][0] == p2 and seated(r1)[2][0] == p1
    assert page.locator("#round-1 .seats li:has(.pin)").count() == 2

    # --- withdrawing a player asks first ---------------------------------------------------
    reg = Registration.objects.select_related("player").filter(event=event).order_by("pk")[0]
    o.go(f"/manage/events/{event.pk}/registrations/")
    button = f"form[action$='/registrations/{reg.pk}/withdraw/'] button"
    question = o.refuse_dialog(button)
    assert question.startswith(f"Withdraw {reg.player.display_name} from the event?")
    reg.refresh_from_db()
    assert reg.status != "withdrawn"
    o.accept_dialog(button)
    assert page.url == f"{url}/manage/events/{event.pk}/registrations/"
    assert o.success() == f"{reg.player.display_name} withdrawn."
    reg.refresh_from_db()
    assert reg.status == "withdrawn"
    context.close()


def before_button(page: Any, selectors: list[str]) -> None:
    """Each element comes before the confirm button, in the page and on the screen."""
    button = page.locator("#confirm-button")
    top = button.bounding_box()["y"]
    for selector in selectors:
        assert page.evaluate(
            "([s]) => !!(document.querySelector(s).compareDocumentPosition("
            "document.getElementById('confirm-button')) & Node.DOCUMENT_POSITION_FOLLOWING)",
            [selector],
        ), selector
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["y"] < top, selector


def test_a_refused_swap_on_a_phone_shows_its_message_where_the_page_lands(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    org = ClubOrganiserFactory(user__username="org")
    event = EventFactory(club=org.club, rounds_count=3)
    players = registered_players(event, 24)
    for rnd in event.rounds.order_by("number"):
        lay_out(rnd, players)
    draw_path = f"/manage/events/{event.pk}/draw/"
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(20_000)
    o = Organiser(page, live_server.url)
    o.go(f"/accounts/login/?next={draw_path}")
    page.fill("#id_username", "org")
    page.fill("#id_password", PASSWORD)
    o.submit("main button[type=submit]")
    form = page.locator("#round-2 form.swap")
    form.locator("input[name=a]").fill(players[0].handle)
    form.locator("input[name=b]").fill("nobody-here")
    o.submit("#round-2 form.swap button[type=submit]")
    assert page.url.endswith("#round-2") and o.error()
    box = page.locator("ul.messages").bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"], f"message at {box}"
