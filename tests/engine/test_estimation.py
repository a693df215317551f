"""G9: the iterative and the direct solve reach the same fixed point."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import ecfgrading.engine.estimation as estimation
from ecfgrading.engine import ListInputs, compute_list
from tests.engine.builders import Season
from tests.engine.seasons import seasons


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_g9_conjugate_gradients_reach_the_direct_fixed_point(inputs: ListInputs) -> None:
    direct = compute_list(inputs).players.start
    limit = estimation.DIRECT_LIMIT
    estimation.DIRECT_LIMIT = 0  # every system through conjugate gradients
    try:
        iterative = compute_list(inputs).players.start
    finally:
        estimation.DIRECT_LIMIT = limit
    assert np.allclose(iterative, direct, atol=1e-7, equal_nan=True)


def test_g9_a_large_web_of_new_players_is_solved_to_the_fixed_point() -> None:
    # 4,000 new players in a ring of draws, each also beating one of 40 graded
    # players (S 100): every equation is e = (e_left + e_right + 150) / 3 with a
    # ring, so every estimate is 150 (a fixed point by symmetry).
    season = Season()
    graded = [season.player(previous=100) for _ in range(40)]
    ring = [season.player() for _ in range(4000)]
    for i, u in enumerate(ring):
        season.game(u, ring[(i + 1) % len(ring)], "55")
        season.game(u, graded[i % 40], "10")
    outcome = compute_list(season.build())
    assert len(ring) > estimation.DIRECT_LIMIT
    assert outcome.players.start[ring] == pytest.approx(np.full(len(ring), 150.0))
