"""What changed in the registry since a mark: how a running importer keeps its index of
players current when other imports, merges or corrections happened meanwhile.

Rows that are only ever added (players, memberships, aliases) are found by their ids; a
change made in place is noted in ``IdentityChange`` by whoever makes it. Identity writers
hold ``services.locks.registry_lock``, so the ids they take are committed in order and a
mark read under the lock misses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Max, QuerySet

from ecfgrading.registry.models import ClubMembership, IdentityChange, Player, PlayerAlias


@dataclass(frozen=True)
class Mark:
    """The highest id of each table that an index has seen."""

    player: int = 0
    membership: int = 0
    alias: int = 0
    change: int = 0


@dataclass(frozen=True)
class Changes:
    """Players to load again (new or changed) up to ``mark``."""

    mark: Mark
    players: frozenset[int]


def current_mark() -> Mark:
    return Mark(
        player=_highest(Player.objects.all()),
        membership=_highest(ClubMembership.objects.all()),
        alias=_highest(PlayerAlias.objects.all()),
        change=_highest(IdentityChange.objects.all()),
    )


def changes_since(seen: Mark) -> Changes:
    """Every player added or changed after ``seen``; aliases name their player."""
    now = current_mark()
    if now == seen:
        return Changes(now, frozenset())
    players = {
        *_between(Player.objects, "id", seen.player, now.player),
        *_between(ClubMembership.objects, "player_id", seen.membership, now.membership),
        *_between(PlayerAlias.objects, "player_id", seen.alias, now.alias),
        *_between(IdentityChange.objects, "player_id", seen.change, now.change),
    }
    return Changes(now, frozenset(players))


def note_changed(player_ids: Iterable[int]) -> None:
    """Players whose name, birth date, clubs or survival changed in place."""
    IdentityChange.objects.bulk_create(
        IdentityChange(player_id=pid) for pid in sorted(set(player_ids))
    )


def _highest(rows: QuerySet) -> int:  # type: ignore[type-arg]
    return int(rows.aggregate(top=Max("id"))["top"] or 0)


def _between(manager: object, column: str, low: int, high: int) -> list[int]:
    if high <= low:
        return []
    rows = manager.filter(id__gt=low, id__lte=high)  # type: ignore[attr-defined]
    return list(rows.values_list(column, flat=True))
