"""Players from a CSV file: every row is checked first, then everything is written at
once (players, club memberships, registrations), or nothing is.

A row that would create a player whose name folds (:func:`league.names.search_key`:
accents, case, spacing and pinyin ignored) to an existing player's name — or to the name
of an earlier new row of the file — is reported as a likely duplicate
(``csv.likely_duplicate``, ``csv.likely_duplicate_row``) and nothing is created: the
organiser either gives the existing player's handle (then the row registers them), or
writes ``yes`` in the optional ``new`` column to create another player anyway. The page
and the API read the same file, so they agree."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.models import Club, Membership, Player
from league.clubs.services import player_problems
from league.errors import CsvImportError, ImportProblem, RowProblem, UserError, require
from league.events import waitlist
from league.events.models import Event, Registration
from league.events.services import lock_event
from league.names import search_key
from league.permissions import Viewer

WAITLISTED = Registration.Status.WAITLISTED


def _row_order(problem: RowProblem) -> tuple[int, str]:
    return (problem.row, problem.column)


def _membership_problems(
    actor: Viewer, claims: Sequence[tuple[int, str, Club | None]], existing: dict[str, Player]
) -> list[RowProblem]:
    """A known player's club changes only by a club they belong to (or by themselves):
    another club's file cannot claim them."""
    known = [existing[h] for _line, h, c in claims if c is not None and h in existing]
    if not known:
        return []
    current: dict[int, set[int]] = {}
    for player_id, club_id in Membership.objects.filter(
        player__in=known, left__isnull=True
    ).values_list("player_id", "club_id"):
        current.setdefault(player_id, set()).add(club_id)
    mine = set(perms.organised_club_ids(actor))
    problems: list[RowProblem] = []
    for line, handle, club in claims:
        player = existing.get(handle)
        if club is None or player is None:
            continue
        clubs_now = current.get(player.pk, set())
        if clubs_now and club.pk not in clubs_now and not (clubs_now & mine):
            problems.append(ImportProblem.of(line, "club", "csv.other_club_member", handle=handle))
    return problems


CSV_COLUMNS = ("display_name", "handle", "club")

#: What the ``new`` column holds to create a player despite a likely duplicate.
YES = frozenset({"yes", "y", "true", "1", "x", "sí", "si", "是"})


def _duplicate_problems(new_rows: Sequence[tuple[int, str, str]]) -> list[RowProblem]:
    """The rows ``(line, name, handle)`` that would create a player whose name's search
    key is an existing player's (``csv.likely_duplicate``, with their handles) or an
    earlier new row's (``csv.likely_duplicate_row``). Names are folded in Python (pinyin
    and accents are beyond the database): one pass over (handle, name)."""
    wanted = {search_key(name) for _line, name, _handle in new_rows} - {""}
    if not wanted:
        return []
    known: dict[str, list[str]] = {}
    for handle, name in Player.objects.order_by("handle").values_list("handle", "display_name"):
        key = search_key(name)
        if key in wanted:
            known.setdefault(key, []).append(handle)
    problems: list[RowProblem] = []
    first_row: dict[str, int] = {}
    for line, name, handle in new_rows:
        key = search_key(name)
        if not key:
            continue
        if key in known:
            problems.append(
                ImportProblem.of(
                    line,
                    "display_name",
                    "csv.likely_duplicate",
                    name=name,
                    handle=handle,
                    existing=[f"@{h}" for h in known[key]],
                )
            )
        elif key in first_row:
            problems.append(
                ImportProblem.of(
                    line,
                    "display_name",
                    "csv.likely_duplicate_row",
                    name=name,
                    handle=handle,
                    row=first_row[key],
                )
            )
        first_row.setdefault(key, line)
    return problems


@dataclass(frozen=True)
class ImportResult:
    created: int
    existing: int
    registered: int
    waitlisted: int
    checked_in: int


@transaction.atomic
def import_players_csv(
    actor: Viewer, event: Event, data: str | bytes, *, check_in: bool = False
) -> ImportResult:
    """Create (or find by handle) and register every player of a CSV file.

    Columns: ``display_name``, ``handle``, optional ``club`` (a club slug) and ``new``
    (``yes``: create the player even if an existing player has the same name). Every row
    is validated first; if any row has a problem — a likely duplicate included — nothing is
    saved and :class:`CsvImportError` lists each problem with its row and column.
    """
    require(perms.can_staff_event(actor, event))
    size = len(data) if isinstance(data, bytes) else len(data.encode())
    if size > settings.CSV_MAX_BYTES:
        raise CsvImportError(
            _("The file is too large; nothing was imported."),
            [
                ImportProblem.of(
                    0,
                    "file",
                    "csv.too_large",
                    size=size // 1024,
                    limit=settings.CSV_MAX_BYTES // 1024,
                )
            ],
        )
    event = lock_event(event)
    if event.status == Event.Status.FINISHED:
        raise UserError(
            _("Players cannot be added to a finished event."), code="closed", status=409
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CsvImportError(
                _("The file is not UTF-8 text."), [ImportProblem.of(0, "file", "csv.not_utf8")]
            ) from None
    else:
        text = data.removeprefix("\ufeff")
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    problems: list[RowProblem] = []
    missing = [c for c in ("display_name", "handle") if c not in header]
    if missing:
        problems.append(
            ImportProblem.of(1, ", ".join(missing), "csv.missing_columns", cols=list(CSV_COLUMNS))
        )
        raise CsvImportError(_("The file has problems; nothing was imported."), problems)
    reader.fieldnames = header
    clubs = {c.slug: c for c in Club.objects.all()}
    rows: list[tuple[str, str, Club | None]] = []
    claims: list[tuple[int, str, Club | None]] = []  # (line, handle, club)
    unconfirmed: list[tuple[int, str, str]] = []  # (line, name, handle): no "new" = yes
    seen: dict[str, int] = {}
    for line, raw in enumerate(reader, start=2):
        if line - 1 > settings.CSV_MAX_ROWS:
            raise CsvImportError(
                _("The file has too many rows; nothing was imported."),
                [ImportProblem.of(line, "file", "csv.too_many_rows", limit=settings.CSV_MAX_ROWS)],
            )
        if raw is None or not any((v or "").strip() for v in raw.values() if isinstance(v, str)):
            continue
        if None in raw:
            problems.append(ImportProblem.of(line, "row", "csv.extra_fields"))
        name = (raw.get("display_name") or "").strip()
        handle = (raw.get("handle") or "").strip().lower()
        club_slug = (raw.get("club") or "").strip()
        for column, code in player_problems(name, handle):
            problems.append(ImportProblem.of(line, column, code))
        if handle in seen:
            problems.append(
                ImportProblem.of(
                    line, "handle", "csv.handle_repeated", handle=handle, row=seen[handle]
                )
            )
        seen.setdefault(handle, line)
        club = None
        if club_slug:
            club = clubs.get(club_slug)
            if club is None:
                problems.append(ImportProblem.of(line, "club", "csv.no_club", slug=club_slug))
            elif not perms.is_club_organiser(actor, club):
                problems.append(
                    ImportProblem.of(line, "club", "csv.not_club_organiser", slug=club_slug)
                )
        rows.append((name, handle, club))
        claims.append((line, handle, club))
        if (raw.get("new") or "").strip().casefold() not in YES:
            unconfirmed.append((line, name, handle))
    if not rows and not problems:
        problems.append(ImportProblem.of(2, "file", "csv.no_players"))
    existing = {p.handle: p for p in Player.objects.filter(handle__in=[h for _n, h, _c in rows])}
    problems += _membership_problems(actor, claims, existing)
    problems += _duplicate_problems([r for r in unconfirmed if r[2] not in existing])
    if problems:
        raise CsvImportError(
            _("The file has problems; nothing was imported."), sorted(problems, key=_row_order)
        )

    new_players = [Player(display_name=n, handle=h) for n, h, _c in rows if h not in existing]
    Player.objects.bulk_create(new_players)
    players = {p.handle: p for p in Player.objects.filter(handle__in=[h for _n, h, _c in rows])}
    today = timezone.localdate()
    current = set(
        Membership.objects.filter(player__in=players.values(), left__isnull=True).values_list(
            "player_id", "club_id"
        )
    )
    Membership.objects.bulk_create(
        [
            Membership(player=players[h], club=c, joined=today)
            for _n, h, c in rows
            if c is not None and (players[h].pk, c.pk) not in current
        ]
    )
    regs = {r.player_id: r for r in event.registrations.filter(player__in=players.values())}
    now = timezone.now()
    # Places are taken in the file's order; past the capacity, rows join the waiting list
    # (in the file's order too: one time, then the primary key).
    free = None if event.capacity is None else event.capacity - waitlist.registered_count(event)
    to_create, to_update = [], []
    for _n, h, _c in rows:
        player = players[h]
        reg = regs.get(player.pk)
        if reg is None:
            reg = Registration(event=event, player=player)
            to_create.append(reg)
        elif reg.status == Registration.Status.WITHDRAWN:
            to_update.append(reg)
        elif check_in and reg.status == Registration.Status.REGISTERED and not reg.checked_in_at:
            reg.checked_in_at = now
            to_update.append(reg)
            continue
        else:
            continue
        if free is None or free > 0:
            reg.status, reg.waitlisted_at = Registration.Status.REGISTERED, None
            reg.checked_in_at = (reg.checked_in_at or now) if check_in else reg.checked_in_at
            free = None if free is None else free - 1
        else:
            reg.status, reg.waitlisted_at, reg.checked_in_at = WAITLISTED, now, None
    Registration.objects.bulk_create(to_create)
    Registration.objects.bulk_update(to_update, ["status", "checked_in_at", "waitlisted_at"])
    changed = to_create + to_update
    result = ImportResult(
        created=len(new_players),
        existing=len(rows) - len(new_players),
        registered=sum(r.status == Registration.Status.REGISTERED for r in changed),
        waitlisted=sum(r.status == WAITLISTED for r in changed),
        checked_in=sum(r.checked_in_at == now for r in changed),
    )
    audit(actor, "registration.import", event, event=event, **result.__dict__)
    return result
