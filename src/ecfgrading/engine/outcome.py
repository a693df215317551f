"""What a list computation returns: columns per player and per game, and entries."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.categories import CATEGORY_CODES
from ecfgrading.engine.forward import BroughtForward
from ecfgrading.engine.grading import GamePoints
from ecfgrading.engine.inputs import BoolArray, FloatArray, IntArray, ListInputs
from ecfgrading.engine.rules import RuleSet
from ecfgrading.engine.starting import SOURCE_CODES
from ecfgrading.engine.types import Category, Flag, StartSource


@dataclass(frozen=True)
class PlayerColumns:
    """Per player, aligned with the input player table (NaN / -1 where not active)."""

    active: BoolArray  # has a graded game in P0: the players G17 stores
    junior: BoolArray
    age: IntArray  # age on the age date, -1 if unknown
    start: FloatArray
    source: NDArray[np.int8]  # index into SOURCE_CODES
    unanchored: BoolArray
    first_estimate: FloatArray  # G8 stage 1 (NaN unless estimated against a fixed player)
    n0: IntArray
    t0: FloatArray
    h0: IntArray
    x_grade: BoolArray
    forward: BroughtForward
    calculated: FloatArray  # mean points before the junior bonus
    bonus: FloatArray
    unrounded: FloatArray  # after G20 and G21, before G22
    grade: IntArray
    category: NDArray[np.int8]  # index into CATEGORY_CODES
    games_counted: IntArray


@dataclass(frozen=True)
class Entry:
    """One player's line in a list, as plain values (G24, G25 and section 10)."""

    index: int
    player_id: int
    grade: int
    unrounded: float
    calculated: float
    category: Category
    games_latest: int
    games_counted: int
    junior_age: int | None
    bonus: float
    start_grade: float
    start_source: StartSource
    flags: tuple[Flag, ...]
    n1: int
    n2: int

    @property
    def published(self) -> bool:
        return self.category is not Category.NONE


@dataclass(frozen=True)
class ListOutcome:
    """The result of ``compute_list``; changes nothing it was given."""

    inputs: ListInputs
    rules: RuleSet
    graded: BoolArray  # per input game: graded in this list (G1, G3)
    in_h0: BoolArray  # per input game: graded and within H0
    points: GamePoints  # per input game, NaN where not graded (what G17 stores)
    players: PlayerColumns
    # Per input game: whether player1's and player2's sides count in their grades. All
    # graded games do, except under G35 (ecf-2012), where only the target's number of
    # most recent P0 games count; X grades count their H0 games (G16, G36) whatever this says.
    counted: tuple[BoolArray, BoolArray] | None = None

    @property
    def published(self) -> BoolArray:
        return np.asarray(self.players.category != CATEGORY_CODES.index(Category.NONE))

    @property
    def history_used(self) -> BoolArray:
        """Per stored game of P1/P2: brought forward as an actual game (G15)."""
        return self.players.forward.used

    def index_of(self, player_id: int) -> int:
        found = np.flatnonzero(self.inputs.players.ids == player_id)
        if found.size == 0:
            raise KeyError(f"no player with id {player_id} in this list's inputs")
        return int(found[0])

    def entry(self, index: int) -> Entry:
        """The list entry of an active player (KeyError for one with no P0 game)."""
        cols = self.players
        if not cols.active[index]:
            raise KeyError(f"player at index {index} has no graded game in this list")
        history = self.inputs.history
        return Entry(
            index=index,
            player_id=int(self.inputs.players.ids[index]),
            grade=int(cols.grade[index]),
            unrounded=float(cols.unrounded[index]),
            calculated=float(cols.calculated[index]),
            category=CATEGORY_CODES[cols.category[index]],
            games_latest=int(cols.n0[index]),
            games_counted=int(cols.games_counted[index]),
            junior_age=int(cols.age[index]) if cols.junior[index] else None,
            bonus=float(cols.bonus[index]),
            start_grade=float(cols.start[index]),
            start_source=SOURCE_CODES[cols.source[index]],
            flags=(Flag.UNANCHORED,) if cols.unanchored[index] else (),
            n1=int(history.p1.n[index]),
            n2=int(history.p2.n[index]),
        )

    def entries(self) -> Iterator[Entry]:
        """Entries of every active player (published or not), in player order."""
        for index in np.flatnonzero(self.players.active):
            yield self.entry(int(index))
