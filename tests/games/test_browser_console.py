"""The referee's console on a phone (390×844), issue #20: a whole classic game entered
with the vote grid — "all the rest vote X", a tie ladder restricted to the tied seats —
the speech timer started, paused and kept across reloads with its 10 s and zero alarms,
a fourth warning whose −0.5 shows at once, an ejection and a surrender that both ask
first; the submitted record carries the awards and the ejection.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import GameSheet, GameVersion
from league.models import Seat
from tests.games.conftest import make_world
from tests.games.test_browser import login, night, phase, saved, vote

pytestmark = [pytest.mark.browser]

#: navigator.vibrate recorded, so the alarms can be seen (a headless phone has no motor)
VIBRATIONS = """
window.__vibrations = [];
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__vibrations.push(pattern); return true; }
});
"""


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), width


def clock(page: Any) -> str:
    return page.inner_text("#timer-clock").strip()


def vibrations(page: Any) -> list[Any]:
    return page.evaluate("window.__vibrations")


def seat_buttons(page: Any, voter: int) -> list[tuple[str, bool]]:
    row = page.locator(f'#ballot .vote-row[data-voter="{voter}"] button[data-seat]')
    return [
        (row.nth(i).get_attribute("data-seat"), row.nth(i).is_enabled()) for i in range(row.count())
    ]


def test_referee_console_on_a_phone(live_server: Any, transactional_db: None, browser: Any) -> None:
    world = make_world("classic", 12)
    world.event.last_words_seconds = 12  # short, so the 10 s alarm comes at once
    world.event.tie_speech_seconds = 25
    world.event.save()
    names = {
        s.number: s.player.display_name
        for s in Seat.objects.filter(table=world.table).select_related("player")
    }
    sheet_path = f"/games/{world.game.pk}/sheet/"
    page = login(browser, live_server.url, world.user("referee"), sheet_path)
    page.add_init_script(VIBRATIONS)
    page.reload()
    answer = {"accept": True}
    asked: list[str] = []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        if answer["accept"]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    assert page.evaluate("window.innerWidth") == 390

    # the deal: killers 1-3, police 4-6
    for seat in (1, 2, 3):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="killer"]')
    for seat in (4, 5, 6):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="police"]')
    page.click("#deal")
    saved(page)
    phase(page, "night 1")
    assert page.is_hidden("#timer")  # nobody speaks at night
    kill4 = page.locator('.night .seat-grid >> nth=0 >> button[data-seat="4"]')
    assert names[4] in kill4.inner_text()  # names with seat numbers where a seat is chosen
    night(page, kill=4, check=1)
    phase(page, "day 1")
    no_sideways_scroll(page)

    # --- the timer: seat 4's last words (12 s), then the day's speeches from seat 5 -----
    assert names[4] in page.inner_text("#timer-who") and "last words" in page.inner_text(
        "#timer-who"
    )
    assert clock(page) == "0:12"
    speakers = page.locator("#speakers button")
    assert [speakers.nth(i).get_attribute("data-seat") for i in range(speakers.count())] == [
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "11",
        "12",
        "1",
        "2",
        "3",
    ]
    page.click("#timer-start")
    page.wait_for_function("() => window.__vibrations.length >= 1")  # 10 s left
    assert vibrations(page) == [200]
    page.click("#timer-pause")
    paused = clock(page)
    assert paused in ("0:10", "0:09", "0:08")
    page.reload()
    saved(page)
    assert clock(page) == paused and page.get_attribute("#timer", "data-running") == "false"
    page.click("#timer-start")
    page.reload()  # a running timer keeps running across a reload
    assert page.get_attribute("#timer", "data-running") == "true"
    page.wait_for_selector("#timer-clock.zero", timeout=20_000)
    page.wait_for_function("() => window.__vibrations.length >= 1")
    assert vibrations(page) == [[300, 120, 300]]  # zero (the page was reloaded: one entry)
    assert page.is_visible(".time-up")
    page.click("#timer-next")
    assert names[5] in page.inner_text("#timer-who") and clock(page) == "1:00"
    page.click("#timer-start")
    page.wait_for_function("() => document.getElementById('timer-clock').textContent !== '1:00'")
    page.click("#timer-pause")

    row = page.locator('#last-words .words[data-speaker="4"]')
    row.locator('.seat-btn[data-seat="1"]').click()
    page.locator('#last-words .words[data-speaker="4"] .save-words').click()
    saved(page)

    # --- the grid: ballot 1 ---------------------------------------------------------------
    # every row has every seat in table order, then abstain; own seat and the dead disabled
    for voter in (1, 7, 12):
        cells = seat_buttons(page, voter)
        assert [c[0] for c in cells] == [str(n) for n in range(1, 13)] + ["none"]
        enabled = {int(s) for s, on in cells if on and s != "none"}
        assert enabled == {1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12} - {voter}
    assert page.locator("#ballot .vote-row").count() == 11  # the living voters
    vote(page, {1: 7, 2: 7, 3: 7, 10: 7, 11: 7, 7: None})
    page.click('#ballot .fill-row button[data-fill="1"]')  # all the rest vote 1
    assert (
        page.get_attribute('.vote-row[data-voter="12"] button[data-seat="1"]', "aria-pressed")
        == "true"
    )
    assert (
        page.get_attribute('.vote-row[data-voter="1"] button[data-seat="7"]', "aria-pressed")
        == "true"
    )
    assert page.inner_text('#ballot [data-count="1"]') == "5"
    assert page.inner_text('#ballot [data-count="7"]') == "5"
    assert "tied" in page.get_attribute('#ballot [data-count="1"]', "class")
    assert "tied" in page.get_attribute('#ballot th[data-col="7"]', "class")
    no_sideways_scroll(page)
    page.set_viewport_size({"width": 360, "height": 780})  # the grid scrolls in its box
    no_sideways_scroll(page)
    box = page.locator("#ballot").evaluate("t => [t.parentElement.clientWidth, t.scrollWidth]")
    assert box[0] < box[1] and box[0] <= 360
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#save-ballot")
    saved(page)
    page.wait_for_selector("#tie:not([hidden])")
    assert "tie-break" in page.inner_text("#tie")

    # ballot 2 (tie-break): only 1 and 7 can be chosen, said with their names
    restricted = page.inner_text("#restricted")
    assert f"1 {names[1]}" in restricted and f"7 {names[7]}" in restricted
    enabled = {int(s) for s, on in seat_buttons(page, 2) if on and s != "none"}
    assert enabled == {1, 7}
    assert {int(s) for s, on in seat_buttons(page, 1) if on and s != "none"} == {7}
    assert [s for s, on in seat_buttons(page, 2)][:12] == [str(n) for n in range(1, 13)]
    tie_speakers = page.locator("#speakers button")
    assert [tie_speakers.nth(i).get_attribute("data-seat") for i in range(2)] == ["1", "7"]
    assert tie_speakers.count() == 2 and clock(page) == "0:25"
    vote(page, {1: 7, 2: 7, 3: 7, 10: 7, 11: 7, 7: None})
    page.click('#ballot .fill-row button[data-fill="1"]')
    page.click("#save-ballot")
    saved(page)
    page.wait_for_function(
        "() => document.getElementById('tie').textContent.includes('off-site PK')"
    )
    others = page.locator("#speakers button")
    assert others.count() == 9  # before the off-site PK the others speak

    # ballot 3: 7 votes for 1 as well: 6–5, seat 1 leads
    vote(page, {1: 7, 2: 7, 3: 7, 10: 7, 11: 7})
    page.click('#ballot .fill-row button[data-fill="1"]')
    assert "lead" in page.get_attribute('#ballot [data-count="1"]', "class")
    page.click("#save-ballot")
    saved(page)
    assert names[1] in page.inner_text("#declare")
    page.click("#declare")
    saved(page)
    page.locator('#last-words .words[data-speaker="1"] .save-words').click()
    saved(page)

    # --- fouls: three warnings to seat 9, then the fourth costs half a point ----------------
    for _ in range(3):
        page.select_option("#award-seat", "9")
        page.select_option("#award-kind", "warning")
        page.click("#add-award")
        saved(page)
    foul = page.locator('#foul-summary .foul[data-seat="9"]')
    assert "3/4" in foul.inner_text() and "the next warning costs -0.5" in foul.inner_text()
    assert foul.locator(".automatic").count() == 0
    foul.locator(".warn-btn").click()  # the fourth, in one tap
    saved(page)
    foul = page.locator('#foul-summary .foul[data-seat="9"]')
    assert "4/4" in foul.inner_text()
    assert foul.locator(".automatic").inner_text() == (
        "-0.5 · 4 warnings in one game: automatic penalty (once)"
    )
    assert "-0.5" in foul.locator(".foul-total").inner_text()
    assert "night 2" in page.inner_text(".award-log")  # the phase it was given in

    # --- night 2, then day 2: a surrender asks first; an ejection too ---------------------
    night(page, kill=5, check=2)
    phase(page, "day 2")
    surrender = page.locator('.day .seat-grid button[data-seat="6"]')
    assert names[6] in surrender.inner_text()  # the last police officer may surrender
    answer["accept"] = False
    surrender.click()
    assert "surrenders" in asked[-1] and names[6] in asked[-1]
    saved(page)
    assert page.locator("#steps li").count() == 13  # nothing recorded
    answer["accept"] = True
    page.click(".eject summary")
    page.select_option("#eject-seat", "12")
    page.click("#eject-btn")
    saved(page)
    assert names[12] in asked[-1] and "-0.5" in asked[-1]
    ejected = page.locator('#foul-summary .foul[data-seat="12"]')
    assert "ejected" in ejected.inner_text()
    assert ejected.locator(".automatic").inner_text() == "-0.5 · ejected by the referee"
    assert page.locator('#ballot .vote-row[data-voter="12"]').count() == 0
    assert all(not on for s, on in seat_buttons(page, 7) if s == "12")

    # day 2: seat 2 out (2 votes 3, the rest vote 2)
    vote(page, {2: 3})
    page.click('#ballot .fill-row button[data-fill="2"]')
    page.click("#save-ballot")
    saved(page)
    page.click("#declare")
    saved(page)

    # night 3: the last police officer dies: the killers win
    night(page, kill=6, check=3)
    page.wait_for_selector("#winner")
    no_sideways_scroll(page)
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        no_sideways_scroll(page)
    page.click("#submit")
    page.wait_for_selector("#notice:not([hidden])")

    version = GameVersion.objects.get(game=world.game)
    assert version.valid and version.status == "submitted", version.violations
    record = version.record
    assert record["result"] == {"winner": "killers"}
    assert len(record["log"][1]["ballots"]) == 3 and record["log"][1]["eliminated"] == 1
    assert record["log"][3]["eject"] == [12]
    assert record["awards"] == [{"seat": 9, "kind": "warning"}] * 4
    steps = GameSheet.objects.get(game=world.game).steps
    assert [s["phase"] for s in steps if s["type"] == "award"] == ["night 2"] * 4
