"""Large jumps in grade, with the games behind them (grading help: checking, item d)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.reports.common import (
    TeamReport,
    published_grades,
    with_previous,
)
from ecfgrading.registry.bulk import in_chunks
from ecfgrading.registry.models import ListEntry, ListVersion, StoredGamePoints

_Row = tuple[Any, ...]

# Enough to check a jump by eye; a season's full record is on the player's page.
GAMES_LIMIT = 60


@dataclass(frozen=True)
class JumpGame:
    """One P0 game of a player, with the points this version stored for it (G17)."""

    date: date
    event_code: str
    opponent_code: str
    opponent_name: str
    score: float  # the player's own score: 1, 0.5 or 0
    points: float


@dataclass(frozen=True)
class Jump:
    code: str
    name: str
    old_grade: int
    new_grade: int
    change: int
    category: str
    games_latest: int  # G24: games in P0
    games_counted: int
    games: tuple[JumpGame, ...]  # the latest ones, in date order
    games_not_listed: int


@dataclass(frozen=True)
class JumpsReport(TeamReport):
    list_id: str
    rate: str
    version: str
    previous: str | None
    threshold: int
    jumps: tuple[Jump, ...]

    def to_text(self) -> str:
        against = self.previous or "no previous list"
        lines = [
            f"Large jumps: {self.version} against {against}, "
            f"threshold {self.threshold}: {len(self.jumps)} players"
        ]
        for jump in self.jumps:
            lines += _jump_lines(jump)
        return "\n".join(lines)


@dataclass(frozen=True)
class _Entry:
    player_id: int
    code: str
    name: str
    grade: int
    category: str
    games_latest: int
    games_counted: int


def large_jumps(
    list_id: str,
    rate: Rate,
    *,
    threshold: int = 25,
    version: str | None = None,
    games_limit: int = GAMES_LIMIT,
) -> JumpsReport:
    """Published players whose grade moved by ``threshold`` or more since the previous
    list of the same rate (G4), largest move first, each with his latest P0 games."""
    rate = Rate(rate)
    found = with_previous(list_id, rate, version)
    old = published_grades(found.previous)
    moved = [e for e in _published(found.current) if e.player_id in old]
    moved = [e for e in moved if abs(e.grade - old[e.player_id]) >= threshold]
    moved.sort(key=lambda e: (-abs(e.grade - old[e.player_id]), e.code))
    games, totals = _games(found.current, [e.player_id for e in moved], games_limit)
    jumps = tuple(_jump(e, old[e.player_id], games, totals) for e in moved)
    return JumpsReport(
        str(list_id), rate.value, found.label, found.previous_label, threshold, jumps
    )


def _published(version: ListVersion) -> list[_Entry]:
    rows = ListEntry.objects.filter(version=version, published=True, grade__isnull=False)
    rows = rows.order_by()  # sorted by jump below; the default order joins players to sort
    fields = ("player_id", "player__code", "player__surname", "player__forenames")
    values = rows.values_list(*fields, "grade", "category", "games_latest", "games_counted")
    return [
        _Entry(pid, code_text(code), full_name(surname, forenames), *rest)
        for pid, code, surname, forenames, *rest in values
    ]


def _jump(
    entry: _Entry,
    old: int,
    games: Mapping[int, list[JumpGame]],
    totals: Mapping[int, int],
) -> Jump:
    listed = tuple(games.get(entry.player_id, ()))
    return Jump(
        entry.code,
        entry.name,
        old,
        entry.grade,
        entry.grade - old,
        entry.category,
        entry.games_latest,
        entry.games_counted,
        listed,
        totals.get(entry.player_id, 0) - len(listed),
    )


_GAME_FIELDS = (
    "player_id",
    "points",
    "game__game_date",
    "game__event__code",
    "game__result",
    "game__player1_id",
    "game__player1__code",
    "game__player1__surname",
    "game__player1__forenames",
    "game__player2__code",
    "game__player2__surname",
    "game__player2__forenames",
    "total",
)


def _games(
    version: ListVersion, player_ids: Sequence[int], limit: int
) -> tuple[dict[int, list[JumpGame]], dict[int, int]]:
    """Each player's latest ``limit`` P0 games and his number of them, a query per chunk."""
    games: dict[int, list[JumpGame]] = defaultdict(list)
    totals: dict[int, int] = {}
    for chunk in in_chunks(player_ids):
        for row in _game_rows(version, chunk, limit):
            player_id, total = row[0], row[-1]
            totals[player_id] = total
            games[player_id].append(_game(row))
    return games, totals


def _game_rows(version: ListVersion, player_ids: Iterable[int], limit: int) -> Iterable[_Row]:
    by_player = {"partition_by": [F("player_id")]}
    latest = [F("game__game_date").desc(), F("game__sequence").desc()]
    rows = (
        StoredGamePoints.objects.filter(
            version=version, period=0, game__isnull=False, player_id__in=list(player_ids)
        )
        .order_by()  # the default order joins players and versions only to sort
        .annotate(
            rank=Window(RowNumber(), order_by=latest, **by_player),
            total=Window(Count("id"), **by_player),
        )
    )
    # Filtering on a window function: Django wraps the query so the rank is computed first.
    listed = rows.filter(rank__lte=limit).order_by("game__game_date", "game__sequence")
    return listed.values_list(*_GAME_FIELDS)


def _game(row: _Row) -> JumpGame:
    (player_id, points, day, event_code, result, player1_id, *sides, _total) = row
    score1 = ResultCode.from_text(result).score1
    first = player_id == player1_id
    code, surname, forenames = sides[3:] if first else sides[:3]
    return JumpGame(
        day,
        event_code,
        code_text(code),
        full_name(surname, forenames),
        score1 if first else 1.0 - score1,
        points,
    )


def _jump_lines(jump: Jump) -> list[str]:
    lines = [
        f"  {jump.change:+4d}  {jump.old_grade:3d} -> {jump.new_grade:3d}  "
        f"{jump.name} {jump.code}  category {jump.category or '-'}, "
        f"{jump.games_latest} games ({jump.games_counted} counted)"
    ]
    lines += [
        f"        {g.date.isoformat()}  {g.event_code:<12} v {g.opponent_name} "
        f"{g.opponent_code}  score {g.score:g}  points {g.points:g}"
        for g in jump.games
    ]
    if jump.games_not_listed:
        lines.append(f"        ... and {jump.games_not_listed} earlier games")
    return lines
