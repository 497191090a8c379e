"""``manage.py purge_signups [--days N] [--dry-run]``: delete the accounts that signed up
more than N days ago (30 by default) and never confirmed their e-mail address, so their
usernames and addresses are free again."""

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from config.accounts.models import PendingSignup


class Command(BaseCommand):
    help = "Delete accounts that never confirmed their e-mail address (older than --days)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=30, choices=range(1, 3651), metavar="N")
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        cutoff = timezone.now() - timedelta(days=options["days"])
        rows = PendingSignup.objects.filter(
            created__lt=cutoff, user__is_active=False, user__last_login__isnull=True
        ).select_related("user")
        deleted = kept = 0
        for row in rows:
            if options["dry_run"]:
                self.stdout.write(f"would delete {row.user.get_username()}")
                continue
            try:
                with transaction.atomic():
                    row.user.delete()
                deleted += 1
            except ProtectedError:
                kept += 1
                self.stdout.write(f"kept {row.user.get_username()}: other records refer to it")
        if not options["dry_run"]:
            self.stdout.write(f"{deleted} unconfirmed account(s) deleted, {kept} kept")
