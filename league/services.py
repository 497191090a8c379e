"""League writes. Every state change here is atomic, permission-checked and audited.

Each service takes the acting user first (``actor``), checks it with
:mod:`league.permissions` (raising :class:`django.core.exceptions.PermissionDenied`),
locks the event row with ``select_for_update`` so concurrent changes to one event run
one after another, validates the move (raising :class:`league.errors.LeagueError` with a
translated message), writes, and appends an :class:`~league.models.AuditEntry`.
Views and serializers never set a status themselves.
"""

from __future__ import annotations

import csv
import io
import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league import lifecycle
from league import permissions as perms
from league.errors import CsvImportError, LeagueError, RowProblem
from league.i18n import engine_error_text, import_problem_text, note
from league.models import (
    AuditEntry,
    Club,
    DrawJob,
    Event,
    Membership,
    Player,
    PlayerConflict,
    Referee,
    RefereeConflict,
    Registration,
    Round,
    Season,
    Seat,
    Table,
)

log = logging.getLogger(__name__)

# --- audit --------------------------------------------------------------------------------


def audit(
    actor: Any, action: str, target: Model, *, event: Event | None = None, **data: Any
) -> AuditEntry:
    """Append one audit entry: who (``actor``) did ``action`` to ``target``, with details."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        actor=user,
        action=action,
        target_type=target._meta.label_lower,
        target_id=int(target.pk),
        event=event,
        data=_jsonable(data),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Model):
        return value.pk
    return value


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You may not do this."))


def _lock_event(event: Event) -> Event:
    """The event row, locked against every other organiser action on the event. FOR NO
    KEY UPDATE: it excludes the others alike but not the key-share locks that inserts
    referring to the event take (audit lines, results), so those never wait on it."""
    return (
        Event.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club")
        .get(pk=event.pk)
    )


# --- event settings -----------------------------------------------------------------------

EVENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "starts_on",
    "ends_on",
    "registration_opens",
    "registration_closes",
    "ruleset",
    "ruleset_overrides",
    "scoring_profile",
    "tiebreak_precedence",
    "rounds_count",
    "min_table",
    "max_table",
    "allow_extra_meeting",
    "season",
)


def allowed_table_sizes(event: Event) -> tuple[int, ...]:
    """Table sizes this event may use: the ruleset's sizes within the event's range."""
    from engine.rulesets import get_ruleset

    spec: Any = event.ruleset
    if event.ruleset_overrides:
        spec = {"base": event.ruleset, "overrides": event.ruleset_overrides}
    ruleset = get_ruleset(spec)
    return tuple(sorted(s for s in ruleset.table_sizes if event.min_table <= s <= event.max_table))


def validate_event_settings(event: Event) -> None:
    """Every problem with the event's settings in one :class:`LeagueError`."""
    from engine.errors import EngineError
    from engine.scoring import get_profile
    from engine.standings import validate_precedence

    problems: list[str] = []
    if event.ends_on and event.starts_on and event.ends_on < event.starts_on:
        problems.append(_("The event cannot end before it starts."))
    if not 1 <= (event.rounds_count or 0) <= 30:
        problems.append(_("The number of rounds must be between 1 and 30."))
    if not 6 <= event.min_table <= event.max_table <= 17:
        problems.append(_("Table sizes must satisfy 6 ≤ smallest ≤ largest ≤ 17."))
    if (
        event.registration_opens
        and event.registration_closes
        and event.registration_closes < event.registration_opens
    ):
        problems.append(_("Registration cannot close before it opens."))
    try:
        sizes = allowed_table_sizes(event)
        if not sizes and not problems:
            problems.append(
                _("The ruleset deals cards for no table size between %(lo)s and %(hi)s.")
                % {"lo": event.min_table, "hi": event.max_table}
            )
    except EngineError as exc:
        problems.append(_("Ruleset: %(error)s") % {"error": engine_error_text(exc)})
    try:
        get_profile(event.scoring_profile)
    except EngineError as exc:
        problems.append(_("Scoring profile: %(error)s") % {"error": engine_error_text(exc)})
    if event.tiebreak_precedence:
        try:
            validate_precedence(event.tiebreak_precedence)
        except EngineError as exc:
            problems.append(_("Tie-breaks: %(error)s") % {"error": engine_error_text(exc)})
    if problems:
        raise LeagueError(" ".join(problems), code="event_settings")


def _sync_rounds(event: Event, round_starts: Sequence[datetime | None] | None) -> None:
    """Make rounds 1..rounds_count exist; drop undrawn rounds beyond it."""
    existing = {r.number: r for r in event.rounds.all()}
    extra = [r for n, r in existing.items() if n > event.rounds_count]
    if any(r.status != Round.Status.NONE for r in extra):
        raise LeagueError(
            _("Rounds that are already drawn cannot be removed; redraw them first."),
            code="rounds_drawn",
        )
    Round.objects.filter(pk__in=[r.pk for r in extra]).delete()
    starts = list(round_starts or [])
    new = []
    for number in range(1, event.rounds_count + 1):
        start = starts[number - 1] if number - 1 < len(starts) else None
        if number in existing:
            rnd = existing[number]
            if round_starts is not None and rnd.starts_at != start:
                rnd.starts_at = start
                rnd.save(update_fields=["starts_at"])
        else:
            new.append(Round(event=event, number=number, starts_at=start))
    Round.objects.bulk_create(new)


@transaction.atomic
def create_event(
    actor: Any,
    club: Club,
    *,
    round_starts: Sequence[datetime | None] | None = None,
    staff: Iterable[Any] = (),
    referees: Iterable[Referee] = (),
    **fields: Any,
) -> Event:
    """Create an event in draft with one round row per round (each with its start time)."""
    _require(perms.can_create_event(actor, club))
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    if not fields.get("slug"):
        fields["slug"] = slugify(fields.get("name", ""))[:80] or secrets.token_hex(4)
    season = fields.get("season")
    if season is not None and season.league.club_id not in (None, club.pk):
        raise LeagueError(_("That season belongs to another club's league."))
    event = Event(club=club, **fields)
    validate_event_settings(event)
    if Event.objects.filter(club=club, slug=event.slug).exists():
        raise LeagueError(
            _("This club already has an event with the address “%(slug)s”.") % {"slug": event.slug},
            code="slug_taken",
        )
    event.save()
    event.staff.set(list(staff))
    event.referees.set(list(referees))
    _sync_rounds(event, round_starts)
    audit(actor, "event.create", event, event=event, name=event.name)
    return event


@transaction.atomic
def update_event(
    actor: Any,
    event: Event,
    *,
    round_starts: Sequence[datetime | None] | None = None,
    staff: Iterable[Any] | None = None,
    referees: Iterable[Referee] | None = None,
    **fields: Any,
) -> Event:
    """Change an event's settings; the round count changes only over undrawn rounds."""
    _require(perms.can_manage_event(actor, event))
    event = _lock_event(event)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    if event.status == Event.Status.FINISHED:
        raise LeagueError(_("A finished event can no longer be edited."), code="finished")
    drawn = event.rounds.exclude(status=Round.Status.NONE).exists()
    locked = {"ruleset", "ruleset_overrides", "min_table", "max_table"}
    changed = {k: v for k, v in fields.items() if getattr(event, k) != v}
    if drawn and locked & set(changed):
        raise LeagueError(
            _("Ruleset and table sizes cannot change once rounds are drawn."), code="drawn"
        )
    if "slug" in changed and Event.objects.filter(club=event.club, slug=changed["slug"]).exists():
        raise LeagueError(
            _("This club already has an event with the address “%(slug)s”.")
            % {"slug": changed["slug"]},
            code="slug_taken",
        )
    for key, value in changed.items():
        setattr(event, key, value)
    validate_event_settings(event)
    event.save()
    if staff is not None:
        event.staff.set(list(staff))
    if referees is not None:
        event.referees.set(list(referees))
    _sync_rounds(event, round_starts)
    audit(actor, "event.update", event, event=event, fields=sorted(changed))
    return event


@transaction.atomic
def set_round_start(actor: Any, rnd: Round, starts_at: datetime | None) -> Round:
    _require(perms.can_manage_event(actor, rnd.event))
    _lock_event(rnd.event)
    rnd.refresh_from_db()
    before = rnd.starts_at
    rnd.starts_at = starts_at
    rnd.save(update_fields=["starts_at"])
    audit(actor, "round.schedule", rnd, event=rnd.event, before=before, after=starts_at)
    return rnd


EVENT_TRANSITIONS: dict[str, tuple[str, ...]] = {
    "draft": ("registration",),
    "registration": ("draft", "running"),
    "running": ("finished",),
    "finished": (),
}


def _transition_event(actor: Any, event: Event, to: str) -> None:
    """The one guarded move of an event's status; the caller holds the row lock."""
    if to not in EVENT_TRANSITIONS.get(event.status, ()):
        raise LeagueError(
            _("An event cannot go from %(from)s to %(to)s.") % {"from": event.status, "to": to},
            code="bad_transition",
        )
    if to == "draft" and event.registrations.exists():
        raise LeagueError(
            _("Players have registered; the event cannot go back to draft."), code="has_players"
        )
    before = event.status
    event.status = to
    event.save(update_fields=["status"])
    audit(actor, "event.status", event, event=event, before=before, after=to)


@transaction.atomic
def transition_event(actor: Any, event: Event, to: str) -> Event:
    """Draft → registration → running → finished (and registration → draft while empty)."""
    _require(perms.can_manage_event(actor, event))
    event = _lock_event(event)
    _transition_event(actor, event, to)
    return event


# --- players and registrations ------------------------------------------------------------


@transaction.atomic
def create_player(
    actor: Any,
    *,
    display_name: str,
    handle: str,
    club: Club | None = None,
    user: Any = None,
    event: Event | None = None,
) -> Player:
    """Create a player; organisers anywhere, or ``event``'s staff for a walk-in."""
    _require(
        perms.can_manage_players(actor)
        or (event is not None and perms.can_staff_event(actor, event))
    )
    handle = handle.strip().lower()
    problems = _player_problems(display_name, handle)
    if problems:
        raise LeagueError(
            " ".join(import_problem_text(code) for _column, code in problems), code="player"
        )
    if Player.objects.filter(handle=handle).exists():
        raise LeagueError(
            _("The handle @%(handle)s is taken.") % {"handle": handle}, code="handle_taken"
        )
    if club is not None and not perms.is_club_organiser(actor, club):
        raise PermissionDenied(_("Only a club's organisers add players to it."))
    player = Player.objects.create(display_name=display_name.strip(), handle=handle, user=user)
    if club is not None:
        Membership.objects.create(player=player, club=club, joined=timezone.localdate())
    audit(actor, "player.create", player, handle=handle)
    return player


@dataclass(frozen=True)
class ImportProblem(RowProblem):
    """One problem of an imported file as data: its row, its column and its ``code`` with
    ``params`` are decided where the problem is found; ``message`` is rendered from them
    (:func:`league.i18n.import_problem_text`) in the reader's language."""

    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, row: int, column: str, code: str, /, **params: Any) -> ImportProblem:
        # the sentence is rendered when read, in the language active then
        return cls(row, column, _problem_text_lazy(code, params), code, params)


_problem_text_lazy = lazy(import_problem_text, str)


def _row_order(problem: RowProblem) -> tuple[int, str]:
    return (problem.row, problem.column)


def _membership_problems(
    actor: Any, claims: Sequence[tuple[int, str, Club | None]], existing: dict[str, Player]
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


def _player_problems(display_name: str, handle: str) -> list[tuple[str, str]]:
    """A new player's problems as ``(column, code)``: the column is known here, where each
    problem is found (:data:`league.i18n.IMPORT_PROBLEMS` words it)."""
    problems = []
    if not display_name.strip():
        problems.append(("display_name", "player.name_required"))
    elif len(display_name.strip()) > 120:
        problems.append(("display_name", "player.name_too_long"))
    if not handle:
        problems.append(("handle", "player.handle_required"))
    elif len(handle) > 60 or slugify(handle, allow_unicode=True) != handle:
        problems.append(("handle", "player.handle_invalid"))
    return problems


def _register(actor: Any, event: Event, player: Player) -> Registration:
    registration, created = Registration.objects.get_or_create(event=event, player=player)
    if not created and registration.status == Registration.Status.REGISTERED:
        raise LeagueError(
            _("%(player)s is already registered.") % {"player": player.display_name},
            code="already_registered",
        )
    if not created:
        registration.status = Registration.Status.REGISTERED
        registration.save(update_fields=["status"])
    audit(actor, "registration.register", registration, event=event, player=player.handle)
    return registration


@transaction.atomic
def register_player(actor: Any, event: Event, player: Player) -> Registration:
    """Staff register anyone (registration or running); a player registers themselves."""
    own = player.user_id is not None and getattr(actor, "pk", None) == player.user_id
    staff = perms.can_staff_event(actor, event)
    _require(staff or (own and perms.can_register_self(actor, event)))
    event = _lock_event(event)
    if event.status not in ("registration", "running"):
        raise LeagueError(_("Registration for this event is not open."), code="closed")
    return _register(actor, event, player)


@transaction.atomic
def withdraw(actor: Any, registration: Registration) -> Registration:
    """Withdraw a player; already drawn rounds keep their seat until redrawn."""
    event = registration.event
    _require(perms.can_withdraw(actor, event, registration.player.user_id))
    _lock_event(event)
    registration.refresh_from_db()
    if registration.status == Registration.Status.WITHDRAWN:
        raise LeagueError(_("This player has already withdrawn."), code="withdrawn")
    registration.status = Registration.Status.WITHDRAWN
    registration.checked_in_at = None
    registration.save(update_fields=["status", "checked_in_at"])
    audit(actor, "registration.withdraw", registration, event=event)
    return registration


@transaction.atomic
def check_in(actor: Any, registration: Registration, *, undo: bool = False) -> Registration:
    event = registration.event
    _require(perms.can_staff_event(actor, event))
    _lock_event(event)
    registration.refresh_from_db()
    if registration.status != Registration.Status.REGISTERED:
        raise LeagueError(_("A withdrawn player cannot check in."), code="withdrawn")
    if event.status not in ("registration", "running"):
        raise LeagueError(_("Check-in is closed for this event."), code="closed")
    if undo:
        registration.checked_in_at = None
    elif registration.checked_in_at is None:
        registration.checked_in_at = timezone.now()
    registration.save(update_fields=["checked_in_at"])
    audit(
        actor,
        "registration.undo_check_in" if undo else "registration.check_in",
        registration,
        event=event,
    )
    return registration


@transaction.atomic
def set_absences(actor: Any, registration: Registration, rounds: Iterable[int]) -> Registration:
    """Record the rounds a player will miss; the next draw leaves them out of those."""
    event = registration.event
    _require(perms.can_staff_event(actor, event))
    _lock_event(event)
    wanted = sorted(set(rounds))
    bad = [r for r in wanted if not 1 <= r <= event.rounds_count]
    if bad:
        raise LeagueError(
            _("Rounds %(bad)s do not exist (the event has %(n)s).")
            % {"bad": bad, "n": event.rounds_count}
        )
    registration.absent_rounds = wanted
    registration.save(update_fields=["absent_rounds"])
    audit(actor, "registration.absences", registration, event=event, rounds=wanted)
    return registration


# --- CSV import -----------------------------------------------------------------------------

CSV_COLUMNS = ("display_name", "handle", "club")


@dataclass(frozen=True)
class ImportResult:
    created: int
    existing: int
    registered: int
    checked_in: int


@transaction.atomic
def import_players_csv(
    actor: Any, event: Event, data: str | bytes, *, check_in: bool = False
) -> ImportResult:
    """Create (or find by handle) and register every player of a CSV file.

    Columns: ``display_name``, ``handle``, optional ``club`` (a club slug). Every row is
    validated first; if any row has a problem nothing is saved and :class:`CsvImportError`
    lists each problem with its row and column.
    """
    _require(perms.can_staff_event(actor, event))
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
    event = _lock_event(event)
    if event.status not in ("draft", "registration", "running"):
        raise LeagueError(_("Players cannot be added to a finished event."), code="closed")
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
        for column, code in _player_problems(name, handle):
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
    if not rows and not problems:
        problems.append(ImportProblem.of(2, "file", "csv.no_players"))
    existing = {p.handle: p for p in Player.objects.filter(handle__in=[h for _n, h, _c in rows])}
    problems += _membership_problems(actor, claims, existing)
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
    to_create, to_update = [], []
    for _n, h, _c in rows:
        player = players[h]
        reg = regs.get(player.pk)
        if reg is None:
            to_create.append(
                Registration(event=event, player=player, checked_in_at=now if check_in else None)
            )
        elif reg.status == Registration.Status.WITHDRAWN or (check_in and not reg.checked_in_at):
            reg.status = Registration.Status.REGISTERED
            if check_in:
                reg.checked_in_at = reg.checked_in_at or now
            to_update.append(reg)
    Registration.objects.bulk_create(to_create)
    Registration.objects.bulk_update(to_update, ["status", "checked_in_at"])
    result = ImportResult(
        created=len(new_players),
        existing=len(rows) - len(new_players),
        registered=len(to_create) + len(to_update),
        checked_in=len(rows) if check_in else 0,
    )
    audit(actor, "registration.import", event, event=event, **result.__dict__)
    return result


# --- draws ----------------------------------------------------------------------------------


@transaction.atomic
def request_draw(
    actor: Any,
    event: Event,
    *,
    from_round: int,
    to_round: int | None = None,
    seed: int | None = None,
    checked_in_only: bool = True,
) -> DrawJob:
    """Queue a draw of rounds ``from_round``..``to_round`` (default: all remaining).

    Earlier rounds must be drawn (they stay as they are and the draw takes their
    meetings into account); the rounds drawn must not be released; rounds after
    ``to_round`` must not be drawn yet. Drawing over draft or confirmed rounds replaces
    them — that is "redraw from round k" after withdrawals.
    """
    _require(perms.can_manage_event(actor, event))
    event = _lock_event(event)
    to_round = to_round or event.rounds_count
    if not 1 <= from_round <= to_round <= event.rounds_count:
        raise LeagueError(
            _("Choose rounds between 1 and %(n)s.") % {"n": event.rounds_count}, code="rounds"
        )
    if event.status not in ("registration", "running"):
        raise LeagueError(
            _("Open registration before drawing (the event is %(status)s).")
            % {"status": event.get_status_display()},
            code="status",
        )
    rounds = {r.number: r.status for r in event.rounds.all()}
    undrawn_before = [n for n in range(1, from_round) if rounds.get(n) == Round.Status.NONE]
    if undrawn_before:
        raise LeagueError(
            _("Draw round %(n)s first: earlier rounds must be drawn.") % {"n": undrawn_before[0]},
            code="order",
        )
    released = [n for n in range(from_round, to_round + 1) if rounds.get(n) == "released"]
    if released:
        raise LeagueError(
            _("Round %(n)s is released and cannot be redrawn; draw from round %(next)s.")
            % {"n": released[-1], "next": released[-1] + 1},
            code="released",
        )
    later = [n for n in range(to_round + 1, event.rounds_count + 1) if rounds.get(n) != "none"]
    if later:
        raise LeagueError(
            _("Round %(n)s is already drawn; redraw through the last round instead.")
            % {"n": later[0]},
            code="later_drawn",
        )
    _expire_stale_jobs(event)
    if DrawJob.objects.filter(event=event, status__in=["queued", "running"]).exists():
        raise LeagueError(_("A draw is already running for this event."), code="busy")
    job = DrawJob.objects.create(
        event=event,
        from_round=from_round,
        to_round=to_round,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        checked_in_only=checked_in_only,
        requested_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    audit(
        actor,
        "draw.request",
        job,
        event=event,
        from_round=from_round,
        to_round=to_round,
        seed=job.seed,
    )
    job_id = job.pk
    transaction.on_commit(lambda: _start_draw(job_id))
    return job


def _start_draw(job_id: int) -> None:
    """After commit: queue the draw; with the broker down, fail the job at once (the
    organiser can start it again) instead of leaving it queued for STALE_DRAW_AFTER."""
    from league.outages import enqueue
    from league.tasks import run_draw_job

    if not enqueue(run_draw_job, job_id):
        DrawJob.objects.filter(pk=job_id, status=DrawJob.Status.QUEUED).update(
            status=DrawJob.Status.FAILED,
            error=note("league.draw.queue_down"),
            finished_at=timezone.now(),
        )


#: A queued or running draw older than this was lost (a worker died); it may be restarted.
STALE_DRAW_AFTER = timedelta(minutes=15)


def _expire_stale_jobs(event: Event) -> None:
    stale = DrawJob.objects.filter(
        event=event,
        status__in=["queued", "running"],
        created_at__lt=timezone.now() - STALE_DRAW_AFTER,
    )
    for job in stale:
        job.status = DrawJob.Status.FAILED
        job.error = note("league.draw.stale")
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "error", "finished_at"])
        audit(None, "draw.expired", job, event=event)


def _editable_round(actor: Any, rnd: Round) -> Round:
    """The round, locked, if its seats may change by hand: a draft (before it is public)
    or a released round (event-day substitutions at tables not yet played)."""
    _require(perms.can_manage_event(actor, rnd.event))
    _lock_event(rnd.event)
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.DRAFT, Round.Status.RELEASED):
        raise LeagueError(
            _("Round %(n)s is %(status)s: reopen it to change it by hand.")
            % {"n": rnd.number, "status": rnd.get_status_display()},
            code="not_draft",
        )
    return rnd


@transaction.atomic
def swap_players(actor: Any, rnd: Round, player_a: Player, player_b: Player) -> list[int]:
    """Exchange two players' seats (tables and seat numbers); both seats become pinned.

    Refused at a table with recorded play. Returns the table numbers affected."""
    rnd = _editable_round(actor, rnd)
    seats = {
        s.player_id: s
        for s in Seat.objects.filter(round=rnd, player__in=[player_a, player_b]).select_related(
            "table"
        )
    }
    if player_a.pk == player_b.pk:
        raise LeagueError(_("Give the handles of two different players."), code="same_player")
    missing = [p for p in (player_a, player_b) if p.pk not in seats]
    if missing:
        raise LeagueError(
            _("%(player)s has no seat in round %(n)s.")
            % {"player": missing[0].display_name, "n": rnd.number},
            code="not_seated",
        )
    a, b = seats[player_a.pk], seats[player_b.pk]
    lifecycle.refuse_if_played(
        Table.objects.filter(pk__in=[a.table_id, b.table_id]), _("swap these players")
    )
    from league.selectors import avoid_pairs

    avoid = avoid_pairs(rnd.event)
    for mover, table_id, other in ((a, b.table_id, b), (b, a.table_id, a)):
        if table_id == mover.table_id:
            continue
        mates = Seat.objects.filter(table_id=table_id).exclude(pk=other.pk)
        for mate in mates.values_list("player_id", flat=True):
            if (min(mover.player_id, mate), max(mover.player_id, mate)) in avoid:
                raise LeagueError(
                    _("This swap seats two players who must not meet at one table."),
                    code="avoid",
                )
    a_table, a_number = a.table_id, a.number
    # Free one seat first so the unique (table, seat) constraint holds at every step.
    Seat.objects.filter(pk=a.pk).delete()
    Seat.objects.filter(pk=b.pk).update(table_id=a_table, number=a_number, pinned=True)
    Seat.objects.create(
        round=rnd, table_id=b.table_id, number=b.number, player_id=a.player_id, pinned=True
    )
    tables = sorted({a.table.number, b.table.number})
    audit(
        actor,
        "round.swap",
        rnd,
        event=rnd.event,
        players=[player_a.handle, player_b.handle],
        tables=tables,
    )
    return tables


@transaction.atomic
def move_referee(actor: Any, table: Table, referee: Referee | None) -> list[int]:
    """Give ``table`` to ``referee``; if they judge another table that round, swap them.

    The referees placed this way are pinned (automatic assignment keeps them). Refused at
    a table with recorded play. Returns the table numbers affected."""
    rnd = _editable_round(actor, table.round)
    table.refresh_from_db()
    if referee is not None:
        if not rnd.event.referees.filter(pk=referee.pk).exists():
            raise LeagueError(_("That referee is not on this event's list."), code="not_listed")
        from league.selectors import referee_conflicts

        players = set(table.seats.values_list("player_id", flat=True))
        blocked = {p for r, p in referee_conflicts(rnd.event, [referee]) if r == referee.pk}
        if players & blocked:
            raise LeagueError(
                _("%(ref)s may not judge a player at this table (own club or declared conflict).")
                % {"ref": referee},
                code="referee_conflict",
            )
    before = table.referee_id
    other = None
    if referee is not None:
        other = Table.objects.filter(round=rnd, referee=referee).exclude(pk=table.pk).first()
    affected = [table.pk] + ([other.pk] if other is not None else [])
    lifecycle.refuse_if_played(Table.objects.filter(pk__in=affected), _("change this referee"))
    if other is not None and before is not None:
        from league.selectors import referee_conflicts

        displaced = Referee.objects.get(pk=before)
        others = set(other.seats.values_list("player_id", flat=True))
        blocked = {p for r, p in referee_conflicts(rnd.event, [displaced]) if r == before}
        if others & blocked:
            raise LeagueError(
                _("%(ref)s would move to table %(n)s, where they may not judge a player.")
                % {"ref": displaced, "n": other.number},
                code="referee_conflict",
            )
    if other is not None:
        Table.objects.filter(pk=other.pk).update(referee=None)
        Table.objects.filter(pk=table.pk).update(referee=referee, referee_pinned=True)
        Table.objects.filter(pk=other.pk).update(referee_id=before, referee_pinned=True)
    else:
        Table.objects.filter(pk=table.pk).update(referee=referee, referee_pinned=True)
    numbers = sorted(Table.objects.filter(pk__in=affected).values_list("number", flat=True))
    audit(
        actor,
        "table.referee",
        table,
        event=rnd.event,
        before=before,
        after=referee.pk if referee else None,
        tables=numbers,
    )
    return numbers


@transaction.atomic
def unpin_round(actor: Any, rnd: Round) -> int:
    """Let automatic assignment and redraws change this round's hand-placed entries again.

    Returns how many tables had pins."""
    rnd = _editable_round(actor, rnd)
    tables = Table.objects.filter(round=rnd)
    pinned = set(tables.filter(referee_pinned=True).values_list("pk", flat=True))
    pinned |= set(Seat.objects.filter(round=rnd, pinned=True).values_list("table_id", flat=True))
    tables.update(referee_pinned=False)
    Seat.objects.filter(round=rnd).update(pinned=False)
    audit(actor, "round.unpin", rnd, event=rnd.event, tables=len(pinned))
    return len(pinned)


def _set_round_status(actor: Any, rnd: Round, to: str, allowed_from: tuple[str, ...]) -> Round:
    if rnd.status not in allowed_from:
        raise LeagueError(
            _("Round %(n)s is %(status)s and cannot become %(to)s.")
            % {"n": rnd.number, "status": rnd.get_status_display(), "to": to},
            code="bad_transition",
        )
    before = rnd.status
    rnd.status = to
    fields = ["status"]
    if to == Round.Status.RELEASED:
        rnd.released_at = timezone.now()
        fields.append("released_at")
    rnd.save(update_fields=fields)
    audit(actor, "round.status", rnd, event=rnd.event, before=before, after=to)
    return rnd


def _lock_round(actor: Any, rnd: Round) -> tuple[Event, Round]:
    _require(perms.can_manage_event(actor, rnd.event))
    event = _lock_event(rnd.event)
    return event, Round.objects.get(pk=rnd.pk)


@transaction.atomic
def confirm_round(actor: Any, rnd: Round) -> Round:
    event, rnd = _lock_round(actor, rnd)
    if DrawJob.objects.filter(event=event, status__in=["queued", "running"]).exists():
        raise LeagueError(_("Wait for the running draw to finish."), code="busy")
    return _set_round_status(actor, rnd, Round.Status.CONFIRMED, (Round.Status.DRAFT,))


@transaction.atomic
def reopen_round(actor: Any, rnd: Round) -> Round:
    """Confirmed → draft, to swap players or referees again."""
    _event, rnd = _lock_round(actor, rnd)
    return _set_round_status(actor, rnd, Round.Status.DRAFT, (Round.Status.CONFIRMED,))


@transaction.atomic
def release_round(actor: Any, rnd: Round) -> Round:
    """Confirmed → released: the round becomes public. Releasing the first starts the event."""
    event, rnd = _lock_round(actor, rnd)
    earlier = event.rounds.filter(number__lt=rnd.number).exclude(status="released")
    if earlier.exists():
        raise LeagueError(
            _("Release round %(n)s first.") % {"n": earlier.order_by("number")[0].number},
            code="order",
        )
    if event.status == Event.Status.REGISTRATION:
        _transition_event(actor, event, Event.Status.RUNNING)
    elif event.status != Event.Status.RUNNING:
        raise LeagueError(_("Only a running event releases rounds."), code="status")
    return _set_round_status(actor, rnd, Round.Status.RELEASED, (Round.Status.CONFIRMED,))


@transaction.atomic
def assign_referees(actor: Any, event: Event, *, seed: int | None = None) -> Any:
    """Re-assign referees to every draft round's tables with the engine, keeping referees
    placed by hand (a :class:`league.draws.RefereeAssignment`)."""
    from league import draws

    _require(perms.can_manage_event(actor, event))
    event = _lock_event(event)
    done = draws.reassign_referees(event, seed=secrets.randbelow(2**31) if seed is None else seed)
    audit(
        actor,
        "draw.referees",
        event,
        event=event,
        rounds=done.rounds,
        kept=done.kept,
        without=[list(w) for w in done.without],
    )
    return done


@transaction.atomic
def declare_player_conflict(
    actor: Any, event: Event, a: Player, b: Player, reason: str = ""
) -> PlayerConflict:
    """Two players who must never share a table in ``event`` (the draw respects it)."""
    _require(perms.can_manage_event(actor, event))
    _lock_event(event)
    if a.pk == b.pk:
        raise LeagueError(_("Name two different players."), code="same_player")
    lo, hi = sorted((a, b), key=lambda p: p.pk)
    try:
        with transaction.atomic():
            conflict = PlayerConflict.objects.create(
                event=event, player_a=lo, player_b=hi, reason=reason
            )
    except IntegrityError:
        raise LeagueError(_("This conflict is already declared."), code="exists") from None
    audit(actor, "player.conflict", conflict, event=event, players=[a.handle, b.handle])
    return conflict


@transaction.atomic
def remove_conflict(actor: Any, event: Event, conflict: PlayerConflict | RefereeConflict) -> None:
    _require(perms.can_manage_event(actor, event))
    _lock_event(event)
    audit(actor, "conflict.remove", conflict, event=event)
    conflict.delete()


@transaction.atomic
def declare_referee_conflict(
    actor: Any, event: Event, referee: Referee, player: Player, reason: str = ""
) -> RefereeConflict:
    _require(perms.can_manage_event(actor, event))
    try:
        with transaction.atomic():
            conflict = RefereeConflict.objects.create(
                club=event.club, referee=referee, player=player, reason=reason
            )
    except IntegrityError:
        raise LeagueError(_("This conflict is already declared."), code="exists") from None
    audit(actor, "referee.conflict", conflict, event=event, player=player.handle)
    return conflict


def seasons_for(club: Club) -> Iterable[Season]:
    return Season.objects.filter(league__club=club)
