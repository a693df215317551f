"""The statistical check of a list's integrity (grading help: checking, item e)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from django.db.models import Count

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.rules import ECF_2009, RuleSet, rule_set
from ecfgrading.engine.types import Category, Rate, ResultCode
from ecfgrading.lookups.reports.common import TeamReport, fmt, published_grades, with_previous
from ecfgrading.lookups.reports.grade_stats import (
    AgreementBand,
    AgreementParams,
    Distribution,
    FloatArray,
    HistogramBand,
    IntArray,
    agreement,
    distribution,
    histogram,
)
from ecfgrading.registry.models import Game, ListEntry, ListVersion, StoredGamePoints

# Published entries of lists loaded from old files may carry no category.
UNCATEGORISED = "uncategorised"
UNPUBLISHED = "unpublished"


@dataclass(frozen=True)
class IntegrityReport(TeamReport):
    list_id: str
    rate: str
    version: str
    previous_version: str | None
    current: Distribution
    previous: Distribution
    histogram: tuple[HistogramBand, ...]
    in_both: int  # players published in both lists
    mean_change: float | None  # their mean grade change, this list minus the previous
    categories: dict[str, int]  # X, A..E, uncategorised, unpublished
    games: int  # games in the agreement check
    bands: tuple[AgreementBand, ...]
    params: AgreementParams
    suspect: bool

    def to_text(self) -> str:
        return "\n".join(_text_lines(self))


def integrity(
    list_id: str,
    rate: Rate,
    *,
    version: str | None = None,
    params: AgreementParams | None = None,
    rules: RuleSet = ECF_2009,
) -> IntegrityReport:
    """Grades against the previous list, categories, and results against grades.

    The agreement check takes every graded game of this version's P0 (the games its
    stored points refer to, G17) whose two players are both published in it, and
    compares the stronger player's score with the score G12 expects of him
    (``grade_stats.expected_score``), band by band of the grade difference.
    """
    rate, params = Rate(rate), params or AgreementParams()
    found = with_previous(list_id, rate, version)
    now, before = published_grades(found.current), published_grades(found.previous)
    common = sorted(now.keys() & before.keys())
    changes = np.array([now[p] - before[p] for p in common], dtype=np.float64)
    bands = agreement(*_games(found.current, now), rules, params)
    return IntegrityReport(
        list_id=str(list_id),
        rate=rate.value,
        version=found.label,
        previous_version=found.previous_label,
        current=distribution(_array(now)),
        previous=distribution(_array(before)),
        histogram=tuple(histogram(_array(now), _array(before))),
        in_both=len(common),
        mean_change=float(changes.mean()) if changes.size else None,
        categories=_categories(found.current),
        games=sum(band.games for band in bands),
        bands=tuple(bands),
        params=params,
        suspect=any(band.suspect for band in bands),
    )


def _array(grades: dict[int, int]) -> FloatArray:
    return np.fromiter(grades.values(), dtype=np.float64, count=len(grades))


def _categories(version: ListVersion) -> dict[str, int]:
    counts = dict.fromkeys((*_rule_set_categories(version), UNCATEGORISED, UNPUBLISHED), 0)
    rows = ListEntry.objects.filter(version=version).values_list("published", "category")
    for published, category, n in rows.order_by().annotate(n=Count("id")):
        key = (category or UNCATEGORISED) if published else UNPUBLISHED
        counts[key] += n
    return counts


def _rule_set_categories(version: ListVersion) -> tuple[str, ...]:
    """The categories the version's rule set can give (G23, G39): X where it has X, then
    its table (F under ecf-2015)."""
    try:
        rules = rule_set(version.rules_name)
    except ValueError:  # a name no longer known: the rule set of the list's date
        rules = rules_for(version.grading_list.list)
    x = (Category.X.value,) if rules.x_rates else ()
    return (*x, *(row.category for row in rules.adult_categories))


def _games(
    version: ListVersion, grades: dict[int, int]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Both players' grades and player 1's score, for games whose players are published."""
    referenced = StoredGamePoints.objects.filter(version=version, period=0, game__isnull=False)
    # An uncorrelated IN, read once: stored points have no index on the game (it would
    # cost 400,000 entries a list), so a correlated EXISTS could scan them once per game.
    rows = Game.objects.filter(
        pk__in=referenced.values("game_id"),
        graded=True,
        player1__isnull=False,
        player2__isnull=False,
    ).values_list("player1_id", "player2_id", "result")
    lookup = _lookup(grades)
    # One plain fetch: a server-side cursor (iterator) makes PostgreSQL plan for the first
    # rows and probe the stored points once per game, minutes instead of a second.
    p1, p2, score1 = _columns(rows.order_by())
    g1, g2 = _grade_of(lookup, p1), _grade_of(lookup, p2)
    both = ~np.isnan(g1) & ~np.isnan(g2)
    return g1[both], g2[both], score1[both]


def _columns(rows: Iterable[tuple[int, int, str]]) -> tuple[IntArray, IntArray, FloatArray]:
    scores = {code.text: code.score1 for code in ResultCode}
    p1: list[int] = []
    p2: list[int] = []
    s1: list[float] = []
    for first, second, result in rows:
        p1.append(first)
        p2.append(second)
        s1.append(scores[result])
    return np.array(p1, dtype=np.int64), np.array(p2, dtype=np.int64), np.array(s1)


def _lookup(grades: dict[int, int]) -> FloatArray:
    """A grade per player id, NaN for players not published: one array, no dict per game."""
    size = max(grades, default=-1) + 1
    lookup = np.full(size, np.nan)
    lookup[np.fromiter(grades.keys(), dtype=np.int64)] = np.fromiter(grades.values(), float)
    return lookup


def _grade_of(lookup: FloatArray, ids: IntArray) -> FloatArray:
    inside = ids < lookup.size
    found = np.full(ids.shape, np.nan)
    found[inside] = lookup[ids[inside]]
    return found


def _text_lines(report: IntegrityReport) -> list[str]:
    lines = [f"Integrity of {report.version}"]
    lines += _distribution_lines(report)
    counts = ", ".join(f"{key} {n}" for key, n in report.categories.items())
    lines.append(f"  categories: {counts}")
    lines += _agreement_lines(report)
    return lines


def _distribution_lines(report: IntegrityReport) -> list[str]:
    lines = []
    for title, d in (("this list", report.current), ("previous", report.previous)):
        lines.append(
            f"  {title}: {d.count} published, mean {fmt(d.mean)}, median {fmt(d.median)}, "
            f"standard deviation {fmt(d.std)}"
        )
    lines.append(f"  previous list: {report.previous_version or 'none'}")
    lines.append(f"  in both: {report.in_both}, mean change {fmt(report.mean_change, 2)}")
    lines.append("  grades    this list  previous")
    lines += [
        f"  {b.low:3d}-{b.low + 9:<3d}  {b.current:9d}  {b.previous:8d}" for b in report.histogram
    ]
    return lines


def _agreement_lines(report: IntegrityReport) -> list[str]:
    p = report.params
    lines = [
        f"  results against grades: {report.games} games "
        f"(suspect when a band of {p.min_games}+ games is off by more than {p.tolerance})",
        "  |d|      games  expected  actual  difference",
    ]
    for b in report.bands:
        span = f"{b.low}+" if b.high is None else f"{b.low}-{b.high}"
        mark = "  SUSPECT" if b.suspect else ""
        lines.append(
            f"  {span:<7} {b.games:6d}  {fmt(b.expected, 3):>8}  {fmt(b.actual, 3):>6}  "
            f"{fmt(b.difference, 3):>10}{mark}"
        )
    lines.append(f"  verdict: {'SUSPECT' if report.suspect else 'consistent'}")
    return lines
