"""Benchmark: compute and store one national standard list (load + engine + store).

Sets up, outside the timing, a database with 60,000 players, 200,000 graded standard
games in the 2009-10 season, the published 2009-07 and 2008-07 lists (grades and the
stored totals that G17 reads for P1 and P2), then times ``compute_version`` for
standard 2010-07 and prints its load / engine / store split.

Beside each run it prints the floor of its write, measured in the same run: the rows the
run stored (list entries, period totals, game points), read back and built outside the
timing, inserted plainly into tables of the registry's shape and indexes (no foreign
keys) in a fresh database: ``executemany`` in one transaction on a new SQLite file (WAL,
256 MB page cache), or COPY in one transaction on a scratch PostgreSQL database. The
ratios are the run's total and its store against that floor (issue 25: a grading run
within 3x of storing its points), and its CPU seconds (this process's, and on PostgreSQL
its server process's) against the floor's: hardly moved by other work on the machine.

    .venv/bin/python bench/grading_run.py                      # SQLite, temporary file
    .venv/bin/python bench/grading_run.py --postgres postgres://postgres@127.0.0.1:5432/postgres

On PostgreSQL it makes (and drops first, and when done) the scratch databases
``<--scratch>`` and ``<--scratch>_floor``. ``--code SRC`` imports ``ecfgrading`` from SRC
(say a ``git archive`` of an earlier commit) to time the code before a change.
``--changed SHARE`` reverses the result of that share of the games before each run after
the first (corrections between two looks at a draft), so that a replaced draft's rows
differ from those it held; by default a draft is computed again on the same games. Each run
prints a checksum of the rows it stored, whatever their order or version id: the same
figure before and after a change shows it stores the same points.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np

import ingest  # bench/ingest.py: CPU seconds of the server's process

ROOT = Path(__file__).resolve().parent.parent
ACTIVE = 20_000
FLOOR_CACHE_KB = 256 * 1024  # the floor's SQLite page cache: 256 MB


def main() -> None:
    args = _arguments()
    home = tempfile.mkdtemp(prefix="ecfgrading-bench-")
    os.environ["ECFGRADING_HOME"] = home
    floor: Floor = SQLiteFloor(Path(home) / "floor.sqlite3")
    if args.postgres:
        os.environ["DATABASE_URL"] = _scratch_database(args.postgres, args.scratch)
        floor = PostgresFloor(_scratch_database(args.postgres, f"{args.scratch}_floor"))
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    sys.path.insert(0, str(args.code or ROOT / "src"))
    try:
        _bench(args, floor)
    finally:
        _clean_up(args, home)


def _bench(args: argparse.Namespace, floor: Floor) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    import ecfgrading

    print(f"code: {Path(ecfgrading.__file__).parent}")
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    _populate(args.players, args.games, np.random.default_rng(args.seed))
    print(
        f"set-up: {args.players:,} players, {args.games:,} games in "
        f"{time.perf_counter() - started:.1f} s ({_vendor()})"
    )
    if args.profile:
        import cProfile
        import pstats

        # The second run, as the timings' runs 2..n: imports done, a draft to replace.
        _time_runs(1, None)
        _reverse_results(args.changed)
        # CPU time, not the wall clock: other work on a shared machine hardly moves it.
        profiler = cProfile.Profile(time.process_time)
        profiler.runcall(_time_runs, 1, None)
        for order in ("cumulative", "tottime"):
            pstats.Stats(profiler).sort_stats(order).print_stats(args.profile_lines)
        return
    _time_runs(args.repeat, floor, args.changed)


def _clean_up(args: argparse.Namespace, home: str) -> None:
    """The temporary home and the scratch databases go when the bench ends."""
    import shutil

    if args.postgres:
        from django.db import connections

        connections.close_all()
        with _maintenance(args.postgres) as conn:
            for name in (args.scratch, f"{args.scratch}_floor"):
                conn.execute(f"DROP DATABASE IF EXISTS {name}")
    shutil.rmtree(home, ignore_errors=True)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile a second run (CPU time)")
    parser.add_argument("--profile-lines", type=int, default=30, help="functions shown")
    parser.add_argument("--postgres", metavar="URL", help="a server to make a scratch DB on")
    parser.add_argument(
        "--scratch", default="grading_bench", help="the PostgreSQL scratch databases' name"
    )
    parser.add_argument("--code", type=Path, help="import ecfgrading from this src/ directory")
    parser.add_argument(
        "--changed",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="before each run after the first, reverse the result of this share of the games",
    )
    args = parser.parse_args()
    if args.code and not (args.code / "ecfgrading").is_dir():
        parser.error(f"expected --code to name a src/ folder holding ecfgrading, got {args.code}")
    return args


def _scratch_database(url: str, name: str) -> str:
    with _maintenance(url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"


def _maintenance(url: str) -> Any:
    """A connection to the server of ``url`` that can make and drop databases."""
    import psycopg

    return psycopg.connect(url, autocommit=True)


def _vendor() -> str:
    from django.db import connection

    return connection.vendor


def _populate(players: int, games: int, rng: np.random.Generator) -> None:
    from django.db import connection, transaction

    from ecfgrading.registry.models import Event, GradingList, ListVersion, Player, Submission

    strength = rng.normal(130, 35, players)
    with transaction.atomic():
        Player.objects.bulk_create(
            (
                Player(id=i + 1, code=100_000 + i, surname=f"Player{i}", forenames="A")
                for i in range(players)
            ),
            batch_size=10_000,
        )
        event = Event.objects.create(
            code="BENCH",
            name="Bench",
            rate="standard",
            start_date=date(2009, 6, 1),
            end_date=date(2010, 5, 31),
        )
        submission = Submission.objects.create(raw=b"", sha256="", event=event, status="accepted")
        active = _games(connection, event.id, submission.id, players, games, strength, rng)
        now = datetime.now(UTC)
        for year in (2008, 2009):
            grading_list = GradingList.objects.create(list_id=f"{year}-07", rate="standard")
            version = ListVersion.objects.create(
                grading_list=grading_list, name="initial", status="published", published_at=now
            )
            _previous_list(connection, version.id, players, active, strength, rng)


def _games(connection, event_id, submission_id, players, games, strength, rng) -> np.ndarray:  # type: ignore[no-untyped-def,type-arg]
    # A season's active players (about 20,000 of 60,000 on record, ~20 games each);
    # clubs, leagues and congresses pair players of nearby strength.
    active = np.sort(rng.choice(players, ACTIVE, replace=False))
    order = active[np.argsort(strength[active])]
    first = rng.integers(0, ACTIVE, games)
    second = np.clip(first + rng.integers(-300, 300, games), 0, ACTIVE - 1)
    second = np.where(second == first, (first + 1) % ACTIVE, second)
    p1, p2 = order[first] + 1, order[second] + 1
    diff = strength[p1 - 1] - strength[p2 - 1]
    expected = np.clip(0.5 + diff / 100, 0.05, 0.95)
    draw = rng.random(games) < 0.25
    win = rng.random(games) < expected
    result = np.where(draw, "55", np.where(win, "10", "01"))
    days = rng.integers(0, 365, games)
    rows = [
        (
            event_id,
            submission_id,
            int(a),
            int(b),
            r,
            date.fromordinal(date(2009, 6, 1).toordinal() + int(d)),
            True,
            "other",
            "",
            "",
            "standard",
            True,
            "",
            1,
            i + 1,
            "",
        )
        for i, (a, b, r, d) in enumerate(zip(p1, p2, result, days, strict=True))
    ]
    columns = (
        "event_id",
        "submission_id",
        "player1_id",
        "player2_id",
        "result",
        "game_date",
        "date_given",
        "part_kind",
        "part_name",
        "colour",
        "rate",
        "graded",
        "not_graded_reason",
        "line",
        "sequence",
        "comment",
    )
    _insert(connection, "registry_game", columns, rows)
    return active


def _previous_list(connection, version_id, players, season, strength, rng) -> None:  # type: ignore[no-untyped-def]
    # Earlier seasons' players: four fifths of this season's and some who stopped, so
    # a fifth of this season's players need estimation (new players and juniors).
    kept = rng.choice(season, int(season.size * 0.8), replace=False)
    others = rng.choice(np.setdiff1d(np.arange(players), season), season.size // 4, replace=False)
    active = np.concatenate([kept, others])
    published = active[: int(active.size * 0.8)]
    n = rng.integers(1, 40, active.size)
    totals = [
        (version_id, int(p) + 1, int(k), float(k * strength[p]))
        for p, k in zip(active, n, strict=True)
    ]
    _insert(
        connection, "registry_storedperiodtotal", ("version_id", "player_id", "n", "total"), totals
    )
    entries = [
        (
            version_id,
            int(p) + 1,
            max(0, round(strength[p])),
            float(strength[p]),
            float(strength[p]),
            "A",
            30,
            30,
            0,
            0,
            0.0,
            True,
            "",
            "",
        )
        for p in published
    ]
    columns = (
        "version_id",
        "player_id",
        "grade",
        "unrounded",
        "calculated",
        "category",
        "games_latest",
        "games_counted",
        "n1",
        "n2",
        "bonus",
        "published",
        "flags",
        "start_source",
    )
    _insert(connection, "registry_listentry", columns, entries)


def _insert(connection, table: str, columns: tuple[str, ...], rows: list) -> None:  # type: ignore[no-untyped-def,type-arg]
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 20_000):
            cursor.executemany(sql, rows[start : start + 20_000])


def _reverse_results(share: float) -> None:
    """Corrections between two looks at a draft: the games of ``share`` of the ids (the
    same ones each time) have their result reversed, a win made a loss (and back again at
    the next call); drawn games stay drawn. Outside the timing."""
    if share <= 0:
        return
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE registry_game SET result = CASE result WHEN '10' THEN '01' "
            "WHEN '01' THEN '10' ELSE result END WHERE (id * 7919) %% 10000 < %s",
            [round(share * 10_000)],
        )


def _time_runs(repeat: int, floor: Floor | None, changed: float = 0.0) -> None:
    from ecfgrading.engine import Rate
    from ecfgrading.services.grading.compute import compute_version

    print(
        f"{'run':>4} {'load s':>8} {'engine s':>9} {'store s':>8} {'total s':>8} "
        f"{'CPU s':>6} {'games':>8} {'players':>8} {'floor s':>8} {'CPU s':>6} {'rows':>8} "
        f"{'total/floor':>12} {'store/floor':>12} {'CPU/floor':>10}  stored (sha256)"
    )
    # Run 1 writes a new draft; each later run recomputes that draft, replacing the rows the
    # run before stored (in the same transaction), as the grading team's second look at a
    # draft does: a cost a first run does not pay. On the same games (the default) every
    # row is stored again as it was; with --changed, after some results were corrected.
    for run in range(1, repeat + 1):
        if run > 1:
            _reverse_results(changed)
        with cpu_used() as used:
            started = time.perf_counter()
            result = compute_version("2010-07", Rate.STANDARD)
            total = time.perf_counter() - started
        s = result.seconds
        line = (
            f"{run:>4} {s['load']:>8.2f} {s['engine']:>9.2f} {s['store']:>8.2f} {total:>8.2f} "
            f"{sum(used):>6.2f} {result.games:>8,} {result.players:>8,}"
        )
        if floor is None:  # profiling: the run alone
            print(line, flush=True)
            continue
        stored = _stored(result.version_id)
        rows, seconds, cpu = floor.measure(stored)
        line += (
            f" {seconds:>8.2f} {cpu:>6.2f} {rows:>8,} {total / seconds:>11.1f}x "
            f"{s['store'] / seconds:>11.1f}x {sum(used) / cpu:>9.1f}x"
        )
        split = f", CPU {used[0]:.2f} here + {used[1]:.2f} server" if used[1] else ""
        kind = "new draft" if run == 1 else "draft replaced"
        print(f"{line}  {_checksum(stored)}  ({kind}{split})", flush=True)


def _checksum(tables: list[Table]) -> str:
    """What a run stored, independent of its version's id and of the order it was written
    in: two runs (or two versions of the code) that stored the same rows print the same."""
    digest = hashlib.sha256()
    for name, columns, rows in tables:
        keep = [i for i, column in enumerate(columns) if column != "version_id"]
        canonical = sorted(tuple(_text(row[i]) for i in keep) for row in rows)
        digest.update(repr((name, [columns[i] for i in keep], canonical)).encode())
    return digest.hexdigest()[:16]


def _text(value: Any) -> str:
    """A stored value as one text on both databases (a date is text on SQLite)."""
    return value.isoformat() if isinstance(value, date) else repr(value)


@contextmanager
def cpu_used() -> Iterator[list[float]]:
    """CPU seconds taken meanwhile by this process and by its PostgreSQL server process
    (as ``bench/ingest.py``): hardly moved by other work on a shared machine."""
    from django.db import connection

    connection.ensure_connection()
    backend = ingest.process_seconds(connection.connection.info.backend_pid if _is_pg() else None)
    used = [0.0, 0.0]
    start, server = time.process_time(), backend()
    try:
        yield used
    finally:
        used[0], used[1] = time.process_time() - start, backend() - server


def _is_pg() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


# The floor of the write ------------------------------------------------------------------

Table = tuple[str, tuple[str, ...], list[tuple[Any, ...]]]  # name, columns, rows


def _stored(version_id: int) -> list[Table]:
    """What the run stored for its version, table by table, in the order it was written."""
    from django.db import connection

    from ecfgrading.registry.models import ListEntry, StoredGamePoints, StoredPeriodTotal

    tables = []
    for model in (ListEntry, StoredPeriodTotal, StoredGamePoints):
        columns = tuple(f.column for f in model._meta.concrete_fields if f.column != "id")
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(columns)} FROM {model._meta.db_table} "
                "WHERE version_id = %s ORDER BY id",
                [version_id],
            )
            tables.append((model._meta.db_table, columns, cursor.fetchall()))
    return tables


@functools.cache
def _schema() -> list[str]:
    """The three tables' statements on this database (tables, unique constraints and
    indexes), without their foreign keys: a fresh database has nothing to refer to.
    Collected once: on SQLite the schema editor checks every key of the database."""
    from django.db import connection

    from ecfgrading.registry.models import ListEntry, StoredGamePoints, StoredPeriodTotal

    with connection.schema_editor(collect_sql=True, atomic=False) as editor:
        for model in (ListEntry, StoredPeriodTotal, StoredGamePoints):
            editor.create_model(model)
    return [sql for sql in editor.collected_sql if "FOREIGN KEY" not in sql]


class Floor:
    def measure(self, tables: list[Table]) -> tuple[int, float, float]:
        """Rows inserted, seconds taken to insert them in one transaction, and the CPU
        seconds of this process and the database server meanwhile."""
        raise NotImplementedError


class SQLiteFloor(Floor):
    def __init__(self, path: Path) -> None:
        self.path = path

    def measure(self, tables: list[Table]) -> tuple[int, float, float]:
        import sqlite3

        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        conn = sqlite3.connect(self.path, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA cache_size=-{FLOOR_CACHE_KB}")
        for sql in _schema():
            conn.execute(sql)
        started, cpu = time.perf_counter(), time.process_time()
        conn.execute("BEGIN")
        for name, columns, rows in tables:
            places = ", ".join("?" * len(columns))
            conn.executemany(f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({places})", rows)
        conn.execute("COMMIT")
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        conn.close()
        return sum(len(rows) for _n, _c, rows in tables), seconds, cpu


class PostgresFloor(Floor):
    def __init__(self, url: str) -> None:
        self.url = url

    def measure(self, tables: list[Table]) -> tuple[int, float, float]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            for name, _columns, _rows in tables:
                conn.execute(f"DROP TABLE IF EXISTS {name}")
            for sql in _schema():
                conn.execute(sql)
        texts = [(name, columns, _copy_text(rows)) for name, columns, rows in tables]
        with psycopg.connect(self.url) as conn:
            server = ingest.process_seconds(conn.info.backend_pid)
            started, cpu = time.perf_counter(), time.process_time() + server()
            with conn.cursor() as cursor:
                for name, columns, text in texts:
                    with cursor.copy(f"COPY {name} ({', '.join(columns)}) FROM STDIN") as copy:
                        copy.write(text)
            conn.commit()
            seconds, cpu = time.perf_counter() - started, time.process_time() + server() - cpu
        return sum(len(rows) for _n, _c, rows in tables), seconds, cpu


def _copy_text(rows: list[tuple[Any, ...]]) -> bytes:
    """COPY's text format, built before the timing (the values hold no tabs or newlines)."""

    def field(value: Any) -> str:
        return "\\N" if value is None else str(value)

    return "".join("\t".join(map(field, row)) + "\n" for row in rows).encode()


if __name__ == "__main__":
    main()
