"""The venue screen (a projector at the venue), its overlay for a stream, and the small
JSON both poll (``static/js/venue.js``) to update themselves.

Release gates: :mod:`results.venue` (published events; released rounds; a table's status
word, never a record or a role; standings of released games). The three answers read one
cached snapshot per event per interval: a warm poll is the event's lookup, one query.
"""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_GET

from league.middleware import use_club_timezone
from league.models import Event
from results import venue as reads

#: The overlay's views, each one stable URL: ``?show=round`` or ``?show=standings``
#: (anything else: both).
OVERLAY_VIEWS = ("all", "round", "standings")
#: A table's status in words (the screen's legend and the script's labels).
STATUS_LABELS = {
    "waiting": pgettext_lazy("table status", "waiting"),
    "playing": pgettext_lazy("table status", "playing"),
    "submitted": pgettext_lazy("table status", "submitted"),
    "confirmed": pgettext_lazy("table status", "confirmed"),
    "released": pgettext_lazy("table status", "released"),
}
#: Lines of the standings on the overlay (the venue screen shows :data:`reads.TOP`).
OVERLAY_TOP = 5


def _clock(data: dict[str, Any], now: float) -> tuple[str, str]:
    """The round's clock as first drawn (the script keeps it running): ("since" or
    "until", "H:MM:SS"); ("", "") when there is nothing to time."""
    rnd = data["round"]
    if rnd is None or data["complete"]:
        return "", ""
    start = rnd["starts_at"] if rnd["starts_at"] is not None else rnd["released_at"]
    if start is None:
        return "", ""
    seconds = int(now - start)
    kind = "since" if seconds >= 0 else "until"
    seconds = abs(seconds)
    return kind, f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _screen(request: HttpRequest, event: Event, top: int) -> dict[str, Any]:
    """The context both screens share: the snapshot, the first drawing of the clock, the
    numbers with the reader's decimal mark, and where to poll."""
    use_club_timezone(event.club)
    data = reads.cached_snapshot(event)
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    kind, clock = _clock(data, time.time())
    return {
        "event": event,
        "data": data,
        "tables": [{**t, "label": STATUS_LABELS[t["status"]]} for t in data["tables"]],
        "labels": STATUS_LABELS,
        "standings": [
            {**row, "points": row["points"].replace(".", decimal)}
            for row in data["standings"][:top]
        ],
        "top": top,
        "clock_kind": kind,
        "clock": clock,
        "decimal": decimal,
        "poll_seconds": reads.POLL_SECONDS,
        "json_url": reverse("results:venue-json", args=[event.club.slug, event.slug]),
    }


@require_GET
def venue(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    """The projector page: the current round's tables and clock, the standings' top."""
    event = reads.venue_event(club_slug, event_slug)
    return render(request, "results/venue.html", _screen(request, event, reads.TOP))


@require_GET
def overlay(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    """The overlay for a stream: a transparent page of large text, the current round and
    the standings' top (``?show=round`` or ``?show=standings`` for one of them)."""
    event = reads.venue_event(club_slug, event_slug)
    show = request.GET.get("show", "all")
    context = _screen(request, event, OVERLAY_TOP)
    context["show"] = show if show in OVERLAY_VIEWS else "all"
    return render(request, "results/venue_overlay.html", context)


@require_GET
def venue_json(request: HttpRequest, club_slug: str, event_slug: str) -> JsonResponse:
    """The snapshot the screens poll, with the server's time (their clocks' reference)."""
    event = reads.venue_event(club_slug, event_slug)
    response = JsonResponse({**reads.cached_snapshot(event), "now": time.time()})
    response["Cache-Control"] = "no-cache"
    return response
