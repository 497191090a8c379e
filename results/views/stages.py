"""Stage pages (formats.md §1): the cut before a stage (organisers), each stage's
cumulative standing with the next stage's cut line, its CSV, and the final table for a
projector.

Release gates: a stage's standing is shown only where :func:`results.stages.visible`
says so (a hidden stage to its organisers until it is finished); everything else reads
released games only, like the event's standings.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.models import Game
from games.permissions import access_for
from league import permissions as perms
from league.csv_cells import SafeWriter
from league.errors import UserError
from league.events.models import Event
from league.events.selectors import visible_rounds
from league.events.views import event_for
from league.inputs import strict_int
from league.outages import cache
from league.pages import login_first
from league.stages.models import EntryKind
from league.stages.selectors import StagePlan, event_stages
from league.stages.services import round_statuses, stage_released
from results import selectors
from results import stages as stage_reads
from results.account import WINNER_TEXT
from results.pipeline.stages import plain
from results.reasons import Words, explain
from results.views.rankings import player_prefix
from results.views.standings import public_event


def _plan(plans: list[StagePlan], position: int) -> StagePlan:
    plan = next((p for p in plans if p.position == position), None)
    if plan is None:
        raise Http404
    return plan


def _cut_after(plans: list[StagePlan], plan: StagePlan) -> tuple[int | None, StagePlan | None]:
    """The next stage and the line its entry draws in this stage's standing (top N)."""
    after = next((p for p in plans if p.position == plan.position + 1), None)
    if after is not None and after.entry_kind == EntryKind.TOP and after.entry_top:
        return after.entry_top, after
    return None, after


def stage_lines(event: Event, plan: StagePlan, cut: int | None) -> list[dict[str, Any]]:
    """A stage's stored standing formatted for the template (numbers in the reader's
    way, each line's reason, the cut line after line ``cut``)."""
    rows = stage_reads.stage_standing(event, plan.position)
    players = player_prefix()
    words = Words()
    out = []
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        out.append(
            {
                "handle": row.handle,
                "name": row.player.display_name if row.player else row.handle,
                "player_url": f"{players}{row.handle}/" if row.player else "",
                "rank": row.rank,
                "tied": row.tied,
                "points": words.number(plain(row.points)),
                "stage_points": words.number(plain(row.stage_points)),
                "carried": words.number(plain(row.points - row.stage_points)),
                "games": row.games,
                "why": explain(row, below, words),
                "cut_after": cut is not None and i + 1 == cut and below is not None,
            }
        )
    return out


@require_GET
def stage_standings(
    request: HttpRequest, club_slug: str, event_slug: str, position: int
) -> HttpResponse:
    """The cumulative standing after one stage: this stage's points and the carried
    total; the next stage's cut line. A hidden stage: a note, no numbers, until it is
    finished (its organisers see it)."""
    event = public_event(request, club_slug, event_slug)
    plans = event_stages(event)
    plan = _plan(plans, position)
    shown = stage_reads.visible(access_for(request), event, plan)
    cut, after = _cut_after(plans, plan)
    state = selectors.event_state(event)
    lines: list[dict[str, Any]] = []
    if shown:
        version = f"{state.version}-{state.digest[:12]}" if state is not None else "none"
        key = f"results:stage:{event.pk}:{plan.position}:{version}:{get_language()}"
        cached = cache.get(key)
        if cached is None:
            cached = stage_lines(event, plan, cut)
            cache.set(key, cached, 600)
        lines = cached
    return render(
        request,
        "results/stage_standings.html",
        {
            "event": event,
            "plan": plan,
            "state": state,
            "shown": shown,
            "secret": shown and not plan.public,
            "lines": lines,
            "cut": cut,
            "after": after,
            "stages": stage_reads.stage_links(access_for(request), event, plans),
            "current": str(plan.position),
            "warnings": stage_reads.warning_texts(access_for(request), event, state),
        },
    )


@require_GET
def stage_standings_csv(
    request: HttpRequest, club_slug: str, event_slug: str, position: int
) -> HttpResponse:
    event = public_event(request, club_slug, event_slug)
    plans = event_stages(event)
    plan = _plan(plans, position)
    if not stage_reads.visible(access_for(request), event, plan):
        raise UserError(
            _("The standing of “%(stage)s” is hidden until the stage is finished."),
            code="stage_hidden",
            params={"stage": plan.name},
            status=403,
        )
    rows = stage_reads.stage_standing(event, plan.position)
    cut, _after = _cut_after(plans, plan)
    words = Words()
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{event.slug}-stage-{plan.position + 1}.csv"'
    )
    writer = SafeWriter(response)
    writer.writerow(
        [
            *("rank", "tied", "player", "name", "points", "stage_points", "games"),
            *("enters_next", "above_next"),
        ]
    )
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        writer.writerow(
            [
                row.rank,
                "yes" if row.tied else "",
                row.handle,
                row.player.display_name if row.player else "",
                plain(row.points),
                plain(row.stage_points),
                row.games,
                "" if cut is None else ("yes" if i < cut else ""),
                explain(row, below, words),
            ]
        )
    return response


# --- the cut --------------------------------------------------------------------------------


def _entrants_field(value: str) -> list[int]:
    """The comma-separated ids the page showed (bounded like every input)."""
    out = []
    for part in value.split(",")[:5000]:
        if part.strip():
            number = strict_int(part.strip())
            if number is None:
                raise UserError(
                    _("The cut sent back was damaged; load the page again."), code="entrants"
                )
            out.append(number)
    return out


@login_first
def stage_cut(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    """GET: the standing after the previous stage, computed now, the cut line and who
    enters; POST: freeze those entrants (the league's ``confirm_cut``)."""
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    if request.method == "POST":
        expected = _entrants_field(request.POST.get("entrants", "")[:60000])
        stage_reads.confirm(request.user, event, position, expected)
        messages.success(request, _("The cut is confirmed: the entrants are frozen."))
        return redirect("event-stages", pk=event.pk)
    preview = stage_reads.cut_preview(event, position)
    return render(
        request,
        "results/stage_cut.html",
        {
            "event": event,
            "preview": preview,
            "confirmed": preview.plan.entrants is not None,
            "entrants_value": ",".join(str(p) for p in preview.entrants),
            "released": stage_released(preview.before, round_statuses(event)),
        },
    )


# --- the final table ------------------------------------------------------------------------


@require_GET
def final_table(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    """The final table for a projector: the seat plan game by game, each game's result
    once released, the running totals; while the final is hidden and not finished the
    public sees the plan and the games' statuses, no results and no totals."""
    event = public_event(request, club_slug, event_slug)
    plans = event_stages(event)
    plan = stage_reads.final_plan(plans)
    if plan is None:
        raise Http404
    access = access_for(request)
    shown = stage_reads.visible(access, event, plan)
    rounds = [r for r in visible_rounds(access, event) if r.number in plan.round_numbers]
    tables = [t for r in rounds for t in r.tables.all()]
    games = {
        g.table_id: g
        for g in Game.objects.filter(table__in=tables).only("pk", "status", "table_id")
    }
    released = [g.pk for g in games.values() if g.status == Game.Status.RELEASED]
    winners: dict[int, str] = {}
    totals: dict[int, dict[str, Decimal]] = {}
    if shown and released:
        winners = stage_reads.released_winners(released)
        totals = stage_reads.running_totals(event, plan)
    words = Words()
    rows = []
    for rnd in rounds:
        for table in rnd.tables.all():
            game = games.get(table.pk)
            done = game is not None and game.status == Game.Status.RELEASED
            after = totals.get(game.pk, {}) if game is not None else {}
            rows.append(
                {
                    "round": rnd,
                    "table": table,
                    "seats": [
                        {
                            "seat": s.number,
                            "player": s.player,
                            "total": words.number(plain(after[s.player.handle]))
                            if s.player.handle in after
                            else "",
                        }
                        for s in table.seats.all()
                    ],
                    "game": game,
                    "status": game.get_status_display() if game is not None else _("not started"),
                    "released": done and shown,
                    "winner": _(WINNER_TEXT[winners[game.pk]])
                    if game is not None and winners.get(game.pk) in WINNER_TEXT
                    else "",
                }
            )
    dark = request.GET.get("theme") != "light"
    return render(
        request,
        "results/final_table.html",
        {
            "event": event,
            "plan": plan,
            "shown": shown,
            "rows": rows,
            "dark": dark,
            "refresh": 30,
        },
    )
