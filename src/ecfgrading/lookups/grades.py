"""A player's grades in a list (G26, G27), and the rating list of every player graded.

``list_grades`` is the one reading of a player's grades of one list, from his entries
by version (``history.entry_rows``): the version in force gives the grade, its category
and the games (G24); the list's first version the *original* grade; its August version
the August grade (G27), which stays the grade for eligibility in season-long
competitions whether or not a later version has revised it. The player's page and its
JSON twin, /api/v1 and the federation's rating API (``players``) read a player's grades
through it.

The list *in force* on a date, for one rate, is the latest list of that rate whose first
version was published on or before that date, at its latest version published on or
before that date; with no date, the current lists (``lists.current_lists``).

``rating_rows`` reads the same grades for every player published in the lists in force
at once (12,500 players on a national list, and their clubs) in five queries, as the
rating list of the federation's API gives them.

Privacy: players are read by an explicit list of public columns (never a date of birth).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Q, QuerySet
from django.utils import timezone

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.types import Rate
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.history import EntryRow
from ecfgrading.lookups.lists import CurrentList, VersionInfo, current_season, published_versions
from ecfgrading.lookups.memberships import ClubShown, current_memberships
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.rows import fetch
from ecfgrading.registry.models import ListEntry, Player

# Privacy: the only player columns read for the public (never date_of_birth).
PLAYER_COLUMNS = (
    "id",
    "code",
    "surname",
    "forenames",
    "name_key",
    "sex",
    "fide_id",
    "membership_no",
    "nation",
)


# -- one player's grades in one list ---------------------------------------------------------


@dataclass(frozen=True)
class ListGrades:
    """A player's grades of one rate in one list, at the version in force (G26, G27)."""

    rate: Rate
    list_id: str
    version: VersionInfo  # the version in force: the latest published (by a date)
    grade: int | None  # None: not published in it (too few games, G23), or no entry
    category: str  # '' when ungraded
    games_latest: int  # G24: games in the latest season
    games_counted: int
    junior_age: int | None  # G25, as the version publishes it
    original: int | None  # in the list's first version (initial)
    original_category: str
    original_games: int  # G24: games counted by the list's first version
    august_grade: int | None  # in its August version, once published (G27)
    august_category: str
    after_august: bool  # the version in force is a revision after the August one

    @property
    def revised(self) -> bool:
        """G27: a revision after August gives another grade than August's."""
        return self.after_august and self.august_grade != self.grade


def list_grades(found: CurrentList, entries: Mapping[int, EntryRow]) -> ListGrades:
    """The player's grades in ``found`` (its versions up to the one in force) from his
    entries by version id."""
    row = entries.get(found.current.id)
    august = found.august
    august_row = entries.get(august.id) if august is not None else None
    first = entries.get(found.versions[0].id)
    return ListGrades(
        rate=found.rate,
        list_id=found.list_id,
        version=found.current,
        grade=_grade(row),
        category=_category(row),
        games_latest=row.games_latest if row else 0,
        games_counted=row.games_counted if row else 0,
        junior_age=row.junior_age if row else None,
        original=_grade(first),
        original_category=_category(first),
        original_games=_games(first),
        august_grade=_grade(august_row),
        august_category=_category(august_row),
        after_august=august is not None and august.id != found.current.id,
    )


def _grade(row: EntryRow | None) -> int | None:
    """A published grade (G23); an entry without a category is no grade."""
    return row.grade if row is not None and row.published else None


def _games(row: EntryRow | None) -> int:
    """G24: the games a published grade counted; 0 with no grade."""
    return row.games_counted if row is not None and row.published else 0


def _category(row: EntryRow | None) -> str:
    return row.category if _grade(row) is not None else ""  # type: ignore[union-attr]


# -- lists in force ------------------------------------------------------------------------


def lists_in_force(
    on: dt.date | None = None, versions: Sequence[VersionInfo] | None = None
) -> dict[Rate, CurrentList]:
    """Each rate's list in force on ``on`` (the current lists when None), with its
    versions published by then: one query."""
    found = published_versions() if versions is None else versions
    by_list: dict[tuple[Rate, str], list[VersionInfo]] = {}
    for version in found:  # in list order, then version order (G26)
        if on is None or _published_on(version) <= on:
            by_list.setdefault((version.rate, version.list_id), []).append(version)
    chosen: dict[Rate, CurrentList] = {}
    for (rate, list_id), listed in sorted(by_list.items(), key=lambda item: item[0][1]):
        chosen[rate] = CurrentList(rate, list_id, tuple(listed))
    return {rate: chosen[rate] for rate in Rate if rate in chosen}


def _published_on(version: VersionInfo) -> dt.date:
    """The day a version was published, in the federation's time zone."""
    return timezone.localdate(version.published_at)


# -- the rating list ------------------------------------------------------------------------
#
# The full list is read in four queries whose rows are fetched as plain tuples
# (``_fetch``): Django's per-row conversions cost more than the queries on a list this
# long. Rows are NamedTuples.


class RateGrades(NamedTuple):
    """A rating list's cells of one rate: ``ListGrades``' original and in-force grades."""

    original: int | None  # in the list's first version; None: not published in it
    original_category: str  # '' with no original grade
    original_games: int  # G24: games counted by the first version (0 with no grade)
    grade: int | None  # in the version in force
    category: str
    games_counted: int  # G24: games counted by the version in force


class Club(NamedTuple):
    """A club as the federation's API names it (no locations, which are not clubs)."""

    code: str | None  # None: a club known by name only
    name: str


class RatingRow(NamedTuple):
    """One player of the rating list: public details, grades, his first club."""

    player_id: int
    code: str  # 123456A
    name: str  # Surname, Forenames
    name_key: str
    member_no: str
    fide_no: int | None
    gender: str  # M, F or ''
    nation: str
    standard: RateGrades | None
    rapid: RateGrades | None
    club: Club | None

    def grades(self, rate: Rate) -> RateGrades | None:
        return self.standard if rate is Rate.STANDARD else self.rapid


_Seen = tuple[int | None, str, int]  # grade, category, games counted


def rating_rows(
    in_force: Mapping[Rate, CurrentList], players: Collection[int] | None = None
) -> list[RatingRow]:
    """Every player published in a version in force (of ``players`` only, when given), in
    name order: five queries (merges, entries, players, clubs) whatever the list's size."""
    if not in_force:
        return []
    survivors = Survivors()
    seen = _grades_seen(in_force, players, survivors)
    revised = [f.current.id for f in in_force.values()]
    published = {pid for pid, by_version in seen.items() if any(v in by_version for v in revised)}
    details = _players(published, in_force, players)
    holders = _club_holders(details, in_force, players, survivors)
    clubs = first_clubs(holders, current_season(dict(in_force)))
    standard, rapid = in_force.get(Rate.STANDARD), in_force.get(Rate.RAPID)
    rows = [_row(found, seen[pk], standard, rapid, clubs.get(pk)) for pk, found in details.items()]
    return sorted(rows, key=lambda row: (row.name_key, row.code))


def _row(
    found: tuple[Any, ...],
    seen: Mapping[int, _Seen],
    standard: CurrentList | None,
    rapid: CurrentList | None,
    club: Club | None,
) -> RatingRow:
    pk, code, surname, forenames, key, sex, fide_id, member_no, nation = found
    return RatingRow(
        pk,
        code_text(code),
        full_name(surname, forenames),
        key,
        member_no or "",
        fide_id,
        sex or "",
        nation,
        _rate_grades(seen, standard),
        _rate_grades(seen, rapid),
        club,
    )


def _grades_seen(
    in_force: Mapping[Rate, CurrentList], players: Collection[int] | None, survivors: Survivors
) -> dict[int, dict[int, _Seen]]:
    """Published entries of the versions in force, by surviving player then version; a
    survivor's own entry wins over a merged record's (G28)."""
    ids = {pk for f in in_force.values() for pk in (f.versions[0].id, f.current.id)}
    entries = ListEntry.objects.filter(version_id__in=ids, published=True).order_by()
    if players is not None:
        entries = entries.filter(player_id__in=list(survivors.holders(players)))
    rows = entries.values_list("player_id", "version_id", "grade", "category", "games_counted")
    final = survivors.final
    seen: dict[int, dict[int, _Seen]] = {}
    for pid, version_id, grade, category, games in fetch(rows):
        own = pid not in final
        by_version = seen.setdefault(final.get(pid, pid), {})
        if own or version_id not in by_version:
            by_version[version_id] = (grade, category, games)
    return seen


def _players(
    wanted: set[int], in_force: Mapping[Rate, CurrentList], players: Collection[int] | None
) -> dict[int, tuple[Any, ...]]:
    """Public columns of the wanted players, by a subquery of the entries when the whole
    list is wanted: 12,500 ids never become 12,500 query parameters."""
    chosen = list(wanted) if players is not None else _listed(in_force)
    rows = {row[0]: row for row in fetch(_public(Player.objects.filter(id__in=chosen)))}
    missing = wanted - set(rows)  # survivors whose entries are on merged records
    if missing:
        extra = fetch(_public(Player.objects.filter(id__in=list(missing))))
        rows.update({row[0]: row for row in extra})
    return {pk: row for pk, row in rows.items() if pk in wanted}


def _public(players: QuerySet[Player]) -> QuerySet[Any]:
    return players.order_by().values_list(*PLAYER_COLUMNS)


def _listed(in_force: Mapping[Rate, CurrentList]) -> QuerySet[Any]:
    """The player ids of the published entries of the versions in force, as a subquery."""
    ids = [f.current.id for f in in_force.values()]
    return ListEntry.objects.filter(version_id__in=ids, published=True).values("player_id")


def _club_holders(
    details: Mapping[int, tuple[Any, ...]],
    in_force: Mapping[Rate, CurrentList],
    players: Collection[int] | None,
    survivors: Survivors,
) -> Collection[int] | QuerySet[Any]:
    """Whose clubs to read: the whole list by the entries' subquery, with the survivors of
    merged records (whose entries may be on those records) by id; else the few asked."""
    if players is not None:
        return list(details)
    ends = [pk for pk in set(survivors.final.values()) if pk in details]
    return Player.objects.filter(Q(id__in=_listed(in_force)) | Q(id__in=ends)).values("id")


def first_clubs(holders: Collection[int] | QuerySet[Any], season: int | None) -> dict[int, Club]:
    """Each player's first club, as ``clubs_of(shown_clubs(...))[0]`` would give it: the
    most recently quoted club not lapsed by ``season`` (C2) that is not a location, in
    ``memberships.shown_clubs``' order (a test holds the two together). One query, of
    plain rows: a national list's 12,500 players would cost seconds through shown_clubs."""
    if season is None:
        return {}
    memberships = current_memberships(season).filter(player_id__in=holders, club__is_location=False)
    ordered = memberships.order_by(
        "player_id", "-last_season", "-first_season", "club__name", "club_id"
    ).values_list("player_id", "club__code", "club__name")
    first: dict[int, Club] = {}
    for pid, code, name in fetch(ordered):
        if pid not in first:
            first[pid] = Club(code, name)
    return first


def clubs_of(shown: Iterable[ClubShown]) -> tuple[Club, ...]:
    """Clubs as the federation's API names them: no locations, which are not clubs."""
    return tuple(Club(club.code, club.name) for club in shown if not club.is_location)


def _rate_grades(seen: Mapping[int, _Seen], found: CurrentList | None) -> RateGrades | None:
    """``list_grades``' original and in-force grades, from the published entries seen."""
    in_force = None if found is None else seen.get(found.current.id)
    if in_force is None or found is None:
        return None
    original = seen.get(found.versions[0].id)
    return RateGrades(
        original[0] if original else None,
        original[1] if original else "",
        original[2] if original else 0,
        in_force[0],
        in_force[1],
        in_force[2],
    )
