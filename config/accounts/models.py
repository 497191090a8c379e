"""An account that signed up and has not confirmed its e-mail address yet."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PendingSignup(models.Model):
    """The user signed up at ``created`` and has not followed the link of the e-mail yet.

    The account stays inactive while this row exists; confirming the address deletes the
    row and activates the account. An account that an administrator deactivated has no
    row, so no link can activate it again.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="pending_signup",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "pending sign-up"

    def __str__(self) -> str:
        return str(self.user)
