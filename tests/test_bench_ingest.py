"""bench/ingest.py's floors (issue 25): the import's own rows, written again plainly in
one transaction and, like the import, a turn of files at a time."""

from __future__ import annotations

from typing import Any

from bench import ingest

from ecfgrading.services.results.ingest import TURN_FILES


def _own(files: int, games_each: int, memberships: int) -> dict[str, list[tuple[Any, ...]]]:
    """Rows in OWN_COLUMNS' shape: submission ids 101, 102, ... in the order written."""
    width = len(ingest.OWN_COLUMNS["registry_game"])
    at = ingest.OWN_COLUMNS["registry_game"].index("submission_id")
    sequence = ingest.OWN_COLUMNS["registry_game"].index("sequence")
    games = []
    for file in range(files):
        for game in range(games_each):
            row: list[Any] = [0] * width
            row[at], row[sequence] = 101 + file, file * games_each + game
            games.append(tuple(row))
    return {
        "registry_submission": [(f"file {n}",) for n in range(files)],
        "registry_game": games,
        "registry_clubmembership": [(n,) for n in range(memberships)],
    }


def test_a_turn_holds_the_games_of_its_files_and_a_share_of_the_rest() -> None:
    """70 files of two games are three turns of 32, 32 and 6 files: 64, 64 and 12 games.
    The 70 submissions and 10 memberships are shared out 23, 23, 24 and 3, 3, 4."""
    assert TURN_FILES == 32  # the figures below are worked out for it
    tables = _own(70, 2, 10)
    turns = ingest.in_turns(tables)
    assert [len(turn["registry_game"]) for turn in turns] == [64, 64, 12]
    assert [len(turn["registry_submission"]) for turn in turns] == [23, 23, 24]
    assert [len(turn["registry_clubmembership"]) for turn in turns] == [3, 3, 4]
    for table, rows in tables.items():  # nothing lost, nothing twice, in order
        assert [row for turn in turns for row in turn[table]] == rows
    at = ingest.OWN_COLUMNS["registry_game"].index("submission_id")
    files = [{game[at] for game in turn["registry_game"]} for turn in turns]
    assert files == [set(range(101, 133)), set(range(133, 165)), set(range(165, 171))]


def test_statements_are_timed_by_verb_and_table_the_costliest_first() -> None:
    """The import's statements, as the bench reports where their time went."""
    kinds = [
        ('INSERT OR FAIL INTO "registry_game" ("a") VALUES (%s)', "INSERT registry_game"),
        (
            'INSERT INTO "registry_player" ("a") VALUES (%s) RETURNING "id"',
            "INSERT registry_player",
        ),
        ('SELECT g."player1_id", s."status" FROM "registry_game" g JOIN', "SELECT registry_game"),
        ('SELECT (SELECT MAX(1) FROM "registry_submission" s)', "SELECT registry_submission"),
        ('UPDATE "registry_submission" SET "status" = %s', "UPDATE registry_submission"),
        ('SAVEPOINT "s1_x1"', "SAVEPOINT"),
    ]
    assert [ingest._kind(sql) for sql, _ in kinds] == [kind for _, kind in kinds]
    sent = ingest.Sent(3, {"a": 0.5, "b": 2.0, "c": 1.0}, {"a": 1, "b": 1, "c": 1})
    assert [row["step"].strip() for row in sent.costliest(top=2)] == ["b", "c"]
