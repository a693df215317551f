"""A slow, literal oracle for one list computation (grading-rules.md G1..G25 and
grading-rules-eras.md G31..G40: the rule sets ecf-2009, ecf-2012 and ecf-2015).

Written game by game with plain loops and dicts, straight from the rules and
independently of ``ecfgrading.engine.compute`` and ``engine.forward``, so that the
vectorised engine can be checked against it. What the later rule sets change (which
list dates they govern, X, how games are counted, the category tables) is written here
from the spec's words, by rule-set name, not read from the engine's ``RuleSet``; the
shared numbers (target, 40-point cap, margin, bonus, floor) and the list calendar (the
periods and half-years of ``ListId``, G32) are taken from the engine. Results are keyed
by player index (position in ``inputs.players``) and hold only players with a graded
game in P0.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from ecfgrading.engine.inputs import RATE_CODES, ListInputs, StoredTotals
from ecfgrading.engine.periods import ListId, age_on
from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, RuleSet
from ecfgrading.engine.types import Category, Rate, ResultCode, StartSource

StoredRow = tuple[date, int, float]  # (date, recording order, points) of a stored game
StoredByPlayer = dict[tuple[int, int], list[StoredRow]]  # (player, period) -> rows

TOLERANCE = 1e-11  # G9: stop iterating when no estimate moves by this much in a sweep
MAX_SWEEPS = 200_000


# What each rule set does, from the spec's words (G31, G35..G40) -------------------------


def rules_of_date(list_id: ListId) -> RuleSet:
    """G31: ecf-2009 up to and including 2011-07, ecf-2012 from 2012-01 to 2014-07,
    ecf-2015 from 2015-01."""
    if (list_id.year, list_id.month) < (2012, 1):
        return ECF_2009
    if list_id.year < 2015:
        return ECF_2012
    return ECF_2015


@dataclass(frozen=True)
class Method:
    """How a rule set turns points into a grade, beyond the shared parameters."""

    x_rates: frozenset[Rate]  # G16: rapid only; G36: both rates; G37: no X
    counting: str  # one of the three below
    with_f: bool  # G39, G40: category F (5 games) below E


NOTIONAL_OR_RECENT = "G14/G15/G18/G19"  # ecf-2009
COUNT_BACK = "G35"  # ecf-2012: the N most recent games of P0, P1 and P2 together
WHOLE_HALF_YEARS = "G37/G38"  # ecf-2015: all of P0, else whole half-years, the last pro rata

METHODS = {
    "ecf-2009": Method(frozenset({Rate.RAPID}), NOTIONAL_OR_RECENT, with_f=False),
    "ecf-2012": Method(frozenset({Rate.STANDARD, Rate.RAPID}), COUNT_BACK, with_f=False),
    "ecf-2015": Method(frozenset(), WHOLE_HALF_YEARS, with_f=True),
}

# G23, G39: (category, min n0, min n0 + n1, min n0 + n1 + n2); the first row that fits.
Row = tuple[Category, int, int, int]
ADULT_TABLE: tuple[Row, ...] = (
    (Category.A, 30, 0, 0),
    (Category.B, 20, 30, 0),
    (Category.C, 10, 0, 30),
    (Category.D, 5, 0, 15),
    (Category.E, 1, 0, 9),
)
JUNIOR_TABLE: tuple[Row, ...] = (
    (Category.A, 30, 0, 0),
    (Category.B, 20, 0, 0),
    (Category.C, 10, 20, 0),
    (Category.D, 5, 0, 15),
    (Category.E, 1, 0, 9),
)
F_ROW: Row = (Category.F, 1, 0, 5)  # G39, G40: ecf-2015, adults and juniors alike


def method_of(rules: RuleSet) -> Method:
    try:
        return METHODS[rules.name]
    except KeyError:
        raise ValueError(f"the reference knows {sorted(METHODS)}, not {rules.name!r}") from None


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
    h0: int  # G16, G36: graded games in H0
    calculated: float  # mean points before the bonus
    bonus: float  # G20
    unrounded: float  # after G20 and G21, before G22
    grade: int  # G22
    category: Category  # G23; NONE when not published
    games_latest: int  # G24: games in P0
    games_counted: int  # G24
    points: dict[int, float]  # G12: game index -> this player's points
    counted: frozenset[int]  # indices of the P0 games whose points are in the grade


@dataclass(frozen=True)
class Game:
    """A graded game of P0 (G1, G3), with player1's score."""

    index: int
    player1: int
    player2: int
    score1: float
    day: date
    order: int  # recording order (G15, G35): game ids grow as games are recorded


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


def reference_compute(inputs: ListInputs, rules: RuleSet | None = None) -> dict[int, RefResult]:
    """Compute a whole list the slow way: starting grades, points, grades, categories;
    under ``rules`` or, by default, the rule set of the list's date (G31)."""
    rules = rules or rules_of_date(inputs.list_id)
    method_of(rules)  # fail early on a rule set the reference does not know
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
        table.ids.tolist(),
        table.player1.tolist(),
        table.player2.tolist(),
        table.result.tolist(),
        table.date.tolist(),
        table.rate.tolist(),
        strict=True,
    )
    games = []
    for index, (game_id, player1, player2, result, day, rate) in enumerate(rows):
        code = ResultCode(result)
        if code.graded and rate == rate_code and day is not None and day in p0:
            games.append(Game(index, player1, player2, code.score1, day, game_id))
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


# G14..G25, G35..G41: from points to a published line -------------------------------------


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
    method = method_of(rules)
    junior = age is not None
    n0 = len(own)
    n1, n2 = int(inputs.history.p1.n[p]), int(inputs.history.p2.n[p])
    h0 = inputs.list_id.h0()
    in_h0 = [side.game.index for side in own if side.game.day in h0]
    is_x = inputs.rate in method.x_rates and len(in_h0) >= rules.x_min_games
    if is_x:  # G16, G36: the H0 games only
        total, counted = sum(points[k] for k in in_h0), len(in_h0)
        counted_games = frozenset(in_h0)
    elif method.counting == COUNT_BACK:
        total, counted, counted_games = count_back(p, rules, junior, own, points, stored)
    elif method.counting == WHOLE_HALF_YEARS:
        total, counted = whole_half_years(p, inputs, rules, junior, points, stored)
        counted_games = frozenset(points)
    else:
        total, counted = grade_total(p, inputs, rules, junior, points, stored)
        counted_games = frozenset(points)
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
        h0=len(in_h0),
        calculated=calculated,
        bonus=bonus,
        unrounded=unrounded,
        grade=math.floor(unrounded + 0.5),  # G22
        category=Category.X if is_x else category(junior, n0, n1, n2, rules),
        games_latest=n0,  # G24, G41
        games_counted=counted,
        points=points,
        counted=counted_games,
    )


def grade_total(
    p: int,
    inputs: ListInputs,
    rules: RuleSet,
    junior: bool,
    points: dict[int, float],
    stored: StoredByPlayer,
) -> tuple[float, int]:
    """ecf-2009, G14, G15, G18, G19: P0 points plus what is brought forward up to the
    target."""
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


def count_back(
    p: int,
    rules: RuleSet,
    junior: bool,
    own: list[Side],
    points: dict[int, float],
    stored: StoredByPlayer,
) -> tuple[float, int, frozenset[int]]:
    """ecf-2012, G35: the mean of the N most recent games of P0, P1 and P2 together (all
    of them if fewer), also when P0 alone holds N or more. P0 games carry this list's
    points, P1 and P2 games their stored points. Most recent: latest date first; on the
    same date the one recorded later first. Returns the total, the games counted and the
    P0 games among them."""
    games: list[tuple[date, int, float, int | None]] = []
    for side in own:
        game = side.game
        games.append((game.day, game.order, points[game.index], game.index))
    for k in range(1, rules.prior_periods + 1):
        for day, order, stored_points in stored.get((p, k), []):
            games.append((day, order, stored_points, None))
    games.sort(key=lambda game: (game[0], game[1]), reverse=True)
    taken = games[: rules.target(junior)]
    total = sum(game[2] for game in taken)
    p0_games = frozenset(game[3] for game in taken if game[3] is not None)
    return total, len(taken), p0_games


def whole_half_years(
    p: int,
    inputs: ListInputs,
    rules: RuleSet,
    junior: bool,
    points: dict[int, float],
    stored: StoredByPlayer,
) -> tuple[float, int]:
    """ecf-2015, G37: with N or more P0 games, all of them. G38: otherwise all P0 games,
    then the half-years H2, H3, H4, H5 (latest first), skipping those with no stored
    game: a half-year with no more games than still needed is taken whole (its games and
    stored total); the first with more gives only the games still needed, each at its
    average (T_j / n_j), and the count stops."""
    total, counted = sum(points.values()), len(points)
    need = rules.target(junior) - counted
    if need <= 0:  # G37
        return total, counted
    rows = [row for k in range(1, rules.prior_periods + 1) for row in stored.get((p, k), [])]
    half_years = inputs.list_id.half_years()
    for j in range(2, 2 * rules.prior_periods + 2):  # H2 .. H5
        dated = [row[2] for row in rows if row[0] in half_years[j]]  # G34: by date
        if not dated:
            continue
        n_j, t_j = len(dated), sum(dated)
        if n_j <= need:  # whole
            total += t_j
            counted += n_j
            need -= n_j
        else:  # pro rata: ``need`` notional games at the half-year's average
            total += need * (t_j / n_j)
            counted += need
            need = 0
        if need == 0:
            break
    return total, counted


def category(junior: bool, n0: int, n1: int, n2: int, rules: RuleSet) -> Category:
    """G23, G39: the first row of the rule set's table that fits; X is decided before
    (G16, G36). F only under ecf-2015 (G40)."""
    table = JUNIOR_TABLE if junior else ADULT_TABLE
    if method_of(rules).with_f:
        table = (*table, F_ROW)
    for name, min_n0, min_n01, min_n012 in table:
        if n0 >= min_n0 and n0 + n1 >= min_n01 and n0 + n1 + n2 >= min_n012:
            return name
    return Category.NONE
