"""Every main page in English, 简体中文 and Español: no marked string left untranslated,
no English words in the Chinese or Spanish page, the switcher on every page, and the
language chosen by profile, then switcher (cookie), then browser.

The world is written in Chinese (club, event, players) so that any Latin word left on a
Chinese page is the platform's, not the data's.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.rulesets import RULESETS
from engine.scoring import PROFILES
from engine.standings import METRICS
from games.models import Game
from games.services import game_for_table
from league.clubs.profiles import SESSION_KEY
from league.models import League, Preferences, Season
from tests.league.factories import ClubFactory, UserFactory
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh-hans", "es")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class World:
    ev: Played
    released: Game
    live: Game
    pages: dict[str, list[str]]  # who → urls

    def client(self, who: str, lang: str) -> Client:
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        user = {
            "organiser": self.ev.organiser,
            "referee": self.ev.referee.user,
            "player": self.ev.players[0].user,
        }.get(who)
        if user is not None:
            client.force_login(user)
        return client


@pytest.fixture
def world() -> World:
    club = ClubFactory(name="星光俱乐部", slug="xingguang")
    league = League.objects.create(name="天黑联赛", slug="tianhei-liansai", club=club)
    season = Season.objects.create(
        league=league, name="二〇二六", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
    )
    ev = played_event(n_players=14, club=club, name="秋季杯", season=season)
    released = ev.play(1, 1, ev.players[:12], seed=11)
    ev.play(2, 1, ev.players[2:14], seed=12)
    live = game_for_table(ev.table(3, 1, ev.players[:12]))
    club, event, pk = ev.club.slug, ev.event.slug, ev.event.pk
    handle = ev.players[3].handle
    public = [
        reverse("home"),
        reverse("login"),
        reverse("club", args=[club]),
        reverse("public-event", args=[club, event]),
        reverse("public-round", args=[club, event, 1]),
        reverse("results:leaderboard"),
        reverse("results:player", args=[handle]),
        reverse("results:club", args=[club]),
        reverse("results:league", args=[league.slug]),
        reverse("results:season", args=[season.pk]),
        reverse("results:standings", args=[club, event]),
        reverse("results:standings-player", args=[club, event, handle]),
        reverse("results:account", args=[released.pk]),
    ]
    organiser = [
        reverse("manage-home"),
        reverse("event-create", args=[club]),
        reverse("event-dashboard", args=[pk]),
        reverse("event-edit", args=[pk]),
        reverse("event-registrations", args=[pk]),
        reverse("registration-import", args=[pk]),
        reverse("event-draw", args=[pk]),
        reverse("event-conflicts", args=[pk]),
        reverse("sheet-tables", args=[pk]),
        reverse("sheet-players", args=[pk]),
        reverse("games:event", args=[pk]),
        reverse("games:game", args=[released.pk]),
        reverse("games:game", args=[live.pk]),
        reverse("games:upload", args=[live.pk]),
        reverse("games:paper", args=[live.pk]),
        reverse("games:club-new", args=[club]),
    ]
    referee = [
        reverse("games:mine"),
        reverse("games:sheet", args=[live.pk]),
        reverse("referee-rounds", args=[pk]),
    ]
    return World(
        ev, released, live, {"anonymous": public, "organiser": organiser, "referee": referee}
    )


# --- reading a page ---------------------------------------------------------------------

_DROP = re.compile(r"<(script|style|pre)\b.*?</\1>|<!--.*?-->", re.S | re.I)
_ATTRS = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def visible_text(page: str) -> str:
    """What a reader sees or hears: text, titles, placeholders and labels."""
    page = _DROP.sub(" ", page)
    extra = " ".join(_ATTRS.findall(page))
    return html.unescape(_TAG.sub(" ", page) + " " + extra)


#: Words that may stay Latin on a Chinese page: names of formats, units, proper names.
ALLOWED = {
    "kgr",
    "csv",
    "pk",
    "ci",
    "json",
    "utf",
    "api",
    "wilson",
    "english",
    "español",
    "tianhei",
    "classic",
    "mainstream",
    "club",  # the scoring profile id club-v1
    "v1",
    "display_name",
    "handle",
    "new",  # the CSV import's optional column and its value (a likely duplicate confirmed)
    "yes",
    "meta",
    "round",  # meta.round in the upload help
    "table",  # meta.table in the upload help
    "ics",
    "txt",  # the upload's notation files (.txt)
    "http",
    "https",
    "testserver",
    "clubs",
    "xingguang",
    "calendar",  # the .ics address shown for copying
    "min",
    "max",
    "utc",
    "am",
    "pm",
}
#: English words that are not Spanish: none may appear on a Spanish page.
NOT_SPANISH = {
    "the",
    "and",
    "of",
    "with",
    "your",
    "you",
    "by",
    "for",
    "from",
    "this",
    "that",
    "is",
    "are",
    "yet",
    "round",
    "rounds",
    "table",
    "tables",
    "player",
    "players",
    "game",
    "games",
    "event",
    "events",
    "seat",
    "seats",
    "referee",
    "released",
    "confirmed",
    "submitted",
    "draft",
    "points",
    "wins",
    "rank",
    "status",
    "none",
    "nobody",
    "night",
    "day",
    "killer",
    "killers",
    "police",
    "civilian",
    "upload",
    "download",
    "sheet",
    "version",
    "edit",
    "save",
    "search",
    "show",
    "next",
    "previous",
    "page",
    "home",
    "log",
    "out",
    "name",
    "check",
    "draw",
    "result",
    "results",
    "standings",
    "rating",
    "submit",
    "release",
    "back",
}


def _strip_data(text: str, world: World) -> str:
    """Remove what the data itself wrote: handles, user names, the event's ids."""
    text = re.sub(r"@[\w.-]+|(?<![A-Za-z])(?:user|player-|root)\d+", " ", text)
    text = re.sub(r"https?://\S+|/\S+/|\b\d+[\w.:-]*|\bmeta\.\w+", " ", text)
    text = re.sub(r"\{\w+\}", " ", text)  # the sheet's {seat}-style slots, filled by its script
    for p in world.ev.players:
        text = text.replace(p.handle, " ")
    # identifiers an organiser types or picks (shown with their translated label)
    for key in sorted([*METRICS, *RULESETS, *PROFILES], key=len, reverse=True):
        text = text.replace(key, " ")
    for data in (world.ev.club.city, world.ev.event.venue):
        text = text.replace(data, " ") if data else text
    return text


def english_left(text: str, lang: str) -> list[str]:
    words = [w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ_']+", text)]
    if lang == "zh-hans":
        return sorted({w for w in words if w not in ALLOWED})
    return sorted({w for w in words if w in NOT_SPANISH})


def untranslated_marked(text: str, lang: str) -> list[str]:
    """Source strings of the catalogue (longer than one word) shown untranslated."""
    found = []
    for msgid, msgstr in _catalogue(lang).items():
        if msgid != msgstr and " " in msgid and len(msgid) > 8 and msgid in text:
            found.append(msgid)
    return found


_CACHE: dict[str, dict[str, str]] = {}


def _catalogue(lang: str) -> dict[str, str]:
    if lang not in _CACHE:
        import gettext

        folder = {"zh-hans": "zh_Hans", "es": "es"}[lang]
        with open(ROOT / "locale" / folder / "LC_MESSAGES" / "django.mo", "rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        _CACHE[lang] = {
            k.split("\x04")[-1]: v
            for k, v in catalog.items()
            if isinstance(k, str) and k and "%(" not in k
        }
    return _CACHE[lang]


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_main_page_speaks_the_language(world: World, lang: str) -> None:
    problems = []
    for who, urls in world.pages.items():
        client = world.client(who, lang)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (who, url, response.status_code)
            page = response.content.decode()
            assert f'<html lang="{lang}">' in page, (url, lang)
            assert 'name="language"' in page, f"no language switcher on {url}"
            if lang == "en":
                continue
            text = _strip_data(visible_text(page), world)
            left = english_left(text, lang)
            marked = untranslated_marked(text, lang)
            if left or marked:
                problems.append((who, url, left, marked))
    assert not problems, "\n".join(map(str, problems))


def test_dates_and_decimals_follow_the_language(world: World) -> None:
    handle = world.ev.players[3].handle
    url = reverse(
        "results:standings-player", args=[world.ev.club.slug, world.ev.event.slug, handle]
    )
    es = world.client("anonymous", "es").get(url).content.decode()
    en = world.client("anonymous", "en").get(url).content.decode()
    decimals_en = set(re.findall(r"\b\d+\.\d+\b", visible_text(en)))
    decimals_es = set(re.findall(r"\b\d+,\d+\b", visible_text(es)))
    assert decimals_en, "the breakdown shows decimal points"
    assert {d.replace(".", ",") for d in decimals_en} <= decimals_es
    dash = reverse("event-dashboard", args=[world.ev.event.pk])
    zh = world.client("organiser", "zh-hans").get(dash).content.decode()
    assert re.search(r"\d{4}年\d{1,2}月\d{1,2}日", zh), "dates in Chinese form"
    es = world.client("organiser", "es").get(dash).content.decode()
    assert re.search(r"\d{1,2} de [a-z]+ de \d{4}", es), "dates in Spanish form"


def test_the_switcher_changes_the_language_and_comes_back(world: World) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    home = reverse("home")
    assert 'lang="en"' in client.get(home).content.decode()
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": home})
    assert response.status_code == 302 and response["Location"] == home
    page = client.get(home).content.decode()
    assert 'lang="zh-hans"' in page and "天黑了，请闭眼。" in page
    assert '<option value="zh-hans" selected>' in page
    client.post(reverse("set_language"), {"language": "es", "next": home})
    assert "Cae la noche. Cierren los ojos." in client.get(home).content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": home})
    assert "Night falls. Close your eyes." in client.get(home).content.decode()


def test_the_switcher_saves_the_choice_to_the_profile(world: World) -> None:
    user = world.ev.organiser
    client = world.client("organiser", "en")
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert Preferences.objects.get(user=user).language == "es"
    # another device, a browser asking for Chinese: the profile wins
    other = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    other.force_login(user)
    page = other.get(reverse("manage-home")).content.decode()
    assert 'lang="es"' in page and "Tus torneos" in page


def test_profile_language_wins_over_the_browser(world: World) -> None:
    user = UserFactory()
    Preferences.objects.create(user=user, language="zh-hans")
    client = Client(HTTP_ACCEPT_LANGUAGE="es,en;q=0.8")
    assert 'lang="es"' in client.get("/").content.decode()  # not signed in: the browser
    client.force_login(user)
    page = client.get("/").content.decode()
    assert 'lang="zh-hans"' in page and "天黑了，请闭眼。" in page
    assert client.get("/").headers["Content-Language"] == "zh-hans"
    # the API speaks it too
    response = client.get("/api/v1/games/999999/")
    assert response.headers["Content-Language"] == "zh-hans"
    client.logout()
    assert 'lang="es"' in client.get("/").content.decode()


def test_without_a_profile_the_cookie_then_the_browser_decide(world: World) -> None:
    user = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(user)
    assert 'lang="es"' in client.get("/").content.decode()
    assert client.session[SESSION_KEY] == ""
    client.cookies["django_language"] = "zh-hans"
    assert 'lang="zh-hans"' in client.get("/").content.decode()


def test_reading_the_preference_costs_no_query_per_page(
    world: World, django_assert_max_num_queries: Any
) -> None:
    user = world.ev.organiser
    Preferences.objects.create(user=user, language="es")
    client = Client()
    client.force_login(user)  # the preference goes into the session here
    client.get("/")
    with django_assert_max_num_queries(50) as ctx:
        client.get("/")
    assert not any("league_preferences" in q["sql"] for q in ctx.captured_queries)


def test_api_errors_in_the_readers_language(world: World) -> None:
    url = f"/api/v1/games/{world.live.pk}/sheet/steps/"
    body = {"step": {"type": "bogus"}, "revision": 0}
    said = {}
    for lang in LANGS:
        response = world.client("referee", lang).post(url, body, content_type="application/json")
        assert response.status_code == 400, response.content
        said[lang] = response.json()["detail"]
    assert said == {
        "en": "unknown step type",
        "zh-hans": "未知的步骤类型",
        "es": "tipo de paso desconocido",
    }


def test_engine_refusals_on_the_sheet_in_the_readers_language(world: World) -> None:
    url = f"/api/v1/games/{world.live.pk}/sheet/steps/"
    roles = {str(i): r for i, r in enumerate("KKKPPPCCCCCC", 1)}
    cards = {"K": "killer", "P": "police", "C": "civilian"}
    client = world.client("referee", "zh-hans")
    deal = {"type": "deal", "id": "d", "roles": {k: cards[v] for k, v in roles.items()}}
    state = client.post(url, {"step": deal, "revision": 0}, content_type="application/json")
    assert state.status_code == 200, state.content
    assert state.json()["expected"]["phase"] == "第1夜"
    bad = {"type": "night", "id": "n", "kill": 40, "check": None}
    response = client.post(url, {"step": bad, "revision": 1}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == "第1夜：杀手选了40号，但号码只有1到12"


def _json_script(page: str, element_id: str) -> Any:
    import json

    m = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S)
    assert m, element_id
    return json.loads(m.group(1))


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_the_live_sheet_gets_its_words_in_the_language(world: World, lang: str) -> None:
    """sheet.js shows the words the page hands it (json_script) and the engine's phase."""
    url = reverse("games:sheet", args=[world.live.pk])
    english = _json_script(world.client("referee", "en").get(url).content.decode(), "sheet-i18n")
    page = world.client("referee", lang).get(url).content.decode()
    words = _json_script(page, "sheet-i18n")
    assert words.keys() == english.keys()
    same = [k for k in words if words[k] == english[k]]
    assert not same, same


def test_pinyin_search_on_the_leaderboard_and_the_api(world: World) -> None:
    """Players are written 玩家 N: "wanjia" (pinyin, no tones, no spaces) finds them."""
    client = world.client("anonymous", "en")
    page = client.get(reverse("results:leaderboard"), {"q": "wan jia"}).content.decode()
    assert "玩家" in page
    assert "玩家" not in client.get(reverse("results:leaderboard"), {"q": "lisi"}).content.decode()
    found = client.get("/api/v1/players/", {"q": "wanjia"}).json()
    names = [p["display_name"] for p in found["results"]]
    assert names and all(n.startswith("玩家") for n in names)
