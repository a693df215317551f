"""What changed in the registry since a mark: how a running importer keeps its index of
players current when other imports, merges or corrections happened meanwhile.

Rows that are only ever added (players, memberships, aliases, clubs) are found by their
ids; a change made in place is noted in ``IdentityChange`` (a player) or ``ClubChange`` (a
club) by whoever makes it. Identity writers hold the registry lock
(``registry.locking.take_registry_lock``), so the ids they take are committed in order
and a mark read under the lock misses nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from typing import Any

from django.db import connection

from ecfgrading.registry.inserts import insert_returning
from ecfgrading.registry.models import (
    Club,
    ClubChange,
    ClubMembership,
    IdentityChange,
    Player,
    PlayerAlias,
    Sequence,
)

# A random number stored once per database: an index loaded from another database, or
# from rows a rollback or a restore took away, no longer matches it and is loaded afresh.
EPOCH = "registry-epoch"


@dataclass(frozen=True)
class Mark:
    """The highest id of each table that an index has seen."""

    player: int = 0
    membership: int = 0
    alias: int = 0
    change: int = 0
    club: int = 0
    club_change: int = 0
    epoch: int = 0

    def follows(self, earlier: Mark) -> bool:
        """Whether this mark can have come from ``earlier`` by additions alone."""
        if self.epoch != earlier.epoch:
            return False
        return all(now >= then for now, then in zip(astuple(self), astuple(earlier), strict=True))

    def past(self, written: Mark) -> Mark:
        """This mark moved past rows its holder added itself (``written`` gives the highest
        id of each table, 0 for none): what ``current_mark`` would read, without asking,
        as long as no one else can have written meanwhile (the registry lock)."""
        return Mark(
            player=max(self.player, written.player),
            membership=max(self.membership, written.membership),
            alias=max(self.alias, written.alias),
            change=max(self.change, written.change),
            club=max(self.club, written.club),
            club_change=max(self.club_change, written.club_change),
            epoch=self.epoch,
        )


# A club membership as stored: id, player, club, first season, last season.
MembershipRow = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Changes:
    """What was added or changed since a mark, up to ``mark``: players to load again (new,
    changed in place, or given an alias), clubs new since, and memberships new since,
    whole (a player who only joined a club is updated from them, not loaded again); and
    clubs changed in place, whose members are to be loaded again too."""

    mark: Mark
    players: frozenset[int]
    clubs: tuple[int, ...] = ()
    memberships: tuple[MembershipRow, ...] = ()
    clubs_changed: tuple[int, ...] = ()


_MARKED = (Player, ClubMembership, PlayerAlias, IdentityChange, Club, ClubChange)  # Mark's


def current_mark() -> Mark:
    """The highest id of each table and the epoch, in one query (it runs for every file)."""
    quote = connection.ops.quote_name
    highest = ", ".join(f"(SELECT MAX(id) FROM {quote(model._meta.db_table)})" for model in _MARKED)
    table = quote(Sequence._meta.db_table)
    sql = f"SELECT {highest}, (SELECT last_value FROM {table} WHERE name = %s)"
    with connection.cursor() as cursor:
        cursor.execute(sql, [EPOCH])
        *ids, found = cursor.fetchone()
    player, membership, alias, change, club, club_change = (int(i or 0) for i in ids)
    return Mark(
        player,
        membership,
        alias,
        change,
        club,
        club_change,
        int(found) if found is not None else epoch(),
    )


def epoch() -> int:
    """This database's epoch, made on first use."""
    found = Sequence.objects.filter(name=EPOCH).values_list("last_value", flat=True).first()
    if found is None:
        made, _ = Sequence.objects.get_or_create(
            name=EPOCH, defaults={"last_value": secrets.randbits(62)}
        )
        found = made.last_value
    return int(found)


def changes_since(seen: Mark) -> Changes:
    """Every player added or changed after ``seen``; aliases name their player.

    The caller checks ``changes.mark.follows(seen)`` first: if not, load everything.
    Between two files of one importer, this is what another importer's file left: one
    query for the mark, and one for the rows past it of all six tables.
    """
    now = current_mark()
    if now == seen or not now.follows(seen):
        return Changes(now, frozenset())
    found = _past(seen, now)
    players = frozenset(row[1] for row in found if row[0] in ("player", "alias", "change"))
    clubs = tuple(sorted(row[1] for row in found if row[0] == "club"))
    memberships = tuple(
        (int(pk), int(player), int(club), int(first), int(last))
        for part, player, pk, club, first, last in found
        if part == "membership"
    )
    changed = tuple(sorted({row[1] for row in found if row[0] == "club_change"}))
    return Changes(now, players, clubs, memberships, changed)


# What each marked table names, past a mark: the player (the club, for clubs and their
# changes); a membership is read whole.
_NAMED = (
    (Player, "player", ("id",)),
    (ClubMembership, "membership", ("player_id", "id", "club_id", "first_season", "last_season")),
    (PlayerAlias, "alias", ("player_id",)),
    (IdentityChange, "change", ("player_id",)),
    (Club, "club", ("id",)),
    (ClubChange, "club_change", ("club_id",)),
)
_COLUMNS = max(len(columns) for _, _, columns in _NAMED)


def _past(seen: Mark, now: Mark) -> list[tuple[Any, ...]]:
    """(table, id named, ...) for every row added between the two marks, in one
    statement; a membership's row follows its player, the others' are padded."""
    quote = connection.ops.quote_name
    parts, params = [], []
    for model, part, columns in _NAMED:
        low, high = getattr(seen, part), getattr(now, part)
        if high <= low:
            continue
        table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
        named = [quote(column) for column in columns] + ["NULL"] * (_COLUMNS - len(columns))
        parts.append(
            f"SELECT '{part}', {', '.join(named)} FROM {table} WHERE {pk} > %s AND {pk} <= %s"
        )
        params += [low, high]
    if not parts:
        return []
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        return [(str(row[0]), int(row[1]), *row[2:]) for row in cursor.fetchall()]


def note_changed(player_ids: Iterable[int]) -> int:
    """Players whose name, birth date, clubs or survival changed in place; the highest id
    of the rows noting them (0 for none): both databases return the ids they give."""
    ids = sorted(set(player_ids))
    if not ids:
        return 0
    made = insert_returning(IdentityChange, ("player_id",), [(pid,) for pid in ids])
    return max(made)  # a season's 30,000 notes: ids, not instances (issue 25)
