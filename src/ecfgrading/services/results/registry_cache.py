"""Clubs, counties, memberships and known birth dates, loaded once and kept in step.

An import touches a few dozen clubs and memberships per file; asking the database for
each would be most of the import's time. The cache is trusted only together with the
mark it was brought up to (services.results.view), and dropped if a write fails.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple, TypeVar

from django.db import connection, models
from django.utils import timezone

from ecfgrading.registry.bulk import IN_CHUNK, padded, update_rows
from ecfgrading.registry.inserts import insert_returning
from ecfgrading.registry.models import Club, ClubMembership, County, Player
from ecfgrading.services.changes import Changes
from ecfgrading.services.results.records import Reloaded

_K = TypeVar("_K")
# How rows are updated by id (registry.bulk.update_rows): now, or with a turn's games
# (services.results.write.updated).
Update = Callable[[type[models.Model], tuple[str, ...], Sequence[tuple[Any, ...]]], None]


def _fill_where_empty(column: str, rows: list[tuple[object, int]]) -> int:
    """A club's code or county learnt from a file, (value, id) a row, written only where
    the record still lacks it: one given meanwhile by another importer or the back
    office stands. Returns the rows written."""
    if not rows:
        return 0  # most files: nothing learnt, no cursor
    quote = connection.ops.quote_name
    table, name = quote(Club._meta.db_table), quote(column)
    sql = f"UPDATE {table} SET {name} = %s WHERE {quote('id')} = %s AND {name} IS NULL"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
        return int(cursor.rowcount)  # summed over the rows, on both databases


def _clubs_holding(codes: list[str], ids: list[int]) -> list[tuple[Any, ...]]:
    """(id, code, name, county id, is a location) of the clubs holding ``codes`` or of
    ``ids``: a plain statement of a few shapes (``padded``), as a file may ask it."""
    quote = connection.ops.quote_name
    columns = ", ".join(map(quote, ("id", "code", "name", "county_id", "is_location")))
    tests: list[str] = []
    params: list[object] = []
    asked: tuple[tuple[str, list[object]], ...] = (("code", [*codes]), ("id", [*ids]))
    for column, values in asked:
        if values:
            values = padded(values)
            tests.append(f"{quote(column)} IN ({', '.join(['%s'] * len(values))})")
            params += values
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {quote(Club._meta.db_table)} WHERE {' OR '.join(tests)}",
            params,
        )
        return list(cursor.fetchall())


class Seasons(NamedTuple):
    """A membership on record: its id and the first and last season it covers."""

    id: int
    first_season: int
    last_season: int

    def covering(self, season: int) -> Seasons:
        return self._replace(
            first_season=min(self.first_season, season), last_season=max(self.last_season, season)
        )


class _SeasonsUpdate(NamedTuple):
    """A row for ``update_rows``: the columns set, then the id."""

    first_season: int
    last_season: int
    id: int


class _BirthUpdate(NamedTuple):
    date_of_birth: date
    born_noted_at: datetime  # when it was learnt: a replay of a list reads it only if by then
    id: int


@dataclass
class RegistryCache:
    club_by_code: dict[str, int] = field(default_factory=dict)
    club_by_name: dict[str, int] = field(default_factory=dict)
    club_coded: set[int] = field(default_factory=set)  # clubs that have a code
    counties: dict[str, int] = field(default_factory=dict)
    club_county: dict[int, int | None] = field(default_factory=dict)
    club_names: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> code, name
    memberships: dict[tuple[int, int], Seasons] = field(default_factory=dict)  # player, club
    births_known: set[int] = field(default_factory=set)
    # Clubs on record that learnt their code since the cache was loaded: their members'
    # records in the importer's index hold the code only once a file names them again
    # (services.results.view), so their memberships on record are indexed again.
    coded_since: set[int] = field(default_factory=set)
    # Codes and counties learnt for clubs on record, written at once by ``clubs`` (None:
    # written by ``club`` itself).
    _learnt: dict[str, dict[int, object]] | None = None

    @classmethod
    def load(cls) -> RegistryCache:
        cache = cls.load_clubs()
        # Unordered throughout: the default orderings of memberships and players (by
        # names) would join and sort whole tables for what only fills dicts and sets.
        rows = ClubMembership.objects.order_by().values_list(
            "id", "player_id", "club_id", "first_season", "last_season"
        )
        made = tuple.__new__  # Seasons(...) without its constructor's frame: a national
        # registry's 45,000 memberships made through it were a sixth of this load
        cache.memberships = {
            (p, c): made(Seasons, (pk, f, s)) for pk, p, c, f, s in rows.iterator(chunk_size=50_000)
        }
        known = Player.objects.filter(date_of_birth__isnull=False).order_by()
        cache.births_known = set(known.values_list("id", flat=True).iterator(chunk_size=50_000))
        return cache

    @classmethod
    def load_clubs(cls) -> RegistryCache:
        """Clubs and counties only; memberships are loaded by ``load``."""
        cache = cls()
        for pk, code, name, county, location in Club.objects.order_by("id").values_list(
            "id", "code", "name", "county_id", "is_location"
        ):
            cache._remember_club(pk, code or "", name + ("*" if location else ""), county)
        cache.counties = {name.lower(): pk for pk, name in County.objects.values_list("id", "name")}
        return cache

    def reload_clubs(self) -> None:
        """Clubs and counties read again whole, as ``load_clubs`` reads them, after staff
        edited some in place: a club renamed is found by its new name only, and which of
        two clubs of one name a name finds is decided as a cache loaded now decides it.
        Memberships and birth dates stay; ``coded_since`` stays, for the members of such
        clubs that the view does not read again."""
        fresh = RegistryCache.load_clubs()
        self.club_by_code, self.club_by_name = fresh.club_by_code, fresh.club_by_name
        self.club_coded, self.counties = fresh.club_coded, fresh.counties
        self.club_county, self.club_names = fresh.club_county, fresh.club_names

    def forget_members_of(self, clubs: Collection[int]) -> frozenset[int]:
        """The players with a membership of any of these clubs, as the cache holds them,
        those memberships forgotten: a membership staff moved to another club or player,
        or deleted, in the admin (which notes the club it left) is not left behind; the
        caller reads the players again, and with them the memberships they hold now."""
        wanted = set(clubs)
        pairs = [pair for pair in self.memberships if pair[1] in wanted]
        for pair in pairs:
            del self.memberships[pair]
        return frozenset(player for player, _ in pairs)

    def _remember_club(self, pk: int, code: str, name: str, county: int | None) -> None:
        if code:
            self.club_by_code.setdefault(code.upper(), pk)
            self.club_coded.add(pk)
        self.club_by_name.setdefault(name.strip().lower(), pk)
        self.club_county[pk] = county
        self.club_names[pk] = (code, name)

    def club(self, code: str, name: str, county: str) -> int:
        """The club a player set names, by code, else by name; created when new."""
        code, name = code.strip().upper(), name.strip()
        pk = self.club_by_code.get(code) if code else None
        if pk is None and code and self._learnt is None:
            pk = self._as_stored(code=code)  # asked alone: ``clubs`` asks for a file's at once
        if pk is None and name:
            # A location is written 'Dover*' in lists; a file may leave the star off.
            pk = self.club_by_name.get(name.lower()) or self.club_by_name.get(f"{name.lower()}*")
            if pk is not None and code and pk not in self.club_coded:
                self.coded_since.add(pk)  # a club known by name tells its code
                self._remember_club(pk, code, name, self.club_county[pk])
                self._learn(pk, "code", code)
        if pk is None:
            location = name.endswith("*")  # 'Dover*': a location, as the lists write it
            made = Club.objects.create(
                code=code or None, name=name.rstrip("*").strip() or code, is_location=location
            )
            self._remember_club(made.id, code, name or code, None)
            pk = made.id
        if county and self.club_county.get(pk) is None:
            self.club_county[pk] = self._county(county)
            self._learn(pk, "county_id", self.club_county[pk])
        return pk

    def clubs(self, wanted: Iterable[tuple[_K, str, str, str]]) -> dict[_K, int]:
        """``club`` for each (key, code, name, county), what it learns of clubs already on
        record written by one statement a column, not one a club."""
        wanted = list(wanted)
        self._as_stored_all(
            codes={code.strip().upper() for _, code, _, _ in wanted}.difference(
                self.club_by_code, ("",)
            )
        )
        self._learnt = {"code": {}, "county_id": {}}
        # A file's players name a few clubs each many times: each way of naming one is
        # looked up once (a second look finds what the first created or learnt).
        seen: dict[tuple[str, str, str], int] = {}
        try:
            found = {}
            for key, code, name, county in wanted:
                named = (code, name, county)
                pk = seen.get(named)
                if pk is None:
                    pk = seen[named] = self.club(code, name, county)
                found[key] = pk
            learnt = self._learnt
        finally:
            self._learnt = None
        self._write_learnt(learnt)
        return found

    def _as_stored(self, *, code: str) -> int | None:
        """The club holding this code as stored now, remembered; its id, or None."""
        self._as_stored_all(codes={code})
        return self.club_by_code.get(code)

    def _as_stored_all(self, *, codes: Collection[str] = (), ids: Collection[int] = ()) -> None:
        """The clubs holding these codes, and those of these ids, as stored now,
        remembered: one statement, none for none.

        Another importer or the back office may have given a club on record its code or
        county in place since the cache was loaded: no row is added, so catching up does
        not read it. Asked for a file's codes the cache does not know, before it finds a
        club by name or makes one (so that a code finds its club as a cache loaded now
        would), and for clubs that kept a code or county of their own against one the
        cache learnt (``_write_learnt``)."""
        if not codes and not ids:
            return
        for found, stored, name, county, location in _clubs_holding(sorted(codes), sorted(ids)):
            learnt = self.club_names.get(found, ("", ""))[0]
            if learnt != (stored or ""):
                if learnt and self.club_by_code.get(learnt) == found:
                    del self.club_by_code[learnt]  # a code that did not stand, or changed
                if stored:
                    self.coded_since.add(found)  # its members' records learn it as seen
            self.club_coded.discard(found)
            self._remember_club(found, stored or "", name + ("*" if location else ""), county)
            if stored:
                self.club_by_code[stored.upper()] = found  # as stored now, whoever held it

    def _learn(self, pk: int, column: str, value: object) -> None:
        if self._learnt is None:
            self._write_learnt({column: {pk: value}})
        else:
            self._learnt[column][pk] = value

    def _write_learnt(self, learnt: dict[str, dict[int, object]]) -> None:
        """Codes and counties learnt (column -> club id -> value) written where the
        record still lacks them: one given meanwhile elsewhere stands, and the cache
        reads the clubs concerned again once all are written."""
        short = False
        for column, values in learnt.items():
            rows = [(value, pk) for pk, value in values.items()]
            short = _fill_where_empty(column, rows) < len(rows) or short
        if short:  # rare: a code or county given elsewhere since the cache was loaded
            self._as_stored_all(ids={pk for values in learnt.values() for pk in values})

    def _county(self, name: str) -> int:
        if name.lower() not in self.counties:
            self.counties[name.lower()] = County.objects.get_or_create(name=name)[0].id
        return self.counties[name.lower()]

    def load_memberships_of(self, player_ids: Collection[int]) -> None:
        ids = sorted(player_ids)
        for start in range(0, len(ids), IN_CHUNK):
            rows = (
                ClubMembership.objects.filter(player_id__in=ids[start : start + IN_CHUNK])
                .order_by()  # not by the players' and clubs' names: two joins and a sort
                .values_list("id", "player_id", "club_id", "first_season", "last_season")
            )
            self.memberships.update({(p, c): Seasons(pk, f, s) for pk, p, c, f, s in rows})

    def catch_up(self, changes: Changes, reloaded: Reloaded) -> None:
        """What other imports recorded since the cache was loaded: new clubs, new
        memberships, and the memberships and birth dates of the players they changed (as
        the view's reload of those players read them)."""
        clubs = Club.objects.filter(id__in=changes.clubs) if changes.clubs else Club.objects.none()
        for pk, code, name, county, location in clubs.order_by("id").values_list(
            "id", "code", "name", "county_id", "is_location"
        ):
            self._remember_club(pk, code or "", name + ("*" if location else ""), county)
        for pk, player, club, first, last in (*reloaded.memberships, *changes.memberships):
            self.memberships[(player, club)] = Seasons(pk, first, last)
        self.births_known.difference_update(reloaded.asked)  # a date of birth cleared
        self.births_known.update(reloaded.born)

    def note_births(self, births: dict[int, date], update: Update = update_rows) -> list[int]:
        """A date of birth the records lack is taken from the file (G20 needs it), its
        rows written by ``update``.

        Returns the players changed in place: the caller notes them (``note_changed``,
        once for the whole file), so that other importers' views learn it.
        """
        now = timezone.now()
        missing = [
            _BirthUpdate(day, now, pid)
            for pid, day in births.items()
            if pid not in self.births_known
        ]
        update(Player, _BirthUpdate._fields[:-1], missing)
        self.births_known.update(row.id for row in missing)
        return [row.id for row in missing]

    def note_memberships(
        self, pairs: set[tuple[int, int]], season: int, update: Update = update_rows
    ) -> list[int]:
        """First and last season each player was seen with each club (the seasons of
        those on record widened by ``update``).

        Returns the players whose membership was widened in place, for the caller to
        note: other caches must reload it (new memberships are found by their ids).
        """
        new, changed, widened = [], [], []
        for pair in pairs:  # one pass, one look-up each: a season notes 80,000 pairs
            known = self.memberships.get(pair)
            if known is None:
                new.append(pair)
            elif not known.first_season <= season <= known.last_season:
                self.memberships[pair] = seasons = known.covering(season)
                changed.append(_SeasonsUpdate(seasons.first_season, seasons.last_season, known.id))
                widened.append(pair[0])
        update(ClubMembership, _SeasonsUpdate._fields[:-1], changed)
        made = insert_returning(  # no instance each: a season makes 20,000 (issue 25)
            ClubMembership,
            ("player_id", "club_id", "first_season", "last_season", "ended_on"),
            [(player, club, season, season, None) for player, club in new],
        )
        for pair, pk in zip(new, made, strict=True):
            self.memberships[pair] = Seasons(pk, season, season)
        return widened
