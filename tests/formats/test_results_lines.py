"""A set written on one line in the writer's shape is read whole (formats.lexer); the file
must read exactly as when every field of it is lexed one by one: the same values, the
same problems with the same lines and words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.formats import parse_results, write_results
from ecfgrading.formats.lexer import PLAYER_LINE, RESULT_LINE, lex
from ecfgrading.formats.problems import ProblemLog
from tests.formats.samples import SPEC_EXAMPLE, results_text
from tests.formats.strategies import results_files
from tests.formats.test_results_fuzz import field_soup, mutated


def field_by_field(text: str) -> str:
    """The same fields, with a space after each line's first '#': no line has a shape."""
    return "\n".join(line.replace("#", "# ", 1) for line in text.split("\n"))


def assert_read_alike(text: str) -> None:
    whole, whole_report = parse_results(text)
    split, split_report = parse_results(field_by_field(text))
    assert [p.message for p in whole_report] == [p.message for p in split_report]
    assert whole_report == split_report
    assert whole == split
    if whole is not None and split is not None:
        assert [p.line for p in whole.players] == [p.line for p in split.players]
        assert [g.line for _, g in whole.games()] == [g.line for _, g in split.games()]


def kinds(text: str) -> list[str]:
    return [token.key for token in lex(text, ProblemLog())]


def written(text: str) -> str:
    results = parse_results(text)[0]
    assert results is not None
    return write_results(results)


WRITTEN = written(results_text())  # four players, two games, as the writer prints them


def test_the_writers_player_and_result_lines_are_read_whole() -> None:
    keys = kinds(WRITTEN)
    assert keys.count(PLAYER_LINE) == 4
    assert keys.count(RESULT_LINE) == 2


def test_a_line_in_another_shape_is_read_field_by_field() -> None:
    keys = kinds("#PIN1=1#PIN2=2#SCORE=10\n#pin1=1#SCORE=10#PIN2=2\n#PIN1=1#SCORE=10#PIN2=2 \n")
    assert RESULT_LINE not in keys


SHAPED_CASES = {
    "as written": WRITTEN,
    "crlf and a trailing '#'": WRITTEN.replace("\n", "#\r\n"),
    "fields continued on the next line": results_text(
        results="#SECTION RESULTS=A\n#PIN1=1#SCORE=10#PIN2=2\n#COMMENT=late#ROUND=3\n"
    ),
    "a result line in the player list": results_text(
        players="#PLAYER LIST\n#PIN=1#NAME=A, B#CLUB=C\n#PIN1=1#SCORE=10#PIN2=2\n"
    ),
    "a player line among the results": results_text(
        results="#SECTION RESULTS=A\n#PIN1=1#SCORE=10#PIN2=2\n#PIN=3#NAME=X, Y\n"
    ),
    "values that do not convert": results_text(
        results="#OTHER RESULTS=A\n#PIN1=1#SCORE=1D#PIN2=2#COLOUR=WHITX#GAME DATE=31/02/2013"
        "#BOARD=3#ROUND=00\n#PIN1=1#SCORE=d1#PIN2=1#COLOUR=b#GAME DATE=1/1/2013\n"
    ),
    "padded player values": results_text(
        players="#PLAYER LIST\n#PIN=1#ECF CODE= 123456A #NAME= Smith, J #GENDER=x#CLUB CODE=ABCDE\n"
        "#PIN=2#NAME=#CLUB NAME=Here#DATE OF BIRTH=30/02/2001\n#PIN=2#ECF CODE=999\n"
    ),
    "a line after the finish": WRITTEN + "#PIN1=1#SCORE=10#PIN2=2\n",
    "a table of results": SPEC_EXAMPLE.replace(
        "#FINISH",
        "#COLUMN=PIN1#COLUMN=SCORE#COLUMN=PIN2\n#TABLE START\n#PIN1=1#SCORE=10#PIN2=2\n"
        "#TABLE END\n#FINISH",
    ),
}


@pytest.mark.parametrize("text", SHAPED_CASES.values(), ids=SHAPED_CASES.keys())
def test_shaped_lines_read_as_their_fields(text: str) -> None:
    assert_read_alike(text)


@settings(max_examples=200, deadline=None)
@given(results_files.map(write_results).flatmap(mutated))
def test_written_files_read_alike_line_by_line_and_field_by_field(text: str) -> None:
    assert_read_alike(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([SPEC_EXAMPLE, WRITTEN, written(SPEC_EXAMPLE)]).flatmap(mutated))
def test_mutated_files_read_alike(text: str) -> None:
    assert_read_alike(text)


@settings(max_examples=200, deadline=None)
@given(field_soup())
def test_field_soup_reads_alike(soup: str) -> None:
    assert_read_alike("#EVENT DETAILS\n" + soup)
