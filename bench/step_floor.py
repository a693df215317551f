"""The floor of a step's write: the rows it added, inserted again plainly.

``marks()`` reads the highest primary key of every table with an integer key; a step's
``added(before, after)`` are the key ranges it filled. ``floor_of`` reads those rows
back and times inserting them again, in one transaction, into empty tables of the same
columns and indexes: on SQLite ``executemany`` into a fresh file in WAL mode with a
256 MB page cache (the tables' own DDL and indexes, copied from ``sqlite_master``; the
rows read back as stored, in the types SQLite keeps); on
PostgreSQL ``COPY`` into tables ``LIKE`` the registry's (``INCLUDING ALL``: defaults,
checks and indexes, not foreign keys) in a schema of their own in the same database.

Rows a step changed or deleted are not in its floor; only rows it added, in tables whose
primary key is an integer (every registry table but the sequences' names).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FLOOR_SCHEMA = "scale_floor"
PAGE_CACHE_KIB = 256 * 1024  # SQLite's cache_size in KiB when negative


@dataclass(frozen=True)
class Floor:
    """Inserting a step's rows again: wall seconds, CPU seconds (this process and, on
    PostgreSQL, the server process that wrote them), and how many rows."""

    seconds: float
    cpu: float
    rows: int


@dataclass(frozen=True)
class Added:
    """The rows a step added to one table: primary keys in (after, upto]."""

    table: str
    key: str
    after: int
    upto: int


def marks() -> dict[str, tuple[str, int]]:
    """table -> (primary key column, highest key now, 0 when empty)."""
    from django.apps import apps
    from django.db import connection

    found: dict[str, tuple[str, int]] = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            meta = model._meta
            if meta.proxy or not meta.managed or meta.pk is None:
                continue
            if meta.pk.get_internal_type() not in _INTEGER_KEYS:
                continue
            key = meta.pk.column
            cursor.execute(f"SELECT MAX({quote(key)}) FROM {quote(meta.db_table)}")
            (highest,) = cursor.fetchone()
            found[meta.db_table] = (key, int(highest or 0))
    return found


_INTEGER_KEYS = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "ForeignKey",
    "OneToOneField",
    "PositiveIntegerField",
}


def added(before: dict[str, tuple[str, int]], after: dict[str, tuple[str, int]]) -> list[Added]:
    """The key ranges filled between two ``marks()``, tables in their order there."""
    return [
        Added(table, key, before.get(table, (key, 0))[1], highest)
        for table, (key, highest) in after.items()
        if highest > before.get(table, (key, 0))[1]
    ]


def floor_of(ranges: list[Added], workdir: Path | None = None) -> Floor:
    """Inserting the rows of ``ranges`` again plainly, in one transaction."""
    from django.db import connection

    if not ranges:
        return Floor(0.0, 0.0, 0)
    if connection.vendor == "postgresql":
        return _postgres_floor(ranges)
    return _sqlite_floor(ranges, workdir)


# SQLite ------------------------------------------------------------------------------------


def _sqlite_floor(ranges: list[Added], workdir: Path | None) -> Floor:
    """The rows read as stored, inserted into a fresh file by ``executemany``."""
    from django.db import connection

    with connection.cursor() as cursor:
        raw = cursor.connection
        ddl = [_ddl(raw, each.table) for each in ranges]
        tables = [_sqlite_rows(raw, each) for each in ranges]
    with tempfile.TemporaryDirectory(prefix="floor-", dir=workdir) as folder:
        writer = sqlite3.connect(Path(folder) / "floor.sqlite3", isolation_level=None)
        try:
            writer.execute("PRAGMA journal_mode=WAL")
            writer.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
            for statements in ddl:
                for statement in statements:
                    writer.execute(statement)
            start, cpu = time.perf_counter(), time.process_time()
            writer.execute("BEGIN")
            for table, columns, rows in tables:
                values = ", ".join("?" * len(columns))
                names = ", ".join(f'"{column}"' for column in columns)
                writer.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({values})', rows)
            writer.execute("COMMIT")
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        finally:
            writer.close()
    return Floor(seconds, cpu, sum(len(rows) for _, _, rows in tables))


def _ddl(raw: sqlite3.Connection, table: str) -> list[str]:
    """The table's CREATE TABLE, then its indexes' CREATE INDEX."""
    found = raw.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL "
        "ORDER BY type = 'index'",
        (table,),
    )
    return [sql for (sql,) in found]


def _sqlite_rows(raw: sqlite3.Connection, each: Added) -> tuple[str, list[str], list[Any]]:
    """The rows as stored: each column read as ``+"column"``, an expression, which has no
    declared type for Django's converters (dates, booleans) to act on."""
    columns = [row[1] for row in raw.execute(f'PRAGMA table_info("{each.table}")')]
    plain = ", ".join(f'+"{column}"' for column in columns)
    cursor = raw.execute(
        f'SELECT {plain} FROM "{each.table}" WHERE "{each.key}" > ? AND "{each.key}" <= ?',
        (each.after, each.upto),
    )
    return each.table, columns, cursor.fetchall()


# PostgreSQL --------------------------------------------------------------------------------


def _postgres_floor(ranges: list[Added]) -> Floor:
    """The rows copied out as COPY text, then ``COPY ... FROM STDIN`` in one transaction
    on a connection of its own."""
    import psycopg
    from django.db import connection

    with connection.cursor() as cursor:
        raw = cursor.connection
        tables = [_postgres_rows(raw, each) for each in ranges]
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    ) as writer:
        writer.execute(f"DROP SCHEMA IF EXISTS {FLOOR_SCHEMA} CASCADE")
        writer.execute(f"CREATE SCHEMA {FLOOR_SCHEMA}")
        for table, _, _, _ in tables:
            writer.execute(
                f'CREATE TABLE {FLOOR_SCHEMA}."{table}" (LIKE public."{table}" INCLUDING ALL)'
            )
        server = writer.info.backend_pid
        start, cpu = time.perf_counter(), time.process_time() + _cpu_of(server)
        with writer.transaction():
            for table, columns, data, _ in tables:
                names = ", ".join(f'"{column}"' for column in columns)
                sql = f'COPY {FLOOR_SCHEMA}."{table}" ({names}) FROM STDIN'
                with writer.cursor().copy(sql) as copy:
                    copy.write(data)
        seconds = time.perf_counter() - start
        cpu = time.process_time() + _cpu_of(server) - cpu
        writer.execute(f"DROP SCHEMA {FLOOR_SCHEMA} CASCADE")
    return Floor(seconds, cpu, sum(count for _, _, _, count in tables))


def _cpu_of(pid: int) -> float:
    """User and system CPU seconds of a process on this machine (0 where unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _postgres_rows(raw: Any, each: Added) -> tuple[str, list[str], bytes, int]:
    """(table, columns, the rows as COPY text, how many)."""
    with raw.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name = %s ORDER BY ordinal_position",
            (each.table,),
        )
        columns = [name for (name,) in cursor.fetchall()]
        names = ", ".join(f'"{column}"' for column in columns)
        query = (
            f'SELECT {names} FROM "{each.table}" '
            f'WHERE "{each.key}" > {int(each.after)} AND "{each.key}" <= {int(each.upto)}'
        )
        with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
            data = b"".join(bytes(chunk) for chunk in copy)
    return each.table, columns, data, data.count(b"\n")
