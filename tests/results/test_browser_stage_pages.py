"""In a real browser: the stage pages (#19) at a phone's and a laptop's width, in Chinese
and Spanish: the stage standings, the cut page, the final table and a season's circuit
ranking never overflow the screen sideways and never show a raw decimal ("1.2500",
"×1.500", "1E+1"); in Spanish the decimals use the comma."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from league.models import Event, League, Season
from results.pipeline.standings import recompute_season
from tests.league.factories import PASSWORD
from tests.results.stages_factories import play_all, three_stages
from tests.results.test_circuit_ranking import _event, _final_order, _profile

pytestmark = [pytest.mark.browser]

#: Three or more decimals ending in a zero ("1.2500", "0,4000", "×1.500"), or an exponent;
#: two-decimal amounts ("187.50", circuit points) are written so on purpose.
RAW = re.compile(r"\d[.,]\d{2,}0\b|\de[+-]\d|\dE[+-]?\d|Decimal\(")
#: A decimal written with a dot (a Spanish reader writes "1,5").
DOT = re.compile(r"(?<![\w.])-?\d+\.\d+(?![\w.])")

STATE = """() => ({
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  text: document.body.innerText,
})"""


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_stage_pages_fit_phones_and_write_decimals_the_readers_way(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    ev = three_stages()
    ev.players[0].display_name = "María José Fernández-Villanueva de la Torre"
    ev.players[0].save()
    play_all(ev)
    league = League.objects.create(name="Tour", slug="tour", club=ev.club)
    season = Season.objects.create(
        league=league,
        name="2026",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        circuit=_profile(league),
        circuit_seed=7,
    )
    p = ev.players
    spring = _event(season, "Spring", "club", Event.Status.FINISHED, 1)
    open_ = _event(season, "Open", "open", Event.Status.FINISHED, 8)
    _final_order(spring, [(p[0], 1), (p[1], 2), (p[2], 2), (p[3], 4)])
    _final_order(open_, [(p[1], 1), (p[0], 2), ("ghost", 3), (p[3], 4), (p[4], 5)])
    with transaction.atomic():
        recompute_season(season.pk)
    ev.organiser.set_password(PASSWORD)
    ev.organiser.save()

    club, slug = ev.club.slug, ev.event.slug
    pages = [
        *(reverse("results:stage-standings", args=[club, slug, n]) for n in (0, 1, 2)),
        reverse("results:stage-cut", kwargs={"pk": ev.event.pk, "position": 1}),
        reverse("results:final-table", args=[club, slug]),
        reverse("results:season", args=[season.pk]),
    ]
    url = live_server.url
    problems: list[str] = []
    for lang in ("zh-hans", "es"):
        for width, height in ((390, 844), (1280, 900)):
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
            page = context.new_page()
            page.set_default_timeout(20_000)
            page.goto(f"{url}/accounts/login/")  # the cut page is the organisers'
            page.fill("#id_username", ev.organiser.username)
            page.fill("#id_password", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_load_state()
            for path in pages:
                response = page.goto(url + path)
                assert response is not None and response.status == 200, path
                state = page.evaluate(STATE)
                where = f"{path} {lang} {width}px"
                if state["overflow"] > 0:
                    problems.append(f"{where}: {state['overflow']} px wider than the screen")
                text = state["text"]
                raw = RAW.findall(text)
                if raw:
                    problems.append(f"{where}: raw decimals {raw[:3]}")
                if lang == "es" and DOT.findall(text):
                    problems.append(f"{where}: decimals with a dot {DOT.findall(text)[:3]}")
            context.close()
    assert not problems, "\n".join(problems)
