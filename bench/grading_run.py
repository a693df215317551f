"""Benchmark: compute and store one national standard list (load + engine + store).

Sets up, outside the timing, a database with 60,000 players, 200,000 graded standard
games in the 2009-10 season, the published 2009-07 and 2008-07 lists (grades and the
stored totals that G17 reads for P1 and P2), then times ``compute_version`` for
standard 2010-07 and prints its load / engine / store split.

    .venv/bin/python bench/grading_run.py                      # SQLite, temporary file
    .venv/bin/python bench/grading_run.py --postgres postgres://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SCRATCH_DB = "ecfgrading_bench_grading"
ACTIVE = 20_000


def main() -> None:
    args = _arguments()
    home = tempfile.mkdtemp(prefix="ecfgrading-bench-")
    os.environ["ECFGRADING_HOME"] = home
    if args.postgres:
        os.environ["DATABASE_URL"] = _scratch_database(args.postgres)
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    sys.path.insert(0, str(ROOT / "src"))
    import django

    django.setup()
    from django.core.management import call_command

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

        cProfile.runctx("_time_runs(1)", globals(), {}, "/tmp/grading.prof")
        pstats.Stats("/tmp/grading.prof").sort_stats("cumulative").print_stats(30)
        return
    _time_runs(args.repeat)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile one run")
    parser.add_argument("--postgres", metavar="URL", help="a server to make a scratch DB on")
    return parser.parse_args()


def _scratch_database(url: str) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH_DB}")
        conn.execute(f"CREATE DATABASE {SCRATCH_DB}")
    return url.rsplit("/", 1)[0] + f"/{SCRATCH_DB}"


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


def _time_runs(repeat: int) -> None:
    from ecfgrading.engine import Rate
    from ecfgrading.services.grading.compute import compute_version

    print(
        f"{'run':>4} {'load s':>8} {'engine s':>9} {'store s':>8} {'total s':>8} "
        f"{'games':>8} {'players':>8}"
    )
    for run in range(1, repeat + 1):
        started = time.perf_counter()
        result = compute_version("2010-07", Rate.STANDARD)
        total = time.perf_counter() - started
        s = result.seconds
        print(
            f"{run:>4} {s['load']:>8.2f} {s['engine']:>9.2f} {s['store']:>8.2f} {total:>8.2f} "
            f"{result.games:>8,} {result.players:>8,}"
        )


if __name__ == "__main__":
    main()
