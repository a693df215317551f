"""The cycle collector paused over work that makes no cycles (ecfgrading.collector,
issue 25): off inside, on again after whatever happened, and left off if it was off."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ecfgrading.collector import BATCH_GC_THRESHOLD, collector_paused, fewer_collections


def test_the_collector_is_off_inside_and_on_again_after(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_an_error(collector_on: None) -> None:
    with pytest.raises(ZeroDivisionError), collector_paused():
        _ = 1 / 0
    assert gc.isenabled()


def test_a_collector_turned_off_is_left_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_pauses_nest_and_the_outer_one_turns_it_on_again(collector_on: None) -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause found it off: left off
    assert gc.isenabled()


# --- a batch: fewer collections, and what was alive before it never walked --------------


@pytest.fixture
def nothing_frozen() -> Iterator[None]:
    gc.unfreeze()
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_a_batch_freezes_what_was_alive_and_thaws_it_after(nothing_frozen: None) -> None:
    older: list[list[int]] = [[1]]  # a container alive before the batch
    threshold = gc.get_threshold()
    with fewer_collections():
        newer: list[list[int]] = [[2]]
        walked = {id(thing) for thing in gc.get_objects()}  # every generation but frozen
        assert id(older) not in walked and id(newer) in walked
        assert gc.get_threshold()[0] == max(threshold[0], BATCH_GC_THRESHOLD)
    assert gc.get_freeze_count() == 0
    assert id(older) in {id(thing) for thing in gc.get_objects()}
    assert gc.get_threshold() == threshold


def test_a_batch_cut_short_thaws_and_restores_all_the_same(nothing_frozen: None) -> None:
    threshold = gc.get_threshold()
    with pytest.raises(ZeroDivisionError), fewer_collections():
        _ = 1 / 0
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == threshold


def test_what_another_froze_stays_frozen(nothing_frozen: None) -> None:
    gc.freeze()  # as the demo does between its phases, or a server before it forks
    frozen = gc.get_freeze_count()
    with fewer_collections():
        assert gc.get_freeze_count() == frozen  # none added: nothing of ours to thaw
    assert gc.get_freeze_count() == frozen
