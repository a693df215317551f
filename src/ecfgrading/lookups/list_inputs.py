"""Loading what the engine needs for one list from the database, in bulk (G3..G6, G17;
G33, G34 for the half-yearly lists)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from django.db.models import BigIntegerField, CharField, Func, Q, Value
from django.db.models.functions import Cast, Coalesce

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.inputs import (
    RATE_CODES,
    GameTable,
    History,
    IntArray,
    ListInputs,
    PlayerTable,
    StoredGames,
    StoredTotals,
)
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rules import RuleSet
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.lookups import versions
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.rows import fetch, fetch_array
from ecfgrading.registry.models import (
    Event,
    Game,
    ListEntry,
    ListVersion,
    Player,
    StartingGradeAssignment,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.registry.packed import STORED_ROW, packed_points

_RESULT = {code.text: int(code) for code in ResultCode}
# _BY_ID: the entries, totals and points of a version in player id order, which their
# unique (version, player...) index gives as it is; their models' own order is by the
# players' names, a join and a sort of every row for nothing.


@dataclass
class Sources:
    """The versions a computation read, recorded in its report so it can be explained."""

    previous: ListVersion | None = None
    other_rate: ListVersion | None = None
    # G34: the versions P1 and P2 are read from: one list's, or (standard 2012-01 and
    # 2013-01) those of the annual lists whose P0 overlap the period, read by date.
    periods: dict[int, list[ListVersion]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        def ref(v: ListVersion | None) -> int | None:
            return v.id if v else None

        return {
            "previous": ref(self.previous),
            "other_rate": ref(self.other_rate),
            "p1": [v.id for v in self.periods.get(1, [])],
            "p2": [v.id for v in self.periods.get(2, [])],
        }


def period_versions(read: Any) -> list[int]:
    """A report's ``p1``/``p2``: a list of version ids (an id or None in older reports)."""
    if read is None:
        return []
    return [int(v) for v in read] if isinstance(read, list) else [int(read)]


@dataclass
class Loaded:
    inputs: ListInputs
    sources: Sources
    previous_grades: dict[int, int]  # player id -> the previous list's grade (Grade1)
    waiting: dict[str, int]  # event code -> games left out for pending identifications


def load_inputs(
    list_id: ListId,
    rate: Rate,
    rules: RuleSet | None = None,
    *,
    received_by: datetime | None = None,
) -> Loaded:
    """Everything is keyed by surviving player: a merged record's history is his.

    ``rules`` (default: the rule set of the list's date, G31) decides only whether P1 and
    P2 are read game by game; which lists are read is the list's date's (G33, G34).
    ``received_by`` leaves out the games of results received after it (a replay of a
    list on the results its published version had); by default every game on record.
    """
    rules = rules or rules_for(list_id)
    survivors = Survivors()
    ids, games, waiting = _games(list_id, rate, survivors, received_by)
    sources = Sources(
        previous=versions.published(list_id.previous_same_rate(rate), rate),
        other_rate=versions.published(list_id.previous_other_rate(rate), rate.other),
        periods={k: _period_sources(list_id, rate, k) for k in (1, 2)},
    )
    previous = _grades(sources.previous, ids, survivors)
    players = PlayerTable.of(
        ids,
        previous=_positive(previous),
        other_rate=_positive(_grades(sources.other_rate, ids, survivors)),
        assigned=_assigned(list_id, rate, ids, survivors),
        birth=_births(ids, survivors, received_by),
    )
    history = _history(list_id, sources, ids, rate, survivors, rules)
    inputs = ListInputs(list_id, rate, players, games, history)
    grade1 = {int(i): int(g) for i, g in zip(ids, previous, strict=True) if not np.isnan(g)}
    return Loaded(inputs, sources, grade1, waiting)


def _p0_games(list_id: ListId, rate: Rate, received_by: datetime | None) -> Any:
    p0 = list_id.p0()
    # ``graded__in`` rather than ``graded=True``: SQLite reads a bare boolean column
    # ("WHERE graded") as no bound on the (rate, graded, game_date) index, and scans every
    # game of the rate instead of P0's dates.
    games = Game.objects.filter(
        rate=rate.value, graded__in=[True], game_date__gte=p0.start, game_date__lte=p0.end
    )
    if received_by is not None:
        games = games.filter(submission__received_at__lte=received_by)
    return games


def _games(
    list_id: ListId, rate: Rate, survivors: Survivors, received_by: datetime | None
) -> tuple[IntArray, GameTable, dict[str, int]]:
    """G1, G3: graded games of this rate in P0 whose players are both identified, and
    the games left out for a player still in the identification queue, per event. One
    query, its rows read as the database gives them (no per-row conversions) and laid
    into columns by numpy (``_GAME_ROW``) a chunk at a time (``fetch_array``), in
    recording order (sorted here: the database would sort 200,000 rows more slowly)."""
    query = (
        _p0_games(list_id, rate, received_by)
        .order_by()
        .annotate(
            day=_EpochDays("game_date"), first=_known("player1_id"), second=_known("player2_id")
        )
        .values_list(*(_GAME_ROW.names or ()))
    )
    rows = fetch_array(query, _GAME_ROW)
    rows = rows[np.argsort(rows["sequence"], kind="stable")]
    identified = (rows["first"] != _UNKNOWN) & (rows["second"] != _UNKNOWN)
    waiting = _waiting(rows["event_id"][~identified])
    rows = rows[identified]
    p1, p2 = survivors.map(rows["first"]), survivors.map(rows["second"])
    # Two records of one person who met each other: merged, that game is no game.
    kept = p1 != p2
    rows, p1, p2 = rows[kept], p1[kept], p2[kept]
    count = rows.shape[0]
    ids, inverse = np.unique(np.concatenate([p1, p2]), return_inverse=True)
    table = GameTable.of(
        ids=np.ascontiguousarray(rows["id"]),
        player1=inverse[:count],
        player2=inverse[count:],
        result=_results(rows["result"]),
        date=_days(rows["day"]),
        rate=np.full(count, RATE_CODES[rate], np.int8),
    )
    return ids, table, waiting


# A P0 game's row as ``_games`` reads it: numpy lays a list of such tuples into columns in
# C, many times faster than Python taking them apart (and no work for the garbage
# collector, which a national list's 1,400,000 values otherwise keep busy).
_GAME_ROW = np.dtype(
    [
        ("id", np.int64),
        ("first", np.int64),
        ("second", np.int64),
        ("result", f"U{max(map(len, _RESULT)) + 1}"),  # wider than any: no code is cut
        ("day", np.int64),  # days since 1970-01-01 (``_EpochDays``)
        ("sequence", np.int64),
        ("event_id", np.int64),
    ]
)


def _results(texts: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """Results-file SCORE texts as ``ResultCode`` values (KeyError for any other)."""
    codes, inverse = np.unique(texts, return_inverse=True)
    return np.array([_RESULT[code] for code in codes.tolist()], dtype=np.int8)[inverse]


_UNKNOWN = 0  # no row has id 0: an empty key (``_known``)


def _known(column: str) -> Coalesce:
    """A key, or ``_UNKNOWN`` where it is empty: a game's player still awaiting
    identification, a stored game of a list loaded from a file."""
    return Coalesce(column, Value(_UNKNOWN), output_field=BigIntegerField())


def _waiting(events: IntArray) -> dict[str, int]:
    """Games left out because a player is still in the identification queue, by event."""
    if events.size == 0:
        return {}
    counts = Counter(events.tolist())
    codes = dict(Event.objects.filter(id__in=list(counts)).values_list("id", "code"))
    return {codes[event]: n for event, n in counts.items()}


def _iso(column: str) -> Cast:
    """A date column as its ISO text ('2015-09-01') on both databases: numpy reads 500,000
    of them in tens of milliseconds, against seconds for as many ``date`` objects (and
    SQLite's own date converter, which a cast leaves out)."""
    return Cast(column, output_field=CharField())


class _EpochDays(Func):
    """A date column as whole days since 1970-01-01, numpy's ``datetime64[D]``: a small
    integer per row is cheaper to fetch than its ISO text and needs no parsing (a national
    run reads a million stored dates). julianday() of a date is its day's midnight, a
    half day past the Julian day number: exact in floating point."""

    output_field = BigIntegerField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "CAST(julianday(%(expressions)s) - 2440587.5 AS INTEGER)"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "(%(expressions)s - DATE '1970-01-01')"
        return self.as_sql(compiler, connection, template=template, **extra)


def _days(values: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """ISO dates (``_iso``) or days since 1970-01-01 (``_EpochDays``) as days."""
    if values.dtype.kind in "iu":
        return values.astype("datetime64[D]")
    return np.array(values, dtype="datetime64[D]")


def _placed(ids: IntArray, values: dict[int, Any], fill: Any, dtype: Any) -> np.ndarray:  # type: ignore[type-arg]
    """A column aligned with ``ids`` from a player id -> value mapping."""
    keys = np.array(sorted(values), dtype=np.int64)
    out = np.full(ids.shape[0], fill, dtype=dtype)
    found, position = _found(ids, keys)
    out[position[found]] = np.array([values[k] for k in keys], dtype=dtype)[found]
    return out


def _found(ids: IntArray, keys: IntArray) -> tuple[np.ndarray, IntArray]:  # type: ignore[type-arg]
    """Which ``keys`` are among the sorted ``ids``, and where."""
    if ids.size == 0 or keys.size == 0:
        return np.zeros(keys.shape[0], dtype=bool), np.zeros(keys.shape[0], dtype=np.int64)
    position = np.clip(np.searchsorted(ids, keys), 0, ids.shape[0] - 1)
    return ids[position] == keys, position


def _grades(version: ListVersion | None, ids: IntArray, survivors: Survivors) -> np.ndarray:  # type: ignore[type-arg]
    """Published grades of a version (G4, G5): the list's grade, not the unpublished."""
    if version is None:
        return np.full(ids.shape[0], np.nan)
    rows = ListEntry.objects.filter(version=version, published=True, grade__isnull=False)
    rows = rows.order_by("player_id")  # _BY_ID
    grades = survivors.pick(dict(fetch(rows.values_list("player_id", "grade"))))
    return _placed(ids, grades, np.nan, np.float64)


def _positive(grades: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """A grade of zero is not a grade (G4, G5); the engine ignores it too."""
    return np.where(grades > 0, grades, np.nan)


def _assigned(list_id: ListId, rate: Rate, ids: IntArray, survivors: Survivors) -> np.ndarray:  # type: ignore[type-arg]
    """G6: the latest assignment valid from this list or an earlier one."""
    rows = (
        StartingGradeAssignment.objects.filter(rate=rate.value, valid_from__lte=str(list_id))
        .order_by("player_id", "valid_from", "id")
        .values_list("player_id", "grade")
    )
    latest = survivors.pick(dict(rows))  # later rows of a player overwrite earlier ones
    return _placed(ids, latest, np.nan, np.float64)


def _births(ids: IntArray, survivors: Survivors, received_by: datetime | None) -> np.ndarray:  # type: ignore[type-arg]
    """Dates of birth on record (G20); with ``received_by``, only those known by then: a
    date a later results file (or a correction, a merge, the admin) gave is left out, as
    the games of that file are (``Player.born_noted_at``)."""
    born = Player.objects.filter(date_of_birth__isnull=False)
    if received_by is not None:
        born = born.filter(Q(born_noted_at__isnull=True) | Q(born_noted_at__lte=received_by))
    rows = born.order_by().annotate(day=_iso("date_of_birth")).values_list("id", "day")
    known = survivors.pick(dict(fetch(rows)))
    return _placed(ids, known, np.datetime64("NaT"), "datetime64[D]")


def _period_sources(list_id: ListId, rate: Rate, k: int) -> list[ListVersion]:
    """G34: the latest published versions of the lists P_k is read from."""
    found = (versions.published(source, rate) for source in list_id.stored_by(rate, k))
    return [version for version in found if version is not None]


def _history(
    list_id: ListId,
    sources: Sources,
    ids: IntArray,
    rate: Rate,
    survivors: Survivors,
    rules: RuleSet,
) -> History:
    """G17, G34: P1 and P2 as the latest published versions of those lists stored them.

    A period read from one list is its stored totals (and, where the rules take actual
    games, its stored games); one read by date from several lists is its stored games
    dated in the period, and the totals are theirs.
    """
    size = ids.shape[0]
    periods = {k: list_id.period(k) for k in (1, 2)}
    by_date = any(len(sources.periods.get(k, [])) > 1 for k in (1, 2))
    if not (rules.needs_stored_games(rate) or by_date):
        single = {k: next(iter(sources.periods.get(k, [])), None) for k in (1, 2)}
        return History(_totals(single[1], ids, survivors), _totals(single[2], ids, survivors))
    games = _stored_games(sources, periods, ids, survivors)
    totals = [_counted(games, k, size) for k in (1, 2)]
    return History(totals[0], totals[1], games)


def _counted(games: StoredGames, k: int, size: int) -> StoredTotals:
    """The totals of the stored games read for P_k (G34: counts and totals are theirs)."""
    mine = games.period == k
    n = np.bincount(games.player[mine], minlength=size)
    total = np.bincount(games.player[mine], weights=games.points[mine], minlength=size)
    return StoredTotals.of(n, total, size)


def _totals(version: ListVersion | None, ids: IntArray, survivors: Survivors) -> StoredTotals:
    """Stored games and points; a survivor's include those of the records merged into him."""
    size = ids.shape[0]
    if version is None:
        return StoredTotals.empty(size)
    stored = StoredPeriodTotal.objects.filter(version=version).order_by("player_id")  # _BY_ID
    rows = np.array(fetch(stored.values_list("player_id", "n", "total")), np.float64)
    rows = rows.reshape(-1, 3)
    found, position = _found(ids, survivors.map(rows[:, 0].astype(np.int64)))
    n, total = np.zeros(size, np.int64), np.zeros(size)
    np.add.at(n, position[found], rows[found, 1].astype(np.int64))
    np.add.at(total, position[found], rows[found, 2])
    return StoredTotals.of(n, total, size)


def _stored_games(
    sources: Sources, periods: dict[int, Period], ids: IntArray, survivors: Survivors
) -> StoredGames:
    """G15, G34: every stored game of P1 and P2 of the players in this list, each read
    from the versions of its period and dated in it (a game is counted in one period).
    A version computed here is read from its packed copy (registry.packed), one row; any
    other by one query, its rows read as the database gives them and laid into columns
    by numpy (``STORED_ROW``) a chunk at a time (``fetch_array``)."""
    wanted = [version.id for k in (1, 2) for version in sources.periods.get(k, [])]
    packed = packed_points(wanted)
    parts: list[tuple[int, np.ndarray]] = []  # type: ignore[type-arg]
    for k in (1, 2):
        for version in sources.periods.get(k, []):
            found = packed.get(version.id)  # a version may serve both periods (G34)
            if found is None:
                found = _by_player_date(fetch_array(_stored_rows(version, periods[k]), STORED_ROW))
            else:  # packed in that order (registry.packed.keep_packed)
                found = found[_dated_in(found["day"], periods[k])]
            parts.append((k, found))
    if not sum(found.shape[0] for _k, found in parts):
        return StoredGames.empty()
    period = np.concatenate([np.full(found.shape[0], k, np.int64) for k, found in parts])
    rows = np.concatenate([found for _k, found in parts])
    parts.clear()  # before the players' rows are picked: two copies at once, not three
    keep, position = _found(ids, survivors.map(rows["player_id"]))
    rows = rows[keep]
    return StoredGames.of(
        game_ids=np.ascontiguousarray(rows["played"]),  # a list loaded from a file: none
        player=position[keep],
        period=period[keep],
        date=_days(rows["day"]),
        order=np.ascontiguousarray(rows["sequence"]),
        points=np.ascontiguousarray(rows["points"]),
    )


def _stored_rows(version: ListVersion, period: Period) -> Any:
    """A version's stored games dated in ``period``, as STORED_ROW's columns."""
    return (
        StoredGamePoints.objects.filter(
            version=version, period=0, date__gte=period.start, date__lte=period.end
        )
        .order_by()  # sorted here (``_by_player_date``), not by the database
        .annotate(day=_EpochDays("date"), played=_known("game_id"))
        .values_list(*(STORED_ROW.names or ()))
    )


def _dated_in(days: IntArray, period: Period) -> np.ndarray:  # type: ignore[type-arg]
    """Which of ``days`` (since 1970-01-01) fall in ``period``."""
    start, end = (np.datetime64(day, "D").astype(np.int64) for day in (period.start, period.end))
    return (days >= start) & (days <= end)


def _by_player_date(rows: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """A version's stored games by player, date and recording order (G15), as an ORDER BY
    of those columns gives them. Sorted here: the rows come in the order of the unique
    (version, player, game) index, and SQLite sorted each player's rows by date in a
    temporary B-tree, 0.1-0.3 s of a national run's two versions (issue 25). The sort is
    stable: rows equal in all three (none in a computed version, whose sequence is the
    game's id) keep the order they came in."""
    return rows[np.lexsort((rows["sequence"], rows["day"], rows["player_id"]))]
