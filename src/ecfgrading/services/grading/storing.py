"""Writing a grading run's columns (numpy arrays) into a table at the database's own pace.

A national run stores 400,000 points rows (G17). Built as Python tuples and sent row by row
(``registry.bulk.insert_rows``), the rows cost more on the client than the database takes
to write them; here they go as columns: on PostgreSQL as one binary COPY whose bytes numpy
lays out whole, on SQLite as INSERTs of several hundred rows each over the columns' values.

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
    """The rows by INSERTs of many rows each (``_many_rows``). A whole-number column of
    one value (the version, the period) is written once into the statement rather than
    bound for every row."""
    quote = connection.ops.quote_name
    fixed = {name: _one_integer(values) for name, values in columns.items()}
    if all(value is not None for value in fixed.values()):  # rows need a value bound
        fixed = dict.fromkeys(columns)
    bound = [name for name in columns if fixed[name] is None]
    row = ", ".join("%s" if fixed[name] is None else str(fixed[name]) for name in columns)
    names = ", ".join(quote(name) for name in columns)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES "
    values = np.empty((len(columns[bound[0]]), len(bound)), dtype=object)
    for position, name in enumerate(bound):
        values[:, position] = _python_values(columns[name])
    _many_rows(head, f"({row})", values)


def _many_rows(head: str, row: str, values: np.ndarray) -> None:  # type: ignore[type-arg]
    """INSERT ``values`` (one row of bound values per line) as statements of as many rows
    as the driver binds at once, in their order.

    SQLite works an AUTOINCREMENT table's counter (a look-up in ``sqlite_sequence``, which
    holds a row for each of the registry's tables, and its update) once per statement, as
    it starts and resets the statement itself: one row a statement, that cost more than
    writing the row. A national run's 400,000 points (G17) took 1.0-1.2 s of CPU that
    way, 0.35 s as statements of 199 rows (measured on the bench's registry).
    """
    count, width = values.shape
    per_statement = max(1, connection.features.max_query_params // max(width, 1))
    whole = count - count % per_statement
    with connection.cursor() as cursor:
        if whole:
            sql = head + ", ".join([row] * per_statement)
            cursor.executemany(sql, values[:whole].reshape(-1, per_statement * width).tolist())
        if whole < count:
            cursor.execute(
                head + ", ".join([row] * (count - whole)), values[whole:].ravel().tolist()
            )


def _one_integer(column: np.ndarray) -> int | None:  # type: ignore[type-arg]
    """The value of a whole-number column that holds only one, else None."""
    if column.dtype.kind not in "iu" or not column.size or np.any(column != column[0]):
        return None
    return int(column[0])


def _python_values(column: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """A column as the values the SQLite driver takes (Python objects): a date as its ISO
    text, each distinct day made once (a season has 365 of them, a national run 400,000
    dates)."""
    if np.issubdtype(column.dtype, np.datetime64):
        days, inverse = np.unique(column.astype("datetime64[D]"), return_inverse=True)
        texts = np.array(np.datetime_as_string(days, unit="D").tolist(), dtype=object)
        return texts[inverse.reshape(-1)]  # type: ignore[no-any-return]
    return column.astype(object)


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
