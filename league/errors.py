"""The league's user-fixable errors: translated, saying what to do. Anything else is a bug."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from league.i18n import import_problem_text


class LeagueError(ValueError):
    """Something the user can fix; ``message`` is already translated."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def require(allowed: bool) -> None:
    """Refuse (403) unless ``allowed``: the permission check every service starts with."""
    if not allowed:
        raise PermissionDenied(_("You may not do this."))


@dataclass(frozen=True)
class RowProblem:
    """One problem in an imported file: 1-based row (the header is row 1) and column."""

    row: int
    column: str
    message: str

    def __str__(self) -> str:
        return f"row {self.row}, {self.column}: {self.message}"


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


class CsvImportError(LeagueError):
    """The file has problems; nothing was saved. ``problems`` lists every one."""

    def __init__(self, message: str, problems: Iterable[RowProblem]) -> None:
        super().__init__(message, code="csv")
        self.problems = tuple(problems)
