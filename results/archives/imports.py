"""Import an archive into this site (``docs/archives.md``, "Import rules").

:func:`preview_archive` reads and checks the file and says what an import would create
and what it would collide with; :func:`import_archive` does the same, then, inside one
transaction, writes every row (:mod:`results.archives.loader`), runs the results
pipeline over the imported events and games, compares the recomputed standings with
the ones the archive carries, and writes one audit entry ``archive.imported`` holding
the archive's digest. Anything wrong is an :class:`~results.archives.bundle.ArchiveError`
and nothing is written.

Collisions: a club archive whose club slug exists here is refused (409), unless this
very archive (same digest) was imported before — then nothing is written and the
answer says "already imported". An event archive goes into the existing club of its
slug when that club has no event of that slug. A league of the same slug is reused when
it has every archived season (same name and start date), else refused. A player of the
same handle is the same person when the display name is the same too, else refused; an
account of the same username likewise when the e-mail address agrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from games.models import Game
from league.audit import AuditEntry, audit
from league.models import Club, Event, League, Player
from results.archives.bundle import Archive, ArchiveError, max_bytes, read_zip
from results.archives.loader import Loader, rows

#: Collisions named in one refusal at most.
SHOWN = 10


@dataclass
class Preview:
    """What an import of this archive would do."""

    archive: Archive
    scope: dict[str, Any]
    public: bool
    counts: dict[str, int]
    club_exists: bool = False
    already_imported: bool = False
    new_users: list[str] = field(default_factory=list)
    reused_users: list[str] = field(default_factory=list)
    new_players: int = 0
    reused_players: int = 0
    reused_leagues: list[str] = field(default_factory=list)
    collisions: list[ArchiveError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.collisions


@dataclass
class ImportReport:
    club: Club
    events: list[Event]
    games: int
    already_imported: bool = False
    #: Events whose recomputed standing differs from the archived one (slugs).
    differences: list[str] = field(default_factory=list)


def read_file(file: IO[bytes] | bytes) -> bytes:
    """The file's bytes, read no further than the archive size limit allows."""
    if isinstance(file, bytes):
        return file
    data = file.read(max_bytes() + 1)
    return data if isinstance(data, bytes) else bytes(data)


def _collision(message: Any, code: str, **params: Any) -> ArchiveError:
    return ArchiveError(message, code=f"archive.{code}", params=params, status=409)


def _imported_before(archive: Archive) -> Club | None:
    entry = (
        AuditEntry.objects.filter(action="archive.imported", data__archive=archive.digest)
        .order_by("-pk")
        .first()
    )
    if entry is None:
        return None
    return Club.objects.filter(pk=entry.target_id).first()


def preview_archive(file: IO[bytes] | bytes) -> Preview:
    """Read, check and plan an import without writing anything."""
    archive = read_zip(read_file(file))
    return plan(archive)


def plan(archive: Archive) -> Preview:
    scope = archive.scope
    counts = archive.manifest.get("counts")
    preview = Preview(
        archive,
        scope,
        archive.public,
        {str(k): int(v) for k, v in counts.items() if isinstance(v, int)}
        if isinstance(counts, dict)
        else {},
    )
    if scope.get("kind") not in ("club", "event") or not isinstance(scope.get("club"), str):
        raise ArchiveError(
            _("The archive's scope is not a club or an event."), code="archive.scope"
        )
    club = Club.objects.filter(slug=scope["club"]).first()
    preview.club_exists = club is not None
    if club is not None and _imported_before(archive) is not None:
        preview.already_imported = True
        return preview
    if club is not None:
        event_slug = scope.get("event")
        if scope["kind"] == "club":
            preview.collisions.append(
                _collision(
                    _("A club with the slug %(slug)s exists on this site: nothing was imported."),
                    "club_exists",
                    slug=club.slug,
                )
            )
        elif Event.objects.filter(club=club, slug=event_slug).exists():
            preview.collisions.append(
                _collision(
                    _("The club %(club)s already has an event %(slug)s: nothing was imported."),
                    "event_exists",
                    club=club.slug,
                    slug=str(event_slug),
                )
            )
    _plan_leagues(archive, preview)
    _plan_people(archive, preview)
    _plan_games(archive, preview)
    return preview


def _plan_leagues(archive: Archive, preview: Preview) -> None:
    taken = []
    for league_row in rows(archive, "leagues.json"):
        league = League.objects.filter(slug=league_row.get("slug")).first()
        if league is None:
            continue
        wanted = {(s.get("name"), s.get("starts_on")) for s in league_row.get("seasons") or []}
        have = {(s.name, s.starts_on.isoformat()) for s in league.seasons.all()}
        if wanted and wanted <= have:
            preview.reused_leagues.append(league.slug)
        else:
            taken.append(league.slug)
    if taken:
        preview.collisions.append(
            _collision(
                _("Leagues with these slugs exist on this site: %(slugs)s."),
                "league_exists",
                slugs=taken[:SHOWN],
            )
        )


def _plan_people(archive: Archive, preview: Preview) -> None:
    users = {str(u.get("username")): u for u in rows(archive, "users.json") if u.get("username")}
    existing = {u.username: u for u in User.objects.filter(username__in=list(users))}
    clashes = []
    for name, row in users.items():
        user = existing.get(name)
        if user is None:
            preview.new_users.append(name)
        elif row.get("email") and user.email and row["email"].lower() != user.email.lower():
            clashes.append(name)
        else:
            preview.reused_users.append(name)
    if preview.public:
        preview.new_users = [str(u.get("key")) for u in rows(archive, "users.json")]
    if clashes:
        preview.collisions.append(
            _collision(
                _("Accounts of these usernames exist here with other e-mail addresses: %(names)s."),
                "user_exists",
                names=clashes[:SHOWN],
            )
        )
    players = {str(p.get("handle")): p for p in rows(archive, "players.json")}
    found = {p.handle: p for p in Player.objects.filter(handle__in=list(players))}
    different = [h for h, p in found.items() if p.display_name != players[h].get("display_name")]
    preview.reused_players = len(found) - len(different)
    preview.new_players = len(players) - len(found)
    if different:
        preview.collisions.append(
            _collision(
                _("Players with these handles exist here under another name: %(handles)s."),
                "player_exists",
                handles=sorted(different)[:SHOWN],
            )
        )


def _plan_games(archive: Archive, preview: Preview) -> None:
    keys = [
        str(value.get("import_key"))
        for name, value in archive.members.items()
        if name.endswith("/game.json") and isinstance(value, dict) and value.get("import_key")
    ]
    taken = list(Game.objects.filter(import_key__in=keys).values_list("import_key", flat=True))
    if taken:
        preview.collisions.append(
            _collision(
                _("Games with these import keys exist here: %(keys)s."),
                "game_exists",
                keys=sorted(taken)[:SHOWN],
            )
        )


def import_archive(file: IO[bytes] | bytes, *, actor: User | None) -> ImportReport:
    """Load an archive into this site in one transaction, then recompute its results.

    Raises :class:`ArchiveError` (nothing written) for a bad file or a collision; returns
    a report with ``already_imported`` when this archive was imported before."""
    archive = read_zip(read_file(file))
    try:
        with transaction.atomic():
            preview = plan(archive)
            if preview.already_imported:
                club = _imported_before(archive)
                assert club is not None
                return ImportReport(club, [], 0, already_imported=True)
            if preview.collisions:
                raise preview.collisions[0]
            loader = Loader(archive, preview.reused_leagues)
            loader.load()
            differences = loader.recompute()
            audit(
                actor,
                "archive.imported",
                loader.club,
                archive=archive.digest,
                archive_id=str(archive.manifest.get("archive_id", ""))[:64],
                scope=archive.scope,
                public=archive.public,
                source=archive.manifest.get("source"),
                events=[e.slug for e in loader.events],
                games=len(loader.games),
            )
    except (IntegrityError, DataError, ValidationError, KeyError, TypeError, ValueError) as exc:
        raise ArchiveError(
            _("The archive's content is inconsistent: %(detail)s. Nothing was imported."),
            code="archive.inconsistent",
            params={"detail": f"{type(exc).__name__}: {exc}"[:300]},
        ) from None
    return ImportReport(loader.club, loader.events, len(loader.games), differences=differences)
