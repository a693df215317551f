"""The grading proper (G12, G13): points per game from starting grades, in one pass."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecfgrading.engine.inputs import FloatArray, IntArray
from ecfgrading.engine.rules import RuleSet


@dataclass(frozen=True)
class GamePoints:
    """Per game, for each side: the opponent's value after the 40-point rule and points."""

    value1: FloatArray  # what player1 scored against
    points1: FloatArray
    value2: FloatArray  # what player2 scored against
    points2: FloatArray


def game_points(
    start: FloatArray, player1: IntArray, player2: IntArray, score1: FloatArray, rules: RuleSet
) -> GamePoints:
    """G12: V = clamp(S_o, S_p - 40, S_p + 40); points V + 50, V or V - 50.

    G13: S are starting grades, never the grades being computed.
    """
    s1, s2 = start[player1], start[player2]
    value1 = np.clip(s2, s1 - rules.cap, s1 + rules.cap)
    value2 = np.clip(s1, s2 - rules.cap, s2 + rules.cap)
    margin = rules.result_margin * (2.0 * score1 - 1.0)
    return GamePoints(value1, value1 + margin, value2, value2 - margin)
