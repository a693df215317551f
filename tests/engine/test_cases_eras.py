"""The golden cases of shared/spec/cases-eras.md (C11..C19), with the figures written in
them: every expected number below is the case's hand figure, never the engine's output.

Each case is computed under the rule set of its list's date (G31); its "what-if" lines
compute the same inputs under another rule set named explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date

import pytest

from ecfgrading.engine import (
    ECF_2009,
    ECF_2012,
    ECF_2015,
    Category,
    ListId,
    ListOutcome,
    Rate,
    RuleSet,
    StartSource,
    compute_list,
    rules_for,
)
from tests.engine.builders import Season


def _play(season: Season, me: int, opponent: int, score: str, on: date, times: int) -> list[int]:
    """``times`` games of ``me`` against ``opponent`` on one day, recorded in turn."""
    return [season.game(me, opponent, score, on=on) for _ in range(times)]


def _used_points(season: Season, outcome: ListOutcome, player: int) -> list[float]:
    """Stored points of ``player``'s P1/P2 games brought forward as actual games."""
    rows = zip(season.stored, outcome.history_used, strict=True)
    return sorted(row[4] for row, used in rows if used and row[0] == player)


# --- C11. The 7-month half-year: standard 2012-01 (ecf-2012) ------------------------------


def _c11() -> tuple[Season, int, int, int]:
    season = Season(list_id="2012-01")
    p, q, o = season.player(previous=140), season.player(previous=120), season.player(previous=140)
    for on, score in (
        (date(2011, 2, 12), "55"),
        (date(2011, 5, 28), "55"),
        (date(2011, 9, 10), "01"),
        (date(2011, 10, 8), "55"),
        (date(2011, 12, 10), "10"),
        (date(2011, 12, 31), "10"),
        (date(2012, 1, 2), "10"),  # after the cut-off: not in this list
    ):
        season.game(p, o, score, on=on)
    for on, score in (
        (date(2011, 12, 3), "10"),
        (date(2011, 12, 17), "55"),
        (date(2011, 12, 28), "01"),
    ):
        season.game(q, o, score, on=on)
    # G34, read by date. The 2011 games stored by standard 2011-07 lie in P0 (regraded) and
    # the 2008-10-01 game stored by 2009-07 lies before P2: neither is read.
    p1_read = (
        (date(2010, 6, 19), 150),  # stored by standard 2011-07 (Jun-Nov 2010)
        (date(2010, 11, 20), 130),
        (date(2009, 12, 5), 110),  # stored by standard 2010-07 (Dec 2009 - May 2010)
        (date(2010, 4, 10), 100),
    )
    p2_read = (
        (date(2009, 10, 1), 160),  # stored by standard 2010-07 (Jun-Nov 2009)
        (date(2009, 1, 10), 120),  # stored by standard 2009-07 (Dec 2008 - May 2009)
    )
    for k, read in ((1, p1_read), (2, p2_read)):
        for order, (on, points) in enumerate(read):
            season.stored_game(p, k, on, points, order=order)
    for order in range(6):
        season.stored_game(q, 1, date(2010, 10, 9), 100, order=order)
    return season, p, q, o


def test_c11_p_graded_138_e_across_the_7_month_half_year_g32() -> None:
    season, p, _, _ = _c11()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2012  # G31
    entry = outcome.entry(p)
    assert (entry.start_grade, entry.start_source) == (140, StartSource.PREVIOUS)
    assert [outcome.points.points1[g] for g in range(6)] == [140, 140, 90, 140, 190, 190]
    assert not outcome.graded[6]  # 2012-01-02: after the cut-off 2011-12-31
    assert (entry.n1, entry.n2) == (4, 2)
    assert entry.unrounded == pytest.approx(1660 / 12)
    assert entry.grade == 138
    assert entry.category is Category.E
    assert (entry.games_latest, entry.games_counted) == (6, 12)


def test_c11_q_graded_113_e_on_december_games_of_the_transition_half_year_g32() -> None:
    season, _, q, _ = _c11()
    outcome = compute_list(season.build())
    entry = outcome.entry(q)
    assert [outcome.points.points1[g] for g in range(7, 10)] == [190, 140, 90]
    assert entry.n1 == 6
    assert entry.unrounded == pytest.approx(1020 / 9)
    assert entry.grade == 113
    assert entry.category is Category.E
    assert (entry.games_latest, entry.games_counted) == (3, 9)


def test_c11_g34_reads_p1_and_p2_of_standard_2012_01_from_the_annual_lists_by_date() -> None:
    lid = ListId(2012, 1)
    assert lid.stored_by(Rate.STANDARD, 1) == (ListId(2010, 7), ListId(2011, 7))
    assert lid.stored_by(Rate.STANDARD, 2) == (ListId(2009, 7), ListId(2010, 7))
    p1, p2 = lid.period(1), lid.period(2)
    for day in (date(2010, 6, 19), date(2010, 11, 20), date(2009, 12, 5), date(2010, 4, 10)):
        assert day in p1
    for day in (date(2009, 10, 1), date(2009, 1, 10)):
        assert day in p2
    for day in (date(2011, 2, 12), date(2011, 5, 28)):  # stored by 2011-07, regraded
        assert day in lid.p0()
    assert date(2008, 10, 1) < p2.start  # stored by 2009-07, before P2
    # The rapid 2012-01 list has the same periods; P1, P2 are rapid 2011-01's and 2010-01's P0.
    assert lid.stored_by(Rate.RAPID, 1) == (ListId(2011, 1),)
    assert lid.stored_by(Rate.RAPID, 2) == (ListId(2010, 1),)
    assert ListId(2011, 1).p0() == p1
    assert ListId(2010, 1).p0() == p2


# --- C12. Count back the most recent actual games, standard (ecf-2012) --------------------


def _c12a() -> tuple[Season, int]:
    season = Season(list_id="2013-07")
    p, o = season.player(previous=120), season.player(previous=120)
    _play(season, p, o, "55", date(2012, 9, 15), 12)
    _play(season, p, o, "55", date(2013, 2, 16), 13)
    # Stored by standard 2012-07, latest first; older games recorded later must not
    # outrank newer ones (date first, G35), the order only breaks the 2012-06-28 tie.
    for on, points, order in (
        (date(2012, 6, 28), 170, 2),  # recorded second
        (date(2012, 6, 28), 150, 1),  # recorded first
        (date(2012, 6, 2), 90, 3),
        (date(2012, 1, 14), 130, 4),
        (date(2011, 12, 3), 110, 5),
        (date(2011, 9, 10), 200, 6),
        (date(2011, 6, 4), 200, 7),
    ):
        season.stored_game(p, 1, on, points, order=order)
    for order in range(5):  # stored by standard 2011-07
        season.stored_game(p, 2, date(2010, 10, 2), 100, order=order)
    return season, p


def test_c12a_g35_counts_back_the_five_most_recent_actual_games_122_b() -> None:
    season, p = _c12a()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2012
    entry = outcome.entry(p)
    assert _used_points(season, outcome, p) == sorted([170, 150, 90, 130, 110])
    assert entry.unrounded == pytest.approx(3650 / 30)
    assert entry.grade == 122
    assert entry.category is Category.B
    assert (entry.games_latest, entry.games_counted) == (25, 30)


def test_c12a_what_if_ecf_2015_g38_takes_h2_whole_and_one_game_of_h3_at_its_average() -> None:
    season, p = _c12a()
    outcome = compute_list(season.build(), rules=ECF_2015)
    entry = outcome.entry(p)
    half_years = outcome.players.forward.half_years
    assert half_years is not None
    assert list(half_years.n[p]) == [4, 3, 0, 5]  # H2, H3 (7 months), H4, H5
    assert list(half_years.taken[p]) == [4, 1, 0, 0]
    assert entry.unrounded == pytest.approx(3710 / 30)
    assert entry.grade == 124
    assert entry.category is Category.B
    assert (entry.games_latest, entry.games_counted) == (25, 30)


def _c12b(list_id: str = "2013-07") -> tuple[Season, int, list[int], list[int]]:
    season = Season(list_id=list_id)
    r, w, v = season.player(previous=160), season.player(previous=150), season.player(previous=120)
    wins = _play(season, r, w, "10", date(2012, 7, 7), 4)
    draws = _play(season, r, v, "55", date(2012, 9, 15), 10)
    draws += _play(season, r, v, "55", date(2013, 3, 16), 20)
    return season, r, wins, draws


def test_c12b_g35_an_a_grade_counts_only_the_30_most_recent_games_120() -> None:
    season, r, wins, draws = _c12b()
    outcome = compute_list(season.build())
    entry = outcome.entry(r)
    assert [outcome.points.points1[g] for g in wins] == [200] * 4
    assert [outcome.points.points1[g] for g in draws] == [120] * 30
    assert outcome.players.h0[r] == 20  # no X
    assert outcome.counted is not None
    mine = outcome.counted[0]  # r is player1 of all his games
    assert not mine[wins].any()
    assert mine[draws].all()
    assert entry.unrounded == pytest.approx(120)
    assert entry.grade == 120
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (34, 30)


def test_c12b_what_if_ecf_2015_g37_counts_all_34_games_129() -> None:
    season, r, _, _ = _c12b()
    entry = compute_list(season.build(), rules=ECF_2015).entry(r)
    assert entry.unrounded == pytest.approx(4400 / 34)
    assert entry.grade == 129
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (34, 34)


# --- C13. Standard X (ecf-2012) ----------------------------------------------------------


def _x_season(list_id: str, wins_h0: date, draws_h0: date, wins_h1: date) -> tuple[Season, int]:
    """Adult x and o, both 130: 2 wins and 30 draws in H0, 8 wins in H1 (C13(a), C14(b))."""
    season = Season(list_id=list_id)
    x, o = season.player(previous=130), season.player(previous=130)
    _play(season, x, o, "10", wins_h0, 2)
    _play(season, x, o, "55", draws_h0, 30)
    _play(season, x, o, "10", wins_h1, 8)
    return season, x


def _c13a() -> tuple[Season, int]:
    return _x_season("2014-01", date(2013, 7, 6), date(2013, 10, 5), date(2013, 3, 9))


def _c14b() -> tuple[Season, int]:
    return _x_season("2015-01", date(2014, 7, 5), date(2014, 10, 4), date(2014, 3, 8))


def test_c13a_g36_standard_x_on_the_32_games_of_h0_133() -> None:
    season, x = _c13a()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2012
    entry = outcome.entry(x)
    assert outcome.players.h0[x] == 32
    assert entry.unrounded == pytest.approx(4260 / 32)
    assert entry.unrounded == pytest.approx(133.125)
    assert entry.grade == 133
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (40, 32)


def test_c13a_without_x_g35_would_count_the_30_draws_130() -> None:
    season, x = _c13a()
    no_x = replace(ECF_2012, name="ecf-2012-without-x", x_rates=frozenset())
    entry = compute_list(season.build(), rules=no_x).entry(x)
    assert entry.unrounded == pytest.approx(130)
    assert entry.grade == 130
    assert entry.category is Category.A  # n0 = 40
    assert (entry.games_latest, entry.games_counted) == (40, 30)


def test_c13b_g36_x_across_the_7_month_half_year_of_standard_2012_01_155() -> None:
    season = Season(list_id="2012-01")
    y, o = season.player(previous=150), season.player(previous=150)
    for on in (date(2011, 6, 11), date(2011, 9, 17), date(2011, 11, 26)):
        _play(season, y, o, "55", on, 9)
    for on in (date(2011, 12, 10), date(2011, 12, 17), date(2011, 12, 31)):
        season.game(y, o, "10", on=on)
    _play(season, y, o, "01", date(2011, 3, 5), 6)
    outcome = compute_list(season.build())
    entry = outcome.entry(y)
    assert outcome.players.h0[y] == 30  # 27 draws June-November and 3 December wins
    assert entry.unrounded == pytest.approx(4650 / 30)
    assert entry.grade == 155
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (36, 30)


# --- C14. The 2015 A rule (ecf-2015) -----------------------------------------------------


def _c14a() -> tuple[Season, int]:
    season = Season(list_id="2015-07")
    r, w, v = season.player(previous=160), season.player(previous=150), season.player(previous=120)
    _play(season, r, w, "10", date(2014, 7, 5), 4)
    _play(season, r, v, "55", date(2014, 9, 13), 10)
    _play(season, r, v, "55", date(2015, 3, 14), 20)
    return season, r


def test_c14a_g37_an_a_grade_counts_all_34_games_129() -> None:
    season, r = _c14a()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(r)
    assert entry.unrounded == pytest.approx(4400 / 34)
    assert entry.grade == 129
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (34, 34)


def test_c14a_what_if_ecf_2012_g35_counts_the_30_most_recent_120() -> None:
    season, r = _c14a()
    entry = compute_list(season.build(), rules=ECF_2012).entry(r)
    assert entry.unrounded == pytest.approx(120)
    assert entry.grade == 120
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (34, 30)


def test_c14b_g37_no_x_any_more_all_40_games_143_a() -> None:
    season, x = _c14b()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(x)
    assert outcome.players.h0[x] == 32
    assert entry.unrounded == pytest.approx(5700 / 40)
    assert entry.unrounded == pytest.approx(142.5)
    assert entry.grade == 143  # half up (G22)
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (40, 40)


def test_c14b_what_if_ecf_2012_g36_x_133() -> None:
    season, x = _c14b()
    entry = compute_list(season.build(), rules=ECF_2012).entry(x)
    assert entry.unrounded == pytest.approx(4260 / 32)
    assert entry.grade == 133
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (40, 32)


def _c14c() -> tuple[Season, int]:
    season = Season(list_id="2016-01", rate=Rate.RAPID)
    p, o = season.player(previous=120), season.player(previous=120)
    _play(season, p, o, "55", date(2015, 7, 4), 32)
    _play(season, p, o, "10", date(2015, 1, 10), 13)
    return season, p


def test_c14c_g37_rapid_too_all_45_games_134_a() -> None:
    season, p = _c14c()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(p)
    assert entry.unrounded == pytest.approx(6050 / 45)
    assert entry.grade == 134
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (45, 45)


@pytest.mark.parametrize("rules", [ECF_2012, ECF_2009], ids=["ecf-2012", "ecf-2009"])
def test_c14c_what_if_ecf_2012_g36_rapid_x_120(rules: RuleSet) -> None:
    season, p = _c14c()
    entry = compute_list(season.build(), rules=rules).entry(p)  # C8 gives the same (G16)
    assert entry.unrounded == pytest.approx(3840 / 32)
    assert entry.grade == 120
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (45, 32)


# --- C15. The 2015 pro rata of the earliest half-year ------------------------------------


def _c15a() -> tuple[Season, int]:
    season = Season(list_id="2015-01")
    h, a, b = season.player(previous=128), season.player(previous=125), season.player(previous=130)
    _play(season, h, a, "55", date(2014, 10, 4), 11)
    _play(season, h, a, "55", date(2014, 4, 5), 7)
    _play(season, h, b, "55", date(2014, 4, 5), 7)
    h2 = [
        (date(2013, 12, 28), 144),
        (date(2013, 12, 21), 94),
        (date(2013, 12, 14), 44),
        (date(2013, 12, 7), 94),
        (date(2013, 11, 30), 94),
    ]
    h2 += [(date(2013, 9, 7), 153)] * 6 + [(date(2013, 8, 3), 154)] * 6
    for order, (on, points) in enumerate(reversed(h2)):  # stored by standard 2014-01
        season.stored_game(h, 1, on, points, order=order)
    for order in range(6):
        season.stored_game(h, 1, date(2013, 3, 2), 120, order=100 + order)
    return season, h


def test_c15a_g38_five_notional_games_at_the_h2_average_128_b() -> None:
    season, h = _c15a()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(h)
    assert outcome.players.t0[h] == pytest.approx(3160)
    half_years = outcome.players.forward.half_years
    assert half_years is not None
    assert list(half_years.n[h]) == [17, 6, 0, 0]
    assert list(half_years.total[h]) == pytest.approx([2312, 720, 0, 0])
    assert list(half_years.taken[h]) == [5, 0, 0, 0]
    assert outcome.players.forward.points[h] == pytest.approx(5 * 2312 / 17)
    assert entry.unrounded == pytest.approx(3840 / 30)
    assert entry.grade == 128
    assert entry.category is Category.B
    assert (entry.n1, entry.n2) == (23, 0)
    assert (entry.games_latest, entry.games_counted) == (25, 30)


def test_c15a_what_if_ecf_2012_the_five_most_recent_actual_games_121_b() -> None:
    season, h = _c15a()
    outcome = compute_list(season.build(), rules=ECF_2012)
    entry = outcome.entry(h)
    assert _used_points(season, outcome, h) == sorted([144, 94, 44, 94, 94])
    assert entry.unrounded == pytest.approx(3630 / 30)
    assert entry.grade == 121
    assert entry.category is Category.B
    assert (entry.games_latest, entry.games_counted) == (25, 30)


def test_c15b_g38_reaches_back_through_whole_half_years_129_d() -> None:
    season = Season(list_id="2015-01")
    k, a = season.player(previous=120), season.player(previous=120)
    _play(season, k, a, "55", date(2014, 11, 1), 8)
    for order in range(17):  # stored by standard 2014-01
        season.stored_game(k, 1, date(2013, 10, 5), 136, order=order)
    for order in range(6):
        season.stored_game(k, 1, date(2013, 3, 2), 120, order=order)
    for order in range(10):  # stored by standard 2013-01
        season.stored_game(k, 2, date(2012, 10, 6), 110, order=order)
    outcome = compute_list(season.build())
    entry = outcome.entry(k)
    half_years = outcome.players.forward.half_years
    assert half_years is not None
    assert list(half_years.taken[k]) == [17, 5, 0, 0]
    assert outcome.players.forward.points[k] == pytest.approx(2312 + 600)
    assert entry.unrounded == pytest.approx(3872 / 30)
    assert entry.grade == 129
    assert entry.category is Category.D
    assert (entry.n1, entry.n2) == (23, 10)
    assert (entry.games_latest, entry.games_counted) == (8, 30)


# --- C16. Category F (ecf-2015) ----------------------------------------------------------


def _c16a(list_id: str, year: int) -> tuple[Season, int]:
    season = Season(list_id=list_id)
    f1 = season.player(other_rate=100)  # no standard grade; rapid grade 100 (G33)
    b, c, d = (season.player(previous=g) for g in (110, 120, 130))
    _play(season, f1, b, "10", date(year, 3, 14), 2)
    season.game(f1, c, "55", on=date(year, 3, 15))
    _play(season, f1, d, "01", date(year, 3, 15), 2)
    return season, f1


def test_c16a_g40_five_games_make_an_f_grade_120() -> None:
    season, f1 = _c16a("2015-07", 2015)
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(f1)
    assert (entry.start_grade, entry.start_source) == (100, StartSource.OTHER_RATE)
    assert [outcome.points.points1[g] for g in range(5)] == [160, 160, 120, 80, 80]
    assert entry.unrounded == pytest.approx(600 / 5)
    assert entry.grade == 120
    assert entry.category is Category.F
    assert entry.published
    assert (entry.games_latest, entry.games_counted) == (5, 5)


def test_c16a_under_ecf_2012_the_same_five_games_are_not_published_g40() -> None:
    """Standard 2014-07, all dates a year earlier: E needs 9 games."""
    season, f1 = _c16a("2014-07", 2014)
    assert rules_for(ListId(2014, 7)) is ECF_2012
    entry = compute_list(season.build(), rules=ECF_2012).entry(f1)
    assert entry.unrounded == pytest.approx(120)
    assert entry.category is Category.NONE
    assert not entry.published


def test_c16a_what_if_ecf_2012_on_the_2015_07_inputs_is_not_published_g40() -> None:
    season, f1 = _c16a("2015-07", 2015)
    entry = compute_list(season.build(), rules=ECF_2012).entry(f1)
    assert entry.unrounded == pytest.approx(120)
    assert entry.category is Category.NONE


def _c16bc(stored: list[float]) -> tuple[Season, int]:
    season = Season(list_id="2015-07")
    f, e = season.player(previous=110), season.player(previous=110)
    _play(season, f, e, "55", date(2014, 10, 4), 3)
    for order, points in enumerate(stored):  # stored by standard 2013-07, in H4
        season.stored_game(f, 2, date(2013, 3, 9), points, order=order)
    return season, f


def test_c16b_g38_skips_empty_half_years_and_takes_h4_whole_106_f() -> None:
    season, f2 = _c16bc([90, 110])
    outcome = compute_list(season.build())
    entry = outcome.entry(f2)
    half_years = outcome.players.forward.half_years
    assert half_years is not None
    assert list(half_years.taken[f2]) == [0, 0, 2, 0]
    assert (entry.n1, entry.n2) == (0, 2)
    assert entry.unrounded == pytest.approx(530 / 5)
    assert entry.grade == 106
    assert entry.category is Category.F
    assert (entry.games_latest, entry.games_counted) == (3, 5)


def test_c16c_four_games_are_not_published_value_107_5_kept_g40_g23() -> None:
    season, f3 = _c16bc([100])
    entry = compute_list(season.build()).entry(f3)
    assert entry.unrounded == pytest.approx(430 / 4)
    assert entry.unrounded == pytest.approx(107.5)
    assert entry.category is Category.NONE
    assert not entry.published
    assert (entry.games_latest, entry.games_counted) == (3, 4)


# --- C17. A junior under ecf-2012 --------------------------------------------------------


def test_c17a_g42_junior_in_a_january_standard_list_116_c() -> None:
    season = Season(list_id="2013-01")  # age date 2012-08-31 (G42)
    j = season.player(previous=95, birth=date(2001, 9, 15))  # 95 not used (G7)
    a = season.player(previous=100)
    _play(season, j, a, "10", date(2012, 3, 10), 6)
    _play(season, j, a, "55", date(2012, 10, 13), 6)
    for on, points, order in (  # stored by standard 2012-01, latest first
        (date(2011, 12, 18), 70, 2),  # recorded second
        (date(2011, 12, 18), 80, 1),  # recorded first
        (date(2011, 11, 5), 60, 3),
        (date(2011, 10, 1), 95, 4),
        (date(2011, 9, 10), 85, 5),
        (date(2011, 7, 2), 75, 6),
        (date(2011, 6, 4), 90, 7),
        (date(2011, 3, 12), 65, 8),
        (date(2011, 2, 5), 40, 9),
        (date(2010, 12, 11), 30, 10),
    ):
        season.stored_game(j, 1, on, points, order=order)
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2012
    entry = outcome.entry(j)
    assert ListId(2013, 1).age_date(outcome.rules) == date(2012, 8, 31)
    assert (entry.junior_age, entry.bonus) == (10, 10)
    assert entry.start_source is StartSource.ESTIMATED
    assert entry.start_grade == pytest.approx(125)
    assert outcome.players.t0[j] == pytest.approx(1500)
    assert _used_points(season, outcome, j) == sorted([70, 80, 60, 95, 85, 75, 90, 65])
    assert entry.calculated == pytest.approx(2120 / 20)
    assert entry.unrounded == pytest.approx(116)
    assert entry.grade == 116
    assert entry.category is Category.C
    assert (entry.games_latest, entry.games_counted) == (12, 20)


def _c17b() -> tuple[Season, int]:
    season = Season(list_id="2013-07")  # age date 2013-08-31
    m, a = season.player(birth=date(2000, 1, 20)), season.player(previous=100)
    _play(season, m, a, "01", date(2012, 8, 4), 5)
    _play(season, m, a, "55", date(2013, 2, 9), 20)
    return season, m


def test_c17b_g35_a_junior_counts_only_his_20_most_recent_games_105_b() -> None:
    season, m = _c17b()
    outcome = compute_list(season.build())
    entry = outcome.entry(m)
    assert (entry.junior_age, entry.bonus) == (13, 5)
    assert entry.start_source is StartSource.ESTIMATED
    assert entry.start_grade == pytest.approx(90)
    assert outcome.players.t0[m] == pytest.approx(2250)
    assert entry.calculated == pytest.approx(100)
    assert entry.unrounded == pytest.approx(105)
    assert entry.grade == 105
    assert entry.category is Category.B
    assert (entry.games_latest, entry.games_counted) == (25, 20)


def test_c17b_what_if_ecf_2015_g37_all_p0_games_95_b() -> None:
    season, m = _c17b()
    entry = compute_list(season.build(), rules=ECF_2015).entry(m)
    assert (entry.junior_age, entry.bonus) == (13, 5)
    assert entry.calculated == pytest.approx(2250 / 25)
    assert entry.unrounded == pytest.approx(95)
    assert entry.grade == 95
    assert entry.category is Category.B
    assert (entry.games_latest, entry.games_counted) == (25, 25)


# --- C18. A junior under ecf-2015 --------------------------------------------------------


def _c18a() -> tuple[Season, int]:
    season = Season(list_id="2015-07", rate=Rate.RAPID)  # age date 2015-08-31
    j2, b = season.player(birth=date(2002, 3, 1)), season.player(previous=120)
    _play(season, j2, b, "10", date(2014, 9, 6), 7)
    _play(season, j2, b, "01", date(2015, 2, 7), 7)
    stored = [(date(2013, 9, 14), 130)] * 6 + [(date(2013, 12, 14), 50)] * 2
    stored += [(date(2014, 5, 10), 90)] * 4
    for order, (on, points) in enumerate(stored):  # stored by rapid 2014-07
        season.stored_game(j2, 1, on, points, order=order)
    return season, j2


def test_c18a_g38_junior_pro_rata_of_h3_118_c() -> None:
    season, j2 = _c18a()
    outcome = compute_list(season.build())
    assert outcome.rules is ECF_2015
    entry = outcome.entry(j2)
    assert (entry.junior_age, entry.bonus) == (13, 5)
    assert entry.start_source is StartSource.ESTIMATED
    assert entry.start_grade == pytest.approx(120)
    assert outcome.players.t0[j2] == pytest.approx(1680)
    half_years = outcome.players.forward.half_years
    assert half_years is not None
    assert list(half_years.n[j2]) == [4, 8, 0, 0]
    assert list(half_years.total[j2]) == pytest.approx([360, 880, 0, 0])
    assert list(half_years.taken[j2]) == [4, 2, 0, 0]
    assert entry.calculated == pytest.approx(2260 / 20)
    assert entry.unrounded == pytest.approx(118)
    assert entry.grade == 118
    assert entry.category is Category.C
    assert (entry.games_latest, entry.games_counted) == (14, 20)


def test_c18a_what_if_ecf_2012_g35_the_six_most_recent_stored_games_112_c() -> None:
    season, j2 = _c18a()
    outcome = compute_list(season.build(), rules=ECF_2012)
    entry = outcome.entry(j2)
    assert _used_points(season, outcome, j2) == sorted([90] * 4 + [50] * 2)
    assert entry.calculated == pytest.approx(2140 / 20)
    assert entry.unrounded == pytest.approx(112)
    assert entry.grade == 112
    assert entry.category is Category.C
    assert (entry.games_latest, entry.games_counted) == (14, 20)


def _c18b() -> tuple[Season, int]:
    season = Season(list_id="2015-07", rate=Rate.RAPID)
    n, b = season.player(birth=date(2004, 6, 1)), season.player(previous=120)
    _play(season, n, b, "55", date(2015, 4, 11), 33)
    return season, n


def test_c18b_g37_thirty_games_in_h0_make_a_not_x_125() -> None:
    season, n = _c18b()
    outcome = compute_list(season.build())
    entry = outcome.entry(n)
    assert outcome.players.h0[n] == 33
    assert (entry.junior_age, entry.bonus) == (11, 5)
    assert entry.start_grade == pytest.approx(120)
    assert entry.calculated == pytest.approx(3960 / 33)
    assert entry.unrounded == pytest.approx(125)
    assert entry.grade == 125
    assert entry.category is Category.A
    assert (entry.games_latest, entry.games_counted) == (33, 33)


def test_c18b_what_if_ecf_2012_g36_junior_x_125() -> None:
    season, n = _c18b()
    entry = compute_list(season.build(), rules=ECF_2012).entry(n)
    assert (entry.junior_age, entry.bonus) == (11, 5)
    assert entry.calculated == pytest.approx(120)
    assert entry.unrounded == pytest.approx(125)
    assert entry.grade == 125
    assert entry.category is Category.X
    assert (entry.games_latest, entry.games_counted) == (33, 33)


# --- C19. Which lists a half-year list reads (G32-G34), and two starting grades ----------

S, R = Rate.STANDARD, Rate.RAPID
C19_TABLE = [
    # list, rate, rule set, previous (G4), other rate (G5), P1 read from, P2 read from
    ("2011-07", S, ECF_2009, "2010-07", "2011-01", ("2010-07",), ("2009-07",)),
    ("2011-07", R, ECF_2009, "2011-01", "2010-07", ("2010-07",), ("2009-07",)),
    ("2012-01", S, ECF_2012, "2011-07", "2011-07", ("2010-07", "2011-07"), ("2009-07", "2010-07")),
    ("2012-01", R, ECF_2012, "2011-07", "2011-07", ("2011-01",), ("2010-01",)),
    ("2012-07", S, ECF_2012, "2012-01", "2012-01", ("2011-07",), ("2010-07",)),
    ("2012-07", R, ECF_2012, "2012-01", "2012-01", ("2011-07",), ("2010-07",)),
    ("2013-01", S, ECF_2012, "2012-07", "2012-07", ("2012-01",), ("2010-07", "2011-07")),
    ("2013-01", R, ECF_2012, "2012-07", "2012-07", ("2012-01",), ("2011-01",)),
    ("2014-07", S, ECF_2012, "2014-01", "2014-01", ("2013-07",), ("2012-07",)),
    ("2015-01", S, ECF_2015, "2014-07", "2014-07", ("2014-01",), ("2013-01",)),
    ("2015-07", R, ECF_2015, "2015-01", "2015-01", ("2014-07",), ("2013-07",)),
]


@pytest.mark.parametrize(
    ("text", "rate", "rules", "previous", "other", "p1", "p2"),
    C19_TABLE,
    ids=[f"{row[1]}-{row[0]}" for row in C19_TABLE],
)
def test_c19_g33_g34_which_lists_a_list_reads(
    text: str,
    rate: Rate,
    rules: RuleSet,
    previous: str,
    other: str,
    p1: tuple[str, ...],
    p2: tuple[str, ...],
) -> None:
    lid = ListId.parse(text)
    assert rules_for(lid) is rules  # G31
    assert lid.previous_same_rate(rate) == ListId.parse(previous)  # G4, G33
    assert lid.previous_other_rate(rate) == ListId.parse(other)  # G5, G33
    assert lid.stored_by(rate, 1) == tuple(ListId.parse(t) for t in p1)  # G17, G34
    assert lid.stored_by(rate, 2) == tuple(ListId.parse(t) for t in p2)


def _start_from_the_other_rate(
    text: str, rate: Rate, other_rate_grades: Mapping[str, float]
) -> float:
    """A new adult's grade in the other-rate list that ``text`` reads (G5, G33)."""
    lid = ListId.parse(text)
    return other_rate_grades[str(lid.previous_other_rate(rate))]


def test_c19_rapid_2012_07_starts_from_standard_2012_01_133_g33() -> None:
    season = Season(list_id="2012-07", rate=Rate.RAPID)
    standard = {"2011-07": 120, "2012-01": 133}
    s = season.player(other_rate=_start_from_the_other_rate("2012-07", Rate.RAPID, standard))
    season.game(s, season.player(previous=130), "55", on=date(2012, 3, 3))
    entry = compute_list(season.build()).entry(s)
    assert entry.start_grade == 133
    assert entry.start_source is StartSource.OTHER_RATE


def test_c19_standard_2012_01_starts_from_rapid_2011_07_101_g33() -> None:
    season = Season(list_id="2012-01")
    u = season.player(
        other_rate=_start_from_the_other_rate("2012-01", Rate.STANDARD, {"2011-07": 101})
    )
    season.game(u, season.player(previous=110), "55", on=date(2011, 10, 1))
    entry = compute_list(season.build()).entry(u)
    assert entry.start_grade == 101
    assert entry.start_source is StartSource.OTHER_RATE
