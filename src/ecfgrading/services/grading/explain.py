"""How a stored grade was calculated, rebuilt from what its version stored (section 10).

A published version is immutable, so its breakdown is read from its own rows (entries,
stored points, and the versions its report says it read), never recomputed from games
that may have been corrected since.
"""

from __future__ import annotations

from typing import Any

from ecfgrading.engine import ECF_2009, Category, Flag, Rate, ResultCode, StartSource
from ecfgrading.engine.explain import Explanation, Forward, GameLine, StoredLine
from ecfgrading.engine.outcome import Entry
from ecfgrading.registry.models import (
    Game,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.registry.numbering import resolve_code
from ecfgrading.services import versions
from ecfgrading.services.merge import Survivors


class BreakdownError(Exception):
    """No such player, or no grade of his in the list asked for."""


def breakdowns(code: str, list_id: str | None = None) -> list[tuple[Explanation, dict[int, str]]]:
    """The player's explanations in a list (default: his latest published of each rate)."""
    player = _player(code)
    found = []
    for rate in (Rate.STANDARD, Rate.RAPID):
        entry = _entry(player, rate, list_id)
        if entry is not None:
            found.append(explain_entry(entry))
    if not found:
        where = f"list {list_id}" if list_id else "any published list"
        raise BreakdownError(f"{player.ref} {player.name} has no grade in {where}")
    return found


def _player(code: str) -> Player:
    try:
        player = resolve_code(code)
    except ValueError as error:
        raise BreakdownError(str(error)) from None
    if player is None:
        raise BreakdownError(f"expected the grading code of a player on record, got {code!r}")
    return player


def _entry(player: Player, rate: Rate, list_id: str | None) -> ListEntry | None:
    entries = ListEntry.objects.filter(
        player=player,
        version__grading_list__rate=rate.value,
        version__status=ListVersion.Status.PUBLISHED,
    ).select_related("version__grading_list")
    if list_id is not None:
        current = versions.published(list_id, rate)
        return entries.filter(version=current).first() if current else None
    return entries.order_by("-version__grading_list__list_id", "-version__published_at").first()


def explain_entry(entry: ListEntry) -> tuple[Explanation, dict[int, str]]:
    """The engine's Explanation for a stored entry, and the names it mentions."""
    version = entry.version
    rate = Rate(version.grading_list.rate)
    lines = _game_lines(entry)
    x_grade = entry.category == Category.X.value
    forward = () if x_grade else _forward(entry, rate)
    counted = [g for g in lines if g.in_h0 or not x_grade]
    total = sum(g.points for g in counted) + sum(f.points for f in forward)
    names = _names({entry.player_id} | {g.opponent_id for g in lines})
    explanation = Explanation(
        list_id=version.grading_list.list_id,
        rate=rate,
        entry=_engine_entry(entry),
        unanchored=Flag.UNANCHORED.value in entry.flags.split(","),
        first_estimate=None,
        games=tuple(lines),
        forward=forward,
        x_grade=x_grade,
        points_total=total,
    )
    return explanation, names


def _engine_entry(entry: ListEntry) -> Entry:
    flags = tuple(Flag(f) for f in entry.flags.split(",") if f)
    return Entry(
        index=-1,
        player_id=entry.player_id,
        grade=entry.grade or 0,
        unrounded=entry.unrounded if entry.unrounded is not None else float(entry.grade or 0),
        calculated=entry.calculated if entry.calculated is not None else float(entry.grade or 0),
        category=Category(entry.category),
        games_latest=entry.games_latest,
        games_counted=entry.games_counted,
        junior_age=entry.junior_age,
        bonus=entry.bonus,
        start_grade=entry.start_grade if entry.start_grade is not None else float("nan"),
        start_source=StartSource(entry.start_source)
        if entry.start_source
        else StartSource.PREVIOUS,
        flags=flags,
        n1=entry.n1,
        n2=entry.n2,
    )


def _game_lines(entry: ListEntry) -> list[GameLine]:
    rows = list(
        StoredGamePoints.objects.filter(version=entry.version, player=entry.player, period=0)
        .exclude(game=None)
        .order_by("date", "sequence")
        .values_list("game_id", "points")
    )
    survivor = Survivors().final  # a merged record's games are his survivor's
    games = {g.id: g for g in Game.objects.filter(id__in=[r[0] for r in rows])}
    sides = {
        gid: (survivor.get(g.player1_id, g.player1_id), survivor.get(g.player2_id, g.player2_id))
        for gid, g in games.items()
    }
    opponents = {b if a == entry.player_id else a for a, b in sides.values()}
    starts = dict(
        ListEntry.objects.filter(version=entry.version, player_id__in=opponents).values_list(
            "player_id", "start_grade"
        )
    )
    h0 = entry.version.grading_list.list.h0()
    return [_line(entry, games[gid], sides[gid], points, starts, h0) for gid, points in rows]


def _line(
    entry: ListEntry,
    game: Game,
    sides: tuple[int, int],
    points: float,
    starts: dict[int, Any],
    h0: Any,
) -> GameLine:
    first = sides[0] == entry.player_id
    opponent = sides[1] if first else sides[0]
    score1 = ResultCode.from_text(game.result).score1
    own, other = entry.start_grade or 0.0, starts.get(opponent) or 0.0
    cap = ECF_2009.cap
    return GameLine(
        game_id=game.id,
        date=game.game_date,
        opponent_index=-1,
        opponent_id=opponent,
        opponent_start=other,
        counted_as=min(max(other, own - cap), own + cap),  # G12
        score=score1 if first else 1.0 - score1,
        points=points,
        in_h0=game.game_date in h0,
    )


def _forward(entry: ListEntry, rate: Rate) -> tuple[Forward, ...]:
    """G14/G15 from the versions this computation read (recorded in its report)."""
    read = entry.version.report.get("read_from", {})
    target = ECF_2009.target(entry.junior_age is not None)
    short = max(target - entry.games_latest, 0)
    parts = []
    for period in (1, 2):
        version_id = read.get(f"p{period}")
        taken = min(short, entry.n1 if period == 1 else entry.n2)
        if not taken or version_id is None:
            continue
        short -= taken
        parts.append(_period(entry, version_id, period, taken, rate))
    return tuple(parts)


def _period(entry: ListEntry, version_id: int, period: int, taken: int, rate: Rate) -> Forward:
    if rate is Rate.RAPID:
        rows = (
            StoredGamePoints.objects.filter(version_id=version_id, player=entry.player, period=0)
            .order_by("-date", "-sequence")
            .values_list("game_id", "date", "points")[:taken]
        )
        lines = tuple(StoredLine(g or 0, d, p) for g, d, p in rows)
        return Forward(period, taken, None, sum(line.points for line in lines), lines)
    stored = StoredPeriodTotal.objects.get(version_id=version_id, player=entry.player)
    average = stored.total / stored.n
    return Forward(period, taken, average, taken * average, ())


def _names(ids: set[int]) -> dict[int, str]:
    return {p.id: f"{p.name} {p.ref}" for p in Player.objects.filter(id__in=ids)}
