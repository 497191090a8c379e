"""/healthz: is the database answering, and is the task broker?"""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not answering"; say which
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "ok (eager: tasks run in-process)"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database_status()
    broker = _broker_status()
    healthy = database == "ok" and broker.startswith("ok")
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )
