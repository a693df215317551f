"""Published grading lists out: the list CSV, a spreadsheet and JSON (G22-G27).

Only published versions leave the system, and of them only published entries (G23): a
draft is refused, never exported. Privacy (architecture, data rules; G25): player
columns are read by an explicit list of public fields, so a date of birth, an address or
an e-mail address is never even fetched; juniors' ages come from the entries.

Every export names the rule set each version was computed under (G31): JSON in a field
``rule_set`` of every entry, the spreadsheet in a second sheet about the list. The CSV is
the federation's fixed 20 columns (results-file.md section 2), which have no room for it.

Encodings (docs/formats.md, "Encodings"): the CSV is ISO-8859-1, as the graders' tools
read it, with every name Latin-1 cannot write transliterated and counted in the export's
report (``ExportedFile.transliterated``); JSON is UTF-8; the spreadsheet is XLSX.

An export makes a fixed handful of queries whatever the list's size (the versions, the
entries with their players, the previous list's and the august grades, the clubs).

A published version's files never change (G26; issue 24, case 14): publication freezes
what they show beside the entries (``services.lists.snapshots``, a ``PublishedSnapshot``:
names, clubs, the versions Grade1 and the august grades come from, the rule set's
words), and a version with a snapshot is written from it alone, never from the registry
as it is now. A version published before snapshots existed is written as before, from
the registry.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice, zip_longest
from operator import is_not
from pathlib import Path
from queue import Queue
from threading import Thread
from typing import IO, Any, NamedTuple, cast
from xml.sax.saxutils import escape
from zipfile import ZIP64_LIMIT, ZIP_DEFLATED, ZipFile, ZipInfo

from django.utils import timezone
from openpyxl import LXML, Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.writer.excel import ExcelWriter

from ecfgrading.collector import collector_paused
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Category, Rate
from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.formats.gradelist import (
    CLUB_COLUMNS,
    ENCODING,
    HEADER,
    GradeList,
    GradeListRow,
    RateGrade,
    write_grade_list,
)
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.guide import era as rule_set_era
from ecfgrading.lookups.memberships import club_labels
from ecfgrading.lookups.rows import fetch
from ecfgrading.lookups.versions import published
from ecfgrading.matching.transliteration import latin1, nfc
from ecfgrading.registry.models import (
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PublishedSnapshot,
)

FORMATS = ("csv", "json", "xlsx")
# Each format's revision: raised whenever the bytes of an unchanged version's file change
# (the CSV's to 2 when it became ISO-8859-1), so that a file kept in the shared cache or
# by its ETag (lookups.list_files) is never served as the new format's.
FORMAT_REVISIONS = {"csv": 2, "json": 1, "xlsx": 2}  # xlsx 2: the latest games columns
# The charset of each text format's bytes (the spreadsheet is a zip archive: none).
CHARSETS = {"csv": ENCODING, "json": "utf-8"}
RATE_ORDER = (Rate.STANDARD, Rate.RAPID)
# Privacy: the only player columns an export reads (never date_of_birth).
PLAYER_FIELDS = (
    "player__code",
    "player__surname",
    "player__forenames",
    "player__sex",
    "player__fide_id",
    "player__nation",
)
ENTRY_FIELDS = (
    "version_id",
    "player_id",
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
)


class ExportError(ServiceError):
    """A list, rate, version or format that cannot be exported as asked."""


class Transliteration(NamedTuple):
    """A name the file's encoding cannot write, and how it is written instead."""

    what: str  # "player" or "club"
    name: str
    written: str


@dataclass(frozen=True)
class ExportedFile:
    """An export's bytes and what it had to change to write them."""

    data: bytes
    charset: str | None  # the encoding of a text format (csv, json); None for xlsx
    transliterated: tuple[Transliteration, ...] = ()

    def count(self, what: str) -> int:
        return sum(1 for each in self.transliterated if each.what == what)


def export_list(
    list_id: str,
    *,
    rates: Sequence[Rate] | None = None,
    version: str | None = None,
    fmt: str = "csv",
) -> bytes:
    """A published list as ``fmt`` (csv, json or xlsx): its bytes (``export_file``)."""
    return export_file(list_id, rates=rates, version=version, fmt=fmt).data


def export_file(
    list_id: str,
    *,
    rates: Sequence[Rate] | None = None,
    version: str | None = None,
    fmt: str = "csv",
) -> ExportedFile:
    """A published list as ``fmt`` (csv, json or xlsx); raises ExportError.

    Rates default to those on record for the list id; the version defaults to each
    rate's current version, and an explicit one must be published in every rate.
    """
    write = _writer(fmt)
    target = _list_id(list_id)
    versions = {rate: _version(target, rate, version) for rate in _rates(target, rates)}
    # A national list's export makes a million short-lived objects and no cycles: with
    # the collector on, its passes over them (and over the served process's every
    # object) were a third to half of each export (issue 25, measured).
    with collector_paused():
        snapshots = _snapshots(versions)
        rule_sets = {v.pk: _rule_set(v, snapshots.get(v.pk)) for v in versions.values()}
        return write(target, versions, _rows(target, versions, snapshots), rule_sets)


# What to export ---------------------------------------------------------------------------


# Each writer is given the list, its versions, the rows and each version's rule set by id.
Writer = Callable[
    [ListId, Mapping[Rate, ListVersion], Sequence["_Row"], Mapping[int, "RuleSetWords"]],
    ExportedFile,
]


def _writer(fmt: str) -> Writer:
    writers = {"csv": _csv, "json": _json, "xlsx": _xlsx}
    if fmt not in writers:
        raise ExportError(
            f"expected a format {', '.join(FORMATS[:-1])} or {FORMATS[-1]}, got {fmt!r}"
        )
    return writers[fmt]


def _list_id(text: str) -> ListId:
    try:
        return ListId.parse(text)
    except ValueError as error:
        raise ExportError(str(error)) from None


def _rates(target: ListId, asked: Sequence[Rate | str] | None) -> tuple[Rate, ...]:
    """The rates asked (default: those on record), each on record for the list id."""
    on_record = _rates_on_record(target)
    if asked is None and not on_record:
        raise ExportError(
            f"expected a grading list {target} on record, got none", kind=ErrorKind.NOT_FOUND
        )
    chosen = on_record if asked is None else _asked_rates(target, asked)
    for rate in chosen:
        if rate not in on_record:
            listed = " and ".join(on_record) or "none"
            raise ExportError(
                f"expected list {target} {rate} on record, got {listed}", kind=ErrorKind.NOT_FOUND
            )
    return chosen


def _rates_on_record(target: ListId) -> tuple[Rate, ...]:
    found = set(GradingList.objects.filter(list_id=str(target)).values_list("rate", flat=True))
    return tuple(rate for rate in RATE_ORDER if rate in found)


def _asked_rates(target: ListId, asked: Sequence[Rate | str]) -> tuple[Rate, ...]:
    try:
        chosen = tuple(dict.fromkeys(Rate(rate) for rate in asked))
    except ValueError as error:
        raise ExportError(f"expected a rate standard or rapid: {error}") from None
    if not chosen:
        raise ExportError("expected at least one rate (standard or rapid), got none")
    for rate in chosen:
        try:
            target.check_rate(rate)  # a January list has only a rapid part
        except ValueError as error:
            raise ExportError(str(error)) from None
    return chosen


def _version(target: ListId, rate: Rate, name: str | None) -> ListVersion:
    """The current version, or the named one; published either way (drafts never leave)."""
    found = published(target, rate) if name is None else _named(target, rate, name)
    if found is None:
        raise ExportError(_missing_version(target, rate, name), kind=ErrorKind.NOT_FOUND)
    return found


def _named(target: ListId, rate: Rate, name: str) -> ListVersion | None:
    versions = ListVersion.objects.filter(
        grading_list__list_id=str(target), grading_list__rate=rate, name=name
    )
    published_only = versions.filter(status=ListVersion.Status.PUBLISHED)
    return published_only.select_related("grading_list").first()


def _missing_version(target: ListId, rate: Rate, name: str | None) -> str:
    versions = ListVersion.objects.filter(
        grading_list__list_id=str(target), grading_list__rate=rate
    )
    listed = [f"{v.name} ({v.status})" for v in versions.order_by("id")]
    wanted = "a published version" if name is None else f"the published version {name!r}"
    got = ", ".join(listed) or "no version"
    return f"expected {wanted} of list {target} {rate} (drafts are never exported), got {got}"


# The rows ---------------------------------------------------------------------------------


class _Player(NamedTuple):
    """A player's public details (G25: no date of birth)."""

    code: GradingCode
    name: str  # 'Surname, Forenames'
    sex: str
    fide_code: str
    nation: str
    clubs: tuple[str, ...]  # most recent first; locations with '*'


class _Grade(NamedTuple):
    """One published entry: a player's grade of one rate in the exported version."""

    rate: Rate
    version: str
    rule_set: str  # G31: the rule set the version was computed under
    grade: int | None
    unrounded: float | None
    category: str
    previous: int | None  # Grade1
    games_latest: int  # G24
    games_counted: int  # G24
    junior_age: int | None  # G25
    start_grade: float | None
    start_source: str
    flags: tuple[str, ...]
    august_grade: int | None  # G27
    revised: bool  # G27


class _Row(NamedTuple):
    """One player of the list with his grade of each rate he is published in (a tuple:
    a national list makes 37,000)."""

    player: _Player
    grades: Mapping[Rate, _Grade]

    @property
    def junior_age(self) -> int | None:
        for grade in self.grades.values():
            if grade.junior_age is not None:
                return grade.junior_age
        return None

    def sort_key(self) -> tuple[str, str, int]:
        name = self.player.name
        return name.casefold(), name, self.player.code.number


@dataclass(frozen=True)
class _Context:
    """Per rate: the exported version, Grade1 by player (G4), august grades (G27)."""

    version: ListVersion
    previous: Mapping[int, int | None]
    august: Mapping[int, int | None] | None  # None: G27 does not apply


def _rows(
    target: ListId,
    versions: Mapping[Rate, ListVersion],
    snapshots: Mapping[int, PublishedSnapshot],
) -> list[_Row]:
    """Every published player of the versions, with his grade of each rate in rate order,
    sorted by name. Each version's entries are read as plain rows (``lookups.rows.fetch``:
    no field converts a number or a text), the versions in rate order, so that each
    player's grades are so already: a national list's 45,000 entries read through the
    ORM's named rows, then put in rate order, were over a third of its files' time once
    the collector was paused (issue 25, sampled)."""
    entries = ListEntry.objects.filter(published=True).order_by()  # theirs joins and sorts
    frozen = _frozen_players(versions, snapshots)
    live = entries.filter(version__in=[v.pk for v in versions.values() if v.pk not in snapshots])
    season = target.season()
    clubs = club_labels(live.values("player_id"), season) if len(snapshots) < len(versions) else {}
    players: dict[int, _Player] = {}
    grades: dict[int, dict[Rate, _Grade]] = {}
    for rate in RATE_ORDER:
        version = versions.get(rate)
        if version is None:
            continue
        context = _context(target, rate, version, snapshots.get(version.pk))
        of_version = entries.filter(version=version.pk)
        if version.pk in snapshots:  # its players as frozen: no need to join theirs
            found = _frozen_or_read(fetch(of_version.values_list(*ENTRY_FIELDS)), frozen)
        else:
            found = fetch(of_version.values_list(*ENTRY_FIELDS, *PLAYER_FIELDS))
        for values in found:
            pk = values[_PLAYER_ID]
            if pk not in players:
                players[pk] = frozen[pk] if pk in frozen else _player(values, clubs.get(pk, ()))
            grades.setdefault(pk, {})[rate] = _grade(values, rate, context)
    rows = [_Row(players[pk], grades[pk]) for pk in players]
    return sorted(rows, key=_Row.sort_key)


def _frozen_or_read(
    rows: list[tuple[Any, ...]], frozen: Mapping[int, _Player]
) -> list[tuple[Any, ...]]:
    """A frozen version's entries (ENTRY_FIELDS), a player frozen with none of the
    versions (never, as versions are published) given his PLAYER_FIELDS as on record."""
    missing = {row[_PLAYER_ID] for row in rows}.difference(frozen)
    if not missing:
        return rows
    columns = [name.removeprefix("player__") for name in PLAYER_FIELDS]
    read = Player.objects.filter(id__in=missing).order_by().values_list("id", *columns)
    found = {pk: fields for pk, *fields in fetch(read)}
    return [row if row[_PLAYER_ID] in frozen else (*row, *found[row[_PLAYER_ID]]) for row in rows]


# Where each field is in a row of ENTRY_FIELDS then PLAYER_FIELDS, by its name.
_AT = {name: at for at, name in enumerate((*ENTRY_FIELDS, *PLAYER_FIELDS))}
_PLAYER_ID, _GRADE, _UNROUNDED, _CATEGORY = (
    _AT[name] for name in ("player_id", "grade", "unrounded", "category")
)
_PREVIOUS, _GAMES_LATEST, _GAMES_COUNTED, _JUNIOR_AGE = (
    _AT[name] for name in ("previous_grade", "games_latest", "games_counted", "junior_age")
)
_START_GRADE, _START_SOURCE, _FLAGS = (
    _AT[name] for name in ("start_grade", "start_source", "flags")
)
_CODE, _SURNAME, _FORENAMES, _SEX, _FIDE_ID, _NATION = (
    _AT[f"player__{name}"] for name in ("code", "surname", "forenames", "sex", "fide_id", "nation")
)


def _context(
    target: ListId, rate: Rate, version: ListVersion, snapshot: PublishedSnapshot | None
) -> _Context:
    """Grade1 and the august grades: from the versions frozen with it if it has a snapshot,
    else from the versions published now."""
    if snapshot is not None:
        august = None if snapshot.august is None else _grades_in(snapshot.august)
        return _Context(version, _grades_in(snapshot.previous), august)
    previous = previous_version(target, rate)
    return _Context(version, _grades_in(previous), _august_grades(target, rate, version))


def previous_version(target: ListId, rate: Rate) -> ListVersion | None:
    """G4: the current version of the list before this one of the rate."""
    return published(target.previous_same_rate(rate), rate)


def _august_grades(
    target: ListId, rate: Rate, version: ListVersion
) -> Mapping[int, int | None] | None:
    """G27: for a July list exported at another version, the august grades if published."""
    august = august_version(target, rate, version)
    return None if august is None else _grades_in(august)


def august_version(target: ListId, rate: Rate, version: ListVersion) -> ListVersion | None:
    """G27: the list's published august version, for any later version of a July list."""
    if not version.grading_list.has_august or version.name == ListVersion.AUGUST:
        return None
    return _named(target, rate, ListVersion.AUGUST)


# Frozen with the version -------------------------------------------------------------------


def _snapshots(versions: Mapping[Rate, ListVersion]) -> dict[int, PublishedSnapshot]:
    found = PublishedSnapshot.objects.filter(version__in=[v.pk for v in versions.values()])
    return {each.version_id: each for each in found.select_related("previous", "august")}


def frozen_rows(version: ListVersion, season: int) -> list[list[Any]]:
    """What a snapshot keeps of each published player (G23) of ``version`` as the registry
    holds him now: [player id, code, 'Surname, Forenames', sex, FIDE code, nation,
    [clubs]], by name; public fields only (``PLAYER_FIELDS``). Two queries, plain rows:
    a national list's 30,000 players in a fraction of a second (``_frozen_players`` reads
    them back)."""
    entries = ListEntry.objects.filter(version=version, published=True).order_by(
        "player__surname", "player__forenames", "player__code"
    )
    clubs = club_labels(entries.values("player_id"), season)
    rows = fetch(entries.values_list("player_id", *PLAYER_FIELDS))
    return [
        [
            pk,
            code,
            full_name(surname, forenames),
            sex,
            _fide_code(fide_id),
            nation,
            list(clubs.get(pk, ())),
        ]
        for pk, code, surname, forenames, sex, fide_id, nation in rows
    ]


def _frozen_players(
    versions: Mapping[Rate, ListVersion], snapshots: Mapping[int, PublishedSnapshot]
) -> dict[int, _Player]:
    """Players as frozen with the versions (``frozen_rows``); of two versions that both
    hold a player (a file of both rates), the one published later."""
    found: dict[int, _Player] = {}
    latest_first = sorted(versions.values(), key=lambda v: (v.published_at, v.pk), reverse=True)
    for version in latest_first:  # each player made once, as the latest holding him has him
        snapshot = snapshots.get(version.pk)
        for pk, code, name, sex, fide_code, nation, clubs in snapshot.players if snapshot else ():
            if pk not in found:
                found[pk] = _Player(GradingCode(code), name, sex, fide_code, nation, tuple(clubs))
    return found


class RuleSetWords(NamedTuple):
    """G31: a version's rule set, named and in words, as the spreadsheet shows it."""

    name: str
    words: str


def _rule_set(version: ListVersion, snapshot: PublishedSnapshot | None) -> RuleSetWords:
    """As frozen with the version if it was, else as the guide says it now."""
    if snapshot is not None:
        return RuleSetWords(snapshot.rule_set, snapshot.rule_words)
    era = rule_set_era(version.rules_name)
    return RuleSetWords(era.name, era.words)


def _grades_in(version: ListVersion | None) -> dict[int, int | None]:
    """Published grades of a version by player id (empty for no version)."""
    if version is None:
        return {}
    entries = ListEntry.objects.filter(version=version, published=True).order_by()
    return dict(fetch(entries.values_list("player_id", "grade")))


def _player(values: Sequence[Any], clubs: tuple[str, ...]) -> _Player:
    return _Player(
        code=GradingCode(values[_CODE]),
        name=full_name(values[_SURNAME], values[_FORENAMES]),
        sex=values[_SEX],
        fide_code=_fide_code(values[_FIDE_ID]),
        nation=values[_NATION],
        clubs=clubs,
    )


def _fide_code(fide_id: int | None) -> str:
    return "" if fide_id is None else str(fide_id)


def _grade(values: Sequence[Any], rate: Rate, context: _Context) -> _Grade:
    grade, pk, flags = values[_GRADE], values[_PLAYER_ID], values[_FLAGS]
    august = None if context.august is None else context.august.get(pk)
    return _Grade(
        rate,
        context.version.name,
        context.version.rules_name,
        grade,
        values[_UNROUNDED],
        values[_CATEGORY],
        _grade1(context.previous.get(pk), values[_PREVIOUS]),
        values[_GAMES_LATEST],
        values[_GAMES_COUNTED],
        values[_JUNIOR_AGE],
        values[_START_GRADE],
        values[_START_SOURCE],
        tuple(flag.strip() for flag in flags.split(",") if flag.strip()) if flags else (),
        august,
        # G27: highlighted when the grade differs from the august grade (or he had none).
        context.august is not None and august != grade,
    )


def _grade1(in_previous_list: int | None, stored: int | None) -> int | None:
    """Grade1: the previous list's current grade (G4), else the one stored with the entry."""
    return stored if in_previous_list is None else in_previous_list


# CSV and XLSX -----------------------------------------------------------------------------


def _csv(
    target: ListId,
    versions: Mapping[Rate, ListVersion],
    rows: Sequence[_Row],
    rule_sets: Mapping[int, RuleSetWords],
) -> ExportedFile:
    """results-file.md section 2, one row per player graded in either rate (the fixed 20
    columns: no rule set, G31, which the JSON and the spreadsheet name), in ISO-8859-1
    with the names it cannot write transliterated (docs/formats.md, "Encodings")."""
    written, changed = _in_latin1([_list_row(row) for row in rows])
    data = write_grade_list(GradeList(written)).encode(ENCODING)  # strict: all writable
    return ExportedFile(data, ENCODING, changed)


def _in_latin1(
    rows: Sequence[GradeListRow],
) -> tuple[tuple[GradeListRow, ...], tuple[Transliteration, ...]]:
    """The rows with names and clubs Latin-1 can write; each player's name changed, and
    each club's name once, however many players it has."""
    players: list[Transliteration] = []
    clubs: dict[str, str] = {}
    written: list[GradeListRow] = []
    for row in rows:
        for club in row.clubs:
            if club not in clubs:
                clubs[club] = latin1(club)
        club_names = tuple(clubs[club] for club in row.clubs)
        if row.name.isascii() and club_names == row.clubs:
            written.append(row)  # most rows: nothing to write otherwise (ASCII is NFC)
            continue
        name = latin1(row.name)
        if name != nfc(row.name):
            players.append(Transliteration("player", row.name, name))
        written.append(replace(row, name=name, clubs=club_names))
    changed = [Transliteration("club", club, as_written) for club, as_written in clubs.items()]
    kept = [each for each in changed if each.written != nfc(each.name)]
    return tuple(written), (*players, *kept)


def _list_row(row: _Row) -> GradeListRow:
    player, grades = row.player, row.grades
    return GradeListRow(
        player.code,
        player.name,
        player.sex,
        row.junior_age,
        _rate_grade(grades.get(_STANDARD)),
        _rate_grade(grades.get(_RAPID)),
        player.clubs,
        player.fide_code,
        player.nation,
    )


# A national list's files make 75,000 rates' columns, each asking these: looked up, not
# made of the Rate and Category enums' constructors (issue 25).
_STANDARD, _RAPID = Rate.STANDARD, Rate.RAPID
_NO_GRADE = RateGrade()
_CATEGORIES = {category.value: category for category in Category}


def _rate_grade(grade: _Grade | None) -> RateGrade:
    if grade is None:
        return _NO_GRADE
    return RateGrade(_category(grade), grade.grade, grade.previous, grade.games_counted)


def _category(grade: _Grade) -> Category:
    """The grade's category; ValueError for one that is none (as ``Category`` raises)."""
    found = _CATEGORIES.get(grade.category)
    return Category(grade.category) if found is None else found


Cell = str | int | None
# The seed's first Games figure, games in the latest 12 months (G24), beside the CSV's
# Games (games counted, its second figure). The CSV's 20 columns are the federation's
# fixed layout (results-file.md section 2) and have no room for it; the sheet adds it
# after them, so a reader of its first 20 columns reads it as before.
LATEST_GAMES_HEADER = ("GamesLatest", "RGamesLatest")


def _xlsx(
    target: ListId,
    versions: Mapping[Rate, ListVersion],
    rows: Sequence[_Row],
    rule_sets: Mapping[int, RuleSetWords],
) -> ExportedFile:
    """The CSV's columns in a sheet named after the list, numbers as numbers, and after
    them the latest games of each rate; then a sheet ``About`` naming each rate's version
    and the rule set it was computed under (G31)."""
    values = [_sheet_cells(row) for row in rows]  # what they refuse, before any sheet
    book = Workbook(write_only=True)  # streams rows: a quarter faster on a full list
    sheet = book.create_sheet(str(target))
    sheet.freeze_panes = "A2"
    sheet.append([_bold(sheet, name) for name in (*HEADER, *LATEST_GAMES_HEADER)])
    fast = _fast_rows(values)
    if fast is None:  # a value openpyxl writes otherwise (never yet): it writes every row
        for cells in values:
            sheet.append(cells)
    _about_sheet(book, target, versions, rule_sets)
    stamp = dt.datetime(target.year, target.month, 1)
    book.properties.created = book.properties.modified = stamp
    spliced: dict[str, Iterable[bytes]] = {}
    if fast is not None:  # made as the sheet's member is written, at the end of its rows
        member = f"xl/worksheets/sheet{book.worksheets.index(sheet) + 1}.xml"
        spliced[member] = _rows_xml(values, 2, fast)
    out = io.BytesIO()
    with _Dated(out, "w", ZIP_DEFLATED, allowZip64=True, stamp=stamp, spliced=spliced) as archive:
        ExcelWriter(book, archive).write_data()
    return ExportedFile(out.getvalue(), None)


# The sheet's rows as openpyxl's write-only sheet writes them (cell/_writer.py,
# etree_write_cell), byte for byte, without its element objects: a national list's
# 400,000 cells took it 3.8 of the spreadsheet's 4.4 s (issue 25). Only the values the
# list's rows hold are written here (text, whole numbers, None for no cell); anything
# else, or text openpyxl would read as a formula or an error code or refuse, leaves the
# whole sheet to openpyxl (``_writable``). Made 5,000 rows at a time, as the zip member
# takes them (``_written_aside``, on another thread): all at once, the national list's
# 19 MB of text had tripled the export's peak memory (197 MiB traced); a thousand at a
# time, each handed over waited for the interpreter's lock more than its deflating took
# (issue 25). The national list's spreadsheet: 650 -> 595 ms to write, its peak traced
# memory 70 -> 82 MiB (10,000 at a time: 575 ms, 99 MiB).
_ROWS_A_CHUNK = 5000


def sheet_rows_xml(rows: Sequence[Sequence[Cell]], first: int) -> bytes | None:
    """``rows``' ``<row>`` elements, numbered from ``first``, in UTF-8, as the export
    writes them; None if it would leave them to openpyxl (``_fast_rows``)."""
    fast = _fast_rows(rows)
    if fast is None:
        return None
    return b"".join(_rows_xml(rows, first, fast))


class _Fast(NamedTuple):
    """What ``_rows_xml`` needs to know of rows it writes as openpyxl would."""

    odd: frozenset[str]  # their text that is not plain (``_PLAIN_TEXT``)
    exact: bool  # every number a float holds exactly: its text is its digits


def _fast_rows(rows: Sequence[Sequence[Cell]]) -> _Fast | None:
    """If ``_rows_xml`` writes these rows as openpyxl would: openpyxl writing with
    ElementTree (with lxml it writes text otherwise), every value ``_writable``, and the
    rows' text surely short of the size at which a zip member needs ZIP64 (decided from
    the size before it is written: the rows are written after the member is opened);
    else None."""
    if LXML:
        return None
    values = _writable(rows)
    if values is None:
        return None
    texts, numbers = values
    cells = sum(map(len, rows))
    most = _MOST_A_ROW * len(rows) + _MOST_A_CELL * cells + _MOST_A_CHAR * sum(map(len, texts))
    if most * 1.05 >= ZIP64_LIMIT // 2:  # half for the sheet's own text around them
        return None
    odd = frozenset(text for text in set(texts) if not _PLAIN_TEXT(text))
    exact = max(map(abs, numbers), default=0) <= _EXACT
    return _Fast(odd, exact)


# openpyxl writes a number as a float's 16 significant digits; a whole number of at most
# 2**53 in size is a float exactly, and those digits are its own (tested).
_EXACT = 2**53


# Upper bounds of the bytes written: a row's tags, a cell's (its reference, type and
# tags, or a number's 23 characters), a character of text (escaped or a reference).
_MOST_A_ROW, _MOST_A_CELL, _MOST_A_CHAR = 40, 100, 10
_NONE = type(None)
_KINDS = frozenset({str, int, _NONE})
_GIVEN = partial(is_not, None)  # a value, not None


def _writable(rows: Sequence[Sequence[Cell]]) -> tuple[list[str], list[int]] | None:
    """The rows' text and numbers, if every value is one ``_rows_xml`` writes as openpyxl
    does: no value, a whole number, or text openpyxl keeps as text (not a formula or an
    error code, nothing it refuses); else None. Asked of a national sheet's 940,000 values at
    once, each test a pass in C where it can be: one by one they took a sixth of the
    spreadsheet's time (issue 25). Column by column: a column holds one kind of value
    but for its empty cells, whose every value is then taken by one pass in C."""
    texts: list[str] = []
    numbers: list[int] = []
    for column in zip_longest(*rows):  # None past the end of a shorter row: no cell
        kinds = set(map(type, column))
        if not _KINDS.issuperset(kinds):
            return None
        given = list(filter(_GIVEN, column)) if _NONE in kinds else column
        if str not in kinds:  # numbers alone (kinds checked above)
            numbers += cast("Sequence[int]", given)
        elif int not in kinds:  # text alone
            texts += cast("Sequence[str]", given)
        else:
            texts += [value for value in given if type(value) is str]
            numbers += [value for value in given if type(value) is int]
    # Joined by a line end, which is no character openpyxl refuses, to be searched once.
    joined = "\n".join(texts)
    if ILLEGAL_CHARACTERS_RE.search(joined) or max(map(len, texts), default=0) > 32767:
        return None
    if not _ERROR_CODES.isdisjoint(texts):
        return None
    formula = (joined[:1] == "=" or "\n=" in joined) and any(
        len(text) > 1 for text in texts if text[:1] == "="
    )
    return None if formula else (texts, numbers)


_ERROR_CODES = frozenset(ERROR_CODES)


def _rows_xml(rows: Sequence[Sequence[Cell]], first: int, fast: _Fast) -> Iterator[bytes]:
    """The rows (every value ``_writable``, as ``fast`` found them) in chunks of
    ``_ROWS_A_CHUNK``. A row whose text is all plain is written by one
    ``str.format`` of a template made once for each shape of row (which cells are empty,
    numbers or text): cell by cell, a national sheet's 830,000 cells were a quarter of
    its time (issue 25)."""
    width = max(map(len, rows), default=0)
    columns = [get_column_letter(index) for index in range(1, width + 1)]
    templates: dict[tuple[type, ...], str] = {}
    odd, number_field = fast.odd, "{{{}}}" if fast.exact else "{{{}:.16g}}"
    for start in range(0, len(rows), _ROWS_A_CHUNK):
        parts: list[str] = []
        add = parts.append
        for number, cells in enumerate(rows[start : start + _ROWS_A_CHUNK], start=first + start):
            if odd and not odd.isdisjoint(cells):
                add(_row_xml(columns, number, cells))
                continue
            shape = tuple(map(type, cells))
            template = templates.get(shape)
            if template is None:
                template = templates[shape] = _row_template(columns, shape, number_field)
            add(template.format(number, *cells))
        # A lone surrogate (no database holds one) as openpyxl's ElementTree writes it.
        yield "".join(parts).encode("utf-8", "xmlcharrefreplace")


def _row_template(columns: Sequence[str], shape: Sequence[type], number_field: str) -> str:
    """``_row_xml`` of a row of this shape with plain text, for ``str.format`` of the
    row's number then its cells; ``number_field``: a number's field, '{}' filled with its
    place."""
    cells = []
    for index, (column, kind) in enumerate(zip(columns, shape, strict=False), start=1):
        at = f"{column}{{0}}"
        if kind is int:
            cells.append(f'<c r="{at}" t="n"><v>{number_field.format(index)}</v></c>')
        elif kind is str:
            cells.append(f'<c r="{at}" t="inlineStr"><is><t>{{{index}}}</t></is></c>')
    return '<row r="{0}">' + "".join(cells) + "</row>"


def _row_xml(columns: Sequence[str], number: int, cells: Sequence[Cell]) -> str:
    """A row cell by cell, as openpyxl writes it."""
    parts = [f'<row r="{number}">']
    for column, value in zip(columns, cells, strict=False):
        if value is None:
            continue
        if type(value) is int:
            parts.append(f'<c r="{column}{number}" t="n"><v>{value:.16g}</v></c>')
        else:
            parts.append(_text_cell(f"{column}{number}", str(value)))
    parts.append("</row>")
    return "".join(parts)


# Text with nothing ElementTree escapes and no white space at either end that ``strip``
# would take (``_text_cell``'s ``xml:space``), which a template writes as it is.
_PLAIN_TEXT = re.compile(r"[^&<>\s](?:[^&<>]*[^&<>\s])?\Z").match


def _text_cell(at: str, value: str) -> str:
    if not value:
        return f'<c r="{at}" t="inlineStr" />'
    if "&" in value or "<" in value or ">" in value:
        value = escape(value)  # as ElementTree escapes text: &, < and >
    stripped = value.strip()
    space = ' xml:space="preserve"' if stripped and stripped != value else ""
    return f'<c r="{at}" t="inlineStr"><is><t{space}>{value}</t></is></c>'


class _Dated(ZipFile):
    """A zip archive whose every member bears one date, not the time it was written:
    a published version's spreadsheet is the same bytes however often it is made.
    ``spliced``: rows written apart (``_rows_xml``), streamed into the member so named
    at the end of its rows."""

    def __init__(
        self,
        *args: Any,
        stamp: dt.datetime,
        spliced: Mapping[str, Iterable[bytes]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._stamp = stamp.timetuple()[:6]
        self._spliced = spliced or {}

    def _dated(self, member: str | ZipInfo) -> ZipInfo:
        if isinstance(member, ZipInfo):
            return member
        info = ZipInfo(member, date_time=self._stamp)
        info.compress_type = self.compression
        return info

    def writestr(  # type: ignore[override]
        self, member: str | ZipInfo, data: Any, *args: Any, **kwargs: Any
    ) -> None:
        super().writestr(self._dated(member), data, *args, **kwargs)

    def write(  # type: ignore[override]
        self, filename: Any, arcname: Any = None, *args: Any, **kwargs: Any
    ) -> None:
        written = Path(filename)  # a worksheet streamed to a temporary file
        name = arcname or written.name
        data = written.read_bytes()
        body = self._spliced.get(name)
        if body is None:
            self.writestr(name, data)
            return
        # As writestr writes (ZipFile.open for writing), in pieces: the same bytes.
        end = data.rindex(b"</sheetData>")
        info = self._dated(name)
        # writestr sets the whole size first, from which ZipFile decides on ZIP64; the
        # rows are known short of it (_fast_rows), and the size is the pieces' once closed.
        info.file_size = len(data)
        with self.open(info, mode="w") as member:
            member.write(data[:end])
            _written_aside(member, body)
            member.write(data[end:])


def _written_aside(member: IO[bytes], chunks: Iterable[bytes]) -> None:
    """Each chunk written into ``member`` by a thread of its own while this one makes the
    next: a zip member's write is its CRC and its deflating, both of which let go of the
    interpreter's lock, so that a national sheet's 19 MB are deflated (0.24 s) on another
    core while its rows are made (issue 25). The same bytes in the same order as written
    here; what either side raises is raised here, once the thread has ended."""
    handed: Queue[bytes | None] = Queue(maxsize=2)
    failed: list[BaseException] = []

    def drain() -> None:
        while (chunk := handed.get()) is not None:
            if failed:
                continue  # taken, so that the maker never waits on a full queue
            try:
                member.write(chunk)
            except BaseException as error:  # raised by the maker once its rows are made
                failed.append(error)

    thread = Thread(target=drain, name="sheet-deflate", daemon=True)
    thread.start()
    try:
        for chunk in chunks:
            if failed:
                break
            handed.put(chunk)
    finally:
        handed.put(None)
        thread.join()
    if failed:
        raise failed[0]


ABOUT_SHEET = "About"
ABOUT_HEADER = ("List", "Rate", "Version", "Published", "Rule set", "Rules")


def _about_sheet(
    book: Workbook,
    target: ListId,
    versions: Mapping[Rate, ListVersion],
    rule_sets: Mapping[int, RuleSetWords],
) -> None:
    """G31: which version of each rate the file holds and the rule set that computed it."""
    sheet = book.create_sheet(ABOUT_SHEET)
    sheet.append([_bold(sheet, name) for name in ABOUT_HEADER])
    for rate in RATE_ORDER:
        version = versions.get(rate)
        if version is None:
            continue
        published_on = None
        if version.published_at is not None:
            published_on = timezone.localtime(version.published_at).date()
        rule_set, words = rule_sets[version.pk]
        sheet.append([str(target), rate.value, version.name, published_on, rule_set, words or None])


def _bold(sheet: Any, text: str) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=text)
    cell.font = Font(bold=True)
    return cell


def _sheet_cells(row: _Row) -> list[Cell]:
    """The CSV's columns (``formats.gradelist``'s, as ``_list_row`` gives them), numbers
    as numbers and nothing for an empty cell, then the latest games of each rate (G24),
    blank where the player has no grade of it. Made from the row itself, not through the
    CSV's row: a national sheet's 37,000 rows made twice over were a sixth of its time
    (issue 25)."""
    player, grades = row.player, row.grades
    standard, rapid = grades.get(_STANDARD), grades.get(_RAPID)
    clubs, fide = player.clubs[:CLUB_COLUMNS], player.fide_code
    return [
        str(player.code),
        player.name,
        player.sex or None,
        row.junior_age,
        *_grade_cells(standard),
        *_grade_cells(rapid),
        *clubs,
        *_NO_CLUBS[len(clubs) :],
        int(fide) if fide.isdigit() else fide or None,
        player.nation,
        None if standard is None else standard.games_latest,
        None if rapid is None else rapid.games_latest,
    ]


_NO_CLUBS: tuple[None, ...] = (None,) * CLUB_COLUMNS
_NO_CELLS: tuple[None, ...] = (None,) * 4


def _grade_cells(grade: _Grade | None) -> tuple[Cell, ...]:
    """A rate's category, grade, previous grade and games counted, as the CSV's."""
    if grade is None:
        return _NO_CELLS
    return (_category(grade).value or None, grade.grade, grade.previous, grade.games_counted)


# JSON -------------------------------------------------------------------------------------


def _json(
    target: ListId,
    versions: Mapping[Rate, ListVersion],
    rows: Sequence[_Row],
    rule_sets: Mapping[int, RuleSetWords],
) -> ExportedFile:
    """An array of one object per published player and rate, sorted like the CSV.

    One entry a line: readable and diffable, and each line goes through the C encoder
    (an ``indent`` would not).
    """
    charset = CHARSETS["json"]
    listed = str(target)  # once, not once an entry: 45,000 of them a national list
    lines = (_json_line(_json_entry(listed, row, grade)) for row, grade in _each_grade(rows))
    out = io.BytesIO()
    while chunk := list(islice(lines, _LINES_A_CHUNK)):
        out.write(("[\n" if not out.tell() else ",\n").encode(charset))
        out.write(",\n".join(chunk).encode(charset))
    out.write(b"\n]\n" if out.tell() else b"[]\n")
    return ExportedFile(out.getvalue(), charset)


# Lines encoded a thousand at a time: all at once, a national list's 45,000 lines were
# held three times over (as lines, joined, encoded), its export's peak 174 MiB traced.
_LINES_A_CHUNK = 1000


def _json_line(entry: dict[str, Any]) -> str:
    return _ENCODE(entry)


# json.dumps makes an encoder for each call given any option (ensure_ascii, allow_nan):
# made once, 45,000 lines like the national list's are encoded in two thirds of the
# time (0.29 -> 0.20 s, issue 25).
# Its encode keeps nothing from one call to the next: any thread may use it.
_ENCODE = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode


def _each_grade(rows: Sequence[_Row]) -> Iterator[tuple[_Row, _Grade]]:
    for row in rows:
        for grade in row.grades.values():
            yield row, grade


def _json_entry(listed: str, row: _Row, grade: _Grade) -> dict[str, Any]:
    player = row.player
    return {
        "code": str(player.code),
        "name": player.name,
        "sex": player.sex or None,
        "list": listed,
        "rate": grade.rate.value,
        "version": grade.version,
        "rule_set": grade.rule_set,  # G31
        "grade": grade.grade,
        "unrounded": grade.unrounded,
        "category": grade.category or None,
        "previous_grade": grade.previous,
        "games_latest": grade.games_latest,
        "games_counted": grade.games_counted,
        "junior_age": grade.junior_age,
        "start_grade": grade.start_grade,
        "start_source": grade.start_source or None,
        "flags": list(grade.flags),
        "august_grade": grade.august_grade,
        "revised": grade.revised,
        "clubs": list(player.clubs),
        "fide_code": player.fide_code or None,
        "nation": player.nation,
    }
