"""Writing results files: what is written reads back to equal values."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given, settings

from ecfgrading.engine.rateplay import Session, TimeControl
from ecfgrading.formats import (
    ResultsFile,
    parse_results,
    read_results,
    read_results_bytes,
    write_results,
)
from tests.formats.samples import SPEC_EXAMPLE, results_text
from tests.formats.strategies import results_files


def read(text: str) -> ResultsFile:
    results, _ = parse_results(text)
    assert results is not None
    return results


def test_the_spec_example_reads_back_equal_after_writing() -> None:
    example = read(SPEC_EXAMPLE)
    written = write_results(example)
    again, report = parse_results(written)
    assert again == example
    assert report.problems == ()


def test_written_files_end_with_finish_and_use_lf() -> None:
    written = write_results(read(SPEC_EXAMPLE))
    assert written.endswith("#FINISH\n")
    assert "\r" not in written


def test_a_written_file_puts_each_set_on_one_line() -> None:
    written = write_results(read(results_text()))
    assert "#PIN=1#ECF CODE=233310H#NAME=Able, Ann\n" in written
    assert "#PIN1=1#SCORE=10#PIN2=2#GAME DATE=11/05/2013#ROUND=1\n" in written


@pytest.mark.parametrize(
    ("control", "fields"),
    [
        (TimeControl((Session(90),)), "#MINUTES FOR GAME=90\n"),
        (
            TimeControl((Session(100, 40),), rest_minutes=30),
            "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n#MINUTES REST OF GAME=30\n",
        ),
        (
            TimeControl((Session(120, 40), Session(60, 20)), increment_seconds=30),
            "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=120\n"
            "#MOVES SECOND SESSION=20\n#MINUTES SECOND SESSION=60\n#SECONDS PER MOVE=30\n",
        ),
        (
            TimeControl((Session(92.5),), environment="Online"),
            "#MINUTES FOR GAME=92.5\n#ENVIRONMENT=Online\n",
        ),
    ],
)
def test_each_time_control_is_written_as_its_combination(control: TimeControl, fields: str) -> None:
    example = read(SPEC_EXAMPLE)
    written = write_results(replace(example, event=replace(example.event, time_control=control)))
    assert fields in written
    assert read(written).event.time_control == control


def test_a_flag_field_without_a_value_is_written_bare() -> None:
    example = read(SPEC_EXAMPLE)
    event = replace(example.event, inform_fide="", inform_union="Y")
    written = write_results(replace(example, event=event))
    assert "#INFORM FIDE\n" in written and "#INFORM UNION=Y\n" in written


@pytest.mark.parametrize("bad", ["Smith #2", "two\nlines", " padded"])
def test_it_refuses_a_value_a_results_file_cannot_carry(bad: str) -> None:
    example = read(SPEC_EXAMPLE)
    with pytest.raises(ValueError, match="expected a value without"):
        write_results(replace(example, event=replace(example.event, name=bad)))


@settings(max_examples=300, deadline=None)
@given(results_files)
def test_any_results_file_reads_back_equal_after_writing(results: ResultsFile) -> None:
    written = write_results(results)
    assert read(written) == results
    assert read_results(io.StringIO(written))[0] == results
    assert read_results_bytes(written.encode("utf-8"))[0] == results
