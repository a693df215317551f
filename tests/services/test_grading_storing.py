"""A grading run's columns written whole (``services.grading.storing``), on each database."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from ecfgrading.engine import Rate
from ecfgrading.registry.models import (
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version
from ecfgrading.services.grading.storing import insert_columns
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db


def draft() -> ListVersion:
    grading_list = GradingList.objects.create(list_id="2010-07", rate="standard")
    return ListVersion.objects.create(grading_list=grading_list, name="initial")


def two_players() -> list[Player]:
    fed = Federation()
    return [fed.player("Ames"), fed.player("Bell")]


def test_points_columns_are_written_as_given_dates_and_fractions_included() -> None:
    version = draft()
    ames, bell = two_players()
    written = insert_columns(
        StoredGamePoints,
        {
            "version_id": np.array([version.pk, version.pk]),
            "game_id": np.array([7, 9_000_000_001]),  # a key beyond 32 bits
            "player_id": np.array([ames.pk, bell.pk]),
            "period": np.array([0, 2], dtype=np.int16),
            # before and after PostgreSQL's own day 0 (2000-01-01)
            "date": np.array(["1999-12-31", "2010-02-28"], dtype="datetime64[D]"),
            "sequence": np.array([7, 9_000_000_001]),
            "points": np.array([162.5, -12.25]),
        },
    )

    assert written == 2
    rows = StoredGamePoints.objects.filter(version=version).order_by("player_id")
    assert list(
        rows.values_list("game_id", "player_id", "period", "date", "sequence", "points")
    ) == [
        (7, ames.pk, 0, date(1999, 12, 31), 7, 162.5),
        (9_000_000_001, bell.pk, 2, date(2010, 2, 28), 9_000_000_001, -12.25),
    ]


def test_totals_columns_are_written_as_given() -> None:
    version = draft()
    ames, bell = two_players()

    insert_columns(
        StoredPeriodTotal,
        {
            "version_id": np.full(2, version.pk),
            "player_id": np.array([ames.pk, bell.pk]),
            "n": np.array([3, 40]),
            "total": np.array([451.5, 6000.0]),
        },
    )

    totals = StoredPeriodTotal.objects.filter(version=version).order_by("player_id")
    assert list(totals.values_list("player_id", "n", "total")) == [
        (ames.pk, 3, 451.5),
        (bell.pk, 40, 6000.0),
    ]


def test_nothing_to_write_writes_nothing() -> None:
    version = draft()
    empty = np.array([], dtype=np.int64)
    assert insert_columns(StoredPeriodTotal, dict.fromkeys(("version_id", "n"), empty)) == 0
    assert not StoredPeriodTotal.objects.filter(version=version).exists()


def test_a_column_the_table_does_not_have_is_refused() -> None:
    with pytest.raises(TypeError, match=r"expected columns of registry_storedperiodtotal"):
        insert_columns(StoredPeriodTotal, {"grade": np.array([150])})


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match=r"one length, got lengths \[1, 2\]"):
        insert_columns(StoredPeriodTotal, {"n": np.array([1]), "total": np.array([1.0, 2.0])})


def test_a_run_writes_its_points_in_the_order_of_their_unique_index() -> None:
    # Two events recorded one after the other, each pairing the players the other way
    # round: written by game, the rows would go Ames, Bell, Bell, Ames...; by the index
    # (version, player, game) they go each player's games in turn.
    fed = Federation()
    ames, bell, cole = (fed.player(name) for name in ("Ames", "Bell", "Cole"))
    for each in (ames, bell, cole):
        assign_starting_grade(each.ref, Rate.STANDARD, valid_from="2009-07", grade=150)
    day = date(2009, 10, 3)
    first = fed.event([(bell, "10", ames, day), (cole, "01", ames, day)])
    second = fed.event([(ames, "55", bell, day), (ames, "10", cole, day)])
    assert all(outcome.accepted for outcome in import_files([first, second]))

    version_id = compute_version("2010-07", Rate.STANDARD).version_id

    written = StoredGamePoints.objects.filter(version_id=version_id).order_by("id")
    order = list(written.values_list("player_id", "game_id"))
    assert order == sorted(order)
    assert len(order) == 2 * Game.objects.count() == 8


def test_more_rows_than_one_statement_binds_are_all_written_in_their_order() -> None:
    # 2,501 rows of four bound values: SQLite's writer sends statements of 249 rows
    # (999 values at most) and one of the rest; PostgreSQL one COPY. Every row must come
    # back as given, in the order given (ids grow with the order of writing).
    version = draft()
    players = [Player.objects.create(code=200_000 + i, surname=f"P{i}") for i in range(3)]
    count = 2_501
    player_ids = np.array([p.pk for p in players])[np.arange(count) % 3]
    game_ids = np.arange(1, count + 1) * 3
    days = np.datetime64("2009-09-01") + np.arange(count) % 400
    points = np.arange(count) / 8 - 100  # exact in binary: compared with ==

    insert_columns(
        StoredGamePoints,
        {
            "version_id": np.full(count, version.pk),
            "game_id": game_ids,
            "player_id": player_ids,
            "period": np.zeros(count, np.int16),
            "date": days,
            "sequence": game_ids + 1,
            "points": points,
        },
    )

    written = StoredGamePoints.objects.filter(version=version).order_by("id")
    rows = list(written.values_list("game_id", "player_id", "period", "date", "sequence"))
    assert rows == [
        (3 * (i + 1), players[i % 3].pk, 0, date(2009, 9, 1) + timedelta(days=i % 400), 3 * i + 4)
        for i in range(count)
    ]
    assert list(written.values_list("points", flat=True)) == [i / 8 - 100 for i in range(count)]


def test_a_row_whose_every_value_is_one_whole_number_is_written() -> None:
    # Every column of one value: nothing would be left to bind for a row.
    version = draft()
    ames, _bell = two_players()

    insert_columns(
        StoredPeriodTotal,
        {
            "version_id": np.array([version.pk]),
            "player_id": np.array([ames.pk]),
            "n": np.array([12]),
            "total": np.array([1800]),
        },
    )

    totals = StoredPeriodTotal.objects.filter(version=version)
    assert list(totals.values_list("player_id", "n", "total")) == [(ames.pk, 12, 1800.0)]


def test_a_run_counts_its_players_categories_and_starting_grades_as_it_stored_them() -> None:
    # The report's counts (and their order: the players' order, first appearance first)
    # are those of the entries the run stored, counted here one by one.
    fed = Federation()
    ames, bell, cole, dunn = (fed.player(name) for name in ("Ames", "Bell", "Cole", "Dunn"))
    for each in (ames, bell):
        assign_starting_grade(each.ref, Rate.STANDARD, valid_from="2009-07", grade=150)
    day = date(2009, 10, 3)
    games = [(ames, "10", bell, day), (cole, "55", ames, day), (dunn, "01", bell, day)]
    assert all(outcome.accepted for outcome in import_files([fed.event(games)]))

    run = compute_version("2010-07", Rate.STANDARD)

    entries = ListEntry.objects.filter(version_id=run.version_id).order_by("player_id")
    categories = Counter(
        category or "none" for category in entries.values_list("category", flat=True)
    )
    sources = Counter(entries.values_list("start_source", flat=True))
    assert run.categories == dict(categories) and list(run.categories) == list(categories)
    assert run.sources == dict(sources) and list(run.sources) == list(sources)
    assert sources == {"assigned": 2, "estimated": 2}
