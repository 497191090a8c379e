"""Django's password reset and change views, at Django's paths and template names, with
a rate limit on reset e-mails, a 400 for a bad reset link, and API tokens revoked
whenever the password changes (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.accounts.forms import bound_passwords
from config.accounts.ratelimit import over_limit
from config.accounts.signup_views import too_many
from config.accounts.tokens import revoke_tokens

#: Longest path segments of a reset link (a real one: ~3 and ~39 characters).
UID_MAX_LENGTH = 32
TOKEN_MAX_LENGTH = 64


@method_decorator(require_http_methods(["GET", "POST"]), name="dispatch")
class PasswordResetView(auth_views.PasswordResetView):
    """The e-mail goes only to an active account with that address; the page says the
    same either way (Django's default)."""

    extra_email_context = {"site_name": "Tianhei"}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if over_limit(request):
            return too_many(request)
        response: HttpResponse = super().post(request, *args, **kwargs)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """A link that is malformed, expired or already used answers 400 with its page."""

    @method_decorator(never_cache)
    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        uidb64 = str(kwargs.get("uidb64", ""))
        token = str(kwargs.get("token", ""))
        if len(uidb64) > UID_MAX_LENGTH or len(token) > TOKEN_MAX_LENGTH:
            self.validlink = False
            return self.render_to_response({"validlink": False, "form": None})
        return super().dispatch(*args, **kwargs)

    def get_form(self, form_class: Any = None) -> Any:
        form = super().get_form(form_class)
        bound_passwords(form, "new_password1", "new_password2")
        return form

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not context.get("validlink", getattr(self, "validlink", False)):
            kwargs["status"] = 400
        response: HttpResponse = super().render_to_response(context, **kwargs)
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_valid(form)
        revoke_tokens(form.user)
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    def get_form(self, form_class: Any = None) -> Any:
        form = super().get_form(form_class)
        bound_passwords(form, "old_password", "new_password1", "new_password2")
        return form

    def form_valid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_valid(form)
        revoke_tokens(form.user)
        return response
