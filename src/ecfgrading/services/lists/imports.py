"""Load a published grading-list CSV as the starting point of the system.

A federation starts from its last published list (``gradesYYYYMM.csv``, results-file.md
section 2): its players and their codes, their clubs, and one published ``initial``
version of each rate asked, whose entries later lists take as previous grades (G4, G5).

The whole file is loaded in one transaction, with a handful of queries per thousand
rows: the players, clubs and memberships on record are read into dictionaries first;
new players, memberships and entries are then written as plain rows (``registry.bulk``:
COPY on PostgreSQL), without an ORM object each, and records on record changed by
``bulk_update``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from ecfgrading.collector import fewer_collections
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Category, Rate
from ecfgrading.formats.gradelist import GradeListRow, RateGrade, read_grade_list_bytes
from ecfgrading.formats.problems import Problem, Problems
from ecfgrading.matching.names import search_key
from ecfgrading.registry.bulk import IN_CHUNK, insert_rows, update_rows
from ecfgrading.registry.merges import surviving_records
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PlayerAlias,
)
from ecfgrading.registry.models.lists import assert_version_editable
from ecfgrading.registry.numbering import note_codes_on_record
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ErrorKind, ServiceError
from ecfgrading.services.lists.snapshots import freeze_published
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.people import (
    PlayerDetails,
    from_list_row,
    normalise,
    overflows,
    too_long,
)

# Column bounds of the registry on PostgreSQL (SQLite would store anything).
MAX_SMALL = 32_767  # grade, previous grade, junior age
GAMES_LATEST_NOTE = (
    "games_latest is unknown in a list file, which gives only Games (games counted): set to Games"
)


class ListImportError(ServiceError):
    """A list that cannot be loaded as asked; nothing was written."""


@dataclass(frozen=True)
class ListImportResult:
    """What an import did; ``imported`` is False when the file's report has errors."""

    list_id: str
    rates: tuple[Rate, ...]
    report: Problems
    imported: bool = False
    players_created: int = 0
    players_updated: int = 0  # on record, with a detail the list changed
    players_unchanged: int = 0
    clubs_created: int = 0
    memberships_created: int = 0
    entries: Mapping[Rate, int] = field(default_factory=dict)
    version_ids: Mapping[Rate, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.imported


def import_grade_list(
    data: bytes,
    *,
    list_id: str,
    rates: Iterable[Rate] = (Rate.STANDARD, Rate.RAPID),
    filename: str = "",
    actor: str = "import",
    published_at: datetime | None = None,
) -> ListImportResult:
    """Load a published list CSV as the published ``initial`` version of each rate
    (published now, or on ``published_at``: when the federation published it).

    Raises ListImportError for a list id or rate that cannot be loaded, or a list that
    already exists; returns a result with ``imported`` False, and the report, when the
    file has errors. Either way nothing is written unless everything is.
    """
    target = _list_id(list_id)
    chosen = _rates(target, rates)
    _refuse_existing(target, chosen)
    # A national list is a few million small objects, none in a cycle: the default cycle
    # collection, walking them again every 700 allocations, took a quarter of the import.
    with fewer_collections():
        clubs = _ClubNames()
        rows, details, report = _read(data, clubs)
        if rows is None:
            return ListImportResult(str(target), chosen, report)
        _refuse_empty(rows, target, chosen)
        sha256 = hashlib.sha256(data).hexdigest()
        source = _Source(target, chosen, filename, sha256, report, published_at=published_at)
        with busy_as_error(f"loading list {target}"), transaction.atomic():
            take_registry_lock()  # it puts players on record: one such writer at a time
            return _load(rows, details, clubs, source, actor)


# Arguments -------------------------------------------------------------------------------


def _list_id(text: str) -> ListId:
    try:
        return ListId.parse(text)
    except ValueError as error:
        raise ListImportError(str(error)) from None


def _rates(target: ListId, rates: Iterable[Rate | str]) -> tuple[Rate, ...]:
    """The rates asked, once each; a January list has only a rapid part."""
    chosen = tuple(dict.fromkeys(_rate(rate) for rate in rates))
    if not chosen:
        raise ListImportError("expected at least one rate (standard or rapid), got none")
    for rate in chosen:
        try:
            target.check_rate(rate)
        except ValueError as error:
            raise ListImportError(f"{error}: load list {target} with rate rapid only") from None
    return chosen


def _rate(rate: Rate | str) -> Rate:
    try:
        return Rate(rate)
    except ValueError:
        raise ListImportError(f"expected a rate standard or rapid, got {rate!r}") from None


def _refuse_existing(target: ListId, rates: Sequence[Rate]) -> None:
    existing = GradingList.objects.filter(list_id=str(target), rate__in=rates)
    found = sorted(existing.values_list("rate", flat=True))
    if found:
        raise ListImportError(_exists_message(target, found), kind=ErrorKind.CONFLICT)


def _exists_message(target: ListId, rates: Sequence[str]) -> str:
    # G26: a published list is never replaced; corrections make a new version.
    return (
        f"expected a list not yet on record, got list {target} {' and '.join(rates)} "
        "already loaded or computed; nothing was imported"
    )


# Reading and checking --------------------------------------------------------------------


_Details = Mapping[int, PlayerDetails]  # code number -> the row's player details


def _read(
    data: bytes, clubs: _ClubNames
) -> tuple[tuple[GradeListRow, ...] | None, _Details, Problems]:
    """The rows and their players' details, or None when the report (the reader's and
    ours) has an error."""
    grade_list, report = read_grade_list_bytes(data)
    if grade_list is None:
        return None, {}, report
    details: dict[int, PlayerDetails] = {}
    problems: list[Problem] = []
    for row in grade_list.rows:
        details[row.code.number], found = normalise(from_list_row(row))
        problems += found
        if _largest_number(row) > MAX_SMALL or clubs.too_long(row.clubs):
            problems += _row_problems(row, clubs)
    report = Problems(tuple(sorted((*report.problems, *problems), key=lambda p: p.line)))
    return (grade_list.rows if report.ok else None), details, report


def _largest_number(row: GradeListRow) -> int:
    """The largest of the row's numbers the registry keeps in a small column (0 for none):
    a glance that spares a national list's rows the look of ``_row_problems``."""
    standard, rapid = row.standard, row.rapid
    return max(
        row.junior_age or 0,
        standard.grade or 0,
        standard.previous or 0,
        rapid.grade or 0,
        rapid.previous or 0,
    )


def _row_problems(row: GradeListRow, clubs: _ClubNames) -> Iterator[Problem]:
    """What the reader accepts but the registry cannot store (the player's own details
    are ``normalise``'s, as on every path that creates a player)."""
    for column, value in _small_numbers(row):
        if value is not None and value > MAX_SMALL:
            yield Problem.make("bad-number", row.line, column, f"at most {MAX_SMALL}", str(value))
    for club in row.clubs:
        name = clubs[club]
        if name.too_long and (problem := too_long(row.line, "ClubNam", _CLUB_NAME, name.plain)):
            yield problem


def _small_numbers(row: GradeListRow) -> Iterator[tuple[str, int | None]]:
    yield "JrAge", row.junior_age
    for prefix, grades in (("", row.standard), ("R", row.rapid)):
        yield f"{prefix}Grade", grades.grade
        yield f"{prefix}Grade1", grades.previous


def _refuse_empty(rows: Sequence[GradeListRow], target: ListId, rates: Sequence[Rate]) -> None:
    """A published list is loaded once (G26): an empty one would block the real one."""
    for rate in rates:
        if not any(_grades(row, rate).graded for row in rows):
            raise ListImportError(
                f"expected {rate} grades for list {target} {rate}, got none in the file; "
                "load only the rates it holds"
            )


ClubKey = tuple[str, bool]  # folded name, is a location
_CLUB_NAME = Club._meta.get_field("name")


class _ClubName(NamedTuple):
    """A club as a list names it: written with an asterisk, it is a location."""

    plain: str  # without the asterisk, runs of spaces as one
    location: bool
    key: ClubKey  # how clubs on record are found by name (``_clubs_on_record``)
    too_long: bool  # wider than the registry's column: a problem on each row naming it

    @classmethod
    def of(cls, name: str) -> _ClubName:
        location = name.endswith("*")
        plain = " ".join(name.removesuffix("*").split())
        return cls(plain, location, (plain.casefold(), location), overflows(_CLUB_NAME, plain))


class _ClubNames(dict[str, _ClubName]):
    """Each club name as written, worked out once: a national list names 2,000 clubs
    40,000 times (and the reader gives rows naming the same clubs one tuple)."""

    def __init__(self) -> None:
        super().__init__()
        self._too_long: dict[tuple[str, ...], bool] = {}

    def __missing__(self, name: str) -> _ClubName:
        found = self[name] = _ClubName.of(name)
        return found

    def too_long(self, clubs: tuple[str, ...]) -> bool:
        """True if one of ``clubs`` is wider than the registry's column."""
        found = self._too_long.get(clubs)
        if found is None:
            found = self._too_long[clubs] = any(self[club].too_long for club in clubs)
        return found


# Loading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """The list being loaded and where it came from."""

    target: ListId
    rates: tuple[Rate, ...]
    filename: str
    sha256: str
    report: Problems
    now: datetime = field(default_factory=timezone.now)
    published_at: datetime | None = None

    @property
    def season(self) -> int:
        """The season of the list's memberships: the one in which its P0 ends."""
        return self.target.season()


@dataclass
class _Counts:
    players_created: int = 0
    players_updated: int = 0
    players_unchanged: int = 0
    clubs_created: int = 0
    memberships_created: int = 0
    entries: dict[Rate, int] = field(default_factory=dict)
    version_ids: dict[Rate, int] = field(default_factory=dict)

    def result(self, source: _Source) -> ListImportResult:
        counts = {name: getattr(self, name) for name in _COUNT_NAMES}
        return ListImportResult(
            str(source.target),
            source.rates,
            source.report,
            imported=True,
            entries=self.entries,
            version_ids=self.version_ids,
            **counts,
        )

    def as_json(self) -> dict[str, Any]:
        counts = {name: getattr(self, name) for name in _COUNT_NAMES}
        return {**counts, "entries": {str(rate): n for rate, n in self.entries.items()}}


_COUNT_NAMES = (
    "players_created",
    "players_updated",
    "players_unchanged",
    "clubs_created",
    "memberships_created",
)


def _load(
    rows: Sequence[GradeListRow],
    details: _Details,
    names: _ClubNames,
    source: _Source,
    actor: str,
) -> ListImportResult:
    counts = _Counts()
    lists = _create_lists(source)  # first: a list loaded meanwhile stops us before any write
    numbers = [row.code.number for row in rows]
    players, on_record = _players(rows, numbers, details, source.now, counts)
    clubs = _clubs(rows, names, counts)
    _memberships(rows, players, on_record, names, clubs, source.season, counts)
    note_codes_on_record(max(numbers, default=0))
    for grading_list in lists.values():
        _version(grading_list, rows, players, source, counts)
    AuditLog.record("list-imported", actor=actor, **_audit_details(source, counts))
    return counts.result(source)


def _create_lists(source: _Source) -> dict[Rate, GradingList]:
    lists = {}
    for rate in source.rates:
        try:
            with transaction.atomic():  # a savepoint, so PostgreSQL can report the clash
                lists[rate] = GradingList.objects.create(list_id=str(source.target), rate=rate)
        except IntegrityError:
            raise ListImportError(
                _exists_message(source.target, [rate]), kind=ErrorKind.CONFLICT
            ) from None
    return lists


def _audit_details(source: _Source, counts: _Counts) -> dict[str, Any]:
    return {
        "list_id": str(source.target),
        "rates": [str(rate) for rate in source.rates],
        "filename": source.filename,
        "sha256": source.sha256,
        "versions": {str(rate): pk for rate, pk in counts.version_ids.items()},
        **counts.as_json(),
    }


# Players ---------------------------------------------------------------------------------


def _players(
    rows: Sequence[GradeListRow],
    numbers: Sequence[int],
    details: _Details,
    now: datetime,
    counts: _Counts,
) -> tuple[dict[int, int], set[int]]:
    """Each row's player id by code number: created, updated or found, never duplicated;
    and the ids of those that were on record before (the others are new: nothing else
    on record names them)."""
    found, own = _on_record(numbers)
    _refuse_shared_players(rows, found)
    new = [n for n in numbers if n not in found]
    created = _create_players(new, details, now)
    counts.players_created = len(new)
    changed = [player for n in numbers if n in own and _refresh(player := found[n], details[n])]
    _update_players(changed, now)
    note_changed(player.pk for player in changed)  # new players are found by their ids
    counts.players_updated = len(changed)
    counts.players_unchanged = len(own) - len(changed)
    on_record = {code: player.pk for code, player in found.items()}
    return {**on_record, **created}, set(on_record.values())


class _PlayerUpdate(NamedTuple):
    """A player on record whose details the list changed, as ``Player.save`` would store
    him: the name's search key follows the name."""

    surname: str
    forenames: str
    sex: str
    fide_id: int | None
    nation: str
    name_key: str
    updated_at: Any  # auto_now, which a plain UPDATE does not set
    id: int


def _update_players(players: Sequence[Player], now: datetime) -> None:
    stamp = connection.ops.adapt_datetimefield_value(now)
    rows = (
        _PlayerUpdate(
            p.surname, p.forenames, p.sex, p.fide_id, p.nation, p.search_key(), stamp, p.pk
        )
        for p in players
    )
    update_rows(Player, _PlayerUpdate._fields[:-1], rows)


class _PlayerRow(NamedTuple):
    """A new player as ``PlayerDetails.new_player`` and ``Player.save`` would store him."""

    code: int
    surname: str
    forenames: str
    sex: str
    date_of_birth: date | None
    name_key: str
    fide_id: int | None
    membership_no: str
    nation: str
    merged_into_id: None
    created_at: Any
    updated_at: Any


def _create_players(numbers: Sequence[int], details: _Details, now: datetime) -> dict[int, int]:
    """The players of ``numbers``, written as rows; their ids by code number."""
    if not numbers:
        return {}
    # As text, which both databases read back as the time (ISO 8601, with its offset on
    # PostgreSQL): psycopg's COPY would format the datetime again for every row.
    stamp = str(connection.ops.adapt_datetimefield_value(now))
    nation = Player._meta.get_field("nation").default
    rows = (
        _PlayerRow(  # by position: a row's keywords cost more than the row
            n,
            d.surname,
            d.forenames,
            d.sex,
            d.date_of_birth,
            search_key(d.surname, d.forenames),
            d.fide_id,
            d.membership_no,
            d.nation or nation,
            None,
            stamp,
            stamp,
        )
        for n in numbers
        for d in (details[n],)
    )
    insert_rows(Player, _PlayerRow._fields, rows)
    return dict(_pairs_by(Player, "code", numbers))


def _on_record(numbers: Sequence[int]) -> tuple[dict[int, Player], set[int]]:
    """Players on record by code, through aliases and merges to the surviving record;
    and the codes that are a surviving player's own (only those take the list's details).
    """
    own_ids = dict(_pairs_by(Player, "code", numbers))
    missing = [number for number in numbers if number not in own_ids]
    alias_ids = dict(_pairs_by(PlayerAlias, "code", missing, "player_id"))
    if not own_ids and not alias_ids:
        return {}, set()
    records = _records(Player, {*own_ids.values(), *alias_ids.values()})
    own = {code: records[pk] for code, pk in own_ids.items()}
    found = {**own, **{code: records[pk] for code, pk in alias_ids.items()}}
    survivors = _survivors(found.values())
    surviving_own = {code for code, player in own.items() if player.merged_into_id is None}
    return {code: survivors[player.pk] for code, player in found.items()}, surviving_own


def _survivors(players: Iterable[Player]) -> dict[int, Player]:
    """Player id -> the record it was merged into, following chains (G28)."""
    known = {player.pk: player for player in players}
    wanted = _merge_targets(known.values(), known)
    while wanted:
        fetched = list(_chunked(Player.objects.all(), "pk", sorted(wanted)))
        known.update((player.pk, player) for player in fetched)
        wanted = _merge_targets(fetched, known)
    return surviving_records(known)


def _merge_targets(players: Iterable[Player], known: Mapping[int, Player]) -> set[int]:
    targets = {player.merged_into_id for player in players}
    return {pk for pk in targets if pk is not None and pk not in known}


def _refuse_shared_players(rows: Sequence[GradeListRow], found: Mapping[int, Player]) -> None:
    """Two rows whose codes resolve to one player would give him two entries in a list."""
    if not found:
        return
    lines: dict[int, int] = {}
    for row in rows:
        player = found.get(row.code.number)
        if player is None:
            continue
        first = lines.setdefault(player.pk, row.line)
        if first != row.line:
            raise ListImportError(
                f"expected one row per player, got {row.code} (line {row.line}) and the row "
                f"on line {first}, both codes of {player.ref}; nothing was imported"
            )


def _refresh(player: Player, details: PlayerDetails) -> bool:
    """Take the list's details; True if any changed. Dates of birth are never touched.

    An empty (or bad) Sex, FIDECode or Nation leaves the record's value: the list omits
    it, not denies it.
    """
    wanted = {
        "surname": details.surname,
        "forenames": details.forenames,
        "sex": details.sex or player.sex,
        "fide_id": details.fide_id or player.fide_id,
        "nation": details.nation or player.nation,
    }
    changed = {name: value for name, value in wanted.items() if getattr(player, name) != value}
    for name, value in changed.items():
        setattr(player, name, value)
    return bool(changed)


# Clubs and memberships -------------------------------------------------------------------


def _clubs(rows: Sequence[GradeListRow], names: _ClubNames, counts: _Counts) -> dict[ClubKey, Club]:
    """Every club the list names, found by name or created without a code."""
    clubs = _clubs_on_record()
    wanted: dict[ClubKey, Club] = {}
    for row in rows:
        for club in row.clubs:
            name = names[club]
            if name.plain and name.key not in clubs and name.key not in wanted:
                wanted[name.key] = Club(name=name.plain, is_location=name.location)
    Club.objects.bulk_create(wanted.values())
    counts.clubs_created = len(wanted)
    return {**clubs, **wanted}


def _clubs_on_record() -> dict[ClubKey, Club]:
    """Clubs by folded name; a merged club's name leads to the club it was merged into."""
    everything = {club.pk: club for club in Club.objects.all()}
    # Coded clubs first, then the oldest, so a name shared by two records finds one stably.
    ranked = sorted(everything.values(), key=lambda club: (club.code is None, club.pk))
    found: dict[ClubKey, Club] = {}
    for club in ranked:
        found.setdefault((" ".join(club.name.split()).casefold(), club.is_location), club)
    survivors = surviving_records(everything)
    return {key: survivors[club.pk] for key, club in found.items()}


class _MembershipRow(NamedTuple):
    player_id: int
    club_id: int
    first_season: int
    last_season: int


class _Seasons(NamedTuple):
    """A membership's seasons, then its id (a row of ``update_rows``)."""

    first_season: int
    last_season: int
    id: int


def _memberships(
    rows: Sequence[GradeListRow],
    players: Mapping[int, int],
    on_record: set[int],
    names: _ClubNames,
    clubs: Mapping[ClubKey, Club],
    season: int,
    counts: _Counts,
) -> None:
    """Each player's clubs in the list's season; a known membership is extended to it.
    Only players ``on_record`` before the import can have one: the others are new."""
    pairs = dict.fromkeys(_membership_pairs(rows, players, names, clubs))
    known = _memberships_on_record(on_record & {player_id for player_id, _ in pairs})
    new = [_MembershipRow(p, c, season, season) for p, c in pairs if (p, c) not in known]
    insert_rows(ClubMembership, _MembershipRow._fields, new)
    counts.memberships_created = len(new)
    widened = (_covering(seasons, season) for pair in pairs if (seasons := known.get(pair)))
    update_rows(ClubMembership, _Seasons._fields[:-1], filter(None, widened))


def _membership_pairs(
    rows: Sequence[GradeListRow],
    players: Mapping[int, int],
    names: _ClubNames,
    clubs: Mapping[ClubKey, Club],
) -> Iterator[tuple[int, int]]:
    ids = {key: club.pk for key, club in clubs.items()}
    # The reader gives rows naming the same clubs one tuple: its club ids found once.
    club_ids: dict[tuple[str, ...], tuple[int, ...]] = {}
    for row in rows:
        if row.clubs:
            found = club_ids.get(row.clubs)
            if found is None:
                named = (names[club] for club in row.clubs)
                found = club_ids[row.clubs] = tuple(ids[name.key] for name in named if name.plain)
            player = players[row.code.number]
            for club in found:
                yield player, club


def _memberships_on_record(player_ids: set[int]) -> dict[tuple[int, int], _Seasons]:
    """The memberships of ``player_ids``: their seasons by (player id, club id)."""
    columns = ("player_id", "club_id", *_Seasons._fields)
    query = ClubMembership.objects.order_by().values_list(*columns)  # not by names: no joins
    found = _chunked(query, "player_id", sorted(player_ids))
    return {(player, club): _Seasons(*seasons) for player, club, *seasons in found}


def _covering(seasons: _Seasons, season: int) -> _Seasons | None:
    """The membership's seasons widened to ``season``; None when they hold it already."""
    if seasons.first_season <= season <= seasons.last_season:
        return None
    first, last = min(seasons.first_season, season), max(seasons.last_season, season)
    return _Seasons(first, last, seasons.id)


# The published version -------------------------------------------------------------------


def _version(
    grading_list: GradingList,
    rows: Sequence[GradeListRow],
    players: Mapping[int, int],
    source: _Source,
    counts: _Counts,
) -> None:
    """The ``initial`` version, entries written while it is a draft, then published."""
    rate = Rate(grading_list.rate)
    version = ListVersion.objects.create(
        grading_list=grading_list,
        name=ListVersion.INITIAL,
        rules_name=rules_for(grading_list.list).name,
    )
    graded = [(row, grades) for row in rows if (grades := _grades(row, rate)).graded]
    assert_version_editable(version.pk)  # what ListEntry's bulk_create checks
    entries = (_entry(version.pk, players[row.code.number], row, grades) for row, grades in graded)
    insert_rows(ListEntry, _EntryRow._fields, entries)
    counts.entries[rate] = len(graded)
    counts.version_ids[rate] = version.pk
    version.report = _version_report(source, rate, len(rows), graded)
    version.status = ListVersion.Status.PUBLISHED
    version.published_at = source.published_at or source.now
    version.save()
    freeze_published(version)  # its files never change (G26)


def _grades(row: GradeListRow, rate: Rate) -> RateGrade:
    return row.standard if rate is Rate.STANDARD else row.rapid


class _EntryRow(NamedTuple):
    """A ListEntry loaded from a list file."""

    version_id: int
    player_id: int
    grade: int | None
    unrounded: float | None
    calculated: float | None
    category: str
    previous_grade: int | None
    games_counted: int
    games_latest: int
    junior_age: int | None
    published: bool
    n1: int = 0
    n2: int = 0
    bonus: float = 0.0
    start_grade: float | None = None
    start_source: str = ""
    flags: str = ""


def _entry(version: int, player: int, row: GradeListRow, grades: RateGrade) -> _EntryRow:
    games = grades.games or 0
    grade = float(grades.grade) if grades.grade is not None else None
    return _EntryRow(  # by position, as the fields are named: keywords cost more than the row
        version,  # version_id
        player,  # player_id
        grades.grade,
        grade,  # unrounded
        grade,  # calculated
        str(grades.category),  # a StrEnum: its value, without enum.__get__
        grades.previous,  # previous_grade
        games,  # games_counted
        games,  # games_latest, unknown in a list file: GAMES_LATEST_NOTE
        row.junior_age,  # G25: a junior's age is published data
        # A published list holds only published players; no start source fits a grade
        # loaded from a file, so it stays blank (the version report says where it came from).
        True,  # published
    )


def _version_report(
    source: _Source, rate: Rate, rows: int, graded: Sequence[tuple[GradeListRow, RateGrade]]
) -> dict[str, Any]:
    uncategorised = sum(1 for _, grades in graded if grades.category is Category.NONE)
    return {
        "source": "grading-list-csv",
        "filename": source.filename,
        "sha256": source.sha256,
        "rate": str(rate),
        "rows": rows,
        "entries": len(graded),
        "juniors": sum(1 for row, _ in graded if row.junior_age is not None),
        "without_category": uncategorised,
        "notes": [GAMES_LATEST_NOTE],
        "warnings": [problem.message for problem in source.report.warnings],
    }


# Queries ---------------------------------------------------------------------------------


def _pairs_by(
    model: type[Model], column: str, values: Sequence[int], target: str = "id"
) -> list[tuple[int, int]]:
    """(``column``, ``target``) of the rows holding one of ``values``, by plain SQL: a
    filter of 37,000 values costs Django more than the database."""
    table = connection.ops.quote_name(model._meta.db_table)
    found: list[tuple[int, int]] = []
    if not values:
        return found
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One array, not 900 placeholders to parse, written as its text: psycopg
            # dumps a list of 37,000 numbers element by element, in Python.
            array = "{" + ",".join(map(str, values)) + "}"
            sql = f"SELECT {column}, {target} FROM {table} WHERE {column} = ANY(%s::bigint[])"
            cursor.execute(sql, [array])
            return list(cursor.fetchall())
        for start in range(0, len(values), IN_CHUNK):
            chunk = values[start : start + IN_CHUNK]
            marks = ", ".join(["%s"] * len(chunk))
            sql = f"SELECT {column}, {target} FROM {table} WHERE {column} IN ({marks})"
            cursor.execute(sql, chunk)
            found += cursor.fetchall()
    return found


def _records(model: type[Model], ids: set[int]) -> dict[int, Any]:
    """The records of ``ids``, by id (none read when there are none)."""
    return {record.pk: record for record in _chunked(model.objects.all(), "pk", sorted(ids))}


def _chunked(queryset: QuerySet[Any], name: str, values: Sequence[int]) -> Iterator[Any]:
    """``queryset.filter(name__in=values)``, a statement per IN_CHUNK values."""
    for start in range(0, len(values), IN_CHUNK):
        chunk = values[start : start + IN_CHUNK]
        yield from queryset.filter(**{f"{name}__in": chunk})
