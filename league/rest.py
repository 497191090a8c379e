"""What the league's API modules share: input parsing, the slug pattern, and the error
answer's shape for the schema. A refusal is answered in one place,
:func:`league.errors.api_exception_handler` (``detail``, ``code``, ``params``, and
``problems`` for a CSV import, with the refusal's status)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    params = serializers.DictField()
    problems = serializers.ListField(child=serializers.DictField(), required=False)


#: A club's or league's slug in a URL (DRF's default also matches NUL, which PostgreSQL
#: refuses in a query: a 500).
SLUG = r"[-a-zA-Z0-9_]{1,60}"


def valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


#: The error answers of an action that writes (for the schema): 400 bad input, 403 not
#: allowed, 409 the event's or round's state refuses it.
EVENT_ERRORS = {
    400: ErrorSerializer,
    403: OpenApiResponse(description="not allowed"),
    409: ErrorSerializer,
}
