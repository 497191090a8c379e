"""Log-in in one or two steps, and enrolling a second factor.

Step one is Django's log-in form (username and password, behind the lockout). A user with
a confirmed TOTP device is not logged in yet: the session remembers who passed step one
for ``PENDING_SECONDS`` and step two asks for the code. Wrong codes count as failed log-ins.
"""

from __future__ import annotations

import time
from base64 import b32encode
from typing import Any

import segno
from axes.helpers import get_lockout_response
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django_otp import login as otp_login

from config.accounts.forms import LoginForm
from config.accounts.twofactor import (
    check_code,
    code_is_locked_out,
    confirm_device,
    has_second_factor,
    pending_device,
    remove_devices,
)

#: Session key: who passed the password step, with which backend, when.
PENDING_KEY = "_login_pending"
#: Seconds between the password and the code.
PENDING_SECONDS = 300


class CodeForm(forms.Form):
    otp_token = forms.CharField(
        label=gettext_lazy("Code from your authenticator app"),
        max_length=16,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
    )


def _safe_next(request: HttpRequest, candidate: str | None) -> str:
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse(settings.LOGIN_REDIRECT_URL)


class LoginView(auth_views.LoginView):
    """Django's log-in, with a second step for users who enrolled a second factor; an
    account that has not confirmed its e-mail address is told so (``LoginForm``)."""

    form_class = LoginForm

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        if not has_second_factor(user):
            return super().form_valid(form)
        self.request.session[PENDING_KEY] = {
            "user": str(user.pk),
            "backend": getattr(user, "backend", ""),
            "at": int(time.time()),
        }
        query = urlencode({"next": self.get_success_url()})
        return HttpResponseRedirect(f"{reverse('login-code')}?{query}")


def _pending_user(request: HttpRequest) -> tuple[Any, str] | None:
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict):
        return None
    if int(time.time()) - int(pending.get("at", 0)) > PENDING_SECONDS:
        request.session.pop(PENDING_KEY, None)
        return None
    user_id = pending.get("user")
    if not isinstance(user_id, str) or not (user_id.isascii() and user_id.isdigit()):
        return None
    user = get_user_model()._default_manager.filter(pk=user_id).first()
    if user is None or not user.is_active:
        return None
    return user, str(pending.get("backend") or "")


@sensitive_post_parameters("otp_token")
@csrf_protect
@never_cache
def login_code(request: HttpRequest) -> HttpResponse:
    """Step two: the code of the user who gave the right password a moment ago."""
    next_url = _safe_next(request, request.POST.get("next") or request.GET.get("next"))
    pending = _pending_user(request)
    if pending is None:
        messages.info(request, _("Log in again."))
        return redirect(f"{reverse('login')}?{urlencode({'next': next_url})}")
    user, backend = pending
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if code_is_locked_out(request, user.get_username()):
            request.session.pop(PENDING_KEY, None)
            locked: HttpResponse = get_lockout_response(
                request, None, {"username": user.get_username()}
            )
            return locked
        device = check_code(request, user, form.cleaned_data["otp_token"])
        if device is not None:
            request.session.pop(PENDING_KEY, None)
            auth_login(request, user, backend=backend or None)
            otp_login(request, device)
            return redirect(next_url)
        form.add_error("otp_token", _("That code is not right, or has expired."))
    return render(request, "accounts/login_code.html", {"form": form, "next": next_url})


def _qr_svg(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff"))


@login_required
@sensitive_post_parameters("otp_token")
@never_cache
def two_factor(request: HttpRequest) -> HttpResponse:
    """Enrol a TOTP app (scan, then give a code), or turn two-factor log-in off."""
    user = request.user
    next_url = _safe_next(request, request.POST.get("next") or request.GET.get("next"))
    form = CodeForm(request.POST or None)
    enrolled = has_second_factor(user)
    if enrolled:
        if request.method == "POST" and form.is_valid():
            if check_code(request, user, form.cleaned_data["otp_token"]) is not None:
                remove_devices(user)
                messages.success(request, _("Two-factor log-in is off."))
                return redirect("two-factor")
            form.add_error("otp_token", _("That code is not right, or has expired."))
        return render(
            request, "accounts/two_factor.html", {"enrolled": True, "form": form, "next": next_url}
        )
    device = pending_device(user)
    if request.method == "POST" and form.is_valid():
        if confirm_device(device, form.cleaned_data["otp_token"]):
            otp_login(request, device)
            messages.success(request, _("Two-factor log-in is on."))
            return redirect(next_url)
        form.add_error("otp_token", _("That code is not right, or has expired."))
    context = {
        "enrolled": False,
        "form": form,
        "next": next_url,
        "qr": _qr_svg(device.config_url),
        "secret": b32encode(device.bin_key).decode().rstrip("="),
    }
    return render(request, "accounts/two_factor.html", context)
