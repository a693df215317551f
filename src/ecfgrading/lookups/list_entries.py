"""A published list's entries a page at a time, in the fields of its JSON export.

The JSON export (``lookups.exports``) writes a whole list at once; a program that pages
through it wants the same fields for 100 entries at a time without the seconds a national
export takes. A page here costs a fixed handful of queries whatever the list's
size: the versions, the count, the page of entries with their players, the previous
list's and the August grades of those players, their clubs.

Each field means what it means in the export (tests compare the two entry by entry):
``previous_grade`` is Grade1 (G4), ``august_grade`` and ``revised`` follow G27 as the
export does, ``clubs`` are those not lapsed by the list's season (C2), locations with '*'.
Entries come in name order (the lookups' folded name key, then the code).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.exports import ENTRY_FIELDS, PLAYER_FIELDS
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.lists import VersionInfo, list_label, published_versions
from ecfgrading.lookups.memberships import shown_clubs
from ecfgrading.lookups.paging import MAX_PER_PAGE, Page, bounds
from ecfgrading.registry.models import ListEntry, ListVersion, PublishedSnapshot

ENTRIES_PER_PAGE = 100


class ListNotFound(NotFound):
    """No published list, rate or version by that name."""


@dataclass(frozen=True)
class ListEntryRow:
    """One published entry, with the JSON export's fields (never a date of birth)."""

    code: str
    name: str
    sex: str | None
    list: str
    rate: str
    version: str
    rule_set: str  # G31: the rule set the version was computed under
    grade: int | None
    unrounded: float | None
    category: str | None
    previous_grade: int | None  # Grade1 (G4)
    games_latest: int  # G24
    games_counted: int
    junior_age: int | None  # G25
    start_grade: float | None
    start_source: str | None
    flags: tuple[str, ...]
    august_grade: int | None  # G27
    revised: bool
    clubs: tuple[str, ...]
    fide_code: str | None
    nation: str


@dataclass(frozen=True)
class ListPage:
    """A page of one published version of one list and rate."""

    version: VersionInfo
    current: bool  # the list's latest published version of the rate (G26)
    versions: tuple[str, ...]  # every published version of the list and rate, in order
    page: Page[ListEntryRow]

    @property
    def label(self) -> str:
        return list_label(self.version.list_id)


def list_page(
    list_id: str,
    rate: Rate,
    version: str | None = None,
    *,
    page: int = 1,
    per_page: int = ENTRIES_PER_PAGE,
) -> ListPage:
    """Page ``page`` of the list's ``version`` (default: its current version); the last
    page when ``page`` is past it. ListNotFound when nothing of that name is published."""
    every = published_versions()
    of_list = [v for v in every if v.list_id == list_id and v.rate is rate]
    chosen = _chosen(of_list, list_id, rate, version)
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    order = entry_order(chosen.id, data_token())
    total = len(order)
    number = min(max(1, page), max(1, -(-total // per_page)))
    start, end = bounds(number, per_page)
    wanted = order[start:end]
    fetched = ListEntry.objects.filter(id__in=wanted).order_by()
    by_id = {
        row.id: row for row in fetched.values_list("id", *ENTRY_FIELDS, *PLAYER_FIELDS, named=True)
    }
    rows = [by_id[pk] for pk in wanted]
    found = tuple(_entries(rows, chosen, every))
    return ListPage(
        version=chosen,
        current=chosen.id == of_list[-1].id,
        versions=tuple(v.name for v in of_list),
        page=Page(found, number, per_page, total),
    )


@functools.lru_cache(maxsize=32)
def entry_order(version_id: int, token: str) -> tuple[int, ...]:
    """The version's published entries in name order, by id: sorted once per process and
    data token (a published version never changes, G26; the token guards against a
    database restored or rebuilt under the same ids), so that a page is one lookup of
    its ids rather than a sort of the whole list."""
    entries = ListEntry.objects.filter(version_id=version_id, published=True)
    ordered = entries.order_by("player__name_key", "player__code")
    return tuple(ordered.values_list("id", flat=True))


def _chosen(
    of_list: list[VersionInfo], list_id: str, rate: Rate, version: str | None
) -> VersionInfo:
    """The version asked for among the list's published ones (in version order, G26)."""
    if not of_list:
        raise ListNotFound(f"no {rate.value} list of {_label(list_id)} has been published")
    if version is None:
        return of_list[-1]
    named = [v for v in of_list if v.name == version]
    if not named:
        known = ", ".join(v.name for v in of_list)
        raise ListNotFound(
            f"the {_label(list_id)} {rate.value} list has no published version {version!r} "
            f"(published: {known})"
        )
    return named[0]


def _label(list_id: str) -> str:
    try:
        return list_label(list_id)
    except ValueError:
        return list_id


def _entries(rows: list[Any], version: VersionInfo, every: list[VersionInfo]) -> list[ListEntryRow]:
    frozen = frozen_with(version.id, data_token())
    if frozen is not None:  # as its files show it (issue 24): one fact, one answer
        return [frozen.entry(row, version) for row in rows]
    ids = [row.player_id for row in rows]
    target = ListId.parse(version.list_id)
    of_rate = [v for v in every if v.rate is version.rate]
    previous = _grades(_current_of(of_rate, str(target.previous_same_rate(version.rate))), ids)
    august = _august(target, version, [v for v in of_rate if v.list_id == version.list_id])
    august_grades = None if august is None else _grades_of(august.id, ids)
    clubs = {
        pk: tuple(dict.fromkeys(club.label for club in shown))
        for pk, shown in shown_clubs(ids, target.season(), limit=None).items()
    }
    return [
        _entry(row, version, previous, august_grades, clubs.get(row.player_id, ())) for row in rows
    ]


@dataclass(frozen=True)
class _Frozen:
    """A version's public details as frozen when it was published (``PublishedSnapshot``,
    which its files are written from): players, and the versions Grade1 and the August
    grades come from."""

    players: dict[int, list[Any]]  # id -> [id, code, name, sex, FIDE code, nation, clubs]
    previous: dict[int, int | None]
    august: dict[int, int | None] | None

    def entry(self, row: Any, version: VersionInfo) -> ListEntryRow:
        found = self.players.get(row.player_id)
        if found is None:  # not frozen: as the records hold him
            return _entry(row, version, self.previous, self.august, ())
        _pk, code, name, sex, fide_code, nation, clubs = found
        live = _entry(row, version, self.previous, self.august, tuple(clubs))
        return replace(
            live,
            code=code_text(code),
            name=name,
            sex=sex or None,
            fide_code=fide_code or None,
            nation=nation,
        )


@functools.lru_cache(maxsize=8)
def frozen_with(version_id: int, token: str) -> _Frozen | None:
    """The version's snapshot, read once per process and data token (a published version
    never changes, G26; the token guards against a database rebuilt under the same ids);
    None for a version published before snapshots were kept."""
    snapshot = PublishedSnapshot.objects.filter(version_id=version_id).first()
    if snapshot is None:
        return None
    players = {int(row[0]): row for row in snapshot.players}
    ids = list(players)
    previous = _grades_of(snapshot.previous_id, ids)
    august = None if snapshot.august_id is None else _grades_of(snapshot.august_id, ids)
    return _Frozen(players, previous, august)


def _current_of(of_rate: list[VersionInfo], list_id: str) -> VersionInfo | None:
    """The current version of an earlier list of the rate (G4's Grade1 comes from it)."""
    found = [v for v in of_rate if v.list_id == list_id]
    return found[-1] if found else None


def _august(target: ListId, version: VersionInfo, of_list: list[VersionInfo]) -> VersionInfo | None:
    """G27, as the export applies it: a July list at a version other than August is shown
    against its August version, once that is published."""
    if not target.has_august or version.name == ListVersion.AUGUST:
        return None
    return next((v for v in of_list if v.name == ListVersion.AUGUST), None)


def _grades(version: VersionInfo | None, player_ids: list[int]) -> dict[int, int | None]:
    """Published grades of these players in a version (nothing for no version)."""
    return {} if version is None else _grades_of(version.id, player_ids)


def _grades_of(version_id: int | None, player_ids: list[int]) -> dict[int, int | None]:
    if version_id is None or not player_ids:
        return {}
    # No ordering: the model's default (by version) would join the versions for nothing.
    entries = ListEntry.objects.filter(version_id=version_id, published=True).order_by()
    return dict(entries.filter(player_id__in=player_ids).values_list("player_id", "grade"))


def _entry(
    row: Any,
    version: VersionInfo,
    previous: dict[int, int | None],
    august: dict[int, int | None] | None,
    clubs: tuple[str, ...],
) -> ListEntryRow:
    pk = row.player_id
    surname, forenames = row.player__surname, row.player__forenames
    fide_id = row.player__fide_id
    grade = row.grade
    august_grade = None if august is None else august.get(pk)
    in_previous = previous.get(pk)
    return ListEntryRow(
        code=code_text(row.player__code),
        name=full_name(surname, forenames),
        sex=row.player__sex or None,
        list=version.list_id,
        rate=version.rate.value,
        version=version.name,
        rule_set=version.rules_name,
        grade=grade,
        unrounded=row.unrounded,
        category=row.category or None,
        previous_grade=row.previous_grade if in_previous is None else in_previous,
        games_latest=row.games_latest,
        games_counted=row.games_counted,
        junior_age=row.junior_age,
        start_grade=row.start_grade,
        start_source=row.start_source or None,
        flags=tuple(f.strip() for f in row.flags.split(",") if f.strip()),
        august_grade=august_grade,
        revised=august is not None and august_grade != grade,
        clubs=clubs,
        fide_code=None if fide_id is None else str(fide_id),
        nation=row.player__nation,
    )
