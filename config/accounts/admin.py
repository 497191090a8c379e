"""The admin: pending sign-ups, and the user forms checking that an e-mail address is not
another account's (ignoring case), so the unique index answers with a form error, not a
500."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from config.accounts.models import PendingSignup

User = get_user_model()


def _email_is_free(form: Any) -> str:
    email = str(form.cleaned_data.get("email") or "")
    others = User._default_manager.filter(email__iexact=email)
    if form.instance.pk is not None:
        others = others.exclude(pk=form.instance.pk)
    if email and others.exists():
        raise ValidationError(
            _("An account with this e-mail address already exists."), code="email_taken"
        )
    return email


class ChangeForm(UserChangeForm):  # type: ignore[type-arg]
    def clean_email(self) -> str:
        return _email_is_free(self)


class CreationForm(AdminUserCreationForm):  # type: ignore[type-arg]
    def clean_email(self) -> str:
        return _email_is_free(self)


class AccountUserAdmin(UserAdmin):  # type: ignore[type-arg]
    form = ChangeForm
    add_form = CreationForm


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, AccountUserAdmin)


@admin.register(PendingSignup)
class PendingSignupAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Accounts waiting for their owner to confirm the e-mail address. Deleting a row here
    does not activate the account: set it active on the user's page instead."""

    list_display = ("user", "user_email", "created")
    search_fields = ("user__username", "user__email")
    ordering = ("-created",)
    readonly_fields = ("user", "created")

    @admin.display(description="e-mail", ordering="user__email")
    def user_email(self, row: PendingSignup) -> str:
        return str(row.user.email)
