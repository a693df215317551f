"""The golden cases of shared/spec/cases.md, with the figures written in them."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import (
    Category,
    Flag,
    GradingCode,
    InvalidCode,
    NotGraded,
    Rate,
    Session,
    StartSource,
    TimeControl,
    compute_list,
    ecf_to_fide,
    ecf_to_national_elo,
    fide_to_ecf,
    is_valid_code,
    national_elo_to_ecf,
    rate_of_play,
)
from ecfgrading.engine.explain import explain
from tests.engine.builders import Season


def test_c1_new_adult_with_eight_wins_is_graded_187() -> None:
    season = Season()
    new = season.player()
    for grade in (132, 129, 121, 124, 125, 128, 144, 107):
        season.game(new, season.player(previous=grade), "10")
    outcome = compute_list(season.build())
    entry = outcome.entry(new)
    assert entry.start_source is StartSource.ESTIMATED
    assert entry.start_grade == pytest.approx(176.25)
    lines = explain(outcome, new).games
    assert sorted(line.counted_as for line in lines) == pytest.approx([136.25] * 7 + [144])
    assert sorted(line.points for line in lines) == pytest.approx([186.25] * 7 + [194])
    assert entry.unrounded == pytest.approx(1497.75 / 8)
    assert entry.grade == 187
    assert entry.category is Category.NONE  # 8 games: no category (G23)


@pytest.mark.parametrize(
    ("opponent", "score", "points"),
    [
        (90, "10", 160),
        (90, "55", 110),
        (90, "01", 60),
        (200, "10", 240),
        (200, "55", 190),
        (200, "01", 140),
    ],
)
def test_c2_forty_point_rule(opponent: float, score: str, points: float) -> None:
    season = Season()
    me = season.player(previous=150)
    game = season.game(me, season.player(previous=opponent), score)
    outcome = compute_list(season.build())
    assert outcome.points.points1[game] == pytest.approx(points)


def test_c2_each_player_is_capped_from_his_own_side() -> None:
    season = Season()
    strong, weak = season.player(previous=150), season.player(previous=100)
    game = season.game(strong, weak, "55")
    outcome = compute_list(season.build())
    assert outcome.points.value1[game] == 110  # the 150 player scores against 110
    assert outcome.points.value2[game] == 140  # the 100 player against 140


def test_c3_standard_notional_games_give_141_category_c() -> None:
    season = Season()
    me = season.player(previous=150)
    for _ in range(12):
        season.game(me, season.player(previous=150), "55")  # 12 x 150 = 1800
    season.history(me, 1, n=10, total=1400)
    season.history(me, 2, n=20, total=2600)
    outcome = compute_list(season.build())
    entry = outcome.entry(me)
    assert entry.unrounded == pytest.approx((1800 + 1400 + 1040) / 30)
    assert entry.grade == 141
    assert entry.category is Category.C
    assert (entry.games_latest, entry.games_counted) == (12, 30)
    forward = explain(outcome, me).forward
    assert [(f.period, f.games, f.average) for f in forward] == [(1, 10, 140), (2, 8, 130)]


def test_c4_junior_standard_twenty_game_target_and_bonus() -> None:
    season = Season()  # 2010-07: age date 31 August 2010
    junior = season.player(birth=date(1998, 3, 1))  # 12 on the age date
    for _ in range(14):
        season.game(junior, season.player(previous=100), "55")  # estimated 100; 14 x 100
    season.history(junior, 1, n=10, total=900)
    entry = compute_list(season.build()).entry(junior)
    assert entry.calculated == pytest.approx(97)
    assert entry.bonus == 5
    assert entry.grade == 102
    assert entry.junior_age == 12
    assert entry.category is Category.C
    assert (entry.games_latest, entry.games_counted) == (14, 20)


def test_c5_rapid_brings_forward_the_most_recent_actual_games() -> None:
    season = Season(rate=Rate.RAPID)
    me = season.player(previous=100)
    for _ in range(27):
        season.game(me, season.player(previous=100), "55", on=date(2009, 10, 3))
    season.stored_game(me, 1, date(2009, 5, 30), 130, order=2)  # recorded second
    season.stored_game(me, 1, date(2009, 5, 30), 90, order=1)  # recorded first
    season.stored_game(me, 1, date(2009, 5, 20), 110, order=3)
    season.stored_game(me, 1, date(2009, 4, 1), 200, order=4)
    season.stored_game(me, 1, date(2008, 9, 1), 10, order=5)
    outcome = compute_list(season.build())
    entry = outcome.entry(me)
    assert entry.unrounded == pytest.approx(101)
    assert entry.grade == 101
    assert entry.category is Category.B
    brought = explain(outcome, me).forward[0].stored_games
    assert sorted(line.points for line in brought) == [90, 110, 130]


def test_c6_estimation_with_two_ungraded_players() -> None:
    season = Season()
    a, b = season.player(previous=100), season.player(previous=140)
    u1, u2 = season.player(), season.player()
    g1 = season.game(u1, a, "10")
    g2 = season.game(u1, b, "55")
    g3 = season.game(u2, u1, "10")
    g4 = season.game(u2, a, "55")
    outcome = compute_list(season.build())
    cols = outcome.players
    assert cols.first_estimate[u1] == pytest.approx(145)  # stage 1
    assert cols.first_estimate[u2] == pytest.approx(100)
    assert cols.start[u1] == pytest.approx(126)
    assert cols.start[u2] == pytest.approx(138)
    points = outcome.points
    assert (points.points1[g1], points.points1[g2], points.points2[g3]) == pytest.approx(
        (150, 140, 88)
    )
    assert (points.points1[g3], points.points1[g4]) == pytest.approx((176, 100))
    assert (points.points2[g1], points.points2[g4]) == pytest.approx((76, 138))
    assert points.points2[g2] == pytest.approx(126)
    assert outcome.entry(u1).calculated == pytest.approx(126)
    assert outcome.entry(u2).calculated == pytest.approx(138)


def test_c7_closed_pool_of_two_juniors() -> None:
    season = Season()
    x = season.player(birth=date(2000, 1, 1))
    y = season.player(birth=date(2000, 1, 1))
    season.game(x, y, "10")
    season.game(y, x, "01")
    outcome = compute_list(season.build())
    assert outcome.players.start[x] == pytest.approx(25)
    assert outcome.players.start[y] == 0
    assert outcome.entry(x).flags == (Flag.UNANCHORED,)
    assert outcome.entry(y).flags == (Flag.UNANCHORED,)
    assert outcome.entry(x).calculated == pytest.approx(50)  # two wins of 50, before bonus


def test_c8_rapid_x_uses_only_the_half_year() -> None:
    season = Season(list_id="2011-01", rate=Rate.RAPID)  # H0: June..November 2010
    me = season.player(previous=120)
    for _ in range(32):
        season.game(me, season.player(previous=120), "55", on=date(2010, 9, 4))
    for _ in range(13):
        season.game(me, season.player(previous=120), "10", on=date(2010, 1, 9))
    entry = compute_list(season.build()).entry(me)
    assert entry.grade == 120
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (45, 32)


@pytest.mark.parametrize("code", ["233310H", "102807J", "155624B", "261619B", "120787J"])
def test_c9_valid_codes(code: str) -> None:
    assert is_valid_code(code)
    assert str(GradingCode.parse(code)) == code


@pytest.mark.parametrize("code", ["233310A", "23331H", "2333100H"])
def test_c9_invalid_codes(code: str) -> None:
    assert not is_valid_code(code)
    with pytest.raises(InvalidCode):
        GradingCode.parse(code)


def test_c9_conversions() -> None:
    assert ecf_to_fide(150) == 1850
    assert ecf_to_national_elo(150) == 1800
    assert fide_to_ecf(2010) == 170
    assert national_elo_to_ecf(1960) == 170


@pytest.mark.parametrize(
    ("control", "expected"),
    [
        (TimeControl.game(90, 30), Rate.STANDARD),
        (TimeControl.game(15, 10), Rate.RAPID),
        (TimeControl.game(10, 5), Rate.RAPID),
        (TimeControl.game(5, 3), NotGraded.LIGHTNING),
        (TimeControl((Session(100, moves=40),), rest_minutes=30), Rate.STANDARD),
        (TimeControl.game(55, 5), Rate.STANDARD),
        (TimeControl.game(59), Rate.RAPID),
    ],
)
def test_c10_rates_of_play(control: TimeControl, expected: Rate | NotGraded) -> None:
    assert rate_of_play(control) == expected
