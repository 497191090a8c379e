"""The language switcher: Django's ``set_language``, and for a signed-in user the choice
is also saved to their preferences (so it follows them to every device)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import check_for_language
from django.views.i18n import set_language as django_set_language

from league.clubs.profiles import SESSION_KEY, save_language


def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    code = request.POST.get("language", "") if request.method == "POST" else ""
    user = getattr(request, "user", None)
    if code and check_for_language(code) and user is not None and user.is_authenticated:
        save_language(user, code)
        request.session[SESSION_KEY] = code
    return response
