"""CSV files that spreadsheets open safely (OWASP "CSV injection").

A text cell starting with ``= + - @`` (or a tab or carriage return, which some
spreadsheets skip before reading a formula) would be run as a formula: ``=HYPERLINK(…)``
as a display name. Such cells get a leading apostrophe, which spreadsheets show as text
and do not display; numbers are written as they are. Control characters other than the
tab are dropped.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def safe_cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START):
        value = "'" + value
    return _CONTROL.sub("", value.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


class SafeWriter:
    """``csv.writer`` whose every text cell goes through :func:`safe_cell`."""

    def __init__(self, stream: Any) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(v) for v in row])
