"""G17, G34: a run's stored game points packed in one row beside its rows
(registry.packed), and later lists' loads reading that copy instead of the rows."""

from __future__ import annotations

import re
from datetime import date

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.engine import Rate
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rules import rule_set
from ecfgrading.lookups import list_inputs
from ecfgrading.lookups.list_inputs import Sources, load_inputs
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import (
    Game,
    ListVersion,
    PackedGamePoints,
    Player,
    PublishedVersionError,
    StoredGamePoints,
)
from ecfgrading.registry.packed import keep_packed, pack_points, unpack_points
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation
from tests.services.test_grading import LIST_HEADER, OCTOBER, stored_2010_07

pytestmark = pytest.mark.django_db

STANDARD = Rate.STANDARD
POINTS_COLUMNS = ("game_id", "player_id", "period", "date", "sequence", "points")


def test_packed_columns_come_back_as_they_were_given() -> None:
    days = np.array(["2009-10-03", "2010-06-30"], dtype="datetime64[D]")
    rows, data = pack_points(
        {
            "played": np.array([7, 0]),  # 0: a stored game with no game (a loaded list)
            "player_id": np.array([3, 4]),
            "day": days,
            "sequence": np.array([7, 9]),
            "points": np.array([150.0, 133.18620129]),
        }
    )
    unpacked = unpack_points(rows, data)
    assert rows == 2
    assert unpacked.tolist() == [(7, 3, 14520, 7, 150.0), (0, 4, 14790, 9, 133.18620129)]
    with pytest.raises(ValueError, match="expected 3 packed rows"):
        unpack_points(3, data)


def test_packing_refuses_columns_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="expected 2 values of every column, got 1 day"):
        pack_points(
            {
                "played": np.array([1, 2]),
                "player_id": np.array([1, 2]),
                "day": np.array([0]),
                "sequence": np.array([1, 2]),
                "points": np.array([1.0, 2.0]),
            }
        )


def _known_player_version(
    *, earlier_recorded_later: bool = False
) -> tuple[Federation, ListVersion]:
    """Known (2009-07: 150) draws nine 150s and beats a tenth in October 2009 (G12);
    ``earlier_recorded_later``: and draws a 150 on 5 September 2009, in a file recorded
    after, so that recording order and date order differ (G15)."""
    fed = Federation()
    known = fed.player("Known", "Kim")
    csv = LIST_HEADER + f'{known.ref},"Known, Kim",F,,A,150,148,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2009-07", rates=(STANDARD,))
    if not earlier_recorded_later:
        return fed, stored_2010_07(fed, known, ["55"] * 9 + ["10"])
    october = fed.against(known, ["55"] * 9 + ["10"], 150, OCTOBER)
    september = fed.against(known, ["55"], 150, date(2009, 9, 5))
    assert all(outcome.accepted for outcome in import_files([fed.event(october)]))
    assert all(outcome.accepted for outcome in import_files([fed.event(september)]))
    return fed, ListVersion.objects.get(pk=compute_version("2010-07", STANDARD).version_id)


def test_g17_a_run_packs_the_points_it_stores_in_its_rows() -> None:
    _fed, version = _known_player_version(earlier_recorded_later=True)
    packed = PackedGamePoints.objects.get(version=version)
    unpacked = unpack_points(packed.rows, bytes(packed.data)).tolist()
    stored = StoredGamePoints.objects.filter(version=version, period=0)
    rows = [
        (game, player, (day - date(1970, 1, 1)).days, sequence, points)
        for game, player, day, sequence, points in stored.values_list(
            "game_id", "player_id", "date", "sequence", "points"
        )
    ]
    assert packed.rows == len(rows) == 22  # two sides of eleven games
    # The same rows, by player, date and recording order (G15): as a load reads them.
    assert unpacked == sorted(rows, key=lambda row: (row[1], row[2], row[3]))
    # Known's side by hand: the September draw first, though recorded last; a draw
    # against a 150 scores 150, the win 200 (G12).
    known = Game.objects.filter(result="10").values_list("player1_id", flat=True).get()
    mine = [(day, points) for _g, player, day, _s, points in unpacked if player == known]
    september, october = ((day - date(1970, 1, 1)).days for day in (date(2009, 9, 5), OCTOBER))
    assert mine[0] == (september, 150.0)
    assert sorted(mine[1:]) == [(october, 150.0)] * 9 + [(october, 200.0)]


def test_g17_a_draft_computed_again_packs_its_points_again() -> None:
    _fed, version = _known_player_version()
    compute_version("2010-07", STANDARD)  # the draft, again
    assert PackedGamePoints.objects.filter(version=version).count() == 1
    assert PackedGamePoints.objects.get(version=version).rows == 20
    publish_version("2010-07", STANDARD, "initial")
    with pytest.raises(PublishedVersionError):
        keep_packed(version.id, {name: np.array([], np.int64) for name in POINTS_COLUMNS})


def _history_of_2011_07() -> tuple[np.ndarray, ...]:  # type: ignore[type-arg]
    """2011-07 as the 2015 rules would load it: P1 game by game from 2010-07 (G34)."""
    loaded = load_inputs(ListId.parse("2011-07"), STANDARD, rule_set("ecf-2015"))
    games = loaded.inputs.history.games
    assert games is not None
    ids = loaded.inputs.players.ids
    return (
        games.game_ids,
        ids[games.player],
        games.period,
        games.date,
        games.order,
        games.points,
    )


def _rows_read(queries: CaptureQueriesContext) -> set[int]:
    """The versions whose StoredGamePoints rows the queries read."""
    table = StoredGamePoints._meta.db_table
    return {
        int(found)
        for query in queries
        if table in query["sql"]
        for found in re.findall(r'"version_id" = (\d+)', query["sql"])
    }


def test_g34_a_later_list_reads_a_versions_packed_points_not_its_rows() -> None:
    fed, version = _known_player_version(earlier_recorded_later=True)
    publish_version("2010-07", STANDARD, "initial")
    # Known plays once more in P0 of 2011-07, so that the list has players to load.
    known = Game.objects.filter(result="10").values_list("player1_id", flat=True).get()
    later = fed.against(Player.objects.get(pk=known), ["55"], 150, date(2010, 10, 2))
    assert all(outcome.accepted for outcome in import_files([fed.event(later)]))

    with CaptureQueriesContext(connection) as queries:
        packed = _history_of_2011_07()
    # P2 comes from 2009-07, a list loaded from a file, read by its rows; P1 from 2010-07.
    loaded = ListVersion.objects.exclude(pk=version.pk).get()
    assert _rows_read(queries) == {loaded.id}
    assert sorted(packed[4].tolist()) == sorted(
        StoredGamePoints.objects.filter(version=version, player_id=known).values_list(
            "sequence", flat=True
        )
    )

    with connection.cursor() as cursor:  # a version without its packed copy: read by rows
        cursor.execute(f"DELETE FROM {PackedGamePoints._meta.db_table}")
    with CaptureQueriesContext(connection) as queries:
        by_rows = _history_of_2011_07()
    assert _rows_read(queries) == {loaded.id, version.id}
    for one, other in zip(packed, by_rows, strict=True):
        np.testing.assert_array_equal(one, other)


def test_g34_one_version_read_by_date_for_both_periods_is_read_packed_for_each() -> None:
    """Standard 2012-01 and 2013-01 read P1 and P2 by date from the annual lists whose P0
    overlaps each (G34): one version may serve both periods. Known's 2010-07 points, the
    September draw and the ten October games, split by made-up periods at 1 October:
    each period gets its own games, from the packed copy both times."""
    _fed, version = _known_player_version(earlier_recorded_later=True)
    periods = {
        1: Period(date(2009, 10, 1), date(2010, 5, 31)),
        2: Period(date(2009, 6, 1), date(2009, 9, 30)),
    }
    sources = Sources(periods={1: [version], 2: [version]})
    survivors = Survivors()
    ids = np.array(sorted(StoredGamePoints.objects.values_list("player_id", flat=True).distinct()))

    with CaptureQueriesContext(connection) as queries:
        packed = list_inputs._stored_games(sources, periods, ids, survivors)
    assert _rows_read(queries) == set()
    september = (date(2009, 9, 5) - date(1970, 1, 1)).days
    by_period = {
        k: sorted(packed.date[packed.period == k].astype(np.int64).tolist()) for k in (1, 2)
    }
    assert by_period[2] == [september] * 2  # Known's side and his opponent's
    assert by_period[1] == [(OCTOBER - date(1970, 1, 1)).days] * 20

    with connection.cursor() as cursor:  # without the copy: the rows, by date, twice
        cursor.execute(f"DELETE FROM {PackedGamePoints._meta.db_table}")
    by_rows = list_inputs._stored_games(sources, periods, ids, survivors)
    for name in ("game_ids", "player", "period", "date", "order", "points"):
        np.testing.assert_array_equal(getattr(packed, name), getattr(by_rows, name))
