"""The federation of ``eras_federation`` graded again by the reference alone.

Every list from 2010-01 to 2016-07 is computed in order by ``reference_compute``
(tests/engine/reference.py) from ``ListInputs`` built here, from the generated people
and games only: games of the list's rate dated in its P0 (G3, G32), previous and
other-rate grades (G4, G5, G33) and stored points of P1 and P2 (G17, G34) taken from
this replay's own earlier lists (the starting list's grades for 2009-07, where nothing
is stored), dates of birth as the files give them, no assigned grades. Nothing is read
from a database or from ``ecfgrading.lookups``; the list calendar of G31..G34 is written
here from the spec's words, and a test holds it equal to ``ListId``'s.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

import numpy as np

from ecfgrading.engine.inputs import (
    RATE_CODES,
    GameTable,
    History,
    ListInputs,
    PlayerTable,
    StoredGames,
    StoredTotals,
)
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Category, Rate, ResultCode
from tests.e2e.eras_federation import START_LIST_ID, EraFederation, Game
from tests.engine.reference import RefResult, reference_compute

FIRST_LIST = ListId(2010, 1)
LAST_LIST = ListId(2016, 7)
HALF_YEARLY_FROM = ListId(2012, 1)  # G31: the first January standard list
TRANSITION = (date(2011, 6, 1), date(2011, 12, 31))  # G32: the 7-month half-year

Span = tuple[date, date]  # both ends inclusive
Stored = tuple[date, int, float]  # a stored game: date, recording order, points
Line = tuple[int, str, int, int]  # grade, category, games_latest, games_counted


# --- G31..G34 from the spec's words -------------------------------------------------------


def rule_set_of(list_id: ListId) -> str:
    """G31: ecf-2009 up to 2011-07, ecf-2012 from 2012-01, ecf-2015 from 2015-01."""
    if list_id < HALF_YEARLY_FROM:
        return "ecf-2009"
    return "ecf-2012" if list_id.year < 2015 else "ecf-2015"


def publishes(list_id: ListId, rate: Rate) -> bool:
    """G31: rapid lists every January and July; standard in July, January too from 2012."""
    return rate is Rate.RAPID or list_id.month == 7 or list_id >= HALF_YEARLY_FROM


def list_months() -> Iterator[ListId]:
    list_id = FIRST_LIST
    while list_id <= LAST_LIST:
        yield list_id
        list_id = ListId(list_id.year + 1, 1) if list_id.month == 7 else ListId(list_id.year, 7)


def schedule() -> list[tuple[ListId, Rate]]:
    """Every list of the span in order, standard before rapid in a month."""
    return [
        (list_id, rate)
        for list_id in list_months()
        for rate in (Rate.STANDARD, Rate.RAPID)
        if publishes(list_id, rate)
    ]


def cutoff(list_id: ListId) -> date:
    """G32: 31 May / 30 November to 2011-07; 30 June / 31 December from 2012-01."""
    if list_id < HALF_YEARLY_FROM:
        return date(list_id.year, 5, 31) if list_id.month == 7 else date(list_id.year - 1, 11, 30)
    return date(list_id.year, 6, 30) if list_id.month == 7 else date(list_id.year - 1, 12, 31)


def half_year(day: date) -> Span:
    """G32: Dec-May and Jun-Nov before June 2011; June-December 2011; calendar halves."""
    if TRANSITION[0] <= day <= TRANSITION[1]:
        return TRANSITION
    if day > TRANSITION[1]:
        first = 1 if day.month <= 6 else 7
        return date(day.year, first, 1), date(day.year, first + 5, 30 if first == 1 else 31)
    if 6 <= day.month <= 11:
        return date(day.year, 6, 1), date(day.year, 11, 30)
    year = day.year if day.month == 12 else day.year - 1
    return date(year, 12, 1), date(year + 1, 5, 31)


def half_years(list_id: ListId) -> list[Span]:
    """G32: H0 ends on the cut-off; H1..H5 before it, latest first."""
    found = [half_year(cutoff(list_id))]
    while len(found) < 6:
        found.append(half_year(found[-1][0] - timedelta(days=1)))
    return found


def period(list_id: ListId, k: int) -> Span:
    """G32: P0 = H1 + H0, P1 = H3 + H2, P2 = H5 + H4."""
    halves = half_years(list_id)
    return halves[2 * k + 1][0], halves[2 * k][1]


def latest_before(list_id: ListId, rate: Rate) -> ListId:
    """G4, G5, G33: the most recent earlier list of ``rate`` (six months back from
    2012-01; before, standard lists were annual)."""
    earlier = list_id
    while True:
        earlier = ListId(earlier.year, 1) if earlier.month == 7 else ListId(earlier.year - 1, 7)
        if publishes(earlier, rate):
            return earlier


def stored_sources(list_id: ListId, rate: Rate, k: int) -> list[ListId]:
    """G17, G34: the list of the same rate and month k years earlier, whose P0 is P_k;
    for standard January lists with none (2012-01, 2013-01), the annual standard lists,
    read by date."""
    earlier = ListId(list_id.year - k, list_id.month)
    if publishes(earlier, rate):
        return [earlier]
    start, end = period(list_id, k)
    return [ListId(year, 7) for year in range(start.year, end.year + 2)]


# --- the replay -----------------------------------------------------------------------------


@dataclass
class Replay:
    """What the reference published and stored, list by list."""

    federation: EraFederation
    grades: dict[tuple[ListId, Rate], dict[int, int]] = field(default_factory=dict)
    stored: dict[tuple[ListId, Rate], dict[int, list[Stored]]] = field(default_factory=dict)
    results: dict[tuple[ListId, Rate], dict[int, RefResult]] = field(default_factory=dict)

    def published(self, list_id: ListId, rate: Rate) -> dict[str, Line]:
        """Name -> (grade, category, games_latest, games_counted) of the published."""
        people = self.federation.people
        return {
            people[key].name: (r.grade, str(r.category), r.games_latest, r.games_counted)
            for key, r in self.results[(list_id, rate)].items()
            if r.category is not Category.NONE
        }

    def unrounded(self, list_id: ListId, rate: Rate) -> dict[str, float]:
        people = self.federation.people
        return {people[key].name: r.unrounded for key, r in self.results[(list_id, rate)].items()}


def replay(federation: EraFederation) -> Replay:
    """Every list of the span in order, each from this replay's earlier lists."""
    done = Replay(federation)
    start = ListId.parse(START_LIST_ID)
    for rate, column in ((Rate.STANDARD, "standard"), (Rate.RAPID, "rapid")):
        done.grades[(start, rate)] = {
            p.key: getattr(p, column) for p in federation.people if getattr(p, column)
        }
    games = list(federation.games)
    for list_id, rate in schedule():
        inputs, keys, by_index = list_inputs(done, games, list_id, rate)
        results = {keys[p]: r for p, r in reference_compute(inputs).items()}
        done.results[(list_id, rate)] = results
        done.grades[(list_id, rate)] = {
            key: r.grade for key, r in results.items() if r.category is not Category.NONE
        }
        done.stored[(list_id, rate)] = {
            key: [(by_index[i].day, by_index[i].order, points) for i, points in r.points.items()]
            for key, r in results.items()
        }
    return done


def list_inputs(
    done: Replay, games: list[Game], list_id: ListId, rate: Rate
) -> tuple[ListInputs, list[int], list[Game]]:
    """A list's inputs, its player keys by index and its games by index."""
    start, end = period(list_id, 0)
    mine = [g for g in games if g.rate is rate and start <= g.day <= end]
    keys = sorted({k for g in mine for k in (g.player1, g.player2)})
    index = {key: i for i, key in enumerate(keys)}
    previous = done.grades.get((latest_before(list_id, rate), rate), {})
    other = done.grades.get((latest_before(list_id, rate.other), rate.other), {})
    people = done.federation.people
    players = PlayerTable.of(
        ids=keys,
        previous=[previous.get(key, math.nan) for key in keys],
        other_rate=[other.get(key, math.nan) for key in keys],
        birth=[np.datetime64(people[key].born or "NaT", "D") for key in keys],
    )
    table = GameTable.of(
        ids=[g.order for g in mine],
        player1=[index[g.player1] for g in mine],
        player2=[index[g.player2] for g in mine],
        result=[ResultCode.from_text(g.score) for g in mine],
        date=[np.datetime64(g.day, "D") for g in mine],
        rate=[RATE_CODES[rate]] * len(mine),
    )
    history = _history(done, list_id, rate, index)
    return ListInputs(list_id, rate, players, table, history), keys, mine


def _history(done: Replay, list_id: ListId, rate: Rate, index: dict[int, int]) -> History:
    """G17, G34: each stored game dated in P_k, read from the lists P_k is stored by."""
    rows: list[tuple[int, int, date, int, float]] = []  # period, player, date, order, points
    for k in (1, 2):
        start, end = period(list_id, k)
        for source in stored_sources(list_id, rate, k):
            for key, stored in done.stored.get((source, rate), {}).items():
                if key in index:
                    rows += [(k, index[key], d, o, x) for d, o, x in stored if start <= d <= end]
    size = len(index)
    totals = {k: (np.zeros(size, np.int64), np.zeros(size)) for k in (1, 2)}
    for k, player, _, _, points in rows:
        totals[k][0][player] += 1
        totals[k][1][player] += points
    stored_games = StoredGames.of(
        game_ids=[row[3] for row in rows],
        player=[row[1] for row in rows],
        period=[row[0] for row in rows],
        date=[np.datetime64(row[2], "D") for row in rows],
        order=[row[3] for row in rows],
        points=[row[4] for row in rows],
    )
    return History(
        StoredTotals.of(*totals[1], size), StoredTotals.of(*totals[2], size), stored_games
    )


# --- what the federation holds, by the replay ------------------------------------------------


def features(done: Replay) -> dict[str, list[str]]:
    """The situations the federation is meant to hold, each with the (list, player) lines
    where the replay met it."""
    found: dict[str, list[str]] = defaultdict(list)
    people = done.federation.people
    juniors: set[int] = set()
    for (list_id, rate), results in done.results.items():
        rules = rule_set_of(list_id)
        for key, r in results.items():
            where = f"{rate} {list_id} {people[key].name}"
            names = _features_of(list_id, rate, rules, r, people[key].kind)
            if rules == "ecf-2015" and _pro_rata(done, list_id, rate, key, r):
                names.append("ecf-2015 takes a half-year pro rata")
            if (list_id, rate) == (HALF_YEARLY_FROM, Rate.STANDARD) and _by_date(done, key):
                names.append("standard 2012-01 reads P1 from two annual lists by date")
            if r.junior:
                juniors.add(key)
            elif key in juniors and r.category is not Category.NONE:
                names.append("a junior grows up")
            for name in names:
                found[name].append(where)
    return dict(found)


def _by_date(done: Replay, key: int) -> bool:
    """G34: stored games of standard 2012-01's P1 (Dec 2009 .. Nov 2010) in both the
    annual lists it is read from, 2010-07 (to May 2010) and 2011-07 (from June 2010)."""
    start, end = period(HALF_YEARLY_FROM, 1)
    return all(
        any(start <= day <= end for day, _, _ in done.stored[(source, Rate.STANDARD)].get(key, []))
        for source in (ListId(2010, 7), ListId(2011, 7))
    )


def _pro_rata(done: Replay, list_id: ListId, rate: Rate, key: int, r: RefResult) -> bool:
    """G38: whether the half-years H2..H5 brought forward end in one taken in part."""
    need = (20 if r.junior else 30) - r.n0
    halves = half_years(list_id)[2:]
    counts = [0] * len(halves)
    for k in (1, 2):
        for source in stored_sources(list_id, rate, k):
            for day, _, _ in done.stored.get((source, rate), {}).get(key, []):
                counts = [n + int(h[0] <= day <= h[1]) for n, h in zip(counts, halves, strict=True)]
    for n in counts:
        if need <= 0:
            return False
        if n > need:
            return True
        need -= n
    return False


def _features_of(list_id: ListId, rate: Rate, rules: str, r: RefResult, kind: str) -> list[str]:
    target = 20 if r.junior else 30
    cat = r.category
    names = []
    if cat is Category.X:
        names.append(f"{rules} {rate} X")
        if list_id == HALF_YEARLY_FROM:
            names.append(f"X on the transition half-year, {rate}")
    if (
        rules == "ecf-2012"
        and r.n0 > target
        and r.games_counted == target
        and cat is not Category.X
    ):
        names.append("ecf-2012 counts back the most recent N of more than N in P0")
    if rules == "ecf-2012" and r.n0 < target < r.n0 + r.n1 + r.n2:
        names.append("ecf-2012 counts back into P1/P2")
    if rules == "ecf-2015" and r.n0 < target and r.n1 + r.n2 > 0:
        names.append("ecf-2015 brings whole half-years forward")
    if rules == "ecf-2015" and r.n0 >= 30 and r.h0 >= 30:
        names.append("ecf-2015 A with 30 in H0 (no X)")
    if rules == "ecf-2009" and rate is Rate.STANDARD and r.n0 < target and r.n1 + r.n2 > 0:
        names.append("ecf-2009 notional games")
    if cat is Category.F:
        names.append(f"ecf-2015 F {rate}")
    if r.source == "estimated" and not r.junior and r.n1 + r.n2 > 0:
        names.append(f"{rules} estimated with history (returner)")
    if r.source == "estimated" and kind == "newcomer":
        names.append(f"{rules} newcomer estimated")
    if r.junior and cat is not Category.NONE:
        names.append(f"{rules} junior +{r.bonus:g}")
    return names
