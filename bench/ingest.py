"""Time reading and importing a national season of results files, made by the demo.

    .venv/bin/python bench/ingest.py [--size national] [--games N] [--players N]
                                     [--seed 2009] [--skip-import] [--postgres URL]
                                     [--max-files N]

The season is the first of the demo federation (``ecfgrading.demo.generate``, the same
one ``ecfgrading demo --size national --seed 2009`` builds): the starting list 2009-07
and every results file of 2009-10, in the order received. ``--games`` and ``--players``
change the size's games a season and players on record; the events follow from them.

(a) parse and check: ``read_results_bytes`` over every file, in games per second;
(b) import into SQLite: a fresh ECFGRADING_HOME (DATABASE_URL unset), ``migrate``, the
    starting list through ``import_grade_list``, then every file through
    ``services.results.import_files``, one batch as ``results import`` runs it (or the
    first ``--max-files``); then one small file more, with the process's view of the
    registry warm and cold (the web's single upload);
(c) the same on PostgreSQL with ``--postgres URL``, in a scratch database
    ``ecfgrading_bench`` created and dropped on that URL's server.

Each import runs in a child process of its own, because Django reads its database
settings once per process. The season is written to a temporary directory for them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ecfgrading.demo import SIZES, DemoFile, DemoSize, generate
from ecfgrading.demo.seasons import DEMO_SEASONS, season_label
from ecfgrading.demo.startlist import FILENAME, LIST_ID

MARK = "BENCH-RESULT "  # a child's last line of output: its figures as JSON
SCRATCH = "ecfgrading_bench"


@dataclass(frozen=True)
class Row:
    """One line of the table: what was timed, where, how much and how long."""

    step: str
    database: str = "-"
    amount: str = "-"
    seconds: float | None = None
    rate: str = "-"


# The season ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Season:
    """The demo's first season as the grading team receives it."""

    list_csv: bytes
    files: tuple[DemoFile, ...]  # in the order received
    seconds: float  # to generate the whole demo federation
    generated: int  # games in all its seasons

    @property
    def games(self) -> int:
        return sum(demo_file.games for demo_file in self.files)


def first_season(size: DemoSize, seed: int) -> Season:
    """The demo federation's first season (the generator draws all three)."""
    federation = generate(size, seed)
    first = DEMO_SEASONS[0]
    return Season(
        list_csv=federation.start_list,
        files=tuple(f for f in federation.files if f.season == first),
        seconds=federation.seconds,
        generated=sum(event.games for event in federation.events),
    )


def season_rows(season: Season, size: DemoSize) -> list[Row]:
    entries = sum(len(demo_file.pins) for demo_file in season.files)
    uncoded = sum(demo_file.uncoded for demo_file in season.files)
    label = season_label(DEMO_SEASONS[0])
    return [
        Row(f"generate demo ({size.name})", "-", f"{season.generated:,} games", season.seconds),
        Row(f"  season {label}", "-", f"{season.games:,} games, {len(season.files):,} files"),
        Row("  player entries", "-", f"{entries:,}, {uncoded:,} without a code"),
    ]


# (a) parse and check ----------------------------------------------------------------------


def parse_rows(season: Season) -> list[Row]:
    from ecfgrading.formats import read_grade_list_bytes, read_results_bytes

    start = time.perf_counter()
    games, problems = 0, 0
    for demo_file in season.files:
        results, report = read_results_bytes(demo_file.data)
        problems += len(report)
        games += sum(1 for _ in results.games()) if results is not None else 0
    files = time.perf_counter() - start
    start = time.perf_counter()
    grade_list, _ = read_grade_list_bytes(season.list_csv)
    rows = len(grade_list.rows) if grade_list is not None else 0
    csv = time.perf_counter() - start
    return [
        Row("parse + check results", "-", f"{games:,} games", files, _per(games, files, "games")),
        Row("  problems found", "-", f"{problems:,}"),
        Row("parse list CSV", "-", f"{rows:,} rows", csv, _per(rows, csv, "rows")),
    ]


def _per(count: int, seconds: float, unit: str) -> str:
    return f"{count / seconds:,.0f} {unit}/s" if seconds > 0 else "-"


# (b), (c) imports, run in a child process -------------------------------------------------


def write_season(season: Season, directory: Path) -> None:
    """The list, the results files, and ``order``: their names in the order received."""
    (directory / FILENAME).write_bytes(season.list_csv)
    results = directory / "results"
    results.mkdir()
    for demo_file in season.files:
        (results / demo_file.filename).write_bytes(demo_file.data)
    names = "".join(f"{demo_file.filename}\n" for demo_file in season.files)
    (directory / "order").write_text(names, encoding="utf-8")


def run_child(directory: Path, database: str, env: dict[str, str], max_files: int) -> list[Row]:
    """Run ``--worker`` on the season in ``directory``; its rows, labelled ``database``."""
    command = [sys.executable, str(Path(__file__)), "--worker", str(directory)]
    command += ["--max-files", str(max_files)]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        return [Row(f"import failed (exit {done.returncode})", database)]
    return [Row(database=database, **row) for row in json.loads(lines[-1][len(MARK) :])]


def sqlite_rows(directory: Path, max_files: int) -> list[Row]:
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-home-") as home:
        env["ECFGRADING_HOME"] = home
        return run_child(directory, "sqlite", env, max_files)


def postgres_rows(directory: Path, url: str, max_files: int) -> list[Row]:
    with scratch_database(url) as scratch_url:
        env = {**os.environ, "DATABASE_URL": scratch_url}
        with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-home-") as home:
            env["ECFGRADING_HOME"] = home
            return run_child(directory, "postgresql", env, max_files)


@contextmanager
def scratch_database(url: str) -> Iterator[str]:
    """``ecfgrading_bench`` on the server of ``url``, new for the run and dropped after."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    server: dict[str, Any] = {
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
        # The maintenance database: the URL's own may not exist, and is never dropped.
        "dbname": "postgres",
    }
    with psycopg.connect(**server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
        admin.execute(f"CREATE DATABASE {SCRATCH}")
    try:
        yield urlsplit(url)._replace(path=f"/{SCRATCH}").geturl()
    finally:
        with psycopg.connect(**server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")


def worker(directory: Path, max_files: int) -> list[dict[str, Any]]:
    """In the child: migrate, load the list, import the results files; the figures."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "ecfgrading.settings"
    import django
    from django.core.management import call_command

    django.setup()
    rows = [_timed("migrate", lambda: call_command("migrate", verbosity=0), "")]
    rows.append(_list_import((directory / FILENAME).read_bytes()))
    names = (directory / "order").read_text(encoding="utf-8").split()
    paths = [directory / "results" / name for name in names]
    rows += _results_import(paths[:max_files] if max_files else paths)
    return rows


def _timed(step: str, run: Any, amount: str) -> dict[str, Any]:
    start = time.perf_counter()
    run()
    return {"step": step, "amount": amount, "seconds": time.perf_counter() - start}


def _list_import(data: bytes) -> dict[str, Any]:
    from ecfgrading.services.lists.imports import import_grade_list

    start = time.perf_counter()
    result = import_grade_list(data, list_id=LIST_ID, filename=FILENAME, actor="bench")
    seconds = time.perf_counter() - start
    rows = result.players_created + result.players_updated + result.players_unchanged
    entries = sum(result.entries.values())
    return {
        "step": "list import",
        "amount": f"{rows:,} rows, {entries:,} entries",
        "seconds": seconds,
        "rate": _per(rows, seconds, "rows"),
    }


def _results_import(paths: list[Path]) -> list[dict[str, Any]]:
    from ecfgrading.services.results import import_files

    files = [(path.name, path.read_bytes()) for path in paths]
    games = sum(data.count(b"#PIN1=") for _, data in files)  # one line per game
    start = time.perf_counter()

    def progress(done: int, total: int, filename: str) -> None:
        if done % 100 == 0 and done:
            elapsed = time.perf_counter() - start
            print(f"  {done:,}/{total:,} files, {elapsed:.0f} s", file=sys.stderr, flush=True)

    # One batch, as `results import` runs it: the players on record are indexed once.
    results = import_files(files, sender="bench", progress=progress)
    seconds = time.perf_counter() - start
    accepted = sum(1 for result in results if result.accepted)
    return [
        {
            "step": "results import",
            "amount": f"{games:,} games",
            "seconds": seconds,
            "rate": _per(games, seconds, "games"),
        },
        {"step": "  files accepted", "amount": f"{accepted:,} of {len(paths):,}"},
        *_single_file(files),
    ]


def _single_file(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """One small file more, as an officer's upload in the running web process: with the
    process's view of the registry already loaded (warm), and after it is dropped (cold,
    as the first upload after a start)."""
    import re

    from ecfgrading.services.results import import_results
    from ecfgrading.services.results.view import shared_view

    name, data = min(files, key=lambda item: item[1].count(b"#PIN1="))
    rows = []
    for step, cold in (("one small file (warm)", False), ("one small file (cold)", True)):
        if cold:
            with shared_view() as view:
                view.drop()
        renamed = re.sub(rb"#EVENT CODE=[^#\r\n]*", f"#EVENT CODE=BENCH{int(cold)}".encode(), data)
        start = time.perf_counter()
        result = import_results(renamed, filename=f"again-{name}", sender="bench")
        seconds = time.perf_counter() - start
        games = data.count(b"#PIN1=")
        outcome = "accepted" if result.accepted else "REJECTED"
        rows.append({"step": step, "amount": f"{games} games, {outcome}", "seconds": seconds})
    return rows


# The table -------------------------------------------------------------------------------

HEADER = ("step", "database", "amount", "seconds", "rate")


def cells(row: Row) -> tuple[str, ...]:
    seconds = "-" if row.seconds is None else f"{row.seconds:.2f}"
    return (row.step, row.database, row.amount, seconds, row.rate)


def print_table(rows: list[Row]) -> None:
    lines = [HEADER, *(cells(row) for row in rows)]
    widths = [max(len(line[k]) for line in lines) for k in range(len(HEADER))]
    for n, line in enumerate(lines):
        padded = [
            cell.ljust(width) if k < 2 else cell.rjust(width)
            for k, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(padded))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", choices=SIZES, default="national", help="a demo size")
    parser.add_argument("--games", type=int, help="games a season (default: the size's)")
    parser.add_argument("--players", type=int, help="players in all (default: the size's)")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--skip-import", action="store_true", help="time (a) only")
    parser.add_argument("--postgres", metavar="URL", help="also import into PostgreSQL")
    parser.add_argument("--max-files", type=int, default=0, help="import only N results files")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.worker is not None:
        print(MARK + json.dumps(worker(args.worker, args.max_files)), flush=True)
        return
    size = chosen_size(args)
    season = first_season(size, args.seed)
    rows = season_rows(season, size)
    rows += parse_rows(season)
    if not args.skip_import:
        with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-season-") as directory:
            write_season(season, Path(directory))
            rows += sqlite_rows(Path(directory), args.max_files)
            if args.postgres:
                rows += postgres_rows(Path(directory), args.postgres, args.max_files)
    print_table(rows)


def chosen_size(args: argparse.Namespace) -> DemoSize:
    size = SIZES[args.size]
    if args.games is not None:
        size = replace(size, name=f"{size.name}, {args.games:,} games", games=args.games)
    if args.players is not None:
        size = replace(size, name=f"{size.name}, {args.players:,} players", players=args.players)
    return size


if __name__ == "__main__":
    main()
