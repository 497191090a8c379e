"""Celery tasks of the draw: adapters that load by id and call the bridge."""

from __future__ import annotations

from celery import shared_task

from league.draws import bridge


@shared_task(name="league.run_draw_job", acks_late=True)
def run_draw_job(job_id: int) -> str:
    """Run a queued draw (:func:`league.draws.bridge.run_draw_job`); returns its final status."""
    return bridge.run_draw_job(job_id).status
