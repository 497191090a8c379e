"""The league's Celery tasks, for Celery's autodiscovery (which imports ``<app>.tasks``):
each lives in its sub-package."""

from league.draws import tasks as draws_tasks  # noqa: F401
from league.events import tasks as events_tasks  # noqa: F401
