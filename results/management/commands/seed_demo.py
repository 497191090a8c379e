"""Seed a demo league so a fresh `make run` has something to show.

Lives in ``results`` because it seeds every side and then runs the results pipeline:
``league`` (clubs, people, events, draws), ``games`` (played games), and ``results``
(standings and ratings of the released games, as ``manage.py rebuild_results`` makes
them), so a newcomer sees full rankings, charts and analytics at once.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from games.demo import play_past_season, seed_games
from league.demo import seed_league, seed_other_events
from results.models import EventResults, PlayerRating
from results.services import heal


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
        with transaction.atomic():
            lines = seed_league() + seed_games() + seed_other_events() + play_past_season()
        # The released games' standings and ratings (the tasks the releases enqueued may
        # have done it already; heal finds what is left and is idempotent).
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
