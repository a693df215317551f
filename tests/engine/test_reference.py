"""The reference oracle checked against the hand figures of cases.md, and for sanity.

Expected numbers come from cases.md only (never from running the reference).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings

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
from ecfgrading.engine.rules import ECF_2009
from ecfgrading.engine.types import Category, Rate, ResultCode, StartSource
from tests.engine.reference import RefResult, reference_compute
from tests.engine.seasons import seasons

WIN, LOSS, DRAW = ResultCode.WIN, ResultCode.LOSS, ResultCode.DRAW
NAN = math.nan
EXACT = 1e-9  # estimates come from an iteration stopped below 1e-11


@dataclass
class Hand:
    """A season built by hand: players by index, games from player1's side."""

    list_id: ListId
    rate: Rate
    players: int
    previous: dict[int, float] = field(default_factory=dict)
    birth: dict[int, date] = field(default_factory=dict)
    games: list[tuple[int, int, ResultCode, date]] = field(default_factory=list)
    p1: dict[int, tuple[int, float]] = field(default_factory=dict)  # player -> (n, total)
    p2: dict[int, tuple[int, float]] = field(default_factory=dict)
    stored: list[tuple[int, int, date, int, float]] = field(default_factory=list)

    def inputs(self) -> ListInputs:
        n = self.players
        previous = [self.previous.get(p, NAN) for p in range(n)]
        birth = np.array([self.birth.get(p, np.datetime64("NaT")) for p in range(n)], "M8[D]")
        players = PlayerTable.of(np.arange(n) + 100, previous=previous, birth=birth)
        player1, player2, result, day = zip(*self.games, strict=True)
        games = GameTable.of(
            np.arange(len(self.games)) + 500,
            player1,
            player2,
            [int(r) for r in result],
            np.array(day, "M8[D]"),
            [RATE_CODES[self.rate]] * len(self.games),
        )
        history = History(self.totals(self.p1), self.totals(self.p2), self.stored_games())
        return ListInputs(self.list_id, self.rate, players, games, history)

    def totals(self, stored: dict[int, tuple[int, float]]) -> StoredTotals:
        n = [stored.get(p, (0, 0.0))[0] for p in range(self.players)]
        total = [stored.get(p, (0, 0.0))[1] for p in range(self.players)]
        return StoredTotals.of(n, total, self.players)

    def stored_games(self) -> StoredGames:
        if not self.stored:
            return StoredGames.empty()
        player, period, day, order, points = zip(*self.stored, strict=True)
        ids = np.arange(len(self.stored)) + 9000
        return StoredGames.of(ids, player, period, np.array(day, "M8[D]"), order, points)

    def compute(self) -> dict[int, RefResult]:
        return reference_compute(self.inputs())


def draws(
    player: int, opponent: int, days: Sequence[date]
) -> list[tuple[int, int, ResultCode, date]]:
    return [(player, opponent, DRAW, day) for day in days]


def days_from(start: date, count: int) -> list[date]:
    return [date.fromordinal(start.toordinal() + k) for k in range(count)]


# Golden cases -----------------------------------------------------------------------------


def test_c1_new_adult_with_eight_wins_is_estimated_then_capped_g8_g12() -> None:
    opponents = [132, 129, 121, 124, 125, 128, 144, 107]
    hand = Hand(ListId(2019, 7), Rate.STANDARD, players=9)
    for k, grade in enumerate(opponents, start=1):
        hand.previous[k] = grade
        hand.games.append((0, k, WIN, date(2018, 10, k)))
    new = hand.compute()[0]
    assert new.source is StartSource.ESTIMATED
    assert new.start == 176.25
    assert sorted(new.points.values()) == [186.25] * 7 + [194.0]
    assert new.calculated == 187.21875
    assert new.grade == 187
    assert new.category is Category.NONE
    assert (new.games_latest, new.games_counted) == (8, 8)


@pytest.mark.parametrize(
    ("opponent", "result", "points"),
    [
        (90, WIN, 160),
        (90, DRAW, 110),
        (90, LOSS, 60),
        (200, WIN, 240),
        (200, DRAW, 190),
        (200, LOSS, 140),
    ],
)
def test_c2_the_40_point_rule_g12(opponent: int, result: ResultCode, points: float) -> None:
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=2, previous={0: 150, 1: opponent})
    hand.games.append((0, 1, result, date(2009, 9, 1)))
    assert hand.compute()[0].points == {0: points}


def test_c2_each_player_is_capped_from_his_own_side_g12() -> None:
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=2, previous={0: 150, 1: 100})
    hand.games.append((0, 1, DRAW, date(2009, 9, 1)))
    results = hand.compute()
    assert results[0].points == {0: 110}
    assert results[1].points == {0: 140}


def test_c3_standard_brings_forward_notional_games_g14() -> None:
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=2, previous={0: 150, 1: 150})
    hand.games = draws(0, 1, days_from(date(2009, 9, 1), 12))  # 12 games, 1800 points
    hand.p1[0] = (10, 1400.0)
    hand.p2[0] = (20, 2600.0)
    player = hand.compute()[0]
    assert sum(player.points.values()) == 1800
    assert player.calculated == pytest.approx((1800 + 1400 + 1040) / 30, abs=EXACT)
    assert player.grade == 141
    assert player.category is Category.C
    assert (player.games_latest, player.games_counted) == (12, 30)


def test_c4_junior_target_is_20_and_bonus_is_added_g18_g20() -> None:
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=2, previous={1: 100})
    hand.birth[0] = date(1998, 3, 1)  # 12 on 31 August 2010
    hand.games = draws(0, 1, days_from(date(2009, 9, 1), 14))
    hand.p1[0] = (10, 900.0)
    junior = hand.compute()[0]
    assert (junior.junior, junior.age) == (True, 12)
    assert sum(junior.points.values()) == 1400
    assert junior.calculated == pytest.approx(97, abs=EXACT)
    assert junior.bonus == 5
    assert junior.grade == 102
    assert junior.category is Category.C
    assert (junior.games_latest, junior.games_counted) == (14, 20)


def test_c5_rapid_brings_forward_the_most_recent_actual_games_g15() -> None:
    hand = Hand(ListId(2010, 7), Rate.RAPID, players=2, previous={0: 100, 1: 100})
    hand.games = draws(0, 1, days_from(date(2009, 9, 1), 27))  # 27 games, 2700 points
    # (player, period, date, recording order, points); orders do not follow the dates.
    hand.stored = [
        (0, 1, date(2008, 9, 13), 20, 60.0),
        (0, 1, date(2009, 4, 1), 5, 200.0),
        (0, 1, date(2009, 5, 20), 30, 110.0),
        (0, 1, date(2009, 5, 30), 7, 90.0),  # recorded first
        (0, 1, date(2009, 5, 30), 9, 130.0),  # recorded second
    ]
    hand.p1[0] = (5, 590.0)
    player = hand.compute()[0]
    assert sum(player.points.values()) == 2700
    assert player.calculated == pytest.approx(101, abs=EXACT)
    assert player.grade == 101
    assert player.category is Category.B
    assert (player.games_latest, player.games_counted) == (27, 30)


def test_c6_two_new_players_reach_the_fixed_point_g8_g9() -> None:
    a, b, u1, u2 = 0, 1, 2, 3
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=4, previous={a: 100, b: 140})
    hand.games = [
        (u1, a, WIN, date(2009, 9, 1)),
        (u1, b, DRAW, date(2009, 9, 2)),
        (u2, u1, WIN, date(2009, 9, 3)),
        (u2, a, DRAW, date(2009, 9, 4)),
    ]
    results = hand.compute()
    assert results[u1].start == pytest.approx(126, abs=EXACT)
    assert results[u2].start == pytest.approx(138, abs=EXACT)
    expected = {
        u1: {0: 150, 1: 140, 2: 88},
        u2: {2: 176, 3: 100},
        a: {0: 76, 3: 138},
        b: {1: 126},
    }
    for player, points in expected.items():
        assert results[player].points == pytest.approx(points, abs=EXACT)
    assert results[u1].calculated == pytest.approx(126, abs=EXACT)
    assert results[u2].calculated == pytest.approx(138, abs=EXACT)
    assert not results[u1].unanchored and not results[u2].unanchored


def test_c7_closed_pool_is_centred_on_zero_then_floored_g11() -> None:
    x, y = 0, 1
    hand = Hand(ListId(2010, 7), Rate.STANDARD, players=2)
    hand.birth = {x: date(1997, 1, 1), y: date(1998, 1, 1)}
    hand.games = [(x, y, WIN, date(2009, 9, 1)), (x, y, WIN, date(2009, 9, 8))]
    results = hand.compute()
    assert results[x].start == pytest.approx(25, abs=EXACT)
    assert results[y].start == 0
    assert results[x].unanchored and results[y].unanchored
    assert results[x].points == pytest.approx({0: 50, 1: 50}, abs=EXACT)
    assert results[x].calculated == pytest.approx(50, abs=EXACT)


def test_c8_rapid_x_uses_only_the_half_year_g16() -> None:
    hand = Hand(ListId(2011, 1), Rate.RAPID, players=2, previous={0: 120, 1: 120})
    before_h0 = days_from(date(2009, 12, 1), 13)
    in_h0 = days_from(date(2010, 6, 1), 32)
    hand.games = draws(0, 1, before_h0 + in_h0)
    player = hand.compute()[0]
    h0_points = [player.points[k] for k in range(13, 45)]
    assert sum(h0_points) == 3840
    assert player.h0 == 32
    assert player.grade == 120
    assert player.category is Category.X
    assert (player.games_latest, player.games_counted) == (45, 32)


# Sanity on random seasons ----------------------------------------------------------------


def graded_p0_players(inputs: ListInputs) -> set[int]:
    p0 = inputs.list_id.period(0)
    players: set[int] = set()
    for player1, player2, result, day, rate in zip(
        inputs.games.player1.tolist(),
        inputs.games.player2.tolist(),
        inputs.games.result.tolist(),
        inputs.games.date.tolist(),
        inputs.games.rate.tolist(),
        strict=True,
    ):
        if ResultCode(result).graded and rate == RATE_CODES[inputs.rate] and day in p0:
            players.update((player1, player2))
    return players


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_it_lists_exactly_the_players_with_a_graded_game_in_p0(inputs: ListInputs) -> None:
    assert set(reference_compute(inputs)) == graded_p0_players(inputs)


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_anchored_estimates_are_the_g9_fixed_point(inputs: ListInputs) -> None:
    results = reference_compute(inputs)
    for p, result in results.items():
        if result.source is not StartSource.ESTIMATED or result.unanchored:
            continue
        values = []
        for k in result.points:
            first = int(inputs.games.player1[k]) == p
            opponent = int(inputs.games.player2[k] if first else inputs.games.player1[k])
            score = ResultCode(int(inputs.games.result[k])).score1
            values.append(results[opponent].start + 100 * (score if first else 1 - score) - 50)
        total, count = sum(values), len(values)
        if not result.junior:  # G10
            for stored in (inputs.history.p1, inputs.history.p2):
                total, count = total + float(stored.total[p]), count + int(stored.n[p])
        assert result.start == pytest.approx(max(0.0, total / count), abs=1e-7)


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_points_grades_and_counts_hang_together(inputs: ListInputs) -> None:
    for result in reference_compute(inputs).values():
        for k, points in result.points.items():
            score = points - result.start
            assert -ECF_2009.cap - 50 - 1e-9 <= score <= ECF_2009.cap + 50 + 1e-9, k
        assert result.unrounded >= 0
        assert result.grade == math.floor(result.unrounded + 0.5)
        assert result.games_latest == result.n0 == len(result.points)
        target = ECF_2009.target(result.junior)
        if result.category is Category.X:
            assert result.games_counted == result.h0 >= ECF_2009.x_min_games
        elif result.n0 >= target:
            assert result.games_counted == result.n0
        else:
            assert result.games_counted == min(target, result.n0 + result.n1 + result.n2)
        assert (result.age is not None) == result.junior
