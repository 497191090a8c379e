"""Bounded input at the door: request bodies and JSON (docs/security.md, "Limits").

:class:`RequestSizeLimitMiddleware` answers 413 before reading a body whose declared size
exceeds ``REQUEST_MAX_BYTES`` (a 50 MB upload used to take 79 s and 3 GB).
:class:`StrictJSONParser` reads API bodies as RFC 8259 JSON with bounded nesting, so
``NaN`` or a deeply nested document is a 400, not a 500.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from league.inputs import JSONInputError, strict_int, strict_json


class RequestSizeLimitMiddleware:
    """413 for a request whose Content-Length is over ``REQUEST_MAX_BYTES``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.REQUEST_MAX_BYTES)
        declared = request.META.get("CONTENT_LENGTH") or ""
        size = strict_int(declared) if declared else 0
        if size is None:
            return _too(request, _("The request's Content-Length is not a number."), 400)
        if size > limit:
            return _too(
                request,
                _("The request is too large: %(size)s KiB, the limit is %(limit)s KiB.")
                % {"size": size // 1024, "limit": limit // 1024},
                413,
            )
        return self.get_response(request)


def _too(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "code": "too_large"}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, refusing NaN/Infinity and nesting deeper than JSON_MAX_DEPTH."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            return strict_json(text)
        except JSONInputError as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None
        except (ValueError, json.JSONDecodeError) as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None


class RefuseNulMiddleware:
    """400 for a NUL character anywhere in the path, the query or a form body: no text
    column of PostgreSQL can hold one, and nothing legitimate sends it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in raw or "\x00" in raw:
            return _too(request, _("The request holds a NUL character."), 400)
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            for values in request.POST.lists():
                if any("\x00" in v for v in values[1]):
                    return _too(request, _("The request holds a NUL character."), 400)
        return self.get_response(request)
