"""The published grading-list CSV (results-file.md, section 2): read, check, write."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import Category
from ecfgrading.formats import (
    GradeList,
    GradeListRow,
    RateGrade,
    parse_grade_list,
    read_grade_list,
    read_grade_list_bytes,
    write_grade_list,
)
from ecfgrading.formats.problems import Problem

HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation"
)
UPPER_HEADER = (
    "REF,NAME,SEX,AGE,CATEGORY,GRADE,GRADELAST,GRADEGAMES,RAPIDCAT,RAPID,RAPIDLAST,RAPIDGAMES,"
    "CLUBNAM1,CLUBNAM2,CLUBNAM3,CLUBNAM4,CLUBNAM5,CLUBNAM6,FIDECODE,NATION"
)
BLOGGS = '261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Anytown,Otherton,,,,,400041,ENG'
SMITH = '233310H,"Smith, Jane",F,12,C,95,,12,X,101,90,40,Anytown,,,,,,,'

BLOGGS_ROW = GradeListRow(
    code=GradingCode(261619),
    name="Bloggs, Joe",
    sex="M",
    standard=RateGrade(Category.A, 150, 148, 35),
    clubs=("Anytown", "Otherton"),
    fide_code="400041",
    nation="ENG",
)
SMITH_ROW = GradeListRow(
    code=GradingCode(233310),
    name="Smith, Jane",
    sex="F",
    junior_age=12,
    standard=RateGrade(Category.C, 95, None, 12),
    rapid=RateGrade(Category.X, 101, 90, 40),
    clubs=("Anytown",),
)


def rows_of(text: str) -> tuple[GradeListRow, ...]:
    grade_list, report = parse_grade_list(text)
    assert report.problems == ()
    assert grade_list is not None
    return grade_list.rows


def only(text: str, code: str) -> Problem:
    _, report = parse_grade_list(text)
    found = [p for p in report if p.code == code]
    assert len(found) == 1, report
    return found[0]


def test_it_reads_the_twenty_column_list() -> None:
    assert rows_of(f"{HEADER}\n{BLOGGS}\n{SMITH}\n") == (BLOGGS_ROW, SMITH_ROW)


def test_rows_know_their_lines() -> None:
    assert [row.line for row in rows_of(f"{HEADER}\n{BLOGGS}\n{SMITH}\n")] == [2, 3]


def test_a_player_without_a_rapid_grade_has_empty_rapid_columns() -> None:
    (bloggs,) = rows_of(f"{HEADER}\n{BLOGGS}\n")
    assert bloggs.standard.graded and not bloggs.rapid.graded
    assert bloggs.rapid == RateGrade()


def test_an_empty_nation_means_eng() -> None:
    (smith,) = rows_of(f"{HEADER}\n{SMITH}\n")
    assert smith.nation == "ENG"


def test_it_accepts_the_upper_case_variant_header() -> None:
    assert rows_of(f"{UPPER_HEADER}\n{BLOGGS}\n{SMITH}\n") == (BLOGGS_ROW, SMITH_ROW)


def test_it_accepts_quoted_fields() -> None:
    quoted = ",".join(f'"{cell}"' for cell in HEADER.split(","))
    row = '"261619B","Bloggs, Joe","M","","A","150","148","35","","","","","Anytown","Otherton",'
    row += '"","","","","400041","ENG"'
    assert rows_of(f"{quoted}\n{row}\n") == (BLOGGS_ROW,)


def test_it_accepts_a_trailing_comma() -> None:
    assert rows_of(f"{HEADER},\n{BLOGGS},\n{SMITH},\n") == (BLOGGS_ROW, SMITH_ROW)


def test_it_accepts_crlf_bytes_with_a_byte_order_mark() -> None:
    data = b"\xef\xbb\xbf" + f"{HEADER}\r\n{BLOGGS}\r\n".encode()
    grade_list, report = read_grade_list_bytes(data)
    assert report.problems == () and grade_list == GradeList((BLOGGS_ROW,))


def test_it_reads_windows_1252_names() -> None:
    data = f"{HEADER}\n{BLOGGS.replace('Joe', 'Zoë')}\n".encode("cp1252")
    grade_list, _ = read_grade_list_bytes(data)
    assert grade_list is not None and grade_list.rows[0].name == "Bloggs, Zoë"


def test_it_reads_a_text_handle() -> None:
    grade_list, _ = read_grade_list(io.StringIO(f"{HEADER}\n{BLOGGS}\n", newline=""))
    assert grade_list == GradeList((BLOGGS_ROW,))


def test_blank_lines_are_skipped() -> None:
    assert rows_of(f"{HEADER}\n\n{BLOGGS}\n\n") == (BLOGGS_ROW,)


# -- problems ---------------------------------------------------------------------------


def test_it_rejects_an_unknown_header_and_returns_no_list() -> None:
    grade_list, report = parse_grade_list(f"Code,Name,Grade\n{BLOGGS}\n")
    assert grade_list is None
    assert [(p.code, p.line) for p in report] == [("unknown-header", 1)]


def test_an_empty_file_has_no_list() -> None:
    grade_list, report = parse_grade_list("")
    assert grade_list is None and report.codes() == ["empty-file"]


def test_it_rejects_a_code_of_the_wrong_shape_and_leaves_the_row_out() -> None:
    text = f"{HEADER}\n{BLOGGS.replace('261619B', '26161B')}\n{SMITH}\n"
    problem = only(text, "bad-code")
    assert (problem.line, problem.field, problem.got) == (2, "Ref", "26161B")
    grade_list, _ = parse_grade_list(text)
    assert grade_list is not None and grade_list.rows == (SMITH_ROW,)


def test_it_rejects_a_code_with_a_wrong_check_letter() -> None:
    problem = only(
        f"{HEADER}\n{SMITH}\n{BLOGGS.replace('261619B', '261619A')}\n", "bad-check-letter"
    )
    assert (problem.line, problem.field) == (3, "Ref")


@pytest.mark.parametrize(
    ("column", "bad"), [("Grade", "15O"), ("RGames", "many"), ("JrAge", "1.5")]
)
def test_it_rejects_a_number_that_is_not_whole(column: str, bad: str) -> None:
    cells = SMITH.replace('"Smith, Jane"', "Smith").split(",")
    cells[HEADER.split(",").index(column)] = bad
    problem = only(f"{HEADER}\n{','.join(cells)}\n", "bad-number")
    assert (problem.line, problem.field, problem.got) == (2, column, bad)
    assert problem.message == f"expected {column} a whole number, got {bad!r} (line 2)"


def test_it_rejects_a_category_not_in_the_list() -> None:
    problem = only(f"{HEADER}\n{BLOGGS.replace(',A,150', ',Q,150')}\n", "bad-category")
    assert (problem.line, problem.field, problem.got) == (2, "Cat", "Q")


def test_it_rejects_a_row_with_too_few_columns() -> None:
    problem = only(f"{HEADER}\n{BLOGGS}\n261619B,Short\n", "bad-row-length")
    assert (problem.line, problem.got) == (3, "2")


def test_it_rejects_a_code_on_two_rows() -> None:
    problem = only(f"{HEADER}\n{BLOGGS}\n{SMITH}\n{BLOGGS}\n", "duplicate-code")
    assert (problem.line, problem.field) == (4, "Ref")
    assert "line 2" in problem.expected


def test_it_warns_of_a_sex_other_than_m_or_f() -> None:
    problem = only(f"{HEADER}\n{BLOGGS.replace(',M,', ',X,')}\n", "bad-sex")
    assert (problem.line, problem.field, problem.severity) == (2, "Sex", "warning")


def test_it_warns_of_a_nation_not_of_three_letters() -> None:
    problem = only(f"{HEADER}\n{BLOGGS.replace(',ENG', ',ENGL')}\n", "bad-nation")
    assert (problem.line, problem.field, problem.severity) == (2, "Nation", "warning")


def test_strict_mode_stops_at_the_first_error() -> None:
    text = f"{HEADER}\n{BLOGGS.replace(',A,', ',Q,')}\n{SMITH.replace(',C,', ',Q,')}\n"
    grade_list, report = parse_grade_list(text, strict=True)
    assert grade_list is None and report.codes() == ["bad-category"]


# -- writing ----------------------------------------------------------------------------


def test_it_writes_the_first_header_variant() -> None:
    written = write_grade_list(GradeList((BLOGGS_ROW,)))
    assert written.splitlines()[0] == HEADER
    assert written.splitlines()[1] == BLOGGS


def test_a_list_read_in_the_upper_case_variant_writes_back_in_the_first() -> None:
    grade_list, _ = parse_grade_list(f"{UPPER_HEADER}\n{BLOGGS}\n{SMITH}\n")
    assert grade_list is not None
    assert parse_grade_list(write_grade_list(grade_list))[0] == grade_list


names = (
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=15)
    .map(str.strip)
    .filter(bool)
)
counts = st.none() | st.integers(0, 400)
published = st.builds(
    RateGrade,
    st.sampled_from([c for c in Category if c is not Category.NONE]),
    st.integers(0, 400),
    counts,
    counts,
)
rates = st.just(RateGrade(Category.NONE, None, None, None)) | published  # G23
rows = st.builds(
    GradeListRow,
    code=st.integers(0, 999_999).map(GradingCode),
    name=names,
    sex=st.sampled_from(["", "M", "F"]),
    junior_age=st.none() | st.integers(4, 17),
    standard=rates,
    rapid=rates,
    clubs=st.lists(names, max_size=6).map(tuple),
    fide_code=st.sampled_from(["", "400041", "12345678"]),
    nation=st.sampled_from(["ENG", "SCO", "WLS", "IRL"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, max_size=8, unique_by=lambda row: row.code))
def test_any_grade_list_reads_back_equal_after_writing(generated: list[GradeListRow]) -> None:
    grade_list = GradeList(tuple(generated))
    again, report = parse_grade_list(write_grade_list(grade_list))
    assert again == grade_list
    assert report.ok


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_random_text_never_raises(text: str) -> None:
    grade_list, report = parse_grade_list(HEADER + "\n" + text)
    assert grade_list is not None or not report.ok


def test_a_field_too_large_for_the_csv_reader_is_reported_and_skipped() -> None:
    text = f'{HEADER}\n"{"x" * 200_000}"\n{SMITH}\n'
    grade_list, report = parse_grade_list(text)
    assert [(p.code, p.line) for p in report] == [("bad-csv", 2)]
    assert grade_list is not None and grade_list.rows == (SMITH_ROW,)


def _with(row: str, column: str, value: str) -> str:
    cells = row.replace('"Smith, Jane"', "Smith; Jane").split(",")
    cells[HEADER.split(",").index(column)] = value
    return ",".join(cells).replace("Smith; Jane", '"Smith, Jane"')


@pytest.mark.parametrize("column", ["Grade", "Grade1", "RGrade", "RGrade1"])
def test_it_rejects_a_grade_above_any_list_could_hold(column: str) -> None:
    problem = only(f"{HEADER}\n{_with(SMITH, column, '999')}\n", "out-of-range")
    assert (problem.line, problem.field, problem.got, problem.severity) == (
        2,
        column,
        "999",
        "error",
    )
    assert problem.expected == "a grade of 0 to 400"


def test_a_grade_of_400_is_still_a_grade() -> None:
    (row,) = rows_of(f"{HEADER}\n{_with(SMITH, 'Grade', '400')}\n")
    assert row.standard.grade == 400


def test_g20_it_rejects_a_junior_age_above_the_junior_age() -> None:
    problem = only(f"{HEADER}\n{_with(SMITH, 'JrAge', '150')}\n", "out-of-range")
    assert (problem.field, problem.got) == ("JrAge", "150")
    assert problem.expected == "a junior's age of 0 to 17"
    assert rows_of(f"{HEADER}\n{_with(SMITH, 'JrAge', '17')}\n")[0].junior_age == 17


@pytest.mark.parametrize(("column", "value"), [("Cat", ""), ("RCat", ""), ("Grade", "")])
def test_g23_it_rejects_a_grade_without_its_category_or_the_reverse(
    column: str, value: str
) -> None:
    problem = only(f"{HEADER}\n{_with(SMITH, column, value)}\n", "grade-without-category")
    assert problem.field == ("RCat" if column == "RCat" else "Cat")
    assert problem.severity == "error"


def test_it_warns_of_a_name_without_a_comma_and_keeps_the_row() -> None:
    row = SMITH.replace('"Smith, Jane"', "Smith Jane")
    text = f"{HEADER}\n{row}\n"
    grade_list, report = parse_grade_list(text)
    assert report.codes() == ["name-without-comma"]
    assert report.problems[0].severity == "warning" and report.ok
    assert grade_list is not None and grade_list.rows[0].name == "Smith Jane"
