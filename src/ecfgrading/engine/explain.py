"""How a grade was calculated, game by game (rules, section 10).

``explain`` reads a fresh computation; ``explain_stored`` reads the rows a list version
stored (G17) under the rule set that version names. Both share the rules (G12's cap,
G14/G15's games brought forward) with ``compute_list`` and one assembly of the total.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from ecfgrading.engine.forward import BroughtForward, most_recent, notional
from ecfgrading.engine.grading import game_points
from ecfgrading.engine.inputs import BoolArray, History, StoredGames, StoredTotals
from ecfgrading.engine.outcome import Entry, ListOutcome
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import RuleSet
from ecfgrading.engine.types import Category, Flag, Rate, ResultCode


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


# --- the stored rows of a published grade (G17) ---------------------------------------


@dataclass(frozen=True)
class StoredGame:
    """One P0 game of the player, from his side, as his list version stored it."""

    game_id: int
    date: date | None
    opponent_id: int
    opponent_start: float  # the opponent's starting grade in the same version (G13)
    score: float  # the player's: 1, 0.5 or 0
    points: float  # the points the version stored for him (G12)


@dataclass(frozen=True)
class StoredPeriodGame:
    """A game of P1 or P2 with the points the version grading that period stored."""

    game_id: int
    date: date | None
    order: int  # recording order: a larger number was recorded later (G15 tie-break)
    points: float


@dataclass(frozen=True)
class StoredPeriod:
    """What the version that graded P1 or P2 stored for the player (G17)."""

    n: int = 0
    total: float = 0.0
    games: tuple[StoredPeriodGame, ...] = ()  # rapid only: G15 brings actual games


@dataclass(frozen=True)
class StoredGrade:
    """A stored list entry and the rows its explanation reads (nothing is recomputed)."""

    list_id: ListId
    rate: Rate
    entry: Entry
    games: tuple[StoredGame, ...]  # P0, as this version stored it
    p1: StoredPeriod = StoredPeriod()
    p2: StoredPeriod = StoredPeriod()

    def __post_init__(self) -> None:
        if self.rate is not Rate.RAPID:
            return
        for k, period in ((1, self.p1), (2, self.p2)):
            if len(period.games) != period.n:  # G15 needs every stored rapid game
                raise ValueError(
                    f"expected {period.n} stored games for P{k}, got {len(period.games)}"
                )


def explain(outcome: ListOutcome, index: int) -> Explanation:
    """The breakdown of section 10 for the player at ``index`` (KeyError if inactive)."""
    entry = outcome.entry(index)
    inputs = outcome.inputs
    return _assemble(
        list_id=str(inputs.list_id),
        rate=inputs.rate,
        entry=entry,
        lines=_game_lines(outcome, index),
        bring_forward=lambda: _forward(inputs.rate, inputs.history, outcome.players.forward, index),
        x_grade=bool(outcome.players.x_grade[index]),
        unanchored=bool(outcome.players.unanchored[index]),
        first_estimate=_maybe(outcome.players.first_estimate[index]),
    )


def explain_stored(stored: StoredGrade, rules: RuleSet) -> Explanation:
    """Section 10 for a stored grade, under the rule set its version was computed with."""
    entry = stored.entry
    return _assemble(
        list_id=str(stored.list_id),
        rate=stored.rate,
        entry=entry,
        lines=_stored_lines(stored, rules),
        bring_forward=lambda: _stored_forward(stored, rules),
        x_grade=entry.category is Category.X,
        unanchored=Flag.UNANCHORED in entry.flags,
        first_estimate=None,  # G8's first stage is not stored
    )


def _assemble(
    *,
    list_id: str,
    rate: Rate,
    entry: Entry,
    lines: Sequence[GameLine],
    bring_forward: Callable[[], tuple[Forward, ...]],
    x_grade: bool,
    unanchored: bool,
    first_estimate: float | None,
) -> Explanation:
    """G16: an X grade counts its H0 games only and brings nothing forward."""
    forward = () if x_grade else bring_forward()
    counted = [line for line in lines if line.in_h0 or not x_grade]
    total = sum(line.points for line in counted) + sum(f.points for f in forward)
    return Explanation(
        list_id=list_id,
        rate=rate,
        entry=entry,
        unanchored=unanchored,
        first_estimate=first_estimate,
        games=tuple(sorted(lines, key=_by_date)),
        forward=forward,
        x_grade=x_grade,
        points_total=total,
    )


def _by_date(line: GameLine) -> tuple[date, int]:
    return (line.date or date.min, line.game_id)


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
    return lines


def _stored_lines(stored: StoredGrade, rules: RuleSet) -> list[GameLine]:
    """G12 through the engine's own ``game_points``: the player is index 0, opponents 1..n."""
    games, h0 = stored.games, stored.list_id.h0()
    start = np.array([stored.entry.start_grade, *(g.opponent_start for g in games)])
    them = np.arange(1, len(games) + 1, dtype=np.int64)
    score = np.array([g.score for g in games], dtype=np.float64)
    counted_as = game_points(start, np.zeros_like(them), them, score, rules).value1
    return [
        GameLine(
            game_id=g.game_id,
            date=g.date,
            opponent_index=-1,  # a stored grade has no input table to index
            opponent_id=g.opponent_id,
            opponent_start=g.opponent_start,
            counted_as=float(value),
            score=g.score,
            points=g.points,  # as stored (G17), not recomputed
            in_h0=g.date in h0,
        )
        for g, value in zip(games, counted_as, strict=True)
    ]


def _stored_forward(stored: StoredGrade, rules: RuleSet) -> tuple[Forward, ...]:
    """G14/G15 towards the target of G18/G19, by the engine's own selection."""
    history = _history(stored)
    n0 = np.array([stored.entry.games_latest], dtype=np.int64)
    target = np.array([rules.target(stored.entry.junior_age is not None)], dtype=np.int64)
    bring = most_recent if stored.rate is Rate.RAPID else notional
    return _forward(stored.rate, history, bring(n0, target, history), 0)


def _history(stored: StoredGrade) -> History:
    """The stored periods as the engine's history of one player (index 0)."""
    periods = ((1, stored.p1), (2, stored.p2))
    rows = [(k, g) for k, period in periods for g in period.games]
    games = StoredGames.of(
        game_ids=[g.game_id for _, g in rows],
        player=np.zeros(len(rows), dtype=np.int64),
        period=[k for k, _ in rows],
        date=np.array([g.date for _, g in rows], dtype="datetime64[D]"),
        order=[g.order for _, g in rows],
        points=[g.points for _, g in rows],
    )
    p1, p2 = (StoredTotals.of([p.n], [p.total], 1) for p in (stored.p1, stored.p2))
    return History(p1, p2, games)


def _forward(
    rate: Rate, history: History, brought: BroughtForward, index: int
) -> tuple[Forward, ...]:
    taken = {1: int(brought.from_p1[index]), 2: int(brought.from_p2[index])}
    parts = []
    for period, totals in ((1, history.p1), (2, history.p2)):
        if taken[period] == 0:
            continue
        if rate is Rate.RAPID:
            parts.append(_actual(history.games, brought.used, index, period, taken[period]))
        else:
            average = float(totals.total[index] / totals.n[index])
            parts.append(Forward(period, taken[period], average, taken[period] * average, ()))
    return tuple(parts)


def _actual(stored: StoredGames, used: BoolArray, index: int, period: int, taken: int) -> Forward:
    rows = np.flatnonzero(used & (stored.player == index) & (stored.period == period))
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
