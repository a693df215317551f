"""The reference oracle checked against the hand figures of cases.md and cases-eras.md,
and for sanity.

Expected numbers come from cases.md and cases-eras.md only (never from running the
reference).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.engine.eras import rules_for
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
from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, RuleSet
from ecfgrading.engine.types import Category, Rate, ResultCode, StartSource
from tests.engine.reference import (
    COUNT_BACK,
    RefResult,
    method_of,
    reference_compute,
    rules_of_date,
)
from tests.engine.seasons import ALL_RULES, seasons

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
    other: dict[int, float] = field(default_factory=dict)
    birth: dict[int, date] = field(default_factory=dict)
    games: list[tuple[int, int, ResultCode, date]] = field(default_factory=list)
    p1: dict[int, tuple[int, float]] = field(default_factory=dict)  # player -> (n, total)
    p2: dict[int, tuple[int, float]] = field(default_factory=dict)
    stored: list[tuple[int, int, date, int, float]] = field(default_factory=list)

    def inputs(self) -> ListInputs:
        n = self.players
        previous = [self.previous.get(p, NAN) for p in range(n)]
        other = [self.other.get(p, NAN) for p in range(n)]
        birth = np.array([self.birth.get(p, np.datetime64("NaT")) for p in range(n)], "M8[D]")
        players = PlayerTable.of(np.arange(n) + 100, previous, other, birth=birth)
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

    def store(self, player: int, period: int, rows: Sequence[tuple[date, float]]) -> None:
        """Stored games of P1 or P2 (G34), recorded in the order given; totals follow."""
        for day, points in rows:
            self.stored.append((player, period, day, len(self.stored) + 1, points))
            n, total = (self.p1 if period == 1 else self.p2).get(player, (0, 0.0))
            (self.p1 if period == 1 else self.p2)[player] = (n + 1, total + points)

    def compute(self, rules: RuleSet | None = None) -> dict[int, RefResult]:
        return reference_compute(self.inputs(), rules)


def draws(
    player: int, opponent: int, days: Sequence[date]
) -> list[tuple[int, int, ResultCode, date]]:
    return [(player, opponent, DRAW, day) for day in days]


def days_from(start: date, count: int) -> list[date]:
    return [date.fromordinal(start.toordinal() + k) for k in range(count)]


def games(
    player: int, opponent: int, result: ResultCode, day: date, count: int = 1
) -> list[tuple[int, int, ResultCode, date]]:
    return [(player, opponent, result, day)] * count


def line(result: RefResult) -> tuple[int, Category, int, int]:
    """What a list shows: grade, category, games in P0 / games counted (G24, G41)."""
    return result.grade, result.category, result.games_latest, result.games_counted


# Golden cases -----------------------------------------------------------------------------


def test_c1_new_adult_with_eight_wins_is_estimated_then_capped_g8_g12() -> None:
    opponents = [132, 129, 121, 124, 125, 128, 144, 107]
    hand = Hand(ListId(2019, 7), Rate.STANDARD, players=9)
    for k, grade in enumerate(opponents, start=1):
        hand.previous[k] = grade
        hand.games.append((0, k, WIN, date(2018, 10, k)))
    new = hand.compute(ECF_2009)[0]  # cases.md is ecf-2009 (by date 2019-07 is ecf-2015: F)
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


# Golden cases of the later rule sets (cases-eras.md) -------------------------------------


def test_g31_the_reference_rule_set_of_a_date_is_the_engines() -> None:
    lists = [ListId(y, m) for y in range(2005, 2025) for m in (1, 7)]
    assert all(rules_of_date(lid) == rules_for(lid) for lid in lists)
    assert rules_of_date(ListId(2011, 7)) == ECF_2009
    assert rules_of_date(ListId(2012, 1)) == ECF_2012
    assert rules_of_date(ListId(2014, 7)) == ECF_2012
    assert rules_of_date(ListId(2015, 1)) == ECF_2015


def test_c11_the_seven_month_half_year_standard_2012_01_g32_g35() -> None:
    p, q, o = 0, 1, 2
    hand = Hand(ListId(2012, 1), Rate.STANDARD, players=3, previous={p: 140, q: 120, o: 140})
    hand.games = [
        (p, o, DRAW, date(2011, 2, 12)),
        (p, o, DRAW, date(2011, 5, 28)),
        (p, o, LOSS, date(2011, 9, 10)),
        (p, o, DRAW, date(2011, 10, 8)),
        (p, o, WIN, date(2011, 12, 10)),
        (p, o, WIN, date(2011, 12, 31)),
        (p, o, WIN, date(2012, 1, 2)),  # after the cut-off
        (q, o, WIN, date(2011, 12, 3)),
        (q, o, DRAW, date(2011, 12, 17)),
        (q, o, LOSS, date(2011, 12, 28)),
    ]
    hand.store(p, 1, [(date(2010, 6, 19), 150), (date(2010, 11, 20), 130)])
    hand.store(p, 1, [(date(2009, 12, 5), 110), (date(2010, 4, 10), 100)])
    hand.store(p, 2, [(date(2009, 10, 1), 160), (date(2009, 1, 10), 120)])
    hand.store(q, 1, [(date(2010, 10, 9), 100)] * 6)
    results = hand.compute()
    assert sorted(results[p].points.values()) == [90, 140, 140, 140, 190, 190]
    assert results[p].unrounded == pytest.approx(1660 / 12, abs=EXACT)
    assert line(results[p]) == (138, Category.E, 6, 12)
    assert results[q].unrounded == pytest.approx(1020 / 9, abs=EXACT)
    assert line(results[q]) == (113, Category.E, 3, 9)


def c12a() -> Hand:
    p, o = 0, 1
    hand = Hand(ListId(2013, 7), Rate.STANDARD, players=2, previous={p: 120, o: 120})
    hand.games = games(p, o, DRAW, date(2012, 9, 15), 12) + games(p, o, DRAW, date(2013, 2, 16), 13)
    hand.store(
        p,
        1,
        [
            (date(2011, 6, 4), 200),
            (date(2012, 6, 28), 150),  # recorded first
            (date(2011, 9, 10), 200),
            (date(2012, 6, 2), 90),
            (date(2012, 6, 28), 170),  # recorded second
            (date(2011, 12, 3), 110),
            (date(2012, 1, 14), 130),
        ],
    )
    hand.store(p, 2, [(date(2010, 10, 2), 100)] * 5)
    return hand


def test_c12a_count_back_the_most_recent_actual_games_standard_g35() -> None:
    player = c12a().compute()[0]
    assert player.unrounded == pytest.approx(3650 / 30, abs=EXACT)
    assert line(player) == (122, Category.B, 25, 30)


def test_c12a_what_if_ecf_2015_whole_half_years_then_pro_rata_g38() -> None:
    player = c12a().compute(ECF_2015)[0]
    assert player.unrounded == pytest.approx(3710 / 30, abs=EXACT)
    assert line(player) == (124, Category.B, 25, 30)


def c12b(list_id: ListId, year: int) -> Hand:
    """C12(b) (standard 2013-07) and C14(a) (the same games two years later)."""
    r, w, v = 0, 1, 2
    hand = Hand(list_id, Rate.STANDARD, players=3, previous={r: 160, w: 150, v: 120})
    hand.games = (
        games(r, w, WIN, date(year, 7, 7), 4)
        + games(r, v, DRAW, date(year, 9, 15), 10)
        + games(r, v, DRAW, date(year + 1, 3, 16), 20)
    )
    return hand


def test_c12b_an_a_grade_counts_only_the_30_most_recent_games_g35() -> None:
    player = c12b(ListId(2013, 7), 2012).compute()[0]
    assert player.h0 == 20
    assert player.unrounded == pytest.approx(120, abs=EXACT)
    assert line(player) == (120, Category.A, 34, 30)
    assert len(player.counted) == 30


def test_c14a_ecf_2015_counts_all_p0_games_from_30_on_g37() -> None:
    hand = c12b(ListId(2015, 7), 2014)
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(4400 / 34, abs=EXACT)
    assert line(player) == (129, Category.A, 34, 34)
    what_if = hand.compute(ECF_2012)[0]
    assert line(what_if) == (120, Category.A, 34, 30)


def c13a(list_id: ListId, year: int) -> Hand:
    """C13(a) (standard 2014-01) and C14(b) (standard 2015-01, a year later)."""
    x, o = 0, 1
    hand = Hand(list_id, Rate.STANDARD, players=2, previous={x: 130, o: 130})
    hand.games = (
        games(x, o, WIN, date(year, 7, 6), 2)
        + games(x, o, DRAW, date(year, 10, 5), 30)
        + games(x, o, WIN, date(year, 3, 9), 8)
    )
    return hand


def test_c13a_standard_x_under_ecf_2012_g36() -> None:
    player = c13a(ListId(2014, 1), 2013).compute()[0]
    assert player.h0 == 32
    assert player.unrounded == pytest.approx(133.125, abs=EXACT)
    assert line(player) == (133, Category.X, 40, 32)


def test_c13b_x_across_the_seven_month_half_year_g36() -> None:
    y, o = 0, 1
    hand = Hand(ListId(2012, 1), Rate.STANDARD, players=2, previous={y: 150, o: 150})
    hand.games = (
        games(y, o, DRAW, date(2011, 6, 11), 9)
        + games(y, o, DRAW, date(2011, 9, 17), 9)
        + games(y, o, DRAW, date(2011, 11, 26), 9)
        + [(y, o, WIN, day) for day in (date(2011, 12, 10), date(2011, 12, 17), date(2011, 12, 31))]
        + games(y, o, LOSS, date(2011, 3, 5), 6)
    )
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(155, abs=EXACT)
    assert line(player) == (155, Category.X, 36, 30)


def test_c14b_no_x_under_ecf_2015_g37() -> None:
    hand = c13a(ListId(2015, 1), 2014)
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(142.5, abs=EXACT)
    assert line(player) == (143, Category.A, 40, 40)
    what_if = hand.compute(ECF_2012)[0]
    assert what_if.unrounded == pytest.approx(133.125, abs=EXACT)
    assert line(what_if) == (133, Category.X, 40, 32)


def test_c14c_no_x_for_rapid_either_g37() -> None:
    p, o = 0, 1
    hand = Hand(ListId(2016, 1), Rate.RAPID, players=2, previous={p: 120, o: 120})
    hand.games = games(p, o, DRAW, date(2015, 7, 4), 32) + games(p, o, WIN, date(2015, 1, 10), 13)
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(6050 / 45, abs=EXACT)
    assert line(player) == (134, Category.A, 45, 45)
    assert line(hand.compute(ECF_2012)[0]) == (120, Category.X, 45, 32)


def test_c15a_the_federations_example_pro_rata_of_the_earliest_half_year_g38() -> None:
    h, a, b = 0, 1, 2
    hand = Hand(ListId(2015, 1), Rate.STANDARD, players=3, previous={h: 128, a: 125, b: 130})
    hand.games = (
        games(h, a, DRAW, date(2014, 10, 4), 11)
        + games(h, a, DRAW, date(2014, 4, 5), 7)
        + games(h, b, DRAW, date(2014, 4, 5), 7)
    )
    hand.store(h, 1, [(date(2013, 8, 3), 154)] * 6 + [(date(2013, 9, 7), 153)] * 6)
    hand.store(h, 1, [(date(2013, 3, 2), 120)] * 6)
    hand.store(
        h,
        1,
        [
            (date(2013, 11, 30), 94),
            (date(2013, 12, 7), 94),
            (date(2013, 12, 14), 44),
            (date(2013, 12, 21), 94),
            (date(2013, 12, 28), 144),
        ],
    )
    player = hand.compute()[0]
    assert sum(player.points.values()) == 3160
    assert player.unrounded == pytest.approx(128, abs=EXACT)
    assert line(player) == (128, Category.B, 25, 30)
    what_if = hand.compute(ECF_2012)[0]
    assert what_if.unrounded == pytest.approx(121, abs=EXACT)
    assert line(what_if) == (121, Category.B, 25, 30)


def test_c15b_whole_half_years_then_the_earliest_pro_rata_g38() -> None:
    k, a = 0, 1
    hand = Hand(ListId(2015, 1), Rate.STANDARD, players=2, previous={k: 120, a: 120})
    hand.games = games(k, a, DRAW, date(2014, 11, 1), 8)
    hand.store(k, 1, [(date(2013, 10, 5), 136)] * 17 + [(date(2013, 3, 2), 120)] * 6)
    hand.store(k, 2, [(date(2012, 10, 6), 110)] * 10)
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(3872 / 30, abs=EXACT)
    assert line(player) == (129, Category.D, 8, 30)


def c16a(list_id: ListId, year: int) -> Hand:
    f1, b, c, d = 0, 1, 2, 3
    hand = Hand(list_id, Rate.STANDARD, players=4, previous={b: 110, c: 120, d: 130})
    hand.other[f1] = 100
    hand.games = (
        games(f1, b, WIN, date(year, 3, 14), 2)
        + games(f1, c, DRAW, date(year, 3, 15))
        + games(f1, d, LOSS, date(year, 3, 15), 2)
    )
    return hand


def test_c16a_category_f_on_five_games_g39_g40() -> None:
    player = c16a(ListId(2015, 7), 2015).compute()[0]
    assert (player.start, player.source) == (100, StartSource.OTHER_RATE)
    assert player.unrounded == pytest.approx(120, abs=EXACT)
    assert line(player) == (120, Category.F, 5, 5)
    earlier = c16a(ListId(2014, 7), 2014).compute()[0]  # ecf-2012: E needs 9 games
    assert earlier.unrounded == pytest.approx(120, abs=EXACT)
    assert earlier.category is Category.NONE


@pytest.mark.parametrize(
    ("stored", "unrounded", "category"),
    [
        ([(date(2013, 3, 9), 90), (date(2013, 3, 9), 110)], 106, Category.F),
        ([(date(2013, 3, 9), 100)], 107.5, Category.NONE),
    ],
)
def test_c16bc_f_with_empty_half_years_skipped_g38_g40(
    stored: list[tuple[date, float]], unrounded: float, category: Category
) -> None:
    f, e = 0, 1
    hand = Hand(ListId(2015, 7), Rate.STANDARD, players=2, previous={f: 110, e: 110})
    hand.games = games(f, e, DRAW, date(2014, 10, 4), 3)
    hand.store(f, 2, stored)
    player = hand.compute()[0]
    assert player.unrounded == pytest.approx(unrounded, abs=EXACT)
    assert player.category is category
    assert (player.games_latest, player.games_counted) == (3, 3 + len(stored))


def test_c17a_a_junior_counts_back_20_games_g35_g42() -> None:
    j, a = 0, 1
    hand = Hand(ListId(2013, 1), Rate.STANDARD, players=2, previous={j: 95, a: 100})
    hand.birth[j] = date(2001, 9, 15)
    hand.games = games(j, a, WIN, date(2012, 3, 10), 6) + games(j, a, DRAW, date(2012, 10, 13), 6)
    hand.store(
        j,
        1,
        [
            (date(2010, 12, 11), 30),
            (date(2011, 12, 18), 80),  # recorded first
            (date(2011, 2, 5), 40),
            (date(2011, 3, 12), 65),
            (date(2011, 12, 18), 70),  # recorded second
            (date(2011, 6, 4), 90),
            (date(2011, 7, 2), 75),
            (date(2011, 9, 10), 85),
            (date(2011, 10, 1), 95),
            (date(2011, 11, 5), 60),
        ],
    )
    junior = hand.compute()[0]
    assert (junior.junior, junior.age, junior.bonus) == (True, 10, 10)
    assert (junior.source, junior.start) == (StartSource.ESTIMATED, pytest.approx(125))
    assert junior.calculated == pytest.approx(106, abs=EXACT)
    assert line(junior) == (116, Category.C, 12, 20)


def test_c17b_a_junior_with_more_than_20_games_g35_and_what_if_g37() -> None:
    m, a = 0, 1
    hand = Hand(ListId(2013, 7), Rate.STANDARD, players=2, previous={a: 100})
    hand.birth[m] = date(2000, 1, 20)
    hand.games = games(m, a, LOSS, date(2012, 8, 4), 5) + games(m, a, DRAW, date(2013, 2, 9), 20)
    junior = hand.compute()[0]
    assert (junior.age, junior.start) == (13, pytest.approx(90))
    assert junior.unrounded == pytest.approx(105, abs=EXACT)
    assert line(junior) == (105, Category.B, 25, 20)
    what_if = hand.compute(ECF_2015)[0]
    assert what_if.unrounded == pytest.approx(95, abs=EXACT)
    assert line(what_if) == (95, Category.B, 25, 25)


def test_c18a_a_junior_under_ecf_2015_rapid_g38() -> None:
    j, b = 0, 1
    hand = Hand(ListId(2015, 7), Rate.RAPID, players=2, previous={b: 120})
    hand.birth[j] = date(2002, 3, 1)
    hand.games = games(j, b, WIN, date(2014, 9, 6), 7) + games(j, b, LOSS, date(2015, 2, 7), 7)
    hand.store(j, 1, [(date(2013, 9, 14), 130)] * 6 + [(date(2013, 12, 14), 50)] * 2)
    hand.store(j, 1, [(date(2014, 5, 10), 90)] * 4)
    junior = hand.compute()[0]
    assert (junior.age, junior.start) == (13, pytest.approx(120))
    assert junior.unrounded == pytest.approx(118, abs=EXACT)
    assert line(junior) == (118, Category.C, 14, 20)
    what_if = hand.compute(ECF_2012)[0]
    assert what_if.unrounded == pytest.approx(112, abs=EXACT)
    assert line(what_if) == (112, Category.C, 14, 20)


def test_c18b_thirty_games_in_h0_make_a_not_x_g37() -> None:
    n, b = 0, 1
    hand = Hand(ListId(2015, 7), Rate.RAPID, players=2, previous={b: 120})
    hand.birth[n] = date(2004, 6, 1)
    hand.games = games(n, b, DRAW, date(2015, 4, 11), 33)
    junior = hand.compute()[0]
    assert (junior.age, junior.bonus) == (11, 5)
    assert line(junior) == (125, Category.A, 33, 33)
    assert line(hand.compute(ECF_2012)[0]) == (125, Category.X, 33, 33)


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
@given(st.data())
def test_points_grades_and_counts_hang_together(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from((None, *ALL_RULES)), label="rules")
    inputs = data.draw(seasons(rules=rules), label="inputs")
    used = rules or rules_of_date(inputs.list_id)
    method = method_of(used)
    for result in reference_compute(inputs, rules).values():
        for k, points in result.points.items():
            score = points - result.start
            assert -used.cap - 50 - 1e-9 <= score <= used.cap + 50 + 1e-9, k
        assert result.unrounded >= 0
        assert result.grade == math.floor(result.unrounded + 0.5)
        assert result.games_latest == result.n0 == len(result.points)
        target = used.target(result.junior)
        if result.category is Category.X:  # G16, G36
            assert inputs.rate in method.x_rates
            assert result.games_counted == result.h0 >= used.x_min_games
            assert len(result.counted) == result.h0
        elif method.counting == COUNT_BACK:  # G35
            assert result.games_counted == min(target, result.n0 + result.n1 + result.n2)
            assert len(result.counted) == min(target, result.n0)
        else:  # G14, G15, G18, G19; G37, G38
            assert result.counted == set(result.points)
            if result.n0 >= target:
                assert result.games_counted == result.n0
            else:
                assert result.games_counted == min(target, result.n0 + result.n1 + result.n2)
        if result.category is Category.F:
            assert used == ECF_2015
        assert (result.age is not None) == result.junior
