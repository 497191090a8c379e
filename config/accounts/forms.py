"""The sign-up form, the form asking for a new confirmation link, and the log-in form
that tells an unconfirmed account what to do."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from config.accounts.signup import email_taken, is_pending

#: The longest password read from a form (hashing is the costly part, not the length).
PASSWORD_MAX_LENGTH = 4096
#: The longest address: what ``auth_user.email`` holds.
EMAIL_MAX_LENGTH = 254


def bound_passwords(form: forms.BaseForm, *names: str) -> None:
    """Refuse a password longer than ``PASSWORD_MAX_LENGTH`` (a form error)."""
    for name in names:
        field = form.fields.get(name)
        if field is None:
            continue
        field.validators.append(MaxLengthValidator(PASSWORD_MAX_LENGTH))
        field.widget.attrs["maxlength"] = str(PASSWORD_MAX_LENGTH)


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """Username, e-mail address, password twice (Django's validators)."""

    error_messages = {
        **UserCreationForm.error_messages,
        "email_taken": _(
            "An account with this e-mail address already exists. If it is yours, log in or"
            " reset its password; if it is not confirmed yet, ask for a new link from the"
            " log-in page."
        ),
    }

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        email.required = True
        email.validators.append(MaxLengthValidator(EMAIL_MAX_LENGTH))
        email.widget.attrs.update({"maxlength": str(EMAIL_MAX_LENGTH), "autocomplete": "email"})
        self.fields["username"].widget.attrs["autofocus"] = True
        bound_passwords(self, "password1", "password2")

    def clean_email(self) -> str:
        email = get_user_model()._default_manager.normalize_email(self.cleaned_data["email"])
        if email_taken(email):
            raise ValidationError(self.error_messages["email_taken"], code="email_taken")
        return str(email)


class ResendForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=EMAIL_MAX_LENGTH,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )


class LoginForm(AuthenticationForm):
    """Django's log-in form; the right password of an account that has not confirmed its
    address yet gets a message saying so (and where to ask for a new link) instead of
    "wrong password". Never while the lockout is on: it is no way round it."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "unverified": _(
            "Confirm your e-mail address first: follow the link we sent you,"
            " or ask for a new one below."
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bound_passwords(self, "password")

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError as error:
            if error.code == "invalid_login" and self._unverified():
                raise ValidationError(
                    self.error_messages["unverified"], code="unverified"
                ) from None
            raise

    def _unverified(self) -> bool:
        if self.request is None or getattr(self.request, "axes_locked_out", False):
            return False
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password:
            return False
        model = get_user_model()
        user = model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()
        return bool(
            user is not None
            and not user.is_active
            and is_pending(user)
            and user.check_password(password)
        )
