"""Plain batched SQL for the hot paths, where building ORM objects costs more than the database."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection, models

# SQLite (older builds) refuses a statement with more than 999 variables, so ``__in``
# lookups take this many values at a time (Django batches only bulk_create and
# bulk_update by itself).
IN_CHUNK = 900


def insert_rows(
    model: type[models.Model], columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]]
) -> None:
    """INSERT ``rows`` (tuples in ``columns`` order, database column names) in batches.

    On PostgreSQL the rows are streamed with COPY, many times faster than INSERTs.
    """
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    if connection.vendor == "postgresql":
        _copy(f"COPY {table} ({quoted}) FROM STDIN", rows)
        return
    placeholders = ", ".join(["%s"] * len(columns))
    _run_batches(f"INSERT INTO {table} ({quoted}) VALUES ({placeholders})", rows)


def _copy(sql: str, rows: Iterable[tuple[Any, ...]]) -> None:
    # COPY runs on psycopg's own cursor, beneath Django's translation of errors: without
    # the wrapper a refused row raises psycopg's error, which no caller of Django expects.
    with (
        connection.cursor() as cursor,
        connection.wrap_database_errors,
        cursor.cursor.copy(sql) as copy,
    ):
        for row in rows:
            copy.write_row(row)


def update_rows(
    model: type[models.Model], columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]]
) -> None:
    """UPDATE by id: each row is (value of each column..., id)."""
    settings = ", ".join(f"{connection.ops.quote_name(column)} = %s" for column in columns)
    _run_batches(f"UPDATE {model._meta.db_table} SET {settings} WHERE id = %s", rows)


def _run_batches(sql: str, rows: Iterable[tuple[Any, ...]], batch: int = 20_000) -> None:
    with connection.cursor() as cursor:
        chunk: list[tuple[Any, ...]] = []
        for row in rows:
            chunk.append(row)
            if len(chunk) == batch:
                cursor.executemany(sql, chunk)
                chunk = []
        if chunk:
            cursor.executemany(sql, chunk)
