"""League models: who, where and when.

Rules that must always hold are database constraints, not form checks: one seat per
player per round, one player per seat, one registration per player per event.
Statuses change only through the guarded transitions in ``league.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.i18n import draw_note_text


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    timezone = models.CharField(_("time zone"), max_length=60, default="UTC")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class ClubOrganiser(models.Model):
    """A user who runs a club's events (creates them, draws, releases)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_clubs"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_club_organiser")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"


class Player(models.Model):
    """A person who plays; the display name may be in any script, the handle is unique."""

    display_name = models.CharField(_("display name"), max_length=120)
    handle = models.SlugField(_("handle"), max_length=60, unique=True, allow_unicode=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"


class Membership(models.Model):
    """A player's membership of a club over time (``left`` empty while current)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    joined = models.DateField(_("joined"))
    left = models.DateField(_("left"), null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(left__isnull=True) | Q(left__gte=F("joined")),
                name="membership_left_after_joined",
            ),
            models.UniqueConstraint(
                fields=["player", "club"],
                condition=Q(left__isnull=True),
                name="one_current_membership_per_club",
            ),
        ]


class Referee(models.Model):
    """A user who judges tables; the grade matches referees to important tables."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee"
    )
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="referees"
    )
    grade = models.PositiveSmallIntegerField(_("grade"), default=1)

    class Meta:
        ordering = ["user__username"]
        constraints = [
            models.CheckConstraint(
                condition=Q(grade__gte=1) & Q(grade__lte=5), name="referee_grade_1_to_5"
            )
        ]

    def __str__(self) -> str:
        return self.user.get_full_name() or self.user.get_username()


class League(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="leagues"
    )

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} — {self.name}"


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

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
                condition=Q(status__in=["draft", "registration", "running", "finished"]),
                name="event_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    #: 1-based rounds the player has said they will miss (the draw leaves them out).
    absent_rounds = models.JSONField(_("absent from rounds"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], name="one_registration_per_player_per_event"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registered", "withdrawn"]),
                name="registration_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="registered") | Q(checked_in_at__isnull=True),
                name="withdrawn_registration_not_checked_in",
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


class Round(models.Model):
    class Status(models.TextChoices):
        NONE = "none", _("not drawn")
        DRAFT = "draft", _("draft")
        CONFIRMED = "confirmed", _("confirmed")
        RELEASED = "released", _("released")

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
                condition=Q(status__in=["none", "draft", "confirmed", "released"]),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status="released") | Q(released_at__isnull=False),
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


class DrawJob(models.Model):
    """A draw running in the background, with its progress and, when done, its measures."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draw_jobs")
    from_round = models.PositiveSmallIntegerField()
    to_round = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(default=0)
    #: Seat only checked-in players (the usual case at the venue); otherwise every
    #: registered player, e.g. to publish a provisional draw before the day.
    checked_in_only = models.BooleanField(default=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    metrics = models.JSONField(default=dict, blank=True)
    #: ``[{"code", "params"}]``: the engine's warnings and the league's notes, as codes
    #: (rendered in the reader's language by :func:`league.i18n.draw_note_text`).
    warnings = models.JSONField(default=list, blank=True)
    #: ``{"code", "params"}`` when the draw failed, else null.
    error = models.JSONField(null=True, blank=True, default=None)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__gte=0) & Q(progress__lte=1), name="draw_progress_0_to_1"
            ),
            models.CheckConstraint(
                condition=Q(to_round__gte=F("from_round")), name="draw_job_round_range"
            ),
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(status__in=["queued", "running"]),
                name="one_active_draw_job_per_event",
            ),
        ]

    def error_text(self) -> str:
        """Why the draw failed, in the active language ("" if it did not)."""
        return draw_note_text(self.error) if self.error else ""

    def warning_texts(self) -> list[str]:
        """The draw's warnings in the active language."""
        return [draw_note_text(w) for w in self.warnings or []]


class AuditEntry(models.Model):
    """Append-only log of every state change: who did what to which object, and when."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=60)
    target_type = models.CharField(max_length=60)
    target_id = models.BigIntegerField()
    event = models.ForeignKey(
        Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        indexes = [models.Index(fields=["target_type", "target_id"])]


from league import results_models  # noqa: E402, F401  (standings/ratings read tables)
from league.profile_models import Preferences  # noqa: E402, F401  (language preference)
