"""Sign-up with a confirmed e-mail address (docs/accounts.md).

A new account is inactive, with a :class:`PendingSignup` row, until its owner follows the
link sent to the address: a signed, expiring token naming the user and a digest of the
address. Confirming deletes the row and activates the account; the link then does
nothing more. An account an administrator deactivated has no row: no link revives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from config.accounts.models import PendingSignup
from league.mail import send_rendered

SALT = "config.accounts.verify"
#: The longest token the verify page reads (a real one is about 60 characters).
TOKEN_MAX_LENGTH = 200


class EmailTaken(Exception):
    """Another account has this address (ignoring case): the unique index said so."""


def email_taken(email: str) -> bool:
    return bool(get_user_model()._default_manager.filter(email__iexact=email).exists())


def create_account(form: Any) -> Any:
    """Save a valid sign-up form as an inactive account waiting for confirmation.

    The form checked the address; the unique index on ``LOWER(email)`` settles a race
    between two sign-ups with the same address (:class:`EmailTaken`)."""
    try:
        with transaction.atomic():
            user = form.save(commit=False)
            user.is_active = False
            user.save()
            PendingSignup.objects.create(user=user)
    except IntegrityError as exc:
        if email_taken(form.cleaned_data.get("email", "")):
            raise EmailTaken from exc
        raise
    return user


def _email_digest(user: Any) -> str:
    return salted_hmac(SALT, (user.email or "").lower()).hexdigest()[:16]


def make_token(user: Any) -> str:
    return signing.TimestampSigner(salt=SALT).sign(f"{user.pk}.{_email_digest(user)}")


@dataclass(frozen=True)
class TokenCheck:
    """What a link names: the user waiting for confirmation, or why it is refused
    (``invalid``, ``expired``) or needs nothing (``done``: already confirmed)."""

    user: Any = None
    problem: str = ""


def check_token(token: str) -> TokenCheck:
    if not token or len(token) > TOKEN_MAX_LENGTH or not token.isascii():
        return TokenCheck(problem="invalid")
    signer = signing.TimestampSigner(salt=SALT)
    try:
        value = signer.unsign(token, max_age=int(settings.SIGNUP_VERIFY_SECONDS))
    except signing.SignatureExpired:
        return TokenCheck(problem="expired")
    except signing.BadSignature:
        return TokenCheck(problem="invalid")
    pk, _, digest = value.partition(".")
    if not (pk.isascii() and pk.isdigit() and len(pk) <= 18):
        return TokenCheck(problem="invalid")
    user = get_user_model()._default_manager.filter(pk=int(pk)).first()
    if user is None or not constant_time_compare(digest, _email_digest(user)):
        return TokenCheck(problem="invalid")
    if not PendingSignup.objects.filter(user=user).exists():
        return TokenCheck(user=user, problem="done" if user.is_active else "invalid")
    return TokenCheck(user=user)


def confirm(user: Any) -> bool:
    """Activate a pending account; False when it was not pending (already confirmed, or
    confirmed by a second click a moment ago)."""
    with transaction.atomic():
        deleted, _ = PendingSignup.objects.filter(user=user).delete()
        if not deleted:
            return False
        user.is_active = True
        user.save(update_fields=["is_active"])
    return True


def is_pending(user: Any) -> bool:
    return bool(PendingSignup.objects.filter(user=user).exists())


def send_verification(request: HttpRequest, user: Any, next_path: str = "") -> bool:
    """Send the confirmation link to the account's address, in the reader's language.

    Sent during the request, as Django sends its password-reset e-mail. An SMTP failure
    is logged and reported as False (the page offers to send again), never a 500."""
    link = request.build_absolute_uri(reverse("verify", args=[make_token(user)]))
    if next_path:  # where the account goes once confirmed (checked again there)
        link += "?" + urlencode({"next": next_path})
    expires = timezone.now() + timedelta(seconds=int(settings.SIGNUP_VERIFY_SECONDS))
    context = {"user": user, "link": link, "expires": expires, "site_name": "Tianhei"}
    return send_rendered(
        "accounts/verify_subject.txt",
        "accounts/verify_email.txt",
        context,
        user.email,
        what=f"confirmation e-mail to user {user.pk}",
    )


def pending_user_for_email(email: str) -> Any:
    """The account waiting for confirmation at ``email`` (ignoring case), or None."""
    pending = PendingSignup.objects.select_related("user").filter(user__email__iexact=email)
    row = pending.first()
    return row.user if row is not None else None
