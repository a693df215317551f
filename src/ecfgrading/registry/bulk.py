"""Plain batched SQL for the hot paths, where building ORM objects costs more than the database."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from itertools import chain
from typing import Any, TypeVar

from django.core.exceptions import FieldDoesNotExist
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

# SQLite (older builds) refuses a statement with more than 999 variables, so ``__in``
# lookups take this many values at a time (Django batches only bulk_create and
# bulk_update by itself).
IN_CHUNK = 900
BATCH = 20_000  # rows a statement (or an executemany) takes: bounds the memory held
# What an array of ``update_rows`` carries: one type a column, as psycopg dumps arrays.
_ARRAY_TYPES = frozenset({int, float, Decimal, str, bool, date, datetime})

_Value = TypeVar("_Value")


def current() -> BaseDatabaseWrapper:
    """The connection ``django.db.connection`` stands for, looked up once: each use of
    that proxy looks it up again (this thread's, by its alias), and the hot paths of an
    import used it 160,000 times a season, a few microseconds each (issue 25)."""
    return connections[DEFAULT_DB_ALIAS]


def in_chunks(values: Sequence[_Value], size: int = IN_CHUNK) -> Iterator[Sequence[_Value]]:
    """``values`` a statement's worth at a time (IN_CHUNK: an ``IN`` list SQLite takes)."""
    for start in range(0, len(values), size):
        yield values[start : start + size]


def insert_rows(
    model: type[models.Model], columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]]
) -> None:
    """INSERT ``rows`` (tuples in ``columns`` order, database column names) in batches,
    in their order. Call it inside a transaction: a refused row raises, and the rows
    before it stay until the transaction (or savepoint) is rolled back.

    On PostgreSQL the rows are streamed with COPY, many times faster than INSERTs. On
    SQLite each statement holds as many rows as it may bind values: SQLite works an
    AUTOINCREMENT table's counter (a look-up among ``sqlite_sequence``'s row for each of
    the registry's tables, and its update) once a statement, which cost more than the
    row itself when each row was a statement of its own (issue 25). The statements are
    ``INSERT OR FAIL``: a plain INSERT of many rows may fail half done, so SQLite keeps a
    copy of every page it touches until it ends, and undoes the statement's rows if one
    is refused; OR FAIL leaves them to the rollback that follows, and SQLite keeps no
    copy. On a season's games (eight indexes, a commit every 32 files) a statement of 49
    rows took 2.6 s of CPU as a plain INSERT, 2.3 s as a statement a row, 1.8 s with OR
    FAIL (issue 25, measured).
    """
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    if connection.vendor == "postgresql":
        _copy(f"COPY {table} ({quoted}) FROM STDIN", rows)
        return
    _insert_many(f"INSERT OR FAIL INTO {table} ({quoted}) VALUES ", len(columns), rows)


def _insert_many(head: str, width: int, rows: Iterable[tuple[Any, ...]]) -> None:
    """``head`` followed by rows of ``width`` values, as many a statement as may be
    bound; what is left over is written by statements of shapes in ``shaped``."""
    one = "(" + ", ".join(["%s"] * width) + ")"
    per = max(1, connection.features.max_query_params // width)
    full = head + ", ".join([one] * per)
    with connection.cursor() as cursor:
        for chunk in _chunks(rows, per * 400):
            if any(len(row) != width for row in chunk):  # flattened, it would shift
                raise ValueError(f"expected rows of {width} values, got {_widths(chunk)}")
            whole = len(chunk) - len(chunk) % per
            if whole:
                flat = [
                    list(chain.from_iterable(chunk[start : start + per]))
                    for start in range(0, whole, per)
                ]
                cursor.executemany(full, flat)
            for start, size in shaped(len(chunk) - whole, whole):
                rest = chunk[start : start + size]
                cursor.execute(head + ", ".join([one] * size), list(chain.from_iterable(rest)))


def shaped(count: int, start: int = 0, most: int | None = None) -> Iterator[tuple[int, int]]:
    """(start, size) of statements writing ``count`` rows from ``start``: ``most`` rows a
    statement while that many are left, then a power of two each, largest first (so 45
    rows are 32, 8, 4 and 1). SQLite compiles each distinct statement text, which costs
    several times what running it does for a few dozen rows (4 us a row of 20 values
    against 0.8, measured); ``sqlite3`` keeps the last 128 it compiled. A file's rows of
    every count from 1 to 48 were each a text of their own, evicted before that count
    came again; now a table has at most seven shapes, kept compiled (issue 25)."""
    if most is not None:
        while count >= most:
            yield start, most
            start, count = start + most, count - most
    size = 1 << max(count.bit_length() - 1, 0)
    while count:
        if size <= count:
            yield start, size
            start, count = start + size, count - size
        size >>= 1


def padded(values: list[_Value], least: int = 8) -> list[_Value]:
    """``values`` with the last repeated up to a power of two (``least`` at least), for an
    IN list: it means the same, and a statement has a few texts rather than one for each
    count (``shaped``'s reason: the same-games query of a season's files came in 148)."""
    if not values:
        return values
    size = max(least, 1 << (len(values) - 1).bit_length())
    return values + values[-1:] * (size - len(values))


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
    """UPDATE by id: each row is (value of each column..., id); of two rows with one id,
    the later one's values are kept, as if each row were written in turn.

    On PostgreSQL a chunk of rows is one statement, the table joined to the rows sent as
    an array a column (a statement a row cost a round trip and an execution each, and
    twice the server's time); SQLite runs one prepared statement over the rows, as fast
    as its one-statement form (measured). A chunk whose column mixes types psycopg
    cannot put in one array (int and float, an enum) is sent a statement a row.
    """
    db = current()
    each = _update_sql(model, columns)
    if db.vendor != "postgresql":
        _run_batches(each, rows, db)
        return
    together = _UnnestUpdate(model, columns)
    with connection.cursor() as cursor:
        for chunk in _chunks(rows, BATCH):
            # One statement updates a row once, from whichever of its rows: keep the last.
            arrays = _arrays(list({row[-1]: row for row in chunk}.values()), len(columns) + 1)
            if arrays is not None:
                cursor.execute(together.sql, arrays)
            else:
                cursor.executemany(each, chunk)


_UPDATES: dict[tuple[type[models.Model], tuple[str, ...]], str] = {}


def _update_sql(model: type[models.Model], columns: tuple[str, ...]) -> str:
    """``UPDATE table SET column = %s, ... WHERE id = %s``, made once for each table and
    columns (an import updates a few a file)."""
    found = _UPDATES.get((model, columns))
    if found is None:
        quote = current().ops.quote_name
        settings = ", ".join(f"{quote(column)} = %s" for column in columns)
        found = f"UPDATE {quote(model._meta.db_table)} SET {settings} WHERE {quote('id')} = %s"
        _UPDATES[(model, columns)] = found
    return found


class _UnnestUpdate:
    """``UPDATE table SET column = v.column... FROM unnest(arrays) v WHERE table.id = v.id``.

    Each array is cast to its column's type without a length or precision: a cast would
    cut a long name silently, where the assignment refuses it, as an UPDATE of the value
    itself would.
    """

    def __init__(self, model: type[models.Model], columns: Sequence[str]) -> None:
        quote = connection.ops.quote_name
        table, names = quote(model._meta.db_table), (*columns, "id")
        fields = {field.column: field for field in model._meta.concrete_fields}
        arrays = ", ".join(f"%s::{_plain_type(fields[name])}[]" for name in names)
        settings = ", ".join(f"{quote(column)} = v.{quote(column)}" for column in columns)
        self.sql = (
            f"UPDATE {table} SET {settings} FROM unnest({arrays})"
            f" AS v ({', '.join(map(quote, names))}) WHERE {table}.{quote('id')} = v.{quote('id')}"
        )


def _plain_type(field: models.Field[Any, Any]) -> str:
    """The column's database type without its length or precision: varchar(60) -> varchar."""
    return re.sub(r"\(.*?\)", "", str(field.db_type(connection)))


def _arrays(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]] | None:
    """The rows as a list a column, or None if psycopg cannot send each as one array (or
    a row is not ``width`` long: the statement a row reports it as it always did)."""
    if any(len(row) != width for row in rows):
        return None
    arrays = [list(values) for values in zip(*rows, strict=True)]
    return arrays if all(map(_one_type, arrays)) else None


def _one_type(values: list[Any]) -> bool:
    """True when psycopg can send ``values`` as one array: at most one type besides None,
    a plain one."""
    types = set(map(type, values))
    types.discard(type(None))
    return len(types) <= 1 and types <= _ARRAY_TYPES


def _widths(rows: list[tuple[Any, ...]]) -> str:
    return ", ".join(str(width) for width in sorted({len(row) for row in rows}))


def _chunks(rows: Iterable[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    chunk: list[tuple[Any, ...]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _run_batches(sql: str, rows: Iterable[tuple[Any, ...]], db: BaseDatabaseWrapper) -> None:
    """``sql`` over the rows, a batch at a time; no cursor for no rows (most of a file's
    updates of clubs, memberships and births have none, issue 25)."""
    chunks = _chunks(rows, BATCH)
    first = next(chunks, None)
    if first is None:
        return
    with db.cursor() as cursor:
        for chunk in chain([first], chunks):
            cursor.executemany(sql, chunk)


def update_one(
    model: type[models.Model],
    pk: int,
    values: dict[str, Any],
    *,
    where: dict[str, Any] | None = None,
) -> int:
    """UPDATE the row ``pk`` if its ``where`` fields still hold those values: ``values``
    (by field name or attname) prepared by each field as the ORM's ``update`` prepares
    them, in one plain statement; the rows changed, 0 or 1. A file's outcome is written
    this way once a file, where the ORM compiled a statement each time (issue 25)."""
    db = current()
    where = where or {}
    sql, fields = _one_update(db.vendor, model, tuple(values), tuple(where))
    params = [
        field.get_db_prep_save(value, db)
        for field, value in zip(fields, (*values.values(), pk, *where.values()), strict=True)
    ]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


_Prepared = tuple[str, tuple[models.Field[Any, Any], ...]]
_ONE_UPDATES: dict[tuple[str, type[models.Model], tuple[str, ...], tuple[str, ...]], _Prepared] = {}


def _one_update(
    vendor: str, model: type[models.Model], names: tuple[str, ...], tested: tuple[str, ...]
) -> _Prepared:
    """``update_one``'s statement for these fields set and tested, and the fields that
    prepare its values (the id's among them, in the order of its placeholders): made
    once for each (a season's import settles 1,500 files by one shape)."""
    key = (vendor, model, names, tested)
    found = _ONE_UPDATES.get(key)
    if found is None:
        quote = current().ops.quote_name
        sets, tests = _fields_named(model, names), _fields_named(model, tested)
        pk = model._meta.pk
        assert pk is not None
        found = _ONE_UPDATES[key] = (
            f"UPDATE {quote(model._meta.db_table)} "
            f"SET {', '.join(f'{quote(field.column)} = %s' for field in sets)} "
            f"WHERE {' AND '.join(f'{quote(field.column)} = %s' for field in (pk, *tests))}",
            (*sets, pk, *tests),
        )
    return found


def _fields_named(
    model: type[models.Model], names: tuple[str, ...]
) -> list[models.Field[Any, Any]]:
    """The fields of these names (or attnames), each a column of the table."""
    fields = []
    for name in names:
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            field = None
        if not isinstance(field, models.Field) or not field.column:
            raise ValueError(f"expected a column of {model._meta.label}, got {name!r}")
        fields.append(field)
    return fields
