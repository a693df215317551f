"""The engine's columnar inputs: what a list computation reads (architecture.md).

Player columns are aligned with ``PlayerTable.ids``; games and stored games refer to
players by index into that table. Missing grades are NaN, unknown dates NaT.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
DateArray = NDArray[np.datetime64]
CodeArray = NDArray[np.int8]

_A = TypeVar("_A", bound=NDArray[Any])

RATE_CODES = {Rate.STANDARD: 0, Rate.RAPID: 1}


class InputError(ValueError):
    """Inputs that do not fit together (lengths, indices, stored counts)."""


def _floats(values: object, n: int, name: str) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    return _check_length(array, n, name)


def _ints(values: object, n: int, name: str) -> IntArray:
    array = np.asarray(values, dtype=np.int64)
    return _check_length(array, n, name)


def _dates(values: object, n: int, name: str) -> DateArray:
    array = np.asarray(values, dtype="datetime64[D]")
    return _check_length(array, n, name)


def _check_length(array: _A, n: int, name: str) -> _A:
    if array.shape != (n,):
        raise InputError(f"expected {name} to hold {n} values, got shape {array.shape}")
    array.setflags(write=False)
    return array


def _frozen(array: _A) -> _A:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class PlayerTable:
    """Every player the list may touch, with what his starting grade depends on."""

    ids: IntArray
    previous: FloatArray  # G4: grade in the previous list of this rate (NaN: none)
    other_rate: FloatArray  # G5: grade in the latest list of the other rate
    assigned: FloatArray  # G6: a grade assigned by the grading team
    birth: DateArray  # dates of birth (NaT: unknown, never a junior)

    @classmethod
    def of(
        cls,
        ids: object,
        previous: object = None,
        other_rate: object = None,
        assigned: object = None,
        birth: object = None,
    ) -> PlayerTable:
        id_array = np.asarray(ids, dtype=np.int64)
        n = id_array.shape[0]
        if np.unique(id_array).shape[0] != n:
            raise InputError("expected unique player ids")
        nan = np.full(n, np.nan)
        return cls(
            ids=_ints(id_array, n, "player ids"),
            previous=_floats(nan if previous is None else previous, n, "previous grades"),
            other_rate=_floats(nan if other_rate is None else other_rate, n, "other-rate grades"),
            assigned=_floats(nan if assigned is None else assigned, n, "assigned grades"),
            birth=_dates(
                np.full(n, np.datetime64("NaT"), dtype="datetime64[D]") if birth is None else birth,
                n,
                "dates of birth",
            ),
        )

    def __len__(self) -> int:
        return int(self.ids.shape[0])


@dataclass(frozen=True)
class GameTable:
    """Games that may belong to P0: the engine keeps those of its rate and dates (G3)."""

    ids: IntArray
    player1: IntArray
    player2: IntArray
    result: CodeArray  # ResultCode values, from player1's side
    date: DateArray
    rate: CodeArray  # RATE_CODES values

    @classmethod
    def of(
        cls,
        ids: object,
        player1: object,
        player2: object,
        result: object,
        date: object,
        rate: object,
    ) -> GameTable:
        id_array = np.asarray(ids, dtype=np.int64)
        n = id_array.shape[0]
        return cls(
            ids=_ints(id_array, n, "game ids"),
            player1=_ints(player1, n, "player1"),
            player2=_ints(player2, n, "player2"),
            result=_frozen(_check_length(np.asarray(result, dtype=np.int8), n, "results")),
            date=_dates(date, n, "game dates"),
            rate=_frozen(_check_length(np.asarray(rate, dtype=np.int8), n, "game rates")),
        )

    def __len__(self) -> int:
        return int(self.ids.shape[0])


@dataclass(frozen=True)
class StoredTotals:
    """G17: a player's stored games and points of one earlier period."""

    n: IntArray
    total: FloatArray

    @classmethod
    def of(cls, n: object, total: object, size: int) -> StoredTotals:
        return cls(_ints(n, size, "stored counts"), _floats(total, size, "stored totals"))

    @classmethod
    def empty(cls, size: int) -> StoredTotals:
        """A period with nothing stored contributes no games and no counts (G17)."""
        return cls.of(np.zeros(size, np.int64), np.zeros(size), size)


@dataclass(frozen=True)
class StoredGames:
    """G17: the stored points of each game of P1 and P2 (needed for rapid, G15)."""

    game_ids: IntArray
    player: IntArray
    period: IntArray  # 1 or 2
    date: DateArray
    order: IntArray  # recording order: a larger number was recorded later
    points: FloatArray

    @classmethod
    def of(
        cls,
        game_ids: object,
        player: object,
        period: object,
        date: object,
        order: object,
        points: object,
    ) -> StoredGames:
        ids = np.asarray(game_ids, dtype=np.int64)
        n = ids.shape[0]
        return cls(
            game_ids=_ints(ids, n, "stored game ids"),
            player=_ints(player, n, "stored game players"),
            period=_ints(period, n, "stored game periods"),
            date=_dates(date, n, "stored game dates"),
            order=_ints(order, n, "stored game order"),
            points=_floats(points, n, "stored game points"),
        )

    @classmethod
    def empty(cls) -> StoredGames:
        return cls.of([], [], [], [], [], [])

    def __len__(self) -> int:
        return int(self.game_ids.shape[0])


@dataclass(frozen=True)
class History:
    """What earlier computations stored for P1 and P2 (G17)."""

    p1: StoredTotals
    p2: StoredTotals
    games: StoredGames = field(default_factory=StoredGames.empty)

    @classmethod
    def empty(cls, size: int) -> History:
        return cls(StoredTotals.empty(size), StoredTotals.empty(size))


@dataclass(frozen=True)
class ListInputs:
    """Everything one list computation reads."""

    list_id: ListId
    rate: Rate
    players: PlayerTable
    games: GameTable
    history: History

    def __post_init__(self) -> None:
        self.list_id.check_rate(self.rate)
        size = len(self.players)
        for name, index in (
            ("player1", self.games.player1),
            ("player2", self.games.player2),
            ("stored game players", self.history.games.player),
        ):
            if index.size and (index.min() < 0 or index.max() >= size):
                raise InputError(f"{name} must index the {size} players")
        if np.any(self.games.player1 == self.games.player2):
            raise InputError("a player cannot play himself")
        for totals in (self.history.p1, self.history.p2):
            if totals.n.shape != (size,):
                raise InputError(f"expected stored totals for {size} players")
        if self.rate is Rate.RAPID:
            self.check_stored_games()

    def check_stored_games(self) -> None:
        """G15 (rapid), G35 and G38 (both rates) need every stored game of P1 and P2;
        their counts must agree with the totals."""
        size = len(self.players)
        stored = self.history.games
        for k, totals in ((1, self.history.p1), (2, self.history.p2)):
            counts = np.bincount(stored.player[stored.period == k], minlength=size)
            if not np.array_equal(counts, totals.n):
                raise InputError(
                    f"{self.rate} list {self.list_id} needs every stored game of P{k}: "
                    "counts differ from totals"
                )
