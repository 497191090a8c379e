"""The results pipeline, from confirmed, released records to standings and ratings.

A bridge in the sense of the conventions: each step loads what it needs in one pass,
calls the engine and writes the read tables (:mod:`results.models`) with bulk inserts
inside one transaction, under a lock (:mod:`results.pipeline`):

- :func:`process_game` — what follows a change to one game (what the task runs after a
  confirmation): its event's standings, then the ratings.
- :func:`heal` — finds everything the pipeline missed (stale events, released games whose
  confirmed version differs from the one rated) and fixes it.
- :func:`recompute_seasons` — seasons' totals again, after an event moved between them.
- :func:`rebuild_all` — every event and every rating from the records.

Every step is idempotent: running it again on unchanged records writes nothing.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game
from league.models import Event, Season
from results.models import (
    EventResults,
    EventStanding,
    ScoredGame,
    SeasonStanding,
    StageStanding,
)
from results.pipeline import analytics
from results.pipeline.rated import released_versions
from results.pipeline.ratings import RatingsReport, rebuild_ratings, update_ratings
from results.pipeline.standings import EventReport, recompute_event, recompute_season


@dataclass
class GameReport:
    game_id: int
    event: EventReport | None
    ratings: RatingsReport


def process_game(game_id: int, only_if_stale: bool = False) -> GameReport:
    """What follows a change to one game: its event's standings, then the ratings.

    The ratings take in every game of the event that changed, not only this one: at the
    end of a round a hundred tasks arrive at once, and the first to get the ratings lock
    takes in all the games released so far, so the others find nothing left to replay
    (each replay runs from the last checkpoint: one per game would queue for minutes).
    ``only_if_stale`` (the task): skip the standings if they are no longer stale — then a
    recomputation that began after this change committed has already included it."""
    table_event, voided_event = Game.objects.filter(pk=game_id).values_list(
        "table__round__event_id", "voided_event_id"
    ).first() or (None, None)
    # a voided game has left its table: it names its event itself
    event_id = table_event or voided_event
    if event_id is None:
        event_id = (
            ScoredGame.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
        )
    if event_id is None:
        report = GameReport(game_id, None, update_ratings([game_id]))
        analytics.update_games([game_id])  # this game's facts, its scopes' figures (#21)
        return report
    event = recompute_event(event_id, only_if_stale=only_if_stale)
    ids = {game_id}
    ids.update(
        Game.objects.filter(
            table__round__event_id=event_id, status=Game.Status.RELEASED
        ).values_list("pk", flat=True)
    )
    ids.update(ScoredGame.objects.filter(event_id=event_id).values_list("game_id", flat=True))
    report = GameReport(game_id, event, update_ratings(ids))
    # Last, so the standings and ratings never wait for it: this game's analytics facts
    # and the figures of its scopes (issue 21).
    analytics.update_games([game_id])
    return report


def heal_stale_events(older_than: float = 60.0, limit: int = 20) -> list[int]:
    """Recompute events left stale for more than ``older_than`` seconds (their own task
    was lost); the task of any other game runs this too, so one live worker catches up
    even without beat."""
    cutoff = timezone.now() - dt.timedelta(seconds=older_than)
    ids = list(
        EventResults.objects.filter(stale=True, stale_since__lt=cutoff)
        .order_by("stale_since")
        .values_list("event_id", flat=True)[:limit]
    )
    for event_id in ids:
        recompute_event(event_id)
    return ids


def games_out_of_date() -> set[int]:
    """Released games not rated from their confirmed version, and rated games that no
    longer count (unreleased, no confirmed version, deleted)."""
    current = released_versions()
    missing = set(
        current.exclude(
            Exists(
                ScoredGame.objects.filter(game_id=OuterRef("game_id"), version_id=OuterRef("pk"))
            )
        ).values_list("game_id", flat=True)
    )
    counted = set(current.values_list("game_id", flat=True))
    extra = set(ScoredGame.objects.values_list("game_id", flat=True)) - counted
    return missing | extra


def recompute_seasons(season_ids: Iterable[int]) -> list[int]:
    """Add up again the totals of each season that still exists (an event moved into, out
    of or between them: its standings count where it is now). One transaction per
    season, so a season locked by a running recomputation delays only itself."""
    done = []
    for season_id in sorted(set(season_ids)):
        with transaction.atomic():
            if Season.objects.filter(pk=season_id).exists():
                recompute_season(season_id)
                done.append(season_id)
    return done


@dataclass
class HealReport:
    events: list[int]
    ratings: RatingsReport


def heal() -> HealReport:
    """Recompute every stale event and every game the ratings missed."""
    changed = games_out_of_date()
    events = set(EventResults.objects.filter(stale=True).values_list("event_id", flat=True))
    events |= set(
        Game.objects.filter(pk__in=list(changed), table__isnull=False).values_list(
            "table__round__event_id", flat=True
        )
    )
    events |= set(
        ScoredGame.objects.filter(game_id__in=list(changed), event__isnull=False).values_list(
            "event_id", flat=True
        )
    )
    # Events with released games but never computed.
    events |= set(
        released_versions()
        .filter(game__table__isnull=False)
        .exclude(game__table__round__event__results_state__isnull=False)
        .values_list("game__table__round__event_id", flat=True)
        .distinct()
    )
    for event_id in sorted(events):
        recompute_event(event_id)
    report = HealReport(sorted(events), update_ratings(changed))
    analytics.heal()  # games whose analytics facts a lost task left behind (issue 21)
    return report


@dataclass
class RebuildReport:
    events: int
    ratings: RatingsReport
    seconds_events: float
    seconds_ratings: float


def rebuild_all(events: bool = True, ratings: bool = True) -> RebuildReport:
    """Every standing and every rating from the records (the management command)."""
    t0 = time.perf_counter()
    ids: list[int] = []
    if events:
        ids = list(
            Event.objects.filter(
                Exists(released_versions().filter(game__table__round__event=OuterRef("pk")))
            )
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        EventResults.objects.exclude(event_id__in=ids).update(stale=True)
        for event_id in ids:
            recompute_event(event_id, force=True, season=False)
        # Events without released games: no rows (before the seasons add them up).
        EventStanding.objects.exclude(event_id__in=ids).delete()
        StageStanding.objects.exclude(event_id__in=ids).delete()
        EventResults.objects.exclude(event_id__in=ids).delete()
        seasons = list(
            Season.objects.filter(events__pk__in=ids).distinct().values_list("pk", flat=True)
        )
        with transaction.atomic():
            # A list, not a subquery of events: an event without a season would put a NULL
            # in NOT IN (…), which then matches nothing.
            SeasonStanding.objects.exclude(season_id__in=seasons).delete()
            for season_id in seasons:
                recompute_season(season_id)
        analytics.rebuild()  # the analytics' facts and figures (issue 21)
    t1 = time.perf_counter()
    report = rebuild_ratings() if ratings else RatingsReport()
    t2 = time.perf_counter()
    return RebuildReport(len(ids), report, t1 - t0, t2 - t1)
