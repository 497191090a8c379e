"""Sign-up, the confirmation link, and asking for a new one (docs/accounts.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from config.accounts import signup
from config.accounts.forms import ResendForm, SignupForm
from config.accounts.ratelimit import over_limit
from league.inputs import safe_back

#: The backend a confirmed account is logged in with (the password was set at sign-up).
BACKEND = "django.contrib.auth.backends.ModelBackend"
#: Session key: whether the last confirmation e-mail went out (for the "done" page).
SENT_KEY = "_signup_sent"


def _next(request: HttpRequest) -> str:
    """Where the new account goes once confirmed (an invitation it came from, …): a path
    of this site from the form or the link, else nowhere in particular ("")."""
    return safe_back(request, request.POST.get("next"), request.GET.get("next"), default="")


def too_many(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/rate_limited.html", status=429)


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def signup_view(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if over_limit(request):
            return too_many(request)
        if form.is_valid():
            try:
                user = signup.create_account(form)
            except signup.EmailTaken:
                form.add_error("email", form.error_messages["email_taken"])
            else:
                sent = signup.send_verification(request, user, _next(request))
                request.session[SENT_KEY] = sent
                return redirect("signup-done")
    return render(request, "accounts/signup.html", {"form": form, "next": _next(request)})


@never_cache
@require_http_methods(["GET"])
def signup_done(request: HttpRequest) -> HttpResponse:
    sent = request.session.pop(SENT_KEY, True)
    return render(request, "accounts/signup_done.html", {"sent": sent})


@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button (a mail scanner that follows links confirms nothing and logs
    no one in); POST confirms the address, activates the account and logs it in."""
    check = signup.check_token(token)
    if check.problem == "done":
        messages.info(request, _("Your e-mail address is already confirmed: log in."))
        return redirect("login")
    if check.problem:
        return render(
            request, "accounts/verify_invalid.html", {"problem": check.problem}, status=400
        )
    if request.method == "POST":
        if not signup.confirm(check.user):
            messages.info(request, _("Your e-mail address is already confirmed: log in."))
            return redirect("login")
        auth_login(request, check.user, backend=BACKEND)
        messages.success(request, _("Your e-mail address is confirmed. Welcome!"))
        return redirect(_next(request) or settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/verify.html", {"account": check.user, "next": _next(request)})


@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def resend(request: HttpRequest) -> HttpResponse:
    """A new link for an account waiting for confirmation. The answer is the same
    whether or not the address belongs to one: it tells no one who has an account."""
    form = ResendForm(request.POST or None)
    if request.method == "POST":
        if over_limit(request):
            return too_many(request)
        if form.is_valid():
            user = signup.pending_user_for_email(form.cleaned_data["email"])
            if user is not None:
                signup.send_verification(request, user)
            messages.success(
                request,
                _(
                    "If an account waiting for confirmation uses this address,"
                    " a new link is on its way."
                ),
            )
            return redirect("login")
    return render(request, "accounts/resend.html", {"form": form})
