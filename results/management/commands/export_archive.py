"""Write a club's or an event's archive to a zip file (docs/archives.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from league.models import Club, Event
from results.archives.export import export_archive


class Command(BaseCommand):
    help = (
        "Export a club (--club SLUG) or an event (--event CLUB/EVENT) as an archive: "
        "settings, every game's versions as KGR/1 records, the standings. --public: only "
        "what anyone may read (no unreleased games, no accounts, no e-mail addresses)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        scope = parser.add_mutually_exclusive_group(required=True)
        scope.add_argument("--club", metavar="SLUG", help="the club's slug")
        scope.add_argument("--event", metavar="CLUB/EVENT", help="the club's and event's slugs")
        parser.add_argument("--public", action="store_true", help="the public archive")
        parser.add_argument("-o", "--output", required=True, metavar="FILE.zip")

    def handle(self, *args: Any, **options: Any) -> None:
        target: Club | Event
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(_("No club with the slug %(slug)s.") % {"slug": options["club"]})
            target = club
        else:
            club_slug, _sep, event_slug = str(options["event"]).partition("/")
            event = Event.objects.filter(club__slug=club_slug, slug=event_slug).first()
            if event is None:
                raise CommandError(
                    _("No event %(event)s (write it CLUB/EVENT).") % {"event": options["event"]}
                )
            target = event
        data = export_archive(target, public=options["public"])
        try:
            Path(options["output"]).write_bytes(data)
        except OSError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Wrote %(file)s (%(size)s KiB).")
            % {"file": options["output"], "size": max(1, len(data) // 1024)}
        )
