"""Writing a grading run's columns (numpy arrays) into a table at the database's own pace.

A national run stores 400,000 points rows (G17). Built as Python tuples and sent row by row
(``registry.bulk.insert_rows``), the rows cost more on the client than the database takes
to write them; here they go as columns: on PostgreSQL as one binary COPY whose bytes numpy
lays out whole, on SQLite by one ``executemany`` over the columns' values.

Only columns without NULLs, of the types below: what the points and totals tables hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from django.db import connection, models

# PostgreSQL's binary COPY (its documentation, "COPY", "Binary Format"): a signature, the
# flags and the header extension's length, then per row the number of fields and each
# field as its length and its bytes, big-endian; -1 as the trailer.
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + np.array([0, 0], dtype=">i4").tobytes()
_TRAILER = np.array([-1], dtype=">i2").tobytes()
# A column's binary layout by its database type; a date is days since 2000-01-01.
_BINARY = {
    "smallint": ">i2",
    "integer": ">i4",
    "bigint": ">i8",
    "double precision": ">f8",
    "boolean": "?",
    "date": ">i4",
}
_PG_EPOCH = np.datetime64("2000-01-01", "D")
_ROWS_PER_WRITE = 50_000  # bounds the bytes held at once (about 4 MB for points rows)


def insert_columns(model: type[models.Model], columns: Mapping[str, np.ndarray]) -> int:  # type: ignore[type-arg]
    """INSERT one row per position of ``columns`` (database column name -> values, all of
    one length, no NULLs); the number of rows written."""
    fields = {field.column: field for field in model._meta.concrete_fields}
    unknown = sorted(set(columns) - set(fields))
    if unknown:
        raise TypeError(f"expected columns of {model._meta.db_table}, got {unknown}")
    sizes = {len(values) for values in columns.values()}
    if len(sizes) > 1:
        raise ValueError(f"expected columns of one length, got lengths {sorted(sizes)}")
    count = sizes.pop() if sizes else 0
    if count == 0:
        return 0
    if connection.vendor == "postgresql":
        _copy_binary(model, {name: (fields[name], values) for name, values in columns.items()})
    else:
        _execute_many(model, columns)
    return count


def _execute_many(model: type[models.Model], columns: Mapping[str, np.ndarray]) -> None:  # type: ignore[type-arg]
    quote = connection.ops.quote_name
    names = ", ".join(quote(name) for name in columns)
    places = ", ".join(["%s"] * len(columns))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({places})"
    values = [_python_values(column) for column in columns.values()]
    with connection.cursor() as cursor:
        cursor.executemany(sql, zip(*values, strict=True))


def _python_values(column: np.ndarray) -> list[Any]:  # type: ignore[type-arg]
    """A column as the values the SQLite driver takes: a date as its ISO text."""
    if np.issubdtype(column.dtype, np.datetime64):
        return np.datetime_as_string(column.astype("datetime64[D]"), unit="D").tolist()
    return column.tolist()  # type: ignore[no-any-return]


def _copy_binary(
    model: type[models.Model],
    columns: Mapping[str, tuple[models.Field[Any, Any], np.ndarray]],  # type: ignore[type-arg]
) -> None:
    quote = connection.ops.quote_name
    names = ", ".join(quote(name) for name in columns)
    sql = f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN (FORMAT BINARY)"
    layout = [(name, _binary_type(field)) for name, (field, _values) in columns.items()]
    count = len(next(iter(columns.values()))[1])
    # COPY runs on psycopg's own cursor: Django's wrapper turns its errors into Django's.
    with (
        connection.cursor() as cursor,
        connection.wrap_database_errors,
        cursor.cursor.copy(sql) as copy,
    ):
        copy.write(_SIGNATURE)
        for start in range(0, count, _ROWS_PER_WRITE):
            part = slice(start, min(start + _ROWS_PER_WRITE, count))
            copy.write(_tuples(layout, {n: v[part] for n, (_f, v) in columns.items()}))
        copy.write(_TRAILER)


def _binary_type(field: models.Field[Any, Any]) -> str:
    db_type = field.db_type(connection)
    if db_type not in _BINARY:
        raise TypeError(f"expected a column of type {sorted(_BINARY)}, got {db_type}")
    return _BINARY[db_type]


def _tuples(layout: list[tuple[str, str]], values: Mapping[str, np.ndarray]) -> bytes:  # type: ignore[type-arg]
    """The rows' tuples in the binary format, laid out by numpy in one go."""
    dtype = np.dtype(
        [("fields", ">i2")]
        + [part for name, kind in layout for part in ((f"{name}.size", ">i4"), (name, kind))]
    )
    count = len(next(iter(values.values())))
    rows = np.empty(count, dtype=dtype)
    rows["fields"] = len(layout)
    for name, kind in layout:
        rows[f"{name}.size"] = np.dtype(kind).itemsize
        wanted = _binary_values(values[name])
        rows[name] = wanted
        if wanted.dtype.kind in "iu" and not np.array_equal(rows[name], wanted):  # too large
            raise ValueError(f"expected values that fit {name} ({kind}), got {wanted}")
    return rows.tobytes()


def _binary_values(column: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    if np.issubdtype(column.dtype, np.datetime64):
        return (column.astype("datetime64[D]") - _PG_EPOCH).astype(np.int64)
    return column
