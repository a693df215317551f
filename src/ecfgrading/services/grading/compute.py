"""Grading runs: compute a list version from the database and publish it (G17, G26, G27)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from ecfgrading.engine import ECF_2009, ListId, ListOutcome, Rate, RuleSet, compute_list
from ecfgrading.engine.categories import CATEGORY_CODES
from ecfgrading.engine.starting import SOURCE_CODES
from ecfgrading.registry.models import (
    AuditLog,
    GradingList,
    ListEntry,
    ListVersion,
    StoredGamePoints,
    StoredPeriodTotal,
    assert_version_editable,
)
from ecfgrading.services import versions
from ecfgrading.services.bulk import insert_rows
from ecfgrading.services.grading.inputs import Loaded, load_inputs
from ecfgrading.services.versions import VersionError


@dataclass
class GradingRun:
    """What one computation did, for the grading team (also kept as the version's report)."""

    list_id: str
    rate: str
    version: str
    version_id: int
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
            f"{self.rate} list {self.list_id}, version {self.version} (draft {self.version_id})",
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
    rules: RuleSet = ECF_2009,
) -> GradingRun:
    """Compute a draft version of a list on the data as it is now (G26)."""
    lid = ListId.parse(list_id)
    lid.check_rate(rate)
    started = time.perf_counter()
    loaded = load_inputs(lid, rate)
    loaded_at = time.perf_counter()
    outcome = compute_list(loaded.inputs, rules)
    computed_at = time.perf_counter()
    with transaction.atomic():
        target = _draft(lid, rate, version, rules)
        run = _summary(outcome, loaded, target)
        _store(target, outcome, loaded)
        run.seconds = {
            "load": loaded_at - started,
            "engine": computed_at - loaded_at,
            "store": time.perf_counter() - computed_at,
        }
        target.report = run.as_dict()
        target.computed_at = timezone.now()
        target.save(update_fields=["report", "computed_at"])
        AuditLog.record("compute list", target, user=user, actor=actor or "grading")
    return run


def publish_version(
    list_id: str, rate: Rate, version: str, *, actor: str = "", user: Any = None
) -> ListVersion:
    """Publishing makes a draft immutable and the list's current version (G26)."""
    with transaction.atomic():
        target = versions.named(list_id, rate, version)
        target = ListVersion.objects.select_for_update().get(pk=target.pk)
        if target.is_published:
            raise VersionError(f"{rate} list {list_id} {version} is already published")
        later = target.grading_list.versions.filter(status=ListVersion.Status.PUBLISHED)
        if any(versions.rank(v.name) > versions.rank(version) for v in later):
            raise VersionError(f"a later version of {rate} list {list_id} is already published")
        target.status = ListVersion.Status.PUBLISHED
        target.published_at = timezone.now()
        target.save(update_fields=["status", "published_at"])
        AuditLog.record("publish list", target, user=user, actor=actor or "grading")
    return target


def _draft(lid: ListId, rate: Rate, name: str | None, rules: RuleSet) -> ListVersion:
    """The draft to (re)write: an existing draft of that name is emptied first."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=str(lid), rate=rate.value)
    name = name or versions.next_name(grading_list)
    if name == "august" and lid.month != 7:
        raise VersionError(f"only July lists have an august version, not {lid}")
    versions.check_new(grading_list, name)
    target, _ = ListVersion.objects.select_for_update().get_or_create(
        grading_list=grading_list, name=name, defaults={"rules_name": rules.name}
    )
    if target.is_published:
        raise VersionError(
            f"{rate} list {lid} {name} is published and immutable: compute a new version"
        )
    for model in (ListEntry, StoredGamePoints, StoredPeriodTotal):
        model.objects.filter(version=target).delete()
    return target


def _summary(outcome: ListOutcome, loaded: Loaded, target: ListVersion) -> GradingRun:
    cols = outcome.players
    active = cols.active
    return GradingRun(
        list_id=str(outcome.inputs.list_id),
        rate=outcome.inputs.rate.value,
        version=target.name,
        version_id=target.id,
        players=int(active.sum()),
        published=int(outcome.published.sum()),
        categories=_counted(CATEGORY_CODES[c].value or "none" for c in cols.category[active]),
        sources=_counted(SOURCE_CODES[s].value for s in cols.source[active]),
        unanchored=int(cols.unanchored.sum()),
        games=int(outcome.graded.sum()),
        waiting=loaded.waiting,
        read_from=loaded.sources.as_dict(),
    )


def _counted(values: Any) -> dict[str, int]:
    return dict(Counter(values))


# --- storing (bulk) -----------------------------------------------------------------


def _store(version: ListVersion, outcome: ListOutcome, loaded: Loaded) -> None:
    """Entries for every active player, and what G17 stores for later lists."""
    assert_version_editable(version)
    insert_rows(ListEntry, _ENTRY_COLUMNS, _entry_rows(version, outcome, loaded.previous_grades))
    cols, ids = outcome.players, outcome.inputs.players.ids
    index = np.flatnonzero(cols.active)
    totals = zip(
        [version.id] * index.size,
        ids[index].tolist(),
        cols.n0[index].tolist(),
        cols.t0[index].tolist(),
        strict=True,
    )
    insert_rows(StoredPeriodTotal, ("version_id", "player_id", "n", "total"), totals)
    insert_rows(StoredGamePoints, _POINTS_COLUMNS, _points_rows(version, outcome))


_ENTRY_COLUMNS = (
    "version_id", "player_id", "grade", "unrounded", "calculated", "category",
    "previous_grade", "games_latest", "games_counted", "n1", "n2", "junior_age", "bonus",
    "start_grade", "start_source", "flags", "published",
)  # fmt: skip
_POINTS_COLUMNS = ("version_id", "game_id", "player_id", "period", "date", "sequence", "points")


def _entry_rows(version: ListVersion, outcome: ListOutcome, grade1: dict[int, int]) -> Any:
    """One row per player with a graded game in P0, published or not (G17, G23)."""
    cols, history = outcome.players, outcome.inputs.history
    index = np.flatnonzero(cols.active)
    ids = outcome.inputs.players.ids[index].tolist()
    ages = np.where(cols.junior, cols.age, -1)[index].tolist()
    unanchored = cols.unanchored[index].tolist()
    categories = [CATEGORY_CODES[c].value for c in cols.category[index]]
    return zip(
        [version.id] * index.size,
        ids,
        cols.grade[index].tolist(),
        cols.unrounded[index].tolist(),
        cols.calculated[index].tolist(),
        categories,
        [grade1.get(pid) for pid in ids],
        cols.n0[index].tolist(),
        cols.games_counted[index].tolist(),
        history.p1.n[index].tolist(),
        history.p2.n[index].tolist(),
        [age if age >= 0 else None for age in ages],
        cols.bonus[index].tolist(),
        cols.start[index].tolist(),
        [SOURCE_CODES[c].value for c in cols.source[index]],
        ["unanchored" if flag else "" for flag in unanchored],
        [category != "" for category in categories],
        strict=True,
    )


def _points_rows(version: ListVersion, outcome: ListOutcome) -> Any:
    """Two rows per graded game: each side's points (G12), dated, in recording order."""
    games = outcome.inputs.games
    graded = np.flatnonzero(outcome.graded)
    ids = outcome.inputs.players.ids
    game_ids = games.ids[graded].tolist()
    dates = np.datetime_as_string(games.date[graded], unit="D").tolist()
    sides = (
        (games.player1, outcome.points.points1),
        (games.player2, outcome.points.points2),
    )
    for player, points in sides:
        yield from zip(
            [version.id] * graded.size,
            game_ids,
            ids[player[graded]].tolist(),
            [0] * graded.size,
            dates,
            game_ids,  # game ids grow with recording: the G15 tie-break
            points[graded].tolist(),
            strict=True,
        )
