"""In a real phone-sized browser: a referee plays a whole 12-player game on the live
sheet — a tie ladder, a reload midway, a dropped connection, an undo — submits it, and a
second official confirms it. Then bad uploads get clear per-file messages.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, GameVersion
from tests.games.conftest import make_world
from tests.league.factories import PASSWORD

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

pytestmark = [
    pytest.mark.browser,
]


def login(browser: Any, url: str, user: Any, next_path: str) -> Any:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("#id_username", user.get_username())
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}{next_path}")
    return page


def saved(page: Any) -> None:
    page.wait_for_selector('#save-status[data-state="saved"]')


def phase(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('phase').textContent.trim() === t", arg=text
    )


def night(page: Any, kill: int, check: int) -> None:
    grids = page.locator(".night .seat-grid")
    grids.nth(0).locator(f'button[data-seat="{kill}"]').click()
    grids.nth(1).locator(f'button[data-seat="{check}"]').click()
    page.click("#save-night")
    saved(page)


def vote(page: Any, votes: dict[int, int | None]) -> None:
    for voter, target in votes.items():
        seat = "none" if target is None else str(target)
        page.click(f'#ballot .vote-row[data-voter="{voter}"] button[data-seat="{seat}"]')


def last_words(page: Any, seat: int, suspects: list[int]) -> None:
    row = page.locator(f'#last-words .words[data-speaker="{seat}"]')
    for s in suspects:
        row.locator(f'.seat-btn[data-seat="{s}"]').click()
        row = page.locator(f'#last-words .words[data-speaker="{seat}"]')
    row.locator(".save-words").click()
    saved(page)


def test_referee_plays_a_whole_game_on_a_phone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    world = make_world("classic", 12)
    url = live_server.url
    sheet_path = f"/games/{world.game.pk}/sheet/"
    page = login(browser, url, world.user("referee"), sheet_path)
    page.on("dialog", lambda d: d.accept())
    assert page.evaluate("window.innerWidth") == 390

    # deal: 3 killers (1-3), 3 police (4-6), 6 civilians — one tap per card
    assert page.is_disabled("#deal")
    for seat in (1, 2, 3):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="killer"]')
    for seat in (4, 5, 6):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="police"]')
    assert "3/3" in page.inner_text(".counts")
    page.click("#deal")
    saved(page)
    phase(page, "night 1")

    # night 1: kill 4 (police), check 1
    night(page, kill=4, check=1)
    phase(page, "day 1")
    last_words(page, 4, [1])

    # day 1, ballot 1: 5–5 between 1 and 7 (7 abstains)
    tie = {1: 7, 2: 7, 3: 7, 10: 7, 11: 7, 5: 1, 6: 1, 8: 1, 9: 1, 12: 1, 7: None}
    vote(page, tie)
    assert "1×5" in page.inner_text("#tally") and "7×5" in page.inner_text("#tally")
    page.click("#save-ballot")
    saved(page)
    page.wait_for_selector("#tie:not([hidden])")
    assert "tie-break" in page.inner_text("#tie")
    assert page.inner_text(".candidates").endswith("1, 7")

    # half the tie-break ballot filled in, then the page is reloaded
    vote(page, {1: 7, 2: 7, 3: 7})
    page.reload()
    saved(page)
    phase(page, "day 1")
    assert "tie-break" in page.inner_text("#tie")
    assert (
        page.get_attribute('.vote-row[data-voter="2"] button[data-seat="7"]', "aria-pressed")
        == "true"
    )
    steps = page.locator("#steps li")
    assert steps.count() == 4  # deal, night, last words, ballot 1
    vote(page, {10: 7, 11: 7, 5: 1, 6: 1, 8: 1, 9: 1, 12: 1, 7: None})
    page.click("#save-ballot")
    saved(page)
    page.wait_for_function("document.getElementById('tie').textContent.includes('off-site PK')")

    # ballot 3 (off-site PK): 7 now votes for 1: 6–5
    vote(page, {**tie, 7: 1})
    page.click("#save-ballot")
    saved(page)
    assert "1" in page.inner_text("#declare")
    page.click("#declare")
    saved(page)
    last_words(page, 1, [])  # classic: round-1 deaths speak

    # night 2, then an undo and the night again
    night(page, kill=5, check=2)
    phase(page, "day 2")
    page.click("#undo")
    saved(page)
    phase(page, "night 2")
    night(page, kill=5, check=2)
    phase(page, "day 2")

    # day 2: the connection drops while the ballot is saved; it is retried
    page.context.set_offline(True)
    vote(page, {v: 2 for v in (3, 6, 7, 8, 9, 10, 11, 12)} | {2: 3})
    page.click("#save-ballot")
    page.wait_for_selector('#save-status[data-state="offline"]')
    assert page.locator("#steps li.pending").count() == 1
    page.context.set_offline(False)
    saved(page)
    page.click("#declare")
    saved(page)

    # night 3: the last police officer dies: every police officer out, the killers win
    night(page, kill=6, check=3)
    page.wait_for_selector("#winner")
    assert "killers" in page.inner_text("#winner")
    assert "police" in page.inner_text("#reason")

    # an award with its reason, then submit
    page.select_option("#award-seat", "9")
    page.select_option("#award-kind", "warning")
    page.fill("#award-reason", "phone at the table")
    page.click("#add-award")
    saved(page)
    assert "phone at the table" in page.inner_text("#awards")
    page.click("#submit")
    page.wait_for_selector("#notice:not([hidden])")
    assert "version 1" in page.inner_text("#notice")

    version = GameVersion.objects.get(game=world.game)
    assert version.valid and version.status == "submitted", version.violations
    record = version.record
    assert record["result"] == {"winner": "killers"}
    assert record["log"][1]["eliminated"] == 1 and len(record["log"][1]["ballots"]) == 3
    assert record["awards"] == [{"seat": 9, "kind": "warning", "reason": "phone at the table"}]

    # a second official confirms on their phone
    game_path = f"/games/{world.game.pk}/"
    org = login(browser, url, world.user("organiser"), game_path)
    org.click("#version-1 a.review-link")  # review the whole record, then confirm
    org.wait_for_selector("#confirm-button")
    assert "killer" in org.inner_text("#review-seats")
    org.once("dialog", lambda d: d.accept())
    org.click("#confirm-button")
    org.wait_for_selector('[data-status="confirmed"]')
    assert Game.objects.get(pk=world.game.pk).status == "confirmed"


def test_bad_uploads_get_clear_per_file_messages(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Path
) -> None:
    world = make_world("classic", 12)
    good = world.record(41)
    illegal = world.record(42)
    illegal["log"][0]["kill"] = 40
    files = {
        "good.json": json.dumps(good),
        "notes.json": "cards: 1 killer, 2 police…",
        "chess.json": json.dumps({"format": "pgn", "moves": ["e4"]}),
        "illegal.json": json.dumps(illegal),
    }
    paths = []
    for name, text in files.items():
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        paths.append(str(p))
    path = f"/games/{world.game.pk}/upload/"
    page = login(browser, live_server.url, world.user("referee"), path)
    page.set_input_files("input[type=file]", paths)
    page.click("main form button[type=submit]")
    page.wait_for_selector("#upload-report")

    def report(name: str) -> str:
        return page.inner_text(f'.report[data-file="{name}"]')

    assert "accepted as version 1" in report("good.json")
    assert "not JSON" in report("notes.json") and "line 1 column 1" in report("notes.json")
    assert "wrong format" in report("chess.json") and '"pgn"' in report("chess.json")
    assert "draft version 2" in report("illegal.json")
    assert "kill.unknown_seat" in report("illegal.json")
    assert page.locator(".report-bad").count() == 3
