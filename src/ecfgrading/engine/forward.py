"""Games brought forward from P1 and P2, and which P0 games count.

ecf-2009: G14 (standard, notional games), G15 (rapid, actual games), G18, G19;
ecf-2012: G35 (count back the most recent games, both rates);
ecf-2015: G37, G38 (whole half-years, the earliest one pro rata).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecfgrading.engine.inputs import BoolArray, DateArray, FloatArray, History, IntArray
from ecfgrading.engine.periods import Period
from ecfgrading.engine.rules import Counting, RuleSet
from ecfgrading.engine.types import Rate

_UNKNOWN_DATE_RANK = np.iinfo(np.int64).min // 2  # an unknown date counts as the oldest
HALF_YEARS_READ = (2, 3, 4, 5)  # G38: H2, H3 (in P1) and H4, H5 (in P2), latest first


@dataclass(frozen=True)
class HalfYearsTaken:
    """G38, per player and half-year H2..H5 (columns in that order)."""

    n: IntArray  # stored games of the half-year
    total: FloatArray  # their stored points
    taken: IntArray  # games counted from it (all of them, or fewer: pro rata)

    @property
    def pro_rata(self) -> BoolArray:
        """The half-year taken in part, at its average (at most one per player)."""
        return np.asarray((self.taken > 0) & (self.taken < self.n))


@dataclass(frozen=True)
class BroughtForward:
    """Per player: games taken from P1 and P2 and the points they bring."""

    from_p1: IntArray
    from_p2: IntArray
    points: FloatArray
    used: BoolArray  # per stored game: brought forward as an actual game (G15, G35, G38)
    half_years: HalfYearsTaken | None = None  # G38 only


def bring_forward(
    rules: RuleSet,
    rate: Rate,
    n0: IntArray,
    target: IntArray,
    history: History,
    halves: tuple[Period, ...],
) -> BroughtForward:
    """Games from P1 and P2 towards ``target`` (0 for players who take none), by the rule
    set's method; ``halves`` are the list's half-years H0..H5 (G32)."""
    if rules.counting is Counting.WHOLE_HALF_YEARS:
        return whole_half_years(n0, target, history, halves)
    if rules.counting is Counting.ECF_2009 and rate is Rate.STANDARD:
        return notional(n0, target, history)
    return most_recent(n0, target, history)


def needed_from_history(
    n0: IntArray, target: IntArray, history: History
) -> tuple[IntArray, IntArray]:
    """G14/G18/G19, G35: take from P1, then P2, only what is short of the target."""
    short = np.maximum(target - n0, 0)
    from_p1 = np.minimum(short, history.p1.n)
    from_p2 = np.minimum(short - from_p1, history.p2.n)
    return from_p1, from_p2


def notional(n0: IntArray, target: IntArray, history: History) -> BroughtForward:
    """G14 (standard): each game brought forward is worth its period's stored average."""
    from_p1, from_p2 = needed_from_history(n0, target, history)
    points = _times_average(from_p1, history.p1.n, history.p1.total) + _times_average(
        from_p2, history.p2.n, history.p2.total
    )
    return BroughtForward(from_p1, from_p2, points, np.zeros(len(history.games), dtype=bool))


def most_recent(n0: IntArray, target: IntArray, history: History) -> BroughtForward:
    """G15 (rapid), G35: the most recent actual games of P1, then of P2, with stored points."""
    from_p1, from_p2 = needed_from_history(n0, target, history)
    stored = history.games
    wanted = np.where(stored.period == 1, from_p1[stored.player], from_p2[stored.player])
    candidates = np.flatnonzero(wanted > 0)  # most players need few periods' games, or none
    group = stored.player[candidates] * 4 + stored.period[candidates]
    whole = np.bincount(group)[group] <= wanted[candidates]  # every game of the period
    used = np.zeros(len(stored), dtype=bool)
    used[candidates[whole]] = True
    partial = candidates[~whole]  # only these need the most recent picked out
    rank = recency_rank(group[~whole], stored.date[partial], stored.order[partial])
    used[partial[rank < wanted[partial]]] = True
    points = np.bincount(
        stored.player[used], weights=stored.points[used], minlength=n0.shape[0]
    ).astype(np.float64)
    return BroughtForward(from_p1, from_p2, points, used)


def whole_half_years(
    n0: IntArray, target: IntArray, history: History, halves: tuple[Period, ...]
) -> BroughtForward:
    """G38: half-years H2, H3, H4, H5 in turn, each taken whole while its games fit in
    what is still needed; the first that holds more gives only the games still needed,
    notional, at its own average, and the count stops. Empty half-years are skipped."""
    size = n0.shape[0]
    stored = history.games
    column = _half_year_column(stored.date, halves)
    placed = column >= 0
    cell = stored.player[placed] * len(HALF_YEARS_READ) + column[placed]
    cells = size * len(HALF_YEARS_READ)
    n = np.bincount(cell, minlength=cells).reshape(size, len(HALF_YEARS_READ)).astype(np.int64)
    weights = stored.points[placed]
    total: FloatArray = np.bincount(cell, weights, minlength=cells).astype(np.float64)
    total = total.reshape(size, len(HALF_YEARS_READ))
    need = np.maximum(target - n0, 0)
    taken = np.zeros_like(n)
    points = np.zeros(size)
    for c in range(len(HALF_YEARS_READ)):
        whole = n[:, c] <= need
        taken[:, c] = np.where(whole, n[:, c], need)
        points += np.where(whole, total[:, c], _times_average(need, n[:, c], total[:, c]))
        need = need - taken[:, c]
    used = np.zeros(len(stored), dtype=bool)
    whole_cells = (taken == n) & (n > 0)
    used[np.flatnonzero(placed)] = whole_cells.reshape(-1)[cell]
    return BroughtForward(
        from_p1=taken[:, 0] + taken[:, 1],
        from_p2=taken[:, 2] + taken[:, 3],
        points=points,
        used=used,
        half_years=HalfYearsTaken(n, total, taken),
    )


def counted_in_p0(
    player: IntArray, date: DateArray, order: IntArray, limit: IntArray, counting: Counting
) -> BoolArray:
    """Per P0 game side: whether it counts in the player's grade. Under G35 (ecf-2012)
    only the ``limit`` most recent of a player's P0 games count; every other method
    counts all of them (G19, G37). ``limit`` is per player (0: no limit applies)."""
    counted = np.ones(player.shape[0], dtype=bool)
    if counting is not Counting.COUNT_BACK or player.size == 0:
        return counted
    n0 = np.bincount(player, minlength=limit.shape[0])
    limited = np.flatnonzero(((limit > 0) & (n0 > limit))[player])
    rank = recency_rank(player[limited], date[limited], order[limited])
    counted[limited] = rank < limit[player[limited]]
    return counted


def _half_year_column(dates: DateArray, halves: tuple[Period, ...]) -> IntArray:
    """The column (0..3) of H2..H5 a stored game's date lies in, -1 for none."""
    column = np.full(dates.shape[0], -1, dtype=np.int64)
    for c, j in enumerate(HALF_YEARS_READ):
        start, end = np.datetime64(halves[j].start, "D"), np.datetime64(halves[j].end, "D")
        column[(dates >= start) & (dates <= end)] = c
    return column


def _times_average(taken: IntArray, n: IntArray, total: FloatArray) -> FloatArray:
    average = np.divide(total, n, out=np.zeros(n.shape[0]), where=n > 0)
    return np.asarray(taken * average, dtype=np.float64)


def _sorted_by(group: IntArray, before: IntArray, order: IntArray) -> IntArray:
    """Positions sorted by group, then days before the latest, then later recording.

    One sort of one int64 key when the three fit in it (they do for any federation's
    games); two otherwise.
    """
    later = order.max() - order  # 0 for the game recorded last
    days, orders = int(before.max()) + 1, int(later.max()) + 1
    if (int(group.max()) + 1) * days * orders < 2**62:
        return np.argsort((group * days + before) * orders + later)
    return np.lexsort((later, group * days + before))


def recency_rank(group: IntArray, date: DateArray, order: IntArray) -> IntArray:
    """0 for a group's latest game, 1 for the next, ...

    Latest date first; on the same date, the game recorded later first (G15, G35). One
    sort: by (group, days before the latest date), then later recording.
    """
    days = np.where(np.isnat(date), _UNKNOWN_DATE_RANK, date.astype(np.int64))
    if days.size == 0:
        return np.zeros(0, dtype=np.int64)
    known = days > _UNKNOWN_DATE_RANK
    latest = days.max()
    oldest = days[known].min() if known.any() else latest
    before = np.where(known, latest - days, latest - oldest + 1)  # unknown: oldest of all
    by_group = _sorted_by(group, before, order)
    grouped = group[by_group]
    starts = np.r_[True, grouped[1:] != grouped[:-1]]
    positions = np.arange(grouped.size)
    first = np.maximum.accumulate(np.where(starts, positions, 0))
    rank = np.empty(grouped.size, dtype=np.int64)
    rank[by_group] = positions - first
    return rank
