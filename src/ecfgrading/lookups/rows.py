"""Rows of a query as the database gives them, for the set-based reads of whole lists."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet


def fetch(query: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query as the database gives them: no per-row field
    conversions, so only for columns that need none (numbers and text; a boolean is 0 or 1
    on SQLite)."""
    try:
        sql, params = query.query.get_compiler(using=query.db).as_sql()
    except EmptyResultSet:  # filtered by an empty list: nothing to ask for
        return []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
