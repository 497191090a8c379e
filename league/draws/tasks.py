"""Celery tasks of the draw: adapters that load by id and call the bridge."""

from __future__ import annotations

from celery import shared_task

from league.draws import bridge, notify


@shared_task(name="league.run_draw_job", acks_late=True)
def run_draw_job(job_id: int) -> str:
    """Run a queued draw (:func:`league.draws.bridge.run_draw_job`); returns its final status."""
    return bridge.run_draw_job(job_id).status


@shared_task(name="league.notify_round_released", acks_late=True)
def notify_round_released(round_id: int) -> int:
    """E-mail a released round's seated players (:func:`notify.send_round_released`; a
    retry sends nobody twice); returns how many e-mails were sent."""
    return notify.send_round_released(round_id)
