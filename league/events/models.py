"""Events and what happens at them: registrations, conflicts, rounds, tables and seats.

Rules that must always hold are database constraints, not form checks: one seat per
player per round, one player per seat, one registration per player per event.
Statuses change only through the guarded transitions of the services
(``league.events.services``, ``league.draws.services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, JSONField, Q, Value
from django.utils.translation import gettext_lazy as _

from league.clubs.models import Club, Player, Referee, Season


class EventStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    REGISTRATION = "registration", _("registration")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Event(models.Model):
    Status = EventStatus

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    ruleset = models.CharField(_("ruleset"), max_length=40, default="classic")
    ruleset_overrides = models.JSONField(_("ruleset overrides"), default=dict, blank=True)
    scoring_profile = models.CharField(_("scoring profile"), max_length=40, default="club-v1")
    tiebreak_precedence = models.JSONField(_("tie-break precedence"), default=list, blank=True)
    rounds_count = models.PositiveSmallIntegerField(_("number of rounds"))
    min_table = models.PositiveSmallIntegerField(_("smallest table"), default=8)
    max_table = models.PositiveSmallIntegerField(_("largest table"), default=12)
    allow_extra_meeting = models.BooleanField(
        _("allow one extra meeting for a more even draw"), default=True
    )
    #: Places for players; empty: unlimited. Registrations beyond it join the waiting list.
    capacity = models.PositiveIntegerField(_("places"), null=True, blank=True)
    #: (The new columns have database defaults too: code of an earlier state, a migration
    #: test or a server not yet restarted, inserts rows without them.)
    #: Self check-in (from a player's personal page) opens this many minutes before the
    #: first round's start and closes this many minutes after it (see
    #: :func:`league.events.personal.check_in_window`).
    check_in_opens_minutes = models.PositiveSmallIntegerField(
        _("self check-in opens (minutes before the first round)"), default=60, db_default=60
    )
    check_in_closes_minutes = models.PositiveSmallIntegerField(
        _("self check-in closes (minutes after the first round starts)"),
        default=15,
        db_default=15,
    )
    #: The event's weight in its season's circuit (a key of the circuit profile's
    #: ``categories``, e.g. ``club``, ``open``, ``major``).
    circuit_category = models.CharField(
        _("circuit category"), max_length=40, default="club", db_default="club"
    )
    #: The referee console's speech timers, in seconds (issue #20).
    speech_seconds = models.PositiveSmallIntegerField(
        _("speech (seconds)"), default=60, db_default=60
    )
    tie_speech_seconds = models.PositiveSmallIntegerField(
        _("tie speech (seconds)"), default=30, db_default=30
    )
    last_words_seconds = models.PositiveSmallIntegerField(
        _("last words (seconds)"), default=20, db_default=20
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="staffed_events"
    )
    referees = models.ManyToManyField(
        Referee, blank=True, related_name="events", verbose_name=_("referees")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_event_slug_per_club"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="event_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(rounds_count__gte=1) & Q(rounds_count__lte=30),
                name="event_rounds_1_to_30",
            ),
            models.CheckConstraint(
                condition=Q(min_table__gte=6)
                & Q(max_table__lte=17)
                & Q(min_table__lte=F("max_table")),
                name="event_table_size_range",
            ),
            models.CheckConstraint(
                condition=Q(registration_closes__isnull=True)
                | Q(registration_opens__isnull=True)
                | Q(registration_closes__gte=F("registration_opens")),
                name="event_registration_window",
            ),
            models.CheckConstraint(
                condition=Q(status__in=EventStatus.values),
                name="event_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="event_capacity_positive",
            ),
            models.CheckConstraint(
                condition=Q(check_in_opens_minutes__lte=1440)
                & Q(check_in_closes_minutes__lte=1440),
                name="event_check_in_window_within_a_day",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", _("registered")
    #: On the waiting list of a full event, in the order of ``waitlisted_at``.
    WAITLISTED = "waitlisted", _("on the waiting list")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Registration(models.Model):
    Status = RegistrationStatus

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    #: 1-based rounds the player has said they will miss (the draw leaves them out).
    absent_rounds = models.JSONField(_("absent from rounds"), default=list, blank=True)
    #: When the player joined the waiting list: its order (then ``pk``).
    waitlisted_at = models.DateTimeField(_("on the waiting list since"), null=True, blank=True)
    #: What the player's personal page tells them, as codes: ``[{"code", "params", "at"}]``
    #: (``promoted``: a place freed up and they are registered).
    notices = models.JSONField(default=list, db_default=Value([], JSONField()), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], name="one_registration_per_player_per_event"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RegistrationStatus.values),
                name="registration_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status=RegistrationStatus.REGISTERED) | Q(checked_in_at__isnull=True),
                name="withdrawn_registration_not_checked_in",
            ),
            models.CheckConstraint(
                condition=~Q(status=RegistrationStatus.WAITLISTED) | Q(waitlisted_at__isnull=False),
                name="waitlisted_registration_has_time",
            ),
        ]
        indexes = [
            models.Index(
                fields=["event", "waitlisted_at"],
                condition=Q(status=RegistrationStatus.WAITLISTED),
                name="registration_waiting_list",
            )
        ]


class PersonalLink(models.Model):
    """A private link to one person's page for one event: a player's (by registration) or
    a referee's. The URL carries a secret derived from the site's secret key and
    ``nonce``; only its SHA-256 is stored and looked up, so a copy of the database alone
    opens no page. A new nonce (regenerate) or ``revoked`` ends the old link."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="personal_links")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, null=True, blank=True, related_name="link"
    )
    referee = models.ForeignKey(
        Referee, on_delete=models.CASCADE, null=True, blank=True, related_name="links"
    )
    nonce = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(registration__isnull=True, referee__isnull=False)
                | Q(registration__isnull=False, referee__isnull=True),
                name="personal_link_one_person",
            ),
            models.UniqueConstraint(
                fields=["event", "referee"], name="one_personal_link_per_referee_per_event"
            ),
        ]


class PlayerConflict(models.Model):
    """Two players who must not share a table in an event (family, declared conflicts)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="player_conflicts")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="player_conflict_ordered_pair"
            ),
            models.UniqueConstraint(
                fields=["event", "player_a", "player_b"], name="unique_player_conflict"
            ),
        ]


class RefereeConflict(models.Model):
    """A referee who must not judge a player (declared; own-club conflicts are implied).

    It belongs to the club that declared it: only that club's events see it (its reason
    may be private), use it in their draws, and may remove it. Conflicts from before
    clubs owned them (``club`` empty) hold in every draw but are listed to nobody."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="referee_conflicts"
    )
    referee = models.ForeignKey(Referee, on_delete=models.CASCADE, related_name="conflicts")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "referee", "player"], name="unique_referee_conflict_per_club"
            )
        ]


class RoundStatus(models.TextChoices):
    NONE = "none", _("not drawn")
    DRAFT = "draft", _("draft")
    CONFIRMED = "confirmed", _("confirmed")
    RELEASED = "released", _("released")


#: The statuses of a round that has tables (drawn).
DRAWN_ROUND_STATUSES = (RoundStatus.DRAFT, RoundStatus.CONFIRMED, RoundStatus.RELEASED)


class Round(models.Model):
    Status = RoundStatus

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.NONE)
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status=RoundStatus.RELEASED) | Q(released_at__isnull=False),
                name="released_round_has_release_time",
            ),
        ]

    def __str__(self) -> str:
        return _("%(event)s — round %(n)s") % {"event": self.event, "n": self.number}


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    #: PROTECT: deleting a referee (or their account) must not rewrite who judged a table
    referee = models.ForeignKey(
        Referee, on_delete=models.PROTECT, null=True, blank=True, related_name="tables"
    )
    #: The referee was placed by hand: automatic assignment and redraws keep them.
    referee_pinned = models.BooleanField(_("referee placed by hand"), default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
            models.UniqueConstraint(
                fields=["round", "referee"], name="one_table_per_referee_per_round"
            ),
        ]

    def __str__(self) -> str:
        return _("%(round)s — table %(n)s") % {"round": self.round, "n": self.number}


class Seat(models.Model):
    """A player's seat at a table. ``round`` repeats ``table.round`` so the database can
    enforce one seat per player per round; services always set both together."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    #: Placed by hand (a swap): a redraw keeps this seat's table as it is.
    pinned = models.BooleanField(_("placed by hand"), default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], name="one_seat_per_player_per_round"
            ),
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=17), name="seat_number_1_to_17"
            ),
        ]
