"""The one user-fixable error of the site, and its answers.

A service refuses with :class:`UserError`: a stable ``code``, its ``params`` (plain JSON
values) and an HTTP ``status``; its ``message`` is the sentence in the active language,
rendered from a template and the params when read (Zulip's ``JsonableError``, Django's
``ValidationError(code=, params=)``). It is turned into an answer in one place per kind
of request: :func:`api_exception_handler` (DRF's ``EXCEPTION_HANDLER``) for the API, and
:class:`UserErrorMiddleware` for pages. Anything else is a bug.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.db.models import Choices
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy, pgettext
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import EngineError
from league.i18n import engine_error_text, import_problem_text
from league.inputs import safe_back


class UserError(Exception):
    """Something the user can fix.

    ``message`` is a template (usually ``gettext``/``gettext_lazy`` of a sentence with
    ``%(name)s`` placeholders) filled from ``params``; ``code`` is what clients and tests
    match on; ``status`` is the HTTP status of the answer (400, 403, 404, 409…).
    Subclasses add data to the answer through :meth:`extra`.

    A parameter is shown by what it is: a status (a model's ``TextChoices`` member) by its
    label in the reader's language, a list joined with the language's separator; the API
    gives the plain values (the status's value, the list)."""

    status: int = 400

    def __init__(
        self,
        message: str | Promise,
        *,
        code: str,
        params: Mapping[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        self.template = message
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        if status is not None:
            self.status = status
        super().__init__(code)

    @property
    def message(self) -> str:
        text = str(self.template)
        if not self.params:
            return text
        return text % {name: _shown(value) for name, value in self.params.items()}

    def __str__(self) -> str:
        return self.message

    def extra(self) -> dict[str, Any]:
        """More fields for the API answer (a subclass's data)."""
        return {}

    def data(self) -> dict[str, Any]:
        """The API answer's body: ``detail`` (the sentence), ``code``, ``params``."""
        params = {name: _plain(value) for name, value in self.params.items()}
        return {"detail": self.message, "code": self.code, "params": params, **self.extra()}


def _shown(value: Any) -> Any:
    """A parameter as the sentence shows it."""
    if isinstance(value, Choices):
        return str(value.label)
    if isinstance(value, list | tuple):
        return pgettext("list separator", ", ").join(str(_shown(v)) for v in value)
    return value


def _plain(value: Any) -> Any:
    """A parameter as the API gives it: plain JSON values."""
    if isinstance(value, Choices):
        return value.value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


class EngineRefusal(UserError):
    """A refusal whose reason the engine gave (an :class:`~engine.errors.EngineError`): the
    params keep the engine's ``engine_code`` and ``engine_params`` as data, and the
    template's ``%(error)s`` is the engine's reason in the reader's language, rendered
    when read (never a sentence made when raised)."""

    def __init__(
        self, message: str | Promise, *, code: str, error: EngineError, status: int | None = None
    ) -> None:
        params = {"engine_code": error.code, "engine_params": dict(error.params)}
        super().__init__(message, code=code, params=params, status=status)
        self.error = error

    @property
    def message(self) -> str:
        return str(self.template) % {"error": engine_error_text(self.error)}


def every_problem(problems: Sequence[UserError], *, code: str, status: int = 400) -> UserError:
    """One refusal for several problems found together (validation reports every one): the
    sentences of ``problems`` one after another, rendered when read; ``params["problems"]``
    gives each one's ``code`` and ``params``."""
    parts = tuple(problems)
    # each part is rendered in the reader's language; "%" escaped for the outer rendering
    joined = _joined_lazy(parts)
    return UserError(
        joined,
        code=code,
        params={"problems": [{"code": p.code, "params": p.params} for p in parts]},
        status=status,
    )


def _joined(parts: tuple[UserError, ...]) -> str:
    return " ".join(p.message for p in parts).replace("%", "%%")


_joined_lazy = lazy(_joined, str)


def require(allowed: bool) -> None:
    """Refuse (403) unless ``allowed``: the permission check every service starts with."""
    if not allowed:
        raise UserError(gettext_lazy("You may not do this."), code="not_allowed", status=403)


@dataclass(frozen=True)
class RowProblem:
    """One problem in an imported file: 1-based row (the header is row 1) and column."""

    row: int
    column: str
    message: str

    def __str__(self) -> str:
        """The problem in the reader's language; one about the whole file (row 0) names
        no row."""
        if self.row < 1:
            return str(gettext_lazy("the whole file: %(message)s") % {"message": self.message})
        return str(
            gettext_lazy("row %(row)s, %(column)s: %(message)s")
            % {"row": self.row, "column": self.column, "message": self.message}
        )


@dataclass(frozen=True)
class ImportProblem(RowProblem):
    """One problem of an imported file as data: its row, its column and its ``code`` with
    ``params`` are decided where the problem is found; ``message`` is rendered from them
    (:func:`league.i18n.import_problem_text`) in the reader's language."""

    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, row: int, column: str, code: str, /, **params: Any) -> ImportProblem:
        # the sentence is rendered when read, in the language active then
        return cls(row, column, _problem_text_lazy(code, params), code, params)


_problem_text_lazy = lazy(import_problem_text, str)


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


class CsvImportError(UserError):
    """The file has problems; nothing was saved. ``problems`` lists every one."""

    def __init__(self, message: str | Promise, problems: Iterable[RowProblem]) -> None:
        super().__init__(message, code="csv")
        self.problems = tuple(problems)

    def extra(self) -> dict[str, Any]:
        return {"problems": [problem_dict(p) for p in self.problems]}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: a :class:`UserError` is answered with its status and
    :meth:`UserError.data`, plus what the view adds for it (``error_data(exc)``, e.g. the
    current game beside a stale revision); everything else as DRF does."""
    if isinstance(exc, UserError):
        data = exc.data()
        view = context.get("view")
        add = getattr(view, "error_data", None)
        if callable(add):
            data.update(add(exc))
        return Response(data, status=exc.status)
    return drf_exception_handler(exc, context)


#: Statuses answered with an error page even after a POST: going back would not help.
_ERROR_PAGE_STATUSES = frozenset({403, 404})


class UserErrorMiddleware:
    """Pages' answer to a :class:`UserError`: a refused POST (400, 409…) shows the sentence
    as a message back where the user came from; a refusal of who is asking (403) or of what
    is asked for (404), and any refused GET, gets an error page with its status."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)  # type: ignore[no-any-return]

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, UserError):
            return None
        if request.method == "POST" and exc.status not in _ERROR_PAGE_STATUSES:
            messages.error(request, exc.message)
            back = safe_back(
                request,
                request.POST.get("next"),
                request.META.get("HTTP_REFERER"),
                default=reverse("home"),
            )
            return redirect(back)
        return render(request, "user_error.html", {"error": exc}, status=exc.status)
