"""A draw running in the background: its job row."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.events.models import Event
from league.i18n import draw_note_text


class DrawJobStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


#: A draw job that has not ended yet (one at most per event).
UNFINISHED = (DrawJobStatus.QUEUED, DrawJobStatus.RUNNING)


class DrawJob(models.Model):
    """A draw running in the background, with its progress and, when done, its measures."""

    Status = DrawJobStatus

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
                condition=Q(status__in=UNFINISHED),
                name="one_active_draw_job_per_event",
            ),
        ]

    def error_text(self) -> str:
        """Why the draw failed, in the active language ("" if it did not)."""
        return draw_note_text(self.error) if self.error else ""

    def warning_texts(self) -> list[str]:
        """The draw's warnings in the active language."""
        return [draw_note_text(w) for w in self.warnings or []]
