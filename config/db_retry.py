"""A read whose database connection dropped is retried once (issue 15, "outages").

A PostgreSQL restart, a failover or an idle connection killed by the server or a pooler
fails the next query with ``OperationalError`` / ``InterfaceError``. For a GET or HEAD —
which change nothing, so running them twice is harmless — the middleware closes the
broken connections and calls the view once more on a fresh connection, before any
response was produced. Writes are never retried: the first attempt may have committed.

``CONN_HEALTH_CHECKS`` already replaces a connection found dead at the start of a
request; this covers the connection that dies during one. The retry only happens outside
a transaction (a view's ``atomic`` block has ended by the time its exception arrives here).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponseBase
from django.template.response import SimpleTemplateResponse

logger = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD"})
_VIEW = "_db_retry_view"
_RETRIED = "_db_retry_done"


def _close_broken_connections() -> bool:
    """Close every connection that is open outside a transaction; False if one is inside
    an ``atomic`` block (then retrying is not safe)."""
    for conn in connections.all(initialized_only=True):
        if conn.in_atomic_block:
            return False
    for conn in connections.all(initialized_only=True):
        try:
            conn.close()
        except (OperationalError, InterfaceError):
            conn.connection = None  # already gone: forget it, connect afresh on next use
    return True


class RetryDroppedConnectionMiddleware:
    """Retries a GET/HEAD view once when its database connection dropped."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponseBase],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        setattr(request, _VIEW, (view_func, view_args, view_kwargs))

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        view = getattr(request, _VIEW, None)
        if request.method not in SAFE_METHODS or view is None or getattr(request, _RETRIED, False):
            return None
        if not _close_broken_connections():
            return None
        setattr(request, _RETRIED, True)
        logger.warning(
            "database connection lost during %s %s (%s); retrying once",
            request.method,
            request.path,
            exception,
        )
        view_func, view_args, view_kwargs = view
        response: HttpResponseBase = view_func(request, *view_args, **view_kwargs)
        if isinstance(response, SimpleTemplateResponse):  # and DRF's Response
            response.render()  # the first attempt may have failed while rendering
        return response
