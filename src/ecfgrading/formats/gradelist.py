"""The published grading list CSV, ``gradesYYYYMM.csv`` (results-file.md, section 2)."""

from __future__ import annotations

import csv
import io
from _csv import Reader as CsvReader
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from ecfgrading.engine.codes import GradingCode, code_letter
from ecfgrading.engine.rules import ECF_2009
from ecfgrading.engine.types import Category
from ecfgrading.formats.encoding import drop_bom
from ecfgrading.formats.problems import (
    MAX_PROBLEMS,
    ProblemLog,
    Problems,
    StopReading,
    read_decoded,
)
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
    """Read bytes (formats.encoding); at most ``max_problems`` listed, the rest counted.
    Never raises: a line in no encoding stops a strict reading there, with its problem."""
    return read_decoded(data, strict, max_problems, _read)


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
    first_lines: dict[int, int] = {}  # a code's number: its first line
    quick = _QuickRows()
    while True:
        try:
            for cells in reader:
                line = reader.line_num
                row = quick.row(cells, line)
                if row is None:  # anything unusual: read, and its problems found, by column
                    row = _row(_trimmed(cells), line, log)
                    if row is None:
                        continue
                if first_lines.setdefault(row.code.number, line) == line:
                    rows.append(row)
                else:
                    _duplicate(row, first_lines, log)
            return tuple(rows)
        except csv.Error as error:  # a record the csv module cannot read: reported, skipped
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


def _duplicate(row: GradeListRow, first_lines: dict[int, int], log: ProblemLog) -> None:
    expected = f"on one row only (first on line {first_lines[row.code.number]})"
    log.add("duplicate-code", row.line, "Ref", expected, str(row.code))


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
_FIDE_CODE = len(HEADER) - 2
_NATION = len(HEADER) - 1


def _numbers(last: int) -> dict[str, int | None]:
    """A cell as a whole number of 0 to ``last`` with no problem, or None for empty."""
    return {"": None} | {str(number): number for number in range(last + 1)}


_GRADES = _numbers(MAX_GRADE)
_GAMES = _numbers(999)
_AGES = _numbers(ECF_2009.junior_max_age)
_SEXES = frozenset(("M", "F", ""))
_new = object.__new__
_set = object.__setattr__
_UNSEEN = RateGrade()  # not a cached RateGrade (compared by identity)


class _QuickRows:
    """The rows of one reading with nothing to report, read at a glance.

    A row is read here only when every cell is in its plainest well-formed spelling (no
    spaces to trim, a code in capitals with its right letter, numbers in range without
    leading zeros, categories and sex in capitals, a name with its comma, a nation of 3
    letters); then it is the row _row gives, with no problem. Anything else gives None, for
    _row to read and report. A list's rate columns and clubs repeat, so each spelling of
    them is made into one RateGrade, and one tuple of clubs, for the whole reading.
    """

    def __init__(self) -> None:
        self.rates: dict[tuple[str, str, str, str], RateGrade | None] = {}
        self.clubs: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple for each

    def row(self, cells: list[str], line: int) -> GradeListRow | None:
        if len(cells) != len(HEADER):
            return None
        code, name, sex, age = cells[0], cells[1].strip(), cells[2], cells[3]
        digits = code[:6]
        if not (len(code) == 7 and digits.isdigit() and digits.isascii()):
            return None
        number = int(digits)
        if code[6] != code_letter(number) or (name and "," not in name):
            return None
        if sex not in _SEXES or age not in _AGES:
            return None
        key = (cells[4], cells[5], cells[6], cells[7])
        standard = self.rates.get(key, _UNSEEN)
        if standard is _UNSEEN:
            standard = self.rate(key)
        key = (cells[8], cells[9], cells[10], cells[11])
        rapid = self.rates.get(key, _UNSEEN)
        if rapid is _UNSEEN:
            rapid = self.rate(key)
        nation = cells[_NATION].strip() or DEFAULT_NATION
        if standard is None or rapid is None or not (len(nation) == 3 and nation.isalpha()):
            return None
        clubs = tuple(filter(None, map(str.strip, cells[12 : 12 + CLUB_COLUMNS])))
        clubs = self.clubs.setdefault(clubs, clubs)
        # Made without the dataclasses' own __init__, which sets each field through
        # object.__setattr__ (they are frozen): a row's __dict__ is filled at once, three
        # times faster.
        grading_code = _new(GradingCode)
        _set(grading_code, "number", number)  # 6 digits: 0 to LAST_CODE
        row = _new(GradeListRow)
        row.__dict__.update(
            code=grading_code,
            name=name,
            sex=sex,
            junior_age=_AGES[age],
            standard=standard,
            rapid=rapid,
            clubs=clubs,
            fide_code=cells[_FIDE_CODE].strip(),
            nation=nation,
            line=line,
        )
        return row

    def rate(self, key: tuple[str, str, str, str]) -> RateGrade | None:
        """Category, grade, previous grade and games as a RateGrade; None if unusual."""
        category, grade, previous, games = key
        made = None
        if (
            category in _CATEGORIES
            and grade in _GRADES
            and previous in _GRADES
            and games in _GAMES
            and (category == "") == (grade == "")
        ):
            made = _new(RateGrade)
            _set(made, "category", _CATEGORIES[category])
            _set(made, "grade", _GRADES[grade])
            _set(made, "previous", _GRADES[previous])
            _set(made, "games", _GAMES[games])
        self.rates[key] = made
        return made


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
