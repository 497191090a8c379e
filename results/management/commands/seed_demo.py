"""Seed a demo league so a fresh `make run` has something to show.

Lives in ``games`` because it seeds both sides and ``games`` may import ``league``.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from games.demo import seed_games
from league.demo import seed_league


class Command(BaseCommand):
    help = "Create a demo league with players, events, draws and games."

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
            lines = seed_league() + seed_games()
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(_("Demo data ready.")))
