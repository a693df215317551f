"""Section 10: every grade can be checked by hand from its explanation."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from ecfgrading.engine import (
    ECF_2009,
    Category,
    Entry,
    Flag,
    ListId,
    Rate,
    StartSource,
    compute_list,
    format_explanation,
)
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.explain import (
    StoredGame,
    StoredGrade,
    StoredPeriod,
    StoredPeriodGame,
    explain,
    explain_stored,
)
from ecfgrading.engine.rules import rule_set
from tests.engine.builders import Season


def test_explanation_lists_every_p0_game_with_what_it_counted_as() -> None:
    season = Season()
    me = season.player(previous=150)
    weak = season.player(previous=90)
    season.game(me, weak, "10", on=date(2009, 9, 1))
    season.game(season.player(previous=200), me, "10", on=date(2009, 10, 1))
    season.game(me, season.player(previous=100), "1d", on=date(2009, 11, 1))  # G1
    expl = explain(compute_list(season.build()), me)
    assert [(g.opponent_start, g.counted_as, g.score, g.points) for g in expl.games] == [
        (90, 110, 1, 160),
        (200, 190, 0, 140),
    ]
    assert expl.games[0].opponent_id == 1000 + weak
    assert expl.entry.start_source is StartSource.PREVIOUS
    assert expl.points_total == pytest.approx(300)


def test_explanation_total_reproduces_the_grade() -> None:
    season = Season()
    me = season.player(previous=150)
    for score in ("10", "55", "01"):
        season.game(me, season.player(previous=140), score)
    season.history(me, 1, n=10, total=1200)
    expl = explain(compute_list(season.build()), me)
    entry = expl.entry
    assert expl.points_total / entry.games_counted == pytest.approx(entry.calculated)
    assert expl.forward[0].average == 120
    assert expl.forward[0].games == 10


def test_x_grade_explanation_brings_nothing_forward() -> None:
    season = Season(list_id="2011-01", rate=Rate.RAPID)
    me = season.player(previous=120)
    for _ in range(30):
        season.game(me, season.player(previous=120), "55", on=date(2010, 9, 4))
    season.game(me, season.player(previous=120), "10", on=date(2010, 1, 4))
    season.stored_game(me, 1, date(2009, 6, 1), 50)
    expl = explain(compute_list(season.build()), me)
    assert expl.x_grade
    assert expl.forward == ()
    assert expl.points_total == pytest.approx(30 * 120)


def test_text_breakdown_names_source_games_and_grade() -> None:
    season = Season()
    new = season.player()
    season.game(new, season.player(previous=100), "10")
    text = format_explanation(explain(compute_list(season.build()), new), {1000: "Bloggs, Joe"})
    assert text.startswith("Bloggs, Joe  standard list 2010-07")
    assert "Starting grade 150.00 (estimated)" in text
    assert "grade 150" in text
    assert "none (not published)" in text


def test_explaining_a_player_without_games_is_an_error() -> None:
    season = Season()
    idle = season.player(previous=100)
    season.game(season.player(previous=100), season.player(previous=100), "55")
    with pytest.raises(KeyError, match="no graded game"):
        explain(compute_list(season.build()), idle)


# --- explaining a stored grade from its version's rows (G17) -------------------------


def stored_entry(
    *,
    games_latest: int,
    category: Category = Category.A,
    junior_age: int | None = None,
    start: float = 150.0,
    flags: tuple[Flag, ...] = (),
) -> Entry:
    """An entry as a list version stored it; only what explaining reads matters."""
    return Entry(
        index=-1,
        player_id=7,
        grade=0,
        unrounded=0.0,
        calculated=0.0,
        category=category,
        games_latest=games_latest,
        games_counted=0,
        junior_age=junior_age,
        bonus=0.0,
        start_grade=start,
        start_source=StartSource.PREVIOUS,
        flags=flags,
        n1=0,
        n2=0,
    )


def stored_game(
    opponent_start: float, score: float, points: float, on: date = date(2009, 9, 1), gid: int = 1
) -> StoredGame:
    return StoredGame(gid, on, 100 + gid, opponent_start, score, points)


def draws(n: int, points: float = 130.0) -> tuple[StoredGame, ...]:
    return tuple(stored_game(points, 0.5, points, gid=i + 1) for i in range(n))


def test_g12_a_stored_game_counts_an_opponent_beyond_forty_points_as_forty_away() -> None:
    games = (
        stored_game(100, 1.0, 160, gid=1),  # 150 - 40 = 110, won: 160
        stored_game(200, 0.0, 140, gid=2),  # 150 + 40 = 190, lost: 140
        stored_game(130, 0.5, 130, gid=3),  # within 40: counts as 130
    )
    stored = StoredGrade(ListId(2010, 7), Rate.STANDARD, stored_entry(games_latest=3), games)
    expl = explain_stored(stored, ECF_2009)
    assert [(g.opponent_start, g.counted_as, g.score) for g in expl.games] == [
        (100, 110, 1.0),
        (200, 190, 0.0),
        (130, 130, 0.5),
    ]
    assert expl.points_total == pytest.approx(160 + 140 + 130)


def test_a_stored_grade_is_explained_with_the_cap_of_the_rule_set_its_version_names() -> None:
    narrow = replace(ECF_2009, name="test-narrow", cap=25.0)
    games = (stored_game(100, 1.0, 175),)
    stored = StoredGrade(ListId(2010, 7), Rate.STANDARD, stored_entry(games_latest=1), games)
    assert explain_stored(stored, narrow).games[0].counted_as == 125  # 150 - 25
    assert explain_stored(stored, ECF_2009).games[0].counted_as == 110  # 150 - 40


def test_g14_a_stored_standard_grade_brings_forward_notional_games_at_the_p1_average() -> None:
    # 20 games in P0, adult target 30: 10 notional games at 1800 / 15 = 120 each.
    stored = StoredGrade(
        ListId(2010, 7),
        Rate.STANDARD,
        stored_entry(games_latest=20),
        draws(20),
        p1=StoredPeriod(n=15, total=1800.0),
        p2=StoredPeriod(n=30, total=3000.0),
    )
    expl = explain_stored(stored, ECF_2009)
    assert [(f.period, f.games, f.average, f.points) for f in expl.forward] == [
        (1, 10, 120.0, 1200.0)
    ]
    assert expl.points_total == pytest.approx(20 * 130 + 1200)


def test_g14_a_stored_standard_grade_takes_from_p2_what_p1_lacks() -> None:
    # 20 in P0, 4 in P1 at 100, the other 6 from P2 at 2400 / 20 = 120.
    stored = StoredGrade(
        ListId(2010, 7),
        Rate.STANDARD,
        stored_entry(games_latest=20),
        draws(20),
        p1=StoredPeriod(n=4, total=400.0),
        p2=StoredPeriod(n=20, total=2400.0),
    )
    expl = explain_stored(stored, ECF_2009)
    assert [(f.period, f.games, f.average, f.points) for f in expl.forward] == [
        (1, 4, 100.0, 400.0),
        (2, 6, 120.0, 720.0),
    ]


def test_g18_a_stored_junior_grade_brings_forward_to_twenty_games() -> None:
    # 14 games in P0, junior target 20: 6 notional games at 900 / 10 = 90 (cf. C4).
    stored = StoredGrade(
        ListId(2012, 7),
        Rate.STANDARD,
        stored_entry(games_latest=14, category=Category.C, junior_age=12),
        draws(14),
        p1=StoredPeriod(n=10, total=900.0),
    )
    (forward,) = explain_stored(stored, ECF_2009).forward
    assert (forward.games, forward.average, forward.points) == (6, 90.0, 540.0)


def test_g15_a_stored_rapid_grade_brings_forward_the_most_recent_actual_games() -> None:
    # 28 games in P0, target 30: the two latest P1 games. Three share the latest date;
    # of those, the two recorded last (order 5 and 3) win the tie.
    p1_games = (
        StoredPeriodGame(11, date(2010, 3, 1), 9, 130.0),
        StoredPeriodGame(12, date(2010, 5, 1), 1, 70.0),
        StoredPeriodGame(13, date(2010, 5, 1), 5, 110.0),
        StoredPeriodGame(14, date(2010, 5, 1), 3, 90.0),
    )
    stored = StoredGrade(
        ListId(2011, 7),
        Rate.RAPID,
        stored_entry(games_latest=28),
        draws(28),
        p1=StoredPeriod(n=4, total=400.0, games=p1_games),
    )
    (forward,) = explain_stored(stored, ECF_2009).forward
    assert (forward.period, forward.games, forward.average) == (1, 2, None)
    assert sorted(line.game_id for line in forward.stored_games) == [13, 14]
    assert forward.points == 200.0


def test_g16_a_stored_x_grade_counts_only_h0_and_brings_nothing_forward() -> None:
    # List 2011-01: H0 is 1 June to 30 November 2010.
    games = (
        stored_game(120, 0.5, 120, on=date(2010, 6, 1), gid=1),
        stored_game(120, 0.5, 120, on=date(2010, 11, 30), gid=2),
        stored_game(120, 1.0, 170, on=date(2010, 5, 31), gid=3),  # before H0
    )
    p1 = StoredPeriod(n=1, total=50.0, games=(StoredPeriodGame(9, date(2009, 6, 1), 1, 50.0),))
    stored = StoredGrade(
        ListId(2011, 1), Rate.RAPID, stored_entry(games_latest=3, category=Category.X), games, p1
    )
    expl = explain_stored(stored, ECF_2009)
    assert expl.x_grade
    assert expl.forward == ()
    assert [g.in_h0 for g in expl.games] == [False, True, True]  # in date order
    assert expl.points_total == pytest.approx(240)


def test_a_stored_grade_shows_its_unanchored_flag_and_no_first_estimate() -> None:
    entry = stored_entry(games_latest=1, flags=(Flag.UNANCHORED,))
    stored = StoredGrade(ListId(2010, 7), Rate.STANDARD, entry, (stored_game(150, 0.5, 150),))
    expl = explain_stored(stored, ECF_2009)
    assert expl.unanchored
    assert expl.first_estimate is None


@pytest.mark.parametrize(("list_id", "rate"), [("2011-07", Rate.RAPID), ("2013-07", Rate.STANDARD)])
def test_it_rejects_stored_games_that_disagree_with_the_stored_count_g15_g35(
    list_id: str, rate: Rate
) -> None:
    """Rapid lists (G15) and every list from 2012 (G35, G38) read P1 game by game."""
    stored = StoredGrade(
        ListId.parse(list_id),
        rate,
        stored_entry(games_latest=1),
        (),
        p1=StoredPeriod(n=2, total=200.0, games=(StoredPeriodGame(1, None, 1, 100.0),)),
    )
    with pytest.raises(ValueError, match="expected 2 stored games for P1, got 1"):
        explain_stored(stored, rules_for(stored.list_id))


def test_a_stored_grade_explains_as_the_computation_that_stored_it() -> None:
    season = Season()
    me = season.player(previous=150)
    season.game(me, season.player(previous=90), "10", on=date(2009, 9, 1))
    season.game(season.player(previous=200), me, "55", on=date(2009, 10, 1))
    season.history(me, 1, n=10, total=1200)
    outcome = compute_list(season.build())
    fresh = explain(outcome, me)
    games = tuple(
        StoredGame(g.game_id, g.date, g.opponent_id, g.opponent_start, g.score, g.points)
        for g in fresh.games
    )
    stored = StoredGrade(
        ListId(2010, 7), Rate.STANDARD, fresh.entry, games, p1=StoredPeriod(10, 1200.0)
    )
    again = explain_stored(stored, ECF_2009)
    assert [(g.counted_as, g.points) for g in again.games] == [(110, 160), (190, 190)]
    assert again.forward == fresh.forward
    assert again.points_total == pytest.approx(fresh.points_total)
    assert again.points_total == pytest.approx(160 + 190 + 10 * 120)


def test_the_rule_set_a_version_names_is_found_by_name() -> None:
    assert rule_set("ecf-2009") is ECF_2009


def test_it_rejects_an_unknown_rule_set_naming_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown rule set 'ecf-2099' \(known: ecf-2009, ecf-2012, ecf-2015\)"
    ):
        rule_set("ecf-2099")
