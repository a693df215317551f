"""bench/statement_replay.py (issue 25): the import's statements split at its commits, and
a transaction's writes grouped as one unit, one statement a table."""

from __future__ import annotations

import sqlite3

import pytest
from bench import statement_replay as replay

PLAYER = 'INSERT INTO "p" ("a", "b") VALUES (%s, %s)'
TWO_PLAYERS = 'INSERT INTO "p" ("a", "b") VALUES (%s, %s), (%s, %s) RETURNING "p"."id"'
GAME = 'INSERT OR FAIL INTO "g" ("x") VALUES (%s)'
SETTLE = 'UPDATE "s" SET "status" = %s WHERE "id" = %s'
READ = 'SELECT "x" FROM "g" WHERE "x" IN (%s, %s)'


def test_commits_split_the_statements_and_savepoints_are_left_out() -> None:
    sent = [
        ('SAVEPOINT "s1"', None, False),
        (PLAYER, (1, 2), False),
        ('RELEASE SAVEPOINT "s1"', None, False),
        replay.COMMIT,
        replay.COMMIT,  # nothing between: no empty transaction
        (SETTLE, ("accepted", 7), False),
        replay.COMMIT,
    ]
    assert replay.transactions(sent) == [
        [(PLAYER, (1, 2), False)],
        [(SETTLE, ("accepted", 7), False)],
    ]


def test_a_transactions_writes_are_one_statement_each_in_the_order_first_sent() -> None:
    """Two files' players (one alone, two in one statement returning ids), games and
    settling: three statements, the players' three rows in the order sent, the RETURNING
    gone with the many rows; the read keeps its place after the first player."""
    statements = [
        (PLAYER, (1, 2), False),
        (READ, (5, 6), False),
        (GAME, [(10,), (11,)], True),
        (SETTLE, ("accepted", 7), False),
        (TWO_PLAYERS, (3, 4, 5, 6), False),
        (GAME, [(12,)], True),
        (SETTLE, ("accepted", 8), False),
    ]
    assert replay.grouped(statements) == [
        (PLAYER, [(1, 2), (3, 4), (5, 6)]),
        (READ, [(5, 6)]),
        (GAME, [(10,), (11,), (12,)]),
        (SETTLE, [("accepted", 7), ("accepted", 8)]),
    ]


def test_rows_that_do_not_fill_the_statements_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="expected rows of 2 values, got 3"):
        replay.grouped([(TWO_PLAYERS, (1, 2, 3), False)])


def test_both_replays_leave_the_same_rows() -> None:
    """Replayed as sent and as one unit, a database holds the same rows."""
    turns = [
        [(TWO_PLAYERS, (1, "a", 2, "b"), False), (GAME, [(10,), (11,)], True)],
        [(PLAYER, (3, "c"), False), (READ, (10, 11), False), (SETTLE, ("done", 1), False)],
    ]
    held = []
    for run in (replay.replay_as_sent, replay.replay_grouped):
        db = sqlite3.connect(":memory:", isolation_level=None)
        db.execute('CREATE TABLE "p" ("id" INTEGER PRIMARY KEY, "a", "b")')
        db.execute('CREATE TABLE "g" ("x")')
        db.execute('CREATE TABLE "s" ("id" INTEGER PRIMARY KEY, "status")')
        db.execute("""INSERT INTO "s" VALUES (1, 'received')""")
        run(db, turns)
        tables = ("p", "g", "s")
        held.append([db.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables])
    assert (
        held[0]
        == held[1]
        == [
            [(1, 1, "a"), (2, 2, "b"), (3, 3, "c")],
            [(10,), (11,)],
            [(1, "done")],
        ]
    )
