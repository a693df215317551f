"""Game results drawn from the difference in true strength.

On the grade scale one point is about 8 Elo points (G29), so the expected score of a
player ``d`` points stronger is ``1 / (1 + 10 ** (-d / 50))``. Draws are likeliest
between equals and between strong players; over a season about a quarter of the games
are drawn. Defaults (1d, d1, dd) are recorded, never graded (G1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.types import ResultCode

Rng = np.random.Generator
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

WIN, LOSS, DRAW = int(ResultCode.WIN), int(ResultCode.LOSS), int(ResultCode.DRAW)
DEFAULT_WIN, DEFAULT_LOSS = int(ResultCode.DEFAULT_WIN), int(ResultCode.DEFAULT_LOSS)
DOUBLE_DEFAULT = int(ResultCode.DOUBLE_DEFAULT)


@dataclass(frozen=True)
class PlayStyle:
    """How results go at one rate of play."""

    scale: float  # grade points for odds of 10 to 1 (50 at standard play, G29)
    draw_share: float  # chance that two equal players of grade 130 draw
    white_edge: float  # white's advantage in grade points
    default_share: float = 0.01  # games lost by default (a player who did not turn up)


STANDARD = PlayStyle(scale=50.0, draw_share=0.38, white_edge=4.0)
RAPID = PlayStyle(scale=55.0, draw_share=0.27, white_edge=3.0)
BLITZ = PlayStyle(scale=60.0, draw_share=0.16, white_edge=2.0, default_share=0.0)
LEAGUE = PlayStyle(scale=50.0, draw_share=0.38, white_edge=4.0, default_share=0.02)


def play(rng: Rng, white: FloatArray, black: FloatArray, style: PlayStyle) -> IntArray:
    """Result codes from white's side, one per game, defaults included."""
    expected = 1.0 / (1.0 + 10.0 ** (-(white - black + style.white_edge) / style.scale))
    # Weak players (juniors, beginners) blunder into decisive games more often.
    calm = np.clip(0.4 + (white + black) / 400.0, 0.5, 1.3)
    drawn = style.draw_share * 4.0 * expected * (1.0 - expected) * calm
    draw = rng.random(len(white))
    codes = np.where(
        draw < expected - drawn / 2, WIN, np.where(draw < expected + drawn / 2, DRAW, LOSS)
    )
    return _with_defaults(rng, codes.astype(np.int64), style.default_share)


def _with_defaults(rng: Rng, codes: IntArray, share: float) -> IntArray:
    """A few games were never played: one side (now and then both) did not turn up."""
    if not share:
        return codes
    missed, side = rng.random((2, len(codes)))
    missed = missed < share
    defaults = np.where(
        side < 0.48, DEFAULT_WIN, np.where(side < 0.96, DEFAULT_LOSS, DOUBLE_DEFAULT)
    )
    result: IntArray = np.where(missed, defaults, codes)
    return result


# Each side's score by result code, for pairing (a default counts as its winner's point).
_FIRST_POINTS = np.array([1.0, 0.0, 0.5, 1.0, 0.0, 0.0])
_SECOND_POINTS = np.array([0.0, 1.0, 0.5, 0.0, 1.0, 0.0])


def points(codes: IntArray) -> tuple[FloatArray, FloatArray]:
    """Each side's score, PIN1's first."""
    return _FIRST_POINTS[codes], _SECOND_POINTS[codes]


def reversed_codes(codes: IntArray) -> IntArray:
    """The same results from the other side: PIN1 and PIN2 swapped."""
    swap = {WIN: LOSS, LOSS: WIN, DEFAULT_WIN: DEFAULT_LOSS, DEFAULT_LOSS: DEFAULT_WIN}
    table = np.array([swap.get(code, code) for code in range(6)], dtype=np.int64)
    result: IntArray = table[codes]
    return result
