"""The seeds' club lookup: clubs and counties by name, and their member lists.

"Type the club (or county) name, or the first few letters", and for each club or county
found the seeds give four links: the club's members, the same including inactive
players, the county team ("everyone who has played for the county") and the clubs in the
county ("all members of all clubs affiliated to the county").

Addresses (stable: people bookmark them):

- a club is ``/clubs/<code>/`` by its four-character code; a club known by name only
  (and a location, which has no code) is ``/clubs/club-<id>/``: the registry's id never
  changes, and ``club-<id>`` can never be a code (codes have four characters). When
  such a club later tells its code, the old address leads to the new one.
- a county is ``/counties/<key>/``, its name folded to plain lower-case words joined by
  hyphens ('Isle of Wight' -> ``isle-of-wight``); should two names fold alike, the
  later county (by id) adds ``-<id>``. ``/counties/<code>/`` by its four-character
  association code (``registry.associations``) leads there too.

Merged clubs (``Club.merged_into``): the absorbed club keeps its row and its name, so a
lookup finds the club under both names, and both lead to the same members: those of the
surviving club and of every club merged into it.

Clubs and counties are few (a federation has a couple of thousand), so the lookup keeps
their folded names in a sorted index, built in two queries once per data token
(``freshness.data_token``) and searched by bisection.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Q, QuerySet

from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound, ServiceError
from ecfgrading.lookups.county_teams import Teams, county_team, county_teams, is_team_club
from ecfgrading.lookups.freshness import data_token, one_token
from ecfgrading.lookups.lists import CurrentList, VersionInfo, current_season, lists_by_rate
from ecfgrading.lookups.members import (
    Affiliation,
    Member,
    Sort,
    Source,
    forget_orders,
    member_page,
)
from ecfgrading.lookups.memberships import current_memberships
from ecfgrading.lookups.paging import MAX_PER_PAGE, PER_PAGE, Page, bounds
from ecfgrading.lookups.records import Survivors
from ecfgrading.matching.names import fold
from ecfgrading.registry.merges import surviving_ids
from ecfgrading.registry.models import Club, ClubMembership, County

CLUB_KEY_PREFIX = "club-"
MEMBERS_PER_PAGE = MAX_PER_PAGE  # club captains print member lists: long pages


class ClubNotFound(NotFound):
    """No club or county at that address."""


@dataclass(frozen=True)
class ClubRef:
    """A club (or a location) as pages name and link it."""

    key: str  # its address: /clubs/<key>/
    code: str | None
    name: str
    is_location: bool

    @property
    def label(self) -> str:
        return location_label(self.name, self.is_location)


def location_label(name: str, is_location: bool) -> str:
    """The seeds' form: a location rather than a club is followed by an asterisk."""
    return f"{name}*" if is_location else name


@dataclass(frozen=True)
class CountyRef:
    key: str  # its address: /counties/<key>/
    code: str  # its association code, e.g. 'NORF': assoc_code in the federation's API
    name: str
    clubs: int  # clubs and locations affiliated to it


@dataclass(frozen=True)
class ClubMatch:
    """A row of the lookup: a club or a county, with what its four links need."""

    kind: str  # "club" or "county"
    name: str
    club: ClubRef | None  # None for a county
    county: CountyRef | None  # the club's county; the county itself
    merged_into: ClubRef | None  # the club it counts for now
    absorbed: tuple[ClubRef, ...]  # clubs merged into it


@dataclass(frozen=True)
class ClubSearch:
    query: str
    page: Page[ClubMatch]


@dataclass(frozen=True)
class MemberList:
    """A club's, a county's or a county team's members, one page of them."""

    kind: str  # "club", "county" or "county-team"
    name: str
    club: ClubRef | None
    county: CountyRef | None
    merged_into: ClubRef | None
    absorbed: tuple[ClubRef, ...]
    clubs: tuple[ClubRef, ...]  # a county's clubs
    sort: Sort
    inactive: bool
    season: int | None  # the season club affiliations lapse by (C2)
    lists: tuple[VersionInfo, ...]  # the current version of each rate's current list
    page: Page[Member]


# -- the index of names ---------------------------------------------------------------------


class _ClubRow(NamedTuple):
    id: int
    code: str | None
    name: str
    county_id: int | None
    is_location: bool
    merged_into_id: int | None


class _CountyRow(NamedTuple):
    id: int
    name: str
    code: str


class _Key(NamedTuple):
    text: str  # folded words, from one word of the name to its end
    word: int  # which word it starts at: 0 is the whole name
    kind: str
    id: int


class ClubIndex:
    """Every club and county with its address, merges, county, and folded names."""

    def __init__(self, clubs: list[_ClubRow], counties: list[_CountyRow]) -> None:
        self.clubs = {club.id: club for club in clubs}
        self.county_names = {county.id: county.name for county in counties}
        self.county_codes = {county.id: county.code for county in counties}
        self.county_keys = county_keys([(county.id, county.name) for county in counties])
        self.county_by_key = {key: pk for pk, key in self.county_keys.items()}
        self.county_by_code = {code: pk for pk, code in self.county_codes.items()}
        self.by_code = {club.code.upper(): club.id for club in clubs if club.code}
        merged = {club.id: club.merged_into_id for club in clubs if club.merged_into_id}
        self.survivor = surviving_ids(merged)
        self.absorbed: dict[int, list[int]] = {}
        for pk, end in sorted(self.survivor.items()):
            self.absorbed.setdefault(end, []).append(pk)
        self.of_county: dict[int, list[int]] = {}
        for club in sorted(clubs, key=lambda c: (_folded(c.name), c.id)):
            if club.county_id is not None:
                self.of_county.setdefault(club.county_id, []).append(club.id)
        names = [("club", club.id, club.name) for club in clubs]
        names += [("county", county.id, county.name) for county in counties]
        self.keys = sorted(key for kind, pk, name in names for key in _keys(kind, pk, name))
        self.texts = [key.text for key in self.keys]
        self._team_clubs: dict[int, list[int]] = {}  # worked out when first asked for
        self._teams: Teams | None = None  # likewise

    def club(self, pk: int) -> ClubRef:
        row = self.clubs[pk]
        return ClubRef(club_key(row.code, pk), row.code, row.name, row.is_location)

    def county(self, pk: int) -> CountyRef:
        return CountyRef(
            self.county_keys[pk],
            self.county_codes[pk],
            self.county_names[pk],
            len(self.of_county.get(pk, ())),
        )

    def team_clubs(self, county_id: int) -> list[int]:
        """Clubs named after the county ('Kent', 'Kent County'), wherever affiliated."""
        found = self._team_clubs.get(county_id)
        if found is None:
            name = self.county_names[county_id]
            found = [pk for pk, row in self.clubs.items() if is_team_club(row.name, name)]
            self._team_clubs[county_id] = found
        return found

    def county_team(self, county_id: int) -> frozenset[int]:
        """Everyone who has played for the county (``lookups.county_teams``): every
        county's team worked out together, once per index (per data token)."""
        if self._teams is None:
            counties = {pk: (name, self.team_clubs(pk)) for pk, name in self.county_names.items()}
            self._teams = county_teams(counties)
        return self._teams.get(county_id, frozenset())

    def group(self, pk: int) -> list[int]:
        """The clubs whose members are this club's: its survivor's and every club merged
        into that one (a merged club appears under both names, with the same members)."""
        end = self.survivor.get(pk, pk)
        return [end, *self.absorbed.get(end, ())]

    def match(self, kind: str, pk: int) -> ClubMatch:
        if kind == "county":
            county = self.county(pk)
            return ClubMatch("county", county.name, None, county, None, ())
        row = self.clubs[pk]
        end = self.survivor.get(pk, pk)
        return ClubMatch(
            "club",
            row.name,
            self.club(pk),
            self.county(row.county_id) if row.county_id is not None else None,
            self.club(end) if end != pk else None,
            tuple(self.club(other) for other in self.absorbed.get(pk, ())),
        )

    def search(self, query: str) -> list[ClubMatch]:
        """Clubs and counties whose name, or a word of it, starts with ``query`` (case and
        accents ignored), and the club with that code: the code first, then whole names,
        then names with a later word matching, each by name."""
        return [self.match(kind, pk) for kind, pk in self.search_keys(query)]

    def search_keys(self, query: str) -> list[tuple[str, int]]:
        """``search`` as (kind, id) pairs, for a caller that shows only some of them."""
        wanted = _folded(query)
        found: dict[tuple[str, int], tuple[int, str]] = {}
        code = self.by_code.get(query.strip().upper())
        if code is not None:
            found[("club", code)] = (-1, "")
        if wanted:
            start = bisect.bisect_left(self.texts, wanted)
            for key in self.keys[start:]:
                if not key.text.startswith(wanted):
                    break
                rank = (0 if key.word == 0 else 1, self._folded_name(key.kind, key.id))
                found[(key.kind, key.id)] = min(found.get((key.kind, key.id), rank), rank)
        ordered = sorted(found.items(), key=lambda item: (*item[1], item[0]))
        return [key for key, _rank in ordered]

    def _folded_name(self, kind: str, pk: int) -> str:
        name = self.county_names[pk] if kind == "county" else self.clubs[pk].name
        return _folded(name)


def _folded(text: str) -> str:
    """'Anytown C.C.' -> 'anytown cc'; 'Bürgerhaus' -> 'burgerhaus'."""
    return fold(text.replace(".", ""))


def _keys(kind: str, pk: int, name: str) -> list[_Key]:
    words = _folded(name).split()
    return [_Key(" ".join(words[k:]), k, kind, pk) for k in range(len(words))]


def club_key(code: str | None, pk: int) -> str:
    """A club's address: its code, or ``club-<id>`` when it has none (or one that cannot
    stand in an address)."""
    if code and code.isalnum() and code.isascii():
        return code.upper()
    return f"{CLUB_KEY_PREFIX}{pk}"


def county_keys(counties: list[tuple[int, str]]) -> dict[int, str]:
    """Each county's address: its folded name with hyphens; a clash adds the id."""
    keys: dict[int, str] = {}
    taken: set[str] = set()
    for pk, name in sorted(counties):
        key = "-".join(_folded(name).split()) or f"county-{pk}"
        if key in taken:
            key = f"{key}-{pk}"
        taken.add(key)
        keys[pk] = key
    return keys


_INDEX: dict[str, ClubIndex] = {}  # data token -> index: the latest one only


def club_index() -> ClubIndex:
    """The index for the current data token: built once per change of the records."""
    token = data_token()
    found = _INDEX.get(token)
    if found is None:
        clubs = Club.objects.values_list(
            "id", "code", "name", "county_id", "is_location", "merged_into_id"
        )
        counties = County.objects.values_list("id", "name", "code")
        found = ClubIndex([_ClubRow(*row) for row in clubs], [_CountyRow(*row) for row in counties])
        _INDEX.clear()
        _INDEX[token] = found
    return found


def warm_clubs() -> None:
    """Build the club index of the current data token, its county teams and the order
    of each county's members, as the first club lookup, county-team page and county page
    would (``web.warming``)."""
    with one_token():  # read first: what is kept is never older than the token it is under
        index = club_index()
        for county in index.county_names:
            index.county_team(county)
            county_members(index.county(county).key, per_page=1)  # its order the point


def forget_index() -> None:
    """Drop the index, and the members' orders kept (tests that rewrite the records
    under one token)."""
    _INDEX.clear()
    forget_orders()


# -- the lookup -----------------------------------------------------------------------------


def find_clubs(query: str, *, page: int = 1, per_page: int = PER_PAGE) -> ClubSearch:
    """Clubs and counties matching ``query``, a page of them; nothing for a blank query."""
    query = query.strip()
    index = club_index()
    found = index.search_keys(query) if query else []
    pages = max(1, -(-len(found) // per_page))
    number = min(page, pages)
    start, end = bounds(number, per_page)
    shown = tuple(index.match(kind, pk) for kind, pk in found[start:end])
    return ClubSearch(query, Page(shown, number, per_page, len(found)))


# -- member lists ---------------------------------------------------------------------------


def find_club(key: str) -> ClubRef:
    """The club at an address; its ``key`` is the canonical address (a club known by
    name that has since told its code has moved there)."""
    index = club_index()
    pk = _club_id(index, key)
    if pk is None:
        raise ClubNotFound(f"No club has the code {key!r}. Look it up by name instead.")
    return index.club(pk)


def _club_id(index: ClubIndex, key: str) -> int | None:
    text = key.strip()
    if text.lower().startswith(CLUB_KEY_PREFIX) and text[len(CLUB_KEY_PREFIX) :].isdigit():
        pk = int(text[len(CLUB_KEY_PREFIX) :])
        return pk if pk in index.clubs else None
    return index.by_code.get(text.upper())


def find_county(key: str) -> CountyRef:
    """The county at an address; its ``key`` is the canonical address."""
    index = club_index()
    return index.county(_county_id(index, key))


def _county_id(index: ClubIndex, key: str) -> int:
    """By its address key, else by its association code ('norfolk', then 'NORF')."""
    pk = index.county_by_key.get(key.strip().lower())
    if pk is None:
        pk = index.county_by_code.get(key.strip().upper())
    if pk is None:
        raise ClubNotFound(f"No county is known as {key!r}. Look it up by name instead.")
    return pk


def club_members(
    key: str,
    *,
    sort: Sort = Sort.NAME,
    inactive: bool = False,
    page: int = 1,
    per_page: int = MEMBERS_PER_PAGE,
) -> MemberList:
    """A club's members: players whose membership of it (or of a club merged with it)
    has not lapsed (C2), graded now, or at any time with ``inactive``. The list's
    ``club.key`` is the canonical address of the club ``key`` names."""
    index = club_index()
    pk = _club_id(index, key)
    if pk is None:
        raise ClubNotFound(f"No club has the code {key!r}. Look it up by name instead.")
    lists = lists_by_rate()
    season = reference_season(lists)
    found = _memberships(season, Q(club_id__in=index.group(pk)), with_club=False)
    match = index.match("club", pk)
    return _member_list(
        match, found, kind="club", sort=sort, inactive=inactive, page=page, per_page=per_page,
        lists=lists,
    )  # fmt: skip


def county_members(
    key: str,
    *,
    team: bool = False,
    sort: Sort = Sort.NAME,
    inactive: bool = False,
    page: int = 1,
    per_page: int = MEMBERS_PER_PAGE,
) -> MemberList:
    """All members of all clubs of a county (C2 as for a club), or with ``team`` its
    county team: everyone who has played for the county (``county_team``)."""
    index = club_index()
    pk = _county_id(index, key)
    lists = lists_by_rate()
    season = reference_season(lists)
    clubs = index.of_county.get(pk, [])
    if team:
        found = county_team(index.county_team(pk))
    else:  # its members' order kept once read (lookups.members, issue 25)
        found = _memberships(season, Q(club_id__in=clubs), with_club=True, key=("county", pk))
    match = index.match("county", pk)
    return _member_list(
        match, found, kind="county-team" if team else "county", sort=sort, inactive=inactive,
        page=page, per_page=per_page, lists=lists,
        clubs=tuple(index.club(club) for club in clubs),
    )  # fmt: skip


def _member_list(
    match: ClubMatch,
    found: Source,
    *,
    kind: str,
    sort: Sort,
    inactive: bool,
    page: int,
    per_page: int,
    lists: dict[Rate, list[CurrentList]],
    clubs: tuple[ClubRef, ...] = (),
) -> MemberList:
    shown = member_page(
        found, sort=sort, inactive=inactive, number=page, per_page=per_page, lists=lists
    )
    return MemberList(
        kind=kind,
        name=match.name,
        club=match.club,
        county=match.county,
        merged_into=match.merged_into,
        absorbed=match.absorbed,
        clubs=clubs,
        sort=sort,
        inactive=inactive,
        season=reference_season(lists),
        lists=tuple(found[0].current for found in lists.values() if found),
        page=shown,
    )


def reference_season(lists: dict[Rate, list[CurrentList]]) -> int | None:
    """``lists.current_season()`` from lists already read: the season of the latest
    current list, by which club affiliations lapse (C2)."""
    return max((found[0].season for found in lists.values() if found), default=None)


def _memberships(
    season: int | None, clubs: Q, *, with_club: bool, key: tuple[str, int] | None = None
) -> Source:
    """Players whose membership of these clubs has not lapsed by ``season`` (C2), with
    the clubs that make them members when ``with_club``; ``key``: what they are, for
    their order to be kept (``Source.key``)."""
    if season is None:
        return Source(Q(pk__in=[]))  # nothing published yet: no season to reckon lapsing by
    rows = current_memberships(season).filter(clubs)

    def absorbed(merged: list[int]) -> list[Affiliation]:
        return _affiliations(rows.filter(player_id__in=merged))

    def clubs_of(players: list[int] | None) -> list[Affiliation]:
        return _affiliations(rows if players is None else rows.filter(player_id__in=players))

    return Source(
        Q(id__in=rows.values("player_id")),
        absorbed,
        clubs_of if with_club else None,
        key=None if key is None else (*key, season),
    )


def _affiliations(rows: QuerySet[ClubMembership]) -> list[Affiliation]:
    """Fetched whole, not through ``iterator()``: on PostgreSQL that is a server-side
    cursor, declared, fetched from and closed, planned for its first rows, and a county
    page's two took 8 ms of its 37 (issue 25)."""
    columns = ("club__name", "club__is_location", "player_id", "player__merged_into_id")
    return [
        Affiliation(location_label(name, location), player, merged)
        for name, location, player, merged in rows.order_by().values_list(*columns)
    ]


# -- clubs as the federation's rating API describes them ------------------------------------


@dataclass(frozen=True)
class ClubEntry:
    """A club as the federation's API describes it; its association is its county."""

    code: str | None
    name: str
    assoc_code: str | None  # the county's association code, e.g. 'YORK'
    assoc_name: str | None


def active_clubs() -> list[ClubEntry]:
    """Clubs with a code, not merged into another, with a member whose membership of it
    (or of a club merged into it) has not lapsed (C2) by the current season: by name."""
    index = club_index()
    season = current_season()
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
    return _club_entry(index, _coded_club(index, code))


def clubs_named(name: str) -> list[ClubEntry]:
    """Clubs (not counties, not locations) whose name or a word of it starts with ``name``,
    as the website's club lookup finds them."""
    if not name.strip():
        raise ServiceError("expected the start of a club's name, e.g. 'shef'; got nothing")
    index = club_index()
    found = [pk for kind, pk in index.search_keys(name) if kind == "club"]
    return [_club_entry(index, pk) for pk in found if not index.clubs[pk].is_location]


def club_player_ids(code: str) -> tuple[ClubEntry, list[int]]:
    """The club with this code and the players counting for its members whose membership
    of it (or of a club merged with it) has not lapsed (C2), graded or not."""
    index = club_index()
    pk = _coded_club(index, code)
    season = current_season()
    ids: list[int] = []
    if season is not None:
        found = current_memberships(season).filter(club_id__in=index.group(pk))
        survivors = Survivors()
        members = found.values_list("player_id", flat=True).distinct()
        ids = sorted({survivors.survivor(pid) for pid in members})
    return _club_entry(index, pk), ids


def _coded_club(index: ClubIndex, code: str) -> int:
    pk = index.by_code.get(code.strip().upper())
    if pk is None:
        raise ClubNotFound(f"no club has the code {code!r}")
    return pk


def _club_entry(index: ClubIndex, pk: int) -> ClubEntry:
    row = index.clubs[pk]
    county = index.county(row.county_id) if row.county_id is not None else None
    return ClubEntry(
        code=row.code,
        name=row.name,
        assoc_code=county.code if county else None,
        assoc_name=county.name if county else None,
    )
