"""What the federation's rating API answers, read from the published lists (issue 10).

Programs written for the federation's later rating service (league managers, club
plugins, pairing programs) ask it for a player, a name, his rating on a date, his games,
the clubs and the whole rating list. This module finds those facts in our registry as
plain values (players by code and by name: ``ratings_players``); ``web.api.compat``
gives them the service's shapes. Its words map onto ours:

- a *rating* is a grade; the *original* rating is the grade in the first (initial)
  version of a list and the *revised* rating the grade in the version in force (G26,
  G27); the *rating list* is every player published in the lists in force (G23);
- the list *in force* on a date, for one rate, is the latest list of that rate whose
  first publication is on or before the date, at its latest version published on or
  before the date; with no date, the current lists (``lists.current_lists``);
- a player's *clubs* are those the lapse rule still shows (``services.clubs``, C2),
  without locations, which are not clubs; his *club* is the first of them.

Privacy: players are read by an explicit list of public columns (never a date of birth).
Every function costs a fixed handful of queries whatever the number of rows.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Q, QuerySet
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.errors import NotFound, ServiceError
from ecfgrading.lookups import versions as version_names
from ecfgrading.lookups.clubs import (
    CLUB_KEY_PREFIX,
    ClubIndex,
    ClubNotFound,
    club_index,
)
from ecfgrading.lookups.history import current_versions
from ecfgrading.lookups.lists import VersionInfo, published_versions
from ecfgrading.lookups.memberships import ClubShown, current_memberships
from ecfgrading.lookups.player import locate
from ecfgrading.registry.merges import surviving_id, surviving_ids
from ecfgrading.registry.models import Game, ListEntry, Player, StoredGamePoints

# Privacy: the only player columns read here (never date_of_birth).
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
MAX_GAMES = 2000  # games a player's game list answers with, latest first


class RatingsError(ServiceError):
    """A request the federation's API shapes cannot answer as asked (a bad date...)."""


# -- lists in force -------------------------------------------------------------------------


@dataclass(frozen=True)
class InForce:
    """One rate's list in force: its first version and the version in force (G26)."""

    rate: Rate
    list_id: str
    initial: VersionInfo  # 'original' grades
    version: VersionInfo  # 'revised' grades

    @property
    def version_ids(self) -> tuple[int, ...]:
        return (self.initial.id, self.version.id)


def parse_date(text: str) -> dt.date:
    """A date as the federation's API takes it: YYYY-MM-DD."""
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise RatingsError(f"expected a date YYYY-MM-DD, got {text!r}") from None


def lists_in_force(
    on: dt.date | None = None, versions: Sequence[VersionInfo] | None = None
) -> dict[Rate, InForce]:
    """Each rate's list in force on ``on`` (the current lists when None): one query."""
    found = published_versions() if versions is None else versions
    by_list: dict[tuple[Rate, str], list[VersionInfo]] = {}
    for version in found:  # in list order, then version order (G26)
        if on is None or _published_on(version) <= on:
            by_list.setdefault((version.rate, version.list_id), []).append(version)
    chosen: dict[Rate, InForce] = {}
    for (rate, list_id), listed in sorted(by_list.items(), key=lambda item: item[0][1]):
        chosen[rate] = InForce(rate, list_id, _first(found, rate, list_id), listed[-1])
    return {rate: chosen[rate] for rate in Rate if rate in chosen}


def _published_on(version: VersionInfo) -> dt.date:
    """The day a version was published, in the federation's time zone."""
    return timezone.localdate(version.published_at)


def _first(found: Sequence[VersionInfo], rate: Rate, list_id: str) -> VersionInfo:
    """The list's first version (initial): the earliest in G26's order."""
    of_list = [v for v in found if v.rate is rate and v.list_id == list_id]
    return min(of_list, key=lambda v: version_names.rank(v.name))


def season_of(in_force: Mapping[Rate, InForce]) -> int | None:
    """The season club affiliations lapse by (C2): that of the latest list in force."""
    return max((ListId.parse(f.list_id).season() for f in in_force.values()), default=None)


# -- the rating list ------------------------------------------------------------------------
#
# The full list (12,500 players on a national list, and their clubs) is read in four
# queries whose rows are fetched as plain tuples (``_fetch``): Django's per-row
# conversions cost more than the queries on a list this long. Rows are NamedTuples.


class RateGrades(NamedTuple):
    """A player's grades of one rate in the list in force."""

    original: int | None  # in the list's first version; None: not published in it
    original_category: str  # '' with no original grade
    revised: int | None  # in the version in force
    revised_category: str
    games: int  # G24: games counted by the version in force


class Club(NamedTuple):
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


def _fetch(query: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query as the database gives them: no per-row field
    conversions, so only for columns that need none (numbers and text)."""
    try:
        sql, params = query.query.get_compiler(using=query.db).as_sql()
    except EmptyResultSet:  # filtered by an empty list: nothing to ask for
        return []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@functools.lru_cache(maxsize=200_000)  # codes never change their letter: 60,000 on record
def code_text(number: int) -> str:
    """123456 -> '123456A' (G28)."""
    return str(GradingCode(number))


def rating_rows(
    in_force: Mapping[Rate, InForce], players: Collection[int] | None = None
) -> list[RatingRow]:
    """Every player published in a version in force (of ``players`` only, when given), in
    name order: five queries (merges, entries, players, clubs) whatever the list's size."""
    if not in_force:
        return []
    final = surviving_ids(Player.merges())
    seen = _grades_seen(in_force, players, final)
    revised = [f.version.id for f in in_force.values()]
    published = {pid for pid, by_version in seen.items() if any(v in by_version for v in revised)}
    details = _players(published, in_force, players)
    holders = _club_holders(details, in_force, players, final)
    clubs = first_clubs(holders, season_of(in_force))
    standard, rapid = in_force.get(Rate.STANDARD), in_force.get(Rate.RAPID)
    rows = [_row(found, seen[pk], standard, rapid, clubs.get(pk)) for pk, found in details.items()]
    return sorted(rows, key=lambda row: (row.name_key, row.code))


def _row(
    found: tuple[Any, ...],
    seen: Mapping[int, _Seen],
    standard: InForce | None,
    rapid: InForce | None,
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
    in_force: Mapping[Rate, InForce], players: Collection[int] | None, final: Mapping[int, int]
) -> dict[int, dict[int, _Seen]]:
    """Published entries of the versions in force, by surviving player then version; a
    survivor's own entry wins over a merged record's (G28)."""
    ids = {pk for f in in_force.values() for pk in f.version_ids}
    entries = ListEntry.objects.filter(version_id__in=ids, published=True).order_by()
    if players is not None:
        wanted = set(players)
        records = [pk for pk, end in final.items() if end in wanted]
        entries = entries.filter(player_id__in=[*wanted, *records])
    rows = entries.values_list("player_id", "version_id", "grade", "category", "games_counted")
    seen: dict[int, dict[int, _Seen]] = {}
    for pid, version_id, grade, category, games in _fetch(rows):
        own = pid not in final
        by_version = seen.setdefault(final.get(pid, pid), {})
        if own or version_id not in by_version:
            by_version[version_id] = (grade, category, games)
    return seen


def _players(
    wanted: set[int], in_force: Mapping[Rate, InForce], players: Collection[int] | None
) -> dict[int, tuple[Any, ...]]:
    """Public columns of the wanted players, by a subquery of the entries when the whole
    list is wanted: 12,500 ids never become 12,500 query parameters."""
    chosen = list(wanted) if players is not None else _listed(in_force)
    rows = {row[0]: row for row in _fetch(_public(Player.objects.filter(id__in=chosen)))}
    missing = wanted - set(rows)  # survivors whose entries are on merged records
    if missing:
        extra = _fetch(_public(Player.objects.filter(id__in=list(missing))))
        rows.update({row[0]: row for row in extra})
    return {pk: row for pk, row in rows.items() if pk in wanted}


def _public(players: QuerySet[Player]) -> QuerySet[Any]:
    return players.order_by().values_list(*PLAYER_COLUMNS)


def _listed(in_force: Mapping[Rate, InForce]) -> QuerySet[Any]:
    """The player ids of the published entries of the versions in force, as a subquery."""
    ids = [f.version.id for f in in_force.values()]
    return ListEntry.objects.filter(version_id__in=ids, published=True).values("player_id")


def _club_holders(
    details: Mapping[int, tuple[Any, ...]],
    in_force: Mapping[Rate, InForce],
    players: Collection[int] | None,
    final: Mapping[int, int],
) -> Collection[int] | QuerySet[Any]:
    """Whose clubs to read: the whole list by the entries' subquery, with the survivors of
    merged records (whose entries may be on those records) by id; else the few asked."""
    if players is not None:
        return list(details)
    survivors = [pk for pk in set(final.values()) if pk in details]
    return Player.objects.filter(Q(id__in=_listed(in_force)) | Q(id__in=survivors)).values("id")


def first_clubs(holders: Collection[int] | QuerySet[Any], season: int | None) -> dict[int, Club]:
    """Each player's first club, as ``clubs_of(shown_clubs(...))[0]`` would give it: the
    most recently quoted club not lapsed by ``season`` (C2) that is not a location, in
    ``services.clubs.shown_clubs``' order (a test holds the two together). One query, of
    plain rows: a national list's 12,500 players would cost seconds through shown_clubs."""
    if season is None:
        return {}
    memberships = current_memberships(season).filter(player_id__in=holders, club__is_location=False)
    ordered = memberships.order_by(
        "player_id", "-last_season", "-first_season", "club__name", "club_id"
    ).values_list("player_id", "club__code", "club__name")
    first: dict[int, Club] = {}
    for pid, code, name in _fetch(ordered):
        if pid not in first:
            first[pid] = Club(code, name)
    return first


def clubs_of(shown: Iterable[ClubShown]) -> tuple[Club, ...]:
    """Clubs as the federation's API names them: no locations, which are not clubs."""
    return tuple(Club(club.code, club.name) for club in shown if not club.is_location)


def _rate_grades(seen: Mapping[int, _Seen], in_force: InForce | None) -> RateGrades | None:
    revised = None if in_force is None else seen.get(in_force.version.id)
    if revised is None or in_force is None:
        return None
    original = seen.get(in_force.initial.id)
    return RateGrades(
        original[0] if original else None,
        original[1] if original else "",
        revised[0],
        revised[1],
        revised[2],
    )


def full_name(surname: str, forenames: str) -> str:
    """'Surname, Forenames', as lists and results files write it."""
    return f"{surname}, {forenames}" if forenames else surname


# -- one player's rating on a date ---------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A player's grades of one rate in the list in force on a date."""

    code: str
    name: str
    rate: Rate
    on: dt.date  # the date asked (today when none was)
    list_id: str
    version: str  # the version in force: initial, august, revN
    grades: RateGrades


def rating_on(code: str, rate: Rate, on: dt.date | None) -> Rating:
    """The player's grades in the ``rate`` list in force on ``on``; NotFound when no
    player has the code, no list was in force, or he is not published in it."""
    located = locate(code)
    in_force = lists_in_force(on).get(rate)
    day = on or timezone.localdate()
    if in_force is None:
        raise NotFound(f"no {rate.value} list was in force on {day.isoformat()}")
    rows = rating_rows({rate: in_force}, [located.player_id])
    if not rows:
        raise NotFound(
            f"{located.code} is not graded in the {rate.value} list in force on "
            f"{day.isoformat()} ({in_force.list_id}, {in_force.version.name} version)"
        )
    row = rows[0]
    grades = row.grades(rate)
    assert grades is not None  # rating_rows keeps only players graded in a version in force
    return Rating(row.code, row.name, rate, day, in_force.list_id, in_force.version.name, grades)


# -- games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One graded game from the player's side, with the grades the list used (G12, G13)."""

    date: dt.date
    colour: str  # W, B, or '' where the results file did not say
    score: float  # 1 win, 0.5 draw, 0 loss
    opponent_name: str
    opponent_code: str | None  # None: the opponent is still being identified
    opponent_rating: int | None  # his starting grade in the list that graded the game
    player_rating: int | None  # the player's own starting grade in that list
    increment: float | None  # the game's points less the player's starting grade
    event_code: str
    event_name: str
    section: str  # the match or section the results file put it in


_GAME_COLUMNS = (
    "id",
    "game_date",
    "player1_id",
    "player2_id",
    "pending1__name",
    "pending2__name",
    "colour",
    "result",
    "part_name",
    "event__code",
    "event__name",
)
_OTHER_COLOUR = {"W": "B", "B": "W", "": ""}


def player_games(code: str, rate: Rate, limit: int | None = None) -> tuple[str, list[GameLine]]:
    """The player's graded games of ``rate``, latest first (at most ``limit``, capped at
    MAX_GAMES), each with the grades of the list that graded it; games not yet in a
    published list have none. Six queries whatever the number of games."""
    located = locate(code)
    final = surviving_ids(Player.merges())
    records = [located.player_id, *(pk for pk, end in final.items() if end == located.player_id)]
    count = MAX_GAMES if limit is None else max(0, min(limit, MAX_GAMES))
    rows = [row[:-2] for row in _games_of(records) if row[-2] == rate.value and row[-1]][:count]
    sides = {row[0]: _sides(row, final) for row in rows}
    graded = _grading_lists([row[0] for row in rows], located.player_id, rate)
    starts = _starts(graded, sides, located.player_id)
    names = _codes_and_names({side for pair in sides.values() for side in pair})
    return located.code, [
        _game_line(row, sides[row[0]], located.player_id, graded.get(row[0]), starts, names)
        for row in rows
    ]


def _games_of(records: list[int]) -> list[tuple[Any, ...]]:
    """Every game of these records, latest first, with its rate and whether it is graded
    last. Filtered by player only, so that each side is read by its own index: with the
    rate in the query too, SQLite walks the (rate, graded, date) index over every game of
    the rate instead (half a second on the national demo)."""
    mine = Q(player1_id__in=records) | Q(player2_id__in=records)
    games = Game.objects.filter(mine).order_by("-game_date", "-sequence")
    return list(games.values_list(*_GAME_COLUMNS, "rate", "graded"))


def _sides(row: tuple[object, ...], final: Mapping[int, int]) -> tuple[int | None, int | None]:
    one, two = row[2], row[3]
    return (
        None if one is None else surviving_id(final, int(one)),  # type: ignore[call-overload]
        None if two is None else surviving_id(final, int(two)),  # type: ignore[call-overload]
    )


def _grading_lists(game_ids: list[int], player_id: int, rate: Rate) -> dict[int, tuple[int, float]]:
    """Game -> (version, points) of the latest list whose P0 graded it (G17): the points
    the current version of that list stored for the player."""
    current = current_versions(published_versions())
    wanted = {v.id: v.list_id for (_lid, r), v in current.items() if r is rate}
    stored = StoredGamePoints.objects.filter(
        version_id__in=list(wanted), player_id=player_id, game_id__in=game_ids, period=0
    ).values_list("game_id", "version_id", "points")
    chosen: dict[int, tuple[int, float]] = {}
    for game_id, version_id, points in stored:
        held = chosen.get(game_id)
        if held is None or wanted[version_id] > wanted[held[0]]:
            chosen[game_id] = (version_id, points)
    return chosen


def _starts(
    graded: Mapping[int, tuple[int, float]],
    sides: Mapping[int, tuple[int | None, int | None]],
    player_id: int,
) -> dict[tuple[int, int], float | None]:
    """(version, player) -> starting grade (G13), for the player and his opponents."""
    versions = {version_id for version_id, _points in graded.values()}
    people = {side for pair in sides.values() for side in pair if side is not None}
    if not versions:
        return {}
    rows = ListEntry.objects.filter(version_id__in=versions, player_id__in=people | {player_id})
    return {
        (version_id, pid): start
        for version_id, pid, start in rows.order_by().values_list(
            "version_id", "player_id", "start_grade"
        )
    }


def _codes_and_names(ids: set[int | None]) -> dict[int, tuple[str, str]]:
    rows = Player.objects.filter(id__in={i for i in ids if i is not None}).values_list(
        "id", "code", "surname", "forenames"
    )
    return {
        pk: (str(GradingCode(code)), full_name(surname, forenames))
        for pk, code, surname, forenames in rows
    }


def _game_line(
    row: tuple[object, ...],
    sides: tuple[int | None, int | None],
    player_id: int,
    graded: tuple[int, float] | None,
    starts: Mapping[tuple[int, int], float | None],
    names: Mapping[int, tuple[str, str]],
) -> GameLine:
    _gid, day, _one, _two, pending1, pending2, colour, result, part, event_code, event_name = row
    first = sides[0] == player_id
    opponent = sides[1] if first else sides[0]
    score1 = ResultCode.from_text(str(result)).score1
    code, name = names.get(opponent, (None, "")) if opponent is not None else (None, "")
    if code is None:  # being identified: the name the results file gave
        name = str((pending2 if first else pending1) or "")
    own = opponents = None
    if graded is not None:
        own = starts.get((graded[0], player_id))
        opponents = starts.get((graded[0], opponent)) if opponent is not None else None
    return GameLine(
        date=day,  # type: ignore[arg-type]
        colour=str(colour) if first else _OTHER_COLOUR[str(colour)],
        score=score1 if first else 1.0 - score1,
        opponent_name=name,
        opponent_code=code,
        opponent_rating=_rounded(opponents),
        player_rating=_rounded(own),
        increment=None if graded is None or _rounded(own) is None else round(graded[1] - own, 1),  # type: ignore[operator]
        event_code=str(event_code),
        event_name=str(event_name),
        section=str(part),
    )


def _rounded(value: float | None) -> int | None:
    """A starting grade as the federation's API shows ratings: whole numbers."""
    return None if value is None or not math.isfinite(value) else round(value)


# -- clubs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubEntry:
    """A club as the federation's API describes it; its association is its county."""

    code: str | None
    name: str
    assoc_code: str | None  # the county's address key, e.g. 'yorkshire'
    assoc_name: str | None


def active_clubs() -> list[ClubEntry]:
    """Clubs with a code, not merged into another, with a member whose membership of it
    (or of a club merged into it) has not lapsed (C2) by the current season: by name."""
    index = club_index()
    season = season_of(lists_in_force())
    if season is None:
        return []
    quoted = set(current_memberships(season).values_list("club_id", flat=True).distinct())
    active = {index.survivor.get(pk, pk) for pk in quoted}
    rows = [index.clubs[pk] for pk in active if pk in index.clubs]
    shown = [row for row in rows if row.code and not row.is_location and not row.merged_into_id]
    return [_club_entry(index, row.id) for row in sorted(shown, key=lambda r: (r.name, r.code))]


def club_by_code(code: str) -> ClubEntry:
    """The club with this four-character code; ClubNotFound otherwise."""
    index = club_index()
    return _club_entry(index, _club_pk(index, code))


def clubs_named(name: str) -> list[ClubEntry]:
    """Clubs (not counties, not locations) whose name or a word of it starts with ``name``,
    as the website's club lookup finds them."""
    if not name.strip():
        raise RatingsError("expected the start of a club's name, e.g. 'shef'; got nothing")
    index = club_index()
    refs = [match.club for match in index.search(name) if match.club is not None]
    pks = [_pk_of(index, ref.key) for ref in refs if not ref.is_location]
    return [_club_entry(index, pk) for pk in dict.fromkeys(pks) if pk is not None]


def club_members(code: str) -> tuple[ClubEntry, list[int]]:
    """The club and the surviving ids of its members whose membership of it (or of a club
    merged with it) has not lapsed (C2), graded or not."""
    index = club_index()
    pk = _club_pk(index, code)
    season = season_of(lists_in_force())
    ids: list[int] = []
    if season is not None:
        found = current_memberships(season).filter(club_id__in=index.group(pk))
        final = surviving_ids(Player.merges())
        members = found.values_list("player_id", flat=True).distinct()
        ids = sorted({surviving_id(final, pid) for pid in members})
    return _club_entry(index, pk), ids


def _club_pk(index: ClubIndex, code: str) -> int:
    pk = index.by_code.get(code.strip().upper())
    if pk is None:
        raise ClubNotFound(f"no club has the code {code!r}")
    return pk


def _pk_of(index: ClubIndex, key: str) -> int | None:
    """The club at an address key (``clubs.club_key``): its code, or ``club-<id>``."""
    number = key.removeprefix(CLUB_KEY_PREFIX)
    if number != key and number.isdigit():
        return int(number) if int(number) in index.clubs else None
    return index.by_code.get(key.upper())


def _club_entry(index: ClubIndex, pk: int) -> ClubEntry:
    row = index.clubs[pk]
    county = index.county(row.county_id) if row.county_id is not None else None
    return ClubEntry(
        code=row.code,
        name=row.name,
        assoc_code=county.key if county else None,
        assoc_name=county.name if county else None,
    )
