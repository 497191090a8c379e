"""Import past results from a spreadsheet (.xlsx or .csv) into a club: every game of the
file released at once, or nothing (``games.past_results``).

    manage.py import_results FILE --club SLUG [--user USERNAME] [--dry-run]

The import is written by an account, as on the page: ``--user`` (an organiser of the
club or a site administrator); without it, the club's first organiser. Problems are
printed one per line (``row R, column C: …``) and the command exits 1 without saving
anything; ``--dry-run`` checks everything and saves nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from games.past_results import ImportPlan, PastResultsError, import_results
from games.past_results_files import max_bytes
from league.errors import UserError
from league.models import Club, ClubOrganiser


class Command(BaseCommand):
    help = "Import past results (one game per row) from an .xlsx or .csv file into a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .xlsx or .csv file")
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument(
            "--user", help="the importing account (default: the club's first organiser)"
        )
        parser.add_argument("--dry-run", action="store_true", help="check only, save nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(_("No club “%(slug)s”.") % {"slug": options["club"]})
        actor = self._actor(club, options.get("user"))
        path = Path(options["file"])
        try:
            with path.open("rb") as f:
                data = f.read(max_bytes() + 1)
        except OSError as e:
            raise CommandError(
                _("Cannot read %(file)s: %(error)s") % {"file": path, "error": e.strerror}
            ) from None
        try:
            plan = import_results(actor, club, path.name, data, dry_run=options["dry_run"])
        except PastResultsError as e:
            for p in e.problems:
                self.stderr.write(str(p))
            raise CommandError(e.message, returncode=1) from None
        except UserError as e:
            raise CommandError(e.message) from None
        self._report(plan, options["dry_run"])

    def _actor(self, club: Club, username: str | None) -> Any:
        users = get_user_model().objects
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(_("No account “%(user)s”.") % {"user": username})
            return user
        first = (
            ClubOrganiser.objects.filter(club=club).select_related("user").order_by("pk").first()
        )
        if first is None:
            raise CommandError(_("The club has no organiser: name an account with --user."))
        return first.user

    def _report(self, plan: ImportPlan, dry_run: bool) -> None:
        for w in plan.warnings:
            self.stdout.write(_("warning: %(w)s") % {"w": w})
        for p in plan.new_players:
            self.stdout.write(
                _("new player: %(name)s (@%(handle)s)") % {"name": p.name, "handle": p.handle}
            )
        values = {
            "new": len(plan.to_create),
            "made": len(plan.created),
            "skipped": len(plan.skipped),
            "players": len(plan.new_players),
        }
        if dry_run:
            self.stdout.write(
                _(
                    "dry run: %(new)s games to import, %(skipped)s already imported, "
                    "%(players)s new players; nothing saved"
                )
                % values
            )
        else:
            self.stdout.write(
                _("imported %(made)s games, %(skipped)s already imported, %(players)s new players")
                % values
            )
