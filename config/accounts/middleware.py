"""Idle sessions end; staff give a second factor when the site requires it."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY as AUTH_SESSION_KEY
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

#: Session key of the last time the session's expiry was pushed forward.
TOUCHED_KEY = "_touched"
#: Push the expiry forward at most this often: a write a minute, not one a request.
TOUCH_EVERY_SECONDS = 60


class SessionIdleMiddleware:
    """A signed-in session expires ``SESSION_COOKIE_AGE`` seconds after its last request.

    Django sets a session's expiry when it saves it; this saves a non-empty session at
    most once a minute, so the cookie and the stored session both end after the idle
    time (within a minute) instead of that long after log-in. Only a signed-in session is
    written: an anonymous visitor's never is.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and session.session_key and session.get(AUTH_SESSION_KEY):
            now = int(time.time())
            touched = session.get(TOUCHED_KEY)
            if not isinstance(touched, int) or now - touched >= TOUCH_EVERY_SECONDS:
                session[TOUCHED_KEY] = now
        return self.get_response(request)


def needs_second_factor(request: HttpRequest) -> bool:
    """Staff or a superuser who has not given a code this session, when
    ``OTP_REQUIRED_FOR_STAFF`` is on."""
    if not getattr(settings, "OTP_REQUIRED_FOR_STAFF", False):
        return False
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    if not (user.is_staff or user.is_superuser):
        return False
    is_verified = getattr(user, "is_verified", None)
    return not (callable(is_verified) and is_verified())


class RequireTwoFactorMiddleware:
    """With ``OTP_REQUIRED_FOR_STAFF``, staff reach nothing but enrolment and log-out
    until they have given a code: a page redirects to enrolment, the API answers 403."""

    EXEMPT_NAMES = ("two-factor", "logout", "login", "login-code", "set_language", "healthz")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if needs_second_factor(request) and not self._exempt(request.path_info):
            if request.path_info.startswith("/api/"):
                return JsonResponse(
                    {"detail": _("Two-factor log-in is required for staff: enrol first.")},
                    status=403,
                )
            target = reverse("two-factor")
            return redirect(f"{target}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)

    def _exempt(self, path: str) -> bool:
        static = "/" + str(settings.STATIC_URL).lstrip("/")
        if path.startswith(static):
            return True
        return any(path == reverse(name) for name in self.EXEMPT_NAMES)


def stamp_login(sender: object, request: HttpRequest | None = None, **kwargs: object) -> None:
    """A log-in saves the session anyway: mark it touched, so the next minute's requests
    write nothing (``user_logged_in`` receiver)."""
    session = getattr(request, "session", None)
    if session is not None:
        session[TOUCHED_KEY] = int(time.time())
