"""The cycle collector paused over work that makes no cycles (ecfgrading.collector,
issue 25): off inside, on again after whatever happened, and left off if it was off."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ecfgrading.collector import collector_paused


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


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
