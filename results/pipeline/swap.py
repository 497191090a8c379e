"""PostgreSQL only: bulk loads that keep readers reading.

:func:`built_aside` runs a full rebuild against empty copies of the live tables and swaps
them in at the end, so pages keep reading the complete old rows meanwhile;
:func:`indexes_rebuilt_after` drops a table's secondary indexes for a bulk load into it
and builds them again afterwards.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import OperationalError, connection, transaction

log = logging.getLogger(__name__)


@contextmanager
def indexes_rebuilt_after(model: Any) -> Iterator[None]:
    """PostgreSQL: drop the table's secondary indexes and unique constraints, run the
    block (a bulk load into an empty table), then build them again — much faster than
    maintaining them row by row. Transactional, like everything else in PostgreSQL."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype = 'u'",
            [table],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s "
            "AND indexname NOT IN (SELECT conname FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype IN ('p', 'u'))",
            [table, table],
        )
        indexes = cursor.fetchall()
        quoted = connection.ops.quote_name(table)
        for name, _definition in constraints:
            cursor.execute(
                f"ALTER TABLE {quoted} DROP CONSTRAINT {connection.ops.quote_name(name)}"
            )
        for name, _definition in indexes:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for name, definition in constraints:
            cursor.execute(
                f"ALTER TABLE {quoted} ADD CONSTRAINT {connection.ops.quote_name(name)} "
                f"{definition}"
            )
        for _name, definition in indexes:
            cursor.execute(definition)


#: The schema in which a full rebuild builds its tables (PostgreSQL). Created and dropped
#: inside the rebuild's transaction, so no other connection ever sees it.
ASIDE_SCHEMA = "tianhei_rebuild"

#: The swap waits at most this long for a live table's readers before it backs off and
#: tries again (while it waits, new readers queue behind it)…
SWAP_LOCK_TIMEOUT_MS = 100
#: … and after this many seconds of trying it waits for as long as it takes.
SWAP_PATIENCE_S = 30.0


@contextmanager
def built_aside(*models: Any) -> Iterator[None]:
    """PostgreSQL: run the block against new, empty copies of ``models``' tables, then
    swap the copies in for the live tables.

    The copies live in a schema of their own (:data:`ASIDE_SCHEMA`) put first on this
    transaction's ``search_path``, so every query of the block — ORM, raw SQL, COPY —
    reads and writes them under the live tables' names, while every other connection
    keeps reading the complete live tables without waiting (the copies are created in
    this transaction: nobody else can see them). After the block the copies get the live
    tables' keys, indexes and foreign keys under the same names (built once, after the
    load) and fresh statistics. Then :func:`_lock_for_swap` takes the live tables, which
    are dropped, and the copies move into their schema; the caller commits right away,
    so readers wait for the swap alone — milliseconds. A failure anywhere rolls back
    with the transaction and leaves the live tables as they were."""
    q = connection.ops.quote_name
    aside = q(ASIDE_SCHEMA)
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('search_path')")
        search_path = cursor.fetchone()[0]
        live: list[tuple[str, str]] = []  # (schema, table), quoted
        for table in tables:
            cursor.execute(
                "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE c.oid = %s::regclass",
                [table],
            )
            live.append((q(cursor.fetchone()[0]), q(table)))
        # Definitions read now, with the live search_path: a foreign key's target is
        # printed as it resolves for the live tables.
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), contype"
            " FROM pg_constraint WHERE conrelid = ANY(%s::regclass[]) AND contype IN"
            " ('p', 'u', 'f', 'x') ORDER BY contype = 'f', conname",
            [tables],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.indrelid::regclass::text, c.relname, pg_get_indexdef(i.indexrelid),"
            " i.indisunique FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE i.indrelid = ANY(%s::regclass[]) AND NOT EXISTS (SELECT 1 FROM"
            " pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)"
            " ORDER BY c.relname",
            [tables],
        )
        indexes = cursor.fetchall()
        # Sequences of serial (not identity) columns: owned by the live table, so they
        # would go with it; the copy takes them over before the swap.
        cursor.execute(
            "SELECT c.oid::regclass::text, a.attname,"
            " pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname),"
            " a.attname) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE a.attrelid ="
            " ANY(%s::regclass[]) AND a.attnum > 0 AND NOT a.attisdropped"
            " AND a.attidentity = ''",
            [tables],
        )
        serials = [(t, col, seq) for t, col, seq in cursor.fetchall() if seq]
        cursor.execute(f"CREATE SCHEMA {aside}")
        for schema, table in live:
            cursor.execute(
                f"CREATE TABLE {aside}.{table} (LIKE {schema}.{table} INCLUDING DEFAULTS"
                " INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING GENERATED"
                " INCLUDING STORAGE)"
            )
        cursor.execute("SELECT set_config('search_path', %s, true)", [f"{aside}, {search_path}"])
    yield
    by_name = {t: q(t) for t in tables}
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('search_path', %s, true)", [search_path])
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for table, name, definition, kind in constraints:
            if kind == "f":
                continue  # last: they lock the tables they point to until the commit
            cursor.execute(
                f"ALTER TABLE {aside}.{by_name[table]} ADD CONSTRAINT {q(name)} {definition}"
            )
        for table, name, definition, unique in indexes:
            using = definition.split(" USING ", 1)[1]
            kind = "UNIQUE INDEX" if unique else "INDEX"
            cursor.execute(f"CREATE {kind} {q(name)} ON {aside}.{by_name[table]} USING {using}")
        for _schema, table in live:
            cursor.execute(f"ANALYZE {aside}.{table}")
        for table, name, definition, kind in constraints:
            if kind == "f":
                cursor.execute(
                    f"ALTER TABLE {aside}.{by_name[table]} ADD CONSTRAINT {q(name)} {definition}"
                )
        _lock_for_swap([f"{schema}.{table}" for schema, table in live])
        for table, column, sequence in serials:
            cursor.execute(
                f"ALTER SEQUENCE {sequence} OWNED BY {aside}.{by_name[table]}.{q(column)}"
            )
        # Deferred foreign-key checks pending on a live table would forbid dropping it.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("DROP TABLE " + ", ".join(f"{s}.{t}" for s, t in live))
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for schema, table in live:
            cursor.execute(f"ALTER TABLE {aside}.{table} SET SCHEMA {schema}")
        cursor.execute(f"DROP SCHEMA {aside}")


def _lock_for_swap(tables: list[str]) -> None:
    """Take ``tables`` ACCESS EXCLUSIVE for the rest of the transaction, a little at a
    time: each try gives up after :data:`SWAP_LOCK_TIMEOUT_MS` (a savepoint undoes it),
    so a long-running reader never holds the pages queued behind the swap for long."""
    deadline = time.monotonic() + SWAP_PATIENCE_S
    pause = 0.02
    while True:
        patient = time.monotonic() < deadline
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                if patient:
                    cursor.execute("SELECT current_setting('lock_timeout')")
                    before = cursor.fetchone()[0]
                    cursor.execute(
                        "SELECT set_config('lock_timeout', %s, true)", [f"{SWAP_LOCK_TIMEOUT_MS}ms"]
                    )
                cursor.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
                if patient:
                    cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
            return
        except OperationalError as e:
            if getattr(e.__cause__, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            log.info("ratings swap: the tables are busy; trying again")
            time.sleep(pause)
            pause = min(pause * 2, 0.5)
