"""The language a page is written in: the user's profile, else the switcher's cookie, else
the browser's Accept-Language (Django's ``LocaleMiddleware`` does the last two).

Runs after ``AuthenticationMiddleware``. The preference is copied into the session at
login and by the switcher (``config.language.set_language``), so reading it costs no
query; a session from before the preference existed is filled in once.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from league.clubs.profiles import SESSION_KEY, preferred_language


def profile_language(request: HttpRequest) -> str:
    """The signed-in user's preferred language code, or ""."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    session = request.session
    if SESSION_KEY not in session:
        session[SESSION_KEY] = preferred_language(user)
    code = session[SESSION_KEY] or ""
    return code if code and translation.check_for_language(code) else ""


class ProfileLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = profile_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
