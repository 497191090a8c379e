"""Stages of an event, in order. An event without stage rows is one stage (as before
stages existed): every piece of code asks :func:`league.stages.selectors.event_stages`,
which supplies that default.

A stage covers a run of the event's rounds: stage ``k`` plays the ``rounds`` rounds after
those of the stages before it, so the event's ``rounds_count`` is always the sum (the
services keep it so). ``entrants`` is the frozen cut: set once, when the organiser
confirms it, and from then on the list the draw and the standings use.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.events.models import Event


class EntryKind(models.TextChoices):
    ALL = "all", _("everyone still in")
    TOP = "top", _("the best of the standing")
    PLAYERS = "players", _("listed players")


class StageSeating(models.TextChoices):
    #: the regular draw (multi-table stages)
    DRAW = "draw", _("drawn tables")
    #: one table seated by the final design (formats.md §2)
    FINAL = "final", _("final table (seating design)")


class Stage(models.Model):
    Entry = EntryKind
    Seating = StageSeating

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    #: 0 for the first stage; the order of play.
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=60)
    rounds = models.PositiveSmallIntegerField(_("rounds (games per player)"))
    #: Blank: the event's scoring profile.
    scoring_profile = models.CharField(_("scoring profile"), max_length=40, blank=True)
    multiplier = models.DecimalField(_("multiplier"), max_digits=6, decimal_places=3, default=1)
    carry = models.DecimalField(
        _("carry-over of the earlier standing"), max_digits=6, decimal_places=3, default=1
    )
    entry_kind = models.CharField(
        _("who enters"), max_length=10, choices=EntryKind.choices, default=EntryKind.ALL
    )
    entry_top = models.PositiveSmallIntegerField(_("how many enter"), null=True, blank=True)
    #: Player ids, for ``entry_kind == players``.
    entry_players = models.JSONField(default=list, blank=True)
    hidden = models.BooleanField(_("standing hidden until the stage is finished"), default=False)
    seating = models.CharField(
        _("seating"), max_length=10, choices=StageSeating.choices, default=StageSeating.DRAW
    )
    #: The cut, frozen: player ids in the order of the standing they were cut from
    #: (null: not confirmed yet; the first stage needs none).
    entrants = models.JSONField(null=True, blank=True)
    cut_confirmed_at = models.DateTimeField(null=True, blank=True)
    cut_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: Set when the stage is over: a hidden standing becomes public.
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "position"], name="unique_stage_position"),
            models.UniqueConstraint(fields=["event", "name"], name="unique_stage_name"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="stage_rounds_positive"),
            models.CheckConstraint(condition=Q(multiplier__gt=0), name="stage_multiplier_positive"),
            models.CheckConstraint(condition=Q(carry__gte=0), name="stage_carry_not_negative"),
            models.CheckConstraint(
                condition=~Q(entry_kind=EntryKind.TOP) | Q(entry_top__gte=1),
                name="stage_top_entry_has_count",
            ),
            models.CheckConstraint(
                condition=Q(entry_kind__in=EntryKind.values), name="stage_entry_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(seating__in=StageSeating.values), name="stage_seating_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} — {self.name}"
