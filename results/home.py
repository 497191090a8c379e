"""Reads for the home page: events in play with their round's progress, upcoming events,
recent results with their winners, the top of the rating leaderboard, clubs and seasons.

Release gates: published events only (running, open for registration, finished: never a
draft); a round's progress
counts released rounds only (``PUBLIC_ROUND_STATUSES``, the gate of
:func:`league.events.selectors.public_rounds`) and shows game statuses, never a result;
winners and ratings come from :mod:`results.models`, which hold released games only.
Each function is one query (:func:`live_events` and :func:`recent_results` two), so the
page costs a fixed number whatever the size of the site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from games.models import Game
from league.models import Club, Event, Round, Season
from league.permissions import PUBLIC_ROUND_STATUSES
from results import selectors
from results.models import EventStanding, PlayerRating

#: Game statuses a table counts as done with in a round's progress ("4/5 tables confirmed").
DONE_STATUSES = (Game.Status.CONFIRMED, Game.Status.RELEASED)


@dataclass
class LiveEvent:
    """A running event and its latest released round: ``round`` is None before the
    first round's seating is released."""

    event: Event
    round: int | None = None
    tables: int = 0
    done: int = 0


def live_events(limit: int = 10) -> list[LiveEvent]:
    """Running published events (soonest first) with their current round's progress."""
    events = list(
        Event.objects.filter(status=Event.Status.RUNNING)
        .select_related("club")
        .order_by("starts_on", "name")[:limit]
    )
    live = {e.pk: LiveEvent(e) for e in events}
    rounds = (
        Round.objects.filter(event_id__in=list(live), status__in=PUBLIC_ROUND_STATUSES)
        .values("event_id", "number")
        .annotate(
            n_tables=Count("tables"),
            n_done=Count("tables", filter=Q(tables__game__status__in=DONE_STATUSES)),
        )
        .order_by("event_id", "number")
    )
    for row in rounds:  # the last released round of each event wins
        entry = live[row["event_id"]]
        entry.round, entry.tables, entry.done = row["number"], row["n_tables"], row["n_done"]
    return list(live.values())


def upcoming_events(limit: int = 10) -> list[Event]:
    """Published events that have not started to play yet and have not ended."""
    return list(
        Event.objects.filter(status=Event.Status.REGISTRATION, ends_on__gte=timezone.localdate())
        .select_related("club")
        .order_by("starts_on", "name")[:limit]
    )


@dataclass
class Result:
    """A finished event and its winners (several when the first place is shared)."""

    event: Event
    winners: list[dict[str, Any]] = field(default_factory=list)


def recent_results(limit: int = 6) -> list[Result]:
    """The most recently finished events, each with its first place."""
    events = list(
        Event.objects.filter(status=Event.Status.FINISHED)
        .select_related("club")
        .order_by("-ends_on", "-starts_on", "name")[:limit]
    )
    results = {e.pk: Result(e) for e in events}
    rows = (
        EventStanding.objects.filter(event_id__in=list(results), rank=1)
        .order_by("event_id", "position")
        .values("event_id", "handle", "player__display_name", "points")
    )
    for row in rows:
        results[row["event_id"]].winners.append(dict(row))
    return list(results.values())


def top_players(limit: int = 10) -> list[PlayerRating]:
    """The top of the rating leaderboard as ``results:leaderboard`` orders it."""
    return list(selectors.leaderboard(selectors.LeaderboardFilter())[:limit])


def clubs(limit: int = 60) -> list[Club]:
    return list(Club.objects.order_by("name")[:limit])


def seasons(limit: int = 6) -> list[Season]:
    """The latest seasons, for their rankings (and circuits)."""
    return list(Season.objects.select_related("league").order_by("-starts_on", "pk")[:limit])


def home_sections() -> dict[str, Any]:
    """Everything the home page lists: 8 queries."""
    return {
        "live": live_events(),
        "upcoming": upcoming_events(),
        "results": recent_results(),
        "top": top_players(),
        "clubs": clubs(),
        "seasons": seasons(),
    }
