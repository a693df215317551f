"""A player's graded games of one rate, latest first, each with the grades of the list
that graded it (G12, G13, G17): the games of the federation's rating API.

A game not yet in a published list has no grades beside it. A merged record's games are
his survivor's (G28). Six queries whatever the number of games.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.lookups.breakdown import Opponent, opponents
from ecfgrading.lookups.history import current_versions
from ecfgrading.lookups.lists import published_versions
from ecfgrading.lookups.players import Located
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import Game, ListEntry, StoredGamePoints

MAX_GAMES = 2000  # games a player's game list answers with, latest first


@dataclass(frozen=True)
class GameLine:
    """One graded game from the player's side, with the grades the list used (G12, G13)."""

    date: dt.date
    colour: str  # W, B, or '' where the results file did not say
    score: float  # 1 win, 0.5 draw, 0 loss
    opponent_name: str
    opponent_code: str | None  # None: the opponent is still being identified
    opponent_rating: int | None  # his starting grade in the list that graded the game
    player_rating: int | None  # the player's own starting grade in that list
    increment: float | None  # the game's points less the player's starting grade
    event_code: str
    event_name: str
    section: str  # the match or section the results file put it in


_GAME_COLUMNS = (
    "id",
    "game_date",
    "player1_id",
    "player2_id",
    "pending1__name",
    "pending2__name",
    "colour",
    "result",
    "part_name",
    "event__code",
    "event__name",
)
_OTHER_COLOUR = {"W": "B", "B": "W", "": ""}


def graded_games(located: Located, rate: Rate, limit: int | None = None) -> list[GameLine]:
    """The player's graded games of ``rate``, latest first (at most ``limit``, capped at
    MAX_GAMES), each with the grades of the list that graded it."""
    survivors = Survivors()
    player_id = located.player_id
    count = MAX_GAMES if limit is None else max(0, min(limit, MAX_GAMES))
    games = _games_of(survivors.records(player_id))
    rows = [row[:-2] for row in games if row[-2] == rate.value and row[-1]][:count]
    sides = {row[0]: _sides(row, survivors) for row in rows}
    graded = _grading_lists([row[0] for row in rows], player_id, rate)
    starts = _starts(graded, sides, player_id)
    names = opponents({side for pair in sides.values() for side in pair})
    return [
        _game_line(row, sides[row[0]], player_id, graded.get(row[0]), starts, names) for row in rows
    ]


def _games_of(records: Sequence[int]) -> list[tuple[Any, ...]]:
    """Every game of these records, latest first, with its rate and whether it is graded
    last. Filtered by player only, so that each side is read by its own index: with the
    rate in the query too, SQLite walks the (rate, graded, date) index over every game of
    the rate instead (half a second on the national demo)."""
    mine = Q(player1_id__in=records) | Q(player2_id__in=records)
    games = Game.objects.filter(mine).order_by("-game_date", "-sequence")
    return list(games.values_list(*_GAME_COLUMNS, "rate", "graded"))


def _sides(row: tuple[Any, ...], survivors: Survivors) -> tuple[int | None, int | None]:
    one, two = row[2], row[3]
    return (
        None if one is None else survivors.survivor(one),
        None if two is None else survivors.survivor(two),
    )


def _grading_lists(game_ids: list[int], player_id: int, rate: Rate) -> dict[int, tuple[int, float]]:
    """Game -> (version, points) of the latest list whose P0 graded it (G17): the points
    the current version of that list stored for the player."""
    current = current_versions(published_versions())
    wanted = {v.id: v.list_id for (_lid, r), v in current.items() if r is rate}
    stored = StoredGamePoints.objects.filter(
        version_id__in=list(wanted), player_id=player_id, game_id__in=game_ids, period=0
    ).values_list("game_id", "version_id", "points")
    chosen: dict[int, tuple[int, float]] = {}
    for game_id, version_id, points in stored:
        held = chosen.get(game_id)
        if held is None or wanted[version_id] > wanted[held[0]]:
            chosen[game_id] = (version_id, points)
    return chosen


def _starts(
    graded: Mapping[int, tuple[int, float]],
    sides: Mapping[int, tuple[int | None, int | None]],
    player_id: int,
) -> dict[tuple[int, int], float | None]:
    """(version, player) -> starting grade (G13), for the player and his opponents."""
    versions = {version_id for version_id, _points in graded.values()}
    people = {side for pair in sides.values() for side in pair if side is not None}
    if not versions:
        return {}
    rows = ListEntry.objects.filter(version_id__in=versions, player_id__in=people | {player_id})
    return {
        (version_id, pid): start
        for version_id, pid, start in rows.order_by().values_list(
            "version_id", "player_id", "start_grade"
        )
    }


def _game_line(
    row: tuple[Any, ...],
    sides: tuple[int | None, int | None],
    player_id: int,
    graded: tuple[int, float] | None,
    starts: Mapping[tuple[int, int], float | None],
    names: Mapping[int, Opponent],
) -> GameLine:
    _gid, day, _one, _two, pending1, pending2, colour, result, part, event_code, event_name = row
    first = sides[0] == player_id
    opponent = sides[1] if first else sides[0]
    score1 = ResultCode.from_text(str(result)).score1
    known = names.get(opponent) if opponent is not None else None
    # Being identified: the name the results file gave.
    name = known.name if known else str((pending2 if first else pending1) or "")
    own = against = None
    if graded is not None:
        own = starts.get((graded[0], player_id))
        against = starts.get((graded[0], opponent)) if opponent is not None else None
    return GameLine(
        date=day,
        colour=str(colour) if first else _OTHER_COLOUR[str(colour)],
        score=score1 if first else 1.0 - score1,
        opponent_name=name,
        opponent_code=known.code if known else None,
        opponent_rating=_rounded(against),
        player_rating=_rounded(own),
        increment=_increment(graded, own),
        event_code=str(event_code),
        event_name=str(event_name),
        section=str(part),
    )


def _increment(graded: tuple[int, float] | None, own: float | None) -> float | None:
    """The game's points less the player's own starting grade: a grade moves by the mean
    of these."""
    if graded is None or own is None or not math.isfinite(own):
        return None
    return round(graded[1] - own, 1)


def _rounded(value: float | None) -> int | None:
    """A starting grade as the federation's API shows ratings: whole numbers."""
    return None if value is None or not math.isfinite(value) else round(value)
