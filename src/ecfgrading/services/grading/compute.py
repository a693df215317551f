"""Grading runs: compute a list version from the database and publish it (G17, G26, G27)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

import numpy as np
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from ecfgrading.collector import collector_paused
from ecfgrading.engine import ListId, ListOutcome, Rate, RuleSet, compute_list
from ecfgrading.engine.categories import CATEGORY_CODES
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.rules import rule_set
from ecfgrading.engine.starting import SOURCE_CODES
from ecfgrading.lookups import versions
from ecfgrading.lookups.list_inputs import Loaded, load_inputs
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.bulk import insert_rows
from ecfgrading.registry.models import (
    AuditLog,
    GradingList,
    ListEntry,
    ListVersion,
    StoredGamePoints,
    StoredPeriodTotal,
    assert_version_editable,
)
from ecfgrading.registry.packed import keep_packed
from ecfgrading.services.amendments import carry_pending
from ecfgrading.services.errors import ErrorKind, user_input
from ecfgrading.services.grading.storing import insert_columns, replace_columns
from ecfgrading.services.lists.snapshots import freeze_published
from ecfgrading.services.locks import busy_as_error


@dataclass
class GradingRun:
    """What one computation did, for the grading team (also kept as the version's report)."""

    list_id: str
    rate: str
    version: str
    version_id: int
    rule_set: str = ""  # G31: the rule set the version was computed under
    players: int = 0
    published: int = 0
    categories: dict[str, int] = field(default_factory=dict)
    sources: dict[str, int] = field(default_factory=dict)
    unanchored: int = 0
    games: int = 0
    waiting: dict[str, int] = field(default_factory=dict)  # event -> games left out
    read_from: dict[str, int | None] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    def to_text(self) -> str:
        lines = [
            f"{self.rate} list {self.list_id}, version {self.version} (draft {self.version_id}), "
            f"rule set {self.rule_set}",
            f"  {self.games} graded games; {self.players} players with games; "
            f"{self.published} published",
            "  categories: " + ", ".join(f"{c} {n}" for c, n in sorted(self.categories.items())),
            "  starting grades: " + ", ".join(f"{s} {n}" for s, n in sorted(self.sources.items())),
        ]
        if self.unanchored:
            lines.append(f"  unanchored (G11): {self.unanchored} players need assigned grades")
        if self.waiting:
            left = ", ".join(f"{event} ({n})" for event, n in sorted(self.waiting.items()))
            total = sum(self.waiting.values())
            lines.append(f"  left out, players awaiting identification: {total} games: {left}")
        timing = ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items())
        lines.append(f"  time: {timing}")
        return "\n".join(lines)


def compute_version(
    list_id: str,
    rate: Rate,
    version: str | None = None,
    *,
    actor: str = "",
    user: Any = None,
    rules_name: str | None = None,
    received_by: datetime | None = None,
) -> GradingRun:
    """Compute a draft version of a list on the data as it is now (G26).

    The list is computed under the rule set of its date (G31) unless ``rules_name`` names
    another (a what-if: such a draft is never published as the list's own version). The
    version records the rule set it was computed under, so that it is explained, and
    recomputed, under the same rules. ``received_by`` leaves out the games of results
    received after it (``regrade --as-published``); by default every game on record.
    """
    with user_input(VersionError):
        lid = ListId.parse(list_id)
        lid.check_rate(rate)
        rules = rules_for(lid) if rules_name is None else rule_set(rules_name)
    with busy_as_error(f"grading the {rate} list {lid}"), collector_paused():
        return _compute(
            lid, rate, version, rules, actor=actor or "grading", user=user, received_by=received_by
        )


def _compute(
    lid: ListId,
    rate: Rate,
    version: str | None,
    rules: RuleSet,
    *,
    actor: str,
    user: Any,
    received_by: datetime | None,
) -> GradingRun:
    started = time.perf_counter()
    loaded = load_inputs(lid, rate, rules, received_by=received_by)
    loaded_at = time.perf_counter()
    outcome = compute_list(loaded.inputs, rules)
    computed_at = time.perf_counter()
    with transaction.atomic():
        target = _draft(lid, rate, version, rules)
        _refuse_nothing_to_grade(lid, rate, loaded)  # after the draft's own refusals
        run = _summary(outcome, loaded, target)
        _store(target, outcome, loaded)
        run.seconds = {
            "load": loaded_at - started,
            "engine": computed_at - loaded_at,
            "store": time.perf_counter() - computed_at,
        }
        target.report = run.as_dict()
        if received_by is not None:  # the results it was computed on: those received by then
            target.report["received_by"] = received_by.isoformat()
        target.computed_at = timezone.now()
        target.save(update_fields=["report", "computed_at"])
        AuditLog.record("compute list", target, user=user, actor=actor)
    return run


def _refuse_nothing_to_grade(lid: ListId, rate: Rate, loaded: Loaded) -> None:
    """A list is graded from its P0's games (G3): with none there is nothing to grade, and
    the list made for nothing (1899-07, 2099-07) could never be removed again."""
    if loaded.inputs.games.ids.size:
        return
    waiting = sum(loaded.waiting.values())
    why = f"; {waiting} wait for their players to be identified" if waiting else ""
    raise VersionError(
        f"expected graded {rate} games in {lid.p0()}, the latest period of list {lid}, "
        f"got none{why}: nothing to grade",
        kind=ErrorKind.CONFLICT,
    )


def publish_version(
    list_id: str,
    rate: Rate,
    version: str,
    *,
    allow_unanchored: bool = False,
    actor: str = "",
    user: Any = None,
    published_at: datetime | None = None,
) -> ListVersion:
    """Publishing makes a draft immutable and the list's current version (G26).

    A draft in which most players are unanchored (G11) is refused unless
    ``allow_unanchored``: see ``_refuse_mostly_unanchored``. ``published_at`` (default
    now) lets a replayed history, such as the demo's, carry its own dates.
    """
    with user_input(VersionError):
        ListId.parse(list_id)
    with busy_as_error(f"publishing the {rate} list {list_id} {version}"), collector_paused():
        return _publish(
            list_id,
            rate,
            version,
            allow_unanchored=allow_unanchored,
            actor=actor,
            user=user,
            published_at=published_at or timezone.now(),
        )


def _publish(
    list_id: str,
    rate: Rate,
    version: str,
    *,
    allow_unanchored: bool,
    actor: str,
    user: Any,
    published_at: datetime,
) -> ListVersion:
    with transaction.atomic():
        target = versions.named(list_id, rate, version)
        target = ListVersion.objects.select_for_update().get(pk=target.pk)
        if target.is_published:
            raise VersionError(
                f"{rate} list {list_id} {version} is already published", kind=ErrorKind.CONFLICT
            )
        later = target.grading_list.versions.filter(status=ListVersion.Status.PUBLISHED)
        if any(versions.rank(v.name) > versions.rank(version) for v in later):
            raise VersionError(
                f"a later version of {rate} list {list_id} is already published",
                kind=ErrorKind.CONFLICT,
            )
        _refuse_other_rules(target)
        if not allow_unanchored:
            _refuse_mostly_unanchored(target)
        target.status = ListVersion.Status.PUBLISHED
        target.published_at = published_at
        target.save(update_fields=["status", "published_at"])
        freeze_published(target)  # its files never change (G26)
        carried = carry_pending(target)
        AuditLog.record(
            "publish list", target, user=user, actor=actor or "grading", amendments=carried
        )
    return target


def _refuse_other_rules(version: ListVersion) -> None:
    """G31: a list is published under the rule set of its date; a draft computed under
    another (a what-if) is for looking at, never the list's own version."""
    grading_list = version.grading_list
    own = rules_for(grading_list.list)
    if version.rules_name != own.name:
        raise VersionError(
            f"{grading_list} {version.name} was computed under {version.rules_name}, but "
            f"list {grading_list.list_id} is graded under {own.name} (G31): it is a what-if "
            f"draft and cannot be published; compute the list again without --rule-set",
            kind=ErrorKind.CONFLICT,
        )


def _refuse_mostly_unanchored(version: ListVersion) -> None:
    """A list in which most players are unanchored (G11) was graded before anything
    anchors them: its predecessors are not published (G4, G5) and no grades are
    assigned (G6), so its grades are those of a pool with a mean of 0. That is only
    ever meant for a federation's very first list, so it takes an explicit yes."""
    entries = ListEntry.objects.filter(version=version)
    counts = entries.aggregate(players=Count("id"), unanchored=Count("id", filter=_UNANCHORED))
    if counts["unanchored"] * 2 <= counts["players"]:
        return
    grading_list = version.grading_list
    previous = ListId.parse(grading_list.list_id).previous_same_rate(Rate(grading_list.rate))
    raise VersionError(
        f"{counts['unanchored']} of {counts['players']} players of {grading_list} "
        f"{version.name} are unanchored (G11): publish the lists before it (such as "
        f"{previous} {grading_list.rate}) or assign starting grades (G6) and grade it "
        "again, or publish it as it is with --allow-unanchored",
        kind=ErrorKind.CONFLICT,
    )


_UNANCHORED = Q(flags__contains="unanchored")  # flags are comma-separated


def _draft(lid: ListId, rate: Rate, name: str | None, rules: RuleSet) -> ListVersion:
    """The draft to (re)write: an existing draft of that name is emptied first, but for
    its points, which ``_store`` replaces (``storing.replace_columns``: on PostgreSQL
    only the rows that changed are written)."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=str(lid), rate=rate.value)
    name = name or versions.next_name(grading_list)
    if name == ListVersion.AUGUST and not grading_list.has_august:
        raise VersionError(f"only July lists have an august version, not {lid}")
    versions.check_new(grading_list, name)
    target, _ = ListVersion.objects.select_for_update().get_or_create(
        grading_list=grading_list, name=name, defaults={"rules_name": rules.name}
    )
    if target.is_published:
        raise VersionError(
            f"{rate} list {lid} {name} is published and immutable: compute a new version",
            kind=ErrorKind.CONFLICT,
        )
    for model in (ListEntry, StoredPeriodTotal):
        model.objects.filter(version=target).delete()
    if target.rules_name != rules.name:  # a draft recomputed under other rules says so
        target.rules_name = rules.name
        target.save(update_fields=["rules_name"])
    return target


def _summary(outcome: ListOutcome, loaded: Loaded, target: ListVersion) -> GradingRun:
    cols = outcome.players
    active = cols.active
    return GradingRun(
        list_id=str(outcome.inputs.list_id),
        rate=outcome.inputs.rate.value,
        version=target.name,
        version_id=target.id,
        rule_set=outcome.rules.name,
        players=int(active.sum()),
        published=int(outcome.published.sum()),
        categories=_counted(_CATEGORY_NAMES, cols.category[active]),
        sources=_counted(_SOURCE_TEXTS, cols.source[active]),
        unanchored=int(cols.unanchored.sum()),
        games=int(outcome.graded.sum()),
        waiting=loaded.waiting,
        read_from=loaded.sources.as_dict(),
    )


def _counted(texts: np.ndarray, codes: np.ndarray) -> dict[str, int]:  # type: ignore[type-arg]
    """How many players have each code, by its text, in the order the codes first appear
    (as counting the texts one by one would give: the report keeps that order)."""
    found, first, counts = np.unique(codes, return_index=True, return_counts=True)
    order = np.argsort(first)
    return dict(zip(texts[found[order]].tolist(), counts[order].tolist(), strict=True))


# The texts of the engine's category and source codes, indexed by code as its tuples are
# (a code of -1 reads the last): a national list's 40,000 players are looked up at once,
# not one enum at a time.
_CATEGORY_TEXTS = np.array([category.value for category in CATEGORY_CODES], dtype=object)
_CATEGORY_NAMES = np.array([text or "none" for text in _CATEGORY_TEXTS], dtype=object)
_SOURCE_TEXTS = np.array([source.value for source in SOURCE_CODES], dtype=object)


# --- storing (bulk) -----------------------------------------------------------------


def _store(version: ListVersion, outcome: ListOutcome, loaded: Loaded) -> None:
    """Entries for every active player, and what G17 stores for later lists."""
    assert_version_editable(version)
    entries = _entry_rows(version, outcome, loaded.previous_grades)
    insert_rows(ListEntry, _EntryRow._fields, entries)
    insert_columns(StoredPeriodTotal, _total_columns(version, outcome))
    points = _points_columns(version, outcome)
    replace_columns(StoredGamePoints, points, version.id)
    keep_packed(version.id, points)  # what later lists' loads read (registry.packed)


# One NamedTuple per table: its fields name the database columns a run writes, and every
# row (``_rows``), or every column (``storing.insert_columns``: the points and totals, whole
# arrays, written at the database's pace), is given by name.


class _EntryRow(NamedTuple):
    version_id: int
    player_id: int
    grade: int
    unrounded: float
    calculated: float
    category: str
    previous_grade: int | None  # Grade1
    games_latest: int  # G24: games in P0
    games_counted: int  # G24
    n1: int
    n2: int
    junior_age: int | None
    bonus: float  # G20
    start_grade: float
    start_source: str
    flags: str
    published: bool  # G23


class _TotalColumns(NamedTuple):
    version_id: np.ndarray  # type: ignore[type-arg]
    player_id: np.ndarray  # type: ignore[type-arg]
    n: np.ndarray  # type: ignore[type-arg]
    total: np.ndarray  # type: ignore[type-arg]


class _PointsColumns(NamedTuple):
    version_id: np.ndarray  # type: ignore[type-arg]
    game_id: np.ndarray  # type: ignore[type-arg]
    player_id: np.ndarray  # type: ignore[type-arg]
    period: np.ndarray  # type: ignore[type-arg]
    date: np.ndarray  # type: ignore[type-arg]
    sequence: np.ndarray  # type: ignore[type-arg]
    points: np.ndarray  # type: ignore[type-arg]


def _rows(table: type[NamedTuple], **columns: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Rows of ``table`` from one sequence per column, each given by its name.

    Plain tuples in the table's field order, not NamedTuples: a national run writes
    400,000 points rows, and building an object for each would slow the store down.
    """
    fields = table._fields
    if sorted(columns) != sorted(fields):
        raise TypeError(f"{table.__name__} has columns {fields}, got {tuple(columns)}")
    return zip(*(columns[name] for name in fields), strict=True)


def _entry_rows(
    version: ListVersion, outcome: ListOutcome, grade1: dict[int, int]
) -> Iterator[tuple[Any, ...]]:
    """One row per player with a graded game in P0, published or not (G17, G23)."""
    cols, history = outcome.players, outcome.inputs.history
    index = np.flatnonzero(cols.active)
    ids = outcome.inputs.players.ids[index].tolist()
    ages = np.where(cols.junior, cols.age, -1)[index].tolist()
    categories = _CATEGORY_TEXTS[cols.category[index]].tolist()
    return _rows(
        _EntryRow,
        version_id=[version.id] * index.size,
        player_id=ids,
        grade=cols.grade[index].tolist(),
        unrounded=cols.unrounded[index].tolist(),
        calculated=cols.calculated[index].tolist(),
        category=categories,
        previous_grade=[grade1.get(pid) for pid in ids],
        games_latest=cols.n0[index].tolist(),
        games_counted=cols.games_counted[index].tolist(),
        n1=history.p1.n[index].tolist(),
        n2=history.p2.n[index].tolist(),
        junior_age=[age if age >= 0 else None for age in ages],
        bonus=cols.bonus[index].tolist(),
        start_grade=cols.start[index].tolist(),
        start_source=_SOURCE_TEXTS[cols.source[index]].tolist(),
        flags=["unanchored" if flag else "" for flag in cols.unanchored[index].tolist()],
        published=[category != "" for category in categories],
    )


def _total_columns(version: ListVersion, outcome: ListOutcome) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    """G17: each active player's games and points in P0, for later lists' P1 and P2."""
    cols = outcome.players
    index = np.flatnonzero(cols.active)
    return _TotalColumns(
        version_id=np.full(index.size, version.id, np.int64),
        player_id=outcome.inputs.players.ids[index],
        n=cols.n0[index],
        total=cols.t0[index],
    )._asdict()


def _points_columns(version: ListVersion, outcome: ListOutcome) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    """Two rows per graded game: each side's points (G12), dated, with the game's
    recording order (G15).

    Written in the order of the table's unique (version, player, game) index: the index then
    grows at its end, and a draft's rows are deleted as they were written.
    """
    games = outcome.inputs.games
    graded = np.flatnonzero(outcome.graded)
    game_ids = np.concatenate([games.ids[graded]] * 2)
    players = outcome.inputs.players.ids[
        np.concatenate([games.player1[graded], games.player2[graded]])
    ]
    order = np.lexsort((game_ids, players))
    return _PointsColumns(
        version_id=np.full(order.size, version.id, np.int64),
        game_id=game_ids[order],
        player_id=players[order],
        period=np.zeros(order.size, np.int16),  # the version's own P0
        date=np.concatenate([games.date[graded]] * 2)[order],
        sequence=game_ids[order],  # game ids grow with recording: the G15 tie-break
        points=np.concatenate([outcome.points.points1[graded], outcome.points.points2[graded]])[
            order
        ],
    )._asdict()
