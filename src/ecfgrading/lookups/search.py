"""Player lookup (issue 9, page 2; issue 23): by name as people type it, or straight to a
player by his code.

The seeds' box: "type the player's name (surname first followed by a comma), or the first
few letters"; a grading code with or without its check letter goes to its player, a
merged code to the player it now counts for (G28). A name is read every way it can be
(``name_readings``: ``smith, paul``, ``smith paul``, ``paul smith``, ``smith p``,
``p smith``) and each reading is a range of ``Player.name_key``'s index
(``matching.names.search_key``: case, accents, spaces and hyphens do not matter), with a
LIKE on that range when the forenames were typed first or as initials.

By default only active players are listed: those on the current version of the current
list of either rate, and newcomers, never graded but with games since the start of the
current lists' latest period ("not yet graded", with their provisional grades). With
``inactive`` everyone graded in any published version is, each with his latest grades and
the list they come from ("all their grades are shown, with dates"), and everyone with a
graded game. A grade that differs from the August grade of its list is marked revised
(G27).

A page costs four queries whatever its size: the published versions, the page of players
with the total (a window count), their list entries, their clubs. A page with a
newcomer reads the provisional grades too (``provisional``: computed once per data token).
A search that finds nothing, or few players for a surname on record nowhere, looks the
names on record up for the nearest (``name_index``), and checks in one more query which
of them the lookup would find.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import Count, Exists, F, Lookup, OuterRef, Q, QuerySet, Value, Window
from django.db.models.functions import Coalesce

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.formats.names import full_name
from ecfgrading.lookups import versions as version_names
from ecfgrading.lookups.clubs import club_key
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.lists import (
    CurrentList,
    VersionInfo,
    current_season,
    list_label,
    lists_by_rate,
    published_versions,
)
from ecfgrading.lookups.memberships import ClubShown, shown_clubs
from ecfgrading.lookups.name_index import NameIndex, Suggestion, name_index
from ecfgrading.lookups.name_readings import Reading, readings
from ecfgrading.lookups.paging import MAX_PER_PAGE, PER_PAGE, Page, bounds
from ecfgrading.lookups.provisional import next_runs
from ecfgrading.matching.names import prefix_successor
from ecfgrading.registry import numbering
from ecfgrading.registry.models import Game, ListEntry, ListVersion, Player

# Names are at most 100 characters each (Player.surname, Player.forenames).
MAX_QUERY = 200
# Six digits, a check letter or not (G28); spaces inside are forgiven.
_CODE = re.compile(r"^(\d{6})\s*([A-Z])?$")
# Digits first: meant as a code even when it is not one ('12345', '1234567').
_CODE_LIKE = re.compile(r"^\d[\d\s]*[A-Z]?$")
_AUGUST_RANK = version_names.rank(ListVersion.AUGUST)
# Fewer players than this for a surname on record nowhere: a slip is likelier than a rare
# name, and the nearest names on record are offered as well.
FEW = 5
SUGGESTED_PLAYERS = 500  # candidates' players checked in the query that confirms them


@dataclass(frozen=True)
class RateGrade:
    """A player's grade in one rate, from one list version, with its August grade (G27)."""

    grade: int | None
    category: str
    august_grade: int | None  # the August version of the same July list, when published
    revised: bool  # G27: the grade differs from the August grade
    list: str  # the list it comes from, e.g. '2012-07'
    version: str  # and its version: initial, august, rev1...
    current: bool  # from the current version of the current list of its rate

    @property
    def list_label(self) -> str:
        """July 2012"""
        return list_label(self.list)


@dataclass(frozen=True)
class ClubLink:
    """A club shown for a player (C2: not lapsed), with the address of its page."""

    key: str  # /clubs/<key>/: its code, or club-<id> for a club known by name only
    code: str | None
    name: str
    is_location: bool

    @property
    def label(self) -> str:
        """The seeds' form: a location is followed by an asterisk."""
        return f"{self.name}*" if self.is_location else self.name


@dataclass(frozen=True)
class ProvisionalGrade:
    """A newcomer's grade in the next list of a rate, as the results received so far give
    it (``provisional``): not published, and said to be provisional wherever shown."""

    rate: Rate
    grade: int
    category: str
    list: str  # the next list, e.g. '2016-01'

    @property
    def list_label(self) -> str:
        """January 2016"""
        return list_label(self.list)


@dataclass(frozen=True)
class PlayerRow:
    """One line of the lookup: what the seeds' table shows for a player."""

    code: str
    name: str
    clubs: tuple[ClubLink, ...]
    standard: RateGrade | None
    rapid: RateGrade | None
    junior_age: int | None  # on the age date of the list of his latest grade (G25)
    junior_age_from: str | None = None  # that list, when it is not a current one
    not_yet_graded: bool = False  # games on record, never on a published list
    provisional: tuple[ProvisionalGrade, ...] = ()  # a newcomer's, for the next lists

    @property
    def junior_age_label(self) -> str:
        """July 2011, for an age from an earlier list; '' for a current one."""
        return list_label(self.junior_age_from) if self.junior_age_from else ""

    @property
    def revised(self) -> bool:
        return any(grade is not None and grade.revised for grade in (self.standard, self.rapid))


@dataclass(frozen=True)
class PlayerSearch:
    """What a lookup found: a page of players, or the player a code names."""

    query: str
    inactive: bool
    page: Page[PlayerRow]
    current: tuple[VersionInfo, ...] = ()  # the current version of each rate's list
    code: str | None = None  # a code query's player (the survivor of a merge)
    problem: str = ""  # why a code query names no one, or why the query is unusable
    shorter: str = ""  # a shorter query worth trying when nothing matched
    suggestion: str = ""  # the nearest name on record, when nothing or few matched

    @property
    def players(self) -> Sequence[PlayerRow]:
        return self.page.items

    @property
    def blank(self) -> bool:
        return not self.query

    @property
    def revised(self) -> bool:
        """Some row on this page is revised since August (the page explains the mark)."""
        return any(row.revised for row in self.page.items)


def search_players(
    query: str, *, inactive: bool = False, page: int = 1, per_page: int = PER_PAGE
) -> PlayerSearch:
    """The players a lookup box's text finds, a page at a time (see the module's doc)."""
    text = " ".join(query.split())[:MAX_QUERY]
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    if not text:
        return PlayerSearch(text, inactive, _nothing(per_page))
    if _CODE_LIKE.match(text.upper()):
        return _by_code(text, inactive, per_page)
    read = readings(text)
    if not read:
        problem = (
            "Type at least the first letter of the surname, e.g. 'smi', 'Smith, J' or 'John Smith'."
        )
        return PlayerSearch(text, inactive, _nothing(per_page), problem=problem)
    return _by_name(text, read, inactive, max(1, page), per_page)


def warm_lookups(seen: str) -> str:
    """Unless the data token is ``seen``: build the names index and grade the next lists
    (the newcomers' provisional grades) for the current token, as the first lookup would.
    The token warmed."""
    token = data_token()
    if token != seen:
        lists = _Lists()
        next_runs(lists.current, token)
        name_index()
    return token


def resolve_code(text: str) -> str | None:
    """The full code of the player a code query names (``123456`` or ``123456A``), through
    aliases and merges to the surviving player; None when the text is not a valid code or
    no one holds it (a wrong check letter is not that player's code)."""
    code, _problem = _code_target(text)
    return None if code is None else str(code)


# Codes -----------------------------------------------------------------------------------


def _code_target(text: str) -> tuple[GradingCode | None, str]:
    """The surviving player's code, or None and what is wrong with the text."""
    cleaned = " ".join(text.split()).upper()
    match = _CODE.match(cleaned)
    if match is None:
        return None, (
            f"'{text}' is not a grading code: expected six digits and perhaps "
            "their check letter, e.g. 123456A."
        )
    code = GradingCode(int(match.group(1)))
    letter = match.group(2)
    if letter is not None and letter != code.letter:
        return None, (
            f"No player has the code {match.group(1)}{letter}: its check letter is wrong "
            f"(the digits {match.group(1)} take {code.letter}), so it is not the code of "
            f"{code} either. Check the code, or look the player up by name."
        )
    player = numbering.resolve_code(code)
    if player is None:
        return None, f"No player on record has the code {code}."
    return player.grading_code, ""


def _by_code(text: str, inactive: bool, per_page: int) -> PlayerSearch:
    code, problem = _code_target(text)
    if code is None:
        return PlayerSearch(text, inactive, _nothing(per_page), problem=problem)
    lists = _Lists()
    players = Player.objects.filter(code=code.number).values_list(
        "pk", "code", "surname", "forenames"
    )
    rows = _rows(list(players), lists, latest=True)
    found = Page(rows, 1, per_page, len(rows))
    return PlayerSearch(text, inactive, found, lists.current_versions, code=str(code))


# Names -----------------------------------------------------------------------------------


def _by_name(
    text: str, read: tuple[Reading, ...], inactive: bool, number: int, per_page: int
) -> PlayerSearch:
    lists = _Lists()
    matching = _named(read).filter(_findable(lists, inactive))
    players, total, number = _page_of(matching, number, per_page)
    rows = _rows(players, lists, latest=inactive)
    found = Page(rows, number, per_page, total)
    suggestion, shorter = "", ""
    if total < FEW:
        index = name_index()
        if not total or not any(index.is_surname(reading.surname) for reading in read):
            suggestion = _suggestion(index, read, lists, inactive, total)
        shorter = "" if total else _shorter(text, index)
    return PlayerSearch(
        text,
        inactive,
        found,
        lists.current_versions,
        shorter=shorter,
        suggestion=suggestion,
    )


def _named(read: tuple[Reading, ...]) -> QuerySet[Player]:
    """Players not merged into another whose key fits a reading: a range of the name
    key's index each, narrowed by a LIKE within it for forenames typed first or as
    initials. The merge test is written so that no index can serve it: SQLite, without
    statistics, would otherwise walk every unmerged player by ``merged_into``."""
    fits = Q()
    for reading in read:
        fits |= _fits(reading)
    in_range = Player.objects.filter(fits)
    return in_range.alias(merged=Coalesce("merged_into_id", 0)).filter(merged=0)


def _fits(reading: Reading) -> Q:
    prefix = reading.key_prefix
    fits = Q(name_key__gte=prefix, name_key__lt=prefix_successor(prefix))
    return fits & Q(_Like(F("name_key"), Value(reading.like))) if reading.like else fits


class _Like(Lookup[Any]):
    """``key LIKE pattern``: keys hold only a-z, 0-9 and one comma, so no character of a
    key is a wildcard and both databases compare them alike."""

    lookup_name = "like"

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} LIKE {rhs}", [*lhs_params, *rhs_params]


def _findable(lists: _Lists, inactive: bool) -> Q:
    """What makes a player match besides his name: a published grade (current, or with
    ``inactive`` any), or games without ever a grade (a newcomer: by default only with
    games since the start of the current lists' latest period)."""
    graded = Q(Exists(_graded(lists, inactive)))
    if inactive:
        return graded | _played(None)
    ever = ListEntry.objects.filter(
        player_id=OuterRef("pk"), published=True, version__status=ListVersion.Status.PUBLISHED
    )
    return graded | (~Q(Exists(ever)) & _played(lists.newcomers_since))


def _played(since: date | None) -> Q:
    """A graded game on record (since ``since``), by either side's player index."""
    played = Q()
    for side in ("player1_id", "player2_id"):
        games = Game.objects.filter(**{side: OuterRef("pk")}, graded=True)
        played |= Q(Exists(games if since is None else games.filter(game_date__gte=since)))
    return played


def _graded(lists: _Lists, inactive: bool) -> QuerySet[ListEntry]:
    """A player's published entries that make him match: in a current version, or (with
    ``inactive``) in any published one. The first probes (version, player) once per
    current version; the second reads the player's few entries by his own index."""
    entries = ListEntry.objects.filter(player_id=OuterRef("pk"), published=True)
    if inactive:
        return entries.filter(version__status=ListVersion.Status.PUBLISHED)
    return entries.filter(version_id__in=[version.id for version in lists.current_versions])


_PlayerFields = tuple[int, int, str, str]  # id, code number, surname, forenames


def _page_of(
    players: QuerySet[Player], number: int, per_page: int
) -> tuple[list[_PlayerFields], int, int]:
    """A page of players in key order, the total, and the page number (the last page when
    ``number`` is past it). The total rides on the page's rows as a window count."""
    ordered = players.annotate(found=Window(Count("pk"))).order_by("name_key", "code")
    fields = ordered.values_list("pk", "code", "surname", "forenames", "found")
    start, end = bounds(number, per_page)
    rows = list(fields[start:end])
    if not rows and number > 1:  # past the end: one count, then the last page
        total = players.count()
        number = Page((), 1, per_page, total).pages
        start, end = bounds(number, per_page)
        rows = list(fields[start:end])
    total = rows[0][4] if rows else 0
    return (
        [(pk, code, surname, forenames) for pk, code, surname, forenames, _ in rows],
        total,
        number,
    )


def _suggestion(
    index: NameIndex, read: tuple[Reading, ...], lists: _Lists, inactive: bool, total: int
) -> str:
    """The nearest name on record to any reading that the lookup would find for more
    players than it found: one query confirms which candidates' players it finds."""
    found: dict[str, Suggestion] = {}
    for reading in read:
        for suggestion in index.suggestions(reading, unfinished=total > 0):
            known = found.get(suggestion.text)
            if known is None or suggestion.edits < known.edits:
                found[suggestion.text] = suggestion
    ranked = sorted(found.values(), key=lambda s: (s.edits, -len(s.player_ids), s.text))
    wanted = [pk for suggestion in ranked for pk in suggestion.player_ids][:SUGGESTED_PLAYERS]
    if not wanted:
        return ""
    findable = set(
        Player.objects.filter(pk__in=wanted)
        .filter(_findable(lists, inactive))
        .values_list("pk", flat=True)
    )
    for suggestion in ranked:
        if len(findable.intersection(suggestion.player_ids)) > total:
            return suggestion.text
    return ""


def _shorter(text: str, index: NameIndex) -> str:
    """A query worth trying when nothing matched: the surname alone (before a comma, or
    a word of the text that is a surname on record, the last first), or the first
    letters of a single word."""
    surname, comma, _forenames = text.partition(",")
    surname = surname.strip()
    if comma:
        return surname
    words = surname.split()
    if len(words) == 1:
        return surname[:3] if len(surname) > 3 else ""
    held = {word: index.holders(word) for word in reversed(words)}
    best = max(held, key=lambda word: held[word])
    return best if held[best] else ""


# Grades ----------------------------------------------------------------------------------


class _Lists:
    """Every published version (one query), and the current version of each rate."""

    def __init__(self) -> None:
        self.versions = {version.id: version for version in published_versions()}
        self.current: dict[Rate, CurrentList] = {
            rate: found[0]
            for rate, found in lists_by_rate(list(self.versions.values())).items()
            if found
        }
        self.august = {
            (v.rate, v.list_id): v.id
            for v in self.versions.values()
            if v.name == ListVersion.AUGUST
        }

    @property
    def current_versions(self) -> tuple[VersionInfo, ...]:
        return tuple(self.current[rate].current for rate in Rate if rate in self.current)

    @property
    def season(self) -> int | None:
        """The reference season for club lapsing (C2), from the versions already read."""
        return current_season(self.current)

    @property
    def newcomers_since(self) -> date | None:
        """Games from this day make a player never graded a newcomer: the start of the
        latest period (P0, G32) of the earlier current list. None: no list yet."""
        starts = [ListId.parse(found.list_id).p0().start for found in self.current.values()]
        return min(starts, default=None)

    def current_and_august(self) -> list[int]:
        """The current versions and the August versions of their lists (G27)."""
        wanted = []
        for found in self.current.values():
            wanted.append(found.current.id)
            if found.august is not None:
                wanted.append(found.august.id)
        return wanted

    def is_current(self, version: VersionInfo) -> bool:
        """The current version of the current list of its rate."""
        current = self.current.get(version.rate)
        return current is not None and current.current.id == version.id

    def order(self, version_id: int) -> tuple[str, int]:
        """Later lists, then later versions of a list, sort higher (G26)."""
        version = self.versions[version_id]
        return version.list_id, version_names.rank(version.name)


@dataclass(frozen=True)
class _Entry:
    version_id: int
    grade: int | None
    category: str
    junior_age: int | None


def _rows(players: Sequence[_PlayerFields], lists: _Lists, *, latest: bool) -> list[PlayerRow]:
    """Each player's row: current grades, or with ``latest`` his latest grades ever; a
    newcomer's with his provisional grades."""
    if not players:
        return []
    ids = [pk for pk, *_ in players]
    entries = _entries(ids, list(lists.versions) if latest else lists.current_and_august())
    clubs = shown_clubs(ids, lists.season) if lists.season is not None else {}
    rows = [
        _row(player, entries.get(player[0], {}), clubs.get(player[0], ()), lists, latest)
        for player in players
    ]
    if any(row.not_yet_graded for row in rows):
        rows = _with_provisional(rows, ids, lists)
    return rows


def _with_provisional(rows: list[PlayerRow], ids: list[int], lists: _Lists) -> list[PlayerRow]:
    """Newcomers' rows with their grades in the next lists, as the results received so
    far give them (computed once per data token, then looked up in arrays)."""
    runs = next_runs(lists.current, data_token())
    found = []
    for row, player_id in zip(rows, ids, strict=True):
        if row.not_yet_graded:
            entries = ((run, run.entry(player_id)) for run in runs.values())
            provisional = tuple(
                ProvisionalGrade(run.rate, entry.grade, entry.category.value, str(run.list_id))
                for run, entry in entries
                if entry is not None and entry.published
            )
            row = replace(row, provisional=provisional)
        found.append(row)
    return found


def _entries(player_ids: list[int], version_ids: Iterable[int]) -> dict[int, dict[int, _Entry]]:
    """Published entries of these players in these versions: player -> version -> entry."""
    # No ordering: the model's default (by player) would join the players for their names.
    published = ListEntry.objects.filter(
        player_id__in=player_ids, version_id__in=list(version_ids), published=True
    ).order_by()
    rows = published.values_list("player_id", "version_id", "grade", "category", "junior_age")
    found: dict[int, dict[int, _Entry]] = {}
    for player_id, version_id, grade, category, junior_age in rows:
        found.setdefault(player_id, {})[version_id] = _Entry(
            version_id, grade, category, junior_age
        )
    return found


def _row(
    player: _PlayerFields,
    entries: dict[int, _Entry],
    clubs: tuple[ClubShown, ...],
    lists: _Lists,
    latest: bool,
) -> PlayerRow:
    _pk, code, surname, forenames = player
    chosen = {rate: _chosen(entries, rate, lists, latest) for rate in Rate}
    grades = {
        rate: None if entry is None else _rate_grade(entry, entries, lists)
        for rate, entry in chosen.items()
    }
    newest = max(
        (entry for entry in chosen.values() if entry is not None),
        key=lambda entry: lists.order(entry.version_id),
        default=None,
    )
    return PlayerRow(
        code=str(GradingCode(code)),
        name=full_name(surname, forenames),
        clubs=tuple(_club_link(club) for club in clubs),
        standard=grades[Rate.STANDARD],
        rapid=grades[Rate.RAPID],
        junior_age=None if newest is None else newest.junior_age,
        junior_age_from=_earlier_list(newest, lists),
        # Found with no grade to show: by ``_findable``, never graded (with ``latest``, no
        # entry at all; without, no current one, which only a newcomer may lack).
        not_yet_graded=newest is None,
    )


def _club_link(club: ClubShown) -> ClubLink:
    return ClubLink(club_key(club.code, club.id), club.code, club.name, club.is_location)


def _earlier_list(entry: _Entry | None, lists: _Lists) -> str | None:
    """The list of ``entry`` when it is not the current version of its rate's list."""
    if entry is None or entry.junior_age is None:
        return None
    version = lists.versions[entry.version_id]
    return None if lists.is_current(version) else version.list_id


def _chosen(entries: dict[int, _Entry], rate: Rate, lists: _Lists, latest: bool) -> _Entry | None:
    """The entry shown for ``rate``: on the current version, or the latest one of all."""
    if not latest:
        current = lists.current.get(rate)
        return None if current is None else entries.get(current.current.id)
    of_rate = [entry for entry in entries.values() if lists.versions[entry.version_id].rate is rate]
    return max(of_rate, key=lambda entry: lists.order(entry.version_id), default=None)


def _rate_grade(entry: _Entry, entries: dict[int, _Entry], lists: _Lists) -> RateGrade:
    version = lists.versions[entry.version_id]
    august_id = lists.august.get((version.rate, version.list_id))
    august = entries.get(august_id) if august_id is not None else None
    august_grade = None if august is None else august.grade
    # G27: only a version after the August one can differ from it.
    later = august_id is not None and version_names.rank(version.name) > _AUGUST_RANK
    return RateGrade(
        grade=entry.grade,
        category=entry.category,
        august_grade=august_grade,
        revised=later and august_grade != entry.grade,
        list=version.list_id,
        version=version.name,
        current=lists.is_current(version),
    )


def _nothing(per_page: int) -> Page[PlayerRow]:
    return Page((), 1, per_page, 0)
