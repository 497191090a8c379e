"""The Celery application; tasks live in each app's tasks.py and only call services.

Every task's base is :class:`config.embedded_tasks.EmbeddedTask`, so that without a broker
``TASKS_RUN_IN=thread`` (``make run``) runs tasks off the request thread.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tianhei", task_cls="config.embedded_tasks:EmbeddedTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="tianhei.ping")
def ping(payload: str) -> str:
    """Echo a payload: proves a round trip through the broker and a worker."""
    return f"pong:{payload}"
