from django.contrib import admin

from config.accounts.models import PendingSignup


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
