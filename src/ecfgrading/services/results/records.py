"""Players on record, loaded in bulk for identification (no query per player), and
brought up to date a few at a time when other imports changed them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from ecfgrading.lookups.records import Survivors
from ecfgrading.matching.identify import PlayerRecord, RecordIndex
from ecfgrading.registry.bulk import in_chunks
from ecfgrading.registry.models import Club, ClubMembership, Player, PlayerAlias

_FIELDS = ("id", "code", "surname", "forenames", "date_of_birth")


def load_record_index() -> RecordIndex:
    """Every surviving player with his clubs; merged players' codes resolve to survivors.

    Read by plain statements, a national registry's 60,000 players and their clubs: the
    ORM's rows and converters were a fifth of the load (issue 25), which every batch an
    importer process starts pays first, a single file's included."""
    memberships, survivors = _whole_statements(connection.vendor)
    codes, names = _club_sets(_select_all(memberships))
    records = (_record(row, codes, names) for row in _select_all(survivors))
    return RecordIndex.build(records, _aliases())


def _select_all(statement: str) -> Iterator[tuple[Any, ...]]:
    """The rows of a plain ``statement``, taken from the cursor a few thousand at a time
    (PostgreSQL's client cursor holds them all already: 60,000 players are a few MB)."""
    with connection.cursor() as cursor:
        cursor.execute(statement)
        while rows := cursor.fetchmany(5_000):
            yield from rows


@cache
def _whole_statements(vendor: str) -> tuple[str, str]:
    """Every membership's player with its club's code and name, and every surviving
    player in the ORM's order (in which the index held them before it read them so)."""
    merged_into = connection.ops.quote_name(Player._meta.get_field("merged_into").column)
    survivors = (
        f"SELECT {columns_sql(Player, *_FIELDS)} FROM {table_sql(Player)} t "
        f"WHERE t.{merged_into} IS NULL ORDER BY {columns_sql(Player, *Player._meta.ordering)}"
    )
    return _memberships_sql(columns_sql(ClubMembership, "player")), survivors


def _memberships_sql(columns: str) -> str:
    """Memberships (alias ``t``) with ``columns``, then their club's code and name."""
    quote = connection.ops.quote_name
    club_of = quote(ClubMembership._meta.get_field("club").column)
    club_code, club_name = (quote(Club._meta.get_field(name).column) for name in ("code", "name"))
    return (
        f"SELECT {columns}, c.{club_code}, c.{club_name} FROM {table_sql(ClubMembership)} t "
        f"JOIN {table_sql(Club)} c ON c.{quote(Club._meta.pk.column)} = t.{club_of}"
    )


@dataclass(frozen=True)
class Reloaded:
    """What reloading players read that the cache of memberships and birth dates needs
    too (services.results.registry_cache): read once for both."""

    memberships: list[tuple[int, int, int, int, int]]  # id, player, club, first, last season
    born: set[int]  # the players among them with a date of birth
    asked: frozenset[int] = frozenset()  # every player read again, found or not


def reload_records(index: RecordIndex, player_ids: Collection[int]) -> Reloaded:
    """Bring these players into ``index`` as they now stand: new, changed, merged away,
    or deleted.

    It runs before each file whenever another process imported meanwhile (a few dozen
    players each time), so the merges are read only when a code needs them.
    """
    final: dict[int, int] | None = None
    reloaded = Reloaded([], set(), frozenset(player_ids))
    memberships_of, players, aliases_of = _statements(connection.vendor)
    for chunk in in_chunks(sorted(player_ids)):
        rows = select_rows(memberships_of, chunk)
        reloaded.memberships.extend(row[:5] for row in rows)
        codes, names = _club_sets((pid, code, name) for _, pid, _, _, _, code, name in rows)
        gone = []
        missing = set(chunk)
        for *row, merged_into in select_rows(players, chunk):
            missing.discard(row[0])
            if row[4] is not None:  # date_of_birth
                reloaded.born.add(row[0])
            if merged_into is None:
                index.replace(_record(tuple(row), codes, names))
            else:
                index.remove(row[0])
                gone.append((row[1], row[0]))
        for player_id in missing:  # deleted (staff, in the admin): no longer on record
            index.remove(player_id)
        claimed = [*gone, *select_rows(aliases_of, chunk)]
        if claimed:
            final = Survivors().final if final is None else final
            for code, player_id in claimed:
                _claim(index, code, final.get(player_id, player_id))
    return reloaded


def columns_sql(model: type[Model], *names: str) -> str:
    """``names`` of ``model``'s fields as the table's columns, quoted, by alias ``t``."""
    quote = connection.ops.quote_name
    return ", ".join(f"t.{quote(model._meta.get_field(name).column)}" for name in names)


def table_sql(model: type[Model]) -> str:
    """``model``'s table, quoted, for a plain statement."""
    return connection.ops.quote_name(model._meta.db_table)


@cache
def _statements(vendor: str) -> tuple[str, str, str]:
    """The three reads of ``reload_records`` on ``vendor``'s database, as plain SQL with
    ``{ids}`` to fill: built through the ORM each time, they cost five times what the
    database takes to answer them."""
    quote = connection.ops.quote_name
    membership = columns_sql(ClubMembership, "id", "player", "club", "first_season", "last_season")
    player_of = quote(ClubMembership._meta.get_field("player").column)
    memberships = f"{_memberships_sql(membership)} WHERE t.{player_of} IN ({{ids}})"
    players = (
        f"SELECT {columns_sql(Player, *_FIELDS, 'merged_into')} FROM {table_sql(Player)} t "
        f"WHERE t.{quote(Player._meta.pk.column)} IN ({{ids}})"
    )
    alias_of = quote(PlayerAlias._meta.get_field("player").column)
    aliases = (
        f"SELECT {columns_sql(PlayerAlias, 'code', 'player')} FROM {table_sql(PlayerAlias)} t "
        f"WHERE t.{alias_of} IN ({{ids}})"
    )
    return memberships, players, aliases


def select_rows(statement: str, values: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of a plain ``statement`` whose ``{ids}`` is filled with ``values`` (at
    most IN_CHUNK of them, ``registry.bulk.in_chunks``)."""
    with connection.cursor() as cursor:
        cursor.execute(statement.format(ids=", ".join(["%s"] * len(values))), list(values))
        return cursor.fetchall()


def _claim(index: RecordIndex, code: int, player_id: int) -> None:
    """A code that resolves to ``player_id``, unless it is held by its own record."""
    holder = index.holder(code)
    if holder is None and index.has(player_id):
        index.add_alias(code, player_id)


_NONE: frozenset[str] = frozenset()
ClubSets = dict[int, frozenset[str]]  # player id -> his clubs' codes, or names


def _record(row: tuple, codes: ClubSets, names: ClubSets) -> PlayerRecord:  # type: ignore[type-arg]
    pid, code, surname, forenames, born = row
    return PlayerRecord(
        pid, code, surname, forenames, codes.get(pid, _NONE), names.get(pid, _NONE), born
    )


def _club_sets(rows: Iterable[tuple[int, str | None, str]]) -> tuple[ClubSets, ClubSets]:
    """Each player's club codes and club names, one set object for each distinct set:
    the record index keeps a set it is given as its own for every record with that
    set, so the members of a club need no set, nor record, made again (issue 25)."""
    codes: dict[int, set[str]] = defaultdict(set)
    names: dict[int, set[str]] = defaultdict(set)
    for player_id, club_code, club_name in rows:
        if club_code:
            codes[player_id].add(club_code)
        names[player_id].add(club_name)
    return _shared(codes), _shared(names)


def _shared(sets: dict[int, set[str]]) -> ClubSets:
    distinct: dict[frozenset[str], frozenset[str]] = {}
    shared: ClubSets = {}
    for player_id, values in sets.items():
        frozen = frozenset(values)
        shared[player_id] = distinct.setdefault(frozen, frozen)
    return shared


def record_of(player: Player, club_code: str = "", club_name: str = "") -> PlayerRecord:
    """The record of a player created during an import, for the batch's index."""
    return PlayerRecord(
        player.id,
        player.code,
        player.surname,
        player.forenames,
        frozenset([club_code] if club_code else []),
        frozenset([club_name] if club_name else []),
        player.date_of_birth,
    )


def _aliases() -> dict[int, int]:
    """Old codes, and codes of merged players, mapped to the surviving player's id."""
    aliases = dict(PlayerAlias.objects.order_by().values_list("code", "player_id"))
    final = Survivors().final
    for player_id, code in Player.objects.filter(id__in=final).values_list("id", "code"):
        aliases.setdefault(code, final[player_id])
    return aliases
