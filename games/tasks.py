"""Celery tasks of games: adapters that load by id and call a function of the app (the
results pipeline's tasks live in ``results.tasks``)."""

from __future__ import annotations

from celery import shared_task

from games import notify


@shared_task(name="games.notify_game_confirmed", acks_late=True)
def notify_game_confirmed(version_id: int) -> int:
    """E-mail the players of a confirmed (or corrected) game (:func:`notify.send_game_confirmed`;
    a retry sends nobody twice); returns how many e-mails were sent."""
    return notify.send_game_confirmed(version_id)
