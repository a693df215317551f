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
    return results(white, black, style, result_draws(rng, len(white), style))


def result_draws(rng: Rng, count: int, style: PlayStyle) -> FloatArray:
    """The uniform draws that decide ``count`` games, as ``play`` makes them: each game's
    result, then (with defaults) whether it was missed, then which side missed it; one
    row each (shape (1, count), or (3, count) with defaults)."""
    rows = 3 if style.default_share else 1
    draws: FloatArray = rng.random(rows * count).reshape(rows, count)
    return draws


def results(white: FloatArray, black: FloatArray, style: PlayStyle, draws: FloatArray) -> IntArray:
    """Result codes from white's side, games of any shape: ``draws`` holds their
    ``result_draws`` rows, each of the games' shape (a league's matches played at once
    are the results their matches played one by one would have been)."""
    return decided(*bounds(white, black, style), style, draws)


def bounds(white: FloatArray, black: FloatArray, style: PlayStyle) -> tuple[FloatArray, FloatArray]:
    """Where a game's draw decides it (``decided``): below the first bound white wins,
    below the second it is drawn, else white loses. Element by element: arrays that
    broadcast give every pairing of their players."""
    expected = 1.0 / (1.0 + 10.0 ** (-(white - black + style.white_edge) / style.scale))
    # Weak players (juniors, beginners) blunder into decisive games more often.
    calm = np.minimum(np.maximum(0.4 + (white + black) / 400.0, 0.5), 1.3)
    drawn = style.draw_share * 4.0 * expected * (1.0 - expected) * calm
    half = drawn / 2
    return expected - half, expected + half


def decided(
    win_below: FloatArray, draw_below: FloatArray, style: PlayStyle, draws: FloatArray
) -> IntArray:
    """Result codes from white's side, from the games' ``bounds`` and ``result_draws``."""
    # Below the win's bound, below the draw's (never lower), or neither.
    outcome = np.add(draws[0] < win_below, draws[0] < draw_below, dtype=np.int64)
    codes: IntArray = _OUTCOMES[outcome]
    if style.default_share:
        _with_defaults(codes, draws[1] < style.default_share, draws[2])
    return codes


_OUTCOMES = np.array([LOSS, DRAW, WIN], dtype=np.int64)  # by the bounds the draw is below


def _with_defaults(codes: IntArray, missed: NDArray[np.bool_], side: FloatArray) -> None:
    """A few games were never played: one side (now and then both) did not turn up."""
    if not missed.any():
        return
    side = side[missed]
    codes[missed] = np.where(
        side < 0.48, DEFAULT_WIN, np.where(side < 0.96, DEFAULT_LOSS, DOUBLE_DEFAULT)
    )


# Each side's score by result code, for pairing (a default counts as its winner's point).
_FIRST_POINTS = np.array([1.0, 0.0, 0.5, 1.0, 0.0, 0.0])
_SECOND_POINTS = np.array([0.0, 1.0, 0.5, 0.0, 1.0, 0.0])


def points(codes: IntArray) -> tuple[FloatArray, FloatArray]:
    """Each side's score, PIN1's first."""
    return _FIRST_POINTS[codes], _SECOND_POINTS[codes]


_SWAP = {WIN: LOSS, LOSS: WIN, DEFAULT_WIN: DEFAULT_LOSS, DEFAULT_LOSS: DEFAULT_WIN}
_REVERSED = np.array([_SWAP.get(code, code) for code in range(6)], dtype=np.int64)


def reversed_codes(codes: IntArray) -> IntArray:
    """The same results from the other side: PIN1 and PIN2 swapped."""
    result: IntArray = _REVERSED[codes]
    return result
