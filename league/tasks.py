"""Celery tasks: adapters that load by id and call the league's services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="league.run_draw_job", acks_late=True)
def run_draw_job(job_id: int) -> str:
    """Run a queued draw (:func:`league.draws.run_draw_job`); returns its final status."""
    from league.draws import run_draw_job as run

    return run(job_id).status
