"""What every league page shares: anonymous visitors are sent to log in, and a POST
action turns a user-fixable error into a message and goes back where it came from."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.errors import LeagueError
from league.inputs import safe_back

View = Callable[..., HttpResponseBase]


def login_first(view: View) -> View:
    """Anonymous visitors go to the login page; the view itself checks permissions."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def page_action(view: View) -> View:
    """POST-only page action: a user-fixable error becomes a message, then back."""

    @require_POST
    @login_first
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except LeagueError as exc:
            messages.error(request, exc.message)
            back = safe_back(
                request,
                request.POST.get("next"),
                request.META.get("HTTP_REFERER"),
                default=reverse("home"),
            )
            return redirect(back)

    return wrapper


def back(request: HttpRequest, default: str) -> HttpResponse:
    return redirect(safe_back(request, request.POST.get("next"), default=default))
