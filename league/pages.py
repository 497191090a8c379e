"""What every league page shares: anonymous visitors are sent to log in, and a POST
action is a POST. A refusal (:class:`league.errors.UserError`) is answered by
:class:`league.errors.UserErrorMiddleware`: a message, then back where the user came from."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

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
    """A POST-only page action for a signed-in user (its refusals: the middleware's)."""
    return require_POST(login_first(view))


def back(request: HttpRequest, default: str) -> HttpResponse:
    return redirect(safe_back(request, request.POST.get("next"), default=default))
