"""What the league's API modules share: the error answer (400 with ``detail`` and
``code``, and ``problems`` for a CSV import), input parsing, and the slug pattern."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from league.errors import CsvImportError, ImportProblem, LeagueError, RowProblem
from league.i18n import import_problem_text


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    problems = serializers.ListField(child=serializers.DictField(), required=False)


#: A club's or league's slug in a URL (DRF's default also matches NUL, which PostgreSQL
#: refuses in a query: a 500).
SLUG = r"[-a-zA-Z0-9_]{1,60}"


class LeagueErrorsMixin:
    """Answer :class:`LeagueError` with 400 and a machine-readable code."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, LeagueError):
            data: dict[str, Any] = {"detail": exc.message, "code": exc.code}
            if isinstance(exc, CsvImportError):
                data["problems"] = [problem_dict(p) for p in exc.problems]
            return Response(data, status=status.HTTP_400_BAD_REQUEST)
        return super().handle_exception(exc)  # type: ignore[misc,no-any-return]


def problem_dict(problem: RowProblem) -> dict[str, Any]:
    """An import problem for the API: where (row, column), what (code, params) and the
    sentence in the reader's language."""
    if isinstance(problem, ImportProblem):
        return {
            "row": problem.row,
            "column": problem.column,
            "code": problem.code,
            "params": dict(problem.params),
            "message": import_problem_text(problem.code, problem.params),
        }
    return {"row": problem.row, "column": problem.column, "message": problem.message}


def valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


#: The error answers of an action that writes (for the schema).
EVENT_ERRORS = {400: ErrorSerializer, 403: OpenApiResponse(description="not allowed")}
