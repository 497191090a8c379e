"""Per-request settings that must never leak into the next request on the same thread."""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from league.clubs.models import Club


def use_club_timezone(club: Club) -> None:
    """Show and read times in the club's time zone for the rest of this request
    (:class:`RequestTimezoneMiddleware` switches back after it)."""
    with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.activate(zoneinfo.ZoneInfo(club.timezone))


class RequestTimezoneMiddleware:
    """Views show times in a club's zone (:func:`use_club_timezone`); whatever a view
    did, the next request starts in the default zone again, errors included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
