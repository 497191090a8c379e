"""The league's user-fixable errors: translated, saying what to do. Anything else is a bug."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class LeagueError(ValueError):
    """Something the user can fix; ``message`` is already translated."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class RowProblem:
    """One problem in an imported file: 1-based row (the header is row 1) and column."""

    row: int
    column: str
    message: str

    def __str__(self) -> str:
        return f"row {self.row}, {self.column}: {self.message}"


class CsvImportError(LeagueError):
    """The file has problems; nothing was saved. ``problems`` lists every one."""

    def __init__(self, message: str, problems: Iterable[RowProblem]) -> None:
        super().__init__(message, code="csv")
        self.problems = tuple(problems)
