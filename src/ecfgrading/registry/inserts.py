"""Rows inserted by one plain statement, their ids read back.

An import writes a few rows of several tables for each of a season's 1,500 files. Django's
``create`` and ``bulk_create`` compile a statement each time, which costs more than the
database takes to insert a handful of rows (issue 25). ``insert_instances`` lets the
instance's own fields prepare its values exactly as the ORM would (defaults,
``pre_save``, each field's ``get_db_prep_save``: dates, JSON); ``insert_returning`` takes
values already as the columns store them (ids, numbers, text), with no instance at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.fields import AutoFieldMixin

from ecfgrading.registry.bulk import IN_CHUNK, current, shaped

M = TypeVar("M", bound=models.Model)


def insert_instances(objs: Sequence[M]) -> Sequence[M]:
    """INSERT unsaved instances of one model, setting each one's id; one statement per
    ``IN_CHUNK`` values (``INSERT ... RETURNING``: PostgreSQL, SQLite 3.35 or later).
    The ids come back in the order of the rows, as Django's own bulk_create takes them."""
    if not objs:
        return objs
    db = current()  # once, not once a value: each use of django.db.connection looks it up
    fields = _fields(type(objs[0]), db)
    rows = [tuple(_value(column, obj, db) for column in fields) for obj in objs]
    ids = insert_returning(type(objs[0]), tuple(field.column for field, _, _ in fields), rows)
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, db.alias
    return objs


def insert_returning(
    model: type[models.Model], columns: tuple[str, ...], rows: Sequence[tuple[Any, ...]]
) -> list[int]:
    """INSERT ``rows`` (tuples of database values in ``columns`` order) and return their
    ids, in the order of the rows; one statement per ``IN_CHUNK`` values. For rows whose
    values need no field to prepare them (a player's id, a season): a season's 30,000
    noted players or new memberships are then no model instance each."""
    if any(len(row) != len(columns) for row in rows):  # flattened, it would shift
        raise ValueError(f"expected rows of {len(columns)} values, got {set(map(len, rows))}")
    db = current()
    head, one, tail = _insert_sql(db.vendor, model, columns)
    per = max(1, IN_CHUNK // max(1, len(columns)))
    ids: list[int] = []
    # The last row id is the id only where the id is SQLite's row id (an automatic id).
    alone = db.vendor == "sqlite" and isinstance(model._meta.pk, AutoFieldMixin)
    with db.cursor() as cursor:
        for start, size in _statements(len(rows), per, db.vendor):
            values = [value for row in rows[start : start + size] for value in row]
            if size == 1 and alone:  # the row's id without RETURNING's cost (_ALONE)
                cursor.execute(head + one, values)
                ids.append(cursor.lastrowid)
                continue
            cursor.execute(head + ", ".join([one] * size) + tail, values)
            ids += [pk for (pk,) in cursor.fetchall()]
    return ids


# _ALONE: SQLite runs an INSERT ... RETURNING by writing what it returns to a table of
# its own first, which doubled the cost of inserting one small row (33 against 16.5 us,
# an audit entry, measured); the id of a row inserted alone is the connection's last
# row id, which ``sqlite3`` gives for nothing. Most of an import's inserts are of one
# row (a file's event, audit entry, submission; issue 25).


_SQL: dict[tuple[str, type[models.Model], tuple[str, ...]], tuple[str, str, str]] = {}


def _insert_sql(
    vendor: str, model: type[models.Model], columns: tuple[str, ...]
) -> tuple[str, str, str]:
    """``INSERT INTO table (columns) VALUES ``, one row's ``(%s, ...)`` and `` RETURNING
    id``: made once for each table and columns of ``vendor`` (10,000 calls a season)."""
    key = (vendor, model, columns)
    found = _SQL.get(key)
    if found is None:
        quote = current().ops.quote_name
        meta = model._meta
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(map(quote, columns))}) VALUES "
        found = _SQL[key] = (head, one, f" RETURNING {quote(meta.pk.column)}")
    return found


def _statements(count: int, most: int, vendor: str) -> Iterator[tuple[int, int]]:
    """(start, size) of the statements writing ``count`` rows, ``most`` at most each. On
    SQLite a few shapes, kept compiled (``shaped``); PostgreSQL keeps no statement
    compiled here (Django binds on the client), and each statement more is a round trip:
    a season's import sent 3,713 statements noting changed players where 1,530 files
    needed at most one each (issue 25)."""
    if vendor == "sqlite":
        yield from shaped(count, most=most)
        return
    for start in range(0, count, most):
        yield start, min(most, count - start)


# Fields whose value of these very types the ORM stores as it is: their ``pre_save``
# reads the attribute and ``get_db_prep_save`` hands such a value back unchanged (a text
# field's str, a flag's bool and, on SQLite, a number's int and a foreign key's id; on
# PostgreSQL Django wraps a number in psycopg's type of its column, so numbers go
# through the field there). Any other value, or field, goes through the field's own
# methods. A season's import prepares 200,000 values this way, and the ORM's calls
# were a tenth of its Python (issue 25).
_TEXT: frozenset[type] = frozenset({str, type(None)})
_WHOLE: frozenset[type] = frozenset({int, type(None)})
_STORED_AS_IS: dict[type[models.Field[Any, Any]], frozenset[type]] = {
    models.CharField: _TEXT,
    models.TextField: _TEXT,
    models.BooleanField: frozenset({bool, type(None)}),
}
_NUMBERS_AS_IS: dict[type[models.Field[Any, Any]], frozenset[type]] = dict.fromkeys(
    (
        models.IntegerField,
        models.BigIntegerField,
        models.SmallIntegerField,
        models.PositiveIntegerField,
        models.PositiveSmallIntegerField,
        models.PositiveBigIntegerField,
        models.ForeignKey,
    ),
    _WHOLE,
)
_NOTHING: frozenset[type] = frozenset()


def _day_text(value: Any) -> Any:
    """A date as SQLite's backend stores it (``adapt_datefield_value``: its ISO text)."""
    return value.isoformat() if type(value) is date else _ASK_THE_FIELD


def _utc_text(value: Any) -> Any:
    """A time in UTC as SQLite's backend stores it when the connection's time zone is UTC
    (``adapt_datetimefield_value``: made naive in that zone, then its text): the
    ``timezone.now()`` of every row's creation time; any other goes through the field."""
    if type(value) is datetime and value.tzinfo is UTC:
        return str(value.replace(tzinfo=None))
    return _ASK_THE_FIELD


_ASK_THE_FIELD = object()
# On SQLite, fields whose values of one type its backend stores as text made plainly:
# a season's import prepared 30,000 creation times and 15,000 dates of birth through
# the fields' methods, 25 us each (issue 25). The text made here is the backend's own
# (tests/registry/test_inserts.py compares them).
_AS_TEXT: dict[type[models.Field[Any, Any]], Callable[[Any], Any]] = {
    models.DateField: _day_text,
    models.DateTimeField: _utc_text,
}

_Column = tuple[models.Field[Any, Any], frozenset[type], Callable[[Any], Any] | None]
_Columns = tuple[_Column, ...]
_COLUMNS: dict[tuple[str, type[models.Model]], _Columns] = {}


def _fields(model: type[models.Model], db: BaseDatabaseWrapper) -> _Columns:
    """The model's columns but its id, each with the types of value stored as they are
    on ``db`` and the plain maker of the text some are stored as."""
    key = (db.vendor, model)
    found = _COLUMNS.get(key)
    if found is None:
        sqlite = db.vendor == "sqlite"
        as_is = {**_STORED_AS_IS, **_NUMBERS_AS_IS} if sqlite else _STORED_AS_IS
        as_text = _AS_TEXT if sqlite and db.timezone is UTC else {}
        found = _COLUMNS[key] = tuple(
            (field, as_is.get(type(field), _NOTHING), as_text.get(type(field)))
            for field in model._meta.concrete_fields
            if not field.primary_key
        )
    return found


def _value(column: _Column, obj: models.Model, db: BaseDatabaseWrapper) -> Any:
    field, plain, text = column
    if plain:
        value = getattr(obj, field.attname)
        if type(value) in plain:
            return value
    value = field.pre_save(obj, True)  # an automatic time set now, as the ORM sets it
    if text is not None:
        made = text(value)
        if made is not _ASK_THE_FIELD:
            return made
    return field.get_db_prep_save(value, db)
