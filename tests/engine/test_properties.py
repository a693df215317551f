"""Properties of random seasons: the fast engine against the rules and a literal oracle.

The engine is compared with the reference under each rule set (ecf-2009, ecf-2012,
ecf-2015): on lists of that rule set's era computed by default (G31), and on lists of
the other eras computed under it explicitly (a what-if, G31).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecfgrading.engine import Category, ListInputs, ListOutcome, ResultCode, RuleSet, compute_list
from ecfgrading.engine.categories import CATEGORY_CODES
from ecfgrading.engine.inputs import GameTable, History, PlayerTable, StoredGames
from ecfgrading.engine.starting import SOURCE_CODES
from ecfgrading.engine.types import StartSource
from tests.engine.reference import RefResult, method_of, reference_compute, rules_of_date
from tests.engine.reference import category as table_category
from tests.engine.seasons import ALL_RULES, seasons

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


BY_RULES = pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.name)


@BY_RULES
@PROPERTY
@given(st.data())
def test_engine_agrees_with_the_reference_under_the_rule_set_of_the_date(
    rules: RuleSet, data: st.DataObject
) -> None:
    inputs = data.draw(seasons(eras=(rules,)), label="inputs")
    outcome = compute_list(inputs)
    assert outcome.rules == rules  # G31
    assert_agrees(outcome, reference_compute(inputs))


@BY_RULES
@PROPERTY
@given(st.data())
def test_engine_agrees_with_the_reference_under_another_rule_set(
    rules: RuleSet, data: st.DataObject
) -> None:
    others = tuple(other for other in ALL_RULES if other != rules)
    inputs = data.draw(seasons(eras=others, rules=rules), label="inputs")
    outcome = compute_list(inputs, rules)  # a what-if (G31): the date's periods, this method
    assert outcome.rules == rules
    assert_agrees(outcome, reference_compute(inputs, rules))


def assert_agrees(outcome: ListOutcome, expected: dict[int, RefResult]) -> None:
    assert set(np.flatnonzero(outcome.players.active)) == set(expected)
    for index, ref in expected.items():
        entry = outcome.entry(index)
        assert entry.start_source is ref.source
        assert entry.start_grade == pytest.approx(ref.start, abs=1e-6)
        assert entry.unrounded == pytest.approx(ref.unrounded, abs=1e-6)
        if abs(ref.unrounded % 1 - 0.5) > 1e-6:  # away from a rounding knife edge
            assert entry.grade == ref.grade
        assert (entry.category, entry.games_latest, entry.games_counted) == (
            ref.category,
            ref.games_latest,
            ref.games_counted,
        )
        assert entry.bonus == ref.bonus
        assert bool(entry.flags) == ref.unanchored
    assert_counted_sides(outcome, expected)


def assert_counted_sides(outcome: ListOutcome, expected: dict[int, RefResult]) -> None:
    """ListOutcome.counted: the sides of P0 games in each grade (G35: the N most recent;
    otherwise every graded game; X grades count their H0 games whatever it says)."""
    games = outcome.inputs.games
    counted1, counted2 = outcome.counted or (outcome.graded, outcome.graded)
    assert not counted1[~outcome.graded].any() and not counted2[~outcome.graded].any()
    for g in np.flatnonzero(outcome.graded):
        for player, counted in ((games.player1[g], counted1), (games.player2[g], counted2)):
            ref = expected[int(player)]
            if ref.category is not Category.X:
                assert bool(counted[g]) == (int(g) in ref.counted), (int(player), int(g))


@PROPERTY
@given(seasons())
def test_g9_estimates_satisfy_the_fixed_point_equations(inputs: ListInputs) -> None:
    outcome = compute_list(inputs)
    cols = outcome.players
    estimated = cols.source == SOURCE_CODES.index(StartSource.ESTIMATED)
    history = inputs.history
    for u in np.flatnonzero(estimated & ~cols.unanchored):
        total, count = 0.0, 0.0
        for g in np.flatnonzero(outcome.graded):
            p1, p2 = inputs.games.player1[g], inputs.games.player2[g]
            if u not in (p1, p2):
                continue
            s1 = ResultCode(int(inputs.games.result[g])).score1
            score, opponent = (s1, p2) if p1 == u else (1 - s1, p1)
            total += cols.start[opponent] + 100 * score - 50
            count += 1
        if not cols.junior[u]:  # G10
            total += history.p1.total[u] + history.p2.total[u]
            count += history.p1.n[u] + history.p2.n[u]
        assert cols.start[u] == pytest.approx(max(0.0, total / count), abs=1e-6)


@PROPERTY
@given(seasons(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_the_order_of_games_or_players(
    inputs: ListInputs, random: object
) -> None:
    shuffled, new_index = _shuffled(inputs, np.random.default_rng(random.randint(0, 2**32)))  # type: ignore[attr-defined]
    first, second = compute_list(inputs), compute_list(shuffled)
    for old in np.flatnonzero(first.players.active):
        a, b = first.entry(int(old)), second.entry(int(new_index[old]))
        assert a.player_id == b.player_id
        assert b.unrounded == pytest.approx(a.unrounded, abs=1e-7)
        assert b.start_grade == pytest.approx(a.start_grade, abs=1e-7)
        assert (b.category, b.games_counted, b.start_source) == (
            a.category,
            a.games_counted,
            a.start_source,
        )


@PROPERTY
@given(seasons())
def test_published_grades_are_whole_numbers_not_below_zero(inputs: ListInputs) -> None:
    outcome = compute_list(inputs)
    for entry in outcome.entries():
        assert isinstance(entry.grade, int)
        assert entry.grade >= 0
        assert entry.grade == int(np.floor(entry.unrounded + 0.5))


@PROPERTY
@given(seasons())
def test_every_points_value_lies_within_ninety_of_the_own_start(inputs: ListInputs) -> None:
    outcome = compute_list(inputs)
    start, games = outcome.players.start, inputs.games
    for g in np.flatnonzero(outcome.graded):
        own1, own2 = start[games.player1[g]], start[games.player2[g]]
        assert own1 - 90 - 1e-9 <= outcome.points.points1[g] <= own1 + 90 + 1e-9
        assert own2 - 90 - 1e-9 <= outcome.points.points2[g] <= own2 + 90 + 1e-9


@PROPERTY
@given(st.data())
def test_published_exactly_when_the_table_gives_a_category(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from((None, *ALL_RULES)), label="rules")
    inputs = data.draw(seasons(rules=rules), label="inputs")
    outcome = compute_list(inputs, rules)
    used = rules or rules_of_date(inputs.list_id)
    assert outcome.rules == used
    x_applies = inputs.rate in method_of(used).x_rates  # G16, G36, G37
    cols = outcome.players
    for entry in outcome.entries():
        i = entry.index
        if x_applies:
            assert bool(cols.x_grade[i]) == (int(cols.h0[i]) >= used.x_min_games)
        if cols.x_grade[i]:
            assert x_applies
            assert entry.category is Category.X
            continue
        n = (int(cols.n0[i]), entry.n1, entry.n2)
        expected = table_category(bool(cols.junior[i]), *n, used)  # G23, G39
        assert entry.category is expected
        assert bool(outcome.published[i]) == (expected is not Category.NONE)
    assert not outcome.published[~cols.active].any()


@PROPERTY
@given(seasons(), st.sampled_from([ResultCode.DEFAULT_WIN, ResultCode.DEFAULT_LOSS]))
def test_removing_a_default_result_changes_nothing(inputs: ListInputs, code: ResultCode) -> None:
    games = inputs.games
    defaults = np.flatnonzero(
        (games.result == ResultCode.DEFAULT_WIN)
        | (games.result == ResultCode.DEFAULT_LOSS)
        | (games.result == ResultCode.DOUBLE_DEFAULT)
    )
    with_default = _with_extra_default(inputs, code)
    before, after = compute_list(inputs), compute_list(with_default)
    assert np.array_equal(before.players.grade, after.players.grade)
    assert np.array_equal(before.players.category, after.players.category)
    assert not after.graded[-1]
    assert not before.graded[defaults].any()


def _with_extra_default(inputs: ListInputs, code: ResultCode) -> ListInputs:
    g = inputs.games
    day = np.datetime64(inputs.list_id.p0().start, "D")
    extra = GameTable.of(
        ids=np.r_[g.ids, g.ids.max(initial=0) + 1],
        player1=np.r_[g.player1, 0],
        player2=np.r_[g.player2, 1],
        result=np.r_[g.result, int(code)],
        date=np.r_[g.date, day],
        rate=np.r_[g.rate, g.rate[0] if len(g) else 0],
    )
    return replace(inputs, games=extra)


def _shuffled(inputs: ListInputs, rng: np.random.Generator) -> tuple[ListInputs, np.ndarray]:
    """The same season with players and games in another order."""
    players, games, history = inputs.players, inputs.games, inputs.history
    order = rng.permutation(len(players))  # new position -> old index
    new_index = np.empty_like(order)
    new_index[order] = np.arange(order.size)
    table = PlayerTable.of(
        players.ids[order],
        players.previous[order],
        players.other_rate[order],
        players.assigned[order],
        players.birth[order],
    )
    g = rng.permutation(len(games))
    game_table = GameTable.of(
        games.ids[g],
        new_index[games.player1[g]],
        new_index[games.player2[g]],
        games.result[g],
        games.date[g],
        games.rate[g],
    )
    stored = history.games
    s = rng.permutation(len(stored))
    new_history = History(
        replace(history.p1, n=history.p1.n[order], total=history.p1.total[order]),
        replace(history.p2, n=history.p2.n[order], total=history.p2.total[order]),
        StoredGames.of(
            stored.game_ids[s],
            new_index[stored.player[s]],
            stored.period[s],
            stored.date[s],
            stored.order[s],
            stored.points[s],
        ),
    )
    return ListInputs(inputs.list_id, inputs.rate, table, game_table, new_history), new_index


def test_category_codes_cover_every_category() -> None:
    assert set(CATEGORY_CODES) == set(Category)
