"""Provisional grades for the next list: the real engine, on the results received so far.

The seeds' FAQ says a player cannot work out his grade in mid-season; here he can. The
next list of a rate is computed exactly as the grading team would compute it today
(``services.grading``: ``load_inputs`` and the engine's ``compute_list``), from every
result received so far, and nothing is stored: no version is made.

A computation reads the whole federation (seconds at national size), so a page view
never starts one of its own accord: the outcome is computed once per data token
(``freshness.data_token``: anything received, identified or published makes a new one)
and kept in the shared cache, where every app server finds it. Each process also keeps
the latest outcome it has read, so a page view only looks its player up in arrays. The
first view after a change computes it; views arriving meanwhile wait for that one
rather than computing it again.

``games_needed`` answers the forums' question, "when do I drop off the list?", from the
category table of the next list's rule set (G23, G39; G31: F from 2015, X for standard
from 2012): how many more games in the latest period each category takes.
"""

from __future__ import annotations

import pickle
import threading
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

import numpy as np
from django.core.cache import cache
from django.db.models import Max, Sum

from ecfgrading.engine.compute import compute_list
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.explain import Explanation, explain
from ecfgrading.engine.outcome import Entry, ListOutcome
from ecfgrading.engine.periods import ListId, Period, junior_age
from ecfgrading.engine.rules import CategoryRule, RuleSet
from ecfgrading.engine.types import Rate
from ecfgrading.lookups.breakdown import (
    DETAIL_COLUMNS,
    Breakdown,
    Context,
    GameDetail,
    GameRow,
    breakdown,
    detail,
    received_row,
)
from ecfgrading.lookups.clock import not_after_today, today
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.history import current_versions
from ecfgrading.lookups.list_inputs import load_inputs
from ecfgrading.lookups.lists import CurrentList, VersionInfo, list_label
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import Game, StoredGamePoints, StoredPeriodTotal, Submission

_KEY = "provisional:v1"
LOCK_SECONDS = 300  # a computation that has not finished by then is presumed dead
WAIT_SECONDS = 60.0  # how long a view waits for another's computation before its own
POLL_SECONDS = 0.2


def next_list(current: ListId, rate: Rate) -> ListId:
    """The list whose previous list of the same rate (G4) is ``current``."""
    return current.next(rate)


@dataclass(frozen=True)
class NextRun:
    """The next list of a rate computed on what had been received at ``token``."""

    list_id: ListId
    rate: Rate
    token: str
    outcome: ListOutcome | None  # None: no graded game of its latest period yet
    received_until: datetime | None  # when the latest accepted results file arrived

    def entry(self, player_id: int) -> Entry | None:
        """The player's provisional entry; None if he has no game in its latest period."""
        index = self._index(player_id)
        return None if index is None else self.outcome.entry(index)  # type: ignore[union-attr]

    def explanation(self, player_id: int) -> Explanation | None:
        """Section 10 for the provisional grade, by the engine's own ``explain``."""
        index = self._index(player_id)
        return None if index is None else explain(self.outcome, index)  # type: ignore[arg-type]

    def h0_games(self, player_id: int) -> int:
        """Rapid games in the list's half-year H0 so far (G16)."""
        index = self._index(player_id)
        return 0 if index is None else int(self.outcome.players.h0[index])  # type: ignore[union-attr]

    def _index(self, player_id: int) -> int | None:
        if self.outcome is None:
            return None
        found = np.flatnonzero(self.outcome.inputs.players.ids == player_id)
        if found.size == 0 or not self.outcome.players.active[found[0]]:
            return None
        return int(found[0])


def provisional_run(list_id: ListId, rate: Rate, token: str | None = None) -> NextRun:
    """The next list as the data stands (``token``, read if not given): from this
    process, the shared cache, or computed."""
    token = data_token() if token is None else token
    run = _LATEST.get(token, list_id, rate)
    if run is None:
        run = _shared(token, list_id, rate)
        _LATEST.put(run)
    return run


def _shared(token: str, list_id: ListId, rate: Rate) -> NextRun:
    key = f"{_KEY}:{token}:{list_id}:{rate.value}"
    found = _read(key)
    if found is not None:
        return found
    if cache.add(f"{key}:lock", 1, timeout=LOCK_SECONDS):
        try:
            return _computed(key, token, list_id, rate)
        finally:
            cache.delete(f"{key}:lock")
    return _awaited(key) or _computed(key, token, list_id, rate)


def _awaited(key: str) -> NextRun | None:
    """Another view is computing it: wait for its result rather than compute it twice."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        found = _read(key)
        if found is not None or cache.get(f"{key}:lock") is None:
            return found
    return None


def _read(key: str) -> NextRun | None:
    packed = cache.get(key)
    if packed is None:
        return None
    run: NextRun = pickle.loads(zlib.decompress(packed))
    return run


def _computed(key: str, token: str, list_id: ListId, rate: Rate) -> NextRun:
    run = compute_next(list_id, rate, token)
    cache.set(key, zlib.compress(pickle.dumps(run, protocol=pickle.HIGHEST_PROTOCOL), 1))
    return run


def compute_next(list_id: ListId, rate: Rate, token: str = "") -> NextRun:
    """Grade ``list_id`` now, as ``compute_version`` would (under the rule set of its
    date, G31), storing nothing."""
    rules = rules_for(list_id)
    loaded = load_inputs(list_id, rate, rules)
    outcome = compute_list(loaded.inputs, rules) if loaded.inputs.games.ids.size else None
    latest = Submission.objects.filter(status=Submission.Status.ACCEPTED).aggregate(
        at=Max("received_at")
    )
    return NextRun(list_id, rate, token, _without_births(outcome), latest["at"])


def _without_births(outcome: ListOutcome | None) -> ListOutcome | None:
    """Dates of birth are private: the cached outcome keeps the ages the engine derived
    from them (``players.age``), never the dates themselves."""
    if outcome is None:
        return None
    players = outcome.inputs.players
    unknown = np.full(len(players), np.datetime64("NaT"), dtype="datetime64[D]")
    inputs = replace(outcome.inputs, players=replace(players, birth=unknown))
    return replace(outcome, inputs=inputs)


class _Latest:
    """The latest run of each list this process has read (one per rate): unpacking a
    national outcome from the shared cache takes tens of milliseconds, looking a player
    up in it microseconds. A new data token replaces it."""

    def __init__(self) -> None:
        self._runs: dict[tuple[str, Rate], NextRun] = {}
        self._lock = threading.Lock()

    def get(self, token: str, list_id: ListId, rate: Rate) -> NextRun | None:
        run = self._runs.get((str(list_id), rate))
        return run if run is not None and run.token == token else None

    def put(self, run: NextRun) -> None:
        with self._lock:
            self._runs = {
                **{k: v for k, v in self._runs.items() if v.rate is not run.rate},
                (str(run.list_id), run.rate): run,
            }


_LATEST = _Latest()


# --- games needed to stay on the list (G23) -------------------------------------------


@dataclass(frozen=True)
class CategoryNeed:
    """What one category of the next list takes, for a player's counts so far."""

    category: str
    more: int  # more graded games in the latest season; 0: already met
    rule: CategoryRule | None  # None for X, which needs ``x_min_games`` in H0 (G16)
    words: str  # what the category takes


def games_needed(
    n0: int, n1: int, n2: int, *, junior: bool, rules: RuleSet
) -> tuple[CategoryNeed, ...]:
    """Each category of the table (G23), with the games still to play for it.

    A game played now counts in the latest season (n0), so it raises every sum a row
    tests (n0, n0 + n1, n0 + n1 + n2) by one: the games a row needs are its largest
    shortfall. Counts of earlier seasons are what the lists before stored (G17).
    """
    table = rules.junior_categories if junior else rules.adult_categories
    sums = (n0, n0 + n1, n0 + n1 + n2)
    return tuple(
        CategoryNeed(
            row.category,
            max(0, *(least - have for least, have in zip(_minima(row), sums, strict=True))),
            row,
            requirement(row),
        )
        for row in table
    )


def x_needed(h0: int, rules: RuleSet) -> CategoryNeed:
    """G16, G36: games in the half-year H0 still needed for an X grade."""
    words = f"{rules.x_min_games} games in the latest half-year"
    return CategoryNeed("X", max(0, rules.x_min_games - h0), None, words)


def requirement(row: CategoryRule) -> str:
    """'15 games in the latest three seasons, at least 5 in the latest' (G23)."""
    spans = ((row.min_n012, "three seasons"), (row.min_n01, "two seasons"))
    wider = next(((least, span) for least, span in spans if least), None)
    if wider is None:
        return f"{row.min_n0} games in the latest season"
    return f"{wider[0]} games in the latest {wider[1]}, at least {row.min_n0} in the latest"


def _minima(row: CategoryRule) -> tuple[int, int, int]:
    return (row.min_n0, row.min_n01, row.min_n012)


# --- a player's next list ---------------------------------------------------------------


@dataclass(frozen=True)
class NextList:
    """The next list of one rate for one player, as far as the results received go."""

    rate: Rate
    list: str  # e.g. 2013-07
    start: date  # its latest period P0
    end: date
    h0_start: date
    since: date  # the end of the current list's P0: later games are new
    received: tuple[GameRow, ...]  # graded games dated after ``since``
    received_until: datetime | None  # the latest results file accepted
    provisional: Breakdown | None  # None: no game of his in P0 yet
    junior: bool  # on the next list's age date (G25)
    games_latest: int  # n0 so far
    games_before: tuple[int, int]  # n1, n2: stored by the lists before (G17)
    needs: tuple[CategoryNeed, ...]
    x_need: CategoryNeed | None  # where the next list's rule set has X (G16, G36)
    rule_set: str = ""  # the next list's (G31)
    closed: bool = False  # its period ended before the site's today: no game can be added

    @property
    def label(self) -> str:
        return list_label(self.list)

    @property
    def on_course(self) -> str:
        """The best category already reached; '' when none is."""
        met = [need.category for need in (self.x_need, *self.needs) if need and not need.more]
        return met[0] if met else ""

    @property
    def earlier_games(self) -> tuple[GameRow, ...]:
        """Games of its period that the last list counted already (a January rapid
        list's period began before the July list's ended): counted again, afresh."""
        found = self.provisional.games if self.provisional else ()
        return tuple(g for g in found if g.date is not None and g.date <= self.since)

    @property
    def to_stay(self) -> CategoryNeed | None:
        """The last row of the table: what it takes to be on the list at all (G23)."""
        return self.needs[-1] if self.needs else None


def next_runs(current: Mapping[Rate, CurrentList], token: str) -> dict[Rate, NextRun]:
    """The next list after each rate's current one, as the data stands at ``token``."""
    return {
        rate: provisional_run(next_list(ListId.parse(found.list_id), rate), rate, token)
        for rate, found in current.items()
    }


def received_games(
    records: Sequence[int], runs: Mapping[Rate, NextRun], final: Mapping[int, int]
) -> dict[Rate, list[GameDetail]]:
    """Graded games of each rate dated after the current list's latest period.

    One query a side, each by its player's index: asked for both sides at once, SQLite
    chose to read every game of the rate instead.
    """
    since = {rate: run.list_id.previous_same_rate(rate).p0().end for rate, run in runs.items()}
    if not since:
        return {}
    after = min(since.values())
    rows = {row[0]: row for side in _RECEIVED.values() for row in side.rows(records, after)}
    found: dict[Rate, list[GameDetail]] = {rate: [] for rate in runs}
    for row in sorted(rows.values(), key=lambda r: (r[1], r[-1])):  # by date, as recorded
        rate, game = Rate(row[4]), detail(row[:-1], final)
        # Two records of one person who met are merged: that game is no game (inputs.py).
        if rate in since and game.date > since[rate] and game.sides[0] != game.sides[1]:
            found[rate].append(game)
    return found


def _received(side: str) -> Statement:
    """A side's graded games after a day, by that side's (player, graded, date) index."""
    return Statement(
        lambda records, after: Game.objects.filter(
            **{f"{side}__in": records}, graded=True, game_date__gt=after
        ).values_list(*DETAIL_COLUMNS, "sequence")
    )


_RECEIVED = {side: _received(side) for side in ("player1_id", "player2_id")}


def next_lists(
    player_id: int,
    born: date | None,
    records: Sequence[int],
    runs: Mapping[Rate, NextRun],
    ahead: Mapping[Rate, Explanation | None],
    new: Mapping[Rate, list[GameDetail]],
    context: Context,
    versions: Sequence[VersionInfo],
) -> tuple[NextList, ...]:
    """The next list of each rate of ``runs``: ``ahead`` is his provisional explanation
    in it, ``new`` his games received since the current list; ``born`` tells a junior
    with no provisional entry yet (G25), and is never shown."""
    before = _stored_counts(records, runs, versions)
    return tuple(
        _next(player_id, born, run, ahead[rate], new[rate], context, before[rate])
        for rate, run in runs.items()
    )


def _next(
    player_id: int,
    born: date | None,
    run: NextRun,
    explanation: Explanation | None,
    received: list[GameDetail],
    context: Context,
    before: tuple[int, int],
) -> NextList:
    lid, rate = run.list_id, run.rate
    rules = rules_for(lid)  # G31: the next list's rule set, F from 2015, X from 2012
    entry = explanation.entry if explanation else None
    lines = {line.game_id: line for line in explanation.games} if explanation else {}
    junior = entry.junior_age is not None if entry else junior_age(born, lid, rules) is not None
    n0 = entry.games_latest if entry else 0
    n1, n2 = (entry.n1, entry.n2) if entry else before
    return NextList(
        rate=rate,
        list=str(lid),
        start=lid.p0().start,
        end=lid.p0().end,
        h0_start=lid.h0().start,
        since=lid.previous_same_rate(rate).p0().end,
        received=tuple(received_row(d, context, line=lines.get(d.id)) for d in received),
        received_until=not_after_today(run.received_until),  # never after the site's today
        provisional=(
            breakdown(explanation, "provisional", replace(context, rules=rules))
            if explanation
            else None
        ),
        junior=junior,
        games_latest=n0,
        games_before=(n1, n2),
        needs=games_needed(n0, n1, n2, junior=junior, rules=rules),
        x_need=x_needed(run.h0_games(player_id), rules) if rules.x_applies(rate) else None,
        rule_set=rules.name,
        closed=lid.p0().end < today(),
    )


def _stored_counts(
    records: Sequence[int], runs: Mapping[Rate, NextRun], versions: Sequence[VersionInfo]
) -> dict[Rate, tuple[int, int]]:
    """G17: games the lists of the next list's P1 and P2 stored for him (one query).

    Only needed for a player with no game in the next list's P0 yet; the engine's entry
    carries them otherwise.
    """
    latest = current_versions(versions)
    sources = {
        (rate, k): [latest.get((str(lid), rate)) for lid in run.list_id.stored_by(rate, k)]
        for rate, run in runs.items()
        for k in (1, 2)
    }
    wanted = {key: found[0] for key, found in sources.items() if len(found) == 1}
    ids = [v.id for v in wanted.values() if v is not None]
    totals: dict[int, int] = dict(_STORED_COUNTS.rows(ids, records))
    count = {key: int(totals.get(v.id, 0)) if v else 0 for key, v in wanted.items()}
    for (rate, k), found in sources.items():
        if len(found) > 1:  # G34: read by date from the annual lists
            count[(rate, k)] = _stored_by_date(found, records, runs[rate].list_id.period(k))
    return {rate: (count[(rate, 1)], count[(rate, 2)]) for rate in runs}


_STORED_COUNTS = Statement(
    lambda ids, records: (
        StoredPeriodTotal.objects.filter(version_id__in=ids, player_id__in=records)
        .order_by()  # the model's ordering would join the players and versions for nothing
        .values("version_id")
        .annotate(n=Sum("n"))
        .values_list("version_id", "n")
    )
)


def _stored_by_date(
    found: Sequence[VersionInfo | None], records: Sequence[int], period: Period
) -> int:
    """G34: the stored games of several lists dated in a period."""
    ids = [v.id for v in found if v is not None]
    return StoredGamePoints.objects.filter(
        version_id__in=ids,
        player_id__in=records,
        period=0,
        date__gte=period.start,
        date__lte=period.end,
    ).count()
