"""One or more tests per rule G1..G30 of grading-rules.md; figures by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import numpy as np
import pytest

from ecfgrading.engine import (
    ECF_2009,
    Category,
    Flag,
    GradingCode,
    ListId,
    NotGraded,
    Rate,
    ResultCode,
    StartSource,
    TimeControl,
    check_letter,
    compute_list,
    ecf_to_fide,
    fide_to_ecf,
    next_code,
    rate_of_play,
)
from ecfgrading.engine.conversions import below_fide_minimum
from tests.engine.builders import Season


def grade_of(season: Season, player: int) -> int:
    return compute_list(season.build()).entry(player).grade


# --- 2. Which games are graded -------------------------------------------------------


@pytest.mark.parametrize("score", ["1d", "d1", "dd"])
def test_g1_defaults_are_recorded_but_never_graded(score: str) -> None:
    season = Season()
    me, other = season.player(previous=100), season.player(previous=100)
    season.game(me, other, "55")
    season.game(me, season.player(previous=100), score)
    outcome = compute_list(season.build())
    assert outcome.entry(me).games_latest == 1
    assert outcome.graded.tolist() == [True, False]
    assert not ResultCode.from_text(score).graded


def test_g1_result_codes_read_from_the_file_side_of_pin1() -> None:
    assert ResultCode.from_text("10").score1 == 1
    assert ResultCode.from_text("01").score1 == 0
    assert ResultCode.from_text("55").score1 == 0.5
    with pytest.raises(ValueError, match="expected SCORE 10, 01, 55, 1d, d1 or dd, got '1-0'"):
        ResultCode.from_text("1-0")


@pytest.mark.parametrize(
    ("control", "expected"),
    [
        (TimeControl.game(14, 0), NotGraded.LIGHTNING),
        (TimeControl.game(15, 0), Rate.RAPID),
        (TimeControl.game(60, 0), Rate.STANDARD),
        (
            TimeControl.game(
                90,
                30,
            ),
            Rate.STANDARD,
        ),
        (replace(TimeControl.game(90), environment="online"), NotGraded.ONLINE),
        (replace(TimeControl.game(90), environment="correspondence"), NotGraded.CORRESPONDENCE),
        (replace(TimeControl.game(90), clocks=False), NotGraded.NO_CLOCK),
    ],
)
def test_g2_rate_of_play_from_the_time_control(
    control: TimeControl, expected: Rate | NotGraded
) -> None:
    assert rate_of_play(control) == expected


def test_g2_increment_counts_over_sixty_moves() -> None:
    assert TimeControl.game(15, 10).total_minutes() == 25
    assert TimeControl.game(55, 5).total_minutes() == 60


def test_g3_only_games_of_the_lists_rate_and_periods_count() -> None:
    season = Season()  # standard 2010-07: P0 is 1 June 2009 .. 31 May 2010
    me = season.player(previous=100)
    opponent = season.player(previous=100)
    season.game(me, opponent, "10", on=date(2009, 6, 1))  # first day of P0
    season.game(me, opponent, "10", on=date(2010, 5, 31))  # last day of P0
    season.game(me, opponent, "10", on=date(2009, 5, 31))  # P1: not a P0 game
    season.game(me, opponent, "10", on=date(2010, 6, 1))  # next season
    season.game(me, opponent, "10", rate=Rate.RAPID)  # other rate
    outcome = compute_list(season.build())
    assert outcome.graded.tolist() == [True, True, False, False, False]
    assert outcome.entry(me).games_latest == 2


# --- 3. Starting grades ------------------------------------------------------------------


def _start(**player: float) -> tuple[float, StartSource]:
    season = Season()
    me = season.player(**player)  # type: ignore[arg-type]
    season.game(me, season.player(previous=100), "55")
    entry = compute_list(season.build()).entry(me)
    return entry.start_grade, entry.start_source


def test_g4_previous_grade_is_the_starting_grade() -> None:
    assert _start(previous=123, other_rate=99, assigned=80) == (123, StartSource.PREVIOUS)


def test_g4_a_previous_grade_of_zero_is_not_a_grade() -> None:
    assert _start(previous=0, other_rate=99) == (99, StartSource.OTHER_RATE)


def test_g5_other_rate_grade_when_no_previous_grade() -> None:
    assert _start(other_rate=99, assigned=80) == (99, StartSource.OTHER_RATE)


def test_g5_other_rate_grade_of_zero_is_not_used() -> None:
    assert _start(other_rate=0, assigned=80) == (80, StartSource.ASSIGNED)


def test_g6_assigned_grade_wins_over_estimation_for_juniors_too() -> None:
    season = Season()
    junior = season.player(previous=150, assigned=95, birth=date(1999, 1, 1))
    season.game(junior, season.player(previous=100), "10")
    entry = compute_list(season.build()).entry(junior)
    assert (entry.start_grade, entry.start_source) == (95, StartSource.ASSIGNED)


def test_g7_a_juniors_previous_grade_is_not_his_starting_grade() -> None:
    season = Season()
    junior = season.player(previous=150, other_rate=140, birth=date(1999, 1, 1))
    season.game(junior, season.player(previous=100), "55")
    entry = compute_list(season.build()).entry(junior)
    assert entry.start_source is StartSource.ESTIMATED
    assert entry.start_grade == pytest.approx(100)  # a draw against 100


def test_g8_stage_one_uses_only_games_against_fixed_players() -> None:
    season = Season()
    new, other_new = season.player(), season.player()
    season.game(new, season.player(previous=100), "10")  # 150
    season.game(new, season.player(previous=120), "01")  # 70
    season.game(new, other_new, "10")  # ignored in stage 1
    outcome = compute_list(season.build())
    assert outcome.players.first_estimate[new] == pytest.approx(110)
    assert np.isnan(outcome.players.first_estimate[other_new])


def test_g9_estimates_are_floored_at_zero() -> None:
    season = Season()
    new = season.player()
    season.game(new, season.player(previous=20), "01")  # 20 - 50 = -30
    assert compute_list(season.build()).entry(new).start_grade == 0


def test_g9_floor_feeds_the_fixed_point_of_a_neighbour() -> None:
    # u loses to a (S 20): alone -30, floored 0. w draws with u and with b (S 100).
    # Fixed point: u = (-30 + w) / 2, w = (u + 100) / 2, so 1.5 u = 20:
    # u = 40/3 > 0, no floor binds; w = (40/3 + 100) / 2 = 170/3 (by hand).
    season = Season()
    u, w = season.player(), season.player()
    season.game(u, season.player(previous=20), "01")
    season.game(u, w, "55")
    season.game(w, season.player(previous=100), "55")
    start = compute_list(season.build()).players.start
    assert start[u] == pytest.approx(40 / 3)
    assert start[w] == pytest.approx(170 / 3)


def test_g9_floor_binds_and_the_neighbour_sees_zero() -> None:
    # u loses to a (S 0) twice and draws with w: unfloored u = (-100 + w) / 3.
    # w draws with u and with b (S 60): w = (u + 60) / 2.
    # Unfloored: u = -28, negative, so u = 0 and w = (0 + 60) / 2 = 30;
    # then u's own mean (-50 - 50 + 30) / 3 < 0 keeps the floor.
    season = Season()
    u, w = season.player(), season.player()
    zero = season.player(assigned=0)
    season.game(u, zero, "01")
    season.game(u, zero, "01")
    season.game(u, w, "55")
    season.game(w, season.player(previous=60), "55")
    start = compute_list(season.build()).players.start
    assert start[u] == 0
    assert start[w] == pytest.approx(30)


def test_g10_adults_history_counts_in_estimation() -> None:
    season = Season()
    me = season.player(previous=0)  # on record, never published above zero
    season.history(me, 1, n=10, total=1000)
    for _ in range(2):
        season.game(me, season.player(previous=150), "55")
    expected = (150 + 150 + 1000) / 12
    assert compute_list(season.build()).entry(me).start_grade == pytest.approx(expected)


def test_g10_juniors_history_does_not_count_in_estimation() -> None:
    season = Season()
    junior = season.player(birth=date(2000, 1, 1))
    season.history(junior, 1, n=10, total=1000)
    season.game(junior, season.player(previous=150), "55")
    assert compute_list(season.build()).entry(junior).start_grade == pytest.approx(150)


def test_g10_history_anchors_a_pool_that_plays_only_itself() -> None:
    season = Season()
    x, y = season.player(), season.player()
    season.history(x, 2, n=2, total=200)
    season.game(x, y, "10")
    # x = (y + 50 + 200) / 3, y = x - 50  ->  x = 100, y = 50
    outcome = compute_list(season.build())
    assert outcome.players.start[x] == pytest.approx(100)
    assert outcome.players.start[y] == pytest.approx(50)
    assert not outcome.players.unanchored.any()


def test_g11_closed_pool_mean_is_a_rule_parameter() -> None:
    season = Season()
    x, y = season.player(), season.player()
    season.game(x, y, "10")
    season.game(x, y, "10")
    rules = replace(ECF_2009, closed_pool_grade=100.0)
    outcome = compute_list(season.build(), rules)
    assert outcome.players.start[x] == pytest.approx(125)
    assert outcome.players.start[y] == pytest.approx(75)
    assert outcome.entry(y).flags == (Flag.UNANCHORED,)


def test_g11_anchored_players_are_not_flagged() -> None:
    season = Season()
    new = season.player()
    season.game(new, season.player(previous=100), "55")
    assert compute_list(season.build()).entry(new).flags == ()


# --- 4. Points per game -----------------------------------------------------------------


def test_g12_inside_the_cap_the_opponent_counts_at_his_grade() -> None:
    season = Season()
    me = season.player(previous=150)
    game = season.game(me, season.player(previous=189), "10")
    assert compute_list(season.build()).points.points1[game] == 239


def test_g13_points_use_starting_grades_in_one_pass() -> None:
    # me (S 100) beats b (S 100) twice: his new grade is 150, but b's points use 100.
    season = Season()
    me, b = season.player(previous=100), season.player(previous=100)
    season.game(me, b, "10")
    season.game(b, me, "01")
    outcome = compute_list(season.build())
    assert outcome.entry(me).grade == 150
    assert outcome.entry(b).grade == 50


# --- 5. From points to a grade ---------------------------------------------------------


def test_g14_notional_games_stop_at_the_target() -> None:
    season = Season()
    me = season.player(previous=100)
    for _ in range(25):
        season.game(me, season.player(previous=100), "55")  # 2500
    season.history(me, 1, n=40, total=4800)  # average 120, only 5 needed
    season.history(me, 2, n=40, total=0)
    entry = compute_list(season.build()).entry(me)
    assert entry.unrounded == pytest.approx((2500 + 5 * 120) / 30)
    assert entry.games_counted == 30


def test_g15_rapid_takes_from_p2_when_p1_is_short() -> None:
    season = Season(rate=Rate.RAPID)
    me = season.player(previous=100)
    for _ in range(27):
        season.game(me, season.player(previous=100), "55", on=date(2009, 8, 1))
    season.stored_game(me, 1, date(2009, 1, 1), 70)
    season.stored_game(me, 2, date(2008, 5, 1), 40)
    season.stored_game(me, 2, date(2008, 4, 1), 10)
    season.stored_game(me, 2, date(2007, 7, 1), 999)
    entry = compute_list(season.build()).entry(me)
    assert entry.unrounded == pytest.approx((2700 + 70 + 40 + 10) / 30)


def test_g16_x_takes_precedence_for_juniors_too_and_keeps_the_bonus() -> None:
    season = Season(list_id="2010-07", rate=Rate.RAPID)  # H0: Dec 2009 .. May 2010
    junior = season.player(birth=date(1996, 1, 1))  # 14 on 31 August 2010
    for _ in range(30):
        season.game(junior, season.player(previous=100), "55", on=date(2010, 1, 9))
    season.game(junior, season.player(previous=100), "10", on=date(2009, 7, 9))
    entry = compute_list(season.build()).entry(junior)
    assert entry.category is Category.X
    # The estimate uses all P0 games, (30 x 100 + 150) / 31 = 101.6; each H0 draw
    # counts 100 (inside the cap), so the H0 mean is exactly 100, plus the bonus of 5.
    assert entry.grade == 100 + 5
    assert (entry.games_latest, entry.games_counted) == (31, 30)


def test_g16_x_is_rapid_only() -> None:
    season = Season()
    me = season.player(previous=100)
    for _ in range(30):
        season.game(me, season.player(previous=100), "55", on=date(2010, 1, 9))
    assert compute_list(season.build()).entry(me).category is Category.A


def test_g17_a_period_with_nothing_stored_contributes_nothing() -> None:
    season = Season()
    me = season.player(previous=100)
    for score in ("10", "55", "01", "10"):
        season.game(me, season.player(previous=100), score)
    entry = compute_list(season.build()).entry(me)
    assert entry.unrounded == pytest.approx((150 + 100 + 50 + 150) / 4)
    assert entry.games_counted == 4


def test_g17_points_and_totals_are_there_to_store_for_unpublished_players() -> None:
    season = Season()
    me = season.player()
    game = season.game(me, season.player(previous=100), "10")
    outcome = compute_list(season.build())
    assert outcome.players.active[me]
    assert outcome.players.n0[me] == 1
    assert outcome.players.t0[me] == pytest.approx(outcome.points.points1[game])
    assert not outcome.entry(me).published


def test_g18_junior_with_twenty_games_uses_only_p0() -> None:
    season = Season()
    junior = season.player(birth=date(1997, 1, 1))
    for _ in range(20):
        season.game(junior, season.player(previous=100), "55")
    season.history(junior, 1, n=30, total=0)
    entry = compute_list(season.build()).entry(junior)
    assert entry.calculated == pytest.approx(100)
    assert entry.games_counted == 20
    assert entry.category is Category.B  # junior table: n0 >= 20


def test_g19_adult_with_thirty_games_uses_only_p0() -> None:
    season = Season()
    me = season.player(previous=100)
    for _ in range(30):
        season.game(me, season.player(previous=100), "10")
    season.history(me, 1, n=30, total=0)
    entry = compute_list(season.build()).entry(me)
    assert entry.unrounded == pytest.approx(150)
    assert (entry.games_counted, entry.category) == (30, Category.A)


# --- 6. Finishing the grade --------------------------------------------------------------


@pytest.mark.parametrize(
    ("birth", "age", "bonus"),
    [
        (date(2000, 8, 31), 10, 10),  # 10 on 31 August 2010
        (date(2000, 9, 1), 9, 10),
        (date(1999, 8, 31), 11, 5),
        (date(1993, 8, 31), 17, 5),
        (date(1992, 8, 31), None, 0),  # 18: an adult
        (None, None, 0),  # unknown age: never a junior
    ],
)
def test_g20_junior_bonus_by_age_on_the_age_date(
    birth: date | None, age: int | None, bonus: float
) -> None:
    season = Season()
    me = season.player(birth=birth, assigned=100)
    season.game(me, season.player(previous=100), "55")
    entry = compute_list(season.build()).entry(me)
    assert (entry.junior_age, entry.bonus, entry.grade) == (age, bonus, 100 + bonus)


def test_g21_negative_result_is_published_as_zero() -> None:
    season = Season()
    me = season.player(previous=10)
    season.game(me, season.player(previous=0.0001), "01")
    entry = compute_list(season.build()).entry(me)
    assert entry.calculated < 0
    assert (entry.unrounded, entry.grade) == (0, 0)


@pytest.mark.parametrize(("opponent", "grade"), [(101, 101), (100.98, 100)])
def test_g22_rounding_half_up(opponent: float, grade: int) -> None:
    season = Season()
    me = season.player(previous=100)
    season.game(me, season.player(previous=opponent), "55")
    season.game(me, season.player(previous=100), "55")
    assert grade_of(season, me) == grade  # means 100.5 and 100.49


# --- 7. Categories -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("junior", "n0", "n1", "n2", "expected"),
    [
        (False, 30, 0, 0, Category.A),
        (False, 20, 10, 0, Category.B),
        (False, 20, 9, 0, Category.D),  # 29 in three periods: not B, not C
        (False, 10, 10, 10, Category.C),
        (False, 9, 21, 0, Category.D),
        (False, 5, 10, 0, Category.D),
        (False, 4, 20, 20, Category.E),
        (False, 1, 8, 0, Category.E),
        (False, 1, 7, 0, Category.NONE),
        (True, 20, 0, 0, Category.B),
        (True, 10, 10, 0, Category.C),
        (True, 10, 9, 0, Category.D),
        (True, 5, 5, 5, Category.D),
        (True, 1, 4, 4, Category.E),
        (True, 1, 4, 3, Category.NONE),
    ],
)
def test_g23_category_table(junior: bool, n0: int, n1: int, n2: int, expected: Category) -> None:
    season = Season()
    me = season.player(previous=100, birth=date(1999, 1, 1) if junior else None)
    for _ in range(n0):
        season.game(me, season.player(previous=100), "55")
    season.history(me, 1, n=n1, total=100.0 * n1)
    season.history(me, 2, n=n2, total=100.0 * n2)
    outcome = compute_list(season.build())
    assert outcome.entry(me).category is expected
    assert bool(outcome.published[me]) == (expected is not Category.NONE)


def test_g23_adult_b_needs_thirty_with_p1_else_c() -> None:
    season = Season()
    me = season.player(previous=100)
    for _ in range(20):
        season.game(me, season.player(previous=100), "55")
    season.history(me, 1, n=9, total=900)
    season.history(me, 2, n=1, total=100)
    assert compute_list(season.build()).entry(me).category is Category.C


def test_g24_games_shown_are_latest_and_counted() -> None:
    season = Season()
    me = season.player(previous=100)
    for _ in range(7):
        season.game(me, season.player(previous=100), "55")
    season.history(me, 1, n=4, total=400)
    entry = compute_list(season.build()).entry(me)
    assert (entry.games_latest, entry.games_counted) == (7, 11)


def test_g25_only_juniors_have_an_age_and_no_birth_date_is_in_an_entry() -> None:
    season = Season()
    junior = season.player(birth=date(2001, 2, 3), assigned=80)
    adult = season.player(birth=date(1970, 2, 3), previous=120)
    season.game(junior, adult, "55")
    outcome = compute_list(season.build())
    assert outcome.entry(junior).junior_age == 9
    assert outcome.entry(adult).junior_age is None
    assert not any(isinstance(value, date) for value in vars(outcome.entry(junior)).values())


# --- 8. Revisions -------------------------------------------------------------------------


def test_g26_a_rerun_on_the_same_data_gives_the_same_list_and_changes_no_input() -> None:
    season = Season()
    new = season.player()
    for grade in (100, 120, 140):
        season.game(new, season.player(previous=grade), "10")
    inputs = season.build()
    before = inputs.players.previous.copy()
    first, second = compute_list(inputs), compute_list(inputs)
    assert np.array_equal(first.players.unrounded, second.players.unrounded, equal_nan=True)
    assert np.array_equal(inputs.players.previous, before, equal_nan=True)
    with pytest.raises(ValueError, match="read-only"):
        inputs.players.previous[0] = 1.0


def test_g27_the_next_list_starts_from_the_latest_revision() -> None:
    lid = ListId.parse("2011-07")
    assert lid.previous_same_rate(Rate.STANDARD) == ListId.parse("2010-07")
    season = Season(list_id="2011-07")
    me = season.player(previous=131)  # the revised (current) grade, not August's
    season.game(me, season.player(previous=131), "55")
    entry = compute_list(season.build()).entry(me)
    assert (entry.start_grade, entry.start_source) == (131, StartSource.PREVIOUS)


# --- 9. Identifiers and conversions -----------------------------------------------------


def test_g28_check_letter_and_sequential_issue() -> None:
    assert check_letter(233310) == "H"
    assert str(next_code(233309)) == "233310H"
    assert str(next_code(99)) == "000100" + check_letter(100)
    assert GradingCode.parse(" 261619b ") == GradingCode(261619)


def test_g29_conversions_are_not_clamped_but_flag_the_fide_minimum() -> None:
    assert ecf_to_fide(60) == 1130
    assert below_fide_minimum(ecf_to_fide(60))
    assert not below_fide_minimum(ecf_to_fide(70))


def test_g30_starting_grade_assigned_from_a_fide_rating() -> None:
    assigned = fide_to_ecf(1850)
    assert _start(assigned=assigned) == (150, StartSource.ASSIGNED)
