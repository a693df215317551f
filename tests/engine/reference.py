"""A slow, literal oracle for one list computation (grading-rules.md G1..G25).

Written game by game with plain loops and dicts, straight from the rules and
independently of ``ecfgrading.engine.compute``, so that the vectorised engine can
be checked against it. Results are keyed by player index (position in
``inputs.players``) and hold only players with a graded game in P0.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from ecfgrading.engine.inputs import RATE_CODES, ListInputs, StoredTotals
from ecfgrading.engine.periods import age_on
from ecfgrading.engine.rules import ECF_2009, CategoryRule, RuleSet
from ecfgrading.engine.types import Category, Rate, ResultCode, StartSource

StoredRow = tuple[date, int, float]  # (date, recording order, points) of a stored game
StoredByPlayer = dict[tuple[int, int], list[StoredRow]]  # (player, period) -> rows

TOLERANCE = 1e-11  # G9: stop iterating when no estimate moves by this much in a sweep
MAX_SWEEPS = 200_000


class NotConvergedError(RuntimeError):
    """The estimation iteration (G9, G11) did not settle within MAX_SWEEPS."""


@dataclass(frozen=True)
class RefResult:
    """One player's line of the list, with what the rules say it is built from."""

    start: float  # G4..G11: starting grade S
    source: StartSource
    unanchored: bool  # G11
    junior: bool
    age: int | None  # G25: junior age on the age date, None for adults
    n0: int
    n1: int  # G17: stored
    n2: int
    h0: int  # G16: graded games in H0 (rapid only, else 0)
    calculated: float  # mean points before the bonus
    bonus: float  # G20
    unrounded: float  # after G20 and G21, before G22
    grade: int  # G22
    category: Category  # G23; NONE when not published
    games_latest: int  # G24: games in P0
    games_counted: int  # G24
    points: dict[int, float]  # G12: game index -> this player's points


@dataclass(frozen=True)
class Game:
    """A graded game of P0 (G1, G3), with player1's score."""

    index: int
    player1: int
    player2: int
    score1: float
    day: date


@dataclass(frozen=True)
class Side:
    """A game seen from one player's side."""

    game: Game
    opponent: int
    score: float


@dataclass(frozen=True)
class Start:
    """A starting grade with its source (G4..G11)."""

    grade: float
    source: StartSource
    unanchored: bool


@dataclass
class Equations:
    """G8..G10 for the players to estimate, split into fixed and unknown parts."""

    known_sum: dict[int, float]  # values against fixed opponents plus G10 history
    known_count: dict[int, int]
    links: dict[int, list[tuple[int, float]]]  # (opponent in U, 100*s - 50)

    def weight(self, u: int) -> int:
        return self.known_count[u] + len(self.links[u])

    def mean(self, u: int, estimate: dict[int, float]) -> float:
        total = self.known_sum[u] + sum(estimate[o] + shift for o, shift in self.links[u])
        return total / self.weight(u)


def reference_compute(inputs: ListInputs, rules: RuleSet = ECF_2009) -> dict[int, RefResult]:
    """Compute a whole list the slow way: starting grades, points, grades, categories."""
    sides = sides_by_player(graded_games(inputs))
    ages = junior_ages(inputs, rules)
    starts, sources, unanchored = starting_grades(inputs, rules, sides, ages)
    points = game_points(sides, starts, rules)
    stored = stored_games_by_player(inputs)
    results = {}
    for p in sorted(sides):
        start = Start(starts[p], sources[p], p in unanchored)
        results[p] = finish(p, inputs, rules, start, sides[p], points[p], ages.get(p), stored)
    return results


# G1, G3: which games count -------------------------------------------------------------


def graded_games(inputs: ListInputs) -> list[Game]:
    """Graded results of this list's rate dated inside P0."""
    p0 = inputs.list_id.period(0)
    rate_code = RATE_CODES[inputs.rate]
    table = inputs.games
    rows = zip(
        table.player1.tolist(),
        table.player2.tolist(),
        table.result.tolist(),
        table.date.tolist(),
        table.rate.tolist(),
        strict=True,
    )
    games = []
    for index, (player1, player2, result, day, rate) in enumerate(rows):
        code = ResultCode(result)
        if code.graded and rate == rate_code and day is not None and day in p0:
            games.append(Game(index, player1, player2, code.score1, day))
    return games


def sides_by_player(games: list[Game]) -> dict[int, list[Side]]:
    sides: dict[int, list[Side]] = defaultdict(list)
    for game in games:
        sides[game.player1].append(Side(game, game.player2, game.score1))
        sides[game.player2].append(Side(game, game.player1, 1.0 - game.score1))
    return dict(sides)


def junior_ages(inputs: ListInputs, rules: RuleSet) -> dict[int, int]:
    """Words: juniors are 17 or less on the age date; no birth date, no junior."""
    age_date = inputs.list_id.age_date(rules)
    ages = {}
    for p, birth in enumerate(inputs.players.birth.tolist()):
        if birth is not None:
            age = age_on(birth, age_date)
            if age <= rules.junior_max_age:
                ages[p] = age
    return ages


# G4..G11: starting grades ---------------------------------------------------------------


def fixed_start(inputs: ListInputs, p: int, junior: bool) -> tuple[float, StartSource] | None:
    """G4, G5, G6 in order; None means the player is estimated (G7)."""
    players = inputs.players
    previous = float(players.previous[p])
    other = float(players.other_rate[p])
    assigned = float(players.assigned[p])
    if not junior and previous > 0:
        return previous, StartSource.PREVIOUS
    if not junior and other > 0:
        return other, StartSource.OTHER_RATE
    if not math.isnan(assigned):
        return assigned, StartSource.ASSIGNED
    return None


def starting_grades(
    inputs: ListInputs, rules: RuleSet, sides: dict[int, list[Side]], ages: dict[int, int]
) -> tuple[dict[int, float], dict[int, StartSource], set[int]]:
    starts: dict[int, float] = {}
    sources: dict[int, StartSource] = {}
    for p in sides:
        fixed = fixed_start(inputs, p, p in ages)
        if fixed is not None:
            starts[p], sources[p] = fixed
        else:
            sources[p] = StartSource.ESTIMATED
    estimated = [p for p in sides if p not in starts]
    equations = estimation_equations(inputs, rules, sides, starts, estimated, ages)
    estimates, unanchored = estimate(equations, estimated, rules)
    starts.update(estimates)
    return starts, sources, unanchored


def estimation_equations(
    inputs: ListInputs,
    rules: RuleSet,
    sides: dict[int, list[Side]],
    starts: dict[int, float],
    estimated: list[int],
    ages: dict[int, int],
) -> Equations:
    """G8..G10: v = X_o + 100*s - 50, no 40-point rule; non-juniors add P1/P2 totals."""
    margin = rules.result_margin
    equations = Equations({}, {}, {})
    for u in estimated:
        known_sum, known_count, links = 0.0, 0, []
        for side in sides[u]:
            shift = 2 * margin * side.score - margin
            if side.opponent in starts:
                known_sum += starts[side.opponent] + shift
                known_count += 1
            else:
                links.append((side.opponent, shift))
        if u not in ages:  # G10
            for totals in prior_totals(inputs, rules):
                known_sum += float(totals.total[u])
                known_count += int(totals.n[u])
        equations.known_sum[u] = known_sum
        equations.known_count[u] = known_count
        equations.links[u] = links
    return equations


def prior_totals(inputs: ListInputs, rules: RuleSet) -> list[StoredTotals]:
    """P1 then P2 (G10, G14): at most ``prior_periods`` of them."""
    return [inputs.history.p1, inputs.history.p2][: rules.prior_periods]


def estimate(
    equations: Equations, estimated: list[int], rules: RuleSet
) -> tuple[dict[int, float], set[int]]:
    """G8 then G9 for anchored players, G11 for closed pools."""
    estimates = {u: stage_one(equations, u, rules) for u in estimated}
    anchored: list[int] = []
    unanchored: set[int] = set()
    for group in connected_groups(equations, estimated):
        if any(equations.known_count[u] > 0 for u in group):
            anchored.extend(group)
        else:
            solve_closed_pool(equations, group, estimates, rules)
            unanchored.update(group)
    solve_anchored(equations, sorted(anchored), estimates, rules)
    return estimates, unanchored


def stage_one(equations: Equations, u: int, rules: RuleSet) -> float:
    """G8: mean value against fixed opponents (and G10 history); only a starting point."""
    if equations.known_count[u] == 0:
        return rules.closed_pool_grade
    return equations.known_sum[u] / equations.known_count[u]


def connected_groups(equations: Equations, estimated: list[int]) -> list[list[int]]:
    """Union-find over the games between players being estimated (G11)."""
    parent = {u: u for u in estimated}

    def root(u: int) -> int:
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    for u in estimated:
        for o, _ in equations.links[u]:
            parent[root(u)] = root(o)
    groups: dict[int, list[int]] = defaultdict(list)
    for u in sorted(estimated):
        groups[root(u)].append(u)
    return list(groups.values())


def solve_anchored(
    equations: Equations, players: list[int], estimates: dict[int, float], rules: RuleSet
) -> None:
    """G9: Gauss-Seidel sweeps of e_u = max(0, mean(v)) until nothing moves."""
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for u in players:
            new = max(rules.floor, equations.mean(u, estimates))
            change = max(change, abs(new - estimates[u]))
            estimates[u] = new
        if change < TOLERANCE:
            return
    raise NotConvergedError(f"G9 estimation did not converge in {MAX_SWEEPS} sweeps")


def solve_closed_pool(
    equations: Equations, group: list[int], estimates: dict[int, float], rules: RuleSet
) -> None:
    """G11: no floor, re-centred so the game-weighted mean is closed_pool_grade; then floor."""
    weight = sum(equations.weight(u) for u in group)
    for _ in range(MAX_SWEEPS):
        before = {u: estimates[u] for u in group}
        for u in group:
            estimates[u] = equations.mean(u, estimates)
        mean = sum(equations.weight(u) * estimates[u] for u in group) / weight
        for u in group:
            estimates[u] += rules.closed_pool_grade - mean
        if max(abs(estimates[u] - before[u]) for u in group) < TOLERANCE:
            for u in group:
                estimates[u] = max(rules.floor, estimates[u])
            return
    raise NotConvergedError(f"G11 closed pool did not converge in {MAX_SWEEPS} sweeps")


# G12, G13: points per game ----------------------------------------------------------------


def game_points(
    sides: dict[int, list[Side]], starts: dict[int, float], rules: RuleSet
) -> dict[int, dict[int, float]]:
    """G12 from each player's own side, on starting grades only (G13)."""
    points: dict[int, dict[int, float]] = {}
    for p, own in sides.items():
        points[p] = {}
        for side in own:
            value = clamp(starts[side.opponent], starts[p] - rules.cap, starts[p] + rules.cap)
            points[p][side.game.index] = value + rules.result_margin * (2 * side.score - 1)
    return points


def clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


# G14..G25: from points to a published line -----------------------------------------------


def stored_games_by_player(inputs: ListInputs) -> StoredByPlayer:
    """G15: stored games per (player, period), latest date first, then latest recorded."""
    stored = inputs.history.games
    rows: StoredByPlayer = defaultdict(list)
    for player, period, day, order, points in zip(
        stored.player.tolist(),
        stored.period.tolist(),
        stored.date.tolist(),
        stored.order.tolist(),
        stored.points.tolist(),
        strict=True,
    ):
        rows[(player, period)].append((day, order, points))
    for games in rows.values():
        games.sort(key=lambda row: (row[0], row[1]), reverse=True)
    return dict(rows)


def finish(
    p: int,
    inputs: ListInputs,
    rules: RuleSet,
    start: Start,
    own: list[Side],
    points: dict[int, float],
    age: int | None,
    stored: StoredByPlayer,
) -> RefResult:
    junior = age is not None
    n0 = len(own)
    n1, n2 = int(inputs.history.p1.n[p]), int(inputs.history.p2.n[p])
    h0_points = half_year_points(inputs, own, points)
    is_x = inputs.rate is Rate.RAPID and len(h0_points) >= rules.x_min_games
    if is_x:  # G16
        total, counted = sum(h0_points), len(h0_points)
    else:
        total, counted = grade_total(p, inputs, rules, junior, points, stored)
    calculated = total / counted
    bonus = rules.bonus_for_age(age) if age is not None else 0.0  # G20
    unrounded = max(rules.floor, calculated + bonus)  # G21
    return RefResult(
        start=start.grade,
        source=start.source,
        unanchored=start.unanchored,
        junior=junior,
        age=age,
        n0=n0,
        n1=n1,
        n2=n2,
        h0=len(h0_points),
        calculated=calculated,
        bonus=bonus,
        unrounded=unrounded,
        grade=math.floor(unrounded + 0.5),  # G22
        category=Category.X if is_x else category(junior, n0, n1, n2, rules),
        games_latest=n0,  # G24
        games_counted=counted,
        points=points,
    )


def half_year_points(inputs: ListInputs, own: list[Side], points: dict[int, float]) -> list[float]:
    """G16: points of the graded games in H0 (rapid only)."""
    if inputs.rate is not Rate.RAPID:
        return []
    h0 = inputs.list_id.h0()
    return [points[side.game.index] for side in own if side.game.day in h0]


def grade_total(
    p: int,
    inputs: ListInputs,
    rules: RuleSet,
    junior: bool,
    points: dict[int, float],
    stored: StoredByPlayer,
) -> tuple[float, int]:
    """G14, G15, G18, G19: P0 points plus what is brought forward up to the target."""
    total, counted = sum(points.values()), len(points)
    needed = rules.target(junior) - counted
    for k, totals in enumerate(prior_totals(inputs, rules), start=1):
        if needed <= 0:
            break
        if inputs.rate is Rate.RAPID:  # G15: the most recent actual games
            taken = [row[2] for row in stored.get((p, k), [])[:needed]]
            total += sum(taken)
            m = len(taken)
        else:  # G14: notional games at the period's stored average
            m = min(needed, int(totals.n[p]))
            if m > 0:
                total += m * (float(totals.total[p]) / int(totals.n[p]))
        counted += m
        needed -= m
    return total, counted


def category(junior: bool, n0: int, n1: int, n2: int, rules: RuleSet) -> Category:
    """G23: the first row of the table that fits; X is decided before (G16)."""
    table: tuple[CategoryRule, ...] = rules.junior_categories if junior else rules.adult_categories
    for row in table:
        if n0 >= row.min_n0 and n0 + n1 >= row.min_n01 and n0 + n1 + n2 >= row.min_n012:
            return Category(row.category)
    return Category.NONE
