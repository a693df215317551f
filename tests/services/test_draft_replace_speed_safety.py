"""A draft computed again holds exactly its new rows, and a failed recompute leaves the old
draft whole, on each database: on PostgreSQL ``storing.replace_columns`` writes only the
points that changed (issue 25), so the rows it keeps, deletes and adds are checked here.

Expected points are worked out from G12 by hand: every player has an assigned starting
grade (G6), so a player's points in a game are ``V + 50`` for a win, ``V`` for a draw and
``V - 50`` for a loss, with ``V`` his opponent's starting grade held within 40 of his own.
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone

from ecfgrading.engine import Rate
from ecfgrading.registry.models import (
    AuditLog,
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PublishedVersionError,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version
from ecfgrading.services.grading.storing import replace_columns
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db

DAY = date(2009, 10, 3)  # in P0 of standard 2010-07
LATER = date(2010, 2, 6)
STARTS = {"Ames": 150, "Bell": 150, "Cole": 150, "Dunn": 170}


def players() -> tuple[Federation, dict[str, Player]]:
    fed = Federation()
    people = {name: fed.player(name) for name in STARTS}
    for name, grade in STARTS.items():
        assign_starting_grade(people[name].ref, Rate.STANDARD, valid_from="2009-07", grade=grade)
    return fed, people


def game(first: Player, second: Player) -> Game:
    return Game.objects.get(player1=first, player2=second)


def first_draft() -> tuple[Federation, dict[str, Player], int]:
    """Four games of one event, computed into the draft standard 2010-07 initial."""
    fed, p = players()
    games = [
        (p["Ames"], "10", p["Bell"], DAY),
        (p["Cole"], "55", p["Ames"], DAY),
        (p["Dunn"], "01", p["Bell"], DAY),
        (p["Cole"], "10", p["Dunn"], DAY),
    ]
    assert all(outcome.accepted for outcome in import_files([fed.event(games)]))
    return fed, p, compute_version("2010-07", Rate.STANDARD).version_id


def change_the_games(fed: Federation, p: dict[str, Player]) -> None:
    """Between the runs: Ames v Bell corrected to a loss for Ames, Cole v Ames no longer
    graded, a new event's game Bell v Cole; Dunn's two games stay as they were."""
    Game.objects.filter(pk=game(p["Ames"], p["Bell"]).pk).update(result="01")
    Game.objects.filter(pk=game(p["Cole"], p["Ames"]).pk).update(
        graded=False, not_graded_reason="superseded"
    )
    assert import_files([fed.event([(p["Bell"], "10", p["Cole"], LATER)])])[0].accepted


def expected_points(p: dict[str, Player]) -> set[tuple[int, int, int, date, int, float]]:
    """(player, game, period, date, sequence, points) after ``change_the_games``, by G12."""
    ames_bell, dunn_bell = game(p["Ames"], p["Bell"]), game(p["Dunn"], p["Bell"])
    cole_dunn, bell_cole = game(p["Cole"], p["Dunn"]), game(p["Bell"], p["Cole"])
    points = [
        (p["Ames"], ames_bell, 150 - 50),  # loses to Bell (150)
        (p["Bell"], ames_bell, 150 + 50),  # beats Ames (150)
        (p["Dunn"], dunn_bell, 150 - 50),  # 170 loses to Bell (150, within 40)
        (p["Bell"], dunn_bell, 170 + 50),  # beats Dunn (170, within 40)
        (p["Cole"], cole_dunn, 170 + 50),  # beats Dunn (170)
        (p["Dunn"], cole_dunn, 150 - 50),  # loses to Cole (150)
        (p["Bell"], bell_cole, 150 + 50),  # beats Cole (150)
        (p["Cole"], bell_cole, 150 - 50),  # loses to Bell (150)
    ]
    return {(player.pk, g.pk, 0, g.game_date, g.pk, float(value)) for player, g, value in points}


def stored_points(version_id: int) -> set[tuple[int, int, int, date, int, float]]:
    rows = StoredGamePoints.objects.filter(version_id=version_id)
    found = list(rows.values_list("player_id", "game_id", "period", "date", "sequence", "points"))
    assert len(found) == len(set(found))
    return set(found)


def everything(version_id: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row of the version, ids included, table by table."""
    return {
        model.__name__: sorted(
            tuple(row.values()) for row in model.objects.filter(version_id=version_id).values()
        )
        for model in (ListEntry, StoredGamePoints, StoredPeriodTotal)
    }


def test_a_recomputed_draft_holds_exactly_the_new_points_totals_and_entries() -> None:
    fed, p, version_id = first_draft()
    change_the_games(fed, p)

    again = compute_version("2010-07", Rate.STANDARD)

    assert again.version_id == version_id  # the same draft, its rows replaced
    assert stored_points(version_id) == expected_points(p)
    totals = StoredPeriodTotal.objects.filter(version_id=version_id)
    assert sorted(totals.values_list("player_id", "n", "total")) == sorted(
        [
            (p["Ames"].pk, 1, 100.0),
            (p["Bell"].pk, 3, 200.0 + 220.0 + 200.0),
            (p["Cole"].pk, 2, 220.0 + 100.0),
            (p["Dunn"].pk, 2, 100.0 + 100.0),
        ]
    )
    entries = ListEntry.objects.filter(version_id=version_id)
    assert sorted(entries.values_list("player_id", "games_latest")) == sorted(
        [(p["Ames"].pk, 1), (p["Bell"].pk, 3), (p["Cole"].pk, 2), (p["Dunn"].pk, 2)]
    )


def test_a_recompute_that_fails_leaves_the_old_draft_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fed, p, version_id = first_draft()
    before = everything(version_id)
    change_the_games(fed, p)  # the recompute would delete, keep and add rows

    def fail(*args: Any, **kwargs: Any) -> None:  # the run's last write, after its rows
        raise RuntimeError("the audit log is full")

    monkeypatch.setattr(AuditLog, "record", fail)
    with pytest.raises(RuntimeError, match="audit log is full"):
        compute_version("2010-07", Rate.STANDARD)

    assert everything(version_id) == before
    assert sum(len(rows) for rows in before.values()) == 4 + 8 + 4


@pytest.mark.postgresql
def test_points_that_did_not_change_are_kept_not_written_again() -> None:
    # Half the points are the same (Dunn's two games): on PostgreSQL they are compared
    # and kept (their ids stay), only the others deleted and written.
    fed, p, version_id = first_draft()
    dunn = StoredGamePoints.objects.filter(game__in=Game.objects.filter(player1=p["Dunn"]))
    dunn |= StoredGamePoints.objects.filter(game__in=Game.objects.filter(player2=p["Dunn"]))
    kept = sorted(dunn.filter(version_id=version_id).values_list("id", "player_id", "game_id"))
    others = set(
        StoredGamePoints.objects.filter(version_id=version_id)
        .exclude(id__in=[row[0] for row in kept])
        .values_list("id", flat=True)
    )
    change_the_games(fed, p)

    compute_version("2010-07", Rate.STANDARD)

    now = StoredGamePoints.objects.filter(version_id=version_id)
    assert len(kept) == 4
    assert (
        sorted(
            now.filter(id__in=[row[0] for row in kept]).values_list("id", "player_id", "game_id")
        )
        == kept
    )
    assert not now.filter(id__in=others).exists()  # changed or gone: deleted
    assert stored_points(version_id) == expected_points(p)


# replace_columns itself ---------------------------------------------------------------


def draft() -> ListVersion:
    grading_list = GradingList.objects.create(list_id="2010-07", rate="standard")
    return ListVersion.objects.create(grading_list=grading_list, name="initial")


def points_columns(
    version: ListVersion, rows: list[tuple[Player, int | None, float]]
) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    """Points rows (player, game, points), dated DAY, sequence the game's id or 0."""
    return {
        "version_id": np.full(len(rows), version.pk),
        "game_id": np.array([g for _p, g, _v in rows]),
        "player_id": np.array([pl.pk for pl, _g, _v in rows]),
        "period": np.zeros(len(rows), np.int16),
        "date": np.full(len(rows), np.datetime64(DAY, "D")),
        "sequence": np.array([g or 0 for _p, g, _v in rows]),
        "points": np.array([v for _p, _g, v in rows], dtype=float),
    }


def insert_plainly(version: ListVersion, rows: list[tuple[Player, int | None, float]]) -> None:
    StoredGamePoints.objects.bulk_create(
        StoredGamePoints(version=version, player=pl, game_id=g, date=DAY, sequence=g or 0, points=v)
        for pl, g, v in rows
    )


def test_a_row_without_a_game_is_replaced_like_any_other() -> None:
    # A version's row with no game (as a list loaded from a file stores) equals no new row.
    version = draft()
    _fed, p = players()
    old = [(p["Ames"], 1, 200.0), (p["Ames"], 2, 150.0), (p["Bell"], 1, 100.0)]
    insert_plainly(version, [*old, (p["Cole"], None, 120.0)])

    written = replace_columns(
        StoredGamePoints, points_columns(version, [*old, (p["Cole"], 3, 120.0)]), version.pk
    )

    assert written == 4
    rows = StoredGamePoints.objects.filter(version=version)
    assert sorted(rows.values_list("player_id", "game_id", "sequence", "points")) == [
        (p["Ames"].pk, 1, 1, 200.0),
        (p["Ames"].pk, 2, 2, 150.0),
        (p["Bell"].pk, 1, 1, 100.0),
        (p["Cole"].pk, 3, 3, 120.0),
    ]


def test_replacing_with_no_rows_leaves_the_version_none() -> None:
    version = draft()
    _fed, p = players()
    insert_plainly(version, [(p["Ames"], 1, 200.0), (p["Bell"], 1, 100.0)])

    assert replace_columns(StoredGamePoints, points_columns(version, []), version.pk) == 0

    assert not StoredGamePoints.objects.filter(version=version).exists()


def test_a_published_version_is_never_replaced() -> None:
    version = draft()
    _fed, p = players()
    insert_plainly(version, [(p["Ames"], 1, 200.0)])
    ListVersion.objects.filter(pk=version.pk).update(
        status="published", published_at=timezone.now()
    )

    with pytest.raises(PublishedVersionError):
        replace_columns(
            StoredGamePoints, points_columns(version, [(p["Ames"], 1, 150.0)]), version.pk
        )

    rows = StoredGamePoints.objects.filter(version=version)
    assert list(rows.values_list("player_id", "game_id", "points")) == [(p["Ames"].pk, 1, 200.0)]


def test_rows_of_another_version_are_refused() -> None:
    version = draft()
    _fed, p = players()
    columns = points_columns(version, [(p["Ames"], 1, 150.0)])
    with pytest.raises(ValueError, match=f"rows of version {version.pk + 1} only"):
        replace_columns(StoredGamePoints, columns, version.pk + 1)


@pytest.mark.postgresql
def test_a_point_is_kept_only_when_equal_bit_for_bit() -> None:
    # 0.0 and -0.0 are equal to SQL's = but not the same value: the row given is stored.
    # (PostgreSQL only: SQLite keeps a whole REAL as an integer, without its sign.)
    version = draft()
    _fed, p = players()
    same = [(p["Ames"], 1, 200.0), (p["Ames"], 2, 150.0), (p["Bell"], 1, 100.0)]
    insert_plainly(version, [*same, (p["Bell"], 2, 0.0)])

    replace_columns(
        StoredGamePoints, points_columns(version, [*same, (p["Bell"], 2, -0.0)]), version.pk
    )

    (value,) = StoredGamePoints.objects.filter(version=version, player=p["Bell"], game_id=2)
    assert value.points == 0.0 and math.copysign(1.0, value.points) == -1.0
    assert connection.vendor == "postgresql"
