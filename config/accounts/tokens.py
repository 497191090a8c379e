"""API tokens that expire and can be revoked (docs/security.md, "API tokens").

DRF's tokens never expire. :class:`ExpiringTokenAuthentication` refuses a token older than
``API_TOKEN_MAX_AGE`` seconds; ``POST /api/v1/auth/token/`` issues a fresh one (the
password, and the code when the user has two-factor log-in, through the same lockout as
the log-in page), ``DELETE /api/v1/auth/token/`` revokes one's own, and
``manage.py revoke_token USER`` revokes anyone's.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed


def token_expired(token: Token) -> bool:
    max_age = timedelta(seconds=int(settings.API_TOKEN_MAX_AGE))
    return bool(token.created < timezone.now() - max_age)


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token …``, refused once the token is older than its maximum age."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise AuthenticationFailed(_("The token has expired: obtain a new one."))
        return user, token


def issue_token(user: Any) -> Token:
    """A new token for ``user``; the old one, if any, stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def revoke_tokens(user: Any) -> int:
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted
