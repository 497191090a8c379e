"""Public standings pages: an event's standings, their CSV export and each player's
point breakdown.

Release gates: the standings read the results tables, which count released games only,
and show published events only (the request's ``games.permissions.Access``: ``can_view_event``).
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games.permissions import access_for
from league.csv_cells import SafeWriter
from league.middleware import use_club_timezone
from league.models import Event
from league.outages import cache
from league.stages.models import Stage
from league.stages.selectors import event_stages
from results import selectors
from results.models import EventStanding
from results.reasons import Words, amount, column_label, explain, legend
from results.stages import final_plan, stage_links, warning_texts
from results.views.rankings import player_prefix


def public_event(request: HttpRequest, club_slug: str, event_slug: str) -> Event:
    event = get_object_or_404(
        Event.objects.select_related("club").annotate(
            # whether its stages need reading (an event without stage rows is one stage)
            has_stage_rows=Exists(Stage.objects.filter(event=OuterRef("pk")))
        ),
        club__slug=club_slug,
        slug=event_slug,
    )
    if not access_for(request).can_view_event(event):
        raise Http404
    use_club_timezone(event.club)
    return event


def standings_rows(event: Event, precedence: list[str]) -> list[dict[str, Any]]:
    """The standings table's rows, formatted for the template to place (numbers as the
    reader writes them, each line's reason in words): fast for events of hundreds."""
    rows = selectors.standing_lines(event)
    columns = [k for k in precedence if k != "points"]
    labels = [column_label(k) for k in columns]
    players = player_prefix()
    points = reverse("results:standings", args=[event.club.slug, event.slug])
    words = Words()
    out = []
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        metrics = row.metrics or {}
        link = quote(row.handle)
        cells = [words.number(metrics.get(k)) for k in columns]
        out.append(
            {
                "handle": row.handle,
                "name": row.display_name,
                "player_url": f"{players}{link}/" if row.display_name is not None else "",
                "points_url": f"{points}{link}/",
                "rank": str(row.rank),
                "tied": row.tied,
                # Decimals as a template shows them: two places, the reader's mark.
                "points": amount(row.points, words.decimal),
                "games": str(row.games),
                "ci": amount(row.ci, words.decimal),
                "why": explain(row, below, words),
                "cells": cells,
                # the same cells named, for a phone (where their columns are hidden)
                "named": list(zip(labels, cells, strict=True)),
            }
        )
    return out


@require_GET
def standings(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = public_event(request, club_slug, event_slug)
    state = selectors.event_state(event)
    precedence = list(state.precedence) if state is not None else []
    columns = legend(precedence)
    # Cached under the standings' version: a recomputation makes a new key.
    version = f"{state.version}-{state.digest[:12]}" if state is not None else "none"
    key = f"results:st:{event.pk}:r2-{version}:{get_language()}"
    rows_html = cache.get(key)
    if rows_html is None:
        rows_html = render_to_string(
            "results/_standings_rows.html",
            {"rows": standings_rows(event, precedence)},
        )
        cache.set(key, rows_html, 600)
    plans = event_stages(event) if getattr(event, "has_stage_rows", True) else []
    return render(
        request,
        "results/standings.html",
        {
            "event": event,
            "state": state,
            "rows_html": mark_safe(rows_html),  # rendered by our template
            "columns": columns,
            "stages": stage_links(access_for(request), event, plans),
            "current": "final",
            "warnings": warning_texts(access_for(request), event, state),
            # the first stage the public order stops before (hidden, not finished)
            "withheld": next((p for p in plans if not p.public), None),
            "final_url": reverse("results:final-table", args=[event.club.slug, event.slug])
            if final_plan(plans) is not None
            else "",
        },
    )


@require_GET
def standings_csv(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = public_event(request, club_slug, event_slug)
    state = selectors.event_state(event)
    rows = selectors.event_standings(event)
    precedence = list(state.precedence) if state is not None else []
    words = Words()
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["rank", "tied", "player", "name", "points", "wins", "games", "awards", "ci"]
        + [f"metric:{k}" for k in precedence]
        + ["above_next"]
    )
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        writer.writerow(
            [
                row.rank,
                "yes" if row.tied else "",
                row.handle,
                row.player.display_name if row.player else "",
                row.points,
                row.wins,
                row.games,
                row.awards,
                row.ci,
                *[(row.metrics or {}).get(k, "") for k in precedence],
                explain(row, below, words),
            ]
        )
    return response


@require_GET
def breakdown(request: HttpRequest, club_slug: str, event_slug: str, handle: str) -> HttpResponse:
    """One player's points in the event, game by game, with the reason for each point."""
    event = public_event(request, club_slug, event_slug)
    try:
        row = selectors.standing_of(event, handle)
    except EventStanding.DoesNotExist:
        raise Http404 from None
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in row.items:
        games[item["game"]].append(item)
    per_game = [
        {
            "game": gid,
            "items": items,
            "total": sum((Decimal(i["points"]) for i in items), Decimal(0)),
        }
        for gid, items in games.items()
    ]
    return render(
        request,
        "results/breakdown.html",
        {"event": event, "row": row, "games": per_game},
    )
