"""The grading list's quick reading of plain rows gives what the column-by-column one does."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from ecfgrading.engine.codes import LAST_CODE, GradingCode, check_letter, code_letter
from ecfgrading.formats.gradelist import _QuickRows, _row, _trimmed
from ecfgrading.formats.problems import ProblemLog

PLAIN = [
    "261619B",
    "Bloggs, Joe",
    "M",
    "",
    "A",
    "150",
    "148",
    "35",
    "",
    "",
    "",
    "",
    "Anytown",
    "Otherton",
    "",
    "",
    "",
    "",
    "400041",
    "ENG",
]


def full_reading(cells: list[str], line: int) -> tuple[object, list[str]]:
    log = ProblemLog()
    row = _row(_trimmed(cells), line, log)
    return row, [p.code for p in log.problems]


def test_a_plain_row_is_read_quickly_and_equals_the_full_reading() -> None:
    quick = _QuickRows().row(PLAIN, 7)
    assert quick is not None
    assert (repr(quick), quick.line) == (repr(full_reading(PLAIN, 7)[0]), 7)
    assert str(quick.code) == "261619B" and quick.clubs == ("Anytown", "Otherton")


def test_rows_with_anything_to_report_or_tidy_are_left_to_the_full_reading() -> None:
    for column, value in [
        (0, "261619A"),  # wrong check letter
        (0, "261619b"),  # right letter, lower case: valid, but not plain
        (1, "Bloggs Joe"),  # a warning
        (2, "m"),
        (3, "18"),
        (4, "Q"),
        (5, "401"),
        (5, "0150"),
        (7, " 35"),
        (19, "EN"),
    ]:
        cells = list(PLAIN)
        cells[column] = value
        assert _QuickRows().row(cells, 2) is None, (column, value)


# Cells a list may hold, plain and odd: the quick reading must either give up or agree.
CELLS = {
    0: ["261619B", "261619A", "261619b", "26161B", " 261619B", "２６１６１９B", "000000A"],
    1: ["Bloggs, Joe", "Bloggs Joe", "", " Bloggs, Joe ", "Zoë, Ü"],
    2: ["M", "F", "", "m", "X", " F"],
    3: ["", "0", "12", "17", "18", "012", "1.5", " 9"],
    4: ["", "A", "X", "F", "a", "Q", " B"],
    5: ["", "0", "150", "400", "401", "0150", "15O", "١٥٠"],
    6: ["", "148", "999", " 148"],
    7: ["", "35", "999", "1000", "-1"],
    12: ["", "Anytown", " Anytown ", "Other, Town"],
    13: ["", "Otherton"],
    18: ["", "400041", " 400041 "],
    19: ["", "ENG", "SCO", "EN", "eng", "EN1", " WLS"],
}
for first, second in ((4, 8), (5, 9), (6, 10), (7, 11)):
    CELLS[second] = CELLS[first]
for column in (14, 15, 16, 17):
    CELLS[column] = CELLS[13]


@st.composite
def rows(draw: st.DrawFn) -> list[str]:
    """The plain row with up to three cells changed."""
    cells = list(PLAIN)
    for column in draw(st.lists(st.sampled_from(sorted(CELLS)), max_size=3)):
        cells[column] = draw(st.sampled_from(CELLS[column]))
    return cells


@settings(max_examples=2000, deadline=None)
@given(rows(), st.integers(2, 10_000))
def test_the_quick_reading_agrees_with_the_full_one(cells: list[str], line: int) -> None:
    quick = _QuickRows().row(cells, line)
    full, problems = full_reading(cells, line)
    event("quick" if quick is not None else "full")
    if quick is not None:
        assert problems == []
        assert full is not None and repr(quick) == repr(full) and quick.line == full.line


def test_rates_and_clubs_are_shared_within_a_reading() -> None:
    quick = _QuickRows()
    first, second = quick.row(PLAIN, 2), quick.row(["100001K", *PLAIN[1:]], 3)
    assert first is not None and second is not None
    assert first.standard is second.standard and first.clubs is second.clubs


@given(st.integers(0, LAST_CODE))
def test_code_letter_is_the_g28_check_letter(number: int) -> None:
    assert code_letter(number) == check_letter(number)


def test_code_letter_at_the_ends_and_a_known_code() -> None:
    assert [code_letter(n) for n in (0, LAST_CODE)] == [check_letter(0), check_letter(LAST_CODE)]
    assert str(GradingCode(233310)) == "233310H" and code_letter(261619) == "B"
