"""Reads for the venue screen and the streaming overlay: an event's current round, the
status of each of its tables, the round's clock and the top of the released standings.

Release gates, declared here once for the three surfaces (page, overlay, JSON):

- the event must be published (``PUBLIC_EVENT_STATUSES``): a draft is a 404, whoever asks
  (the screen shows the public view to everybody, organisers included);
- rounds: released ones only (``PUBLIC_ROUND_STATUSES``, the gate of
  :func:`league.events.selectors.public_rounds`): a drawn round is not shown before its
  seating is published;
- tables: a status word only — waiting, playing, submitted, confirmed, released — read
  from the game's status and whether its sheet has begun. Never a record, a role, a
  winner or a violation: a confirmed game that is not released says "confirmed" and
  nothing more;
- standings: :class:`results.models.EventStanding`, which the pipeline fills from released
  games only (and stops before a hidden stage that is not finished).

The snapshot is the same for every reader and language (codes and plain numbers; the page
words them), so it is computed once per event per :data:`POLL_SECONDS` and cached
(``league.outages.cache``, which degrades to no cache): a screen's poll costs the event's
lookup and nothing else while the snapshot is warm.
"""

from __future__ import annotations

import time
import zoneinfo
from typing import Any

from django.db.models import Exists, OuterRef
from django.http import Http404
from django.utils import timezone

from games.models import Game, GameVersion
from league.models import Event, Round, Table
from league.outages import cache
from league.permissions import PUBLIC_EVENT_STATUSES, PUBLIC_ROUND_STATUSES
from results.models import EventStanding

#: Seconds between a screen's polls, and the life of a cached snapshot.
POLL_SECONDS = 10
#: Lines of the standings the snapshot carries (the overlay shows fewer).
TOP = 10

#: A table's status on the screen, in the order a round moves through them.
STATUSES = ("waiting", "playing", "submitted", "confirmed", "released")
_GAME_STATUS: dict[str, str] = {
    Game.Status.SUBMITTED: "submitted",
    Game.Status.CONFIRMED: "confirmed",
    Game.Status.RELEASED: "released",
}


def venue_event(club_slug: str, event_slug: str) -> Event:
    """The published event at this address (one query), else :class:`Http404`."""
    if "\x00" in club_slug + event_slug:  # PostgreSQL refuses NUL in text: no such event
        raise Http404
    try:  # get(), not first(): the address is unique, so no ORDER BY to plan and compile
        return Event.objects.select_related("club").get(
            club__slug=club_slug, slug=event_slug, status__in=PUBLIC_EVENT_STATUSES
        )
    except Event.DoesNotExist:
        raise Http404 from None


def table_status(game_status: str | None, sheet_revision: int | None, has_version: bool) -> str:
    """One of :data:`STATUSES`: no game, or a draft nobody has written in, is waiting; a
    draft with sheet steps or a saved version is being played."""
    if game_status in _GAME_STATUS:
        return _GAME_STATUS[game_status]
    if game_status == Game.Status.DRAFT and ((sheet_revision or 0) > 0 or has_version):
        return "playing"
    return "waiting"


def _epoch(value: Any) -> float | None:
    return None if value is None else value.timestamp()


def snapshot(event: Event) -> dict[str, Any]:
    """What the screens show, as plain JSON values: 3 queries whatever the event's size."""
    rounds = list(
        Round.objects.filter(event=event)
        .order_by("number")
        .values("pk", "number", "status", "starts_at", "released_at")
    )
    released = [r for r in rounds if r["status"] in PUBLIC_ROUND_STATUSES]
    current = released[-1] if released else None
    upcoming = next((r for r in rounds if current is None or r["number"] > current["number"]), None)
    tables: list[dict[str, Any]] = []
    if current is not None:
        versions = GameVersion.objects.filter(game_id=OuterRef("game__pk"))
        for row in (
            Table.objects.filter(round_id=current["pk"])
            .order_by("number")
            .values("number", "game__status", "game__sheet__revision")
            .annotate(has_version=Exists(versions))
        ):
            tables.append(
                {
                    "number": row["number"],
                    "status": table_status(
                        row["game__status"], row["game__sheet__revision"], row["has_version"]
                    ),
                }
            )
    counts = {s: sum(1 for t in tables if t["status"] == s) for s in STATUSES}
    standings = [
        {
            "rank": row["rank"],
            "tied": row["tied"],
            "name": row["player__display_name"] or row["handle"],
            "points": str(row["points"]),
            "games": row["games"],
        }
        for row in EventStanding.objects.filter(event=event)
        .order_by("position")
        .values("rank", "tied", "handle", "player__display_name", "points", "games")[:TOP]
    ]
    zone = event.club.timezone if event.club.timezone else None
    return {
        "event": {"name": event.name, "status": event.status, "rounds": event.rounds_count},
        "round": None
        if current is None
        else {
            "number": current["number"],
            "starts_at": _epoch(current["starts_at"]),
            "released_at": _epoch(current["released_at"]),
            "starts_text": _clock_text(current["starts_at"], zone),
        },
        "next": None
        if upcoming is None
        else {
            "number": upcoming["number"],
            "starts_at": _epoch(upcoming["starts_at"]),
            "starts_text": _clock_text(upcoming["starts_at"], zone),
        },
        "tables": tables,
        "counts": counts,
        "done": counts["confirmed"] + counts["released"],
        "complete": bool(tables) and counts["released"] == len(tables),
        "standings": standings,
    }


def _clock_text(value: Any, zone: str | None) -> str:
    """A start time as the venue's wall clock reads it ("14:30"), or ""."""
    if value is None:
        return ""
    return timezone.localtime(value, _zone(zone)).strftime("%H:%M")


def _zone(name: str | None) -> zoneinfo.ZoneInfo | None:
    try:
        return zoneinfo.ZoneInfo(name) if name else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def cache_key(event: Event, now: float | None = None) -> str:
    """The snapshot's key: the event and the current interval (a new key every
    :data:`POLL_SECONDS`, so a change shows within one interval)."""
    bucket = int((time.time() if now is None else now) // POLL_SECONDS)
    return f"results:venue:v1:{event.pk}:{bucket}"


def cached_snapshot(event: Event) -> dict[str, Any]:
    """:func:`snapshot`, computed at most once per event per interval."""
    key = cache_key(event)
    data: dict[str, Any] | None = cache.get(key)
    if data is None:
        data = snapshot(event)
        cache.set(key, data, POLL_SECONDS * 2)
    return data
