"""Rows of a query as the database gives them, for the set-based reads of whole lists."""

from __future__ import annotations

from typing import Any

import numpy as np
from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet

# Rows held as Python tuples at once by ``fetch_array``: a chunk's tuples take about
# 25 times the memory of its row in the array.
ARRAY_CHUNK = 20_000


def fetch(query: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query as the database driver gives them: no Django
    field converters, so only for columns that need none (numbers, text, booleans). On
    SQLite the driver itself still makes a column declared bool, date or datetime a
    ``bool``, ``date`` or ``datetime`` (Django registers those converters with it)."""
    try:
        sql, params = query.query.get_compiler(using=query.db).as_sql()
    except EmptyResultSet:  # filtered by an empty list: nothing to ask for
        return []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def fetch_array(query: QuerySet[Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """The rows of a ``values_list`` query, as ``fetch`` reads them, laid by numpy into a
    structured array of ``dtype`` (its fields the query's columns, in order) a chunk of
    ARRAY_CHUNK rows at a time: read whole, the tuples of a national list's P0 games and
    stored points took the load's traced peak to 86 MB, 50 MB so (2015-07; issue 25)."""
    try:
        sql, params = query.query.get_compiler(using=query.db).as_sql()
    except EmptyResultSet:
        return np.empty(0, dtype=dtype)
    parts = []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(ARRAY_CHUNK):
            parts.append(np.array(rows, dtype=dtype))
    return np.concatenate(parts) if parts else np.empty(0, dtype=dtype)
