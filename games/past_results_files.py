"""Reading a spreadsheet of past results into rows of text: ``.csv`` (UTF-8) or ``.xlsx``
(openpyxl in read-only mode). Everything is bounded before it is read: the file's size,
the workbook's unpacked size (a zip bomb is refused unopened), the rows, the columns and
each cell's length. A file that cannot be read is one problem of row 0, column ``file``;
nothing here knows what a game is (that is :mod:`games.past_results`)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import ParseError

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from league.errors import CsvImportError, ImportProblem

#: Columns read from a row (a wider sheet is refused: the widest table is 17 seats, each
#: with a player and a role column, plus seven more).
MAX_COLUMNS = 60
#: Characters in one cell (a name is at most 120; awards with reasons may be longer).
MAX_CELL = 1000
#: What an .xlsx may unpack to (its XML), whatever its compressed size.
MAX_UNPACKED = 64 * 1024 * 1024


def max_bytes() -> int:
    """The largest file accepted (``RESULTS_IMPORT_MAX_BYTES``, else ``CSV_MAX_BYTES``)."""
    return int(getattr(settings, "RESULTS_IMPORT_MAX_BYTES", settings.CSV_MAX_BYTES))


def max_rows() -> int:
    """The most games in one file (``RESULTS_IMPORT_MAX_ROWS``, else ``CSV_MAX_ROWS``)."""
    return int(getattr(settings, "RESULTS_IMPORT_MAX_ROWS", settings.CSV_MAX_ROWS))


class PastResultsError(CsvImportError):
    """The file has problems; nothing was saved (``problems``: every one, by row and
    column). 413 for a file over the size or row limit, 400 otherwise."""

    def __init__(self, problems: Iterable[ImportProblem], *, status: int = 400) -> None:
        super().__init__(_("The file has problems; nothing was imported."), problems)
        self.code = "results_import"
        self.status = status


def _file_problem(code: str, status: int = 400, **params: Any) -> PastResultsError:
    return PastResultsError([ImportProblem.of(0, "file", code, **params)], status=status)


@dataclass(frozen=True)
class Sheet:
    """The header (lower-case, trimmed) and the data rows as text, with their line numbers
    (the header is line 1, as a spreadsheet numbers it)."""

    header: list[str]
    rows: list[tuple[int, list[str]]]


def is_xlsx(name: str, data: bytes) -> bool:
    return name.lower().endswith(".xlsx") or data[:4] == b"PK\x03\x04"


def read_sheet(name: str, data: bytes) -> Sheet:
    """The file's rows, or :class:`PastResultsError` (too large, unreadable, too many rows
    or columns). Blank rows are skipped."""
    if len(data) > max_bytes():
        raise _file_problem("csv.too_large", 413, size=len(data) // 1024, limit=max_bytes() // 1024)
    if not data.strip():
        raise _file_problem("results.no_games")
    raw = _xlsx_rows(data) if is_xlsx(name, data) else _csv_rows(data)
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    for line, cells in enumerate(raw, start=1):
        if len(cells) > MAX_COLUMNS and any(c.strip() for c in cells[MAX_COLUMNS:]):
            raise _file_problem("results.too_many_columns", limit=MAX_COLUMNS)
        cells = [c[: MAX_CELL + 1] for c in cells[:MAX_COLUMNS]]
        if header is None:
            if not any(c.strip() for c in cells):
                continue
            header = [c.strip().lower().replace(" ", "") for c in cells]
            continue
        if not any(c.strip() for c in cells):
            continue
        if len(rows) >= max_rows():
            raise _file_problem("results.too_many_rows", 413, limit=max_rows())
        rows.append((line, cells))
    return Sheet(header or [], rows)


def _csv_rows(data: bytes) -> Iterable[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _file_problem("csv.not_utf8") from None
    if "\x00" in text:
        raise _file_problem("results.not_text")
    # a spreadsheet saved in a language whose decimal mark is a comma writes ";" (or a tab)
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max((",", ";", "\t"), key=first.count) if first else ","
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error:
        raise _file_problem("results.not_text") from None


def _cell(value: Any) -> str:
    """A workbook cell as the text a CSV would hold: dates as ISO dates, whole numbers
    without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


#: What a broken or hostile .xlsx makes openpyxl or zipfile raise.
_UNREADABLE = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    InvalidFileException,
    ParseError,
    KeyError,
    ValueError,
    TypeError,
    IndexError,
    AttributeError,
    EOFError,
    OSError,
)


def _xlsx_rows(data: bytes) -> Iterable[list[str]]:
    """The first worksheet's rows (values, not formulas), bounded in rows and columns."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(i.file_size for i in archive.infolist())
    except _UNREADABLE:
        raise _file_problem("results.not_xlsx") from None
    if unpacked > MAX_UNPACKED:
        raise _file_problem("results.xlsx_unpacked", limit=MAX_UNPACKED // (1024 * 1024))
    rows: list[list[str]] = []
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            filled = 0
            for line, values in enumerate(
                sheet.iter_rows(max_col=MAX_COLUMNS + 1, values_only=True), start=1
            ):
                cells = [_cell(v) for v in values]
                filled += any(c.strip() for c in cells)
                # the header and one game more than allowed say "too many"; blank lines
                # count too past ten times the limit (a sheet of a million empty rows)
                if filled > max_rows() + 1 or line > 10 * max_rows() + 100:
                    raise _file_problem("results.too_many_rows", 413, limit=max_rows())
                rows.append(cells)
        finally:
            book.close()
    except _UNREADABLE:
        raise _file_problem("results.not_xlsx") from None
    return rows
