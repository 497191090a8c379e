"""Every public page (#21, "Done when"): reachable by links from the home page, and in a
real browser at a phone's and a laptop's width (390 px, 1280 px), in English, 简体中文 and
Español, none overflows the screen sideways, none shows English text the catalogue
translates, none prints a raw float or (in Spanish) a decimal point.

The pages are the curated list below (with the arguments that show them at their
fullest: an event with stages and a final table, a season with a circuit, a league whose
ranking sums decimals) plus any other page found in the URL patterns that answers an
anonymous reader with HTML (a page added later is visited without editing this file).
Pages of other parts built at the same time (the venue screen and its overlay,
analytics) are visited once their URL names resolve.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.urls import (
    NoReverseMatch,
    URLPattern,
    URLResolver,
    get_resolver,
    resolve,
    reverse,
)

from games.models import Game
from league.models import Event, League, Season
from results.pipeline.standings import recompute_season
from tests.results.factories import played_event
from tests.results.stages_factories import play_all, three_stages
from tests.results.test_circuit_ranking import _profile

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh-hans", "es")
WIDTHS = ((390, 844), (1280, 900))
#: Paths that are not public pages: sign-in, the organisers', the API, files.
NOT_PAGES = ("/admin/", "/api/", "/accounts/", "/i18n/", "/manage/", "/me/", "/healthz", "/e/")


# --- the world ------------------------------------------------------------------------------


@dataclass
class World:
    """Two events of one club in a season with a circuit: one of three stages with a final
    table (20 players), one plain (12 players); a second season of the same league."""

    pages: dict[str, str]  # label → path
    data: set[str]  # names, handles and titles of the fixture (not words of the platform)
    standings_20: str  # the standings of the 20-player event
    extra: list[str] = field(default_factory=list)  # pages found in the URL patterns


def _optional(name: str, *args: Any) -> str | None:
    """A page another part adds (venue, analytics): its path once its name resolves."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def build_world() -> World:
    staged = three_stages()
    staged.players[0].display_name = "María José Fernández-Villanueva de la Torre"
    staged.players[0].save()
    play_all(staged)
    club = staged.club
    plain = played_event(n_players=12, rounds=2, club=club, starts_on=dt.date(2026, 2, 1))
    plain.play(1, 1, plain.players, seed=5)
    plain.play(2, 1, plain.players, seed=6)
    league = League.objects.create(name="Liga del Norte", slug="liga-norte", club=club)
    season = Season.objects.create(
        league=league,
        name="2026",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        circuit=_profile(league),
        circuit_seed=7,
    )
    earlier = Season.objects.create(
        league=league, name="2025", starts_on=dt.date(2025, 1, 1), ends_on=dt.date(2025, 12, 31)
    )
    old = played_event(n_players=12, rounds=1, club=club, starts_on=dt.date(2025, 5, 1))
    old.players = plain.players  # the same players: the league ranking sums two seasons
    old.play(1, 1, plain.players, seed=9)
    Event.objects.filter(pk__in=[staged.event.pk, plain.event.pk]).update(
        season=season, status=Event.Status.FINISHED
    )
    Event.objects.filter(pk=old.event.pk).update(season=earlier, status=Event.Status.FINISHED)
    with transaction.atomic():
        recompute_season(season.pk)
        recompute_season(earlier.pk)

    c, s, p = club.slug, staged.event.slug, plain.event.slug
    handle = staged.players[0].handle
    game = Game.objects.filter(status=Game.Status.RELEASED, table__round__event=staged.event)
    pages = {
        "home": reverse("home"),
        "clubs": reverse("results:clubs"),
        "club": reverse("club", args=[c]),
        "club results": reverse("results:club", args=[c]),
        "event with stages": reverse("public-event", args=[c, s]),
        "event": reverse("public-event", args=[c, p]),
        "round": reverse("public-round", args=[c, p, 1]),
        "round of the final": reverse("public-round", args=[c, s, 3]),
        "standings (20 players)": reverse("results:standings", args=[c, s]),
        "standings": reverse("results:standings", args=[c, p]),
        "a player's points": reverse("results:standings-player", args=[c, s, handle]),
        **{
            f"stage {n} standing": reverse("results:stage-standings", args=[c, s, n])
            for n in (0, 1, 2)
        },
        "final table": reverse("results:final-table", args=[c, s]),
        "leaderboard": reverse("results:leaderboard"),
        "season with a circuit": reverse("results:season", args=[season.pk]),
        "league": reverse("results:league", args=[league.slug]),
        "player": reverse("results:player", args=[handle]),
        "game account": reverse("results:account", args=[game.order_by("pk").first().pk]),  # type: ignore[union-attr]
    }
    optional = {
        "venue": _optional("results:venue", c, s),
        "venue overlay": _optional("results:venue-overlay", c, s),
        "analytics": _optional("results:analytics"),
        "analytics of players": _optional("results:analytics-players"),
    }
    pages.update({k: v for k, v in optional.items() if v is not None})
    everyone = [*staged.players, *plain.players]
    data = {club.name, club.slug, league.name, season.name, earlier.name}
    data |= {e.name for e in Event.objects.all()}
    data |= {"qualifying", "semifinal", "final"}  # the stages' names
    data |= {p.display_name for p in everyone} | {p.handle for p in everyone}
    data |= {f"@{p.handle}" for p in everyone}
    world = World(pages, {d for d in data if d}, pages["standings (20 players)"])
    world.extra = discover(world, {"club": c, "event": p, "season": season.pk, "league": league})
    return world


# --- every other public page in the URL patterns ---------------------------------------------


def _patterns(
    resolver: URLResolver | None = None, namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
            yield from _patterns(entry, inner.strip(":"))
        elif entry.name:
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), entry


def discover(world: World, ids: dict[str, Any]) -> list[str]:
    """Pages of URL names not in the curated list that answer an anonymous GET with HTML,
    each with the first arguments from the fixture that show it."""
    known = {urlsplit(path).path for path in world.pages.values()}
    covered = {_name_of(path) for path in known}
    candidates: dict[str, list[Any]] = {
        "club_slug": [ids["club"]],
        "event_slug": [ids["event"]],
        "slug": [ids["league"].slug, ids["club"]],
        "pk": [ids["season"], *Game.objects.values_list("pk", flat=True)[:1]],
        "handle": [],
        "number": [1],
        "position": [0],
    }
    client = Client()
    found = []
    for name, pattern in _patterns():
        if name in covered:
            continue
        params = list(getattr(pattern.pattern, "converters", {}))
        if any(p not in candidates for p in params):
            continue  # an argument no reader has without a link (a secret, a token)
        for values in itertools.product(*(candidates[p] for p in params)):
            try:
                path = reverse(name, kwargs=dict(zip(params, values, strict=True)))
            except NoReverseMatch:
                continue
            if path.startswith(NOT_PAGES) or path in known:
                break
            response = client.get(path)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                found.append(path)
                break
    return found


def _name_of(path: str) -> str:
    return resolve(path).view_name


# --- every page is reachable by links ------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _followable(href: str) -> str | None:
    href = urldefrag(href)[0]
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    if parts.path.startswith(NOT_PAGES) or parts.path.endswith((".csv", ".ics", ".json")):
        return None
    return parts.path  # the page itself; its filters and pages are the same page


@pytest.mark.django_db
def test_every_public_page_is_reachable_by_links_from_home() -> None:
    """club → events → standings → a player's points → game accounts → players; season →
    circuit and ranking → events; league ↔ seasons; the menu's clubs and rankings."""
    world = build_world()
    # the pages this part links together (the pages found in the URL patterns belong to
    # other parts: a game's operational page, its protests)
    wanted = {urlsplit(p).path for p in world.pages.values()}
    client = Client()
    seen: set[str] = set()
    queue = ["/"]
    while queue and len(seen) < 800:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        parser = _Links()
        parser.feed(response.content.decode())
        queue.extend(p for href in parser.hrefs if (p := _followable(href)) and p not in seen)
    assert wanted - seen == set(), f"not reachable from the home page: {sorted(wanted - seen)}"


@pytest.mark.django_db
def test_the_world_has_decimals_to_write() -> None:
    """The checks of decimals below are not vacuous: the league ranking sums amounts with
    cents over two seasons, the standings show Ci and tie-break decimals."""
    world = build_world()
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    league = spanish.get(world.pages["league"]).content.decode()
    assert re.search(r">\d+,(?!00)\d\d<", league), "no amount with cents on the league page"
    standings = spanish.get(world.standings_20).content.decode()
    assert re.search(r">\d+,\d+<", standings)


# --- in the browser --------------------------------------------------------------------------

MEASURE = """() => {
  const width = window.innerWidth;
  const classes = (el) => typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes(el);
  // hidden, or visually hidden (in a clipped box of a pixel: a table head read aloud only)
  const unseen = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.visibility === 'hidden') return true;
      if (style.clip !== 'auto' && style.position === 'absolute') return true;
      if (style.overflow === 'visible') continue;  // only a clipping box hides what overflows it
      const box = a.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) return true;
    }
    return false;
  };
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2 || box.right <= width + 1 || unseen(el)) continue;
    over.push(name(el) + ' ends at ' + Math.round(box.right) + ' px');
  }
  const texts = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const text = node.nodeValue.replace(/\\s+/g, ' ').trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('script, style, noscript, #lang-select')) continue;
    if (!parent.getClientRects().length) continue;  // not shown
    texts.push(text);
  }
  return {
    scroll: document.documentElement.scrollWidth - width,
    height: document.documentElement.scrollHeight,
    over: over.slice(0, 8),
    texts: texts,
    text: document.body.innerText,
  };
}"""
OPEN_ALL = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"

#: A float or a Decimal printed raw ("1.20000000000000", "0,4000000000000001", "1E+1").
RAW = re.compile(r"\d[.,]\d{4,}|\d[eE][+-]\d|Decimal\(")
#: A decimal written with a point, on a Spanish page (Spanish writes "1,5").
POINT = re.compile(r"(?<![\w.,:/\-])-?\d+\.\d+(?![\w.])")
#: A word of a language written in Latin letters (handles, numbers and marks are not).
LETTERS = re.compile(r"[^\W\d_]", re.U)


def catalogue(lang: str) -> dict[str, str]:
    """The project's English msgids of ``lang`` with their translation ("" if none yet),
    read from the .po as the translators keep it (a fuzzy entry counts as untranslated;
    entries with a context are punctuation and are left out)."""
    folder = {"zh-hans": "zh_Hans", "es": "es"}[lang]
    text = (ROOT / "locale" / folder / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        if any(line.startswith("#~") for line in lines):
            continue  # obsolete
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = ""
        for line in lines:
            if line.startswith(("msgctxt ", "msgid ", "msgid_plural ", "msgstr")):
                key, _, value = line.partition(" ")
                fields[key] = _unquote(value)
            elif line.startswith('"') and key:
                fields[key] += _unquote(line)
        if not fields.get("msgid") or "msgctxt" in fields:
            continue
        translated = "" if fuzzy else fields.get("msgstr", fields.get("msgstr[0]", ""))
        for english in (fields["msgid"], fields.get("msgid_plural", "")):
            if english:
                entries[english] = translated
    return entries


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), body)


def read_a_line(page: Any, width: int) -> list[str]:
    """The standings: a name opens why the player is above the next one (and, on a
    phone, the tie-break values whose columns gave way)."""
    problems = []
    first = page.locator("#standings tbody tr").first
    why, cells = first.locator(".why"), first.locator(".line-cells")
    if why.is_visible():
        problems.append("the reason shows before the line is opened")
    first.locator("summary").click(position={"x": 4, "y": 8})  # the marker, not the link
    if not why.is_visible():
        problems.append("opening the line shows no reason")
    phone = width < 700
    if cells.is_visible() != phone:
        problems.append(f"the line's tie-break list is {'hidden' if phone else 'shown'}")
    if first.locator("td.wide-only").first.is_visible() == phone:
        problems.append(f"the tie-break columns are {'shown' if phone else 'hidden'}")
    first.locator("summary").click(position={"x": 4, "y": 8})
    return problems


def use_the_menu(page: Any, live_server: Any) -> list[str]:
    """On a phone the site's menu opens and leads to the clubs, the rankings (and the
    analytics once they exist)."""
    page.goto(live_server.url + reverse("results:leaderboard"))
    clubs = page.locator(".site-nav a", has_text="Clubs")
    if clubs.is_visible():
        return ["the menu is open before it is asked for"]
    page.click(".nav-toggle-label")
    if not clubs.is_visible() or not page.locator(".site-nav a", has_text="Rankings").is_visible():
        return ["the menu does not show Clubs and Rankings"]
    clubs.click()
    page.wait_for_load_state()
    return [] if page.url.endswith(reverse("results:clubs")) else [f"Clubs led to {page.url}"]


@dataclass
class Findings:
    overflow: list[str] = field(default_factory=list)
    untranslated: dict[str, set[str]] = field(default_factory=dict)  # text → where
    raw: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)


_FINDINGS: dict[str, Findings] = {}


def visit_everything(live_server: Any, browser: Any) -> Findings:
    """Build the world, visit every page in every language at both widths (once a run)."""
    if "all" in _FINDINGS:
        return _FINDINGS["all"]
    world = build_world()
    found = Findings()
    catalogues = {lang: catalogue(lang) for lang in ("zh-hans", "es")}
    pages = {**world.pages, **{f"found: {p}": p for p in world.extra}}
    for lang, (width, height) in itertools.product(LANGS, WIDTHS):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(20_000)
        for label, path in pages.items():
            where = f"{label} ({path}) {lang} {width}px"
            response = page.goto(live_server.url + path)
            if response is None or response.status != 200:
                found.other.append(f"{where}: status {response and response.status}")
                continue
            closed = page.evaluate(MEASURE)
            if lang == "en" and path == world.standings_20:
                found.other.extend(f"{where}: {p}" for p in read_a_line(page, width))
            page.evaluate(OPEN_ALL)  # every <details> open: the whys, the phone's lists
            opened = page.evaluate(MEASURE)
            for state in (closed, opened):
                if state["scroll"] > 0:
                    found.overflow.append(f"{where}: {state['scroll']} px wider than the screen")
                found.overflow.extend(f"{where}: {o}" for o in state["over"])
            if path == world.standings_20 and closed["height"] > 3000:
                found.other.append(f"{where}: {closed['height']} px tall for 20 players")
            text = opened["text"]
            found.raw.extend(f"{where}: raw number {r!r}" for r in RAW.findall(text)[:3])
            if lang == "es":
                found.raw.extend(f"{where}: decimal point {r!r}" for r in POINT.findall(text)[:3])
            if lang in catalogues:
                words = catalogues[lang]
                for t in set(opened["texts"]):
                    if t in world.data or not LETTERS.search(t) or t not in words:
                        continue
                    if words[t] != t:  # translated differently, or not translated yet
                        found.untranslated.setdefault(f"{lang}: {t!r}", set()).add(label)
        if lang == "en" and width < 700:
            found.other.extend(f"menu at {width}px: {p}" for p in use_the_menu(page, live_server))
        context.close()
    # de-duplicate (the closed and opened states often report the same element)
    found.overflow = list(dict.fromkeys(found.overflow))
    _FINDINGS["all"] = found
    return found


@pytest.mark.browser
def test_no_public_page_overflows_a_phone_or_a_laptop(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    found = visit_everything(live_server, browser)
    assert not found.other, "\n".join(found.other)
    assert not found.overflow, "\n".join(found.overflow[:60])


@pytest.mark.browser
def test_no_public_page_prints_a_raw_float(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    found = visit_everything(live_server, browser)
    assert not found.raw, "\n".join(found.raw[:60])


@pytest.mark.browser
def test_no_public_page_shows_english_in_chinese_or_spanish(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    found = visit_everything(live_server, browser)
    report = [f"{text} on {', '.join(sorted(pages))}" for text, pages in found.untranslated.items()]
    assert not report, "untranslated:\n" + "\n".join(sorted(report))
