"""How a grade was calculated, game by game (rules, section 10)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from ecfgrading.engine.outcome import Entry, ListOutcome
from ecfgrading.engine.types import Rate, ResultCode


@dataclass(frozen=True)
class GameLine:
    """One P0 game from the player's side (G12)."""

    game_id: int
    date: date | None
    opponent_index: int
    opponent_id: int
    opponent_start: float
    counted_as: float  # the opponent's value after the 40-point rule
    score: float
    points: float
    in_h0: bool


@dataclass(frozen=True)
class StoredLine:
    """A game of P1 or P2 brought forward with its stored points (G15)."""

    game_id: int
    date: date | None
    points: float


@dataclass(frozen=True)
class Forward:
    """What one earlier period contributed (G14 notional or G15 actual games)."""

    period: int
    games: int
    average: float | None  # standard: each notional game is worth this
    points: float
    stored_games: tuple[StoredLine, ...]


@dataclass(frozen=True)
class Explanation:
    """Everything needed to check a grade by hand."""

    list_id: str
    rate: Rate
    entry: Entry
    unanchored: bool
    first_estimate: float | None  # G8 stage 1, for estimated players
    games: tuple[GameLine, ...]
    forward: tuple[Forward, ...]
    x_grade: bool
    points_total: float


def explain(outcome: ListOutcome, index: int) -> Explanation:
    """The breakdown of section 10 for the player at ``index`` (KeyError if inactive)."""
    entry = outcome.entry(index)
    lines = _game_lines(outcome, index)
    forward = () if outcome.players.x_grade[index] else _forward(outcome, index)
    counted = [line for line in lines if line.in_h0 or not outcome.players.x_grade[index]]
    total = sum(line.points for line in counted) + sum(f.points for f in forward)
    return Explanation(
        list_id=str(outcome.inputs.list_id),
        rate=outcome.inputs.rate,
        entry=entry,
        unanchored=bool(outcome.players.unanchored[index]),
        first_estimate=_maybe(outcome.players.first_estimate[index]),
        games=tuple(lines),
        forward=forward,
        x_grade=bool(outcome.players.x_grade[index]),
        points_total=total,
    )


def _game_lines(outcome: ListOutcome, index: int) -> list[GameLine]:
    games, start = outcome.inputs.games, outcome.players.start
    mine = outcome.graded & ((games.player1 == index) | (games.player2 == index))
    lines = []
    for g in np.flatnonzero(mine):
        first = bool(games.player1[g] == index)
        opponent = int(games.player2[g] if first else games.player1[g])
        score1 = ResultCode(int(games.result[g])).score1
        lines.append(
            GameLine(
                game_id=int(games.ids[g]),
                date=_day(games.date[g]),
                opponent_index=opponent,
                opponent_id=int(outcome.inputs.players.ids[opponent]),
                opponent_start=float(start[opponent]),
                counted_as=float(outcome.points.value1[g] if first else outcome.points.value2[g]),
                score=score1 if first else 1.0 - score1,
                points=float(outcome.points.points1[g] if first else outcome.points.points2[g]),
                in_h0=bool(outcome.in_h0[g]),
            )
        )
    return sorted(lines, key=lambda line: (line.date or date.min, line.game_id))


def _forward(outcome: ListOutcome, index: int) -> tuple[Forward, ...]:
    cols, history = outcome.players, outcome.inputs.history
    taken = {1: int(cols.forward.from_p1[index]), 2: int(cols.forward.from_p2[index])}
    parts = []
    for period, totals in ((1, history.p1), (2, history.p2)):
        if taken[period] == 0:
            continue
        if outcome.inputs.rate is Rate.RAPID:
            parts.append(_actual(outcome, index, period, taken[period]))
        else:
            average = float(totals.total[index] / totals.n[index])
            parts.append(Forward(period, taken[period], average, taken[period] * average, ()))
    return tuple(parts)


def _actual(outcome: ListOutcome, index: int, period: int, taken: int) -> Forward:
    stored = outcome.inputs.history.games
    rows = np.flatnonzero(
        outcome.history_used & (stored.player == index) & (stored.period == period)
    )
    lines = tuple(
        StoredLine(int(stored.game_ids[r]), _day(stored.date[r]), float(stored.points[r]))
        for r in rows
    )
    return Forward(period, taken, None, sum(line.points for line in lines), lines)


def _maybe(value: np.float64) -> float | None:
    return None if np.isnan(value) else float(value)


def _day(value: np.datetime64) -> date | None:
    if np.isnat(value):
        return None
    result: date = value.astype("datetime64[D]").item()
    return result


def _start_line(expl: Explanation) -> str:
    e = expl.entry
    flag = "  [unanchored: no link to a graded player]" if expl.unanchored else ""
    return f"Starting grade {e.start_grade:.2f} ({e.start_source}){flag}"


def format_explanation(expl: Explanation, names: dict[int, str] | None = None) -> str:
    """A plain-text breakdown, as the CLI and e-mails show it."""
    e, names = expl.entry, names or {}
    title = f"{names.get(e.player_id, e.player_id)}  {expl.rate} list {expl.list_id}"
    if e.start_grade != e.start_grade:  # NaN: a list loaded from a file, not computed here
        category = e.category.value or "none"
        return (
            f"{title}\nGrade {e.grade}, category {category}, games {e.games_counted}, as "
            "published in a list loaded from a file: the games behind it are not on record"
        )
    return "\n".join([title, *_body_lines(expl, names)])


def _body_lines(expl: Explanation, names: dict[int, str]) -> list[str]:
    e = expl.entry
    out = [
        _start_line(expl),
        *(
            [f"  stage 1 estimate (G8) {expl.first_estimate:.2f}, fixed point (G9) follows"]
            if expl.first_estimate is not None
            else []
        ),
        "Games in the latest period (opponent, start, counted as, score, points):",
    ]
    for g in expl.games:
        mark = "" if not expl.x_grade or g.in_h0 else "  (before H0, not counted for X)"
        out.append(
            f"  {g.date or '?'}  {names.get(g.opponent_id, g.opponent_id)}  "
            f"{g.opponent_start:.2f}  {g.counted_as:.2f}  {g.score:g}  {g.points:.2f}{mark}"
        )
    for f in expl.forward:
        how = f"at the stored average {f.average:.2f}" if f.average is not None else "actual games"
        out.append(
            f"Brought forward from P{f.period}: {f.games} games {how}, {f.points:.2f} points"
        )
        out.extend(f"  {s.date or '?'}  game {s.game_id}  {s.points:.2f}" for s in f.stored_games)
    out.append(
        f"Calculated {expl.points_total:.2f} / {e.games_counted} = {e.calculated:.4f}; "
        f"junior bonus {e.bonus:g}; unrounded {e.unrounded:.4f}; grade {e.grade}"
    )
    category = e.category.value or "none (not published)"
    out.append(f"Category {category}; games {e.games_latest} / {e.games_counted}")
    return out
