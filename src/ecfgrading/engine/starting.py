"""Starting grades and their sources (G4..G7), estimation delegated to G8..G11."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.estimation import GameSides, estimate, stage_one
from ecfgrading.engine.inputs import BoolArray, FloatArray, History, PlayerTable
from ecfgrading.engine.rules import RuleSet
from ecfgrading.engine.types import StartSource

# The integer code of a source in columnar outcomes is its position here (-1: none).
SOURCE_CODES: tuple[StartSource, ...] = tuple(StartSource)
_CODE = {source: code for code, source in enumerate(SOURCE_CODES)}


@dataclass(frozen=True)
class StartingGrades:
    value: FloatArray  # NaN for players without a graded game in P0
    source: NDArray[np.int8]
    unanchored: BoolArray
    first_estimate: FloatArray  # G8 stage 1, shown in explanations (NaN: none)


def starting_grades(
    players: PlayerTable,
    active: BoolArray,
    junior: BoolArray,
    sides: GameSides,
    history: History,
    rules: RuleSet,
) -> StartingGrades:
    """G4..G7 in order; juniors start afresh every list unless assigned (G6, G7)."""
    adult = active & ~junior
    previous = adult & (np.nan_to_num(players.previous) > 0)  # G4: a grade of 0 is no grade
    other = adult & ~previous & (np.nan_to_num(players.other_rate) > 0)  # G5
    assigned = active & ~previous & ~other & ~np.isnan(players.assigned)  # G6
    estimated = active & ~previous & ~other & ~assigned  # G7
    fixed = np.select(
        [previous, other, assigned],
        [players.previous, players.other_rate, players.assigned],
        np.nan,
    )
    counts_history = estimated & ~junior  # G10: non-juniors count their stored history
    history_n = np.where(counts_history, history.p1.n + history.p2.n, 0).astype(np.float64)
    history_total = np.where(counts_history, history.p1.total + history.p2.total, 0.0)
    estimates = estimate(fixed, estimated, sides, history_n, history_total, rules)
    value = np.where(estimated, estimates.values, fixed)
    source = np.select(
        [previous, other, assigned, estimated],
        [_CODE[s] for s in (StartSource.PREVIOUS, StartSource.OTHER_RATE)]
        + [_CODE[s] for s in (StartSource.ASSIGNED, StartSource.ESTIMATED)],
        -1,
    ).astype(np.int8)
    first = stage_one(fixed, estimated, sides, history_n, history_total, rules)
    return StartingGrades(value, source, estimates.unanchored, first)
