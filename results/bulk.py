"""Bulk writes of plain rows: the one COPY helper (PostgreSQL) and its fallbacks.

Everything that loads many rows at once — the ratings replay, a rebuild, the benchmarks'
datasets — goes through :func:`copy_in`, which writes PostgreSQL's COPY text format in
blocks, from Python values (formatted by :func:`copy_text`) or from lines already in that
format (the replay builds its rating points as text directly, which is faster).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import islice
from typing import Any

from django.db import connection

NULL = "\\N"  # PostgreSQL COPY text for a null

#: Rows (or text lines) sent to the server per write.
BLOCK_ROWS = 20000
BLOCK_LINES = 50000


def copy_text(value: Any) -> str:
    """One value in COPY text format: ``\\N`` for None, ``t``/``f``, exact floats (repr),
    ISO dates and times; anything else as text, escaped (JSON: pass ``json.dumps``)."""
    if value is None:
        return NULL
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, dt.date):  # datetimes too
        return value.isoformat()
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def copy_in(
    model: Any,
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]] = (),
    *,
    lines: Sequence[str] | None = None,
) -> int:
    """COPY into ``model``'s table (PostgreSQL): ``rows`` of Python values, one per
    field of ``fields`` (names or attnames), or ``lines`` already in COPY text format
    (tab-separated, ``\\N`` for NULL, each ending in a newline). Returns the row count."""
    if lines is not None and not lines:
        return 0
    meta = model._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    count = 0
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        if lines is not None:
            for i in range(0, len(lines), BLOCK_LINES):
                copy.write("".join(lines[i : i + BLOCK_LINES]).encode())
            return len(lines)
        value = copy_text
        it = iter(rows)
        while block := list(islice(it, BLOCK_ROWS)):
            copy.write("".join("\t".join([value(v) for v in row]) + "\n" for row in block).encode())
            count += len(block)
    return count


def insert_rows(model: Any, fields: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert plain rows fast: :func:`copy_in` on PostgreSQL, batched ``bulk_create``
    elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        copy_in(model, fields, rows)
        return
    model.objects.bulk_create(
        [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
    )


def empty_tables(*models: Any) -> None:
    """Delete every row of ``models`` (TRUNCATE on PostgreSQL: transactional there)."""
    if connection.vendor == "postgresql":
        tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
        with connection.cursor() as cursor:
            # Deferred foreign-key checks pending in this transaction would forbid it.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {tables}")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        return
    for model in models:
        model.objects.all().delete()
