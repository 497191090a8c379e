"""A digest of every standing and rating, without database ids: to check a restored
backup or an imported archive against the site it came from (docs/backup.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from results.archives.digest import differences, digest_hash, results_digest


class Command(BaseCommand):
    help = (
        "Print the SHA-256 of every standing and rating (named by slugs and handles, not "
        "ids). -o FILE saves them as JSON; --against FILE compares with a saved file and "
        "exits 1 naming what differs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("-o", "--output", metavar="FILE.json", help="save the digest")
        parser.add_argument("--against", metavar="FILE.json", help="compare with a saved digest")

    def handle(self, *args: Any, **options: Any) -> None:
        digest = results_digest()
        if options["output"]:
            text = json.dumps(digest, sort_keys=True, ensure_ascii=False, indent=1)
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        self.stdout.write(digest_hash(digest))
        if options["against"]:
            try:
                saved = json.loads(Path(options["against"]).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise CommandError(str(exc)) from None
            found = differences(saved, digest)
            if found:
                for part in found[:50]:
                    self.stderr.write(part)
                raise CommandError(
                    _("%(n)s parts differ from %(file)s.")
                    % {"n": len(found), "file": options["against"]}
                )
            self.stdout.write(_("identical to %(file)s") % {"file": options["against"]})
