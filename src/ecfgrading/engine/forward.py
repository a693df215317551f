"""Games brought forward from P1 and P2 (G14, G15, G18, G19)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecfgrading.engine.inputs import BoolArray, DateArray, FloatArray, History, IntArray

_UNKNOWN_DATE_RANK = np.iinfo(np.int64).min // 2  # an unknown date counts as the oldest


@dataclass(frozen=True)
class BroughtForward:
    """Per player: games taken from P1 and P2 and the points they bring."""

    from_p1: IntArray
    from_p2: IntArray
    points: FloatArray
    used: BoolArray  # per stored game: brought forward as an actual game (rapid)


def needed_from_history(
    n0: IntArray, target: IntArray, history: History
) -> tuple[IntArray, IntArray]:
    """G14/G18/G19: take from P1, then P2, only what is short of the target."""
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
    """G15 (rapid): the most recent actual games of P1, then of P2, with stored points."""
    from_p1, from_p2 = needed_from_history(n0, target, history)
    stored = history.games
    wanted = np.where(stored.period == 1, from_p1[stored.player], from_p2[stored.player])
    candidates = np.flatnonzero(wanted > 0)  # most players need few periods' games, or none
    rank = _recency_rank(
        stored.player[candidates],
        stored.period[candidates],
        stored.date[candidates],
        stored.order[candidates],
    )
    used = np.zeros(len(stored), dtype=bool)
    used[candidates[rank < wanted[candidates]]] = True
    points = np.bincount(
        stored.player[used], weights=stored.points[used], minlength=n0.shape[0]
    ).astype(np.float64)
    return BroughtForward(from_p1, from_p2, points, used)


def _times_average(taken: IntArray, n: IntArray, total: FloatArray) -> FloatArray:
    average = np.divide(total, n, out=np.zeros(n.shape[0]), where=n > 0)
    return np.asarray(taken * average, dtype=np.float64)


def _recency_rank(player: IntArray, period: IntArray, date: DateArray, order: IntArray) -> IntArray:
    """0 for a player's latest game of a period, 1 for the next, ...

    Latest date first; on the same date, the game recorded later first (G15). One
    sort: by (player, period, days before the latest date), then later recording.
    """
    days = np.where(np.isnat(date), _UNKNOWN_DATE_RANK, date.astype(np.int64))
    if days.size == 0:
        return np.zeros(0, dtype=np.int64)
    known = days > _UNKNOWN_DATE_RANK
    latest = days.max()
    oldest = days[known].min() if known.any() else latest
    before = np.where(known, latest - days, latest - oldest + 1)  # unknown: oldest of all
    group = player * 4 + period
    by_group = np.lexsort((-order, group * (int(before.max()) + 1) + before))
    grouped = group[by_group]
    starts = np.r_[True, grouped[1:] != grouped[:-1]]
    positions = np.arange(grouped.size)
    first = np.maximum.accumulate(np.where(starts, positions, 0))
    rank = np.empty(grouped.size, dtype=np.int64)
    rank[by_group] = positions - first
    return rank
