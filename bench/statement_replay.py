"""The results import's own statements replayed without the import: its SQL's own cost,
and what writing a turn's files as one unit could save (issue 25).

    .venv/bin/python bench/statement_replay.py --season-dir DIR [--files N] [--rounds 3]

In a fresh ECFGRADING_HOME (SQLite): ``migrate`` and the season's starting list (``bench/
ingest.py --season-dir DIR`` writes the season), the database copied as it then stands,
then the season's files (or the first ``--files``) imported by ``import_files``, one batch
as ``results import`` runs it, every statement the importer sends captured with its
values and every commit marked (a wrapper sees each, so that this import is slower than
``bench/ingest.py``'s, and is printed only for scale). Then, ``--rounds`` times each, on a
fresh copy of the database as it stood before the import (the settings' PRAGMAs, the
reference checks off, since the second replay changes the order of the rows):

* **as sent**: each statement as the import sent it, a transaction for each of its
  transactions, every row asked for fetched: what the import's SQL costs SQLite with no
  Python of the import between its statements. The import over this is the share of its
  time that is its own Python;
* **one statement a table a transaction**: each transaction's writes grouped by
  statement, a statement of many rows made one of one row, every group sent by one
  ``executemany`` (its reads sent as they were): the most that writing a turn's files as
  one unit (one statement a table a turn, not one a file) could spare SQLite.

The import's own Python around each statement (Django's cursor, the rows made for it) is
not in either replay: bench/ingest.py's count of statements gives its time by kind.
Prints seconds, the minimum of the rounds; nothing asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))  # bench/season_db.py, when imported as bench.statement_replay

from season_db import season_files, starting_list  # noqa: E402

# One statement the importer sent: its text (Django's placeholders), its values (a list
# of rows for executemany), whether it was sent by executemany.
Sent = tuple[str, Any, bool]
COMMIT = ("COMMIT", None, False)  # where the importer committed

# Statements of the transaction's own bookkeeping, not of the import's rows.
_BOOKKEEPING = re.compile(r"\s*(SAVEPOINT|RELEASE|ROLLBACK|BEGIN|PRAGMA|ANALYZE)\b", re.I)
# INSERT ... VALUES (...), (...) [RETURNING ...]: its head, its first row, the rest.
_VALUES = re.compile(
    r"(?P<head>INSERT\b.*?\bVALUES\s*)(?P<one>\([^()]*\))(?P<more>(?:\s*,\s*\([^()]*\))*)"
    r"(?P<returning>\s+RETURNING\b.*)?$",
    re.S | re.I,
)
_RETURNING = re.compile(r"\s+RETURNING\b.*$", re.S | re.I)


def transactions(sent: list[Sent]) -> list[list[Sent]]:
    """The statements between the importer's commits, bookkeeping left out (a savepoint
    names no rows); none empty."""
    found: list[list[Sent]] = [[]]
    for statement in sent:
        if statement == COMMIT:
            found.append([])
        elif not _BOOKKEEPING.match(statement[0]):
            found[-1].append(statement)
    return [statements for statements in found if statements]


def grouped(statements: list[Sent]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """A transaction's statements as one unit: each read as it was sent, in its place
    among the groups begun before it; the writes grouped by statement (a statement of
    many rows as its one-row form, the ids it returned not asked for), each group's rows
    in the order sent, the groups in the order each was first sent."""
    units: list[tuple[str, list[tuple[Any, ...]]]] = []
    writes: dict[str, list[tuple[Any, ...]]] = {}  # a write's statement -> its group's rows
    for sql, values, many in statements:
        if _is_read(sql):
            units.append((sql, [tuple(values or ())]))
            continue
        one, rows = _rows_of(sql, values, many)
        if one not in writes:
            writes[one] = []
            units.append((one, writes[one]))
        writes[one].extend(rows)
    return units


def _is_read(sql: str) -> bool:
    return sql.lstrip()[:6].upper() == "SELECT"


def _rows_of(sql: str, values: Any, many: bool) -> tuple[str, list[tuple[Any, ...]]]:
    """A write as one row's statement and its rows."""
    if many:
        return sql, [tuple(row) for row in values]
    found = _VALUES.match(sql.strip())
    if found is None:
        return _RETURNING.sub("", sql), [tuple(values or ())]
    width = found["one"].count("%s")
    flat = list(values or ())
    if width == 0 or len(flat) % width:
        raise ValueError(f"expected rows of {width} values, got {len(flat)} values: {sql[:80]}")
    rows = [tuple(flat[at : at + width]) for at in range(0, len(flat), width)]
    return found["head"] + found["one"], rows


def _sqlite(sql: str) -> str:
    """Django's placeholders as sqlite3's."""
    return sql.replace("%s", "?").replace("%%", "%")


def replay_as_sent(db: sqlite3.Connection, turns: list[list[Sent]]) -> None:
    for statements in turns:
        db.execute("BEGIN IMMEDIATE")
        for sql, values, many in statements:
            if many:
                db.executemany(_sqlite(sql), values)
            else:
                db.execute(_sqlite(sql), values or ()).fetchall()
        db.execute("COMMIT")


def replay_grouped(db: sqlite3.Connection, turns: list[list[Sent]]) -> None:
    """``turns`` replayed a transaction a unit (``grouped``)."""
    for statements in turns:
        db.execute("BEGIN IMMEDIATE")
        for sql, rows in grouped(statements):
            if _is_read(sql):
                db.execute(_sqlite(sql), rows[0]).fetchall()
            else:
                db.executemany(_sqlite(sql), rows)
        db.execute("COMMIT")


@contextmanager
def _copy_of(path: Path) -> Iterator[sqlite3.Connection]:
    """A fresh copy of the database at ``path``, set as the registry's connections are
    (the settings' own PRAGMAs)."""
    from django.db import connection

    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-replay-") as scratch:
        copy = Path(scratch) / "replay.sqlite3"
        shutil.copy(path, copy)
        db = sqlite3.connect(copy, isolation_level=None)
        db.executescript(connection.settings_dict["OPTIONS"]["init_command"])
        db.execute("PRAGMA foreign_keys=OFF")  # the grouped replay writes rows in another order
        try:
            yield db
        finally:
            db.close()


def _least(rounds: int, before: Path, replay: Callable[[sqlite3.Connection], Any]) -> float:
    best = float("inf")
    for _ in range(rounds):
        with _copy_of(before) as db:
            start = time.perf_counter()
            replay(db)
            best = min(best, time.perf_counter() - start)
    return best


def _captured(files: list[tuple[str, bytes]]) -> tuple[list[Sent], float]:
    """The files imported as one batch, every statement and commit captured; seconds."""
    from django.db import connection
    from django.db.backends.base.base import BaseDatabaseWrapper

    from ecfgrading.services.results import import_files

    sent: list[Sent] = []

    def capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if many:
            params = list(params)  # an iterator is gone once executed
        sent.append((sql, params, many))
        return execute(sql, params, many, context)

    plain_commit = BaseDatabaseWrapper._commit

    def commit(self: BaseDatabaseWrapper) -> None:
        sent.append(COMMIT)
        plain_commit(self)

    BaseDatabaseWrapper._commit = commit  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        with connection.execute_wrapper(capture):
            results = import_files(files, sender="bench")
        seconds = time.perf_counter() - start
    finally:
        BaseDatabaseWrapper._commit = plain_commit  # type: ignore[method-assign]
    accepted = sum(result.accepted for result in results)
    print(f"{accepted:,} of {len(files):,} files accepted")
    return sent, seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--season-dir", type=Path, required=True)
    parser.add_argument("--files", type=int, default=0, help="the first N files (0: all)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-replay-home-") as home:
        before = _starting_list(args.season_dir, Path(home))
        sent, imported = _captured(season_files(args.season_dir, args.files or None))
        turns = transactions(sent)
        as_sent = _least(args.rounds, before, lambda db: replay_as_sent(db, turns))
        one_unit = _least(args.rounds, before, lambda db: replay_grouped(db, turns))
    units = sum(len(grouped(statements)) for statements in turns)
    statements = sum(map(len, turns))
    said = [
        ("the import, statements captured", imported, ""),
        (
            f"replayed as sent ({statements:,} statements, {len(turns)} transactions)",
            as_sent,
            f"import / this {imported / as_sent:.1f}x",
        ),
        (
            f"one statement a table a transaction ({units:,} statements)",
            one_unit,
            f"{one_unit - as_sent:+.2f} s against as sent",
        ),
    ]
    for step, seconds, note in said:
        print(f"{step:<58} {seconds:7.2f} s   {note}".rstrip())


def _starting_list(season: Path, home: Path) -> Path:
    """A fresh database in ``home`` holding the season's starting list, and a copy of it
    as it then stands."""
    os.environ["ECFGRADING_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    starting_list(season)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file holds every row
    before = home / "before.sqlite3"
    shutil.copy(connection.settings_dict["NAME"], before)
    return before


if __name__ == "__main__":
    main()
