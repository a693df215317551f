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

from datetime import date
from typing import Any

from django.db.models import (
    Case,
    Exists,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import ExtractYear

from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.members import Affiliation, Source
from ecfgrading.matching.names import fold
from ecfgrading.registry.models import ClubMembership, Event, Game, NotGradedReason, Player

SIDES = ("player1", "player2")  # PIN1 and PIN2: the home team and the away team


def county_team(county_id: int, county: str, team_clubs: list[int]) -> Source:
    """The players who have played for the county (its id and name; ``team_clubs`` are
    clubs named after it): two queries."""
    # By the club's county, not a list of its clubs: SQLite would probe the membership
    # index once for each club of the list for each game.
    quoting = (
        Q(club__county_id=county_id) | Q(club_id__in=team_clubs)
        if team_clubs
        else Q(club__county_id=county_id)
    )
    matches = Event.objects.filter(kind=Event.Kind.COUNTY_MATCH)
    span = matches.aggregate(first=Min("start_date"), last=Max("end_date"))
    if span["first"] is None:
        return Source(Q(pk__in=[]))
    seasons = range(season_of(span["first"]), season_of(span["last"]) + 1)
    played = (
        Game.objects.filter(event__in=matches)
        .exclude(not_graded_reason=NotGradedReason.SUPERSEDED)
        .annotate(season=season_expression("game_date", seasons))
    )
    sides: list[QuerySet[Any]] = []
    for side, named in zip(SIDES, _named(county), strict=True):
        quoted = Exists(_quoted(side).filter(quoting))
        sides.append(played.filter(quoted | (named & ~Exists(_quoted(side)))).values(side))
    players = Player.objects.filter(Q(id__in=sides[0]) | Q(id__in=sides[1]))
    # Read once, not in every query; in no order (the model's name order would walk
    # every player).
    team = list(players.order_by().values_list("id", flat=True))

    def absorbed(merged: list[int]) -> list[Affiliation]:
        return [Affiliation(None, pk, None) for pk in set(merged) & set(team)]

    return Source(Q(id__in=team), absorbed)


def _quoted(side: str) -> QuerySet[ClubMembership]:
    """The side's memberships quoted in the game's season."""
    return ClubMembership.objects.filter(
        player_id=OuterRef(side),
        first_season__lte=OuterRef("season"),
        last_season__gte=OuterRef("season"),
    )


def _named(county: str) -> tuple[Q, Q]:
    """Matches naming the county as the home team ('Kent v ...') and as the away team
    ('... v Kent', '... v Kent (U160)')."""
    match = Q(part_kind=Game.Part.MATCH)
    home = Q(part_name__istartswith=f"{county} v ")
    away = Q(part_name__iendswith=f" v {county}") | Q(part_name__icontains=f" v {county} (")
    return match & home, match & away


def is_team_club(club: str, county: str) -> bool:
    """A club named after the county, such as 'Kent' or 'Kent County'."""
    name, place = fold(club.replace(".", "")), fold(county)
    return name in (place, f"{place} county")


def season_expression(field: str, seasons: range) -> Case:
    """The season of a date column in SQL, ``engine.periods.season_of`` (1 June .. 31 May,
    named by the year it ends), for a query that filters by it: ranges of dates for the
    ``seasons`` expected (plain comparisons, which SQLite makes without calling back into
    Python), and the year and month of any other date."""

    def ranges(season: int) -> When:
        first, last = date(season - 1, 6, 1), date(season, 5, 31)
        return When(**{f"{field}__range": (first, last)}, then=Value(season))

    june_on = When(**{f"{field}__month__gte": 6}, then=ExtractYear(field) + 1)
    other = Case(june_on, default=ExtractYear(field), output_field=IntegerField())
    return Case(*map(ranges, seasons), default=other, output_field=IntegerField())
