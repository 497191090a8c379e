"""Celery tasks of events: adapters that load by id and call a function of the room."""

from __future__ import annotations

from celery import shared_task

from league.events import mail


@shared_task(name="league.notify_promoted", acks_late=True)
def notify_promoted(registration_id: int) -> bool:
    """Tell a player promoted from the waiting list (:func:`mail.send_promotion`)."""
    return mail.send_promotion(registration_id)
