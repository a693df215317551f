"""Exporting published lists: CSV, XLSX and JSON (results-file.md section 2; G22-G27).

The lists are built with the ORM; every expected row is written out by hand from them.
"""

from __future__ import annotations

import gc
import io
import json
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.db.models import QuerySet
from openpyxl import Workbook, load_workbook

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import Category, Rate
from ecfgrading.formats import GradeListRow, RateGrade, parse_grade_list
from ecfgrading.formats.gradelist import HEADER
from ecfgrading.lookups import exports
from ecfgrading.lookups.exports import ExportError, export_list
from ecfgrading.lookups.versions import published
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PublishedSnapshot,
)
from ecfgrading.services.lists.snapshots import freeze_published

pytestmark = pytest.mark.django_db

STANDARD, RAPID = Rate.STANDARD, Rate.RAPID
SMITH_BIRTH = date(2001, 3, 2)  # private: junior age 9 on 31 August 2010


def when(month: int, day: int, year: int = 2010) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


def player(code: int, surname: str, forenames: str, **fields: Any) -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames, **fields)


def member(who: Player, club: str, first: int, last: int, *, location: bool = False) -> None:
    found, _ = Club.objects.get_or_create(name=club, is_location=location)
    ClubMembership.objects.create(player=who, club=found, first_season=first, last_season=last)


def entry(grade: int | None, category: str, counted: int, **fields: Any) -> dict[str, Any]:
    """A list entry's values; published exactly when it has a category (G23)."""
    return {
        "grade": grade,
        "category": category,
        "games_counted": counted,
        "games_latest": fields.pop("latest", counted),
        "published": category != "",
        **fields,
    }


def version(
    list_id: str,
    rate: Rate,
    name: str,
    entries: dict[Player, dict[str, Any]],
    published_at: datetime | None = None,
) -> ListVersion:
    """A version with its entries, written as a draft and then published if dated."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    made = ListVersion.objects.create(grading_list=grading_list, name=name)
    ListEntry.objects.bulk_create(
        ListEntry(version=made, player=who, **values) for who, values in entries.items()
    )
    if published_at is not None:
        made.status = ListVersion.Status.PUBLISHED
        made.published_at = published_at
        made.save()
    return made


@pytest.fixture
def people() -> dict[str, Player]:
    bloggs = player(261619, "Bloggs", "Joe", sex="M", fide_id=400041)
    smith = player(233310, "Smith", "Jane", sex="F", date_of_birth=SMITH_BIRTH)
    obrien = player(100001, "O'Brien", "Patrick Sean", sex="M", nation="IRL")
    una = player(123456, "Ungraded", "Una", sex="F")
    dan = player(150000, "Draft", "Dan")
    member(bloggs, "Oldtown", 2004, 2007)
    member(bloggs, "Anytown", 2008, 2010)
    member(bloggs, "Riverside Library", 2010, 2010, location=True)
    member(bloggs, "Newtown", 2011, 2011)  # joined after the 2010-07 list
    member(smith, "Anytown", 2009, 2010)
    member(una, "Anytown", 2010, 2010)
    return {"bloggs": bloggs, "smith": smith, "obrien": obrien, "una": una, "dan": dan}


@pytest.fixture
def lists(people: dict[str, Player]) -> dict[str, Player]:
    """Standard 2009-07 and 2010-07, rapid 2010-01 and 2010-07."""
    bloggs, smith, obrien = people["bloggs"], people["smith"], people["obrien"]
    una, dan = people["una"], people["dan"]
    # The previous standard list: its august version is the current one (Grade1 148).
    version("2009-07", STANDARD, "initial", {bloggs: entry(145, "A", 31)}, when(7, 1, 2009))
    version(
        "2009-07",
        STANDARD,
        "august",
        {bloggs: entry(148, "A", 31), smith: entry(60, "", 4)},  # Smith unpublished
        when(8, 15, 2009),
    )
    version("2010-01", RAPID, "initial", {smith: entry(90, "C", 12)}, when(1, 2))
    version(
        "2010-07",
        STANDARD,
        "initial",
        {bloggs: entry(150, "A", 36), smith: entry(95, "C", 20, latest=12, junior_age=9)},
        when(7, 1),
    )
    version(
        "2010-07",
        STANDARD,
        "august",
        {
            bloggs: entry(
                152,
                "A",
                36,
                unrounded=151.6,
                start_grade=148.0,
                start_source="previous",
                previous_grade=147,
            ),
            smith: entry(
                95,
                "C",
                20,
                latest=12,
                junior_age=9,
                unrounded=94.5,
                start_grade=62.0,
                start_source="estimated",
                flags="unanchored, ",
            ),
            obrien: entry(70, "", 3),  # a grade without a category: not published
            una: entry(None, "", 2),
        },
        when(8, 15),
    )
    version("2010-07", STANDARD, "rev1", {bloggs: entry(160, "A", 36), dan: entry(99, "E", 9)})
    version(
        "2010-07",
        RAPID,
        "initial",
        {
            bloggs: entry(142, "B", 30, latest=18, previous_grade=140),
            smith: entry(101, "X", 31, latest=40, junior_age=9, previous_grade=85),
            obrien: entry(88, "D", 15, latest=7),
        },
        when(7, 1),
    )
    return people


def rate(category: str, grade: int, previous: int | None, games: int) -> RateGrade:
    return RateGrade(Category(category), grade, previous, games)


BLOGGS_ROW = GradeListRow(
    GradingCode(261619),
    "Bloggs, Joe",
    "M",
    None,
    rate("A", 152, 148, 36),  # Grade1: 2009-07's current (august) grade
    rate("B", 142, 140, 30),  # no 2010-01 grade: the entry's previous grade
    ("Riverside Library*", "Anytown"),  # Oldtown, last quoted in 2007, has lapsed
    "400041",
    "ENG",
)
OBRIEN_ROW = GradeListRow(
    GradingCode(100001),
    "O'Brien, Patrick Sean",
    "M",
    None,
    RateGrade(),
    rate("D", 88, None, 15),
    (),
    "",
    "IRL",
)
SMITH_ROW = GradeListRow(
    GradingCode(233310),
    "Smith, Jane",
    "F",
    9,
    rate("C", 95, None, 20),  # unpublished in 2009-07: no Grade1
    rate("X", 101, 90, 31),  # 2010-01's grade, not the entry's 85
    ("Anytown",),
    "",
    "ENG",
)


def parsed(data: bytes) -> tuple[GradeListRow, ...]:
    grade_list, report = parse_grade_list(data.decode("utf-8"))
    assert report.ok, report
    assert grade_list is not None
    return grade_list.rows


# The spreadsheet's columns after the CSV's 20: games in each rate's latest 12 months.
LATEST = ("GamesLatest", "RGamesLatest")


def sheet_rows(data: bytes) -> list[tuple[Any, ...]]:
    sheet = load_workbook(io.BytesIO(data)).active
    return [tuple(row) for row in sheet.iter_rows(values_only=True)]


def json_entries(data: bytes) -> list[dict[str, Any]]:
    entries = json.loads(data.decode("utf-8"))
    assert isinstance(entries, list)
    return entries


def by_code_and_rate(data: bytes) -> dict[tuple[str, str], dict[str, Any]]:
    return {(e["code"], e["rate"]): e for e in json_entries(data)}


# the current version (versions.published) --------------------------------------------------


def test_the_current_version_is_the_latest_published_one(lists: dict[str, Player]) -> None:
    found = published("2010-07", STANDARD)

    assert found is not None
    assert found.name == "august"  # rev1 is a draft
    assert published("2010-07", RAPID).name == "initial"  # type: ignore[union-attr]
    assert published("2011-01", RAPID) is None


def test_the_current_version_breaks_a_tie_of_dates_by_id(people: dict[str, Player]) -> None:
    version("2010-07", STANDARD, "initial", {}, when(7, 1))
    later = version("2010-07", STANDARD, "august", {}, when(7, 1))

    assert published("2010-07", STANDARD) == later


# CSV ---------------------------------------------------------------------------------------


def test_the_csv_has_one_row_per_player_graded_in_either_rate(lists: dict[str, Player]) -> None:
    data = export_list("2010-07")

    assert data.decode("utf-8").splitlines()[0] == ",".join(HEADER)
    assert parsed(data) == (BLOGGS_ROW, OBRIEN_ROW, SMITH_ROW)


def test_the_csv_row_is_written_as_the_list_file_writes_it(lists: dict[str, Player]) -> None:
    lines = export_list("2010-07").decode("utf-8").split("\r\n")

    assert lines[1] == (
        '261619B,"Bloggs, Joe",M,,A,152,148,36,B,142,140,30,'
        "Riverside Library*,Anytown,,,,,400041,ENG"
    )
    assert lines[3] == '233310H,"Smith, Jane",F,9,C,95,,20,X,101,90,31,Anytown,,,,,,,ENG'
    assert lines[4:] == [""]


def test_grade1_is_the_previous_lists_current_grade_else_the_entrys_own(
    lists: dict[str, Player],
) -> None:
    bloggs, _, smith = parsed(export_list("2010-07"))

    assert bloggs.standard.previous == 148  # 2009-07 august, not initial 145 nor entry 147
    assert bloggs.rapid.previous == 140  # not in rapid 2010-01: the entry's previous_grade
    assert smith.rapid.previous == 90  # rapid 2010-01 (G4), not the entry's 85


def test_only_the_rates_asked_are_filled(lists: dict[str, Player]) -> None:
    rows = parsed(export_list("2010-07", rates=[RAPID]))

    assert [row.code.number for row in rows] == [261619, 100001, 233310]
    assert all(not row.standard.graded for row in rows)
    assert rows[0].rapid == rate("B", 142, 140, 30)


def test_only_six_clubs_fit_the_csv_but_json_lists_them_all(people: dict[str, Player]) -> None:
    bloggs = people["bloggs"]
    for n in range(7):
        member(bloggs, f"Club {n}", 2000 + n, 2006)
    version("2006-07", STANDARD, "initial", {bloggs: entry(140, "A", 30)}, when(7, 1, 2006))

    (row,) = parsed(export_list("2006-07"))
    (item,) = json_entries(export_list("2006-07", fmt="json"))

    # Clubs joined by the 2006 season, by last season then latest joined: Oldtown
    # (2004-2007) first; Anytown (from 2008) is left out.
    expected = ("Oldtown", "Club 6", "Club 5", "Club 4", "Club 3", "Club 2")
    assert row.clubs == expected
    assert item["clubs"] == [*expected, "Club 1", "Club 0"]


def test_a_club_not_quoted_in_the_latest_three_seasons_has_lapsed(
    people: dict[str, Player],
) -> None:
    """C2 (docs/rules.md): for the 2006-07 list (season 2006) a club last
    quoted in 2004 is still shown, one last quoted in 2003 is not; both stay on record."""
    bloggs = people["bloggs"]
    member(bloggs, "Quoted 2004", 2002, 2004)
    member(bloggs, "Quoted 2003", 2001, 2003)
    version("2006-07", STANDARD, "initial", {bloggs: entry(140, "A", 30)}, when(7, 1, 2006))

    (row,) = parsed(export_list("2006-07"))

    assert row.clubs == ("Oldtown", "Quoted 2004")
    assert bloggs.memberships.filter(club__name="Quoted 2003").exists()


def test_rows_are_sorted_by_name_regardless_of_case_then_by_code() -> None:
    names = [(400005, "Smith", "Al"), (300003, "Smith", ""), (222222, "de Silva", "Ana")]
    names += [(111111, "Dawson", "Bob"), (400004, "Smith", "Al")]
    grades = {player(*name): entry(100, "E", 9) for name in names}
    version("2013-07", STANDARD, "initial", grades, when(7, 1, 2013))

    rows = parsed(export_list("2013-07"))

    assert [(row.name, str(row.code)) for row in rows] == [
        ("Dawson, Bob", "111111F"),
        ("de Silva, Ana", "222222L"),
        ("Smith", "300003F"),
        ("Smith, Al", "400004D"),
        ("Smith, Al", "400005F"),
    ]


def test_a_version_without_published_entries_exports_no_rows(
    people: dict[str, Player],
) -> None:
    version("2013-07", STANDARD, "initial", {people["una"]: entry(None, "", 2)}, when(7, 1, 2013))

    assert parsed(export_list("2013-07")) == ()
    assert export_list("2013-07", fmt="json") == b"[]\n"
    assert sheet_rows(export_list("2013-07", fmt="xlsx")) == [(*HEADER, *LATEST)]


# XLSX --------------------------------------------------------------------------------------


def test_the_spreadsheet_has_the_csv_columns_with_numbers_as_numbers(
    lists: dict[str, Player],
) -> None:
    data = export_list("2010-07", fmt="xlsx")

    no_clubs = (None,) * 6
    assert sheet_rows(data) == [
        (*HEADER, *LATEST),
        (
            *("261619B", "Bloggs, Joe", "M", None),
            *("A", 152, 148, 36, "B", 142, 140, 30),
            *("Riverside Library*", "Anytown", None, None, None, None),
            *(400041, "ENG"),
            *(36, 18),  # the seed's first Games figures (G24): latest 12 months
        ),
        (
            *("100001K", "O'Brien, Patrick Sean", "M", None),
            *(None, None, None, None, "D", 88, None, 15),
            *no_clubs,
            *(None, "IRL"),
            *(None, 7),
        ),
        (
            *("233310H", "Smith, Jane", "F", 9),
            *("C", 95, None, 20, "X", 101, 90, 31),
            *("Anytown", None, None, None, None, None),
            *(None, "ENG"),
            *(12, 40),
        ),
    ]


def test_the_sheet_is_named_after_the_list_with_a_bold_frozen_header(
    lists: dict[str, Player],
) -> None:
    book = load_workbook(io.BytesIO(export_list("2010-07", fmt="xlsx")))

    assert book.sheetnames == ["2010-07", "About"]  # About: the versions' rule sets (G31)
    sheet = book.active
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    assert not any(cell.font.bold for cell in sheet[2])


def test_a_published_spreadsheet_is_the_same_bytes_however_often_it_is_made(
    lists: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A published version never changes (architecture.md), nor does its file: the zip's
    member dates and the workbook's own are the list's month, not the time of making."""
    first = export_list("2010-07", fmt="xlsx")
    later = time.time() + 3600
    monkeypatch.setattr(time, "time", lambda: later)
    monkeypatch.setattr(os, "stat", _stat_an_hour_on(os.stat))

    again = export_list("2010-07", fmt="xlsx")

    assert again == first
    book = load_workbook(io.BytesIO(first))
    assert book.properties.created == datetime(2010, 7, 1)
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert {member.date_time for member in archive.infolist()} == {(2010, 7, 1, 0, 0, 0)}


def test_the_spreadsheet_is_the_bytes_openpyxl_writes_for_the_same_rows(
    lists: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: the list's rows are written without openpyxl's cell objects, and the file
    is byte for byte the one openpyxl writes when it writes every row itself."""
    fast = export_list("2010-07", fmt="xlsx")
    monkeypatch.setattr(exports, "_writable", lambda rows: None)

    assert export_list("2010-07", fmt="xlsx") == fast


def test_the_spreadsheet_s_rows_written_a_few_at_a_time_are_the_same_bytes(
    lists: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows go into the archive a chunk at a time: numbered on from chunk to chunk,
    none left out, compressed as if written at once."""
    monkeypatch.setattr(exports, "_ROWS_A_CHUNK", 1)
    fast = export_list("2010-07", fmt="xlsx")
    monkeypatch.setattr(exports, "_writable", lambda rows: None)

    assert export_list("2010-07", fmt="xlsx") == fast


def test_rows_that_fail_to_be_made_stop_the_sheet_s_writing_thread() -> None:
    """The rows are deflated by a thread of their own while the next are made (issue 25):
    what making them raises is raised, once that thread has ended, whatever it wrote."""

    def chunks() -> Iterator[bytes]:
        yield b"<row/>"
        raise ValueError("a row that cannot be made")

    out = io.BytesIO()
    with pytest.raises(ValueError, match="cannot be made"):
        exports._written_aside(out, chunks())

    assert out.getvalue() == b"<row/>"
    assert not [t for t in threading.enumerate() if t.name == "sheet-deflate"]


def test_a_member_that_refuses_its_rows_stops_their_making() -> None:
    """What the writing thread raises is raised here, and no more rows are made for it."""
    made: list[int] = []

    class Refusing(io.BytesIO):
        def write(self, data: Any) -> int:
            if len(made) > 1:
                raise OSError("disk full")
            return super().write(data)

    def chunks() -> Iterator[bytes]:
        for number in range(1000):
            made.append(number)
            yield b"<row/>"
            time.sleep(0.001)

    with pytest.raises(OSError, match="disk full"):
        exports._written_aside(Refusing(), chunks())

    assert len(made) < 1000
    assert not [t for t in threading.enumerate() if t.name == "sheet-deflate"]


# Text as names and clubs may hold it: markup characters, spaces at either end, only
# spaces, nothing, letters beyond ASCII; whole numbers up to and past 16 digits.
AWKWARD_ROWS: list[list[str | int | None]] = [
    ["A & B <Chess> Club", " Leading", "Trailing ", "   ", "", None, 0, -7],
    ["Łukasz Ó Briain", "a\tb", "x\ny", None, None, "B", 12345678901234567, 10**17],
    ["\r\n", "]]>", "a 'quoted' \"name\"", "\U0001f600", "lone \ud800", -(10**20)],
]


def test_rows_are_written_as_openpyxl_writes_them_for_awkward_text_and_numbers() -> None:
    assert exports.sheet_rows_xml(AWKWARD_ROWS, first=2) == _openpyxl_rows(AWKWARD_ROWS)


@pytest.mark.parametrize("value", ["=SUM(A1:A2)", "#N/A", "bell\x07", 1.5, True, date(2010, 7, 1)])
def test_a_value_openpyxl_writes_otherwise_leaves_the_sheet_to_openpyxl(value: Any) -> None:
    """A formula, an error code, a character a sheet cannot hold, or a value of another
    type: the fast writer declines (the export then has openpyxl write every row)."""
    assert exports.sheet_rows_xml([["Smith", value]], first=2) is None


def test_with_lxml_or_rows_near_a_zip64_member_the_sheet_is_left_to_openpyxl(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openpyxl writes text otherwise with lxml; and a member's ZIP64 is decided from its
    size before the rows are streamed into it."""
    rows: list[list[str | int | None]] = [["Smith, John", 120]]
    assert exports.sheet_rows_xml(rows, first=2) is not None
    monkeypatch.setattr(exports, "LXML", True)
    assert exports.sheet_rows_xml(rows, first=2) is None
    monkeypatch.setattr(exports, "LXML", False)
    monkeypatch.setattr(exports, "ZIP64_LIMIT", 200)
    assert exports.sheet_rows_xml(rows, first=2) is None


@pytest.mark.parametrize("text", ["=", "a\n=b", "x = 1", "A & B"])
def test_text_that_is_no_formula_is_written_by_the_fast_writer(text: str) -> None:
    """Issue 25: the sheet's text is checked all at once for what openpyxl reads as a
    formula (text of two characters or more beginning with '='); text that only has an
    '=' elsewhere, or is '=' alone, is written as openpyxl writes it, beside plain rows."""
    rows: list[list[str | int | None]] = [["Smith, John", "A", 120], ["Jones, Ann", text, None]]
    assert exports.sheet_rows_xml(rows, first=2) == _openpyxl_rows(rows)


@pytest.mark.parametrize("number", [2**53, -(2**53), 2**53 + 1, -(2**53) - 1, 10**15])
def test_numbers_are_written_as_openpyxl_writes_them_either_side_of_a_float_s_exactness(
    number: int,
) -> None:
    """Issue 25: openpyxl writes a number as a float's 16 digits; the sheet's rows write
    a number's own digits when every number is a float exactly, which those past 2**53
    are not."""
    rows: list[list[str | int | None]] = [["Smith, John", "A", 120], ["Jones, Ann", None, number]]
    assert exports.sheet_rows_xml(rows, first=2) == _openpyxl_rows(rows)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_category_no_list_holds_is_refused_rather_than_written(
    lists: dict[str, Player], fmt: str
) -> None:
    """The categories are looked up, not made by ``Category`` for each grade (issue 25),
    and one the database holds wrongly still stops the file, as ``Category`` did."""
    entries = ListEntry.objects.filter(version__grading_list__list_id="2010-07", published=True)
    QuerySet.update(entries.filter(player=lists["obrien"]), category="Z")

    with pytest.raises(ValueError, match="'Z'"):
        export_list("2010-07", fmt=fmt)


def test_a_formula_after_other_text_leaves_the_sheet_to_openpyxl() -> None:
    rows: list[list[str | int | None]] = [["Smith, John", "A"], ["Jones, Ann", "=B2"]]
    assert exports.sheet_rows_xml(rows, first=2) is None


def test_an_export_pauses_the_collector_and_turns_it_on_again(
    lists: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: an export makes a million short-lived objects and no cycles; the cycle
    collector's passes over them were a third of a national list's export."""
    seen: list[bool] = []
    rows = exports._rows

    def counted(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return rows(*args)

    monkeypatch.setattr(exports, "_rows", counted)
    export_list("2010-07")

    assert seen == [False]
    assert gc.isenabled()


def test_a_player_a_frozen_version_lacks_is_written_as_on_record(
    lists: dict[str, Player],
) -> None:
    """Issue 25: a frozen version's entries are read without their players' columns,
    which its snapshot holds; a player it does not hold (none, as versions are
    published) is read from the registry rather than left out."""
    current = published("2010-07", STANDARD)
    assert current is not None
    snapshot = freeze_published(current)
    bloggs = lists["bloggs"]
    lacking = [row for row in snapshot.players if row[0] != bloggs.id]
    found = PublishedSnapshot.objects.filter(pk=snapshot.pk)
    QuerySet.update(found, players=lacking)  # past its guard: it is never changed otherwise

    rows = parsed(export_list("2010-07", rates=[STANDARD]))

    found = [row for row in rows if row.code == GradingCode(261619)]
    assert [(row.name, row.sex, row.fide_code) for row in found] == [("Bloggs, Joe", "M", "400041")]
    assert len(rows) == ListEntry.objects.filter(version=current, published=True).count()


def _openpyxl_rows(rows: list[list[Any]]) -> bytes:
    """The <row> elements from row 2 of a sheet openpyxl writes (write-only), row 1 blank."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet("rows")
    sheet.append(["header"])
    for cells in rows:
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    with zipfile.ZipFile(out) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml")
    start = xml.index(b'<row r="2">')
    return xml[start : xml.rindex(b"</sheetData>")]


def _stat_an_hour_on(stat: Any) -> Any:
    """os.stat, with files an hour younger (a temporary sheet's mtime would date its member)."""

    def later(*args: Any, **kwargs: Any) -> Any:
        found = stat(*args, **kwargs)
        return os.stat_result((*found[:8], found.st_mtime + 3600, found.st_ctime))

    return later


# JSON --------------------------------------------------------------------------------------

KEYS = [
    "code",
    "name",
    "sex",
    "list",
    "rate",
    "version",
    "rule_set",
    "grade",
    "unrounded",
    "category",
    "previous_grade",
    "games_latest",
    "games_counted",
    "junior_age",
    "start_grade",
    "start_source",
    "flags",
    "august_grade",
    "revised",
    "clubs",
    "fide_code",
    "nation",
]


# The 2010-07 list's entries by code and rate, in the CSV's order (by name).
JSON_ORDER = [
    ("261619B", "standard"),
    ("261619B", "rapid"),
    ("100001K", "rapid"),
    ("233310H", "standard"),
    ("233310H", "rapid"),
]


def test_json_has_one_entry_per_published_player_and_rate(lists: dict[str, Player]) -> None:
    entries = json_entries(export_list("2010-07", fmt="json"))

    assert [(e["code"], e["rate"]) for e in entries] == JSON_ORDER
    assert all(list(e) == KEYS for e in entries)


@pytest.mark.parametrize("chunk", [1, 2, 4])
def test_json_encoded_in_chunks_is_one_entry_a_line_whatever_their_size(
    lists: dict[str, Player], monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """Issue 25: the lines are encoded a chunk at a time; whatever the chunk, the file is
    an array opened and closed on lines of their own, one entry a line between."""
    monkeypatch.setattr(exports, "_LINES_A_CHUNK", chunk)
    data = export_list("2010-07", fmt="json")

    lines = data.decode("utf-8").split("\n")
    assert lines[0] == "[" and lines[-2:] == ["]", ""]
    entries = [json.loads(line.removesuffix(",")) for line in lines[1:-2]]
    assert [(e["code"], e["rate"]) for e in entries] == JSON_ORDER
    assert all(line.endswith(",") for line in lines[1:-3]) and not lines[-3].endswith(",")
    assert json.loads(data) == entries


def test_a_json_entry_carries_the_grade_and_how_it_was_reached(lists: dict[str, Player]) -> None:
    entries = by_code_and_rate(export_list("2010-07", fmt="json"))

    assert entries["233310H", "standard"] == {
        "code": "233310H",
        "name": "Smith, Jane",
        "sex": "F",
        "list": "2010-07",
        "rate": "standard",
        "version": "august",
        "rule_set": "ecf-2009",  # G31
        "grade": 95,
        "unrounded": 94.5,
        "category": "C",
        "previous_grade": None,
        "games_latest": 12,
        "games_counted": 20,
        "junior_age": 9,
        "start_grade": 62.0,
        "start_source": "estimated",
        "flags": ["unanchored"],
        "august_grade": None,  # G27: the august version itself is exported
        "revised": False,
        "clubs": ["Anytown"],
        "fide_code": None,
        "nation": "ENG",
    }
    assert entries["261619B", "rapid"] == {
        "code": "261619B",
        "name": "Bloggs, Joe",
        "sex": "M",
        "list": "2010-07",
        "rate": "rapid",
        "version": "initial",
        "rule_set": "ecf-2009",
        "grade": 142,
        "unrounded": None,
        "category": "B",
        "previous_grade": 140,
        "games_latest": 18,
        "games_counted": 30,
        "junior_age": None,
        "start_grade": None,
        "start_source": None,
        "flags": [],
        "august_grade": None,  # no august version of the rapid list yet
        "revised": False,
        "clubs": ["Riverside Library*", "Anytown"],
        "fide_code": "400041",
        "nation": "ENG",
    }


# Versions ----------------------------------------------------------------------------------


def test_an_explicit_version_is_exported_with_its_august_grades(
    lists: dict[str, Player],
) -> None:
    entries = by_code_and_rate(export_list("2010-07", version="initial", fmt="json"))

    bloggs, smith = entries["261619B", "standard"], entries["233310H", "standard"]
    assert (bloggs["version"], bloggs["grade"]) == ("initial", 150)
    # G27: the initial grade against the august one.
    assert (bloggs["august_grade"], bloggs["revised"]) == (152, True)
    assert (smith["august_grade"], smith["revised"]) == (95, False)
    assert ("100001K", "standard") not in entries


def test_g27_a_revision_that_changes_a_grade_is_flagged(lists: dict[str, Player]) -> None:
    bloggs, smith, obrien = lists["bloggs"], lists["smith"], lists["obrien"]
    version(
        "2010-07",
        STANDARD,
        "rev2",
        {bloggs: entry(153, "A", 37), smith: entry(95, "C", 20), obrien: entry(70, "E", 9)},
        when(10, 1),
    )

    entries = by_code_and_rate(export_list("2010-07", fmt="json"))

    assert entries["261619B", "standard"]["version"] == "rev2"
    g27 = {(code, r): (e["august_grade"], e["revised"]) for (code, r), e in entries.items()}
    assert {key: pair for key, pair in g27.items() if key[1] == "rapid"} == {
        ("261619B", "rapid"): (None, False),  # no august version of the rapid list
        ("100001K", "rapid"): (None, False),
        ("233310H", "rapid"): (None, False),
    }
    standard = {code: pair for (code, r), pair in g27.items() if r == "standard"}
    assert standard == {
        "261619B": (152, True),  # 153 against august 152
        "233310H": (95, False),
        "100001K": (None, True),  # not published in august
    }


def test_a_draft_version_is_refused_saying_what_exists(lists: dict[str, Player]) -> None:
    with pytest.raises(ExportError) as error:
        export_list("2010-07", rates=[STANDARD], version="rev1")

    assert str(error.value) == (
        "expected the published version 'rev1' of list 2010-07 standard (drafts are never "
        "exported), got initial (published), august (published), rev1 (draft)"
    )


def test_a_version_missing_from_one_rate_is_refused(lists: dict[str, Player]) -> None:
    with pytest.raises(ExportError, match=r"'august' of list 2010-07 rapid.*got initial"):
        export_list("2010-07", version="august")


def test_a_list_with_only_drafts_is_refused(people: dict[str, Player]) -> None:
    version("2012-07", STANDARD, "initial", {people["bloggs"]: entry(150, "A", 36)})

    with pytest.raises(ExportError) as error:
        export_list("2012-07")

    assert "got initial (draft)" in str(error.value)
    assert "expected a published version of list 2012-07 standard" in str(error.value)


# A January list ----------------------------------------------------------------------------


def test_a_january_list_is_rapid_only(lists: dict[str, Player]) -> None:
    rows = parsed(export_list("2010-01"))
    entries = json_entries(export_list("2010-01", fmt="json"))

    assert rows == (
        GradeListRow(
            GradingCode(233310),
            "Smith, Jane",
            "F",
            None,  # a junior age only where the entry stores one
            RateGrade(),
            rate("C", 90, None, 12),
            ("Anytown",),
            "",
            "ENG",
        ),
    )
    assert [(e["code"], e["rate"], e["grade"]) for e in entries] == [("233310H", "rapid", 90)]


def test_a_standard_january_list_is_refused(lists: dict[str, Player]) -> None:
    with pytest.raises(ExportError, match="standard lists are published in July only"):
        export_list("2010-01", rates=[STANDARD])


# Who and what is left out ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_unpublished_entries_and_drafts_are_not_exported(
    lists: dict[str, Player], fmt: str
) -> None:
    text = readable(export_list("2010-07", fmt=fmt))

    assert "Ungraded" not in text and "123456A" not in text  # no category (G23)
    assert "Draft" not in text and "150000E" not in text  # only in the rev1 draft
    assert "Bloggs" in text


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_no_date_of_birth_leaves_the_system(lists: dict[str, Player], fmt: str) -> None:
    data = export_list("2010-07", fmt=fmt)
    raw, values = readable(data), shown(data)

    excel_serial = str((SMITH_BIRTH - date(1899, 12, 30)).days)
    for trace in ("2001-03-02", "02/03/2001", "2/3/2001", "birth", excel_serial):
        assert trace not in raw
    assert "2001" not in values
    assert "Smith" in values and "233310H" in values


def readable(data: bytes) -> str:
    """An export as text; a spreadsheet as the text of every part of its zip."""
    if not data.startswith(b"PK"):
        return data.decode("utf-8")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = [archive.read(name).decode("utf-8") for name in archive.namelist()]
    return "\n".join(parts)


def shown(data: bytes) -> str:
    """What a reader sees: the text, or a spreadsheet's cell values."""
    if not data.startswith(b"PK"):
        return data.decode("utf-8")
    return "\n".join(",".join(str(cell) for cell in row) for row in sheet_rows(data))


# Mistakes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"list_id": "2010-06"}, "expected a list such as 2010-07 or 2011-01, got '2010-06'"),
        ({"list_id": "2010-07", "fmt": "pdf"}, "expected a format csv, json or xlsx, got 'pdf'"),
        ({"list_id": "2014-07"}, "expected a grading list 2014-07 on record, got none"),
        ({"list_id": "2010-01", "rates": [STANDARD]}, "published in July only"),
        ({"list_id": "2009-07", "rates": [RAPID]}, "expected list 2009-07 rapid on record"),
        ({"list_id": "2010-07", "rates": ["blitz"]}, "expected a rate standard or rapid"),
        ({"list_id": "2010-07", "rates": []}, "expected at least one rate"),
    ],
)
def test_a_mistake_is_an_export_error_that_says_what_was_expected(
    lists: dict[str, Player], arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ExportError, match=message):
        export_list(**arguments)


# Queries -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_an_export_costs_the_same_queries_for_any_number_of_players(
    people: dict[str, Player], fmt: str, django_assert_num_queries: Any
) -> None:
    many = [player(200_000 + n, f"Player{n:03d}", "A") for n in range(60)]
    for rate_of_play in (STANDARD, RAPID):
        grades = {who: entry(100 + n, "A", 30) for n, who in enumerate(many)}
        version("2013-07", rate_of_play, "initial", grades, when(7, 1, 2013))
    for who in many:
        member(who, "Anytown", 2013, 2013)

    # rates; per rate: current version, previous list, august; what was frozen with the
    # versions (issue 24, case 14); each rate's entries, in rate order; clubs.
    with django_assert_num_queries(1 + 2 * 3 + 1 + 2 + 1):
        data = export_list("2013-07", fmt=fmt)

    assert "Player059" in readable(data)
