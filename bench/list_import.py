"""Time loading the national demo's starting list, against the floor of the same write.

    .venv/bin/python bench/list_import.py [--season-dir DIR] [--postgres URL]
                                          [--scratch NAME] [--skip-sqlite] [--repeat N]
                                          [--code SRC] [--profile PREFIX]

The list is the demo's 2009-07 list, both rates (``ecfgrading.demo.generate``, national
size, seed 2009: 37,377 rows), read from ``DIR/grades200907.csv`` when ``bench/ingest.py
--season-dir DIR`` (or an earlier run of this script) wrote it, else generated and, with
``--season-dir``, kept there.

For each database, in a child process of its own (Django reads its database settings once
per process), ``--repeat`` times:

* a fresh database (a new ECFGRADING_HOME for SQLite; database ``--scratch`` created and
  dropped on the server of ``--postgres URL``), migrated;
* ``import_grade_list`` of the whole list, timed from the bytes to the commit: rows/s,
  and CPU seconds: the child's and, on PostgreSQL, its server process's (``bench/ingest.py``'s
  ``cpu_used``: hardly moved by other work on a shared machine);
* the floor, in the same process right after: the players and list entries the import
  wrote, read back and inserted plainly into tables of the same shape (the registry's own
  DDL, indexes included), in one transaction: on SQLite a fresh file in WAL mode with a
  256 MB page cache by ``executemany``; on PostgreSQL new tables ``LIKE`` the registry's
  ``INCLUDING ALL`` (indexes and checks, not foreign keys) by COPY. Its rows/s (list rows
  over its seconds), its CPU seconds, and the ratios of wall and of CPU time.

``--code SRC`` makes the children import ``ecfgrading`` from SRC (first on PYTHONPATH),
so that another tree (``git archive COMMIT src | tar -x -C DIR``) is timed by the same
script on the same bytes. ``--profile PREFIX`` runs each child's import under cProfile,
writes its stats to ``PREFIX.sqlite.prof`` (or ``.postgresql.prof``) and prints their top
entries; the profiler slows the import about 2x, so its times are not the bench's figures.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))  # bench/ingest.py: CPU of this process and its server

import ingest  # noqa: E402

MARK = "BENCH-RESULT "
SCRATCH = "parse_list_import"
FILENAME = "grades200907.csv"
LIST_ID = "2009-07"
FLOOR_TABLES = ("registry_player", "registry_listentry")


# The list ---------------------------------------------------------------------------------


def list_bytes(directory: Path | None) -> bytes:
    """The demo's starting list: from ``directory`` if there, else generated (and kept)."""
    if directory is not None and (directory / FILENAME).exists():
        return (directory / FILENAME).read_bytes()
    from ecfgrading.demo import generate

    data = generate("national", 2009).start_list
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / FILENAME).write_bytes(data)
    return data


# The child: import, then the floor --------------------------------------------------------


def worker(path: Path, profile: str | None) -> dict[str, Any]:
    os.environ["DJANGO_SETTINGS_MODULE"] = "ecfgrading.settings"
    import django
    from django.core.management import call_command

    django.setup()
    from django.db import connection

    from ecfgrading.services.lists.imports import import_grade_list

    call_command("migrate", verbosity=0)
    data = path.read_bytes()
    started = time.perf_counter()
    with ingest.cpu_used() as used, ingest.profiled(profile):
        result = import_grade_list(data, list_id=LIST_ID, filename=FILENAME, actor="bench")
    seconds = time.perf_counter() - started
    rows = result.players_created + result.players_updated + result.players_unchanged
    tables = {table: _read_back(connection, table) for table in FLOOR_TABLES}
    with ingest.cpu_used() as floor_used:
        if connection.vendor == "sqlite":
            floor = _sqlite_floor(connection, tables)
        else:
            floor = _postgres_floor(connection, tables)
    return {
        "rows": rows,
        "entries": sum(result.entries.values()),
        "imported": result.imported,
        "seconds": seconds,
        "cpu": used,
        "floor": floor,
        "floor_cpu": floor_used,
        "floor_rows": sum(len(values) for _, values in tables.values()),
    }


Table = tuple[list[str], list[tuple[Any, ...]]]  # column names, rows


def _read_back(connection: Any, table: str) -> Table:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table}")
        names = [column[0] for column in cursor.description]
        return names, list(cursor.fetchall())


def _sqlite_floor(connection: Any, tables: dict[str, Table]) -> float:
    """executemany in one transaction into a fresh WAL file, the registry's DDL."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name IN (%s, %s) AND sql IS NOT NULL"
            " ORDER BY type DESC",  # tables before their indexes
            FLOOR_TABLES,
        )
        ddl = [row[0] for row in cursor.fetchall()]
    with tempfile.TemporaryDirectory(prefix="list-floor-") as folder:
        plain = sqlite3.connect(Path(folder) / "floor.sqlite3", isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "cache_size=-262144"):
            plain.execute(f"PRAGMA {pragma}")
        for statement in ddl:
            plain.execute(statement)
        started = time.perf_counter()
        plain.execute("BEGIN")
        for table, (names, rows) in tables.items():
            marks = ", ".join("?" * len(names))
            plain.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        plain.execute("COMMIT")
        seconds = time.perf_counter() - started
        plain.close()
    return seconds


def _postgres_floor(connection: Any, tables: dict[str, Table]) -> float:
    """COPY in one transaction into new tables LIKE the registry's, indexes included."""
    from django.db import transaction

    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"CREATE TABLE floor_{table} (LIKE {table} INCLUDING ALL)")
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        for table, (names, rows) in tables.items():
            columns = ", ".join(names)
            with cursor.copy(f"COPY floor_{table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
    return time.perf_counter() - started


# The parent -------------------------------------------------------------------------------


def run_child(env: dict[str, str], path: Path, profile: str | None) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), "--worker", str(path), *_profile_args(profile)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"the import failed (exit {done.returncode})")
    figures: dict[str, Any] = json.loads(lines[-1][len(MARK) :])
    return figures


def _profile_args(profile: str | None) -> list[str]:
    return ["--profile", profile] if profile else []


@contextmanager
def sqlite_env(code: Path | None) -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="list-import-home-") as home:
        yield ingest.child_env(code, ECFGRADING_HOME=home)


@contextmanager
def postgres_env(url: str, name: str, code: Path | None) -> Iterator[dict[str, str]]:
    import psycopg

    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise SystemExit(f"expected a plain lower-case database name, got {name!r}")
    parts = urlsplit(url)
    admin_url = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        with tempfile.TemporaryDirectory(prefix="list-import-home-") as home:
            yield ingest.child_env(
                code, ECFGRADING_HOME=home, DATABASE_URL=parts._replace(path=f"/{name}").geturl()
            )
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")


def line(database: str, figures: dict[str, Any]) -> str:
    rows, seconds, floor = figures["rows"], figures["seconds"], figures["floor"]
    cpu, floor_cpu = sum(figures["cpu"]), sum(figures["floor_cpu"])
    return (
        f"{database:<10}  {rows:,} rows, {figures['entries']:,} entries"
        f"  import {seconds:6.2f} s  {rows / seconds:9,.0f} rows/s  CPU {_cpu(figures['cpu'])}"
        f"  | floor ({figures['floor_rows']:,} players and entries) {floor:5.2f} s"
        f"  {rows / floor:9,.0f} rows/s  CPU {_cpu(figures['floor_cpu'])}"
        f"  | ratio {seconds / floor:5.1f}x, CPU {cpu / floor_cpu:5.1f}x"
    )


def _cpu(used: list[float]) -> str:
    """This process's CPU seconds, and its PostgreSQL server process's when it has one."""
    ours, server = used
    return f"{ours:5.2f} s" + (f" + {server:4.2f} s" if server else "")


def measure(database: str, env: dict[str, str], path: Path, prefix: str | None) -> None:
    """One child's import and floor, printed; with its profile's top entries if asked."""
    profile = f"{prefix}.{database}.prof" if prefix else None
    print(line(database, run_child(env, path, profile)), flush=True)
    if profile:
        ingest.print_profile(Path(profile))


def main() -> None:
    if "--worker" in sys.argv:
        path = Path(sys.argv[sys.argv.index("--worker") + 1])
        profile = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
        print(MARK + json.dumps(worker(path, profile)), flush=True)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--season-dir", type=Path, help="where the list is kept between runs")
    parser.add_argument("--postgres", metavar="URL", help="also load into PostgreSQL")
    parser.add_argument("--scratch", default=SCRATCH, help="PostgreSQL scratch database name")
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="runs on each database")
    parser.add_argument("--code", type=Path, help="import ecfgrading from this src directory")
    parser.add_argument("--profile", metavar="PREFIX", help="cProfile each child's import")
    args = parser.parse_args()
    code = args.code.resolve() if args.code else None
    with tempfile.TemporaryDirectory(prefix="list-import-") as folder:
        path = Path(folder) / FILENAME
        path.write_bytes(list_bytes(args.season_dir))
        print(f"load average {os.getloadavg()[0]:.2f} at the start")
        for _ in range(args.repeat):
            if not args.skip_sqlite:
                with sqlite_env(code) as env:
                    measure("sqlite", env, path, args.profile)
            if args.postgres:
                with postgres_env(args.postgres, args.scratch, code) as env:
                    measure("postgresql", env, path, args.profile)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
