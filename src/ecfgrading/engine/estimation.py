"""Estimated starting grades (G8..G11) as the exact fixed point of the seeds' iteration.

For each player u to estimate, G9 says ``e_u = max(0, mean(v))`` over his games, where a
game against o is worth ``X_o + 100 s - 50`` (no 40-point rule) and G10 adds his stored
history. Multiplying by the number of games gives a sparse linear system
``M e = b`` with ``M = D - A`` (D: games and history counted, A: games between players
being estimated). M is a symmetric M-matrix, so the floored problem is a linear
complementarity problem with a unique solution for every anchored component, found
below by an active-set method that only ever adds players to the free set
(Chandrasekaran's algorithm); a closed pool (G11) is solved with its mean pinned.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import spsolve

from ecfgrading.engine.inputs import BoolArray, FloatArray, IntArray
from ecfgrading.engine.rules import RuleSet


@dataclass(frozen=True)
class GameSides:
    """Every graded P0 game seen from each side: ``me`` scored ``score`` against ``opp``."""

    me: IntArray
    opp: IntArray
    score: FloatArray

    @classmethod
    def of(cls, player1: IntArray, player2: IntArray, score1: FloatArray) -> GameSides:
        return cls(
            np.concatenate([player1, player2]),
            np.concatenate([player2, player1]),
            np.concatenate([score1, 1.0 - score1]),
        )


@dataclass(frozen=True)
class Estimates:
    """Estimated starting grades for the players in U (NaN elsewhere) and G11 flags."""

    values: FloatArray
    unanchored: BoolArray


@dataclass(frozen=True)
class _System:
    """``M e = b`` over U, in U's local numbering."""

    matrix: sp.csr_matrix
    rhs: FloatArray
    weight: FloatArray  # games (and G10 history) counted: the diagonal of M
    links: sp.csr_matrix  # games between players in U


def estimate(
    fixed: FloatArray,
    to_estimate: BoolArray,
    sides: GameSides,
    history_n: FloatArray,
    history_total: FloatArray,
    rules: RuleSet,
) -> Estimates:
    """G8..G11 for every player flagged ``to_estimate``; ``fixed`` holds the others' S.

    ``history_n``/``history_total`` are the stored P1+P2 games and points that G10
    counts (zero for players it does not apply to).
    """
    members = np.flatnonzero(to_estimate)
    values = np.full(fixed.shape[0], np.nan)
    unanchored = np.zeros(fixed.shape[0], dtype=bool)
    if members.size == 0:
        return Estimates(values, unanchored)
    system = _build_system(fixed, to_estimate, members, sides, history_n, history_total, rules)
    closed = _closed_pools(system)
    local = np.zeros(members.size)
    if closed.any():
        local[closed] = _solve_closed_pools(system, closed, rules)
    if (~closed).any():
        local[~closed] = _solve_floored(system, np.flatnonzero(~closed), rules)
    values[members] = local
    unanchored[members[closed]] = True
    return Estimates(values, unanchored)


def _build_system(
    fixed: FloatArray,
    to_estimate: BoolArray,
    members: IntArray,
    sides: GameSides,
    history_n: FloatArray,
    history_total: FloatArray,
    rules: RuleSet,
) -> _System:
    size = members.size
    local = np.full(fixed.shape[0], -1, dtype=np.int64)
    local[members] = np.arange(size)
    mine = to_estimate[sides.me]
    me, opp, score = sides.me[mine], sides.opp[mine], sides.score[mine]
    opp_fixed = ~to_estimate[opp]
    margin = rules.result_margin * (2.0 * score - 1.0)  # G8: X_o + 100 s - 50
    value = margin + np.where(opp_fixed, np.nan_to_num(fixed[opp]), 0.0)
    weight = np.bincount(local[me], minlength=size) + history_n[members]
    rhs = np.bincount(local[me], weights=value, minlength=size) + history_total[members]
    rows, cols = local[me[~opp_fixed]], local[opp[~opp_fixed]]
    links = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(size, size))
    matrix = (sp.diags(weight.astype(np.float64)) - links).tocsr()
    return _System(matrix, rhs, weight.astype(np.float64), links)


def _closed_pools(system: _System) -> BoolArray:
    """G11: components of U whose games and history touch no fixed starting grade."""
    count, labels = connected_components(system.links, directed=False)
    anchor = system.weight - np.asarray(system.links.sum(axis=1)).ravel()
    anchored = np.bincount(labels, weights=anchor, minlength=count) > 0.5
    return np.asarray(~anchored[labels])


def _solve_closed_pools(system: _System, closed: BoolArray, rules: RuleSet) -> FloatArray:
    """G11: no floor, game-weighted mean fixed at ``closed_pool_grade``, then floor."""
    index = np.flatnonzero(closed)
    matrix = system.matrix[index][:, index]
    rhs, weight = system.rhs[index], system.weight[index]
    count, labels = connected_components(system.links[index][:, index], directed=False)
    pinned = np.zeros(index.size, dtype=bool)
    pinned[np.unique(labels, return_index=True)[1]] = True
    keep = sp.diags((~pinned).astype(np.float64))
    pinned_matrix = (keep @ matrix + sp.diags(pinned.astype(np.float64))).tocsc()
    solution = np.atleast_1d(spsolve(pinned_matrix, np.where(pinned, 0.0, rhs)))
    mean = np.bincount(labels, weights=weight * solution, minlength=count) / np.bincount(
        labels, weights=weight, minlength=count
    )
    shifted = solution - mean[labels] + rules.closed_pool_grade
    return np.asarray(np.maximum(shifted, rules.floor))


def _solve_floored(system: _System, index: IntArray, rules: RuleSet) -> FloatArray:
    """G9 with its floor: the linear complementarity solution on anchored components.

    The unfloored solution's positive set is a valid start: fixing the rest at the
    floor only raises their neighbours (M is an M-matrix). Players whose floored
    value would now be positive join the free set; each step raises every value,
    so the set only grows and the loop ends.
    """
    matrix = system.matrix[index][:, index].tocsr()
    rhs = system.rhs[index]
    values = _solve_subset(matrix, rhs, np.ones(index.size, dtype=bool), None, rules)
    free = values > rules.floor
    if free.all():
        return values
    while True:
        values = _solve_subset(matrix, rhs, free, values, rules)
        slack = matrix @ values - rhs  # >= 0 where the floor is right
        joining = ~free & (slack < -1e-9 * (1.0 + np.abs(rhs)))
        if not joining.any():
            return values
        free |= joining


def _solve_subset(
    matrix: sp.csr_matrix,
    rhs: FloatArray,
    free: BoolArray,
    guess: FloatArray | None,
    rules: RuleSet,
) -> FloatArray:
    """Solve the rows in ``free`` with every other value held at the floor."""
    values = np.full(rhs.size, rules.floor)
    index = np.flatnonzero(free)
    if index.size == 0:
        return values
    held = matrix[index][:, ~free] @ values[~free] if rules.floor else 0.0
    sub = matrix[index][:, index].tocsr()
    start = None if guess is None else np.maximum(guess[index], rules.floor)
    values[index] = _linear_solve(sub, rhs[index] - held, start, rules)
    return values


# Below this many unknowns a sparse LU is fastest and exact; above it, its fill-in on a
# federation's web of games can cost seconds, while conjugate gradients (M is symmetric
# positive definite on an anchored component) take tens of milliseconds.
DIRECT_LIMIT = 3000
MAX_EQUATION_ERROR = 1e-6  # grade points: CG must satisfy every G9 equation this well


def _linear_solve(
    matrix: sp.csr_matrix, rhs: FloatArray, guess: FloatArray | None, rules: RuleSet
) -> FloatArray:
    if rhs.size > DIRECT_LIMIT:
        diagonal = matrix.diagonal()
        start = np.zeros(rhs.size) if guess is None else guess
        solution = _conjugate_gradients(matrix, rhs, start, 1.0 / diagonal, rules)
        error = np.abs(matrix @ solution - rhs) / diagonal
        if error.max() <= MAX_EQUATION_ERROR:
            return solution
    return np.atleast_1d(spsolve(matrix.tocsc(), rhs)).astype(np.float64)


def _conjugate_gradients(
    matrix: sp.csr_matrix,
    rhs: FloatArray,
    start: FloatArray,
    inverse_diagonal: FloatArray,
    rules: RuleSet,
) -> FloatArray:
    """Jacobi-preconditioned CG, written out so that no BLAS call is made.

    A BLAS dot product spreads 40,000 numbers over threads; on a busy two-core machine
    that costs milliseconds a call, where an elementwise product and a sum cost 0.1 ms.
    """
    x = start.copy()
    r = rhs - matrix @ x
    z = r * inverse_diagonal
    p = z.copy()
    rz = float((r * z).sum())
    stop = (rules.estimation_tolerance * 1e-3) ** 2 * float((rhs * rhs).sum())
    for _ in range(20 * int(np.sqrt(rhs.size)) + 500):
        if float((r * r).sum()) <= stop:
            break
        q = matrix @ p
        alpha = rz / float((p * q).sum())
        x += alpha * p
        r -= alpha * q
        z = r * inverse_diagonal
        rz, previous = float((r * z).sum()), rz
        p = z + (rz / previous) * p
    return x


def stage_one(
    fixed: FloatArray,
    to_estimate: BoolArray,
    sides: GameSides,
    history_n: FloatArray,
    history_total: FloatArray,
    rules: RuleSet,
) -> FloatArray:
    """G8: the mean estimation value of games against fixed players (and G10 history).

    Only a starting point for G9 (shown in explanations); NaN where nothing is fixed.
    """
    mine = to_estimate[sides.me] & ~to_estimate[sides.opp]
    me, opp, score = sides.me[mine], sides.opp[mine], sides.score[mine]
    value = fixed[opp] + rules.result_margin * (2.0 * score - 1.0)
    size = fixed.shape[0]
    count = np.bincount(me, minlength=size) + history_n
    total = np.bincount(me, weights=value, minlength=size) + history_total
    first = np.divide(total, count, out=np.full(size, np.nan), where=count > 0)
    return np.asarray(np.where(to_estimate, first, np.nan))
