"""Member lists with grades: a club's, a county's, a county team's (the seeds' club lookup).

A member list is a set of players with, for each rate, the grade a lookup shows:

- active players (the default) are those with a published grade in the current version
  of the current list of either rate (G26), and each rate shows that grade or nothing;
- with ``inactive`` everyone graded in any list since records begin is listed, each rate
  showing his latest grade and the list it comes from (the seeds: "all players who have
  had grades at any time"). A list counts by its current version and its August version:
  a grade withdrawn by a later version of the same list is not a grade.

A grade is ``revised`` when its list's current version is later than the list's August
version and the grade differs from the August grade (G27): pages highlight it and say so.

The players are read with their entries in one query whatever their number (the entries
of the versions that matter, joined to the players, for the players a subquery names),
and ordered in Python: a county has a few thousand members at most, and a grade order
needs every grade anyway. Only the graded are built into rows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, TypeVar

from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.types import Rate
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.lists import CurrentList, list_label, lists_by_rate
from ecfgrading.lookups.paging import Page, bounds
from ecfgrading.lookups.rows import fetch
from ecfgrading.registry.merges import surviving_id
from ecfgrading.registry.models import ListEntry, Player


class Sort(StrEnum):
    """The seeds' three orders: 'Name', 'Grade' (standard) and 'Rapid'."""

    NAME = "name"
    STANDARD = "standard"
    RAPID = "rapid"

    @classmethod
    def parse(cls, text: str | None) -> Sort:
        """Anything but a known order is the default, by name."""
        return next((sort for sort in cls if sort.value == text), cls.NAME)


@dataclass(frozen=True)
class RateGrade:
    """A member's grade in one rate, from one list."""

    grade: int | None
    category: str
    list_id: str
    current: bool  # from the current version of the current list of the rate
    august_grade: int | None  # G27: the list's August grade, when it has one
    revised: bool  # G27: differs from the August grade

    @property
    def list_label(self) -> str:
        """July 2012"""
        return list_label(self.list_id)


@dataclass(frozen=True)
class Member:
    """One row of a member list."""

    code: str  # 123456A
    name: str  # Surname, Forenames
    standard: RateGrade | None
    rapid: RateGrade | None
    junior_age: int | None
    clubs: tuple[str, ...] = ()  # the clubs that make him a member (county pages)

    @property
    def active(self) -> bool:
        """Graded on a current list (G26)."""
        return any(found is not None and found.current for found in (self.standard, self.rapid))

    @property
    def revised(self) -> bool:
        return any(found is not None and found.revised for found in (self.standard, self.rapid))

    def grade(self, rate: Rate) -> RateGrade | None:
        return self.standard if rate is Rate.STANDARD else self.rapid


class Affiliation(NamedTuple):
    """A player on record and what makes him a member (a club's name, or nothing)."""

    club: str | None
    player_id: int
    merged_into_id: int | None  # an absorbed record counts for the player it merged into


@dataclass(frozen=True)
class _ListFacts:
    """What a member row needs to know of a list, worked out once per page."""

    rate: Rate
    list_id: str
    current_list: bool  # the latest list of its rate
    after_august: bool  # its current version is later than its August version (G27)


@dataclass(frozen=True)
class _VersionRole:
    facts: _ListFacts
    is_current: bool  # the list's current (latest published) version
    is_august: bool  # the list's August version (G27)


@dataclass
class _Seen:
    """A player's entries in one list: its current version's and its August version's."""

    facts: _ListFacts
    grade: int | None = None
    category: str = ""
    junior_age: int | None = None
    in_current: bool = False
    august: int | None = None
    in_august: bool = False


@dataclass
class _Player:
    code: int
    name: str
    name_key: str
    lists: dict[tuple[Rate, str], _Seen]


@dataclass(frozen=True)
class Source:
    """Who the members are, as a member list's service names them.

    ``players`` filters players on record (their own records); ``absorbed`` gives the
    affiliations of those of the given absorbed (merged) records that are members: they
    count for the players they were merged into (G28); ``clubs_of`` gives the clubs that
    make the players of a page members, for lists that show them (a county's).
    """

    players: Q
    absorbed: Callable[[list[int]], list[Affiliation]] | None = None
    clubs_of: Callable[[list[int] | None], list[Affiliation]] | None = None  # None: all
    # What these members are, the same for the same members under one data token (a
    # county's: its id and season): their order is then read once per token and sort
    # and kept (``member_page``); None: read for each page.
    key: Hashable | None = None


def member_page(
    source: Source,
    *,
    sort: Sort,
    inactive: bool,
    number: int,
    per_page: int,
    lists: dict[Rate, list[CurrentList]] | None = None,
) -> Page[Member]:
    """One page of the graded members, in ``sort`` order.

    The database orders and counts the members and picks the page (by the folded name,
    or by the current list's grade), so a page reads its own players' entries only
    however many members there are. The one order it cannot give, inactive players by
    their latest grade of any list, is worked out from every member's entries.
    """
    lists = lists_by_rate() if lists is None else lists
    chains = Player.merges()
    absorbed = source.absorbed(sorted(chains)) if chains and source.absorbed else []
    ends = {a.player_id: surviving_id(chains, a.player_id) for a in absorbed}
    who = source.players | Q(id__in=sorted(set(ends.values()))) if ends else source.players
    roles = _version_roles(lists, inactive)
    graded = [pk for pk, role in roles.items() if role.is_current]
    members = Player.objects.filter(who, merged_into__isnull=True)
    if inactive and sort is not Sort.NAME:
        entries = ListEntry.objects.filter(player=OuterRef("pk"), version_id__in=graded)
        players = members.filter(Exists(entries.filter(published=True)))
        found = source.clubs_of(None) if source.clubs_of else []
        every = _rows([*found, *absorbed], Q(player__in=players), roles, ends)
        return page_of(sorted_members([row for _, row in every], sort), number, per_page)
    everyone = _graded_in_order(source.key, sort, graded, lambda: _ordered(members, sort, lists))
    ids, total, number = _page_ids(everyone, number, per_page)
    found = source.clubs_of(ids) if source.clubs_of and ids else []
    rows = dict(_rows([*found, *absorbed], Q(player_id__in=ids), roles, ends))
    return Page(tuple(rows[pk] for pk in ids if pk in rows), number, per_page, total)


def _graded_in_order(
    key: Hashable | None,
    sort: Sort,
    versions: list[int],
    ordered: Callable[[], QuerySet[Player]],
) -> tuple[int, ...]:
    """The ids of the members graded in ``versions``, in order: every member's id in
    order, one query, the graded kept here. Issue 25: asked for a page of the graded with
    the total counted beside it (a window), PostgreSQL planned for the page's first rows,
    walked every player by name to test his memberships and entries, and took 400 ms on
    a national county's 5,000 members; asked for them all, it joins and sorts in 10 ms.
    Members with a ``key`` (a county's) are read once per data token and sort, and kept:
    a national county's 6,000 took 18 ms of its page made cold on SQLite (warmed,
    ``lookups.clubs.warm_clubs``)."""
    graded = graded_in(versions)
    if key is None:
        return _ids_among(ordered(), graded)
    kept = _kept_under(_IN_ORDER, data_token())
    asked = (key, sort, tuple(sorted(versions)))
    found = kept.get(asked)
    if found is None:
        found = kept[asked] = _ids_among(ordered(), graded)
    return found


_K = TypeVar("_K")
_V = TypeVar("_V")


def _kept_under(store: dict[str, dict[_K, _V]], token: str) -> dict[_K, _V]:
    """What ``store`` keeps under the data token ``token``: the latest token's only, as
    the club index (``lookups.clubs``). Requests' threads and the warming thread use it
    at once: each step one of the dictionary's own, none iterating it."""
    kept = store.get(token)
    if kept is None:
        kept = {}
        store.clear()
        store[token] = kept
    return kept


# Data token -> (the members' key, sort, versions) -> their ids in order.
_IN_ORDER: dict[str, dict[tuple[Hashable, Sort, tuple[int, ...]], tuple[int, ...]]] = {}


def forget_orders() -> None:
    """Drop the members' orders kept (tests that rewrite the records under one token)."""
    _IN_ORDER.clear()


def _ids_among(ordered: QuerySet[Player], graded: frozenset[int]) -> tuple[int, ...]:
    return tuple(pk for (pk,) in fetch(ordered.values_list("id")) if pk in graded)


def _page_ids(everyone: tuple[int, ...], number: int, per_page: int) -> tuple[list[int], int, int]:
    """The ids of page ``number`` (the last page when past the end) of ``everyone``, and
    how many they are."""
    total = len(everyone)
    number = max(1, min(number, -(-total // per_page)))
    start, end = bounds(number, per_page)
    return list(everyone[start:end]), total, number


_GRADED: dict[str, dict[tuple[int, ...], frozenset[int]]] = {}  # data token -> versions -> ids


def graded_in(versions: Iterable[int]) -> frozenset[int]:
    """The players published in any of these versions: one query per data token and set
    of versions (a national list's 45,000 entries), kept for the member lists that follow
    and warmed for the current lists (``warm_members``)."""
    kept = _kept_under(_GRADED, data_token())
    asked = tuple(sorted(set(versions)))
    found = kept.get(asked)
    if found is None:
        # Unordered: a set is made of them (the entries' default order joined and sorted
        # a national list's 45,000 by name, 120 ms of 130).
        published = ListEntry.objects.filter(version_id__in=asked, published=True).order_by()
        found = kept[asked] = frozenset(pk for (pk,) in fetch(published.values_list("player_id")))
    return found


def warm_members() -> None:
    """Who is graded in the current lists, and in any list (with the inactive), as the
    first member lists would ask."""
    lists = lists_by_rate()
    for inactive in (False, True):
        roles = _version_roles(lists, inactive)
        graded_in(pk for pk, role in roles.items() if role.is_current)


def _ordered(
    players: QuerySet[Player], sort: Sort, lists: dict[Rate, list[CurrentList]]
) -> QuerySet[Player]:
    """By name (surname then forenames, case and accents ignored: the lookups' folded
    key), or by the current grade of a rate, highest first, the ungraded last."""
    if sort is Sort.NAME or not lists[Rate(sort.value)]:
        return players.order_by("name_key", "code")
    current = lists[Rate(sort.value)][0].current.id
    grade = ListEntry.objects.filter(player=OuterRef("pk"), version_id=current, published=True)
    ranked = players.annotate(ranked=Subquery(grade.values("grade")[:1]))
    return ranked.order_by(F("ranked").desc(nulls_last=True), "name_key", "code")


def _rows(
    found: list[Affiliation], who: Q, roles: dict[int, _VersionRole], ends: dict[int, int]
) -> list[tuple[int, Member]]:
    """(player id, row) of the graded players ``who`` names, by name; their clubs from
    ``found`` (absorbed records' clubs count for their survivors)."""
    inactive = any(not role.facts.current_list for role in roles.values())
    clubs: dict[int, set[str]] = {}
    for club, pid, _merged in found:
        if club is not None:
            clubs.setdefault(ends.get(pid, pid), set()).add(club)
    extra = Q(player_id__in=sorted(set(ends.values()))) if ends else Q(pk__in=[])
    result = []
    for pid, player in sorted(_entries(who | extra, roles).items(), key=_name_order):
        latest = _latest(player)
        if not inactive and not any(seen.facts.current_list for seen in latest.values()):
            continue
        row = Member(
            code=code_text(player.code),
            name=player.name,
            standard=_grade(latest.get(Rate.STANDARD)),
            rapid=_grade(latest.get(Rate.RAPID)),
            junior_age=max(latest.values(), key=lambda seen: seen.facts.list_id).junior_age,
            clubs=tuple(sorted(clubs.get(pid, ()))),
        )
        result.append((pid, row))
    return result


def _name_order(item: tuple[int, _Player]) -> tuple[str, int]:
    """Surname, then forenames, case and accents ignored (the lookups' folded key)."""
    return item[1].name_key, item[1].code


def _version_roles(lists: dict[Rate, list[CurrentList]], inactive: bool) -> dict[int, _VersionRole]:
    """The versions whose entries a member list reads: each list's current and August
    versions; only the current list of each rate unless inactive players are asked for."""
    roles = {}
    for rate, found in lists.items():
        for index, listed in enumerate(found if inactive else found[:1]):
            august = listed.august
            after = august is not None and listed.current != august
            facts = _ListFacts(rate, listed.list_id, current_list=index == 0, after_august=after)
            for version in {listed.current, *([august] if august else [])}:
                roles[version.id] = _VersionRole(
                    facts, is_current=version == listed.current, is_august=version == august
                )
    return roles


_ENTRY_COLUMNS = (
    "player_id", "version_id", "grade", "category", "junior_age",
    "player__code", "player__surname", "player__forenames", "player__name_key",
)  # fmt: skip


def _entries(who: Q, roles: dict[int, _VersionRole]) -> dict[int, _Player]:
    """Player -> his name and what each list's versions say of him: one query. Absorbed
    records are left out: their entries are history the survivor's own rows carry on."""
    players: dict[int, _Player] = {}
    if not roles:
        return players
    rows = (
        ListEntry.objects.filter(who, version_id__in=list(roles), published=True)
        .filter(player__merged_into__isnull=True)
        .order_by()
        .values_list(*_ENTRY_COLUMNS)
    )
    # Fetched whole: ``iterator()`` is a server-side cursor on PostgreSQL (_affiliations).
    for pid, version_id, grade, category, age, code, surname, forenames, key in rows:
        player = players.get(pid)
        if player is None:
            player = players[pid] = _Player(code, full_name(surname, forenames), key, {})
        role = roles[version_id]
        where = (role.facts.rate, role.facts.list_id)
        seen = player.lists.get(where) or player.lists.setdefault(where, _Seen(role.facts))
        if role.is_current:
            seen.grade, seen.category, seen.junior_age = grade, category, age
            seen.in_current = True
        if role.is_august:
            seen.august, seen.in_august = grade, True
    return players


def _latest(player: _Player) -> dict[Rate, _Seen]:
    """For each rate, the latest list whose current version grades the player."""
    latest: dict[Rate, _Seen] = {}
    for (rate, list_id), seen in player.lists.items():
        if seen.in_current and (rate not in latest or list_id > latest[rate].facts.list_id):
            latest[rate] = seen
    return latest


def _grade(seen: _Seen | None) -> RateGrade | None:
    if seen is None:
        return None
    return RateGrade(
        grade=seen.grade,
        category=seen.category,
        list_id=seen.facts.list_id,
        current=seen.facts.current_list,
        august_grade=seen.august if seen.in_august else None,
        revised=seen.facts.after_august and (not seen.in_august or seen.august != seen.grade),
    )


# -- order and pages ------------------------------------------------------------------------


def sorted_members(by_name: list[Member], sort: Sort) -> list[Member]:
    """Members (as ``members`` gives them, by name) by name, or by a rate's grade,
    highest first, the ungraded last, then by name (a stable sort)."""
    if sort is Sort.NAME:
        return by_name
    rate = Rate.STANDARD if sort is Sort.STANDARD else Rate.RAPID
    return sorted(by_name, key=lambda member: _grade_order(member.grade(rate)))


def _grade_order(found: RateGrade | None) -> tuple[int, int]:
    if found is None or found.grade is None:
        return (1, 0)
    return (0, -found.grade)


def page_of(found: list[Member], number: int, per_page: int) -> Page[Member]:
    """Page ``number`` (the last one when past the end)."""
    pages = max(1, -(-len(found) // per_page))
    number = min(number, pages)
    start, end = bounds(number, per_page)
    return Page(tuple(found[start:end]), number, per_page, len(found))
