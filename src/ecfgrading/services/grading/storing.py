"""Writing a grading run's columns (numpy arrays) into a table at the database's own pace.

A national run stores 400,000 points rows (G17). Built as Python tuples and sent row by row
(``registry.bulk.insert_rows``), the rows cost more on the client than the database takes
to write them; here they go as columns: on PostgreSQL as one binary COPY whose bytes numpy
lays out whole, on SQLite as INSERTs of several hundred rows each over the columns' values.

Only columns without NULLs, of the types below: what the points and totals tables hold.
``replace_columns`` makes a version's rows those given: on PostgreSQL, a draft computed
again, by writing only the rows that changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import psycopg
from django.db import connection, models

from ecfgrading.registry.models import assert_version_editable

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
    fields, count = _checked(model, columns)
    if count == 0:
        return 0
    if connection.vendor == "postgresql":
        _copy_binary(model, {name: (fields[name], values) for name, values in columns.items()})
    else:
        _execute_many(model, columns)
    return count


def replace_columns(
    model: type[models.Model],
    columns: Mapping[str, np.ndarray],  # type: ignore[type-arg]
    version_id: int,
) -> int:
    """Make the rows of list version ``version_id`` in ``model``'s table exactly those of
    ``columns`` (as ``insert_columns``; each row's ``version_id`` is that version): the
    version's other rows go. The number of rows given.

    On SQLite, and into a version without rows, the version's rows are deleted and these
    inserted. On PostgreSQL a version's rows written again (a draft computed again) are
    compared first (``_changed``): only those that differ are deleted, and only the rows
    it lacks inserted. A row deleted and inserted again in one transaction leaves its dead
    twin in the unique index (version, player, game), which the new row is checked against
    and split in beside: a national draft's 400,000 points, computed again, took 2.5 s of
    the server's CPU to COPY that way against 1.0 s into a version without rows (measured
    with ``bench/grading_run.py``). Comparing them costs about 0.7 s of CPU (the server's
    and this process's), and deleting rows by id more than by version, so it is done only
    when a sample of the new rows finds at least half of them stored already
    (``_kept_of_sample``): with 48% of them, both ways cost the same (3.2 s of CPU).
    """
    fields, count = _checked(model, columns)
    if "version_id" not in columns or np.any(np.asarray(columns["version_id"]) != version_id):
        raise ValueError(f"expected rows of version {version_id} only")
    assert_version_editable(version_id)
    given = {name: (fields[name], values) for name, values in columns.items()}
    if connection.vendor != "postgresql" or _kept_of_sample(model, given) < _WORTH_COMPARING:
        model._default_manager.filter(version_id=version_id).delete()
        return insert_columns(model, columns)
    kept, gone, new = _changed(model, given)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if kept.size == 0:
            cursor.execute(f"DELETE FROM {table} WHERE version_id = %s", [version_id])
        elif gone.size:  # joined to the ids: "id = ANY" of 200,000 ids took minutes
            cursor.execute(
                f"DELETE FROM {table} AS old USING unnest(%s::bigint[]) AS gone(id) "
                "WHERE old.id = gone.id",
                [gone.tolist()],
            )
    if new.any():
        insert_columns(model, {name: values[new] for name, values in columns.items()})
    return count


def _checked(
    model: type[models.Model],
    columns: Mapping[str, np.ndarray],  # type: ignore[type-arg]
) -> tuple[dict[str, models.Field[Any, Any]], int]:
    """The model's fields by column, and the number of rows ``columns`` hold."""
    fields = {field.column: field for field in model._meta.concrete_fields}
    unknown = sorted(set(columns) - set(fields))
    if unknown:
        raise TypeError(f"expected columns of {model._meta.db_table}, got {unknown}")
    sizes = {len(values) for values in columns.values()}
    if len(sizes) > 1:
        raise ValueError(f"expected columns of one length, got lengths {sorted(sizes)}")
    return fields, (sizes.pop() if sizes else 0)


_SAMPLE = 1_000  # new rows looked up in the version's stored rows, spread over them all
_WORTH_COMPARING = 0.5  # the share of them found that makes comparing all rows pay


def _kept_of_sample(
    model: type[models.Model],
    columns: Mapping[str, tuple[models.Field[Any, Any], np.ndarray]],  # type: ignore[type-arg]
) -> float:
    """The share of a sample of the new rows that the version holds already, equal in
    every column (0.0 when it holds no rows): each looked up by the table's indexes."""
    count = len(columns["version_id"][1])
    if count == 0:
        return 0.0
    quote = connection.ops.quote_name
    sample = np.unique(np.linspace(0, count - 1, min(count, _SAMPLE)).astype(np.int64))
    compared = [(name, field) for name, (field, _v) in columns.items() if name != "version_id"]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for _name, field in compared)
    named = ", ".join(quote(name) for name, _field in compared)
    # One look-up a row (LATERAL, LIMIT): the version's row count, unknown to the planner
    # for a draft just written, led it to hash all the version's rows instead (0.2 s).
    sql = (
        f"SELECT count(*) FROM unnest({arrays}) AS new({named}) CROSS JOIN LATERAL "
        f"(SELECT FROM {quote(model._meta.db_table)} AS old WHERE old.version_id = %s "
        f"AND {_same_rows(compared)} LIMIT 1) AS found"
    )
    params = [columns[name][1][sample].tolist() for name, _field in compared]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, int(columns["version_id"][1][0])])
        (found,) = cursor.fetchone()
    return int(found) / sample.size


def _same_rows(compared: list[tuple[str, models.Field[Any, Any]]]) -> str:
    """SQL: rows ``new`` and ``old`` are equal in every column, floats bit for bit."""
    quote = connection.ops.quote_name
    return " AND ".join(
        f"float8send(new.{quote(name)}) = float8send(old.{quote(name)})"
        if field.db_type(connection) == "double precision"
        else f"new.{quote(name)} = old.{quote(name)}"
        for name, field in compared
    )


# Each type's binary form, by its send function (as a binary COPY writes it: _BINARY), and
# the value a NULL is read back as, beside a flag (no new row has NULLs).
_SEND = {
    "smallint": "int2send",
    "integer": "int4send",
    "bigint": "int8send",
    "double precision": "float8send",
    "boolean": "boolsend",
    "date": "date_send",
}
_NULL_AS = {"date": "DATE '2000-01-01'", "boolean": "FALSE"}


def _changed(
    model: type[models.Model],
    columns: Mapping[str, tuple[models.Field[Any, Any], np.ndarray]],  # type: ignore[type-arg]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    """The ids of the version's rows to keep (equal, in every column, to a new row) and to
    delete, and which new rows to insert (a mask).

    The version's rows are read as one row of one binary string per column (each value's
    binary form, ``string_agg``): a binary COPY out sends a message per row, which
    psycopg reads one by one (1 s of CPU for a national draft's 400,000 points). They are
    compared with the new rows as bytes: a float kept is the one given, bit for bit (0.0
    and -0.0, equal to ``=``, are not the same row), and a row with a NULL is never kept.
    """
    quote = connection.ops.quote_name
    compared = [(name, field) for name, (field, _v) in columns.items() if name != "version_id"]
    layout = [(name, _binary_type(field)) for name, field in compared]
    nulls = " OR ".join(f"{quote(name)} IS NULL" for name, field in compared if field.null)
    selected = ["int8send(id)", f"boolsend({nulls or 'FALSE'})"]
    for name, field in compared:
        db_type = field.db_type(connection)
        value = (
            f"COALESCE({quote(name)}, {_NULL_AS.get(db_type, '0')})" if field.null else quote(name)
        )
        selected.append(f"{_SEND[db_type]}({value})")
    sql = (
        f"SELECT {', '.join(f'string_agg({part}, %s)' for part in selected)} "
        f"FROM {quote(model._meta.db_table)} WHERE version_id = %s"
    )
    version_id = int(columns["version_id"][1][0])
    # Binary results (raw bytes, not hex): a plain psycopg cursor on Django's connection.
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        found = cursor.execute(sql, [b""] * len(selected) + [version_id], binary=True).fetchone()
    ids, null, *parts = [bytes(part or b"") for part in found or ()]
    old = np.empty(len(ids) // 8, dtype=[(name, kind) for name, kind in layout])
    for (name, kind), part in zip(layout, parts, strict=True):
        if len(part) != old.size * np.dtype(kind).itemsize:
            raise ValueError(f"expected {old.size} values of {name}, got {len(part)} bytes")
        old[name] = np.frombuffer(part, dtype=kind)
    values = np.empty(len(columns["version_id"][1]), dtype=old.dtype)
    for name, _kind in layout:
        values[name] = _binary_values(columns[name][1])
    old_words, new_words = _words(old), _words(values)
    old_hash, new_hash = _hashed(old_words), _hashed(new_words)
    same = np.zeros(new_hash.size, bool)
    twin = np.zeros(new_hash.size, np.int64)
    if old.size:
        order = np.argsort(old_hash, kind="stable")
        twin = order[np.minimum(np.searchsorted(old_hash[order], new_hash), order.size - 1)]
        same = (old_hash[twin] == new_hash) & (old_words[twin] == new_words).all(axis=1)
        same &= ~np.frombuffer(null, dtype="?")[twin]
    # Of two equal new rows, one is kept and the other inserted: the unique index refuses
    # it, as it would have without the comparison.
    matched, first = np.unique(twin[same], return_index=True)
    inserted = np.ones(new_hash.size, bool)
    inserted[np.flatnonzero(same)[first]] = False
    keep = np.zeros(old.size, bool)
    keep[matched] = True
    old_ids = np.frombuffer(ids, dtype=">i8").astype(np.int64)
    return old_ids[keep], old_ids[~keep], inserted


def _words(rows: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """Each row's bytes as 64-bit words (zero-padded): rows compared whole, bit for bit."""
    width = -(-rows.dtype.itemsize // 8) * 8
    padded = np.zeros((rows.size, width), np.uint8)
    padded[:, : rows.dtype.itemsize] = rows.view(np.uint8).reshape(rows.size, rows.dtype.itemsize)
    return padded.view(np.uint64)


def _hashed(words: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """A 64-bit hash of each row's words: equal rows hash equal (others almost never, and
    rows are compared whole after)."""
    hashed = np.full(words.shape[0], 0x9E3779B97F4A7C15, np.uint64)
    for column in words.T:
        hashed = (hashed ^ column) * np.uint64(0xFF51AFD7ED558CCD)
        hashed ^= hashed >> np.uint64(33)
    return hashed


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
    # OR FAIL: no copy of each page a statement touches (registry.bulk.insert_rows); a
    # refused row raises, and the run's transaction takes the rows back.
    head = f"INSERT OR FAIL INTO {quote(model._meta.db_table)} ({names}) VALUES "
    count = len(columns[bound[0]])
    # Made into Python objects a part at a time (a whole number of statements each): a
    # national run's 400,000 points at once were 60 MB of objects, the run's peak memory.
    per_statement = max(1, connection.features.max_query_params // len(bound))
    part = max(1, _ROWS_PER_WRITE // per_statement) * per_statement
    for start in range(0, count, part):
        rows = slice(start, min(start + part, count))
        values = np.empty((rows.stop - rows.start, len(bound)), dtype=object)
        for position, name in enumerate(bound):
            values[:, position] = _python_values(columns[name][rows])
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
