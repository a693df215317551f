"""``registry.backends.sqlite3``: Django's SQLite backend, a statement's placeholders
converted once and remembered (issue 25), with every answer as Django's own gives it.

Run on a SQLite file of its own, whichever database the session tests."""

import sqlite3
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.sqlite3.base import SQLiteCursorWrapper as DjangosCursor
from django.db.utils import ConnectionHandler

from ecfgrading.registry.backends.sqlite3 import base

STATEMENTS = [
    "SELECT %s",
    "SELECT %s, %s FROM t WHERE a IN (%s, %s)",
    "SELECT name FROM t WHERE name LIKE '%%son' AND id = %s",
    "SELECT '%%s', %s",  # a literal %s, written %%s
    "SELECT 1",
]


@pytest.fixture
def own(tmp_path: Path, django_db_blocker: Any) -> Iterator[BaseDatabaseWrapper]:
    engine = "ecfgrading.registry.backends.sqlite3"
    handler = ConnectionHandler({"default": {"ENGINE": engine, "NAME": str(tmp_path / "t.db")}})
    wrapper = handler["default"]
    with django_db_blocker.unblock():
        yield wrapper
        wrapper.close()


@pytest.mark.parametrize("statement", STATEMENTS)
def test_a_statement_is_converted_as_djangos_own_cursor_converts_it(statement: str) -> None:
    djangos = DjangosCursor.convert_query(None, statement)  # type: ignore[arg-type]

    assert base.qmark(statement) == djangos


def test_the_same_text_is_converted_once_however_often_it_runs(own) -> None:
    text = "SELECT %s + %s, '%%'"  # a new string object each run, as a hot path makes it
    base.qmark.cache_clear()

    with own.cursor() as cursor:
        for n in range(5):
            cursor.execute("".join(text), [n, 1])
            assert cursor.fetchone() == (n + 1, "%")

    info = base.qmark.cache_info()
    assert (info.misses, info.hits) == (1, 4)


def test_the_backend_is_djangos_sqlite_with_its_own_cursor(own) -> None:
    assert own.vendor == "sqlite"
    with own.cursor() as cursor:
        assert isinstance(cursor.cursor, base.SQLiteCursorWrapper)
        cursor.execute("SELECT %(a)s * %(b)s", {"a": 6, "b": 7})  # Django's named style
        assert cursor.fetchone() == (42,)


def test_a_refused_row_raises_djangos_error(own) -> None:
    with own.cursor() as cursor:
        cursor.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        cursor.executemany("INSERT INTO t (id, name) VALUES (%s, %s)", [(1, "a"), (2, "b")])
        with pytest.raises(IntegrityError):
            cursor.executemany("INSERT INTO t (id, name) VALUES (%s, %s)", [(3, "c"), (1, "d")])
        cursor.execute("SELECT COUNT(*) FROM t WHERE name LIKE %s", ["%"])
        assert cursor.fetchone() == (3,)  # no transaction: the row before the refused one


def test_nones_and_flags_are_bound_by_adapters_found_at_once_as_before(own) -> None:
    """Issue 25: ``sqlite3`` looks for an adapter of any value but an int, a float, a
    str or a bytearray, and without one formats and drops two AttributeErrors first. The
    backend registers None's and bool's: what is stored is what it was, NULL, 1 and 0."""
    key = sqlite3.PrepareProtocol
    assert sqlite3.adapters[(type(None), key)](None) is None
    assert (
        sqlite3.adapters[(bool, key)](True) == 1
        and type(sqlite3.adapters[(bool, key)](True)) is int
    )
    with own.cursor() as cursor:
        cursor.execute("CREATE TABLE f (a, b, c)")
        cursor.execute("INSERT INTO f (a, b, c) VALUES (%s, %s, %s)", [None, True, False])
        cursor.execute("SELECT typeof(a), a, typeof(b), b, typeof(c), c FROM f")
        assert cursor.fetchone() == ("null", None, "integer", 1, "integer", 0)


def test_a_date_is_bound_as_djangos_adapter_binds_it(own) -> None:
    """Issue 25: a day bound by ``date.isoformat`` itself, the text Django's adapter
    makes, without a function of its own around it; a time keeps Django's adapter."""
    from django.db.backends.sqlite3.base import adapt_date

    key = sqlite3.PrepareProtocol
    assert sqlite3.adapters[(date, key)] is date.isoformat
    days = [date(1, 1, 1), date(2009, 10, 5), date(9999, 12, 31)]
    assert [sqlite3.adapters[(date, key)](day) for day in days] == list(map(adapt_date, days))
    moment = datetime(2009, 10, 5, 18, 30, 1, 250)
    with own.cursor() as cursor:
        cursor.execute("CREATE TABLE d (a, b)")
        cursor.execute("INSERT INTO d (a, b) VALUES (%s, %s)", [days[1], moment])
        cursor.execute("SELECT typeof(a), a, b FROM d")
        assert cursor.fetchone() == ("text", "2009-10-05", "2009-10-05 18:30:01.000250")
