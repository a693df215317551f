"""County teams: "everyone who has played for the county" (the seeds' club lookup).

The registry records no team for a player in a match. A results file of county matches
names each match ('Kent v Sussex (U160)') and quotes each player's club, which becomes a
membership with the seasons it was quoted in (C1). So a player has played for county K
when he has a game in an event of kind county-match, in a season in which results quoted
him with a club of K: a club affiliated to K, or a county team club named after K
('Kent', 'Kent County'), which files of county matches may quote instead of his own club.

A player whom no results quoted with any club in that season is placed by the match's
name instead: match results are written home team first with the home player as PIN1
('Kent v Sussex': PIN1 played for Kent, PIN2 for Sussex), as league and county match
programs write them. The name is only a fallback because nothing in the file format
enforces that order; a club on record is evidence about the player himself.

Superseded results are not counted (a later submission replaced them); a default still
puts the player on the county's team sheet.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping
from functools import cache
from typing import Any

from django.db.models import Q

from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.members import Affiliation, Source
from ecfgrading.lookups.rows import fetch
from ecfgrading.matching.names import fold
from ecfgrading.registry.models import ClubMembership, Event, Game, NotGradedReason

Counties = Mapping[int, tuple[str, Collection[int]]]  # id -> name, clubs named after it
Teams = dict[int, frozenset[int]]  # county id -> the players who have played for it
# A player's memberships: (first season, last season, the counties its club plays for).
_Spans = dict[int, list[tuple[int, int, frozenset[int]]]]


def county_team(team: Collection[int]) -> Source:
    """A county team's players (of ``county_teams``) as a member list's source."""

    def absorbed(merged: list[int]) -> list[Affiliation]:
        return [Affiliation(None, pk, None) for pk in set(merged) & set(team)]

    return Source(Q(id__in=sorted(team)), absorbed)


def county_teams(counties: Counties) -> Teams:
    """The players who have played for each county, every county at once: two queries
    whatever the number of counties (every county match's games; the memberships of
    those who played them), the seasons worked out here. Issue 25: a county's own pass
    over the county matches took 150 ms on a national registry, as long for each county;
    ``lookups.clubs`` keeps this with the club index, once per data token."""
    matches = (
        Game.objects.filter(event__kind=Event.Kind.COUNTY_MATCH)
        .exclude(not_graded_reason=NotGradedReason.SUPERSEDED)
        .order_by()
    )
    games = fetch(
        matches.values_list("player1_id", "player2_id", "game_date", "part_kind", "part_name")
    )
    spans = _spans(matches, counties)
    names = tuple((pk, name.casefold()) for pk, (name, _clubs) in counties.items())
    named = cache(lambda kind, part: _named(kind, part, names))
    sides: set[tuple[int, int, tuple[int, ...]]] = set()  # player, season, named counties
    for first, second, day, kind, part in games:
        season = _season(day)
        home, away = named(kind, part)
        for pid, side in ((first, home), (second, away)):
            if pid is not None:
                sides.add((pid, season, side))
    teams: dict[int, set[int]] = {pk: set() for pk in counties}
    for pid, season, side in sides:
        for county in _played_for(spans.get(pid, ()), season, side):
            teams[county].add(pid)
    return {pk: frozenset(players) for pk, players in teams.items()}


def _spans(matches: Any, counties: Counties) -> _Spans:
    """Every membership of everyone who played a county match: its seasons and the
    counties its club plays for (affiliated to one, or named after one)."""
    named_after: dict[int, set[int]] = {}
    for county, (_name, clubs) in counties.items():
        for club in clubs:
            named_after.setdefault(club, set()).add(county)
    sides = Q(player_id__in=matches.values("player1_id")) | Q(
        player_id__in=matches.values("player2_id")
    )
    columns = ("player_id", "club_id", "club__county_id", "first_season", "last_season")
    rows = fetch(ClubMembership.objects.filter(sides).order_by().values_list(*columns))
    found: _Spans = {}
    for pid, club, county, first, last in rows:
        plays_for = named_after.get(club, set()) | ({county} if county in counties else set())
        found.setdefault(pid, []).append((first, last, frozenset(plays_for)))
    return found


def _played_for(
    spans: Iterable[tuple[int, int, frozenset[int]]], season: int, named: tuple[int, ...]
) -> Iterable[int]:
    """The counties a side played for: those of the clubs results quoted him with that
    season, or, quoted with no club at all that season, the one the match's name gives."""
    quoted = [counties for first, last, counties in spans if first <= season <= last]
    return frozenset().union(*quoted) if quoted else named


def _season(day: dt.date | str) -> int:
    """``season_of`` a date as the database gives it (SQLite: ISO text)."""
    return season_of(day if isinstance(day, dt.date) else dt.date.fromisoformat(day))


def _named(
    kind: str, part: str, counties: tuple[tuple[int, str], ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counties a match's name gives as the home team ('Kent v ...') and as the away
    team ('... v Kent', '... v Kent (U160)'), in any case."""
    if kind != Game.Part.MATCH:
        return (), ()
    text = part.casefold()
    home = tuple(pk for pk, name in counties if text.startswith(f"{name} v "))
    away = tuple(
        pk for pk, name in counties if text.endswith(f" v {name}") or f" v {name} (" in text
    )
    return home, away


def is_team_club(club: str, county: str) -> bool:
    """A club named after the county, such as 'Kent' or 'Kent County'."""
    name, place = fold(club.replace(".", "")), fold(county)
    return name in (place, f"{place} county")
