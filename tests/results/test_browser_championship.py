"""In a real browser (issue 19): a three-stage championship on the demo — qualifying (three
rounds, everyone), a semi-final of the top 20 (two rounds, ×1.25, half the qualifying
carried over) and a final table of the top 10 (three games by the final design, ×1.5).

The organiser sets the stages on the stages page, draws each stage from the draw page,
confirms each cut on the cut page (the line after the 20th and the 10th), seats the
final table and checks its seat plan; the games are played through the games services
(simulated by the engine). The final order on the event's standings page must be the
engine's own :func:`engine.formats.stages.compute_event` over the same released records
with the same rules and lots seed; the final table page shows the finalists and their
running totals; neither page scrolls sideways on a phone.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from engine.formats.stages import Entry, EntryKind, EventOutcome
from games.demo import seed_games
from league.demo import DEMO_PASSWORD, seed_league
from league.events.models import Event, Round
from league.events.services import transition_event
from league.models import Player
from league.stages.models import Stage
from results.models import EventResults
from tests.results.championship_helpers import (
    STAGES,
    championship,
    engine_outcome,
    names,
    organiser,
    record_round,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 720}
DRAW_SEEDS = {0: 20260119, 1: 20260120}  # the draws' seeds: the same seating on every run
FINAL_SEED = 19
GAME_SEED = 1900  # + 100 × round + table: the simulated games


@pytest.fixture(autouse=True)
def _quick_draws(settings: Any) -> None:
    """The draws stop searching early: the order of the event is tested, not fairness."""
    settings.LEAGUE_DRAW_TIME_LIMIT = 0.5


class Organiser:
    """The organiser's browser tab."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.dialogs: list[str] = []

    def go(self, path: str) -> None:
        self.page.goto(self.url + path)

    def submit(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.click(selector)

    def accept_dialog(self, selector: str) -> str:
        """Click a button that asks first, say yes; returns the question."""
        asked = len(self.dialogs)

        def handle(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.accept()

        self.page.once("dialog", handle)
        self.submit(selector)
        assert len(self.dialogs) == asked + 1, "no question was asked"
        return str(self.dialogs[-1])

    def success(self) -> str:
        done = [
            t.strip() for t in self.page.locator("ul.messages li.msg-success").all_inner_texts()
        ]
        errors = self.page.locator("ul.messages li.msg-error").all_inner_texts()
        assert not errors, errors
        assert len(done) == 1, done
        return str(done[0])

    def fits(self) -> None:
        wide = self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{self.page.url} is {wide}px wider than the window"


def first_round(position: int) -> int:
    return 1 + sum(int(s["rounds"]) for s in STAGES[:position])


def rounds_of(position: int) -> range:
    start = first_round(position)
    return range(start, start + STAGES[position]["rounds"])


def fill_stage(page: Any, row: int, stage: dict[str, Any]) -> None:
    prefix = f"#id_stages-{row}-"
    page.fill(prefix + "name", stage["name"])
    page.fill(prefix + "rounds", str(stage["rounds"]))
    page.fill(prefix + "multiplier", stage["multiplier"])
    page.fill(prefix + "carry", stage["carry"])
    page.select_option(prefix + "entry_kind", "all" if stage["top"] is None else "top")
    page.fill(prefix + "entry_top", "" if stage["top"] is None else str(stage["top"]))
    page.select_option(prefix + "seating", "final" if stage.get("final") else "draw")


def release_rounds(o: Organiser, event: Event, numbers: range) -> None:
    """Confirm and release each round from the draw page (releasing asks first)."""
    o.go(reverse("event-draw", args=[event.pk]))
    for n in numbers:
        o.submit(f"button[name=confirm-{n}]")
        assert o.success() == f"Round {n} is now confirmed."
        question = o.accept_dialog(f"button[name=release-{n}]")
        assert f"Release round {n}?" in question
        assert o.success() == f"Round {n} is now released."
    assert set(
        Round.objects.filter(event=event, number__in=list(numbers)).values_list("status", flat=True)
    ) == {Round.Status.RELEASED}


def play(event: Event, numbers: range) -> None:
    for n in numbers:
        record_round(event, n, GAME_SEED + 100 * n)


def draw_stage(o: Organiser, event: Event, position: int) -> None:
    """The regular draw of a multi-table stage from the draw page, with a fixed seed."""
    o.go(reverse("event-draw", args=[event.pk]))
    assert o.page.locator(f"button[name=draw-stage-{position}]").count() == 1
    numbers = rounds_of(position)
    o.page.fill("#id_from_round", str(numbers.start))
    o.page.fill("#id_to_round", str(numbers.stop - 1))
    o.page.fill("#id_seed", str(DRAW_SEEDS[position]))
    o.submit("#draw-form button[type=submit]")
    o.page.wait_for_selector("#job-status:has-text('done')")
    for n in numbers:
        assert o.page.inner_text(f"#round-{n}-status") == "draft"


def cut(o: Organiser, event: Event, position: int, outcome: EventOutcome) -> list[str]:
    """The cut page before stage ``position``: the line right after the top N, who is
    above it is the engine's top N (of ``outcome``, the stages before), a tie on points
    at the line explained; confirming asks first, then the stages page says the cut is
    confirmed. Returns the entrants."""
    top = STAGES[position]["top"]
    expected = list(outcome.entrants_for(Entry(EntryKind.TOP, top=top)))
    standing = outcome.stages[-1].cumulative.rows
    o.go(reverse("results:stage-cut", kwargs={"pk": event.pk, "position": position}))
    rows = o.page.locator("#cut-standing tbody tr")
    ids = [rows.nth(i).get_attribute("id") or "" for i in range(rows.count())]
    line = ids.index("cut-line")
    assert line == top, f"the cut line is after row {line}, not {top}"
    above = [i.removeprefix("cut-") for i in ids[:line]]
    assert above == expected  # the engine's top N, in its order
    below = [i.removeprefix("cut-") for i in ids[line + 1 :]]
    assert below and not set(below) & set(above)
    for handle in below:
        assert "out" in (o.page.get_attribute(f"#cut-{handle}", "class") or "")
    level = standing[top - 1].points == standing[top].points
    assert o.page.locator("#cut-tie").count() == (1 if level else 0)
    entrants = o.page.locator("#entrants li").all_inner_texts()
    assert [t.strip() for t in entrants] == names(expected)
    question = o.accept_dialog("#confirm-cut button[type=submit]")
    assert f"Freeze these {top} entrants" in question
    assert o.page.url.endswith(reverse("event-stages", args=[event.pk]))
    assert o.success() == "The cut is confirmed: the entrants are frozen."
    confirmed = o.page.inner_text(f"#stage-{position} .cut-confirmed")
    assert f"Confirmed: {top} players" in confirmed
    listed = o.page.locator(f"#stage-{position} ol.entrants li").all_inner_texts()
    assert [t.split(" @")[0].strip() for t in listed] == names(expected)
    stage = Stage.objects.get(event=event, position=position)
    by_handle = dict(Player.objects.values_list("handle", "pk"))
    assert stage.entrants == [by_handle[h] for h in expected]
    return expected


def test_a_three_stage_championship_on_the_demo_ends_in_the_engines_order(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    with transaction.atomic():
        seed_league()
        seed_games()
    event = championship(40)
    url = live_server.url
    stages_path = reverse("event-stages", args=[event.pk])

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(30_000)
    o = Organiser(page, url)
    o.go(f"/accounts/login/?next={stages_path}")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", DEMO_PASSWORD)
    o.submit("main button[type=submit]")
    assert page.url == url + stages_path

    # --- the stages: two rows the first time (the page offers one empty row), then the third
    assert page.locator("#no-stages").count() == 1
    fill_stage(page, 0, STAGES[0])
    fill_stage(page, 1, STAGES[1])
    o.submit("#stages-form button[type=submit]")
    assert o.success() == "The stages are saved."
    fill_stage(page, 2, STAGES[2])
    o.submit("#stages-form button[type=submit]")
    assert o.success() == "The stages are saved."
    assert page.locator("#stage-list section.stage").count() == 3
    for position, stage in enumerate(STAGES):
        section = page.locator(f"#stage-{position}")
        heading = section.locator("h2").inner_text()
        assert heading.startswith(f"{position + 1}. {stage['name']}")
        facts = section.locator("dl.stage-facts").inner_text()
        numbers = rounds_of(position)
        assert f"rounds {numbers.start}–{numbers.stop - 1}" in facts
        assert f"multiplier ×{Decimal(stage['multiplier']):.3f}" in facts or (
            f"multiplier ×{stage['multiplier']}" in facts
        )
        if stage["top"] is not None:
            assert f"the best {stage['top']} of the standing" in facts
            assert "Not confirmed yet" in facts
    assert "one final table, seated by the final design" in page.inner_text("#stage-2")
    event.refresh_from_db()
    assert event.rounds_count == 8
    assert list(
        Stage.objects.filter(event=event).values_list("name", "rounds", "entry_top", "seating")
    ) == [
        ("qualifying", 3, None, "draw"),
        ("semi-final", 2, 20, "draw"),
        ("final", 3, 10, "final"),
    ]

    # --- qualifying: drawn on the draw page, released, played --------------------------------
    draw_stage(o, event, 0)
    release_rounds(o, event, rounds_of(0))
    play(event, rounds_of(0))
    qualifying = engine_outcome(event, stages=1)
    assert len(qualifying.stages[0].entrants) == 40

    # --- the cut before the semi-final ----------------------------------------------------
    semi_entrants = cut(o, event, 1, qualifying)

    # --- the semi-final: drawn among its 20 entrants, played --------------------------------
    draw_stage(o, event, 1)
    seated = set(
        Round.objects.get(event=event, number=first_round(1)).seats.values_list(
            "player__handle", flat=True
        )
    )
    assert seated == set(semi_entrants)
    release_rounds(o, event, rounds_of(1))
    play(event, rounds_of(1))
    semi = engine_outcome(event, stages=2)
    final_entrants = cut(o, event, 2, semi)
    assert set(final_entrants) <= set(semi_entrants)

    # --- the final table: seated by the design from the draw page; its seat plan ----------
    o.go(reverse("event-draw", args=[event.pk]))
    page.fill("#final-seed-2", str(FINAL_SEED))
    question = o.accept_dialog("button[name=final-2]")
    assert "10 players" in question
    assert o.success() == f"The final table is seated for 3 games (seed {FINAL_SEED})."
    o.go(reverse("stage-seat-plan", args=[event.pk, 2]))
    games = page.locator("section.seat-plan-game")
    assert games.count() == 3
    for g in range(3):
        rows = games.nth(g).locator("tbody tr")
        assert rows.count() == 10
        handles = [t.strip().lstrip("@") for t in rows.locator("td:nth-child(3)").all_inner_texts()]
        assert sorted(handles) == sorted(final_entrants)
        seats = [int(t) for t in rows.locator("td.seat-no").all_inner_texts()]
        assert seats == list(range(1, 11))
    release_rounds(o, event, rounds_of(2))
    play(event, rounds_of(2))

    # --- the end of the event -----------------------------------------------------------------
    org = organiser()
    event.refresh_from_db()
    if event.status == Event.Status.REGISTRATION:
        transition_event(org, event, Event.Status.RUNNING)
    transition_event(org, event, Event.Status.FINISHED)

    outcome = engine_outcome(event)
    assert [s.entrants for s in outcome.stages][1:] == [
        tuple(semi_entrants),
        tuple(final_entrants),
    ]
    engine_order = [f.player for f in outcome.final]
    assert len(engine_order) == 40
    state = EventResults.objects.get(event=event)
    assert not state.stale

    # --- the final order on the event's standings page ---------------------------------------
    standings_path = reverse("results:standings", args=[event.club.slug, event.slug])
    o.go(standings_path)
    assert page.locator("#stale").count() == 0
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 40
    shown_handles = [
        (rows.nth(i).get_attribute("id") or "").removeprefix("row-") for i in range(40)
    ]
    shown_ranks = [int(t) for t in rows.locator("td:nth-child(1)").all_inner_texts()]
    shown_names = [
        t.strip() for t in rows.locator("td:nth-child(2) a:first-child").all_inner_texts()
    ]
    assert shown_names == names(engine_order)
    assert shown_handles == engine_order
    assert shown_ranks == [f.rank for f in outcome.final]
    assert shown_ranks[:10] == sorted(shown_ranks[:10])
    # the final's ten are the top ten, the semi-finalists the next ten
    assert set(shown_handles[:10]) == set(final_entrants)
    assert set(shown_handles[10:20]) == set(semi_entrants) - set(final_entrants)
    assert {f.last_stage for f in outcome.final[:10]} == {"final"}
    points = [t.strip() for t in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert [Decimal(p) for p in points[:10]] == [f.points for f in outcome.final[:10]]

    # --- the final table page, on a projector -------------------------------------------------
    final_path = reverse("results:final-table", args=[event.club.slug, event.slug])
    o.go(final_path)
    sections = page.locator("section.final-game")
    assert sections.count() == 3
    last_totals: dict[str, Decimal] = {}
    for g in range(3):
        section = sections.nth(g)
        assert "done" in (section.get_attribute("class") or "")
        seats = section.locator("table.seats tbody tr")
        assert seats.count() == 10
        shown = [t.strip() for t in seats.locator("td:nth-child(2)").all_inner_texts()]
        assert sorted(shown) == sorted(names(final_entrants))
        totals = [t.strip() for t in seats.locator("td.total").all_inner_texts()]
        assert len(totals) == 10 and all(totals), totals
        last_totals = dict(zip(shown, (Decimal(t) for t in totals), strict=True))
    final_points = {
        name: f.points for name, f in zip(names(engine_order[:10]), outcome.final[:10], strict=True)
    }
    assert last_totals == final_points

    # --- nothing scrolls sideways on a phone -----------------------------------------------
    page.set_viewport_size(PHONE)
    for path in (standings_path, final_path):
        o.go(path)
        o.fits()
    context.close()
