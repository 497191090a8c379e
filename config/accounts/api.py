"""``/api/v1/auth/token/``: issue (POST) or revoke (DELETE) one's own API token."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.accounts.middleware import needs_second_factor
from config.accounts.tokens import issue_token, revoke_tokens
from config.accounts.twofactor import check_code, code_is_locked_out, has_second_factor


class TokenRequest(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    otp_token = serializers.CharField(max_length=16, required=False, allow_blank=True)


class TokenView(APIView):
    """Issue (POST) or revoke (DELETE) the caller's API token."""

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(
        request=TokenRequest,
        responses={
            201: inline_serializer(
                "IssuedToken",
                {"token": serializers.CharField(), "expires": serializers.DateTimeField()},
            )
        },
    )
    def post(self, request: Request) -> Response:
        data = TokenRequest(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"]
        django_request = request._request
        user = authenticate(
            request=django_request, username=username, password=data.validated_data["password"]
        )
        if user is None or not user.is_active:
            return Response(
                {"detail": _("Wrong username or password, or too many attempts: wait.")},
                status=status.HTTP_400_BAD_REQUEST,
            )
        if has_second_factor(user):
            if code_is_locked_out(django_request, username):
                return Response(
                    {"detail": _("Too many attempts: wait.")},
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                )
            if check_code(django_request, user, data.validated_data.get("otp_token", "")) is None:
                return Response(
                    {"detail": _("Give the current code of your authenticator app.")},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        else:
            django_request.user = user
            if needs_second_factor(django_request):
                return Response(
                    {"detail": _("Two-factor log-in is required for staff: enrol first.")},
                    status=status.HTTP_403_FORBIDDEN,
                )
        token = issue_token(user)
        expires = token.created + timedelta(seconds=int(settings.API_TOKEN_MAX_AGE))
        return Response({"token": token.key, "expires": expires}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        revoke_tokens(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
