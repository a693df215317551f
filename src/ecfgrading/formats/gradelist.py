"""The published grading list CSV, ``gradesYYYYMM.csv`` (results-file.md, section 2)."""

from __future__ import annotations

import csv
import io
from _csv import Reader as CsvReader
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rules import ECF_2009
from ecfgrading.engine.types import Category
from ecfgrading.formats.encoding import drop_bom
from ecfgrading.formats.problems import MAX_PROBLEMS, ProblemLog, Problems, StopReading, decoded
from ecfgrading.formats.values import MAX_GRADE, BadValue, grading_code, whole

CLUB_COLUMNS = 6
HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    + ",".join(f"ClubNam{n}" for n in range(1, CLUB_COLUMNS + 1))
    + ",FIDECode,Nation"
).split(",")
UPPER_HEADER = (
    "REF,NAME,SEX,AGE,CATEGORY,GRADE,GRADELAST,GRADEGAMES,RAPIDCAT,RAPID,RAPIDLAST,RAPIDGAMES,"
    + ",".join(f"CLUBNAM{n}" for n in range(1, CLUB_COLUMNS + 1))
    + ",FIDECODE,NATION"
).split(",")
_HEADERS = ([name.upper() for name in HEADER], UPPER_HEADER)
DEFAULT_NATION = "ENG"
# The file's bytes are ISO-8859-1 (docs/formats.md, "Encodings"): graders' tools such as
# ChessReports decode its rows as Latin-1 whatever they hold, so UTF-8 garbles every
# accented name ('Ã©'), and Windows-1252's extra letters (0x80-0x9F: 'Š', 'Œ') become
# control characters. Reading accepts UTF-8 too (formats.encoding).
ENCODING = "iso-8859-1"


@dataclass(frozen=True)
class RateGrade:
    """One rate's columns; every one empty (None) where the player has no grade."""

    category: Category = Category.NONE
    grade: int | None = None
    previous: int | None = None  # the previous list's grade
    games: int | None = None

    @property
    def graded(self) -> bool:
        return self.grade is not None


@dataclass(frozen=True)
class GradeListRow:
    """One player of a published list."""

    code: GradingCode
    name: str  # 'Surname, Forenames'
    sex: str = ""
    junior_age: int | None = None  # empty for adults
    standard: RateGrade = RateGrade()
    rapid: RateGrade = RateGrade()
    clubs: tuple[str, ...] = ()  # most recent first
    fide_code: str = ""
    nation: str = DEFAULT_NATION
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class GradeList:
    rows: tuple[GradeListRow, ...] = ()


ListReading = tuple[GradeList | None, Problems]


def read_grade_list(handle: TextIO, *, strict: bool = False) -> ListReading:
    """Read from a text handle (open it with ``newline=''``); never raises."""
    return parse_grade_list(handle.read(), strict=strict)


def read_grade_list_bytes(
    data: bytes, *, strict: bool = False, max_problems: int = MAX_PROBLEMS
) -> ListReading:
    """Read bytes (formats.encoding); at most ``max_problems`` listed, the rest counted."""
    return _read(*decoded(data, strict, max_problems))


def parse_grade_list(text: str, *, strict: bool = False) -> ListReading:
    """The list (None without a known header) and every problem; bad rows are left out."""
    return _read(drop_bom(text), ProblemLog(strict))


def _read(text: str, log: ProblemLog) -> ListReading:
    try:
        rows = _rows(csv.reader(io.StringIO(text, newline="")), log)
    except StopReading:
        return None, log.report()
    return (None if rows is None else GradeList(rows)), log.report()


def _rows(reader: CsvReader, log: ProblemLog) -> tuple[GradeListRow, ...] | None:
    if not _header_ok(next(reader, None), log):
        return None
    rows: list[GradeListRow] = []
    first_lines: dict[GradingCode, int] = {}
    for cells in _records(reader, log):
        row = _row(_trimmed(cells), reader.line_num, log)
        if row is not None and _unique(row, first_lines, log):
            rows.append(row)
    return tuple(rows)


def _records(reader: CsvReader, log: ProblemLog) -> Iterator[list[str]]:
    """The CSV records; one the csv module cannot read is reported and skipped."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            log.add("bad-csv", reader.line_num, "", "a CSV record", str(error))


def _trimmed(cells: list[str]) -> list[str]:
    """Cells without surrounding spaces or the empty cell of a trailing comma."""
    cells = [cell.strip() for cell in cells]
    return cells[:-1] if len(cells) == len(HEADER) + 1 and not cells[-1] else cells


def _header_ok(cells: list[str] | None, log: ProblemLog) -> bool:
    if cells is None:
        log.add("empty-file", 1, "", "a header line", "")
        return False
    names = [cell.upper() for cell in _trimmed(cells)]
    if any(names == header for header in _HEADERS):
        return True
    log.add("unknown-header", 1, "", f"the header {','.join(HEADER)}", ",".join(cells))
    return False


def _unique(row: GradeListRow, first_lines: dict[GradingCode, int], log: ProblemLog) -> bool:
    first = first_lines.setdefault(row.code, row.line)
    if first != row.line:
        expected = f"on one row only (first on line {first})"
        log.add("duplicate-code", row.line, "Ref", expected, str(row.code))
    return first == row.line


def _row(cells: list[str], line: int, log: ProblemLog) -> GradeListRow | None:
    if not any(cells):
        return None  # a blank line
    if len(cells) != len(HEADER):
        log.add("bad-row-length", line, "", f"{len(HEADER)} columns", str(len(cells)))
        return None
    cell = _Cells(cells, line, log)
    code = cell.code()
    if code is None:
        return None
    return GradeListRow(
        code,
        cell.name(),
        cell.sex(),
        cell.junior_age(),
        cell.rate(4),
        cell.rate(8),
        tuple(club for club in cells[12 : 12 + CLUB_COLUMNS] if club),
        cells[18],
        cell.nation(),
        line,
    )


_CATEGORIES = {category.value: category for category in Category}  # Category(x), faster


@dataclass(frozen=True)
class _Cells:
    """One row's cells, converted one column at a time with problems logged."""

    cells: Sequence[str]
    line: int
    log: ProblemLog

    def _problem(self, code: str, column: int, expected: str) -> None:
        self.log.add(code, self.line, HEADER[column], expected, self.cells[column])

    def code(self) -> GradingCode | None:
        try:
            return grading_code(self.cells[0])
        except BadValue as bad:
            self._problem(bad.code, 0, bad.expected)
            return None

    def number(self, column: int) -> int | None:
        if not self.cells[column]:
            return None
        try:
            return whole(self.cells[column])
        except BadValue as bad:
            self._problem(bad.code, column, bad.expected)
            return None

    def category(self, column: int) -> Category:
        found = _CATEGORIES.get(self.cells[column].upper())
        if found is None:
            self._problem("bad-category", column, "X, A, B, C, D, E or empty")
            return Category.NONE
        return found

    def rate(self, first: int) -> RateGrade:
        """Category, grade, previous grade and games, from column ``first`` on."""
        grade, previous = self.grade(first + 1), self.grade(first + 2)
        category, games = self.category(first), self.number(first + 3)
        if (category is Category.NONE) != (grade is None):
            # G23: a published grade always has its category, and a category its grade.
            self._problem("grade-without-category", first, "a category and a grade together")
        return RateGrade(category, grade, previous, games)

    def grade(self, column: int) -> int | None:
        grade = self.number(column)
        if grade is not None and grade > MAX_GRADE:
            self._problem("out-of-range", column, f"a grade of 0 to {MAX_GRADE}")
        return grade

    def junior_age(self) -> int | None:
        """G20: only juniors have an age in the list, so it is at most the junior age."""
        age = self.number(3)
        if age is not None and age > ECF_2009.junior_max_age:
            self._problem("out-of-range", 3, f"a junior's age of 0 to {ECF_2009.junior_max_age}")
        return age

    def name(self) -> str:
        if self.cells[1] and "," not in self.cells[1]:
            self._problem("name-without-comma", 1, "'Surname, Forenames'")
        return self.cells[1]

    def sex(self) -> str:
        if self.cells[2].upper() not in ("M", "F", ""):
            self._problem("bad-sex", 2, "M or F")
        return self.cells[2]

    def nation(self) -> str:
        nation = self.cells[19] or DEFAULT_NATION
        if not (len(nation) == 3 and nation.isalpha()):
            self._problem("bad-nation", 19, "3 letters")
        return nation


def write_grade_list(grade_list: GradeList) -> str:
    """CSV with the first header variant; reads back to equal rows."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    writer.writerows(_cells(row) for row in grade_list.rows)
    return out.getvalue()


def _cells(row: GradeListRow) -> list[str]:
    clubs = list(row.clubs) + [""] * (CLUB_COLUMNS - len(row.clubs))
    return [
        str(row.code),
        row.name,
        row.sex,
        _text(row.junior_age),
        *_rate_cells(row.standard),
        *_rate_cells(row.rapid),
        *clubs[:CLUB_COLUMNS],
        row.fide_code,
        row.nation,
    ]


def _rate_cells(rate: RateGrade) -> list[str]:
    return [rate.category.value, _text(rate.grade), _text(rate.previous), _text(rate.games)]


def _text(number: int | None) -> str:
    return "" if number is None else str(number)
