"""Time SQLite compiling statements: a file's rows of every count, and its players' IN lists.

    .venv/bin/python bench/statement_shapes.py [--files N] [--seed S]

A results import writes each file's games by statements of 49 rows (999 values) and the
rows left over (1 to 48) by one statement more, and asks for the games on record between
the file's players by one statement whose two IN lists hold as many values as it has
players. Each count was a statement text of its own: the national season's import sent
428 texts, where ``sqlite3`` keeps the last 128 compiled, so the leftover rows and the
IN lists were compiled again for most files. ``registry.bulk.shaped`` writes leftover
rows a power of two a statement and ``registry.bulk.padded`` pads an IN list to a power
of two: a few texts, kept compiled (issue 25). Both are called here as the import calls
them.

On a fresh SQLite file (WAL, the settings' 32 MB page cache) made with the registry's own
tables and indexes (``migrate`` into a scratch ECFGRADING_HOME), for ``--files`` files of 1
to 48 leftover game rows, and the same number of IN lists of 20 to 67 players:

* **each text compiled**: a statement of the file's own count, compiled every time
  (``cached_statements=0``), as the import ran when the count's text had been evicted;
* **shaped** (the import now): the rows a power of two a statement, the IN lists padded,
  each text compiled once;
* **floor**: the same rows with each count's own text compiled once (what an unbounded
  cache would give): the work of the rows and the lookups alone.

CPU seconds of this process (``time.process_time``), the minimum of three rounds.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ecfgrading.registry import bulk

GAME_COLUMNS = (
    "event_id", "submission_id", "player1_id", "player2_id", "result", "game_date",
    "date_given", "round", "board", "part_kind", "part_name", "colour", "rate", "graded",
    "not_graded_reason", "line", "sequence", "comment",
)  # fmt: skip
BETWEEN = (
    'SELECT g."player1_id", g."player2_id", g."game_date", g."round", g."result", '
    'g."graded", g."submission_id", s."status", s."event_code", s."submission_index", '
    's."event_id" FROM "registry_game" g JOIN "registry_submission" s '
    'ON s."id" = g."submission_id" WHERE g."player1_id" IN ({one}) '
    'AND g."player2_id" IN ({two}) AND g."graded" = ? AND g."game_date" BETWEEN ? AND ?'
)
PLAYERS = 20_000  # the ids games name: player1 below, player2 above (never himself)
ROUNDS = 3
SEASON_GAMES = 200_000


def registry_schema() -> list[str]:
    """The registry's tables and indexes, as ``migrate`` makes them on SQLite."""
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-shapes-") as home:
        os.environ["ECFGRADING_HOME"] = home
        os.environ["DJANGO_SETTINGS_MODULE"] = "ecfgrading.settings"
        import django
        from django.core.management import call_command
        from django.db import connection

        django.setup()
        call_command("migrate", verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                "AND name NOT LIKE 'sqlite_%' ORDER BY type DESC"  # tables first
            )
            schema = [sql for (sql,) in cursor.fetchall()]
        connection.close()
    return schema


def fresh(directory: Path, schema: list[str], cached: int) -> sqlite3.Connection:
    path = directory / f"shapes-{time.monotonic_ns()}.sqlite3"
    db = sqlite3.connect(path, isolation_level=None, cached_statements=cached)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "cache_size=-32768"):
        db.execute(f"PRAGMA {pragma}")
    for sql in schema:
        db.execute(sql)
    db.execute("PRAGMA foreign_keys=OFF")  # the rows name no events, files or players
    return db


def season(directory: Path, schema: list[str], games: int) -> Path:
    """A file holding ``games`` games of one submission, for the lookups to find."""
    db = fresh(directory, schema, 256)
    columns = db.execute("PRAGMA table_info(registry_submission)").fetchall()
    needed = [(name, kind) for _, name, kind, notnull, default, pk in columns
              if notnull and default is None and not pk]  # fmt: skip
    names = ", ".join(["id", *(name for name, _ in needed)])
    values = [1, *(_blank(name, kind) for name, kind in needed)]
    db.execute(
        f"INSERT INTO registry_submission ({names}) VALUES ({', '.join('?' * len(values))})", values
    )
    one = "(" + ", ".join(["?"] * len(GAME_COLUMNS)) + ")"
    rng = random.Random(3)
    db.execute("BEGIN")
    db.executemany(
        f"INSERT INTO registry_game ({', '.join(GAME_COLUMNS)}) VALUES {one}",
        game_rows(games, rng, 0),
    )
    db.execute("COMMIT")
    path = Path(db.execute("PRAGMA database_list").fetchone()[2])
    db.close()
    return path


def _blank(name: str, kind: str) -> object:
    """A value a NOT NULL column of the submission takes: a number, JSON, or text."""
    if any(word in kind.lower() for word in ("int", "bool", "real", "decimal")):
        return 0
    return "{}" if name == "report" or "json" in kind.lower() else ""


def opened(path: Path, cached: int) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, cached_statements=cached)
    db.execute("PRAGMA cache_size=-32768")
    return db


def game_rows(count: int, rng: random.Random, first: int) -> list[tuple[object, ...]]:
    return [
        (1, 1, rng.randint(1, PLAYERS // 2), rng.randint(PLAYERS // 2 + 1, PLAYERS), "10",
         "2009-10-01", 1, 1, 1, "section", "Open", "W", "S", 1, "", n, first + n, "")
        for n in range(count)
    ]  # fmt: skip


def insert(db: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    one = "(" + ", ".join(["?"] * len(GAME_COLUMNS)) + ")"
    head = f"INSERT OR FAIL INTO registry_game ({', '.join(GAME_COLUMNS)}) VALUES "
    db.execute(head + ", ".join([one] * len(rows)), [v for row in rows for v in row])


def write_files(db: sqlite3.Connection, counts: list[int], shaped: bool) -> float:
    rng, sequence = random.Random(7), 0
    start = time.process_time()
    db.execute("BEGIN")
    for number, count in enumerate(counts, start=1):
        rows = game_rows(count, rng, sequence)
        sequence += count
        for at, size in bulk.shaped(count) if shaped else [(0, count)]:
            insert(db, rows[at : at + size])
        if number % 32 == 0:  # a turn's commit
            db.execute("COMMIT")
            db.execute("BEGIN")
    db.execute("COMMIT")
    return time.process_time() - start


def ask_files(db: sqlite3.Connection, counts: list[int], shaped: bool) -> float:
    rng = random.Random(11)
    start = time.process_time()
    for count in counts:
        ids = sorted(rng.sample(range(1, PLAYERS + 1), count + 19))  # 20 to 67 players
        ids = bulk.padded(ids) if shaped else ids
        marks = ", ".join(["?"] * len(ids))
        sql = BETWEEN.format(one=marks, two=marks)
        db.execute(sql, [*ids, *ids, 1, "2009-09-01", "2010-05-31"]).fetchall()
    return time.process_time() - start


def timed(
    work: Callable[[sqlite3.Connection], float], make: Callable[[], sqlite3.Connection]
) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        db = make()
        best = min(best, work(db))
        db.close()
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1_530, help="files (the season: 1,530)")
    parser.add_argument("--seed", type=int, default=2009)
    args = parser.parse_args(argv)
    schema = registry_schema()
    counts = [random.Random(args.seed).randint(1, 48) for _ in range(args.files)]
    print(f"{args.files:,} files, {sum(counts):,} leftover game rows; CPU s, best of {ROUNDS}")
    print(f"{'work':<48} {'each compiled':>14} {'shaped':>8} {'floor':>8} {'shaped/floor':>13}")
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-shapes-") as scratch:
        directory = Path(scratch)
        held = season(directory, schema, SEASON_GAMES)
        makers: dict[str, Callable[[int], Callable[[], sqlite3.Connection]]] = {
            "leftover game rows written": lambda cached: lambda: fresh(directory, schema, cached),
            f"games between players asked ({SEASON_GAMES:,} on record)": lambda cached: (
                lambda: opened(held, cached)
            ),
        }
        for (label, make), work in zip(makers.items(), (write_files, ask_files), strict=True):
            compiled = timed(partial(work, counts=counts, shaped=False), make(0))
            shaped = timed(partial(work, counts=counts, shaped=True), make(256))
            floor = timed(partial(work, counts=counts, shaped=False), make(256))
            ratio = shaped / floor
            print(f"{label:<48} {compiled:>14.3f} {shaped:>8.3f} {floor:>8.3f} {ratio:>12.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
