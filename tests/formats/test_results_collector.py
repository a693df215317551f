"""Reading a results file pauses the cycle collector (formats.results_reader): it must
make no reference cycles, so that what it drops is freed at once, and must leave the
collector as it found it, whatever happened."""

from __future__ import annotations

import gc

from ecfgrading.formats import parse_results, read_results_bytes
from tests.formats.samples import SPEC_EXAMPLE
from tests.garbage import garbage_kept


def test_reading_a_file_leaves_no_cyclic_garbage(collector_on: None) -> None:
    with garbage_kept() as garbage:
        results, report = parse_results(SPEC_EXAMPLE)
        assert results is not None and report.ok
        del results, report
        gc.collect()
        names = {type(thing).__module__ for thing in garbage}
    assert not {name for name in names if name.startswith("ecfgrading.formats")}


def test_the_collector_is_on_again_after_a_reading(collector_on: None) -> None:
    parse_results(SPEC_EXAMPLE)
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_strict_reading_stops(collector_on: None) -> None:
    text = SPEC_EXAMPLE.replace("#SCORE=10", "#SCORE=1-0")
    results, report = parse_results(text, strict=True)
    assert results is None
    assert report.codes() == ["bad-score"]
    assert gc.isenabled()


def test_a_collector_turned_off_is_left_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        results, _ = read_results_bytes(SPEC_EXAMPLE.encode())
        assert results is not None
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
