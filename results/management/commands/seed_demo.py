"""Seed a demo league so a fresh `make run` has something to show.

Lives in ``results`` because it seeds every side and then runs the results pipeline:
``league`` (clubs, people, events, draws), ``games`` (played games), and ``results``
(standings and ratings of the released games, as ``manage.py rebuild_results`` makes
them), so a newcomer sees full rankings, charts and analytics at once.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from games.demo import play_past_season, seed_games
from games.signals import results_changed
from league.demo import seed_league, seed_other_events
from results.models import EventResults, PlayerRating
from results.receivers import enqueue_results
from results.services import heal


@contextmanager
def pipeline_once() -> Iterator[None]:
    """While seeding, a release enqueues no task of its own (the receiver of
    ``games.signals.results_changed`` is disconnected; the events are still marked stale
    inside the transaction): the 85 games are then processed in one :func:`heal`, as a
    past-results import is, instead of 85 pipeline runs."""
    uid = "results.enqueue_results"
    results_changed.disconnect(dispatch_uid=uid)
    try:
        yield
    finally:
        results_changed.connect(enqueue_results, dispatch_uid=uid)


class Command(BaseCommand):
    help = "Create a demo league with players, events, draws, games, standings and ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Only seed when the database has no users yet (what `make run` uses).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and get_user_model().objects.exists():
            self.stdout.write(_("Database already has data; demo seeding skipped."))
            return
        with pipeline_once(), transaction.atomic():
            lines = seed_league() + seed_games() + seed_other_events() + play_past_season()
        # The released games' standings, season totals, ratings and analytics, in one
        # pass (every event the releases marked stale, every game not yet rated).
        heal()
        lines.append(
            _("results: standings of %(events)s events, %(players)s players rated")
            % {
                "events": EventResults.objects.filter(stale=False).count(),
                "players": PlayerRating.objects.count(),
            }
        )
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(_("Demo data ready.")))
