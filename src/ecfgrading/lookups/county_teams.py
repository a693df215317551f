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
from collections.abc import Iterable, Iterator

from django.db.models import BooleanField, ExpressionWrapper, Q

from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.members import Affiliation, Source
from ecfgrading.matching.names import fold
from ecfgrading.registry.models import ClubMembership, Event, Game, NotGradedReason

# A player's memberships: (first season, last season, of a club that plays for the county).
_Spans = dict[int, list[tuple[int, int, bool]]]
# A county match's game: its players, its day, whether its name puts them on the county's side.
_Game = tuple[int | None, int | None, dt.date, bool, bool]


def county_team(county_id: int, county: str, team_clubs: list[int]) -> Source:
    """The players who have played for the county (its id and name; ``team_clubs`` are
    clubs named after it): two queries, the seasons worked out here (issue 25: a query
    that tested every side of every county match took seconds on a national registry).
    """
    quoting = Q(club__county_id=county_id) | Q(club_id__in=team_clubs)
    ours = ClubMembership.objects.filter(quoting).values("player_id")
    home, away = _named(county)
    games = (
        Game.objects.filter(event__kind=Event.Kind.COUNTY_MATCH)
        .exclude(not_graded_reason=NotGradedReason.SUPERSEDED)
        .filter(home | away | Q(player1_id__in=ours) | Q(player2_id__in=ours))
        .annotate(home=_flag(home), away=_flag(away))
        .order_by()
        .values_list("player1_id", "player2_id", "game_date", "home", "away")
    )
    found: list[_Game] = list(games)
    spans = _spans({pid for p1, p2, *_ in found for pid in (p1, p2) if pid}, county_id, team_clubs)
    team = sorted(set(_played(found, spans)))

    def absorbed(merged: list[int]) -> list[Affiliation]:
        return [Affiliation(None, pk, None) for pk in set(merged) & set(team)]

    return Source(Q(id__in=team), absorbed)


def _flag(condition: Q) -> ExpressionWrapper:
    return ExpressionWrapper(condition, output_field=BooleanField())


def _spans(players: set[int], county_id: int, team_clubs: list[int]) -> _Spans:
    """Every membership of these players: its seasons and whether its club plays for the
    county (affiliated to it, or named after it)."""
    rows = ClubMembership.objects.filter(player_id__in=sorted(players)).order_by()
    found: _Spans = {}
    named_after = set(team_clubs)
    columns = ("player_id", "club_id", "club__county_id", "first_season", "last_season")
    for pid, club, county, first, last in rows.values_list(*columns):
        ours = county == county_id or club in named_after
        found.setdefault(pid, []).append((first, last, ours))
    return found


def _played(games: Iterable[_Game], spans: _Spans) -> Iterator[int]:
    """The sides who played for the county: quoted that season with a club of it, or,
    quoted with no club at all that season, placed by the match's name."""
    for first, second, day, home, away in games:
        season = season_of(day)
        for pid, named in ((first, home), (second, away)):
            if pid is None:
                continue
            quoted = [ours for start, end, ours in spans.get(pid, ()) if start <= season <= end]
            if any(quoted) or (named and not quoted):
                yield pid


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
