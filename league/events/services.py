"""Event writes: settings, status, schedule, registrations, check-in and conflicts.

Each service takes the acting user first (``actor``), checks it with
:mod:`league.permissions` (raising :class:`django.core.exceptions.PermissionDenied`),
locks the event row (:func:`lock_event`) so concurrent changes to one event run one
after another, validates the move (raising :class:`league.errors.LeagueError` with a
translated message), writes, and appends an audit line (:func:`league.audit.audit`).
Views and serializers never set a status themselves.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.rulesets import get_ruleset
from engine.scoring import get_profile
from engine.seating import SearchOptions
from engine.standings import validate_precedence
from league import permissions as perms
from league.audit import audit
from league.clubs.models import Club, Player, Referee
from league.errors import LeagueError, require
from league.events.models import (
    Event,
    PlayerConflict,
    RefereeConflict,
    Registration,
    Round,
)
from league.i18n import engine_error_text


def lock_event(event: Event) -> Event:
    """The event row, locked against every other organiser action on the event. FOR NO
    KEY UPDATE: it excludes the others alike but not the key-share locks that inserts
    referring to the event take (audit lines, results), so those never wait on it."""
    return (
        Event.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club")
        .get(pk=event.pk)
    )


# --- event settings -----------------------------------------------------------------------

#: How much more even (percent fewer repeat meetings) a draw must be for a few pairs to
#: meet once more, where the event allows it (``allow_extra_meeting``): the engine's
#: default, named on the pages.
RELIEF_PERCENT = SearchOptions().cap_relief_percent


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
    spec: Any = event.ruleset
    if event.ruleset_overrides:
        spec = {"base": event.ruleset, "overrides": event.ruleset_overrides}
    ruleset = get_ruleset(spec)
    return tuple(sorted(s for s in ruleset.table_sizes if event.min_table <= s <= event.max_table))


def validate_event_settings(event: Event) -> None:
    """Every problem with the event's settings in one :class:`LeagueError`."""
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
    require(perms.can_create_event(actor, club))
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
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
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
    require(perms.can_manage_event(actor, rnd.event))
    lock_event(rnd.event)
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


def change_event_status(actor: Any, event: Event, to: str) -> None:
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
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    change_event_status(actor, event, to)
    return event


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
    require(staff or (own and perms.can_register_self(actor, event)))
    event = lock_event(event)
    if event.status not in ("registration", "running"):
        raise LeagueError(_("Registration for this event is not open."), code="closed")
    return _register(actor, event, player)


@transaction.atomic
def withdraw(actor: Any, registration: Registration) -> Registration:
    """Withdraw a player; already drawn rounds keep their seat until redrawn."""
    event = registration.event
    require(perms.can_withdraw(actor, event, registration.player.user_id))
    lock_event(event)
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
    require(perms.can_staff_event(actor, event))
    lock_event(event)
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
    require(perms.can_staff_event(actor, event))
    lock_event(event)
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


@transaction.atomic
def declare_player_conflict(
    actor: Any, event: Event, a: Player, b: Player, reason: str = ""
) -> PlayerConflict:
    """Two players who must never share a table in ``event`` (the draw respects it)."""
    require(perms.can_manage_event(actor, event))
    lock_event(event)
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
    require(perms.can_manage_event(actor, event))
    lock_event(event)
    audit(actor, "conflict.remove", conflict, event=event)
    conflict.delete()


@transaction.atomic
def declare_referee_conflict(
    actor: Any, event: Event, referee: Referee, player: Player, reason: str = ""
) -> RefereeConflict:
    require(perms.can_manage_event(actor, event))
    try:
        with transaction.atomic():
            conflict = RefereeConflict.objects.create(
                club=event.club, referee=referee, player=player, reason=reason
            )
    except IntegrityError:
        raise LeagueError(_("This conflict is already declared."), code="exists") from None
    audit(actor, "referee.conflict", conflict, event=event, player=player.handle)
    return conflict
