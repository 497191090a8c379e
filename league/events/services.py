"""Event writes: settings, status, schedule, registrations, check-in and conflicts.

Each service takes the acting user first (``actor``), checks it with
:mod:`league.permissions` (:func:`league.errors.require`: a 403), locks the event row
(:func:`lock_event`) so concurrent changes to one event run one after another, validates
the move (raising :class:`league.errors.UserError` with a code, params and a status),
writes, and appends an audit line (:func:`league.audit.audit`). Views and serializers
never set a status themselves.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.rulesets import get_ruleset
from engine.scoring import get_profile
from engine.seating import SearchOptions
from engine.standings import validate_precedence
from league import permissions as perms
from league.audit import audit
from league.clubs.circuits import category_problems
from league.clubs.models import Club, Player, Referee
from league.errors import EngineRefusal, UserError, every_problem, require
from league.events import waitlist
from league.events.models import (
    Event,
    EventStatus,
    Registration,
    Round,
)
from league.events.signals import event_season_changed
from league.permissions import Viewer


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
    "capacity",
    "check_in_opens_minutes",
    "check_in_closes_minutes",
    "circuit_category",
    "speech_seconds",
    "tie_speech_seconds",
    "last_words_seconds",
)

#: The bounds of the referee console's speech timers, in seconds (issue #20).
SPEECH_SECONDS = (5, 600)


def allowed_table_sizes(event: Event) -> tuple[int, ...]:
    """Table sizes this event may use: the ruleset's sizes within the event's range."""
    spec: Any = event.ruleset
    if event.ruleset_overrides:
        spec = {"base": event.ruleset, "overrides": event.ruleset_overrides}
    ruleset = get_ruleset(spec)
    return tuple(sorted(s for s in ruleset.table_sizes if event.min_table <= s <= event.max_table))


def validate_event_settings(event: Event) -> None:
    """Every problem with the event's settings in one refusal (``event_settings``; each
    problem's code in ``params["problems"]``)."""
    problems: list[UserError] = []
    if event.ends_on and event.starts_on and event.ends_on < event.starts_on:
        problems.append(UserError(_("The event cannot end before it starts."), code="dates"))
    if not 1 <= (event.rounds_count or 0) <= 30:
        problems.append(
            UserError(_("The number of rounds must be between 1 and 30."), code="rounds_count")
        )
    if not 6 <= event.min_table <= event.max_table <= 17:
        problems.append(
            UserError(
                _("Table sizes must satisfy 6 ≤ smallest ≤ largest ≤ 17."), code="table_range"
            )
        )
    if event.capacity is not None and event.capacity < 1:
        problems.append(UserError(_("Give at least one place, or none."), code="capacity"))
    if not (
        0 <= event.check_in_opens_minutes <= 1440 and 0 <= event.check_in_closes_minutes <= 1440
    ):
        problems.append(
            UserError(
                _("Check-in may open and close at most a day around the first round."),
                code="check_in_window",
            )
        )
    lo, hi = SPEECH_SECONDS
    timers = (event.speech_seconds, event.tie_speech_seconds, event.last_words_seconds)
    if not all(isinstance(t, int) and lo <= t <= hi for t in timers):
        problems.append(
            UserError(
                _("Speech timers must be between %(lo)s and %(hi)s seconds."),
                code="speech_seconds",
                params={"lo": lo, "hi": hi},
            )
        )
    if (
        event.registration_opens
        and event.registration_closes
        and event.registration_closes < event.registration_opens
    ):
        problems.append(
            UserError(_("Registration cannot close before it opens."), code="registration_dates")
        )
    try:
        sizes = allowed_table_sizes(event)
        if not sizes and not problems:
            problems.append(
                UserError(
                    _("The ruleset deals cards for no table size between %(lo)s and %(hi)s."),
                    code="no_table_size",
                    params={"lo": event.min_table, "hi": event.max_table},
                )
            )
    except EngineError as exc:
        problems.append(EngineRefusal(_("Ruleset: %(error)s"), code="ruleset", error=exc))
    try:
        get_profile(event.scoring_profile)
    except EngineError as exc:
        problems.append(
            EngineRefusal(_("Scoring profile: %(error)s"), code="scoring_profile", error=exc)
        )
    if event.tiebreak_precedence:
        try:
            validate_precedence(event.tiebreak_precedence)
        except EngineError as exc:
            problems.append(EngineRefusal(_("Tie-breaks: %(error)s"), code="tiebreaks", error=exc))
    problems.extend(category_problems(event))  # one of its season's circuit categories
    if problems:
        raise every_problem(problems, code="event_settings")


def _sync_rounds(event: Event, round_starts: Sequence[datetime | None] | None) -> None:
    """Make rounds 1..rounds_count exist; drop undrawn rounds beyond it."""
    existing = {r.number: r for r in event.rounds.all()}
    extra = [r for n, r in existing.items() if n > event.rounds_count]
    if any(r.status != Round.Status.NONE for r in extra):
        raise UserError(
            _("Rounds that are already drawn cannot be removed; redraw them first."),
            code="rounds_drawn",
            status=409,
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
    actor: Viewer,
    club: Club,
    *,
    round_starts: Sequence[datetime | None] | None = None,
    staff: Iterable[User] = (),
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
        raise UserError(_("That season belongs to another club's league."), code="invalid")
    event = Event(club=club, **fields)
    validate_event_settings(event)
    if Event.objects.filter(club=club, slug=event.slug).exists():
        raise UserError(
            _("This club already has an event with the address “%(slug)s”."),
            code="slug_taken",
            params={"slug": event.slug},
            status=409,
        )
    event.save()
    event.staff.set(list(staff))
    event.referees.set(list(referees))
    _sync_rounds(event, round_starts)
    audit(actor, "event.create", event, event=event, name=event.name)
    return event


@transaction.atomic
def update_event(
    actor: Viewer,
    event: Event,
    *,
    round_starts: Sequence[datetime | None] | None = None,
    staff: Iterable[User] | None = None,
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
        raise UserError(_("A finished event can no longer be edited."), code="finished", status=409)
    drawn = event.rounds.exclude(status=Round.Status.NONE).exists()
    locked = {"ruleset", "ruleset_overrides", "min_table", "max_table"}
    changed = {k: v for k, v in fields.items() if getattr(event, k) != v}
    if drawn and locked & set(changed):
        raise UserError(
            _("Ruleset and table sizes cannot change once rounds are drawn."),
            code="drawn",
            status=409,
        )
    if "rounds_count" in changed and event.stages.exists():  # the sum of the stages' rounds
        raise UserError(
            _("The rounds of this event are its stages' rounds: change them on the Stages page."),
            code="rounds_by_stages",
            status=409,
        )
    if "slug" in changed and Event.objects.filter(club=event.club, slug=changed["slug"]).exists():
        raise UserError(
            _("This club already has an event with the address “%(slug)s”."),
            code="slug_taken",
            params={"slug": changed["slug"]},
            status=409,
        )
    seasons = {event.season_id, getattr(changed.get("season"), "pk", None)} - {None}
    for key, value in changed.items():
        setattr(event, key, value)
    validate_event_settings(event)
    event.save()
    if "season" in changed:
        event_id = event.pk
        transaction.on_commit(
            lambda: event_season_changed.send(Event, event_id=event_id, seasons=seasons)
        )
    if "capacity" in changed:
        waitlist.promote(actor, event)
    if staff is not None:
        event.staff.set(list(staff))
    if referees is not None:
        event.referees.set(list(referees))
    _sync_rounds(event, round_starts)
    audit(actor, "event.update", event, event=event, fields=sorted(changed))
    return event


@transaction.atomic
def set_round_start(actor: Viewer, rnd: Round, starts_at: datetime | None) -> Round:
    require(perms.can_manage_event(actor, rnd.event))
    lock_event(rnd.event)
    rnd.refresh_from_db()
    before = rnd.starts_at
    rnd.starts_at = starts_at
    rnd.save(update_fields=["starts_at"])
    audit(actor, "round.schedule", rnd, event=rnd.event, before=before, after=starts_at)
    return rnd


EVENT_TRANSITIONS: dict[str, tuple[EventStatus, ...]] = {
    Event.Status.DRAFT: (Event.Status.REGISTRATION,),
    Event.Status.REGISTRATION: (Event.Status.DRAFT, Event.Status.RUNNING),
    Event.Status.RUNNING: (Event.Status.FINISHED,),
    Event.Status.FINISHED: (),
}

#: The statuses in which players register and check in.
OPEN_STATUSES = (Event.Status.REGISTRATION, Event.Status.RUNNING)


def change_event_status(actor: Viewer, event: Event, to: str) -> None:
    """The one guarded move of an event's status; the caller holds the row lock."""
    if to not in EVENT_TRANSITIONS.get(event.status, ()):
        raise UserError(
            _("An event cannot go from %(from)s to %(to)s."),
            code="bad_transition",
            params={"from": Event.Status(event.status), "to": _status_or_text(to)},
        )
    if to == Event.Status.DRAFT and event.registrations.exists():
        raise UserError(
            _("Players have registered; the event cannot go back to draft."),
            code="has_players",
            status=409,
        )
    before = event.status
    event.status = to
    event.save(update_fields=["status"])
    audit(actor, "event.status", event, event=event, before=before, after=to)


@transaction.atomic
def transition_event(actor: Viewer, event: Event, to: str) -> Event:
    """Draft → registration → running → finished (and registration → draft while empty)."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    change_event_status(actor, event, to)
    return event


def _status_or_text(value: str) -> EventStatus | str:
    """An event status asked for: the member (shown by its label) if it is one."""
    return Event.Status(value) if value in Event.Status.values else value


def _register(actor: Viewer, event: Event, player: Player) -> Registration:
    """Register ``player`` (the caller holds the event lock): a place while there is one,
    else the end of the waiting list (:mod:`league.events.waitlist`)."""
    registration, created = Registration.objects.get_or_create(
        event=event, player=player, defaults={"status": Registration.Status.WITHDRAWN}
    )
    if not created and registration.status != Registration.Status.WITHDRAWN:
        raise UserError(
            _("%(player)s is already registered.")
            if registration.status == Registration.Status.REGISTERED
            else _("%(player)s is already on the waiting list."),
            code="already_registered",
            params={"player": player.display_name},
            status=409,
        )
    waitlist.place(registration, event)
    registration.save(update_fields=["status", "waitlisted_at"])
    audit(
        actor,
        "registration.register"
        if registration.status == Registration.Status.REGISTERED
        else "registration.waitlist",
        registration,
        event=event,
        player=player.handle,
    )
    return registration


@transaction.atomic
def register_player(actor: Viewer, event: Event, player: Player) -> Registration:
    """Staff register anyone (registration or running); a player registers themselves.
    A full event puts them on its waiting list (``status`` tells which)."""
    own = player.user_id is not None and getattr(actor, "pk", None) == player.user_id
    staff = perms.can_staff_event(actor, event)
    require(staff or (own and perms.can_register_self(actor, event)))
    event = lock_event(event)
    if event.status not in OPEN_STATUSES:
        raise UserError(_("Registration for this event is not open."), code="closed", status=409)
    return _register(actor, event, player)


@transaction.atomic
def withdraw(actor: Viewer, registration: Registration) -> Registration:
    """Withdraw a player (or take them off the waiting list); already drawn rounds keep
    their seat until redrawn. A freed place goes to the first on the waiting list."""
    event = registration.event
    require(perms.can_withdraw(actor, event, registration.player.user_id))
    event = lock_event(event)
    registration.refresh_from_db()
    if registration.status == Registration.Status.WITHDRAWN:
        raise UserError(_("This player has already withdrawn."), code="withdrawn", status=409)
    was_registered = registration.status == Registration.Status.REGISTERED
    registration.status = Registration.Status.WITHDRAWN
    registration.checked_in_at = None
    registration.waitlisted_at = None
    registration.save(update_fields=["status", "checked_in_at", "waitlisted_at"])
    audit(actor, "registration.withdraw", registration, event=event)
    if was_registered:
        waitlist.promote(actor, event)
    return registration


@transaction.atomic
def check_in(actor: Viewer, registration: Registration, *, undo: bool = False) -> Registration:
    event = registration.event
    require(perms.can_staff_event(actor, event))
    lock_event(event)
    registration.refresh_from_db()
    if registration.status == Registration.Status.WITHDRAWN:
        raise UserError(_("A withdrawn player cannot check in."), code="withdrawn", status=409)
    if registration.status != Registration.Status.REGISTERED:
        raise UserError(
            _("A player on the waiting list cannot check in."), code="waitlisted", status=409
        )
    if event.status not in OPEN_STATUSES:
        raise UserError(_("Check-in is closed for this event."), code="closed", status=409)
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
def set_absences(actor: Viewer, registration: Registration, rounds: Iterable[int]) -> Registration:
    """Record the rounds a player will miss; the next draw leaves them out of those."""
    event = registration.event
    require(perms.can_staff_event(actor, event))
    lock_event(event)
    wanted = sorted(set(rounds))
    bad = [r for r in wanted if not 1 <= r <= event.rounds_count]
    if bad:
        raise UserError(
            _("Rounds %(bad)s do not exist (the event has %(n)s)."),
            code="invalid",
            params={"bad": bad, "n": event.rounds_count},
        )
    registration.absent_rounds = wanted
    registration.save(update_fields=["absent_rounds"])
    audit(actor, "registration.absences", registration, event=event, rounds=wanted)
    return registration
