"""Whatever it is given, the reader returns a report and never raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.formats import (
    PROBLEM_CODES,
    Problems,
    parse_results,
    read_results_bytes,
    write_results,
)
from ecfgrading.formats.results_fields import ALL_FIELDS
from tests.formats.samples import SPEC_EXAMPLE, results_text
from tests.formats.strategies import results_files

FIELD_NAMES = sorted(ALL_FIELDS | {"FINISH", "TABLE START", "TABLE END"})
VALUES = st.sampled_from(["", "1", "2", "10", "55", "dd", "11/05/2013", "31/02/2013", "W", "x"])


def assert_well_formed(results: object, report: Problems) -> None:
    assert isinstance(report, Problems)
    for problem in report:
        assert problem.code in PROBLEM_CODES
        assert problem.severity == PROBLEM_CODES[problem.code].severity
        assert problem.line >= 1
        assert problem.message.endswith(f"(line {problem.line})")
    lines = [problem.line for problem in report]
    assert lines == sorted(lines)
    if results is None:
        assert not report.ok


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_random_text_never_raises(text: str) -> None:
    assert_well_formed(*parse_results(text))


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_random_bytes_never_raise(data: bytes) -> None:
    assert_well_formed(*read_results_bytes(data))


@st.composite
def field_soup(draw: st.DrawFn) -> str:
    """Lines of real field names with plausible and implausible values."""
    fields = draw(
        st.lists(st.tuples(st.sampled_from(FIELD_NAMES), VALUES | st.text(max_size=5)), max_size=40)
    )
    breaks = draw(st.lists(st.booleans(), min_size=len(fields), max_size=len(fields)))
    return "".join(
        f"#{name}={value}" + ("\n" if brk else "")
        for (name, value), brk in zip(fields, breaks, strict=True)
    )


@settings(max_examples=300, deadline=None)
@given(field_soup(), st.booleans())
def test_real_field_names_in_any_order_never_raise(soup: str, strict: bool) -> None:
    assert_well_formed(*parse_results("#EVENT DETAILS\n" + soup, strict=strict))


@st.composite
def mutated(draw: st.DrawFn, original: str) -> str:
    """The file with a few lines deleted, duplicated, swapped or spliced with junk."""
    lines = original.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "swap", "splice", "cut"]))
        if action == "delete" and len(lines) > 1:
            del lines[at]
        elif action == "duplicate":
            lines.insert(at, lines[at])
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif action == "splice":
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + draw(st.text(max_size=6)) + lines[at][cut:]
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([SPEC_EXAMPLE, results_text()]).flatmap(mutated))
def test_mutated_valid_files_never_raise(text: str) -> None:
    assert_well_formed(*parse_results(text))


@settings(max_examples=200, deadline=None)
@given(results_files.map(write_results).flatmap(mutated))
def test_mutated_written_files_never_raise(text: str) -> None:
    assert_well_formed(*parse_results(text))


def test_a_number_too_long_for_int_is_a_problem_not_a_crash() -> None:
    text = results_text(players="#PLAYER LIST\n#PIN=" + "9" * 5000 + "#NAME=A#CLUB=B\n", results="")
    results, report = parse_results(text)
    assert results is not None and results.players == ()
    assert report.codes() == ["bad-number"]


def test_a_huge_round_or_minutes_is_a_problem_not_a_crash() -> None:
    huge = "9" * 5000
    text = results_text(
        event=SPEC_EXAMPLE.split("#MOVES")[0] + f"#MINUTES FOR GAME={huge}\n",
        results=f"#SECTION RESULTS=A\n#PIN1=1#SCORE=10#PIN2=2#ROUND={huge}\n",
    )
    assert parse_results(text)[1].codes() == ["bad-number", "bad-round"]
