"""Game models: a game per table (or a stand-alone club game), its record's versions,
its status history and the referee's live sheet.

Rules that must always hold are database constraints: one game per table; a game
belongs to a table or to a club, never both; one confirmed version per game; a
confirmed version was valid and complete and was confirmed by someone other than its
submitter. Statuses change only through the guarded transitions in ``games.services``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.models import Club, Event, Player, Referee, Round, Table


class Game(models.Model):
    """One game of the Killer game: at a table of a round, or stand-alone at a club."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        RELEASED = "released", _("released")
        VOIDED = "voided", _("voided")

    #: PROTECT: a table that has a game is never deleted with it (a redraw keeps such
    #: tables; a void detaches the game first).
    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="game"
    )
    # Stand-alone club games only (an event game takes these from its table and event).
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    referee = models.ForeignKey(
        Referee, on_delete=models.PROTECT, null=True, blank=True, related_name="club_games"
    )
    ruleset = models.JSONField(_("ruleset"), null=True, blank=True)
    #: Player handles in seat order (seat 1 first); a table's seating comes from the draw.
    players = models.JSONField(_("players"), default=list, blank=True)
    title = models.CharField(_("title"), max_length=160, blank=True)
    played_on = models.DateField(_("played on"), null=True, blank=True)

    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    #: A past result imported from a spreadsheet: the stable key of its row, so that
    #: importing the same file twice changes nothing (empty for every other game).
    import_key = models.CharField(max_length=64, blank=True, default="", db_default="")
    #: Bumped by every change; clients send it back (or an ETag) to detect stale writes.
    revision = models.PositiveIntegerField(default=1)
    # A voided event game leaves its table (so the table can be redrawn or played again)
    # and keeps where it was: its event, round and table numbers, and its seating in
    # ``players``. It keeps every version and sheet step and counts for nothing.
    voided_event = models.ForeignKey(
        Event, on_delete=models.PROTECT, null=True, blank=True, related_name="voided_games"
    )
    voided_round = models.PositiveSmallIntegerField(null=True, blank=True)
    voided_table = models.PositiveSmallIntegerField(null=True, blank=True)
    void_reason = models.TextField(_("reason for the void"), blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["import_key"], condition=~Q(import_key=""), name="unique_game_import_key"
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=False) & Q(club__isnull=True) & Q(referee__isnull=True))
                | (Q(table__isnull=True) & Q(club__isnull=False))
                | (
                    Q(status="voided")
                    & Q(table__isnull=True)
                    & Q(club__isnull=True)
                    & Q(voided_event__isnull=False)
                ),
                name="game_at_a_table_or_a_club",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "submitted", "confirmed", "released", "voided"]),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status="voided") | (Q(voided_at__isnull=False) & ~Q(void_reason="")),
                name="voided_game_has_time_and_reason",
            ),
        ]

    def __str__(self) -> str:
        if self.table_id is not None:
            return str(self.table)
        if self.voided_event_id is not None:
            return _("%(event)s — round %(r)s — table %(t)s (voided)") % {
                "event": self.voided_event,
                "r": self.voided_round,
                "t": self.voided_table,
            }
        return self.title or _("%(club)s — game %(n)s") % {"club": self.club, "n": self.pk}

    # --- facts derived from the table (stored once, there) ---------------------------------

    @property
    def event(self) -> Event | None:
        if self.table is not None:
            return self.table.round.event
        return self.voided_event  # None for a club game

    @property
    def voided(self) -> bool:
        return self.status == self.Status.VOIDED

    @property
    def round(self) -> Round | None:
        return self.table.round if self.table is not None else None

    @property
    def the_club(self) -> Club:
        event = self.event
        if event is not None:
            return event.club
        assert self.club is not None
        return self.club

    @property
    def game_referee(self) -> Referee | None:
        return self.table.referee if self.table is not None else self.referee

    def ruleset_spec(self) -> Any:
        """The ruleset the game is played under: the event's, or the club game's own."""
        event = self.event
        if event is not None:
            if event.ruleset_overrides:
                return {"base": event.ruleset, "overrides": event.ruleset_overrides}
            return event.ruleset
        return self.ruleset or "classic"

    @property
    def released(self) -> bool:
        return self.status == self.Status.RELEASED


class GameVersion(models.Model):
    """One submitted record of a game. Append-only: the record never changes; only the
    status moves (draft/submitted → confirmed → superseded) through ``games.services``."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        SUPERSEDED = "superseded", _("superseded")

    class Source(models.TextChoices):
        SHEET = "sheet", _("live sheet")
        PAPER = "paper", _("paper result")
        UPLOAD = "upload", _("upload")
        API = "api", _("API")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    record = models.JSONField(_("record"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    #: PROTECT (and confirmed_by too): an account that submitted or confirmed a record
    #: is deactivated, never deleted — "not your own submission" depends on it
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    valid = models.BooleanField(default=False)
    #: Engine status: finished, in-progress or result-only.
    completeness = models.CharField(max_length=20, blank=True)
    violations = models.JSONField(default=list, blank=True)
    winner = models.CharField(max_length=10, blank=True)
    ended = models.CharField(max_length=20, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_game_version_number"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="confirmed"),
                name="one_confirmed_version_per_game",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "submitted", "confirmed", "superseded"]),
                name="game_version_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="draft")
                | (Q(valid=True) & Q(completeness__in=["finished", "result-only"])),
                name="only_valid_complete_versions_leave_draft",
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed")
                | (
                    Q(confirmed_by__isnull=False)
                    & Q(confirmed_at__isnull=False)
                    & ~Q(confirmed_by=F("submitted_by"))
                ),
                name="confirmed_by_another_official",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.number}"


class GameStatusChange(models.Model):
    """History of a game's guarded status transitions (and of corrections)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="history")
    from_status = models.CharField(max_length=20)
    to_status = models.CharField(max_length=20)
    version = models.ForeignKey(
        GameVersion, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "at", "pk"]


class GameSheet(models.Model):
    """The referee's live sheet: the steps played so far, replayed through the engine.

    ``steps`` is a list of ``{"id", "type", ...}`` objects (see ``games.sheet``); the first
    is the deal. ``revision`` counts accepted changes (a step or an undo) so a client
    that missed an answer can tell whether its step landed.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="sheet")
    revision = models.PositiveIntegerField(default=0)
    steps = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )


class Protest(models.Model):
    """A protest against a released game's record, pointing to a phase, and its ruling.

    Filed by a player of the game (from their personal page, or signed in) or by an
    organiser of its event; ruled by the event's chief referee (``games.protests``):
    ``upheld`` names the corrected version it led to, ``rejected`` says why. Open
    protests are seen by the game's officials and the filer only; ruled ones are public.
    Written only through ``games.protests``.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")

    #: The longest protest text and ruling, and the longest evidence link.
    TEXT_MAX = 2000
    URL_MAX = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="protests")
    #: The player it comes from (None when an organiser files it).
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="protests"
    )
    #: The account that filed it (None when a player filed from their personal link).
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: Where in the record: "night 2", "day 1", "day 1 ballot 2", "awards", "result" or
    #: "setup" (the engine's ``where`` words), checked against the game's record.
    phase = models.CharField(_("phase"), max_length=24)
    text = models.TextField(_("protest"), max_length=TEXT_MAX)
    evidence = models.URLField(_("photo or video link"), max_length=URL_MAX, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    ruling = models.TextField(_("ruling"), max_length=TEXT_MAX, blank=True)
    #: PROTECT like a version's confirmer: an account that ruled is deactivated, never
    #: deleted.
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    #: The corrected version an upheld protest led to (submitted by the ruler, confirmed
    #: by another official through the normal confirmation).
    version = models.ForeignKey(
        GameVersion, on_delete=models.RESTRICT, null=True, blank=True, related_name="protests"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "upheld", "rejected"]),
                name="protest_status_valid",
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="open")
                    & Q(ruled_by__isnull=True)
                    & Q(ruled_at__isnull=True)
                    & Q(ruling="")
                )
                | (
                    Q(status__in=["upheld", "rejected"])
                    & Q(ruled_by__isnull=False)
                    & Q(ruled_at__isnull=False)
                    & ~Q(ruling="")
                ),
                name="ruled_protest_has_ruling_and_ruler",
            ),
            models.CheckConstraint(
                condition=Q(status="upheld", version__isnull=False)
                | (~Q(status="upheld") & Q(version__isnull=True)),
                name="upheld_protest_names_its_version",
            ),
            models.CheckConstraint(
                condition=Q(evidence="")
                | Q(evidence__startswith="http://")
                | Q(evidence__startswith="https://"),
                name="protest_evidence_is_a_web_link",
            ),
            models.CheckConstraint(condition=~Q(text=""), name="protest_has_text"),
        ]
        indexes = [models.Index(fields=["status", "game"], name="protest_status_game")]

    def __str__(self) -> str:
        return _("Protest %(n)s on %(game)s") % {"n": self.pk, "game": self.game}

    @property
    def ruled(self) -> bool:
        return self.status != self.Status.OPEN
