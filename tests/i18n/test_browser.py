"""In a real phone-sized browser: a referee opens the live sheet, switches the site to
简体中文 with the switcher, deals, plays the night and records a vote — every word on
the sheet is Chinese, the engine's phase and tie included — and the choice sticks to
their profile. Reuses the games browser test's set-up (world, login, Chromium flags).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import GameSheet
from league.models import Preferences
from tests.games.conftest import make_world
from tests.games.test_browser import (  # the games engineer's set-up, shared
    PHONE,
    login,
    night,
    saved,
    vote,
)

pytestmark = [
    pytest.mark.browser,
]


assert PHONE["viewport"] == {"width": 390, "height": 844}  # login() opens this phone context


def phase(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('phase').textContent.trim() === t", arg=text
    )


def switch_language(page: Any, code: str) -> None:
    """Open the phone menu and choose a language; the page reloads in it."""
    if not page.is_visible("#lang-select"):
        page.click("label[for=nav-toggle]")
    with page.expect_navigation():
        page.select_option("#lang-select", code)


def test_referee_switches_to_chinese_and_records_a_vote(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    world = make_world("classic", 12)
    referee = world.user("referee")
    sheet_path = f"/games/{world.game.pk}/sheet/"
    page = login(browser, live_server.url, referee, sheet_path)
    assert page.evaluate("window.innerWidth") == 390
    assert page.get_attribute("html", "lang") == "en"

    switch_language(page, "zh-hans")
    assert page.url.endswith(sheet_path)
    assert page.get_attribute("html", "lang") == "zh-hans"
    assert Preferences.objects.get(user=referee).language == "zh-hans"
    assert page.inner_text("#save-status") == "已保存 ✓"
    assert page.inner_text(".deal h2") == "发身份牌"

    # deal: 3 killers (1-3), 3 police (4-6), 6 civilians
    for seat in (1, 2, 3):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="killer"]')
    for seat in (4, 5, 6):
        page.click(f'.deal-row[data-seat="{seat}"] button[data-role="police"]')
    counts = page.inner_text(".counts")
    assert counts.startswith("需要") and "杀手 3/3" in counts and "平民 6/6" in counts
    assert page.inner_text("#deal") == "发牌"
    page.click("#deal")
    saved(page)
    phase(page, "第1夜")
    assert page.inner_text(".night h3 >> nth=0") == "杀人"
    assert page.inner_text("#save-night") == "保存夜晚"

    night(page, kill=12, check=1)
    phase(page, "第1天")
    assert "第1天 · 投票 1" in page.inner_text(".day h2")

    # the vote: 5–5 between seats 1 and 7 (seat 2 abstains): a tie, the engine says PK
    tie = {1: 7, 3: 7, 4: 7, 10: 7, 11: 7, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 2: None}
    vote(page, tie)
    assert page.inner_text("#save-ballot") == "保存投票"
    assert "弃权" in page.inner_text('#ballot .vote-row[data-voter="2"]')
    page.click("#save-ballot")
    saved(page)
    page.wait_for_selector("#tie:not([hidden])")
    assert page.inner_text("#tie") == "第1轮投票1、7号平票：平票PK"
    assert page.inner_text(".candidates") == "候选人: 1, 7"
    steps = [page.inner_text(f"#steps li >> nth={i}") for i in range(3)]
    assert steps[0] == "已发牌" and steps[1] == "夜晚：杀 12，验 1"
    assert steps[2].startswith("投票：")

    # nothing on the sheet is left in English
    text = page.inner_text("main")
    assert not re.findall(r"\b(?:saved|Deal|Night|Day|Ballot|Kill|Check|tie-break)\b", text)

    ballots = GameSheet.objects.get(game=world.game).steps[-1]
    assert ballots["type"] == "ballot" and ballots["votes"]["2"] is None
