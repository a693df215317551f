"""Which clubs are shown for a player: affiliations lapse (docs/rules.md, C1..C3).

The seeds: a new club is registered as soon as results go with it; "your old club will
disappear automatically after two or three years, and in the meantime is useful for
identification". Here a club that no results have quoted for a player in the latest
three seasons (the reference season and the two before it) is no longer shown for him on
pages, in the API or in list files; the membership stays on record for identification.
A membership the grading team ended by hand is not shown either, whatever its seasons.
Up to six clubs are shown, the most recently quoted first; a location has an asterisk.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db.models import QuerySet

from ecfgrading.lookups.rows import fetch
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import ClubMembership

LAPSE_SEASONS = 3  # a club quoted in none of the latest three seasons is not shown
SHOWN = 6  # the seeds: "up to six clubs are shown"


@dataclass(frozen=True)
class ClubShown:
    id: int
    code: str | None
    name: str
    is_location: bool

    @property
    def label(self) -> str:
        """The seeds' form: a location is followed by an asterisk."""
        return f"{self.name}*" if self.is_location else self.name


def current_memberships(season: int) -> QuerySet[ClubMembership]:
    """Memberships quoted in the latest three seasons up to ``season`` (not lapsed), and
    not ended by hand by the grading team (``ended_on``: kept for identification)."""
    return _current(season, lapsed_by(season))


def lapsed_by(season: int) -> int:
    """The latest season a membership quoted no later than has lapsed by ``season``."""
    return season - LAPSE_SEASONS


def _current(season: int, lapsed: int) -> QuerySet[ClubMembership]:
    return ClubMembership.objects.filter(
        first_season__lte=season, last_season__gt=lapsed, ended_on__isnull=True
    )


def shown_clubs(
    player_ids: Iterable[int] | QuerySet[Any], season: int, limit: int | None = SHOWN
) -> dict[int, tuple[ClubShown, ...]]:
    """Each player's clubs as of ``season``, most recently quoted first, at most ``limit``
    (None: all of them, as the JSON list export gives)."""
    clubs: dict[int, list[ClubShown]] = {}
    for player_id, club_id, code, name, is_location in _shown_rows(player_ids, season):
        shown = clubs.setdefault(player_id, [])
        if limit is None or len(shown) < limit:
            shown.append(ClubShown(club_id, code, name, bool(is_location)))
    return {pk: tuple(found) for pk, found in clubs.items()}


def club_labels(
    player_ids: Iterable[int] | QuerySet[Any], season: int
) -> dict[int, tuple[str, ...]]:
    """Each player's clubs as list files show them (every one, in ``shown_clubs``' order,
    each label once; a location with '*'): set-based, each club's label made once, for a
    national list's 30,000 players in a fraction of a second."""
    labels: dict[int, str] = {}  # club id -> label

    def label(row: tuple[Any, ...]) -> str:
        club = row[1]
        if club not in labels:
            labels[club] = ClubShown(club, row[2], row[3], bool(row[4])).label
        return labels[club]

    rows = _shown_rows(player_ids, season)
    return {
        pk: tuple(dict.fromkeys(map(label, found)))
        for pk, found in groupby(rows, key=itemgetter(0))
    }


def _shown_rows(player_ids: Iterable[int] | QuerySet[Any], season: int) -> list[tuple[Any, ...]]:
    """(player id, club id, code, name, is location) of each membership shown as of
    ``season``, by player, the most recently quoted first, then by name: one query,
    compiled once per shape for a list of players (``lookups.shaped``), or with a
    subquery of them. Both fetched whole, not through a server-side cursor: PostgreSQL
    plans a cursor for its first rows (cursor_tuple_fraction), and for a list's subquery
    of players chose a plan that took a minute where the whole answer takes a tenth of a
    second."""
    if isinstance(player_ids, QuerySet):
        return fetch(_shown_query(player_ids, season, lapsed_by(season)))
    return _SHOWN.rows(list(player_ids), season, lapsed_by(season))


def _shown_query(
    player_ids: Iterable[int] | QuerySet[Any], season: int, lapsed: int
) -> QuerySet[Any]:
    memberships = _current(season, lapsed).filter(player_id__in=player_ids)
    return memberships.order_by(
        "player_id", "-last_season", "-first_season", "club__name", "club_id"
    ).values_list("player_id", "club_id", "club__code", "club__name", "club__is_location")


_SHOWN = Statement(_shown_query)
