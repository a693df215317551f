"""PostgreSQL plans the look for games already on record (same_games) by the games
table's statistics; without them it read a season's games by date for every file, a
fifth of a national import. An importer that has written enough games takes them again
(issue 25)."""

from __future__ import annotations

import pytest
from django.db import connection

from ecfgrading.registry.models import Game
from ecfgrading.services.results import same_games
from ecfgrading.services.results.ingest import import_files
from ecfgrading.services.results.same_games import GameStatistics
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

PLAYERS = [f"#PIN={pin}#NAME=Player, Number {pin}#CLUB NAME=Anytown" for pin in range(1, 5)]
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=3#SCORE=55#PIN2=4#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=1#SCORE=01#PIN2=3#ROUND=2#GAME DATE=12/05/2013",
]


def rows_planned_for() -> float:
    """How many games the planner believes the table holds (-1: never counted)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [Game._meta.db_table])
        (rows,) = cursor.fetchone()
    return float(rows)


@pytest.mark.postgresql
def test_a_batch_that_wrote_enough_games_has_them_counted(monkeypatch) -> None:
    monkeypatch.setattr(same_games, "STATISTICS_EVERY", 5)
    files = [
        (f"{n}.txt", results_file(PLAYERS, GAMES, code=f"XX1000{n}", name=f"Congress {n}"))
        for n in (1, 2)
    ]

    results = import_files(files)

    assert [result.accepted for result in results] == [True, True]
    # Six games written: more than five, so the statistics were taken after the batch's
    # one turn, and count them all.
    assert rows_planned_for() == Game.objects.count() == 6


@pytest.mark.postgresql
def test_the_statistics_are_taken_again_once_the_table_has_doubled(monkeypatch) -> None:
    monkeypatch.setattr(same_games, "STATISTICS_EVERY", 2)
    import_files([("a.txt", results_file(PLAYERS, GAMES))])  # 3 games: counted
    statistics = GameStatistics()

    assert not statistics.wrote(1)  # the first due after 2 games
    assert statistics.wrote(1)
    assert statistics.due == 3  # the games on record when they were taken
    assert not statistics.wrote(2)
    assert statistics.wrote(1)


@pytest.mark.sqlite  # its plan for the look needs no statistics
def test_sqlite_takes_no_statistics() -> None:
    statistics = GameStatistics()

    assert not statistics.wrote(same_games.STATISTICS_EVERY * 3)
