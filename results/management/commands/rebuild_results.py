"""Rebuild every standing and every rating from the confirmed, released records."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _

from results.services import rebuild_all


class Command(BaseCommand):
    help = (
        "Recompute all event standings, season totals and ratings from the released "
        "game records (safe to run at any time: the pipeline's locks serialise it)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-events", action="store_true", help="skip the standings")
        parser.add_argument("--no-ratings", action="store_true", help="skip the ratings")

    def handle(self, *args: Any, **options: Any) -> None:
        report = rebuild_all(events=not options["no_events"], ratings=not options["no_ratings"])
        self.stdout.write(
            _(
                "rebuilt %(events)s events in %(te)s s; ratings: %(games)s games, "
                "%(points)s rating points, %(players)s players in %(tr)s s"
            )
            % {
                "events": report.events,
                "te": f"{report.seconds_events:.2f}",
                "games": report.ratings.replayed,
                "points": report.ratings.points_written,
                "players": report.ratings.players,
                "tr": f"{report.seconds_ratings:.2f}",
            }
        )
