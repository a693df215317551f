"""Section 10: every grade can be checked by hand from its explanation."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import Rate, StartSource, compute_list, explain, format_explanation
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
