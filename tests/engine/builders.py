"""A small season builder so tests read like the cases in cases.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import numpy as np

from ecfgrading.engine.inputs import (
    RATE_CODES,
    GameTable,
    History,
    ListInputs,
    PlayerTable,
    StoredGames,
    StoredTotals,
)
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate, ResultCode

NAN = float("nan")


@dataclass
class Season:
    """Players, games and stored history for one list, added one at a time."""

    list_id: str = "2010-07"
    rate: Rate = Rate.STANDARD
    players: list[dict[str, object]] = field(default_factory=list)
    games: list[tuple[int, int, int, date | None, int]] = field(default_factory=list)
    totals: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    stored: list[tuple[int, int, date, int, float]] = field(default_factory=list)

    @property
    def lid(self) -> ListId:
        return ListId.parse(self.list_id)

    def player(
        self,
        previous: float = NAN,
        other_rate: float = NAN,
        assigned: float = NAN,
        birth: date | None = None,
    ) -> int:
        self.players.append(
            {"previous": previous, "other": other_rate, "assigned": assigned, "birth": birth}
        )
        return len(self.players) - 1

    def game(
        self,
        p1: int,
        p2: int,
        score: str,
        on: date | None = None,
        rate: Rate | None = None,
    ) -> int:
        """A game of PIN1 ``p1`` against ``p2`` with a results-file SCORE such as '10'."""
        day = self.lid.p0().start if on is None else on
        code = RATE_CODES[rate or self.rate]
        self.games.append((p1, p2, int(ResultCode.from_text(score)), day, code))
        return len(self.games) - 1

    def history(self, player: int, period: int, n: int, total: float) -> None:
        """G17 stored totals of P1 or P2 (standard: no per-game records needed)."""
        self.totals[(player, period)] = [n, total]

    def stored_game(
        self, player: int, period: int, on: date, points: float, order: int = 0
    ) -> None:
        """A stored game of P1 or P2 with its points (rapid, G15); totals follow."""
        self.stored.append((player, period, on, order, points))
        n, total = self.totals.get((player, period), [0, 0.0])
        self.totals[(player, period)] = [n + 1, total + points]

    def build(self) -> ListInputs:
        size = len(self.players)
        return ListInputs(self.lid, self.rate, self._players(), self._games(), self._history(size))

    def _players(self) -> PlayerTable:
        column = lambda key: [p[key] for p in self.players]  # noqa: E731
        births = [np.datetime64(b, "D") if b else np.datetime64("NaT") for b in column("birth")]
        return PlayerTable.of(
            ids=[1000 + i for i in range(len(self.players))],
            previous=column("previous"),
            other_rate=column("other"),
            assigned=column("assigned"),
            birth=np.array(births, dtype="datetime64[D]"),
        )

    def _games(self) -> GameTable:
        rows = self.games
        return GameTable.of(
            ids=[5000 + i for i in range(len(rows))],
            player1=[r[0] for r in rows],
            player2=[r[1] for r in rows],
            result=[r[2] for r in rows],
            date=np.array([np.datetime64(r[3], "D") for r in rows], dtype="datetime64[D]"),
            rate=[r[4] for r in rows],
        )

    def _history(self, size: int) -> History:
        def period(k: int) -> StoredTotals:
            n, total = np.zeros(size, np.int64), np.zeros(size)
            for (player, p), (count, points) in self.totals.items():
                if p == k:
                    n[player], total[player] = count, points
            return StoredTotals.of(n, total, size)

        rows = self.stored
        games = StoredGames.of(
            game_ids=[9000 + i for i in range(len(rows))],
            player=[r[0] for r in rows],
            period=[r[1] for r in rows],
            date=np.array([np.datetime64(r[2], "D") for r in rows], dtype="datetime64[D]"),
            order=[r[3] for r in rows],
            points=[r[4] for r in rows],
        )
        return History(period(1), period(2), games)
