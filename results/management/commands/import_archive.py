"""Load an archive into this site (docs/archives.md, "Import rules")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from results.archives.bundle import ArchiveError, max_bytes
from results.archives.imports import import_archive, preview_archive


class Command(BaseCommand):
    help = (
        "Import a club or event archive in one transaction, then recompute its standings "
        "and the ratings. Refused, with nothing written, if the file is damaged, altered "
        "or too large, or if its club already exists here; importing the same archive "
        "again changes nothing. Exit status: 0 imported or already imported, 1 refused."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE.zip")
        parser.add_argument("--actor", metavar="USERNAME", help="who the audit log names")
        parser.add_argument(
            "--dry-run", action="store_true", help="check the file and say what would happen"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise CommandError(str(exc)) from None
        if size > max_bytes():
            raise CommandError(
                _("The archive is too large: %(size)s MB, the limit is %(limit)s MB.")
                % {"size": size // 2**20, "limit": max_bytes() // 2**20}
            )
        actor = None
        if options["actor"]:
            actor = User.objects.filter(username=options["actor"]).first()
            if actor is None:
                raise CommandError(_("No account %(name)s.") % {"name": options["actor"]})
        data = path.read_bytes()
        try:
            if options["dry_run"]:
                preview = preview_archive(data)
                self.stdout.write(_("The archive is readable."))
                for error in preview.collisions:
                    self.stdout.write(error.message)
                if preview.already_imported:
                    self.stdout.write(_("This archive was already imported: nothing to do."))
                return
            report = import_archive(data, actor=actor)
        except ArchiveError as exc:
            raise CommandError(exc.message) from None
        if report.already_imported:
            self.stdout.write(_("Already imported: nothing was changed."))
            return
        self.stdout.write(
            self.style.SUCCESS(
                _("Imported %(club)s: %(events)s events, %(games)s games.")
                % {"club": report.club.slug, "events": len(report.events), "games": report.games}
            )
        )
        for slug in report.differences:
            self.stdout.write(
                self.style.WARNING(
                    _("The recomputed standing of %(event)s differs from the archived one.")
                    % {"event": slug}
                )
            )
