"""Rows of model instances inserted by one plain statement, their ids read back.

An import writes a few rows of several tables for each of a season's 1,500 files. Django's
``create`` and ``bulk_create`` compile a statement each time, which costs more than the
database takes to insert a handful of rows (issue 25). Here the instance's own fields
prepare its values exactly as the ORM would (defaults, ``pre_save``, each field's
``get_db_prep_save``: dates, JSON), and the statement is plain SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection, models

from ecfgrading.registry.bulk import IN_CHUNK

M = TypeVar("M", bound=models.Model)


def insert_instances(objs: Sequence[M]) -> Sequence[M]:
    """INSERT unsaved instances of one model, setting each one's id; one statement per
    ``IN_CHUNK`` values (``INSERT ... RETURNING``: PostgreSQL, SQLite 3.35 or later).
    The ids come back in the order of the rows, as Django's own bulk_create takes them."""
    if not objs:
        return objs
    meta = type(objs[0])._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    head = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
    tail = f" RETURNING {quote(meta.pk.column)}"
    per = max(1, IN_CHUNK // len(fields))
    with connection.cursor() as cursor:
        for start in range(0, len(objs), per):
            chunk = objs[start : start + per]
            values = [_value(field, obj) for obj in chunk for field in fields]
            cursor.execute(head + ", ".join([one] * len(chunk)) + tail, values)
            for obj, (pk,) in zip(chunk, cursor.fetchall(), strict=True):
                obj.pk = pk
                obj._state.adding, obj._state.db = False, connection.alias
    return objs


def _value(field: models.Field[Any, Any], obj: models.Model) -> Any:
    return field.get_db_prep_save(field.pre_save(obj, True), connection)
