"""How a grade was calculated, game by game (rules, section 10; G44).

``explain`` reads a fresh computation; ``explain_stored`` reads the rows a list version
stored (G17) under the rule set that version names. Both share the rules (G12's cap,
the games brought forward of G14/G15, G35 and G38, the count-back of G35) with
``compute_list`` and one assembly of the total. G44: an explanation names its rule set
and periods, and each game or half-year brought forward.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from ecfgrading.engine.forward import (
    HALF_YEARS_READ,
    BroughtForward,
    bring_forward,
    counted_in_p0,
)
from ecfgrading.engine.grading import game_points
from ecfgrading.engine.inputs import BoolArray, History, InputError, StoredGames, StoredTotals
from ecfgrading.engine.outcome import Entry, ListOutcome
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rules import Counting, RuleSet
from ecfgrading.engine.starting import SOURCE_CODES
from ecfgrading.engine.types import Category, Flag, Rate, ResultCode, StartSource


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
    counted: bool = True  # False: older than the most recent games counted (G35)
    opponent_estimated: bool = False  # the opponent's starting grade is an estimate (G7)


@dataclass(frozen=True)
class StoredLine:
    """A game of P1 or P2 brought forward with its stored points (G15, G35, G38)."""

    game_id: int
    date: date | None
    points: float


@dataclass(frozen=True)
class Forward:
    """What one earlier period, or half-year, contributed: notional games at its average
    (G14; G38's earliest half-year, pro rata) or actual games (G15, G35; G38's whole
    half-years)."""

    period: int  # 1 or 2
    games: int
    average: float | None  # notional games are each worth this
    points: float
    stored_games: tuple[StoredLine, ...]
    half_year: int | None = None  # G38: H2..H5
    half_year_games: int = 0  # G38: the half-year's stored games and their total
    half_year_total: float = 0.0

    @property
    def pro_rata(self) -> bool:
        """G38: the earliest half-year used, taken in part at its average."""
        return self.half_year is not None and self.games < self.half_year_games


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
    rule_set: str = ""  # G44: the rule set the grade was computed under
    half_years: tuple[Period, ...] = ()  # G32: H0..H5 of the list (P0 = H1 + H0, ...)

    @property
    def periods(self) -> tuple[Period, ...]:
        """P0, P1, P2 (G32), from the half-years."""
        h = self.half_years
        return tuple(Period(h[2 * k + 1].start, h[2 * k].end) for k in range(len(h) // 2))


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
    opponent_estimated: bool = False  # the opponent's starting grade is an estimate (G7)


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

    def check_games(self) -> None:
        """G15, G35, G38 need every stored game of P1 and P2."""
        for k, period in ((1, self.p1), (2, self.p2)):
            if len(period.games) != period.n:
                raise InputError(
                    f"expected {period.n} stored games for P{k}, got {len(period.games)}"
                )


def explain(outcome: ListOutcome, index: int) -> Explanation:
    """The breakdown of section 10 for the player at ``index`` (KeyError if inactive)."""
    entry = outcome.entry(index)
    inputs = outcome.inputs
    return _assemble(
        list_id=inputs.list_id,
        rules=outcome.rules,
        rate=inputs.rate,
        entry=entry,
        lines=_game_lines(outcome, index),
        bring_forward=lambda: _forward(
            outcome.rules,
            inputs.rate,
            inputs.history,
            outcome.players.forward,
            index,
            inputs.list_id.half_years(),
        ),
        x_grade=bool(outcome.players.x_grade[index]),
        unanchored=bool(outcome.players.unanchored[index]),
        first_estimate=_maybe(outcome.players.first_estimate[index]),
    )


def explain_stored(stored: StoredGrade, rules: RuleSet) -> Explanation:
    """Section 10 for a stored grade, under the rule set its version was computed with."""
    if rules.needs_stored_games(stored.rate):
        stored.check_games()
    entry = stored.entry
    return _assemble(
        list_id=stored.list_id,
        rules=rules,
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
    list_id: ListId,
    rules: RuleSet,
    rate: Rate,
    entry: Entry,
    lines: Sequence[GameLine],
    bring_forward: Callable[[], tuple[Forward, ...]],
    x_grade: bool,
    unanchored: bool,
    first_estimate: float | None,
) -> Explanation:
    """G16, G36: an X grade counts its H0 games only and brings nothing forward; G35:
    other grades count the games the count-back keeps."""
    forward = () if x_grade else bring_forward()
    counted = [line for line in lines if (line.in_h0 if x_grade else line.counted)]
    total = sum(line.points for line in counted) + sum(f.points for f in forward)
    return Explanation(
        list_id=str(list_id),
        rule_set=rules.name,
        half_years=list_id.half_years(),
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
    all_count = np.ones(games.ids.shape[0], dtype=bool)
    counted1, counted2 = outcome.counted or (all_count, all_count)
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
                counted=bool(counted1[g] if first else counted2[g]),
                opponent_estimated=SOURCE_CODES[outcome.players.source[opponent]]
                is StartSource.ESTIMATED,
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
    counts = counted_in_p0(
        np.zeros(len(games), dtype=np.int64),
        np.array([g.date for g in games], dtype="datetime64[D]"),
        np.array([g.game_id for g in games], dtype=np.int64),  # game ids: recording order
        _target(stored, rules),
        rules.counting,
    )
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
            counted=bool(counted),
            opponent_estimated=g.opponent_estimated,
        )
        for g, value, counted in zip(games, counted_as, counts, strict=True)
    ]


def _target(stored: StoredGrade, rules: RuleSet) -> np.ndarray:
    """The player's target (G14, G18, G35, G38); none for an X grade (G16, G36)."""
    if stored.entry.category is Category.X:
        return np.zeros(1, dtype=np.int64)
    return np.array([rules.target(stored.entry.junior_age is not None)], dtype=np.int64)


def _stored_forward(stored: StoredGrade, rules: RuleSet) -> tuple[Forward, ...]:
    """Games brought forward towards the target, by the engine's own selection."""
    history = _history(stored)
    n0 = np.array([stored.entry.games_latest], dtype=np.int64)
    halves = stored.list_id.half_years()
    brought = bring_forward(rules, stored.rate, n0, _target(stored, rules), history, halves)
    return _forward(rules, stored.rate, history, brought, 0, halves)


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
    rules: RuleSet,
    rate: Rate,
    history: History,
    brought: BroughtForward,
    index: int,
    halves: tuple[Period, ...],
) -> tuple[Forward, ...]:
    if brought.half_years is not None:
        return _half_years(history.games, brought, index, halves)
    notional = rules.counting is Counting.ECF_2009 and rate is Rate.STANDARD  # G14
    taken = {1: int(brought.from_p1[index]), 2: int(brought.from_p2[index])}
    parts = []
    for period, totals in ((1, history.p1), (2, history.p2)):
        if taken[period] == 0:
            continue
        if notional:
            average = float(totals.total[index] / totals.n[index])
            parts.append(Forward(period, taken[period], average, taken[period] * average, ()))
        else:
            parts.append(_actual(history.games, brought.used, index, period, taken[period]))
    return tuple(parts)


def _half_years(
    stored: StoredGames, brought: BroughtForward, index: int, halves: tuple[Period, ...]
) -> tuple[Forward, ...]:
    """G38: each half-year taken whole, with its games, then the one taken pro rata."""
    assert brought.half_years is not None
    taken = brought.half_years
    parts = []
    for column, j in enumerate(HALF_YEARS_READ):
        games = int(taken.taken[index, column])
        if games == 0:
            continue
        n, total = int(taken.n[index, column]), float(taken.total[index, column])
        period = 1 if j <= 3 else 2
        whole = games == n
        lines = _lines(stored, brought.used, index, period) if whole else ()
        parts.append(
            Forward(
                period=period,
                games=games,
                average=None if whole else total / n,
                points=total if whole else games * total / n,
                stored_games=tuple(line for line in lines if line.date in halves[j]),
                half_year=j,
                half_year_games=n,
                half_year_total=total,
            )
        )
    return tuple(parts)


def _actual(stored: StoredGames, used: BoolArray, index: int, period: int, taken: int) -> Forward:
    lines = _lines(stored, used, index, period)
    return Forward(period, taken, None, sum(line.points for line in lines), lines)


def _lines(stored: StoredGames, used: BoolArray, index: int, period: int) -> tuple[StoredLine, ...]:
    rows = np.flatnonzero(used & (stored.player == index) & (stored.period == period))
    return tuple(
        StoredLine(int(stored.game_ids[r]), _day(stored.date[r]), float(stored.points[r]))
        for r in rows
    )


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
    return "\n".join([title, *_rules_lines(expl), *_body_lines(expl, names)])


def _rules_lines(expl: Explanation) -> list[str]:
    """G44: the rule set and the periods used, with the 7-month half-year where it is."""
    if not expl.half_years:
        return []
    names = ("P0 (latest)", "P1", "P2")
    periods = "; ".join(f"{n} {p}" for n, p in zip(names, expl.periods, strict=True))
    long = [f"H{j} {h}" for j, h in enumerate(expl.half_years) if _months(h) > 6]
    lines = [f"Rule set {expl.rule_set}; periods {periods}"]
    lines += [f"  {text} is the 7-month half-year (G32)" for text in long]
    return lines


def _months(period: Period) -> int:
    return (period.end.year - period.start.year) * 12 + period.end.month - period.start.month + 1


def _mark(expl: Explanation, line: GameLine) -> str:
    if expl.x_grade:
        return "" if line.in_h0 else "  (before H0, not counted for X)"
    return "" if line.counted else "  (older than the most recent games counted, G35)"


def _forward_line(f: Forward) -> str:
    if f.half_year is not None:  # G38
        held = f"H{f.half_year}: {f.half_year_games} games, {f.half_year_total:.2f} points"
        if f.pro_rata:
            return (
                f"Brought forward pro rata from {held}: {f.games} games at its average "
                f"{f.average:.2f}, {f.points:.2f} points"
            )
        return f"Brought forward whole, {held}"
    how = f"at the stored average {f.average:.2f}" if f.average is not None else "actual games"
    return f"Brought forward from P{f.period}: {f.games} games {how}, {f.points:.2f} points"


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
        mark = _mark(expl, g)
        out.append(
            f"  {g.date or '?'}  {names.get(g.opponent_id, g.opponent_id)}  "
            f"{g.opponent_start:.2f}  {g.counted_as:.2f}  {g.score:g}  {g.points:.2f}{mark}"
        )
    for f in expl.forward:
        out.append(_forward_line(f))
        out.extend(f"  {s.date or '?'}  game {s.game_id}  {s.points:.2f}" for s in f.stored_games)
    out.append(
        f"Calculated {expl.points_total:.2f} / {e.games_counted} = {e.calculated:.4f}; "
        f"junior bonus {e.bonus:g}; unrounded {e.unrounded:.4f}; grade {e.grade}"
    )
    category = e.category.value or "none (not published)"
    out.append(f"Category {category}; games {e.games_latest} / {e.games_counted}")
    return out
